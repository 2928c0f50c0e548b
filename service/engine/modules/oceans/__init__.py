"""Oceans (Seafarers scenarios 4 and 5): the unexplored sea, revealed as ships and roads reach it."""
from .sc04 import Oceans
from .sc05 import OceansIV

SCENARIOS = (Oceans(), OceansIV())
