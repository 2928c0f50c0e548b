"""Scenario 4 "Oceans" (3 players, seeds/002): a large island, a small island and an unexplored ocean.

The printed map (Illustration K) is missing (R-001). Decided layout: a 5-row board (32 spaces); the
west holds the large island (11 hexes, shuffled from table row 1), a strait of sea and a small gold
island on the edge of the unknown; the east is the "?" region, 14 ``unknown`` spaces (R-005: as many
as row 2 has hexes). Row-2 hexes and tokens are shuffled into ``hex_pile`` / ``token_pile``
(SC04-003). The 8 harbour tokens go onto fixed slots around the large island (SEA-003). Scenario 5
(:mod:`.sc05_oceans`) is the 4-player board with the same rules.
"""
from __future__ import annotations

from typing import Any

from ...core import Ctx, Violation
from ...state import State
from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.hooks import DISCOVERED, DISCOVERIES, EXPLORING_ACTIONS, discovery_violations, explore, mainland_of, setup_area_violations
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition, MappedScenario, MapSpec, drawn_slots
from ...scenarios.seafarers import Seafarers

FACE_UP = hex_row(6, 0, 1, 2, 2, 2, 2, 3)                   # SC04-002, table I row 1
FACE_UP_TOKENS = token_row(1, 1, 2, 1, 2, 1, 1, 2, 1, 0)    # table II row 1
PILE = hex_row(8, 0, 0, 1, 1, 2, 1, 1)                      # SC04-003, table I row 2 (face-down pile)
PILE_TOKENS = token_row(0, 1, 0, 1, 0, 1, 1, 0, 1, 1)       # table II row 2
HARBORS = harbor_row(5, 3)

ROWS = (
    " L L s ? ? ?",
    "L L L s ? ? ?",
    " L L s g ? ?",
    "L L L s ? ? ?",
    " L s s ? ? ?",
)



def oceans_map(rows: tuple[str, ...], face_up: dict[str, int], face_up_tokens: dict[int, int],
               pile: dict[str, int], pile_tokens: dict[int, int], harbors: dict[str, int], slots) -> MapSpec:
    """An Oceans board: the row-1 land hexes shuffled onto the large island's ``L`` cells with the row-1
    tokens (SC04-002 / SC05-002), the row-2 hexes and tokens face down in the piles (SC04-003 /
    SC05-003, R-005), the harbour tokens onto ``slots`` named ``((column, row), side)`` by where their
    tile is drawn (SEA-003)."""
    return MapSpec(
        rows=rows,
        legend={"L": "pool:large"},
        pools={"large": {k: v for k, v in face_up.items() if k not in ("sea", "gold")}},
        tokens={"*": face_up_tokens},
        harbors=drawn_slots(rows, slots),
        harbor_kinds=harbors,
        hidden_hexes=pile,
        hidden_tokens=pile_tokens,
        regions={"large island": "L"},
    )


MAP = oceans_map(ROWS, FACE_UP, FACE_UP_TOKENS, PILE, PILE_TOKENS, HARBORS, (
    ((1, 0), "NW"), ((3, 0), "NE"), ((4, 1), "E"), ((3, 2), "E"), ((4, 3), "SE"),
    ((1, 4), "E"), ((0, 3), "SW"), ((0, 1), "W")))


class Oceans(MappedScenario, Seafarers, edition=Edition(
        "SC04", "Oceans (3 players)", SEAFARERS_BOOK, 4, (3,), 12,        # SC04-001: 3 players; SC04-009: 12 VP
        "SC04-002", {3: {"hexes": FACE_UP, "tokens": FACE_UP_TOKENS, "harbors": HARBORS,
                         "hidden": {"hexes": PILE, "tokens": PILE_TOKENS}}}, {3: MAP})):
    """The Oceans rules; ``rules`` names the rule IDs of the edition (III: SC04, IV: SC05)."""

    ACTION_FIELDS = {t: {"discoveries": DISCOVERIES} for t in EXPLORING_ACTIONS}  # revealed hexes as observed
    EVENTS = (DISCOVERED,)
    module_name = "Oceans"
    rules = {"area": "SC04-004", "reveal": "SC04-005", "reward": "SC04-006", "sea": "SC04-007",
             "no_svp": "SC04-008", "pile": "SC04-003"}

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out["mainland"] = "large island"
        return out

    def check(self, ctx: Ctx) -> list[Violation]:
        """SC04-004 / SC05-004: both starting settlements on the large island; SC04-005 / SC05-005 (R-006):
        reveals given as observed must be ones the piles can still give."""
        table = self.component_tables.get(ctx.state.num_players) or next(iter(self.component_tables.values()))
        return (setup_area_violations(ctx, {mainland_of(ctx.state)}, self.rules["area"], "the large island")
                or discovery_violations(ctx, table.get("hidden"), self.rules["reveal"]))

    def after_action(self, ctx: Ctx, s: State) -> None:
        """SC04-005..007 / SC05-005..007 (R-006, R-016): a road or ship reaching an intersection of an
        unexplored space reveals the top pile hex there; land takes the top token and pays 1 card of its
        resource, sea and desert pay nothing. SC04-008: no special victory points in this scenario."""
        table = self.component_tables.get(s.num_players) or next(iter(self.component_tables.values()))
        explore(ctx, s, table.get("hidden"), self.rules)

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        """SC04-003: the piles hold terrain names and token numbers, top first."""
        ss = state.scenario_state or {}
        out = []
        pile = ss.get("hex_pile", [])
        if not isinstance(pile, list) or not all(isinstance(t, str) for t in pile):
            out.append(("/state/scenario_state/hex_pile", f"{self.rules['pile']}: a list of terrain names"))
        toks = ss.get("token_pile", [])
        if not isinstance(toks, list) or not all(isinstance(n, int) and 2 <= n <= 12 and n != 7 for n in toks):
            out.append(("/state/scenario_state/token_pile", f"{self.rules['pile']}: a list of numbers 2-12 (no 7)"))
        return out
