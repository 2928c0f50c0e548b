"""The route memo (``routes.py``) never changes an answer: a memoised result equals the search's, the key
holds everything the result depends on, and the memo stays within its bound."""
from __future__ import annotations

from service.engine import routes
from service.engine.derive import route_lengths
from service.engine.geometry import edge_nodes
from service.engine.mapgraph import MapGraph
from service.engine.selfplay import play_game


def _positions(scenario: str = "SC01", players: int = 3, seed: int = 5, actions: int = 300):
    seen = []
    play_game(scenario, players, seed, max_actions=actions, check=False, on_step=lambda s, a, v: seen.append(s))
    return seen


def test_memoised_routes_equal_the_search():
    """BASE-LR-1 / SEA-021: every position's routes, from a cleared memo and again from a warm one, agree
    (length and witness) with the search run on its own."""
    states = _positions()
    graph = MapGraph.build(states[0].terrain_map())
    from service.engine.scenarios import get_scenario
    scen = get_scenario("SC01")
    for s in states[::7]:
        owners, _ = routes.route_context(s, graph)
        direct = {}
        for p in range(s.num_players):
            eids = routes.piece_ids(graph, scen.route_pieces(s, p))
            direct[p] = routes._longest_route(owners, graph, p, eids) if len(eids) > 1 else None
        routes.clear_memo()
        cold = route_lengths(s, graph, scen)
        warm = route_lengths(s, graph, scen)
        assert cold == warm
        for p, r in direct.items():
            if r is not None:
                assert cold[p] == r


def test_the_key_tells_boards_and_buildings_apart():
    """BASE-LR-2: an opponent's building on the route changes the key (and the answer); the same pieces on
    another board object are looked up under that board's own token."""
    states = _positions("base", 3, 9, 200)
    s = next(x for x in reversed(states) if any(len(routes.player_route_pieces(x, p)) >= 3 for p in range(3)))
    g1 = MapGraph.build(s.terrain_map())
    g2 = MapGraph.build(s.terrain_map())
    routes.clear_memo()
    p = max(range(3), key=lambda q: len(routes.player_route_pieces(s, q)))
    n1, path1 = routes.longest_route(s, g1, p)
    assert routes.longest_route(s, g2, p) == (n1, path1)
    assert len(routes._MEMO) == 2
    # an opponent's settlement on an inner intersection of the witness breaks it
    inner = set()
    from service.engine.geometry import edge_nodes
    for a, b in zip(path1, path1[1:]):
        inner |= set(edge_nodes(a)) & set(edge_nodes(b))
    free = sorted(x for x in inner if x not in s.buildings)
    assert free
    s2 = s.copy()
    s2.buildings[free[0]] = ((p + 1) % 3, "settlement")
    got = routes.longest_route(s2, g1, p)
    assert len(routes._MEMO) == 3                       # a key of its own, not the first position's answer
    owners, _ = routes.route_context(s2, g1)
    assert got == routes._longest_route(owners, g1, p, routes.piece_ids(g1, routes.player_route_pieces(s2, p)))


def test_a_building_off_the_network_costs_no_search(monkeypatch):
    """Only players whose pieces or junctions changed are searched again: an opponent's settlement away
    from a player's network finds that player's route under the network's own buildings (BASE-LR-1,
    BASE-LR-2 still decided by the search wherever the building touches the network)."""
    states = _positions("base", 4, 21, 260)
    graph = MapGraph.build(states[0].terrain_map())
    from service.engine.scenarios import get_scenario
    scen = get_scenario("base")
    searched = []
    real = routes._longest_route
    monkeypatch.setattr(routes, "_longest_route", lambda o, g, p, e: searched.append(p) or real(o, g, p, e))
    checked = 0
    for s in states[::10]:
        if not any(len(routes.player_route_pieces(s, p)) >= 2 for p in range(4)):
            continue
        routes.clear_memo()
        before = route_lengths(s, graph, scen)
        touched = {n for e in s.roads for n in edge_nodes(e)}
        far = next((n for n in graph.nodes if n not in touched and n not in s.buildings
                    and graph.node_land[graph.node_index[n]]
                    and all(graph.nodes[m] not in s.buildings for m in graph.node_neighbour_ids[graph.node_index[n]])),
                   None)
        if far is None:
            continue
        s2 = s.copy()
        s2.buildings = {**s.buildings, far: (0, "settlement")}
        searched.clear()
        after = route_lengths(s2, graph, scen)
        assert searched == [] and after == before       # nobody's network touches it: no search at all
        checked += 1
        # the same answers as the search on its own
        owners, _ = routes.route_context(s2, graph)
        for p in range(4):
            eids = routes.piece_ids(graph, routes.player_route_pieces(s2, p))
            if len(eids) > 1:
                assert after[p] == real(owners, graph, p, eids)
    assert checked >= 3


def test_the_memo_is_bounded(monkeypatch):
    monkeypatch.setattr(routes, "MEMO_SIZE", 5)
    routes.clear_memo()
    states = _positions("base", 4, 3, 250)
    graph = MapGraph.build(states[0].terrain_map())
    for s in states[::5]:
        for p in range(4):
            routes.longest_route(s, graph, p)
        assert len(routes._MEMO) <= 5


def test_memoised_mnr_witnesses_equal_the_search():
    """GOLD-038 / R-036: the MNR memo (``gold_mnr.Board._witness``) gives what the 0-1 BFS gives, on the
    real board and on the statements' hypothetical ones, cold and warm."""
    from service.engine.modules.gold import mnr as gold_mnr
    states = _positions("GOLD", 4, 3, 200)
    graph = MapGraph.build(states[0].terrain_map())
    checked = 0
    for s in states[::5]:
        for q in range(s.num_players):
            board = gold_mnr.Board(s, graph)
            direct = board._search_witness(q)
            gold_mnr.clear_memo()
            assert board._witness(q) == direct
            assert gold_mnr.Board(s, graph)._witness(q) == direct       # warm, from a new board
            targets = board.targets()
            if targets and board.built[q]:
                mark = len(board._undo)
                board.put_building(q, targets[0])                      # a hypothetical settlement
                assert board._witness((q + 1) % s.num_players) == board._search_witness((q + 1) % s.num_players)
                board.undo(mark)
                assert board._witness(q) == direct
                checked += 1
    assert checked > 10


def test_memoised_great_crossing_routes_equal_the_search():
    """SC10-004..013: the trade-route memo (``_sc_routes.find_routes``) gives what the path search gives,
    on a branching network growing ship by ship (routes appear along the way), cold and warm."""
    from service.engine.geometry import canonical_node, edge_nodes
    from service.engine.islands import island_map
    from service.engine.modules.great_crossing import routes as _sc_routes

    from .test_scenarios_sc06_11_routes import A, build, crossing_state, ship_path
    st = crossing_state()
    b1, b2 = canonical_node(7, 0, "SW"), canonical_node(7, 3, "NW")
    build(st, 0, A)
    build(st, 1, b1)
    build(st, 1, b2)
    j = canonical_node(5, 2, "N")
    br1 = ship_path(st, j, b1, avoid={A, b2})
    br2 = ship_path(st, j, b2, avoid={A, b1})
    used = {n for e in br1 + br2 for n in edge_nodes(e)} - {j}
    trunk = ship_path(st, A, j, avoid=used)
    pieces = [(1, e) for e in br1] + [(1, e) for e in br2 if e not in br1] + [(0, e) for e in trunk]
    graph = MapGraph.build(st.terrain_map())
    found_any = 0
    for player, e in pieces:
        st.ships[e] = player
        imap = island_map(st)
        direct = _sc_routes._find_routes(st, graph, imap)
        _sc_routes._FOUND.clear()
        assert _sc_routes.find_routes(st, graph, imap) == direct
        assert _sc_routes.find_routes(st.copy(), graph, dict(imap)) == direct     # warm, equal inputs
        found_any += bool(direct)
    assert found_any >= 1 and len(direct) == 2            # the two routes of SC10-008 at the end
