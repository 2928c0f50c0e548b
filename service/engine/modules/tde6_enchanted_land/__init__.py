"""Treasures, Dragons & Explorers scenario 6, "Enchanted Land" (TDE6), on Cities & Knights: the map
(``maps.py``), where things are (``land.py``), the knights and dragons (``knights.py``) and the scenario's
modules (``scenario.py``)."""
from .scenario import EnchantedLand

SCENARIOS = (EnchantedLand(),)
