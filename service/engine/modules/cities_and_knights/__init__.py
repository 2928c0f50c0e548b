"""Cities & Knights: an expansion module switched on by the game option ``cities_and_knights: true``
for the base game and the Seafarers scenarios (``rules/cities-and-knights.md``, ruling R-079).

Decided here (once): CK-PROG-9, the card names of the 2025 printing are accepted as the same cards
wherever an action names a progress card (``data.card_id`` / ``data.NAMES_2025``); states, events and the
legal-action list carry the IDs. CK-SEA-13, the Harbormaster is no part of the game: the option
``harbormaster`` takes only false (``module.CitiesAndKnights.OPTIONS``)."""
from __future__ import annotations

from typing import Any, Optional

from ... import scenarios as _registry
from ...scenarios import Expansion
from .data import OPTION
from .module import CitiesAndKnights, ck_refusal
from .seafaring import SeafaringCitiesAndKnights


def adjust(scen: Any) -> Optional[type]:
    """A scenario's own rules with Cities & Knights: GOLD's costs and start (GOLD-002, -006, -012..015,
    -017); the pirate with Seafarers (CK-SEA-8); a scenario whose text has its own section on playing it
    with Cities & Knights names that module (``cities_and_knights_rules``: the class, or a method giving
    it from the scenario's package: TD&E 1-3, 5)."""
    own = getattr(scen, "cities_and_knights_rules", None)
    if own is not None and not isinstance(own, type):
        own = own()                                          # a method giving the class (imported on use)
    if scen.id == "GOLD":
        from .gold import GoldCitiesAndKnights
        return GoldCitiesAndKnights
    if "move_pirate" in scen.action_types():
        if own is None:
            return SeafaringCitiesAndKnights
        return type(own.__name__ + "Seafaring", (own, SeafaringCitiesAndKnights), {})
    return own


EXPANSIONS = (Expansion(OPTION, CitiesAndKnights,
                        "play with Cities & Knights (CK-*): event die, barbarians, knights, city improvements, "
                        "progress cards; 13 VP, or the scenario's target + 2 with Seafarers (CK-SEA-1)",
                        adjust=adjust, refusal=ck_refusal),)

# Imported before the registry finished discovering (a direct import of this package first): register here.
if OPTION not in _registry.EXPANSIONS:
    _registry.add_expansion(EXPANSIONS[0])

__all__ = ["EXPANSIONS", "CitiesAndKnights", "adjust"]
