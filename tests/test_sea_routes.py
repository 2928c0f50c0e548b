"""The longest trade route (SEA-021, SEA-022, R-030, BASE-LR-1/2): worked example, awards, properties."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.engine.geometry import edge_hexes, edge_nodes, hex_sides
from service.engine.mapgraph import MapGraph
from service.engine.routes import longest_route
from service.engine.scenarios import get_scenario
from service.engine.state import Player, Setup, State, Tile, TurnFlags, empty_dev, empty_resources

from .helpers import adjudicate, hand, hexes, state

SEA = get_scenario("seafarers")

# -- the rulebook's worked example (Illustration F) --------------------------------------------------------

ROW = {(q, r): "sea" for q in range(-1, 6) for r in range(-1, 4)}
ROW.update({(0, 0): ("forest", 6), (1, 0): ("hills", 8), (3, 0): ("fields", 9), (4, 0): ("mountains", 10),
            (0, 1): ("pasture", 5)})
A, B, C, D = [1, 0, "S"], [0, -1, "S"], [1, -1, "S"], [3, 0, "S"]
CLOSED = [(1, 0, "SE"), (1, 1, "NE"), (2, 0, "SE"), (2, 1, "NE")]


def illustration_f(**kw):
    return state(hexes(ROW), players=2, scenario="seafarers", pirate=[-1, -1],
                 hands={0: hand(lumber=2, brick=2, wool=2, grain=2, ore=2)},
                 settlements=[(0, A), (0, D), (0, B)],
                 roads=[(0, (0, 1, "NE")), (0, (0, 0, "E"))],
                 ships=[(0, e) for e in CLOSED] + [(0, (0, -1, "SE")), (0, (0, 0, "NE"))], **kw)


def test_worked_example_closed_lane_plus_roads_is_6_then_a_settlement_joins_the_open_lane_for_8(client):
    """SEA-021 / SEA-022: 4 ships of the closed lane A-D + 2 roads from A = 6 (the open lane B-C meets the
    road at C without a settlement); a settlement on C joins them: 2 ships + 2 roads + 4 ships = 8."""
    st0 = illustration_f()
    v = adjudicate(client, st0, None)
    assert v["derived"]["longest_road"]["0"]["length"] == 6
    assert sorted(v["derived"]["closed_ships"]["0"]) == sorted(map(list, CLOSED))      # SEA-014
    v = adjudicate(client, st0, {"type": "build_settlement", "player": 0, "node": C})
    assert v["legal"], v["violations"]
    assert v["derived"]["longest_road"]["0"]["length"] == 8
    assert v["derived"]["longest_road_holder"] == 0
    assert v["derived"]["victory_points"]["0"]["longest_road"] == 2


def test_opponent_settlement_at_the_junction_joins_nothing(client):
    """SEA-022 / BASE-LR-2: only an own building links roads and ships; an opponent's settlement on C
    leaves the route at 6, and no ship or road of player 0 passes it."""
    st0 = illustration_f()
    st0["pieces"]["settlements"].append({"player": 1, "node": C})
    v = adjudicate(client, st0, None)
    assert v["derived"]["longest_road"]["0"]["length"] == 6
    assert v["derived"]["longest_road"]["1"]["length"] == 0


# -- a brute-force reference and properties -----------------------------------------------------------------

BOARD = {(q, r): Tile("sea") for q in range(-3, 4) for r in range(-3, 4)}
for h in [(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)]:
    BOARD[h] = Tile("forest", 6)
GRAPH = MapGraph.build({h: t.terrain for h, t in BOARD.items()})
CAND = sorted({e for h in [(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (2, -1), (1, 1), (-1, 2)]
               for e in hex_sides(h) if e in GRAPH.edge_index})
NODES = sorted({n for e in CAND for n in edge_nodes(e)})


def make(roads, ships, own, opp):
    players = [Player(empty_resources(), empty_dev(), empty_dev(), empty_dev(), dict(SEA.supply)) for _ in range(2)]
    b = {n: (1, "settlement") for n in opp}
    b.update({n: (0, "settlement") for n in own})
    return State(scenario="seafarers", hexes=BOARD, harbors={}, players=players, buildings=b,
                 roads={e: 0 for e in roads}, ships={e: 0 for e in ships}, robber=None, pirate=None, bank={},
                 dev_deck={}, phase="main", current_player=0, turn=1, setup=Setup(), flags=TurnFlags(),
                 last_roll=None, pending_discards={}, pending_gold={}, longest_road_holder=None,
                 largest_army_holder=None, vp_target=10, rng_seed=0, rng_counter=0)


def brute(s: State, player: int = 0) -> int:
    """Every trail from every intersection, literally as R-030 says it."""
    pieces = [(e, "road") for e, p in s.roads.items() if p == player] + \
             [(e, "ship") for e, p in s.ships.items() if p == player]
    best = 0

    def go(node, last, used):
        nonlocal best
        best = max(best, len(used))
        b = s.buildings.get(node)
        if used and b is not None and b[0] != player:
            return
        for e, k in pieces:
            if e in used or node not in edge_nodes(e):
                continue
            if last is not None and k != last and not (b is not None and b[0] == player):
                continue
            a, c = edge_nodes(e)
            go(c if a == node else a, k, used | {e})

    for n in {n for e, _ in pieces for n in edge_nodes(e)}:
        go(n, None, frozenset())
    return best


def valid_chain(s: State, path: list, player: int = 0) -> bool:
    """No piece twice, consecutive pieces share an intersection that is not an opponent's building, and a
    road follows a ship (or the reverse) only at the player's own building (SEA-022)."""
    if len(set(path)) != len(path):
        return False
    if len(path) < 2:
        return all(s.roads.get(e) == player or s.ships.get(e) == player for e in path)
    kind = lambda e: "road" if s.roads.get(e) == player else ("ship" if s.ships.get(e) == player else None)  # noqa: E731
    # orient: the node the first piece leaves from is the one not shared with the second
    shared = set(edge_nodes(path[0])) & set(edge_nodes(path[1]))
    if not shared:
        return False
    node = shared.pop() if len(shared) == 1 else None
    for i in range(1, len(path)):
        if kind(path[i]) is None or kind(path[i - 1]) is None:
            return False
        common = set(edge_nodes(path[i - 1])) & set(edge_nodes(path[i]))
        if node is None or node not in common:
            return False
        b = s.buildings.get(node)
        if b is not None and b[0] != player:
            return False
        if kind(path[i]) != kind(path[i - 1]) and not (b is not None and b[0] == player):
            return False
        a, c = edge_nodes(path[i])
        node = c if a == node else a
    return True


def is_ship_edge(e):
    return GRAPH.ship_edge(GRAPH.edge_index[e])


def is_road_edge(e):
    return GRAPH.road_edge(GRAPH.edge_index[e])


@st.composite
def networks(draw):
    chosen = draw(st.lists(st.sampled_from(CAND), min_size=0, max_size=22, unique=True))
    roads, ships = [], []
    for e in chosen:
        if is_road_edge(e) and is_ship_edge(e):
            (roads if draw(st.booleans()) else ships).append(e)
        elif is_road_edge(e):
            roads.append(e)
        else:
            ships.append(e)
    own = draw(st.lists(st.sampled_from(NODES), max_size=3, unique=True))
    opp = draw(st.lists(st.sampled_from([n for n in NODES if n not in own] or NODES), max_size=3, unique=True))
    opp = [n for n in opp if n not in own]
    return roads[:15], ships[:15], own, opp


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(networks())
def test_route_matches_exhaustive_search_and_witness_is_a_valid_chain(net):
    """R-030: the fast search agrees with the literal definition; the witness path is a valid chain
    (SEA-022) of exactly the reported length, never longer than the player's pieces."""
    s = make(*net)
    n, path = longest_route(s, GRAPH, 0)
    assert n == brute(s)
    assert n == len(path) <= len(s.roads) + len(s.ships)
    assert valid_chain(s, path)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(networks(), st.data())
def test_removing_a_piece_never_lengthens_the_route(net, data):
    """SEA-021: the route only counts pieces on the board; taking one away cannot make it longer."""
    roads, ships, own, opp = net
    if not roads and not ships:
        return
    s = make(roads, ships, own, opp)
    n, _ = longest_route(s, GRAPH, 0)
    victim = data.draw(st.sampled_from(roads + ships))
    s2 = make([e for e in roads if e != victim], [e for e in ships if e != victim], own, opp)
    assert longest_route(s2, GRAPH, 0)[0] <= n


def test_loop_broken_at_an_opponent_building_counts_all_its_edges():
    """BASE-LR-1 / R-030: a ring of 6 roads with an opponent's settlement on one corner is a chain of 6."""
    ring = hex_sides((0, 0))
    s = make(ring, [], [], [(0, 0, "N")])
    assert longest_route(s, GRAPH, 0)[0] == 6


def test_road_and_ship_meet_only_at_an_own_building():
    """SEA-022: a chain of two coast roads and a ship meeting at N(1,-1) count 2 without a building there, 3 with
    the player's own settlement on it."""
    junction = (1, -1, "N")
    roads, ships_ = [(0, -1, "NE"), (1, -2, "SE")], [(1, -2, "E")]
    assert all(is_road_edge(e) for e in roads) and is_ship_edge(ships_[0])
    assert all(junction in edge_nodes(e) for e in roads[1:] + ships_)
    assert longest_route(make(roads, ships_, [], []), GRAPH, 0)[0] == 2
    s = make(roads, ships_, [junction], [])
    n, path = longest_route(s, GRAPH, 0)
    assert n == 3 and valid_chain(s, path)
