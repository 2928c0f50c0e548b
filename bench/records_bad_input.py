"""Bad records in bounded time and memory: each case run in a fresh process, its wall time and peak memory.

    .venv/bin/python bench/records_bad_input.py

Cases: a 100 MB log file (refused from its size), a 15 MB log of text lines only (read, then refused: no game),
a log of 25,000 rolls (refused at the line of the 20,001st action), a truncated save, a save of an unknown
model version. Each prints the status the command line reports and the figures.
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "fixtures" / "records" / "jsettlers2"


def run(path: Path) -> tuple[int, float, float, str]:
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "service.records", "import", str(path)], cwd=ROOT,
                       capture_output=True, text=True)
    dt = time.perf_counter() - t
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    err = (p.stderr.strip().splitlines() or [""])[-1]
    status = json.loads(err).get("status") if err.startswith("{") else p.returncode
    return p.returncode, dt, peak, f"{status}: {json.loads(err).get('detail', '')[:90]}" if err.startswith("{") else err


def main() -> None:
    d = Path(tempfile.mkdtemp())
    huge = d / "huge.soclog"
    with open(huge, "wb") as f:
        f.truncate(100 * 1024 * 1024)
    head = (FIX / "has-timestamps.soclog").read_text().split("\n")
    text = d / "text.soclog"
    with open(text, "w") as f:
        f.write("\n".join(head[:8]) + "\n")
        line = "0:00.100:all:SOCGameServerText:game=g|text=" + "x" * 200 + "\n"
        f.write(line * (15 * 1024 * 1024 // len(line)))
    start = next(i for i, l in enumerate(head) if "SOCRollDicePrompt" in l)
    rolls = d / "rolls.soclog"
    with open(rolls, "w") as f:
        f.write("\n".join(head[:start]) + "\n")
        f.write("0:29.756:all:SOCDiceResult:game=g|param=8\n" * 25_000)
    save = (FIX / "tradestats.game.json").read_text()
    trunc = d / "truncated.game.json"
    trunc.write_text(save[: len(save) // 2])
    unknown = d / "unknown.game.json"
    s = json.loads(save)
    s["modelVersion"] = 9999
    unknown.write_text(json.dumps(s))
    print(f"{'case':28} {'exit':>4} {'seconds':>8} {'peak MB (max so far)':>21}  answer")
    for name, p in (("100 MB file", huge), ("15 MB of text lines", text), ("25,000 rolls", rolls),
                    ("truncated save", trunc), ("unknown save version", unknown)):
        code, dt, peak, what = run(p)
        print(f"{name:28} {code:>4} {dt:8.2f} {peak:21.0f}  {what}")
    for p in d.iterdir():
        os.remove(p)
    d.rmdir()


if __name__ == "__main__":
    main()
