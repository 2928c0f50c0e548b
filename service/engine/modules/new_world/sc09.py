"""Scenario 9 "A New World" (IV): the four-player random board.

The map (Illustration P shows only the frame, R-001): 7 rows of alternately 7 and 6 tiles (46 = the
table's total), every cell drawn from the shuffled pile of all 46 hexes (SC09-002), 23 tokens dealt blind
on the land (SC09-003), touching reds repaired by seeded swaps (SC09-004, R-021). SC09-009 / R-023: the
two printed 3:1 harbour hexes the box needs for its 23rd and 22nd sea hex are modelled as plain sea plus
two generic harbour tokens, so the table has 23 sea hexes and 10 harbour tokens (5 x 2:1, 5 x 3:1), all
placed by the players (SC09-005, R-020: 3, 3, 2, 2 tokens).

Rules: exactly 4 players (SC09-001); starting settlements anywhere (SC09-006); one token for the first
settlement on an island other than the home island(s) (SC09-007); 12 VP (SC09-008).
"""
from __future__ import annotations

from ...scenarios.components import harbor_row, hex_row, token_row
from ...module import ActionSpec
from .harbors import make_handler
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition
from .sc08 import NewWorld3, new_world_map

HEXES = hex_row(23, 0, 0, 5, 4, 4, 5, 5)
TOKENS = token_row(1, 3, 3, 3, 2, 2, 3, 3, 2, 1)
SC09_MAP = new_world_map(7, HEXES, TOKENS)


class NewWorld4(NewWorld3, edition=Edition(                       # SC09-001: 4 players; SC09-008: 12 VP wins
        "SC09", "A New World (IV)", SEAFARERS_BOOK, 9, (4,), 12,
        # SC09-009 / R-023: 23 plain sea hexes and 10 harbour tokens (5 special, 5 generic).
        "SC09-002", {4: {"hexes": HEXES, "tokens": TOKENS, "harbors": harbor_row(5, 5)}}, {4: SC09_MAP})):
    rule_players, rule_red, rule_harbor, rule_home, rule_svp = (
        "SC09-001", "SC09-004", "SC09-005", "SC09-006", "SC09-007")
    ACTIONS = (ActionSpec("place_harbor", handler=lambda: make_handler("SC09-005")),)
