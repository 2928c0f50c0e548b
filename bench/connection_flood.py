"""One client opening thousands of slow-body connections against the container's command (nginx in front
of gunicorn): do the probes answer, and how much memory does nginx take?

    .venv/bin/python bench/connection_flood.py                       # 4,500 connections, this checkout
    .venv/bin/python bench/connection_flood.py --compare DIR         # the same against another checkout after
    .venv/bin/python bench/connection_flood.py --connections 1500 --seconds 15

``bin/start-with-proxy`` is started (``WORKERS=2``, ``THREADS=4``, ``PROBE_BIND`` on a free port; needs
``nginx`` on the PATH). From one thread and one address (127.0.0.2; the probes come from 127.0.0.1, as
the kubelet's come from the node, not from the client), ``--connections`` connections each send a
request's headers with ``Content-Length: 1000000`` and half of ``--sent`` body bytes, then one byte
a second (a connection the server closes is opened again). Meanwhile ``GET /healthz`` through nginx and
on the probe port (where the checkout has one) are timed every 0.25 s with a 2 s timeout (the kubelet's),
and nginx's resident memory (every nginx process, ``/proc/<pid>/status`` VmRSS) is sampled. Prints, per
checkout, the connections the client held open, the probes answered, and nginx's peak memory.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_rss_kb(root_pid: int) -> int:
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            comm = Path(f"/proc/{pid}/comm").read_text().strip()
            if comm != "nginx":
                continue
            if os.getsid(int(pid)) != os.getsid(root_pid):
                continue
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except (OSError, ProcessLookupError):
            continue
    return total


def get(port: int, path: str, timeout: float = 2.0) -> float | None:
    t = time.perf_counter()
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
        c.request("GET", path)
        r = c.getresponse()
        r.read()
        c.close()
        return time.perf_counter() - t if r.status == 200 else None
    except OSError:
        return None


class Flood:
    """``n`` half-sent bodies from one thread, kept open (and re-opened) until :meth:`stop`."""

    HEAD = (b"POST /v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000000\r\n\r\n")

    def __init__(self, port: int, n: int, sent: int) -> None:
        self.port, self.n, self.first = port, n, self.HEAD + b" " * sent
        self.stopping = threading.Event()
        self.open = 0
        self.refused = 0
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(10)

    def _connect(self, sel: selectors.BaseSelector) -> None:
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=1, source_address=("127.0.0.2", 0))
            s.setblocking(False)
            try:
                s.send(self.first)
            except BlockingIOError:
                pass
            sel.register(s, selectors.EVENT_READ)
        except OSError:
            self.refused += 1

    def _run(self) -> None:
        sel = selectors.DefaultSelector()
        last_drip = time.monotonic()
        while not self.stopping.is_set():
            for _ in range(min(200, self.n - len(sel.get_map()))):
                self._connect(sel)
            self.open = len(sel.get_map())
            for key, _ in sel.select(0.05):     # an answer or a close: the server let it go; open another
                s = key.fileobj
                sel.unregister(s)
                s.close()
            if time.monotonic() - last_drip >= 1.0:
                last_drip = time.monotonic()
                for key in list(sel.get_map().values()):
                    try:
                        key.fileobj.send(b" ")
                    except OSError:
                        sel.unregister(key.fileobj)
                        key.fileobj.close()
        for key in list(sel.get_map().values()):
            key.fileobj.close()


def run(root: Path, connections: int, sent: int, seconds: float) -> dict:
    port, probe = free_port(), free_port()
    run_dir = tempfile.mkdtemp(prefix="seafarers-flood-")
    os.chmod(run_dir, 0o755)
    env = {**os.environ, "WORKERS": "2", "THREADS": "4", "LOG_LEVEL": "warning", "RUN_DIR": run_dir,
           "LISTEN": str(port), "PROBE_BIND": f"127.0.0.1:{probe}", "PATH": f"{VENV_BIN}:{os.environ.get('PATH', '')}"}
    env.pop("REDIS_URL", None)
    proc = subprocess.Popen([str(root / "bin" / "start-with-proxy")], cwd=root, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 40
        while get(port, "/healthz") is None:
            if time.monotonic() > deadline:
                raise RuntimeError("the service did not start")
            time.sleep(0.3)
        has_probe_port = get(probe, "/healthz") is not None
        idle = nginx_rss_kb(proc.pid)
        flood = Flood(port, connections, sent)
        flood.start()
        time.sleep(3.0)            # the connections are open
        proxied, direct, peak, held = [], [], idle, 0
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            proxied.append(get(port, "/healthz"))
            if has_probe_port:
                direct.append(get(probe, "/healthz"))
            peak = max(peak, nginx_rss_kb(proc.pid))
            held = max(held, flood.open)
            time.sleep(0.25)
        flood.stop()

        def answered(xs: list) -> str:
            ok = [x for x in xs if x is not None]
            return f"{len(ok)} of {len(xs)}" + (f" (worst {max(ok) * 1000:.0f} ms)" if ok else "")
        return {"root": str(root), "connections_held": held, "connects_refused": flood.refused,
                "healthz_through_nginx": answered(proxied),
                "healthz_on_probe_port": answered(direct) if has_probe_port else "no probe port",
                "nginx_idle_mb": round(idle / 1024, 1), "nginx_peak_mb": round(peak / 1024, 1)}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(run_dir, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--connections", type=int, default=4500)
    ap.add_argument("--sent", type=int, default=300_000, help="body bytes each connection sends at once")
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--compare")
    ap.add_argument("--json")
    args = ap.parse_args()
    if not shutil.which("nginx"):
        raise SystemExit("nginx is not installed (apt-get install nginx)")
    out = [run(r, args.connections, args.sent, args.seconds)
           for r in [ROOT] + ([Path(args.compare).resolve()] if args.compare else [])]
    print(json.dumps(out, indent=1))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
