"""Where one adjudication's time goes in a server worker: the request path, step by step.

    .venv/bin/python bench/request_path.py [--requests 2000] [--rounds 5] [--mix midgame|seafarers|setup]

Requests go straight into the WSGI app (a prepared environ, as gunicorn hands it over: no test client,
no HTTP), cycling over the load benchmark's bodies (``bench/load/bench.py``: 48 boards), untagged and
with each state's ``State-Tag`` (recognised and, after the first pass, kept by the worker). The JSON
access line is written, to ``/dev/null``, as a server writes it.

Two figures per mode: ``total``, CPU microseconds per request of the bare app (the best of ``--rounds``
rounds); then the same requests with a clock around each named step (the best round again), in
microseconds per request. The clocks add a little to every step they time (a fraction of a
microsecond each), so the steps add up to slightly more than ``total``. ``flask`` is what Flask and
werkzeug spend around the view and the hooks (request and response objects, routing, contexts).
"""
from __future__ import annotations

import argparse
import importlib
import io
import json
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

KEY = b"request-path-bench-key"

#: (label, module, name, indent): the steps timed, each where the request path looks it up.
STEPS = [
    ("hooks: request id, metrics, log line", "service.api.observability", "_before", 0),
    ("", "service.api.observability", "_after", 0),
    ("view", None, None, 0),
    ("read the body (read_json)", "service.api.views", "read_json", 1),
    ("load the state (parse_state_where)", "service.api.views", "parse_state_where", 1),
    ("tag check (recognised)", "service.api.posted_state", "recognised", 2),
    ("nulls, module values, board key", "service.api.posted_state", "drop_absent_nulls", 2),
    ("", "service.api.posted_state", "split_player_extras", 2),
    ("", "service.api.posted_state", "_known_board", 2),
    ("schema load (compiled)", "service.api.posted_state", "_LOAD_STATE_WITHOUT_BOARD", 2),
    ("", "service.api.posted_state", "_LOAD_STATE", 2),
    ("module data shapes (declared_problems)", "service.api.posted_state", "declared_problems", 2),
    ("build the engine state (build_state)", "service.api.posted_state", "build_state", 2),
    ("consistency (check_state)", "service.api.posted_state", "check_state", 2),
    ("load the action (parse_action)", "service.api.views", "parse_action", 1),
    ("engine: adjudicate", "service.api.service", "adjudicate", 1),
    ("derived values (derive)", "service.engine.referee", "derive", 2),
    ("position warnings (warnings_of)", "service.api.views", "warnings_of", 1),
    ("verdict bytes and tag (verdict_body_tagged)", "service.api.views", "verdict_body_tagged", 1),
    ("verdict as JSON values (verdict_json)", "service.api.service", "verdict_json", 2),
    ("state tag (tag_of)", "service.api.service", "tag_of", 2),
    ("encode (orjson)", "service.api.service", "ENCODE_BYTES", 2),
    ("response object (ok_text)", "service.api.views", "ok_text", 1),
]


def prepared(app, bodies: list[bytes], tags: list[str] | None):
    from werkzeug.test import EnvironBuilder
    envs = []
    for i, b in enumerate(bodies):
        headers = [("State-Tag", tags[i])] if tags else []
        envs.append((EnvironBuilder(path="/v1/adjudicate", method="POST", data=b, headers=headers,
                                    content_type="application/json").get_environ(), b))

    def call(i: int) -> None:
        environ, body = envs[i % len(envs)]
        env = dict(environ)
        env["wsgi.input"] = io.BytesIO(body)
        status = []
        out = app(env, lambda s, h, e=None: status.append(s))
        b"".join(out)
        getattr(out, "close", lambda: None)()
        if not status[0].startswith("200"):
            raise SystemExit(f"request failed: {status[0]}")
    return call


def instrument(app, acc: dict):
    """A clock around each step of :data:`STEPS` (where the request path looks it up); returns the
    function that takes them away again."""
    clock = time.perf_counter
    undo: list = []
    for label, modname, name, _ in STEPS:
        if modname is None:
            continue
        mod = importlib.import_module(modname)
        f = getattr(mod, name, None)
        if f is None:
            continue
        key = f"{modname}.{name}"
        acc[key] = 0.0

        def timed(*a, _f=f, _k=key, **k):
            t = clock()
            try:
                return _f(*a, **k)
            finally:
                acc[_k] += clock() - t
        setattr(mod, name, timed)
        undo.append((mod, name, f))
        for hooks in (app.before_request_funcs, app.after_request_funcs):
            for funcs in hooks.values():
                funcs[:] = [timed if g is f else g for g in funcs]
    view = app.view_functions["v1.adjudicate_view"]
    acc["view"] = 0.0

    def timed_view(*a, **k):
        t = clock()
        try:
            return view(*a, **k)
        finally:
            acc["view"] += clock() - t
    app.view_functions["v1.adjudicate_view"] = timed_view

    def remove() -> None:
        for mod, name, f in undo:
            setattr(mod, name, f)
    return remove


def best_round(call, n: int, rounds: int, acc: dict | None = None) -> tuple[float, dict]:
    best = (float("inf"), {})
    for _ in range(rounds):
        if acc is not None:
            for k in acc:
                acc[k] = 0.0
        t0, c0 = time.perf_counter(), time.thread_time()
        for i in range(n):
            call(i)
        cpu, wall = time.thread_time() - c0, time.perf_counter() - t0
        if cpu < best[0]:
            best = (cpu, {"wall": wall, **(acc or {})})
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--requests", type=int, default=2000, help="requests per round")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--mix", choices=("midgame", "seafarers", "setup"), default="midgame")
    args = ap.parse_args()
    os.environ["STATE_KEY"] = KEY.decode()
    from bench.load.bench import make_bodies
    from service.api import create_app, integrity
    bodies = [b.encode() for b in make_bodies(48, args.mix)]
    integrity.set_key(KEY)
    tags = [integrity.tag_of(json.loads(b)["state"]) for b in bodies]
    logging.getLogger("seafarers").setLevel(logging.INFO)
    stderr, sys.stderr = sys.stderr, open(os.devnull, "w")    # the access lines, written to nowhere
    results = {}
    try:
        for mode in ("untagged", "tagged"):
            app = create_app({"REDIS_URL": None})
            call = prepared(app, bodies, tags if mode == "tagged" else None)
            for i in range(2 * len(bodies)):
                call(i)
            total, _ = best_round(call, args.requests, args.rounds)
            acc: dict = {}
            remove = instrument(app, acc)
            _, steps = best_round(call, args.requests, args.rounds, acc)
            remove()
            results[mode] = (total, steps)
    finally:
        sys.stderr = stderr
    n = args.requests
    print(f"{len(bodies)} bodies ({args.mix}), {sum(map(len, bodies)) // len(bodies)} bytes each; "
          f"microseconds per request, the best of {args.rounds} rounds of {n}")
    print(f"{'':48}{'untagged':>10}{'tagged':>10}")
    print(f"{'total (CPU, no clocks)':48}" + "".join(f"{results[m][0] / n * 1e6:10.1f}" for m in results))
    print(f"{'total (wall, with clocks)':48}" + "".join(f"{results[m][1]['wall'] / n * 1e6:10.1f}" for m in results))

    def step(mode: str, keys: list[str]) -> float:
        return sum(results[mode][1].get(k, 0.0) for k in keys) / n * 1e6
    hooks = ["service.api.observability._before", "service.api.observability._after"]
    print(f"{'flask (around the view and hooks)':48}" + "".join(
        f"{results[m][1]['wall'] / n * 1e6 - step(m, ['view'] + hooks):10.1f}" for m in results))
    rows: list[tuple[str, list[str], int]] = []
    for label, modname, name, indent in STEPS:
        key = "view" if modname is None else f"{modname}.{name}"
        if label:
            rows.append((label, [key], indent))
        else:
            rows[-1][1].append(key)
    for label, keys, indent in rows:
        print(f"{'  ' * indent + label:48}" + "".join(f"{step(m, keys):10.1f}" for m in results))


if __name__ == "__main__":
    main()
