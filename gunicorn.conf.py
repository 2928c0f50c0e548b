"""gunicorn settings, each from the environment with a default (used by bin/serve and the container).

BIND (127.0.0.1:8000), WORKERS (2), THREADS (4), WORKER_CLASS (gthread; ``gevent`` after ``pip install gevent``
took about 13 % less CPU per adjudication in the load benchmark, but a long request such as a big replay
then holds up every other request of its worker), TIMEOUT (30 s), GRACEFUL_TIMEOUT (20 s), KEEPALIVE (5 s),
MAX_REQUESTS (0 = never recycle a worker) with MAX_REQUESTS_JITTER, ACCESS_LOG (unset: the app's own
JSON request log is enough; "-" for stdout), LOG_LEVEL (info).

STATE_KEY (or STATE_KEY_FILE) keys the state tags (``service/api/integrity.py``); without either (or with a
file that cannot be read), a random key is made here, in the master, so that every worker it forks holds
the same one and recognises the states its siblings returned.

PROBE_BIND (unset: off; the container sets ``0.0.0.0:8001``) is where the master answers the health probes
``/healthz`` and ``/readyz`` itself, whatever the load on the workers (``service/probes.py``).

PROMETHEUS_MULTIPROC_DIR, when set, turns on prometheus_client's multiprocess mode so /metrics adds up
every worker: the directory is emptied when gunicorn starts and a worker's files are marked dead when it
exits.
"""
import json
import os
import secrets
import shutil
import sys

bind = os.environ.get("BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WORKERS", "2"))
threads = int(os.environ.get("THREADS", "4"))
worker_class = os.environ.get("WORKER_CLASS", "gthread")
timeout = int(os.environ.get("TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GRACEFUL_TIMEOUT", "20"))
keepalive = int(os.environ.get("KEEPALIVE", "5"))
max_requests = int(os.environ.get("MAX_REQUESTS", "0"))
max_requests_jitter = int(os.environ.get("MAX_REQUESTS_JITTER", "0"))
accesslog = os.environ.get("ACCESS_LOG") or None
loglevel = os.environ.get("LOG_LEVEL", "info")
# Worker heartbeats go to a tmpfs when there is one (a container's root file system may be read-only).
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
# No control socket (gunicorn 25.1+ would make one in $XDG_RUNTIME_DIR or $HOME/.gunicorn/, shared by every
# instance on a host and unwritable in the image, whose user has no home): nothing here uses gunicornc.
control_socket_disable = True
# Bodies are limited by the app (MAX_BODY_BYTES, answered with problem+json); headers by gunicorn.
limit_request_line = 8190
limit_request_fields = 100

_MULTIPROC = os.environ.get("PROMETHEUS_MULTIPROC_DIR")
_PROBE_BIND = os.environ.get("PROBE_BIND") or None


def _state_key_file() -> bytes:
    try:
        with open(os.environ.get("STATE_KEY_FILE") or os.devnull, "rb") as f:
            return f.read().strip()
    except OSError:
        return b""


# One state-tag key for the workers of this server (read before they are forked; see the docstring).
if not os.environ.get("STATE_KEY") and not _state_key_file():
    os.environ["STATE_KEY"] = secrets.token_hex(32)


# Errors gunicorn answers itself, before the app sees a request (a malformed request line or header, a
# bad chunk size, "Content-Length: -1"), as application/problem+json like the app's own: gunicorn writes
# them with ``gunicorn.util.write_error``, which is replaced here (same arguments, same socket write).
# Behind the proxy (bin/start-with-proxy) nginx refuses most such requests first, in the same form.
_PROBLEM_KINDS = {400: "malformed-request", 403: "forbidden", 414: "uri-too-long", 417: "expectation-failed",
                  431: "header-too-large", 500: "internal", 501: "not-implemented"}


def write_problem(sock, status_int, reason, mesg):
    from gunicorn import util
    body = json.dumps({
        "type": "https://seafarers-referee.example/problems/" + _PROBLEM_KINDS.get(int(status_int), "error"),
        "title": str(reason), "status": int(status_int),
        "detail": f"{str(mesg)[:500] or reason} (refused by the HTTP server)"}).encode()
    head = (f"HTTP/1.1 {status_int} {reason}\r\nConnection: close\r\n"
            f"Content-Type: application/problem+json\r\nContent-Length: {len(body)}\r\n\r\n").encode("latin-1")
    util.write_nonblock(sock, head + body)


def _problem_errors():
    from gunicorn import util
    util.write_error = write_problem


_problem_errors()


def on_starting(server):  # noqa: ARG001  (gunicorn hook)
    if _MULTIPROC:  # empty it (it may be a mount point, so keep the directory itself)
        os.makedirs(_MULTIPROC, exist_ok=True)
        for name in os.listdir(_MULTIPROC):
            path = os.path.join(_MULTIPROC, name)
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else os.remove(path)


def child_exit(server, worker):  # noqa: ARG001  (gunicorn hook)
    if _MULTIPROC:
        from prometheus_client import multiprocess
        multiprocess.mark_process_dead(worker.pid)
    if _IN_FLIGHT is not None:
        _IN_FLIGHT.release(worker)


# -- the health probes, answered by the master (service/probes.py) ----------------------------------------
_IN_FLIGHT = None
_PROBES = None
if _PROBE_BIND:
    import importlib
    _HERE = os.path.dirname(os.path.abspath(__file__))
    if os.path.basename(_HERE) == "contract":      # the copy inside the installed package (seafarers_referee/contract/)
        _PACKAGE = os.path.basename(os.path.dirname(_HERE))
    else:                                           # a checkout: the folder service/ beside this file
        _PACKAGE = "service"
        sys.path.insert(0, _HERE)
    _probes = importlib.import_module(_PACKAGE + ".probes")    # (no app import: stdlib only)
    InFlight, ProbeServer, _probe_status = _probes.InFlight, _probes.ProbeServer, _probes.status
    _IN_FLIGHT = InFlight(max(64, 4 * workers))


def when_ready(server):
    global _PROBES
    if _IN_FLIGHT is None:
        return

    def current():
        for _ in range(5):       # (the arbiter may change its table of workers meanwhile)
            try:
                found = list(server.WORKERS.values())
                break
            except RuntimeError:
                continue
        else:
            found = []
        return _probe_status(found, _IN_FLIGHT, server.cfg.threads, server.timeout)
    _PROBES = ProbeServer(_PROBE_BIND, current)
    _PROBES.start()
    server.log.info("health probes on %s (/healthz, /readyz)", _PROBE_BIND)


def pre_fork(server, worker):  # noqa: ARG001  (gunicorn hook)
    if _IN_FLIGHT is not None:
        _IN_FLIGHT.assign(worker)


def post_fork(server, worker):  # noqa: ARG001  (gunicorn hook)
    if _PROBES is not None:       # the probe port is the master's: a worker does not hold it open
        _PROBES.socket.close()


def pre_request(worker, req):  # noqa: ARG001  (gunicorn hook)
    if _IN_FLIGHT is not None:
        _IN_FLIGHT.add(worker, 1)


def post_request(worker, req, environ, resp):  # noqa: ARG001  (gunicorn hook)
    if _IN_FLIGHT is not None:
        _IN_FLIGHT.add(worker, -1)


def on_exit(server):  # noqa: ARG001  (gunicorn hook)
    if _PROBES is not None:
        _PROBES.server_close()
