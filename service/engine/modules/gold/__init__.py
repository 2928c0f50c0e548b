"""GOLD, the fan scenario "Gold / Front Coast" (seed 000, GOLD-001..043, rulings R-031..R-044), as one rule-module
package: the scenario and its declarations (``scenario.py``), its mobile ships, gold coins, gold trades and
replacement handlers (``actions.py``), and the Minimum Number of Roads with statements A/B/C (``mnr.py``)."""
from .scenario import Gold

SCENARIOS = (Gold(),)
