"""Longest trade route: our search on worst-case networks, against catanatron's longest-road search.

    .venv/bin/python bench/trade_route.py            # creates bench/.venv-race (catanatron) on first run
    .venv/bin/python bench/trade_route.py --no-race  # ours only

Ours runs in-process; catanatron runs in its own virtual environment (bench/.venv-race, never a project
dependency) in a subprocess started by this script, so both are measured in the same run. Figures are
best-of-5 means per call, in microseconds; the ratio is catanatron / ours on the like-for-like network
(15 roads on the edges of three mutually adjacent hexes, every node a junction).

Catanatron never walks onto an intersection holding an opponent's building, so a road ending there is
counted one short; its answers are not compared where they differ, only its speed.
"""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.timing import RACE_PY, ensure_race_env, per_call  # noqa: E402


# -- ours -------------------------------------------------------------------------------------------------

def _board():
    from service.engine.state import Tile
    land = {(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)}
    hexes = {}
    for q in range(-4, 8):
        for r in range(-4, 6):
            hexes[(q, r)] = Tile("forest", 6) if (q, r) in land else Tile("sea")
    return hexes


def _position(roads, ships, own, opponent):
    from service.engine.mapgraph import MapGraph
    from service.engine.scenarios import get_scenario
    scen = get_scenario("seafarers")
    from service.engine.state import Player, Setup, State, TurnFlags, empty_dev, empty_resources
    hexes = _board()
    players = [Player(empty_resources(), empty_dev(), empty_dev(), empty_dev(), dict(scen.supply)) for _ in range(2)]
    st = State(scenario="seafarers", hexes=hexes, harbors={}, players=players,
               buildings={**{n: (0, "settlement") for n in own}, **{n: (1, "settlement") for n in opponent}},
               roads={e: 0 for e in roads}, ships={e: 0 for e in ships}, robber=None, pirate=None,
               bank={}, dev_deck={}, phase="main", current_player=0, turn=1, setup=Setup(), flags=TurnFlags(),
               last_roll=None, pending_discards={}, pending_gold={}, longest_road_holder=None,
               largest_army_holder=None, vp_target=10, rng_seed=0, rng_counter=0)
    return st, MapGraph.build(st.terrain_map())


def triple_edges(hs):
    from service.engine.geometry import hex_sides
    out = []
    for h in hs:
        for e in hex_sides(h):
            if e not in out:
                out.append(e)
    return out


def dense_roads_only():
    """15 roads on the edges of three mutually adjacent land hexes: the like-for-like network."""
    return _position(triple_edges([(0, 0), (1, 0), (0, 1)]), [], [], [])


def worst_case():
    """15 roads (three land hexes) + 15 ships (three sea hexes and a spur), joined at an own settlement,
    cut by two opponent settlements: branches at almost every node and many cycles."""
    from service.engine.geometry import edge_nodes
    roads = triple_edges([(0, 0), (-1, 1), (-1, 0)])
    ships = [e for e in triple_edges([(2, 0), (3, 0), (2, 1), (3, -1)]) if e not in roads][:15]
    assert len(roads) == 15 and len(ships) == 15
    road_nodes = {n for e in roads for n in edge_nodes(e)}
    ship_nodes = {n for e in ships for n in edge_nodes(e)}
    # one own settlement on a road node, one where ships and roads would meet if they could
    own = [(0, 0, "N")]
    opponent = [sorted(ship_nodes)[3], sorted(road_nodes)[7]]
    return _position(roads, ships, own, opponent)


def random_worst(trials: int = 300, seed: int = 11):
    """The slowest of ``trials`` random connected networks of 15 roads + 15 ships (seeded)."""
    from service.engine.geometry import edge_hexes, edge_nodes, node_edges
    from service.engine.routes import clear_memo, longest_route
    rnd = random.Random(seed)
    hexes = _board()
    worst = (0.0, None)
    for _ in range(trials):
        roads, ships = set(), set()
        frontier = [(0, 0, "N")]
        seen_nodes = {(0, 0, "N")}
        while len(roads) < 15 or len(ships) < 15:
            n = rnd.choice(frontier)
            e = rnd.choice(node_edges(n))
            if e in roads or e in ships:
                continue
            a, b = edge_hexes(e)
            if a not in hexes or b not in hexes:
                continue
            land = [hexes[x].terrain != "sea" for x in (a, b)]
            if any(land) and len(roads) < 15:
                roads.add(e)
            elif not all(land) and len(ships) < 15:
                ships.add(e)
            else:
                continue
            for m in edge_nodes(e):
                if m not in seen_nodes:
                    seen_nodes.add(m)
                    frontier.append(m)
        nodes = sorted(seen_nodes)
        own = rnd.sample(nodes, 3)
        opp = rnd.sample([x for x in nodes if x not in own], 2)
        st, g = _position(roads, ships, own, opp)
        t = per_call(lambda: (clear_memo(), longest_route(st, g, 0)), 20)       # the search, not the memo
        if t > worst[0]:
            worst = (t, (st, g))
    return worst


def ours() -> dict:
    from service.engine.routes import clear_memo, longest_route
    out = {}
    for name, (st, g) in (("dense_15_roads", dense_roads_only()), ("worst_15_roads_15_ships", worst_case())):
        n, path = longest_route(st, g, 0)
        out[name] = {"us": per_call(lambda: (clear_memo(), longest_route(st, g, 0)), 2000), "length": n}
    t, (st, g) = random_worst()
    out["random_worst_of_300"] = {"us": per_call(lambda: (clear_memo(), longest_route(st, g, 0)), 2000),
                                  "length": longest_route(st, g, 0)[0]}
    return out


# -- catanatron (runs inside bench/.venv-race) -------------------------------------------------------------

def catanatron_side() -> dict:
    from catanatron.models.board import STATIC_GRAPH, Board, longest_acyclic_path
    from catanatron.models.player import Color
    board = Board()
    # three mutually adjacent land tiles: the centre and two neighbours that touch each other
    by_coord = board.map.land_tiles
    centre = by_coord[(0, 0, 0)]
    a = by_coord[(1, -1, 0)]
    b = by_coord[(0, -1, 1)]
    edges = set()
    for t in (centre, a, b):
        for e in t.edges.values():
            edges.add(tuple(sorted(e)))
    assert len(edges) == 15, len(edges)
    for e in edges:
        board.roads[e] = Color.RED
        board.roads[(e[1], e[0])] = Color.RED
    nodes = {n for e in edges for n in e}
    n = len(longest_acyclic_path(board, nodes, Color.RED))
    t = per_call(lambda: longest_acyclic_path(board, nodes, Color.RED), 50)
    del STATIC_GRAPH
    return {"dense_15_roads": {"us": t, "length": n}}


def main() -> None:
    if "--catanatron" in sys.argv:
        print(json.dumps(catanatron_side()))
        return
    mine = ours()
    for k, v in mine.items():
        print(f"ours        {k:28s} {v['us']:9.1f} us   length {v['length']}")
    if "--no-race" in sys.argv or not ensure_race_env():
        return
    r = subprocess.run([str(RACE_PY), __file__, "--catanatron"], capture_output=True, text=True, check=True)
    theirs = json.loads(r.stdout.strip().splitlines()[-1])
    for k, v in theirs.items():
        print(f"catanatron  {k:28s} {v['us']:9.1f} us   length {v['length']}")
    ratio = theirs["dense_15_roads"]["us"] / mine["dense_15_roads"]["us"]
    print(f"ratio catanatron/ours on the dense 15-road network: {ratio:.1f}x")
    worst = max(v["us"] for v in mine.values())
    print(f"ratio catanatron(15 roads)/ours(worst 15 roads + 15 ships): "
          f"{theirs['dense_15_roads']['us'] / worst:.1f}x; our worst case {worst:.1f} us "
          f"({'under' if worst < 1000 else 'OVER'} the 1 ms target)")


if __name__ == "__main__":
    main()
