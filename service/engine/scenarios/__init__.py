"""The scenario registry: every scenario the service knows, by id."""
from __future__ import annotations

from .base import Scenario
from .seafarers import Seafarers

SCENARIOS: dict[str, Scenario] = {}


def register(s: Scenario) -> Scenario:
    SCENARIOS[s.id] = s
    return s


register(Scenario())
register(Seafarers())

from .sc01_new_shores import NewShores          # noqa: E402  (the scenarios import the registry's base)
from .sc02_four_islands import FourIslands      # noqa: E402
from .sc03_four_islands import FourIslandsIV    # noqa: E402
from .sc04_oceans import Oceans                 # noqa: E402
from .sc05_oceans import OceansIV               # noqa: E402

for _s in (NewShores(), FourIslands(), FourIslandsIV(), Oceans(), OceansIV()):
    register(_s)

from .gold import Gold                          # noqa: E402
from .sc06_into_the_desert import IntoTheDesert3  # noqa: E402
from .sc07_into_the_desert import IntoTheDesert4  # noqa: E402
from .sc08_new_world import NewWorld3            # noqa: E402
from .sc09_new_world import NewWorld4            # noqa: E402
from .sc10_great_crossing import GreatCrossing   # noqa: E402
from .sc11_greater_catan import GreaterCatan     # noqa: E402

for _s in (IntoTheDesert3(), IntoTheDesert4(), NewWorld3(), NewWorld4(), GreatCrossing(), GreaterCatan()):
    register(_s)

register(Gold())


def get_scenario(sid: str) -> Scenario:
    return SCENARIOS[sid]
