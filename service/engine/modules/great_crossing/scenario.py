"""Scenario 10 "The Great Crossing" (IV): two islands, trade routes between them earn tokens.

The map (Illustration R is missing, R-001). Decided from the text ("the two islands are Catan and
Transcatania"): 6 rows of alternately 7 and 6 tiles (39 = the table's total), Catan on the west and
Transcatania on the east, each of 11 land tiles two hexes wide from the north edge to the south edge,
with a sea strait two hexes wide between them (17 sea in all). To keep the islands equal, each island
shuffles its own share of the table (Catan: 3 fields, 2 hills, 2 mountains, 2 pasture, 2 forest;
Transcatania: 2, 2, 2, 3, 2); the 22 tokens are dealt blind over both (reds apart); 5 harbour slots per
island (two facing the strait), the 10 harbour tokens shuffled onto them. No desert: the robber starts off
the board (SEA-034).

Rules: exactly 4 players (SC10-001); both starting settlements on one island, the home island
(SC10-003); trade routes and their tokens (SC10-004..013, ``_sc_routes``); 13 VP (SC10-014). The
"build ships instead of roads" sentence is a hint: the SEA-026 choice stays free.
"""
from __future__ import annotations

from typing import Any

from ...core import Ctx
from ...geometry import node_str
from ...module import EventSpec
from ...spec import EDGE, NODE, PLAYER, F, Int, List, Obj, Str, by_player
from ...state import State
from ...scenarios._sc_common import node_regions, player_count_problems, regions, spec_regions, violation
from .routes import describe_routes, node_island, update_routes
from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.mapdata import MappedScenario, MapSpec
from ...scenarios.seafarers import Seafarers

SC10_MAP = MapSpec(
    rows=(
        "s L L s s R R",
        " L L s s R R",
        "s L L s s R R",
        " L L s s R R",
        "s L L s s R R",
        " s L s s R s",
    ),
    legend={"L": "pool:catan", "R": "pool:transcatania"},
    pools={"catan": hex_row(0, 0, 0, 3, 2, 2, 2, 2), "transcatania": hex_row(0, 0, 0, 2, 2, 2, 3, 2)},
    tokens={"*": token_row(2, 2, 2, 3, 2, 2, 3, 2, 2, 2)},
    harbors=(((1, 0), "NW"), ((0, 1), "W"), ((1, 2), "E"), ((-1, 3), "W"), ((-1, 5), "SW"),
             ((6, 0), "NE"), ((5, 1), "E"), ((4, 2), "W"), ((4, 3), "E"), ((2, 5), "SE")),
    harbor_kinds=harbor_row(5, 5),
    regions={"Catan": "L", "Transcatania": "R"},
)


_ROUTE = Obj({"a": F(NODE, required=True), "b": F(NODE, required=True), "holder": F(PLAYER, nullable=True),
              "closer": F(PLAYER, nullable=True), "node": F(NODE), "kind": F(Str(("direct", "indirect"))),
              "links": F(by_player(Int(0, 100)))})


class GreatCrossing(MappedScenario, Seafarers):
    STATE = {"home": F(by_player(Str(max_len=40)), doc="SC10: each player's home island (R-025)"),
             "routes": F(List(_ROUTE, max_len=60), doc="SC10-010..013: the trade routes closed, with their holders")}
    DERIVED = {"trade_routes": F(List(Obj({
        "a": F(NODE, required=True), "b": F(NODE, required=True), "holder": F(PLAYER, nullable=True),
        "kind": F(Str(("direct", "indirect")), required=True), "path": F(List(EDGE, max_len=200), required=True),
        "movable_ships": F(List(Obj({"player": F(PLAYER, required=True), "edge": F(EDGE, required=True)}),
                                max_len=200), required=True)}), max_len=60),
        doc="SC10-010..013: the trade routes between the home islands, each with a witness path and the ships "
            "either owner may move out of it")}
    EVENTS = (EventSpec("trade_route_lost", {"a": F(NODE, required=True), "b": F(NODE, required=True),
                                             "player": F(PLAYER, nullable=True)},
                        "A trade route was interrupted and its token surrendered (SC10-013)."),)
    module_name = "SC10"
    id = "SC10"
    name = "The Great Crossing (IV)"
    source = "The Seafarers of Catan rulebook (1998), scenario 10 (its rules: GET /v1/rules?prefix=SC10)"
    players = (4,)                                   # SC10-001
    vp_target = 13                                   # SC10-014: 13 VP wins
    component_rule = "SC10-002"                      # SC10-002: two islands, Catan and Transcatania
    component_tables = {4: {"hexes": hex_row(17, 0, 0, 5, 4, 4, 5, 4),
                            "tokens": token_row(2, 2, 2, 3, 2, 2, 3, 2, 2, 2),
                            "harbors": harbor_row(5, 5)}}
    map_specs = {4: SC10_MAP}

    def imap(self, state: State) -> dict:
        return regions(state, spec_regions(SC10_MAP))

    def check(self, ctx: Ctx):
        s, a = ctx.state, ctx.action
        if s.phase == "setup" and a.type == "build_settlement":
            node = a.get("node")
            imap = self.imap(s)
            own = [n for n, (p, _) in s.buildings.items() if p == a.player]
            if own:
                home = node_island(own[0], imap)
                here = node_regions(node, imap)
                if home not in here:
                    return violation("SC10-003", f"both starting settlements go on the same island; player "
                                     f"{a.player}'s first stands on {home}, {node_str(node)} is on "
                                     f"{', '.join(sorted(here)) or 'no island'}")
        return []

    def after_action(self, ctx: Ctx, s: State) -> None:
        a = ctx.action
        imap = self.imap(s)
        if ctx.state.phase == "setup" and a.type == "build_settlement":
            # SC10-003: the island of the starting settlements is the home island, the other the neighbour.
            island = node_island(a.get("node"), imap)
            if island is not None:
                s.scenario_state.setdefault("home", {}).setdefault(str(a.player), island)
        update_routes(ctx, s, imap)

    def derived_extra(self, state: State, graph) -> dict[str, Any]:
        return {"trade_routes": describe_routes(state, graph, self.imap(state))}

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = player_count_problems(state, self.players, "SC10-001")
        routes = state.scenario_state.get("routes") or []
        if not isinstance(routes, list):
            return out + [("/state/scenario_state/routes", "must be a list")]
        for i, r in enumerate(routes):
            try:
                node = (int(r["node"][0]), int(r["node"][1]), str(r["node"][2]))
                holder = int(r["holder"])
            except (KeyError, TypeError, ValueError, IndexError):
                out.append((f"/state/scenario_state/routes/{i}", "a route is {a, b, holder, closer, node}"))
                continue
            b = state.buildings.get(node)
            if b is None or b[0] != holder or state.svp_attached.get(node, 0) < 1:
                out.append((f"/state/scenario_state/routes/{i}/node", f"the route token of player {holder} lies "
                            f"under {node_str(node)}, which holds no building of theirs with a token"))
        return out
