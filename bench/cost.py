"""Worst CPU per request at the largest bodies the service takes, through the app (Flask test client).

    .venv/bin/python bench/cost.py            # prints one line per request kind, and the worst

Requests (each at or near its body limit, all valid unless said otherwise):

* ``replay-max``: the most actions a replay takes (20,000 legal ``roll``/``end_turn``), a digest per step
  and events, from a mid-game position of each Seafarers scenario with its ``scenario_state`` as played
  (digests "each"), padded with whitespace to the replay body limit (8 MiB);
* ``junk-scenario-state``: the attack of the report that found the problem, ``{"junk": [[0]] * 20000}``
  in ``scenario_state`` with 2,000 actions (now a 422 before any judging);
* ``adjudicate-max`` / ``legal-actions-max``: the largest-board positions of every scenario, padded to
  the 2 MiB limit.

The cost budget (``REQUEST_BUDGET_SECONDS``) is lifted for the measurement so that the full cost shows.
"""
from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LOG_LEVEL", "warning")

REPLAY_LIMIT = 8 * 1024 * 1024
BODY_LIMIT = 2 * 1024 * 1024


def padded(body: dict, limit: int) -> bytes:
    raw = json.dumps(body, separators=(",", ":")).encode()
    return raw[:-1] + b" " * max(0, limit - len(raw)) + b"}"


def timed(client, path: str, raw: bytes) -> tuple[int, float]:
    t = time.thread_time()
    r = client.post(path, data=raw, content_type="application/json")
    r.get_data()
    return r.status_code, time.thread_time() - t


def positions():
    """(scenario, a mid-game position in the main or roll phase) of every scenario that starts a game."""
    from service.engine.selfplay import play_game, playable_scenarios
    out = []
    for sid, n in playable_scenarios():
        seen = []
        play_game(sid, n, 3, max_actions=150, check=False, on_step=lambda s, a, v: seen.append((s, a)))
        rolls = [s for s, a in seen if a.type == "roll" and s.phase == "roll"]
        if rolls:
            out.append((f"{sid}/{n}", rolls[-1]))
    return out


def roll_end(state, pairs: int) -> list[dict]:
    p, out = state.current_player, []
    for _ in range(pairs):
        out += [{"type": "roll", "player": p, "dice": [2, 3]}, {"type": "end_turn", "player": p}]
        p = (p + 1) % state.num_players
    return out


def main() -> None:
    from service.api import create_app
    from service.api.codec import dump_state
    from service.engine.legal import legal_actions
    client = create_app({"TESTING": True, "REQUEST_BUDGET_SECONDS": 0}).test_client()
    rows = []
    for name, s in positions():
        st = dump_state(s)
        body = {"state": st, "actions": roll_end(s, 10_000), "events": True}
        code, cpu = timed(client, "/v1/replay", padded(body, REPLAY_LIMIT))
        rows.append(("replay-max", name, code, cpu))
        code, cpu = timed(client, "/v1/adjudicate", padded({"state": st, "action": body["actions"][0]}, BODY_LIMIT))
        rows.append(("adjudicate-max", name, code, cpu))
        code, cpu = timed(client, "/v1/legal-actions", padded({"state": st, "player": s.current_player}, BODY_LIMIT))
        rows.append(("legal-actions-max", name, code, cpu))
    base = next(s for name, s in positions() if name.startswith("base/"))
    st = dump_state(base)
    st["scenario_state"] = {"junk": [[0]] * 20_000}
    code, cpu = timed(client, "/v1/replay", json.dumps({"state": st, "actions": roll_end(base, 1000)}).encode())
    rows.append(("junk-scenario-state", "base", code, cpu))
    for kind, name, code, cpu in rows:
        print(f"{kind:22} {name:10} HTTP {code}  {cpu * 1000:9.1f} ms CPU")
    worst = max(rows, key=lambda r: r[3])
    print(f"worst: {worst[0]} {worst[1]} {worst[3]:.2f} s CPU")
    assert legal_actions  # (imported to warm the legal-action tables before timing)


if __name__ == "__main__":
    main()
