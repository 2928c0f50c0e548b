"""The Great Crossing (Seafarers scenario 10): trade routes between the home islands (``routes.py``)."""
from .scenario import GreatCrossing

SCENARIOS = (GreatCrossing(),)
