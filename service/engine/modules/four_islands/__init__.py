"""The Four Islands (Seafarers scenarios 2 and 3): home islands and special points for new ones."""
from .sc02 import FourIslands
from .sc03 import FourIslandsIV

SCENARIOS = (FourIslands(), FourIslandsIV())
