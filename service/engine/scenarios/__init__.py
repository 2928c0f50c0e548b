"""The scenario registry: every scenario the service knows, by id.

Scenarios of ``service/engine/modules/`` register themselves: each package there lists its scenarios in
``SCENARIOS`` (a tuple of instances), and is found by :func:`discover` with no edit anywhere else.
"""
from __future__ import annotations

import importlib
import pkgutil

from .base import Scenario, registered
from .seafarers import Seafarers

SCENARIOS: dict[str, Scenario] = {}


def register(s: Scenario) -> Scenario:
    """Add ``s`` to the registry, its declarations composed once (``base.registered``)."""
    if s.id in SCENARIOS and type(SCENARIOS[s.id]) is not type(s):
        raise ValueError(f"two scenarios with the id {s.id!r}")
    SCENARIOS[s.id] = registered(s)
    return s


def discover(package: str = "service.engine.modules") -> list[str]:
    """Import every module package under ``package`` and register the scenarios it lists."""
    found = []
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{package}.{info.name}")
        for scen in getattr(mod, "SCENARIOS", ()):
            register(scen)
            found.append(scen.id)
    return found


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
discover()


def get_scenario(sid: str) -> Scenario:
    return SCENARIOS[sid]
