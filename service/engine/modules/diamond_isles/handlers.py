"""Diamond Isles' changes to engine action types: ships anchored at villages (DIAM-010..013), the robber
and pirate limits (DIAM-014..016, R-050, R-051), Road Building's ships.

The engine's handlers judge them through the hooks the scenario implements with the functions here
(``robber_permission``, ``steal_violations``, ``move_and_steal``, ``piece_connection``,
``ship_lane_violations``, and for the Knight, which may be played without a move (R-050),
``knight_violations`` and ``knight_effect``)."""
from __future__ import annotations

from typing import Optional

from ...actions import declared_own, load_all
from ...actions.robber import do_move, robbable
from ...core import Action, Ctx, Violation
from ...derive import victory_points
from ...geometry import edge_str
from ...lanes import is_foremost
from ...legal.listing import per_listing
from ...state import State
from .villages import (anchored_at_village, connected_villages, diamonds_of, recorded_routes, route_ships,
                       village_of_node)


# -- who may move the robber and the pirate (R-050) -------------------------------------------------------

def public_vp(state: State, scenario, player: int) -> int:
    """R-050: the victory points everyone can see: buildings, special cards, diamond VP; hidden VP cards
    are left out."""
    vp = victory_points(state, scenario, player)
    return vp["total"] - vp.get("victory_point_cards", 0)


def most_public_vp(state: State, scenario) -> int:
    """The most public victory points any player has (R-050). Kept for the legal-action list under way
    (``legal.listing.per_listing``: every robber move and Knight it judges asks)."""
    return per_listing(("diamond_isles.most_public_vp",),
                       lambda: max(public_vp(state, scenario, q) for q in range(state.num_players)),
                       state, None, scenario)


def robber_allowed(state: State, scenario) -> bool:
    """DIAM-014: the robber may be moved only while some player has 3 or more (public) VP (R-050)."""
    return most_public_vp(state, scenario) >= 3


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
        best = most_public_vp(s, ctx.scenario)
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


def steal_violations(ctx: Ctx, target: str) -> list[Violation]:
    """The ``steal_violations`` hook: the pirate's theft takes a card or a diamond (DIAM-016, R-051)."""
    return theft_violations(ctx) if target == "pirate" else []


def knight_violations(ctx: Ctx) -> Optional[list[Violation]]:
    """BASE-DEV-5 with the limits of R-050 (the ``knight_violations`` hook): the knight moves a permitted
    piece; when neither the robber (DIAM-014) nor the pirate (DIAM-015) is permitted it is played without a
    move (``hex`` left out) and still counts for Largest Army (DIAM-018). None: the engine's move."""
    a, s = ctx.action, ctx.state
    if a.get("hex") is not None:
        return None
    robber, pirate = robber_allowed(s, ctx.scenario), pirate_allowed(s, a.player)
    if robber or pirate:
        rule = "DIAM-014" if robber else "DIAM-015"
        may = " and ".join(x for x, ok in (("robber", robber), ("pirate", pirate)) if ok)
        return [Violation(rule, f"a knight moves the {may} when permitted; name the hex (R-050: only with "
                          "neither permitted is it played without a move)", "/action/hex")]
    return []


# -- ships: villages as anchors (DIAM-012, DIAM-013), closed routes (DIAM-010, DIAM-011) ---------------------

def village_anchor(ctx: Ctx, edge, player: int, v: list[Violation]) -> list[Violation]:
    """SEA-008 plus R-045: a new ship may also start at any corner of a village the player has a trade
    route with: a closed route is extended from it (DIAM-012) and new routes branch from it (DIAM-013).
    ``v``: the ship's violations of the stack's connection rule below (the ``piece_connection`` hook, judged
    by the engine's ship building, moving and Road Building)."""
    if v and anchored_at_village(ctx.state, ctx.graph, player, edge) is not None:
        return []
    return v


def lane_violations(ctx: Ctx, src) -> list[Violation]:
    """R-010 with the village anchors, the ``ship_lane_violations`` hook: a ship of a closed route never
    moves (DIAM-011); the last ship of an open line still does, under the Seafarers rules (DIAM-010)."""
    s, g, p = ctx.state, ctx.graph, ctx.action.player
    closed, _ = route_ships(s, g, p)
    if src in closed:
        return [Violation("DIAM-011", f"the ship on {edge_str(src)} is part of a closed route (between two of "
                          "your harbours, settlements/cities or island villages you trade with) and may never "
                          "move (R-046)", "/action/from")]
    vmap = village_of_node(s, g)
    connected = connected_villages(s, g, p, vmap)
    anchors = {n for n, i in vmap.items() if i in connected}      # a village traded with anchors lanes
    if not is_foremost(s, g, p, src, anchors):
        return [Violation("DIAM-010", f"only the last ship of an open route may move; {edge_str(src)} has own "
                          "ships, buildings or a village you trade with at both ends (R-010, R-045)", "/action/from")]
    return []


#: The engine's handlers, judged through this module's hooks (robbing, ship anchors and routes). Robbing
#: only adds to the engine's rules (who may move, DIAM-014/015; what the pirate takes, DIAM-016; a Knight
#: without a move is this module's own candidate): its candidates come from the engine's prefilter
#: (``Handler.prefiltered``). Ships connect more widely (DIAM-012/013): every candidate is judged.
_ENGINE = load_all()
PLAY_KNIGHT = declared_own(_ENGINE["play_knight"], prefiltered=True)
MOVE_ROBBER = declared_own(_ENGINE["move_robber"], prefiltered=True)
MOVE_PIRATE = declared_own(_ENGINE["move_pirate"], prefiltered=True)
BUILD_SHIP = declared_own(_ENGINE["build_ship"])
MOVE_SHIP = declared_own(_ENGINE["move_ship"], not_your_turn="SEA-017")
ROAD_BUILDING = declared_own(_ENGINE["play_road_building"])


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
