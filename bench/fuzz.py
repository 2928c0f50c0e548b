"""Fuzzing at scale: schemathesis over every documented operation, then the hostile-input catalogue.

    .venv/bin/python bench/fuzz.py                      # FUZZ_EXAMPLES=1000 per operation and mode
    .venv/bin/python bench/fuzz.py --examples 300       # a shorter run
    .venv/bin/python bench/fuzz.py --hostile-only       # the catalogue alone (seconds)

The schemathesis part runs ``tests/test_fuzz_schemathesis.py`` (the same checks as the default test run:
no 5xx, status codes, content types, response schemas and headers as documented, invalid input
rejected) with a large example budget and the coverage phase on, in-process through the WSGI app. Every
case the app answers is counted here (by operation), with the 5xx count and the slowest answer. Progress
is written to ``bench/fuzz-progress.json`` as it goes, so a run stopped by a time bound still leaves its
figures. The hostile-input catalogue (``tests/test_hostile_inputs.py``) then runs every entry once and
reports the slowest answer.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
PROGRESS = ROOT / "bench" / "fuzz-progress.json"


class Counting:
    """A pytest plugin counting every call schemathesis makes to the app."""

    def __init__(self) -> None:
        self.cases = 0
        self.by_op: Counter = Counter()
        self.status: Counter = Counter()
        self.server_errors: list[dict] = []
        self.max_ms = 0.0
        self.slowest = ""
        self.started = time.time()

    def pytest_configure(self, config) -> None:
        from schemathesis.generation.case import Case
        original = Case.call
        plugin = self

        def call(case, *args, **kwargs):
            t = time.perf_counter()
            resp = original(case, *args, **kwargs)
            ms = (time.perf_counter() - t) * 1e3
            plugin.record(case, resp.status_code, ms)
            return resp

        Case.call = call

    def record(self, case, status: int, ms: float) -> None:
        op = f"{case.method} {case.path}"
        self.cases += 1
        self.by_op[op] += 1
        self.status[status // 100 * 100] += 1
        if status >= 500 and len(self.server_errors) < 20:
            self.server_errors.append({"op": op, "status": status, "body": repr(case.body)[:300]})
        if ms > self.max_ms:
            self.max_ms, self.slowest = ms, op
        if self.cases % 500 == 0:
            self.dump()

    def summary(self) -> dict:
        return {"cases": self.cases, "server_errors_5xx": self.status.get(500, 0),
                "status_classes": {str(k): v for k, v in sorted(self.status.items())},
                "by_operation": dict(sorted(self.by_op.items())), "max_latency_ms": round(self.max_ms, 1),
                "slowest_operation": self.slowest, "seconds": round(time.time() - self.started, 1),
                "server_error_samples": self.server_errors}

    def dump(self) -> None:
        PROGRESS.write_text(json.dumps(self.summary(), indent=1))


def run_schemathesis(examples: int) -> dict:
    import pytest
    os.environ["FUZZ_EXAMPLES"] = str(examples)
    plugin = Counting()
    rc = pytest.main(["-q", "-p", "no:cacheprovider",
                      str(ROOT / "tests" / "test_fuzz_schemathesis.py")], plugins=[plugin])
    out = plugin.summary()
    out["pytest_exit_code"] = int(rc)
    plugin.dump()
    return out


def run_hostile() -> dict:
    from service.api import create_app
    from tests.test_hostile_inputs import CATALOGUE, send
    app = create_app({"TESTING": True})
    client = app.test_client()
    rows, worst, bad = [], 0.0, []
    for entry in CATALOGUE:
        t = time.perf_counter()
        resp = send(client, entry)
        ms = (time.perf_counter() - t) * 1e3
        ok = 400 <= resp.status_code < 500 and resp.content_type.startswith("application/problem+json")
        if not ok:
            bad.append({"name": entry["name"], "status": resp.status_code, "type": resp.content_type})
        worst = max(worst, ms)
        rows.append((entry["name"], resp.status_code, round(ms, 2)))
    return {"entries": len(rows), "not_4xx_problem_json": bad, "max_latency_ms": round(worst, 1),
            "slowest": sorted(rows, key=lambda r: -r[2])[:5]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=int(os.environ.get("FUZZ_EXAMPLES", "1000")))
    ap.add_argument("--hostile-only", action="store_true")
    args = ap.parse_args()
    if not args.hostile_only:
        out = run_schemathesis(args.examples)
        print(json.dumps({k: v for k, v in out.items() if k != "server_error_samples"}, indent=1))
        for e in out["server_error_samples"]:
            print("5xx:", e)
    h = run_hostile()
    print(json.dumps(h, indent=1))


if __name__ == "__main__":
    main()
