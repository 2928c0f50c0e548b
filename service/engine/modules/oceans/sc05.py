"""Scenario 5 "Oceans" (4 players, seeds/002): the rules of Scenario 4 on a larger board.

The printed map (Illustration L) is missing (R-001). Decided layout: a 7-row board (46 spaces); the
west holds the large island (15 hexes, shuffled from table row 1), two one-hex gold islands at its
north and south tips, 7 sea hexes; the east is the "?" region, 22 ``unknown`` spaces (R-005). Row-2
hexes (including the desert, R-016) and tokens form the face-down piles (SC05-003); the 9 harbour
tokens go onto fixed slots around the large island (SEA-003).
"""
from __future__ import annotations

from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition
from .sc04 import Oceans, oceans_map

FACE_UP = hex_row(7, 0, 2, 3, 3, 3, 3, 3)                   # SC05-002, table A row 1
FACE_UP_TOKENS = token_row(1, 2, 2, 1, 2, 2, 2, 2, 2, 1)    # table B row 1
PILE = hex_row(14, 1, 0, 2, 1, 1, 2, 1)                     # SC05-003, table A row 2 (face-down pile)
PILE_TOKENS = token_row(0, 1, 1, 2, 1, 0, 1, 1, 0, 0)       # table B row 2
HARBORS = harbor_row(5, 4)

ROWS = (
    "L L s g ? ? ?",
    " L L s ? ? ?",
    "L L L s ? ? ?",
    " L L L ? ? ?",
    "L L L s ? ? ?",
    " L s s ? ? ?",
    "L s g ? ? ? ?",
)

MAP = oceans_map(ROWS, FACE_UP, FACE_UP_TOKENS, PILE, PILE_TOKENS, HARBORS, (
    ((0, 0), "NW"), ((2, 0), "NE"), ((3, 1), "E"), ((4, 2), "E"), ((4, 4), "E"),
    ((1, 5), "E"), ((0, 6), "SE"), ((0, 4), "W"), ((0, 2), "W")))


class OceansIV(Oceans, edition=Edition(
        "SC05", "Oceans (4 players)", SEAFARERS_BOOK, 5, (4,), 12,        # SC05-001: 4 players; SC05-009: 12 VP
        "SC05-002", {4: {"hexes": FACE_UP, "tokens": FACE_UP_TOKENS, "harbors": HARBORS,
                         "hidden": {"hexes": PILE, "tokens": PILE_TOKENS}}}, {4: MAP})):
    rules = {"area": "SC05-004", "reveal": "SC05-005", "reward": "SC05-006", "sea": "SC05-007",
             "no_svp": "SC05-008", "pile": "SC05-003"}
