"""Scenario 7 "Into the Desert" (IV): the four-player board of scenario 6.

The map (Illustration N is missing, R-001): the 3-player board (see ``sc06``) with a
seventh row, so 46 tiles: the same main island (larger area of 16 tiles, desert strip of 4, small area of
3 with a gold field) above a sea channel, and three small islands along the bottom edge, the middle one
carrying the second gold field. Fixed: deserts, gold fields, harbour slots; shuffled from the seed: the
24 resource tiles, the 26 number tokens (reds apart), the 9 harbour tokens.

Rules: exactly 4 players (SC07-001); both starting settlements in the larger area (SC07-003); the small
area and the islands are unknown (SC07-004); one token for the first settlement in any of them
(SC07-005, R-019); 12 VP (SC07-006).
"""
from __future__ import annotations

from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition
from .sc06 import IntoTheDesert3, desert_map

TOKENS = token_row(2, 2, 3, 3, 3, 3, 3, 3, 3, 1)
HARBORS = harbor_row(5, 4)
SC07_MAP = desert_map((" a s s g s b",
                       "a a s c s b s"), hex_row(0, 0, 0, 5, 5, 4, 5, 5), TOKENS, HARBORS,
                      {"island-south-west": "a", "island-south": "gc", "island-south-east": "b"})


class IntoTheDesert4(IntoTheDesert3, edition=Edition(
        "SC07", "Into the Desert (IV)", SEAFARERS_BOOK, 7, (4,), 12,     # SC07-001: 4 players; SC07-006: 12 VP wins
        "SC07-002",                                  # SC07-002: fixed layout, desert strip splits the island
        {4: {"hexes": hex_row(16, 4, 2, 5, 5, 4, 5, 5), "tokens": TOKENS, "harbors": HARBORS}}, {4: SC07_MAP})):
    rule_players, rule_setup, rule_unknown, rule_svp = "SC07-001", "SC07-003", "SC07-004", "SC07-005"
