"""The mutation property test with a long budget: real positions of every scenario, one leaf or container
changed at a time, against every endpoint that takes a body (``tests/test_mutation_property.py``).

    .venv/bin/python bench/mutation.py                    # 20,000 cases, random
    .venv/bin/python bench/mutation.py --examples 2000

Unlike the default test run it does not stop at the first failure: it counts every case, every 5xx and
every 4xx that is not a problem naming the field, and prints them with the first failures (up to 50).
Counts are written to ``--stats`` as it goes (a run stopped by a time bound still leaves its figures).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=20_000)
    ap.add_argument("--stats", default=str(ROOT / "bench" / "mutation-progress.json"))
    args = ap.parse_args()
    os.environ["MUTATION_EXAMPLES"] = str(args.examples)
    os.environ["MUTATION_STATS"] = args.stats
    os.environ.setdefault("LOG_LEVEL", "critical")
    sys.path.insert(0, str(ROOT))
    import pytest
    t = time.time()
    code = pytest.main(["-q", "-p", "no:cacheprovider", "-o", "addopts=", "--log-level=CRITICAL",
                        str(ROOT / "tests" / "test_mutation_property.py"), "-k", "never_a_server_error"])
    stats = json.loads(Path(args.stats).read_text()) if Path(args.stats).exists() else {}
    stats["wall_s"] = round(time.time() - t, 1)
    print(json.dumps(stats, indent=1))
    sys.exit(1 if code or stats.get("server_errors") or stats.get("bad_problems") else 0)


if __name__ == "__main__":
    main()
