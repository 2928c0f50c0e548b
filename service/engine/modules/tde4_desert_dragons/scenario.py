"""Treasures, Dragons & Explorers scenario 4, "The Desert Dragons" (3 and 4 players, seeds/003).

Base and Seafarers rules (TDE4-001; never with Cities & Knights: the option is refused), 3 or 4 players
(TDE4-002), the maps of ``maps.py`` (TDE4-003..005), no robber and no pirate (TDE4-007) and the
scenario's own 7 (TDE4-008), the dragons (``dragons.py``: TDE4-009..020), knights that remove them
(TDE4-021..023) and 13 VP to win (TDE4-024).
"""
from __future__ import annotations

from typing import Any, Optional

from ...core import Ctx, Violation
from ...geometry import Edge, Hex, edge_hexes, edge_nodes, edge_str, hex_str, node_hexes, node_str
from ...mapgraph import RESOURCES
from ...module import ActionSpec, EventSpec, OptionSpec
from ...rng import Rng
from ...scenarios._sc_common import node_regions, player_count_problems, regions, spec_regions
from ...scenarios.hooks import mainland_of
from ...scenarios.mapdata import TDE_BOOK, Edition, MappedScenario
from ...scenarios.seafarers import Seafarers
from ...spec import EDGE, HEX, NODE, PLAYER, Bool, F, Int, List, Map, Null, Obj, Str, by_player
from ...state import State
from . import dragons as D
from . import pictures
from .actions import (DRAGON_KNIGHT, StealCard, invading_roll, knight_candidates, knight_violations, remove_dragon,
                      steal_candidates)
from .maps import MAP_SPECS, component_table, fixed_harbors

_HEXES = List(HEX, max_len=64)
_COUNTS = Map(Int(0, D.DRAGONS), max_len=16)


def _refuse_cities_and_knights(value: Any, players: int) -> bool:
    """TDE4-001: this scenario is never combined with Cities & Knights."""
    return value is False


class DesertDragons(MappedScenario, Seafarers, edition=Edition(
        "TDE4", "The Desert Dragons", TDE_BOOK, 4, (3, 4), 13,           # TDE4-002: 3-4 players; TDE4-024: 13 VP
        "TDE4-003", {n: component_table(n) for n in (3, 4)}, MAP_SPECS)):
    module_name = "TDE4"
    pirate = False                                            # TDE4-007: no pirate

    # -- declarations ------------------------------------------------------------------------------
    ACTIONS = (
        ActionSpec("steal_card",
                   {"steal_from": F(PLAYER, nullable=True, doc="the player whose hand a card is taken from; "
                                    "null takes none"),
                    "card": F(Str(RESOURCES), nullable=True, doc="the card taken, as observed (else drawn by "
                              "the seeded generator)")},
                   "TDE4-008: after a 7 and its discards, the roller may take one random card from any one other "
                   "player's hand (no robber).", handler=StealCard.HANDLER, candidates=steal_candidates),
        ActionSpec("play_knight", {}, "TDE4-021: play a knight to remove the dragon of a landscape hex (hex) from "
                   "the game; no card is stolen and there is no Largest Army (TDE4-022).",
                   handler=DRAGON_KNIGHT, candidates=knight_candidates),
        ActionSpec("roll", {}, "", handler=invading_roll),
    )
    WITHOUT_ACTIONS = ("move_robber", "move_pirate")          # TDE4-007
    STATE = {
        "desert_dragons": F(_COUNTS, doc="TDE4-009/010: \"q,r\" of a desert -> the dragons on it"),
        "dragons": F(_HEXES, doc="TDE4-012/013: the landscape hexes holding a dragon (one each)"),
        "gathered": F(Int(0, D.DRAGONS), doc="TDE4-009/011: dragons put on the deserts so far (18: the "
                      "invasion is on)"),
        "removed": F(Int(0, D.DRAGONS), doc="TDE4-021: dragons knights have taken out of the game"),
    }
    DERIVED = {
        "dragons": F(Obj({
            "deserts": F(_COUNTS, doc="dragons per desert"),
            "hexes": F(_HEXES, doc="landscape hexes holding a dragon"),
            "beside_board": F(Int(0, D.DRAGONS), doc="TDE4-005: dragons not gathered yet"),
            "gathered": F(Int(0, D.DRAGONS)), "removed": F(Int(0, D.DRAGONS)),
            "per_build": F(Int(0, 3), doc="TDE4-009: dragons the next settlement or city adds"),
            "invasion": F(Bool(), doc="TDE4-011: the invasion is on"),
        }), doc="where the dragons are (TDE4-005..015)"),
        "invasion_targets": F(Map(_HEXES, max_len=10),
                              doc="R-065: per number, the hexes a roll of it would give a dragon now"),
        "blocked_roads": F(List(Obj({"edge": F(EDGE), "player": F(PLAYER), "reason": F(Str(max_len=400))}),
                                max_len=64), doc="TDE4-018: roads between two dragon hexes, and why"),
        "blocked_buildings": F(List(Obj({"node": F(NODE), "player": F(PLAYER), "kind": F(Str(("settlement", "city"))),
                                         "reason": F(Str(max_len=400))}), max_len=40),
                               doc="TDE4-019: buildings with dragons all round, scoring 0 VP, and why"),
        "idle_hexes": F(_HEXES, doc="TDE4-016: hexes a dragon stops from producing"),
        "vp_blocked": F(by_player(Int(0, 40)), doc="TDE4-019: VP the blocked buildings would score"),
    }
    EVENTS = (
        EventSpec("dragons_gathered", {"player": F(PLAYER), "deserts": F(_HEXES), "gathered": F(Int(0, D.DRAGONS))},
                  "TDE4-009/010: dragons put on the deserts for a settlement or city (one entry a dragon)"),
        EventSpec("invasion_begins", {}, "TDE4-011: the 18th dragon is gathered; the invasion starts next roll"),
        EventSpec("dragon_invaded", {"from": F(HEX), "hex": F(HEX)},
                  "TDE4-012..015: a dragon moves from a desert onto a landscape hex"),
        EventSpec("dragon_removed", {"player": F(PLAYER), "hex": F(HEX)}, "TDE4-021: a knight removes a dragon"),
        EventSpec("card_taken", {"player": F(PLAYER), "victim": F(Null(PLAYER)), "resource": F(Null(Str(RESOURCES)))},
                  "TDE4-008: the roller of a 7 takes a card"),
    )
    OPTIONS = (OptionSpec("cities_and_knights", _refuse_cities_and_knights,
                          "false only: TDE4-001, The Desert Dragons is not combined with Cities & Knights"),)

    # -- a new game --------------------------------------------------------------------------------
    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        board = super().new_board(num_players, rng)
        board["harbors"] = fixed_harbors(num_players)       # TDE4-003/004: every harbour as shown
        board["robber"] = None                               # TDE4-007
        board["pirate"] = None
        return board

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        # TDE4-005: the 18 dragons start beside the board
        out.update({"desert_dragons": {hex_str(h): 0 for h in sorted(
            (h for h, t in board["hexes"].items() if t.terrain == "desert"), key=D.order)},
            "dragons": [], "gathered": 0, "removed": 0})
        return out

    # -- checks ------------------------------------------------------------------------------------
    def home(self, state: State) -> tuple[dict, set]:
        spec = MAP_SPECS.get(state.num_players) or MAP_SPECS[3]
        imap = regions(state, spec_regions(spec))
        names = set(imap.values())
        return imap, ({"home"} if "home" in names else {mainland_of(state)})

    def check(self, ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        if s.phase == "setup":
            if a.type == "build_settlement":
                imap, allowed = self.home(s)
                node = a.get("node")
                if not node_regions(node, imap) & allowed:
                    return [Violation("TDE4-006", f"both starting settlements go on the home island; "
                                      f"{node_str(node)} is not on it", "/action/node")]
            elif a.type == "build_ship":
                if any(p == a.player for p in s.ships.values()):
                    return [Violation("TDE4-006", "only one of the two starting roads may be replaced by a ship "
                                      "(R-069); this player has one already", "/action/edge")]
            return []
        if a.type == "build_road":
            return self._road_onto_blocked(ctx, [("road", a.get("edge"), "/action/edge")])
        if a.type == "play_road_building":
            return self._road_onto_blocked(ctx, [(p["kind"], p["edge"], f"/action/pieces/{i}/edge")
                                                 for i, p in enumerate(a.get("pieces") or [])])
        return []

    def _road_onto_blocked(self, ctx: Ctx, pieces: list[tuple[str, Edge, str]]) -> list[Violation]:
        """TDE4-018 / R-066: no road is added to a blocked road: a new road must connect without the
        player's blocked roads (the pieces of a Road Building card one after the other, R-015)."""
        s = ctx.state
        if not any(kind == "road" for kind, _, _ in pieces):
            return []
        holding = D.dragon_hexes(s)
        if len(holding) < 2:
            return []
        me = ctx.action.player
        ends = {n for e, p in s.roads.items() if p == me and D.edge_blocked(s, e, holding) for n in edge_nodes(e)}
        if not ends or not any(n in ends for _, e, _ in pieces for n in edge_nodes(e)):
            return []                       # no new piece touches a blocked road of the player
        tmp = s.copy()
        tmp.roads = {e: p for e, p in s.roads.items() if not D.edge_blocked(s, e, holding)}
        for kind, edge, path in pieces:
            sub = Ctx(tmp, ctx.action, ctx.graph, ctx.scenario)
            if kind == "road":
                if ctx.scenario.piece_connection(sub, "road", edge, ctx.action.player, path):
                    return [Violation("TDE4-018", f"no road may be built onto a blocked road: {edge_str(edge)} "
                                      "reaches your network only at the end of a road between two dragon hexes",
                                      path)]
                if not D.edge_blocked(s, edge, holding):
                    tmp.roads[edge] = ctx.action.player
            else:
                tmp.ships[edge] = ctx.action.player
        return []

    # -- reactions ---------------------------------------------------------------------------------
    def after_action(self, ctx: Ctx, s: State) -> None:
        super().after_action(ctx, s)
        # only buildings built after the foundation phase gather dragons.
        if ctx.state.phase == "setup" or ctx.action.type not in ("build_settlement", "build_city"):
            return
        placed, counts, done = D.gather(s, s.num_players)                  # TDE4-009, TDE4-010
        if not placed:
            return
        ss = s.scenario_state = dict(s.scenario_state)
        ss["desert_dragons"] = {hex_str(h): n for h, n in sorted(counts.items(), key=lambda x: D.order(x[0]))}
        ss["gathered"] = done
        ss.setdefault("dragons", [])
        ss.setdefault("removed", 0)
        ctx.emit("dragons_gathered", player=ctx.action.player, deserts=[list(h) for h in placed], gathered=done)
        if done >= D.DRAGONS:
            ctx.emit("invasion_begins")                                    # TDE4-011

    def after_production(self, ctx: Ctx, s: State, total: int) -> None:
        """TDE4-017: production is paid first (this hook runs after it), then the dragons invade
        (TDE4-012..015, R-065) on the pre-roll dragons."""
        super().after_production(ctx, s, total)
        if not D.invasion_active(s):                                         # TDE4-011
            return
        moves, counts = D.invade(s, total)
        if not moves:
            return
        ss = s.scenario_state = dict(s.scenario_state)
        ss["desert_dragons"] = {hex_str(h): n for h, n in sorted(counts.items(), key=lambda x: D.order(x[0]))}
        ss["dragons"] = [list(h) for h in sorted(D.landscape_dragons(s) | {h for _, h in moves}, key=D.order)]
        ss.setdefault("gathered", D.DRAGONS)
        for d, h in moves:
            ctx.emit("dragon_invaded", hex=list(h), **{"from": list(d)})

    # -- what dragons do ---------------------------------------------------------------------------
    def idle_hexes(self, state: State) -> Any:
        """TDE4-016: a hex with a dragon produces nothing; TDE4-023: a freed hex produces again from the
        next roll (read from the dragons as they are at each roll)."""
        return D.landscape_dragons(state)

    def army_award(self, state: State, holder: Optional[int]) -> Optional[int]:
        """TDE4-022: there is no Largest Army card in this scenario."""
        return None

    def route_pieces(self, state: State, player: int) -> list[tuple[Any, str]]:
        """TDE4-018 / R-066: blocked roads do not count towards the longest trade route (recomputed from
        the dragons every time: a freed hex lifts the block, TDE4-023)."""
        holding = D.dragon_hexes(state)
        out = [(e, "road") for e, p in state.roads.items() if p == player
               and not (len(holding) >= 2 and D.edge_blocked(state, e, holding))]
        out += [(e, "ship") for e, p in state.ships.items() if p == player]
        return out

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        """TDE4-019 / R-066: a blocked settlement or city scores no VP: its points are taken back as the
        source ``blocked_buildings`` (0 or less); TDE4-020: a coastal one is never blocked."""
        lost = 0
        for _n, p, kind in D.blocked_buildings(state):
            if p == player:
                lost += 2 if kind == "city" else 1
        return {"blocked_buildings": -lost}

    def knight_violations(self, ctx: Ctx) -> list[Violation]:
        return knight_violations(ctx)

    def knight_effect(self, ctx: Ctx, s: State) -> None:
        remove_dragon(ctx, s)

    def robber_hex_ok(self, state: State, h: Hex) -> bool:
        return False                                                       # TDE4-007: no robber

    def pirate_hex_ok(self, state: State, h: Hex) -> bool:
        return False                                                       # TDE4-007: no pirate

    def derived_extra(self, state: State, graph) -> dict[str, Any]:
        out = super().derived_extra(state, graph)
        counts = D.desert_counts(state)
        holding = D.dragon_hexes(state)
        mine = D.landscape_dragons(state)
        done = D.gathered(state)
        roads = [{"edge": list(e), "player": p,
                  "reason": f"TDE4-018: between two dragon hexes: {D.why_blocked(state, edge_hexes(e))}"}
                 for e, p in D.blocked_roads(state, holding)]
        blds = D.blocked_buildings(state, holding)
        vp_blocked = {str(i): 0 for i in range(state.num_players)}
        for _n, p, kind in blds:
            if 0 <= p < state.num_players:
                vp_blocked[str(p)] += 2 if kind == "city" else 1
        out.update({
            "dragons": {"deserts": {hex_str(h): n for h, n in sorted(counts.items(), key=lambda x: D.order(x[0]))},
                        "hexes": [list(h) for h in sorted(mine, key=D.order)],
                        "beside_board": max(0, D.DRAGONS - done), "gathered": done, "removed": D.removed(state),
                        "per_build": min(D.PER_BUILD.get(state.num_players, 2), max(0, D.DRAGONS - done)),
                        "invasion": D.invasion_active(state)},
            "invasion_targets": D.invasion_targets(state),
            "blocked_roads": roads,
            "blocked_buildings": [{"node": list(n), "player": p, "kind": k,
                                   "reason": f"TDE4-019: every hex at its corner holds a dragon: "
                                             f"{D.why_blocked(state, node_hexes(n))}"} for n, p, k in blds],
            "idle_hexes": [list(h) for h in sorted(mine, key=D.order)],
            "vp_blocked": vp_blocked,
        })
        return out

    def board_layers(self, state: State, graph) -> list:
        """The dragons (per desert and per hex), the next invasion targets, blocked roads and buildings."""
        return [*super().board_layers(state, graph), *pictures.dragon_layers(state)]

    def explain_extra(self, state: State, graph) -> dict[str, Any]:
        from ...explain import vp_by_source
        return {**super().explain_extra(state, graph), "dragons": pictures.dragons_explained(state, self),
                "blocked": pictures.blocked_explained(state), "seven": pictures.seven_explained(),
                "victory_points": vp_by_source(state, self, {
                    "blocked_buildings": "blocked buildings taken back (0 VP while blocked, TDE4-019)"})}

    # -- the position ------------------------------------------------------------------------------
    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = super().validate_state(state)
        out += player_count_problems(state, self.players, "TDE4-002")
        if state.robber is not None:
            out.append(("/state/robber", "TDE4-007: there is no robber in this scenario (leave it null)"))
        if state.largest_army_holder is not None:
            out.append(("/state/awards/largest_army", "TDE4-022: there is no Largest Army card in this scenario"))
        ss = state.scenario_state or {}
        base = "/state/scenario_state"
        counts = {}
        desert_set = set(D.deserts(state))
        for k, n in (ss.get("desert_dragons") or {}).items():
            h = D.parse_hex(k)
            if h is None or h not in desert_set:
                why = f"TDE4-009: dragons gather only on the board's deserts; {k!r} is not one (keys are \"q,r\")"
                out.append((f"{base}/desert_dragons/{k}", why))
                if h in state.hexes:                        # and the hex that is no desert
                    out.append((f"/state/board/hexes/{list(state.hexes).index(h)}", why))
            else:
                counts[h] = n
        seen: set = set()
        for i, x in enumerate(ss.get("dragons") or ()):
            h = (x[0], x[1])
            t = state.hexes.get(h)
            if t is None or t.terrain not in D.LANDSCAPE:
                out.append((f"{base}/dragons/{i}", f"TDE4-020: a dragon invades only a landscape hex; {hex_str(h)} "
                            f"is {'not on the board' if t is None else 'a ' + t.terrain + ' hex'}"))
            if h in seen:
                out.append((f"{base}/dragons/{i}", f"TDE4-013: a landscape hex holds one dragon at most; "
                            f"{hex_str(h)} is listed twice"))
            seen.add(h)
        on_board = sum(counts.values()) + len(seen)
        rem = int(ss.get("removed") or 0)
        done = ss.get("gathered")
        if on_board + rem > D.DRAGONS:
            out.append((f"{base}/desert_dragons", f"TDE4-005: there are 18 dragons; the deserts, landscapes and "
                        f"those removed account for {on_board + rem}"))
        elif done is not None and done != on_board + rem:   # both sides: the count and what it counts
            why = (f"TDE4-009: {done} dragons gathered, but the deserts, landscapes and those removed account for "
                   f"{on_board + rem}")
            out += [(f"{base}/gathered", why), (f"{base}/desert_dragons", why), (f"{base}/dragons", why),
                    (f"{base}/removed", why)]
        if seen and (done if done is not None else on_board + rem) < D.DRAGONS:
            out.append((f"{base}/dragons", "TDE4-011: dragons leave the deserts only once all 18 are gathered"))
        if counts and desert_set:
            full = {h: counts.get(h, 0) for h in desert_set}
            if max(full.values()) - min(full.values()) > 1:
                out.append((f"{base}/desert_dragons", "TDE4-010: the dragons are spread over the deserts as evenly "
                            "as possible (they differ by one at most)"))
        return out


__all__ = ["DesertDragons"]
