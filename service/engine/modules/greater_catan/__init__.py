"""Greater Catan (Seafarers scenario 11): the small islands take their tokens from the mainland."""
from .scenario import GreaterCatan

SCENARIOS = (GreaterCatan(),)
