"""Where a refused position points: one-field mutations of real positions of every scenario posted to
``/v1/adjudicate`` (``tests/pointer_sweep.py``), counting the 422 answers none of whose pointers names the
field changed (a broken sum names both sides).

    .venv/bin/python bench/pointer_sweep.py --cases 20000 --seed 1
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    os.environ.setdefault("LOG_LEVEL", "critical")
    from tests.pointer_sweep import sweep
    t = time.time()
    total, refused, missed, misses = sweep(args.cases, args.seed, keep=100_000)
    kinds = collections.Counter(re.sub(r"/\d+", "/N", m["changed"]) + " -> " +
                                re.sub(r"/\d+", "/N", (m["pointers"] or ["-"])[0]) for m in misses)
    print(json.dumps({"cases": total, "refused": refused, "pointed_elsewhere": missed,
                      "wall_s": round(time.time() - t, 1), "by_kind": dict(kinds.most_common(30)),
                      "first": misses[:10]}, indent=1))
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
