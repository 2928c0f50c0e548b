"""Scenario 3 "The Four Islands" (4 players, seeds/002): the rules of Scenario 2 on a larger board.

The printed map (Illustration J) is missing (R-001). Decided layout: a 6-row board (38 tiles) with a
5-hex island in each corner and sea between them; the 20 land hexes and 20 tokens are shuffled from the
SC03 tables onto the island cells (SC03-002), the token table as ruled in R-012 (one 9 dropped), and the
10 harbour tokens onto fixed slots, 2-3 per island (SEA-003).
"""
from __future__ import annotations

from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition
from .sc02 import FourIslands, four_islands_map

HEXES = hex_row(18, 0, 0, 4, 4, 4, 4, 4)                    # SC03-002, table A
TOKENS = token_row(1, 2, 3, 2, 2, 2, 2, 3, 2, 1)            # SC03-002 as ruled by R-012 (a 9 dropped)
HARBORS = harbor_row(5, 5)

ROWS = (
    " L L s s L L",
    "L L s s s L L",
    " s L s s L s",
    "L s s s s s L",
    " L L s s L L",
    "L L s s L L",
)

MAP = four_islands_map(ROWS, HEXES, TOKENS, HARBORS, (
    ((3, 0), "E"), ((3, 2), "E"), ((0, 1), "SW"), ((9, 0), "W"), ((9, 2), "W"),
    ((12, 1), "E"), ((3, 4), "E"), ((0, 3), "NE"), ((9, 4), "W"), ((12, 3), "NW")))


class FourIslandsIV(FourIslands, edition=Edition(
        "SC03", "The Four Islands (4 players)", SEAFARERS_BOOK, 3, (4,), 12,   # SC03-001: 4 players; SC03-007: 12 VP
        "SC03-002", {4: {"hexes": HEXES, "tokens": TOKENS, "harbors": HARBORS}}, {4: MAP})):
    rules = {"ship": "SC03-004", "first": "SC03-005", "further": "SC03-006", "home": "SC03-003"}
