"""Health probes that answer whatever the request load: served by the gunicorn master, not by a worker.

A worker's threads all busy with long requests (the largest replays) leave a probe sent to the service's
own port waiting in the queue behind them: the liveness probe times out and a pod that is only busy is
restarted, turning load into an outage. So the master process, which serves no requests and sleeps
between its checks of the workers, answers the probes on a port of their own (``PROBE_BIND``, e.g.
``0.0.0.0:8001``; off when unset), from one thread that reads only what the master already knows:

* ``GET /healthz`` (liveness): ``200 {"status": "alive"}`` while at least one worker has shown a heartbeat
  within gunicorn's ``TIMEOUT`` (a gthread worker beats from its main loop, which a busy request thread
  does not stop; a worker that stops beating is killed and replaced by the master itself); else 503.
* ``GET /readyz`` (readiness): ``200 {"status": "ready"}`` while some worker has a thread free, ``503
  {"status": "busy"}`` while every thread of every worker is in a request (new requests would wait), and
  503 while no worker is alive.

Each worker counts its requests in flight (gunicorn's ``pre_request``/``post_request`` hooks, which every
request passes in pairs) into its slot of a small shared memory map made before the workers are forked;
the master reads the slots. Nothing here imports the app: the master stays as small as it was.

The answers are JSON with the counts (``workers``, ``alive``, ``busy_workers``, ``in_flight``,
``threads``). Any other path is a 404 problem, any other method a 405. Connections are served one at a
time with a one-second socket timeout (the port is the kubelet's, not the clients').
"""
from __future__ import annotations

import json
import mmap
import struct
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, Optional

_SLOT = struct.Struct("=i")


class InFlight:
    """Requests in flight per worker slot, in memory shared by the master and the workers it forks."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.mem = mmap.mmap(-1, _SLOT.size * slots)
        self.free = list(range(slots))
        self.lock = threading.Lock()          # (a worker's threads; each process has its own after fork)

    # -- the master ---------------------------------------------------------------------------------------
    def assign(self, worker: Any) -> None:
        """Give ``worker`` (about to be forked) a slot, zeroed; none when all are taken (it is not counted)."""
        slot = self.free.pop(0) if self.free else None
        if slot is not None:
            _SLOT.pack_into(self.mem, slot * _SLOT.size, 0)
        worker.probe_slot = slot

    def release(self, worker: Any) -> None:
        slot = getattr(worker, "probe_slot", None)
        if slot is not None:
            _SLOT.pack_into(self.mem, slot * _SLOT.size, 0)
            if slot not in self.free:
                self.free.append(slot)

    def of(self, worker: Any) -> int:
        slot = getattr(worker, "probe_slot", None)
        return 0 if slot is None else max(0, _SLOT.unpack_from(self.mem, slot * _SLOT.size)[0])

    # -- a worker -----------------------------------------------------------------------------------------
    def add(self, worker: Any, n: int) -> None:
        slot = getattr(worker, "probe_slot", None)
        if slot is None:
            return
        at = slot * _SLOT.size
        with self.lock:
            _SLOT.pack_into(self.mem, at, _SLOT.unpack_from(self.mem, at)[0] + n)


def status(workers: list[Any], counts: InFlight, threads: int, timeout: float,
           now: Optional[float] = None) -> dict[str, Any]:
    """The probes' view of a master's ``workers`` (gunicorn ``Worker`` objects, with ``tmp`` heartbeats)."""
    now = time.monotonic() if now is None else now
    alive = [w for w in workers if now - w.tmp.last_update() <= timeout]
    in_flight = [counts.of(w) for w in alive]
    busy = sum(n >= threads for n in in_flight)
    return {"workers": len(workers), "alive": len(alive), "busy_workers": busy, "in_flight": sum(in_flight),
            "threads": threads * len(alive)}


class _Handler(BaseHTTPRequestHandler):
    server_version = "probes"
    sys_version = ""
    timeout = 1.0
    protocol_version = "HTTP/1.0"

    def log_message(self, *args: Any) -> None:    # (the master's stderr is gunicorn's; probes are not logged)
        pass

    def _answer(self, code: int, body: dict[str, Any], ctype: str = "application/json") -> None:
        data = json.dumps(body, separators=(",", ":")).encode()
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        path = self.path.split("?", 1)[0]
        if path not in ("/healthz", "/readyz"):
            self._answer(404, {"type": "https://seafarers-referee.example/problems/not-found", "title": "Not Found",
                               "status": 404, "detail": "the probe port answers /healthz and /readyz"},
                         "application/problem+json")
            return
        s = self.server.probe_status()     # type: ignore[attr-defined]
        if path == "/healthz":
            self._answer(200 if s["alive"] else 503, {"status": "alive" if s["alive"] else "down", **s})
        elif not s["alive"]:
            self._answer(503, {"status": "down", **s})
        else:
            ready = s["busy_workers"] < s["alive"]
            self._answer(200 if ready else 503, {"status": "ready" if ready else "busy", **s})

    do_HEAD = do_GET

    def _refuse(self) -> None:
        self._answer(405, {"type": "https://seafarers-referee.example/problems/method-not-allowed",
                           "title": "Method Not Allowed", "status": 405, "detail": "probes are GET or HEAD"},
                     "application/problem+json")

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse


class ProbeServer(HTTPServer):
    """The probe port: one thread, one connection at a time."""

    allow_reuse_address = True

    def __init__(self, bind: str, probe_status) -> None:
        host, _, port = bind.rpartition(":")
        super().__init__((host or "0.0.0.0", int(port)), _Handler)
        self.probe_status = probe_status

    def start(self) -> threading.Thread:
        t = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.5}, name="probes", daemon=True)
        t.start()
        return t
