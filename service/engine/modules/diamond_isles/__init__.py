"""Diamond Isles (DIAM): the fan scenario of seeds/001 as a rule module (see ``scenario.py``)."""
from .scenario import DiamondIsles

SCENARIOS = (DiamondIsles(),)
