"""The 5-6 player extension (``rules/five-six.md``, BASE56-*): a rule module switched on by a game of 5 or 6
players (or the option ``five_six_mode``), stacked above the base game or the general Seafarers rules.

Decided here (once), where the digest leaves it open: the defaults its UNCERTAIN points name (U-1..U-14,
each cited where applied). One more, decision D-five-six-slot: a Special Building Phase slot is ended by
the slot's player with ``end_turn`` (no new action type), and the seat whose slot it is is the state's
``current_player`` for the time of the slot (``turns.py``)."""
from __future__ import annotations

from ... import scenarios as _registry
from ...scenarios import Expansion
from .module import MODE, MODE_DOC, PLAYERS, FiveSix, SeafaringFiveSix, adjust, mode_accepts, refusal

EXPANSIONS = (Expansion(MODE, FiveSix,
                        "the 5-6 player extension (BASE56-*), on by itself for 5 or 6 players; the value is the mode: "
                        + MODE_DOC,
                        adjust=adjust, refusal=refusal, players=PLAYERS,
                        switched_on=lambda value: value is not None and value is not False,
                        on_value="special_build", accepts=mode_accepts),)

if MODE not in _registry.EXPANSIONS:
    _registry.add_expansion(EXPANSIONS[0])

__all__ = ["EXPANSIONS", "FiveSix", "SeafaringFiveSix"]
