"""Scenario 11 "Greater Catan" (IV): the base-game mainland and an archipelago that takes its tokens.

The map (Illustration S is missing, R-001). Decided from the text: a hexagon of radius 4 (60 tiles):
the mainland is the base game's island in the middle (19 tiles, laid and numbered by the base rules,
desert included: SC11-002), ringed by 18 sea hexes; on the outer ring six small islands of three tiles,
one on each side, built from the second copy's 18 land tiles shuffled face up and left without tokens
(SC11-003), with five sea hexes on the outer ring's corners (the sixth corner is left out, so 23 sea in
all). The 7 reserve tokens wait in ``scenario_state["token_pile"]`` (SC11-005). The 9 harbour tokens are
dealt around the mainland (SC11-006, R-022): on every other hex of the sea ring (the only way to place
9 harbour hexes there with none adjacent), each facing one mainland side, all drawn from the seed. The
robber starts on the mainland desert.

Rules: exactly 4 players (SC11-001); supply 5 settlements, 8 cities, 15 roads, 15 ships (SC11-004,
R-028); both starting settlements on the mainland (SC11-007); small-island tokens (SC11-008..013,
``_sc_tokens``); 18 VP (SC11-014).
"""
from __future__ import annotations

from typing import Any

from ...core import Ctx
from ...geometry import canonical_edge, hex_neighbours, node_str
from ...rng import Rng
from ...module import EventSpec
from ...spec import HEX, PLAYER, Any_, F, Int
from ...state import State
from ...scenarios._sc_common import node_regions, player_count_problems, regions, spec_regions, violation
from ...scenarios._sc_tokens import SC11_TOKENS, ReserveTokens, token_from_field
from ...scenarios.base import BASE_TERRAINS, BASE_TOKENS, ring
from ...scenarios.components import as_list, counts, harbor_row, hex_row, token_row
from ...scenarios.mapdata import MappedScenario, MapSpec
from ...scenarios.seafarers import Seafarers

RESERVE = token_row(1, 1, 1, 1, 0, 0, 1, 1, 1, 0)        # SC11-005: 2, 3, 4, 5, 9, 10, 11 of the 2nd copy

SC11_MAP = MapSpec(
    rows=(
        "    s i i i s",
        "   i s s s s i",
        "  i s m m m s i",
        " i s m m m m s i",
        "s s m m m m m s s",
        " i s m m m m s i",
        "  i s m m m s i",
        "   i s s s s i",
        "    s i i i .",
    ),
    origin=(-2, -4),
    legend={"m": "pool:mainland", "i": "pool:islands"},
    pools={"mainland": counts(BASE_TERRAINS),
           "islands": counts(t for t in BASE_TERRAINS if t != "desert")},
    tokens={"m": counts(BASE_TOKENS)},               # SC11-002: the mainland's 18 tokens, reds apart
    regions={"mainland": "m"},
)


class GreaterCatan(ReserveTokens, MappedScenario, Seafarers):
    id = "SC11"
    #: R-026: the mainland hexes a placement's small-island tokens are taken from, in trigger order (the first
    #: allowed hex being the default).
    ACTION_FIELDS = token_from_field("R-026: the mainland hexes whose tokens move, in trigger order")
    #: SC11-008..013: the small-island tokens (``_sc_tokens``), limitations dropped OWN, PROD, RED (R-026).
    token_rules = SC11_TOKENS
    EVENTS = (EventSpec("number_token_placed", {"player": F(PLAYER, required=True), "hex": F(HEX, required=True),
                                                "from": F(Any_(doc="a mainland hex [q, r], or \"reserve\"")),
                                                "number": F(Int(2, 12), required=True, nullable=True)},
                        "A number token was placed on a small island's hex (SC11-009..011, R-026)."),)
    module_name = "SC11"
    name = "Greater Catan (IV)"
    source = "The Seafarers of Catan rulebook (1998), scenario 11 (its rules: GET /v1/rules?prefix=SC11)"
    players = (4,)                                   # SC11-001
    vp_target = 18                                   # SC11-014: 18 VP wins
    supply = {"settlements": 5, "cities": 8, "roads": 15, "ships": 15}   # SC11-004
    component_rule = "SC11-003"
    component_tables = {4: {"hexes": hex_row(23, 1, 0, 8, 6, 6, 8, 8),
                            "tokens": counts(BASE_TOKENS),
                            "harbors": harbor_row(5, 4),
                            "hidden": {"tokens": RESERVE}}}
    map_specs = {4: SC11_MAP}

    # -- map ---------------------------------------------------------------------------------------
    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        board = super().new_board(num_players, rng)
        hexes = board["hexes"]
        mainland = {h for h in hexes if max(abs(h[0]), abs(h[1]), abs(h[0] + h[1])) <= 2}
        # SC11-006 / R-022: one harbour per sea hex next to the mainland, facing a mainland side, no two
        # harbour hexes adjacent: every other hex of the sea ring, each turned to a mainland side at random.
        sea_ring = ring(3)
        first = rng.below(2)
        slots = []
        for h in sea_ring[first::2]:
            sides = [side for side, m in zip(("E", "NE", "NW", "W", "SW", "SE"), hex_neighbours(h)) if m in mainland]
            side = sides[rng.below(len(sides))]
            slots.append(canonical_edge(h[0], h[1], side))
        board["harbors"] = dict(zip(slots, rng.shuffle(as_list(harbor_row(5, 4)))))
        return board

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out["token_pile"] = as_list(RESERVE)          # SC11-005: the reserve, drawn blind
        return out

    def mainland(self, state: State) -> set:
        imap = regions(state, spec_regions(SC11_MAP))
        return {h for h, name in imap.items() if name == "mainland"}

    # -- hooks -------------------------------------------------------------------------------------
    def check(self, ctx: Ctx):
        s, a = ctx.state, ctx.action
        if s.phase == "setup" and a.type == "build_settlement":
            node = a.get("node")
            if "mainland" not in node_regions(node, regions(s, spec_regions(SC11_MAP))):
                return violation("SC11-007", f"both starting settlements go on the mainland; {node_str(node)} "
                                 "does not touch it")
        return self.token_check(ctx)

    def token_area(self, state: State) -> set:
        return self.mainland(state)

    def legal_candidates(self, state: State, graph, player: int) -> list:
        """Every way of naming the mainland hexes a placement's tokens come from (``token_from``)."""
        return self.token_candidates(state, graph, player)

    def after_action(self, ctx: Ctx, s: State) -> None:
        self.token_after_action(ctx, s)

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = player_count_problems(state, self.players, "SC11-001")
        pile = state.scenario_state.get("token_pile") or []
        if not isinstance(pile, list) or not set(pile) <= set(RESERVE) or len(pile) != len(set(pile)):
            out.append(("/state/scenario_state/token_pile", "SC11-005: the reserve holds at most one each of "
                        "2, 3, 4, 5, 9, 10 and 11"))
        return out


__all__ = ["GreaterCatan", "RESERVE"]
