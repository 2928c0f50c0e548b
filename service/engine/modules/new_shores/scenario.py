"""Scenario 1 "New Shores" (3-4 players, seeds/002): a base-game mainland and small islands nearby.

The printed map (Illustration G) is missing (R-001). Decided layout: the mainland is the base game's
19-hex island laid at random by the base rules (SC01-002), on the west of the board; a strait of sea
separates it from three small islands to the east (2, 4 and 2 hexes, their terrains and tokens shuffled
from the SC01 tables, SC01-007). The nine harbour tokens (SC01-003) are shuffled onto nine fixed slots
around the mainland (SEA-003). The same map serves 3 and 4 players, as the text gives one table.
"""
from __future__ import annotations

from typing import Any

from ...core import Ctx, Violation
from ...state import State
from ...scenarios.base import BASE_TERRAINS, BASE_TOKENS
from ...scenarios.components import add, counts, harbor_row, hex_row, token_row
from ...scenarios.hooks import award_first_on_island, mainland_of, setup_area_violations
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition, MappedScenario, MapSpec, drawn_slots
from ...scenarios.seafarers import Seafarers

#: SC01-002: the mainland is a base-game island; the small islands use the scenario's table.
MAINLAND_HEXES = counts(BASE_TERRAINS)
MAINLAND_TOKENS = counts(BASE_TOKENS)
ISLAND_HEXES = hex_row(10, 0, 2, 1, 1, 2, 1, 1)             # SC01-007, table A (sea included)
ISLAND_TOKENS = token_row(1, 1, 1, 1, 0, 1, 1, 1, 1, 0)     # SC01-007, table B
HARBORS = harbor_row(5, 4)                                  # SC01-003: 5 x 2:1, 4 x 3:1

ROWS = (
    "    m m m s i i s",
    "   m m m m s s s i",
    "  m m m m m s i i i",
    "   m m m m s s s",
    "    m m m s i i",
)

MAP = MapSpec(
    rows=ROWS,
    legend={"m": "pool:mainland", "i": "pool:islands"},
    pools={"mainland": MAINLAND_HEXES, "islands": {k: v for k, v in ISLAND_HEXES.items() if k != "sea"}},
    tokens={"m": MAINLAND_TOKENS, "i": ISLAND_TOKENS},
    harbors=drawn_slots(ROWS, (((4, 0), "NW"), ((8, 0), "NE"), ((9, 1), "E"), ((10, 2), "SE"), ((8, 4), "E"),
                               ((6, 4), "SW"), ((3, 3), "SW"), ((2, 2), "W"), ((3, 1), "NW"))),
    harbor_kinds=HARBORS,
    regions={"mainland": "m"},
)


TABLE = {"hexes": add(MAINLAND_HEXES, ISLAND_HEXES), "tokens": add(MAINLAND_TOKENS, ISLAND_TOKENS), "harbors": HARBORS}


class NewShores(MappedScenario, Seafarers, edition=Edition(
        "SC01", "New Shores", SEAFARERS_BOOK, 1, (3, 4), 13,             # SC01-001: 3-4 players; SC01-006: 13 VP
        "SC01-007", {3: TABLE, 4: TABLE}, {3: MAP, 4: MAP})):

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out["mainland"] = "mainland"
        return out

    def check(self, ctx: Ctx) -> list[Violation]:
        """SC01-004: both starting settlements stand on the mainland."""
        return setup_area_violations(ctx, {mainland_of(ctx.state)}, "SC01-004", "the mainland")

    def after_action(self, ctx: Ctx, s: State) -> None:
        """SC01-005: 1 SVP for a player's first settlement on any small island (once per player)."""
        small = {i for i in _islands(s) if i != mainland_of(s)}
        award_first_on_island(ctx, s, small, 1, 0, "SC01-005", "SC01-005", once=True)


def _islands(s: State) -> set[str]:
    from ...islands import island_map
    return set(island_map(s).values())
