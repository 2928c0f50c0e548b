"""gunicorn settings, each from the environment with a default (used by bin/serve and the container).

BIND (127.0.0.1:8000), WORKERS (2), THREADS (4), WORKER_CLASS (gthread; ``gevent`` after ``pip install gevent``
took about 13 % less CPU per adjudication in the load benchmark, but a long request such as a big replay
then holds up every other request of its worker), TIMEOUT (30 s), GRACEFUL_TIMEOUT (20 s), KEEPALIVE (5 s),
MAX_REQUESTS (0 = never recycle a worker) with MAX_REQUESTS_JITTER, ACCESS_LOG (unset: the app's own
JSON request log is enough; "-" for stdout), LOG_LEVEL (info).

PROMETHEUS_MULTIPROC_DIR, when set, turns on prometheus_client's multiprocess mode so /metrics adds up
every worker: the directory is emptied when gunicorn starts and a worker's files are marked dead when it
exits.
"""
import os
import shutil

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
