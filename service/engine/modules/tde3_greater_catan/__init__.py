"""Treasures, Dragons & Explorers scenario 3, "Greater Catan" (3 and 4 players): the scenario ``TDE3``."""
from .scenario import GreaterCatanTDE

SCENARIOS = (GreaterCatanTDE(),)
