"""The load benchmark runs end to end (a short, bounded run with the Python load generator): every
configuration answers without a failed request and the report carries the figures the issue asks for."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_load_benchmark_reports_every_configuration():
    out = subprocess.run(
        [sys.executable, "bench/load/bench.py", "--duration", "1", "--warmup", "1", "--rounds", "1", "--boards", "4",
         "--generator", "python", "--max-requests", "200", "--tagged"],
        cwd=ROOT, capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-2000:]
    rows = {m.group(1): m.group(2).split() for m in re.finditer(r"^(floor|no Redis|tagged|Redis up|Redis down)\s+(\d.*)$",
                                                                  out.stdout, re.M)}
    assert {"floor", "no Redis", "tagged"} <= set(rows), out.stdout
    for name, cols in rows.items():
        assert float(cols[0]) > 0 and cols[1].endswith("%") and cols[6] == "0", (name, cols)  # req/s, of floor, failed
    assert "adjudications/s on 2 cores" in out.stdout and "x the floor" in out.stdout
    if "Redis down" in rows:
        assert "Redis down keeps" in out.stdout
