"""Diamond Isles' handlers for engine action types whose checks change: ships anchored at villages
(DIAM-010..013), the robber and pirate limits (DIAM-014..016, R-050, R-051), Road Building's ships.

Each wraps the engine's own rules and adds or replaces only what the scenario changes."""
from __future__ import annotations

from typing import Optional

from ...actions import own_handler
from ...actions.build import edge_piece_violations, place_edge_piece
from ...actions.dev import PlayRoadBuilding, dev_wrong_phase, may_play, pieces_in_turn, play_card
from ...actions.robber import do_move, move_violations, robbable
from ...actions.seafarers import MoveShip as EngineMoveShip
from ...core import Action, Ctx, Violation
from ...derive import victory_points
from ...geometry import edge_str
from ...lanes import is_foremost
from ...placement import road_connected, road_site, ship_connected, ship_site
from ...state import State
from .villages import anchored_at_village, connected_villages, diamonds_of, recorded_routes, route_ships


# -- who may move the robber and the pirate (R-050) -------------------------------------------------------

def public_vp(state: State, scenario, player: int) -> int:
    """R-050: the victory points everyone can see: buildings, special cards, diamond VP; hidden VP cards
    are left out."""
    vp = victory_points(state, scenario, player)
    return vp["total"] - vp.get("victory_point_cards", 0)


def robber_allowed(state: State, scenario) -> bool:
    """DIAM-014: the robber may be moved only while some player has 3 or more (public) VP (R-050)."""
    return any(public_vp(state, scenario, p) >= 3 for p in range(state.num_players))


def pirate_allowed(state: State, player: int) -> bool:
    """DIAM-015: the pirate may be moved only by a player with a trade route to an island village
    (routes are always closed, R-046)."""
    return bool(recorded_routes(state, player))


def permission_violation(ctx: Ctx, target: str) -> list[Violation]:
    s, p = ctx.state, ctx.action.player
    if target == "pirate":
        if not pirate_allowed(s, p):
            return [Violation("DIAM-015", f"the pirate is moved only by a player with a trade route to an island "
                              f"village; player {p} has none (R-050)", "/action/target"
                              if ctx.action.type == "play_knight" else "/action")]
        return []
    if not robber_allowed(s, ctx.scenario):
        best = max(public_vp(s, ctx.scenario, q) for q in range(s.num_players))
        return [Violation("DIAM-014", f"the robber may be moved only once a player has 3 or more victory points; "
                          f"the most anyone has is {best} (R-050)", "/action/target"
                          if ctx.action.type == "play_knight" else "/action")]
    return []


# -- the pirate's theft: a card or a diamond (DIAM-016, R-051) ----------------------------------------------

def theft_kind(state: State, action: Action) -> Optional[str]:
    """R-051: what the pirate's mover takes from the victim: the kind chosen if the victim has one, else
    the other kind, else nothing."""
    victim = action.get("steal_from")
    if victim is None:
        return None
    want = action.get("steal") or "card"
    has = {"card": state.players[victim].hand_size > 0, "diamond": diamonds_of(state, victim) > 0}
    if has[want]:
        return want
    other = "diamond" if want == "card" else "card"
    return other if has[other] else None


def theft_violations(ctx: Ctx) -> list[Violation]:
    """The observed ``card`` names a card only when the theft takes a card (R-051)."""
    a = ctx.action
    if a.get("card") is not None and a.get("steal_from") is not None and theft_kind(ctx.state, a) == "diamond":
        return [Violation("DIAM-016", f"the pirate's mover takes a diamond from player {a.get('steal_from')} "
                          f"(steal: {a.get('steal') or 'card'}; R-051), so no card is named", "/action/card")]
    return []


def steal_with_pirate(ctx: Ctx, s: State, mover: int) -> None:
    """Move the pirate and rob per R-051: a diamond moves between the players' counts, a card as the
    engine robs one (observed, or drawn by the seeded generator)."""
    a = ctx.action
    if theft_kind(ctx.state, a) == "diamond":
        victim = a.get("steal_from")
        sub = Ctx(ctx.state, Action(a.type, a.player, {**a.params, "steal_from": None}), ctx.graph, ctx.scenario,
                  ctx.events)
        do_move(sub, s, "pirate", mover)
        d = s.scenario_state.setdefault("diamonds", {})
        d[str(victim)] = int(d.get(str(victim), 0)) - 1
        d[str(mover)] = int(d.get(str(mover), 0)) + 1
        ctx.emit("stole_diamond", player=mover, victim=victim)          # DIAM-016
    else:
        do_move(ctx, s, "pirate", mover)


@own_handler("move_robber", {"robber"})
class MoveRobber:
    """DIAM-014 first (R-050), then the engine's robber rules."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return permission_violation(ctx, "robber") or move_violations(ctx, "robber", ctx.action.player)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        do_move(ctx, s, "robber", ctx.action.player)
        s.phase = "main"


@own_handler("move_pirate", {"robber"})
class MovePirate:
    """DIAM-015 (R-050), the engine's pirate rules (SEA-029/030, R-008), and DIAM-016's theft (R-051)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return (permission_violation(ctx, "pirate") or move_violations(ctx, "pirate", ctx.action.player)
                or theft_violations(ctx))

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        steal_with_pirate(ctx, s, ctx.action.player)
        s.phase = "main"


@own_handler("play_knight", {"roll", "main"}, not_your_turn="BASE-DEV-3", wrong_phase=dev_wrong_phase)
class PlayKnight:
    """BASE-DEV-5 with the limits of R-050: the knight moves a permitted piece; when neither the robber
    (DIAM-014) nor the pirate (DIAM-015) is permitted it is played without a move (``hex`` left out) and
    still counts for Largest Army (DIAM-018)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        v = may_play(ctx, "knight")
        if v:
            return v
        target = a.get("target") or "robber"
        if a.get("hex") is None:
            robber, pirate = robber_allowed(s, ctx.scenario), pirate_allowed(s, a.player)
            if robber or pirate:
                rule = "DIAM-014" if robber else "DIAM-015"
                may = " and ".join(x for x, ok in (("robber", robber), ("pirate", pirate)) if ok)
                return [Violation(rule, f"a knight moves the {may} when permitted; name the hex (R-050: only with "
                                  "neither permitted is it played without a move)", "/action/hex")]
            return []
        v = permission_violation(ctx, target) or move_violations(ctx, target, a.player)
        if v or target != "pirate":
            return v
        return theft_violations(ctx)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        play_card(ctx, s, "knight")           # DIAM-018: a played knight counts for Largest Army
        if a.get("hex") is None:
            ctx.emit("knight_without_move", player=a.player)
            return
        if (a.get("target") or "robber") == "pirate":
            steal_with_pirate(ctx, s, a.player)
        else:
            do_move(ctx, s, "robber", a.player)


# -- ships: villages as anchors (DIAM-012, DIAM-013), closed routes (DIAM-010, DIAM-011) ---------------------

def ship_connected_diam(ctx: Ctx, edge, player: int, path: str, ignore=None) -> list[Violation]:
    """SEA-008 plus R-045: a new ship may also start at any corner of a village the player has a trade
    route with: a closed route is extended from it (DIAM-012) and new routes branch from it (DIAM-013)."""
    v = ship_connected(ctx, edge, player, path, ignore)
    if v and anchored_at_village(ctx.state, ctx.graph, player, edge) is not None:
        return []
    return v


@own_handler("build_ship", {"setup", "main"}, not_your_turn="BASE-COST-3", changes_routes=True)
class BuildShip:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return edge_piece_violations(ctx, "ship", ship_site, ship_connected_diam, "SEA-006")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        place_edge_piece(ctx, s, "ship")


@own_handler("move_ship", {"main"}, not_your_turn="SEA-017", changes_routes=True)
class MoveShip:
    """R-010 with the village anchors: a ship of a closed route never moves (DIAM-011); the last ship of
    an open line still does, under the Seafarers rules (DIAM-010)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s, g = ctx.action, ctx.state, ctx.graph
        src, dst = a.get("from"), a.get("to")
        if s.ships.get(src) != a.player:
            return [Violation("SEA-015", f"player {a.player} has no ship on {edge_str(src)} to move", "/action/from")]
        if s.flags.ship_moved:
            return [Violation("SEA-017", "a player may move at most one ship per turn; one has been moved already")]
        if src in s.flags.ships_built:
            return [Violation("SEA-018", f"the ship on {edge_str(src)} was built this turn and may not move until "
                              "the player's next turn (R-011)", "/action/from")]
        eid = g.edge_index[src]
        if s.pirate is not None and eid in g.hex_edge_ids.get(s.pirate, ()):
            return [Violation("SEA-033", f"the ship on {edge_str(src)} lies beside the pirate and may not be moved "
                              "away", "/action/from")]
        closed, _ = route_ships(s, g, a.player)
        if src in closed:
            return [Violation("DIAM-011", f"the ship on {edge_str(src)} is part of a closed route (between two of "
                              "your harbours, settlements/cities or island villages you trade with) and may never "
                              "move (R-046)", "/action/from")]
        if not is_foremost(s, g, a.player, src):
            return [Violation("DIAM-010", f"only the last ship of an open route may move; {edge_str(src)} has own "
                              "ships or buildings at both ends (R-010)", "/action/from")]
        if dst == src:
            return [Violation("SEA-016", f"a moved ship goes to a different edge; from and to are both "
                              f"{edge_str(src)}", "/action/to")]
        return (ship_site(ctx, dst, "/action/to", ignore=src)
                or ship_connected_diam(ctx, dst, a.player, "/action/to", ignore=src))

    apply = staticmethod(EngineMoveShip.apply)


def _free_piece(sub: Ctx, i: int, kind: str, edge, path: str) -> list[Violation]:
    """One Road Building piece (BASE-DEV-6, SEA-023), ships anchored as :func:`ship_connected_diam`."""
    tmp, player = sub.state, sub.action.player
    if tmp.players[player].supply.get(kind + "s", 0) <= 0:
        return [Violation("BASE-COMP-1", f"no {kind} left in player {player}'s supply", f"/action/pieces/{i}/kind")]
    if kind == "road":
        v = road_site(sub, edge, path) or road_connected(sub, edge, player, path)
        tmp.roads[edge] = player
    else:
        v = ship_site(sub, edge, path) or ship_connected_diam(sub, edge, player, path)
        tmp.ships[edge] = player
    tmp.players[player].supply[kind + "s"] -= 1
    return v


@own_handler("play_road_building", {"roll", "main"}, not_your_turn="BASE-DEV-3", wrong_phase=dev_wrong_phase,
             changes_routes=True)
class RoadBuilding:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        v = may_play(ctx, "road_building")
        if v:
            return v
        s, a = ctx.state, ctx.action
        sup = s.players[a.player].supply
        avail = sup.get("roads", 0) + sup.get("ships", 0)
        if avail <= 0:
            return [Violation("BASE-DEV-6", f"player {a.player} has no road or ship left in supply, so the card "
                              "cannot be used")]
        want = min(2, avail)
        if len(a.get("pieces")) != want:
            return [Violation("BASE-DEV-6", f"Road Building places {want} piece{'s' if want > 1 else ''} "
                              f"(2, or what the supply allows); the action names {len(a.get('pieces'))}",
                              "/action/pieces")]
        return pieces_in_turn(ctx, _free_piece)

    apply = staticmethod(PlayRoadBuilding.apply)


# -- candidates of the new choices --------------------------------------------------------------------------

def pirate_candidates(state: State, graph, scen, player: int):
    """The pirate's diamond thefts (R-051): every sea hex and victim with ``steal: diamond`` (the card
    thefts come from the engine's generator)."""
    if state.phase != "robber" or player != state.current_player:
        return
    for h in sorted(state.hexes):
        if h == state.pirate or not scen.pirate_hex_ok(state, h):
            continue
        for v in robbable(state, graph, "pirate", h, player):
            yield Action("move_pirate", player, {"hex": h, "steal_from": v, "card": None, "steal": "diamond"})


def knight_candidates(state: State, graph, scen, player: int):
    """A knight without a move (R-050), and the pirate's diamond thefts with a knight."""
    if state.phase not in ("roll", "main") or player != state.current_player:
        return
    if state.flags.dev_card_played or state.players[player].dev_cards.get("knight", 0) <= 0:
        return
    yield Action("play_knight", player, {"hex": None, "steal_from": None, "card": None, "target": "robber"})
    for h in sorted(state.hexes):
        if h == state.pirate or not scen.pirate_hex_ok(state, h):
            continue
        for v in robbable(state, graph, "pirate", h, player):
            yield Action("play_knight", player, {"hex": h, "steal_from": v, "card": None, "target": "pirate",
                                                 "steal": "diamond"})


def road_building_candidates(state: State, graph, scen, player: int):
    """Road Building whose first ship starts at a village corner (DIAM-013), which the engine's generator
    does not propose; second pieces next to the first or the player's network."""
    if state.phase not in ("roll", "main") or player != state.current_player:
        return
    if state.players[player].dev_cards.get("road_building", 0) <= 0:
        return
    conn = connected_villages(state, graph, player)
    if not conn:
        return
    from .villages import village_of_node
    vmap = village_of_node(state, graph)
    nodes = [n for n, i in vmap.items() if i in conn]
    firsts = sorted({graph.edges[eid] for n in nodes for eid in graph.node_edge_ids[n]})
    sup = state.players[player].supply
    avail = sup.get("roads", 0) + sup.get("ships", 0)
    for e1 in firsts:
        if avail == 1:
            yield Action("play_road_building", player, {"pieces": [{"kind": "ship", "edge": e1}]})
            continue
        ends = graph.edge_node_ids[graph.edge_index[e1]]
        for e2 in sorted({graph.edges[eid] for n in ends for eid in graph.node_edge_ids[n]} - {e1}):
            yield Action("play_road_building", player, {"pieces": [{"kind": "ship", "edge": e1},
                                                                   {"kind": "ship", "edge": e2}]})
