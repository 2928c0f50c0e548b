"""The wagon-train variant (WAG, seeds/004): the scenario and its rules module (``scenario.py``), its default
maps (``maps.py``), the one step-cost function and the wagon's plans (``costs.py``), and its action handlers
(``handlers.py``)."""
from .scenario import WagonTrain

SCENARIOS = (WagonTrain(),)
