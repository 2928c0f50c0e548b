"""Time one adjudication, split into parse/validate, engine and serialise; in-process and over HTTP.

    .venv/bin/python bench/adjudicate.py

Prints microseconds per step and the ratios between them (figures, not assertions: machines are noisy).
Positions: a mid-game 4-player base game (reached by seeded play) and an 80+ tile Seafarers board.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.positions import base_midgame, seafarers_big  # noqa: E402
from service.api import create_app  # noqa: E402
from service.api.codec import dump_state  # noqa: E402
from service.api.service import judge, parse_action, parse_state, verdict_json  # noqa: E402
from service.engine.core import Action  # noqa: E402
from service.engine.referee import adjudicate  # noqa: E402


def per_call(fn, n: int) -> float:
    fn()
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t) / n)
    return best * 1e6


def bench(label: str, state, graph, scen, action: Action, action_json: dict, n: int = 300) -> dict:
    app = create_app({"TESTING": True})
    cache = app.extensions["graph_cache"]
    state_json = dump_state(state)
    body = json.dumps({"state": state_json, "action": action_json})
    client = app.test_client()
    parse_state(state_json, cache)  # warm the graph cache, as a running service would be

    t_parse = per_call(lambda: parse_state(json.loads(body)["state"], cache), n)
    st, g = parse_state(state_json, cache)
    act = parse_action(action_json, st)
    t_engine = per_call(lambda: adjudicate(st, act, g, scen, with_derived=False), n)
    t_derive = per_call(lambda: judge(st, act, g), n) - t_engine
    v = judge(st, act, g)
    t_ser = per_call(lambda: json.dumps(verdict_json(v)), n)
    t_http = per_call(lambda: client.post("/v1/adjudicate", data=body, content_type="application/json"), n // 3)
    tiles = sum(1 for t in state.hexes.values() if t.terrain != "frame")
    row = {"position": label, "tiles": tiles, "legal": v.legal, "parse_validate_us": round(t_parse, 1),
           "engine_us": round(t_engine, 1), "derive_us": round(t_derive, 1), "serialise_us": round(t_ser, 1),
           "http_total_us": round(t_http, 1)}
    return row


def main() -> None:
    rows = []
    s, g, scen = base_midgame()
    p = s.current_player
    a = {"type": "roll", "player": p, "dice": [3, 5]} if s.phase == "roll" else {"type": "end_turn", "player": p}
    rows.append(bench("base mid-game", s, g, scen, Action(a["type"], p, {"dice": (3, 5)} if "dice" in a else {}), a))
    s, g, scen = seafarers_big()
    p = s.current_player
    a = {"type": "roll", "player": p, "dice": [3, 5]} if s.phase == "roll" else {"type": "end_turn", "player": p}
    rows.append(bench("seafarers 80+ tiles", s, g, scen, Action(a["type"], p, {"dice": (3, 5)} if "dice" in a else {}), a))
    for r in rows:
        print(json.dumps(r))
        eng = r["engine_us"] + r["derive_us"]
        print(f"  {r['position']}: parse+validate / engine+derive = {r['parse_validate_us'] / eng:.2f}; "
              f"serialise / engine+derive = {r['serialise_us'] / eng:.2f}; "
              f"HTTP total / in-process sum = {r['http_total_us'] / (r['parse_validate_us'] + eng + r['serialise_us']):.2f}")
    print("for scale: catanatron 3.2.1 spends about 49 us per move on this machine (issue figure)")


if __name__ == "__main__":
    main()
