"""Into the Desert (Seafarers scenarios 6 and 7): the larger area and the lands beyond the desert."""
from .sc06 import IntoTheDesert3
from .sc07 import IntoTheDesert4

SCENARIOS = (IntoTheDesert3(), IntoTheDesert4())
