"""Legal-action lists per scenario: CPU time of ``legal_actions`` over positions of seeded random play.

    .venv/bin/python bench/legal_lists.py                       # every scenario that starts a game, C&K too
    .venv/bin/python bench/legal_lists.py --scenarios TDE3,GOLD --actions 400 --seeds 1,2
    .venv/bin/python bench/legal_lists.py --scenarios base --players 4,5,6       # the 5-6 extension's cost

For each scenario (and player count, and with Cities & Knights where the scenario takes it), random legal
play from each seed: every listing after action ``--skip`` is timed (CPU time, one call each), and the
mean and the worst are printed in milliseconds. A client calls this on every move, so the worst matters
as much as the mean. Machines differ: compare two checkouts in one run by running this script from each,
alternately.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

def games(only: set[str] | None) -> list[tuple[str, int, dict | None]]:
    from bench.digests import CK, ck_scenarios
    from service.engine.selfplay import playable_scenarios
    with_ck = set(ck_scenarios())
    out: list[tuple[str, int, dict | None]] = []
    for sid, n in playable_scenarios():
        if only and sid not in only:
            continue
        out.append((sid, n, None))
        if (sid, n) in with_ck:
            out.append((sid, n, {CK: True}))
    return out


def measure(sid: str, n: int, options: dict | None, seeds: list[int], actions: int, skip: int) -> tuple[float, float, int]:
    from service.engine.legal import legal_actions, random_action
    from service.engine.mapgraph import MapGraph
    from service.engine.referee import adjudicate
    from service.engine.rng import Rng
    from service.engine.scenarios import get_scenario, with_expansions
    scen = with_expansions(get_scenario(sid), options, n)
    clock = time.process_time
    times: list[float] = []
    for seed in seeds:
        state = scen.new_game(n, seed, options) if options else scen.new_game(n, seed)
        graph = MapGraph.build(state.terrain_map())
        rng = Rng(seed, 7)
        for i in range(actions):
            if state.phase == "game_over":
                break
            t = clock()
            la = legal_actions(state, graph, scen)
            if i >= skip:
                times.append(clock() - t)
            v = adjudicate(state, random_action(la, rng), graph, scen, with_derived=False)
            state, graph = v.state, v.graph or graph
    return (sum(times) / len(times) * 1e3 if times else 0.0), (max(times) * 1e3 if times else 0.0), len(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scenarios", help="comma-separated scenario ids (default: all)")
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--actions", type=int, default=400)
    ap.add_argument("--skip", type=int, default=60, help="listings before this action are not timed (set-up)")
    ap.add_argument("--players", help="these player counts of the chosen scenarios instead of their own, e.g. "
                                      "--scenarios base --players 4,5,6 (5 and 6: the 5-6 extension)")
    args = ap.parse_args()
    only = set(args.scenarios.split(",")) if args.scenarios else None
    seeds = [int(s) for s in args.seeds.split(",")]
    print(f"{'game':28s} {'mean ms':>8s} {'worst ms':>9s} {'listings':>9s}")
    chosen = games(only)
    if args.players:
        counts = [int(x) for x in args.players.split(",")]
        chosen = [(sid, n, None) for sid in dict.fromkeys(g[0] for g in chosen) for n in counts]
    for sid, n, options in chosen:
        mean, worst, count = measure(sid, n, options, seeds, args.actions, args.skip)
        label = f"{sid} {n}p" + (" + C&K" if options else "")
        print(f"{label:28s} {mean:8.3f} {worst:9.1f} {count:9d}", flush=True)


if __name__ == "__main__":
    main()
