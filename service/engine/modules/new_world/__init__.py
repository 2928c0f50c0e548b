"""A New World (Seafarers scenarios 8 and 9): a random board and player-placed harbour tokens (``harbors.py``)."""
from .sc08 import NewWorld3
from .sc09 import NewWorld4

SCENARIOS = (NewWorld3(), NewWorld4())
