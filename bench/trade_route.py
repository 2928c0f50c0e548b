"""Longest trade route: our search on the worst networks we can find, against catanatron's longest-road
search and against the exhaustive search ours replaced (kept in ``tests/route_oracle.py``).

    .venv/bin/python bench/trade_route.py                 # creates bench/.venv-race (catanatron) on first run
    .venv/bin/python bench/trade_route.py --no-race       # ours (and the exhaustive search) only
    .venv/bin/python bench/trade_route.py --climb 4000    # a longer hill-climb (steps; default 1500)
    .venv/bin/python bench/trade_route.py --json out.json # also write the figures and the slowest shape

Networks (one player's pieces, timed per player, the route memo out of the way):

- ``dense_15_roads``: 15 roads on the edges of three mutually adjacent hexes, every node a junction; the
  like-for-like network (catanatron has no ships) for the ratio;
- ``flower``: 15 roads + 15 ships on every side of a hex and its six neighbours (30 sides, 12 junctions)
  on a land flower in the sea (the 12 inner sides roads, 3 of the 18 coast sides roads, 15 ships), with the
  player's own settlements where roads meet ships (as many as the distance rule and supply allow), so that
  roads and ships join there; every choice of the 3 coast roads is tried and the slowest kept;
- ``climb``: the slowest shape a hill-climb finds: from flowers, dense clusters and random networks,
  one change at a time (a piece added, removed or turned from road to ship, a building put or taken, two
  pieces' order swapped; always within the supply and the distance rule), a change kept when it makes our
  search slower. Its shape is printed, so that it can be replayed.

Figures: microseconds of CPU per call, best of 5 rounds. "exhaustive" is the search as it was before the
bounds (same answers, test_route_bounds.py checks that on thousands of networks); both run in this
process, in the same run. Catanatron runs in its own virtual environment (bench/.venv-race, never a
project dependency) in a subprocess started by this script. Catanatron never walks onto an intersection
holding an opponent's building, so a road ending there is counted one short; its answers are not compared,
only its speed.
"""
from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.timing import RACE_PY, ensure_race_env, per_call  # noqa: E402

TARGET_US = 1000.0


# -- ours -------------------------------------------------------------------------------------------------

def _board():
    from service.engine.state import Tile
    land = {(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)}
    hexes = {}
    for q in range(-4, 8):
        for r in range(-4, 6):
            hexes[(q, r)] = Tile("forest", 6) if (q, r) in land else Tile("sea")
    return hexes


def _graph():
    from service.engine.mapgraph import MapGraph
    return MapGraph.build({h: t.terrain for h, t in _board().items()})


def triple_edges(hs):
    from service.engine.geometry import hex_sides
    out = []
    for h in hs:
        for e in hex_sides(h):
            if e not in out:
                out.append(e)
    return out


def dense_roads_only(g):
    """15 roads on the edges of three mutually adjacent land hexes: the like-for-like network."""
    from tests.route_networks import Net
    return Net([g.edge_index[e] for e in triple_edges([(0, 0), (1, 0), (0, 1)])])


def flowers(g):
    """Every flower of 12 inner roads, 3 coast roads and 15 coast ships, own settlements where roads meet
    ships (the distance rule and the supply permitting)."""
    from service.engine.geometry import edge_hexes
    from tests.route_networks import Net, _own_where_mixed
    sides = [g.edge_index[e] for e in triple_edges([(0, 0), (1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)])]
    land = {h for h, t in g.terrain.items() if t != "sea"}
    inner = [e for e in sides if all(h in land for h in edge_hexes(g.edges[e]))]
    coast = [e for e in sides if e not in inner]
    assert len(inner) == 12 and len(coast) == 18
    for roads in itertools.combinations(coast, 3):
        net = Net([e if e in inner or e in roads else ~e for e in sides])
        _own_where_mixed(g, net)
        yield net


def _search(g, net):
    from service.engine.routes import _longest_route
    return _longest_route(net.owners, g, 0, net.eids)


def _exhaustive(g, net):
    from tests.route_oracle import longest_route_oracle
    return longest_route_oracle(net.owners, g, 0, net.eids)


def _quick(fn, reps: int = 3) -> float:
    """CPU seconds of one call, the best of ``reps`` (for ranking shapes, not for the figures)."""
    best = float("inf")
    for _ in range(reps):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def _reps(fn) -> int:
    t = max(_quick(fn, 1), 1e-6)
    return max(3, min(2000, int(0.02 / t)))


def figure(fn) -> float:
    return per_call(fn, _reps(fn), clock=time.process_time)


def climb(g, steps: int, seed: int = 16):
    """The slowest network for our search a hill-climb finds in ``steps`` changes (restarting from a new
    start every ``steps // 6``): ``(seconds, net)``."""
    from tests.route_networks import cluster_net, mutate, random_net
    rnd = random.Random(seed)
    fl = list(flowers(g))
    starts = [lambda: rnd.choice(fl), lambda: cluster_net(rnd, g, 7), lambda: random_net(rnd, g, 30)]
    worst = (0.0, None)
    leg = max(1, steps // 6)
    cur, cur_t = None, 0.0
    for step in range(steps):
        if step % leg == 0:
            cur = starts[(step // leg) % len(starts)]()
            cur_t = _quick(lambda: _search(g, cur))
        cand = mutate(rnd, g, cur)
        t = _quick(lambda: _search(g, cand))
        if t >= cur_t:
            cur, cur_t = cand, t
            if t > worst[0]:
                worst = (t, cand)
    return worst


def ours(climb_steps: int) -> dict:
    g = _graph()
    out = {}
    dense = dense_roads_only(g)
    fl = list(flowers(g))
    slowest_flower = max(fl, key=lambda n: _quick(lambda: _search(g, n)))
    slowest_flower_before = max(fl, key=lambda n: _quick(lambda: _exhaustive(g, n), 1))
    t0 = time.perf_counter()
    _, climbed = climb(g, climb_steps)
    climb_s = time.perf_counter() - t0
    shapes = {"dense_15_roads": dense, "flower (slowest for ours)": slowest_flower,
              "flower (slowest for the exhaustive)": slowest_flower_before, "climb (slowest found)": climbed}
    for name, net in shapes.items():
        n, path = _search(g, net)
        n0, path0 = _exhaustive(g, net)
        assert (n, path) == (n0, path0), name
        out[name] = {"us": figure(lambda: _search(g, net)), "exhaustive_us": figure(lambda: _exhaustive(g, net)),
                     "length": n, "pieces": len(net.eids), "shape": net.describe(g)}
    out["_climb"] = {"steps": climb_steps, "seconds": round(climb_s, 1)}
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
    t = per_call(lambda: longest_acyclic_path(board, nodes, Color.RED), 50, clock=time.process_time)
    del STATIC_GRAPH
    return {"dense_15_roads": {"us": t, "length": n}}


def main() -> None:
    if "--catanatron" in sys.argv:
        print(json.dumps(catanatron_side()))
        return
    steps = int(sys.argv[sys.argv.index("--climb") + 1]) if "--climb" in sys.argv else 1500
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1, 5, 15 min)")
    mine = ours(steps)
    theirs = None
    if "--no-race" not in sys.argv and ensure_race_env():
        r = subprocess.run([str(RACE_PY), __file__, "--catanatron"], capture_output=True, text=True, check=True)
        theirs = json.loads(r.stdout.strip().splitlines()[-1])
    print(f"{'network':38s} {'pieces':>6s} {'length':>6s} {'ours us':>9s} {'exhaustive us':>14s} {'speed-up':>8s}")
    for k, v in mine.items():
        if k.startswith("_"):
            continue
        print(f"{k:38s} {v['pieces']:6d} {v['length']:6d} {v['us']:9.1f} {v['exhaustive_us']:14.1f} "
              f"{v['exhaustive_us'] / v['us']:7.1f}x")
    c = mine["_climb"]
    print(f"hill-climb: {c['steps']} steps in {c['seconds']} s; slowest shape found: "
          f"{json.dumps(mine['climb (slowest found)']['shape'], separators=(',', ':'))}")
    worst = max(v["us"] for k, v in mine.items() if not k.startswith("_"))
    print(f"our worst: {worst:.1f} us per player ({'within' if worst <= TARGET_US else 'OVER'} the "
          f"{TARGET_US:.0f} us target)")
    if theirs:
        t = theirs["dense_15_roads"]
        print(f"catanatron  dense_15_roads: {t['us']:.1f} us, length {t['length']}")
        print(f"ratio catanatron(dense 15 roads) / ours(dense 15 roads): {t['us'] / mine['dense_15_roads']['us']:.1f}x")
        print(f"ratio catanatron(dense 15 roads) / ours(worst found): {t['us'] / worst:.2f}x")
    if "--json" in sys.argv:
        Path(sys.argv[sys.argv.index("--json") + 1]).write_text(json.dumps({"ours": mine, "catanatron": theirs},
                                                                           indent=1))


if __name__ == "__main__":
    main()
