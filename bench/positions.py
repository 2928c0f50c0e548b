"""Positions for benchmarks: a mid-game base game and an 80+ hex Seafarers state, built by play.

Built by greedy, seeded play through the engine itself (every step adjudicated), so each position
is one the rules can reach.
"""
from __future__ import annotations

from service.engine.core import Action
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate
from service.engine.rng import Rng
from service.engine.scenarios import get_scenario


def _try(state, graph, scen, action):
    v = adjudicate(state, action, graph, scen, with_derived=False)
    return v.state if v.legal else None


def play(state, graph, scen, turns: int, seed: int = 1):
    """Setup by first legal spots (in a seeded order), then ``turns`` turns of roll + greedy building."""
    rng = Rng(seed, 0)
    nodes = rng.shuffle(graph.nodes)
    edges = rng.shuffle(graph.edges)
    while state.phase == "setup":
        p = state.current_player
        for n in nodes:
            s2 = _try(state, graph, scen, Action("build_settlement", p, {"node": n}))
            if s2:
                state = s2
                break
        for e in edges:
            s2 = _try(state, graph, scen, Action("build_road", p, {"edge": e}))
            if s2:
                state = s2
                break
    for _ in range(turns):
        p = state.current_player
        state = _try(state, graph, scen, Action("roll", p, {})) or state
        while state.phase == "discard":
            q = next(iter(state.pending_discards))
            need = state.pending_discards[q]
            cards, hand = {}, dict(state.players[q].resources)
            for r in sorted(hand, key=lambda r: -hand[r]):
                k = min(hand[r], need - sum(cards.values()))
                if k:
                    cards[r] = k
            state = _try(state, graph, scen, Action("discard", q, {"resources": cards}))
        if state.phase == "robber":
            for h in sorted(state.hexes):
                s2 = _try(state, graph, scen, Action("move_robber", p, {"hex": h, "steal_from": None}))
                if s2:
                    state = s2
                    break
        if state.phase == "game_over":
            break
        hand = state.players[p].resources
        rich = max(hand, key=lambda r: hand[r])
        poor = min(hand, key=lambda r: hand[r])
        if hand[rich] >= 4 and rich != poor:
            state = _try(state, graph, scen, Action("maritime_trade", p, {"give": {rich: 4}, "get": {poor: 1}})) or state
        for kind, coords, key in (("build_city", nodes, "node"), ("build_settlement", nodes, "node"),
                                  ("build_road", edges, "edge")):
            for c in coords:
                s2 = _try(state, graph, scen, Action(kind, p, {key: c}))
                if s2:
                    state = s2
                    break
        if state.phase == "game_over":
            break
        state = _try(state, graph, scen, Action("end_turn", p, {})) or state
    return state


def base_midgame(seed: int = 5, turns: int = 40):
    scen = get_scenario("base")
    state = scen.new_game(4, seed)
    graph = MapGraph.build(state.terrain_map())
    return play(state, graph, scen, turns, seed), graph, scen


def seafarers_big(seed: int = 3):
    """An 80+ tile Seafarers board (a large island ring in open sea, framed) with a few turns played."""
    from service.engine.geometry import hex_distance
    from service.engine.scenarios.base import ring
    from service.engine.state import Tile
    scen = get_scenario("seafarers")
    base = get_scenario("base").new_game(4, seed)
    rng = Rng(seed, 99)
    terr = ["forest", "hills", "pasture", "fields", "mountains", "gold"]
    hexes = {}
    for q in range(-6, 7):
        for r in range(-6, 7):
            d = hex_distance((0, 0), (q, r))
            if d <= 5:
                land = d <= 2 or (d == 4 and (q + 2 * r) % 3 == 0)
                if land:
                    t = terr[rng.below(len(terr))]
                    hexes[(q, r)] = Tile(t, [2, 3, 4, 5, 6, 8, 9, 10, 11, 12][rng.below(10)])
                else:
                    hexes[(q, r)] = Tile("sea")
    for h in ring(6):
        hexes[h] = Tile("frame")
    state = base.copy()
    state.scenario = "seafarers"
    state.hexes = hexes
    state.harbors = {}
    state.robber = None
    state.pirate = (0, -5)
    for p in state.players:
        p.supply = dict(scen.supply)
    graph = MapGraph.build(state.terrain_map())
    return play(state, graph, scen, 30, seed), graph, scen
