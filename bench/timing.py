"""Timing helpers shared by the benchmarks, and the separate environment the races run catanatron in.

Figures, not assertions: machines are noisy, so each helper reports the best (or the mean over enough
repetitions) rather than a single run. Standard library only: the catanatron side of a race imports
this module too, in its own interpreter.
"""
from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: catanatron's virtual environment (made on first use, never a project dependency).
RACE_VENV = HERE / ".venv-race"
RACE_PY = RACE_VENV / "bin" / "python"


def per_call(fn, n: int, clock=time.perf_counter) -> float:
    """Microseconds per call of ``fn``: the best of five rounds of ``n`` calls, after one warm call, timed
    by ``clock`` (wall clock by default; ``time.process_time`` for this process's CPU time)."""
    fn()
    best = float("inf")
    for _ in range(5):
        t = clock()
        for _ in range(n):
            fn()
        best = min(best, (clock() - t) / n)
    return best * 1e6


def ensure_race_env() -> bool:
    """Make :data:`RACE_VENV` with catanatron installed, unless it is there already; False if pip fails."""
    if RACE_PY.exists():
        r = subprocess.run([str(RACE_PY), "-c", "import catanatron"], capture_output=True)
        if r.returncode == 0:
            return True
    subprocess.run([sys.executable, "-m", "venv", str(RACE_VENV)], check=True)
    r = subprocess.run([str(RACE_PY), "-m", "pip", "install", "-q", "catanatron"], capture_output=True, text=True)
    if r.returncode != 0:
        print("catanatron could not be installed:", r.stderr.strip().splitlines()[-1:] or r.returncode)
        return False
    return True
