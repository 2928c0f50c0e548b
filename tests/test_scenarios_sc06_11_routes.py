"""The Great Crossing's trade routes (SC10, R-024/R-025) and Greater Catan's small-island tokens
(SC11, R-026/R-027), on small synthetic boards (R-001) and on the scenario maps."""
from __future__ import annotations

from collections import deque

import pytest

from tests.helpers import place_pirate
from service.engine.core import Action
from service.engine.geometry import canonical_node, node_hexes
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate
from service.engine.scenarios import get_scenario
from service.engine.scenarios._sc_tokens import candidates
from service.engine.scenarios.mapdata import frame_ring
from service.engine.state import Tile

from .test_scenarios_sc06_11 import give, judge, nodes_where, play, rules


# -- The Great Crossing ------------------------------------------------------------------------------------

def crossing_state():
    """Catan = column q=0, Transcatania = column q=7, open sea between, 4 players, main phase."""
    hexes = {}
    for r in range(4):
        for q in range(8):
            hexes[(q, r)] = Tile("sea")
        hexes[(0, r)] = Tile("forest", 5)
        hexes[(7, r)] = Tile("hills", 9)
    for h in frame_ring(hexes):
        hexes[h] = Tile("frame")
    st = get_scenario("SC10").new_game(4, 1)
    st.hexes, st.harbors, st.robber, st.pirate = hexes, {}, None, None
    st.phase, st.turn, st.current_player = "main", 5, 0
    st.flags.rolled = True
    st.scenario_state = {"islands": {"Catan": [[0, r] for r in range(4)],
                                     "Transcatania": [[7, r] for r in range(4)]},
                         "home": {"0": "Catan", "1": "Transcatania", "2": "Catan", "3": "Transcatania"}}
    return st


def ship_path(st, a, b, avoid=(), road=False):
    """Shortest chain of ship (or road) edges from node a to node b not passing the nodes in ``avoid``."""
    g = MapGraph.build(st.terrain_map())
    start, goal = g.node_index[a], g.node_index[b]
    prev = {start: None}
    dq = deque([start])
    while dq:
        n = dq.popleft()
        if n == goal:
            break
        for eid in g.node_edge_ids[n]:
            if not (g.road_edge(eid) if road else g.ship_edge(eid)):
                continue
            m = g.other_node(eid, n)
            if m in prev or g.nodes[m] in avoid:
                continue
            prev[m] = (n, eid)
            dq.append(m)
    out = []
    n = goal
    while prev[n] is not None:
        n, eid = prev[n]
        out.append(g.edges[eid])
    return out[::-1]


A = canonical_node(0, 1, "NE")       # Catan, east coast
B = canonical_node(7, 1, "NW")       # Transcatania, west coast


def build(st, player, node, kind="settlement"):
    st.buildings[node] = (player, kind)
    st.players[player].supply[kind + "s"] -= 1


def ships(st, player, edges):
    for e in edges:
        st.ships[e] = player
        st.players[player].supply["ships"] -= 1


def finish(st, player, edge):
    """The closing ship, built by ``player`` on his own turn."""
    st.current_player = player
    give(st, player, lumber=1, wool=1)
    return play(st, "build_ship", player, edge=edge)


def test_direct_route_to_an_opponent_settlement():
    """SC10-004 / SC10-010: own ships from own settlement to an opponent's on the neighbouring island:
    a direct route, one token under the originating settlement."""
    st = crossing_state()
    build(st, 0, A)
    build(st, 1, B)
    path = ship_path(st, A, B)
    ships(st, 0, path[:-1])
    st, v = finish(st, 0, path[-1])
    assert st.players[0].svp == 1 and st.svp_attached == {A: 1}
    assert any("SC10-010" in e.get("reason", "") for e in v.events)
    assert st.scenario_state["routes"][0]["kind"] == "direct"


def test_direct_route_by_founding_a_settlement():
    """SC10-005: a lane reaching the neighbouring island and a settlement there is a direct route; the
    token lies under the home-island end."""
    st = crossing_state()
    build(st, 0, A)
    path = ship_path(st, A, B)
    ships(st, 0, path)
    give(st, 0, lumber=1, brick=1, wool=1, grain=1)
    st, v = play(st, "build_settlement", 0, node=B)
    assert st.players[0].svp == 1 and st.svp_attached == {A: 1}


def test_indirect_route_lane_meets_lane_majority_and_tie():
    """SC10-007 / SC10-011: lanes of two players joined without a building; more links win, equal links
    go to the player who closed the route."""
    st = crossing_state()
    build(st, 0, A)
    build(st, 1, B)
    path = ship_path(st, A, B)
    k = len(path)
    ships(st, 0, path[:k - 3])
    ships(st, 1, path[k - 2:])
    st2, _ = finish(st, 0, path[k - 3])               # player 0: k-2 links, player 1: 2
    assert st2.players[0].svp == 1 and st2.svp_attached == {A: 1}
    assert st2.scenario_state["routes"][0]["kind"] == "indirect"

    st = crossing_state()
    build(st, 0, A)
    build(st, 1, B)
    half = k // 2
    assert k % 2 == 0
    ships(st, 0, path[:half])
    ships(st, 1, path[half + 1:])
    st3, _ = finish(st, 1, path[half])                # equal links: the closer (player 1) scores
    assert st3.players[1].svp == 1 and st3.svp_attached == {B: 1} and st3.players[0].svp == 0


def test_indirect_route_lane_meets_road():
    """SC10-006: a lane meeting an opponent's road on the neighbouring island (no settlement at the
    meeting point) that leads to his settlement."""
    st = crossing_state()
    b2 = canonical_node(7, 2, "SW")
    meet = canonical_node(7, 1, "NW")
    build(st, 0, A)
    build(st, 1, b2)
    road_path = ship_path(st, b2, meet, road=True)
    assert 1 <= len(road_path) <= 3
    for e in road_path:
        st.roads[e] = 1
        st.players[1].supply["roads"] -= 1
    path = ship_path(st, A, meet, avoid={b2})
    ships(st, 0, path[:-1])
    st, v = finish(st, 0, path[-1])
    assert st.players[0].svp == 1 and st.svp_attached == {A: 1}
    route = st.scenario_state["routes"][0]
    assert route["kind"] == "indirect" and route["links"] == {"0": len(path), "1": len(road_path)}


def test_branching_gives_two_routes_and_no_route_past_a_settlement():
    """SC10-008: one lane joined to an opponent's branching lane forms a route to each of his buildings
    (Q5: two tokens). SC10-009: a route ends at the first settlement it reaches."""
    st = crossing_state()
    b1, b2 = canonical_node(7, 0, "SW"), canonical_node(7, 3, "NW")
    build(st, 0, A)
    build(st, 1, b1)
    build(st, 1, b2)
    j = canonical_node(5, 2, "N")                      # a junction in open sea
    from service.engine.geometry import edge_nodes
    br1 = ship_path(st, j, b1, avoid={A, b2})
    br2 = ship_path(st, j, b2, avoid={A, b1})
    used = {n for e in br1 + br2 for n in edge_nodes(e)} - {j}
    trunk0 = ship_path(st, A, j, avoid=used)
    ships(st, 1, br1)
    ships(st, 1, [e for e in br2 if e not in br1])
    ships(st, 0, trunk0[:-1])
    st, v = finish(st, 0, trunk0[-1])
    pairs = {tuple(sorted((tuple(r["a"]), tuple(r["b"])))) for r in st.scenario_state["routes"]}
    assert pairs == {tuple(sorted((A, b1))), tuple(sorted((A, b2)))}
    # SC10-009: b1 and b2 are joined by player 1's ships, both on one island: no route; and no route
    # from A runs on through b1 to anything beyond it
    assert all(tuple(r["a"]) == A or tuple(r["b"]) == A for r in st.scenario_state["routes"])
    # the tokens go by majority per route
    for r in st.scenario_state["routes"]:
        links = r["links"]
        want = 0 if links["0"] > links["1"] else 1 if links["1"] > links["0"] else 0
        assert r["holder"] == want


def test_broken_route_surrenders_and_refilled_gap_restores_the_token():
    """SC10-012: a route of two players' lanes is open: either owner may move his foremost ship out;
    SC10-013 (R-025, Q7): the holder then surrenders the token and regains it when the gap is filled."""
    st = crossing_state()
    build(st, 0, A)
    build(st, 1, B)
    path = ship_path(st, A, B)
    k = len(path)
    ships(st, 0, path[:k - 2])
    ships(st, 1, path[k - 1:])
    st, _ = finish(st, 0, path[k - 2])
    assert st.players[0].svp == 1
    derived = adjudicate(st, Action("end_turn", 0), MapGraph.build(st.terrain_map()), get_scenario("SC10")).derived
    movable = derived["trade_routes"][0]["movable_ships"]
    assert {m["player"] for m in movable} == {0, 1}                     # open for both owners
    st, _ = play(st, "end_turn", 0)
    st.phase, st.flags.rolled = "main", True                            # player 1's turn, rolled
    g = MapGraph.build(st.terrain_map())
    away = next(e for e in g.edges if g.edge_kind[g.edge_index[e]] == "coast" and e not in st.ships
                and B in [g.nodes[x] for x in g.edge_node_ids[g.edge_index[e]]])
    st, v = play(st, "move_ship", 1, **{"from": path[k - 1], "to": away})
    assert st.players[0].svp == 0 and st.svp_attached == {}
    assert any(e["type"] == "special_victory_point_lost" and "SC10-013" in e["reason"] for e in v.events)
    st, _ = play(st, "end_turn", 1)
    st.current_player, st.phase, st.flags.rolled = 0, "main", True
    st, v = finish(st, 0, path[k - 1])
    assert st.players[0].svp == 1 and st.svp_attached == {A: 1}


def test_great_crossing_setup_on_one_island():
    """SC10-003: both starting settlements on one island (the home island)."""
    scen = get_scenario("SC10")
    st = place_pirate(scen.new_game(4, 9))
    imap = {h: n for n, hs in st.scenario_state["islands"].items() for h in map(tuple, hs)}

    def on(name):
        return lambda x: name in {imap.get(h) for h in node_hexes(x)}

    from .test_scenarios_sc06_11 import setup_one
    for p in range(4):
        name = "Catan" if p % 2 == 0 else "Transcatania"
        st = setup_one(st, next(x for x in nodes_where(st, on(name)) if judge(st, "build_settlement", p, node=x).legal))
    assert st.scenario_state["home"] == {"0": "Catan", "1": "Transcatania", "2": "Catan", "3": "Transcatania"}
    wrong = next(x for x in nodes_where(st, on("Catan")) if judge(st, "build_settlement", 3, node=x).violations)
    wrong = next(x for x in nodes_where(st, on("Catan"))
                 if rules(judge(st, "build_settlement", 3, node=x)) == ["SC10-003"])
    v = judge(st, "build_settlement", 3, node=wrong)
    assert rules(v) == ["SC10-003"] and "Transcatania" in v.violations[0].message


# -- Greater Catan -------------------------------------------------------------------------------------------

def test_greater_catan_supply_and_setup():
    """SC11-004 (R-028): 5 settlements, 8 cities, 15 roads, 15 ships; SC11-007: starting settlements on
    the mainland; SC11-002: the mainland is the base board; SC11-005: the 7 reserve tokens."""
    scen = get_scenario("SC11")
    st = place_pirate(scen.new_game(4, 2))
    assert st.players[0].supply == {"settlements": 5, "cities": 8, "roads": 15, "ships": 15}
    assert sorted(st.scenario_state["token_pile"]) == [2, 3, 4, 5, 9, 10, 11]
    main = {tuple(h) for h in st.scenario_state["islands"]["mainland"]}
    assert len(main) == 19 and sum(1 for h in main if st.hexes[h].number) == 18
    assert all(st.hexes[h].number is None for h, t in st.hexes.items() if h not in main and t.terrain != "sea")
    island = nodes_where(st, lambda x: not any(h in main for h in node_hexes(x)))
    assert rules(judge(st, "build_settlement", 0, node=island[0])) == ["SC11-007"]


def small_island_state(reserve):
    """Greater Catan default map, main phase, reserve as given; player 0 at a mainland coast."""
    scen = get_scenario("SC11")
    st = scen.new_game(4, 3)
    st.phase, st.turn, st.flags.rolled = "main", 5, True
    st.scenario_state["token_pile"] = list(reserve)
    return scen, st


def ship_to_island(st, player):
    """Place ships (posted) from a settlement of ``player`` up to one edge short of a small-island hex;
    return the closing edge and the island hex it touches."""
    main = {tuple(h) for h in st.scenario_state["islands"]["mainland"]}
    g = MapGraph.build(st.terrain_map())
    start = next(n for n, (p, _) in st.buildings.items() if p == player)
    best = None
    for eid, e in enumerate(g.edges):
        if g.edge_kind[eid] != "coast":
            continue
        from service.engine.geometry import edge_hexes
        hs = [h for h in edge_hexes(e) if h in st.hexes and st.hexes[h].terrain not in ("sea", "frame")]
        if not hs or hs[0] in main or st.hexes[hs[0]].terrain == "desert":
            continue
        for end in g.edge_node_ids[eid]:
            path = ship_path(st, start, g.nodes[end])
            if best is None or len(path) < len(best[0]):
                best = (path + [e], hs[0])
    path, hexx = best
    for e in path[:-1]:
        st.ships[e] = player
        st.players[player].supply["ships"] -= 1
    return path[-1], hexx


def coastal_mainland_settlement(st, player):
    main = {tuple(h) for h in st.scenario_state["islands"]["mainland"]}
    x = next(n for n in nodes_where(st, lambda n: sum(1 for h in node_hexes(n) if h in main and st.hexes[h].number) == 2
                                    and any(st.hexes.get(h) and st.hexes[h].terrain == "sea" for h in node_hexes(n))))
    st.buildings[x] = (player, "settlement")
    st.players[player].supply["settlements"] -= 1
    return x


def test_reserve_token_drawn_when_a_ship_reaches_a_small_island():
    """SC11-008 (R-027, R-063): a ship placed next to a tokenless small-island hex draws a reserve token."""
    scen, st = small_island_state([2, 3, 4, 5, 9, 10, 11])
    coastal_mainland_settlement(st, 0)
    edge, hexx = ship_to_island(st, 0)
    give(st, 0, lumber=1, wool=1)
    st2, v = play(st, "build_ship", 0, edge=edge)
    n = st2.hexes[hexx].number
    assert n in (2, 3, 4, 5, 9, 10, 11) and n not in st2.scenario_state["token_pile"]
    assert len(st2.scenario_state["token_pile"]) == 6
    assert any(e["type"] == "number_token_placed" and e["from"] == "reserve" for e in v.events)
    st3, _ = play(st, "build_ship", 0, edge=edge)
    assert st3.hexes[hexx].number == n                             # seeded: the same draw


def test_empty_reserve_moves_a_mainland_token_under_the_limitations():
    """SC11-009: with the reserve empty a mainland token moves; SC11-012: from a hex at the placer's own
    building; SC11-011: never leaving a mainland building without production; a choice breaking a
    limitation is refused with its rule."""
    scen, st = small_island_state([])
    x = coastal_mainland_settlement(st, 0)
    edge, hexx = ship_to_island(st, 0)
    give(st, 0, lumber=3, wool=3)
    main = {tuple(h) for h in st.scenario_state["islands"]["mainland"]}
    mine = [h for h in node_hexes(x) if h in main and st.hexes[h].number]
    st2, v = play(st, "build_ship", 0, edge=edge)
    moved = next(e for e in v.events if e["type"] == "number_token_placed")
    assert tuple(moved["from"]) in mine and st2.hexes[hexx].number == moved["number"]
    assert st2.hexes[tuple(moved["from"])].number is None
    # SC11-009: a hex that is not a numbered mainland hex
    v = judge(st, "build_ship", 0, edge=edge, token_from=[list(hexx)])
    assert rules(v) == ["SC11-009"]
    # SC11-012: a mainland hex away from the placer's buildings, while his own hexes qualify
    far = next(h for h in main if st.hexes[h].number and h not in mine and st.hexes[h].number not in (6, 8))
    v = judge(st, "build_ship", 0, edge=edge, token_from=[list(far)])
    assert rules(v) == ["SC11-012"]
    # SC11-011: an opponent's only numbered hex may not be taken
    def lone(n):
        hs = [h for h in node_hexes(n) if h in main and st.hexes[h].number]
        return len(hs) == 1 and hs[0] not in mine and st.hexes[hs[0]].number not in (6, 8) and n not in st.buildings
    y = nodes_where(st, lone)[0]
    only = next(h for h in node_hexes(y) if h in main and st.hexes[h].number)
    st.buildings[y] = (1, "settlement")
    st.players[1].supply["settlements"] -= 1
    v = judge(st, "build_ship", 0, edge=edge, token_from=[list(only)])
    assert rules(v) == ["SC11-011"]


def test_limitations_are_dropped_lowest_first():
    """SC11-013 (R-026): when no hex meets all limitations, OWN goes first, then PROD, then RED; the
    text's example: all own buildings have a single numbered hex, so the token comes from anywhere that
    keeps RED and PROD. SC11-010: a red token never lands next to a small-island red."""
    M = {(0, 0), (1, 0), (2, 0), (3, 0)}
    dest, red_nb = (0, 2), (1, 2)
    hexes = {(0, 0): Tile("forest", 6), (1, 0): Tile("hills", 4), (2, 0): Tile("fields", 5),
             (3, 0): Tile("pasture", 8), dest: Tile("forest"), red_nb: Tile("hills", 8)}
    mine = canonical_node(0, 0, "N")                  # player 0's settlement: only (0, 0) numbered
    theirs = canonical_node(2, 0, "N")                # player 1's: only (2, 0) numbered
    blds = {mine: (0, "settlement"), theirs: (1, "settlement")}
    cands, keep, _ = candidates(hexes, M, blds, 0, dest)
    # OWN alone would force (0,0) (a red next to a small-island 8, and player 0's only production):
    # dropped; PROD excludes (2,0); RED excludes (3,0) (an 8 next to the island's 8)
    assert keep == {"RED", "PROD"} and cands == [(1, 0)]
    hexes[(1, 0)] = Tile("hills", None)
    cands, keep, _ = candidates(hexes, M, blds, 0, dest)
    assert keep == {"RED"} and cands == [(2, 0)]
    hexes = {h: (Tile(t.terrain, 6) if h in M else t) for h, t in hexes.items()}
    cands, keep, _ = candidates(hexes, M, blds, 0, dest)
    assert keep == set() and cands                      # every limitation dropped: any mainland token
