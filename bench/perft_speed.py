"""Perft speed: positions counted per CPU second, measured against two baselines in one run.

    nice .venv/bin/python bench/perft_speed.py

1. The base game's set-up to depth 4 (19,248 sequences, 7,435 lists) counted by the engine directly
   (``engine.perft``) and the same count made the way a client without it would: one
   ``POST /v1/legal-actions`` and one ``POST /v1/adjudicate`` per node through the app (the test client,
   no network). The ratio is what counting in the engine saves.
2. A mid-game position (seeded random play, before a roll) to depth 4 with the transposition table and
   without it: positions reused, and the ratio of the times.

Reports legal-action lists per second (the nodes of a perft count: each position whose list is made)
and applies per second (each action's outcome made once).
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def over_http(client, state: dict, depth: int, stats: dict) -> int:
    la = client.post("/v1/legal-actions", json={"state": state}).get_json()
    stats["lists"] += 1
    acts = [a for group in la["actions"].values() for a in group]
    if la["ranges"]:
        raise SystemExit("the HTTP baseline counts positions without ranges only")
    if depth == 1:
        return len(acts)
    total = 0
    for a in acts:
        v = client.post("/v1/adjudicate", json={"state": state, "action": a}).get_json()
        total += over_http(client, v["state"], depth - 1, stats)
    return total


def main() -> None:
    from service.api import create_app
    from service.api.codec import dump_state
    from service.engine.mapgraph import MapGraph
    from service.engine.perft import perft
    from service.engine.scenarios import get_scenario
    from service.engine.selfplay import play_game
    import logging
    logging.disable(logging.INFO)
    clock = time.process_time
    scen = get_scenario("base")
    state = scen.new_game(3, 1)
    graph = MapGraph.build(state.terrain_map())

    t0 = clock()
    r = perft(state, graph, scen, 4)
    engine_s = clock() - t0
    client = create_app({"TESTING": True, "REQUEST_BUDGET_SECONDS": 0}).test_client()
    stats = {"lists": 0}
    t0 = clock()
    n = over_http(client, dump_state(state), 4, stats)
    http_s = clock() - t0
    assert n == r.count, (n, r.count)
    print(f"base set-up, depth 4: {r.count:,} sequences, {r.work.lists} lists")
    print(f"  engine:        {engine_s:.2f} s  {r.work.lists / engine_s:,.0f} lists/s  {r.work.applies / engine_s:,.0f} applies/s")
    print(f"  over HTTP:     {http_s:.2f} s  {stats['lists'] / http_s:,.0f} lists/s")
    print(f"  ratio:         the engine counts {http_s / engine_s:.1f}x faster")

    found = []
    play_game("base", 3, 13, max_actions=200, check=False,
              on_step=lambda s, a, v: found.append(s) if not found and s.phase == "roll" and s.turn > 3 else None)
    mid = found[0]
    g = MapGraph.build(mid.terrain_map())
    def best(**kw):                         # the faster of two runs (the first warms the memos)
        times, out = [], None
        for _ in range(2):
            t0 = clock()
            out = perft(mid, g, scen, 4, **kw)
            times.append(clock() - t0)
        return out, min(times)

    b, without_s = best(transpositions=False)
    a, with_s = best()
    assert a.count == b.count
    print(f"mid-game position before a roll, depth 4: {a.count:,} sequences")
    print(f"  with the table:    {with_s:.2f} s  {a.work.lists} lists, {a.work.transpositions} positions reused, "
          f"{a.work.lists / with_s:,.0f} lists/s")
    print(f"  without the table: {without_s:.2f} s  {b.work.lists} lists, {b.work.lists / without_s:,.0f} lists/s")
    print(f"  ratio:             {without_s / with_s:.2f}x")


if __name__ == "__main__":
    main()
