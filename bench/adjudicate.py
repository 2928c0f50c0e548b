"""Time one adjudication, split into parse/validate, engine and serialise; in-process and over HTTP.

    .venv/bin/python bench/adjudicate.py [--access-log]

Prints microseconds of CPU time per step (the best of five rounds of process time, so other load on
the machine matters less than with wall-clock time) and the ratios between them (figures, not
assertions: machines are noisy). Positions: a mid-game 4-player base game (reached by seeded play) and
an 80+ tile Seafarers board.

Columns: ``parse_validate_us`` decoding the body and turning the posted state into an engine state
(schema, build, map graph from the warm cache, consistency checks); ``engine_us`` the adjudication
without derived values; ``derive_us`` the derived values; ``serialise_us`` the verdict as JSON text
(``verdict_text``); ``wsgi_us`` one whole request through the Flask app (what a gunicorn worker spends,
HTTP parsing aside); ``observability_share`` the part of ``wsgi_us`` that the request id, the metrics and the log line
take (the same app timed without those hooks); ``wsgi_tagged_us`` the same with the state's ``State-Tag`` (a state the service
returned: recognised, and kept from the request before), ``wsgi_tagged_first_us`` recognised but not kept
(the first time this worker sees it: loaded without the checks); ``http_total_us`` the whole request
through Flask's test client (which adds building the request).

The JSON access log is off (it would print a line per request); ``--access-log`` keeps it on, written to
nowhere, so its cost is in the HTTP figures.
"""
from __future__ import annotations

import io
import json
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import timing  # noqa: E402
from bench.positions import base_midgame, seafarers_big  # noqa: E402
from service.api import create_app  # noqa: E402
from service.api.codec import dump_state  # noqa: E402
from service.api.service import judge, parse_action, parse_state, verdict_text  # noqa: E402
from service.engine.core import Action  # noqa: E402
from service.engine.referee import adjudicate  # noqa: E402


def per_call(fn, n: int) -> float:
    """Microseconds of CPU time per call: the best of five rounds of ``n`` calls."""
    return timing.per_call(fn, n, clock=time.process_time)


def quiet(access_log: bool) -> None:
    """No request log lines on the terminal: off, or (``access_log``) written to ``/dev/null`` (stderr is
    sent there while the requests are timed: the lines are formatted and written, as a server does)."""
    log = logging.getLogger("seafarers")
    if not access_log:
        log.setLevel(logging.WARNING)
        return
    log.setLevel(logging.INFO)
    sys.stderr = open(os.devnull, "w")


def wsgi_call(app, body: bytes, headers: tuple = ()):
    """One request straight through the WSGI app, as a server worker makes it."""
    from werkzeug.test import EnvironBuilder
    environ = EnvironBuilder(path="/v1/adjudicate", method="POST", data=body, headers=list(headers),
                             content_type="application/json").get_environ()

    def call() -> None:
        env = dict(environ)
        env["wsgi.input"] = io.BytesIO(body)
        status = []
        out = app(env, lambda s, h, e=None: status.append(s))
        b"".join(out)
        getattr(out, "close", lambda: None)()
        assert status[0].startswith("200"), status
    return call


def bench(label: str, state, graph, scen, action: Action, action_json: dict, n: int = 300,
          access_log: bool = False) -> dict:
    app = create_app({"TESTING": True})
    quiet(access_log)
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
    t_ser = per_call(lambda: verdict_text(v), n)
    t_wsgi = per_call(wsgi_call(app, body.encode()), n // 3)
    bare = create_app({"TESTING": True})     # the same app without request ids, metrics and the log line
    from service.api import observability
    for funcs, hook in ((bare.before_request_funcs, observability._before),
                        (bare.after_request_funcs, observability._after)):
        funcs[None] = [f for f in funcs.get(None, []) if f is not hook]
    t_bare = per_call(wsgi_call(bare, body.encode()), n // 3)
    t_tagged = t_tagged_new = float("nan")
    try:
        from service.api import integrity, service
    except ImportError:     # (code before the state tags)
        pass
    else:
        tag = integrity.tag_of(json.loads(body)["state"])
        tagged = wsgi_call(app, body.encode(), (("State-Tag", tag),))
        t_tagged = per_call(tagged, n // 3)

        def first_time() -> None:     # recognised, but not kept from an earlier request
            service._RECOGNISED.clear()
            tagged()
        t_tagged_new = per_call(first_time, n // 3)
    t_http = per_call(lambda: client.post("/v1/adjudicate", data=body, content_type="application/json"), n // 3)
    tiles = sum(1 for t in state.hexes.values() if t.terrain != "frame")
    row = {"position": label, "tiles": tiles, "legal": v.legal, "parse_validate_us": round(t_parse, 1),
           "engine_us": round(t_engine, 1), "derive_us": round(t_derive, 1), "serialise_us": round(t_ser, 1),
           "wsgi_us": round(t_wsgi, 1), "observability_share": round(1 - t_bare / t_wsgi, 3),
           "wsgi_tagged_us": round(t_tagged, 1),
           "wsgi_tagged_first_us": round(t_tagged_new, 1), "http_total_us": round(t_http, 1)}
    return row


def next_action(s) -> dict:
    """The position's next step: the roll, the gold pick it waits for, or the end of the turn."""
    p = s.current_player
    if s.phase == "roll":
        return {"type": "roll", "player": p, "dice": [3, 5]}
    if s.phase == "gold_choice" and s.pending_gold:
        q, n = min(s.pending_gold.items())
        return {"type": "choose_gold", "player": q, "resources": {"ore": n}}
    return {"type": "end_turn", "player": p}


def main() -> None:
    access_log = "--access-log" in sys.argv[1:]
    os.environ.setdefault("LOG_LEVEL", "info" if access_log else "warning")
    rows = []
    for label, (s, g, scen) in (("base mid-game", base_midgame()), ("seafarers 80+ tiles", seafarers_big())):
        a = next_action(s)
        params = {k: tuple(v) if isinstance(v, list) else v for k, v in a.items() if k not in ("type", "player")}
        rows.append(bench(label, s, g, scen, Action(a["type"], a["player"], params), a, access_log=access_log))
    for r in rows:
        print(json.dumps(r))
        eng = r["engine_us"] + r["derive_us"]
        print(f"  {r['position']}: parse+validate / engine+derive = {r['parse_validate_us'] / eng:.2f}; "
              f"serialise / engine+derive = {r['serialise_us'] / eng:.2f}; "
              f"HTTP total / in-process sum = {r['http_total_us'] / (r['parse_validate_us'] + eng + r['serialise_us']):.2f}")
    print("figures are CPU microseconds per call (process time, best of five rounds)")
    print("for scale: catanatron 3.2.1 spends about 49 us per move on this machine (issue figure)")


if __name__ == "__main__":
    main()
