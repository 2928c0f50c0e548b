"""Replay speed: a seeded random base game's log judged again, in the engine and over the app.

    .venv/bin/python bench/replay.py [--seed 3]

Prints actions per second of CPU time (best of three rounds) for: the engine without digests, the
engine with a digest per step, and POST /v1/replay through the Flask app in-process (digests per step
and none). Figures, not assertions: machines differ and are noisy; read the ratios.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.api import create_app  # noqa: E402
from service.api.codec import dump_state  # noqa: E402
from service.api.replay import replay  # noqa: E402
from service.engine.legal import action_json  # noqa: E402
from service.engine.mapgraph import MapGraph  # noqa: E402
from service.engine.selfplay import play_game  # noqa: E402


def best(fn, rounds: int = 3) -> float:
    out = []
    for _ in range(rounds):
        t = time.process_time()
        fn()
        out.append(time.process_time() - t)
    return min(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    game = play_game("base", 4, args.seed, check=False)
    n = len(game.log)
    graph = MapGraph.build(game.initial.terrain_map())
    rows = {
        "engine, no digests": best(lambda: replay(game.initial, game.log, graph, digests="none")),
        "engine, digest per step": best(lambda: replay(game.initial, game.log, graph, digests="each")),
    }
    logging.disable(logging.INFO)               # no request log lines
    client = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    for digests in ("each", "none"):
        body = json.dumps({"state": dump_state(game.initial), "actions": [action_json(a) for a in game.log],
                           "digests": digests})

        def post() -> None:
            r = client.post("/v1/replay", data=body, content_type="application/json")
            assert r.status_code == 200 and r.get_json()["all_legal"], r.get_data(as_text=True)[:300]
        rows[f"HTTP (app in-process), digests {digests}"] = best(post)
    print(f"replay of a {n}-action random base game (seed {args.seed}), actions per CPU-second:")
    for name, secs in rows.items():
        print(f"  {name:40s} {n / secs:10,.0f}")


if __name__ == "__main__":
    main()
