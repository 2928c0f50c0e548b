"""Treasures, Dragons & Explorers scenario 5, "The Great Canal" (TDE5), played with Cities & Knights: the
map (``maps.py``), the canal, prospectors and traders (``canal.py``), the scenario module
(``scenario.py``)."""
from .scenario import GreatCanal

SCENARIOS = (GreatCanal(),)
