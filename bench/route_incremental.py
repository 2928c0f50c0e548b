"""Routes recomputed only for the players whose pieces or junctions changed: the cost of every player's
route after an opponent's settlement placed away from every network, the position before it judged
already (as a server judging one move after another finds it).

    .venv/bin/python bench/route_incremental.py

Positions: mid-game 4-player base games (seeds 1-3, from action 150, every 6th). For each, the routes of
the position are computed (memoised), a settlement of the next player is added on a free intersection no
road touches, and ``derive.route_lengths`` of the new position is timed (CPU) twice: with the per-network
record of ``routes.py`` (a network whose own junctions kept their buildings is not searched again), and
with that record emptied first (every network searched, as the memo keyed by every building did).
Lowest of five alternate rounds, microseconds per position (all four players).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.engine import routes  # noqa: E402
from service.engine.derive import route_lengths  # noqa: E402
from service.engine.geometry import edge_nodes  # noqa: E402
from service.engine.mapgraph import MapGraph  # noqa: E402
from service.engine.scenarios import get_scenario  # noqa: E402
from service.engine.selfplay import play_game  # noqa: E402


def main() -> None:
    seen = []
    for seed in (1, 2, 3):
        play_game("base", 4, seed, max_actions=400, check=False, on_step=lambda s, a, v: seen.append(s))
    scen = get_scenario("base")
    g = MapGraph.build(seen[0].terrain_map())
    pairs = []
    for s in seen[150::6]:
        touched = {n for e in s.roads for n in edge_nodes(e)}
        far = next((n for n in g.nodes if n not in touched and n not in s.buildings and g.node_land[g.node_index[n]]
                    and all(g.nodes[m] not in s.buildings for m in g.node_neighbour_ids[g.node_index[n]])), None)
        if far is not None:
            s2 = s.copy()
            s2.buildings = {**s.buildings, far: ((s.current_player + 1) % 4, "settlement")}
            pairs.append((s, s2))

    def run(keep_networks: bool) -> float:
        total = 0.0
        for s, s2 in pairs:
            for _ in range(10):
                routes.clear_memo()
                route_lengths(s, g, scen)
                if not keep_networks:
                    routes._NETWORKS.clear()
                t = time.process_time()
                route_lengths(s2, g, scen)
                total += time.process_time() - t
        return total / (len(pairs) * 10) * 1e6

    best = {"per network": [], "searched": []}
    for _ in range(5):
        best["per network"].append(run(True))
        best["searched"].append(run(False))
    kept, searched = min(best["per network"]), min(best["searched"])
    print(f"{len(pairs)} positions: every player's route after a settlement off every network: "
          f"{kept:.1f} us (networks not searched again) against {searched:.1f} us (all searched): "
          f"{searched / kept:.1f}x")


if __name__ == "__main__":
    main()
