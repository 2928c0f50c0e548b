"""Slow clients against the service, with and without the proxy: probe latencies under attack.

    .venv/bin/python bench/slow_clients.py                  # 16 slow-body + 16 slow-header, 20 s per setup
    .venv/bin/python bench/slow_clients.py --body 8 --header 7 --seconds 10

Two setups are started side by side on loopback, as deployed (``WORKERS=2``, ``THREADS=4``):

* ``direct``: gunicorn alone (``gunicorn.conf.py``), what ``bin/serve`` runs;
* ``proxied``: ``bin/start-with-proxy`` (nginx in front of gunicorn on a unix socket), the container's
  command (needs ``nginx`` on the PATH: ``apt-get install nginx``).

For each, a quiet phase then an attack phase: ``--body`` connections send their headers with
``Content-Length: 100000`` and then one byte of body a second; ``--header`` connections send a request
line and then one byte of header a second (a connection the server closes is opened again at once).
Meanwhile ``GET /healthz`` and a real ``POST /v1/adjudicate`` are timed every 0.5 s, each with a 5 s
timeout (a timeout counts as 5 s). Prints, per setup and phase, the median and worst latency of each
probe and how many timed out; the issue's bar is "no probe delayed by more than a second".
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
VENV_BIN = Path(sys.executable).parent
PROBE_TIMEOUT = 5.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_up(port: int, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            c.request("GET", "/healthz")
            if c.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing answers on port {port}")


def start(setup: str, port: int, run_dir: str) -> subprocess.Popen:
    env = {**os.environ, "WORKERS": "2", "THREADS": "4", "LOG_LEVEL": "warning", "PATH":
           f"{VENV_BIN}:{os.environ.get('PATH', '')}"}
    env.pop("REDIS_URL", None)
    if setup == "direct":
        cmd = [str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py", "service.api:create_app()"]
        env["BIND"] = f"127.0.0.1:{port}"
    else:
        cmd = [str(ROOT / "bin" / "start-with-proxy")]
        env.update(RUN_DIR=run_dir, LISTEN=str(port))
    return subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


class Attack:
    """``body`` slow-body and ``header`` slow-header connections, kept open until :meth:`stop`."""

    def __init__(self, port: int, body: int, header: int) -> None:
        self.port, self.stopping = port, threading.Event()
        self.reopened = 0
        self.threads = [threading.Thread(target=self._slow, args=(kind,), daemon=True)
                        for kind in ["body"] * body + ["header"] * header]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def stop(self) -> None:
        self.stopping.set()
        for t in self.threads:
            t.join(3)

    def _slow(self, kind: str) -> None:
        while not self.stopping.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", self.port), timeout=2)
            except OSError:
                time.sleep(0.2)
                continue
            try:
                if kind == "body":
                    s.sendall(b"POST /v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                              b"Content-Length: 100000\r\n\r\n")
                    drip = b" "
                else:
                    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
                    drip = b"X"
                while not self.stopping.wait(1.0):
                    s.sendall(drip)
            except OSError:
                self.reopened += 1
            finally:
                s.close()


def probe(port: int, method: str, path: str, body: bytes | None) -> float:
    t = time.perf_counter()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=PROBE_TIMEOUT)
        c.request(method, path, body=body, headers={"Content-Type": "application/json"} if body else {})
        r = c.getresponse()
        r.read()
        c.close()
        if r.status != 200:
            return PROBE_TIMEOUT
    except OSError:
        return PROBE_TIMEOUT
    return time.perf_counter() - t


def phase(port: int, seconds: float, body: bytes) -> dict:
    health, judge = [], []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t0 = time.monotonic()
        health.append(probe(port, "GET", "/healthz", None))
        judge.append(probe(port, "POST", "/v1/adjudicate", body))
        time.sleep(max(0.0, 0.5 - (time.monotonic() - t0)))

    def summary(xs: list[float]) -> dict:
        return {"probes": len(xs), "median_ms": round(statistics.median(xs) * 1000, 1),
                "worst_ms": round(max(xs) * 1000, 1), "timed_out": sum(x >= PROBE_TIMEOUT for x in xs),
                "over_1s": sum(x > 1.0 for x in xs)}
    return {"healthz": summary(health), "adjudicate": summary(judge)}


def adjudication_body() -> bytes:
    from service.api.codec import dump_state
    from service.engine.scenarios import get_scenario
    state = dump_state(get_scenario("base").new_game(3, 7))
    return json.dumps({"state": state, "action": {"type": "build_settlement", "player": 0,
                                                  "node": [0, 0, "N"]}}).encode()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--body", type=int, default=16, help="slow-body connections")
    ap.add_argument("--header", type=int, default=16, help="slow-header connections")
    ap.add_argument("--seconds", type=float, default=20.0, help="length of the attack phase")
    ap.add_argument("--quiet-seconds", type=float, default=3.0)
    ap.add_argument("--setups", default="direct,proxied")
    ap.add_argument("--json")
    args = ap.parse_args()
    body = adjudication_body()
    results = {}
    for setup in args.setups.split(","):
        if setup == "proxied" and not shutil.which("nginx"):
            results[setup] = {"skipped": "nginx is not installed"}
            continue
        port, run_dir = free_port(), tempfile.mkdtemp(prefix="seafarers-bench-")
        os.chmod(run_dir, 0o755)   # (run as root, nginx's workers are "nobody": they must reach the socket)
        proc = start(setup, port, run_dir)
        try:
            wait_up(port)
            quiet = phase(port, args.quiet_seconds, body)
            attack = Attack(port, args.body, args.header)
            attack.start()
            time.sleep(1.5)   # the connections are open and dripping
            under = phase(port, args.seconds, body)
            attack.stop()
            results[setup] = {"quiet": quiet, "under_attack": under, "attack_reconnects": attack.reopened}
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
            shutil.rmtree(run_dir, ignore_errors=True)
    out = {"slow_body": args.body, "slow_header": args.header, "attack_s": args.seconds, "results": results}
    print(json.dumps(out, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
