"""Treasures, Dragons & Explorers scenario 4, "The Desert Dragons" (TDE4): maps (``maps.py``), the dragon
economy (``dragons.py``), the 7 and the knight (``actions.py``), the scenario module (``scenario.py``)."""
from .scenario import DesertDragons

SCENARIOS = (DesertDragons(),)
