"""Answers to valid requests, fingerprinted: a change meant to leave them as they are is checked against a
fingerprint file written before it.

    .venv/bin/python bench/golden.py --write /tmp/golden.json    # before the change
    .venv/bin/python bench/golden.py --check /tmp/golden.json    # after: exits 1 on any difference

Seeded random games of every scenario that starts a game (``selfplay.play_game``) give the requests: the
whole log through ``POST /v1/replay`` (a digest per step, events, derived values), every ``--every``-th
position through ``POST /v1/adjudicate`` (with its action), ``POST /v1/legal-actions`` and
``POST /v1/adjudicate?explain=true``. The SHA-256 of each answer's bytes (status, content type, body) is
recorded per game, with the soak's replay digests (``canonical_json`` of every position).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LOG_LEVEL", "warning")


def fingerprints(games_per_pair: int, cap: int, every: int) -> dict[str, dict[str, str]]:
    from service.api import create_app
    from service.api.codec import dump_state
    from service.api.replay import state_digest
    from service.engine.legal import action_json
    from service.engine.selfplay import play_game, playable_scenarios

    client = create_app({"TESTING": True}).test_client()
    out: dict[str, dict[str, str]] = {}
    for sid, n in playable_scenarios():
        for seed in range(1, games_per_pair + 1):
            positions: list = []
            g = play_game(sid, n, seed, max_actions=cap, check=False,
                          on_step=lambda s, a, v: positions.append((s, a)))
            h = hashlib.sha256()
            digests = hashlib.sha256()

            def answer(path: str, body) -> None:
                r = client.post(path, json=body)
                h.update(f"{path} {r.status_code} {r.content_type}\n".encode())
                h.update(r.get_data())

            answer("/v1/replay", {"state": dump_state(g.initial), "actions": [action_json(a) for a in g.log],
                                  "events": True, "derived": True})
            answer("/v1/replay", {"state": dump_state(g.initial), "actions": [action_json(a) for a in g.log],
                                  "digests": "none"})
            for i, (s, a) in enumerate(positions):
                digests.update(state_digest(s).encode())
                if i % every:
                    continue
                st = dump_state(s)
                answer("/v1/adjudicate", {"state": st, "action": action_json(a)})
                answer("/v1/adjudicate?explain=true", {"state": st, "action": action_json(a)})
                answer("/v1/legal-actions", {"state": st, "player": a.player})
            out[f"{sid}/{n}/{seed}"] = {"answers": h.hexdigest(), "digests": digests.hexdigest(),
                                        "actions": str(len(g.log))}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2, help="games per (scenario, player count)")
    ap.add_argument("--cap", type=int, default=150)
    ap.add_argument("--every", type=int, default=7)
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--write")
    g.add_argument("--check")
    args = ap.parse_args()
    got = fingerprints(args.games, args.cap, args.every)
    if args.write:
        Path(args.write).write_text(json.dumps(got, indent=1, sort_keys=True))
        print(f"{len(got)} games fingerprinted")
        return
    want = json.loads(Path(args.check).read_text())
    diff = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k))
    print(json.dumps({"games": len(got), "differ": diff}, indent=1))
    sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
