"""Scenario 2 "The Four Islands" (3 players, seeds/002): four islands, each player starting on one or two.

The printed map (Illustration H/I) is missing (R-001). Decided layout: a 5-row board (32 tiles) with an
island in each corner (4, 4, 4 and 3 hexes) and a cross of sea between them; the 15 land hexes and their
15 tokens are shuffled from the SC02 tables onto the island cells by the seeded generator (SC02-002), and
the 8 harbour tokens onto two fixed slots per island (SEA-003). Scenario 3 (:mod:`.sc03`)
is the 4-player board with the same rules.
"""
from __future__ import annotations

from ...core import Ctx, Violation
from ...islands import island_map
from ...state import State
from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.hooks import HOME_ISLANDS, award_first_on_island, coastal_setup_ship_violations, home_islands, record_home_islands
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition, MappedScenario, MapSpec, drawn_slots
from ...scenarios.seafarers import Seafarers

HEXES = hex_row(17, 0, 0, 3, 3, 3, 3, 3)                    # SC02-002, table A
TOKENS = token_row(1, 1, 2, 1, 2, 2, 2, 2, 1, 1)            # SC02-002, table B
HARBORS = harbor_row(5, 3)

ROWS = (
    " L L s s L L",
    "L L s s s L L",
    " s s s s s s",
    "L L s s s L L",
    " L L s s s L",
)


def four_islands_map(rows: tuple[str, ...], hexes: dict[str, int], tokens: dict[int, int],
                     harbors: dict[str, int], slots) -> MapSpec:
    """A Four Islands board: the land hexes of table A shuffled onto the ``L`` cells, the tokens of
    table B dealt over them (SC02-002 / SC03-002), the harbour tokens onto ``slots``, each named
    ``((column, row), side)`` by where its tile is drawn (SEA-003)."""
    return MapSpec(
        rows=rows,
        legend={"L": "pool:land"},
        pools={"land": {k: v for k, v in hexes.items() if k != "sea"}},
        tokens={"*": tokens},
        harbors=drawn_slots(rows, slots),
        harbor_kinds=harbors,
    )


MAP = four_islands_map(ROWS, HEXES, TOKENS, HARBORS, (
    ((3, 0), "E"), ((2, 1), "SE"), ((9, 0), "W"), ((10, 1), "SW"),
    ((2, 3), "NE"), ((3, 4), "E"), ((10, 3), "W"), ((11, 4), "SW")))


class FourIslands(MappedScenario, Seafarers, edition=Edition(
        "SC02", "The Four Islands (3 players)", SEAFARERS_BOOK, 2, (3,), 12,   # SC02-001: 3 players; SC02-007: 12 VP
        "SC02-002", {3: {"hexes": HEXES, "tokens": TOKENS, "harbors": HARBORS}}, {3: MAP})):
    """The Four Islands rules; ``rules`` names the rule IDs of the edition (III: SC02, IV: SC03)."""

    EVENTS = (HOME_ISLANDS,)
    rules = {"ship": "SC02-004", "first": "SC02-005", "further": "SC02-006", "home": "SC02-003"}

    def check(self, ctx: Ctx) -> list[Violation]:
        """SC02-004 / SC03-004 (R-017): a starting settlement on a coast facing another island takes a
        ship instead of its road. SC02-003: starting settlements may go on any island."""
        return coastal_setup_ship_violations(ctx, self.rules["ship"])

    def after_action(self, ctx: Ctx, s: State) -> None:
        """SC02-003: home islands are fixed when set-up ends (R-018). SC02-005/006: the first settlement
        on the first unknown island earns 1 SVP, on each further unknown island 2."""
        record_home_islands(ctx, s)
        if ctx.action.type != "build_settlement" or ctx.state.phase == "setup":
            return
        p = ctx.action.player
        imap = island_map(s)
        unknown = set(imap.values()) - home_islands(ctx.state, p, island_map(ctx.state))
        award_first_on_island(ctx, s, unknown, 1, 2, self.rules["first"], self.rules["further"])

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = []
        for p, names in ((state.scenario_state or {}).get("home_islands") or {}).items():
            if not (p.isdigit() and int(p) < state.num_players) or not isinstance(names, list):
                out.append(("/state/scenario_state/home_islands",
                            f"{self.rules['home']}: home islands are a list per player number"))
        return out
