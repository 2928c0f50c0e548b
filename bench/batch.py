"""What a position costs inside a batch (``POST /v1/batch``) against the same request sent alone.

    .venv/bin/python bench/batch.py [--boards 48] [--lines 1000] [--rounds 3] [--tagged]

Bodies: the load benchmark's mid-game adjudications (``bench/load/bench.py``, a position 60-160 actions
into a seeded random base game and the action played there), ``--boards`` of them, cycled to ``--lines``.
Both ways go straight into the WSGI app (prepared environs, as gunicorn hands them over), in one
process, after a warm-up pass of each: ``single`` is ``--lines`` requests to ``POST /v1/adjudicate``,
``batch`` one request to ``POST /v1/batch`` holding the same ``--lines`` adjudications. Figures: CPU
microseconds of this thread per position (the best of ``--rounds``) and the ratio batch / single; the
target is at most 0.40. ``--tagged`` sends each state with its ``State-Tag`` (recognised and kept by the
worker), as a client that posts back what it was answered does.
"""
from __future__ import annotations

import argparse
import io
import json
import logging
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "load"))


def _call(app, environ: dict, body: bytes) -> bytes:
    env = dict(environ)
    env["wsgi.input"] = io.BytesIO(body)
    status: list = []
    out = app(env, lambda s, h, e=None: status.append(s))
    data = b"".join(out)
    getattr(out, "close", lambda: None)()
    if not status[0].startswith("200"):
        raise SystemExit(f"request failed: {status[0]} {data[:300]!r}")
    return data


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=48)
    ap.add_argument("--lines", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tagged", action="store_true")
    args = ap.parse_args()
    os.environ.setdefault("STATE_KEY", "batch-bench-key")
    from bench import make_bodies   # (bench/load/bench.py)
    from werkzeug.test import EnvironBuilder

    from service.api import create_app
    bodies = [b.encode() for b in make_bodies(args.boards, "midgame")]
    app = create_app({"TESTING": True, "REDIS_URL": None, "BATCH_BUDGET_SECONDS": 0})
    logging.getLogger("seafarers.access").handlers[:] = [logging.NullHandler()]
    logging.getLogger("seafarers.access").propagate = False
    tags: list = [None] * len(bodies)
    if args.tagged:
        c = app.test_client()
        tags = [c.post("/v1/adjudicate", data=b, content_type="application/json").headers.get("State-Tag")
                for b in bodies]
        # (the tag is of the posted state: an answer's tag is of the state after; get the posted one's)
        from service.api.integrity import tag_of
        tags = [tag_of(json.loads(b)["state"]) for b in bodies]
    singles = []
    for i, b in enumerate(bodies):
        headers = [("State-Tag", tags[i])] if tags[i] else []
        singles.append((EnvironBuilder(path="/v1/adjudicate", method="POST", data=b, headers=headers,
                                       content_type="application/json").get_environ(), b))
    lines = []
    for n in range(args.lines):
        i = n % len(bodies)
        line = b'{"id":' + str(n).encode() + b',"op":"adjudicate"'
        if tags[i]:
            line += b',"state_tag":' + json.dumps(tags[i]).encode()
        lines.append(line + b',"body":' + bodies[i] + b"}")
    batch_body = b"\n".join(lines) + b"\n"
    batch_env = EnvironBuilder(path="/v1/batch", method="POST", data=batch_body,
                               content_type="application/x-ndjson").get_environ()

    def run_single() -> float:
        t = time.thread_time()
        for n in range(args.lines):
            _call(app, *singles[n % len(singles)])
        return (time.thread_time() - t) / args.lines

    def run_batch() -> float:
        t = time.thread_time()
        out = _call(app, batch_env, batch_body)
        spent = (time.thread_time() - t) / args.lines
        answers = out.splitlines()
        assert len(answers) == args.lines and all(b'"status":200' in a for a in answers), answers[:1]
        return spent

    # the answers are the endpoint's own
    first = json.loads(_call(app, batch_env, batch_body).splitlines()[0])
    assert json.loads(_call(app, *singles[0])) == first["body"]
    run_single(), run_batch()          # warm-up: graphs, boards, recognised states
    single = min(run_single() for _ in range(args.rounds))
    batch = min(run_batch() for _ in range(args.rounds))
    print(json.dumps({"boards": args.boards, "lines": args.lines, "tagged": args.tagged,
                      "single_us": round(single * 1e6, 1), "batch_us": round(batch * 1e6, 1),
                      "ratio": round(batch / single, 3), "target": 0.40}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
