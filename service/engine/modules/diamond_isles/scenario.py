"""Diamond Isles (fan scenario, seeds/001, after 999 Games' "De Diamanten"): island villages pay
diamonds to the players whose ships reach them; two diamonds make a victory point.

Rules (DIAM-001: the base game and the Seafarers rules, with these changes):

- the map holds four island villages (DIAM-002), single land hexes surrounded by sea that produce no
  resources and carry a number token (DIAM-004, R-045); no settlement stands on their corners
  (DIAM-005); 5 diamonds on each, 10 in the general cache (DIAM-003; R-047: the other 20 counters back it);
- a line of a player's ships from their settlement or city (or from a village they already trade with)
  to a corner of a village is a trade route: one diamond at once (DIAM-006), then one on every roll of
  the village's number to each player with a route to it (DIAM-007), from the village while it has any,
  then from the cache (DIAM-008); each pair of diamonds is a victory point (DIAM-009);
- a route's ships are closed and never move (DIAM-011); the last ship of an open line moves as in
  Seafarers (DIAM-010); routes are extended from a village (DIAM-012) and branch anywhere (DIAM-013);
- the robber moves only once someone has 3 VP (DIAM-014), the pirate only for a player with a route
  (DIAM-015), who takes a card or a diamond from a player with a ship beside it (DIAM-016; R-050, R-051);
- no Longest Road (DIAM-017); Largest Army stays (DIAM-018); trading and building in any order, only by
  the active player on their turn (DIAM-019, R-052);
- the game ends at 14 VP on one's turn (DIAM-020), or at once when only 3 villages hold diamonds
  (DIAM-021, R-049): most VP wins, then most diamonds (DIAM-022), else a shared victory.

How a posted board marks its villages: ``scenario_state.villages`` lists their hexes (and the diamonds
each holds); the terrain list is the board's own (a village hex is a ``desert`` with a number token).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ...seats import Secret
from ...geometry import hex_neighbours, node_str
from ...mapgraph import MapGraph
from ...module import ActionSpec, EventSpec, OptionSpec
from ...scenarios._sc_common import player_count_problems
from ...scenarios.mapdata import Edition, MappedScenario
from ...scenarios.seafarers import Seafarers
from ...spec import EDGE, HEX, PLAYER, Any_, Bool, F, Int, List, Null, Obj, Str, by_player
from ...state import State
from . import handlers as H
from .maps import CACHE, DIAMONDS_PER_VILLAGE, MAP, RESERVE, TABLE, TOTAL_DIAMONDS, VILLAGES
from .villages import (as_hex, board_graph, connected_villages, diamond_total, diamonds_of, pay_roll, record_new_routes,
                       recorded_routes, route_ships, village_number, village_of_node, villages,
                       villages_with_diamonds)

if TYPE_CHECKING:  # pragma: no cover
    from ...core import Ctx, Violation

_STEAL = F(Str(("card", "diamond")), default="card",
           doc="DIAM-016 (R-051): what the pirate's mover takes, a random card or a diamond (the other kind when "
               "the victim has none of the chosen one)")

DIAM_ACTIONS = (
    ActionSpec("build_ship", handler=H.BUILD_SHIP),
    ActionSpec("move_ship", handler=H.MOVE_SHIP),
    ActionSpec("play_road_building", handler=H.ROAD_BUILDING, candidates=H.road_building_candidates),
    ActionSpec("move_robber", handler=H.MOVE_ROBBER),
    ActionSpec("move_pirate", {"steal": _STEAL}, handler=H.MOVE_PIRATE, candidates=H.pirate_candidates),
    ActionSpec("play_knight", {"hex": F(HEX, nullable=True,
                                        doc="where the robber or pirate goes; left out only in Diamond Isles when "
                                            "neither may be moved (R-050)"),
                               "steal": _STEAL},
               handler=H.PLAY_KNIGHT, candidates=H.knight_candidates),
)

_VILLAGE = Obj({"hex": F(HEX, required=True, doc="the village's hex (a desert with a number token)"),
                "diamonds": F(Int(0, DIAMONDS_PER_VILLAGE), required=True, doc="the diamonds it still holds")})

def _standings_open(end: Any) -> Any:
    """while the game goes on: the standings in seat order without victory points (hidden cards count in
    them), no would-be winner"""
    if not isinstance(end, dict) or end.get("ended_by_villages"):
        return end
    rows = sorted((r for r in end.get("standings") or [] if isinstance(r, dict)), key=lambda r: r.get("player", 0))
    return {**end, "standings": [{k: v for k, v in row.items() if k != "vp"} for row in rows],
            "winners": None, "decided_by": None, "why": None}


#: What Diamond Isles keeps from other players (a seat's view, ``seats.py``).
DIAM_SECRETS = (
    Secret("derived:/game_end", _standings_open, "who would win were the game to end now (the victory points "
           "count hidden cards)", owner="", rules="BASE-DEV-9"),
)


DIAM_STATE = {
    "villages": F(List(_VILLAGE, max_len=4), required=True,
                  doc="DIAM-002/003/004: the four island villages in village order (R-048), each with its diamonds"),
    "diamond_cache": F(Int(0, CACHE), required=True, doc="DIAM-003/008: the diamonds in the general cache"),
    "diamond_reserve": F(Int(0, RESERVE), required=True,
                         doc="R-047: the spare counters (of the 50) that back the general cache"),
    "diamonds": F(by_player(Int(0, TOTAL_DIAMONDS)), doc="DIAM-009: each player's diamonds (missing: 0)"),
    "trade_routes": F(by_player(List(HEX, max_len=4)),
                      doc="DIAM-006/007: the villages each player has a trade route with, as made"),
}

_PLAYERS = List(PLAYER, max_len=4)
DIAM_DERIVED = {
    "diamonds": F(by_player(Obj({"diamonds": F(Int(0, 50)), "vp": F(Int(0, 25))})),
                  doc="DIAM-009: each player's diamonds and the victory points they give"),
    "trade_routes": F(by_player(List(Obj({"village": F(HEX), "number": F(Null(Int(2, 12))),
                                          "ships": F(List(EDGE, max_len=60))}), max_len=4)),
                      doc="DIAM-006/011: each player's trade routes and the closed ships that form them"),
    "villages": F(List(Obj({"hex": F(HEX), "number": F(Null(Int(2, 12))), "diamonds": F(Int(0, 5)),
                            "routes": F(_PLAYERS)}), max_len=4),
                  doc="DIAM-003/007: each village's number, diamonds left and the players trading with it"),
    "diamond_cache": F(Obj({"cache": F(Int(0, CACHE)), "reserve": F(Int(0, RESERVE)), "total": F(Int(0, 50))}),
                       doc="DIAM-003/008, R-047: the general cache, its spare counters, and every counter (50)"),
    "may_move": F(Obj({"robber": F(Bool()), "pirate": F(_PLAYERS)}),
                  doc="DIAM-014/015 (R-050): whether the robber may be moved now, and who may move the pirate"),
    "game_end": F(Any_("DIAM-020/021/022: villages still holding diamonds, whether the villages ended the game, "
                       "the standings by VP then diamonds, who wins (several: a shared victory), and why")),
    "closed_ships": F(by_player(List(EDGE, max_len=60)), doc="DIAM-011: ships of closed routes (villages anchor)"),
}

DIAM_EVENTS = (
    EventSpec("trade_route", {"player": F(PLAYER), "village": F(HEX)}, "DIAM-006: a player's trade route is made"),
    EventSpec("diamond", {"player": F(PLAYER), "village": F(HEX), "source": F(Str(("village", "cache", "reserve"))),
                          "reason": F(Str(("route", "roll")))},
              "DIAM-006/007/008: one diamond paid, and where it came from"),
    EventSpec("diamond_unpaid", {"player": F(PLAYER), "village": F(HEX), "reason": F(Str(("route", "roll")))},
              "R-047: no counter left anywhere (only in a posted position)"),
    EventSpec("stole_diamond", {"player": F(PLAYER), "victim": F(PLAYER)}, "DIAM-016: the pirate took a diamond"),
    EventSpec("robber_skipped", {"player": F(PLAYER)},
              "R-050: on a 7 neither the robber nor the pirate may be moved, so nothing moves"),
    EventSpec("knight_without_move", {"player": F(PLAYER)}, "R-050: a knight played with nothing to move"),
    EventSpec("villages_exhausted", {"villages_with_diamonds": F(Int(0, 4))},
              "DIAM-021: only 3 villages (or fewer) still hold diamonds: the game ends"),
)


def _false_only(value: Any, players: int) -> bool:
    return value is False


class DiamondIsles(MappedScenario, Seafarers, edition=Edition(
        "DIAM", "Diamond Isles (fan scenario)", "Diamond Isles fan scenario, after 999 Games' De Diamanten", None,
        (3, 4), 14,                                 # DIAM-001, R-053: 3-4 players; DIAM-020: 14 VP
        "DIAM-002", {3: TABLE, 4: TABLE}, {3: MAP, 4: MAP})):
    module_name = "DIAM"
    ACTIONS = DIAM_ACTIONS
    STATE = DIAM_STATE
    SECRETS = DIAM_SECRETS
    DERIVED = DIAM_DERIVED
    EVENTS = DIAM_EVENTS
    OPTIONS = (OptionSpec("BASE-VAR-STRICT-PHASES", _false_only,
                          "false only: in Diamond Isles the active player trades and builds in any order during "
                          "their own turn (DIAM-019, R-052), so the strict trade-then-build phases do not apply"),)

    # -- a new game ---------------------------------------------------------------------------------
    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        """DIAM-003: 5 diamonds on every village, 10 in the general cache (R-047: 20 spare counters)."""
        out = super().initial_scenario_state(num_players, board)
        out.update({
            "villages": [{"hex": list(h), "diamonds": DIAMONDS_PER_VILLAGE} for h in VILLAGES],
            "diamond_cache": CACHE,
            "diamond_reserve": RESERVE,
            "diamonds": {str(p): 0 for p in range(num_players)},
            "trade_routes": {str(p): [] for p in range(num_players)},
        })
        return out

    # -- rules --------------------------------------------------------------------------------------
    def check(self, ctx: "Ctx") -> list["Violation"]:
        out = super().check(ctx)
        if out:
            return out
        a = ctx.action
        if a.type == "build_settlement":
            node = a.get("node")
            vmap = village_of_node(ctx.state, ctx.graph)
            nid = ctx.graph.node_index.get(node)
            if nid in vmap:
                from ...core import Violation
                h = villages(ctx.state)[vmap[nid]][0]
                return [Violation("DIAM-005", f"no settlement may be built on an island village's spot; "
                                  f"{node_str(node)} is a corner of the village on {h[0]},{h[1]}", "/action/node")]
        return []

    def after_action(self, ctx: "Ctx", s: State) -> None:
        super().after_action(ctx, s)
        record_new_routes(ctx, s)                   # DIAM-006
        if s.phase == "robber" and not H.robber_allowed(s, self) and not H.pirate_allowed(s, s.current_player):
            s.phase = "main"                        # nothing may move, nothing is stolen
            ctx.emit("robber_skipped", player=s.current_player)
        before = villages_with_diamonds(ctx.state)
        now = villages_with_diamonds(s)
        if before > 3 >= now:
            ctx.emit("villages_exhausted", villages_with_diamonds=now)

    def after_production(self, ctx: "Ctx", s: State, total: int) -> None:
        super().after_production(ctx, s, total)
        pay_roll(ctx, s, total)                     # DIAM-007, DIAM-008

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        """DIAM-009: each full pair of diamonds is a victory point."""
        return {"diamonds": diamonds_of(state, player) // 2}

    def route_pieces(self, state: State, player: int):
        """DIAM-017: the Longest Road card is not used, so no piece counts towards it."""
        return []

    def end_condition(self, state: State) -> Optional[int]:
        """DIAM-021 (R-049): once only 3 villages (or fewer) hold diamonds the game is over: the player
        with the most VP wins, a tie goes to the most diamonds (DIAM-022); a tie in both is a shared victory
        (R-003), and ``winner`` names the first of them from the player whose turn it is (the others are in
        the derived ``game_end.winners``). The 14 VP win (DIAM-020) is the engine's VP target (R-003)."""
        if not villages(state) or villages_with_diamonds(state) > 3:
            return None
        return end_result(state, self)["winners"][0]

    # -- the engine's robbing and ships, judged with the villages (handlers.py) ----------------------------
    def robber_permission(self, ctx: "Ctx", target: str) -> list["Violation"]:
        """DIAM-014 / DIAM-015 (R-050): who may move the robber and the pirate."""
        return H.permission_violation(ctx, target)

    def steal_violations(self, ctx: "Ctx", target: str) -> list["Violation"]:
        return H.steal_violations(ctx, target)

    def holds_loot(self, state: State, player: int, target: str) -> bool:
        """DIAM-016, R-051: the pirate takes a card or a diamond."""
        return super().holds_loot(state, player, target) or (target == "pirate" and diamonds_of(state, player) > 0)

    def move_and_steal(self, ctx: "Ctx", s: State, target: str, mover: int) -> None:
        """DIAM-016 (R-051): the pirate's mover takes a card or a diamond; the robber robs as the engine's."""
        if target == "pirate":
            H.steal_with_pirate(ctx, s, mover)
        else:
            super().move_and_steal(ctx, s, target, mover)

    def knight_violations(self, ctx: "Ctx") -> list["Violation"]:
        v = H.knight_violations(ctx)
        return super().knight_violations(ctx) if v is None else v

    def knight_effect(self, ctx: "Ctx", s: State) -> None:
        """R-050: a knight played without a move (DIAM-018: it still counts for Largest Army)."""
        if ctx.action.get("hex") is None:
            ctx.emit("knight_without_move", player=ctx.action.player)
        else:
            super().knight_effect(ctx, s)

    def piece_connection(self, ctx: "Ctx", kind: str, edge, player: int, path: str,
                         ignore=None) -> list["Violation"]:
        v = super().piece_connection(ctx, kind, edge, player, path, ignore)
        return H.village_anchor(ctx, edge, player, v) if kind == "ship" else v

    def ship_lane_violations(self, ctx: "Ctx", src) -> list["Violation"]:
        return H.lane_violations(ctx, src)

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = list(super().validate_state(state))
        out += player_count_problems(state, self.players, "DIAM-001 (R-053)")
        ss = state.scenario_state
        vs = villages(state)
        base = "/state/scenario_state"
        if len(vs) != 4:
            out.append((f"{base}/villages", f"DIAM-002: the map holds exactly 4 island villages, not {len(vs)}"))
        seen = set()
        for i, (h, _) in enumerate(vs):
            t = state.hexes.get(h)
            where = f"{base}/villages/{i}/hex"
            if h in seen:
                out.append((where, f"DIAM-002: the village on {h[0]},{h[1]} is listed twice"))
            seen.add(h)
            if t is None or t.terrain != "desert":
                why = (f"R-045: a village is a non-producing land hex (terrain desert); "
                       f"{h[0]},{h[1]} is {'not on the board' if t is None else t.terrain}")
                out.append((where, why))
                if t is not None:           # and the hex whose terrain breaks it
                    out.append((f"/state/board/hexes/{list(state.hexes).index(h)}", why))
            elif t.number is None:
                out.append((where, f"DIAM-004: a village's number is its hex's number token; {h[0]},{h[1]} has none"))
            elif any(state.hexes[m].terrain not in ("sea", "frame") for m in hex_neighbours(h) if m in state.hexes):
                why = f"R-045: an island village is surrounded by sea; {h[0]},{h[1]} touches land"
                out.append((where, why))
                at = {x: j for j, x in enumerate(state.hexes)}      # and the land beside it, by pointer
                out.extend((f"/state/board/hexes/{at[m]}", why) for m in hex_neighbours(h)
                           if m in state.hexes and state.hexes[m].terrain not in ("sea", "frame"))
        total = diamond_total(state)
        if total != TOTAL_DIAMONDS:     # every term of the broken sum is named: any may be the one wrong
            why = (f"DIAM-003: villages, cache, spare counters and players hold the {TOTAL_DIAMONDS} diamond "
                   f"counters between them, not {total}")
            out.append((f"{base}/diamond_cache", why))
            out.append((f"{base}/diamond_reserve", why))
            out.extend((f"{base}/villages/{i}/diamonds", why) for i in range(len(ss.get("villages") or ())))
            out.extend((f"{base}/diamonds/{k}", why) for k in (ss.get("diamonds") or {}))
        n = state.num_players
        for key in ("diamonds", "trade_routes"):
            for p in ss.get(key) or {}:
                if int(p) >= n:
                    out.append((f"{base}/{key}/{p}", f"player {p} does not exist"))
        if out:
            return out
        hexes = [h for h, _ in vs]
        for p, routes in (ss.get("trade_routes") or {}).items():
            hs = [as_hex(v) for v in routes]
            for j, h in enumerate(hs):
                if h not in hexes:
                    out.append((f"{base}/trade_routes/{p}/{j}", f"DIAM-006: {h[0]},{h[1]} is no island village"))
                elif h in hs[:j]:
                    out.append((f"{base}/trade_routes/{p}/{j}", f"R-048: one trade route per player and village; "
                                f"{h[0]},{h[1]} is listed twice"))
        if out:
            return out
        if state.longest_road_holder is not None:
            out.append(("/state/awards/longest_road", "DIAM-017: the Longest Road card is not used in Diamond Isles"))
        if state.phase not in ("game_over", "setup") and villages_with_diamonds(state) <= 3:
            out.append((f"{base}/villages", f"DIAM-021: only {villages_with_diamonds(state)} villages hold diamonds, "
                        "so the game is over (phase game_over, R-049)"))
        graph = board_graph(state)
        vmap = village_of_node(state, graph)
        for p in range(n):
            rec = recorded_routes(state, p)
            touching = {vmap[nid] for e, q in state.ships.items() if q == p and e in graph.edge_index
                        for nid in graph.edge_node_ids[graph.edge_index[e]] if nid in vmap}
            for i in sorted(rec - touching):
                h = hexes[i]
                why = f"R-045: player {p} has a route to the village on {h[0]},{h[1]} but no ship touching it"
                out.append((f"{base}/trade_routes/{p}", why))
                out.append(("/state/pieces/ships", why))        # the other side: the ships
            for i in sorted(connected_villages(state, graph, p, vmap) - rec):
                h = hexes[i]
                why = (f"DIAM-006: player {p}'s ships join the village on {h[0]},{h[1]} to their harbour, so the "
                       "route was made (and its diamond paid) then: list it")
                out.append((f"{base}/trade_routes/{p}", why))
                out.append(("/state/pieces/ships", why))        # the other side: the ships that join it
        return out

    # -- derived values -------------------------------------------------------------------------------
    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = dict(super().derived_extra(state, graph))
        n = state.num_players
        vs = villages(state)
        vmap = village_of_node(state, graph)
        routes: dict[str, list] = {}
        closed_all: dict[str, list] = {}
        for p in range(n):
            conn = connected_villages(state, graph, p, vmap)
            closed, by_v = route_ships(state, graph, p, conn, vmap)
            closed_all[str(p)] = sorted([list(e) for e in closed])
            routes[str(p)] = [{"village": list(vs[i][0]), "number": village_number(state, vs[i][0]),
                               "ships": sorted([list(e) for e in by_v.get(i, ())])}
                              for i in sorted(recorded_routes(state, p))]
        ss = state.scenario_state
        out.update({
            "diamonds": {str(p): {"diamonds": diamonds_of(state, p), "vp": diamonds_of(state, p) // 2} for p in range(n)},
            "trade_routes": routes,
            "closed_ships": closed_all,
            "villages": [{"hex": list(h), "number": village_number(state, h), "diamonds": d,
                          "routes": [p for p in range(n) if i in recorded_routes(state, p)]}
                         for i, (h, d) in enumerate(vs)],
            "diamond_cache": {"cache": int(ss.get("diamond_cache", 0)), "reserve": int(ss.get("diamond_reserve", 0)),
                              "total": diamond_total(state)},
            "may_move": {"robber": H.robber_allowed(state, self),
                         "pirate": [p for p in range(n) if H.pirate_allowed(state, p)]},
            "game_end": end_result(state, self),
        })
        return out

    # -- picture and explanations ---------------------------------------------------------------------
    def board_layers(self, state: State, graph: MapGraph) -> list:
        from .pictures import board_layers
        return [*super().board_layers(state, graph), *board_layers(state, graph)]

    def explain_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        from .explain import explain_extra
        return {**super().explain_extra(state, graph), **explain_extra(state, graph, self, end_result(state, self))}


def end_result(state: State, scen) -> dict[str, Any]:
    """The standings by VP, then diamonds (DIAM-022), and what ended (or would end) the game."""
    from ...derive import victory_point_total
    n = state.num_players
    order = [(state.current_player + k) % n for k in range(n)]
    rows = [{"player": p, "vp": victory_point_total(state, scen, p), "diamonds": diamonds_of(state, p)} for p in order]
    standings = sorted(rows, key=lambda r: (-r["vp"], -r["diamonds"]))      # stable: seat order from the mover
    top = standings[0]
    tied_vp = [r for r in standings if r["vp"] == top["vp"]]
    winners = [r["player"] for r in tied_vp if r["diamonds"] == top["diamonds"]]
    decided_by = "victory_points" if len(tied_vp) == 1 else ("diamonds" if len(winners) == 1 else "shared")
    left = villages_with_diamonds(state)
    by_villages = bool(villages(state)) and left <= 3
    return {"villages_with_diamonds": left, "ended_by_villages": by_villages, "standings": standings,
            "winners": winners, "decided_by": decided_by, "why": _end_text(state, left, by_villages, standings,
                                                                          winners, decided_by)}


def _end_text(state: State, left: int, by_villages: bool, standings: list, winners: list, decided_by: str) -> str:
    lead = standings[0]
    how = {"victory_points": f"player {lead['player']} has the most victory points ({lead['vp']})",
           "diamonds": f"players tie at {lead['vp']} VP and player {lead['player']} has the most diamonds "
                       f"({lead['diamonds']}; DIAM-022)",
           "shared": f"players {', '.join(map(str, winners))} tie at {lead['vp']} VP and {lead['diamonds']} diamonds: "
                     "a shared victory (R-049)"}[decided_by]
    if by_villages:
        return f"only {left} villages still hold diamonds, so the game ended at once (DIAM-021, R-049): {how}"
    if state.winner is not None:
        return (f"player {state.winner} reached {state.vp_target} victory points on their own turn (DIAM-020, "
                "R-003)")
    return (f"{left} villages still hold diamonds: the game ends when only 3 do (DIAM-021), or when a player has "
            f"{state.vp_target} VP on their turn (DIAM-020); were it to end now, {how}")
