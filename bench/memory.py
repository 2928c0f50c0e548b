"""Memory: peak resident memory (RSS) per gunicorn worker under the largest boards and a long mixed load.

    .venv/bin/python bench/memory.py                                # 1,000 boards, 100,000 mixed requests
    .venv/bin/python bench/memory.py --boards 200 --requests 20000   # a shorter run
    .venv/bin/python bench/memory.py --compare /path/to/other/checkout  # the same load on other code after

gunicorn as deployed (``gunicorn.conf.py``: WORKERS workers x THREADS threads, default 2 x 4, no Redis)
on a free 127.0.0.1 port. Two phases, each bounded by its request count:

1. **boards**: ``--boards`` distinct maximal boards (400 hexes: every terrain and number drawn at random
   per board, seeded), one ``POST /v1/adjudicate`` each (an ``end_turn``), from 4 connections;
2. **mixed**: ``--requests`` requests from 8 connections over 96 mid-game positions (base and every
   Seafarers scenario): adjudications (70 %), derived values (10 %), legal actions (10 %), SVG pictures
   (5 %) and new games (5 %).

Every worker's RSS is sampled (``/proc/<pid>/status``) every 0.2 s; the figures are each worker's RSS at
start, after the boards, at the end, and its peak (``VmHWM``: the kernel's high-water mark, so no peak is
missed between samples), and the master's. Every answer must be a 2xx. With ``--compare``, the same run
(same bodies, same order) against the other checkout follows, so both are measured in one run.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def big_board_body(seed: int) -> str:
    """A state on a maximal board (400 hexes), drawn from ``seed``, and an ``end_turn``."""
    from tests.helpers import hexes, state
    rnd = random.Random(seed)
    board = {}
    for q in range(-11, 12):
        for r in range(-11, 12):
            if abs(q + r) <= 11:
                if rnd.random() < 0.6:
                    board[(q, r)] = (rnd.choice(["forest", "hills", "pasture", "fields", "mountains"]),
                                     rnd.choice([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
                else:
                    board[(q, r)] = "sea"
    for h in ((12, -12), (-12, 12), (0, 12)):
        board[h] = "sea"
    assert len(board) == 400
    st = state(hexes(board), scenario="seafarers", turn_flags={"rolled": True})
    return json.dumps({"state": st, "action": {"type": "end_turn", "player": 0}}, separators=(",", ":"))


def mixed_bodies() -> list[tuple[str, str]]:
    """(path, body) of the mixed phase, in a fixed order of kinds (see the module docstring)."""
    from bench.load.bench import make_bodies
    positions = [json.loads(b) for b in make_bodies(48, "midgame") + make_bodies(48, "seafarers")]
    out: list[tuple[str, str]] = []
    for i, p in enumerate(positions):
        body = json.dumps(p, separators=(",", ":"))
        state = json.dumps({"state": p["state"]}, separators=(",", ":"))
        out += [("/v1/adjudicate", body)] * 7
        out.append(("/v1/derive", state))
        out.append(("/v1/legal-actions", state))
        out.append(("/v1/render", state) if i % 2 else
                   ("/v1/games", json.dumps({"scenario": "base", "players": 4, "seed": i})))
    return out


def rss(pid: int) -> tuple[int, int]:
    """(VmRSS, VmHWM) of ``pid`` in kB."""
    cur = peak = 0
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                cur = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    except OSError:
        pass
    return cur, peak


class Server:
    def __init__(self, root: Path, log) -> None:
        self.port = free_port()
        env = {**os.environ, "BIND": f"127.0.0.1:{self.port}", "LOG_LEVEL": "warning"}
        env.pop("REDIS_URL", None)
        env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        self.proc = subprocess.Popen([str(GUNICORN), "-c", "gunicorn.conf.py", "service.api:create_app()"],
                                     cwd=root, env=env, stdout=log, stderr=log)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
                c.request("GET", "/healthz")
                if c.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError("gunicorn did not start")
        time.sleep(1.0)                                     # every worker up

    def workers(self) -> list[int]:
        try:
            return [int(x) for x in
                    Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()]
        except OSError:
            return []

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def post_all(port: int, jobs: list[tuple[str, str]], connections: int) -> int:
    """POST every job (from ``connections`` threads, in turn); the number of answers that were not 2xx."""
    bad = [0]
    nxt = [0]
    lock = threading.Lock()

    def worker() -> None:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while True:
            with lock:
                i = nxt[0]
                nxt[0] += 1
            if i >= len(jobs):
                break
            path, body = jobs[i]
            try:
                c.request("POST", path, body=body, headers={"Content-Type": "application/json"})
                r = c.getresponse()
                r.read()
                if not 200 <= r.status < 300:
                    with lock:
                        bad[0] += 1
            except OSError:
                with lock:
                    bad[0] += 1
                c.close()
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        c.close()

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return bad[0]


def run(root: Path, boards: list[str], mixed: list[tuple[str, str]], requests: int, log) -> dict:
    srv = Server(root, log)
    try:
        pids = srv.workers()
        start = {p: rss(p)[0] for p in pids}
        samples: dict[int, int] = {p: 0 for p in pids}
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                for p in pids:
                    samples[p] = max(samples[p], rss(p)[0])
                time.sleep(0.2)

        th = threading.Thread(target=sample, daemon=True)
        th.start()
        t0 = time.perf_counter()
        bad = post_all(srv.port, [("/v1/adjudicate", b) for b in boards], 4)
        t_boards = time.perf_counter() - t0
        after_boards = {p: rss(p)[0] for p in pids}
        jobs = [mixed[i % len(mixed)] for i in range(requests)]
        t0 = time.perf_counter()
        bad += post_all(srv.port, jobs, 8)
        t_mixed = time.perf_counter() - t0
        stop.set()
        th.join()
        end = {p: rss(p) for p in pids}
        master = rss(srv.proc.pid)
        return {
            "root": str(root), "workers": len(pids), "failed": bad,
            "boards_s": round(t_boards, 1), "mixed_s": round(t_mixed, 1),
            "per_worker_mb": [{"start": round(start[p] / 1024, 1), "after_boards": round(after_boards[p] / 1024, 1),
                               "end": round(end[p][0] / 1024, 1), "peak": round(max(end[p][1], samples[p]) / 1024, 1)}
                              for p in pids],
            "master_mb": round(master[0] / 1024, 1),
        }
    finally:
        srv.stop()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=1000)
    ap.add_argument("--requests", type=int, default=100_000)
    ap.add_argument("--compare", help="another checkout of the service, run the same way after this one")
    ap.add_argument("--json")
    args = ap.parse_args()
    print(f"load: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min); "
          f"WORKERS={os.environ.get('WORKERS', '2')} THREADS={os.environ.get('THREADS', '4')}", flush=True)
    boards = [big_board_body(s) for s in range(1, args.boards + 1)]
    mixed = mixed_bodies()
    rnd = random.Random(16)
    rnd.shuffle(mixed)
    results = []
    with tempfile.TemporaryFile() as log:
        for root in [ROOT] + ([Path(args.compare).resolve()] if args.compare else []):
            res = run(root, boards, mixed, args.requests, log)
            results.append(res)
            peak = max(w["peak"] for w in res["per_worker_mb"])
            print(f"{res['root']}: {args.boards} boards in {res['boards_s']} s, {args.requests} mixed in "
                  f"{res['mixed_s']} s, answers not 2xx: {res['failed']}", flush=True)
            for i, w in enumerate(res["per_worker_mb"]):
                print(f"  worker {i}: start {w['start']} MB, after the boards {w['after_boards']} MB, "
                      f"end {w['end']} MB, peak {w['peak']} MB")
            print(f"  master {res['master_mb']} MB; peak per worker {peak} MB; "
                  f"pod estimate (master + workers at peak) {res['master_mb'] + peak * res['workers']:.0f} MB")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
