"""Cities & Knights with Seafarers (CK-SEA-*): the pirate sleeps and robs commodities too."""
from __future__ import annotations

from ...module import ActionSpec
from ...spec import F, Str
from .data import CARDS


def _h(name: str):
    def get():
        from . import actions
        return getattr(actions, name).HANDLER
    return get


class SeafaringCitiesAndKnights:
    """CK-SEA-8: the pirate, like the robber, waits for the first attack; it robs resources or commodities."""
    module_name = "cities_and_knights_seafaring"
    ACTIONS = (ActionSpec("move_pirate", {"card": F(Str(CARDS), nullable=True)}, handler=_h("MovePirate")),)


__all__ = ["SeafaringCitiesAndKnights"]
