"""Cities & Knights: an expansion module switched on by the game option ``cities_and_knights: true``
for the base game and the Seafarers scenarios (``rules/cities-and-knights.md``, ruling R-079)."""
from __future__ import annotations

from typing import Any, Optional

from ... import scenarios as _registry
from ...scenarios import Expansion
from .data import OPTION
from .module import CitiesAndKnights, ck_refusal
from .seafaring import SeafaringCitiesAndKnights


def adjust(scen: Any) -> Optional[type]:
    """A scenario's own rules with Cities & Knights: GOLD's costs and start (GOLD-002, -006, -012..015,
    -017); the pirate with Seafarers (CK-SEA-8)."""
    own = getattr(scen, "cities_and_knights_rules", None)    # a scenario naming its own (TDE5)
    if own is not None:
        return own
    if scen.id == "GOLD":
        from .gold import GoldCitiesAndKnights
        return GoldCitiesAndKnights
    if "move_pirate" in scen.action_types():
        return SeafaringCitiesAndKnights
    return None


EXPANSIONS = (Expansion(OPTION, CitiesAndKnights,
                        "play with Cities & Knights (CK-*): event die, barbarians, knights, city improvements, "
                        "progress cards; 13 VP, or the scenario's target + 2 with Seafarers (CK-SEA-1)",
                        adjust=adjust, refusal=ck_refusal),)

# Imported before the registry finished discovering (a direct import of this package first): register here.
_registry.EXPANSIONS.setdefault(OPTION, EXPANSIONS[0])

__all__ = ["EXPANSIONS", "CitiesAndKnights", "adjust"]
