"""New Shores (Seafarers scenario 1): the mainland and the islands beyond it."""
from .scenario import NewShores

SCENARIOS = (NewShores(),)
