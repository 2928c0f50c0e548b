"""Perft of the opening: the number of legal action sequences of a given length from a new game, counted with
the legal-action list and each step judged by ``adjudicate`` (the counts any other referee of the same rules
must reproduce; the set-up placements are where boards differ most).

    .venv/bin/python bench/perft.py --players 5 --depth 3        # the 5-6 extension's board (BASE56-014)
    .venv/bin/python bench/perft.py --players 4 --depth 3        # the base game, for comparison

Prints the count per depth and the time taken; ``tests/test_five_six_tools.py`` checks depths 1-2 against a
count made from the board's geometry alone.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def perft(state, graph, scen, depth: int) -> int:
    """Sequences of ``depth`` legal actions (of the player(s) to act) from ``state``."""
    from service.engine.legal import legal_actions, players_to_act
    from service.engine.referee import adjudicate
    if depth == 0:
        return 1
    total = 0
    for p in players_to_act(state):
        la = legal_actions(state, graph, scen, p)
        for acts in la.actions.values():
            for a in acts:
                if depth == 1:
                    total += 1
                else:
                    total += perft(adjudicate(state, a, graph, scen, with_derived=False).state, graph, scen, depth - 1)
    return total


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenario", default="base")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=3)
    args = ap.parse_args()
    from service.engine.mapgraph import MapGraph
    from service.engine.scenarios import scenario_of, start_game
    s = start_game(args.scenario, args.players, args.seed)
    scen, graph = scenario_of(s), MapGraph.build(s.terrain_map())
    for d in range(1, args.depth + 1):
        t0 = time.perf_counter()
        n = perft(s, graph, scen, d)
        print(f"{args.scenario} {args.players} players, depth {d}: {n} ({time.perf_counter() - t0:.2f} s)")


if __name__ == "__main__":
    main()
