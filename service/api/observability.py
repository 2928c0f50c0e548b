"""Observability: request ids, structured JSON logs, Prometheus metrics, ``/readyz`` and ``/metrics``.

``init_app(app)`` hooks everything into one Flask app:

* **Request id**: ``X-Request-ID`` is accepted when it looks like an id (1-128 characters of
  ``A-Z a-z 0-9 . _ : -``), otherwise a fresh one is made (32 hex digits: 16 drawn once per process and
  a counter, so making one costs no random draw); it is echoed in the response header and carried by
  every log line of the request.
* **Logs**: one JSON object per line on stderr (``ts``, ``level``, ``logger``, ``msg``, ``request_id`` and
  any extra fields), for the ``seafarers`` loggers; one ``request`` line per request (probes and
  ``/metrics`` at DEBUG, the rest at INFO). ``LOG_LEVEL`` sets the level (``info``).
* **Metrics** (a ``CollectorRegistry`` per app, so several apps in one process do not clash):
  ``seafarers_http_requests_total{endpoint,method,status,outcome}``,
  ``seafarers_http_request_duration_seconds{endpoint,method,outcome}`` (histogram),
  ``seafarers_graph_cache_lookups_total{level}`` with level ``l1``/``l2``/``computed``,
  ``seafarers_graph_cache_corrupt_entries_total``, ``seafarers_redis_errors_total``,
  ``seafarers_redis_skipped_total`` (calls the open circuit breaker saved) and
  ``seafarers_redis_up`` (1 up, 0 down, absent without Redis; refreshed on each scrape).
* **No lock per request**: each thread counts into its own tally, added to the Prometheus series (whose
  every change takes a lock: one for the whole process in multiprocess mode) once a second by a
  background thread and before every scrape; the access line is written in one piece to stderr, without
  the logging module's record and handler lock, whenever only the handler set up here would receive it.
  Together they cost a few percent of an adjudication (``bench/adjudicate.py``: ``observability_share``).
* **Bounded labels**: ``endpoint`` is a route's rule or ``unmatched``, ``method`` one of
  :data:`KNOWN_METHODS` or ``other``, ``status`` an HTTP status code.
* **Several gunicorn workers**: each worker is its own process with its own counters, and a scrape
  reaches one worker. Set ``PROMETHEUS_MULTIPROC_DIR`` to an empty writable directory (the container
  image does) and ``/metrics`` aggregates all workers through prometheus_client's multiprocess mode;
  ``gunicorn.conf.py`` empties the directory at start and marks exited workers dead. Without it the
  figures are per worker.
"""
from __future__ import annotations

import atexit
import itertools
import json
import logging
import os
import re
import sys
import threading
import time
import weakref
from bisect import bisect_left
from itertools import islice
from typing import Any, Optional

import orjson

from flask import Blueprint, Flask, Response, current_app, g, has_request_context, request
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REQUEST_ID_HEADER = "X-Request-ID"
_ID_RE = re.compile(r"^[A-Za-z0-9._:\-]{1,128}$")
QUIET_ENDPOINTS = frozenset({"/healthz", "/readyz", "/metrics"})
LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
CACHE_LEVEL = {"l1_hit": "l1", "l2_hit": "l2", "miss": "computed"}
#: Methods kept as label values; any other (a client may send any token) is counted as ``other``, and a
#: path no route matches as the endpoint ``unmatched``, so the number of series stays bounded.
KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

bp = Blueprint("ops", __name__)
access_log = logging.getLogger("seafarers.access")

# -- request ids ---------------------------------------------------------------------------------------


def request_id() -> Optional[str]:
    """The current request's id (None outside a request)."""
    if has_request_context():
        return g.get("request_id")
    return None


class _Ids:
    """Fresh request ids: 16 random hex digits per process, then a counter (32 hex digits in all): unique
    without a random draw per request (``itertools.count`` needs no lock). Drawn again in a forked child."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.prefix = os.urandom(8).hex()
        self.counter = itertools.count(1)

    def __call__(self) -> str:
        return f"{self.prefix}{next(self.counter) & 0xFFFFFFFFFFFFFFFF:016x}"


new_request_id = _Ids()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=new_request_id.reset)


def _incoming_id() -> str:
    rid = request.headers.get(REQUEST_ID_HEADER)
    return rid if rid and _ID_RE.match(rid) else new_request_id()


# -- JSON logs -------------------------------------------------------------------------------------------

_STD_ATTRS = frozenset(vars(logging.LogRecord("x", 0, "x", 0, "x", None, None))) | {"message", "asctime"}
_INIT_ATTRS = len(vars(logging.LogRecord("x", 0, "x", 0, "x", None, None)))   # set by LogRecord.__init__


class JsonFormatter(logging.Formatter):
    """One JSON object per record; ``extra={...}`` fields are added as keys."""

    _second: tuple[int, str] = (-1, "")   # the last whole second formatted, and its text

    def _timestamp(self, record: logging.LogRecord) -> str:
        sec = int(record.created)
        last = self._second
        if last[0] != sec:
            last = self._second = (sec, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)))
        return f"{last[1]}.{int(record.msecs):03d}Z"

    def format(self, record: logging.LogRecord) -> str:
        d = record.__dict__
        out: dict[str, Any] = {
            "ts": self._timestamp(record),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        rid = d.get("request_id") or request_id()
        if rid:
            out["request_id"] = rid
        # extra fields come after the attributes every record is made with: look at those only
        for k, v in islice(d.items(), _INIT_ATTRS, None) if len(d) > _INIT_ATTRS else ():
            if k not in _STD_ATTRS and k not in out and not k.startswith("_"):
                out[k] = v if isinstance(v, (str, int, float, bool, type(None))) else str(v)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        try:
            return orjson.dumps(out).decode()
        except TypeError:   # an int past 64 bits, say
            return json.dumps(out, separators=(",", ":"))


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time (test runners swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def configure_logging() -> None:
    """Send the ``seafarers`` loggers to stderr as JSON lines (once per process)."""
    root = logging.getLogger("seafarers")
    if any(isinstance(h, _StderrHandler) for h in root.handlers):
        return
    h = _StderrHandler(sys.stderr)
    h.setFormatter(JsonFormatter())
    root.addHandler(h)
    root.setLevel(os.environ.get("LOG_LEVEL", "info").upper())


# -- metrics ---------------------------------------------------------------------------------------------


#: How often each worker adds the counts its threads gathered to the shared metrics (and /metrics does
#: before answering): a scrape of a multiprocess server may miss at most this much of another worker.
FLUSH_SECONDS = 1.0


class Metrics:
    """The service's Prometheus metrics. Requests are counted without a lock: each thread adds to its own
    tally (plain integers only it writes) and the tallies are added to the Prometheus series, whose
    values take a lock on every change (one lock for the whole process in multiprocess mode), once a
    second by a background thread and before every scrape."""

    def __init__(self, registry: CollectorRegistry) -> None:
        self.registry = registry
        self.requests = Counter("seafarers_http_requests_total", "HTTP requests answered",
                                ["endpoint", "method", "status", "outcome"], registry=registry)
        self.latency = Histogram("seafarers_http_request_duration_seconds", "Time to answer a request",
                                 ["endpoint", "method", "outcome"], buckets=LATENCY_BUCKETS, registry=registry)
        self.cache = Counter("seafarers_graph_cache_lookups_total",
                             "Map-graph lookups by the level that answered (computed = a miss)", ["level"],
                             registry=registry)
        self.corrupt = Counter("seafarers_graph_cache_corrupt_entries_total",
                               "Redis entries that did not decode to the requested board (recomputed)",
                               registry=registry)
        self.redis_errors = Counter("seafarers_redis_errors_total", "Redis calls that failed or timed out",
                                    registry=registry)
        self.redis_skipped = Counter("seafarers_redis_skipped_total",
                                     "Redis calls not made because the circuit breaker was open", registry=registry)
        self.redis_up = Gauge("seafarers_redis_up", "1 when Redis answered the last check, 0 when not",
                              registry=registry, multiprocess_mode="liveall")
        # the labelled series, looked up once (labels() validates and locks on every call)
        self._cache_levels = {event: self.cache.labels(level) for event, level in CACHE_LEVEL.items()}
        self._cache_levels.update(corrupt=self.corrupt, redis_error=self.redis_errors,
                                  redis_skipped=self.redis_skipped)
        self._served: dict[tuple[str, str, int], tuple[Any, Any]] = {}
        self._local = threading.local()
        self._tallies: list[dict] = []          # every thread's tally (rows: see :meth:`_tally`)
        self._flush_lock = threading.Lock()     # taken by flushes only, never by a request
        _FLUSHED.add(self)

    def _tally(self) -> dict:
        """This thread's tally: key -> row. A row holds totals only this thread writes (``[0]`` count,
        ``[1]`` seconds, ``[2]`` per-bucket counts) and how much of them was flushed (``[3]``, ``[4]``,
        ``[5]``), written only under the flush lock."""
        t = self._local.__dict__.get("t")
        if t is None:
            t = self._local.t = {}
            with self._flush_lock:
                self._tallies.append(t)
            _start_flusher()
        return t

    def cache_event(self, event: str) -> None:
        if event in self._cache_levels:
            t = self._tally()
            row = t.get(event)
            if row is None:
                row = t[event] = [0, 0.0, None, 0, 0.0, None]
            row[0] += 1

    def served(self, endpoint: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request and observe its latency."""
        if method not in KNOWN_METHODS:
            method = "other"
        status = status if 100 <= status <= 599 else 599
        key = (endpoint, method, status)
        t = self._tally()
        row = t.get(key)
        if row is None:
            row = t[key] = [0, 0.0, [0] * (len(LATENCY_BUCKETS) + 1), 0, 0.0, [0] * (len(LATENCY_BUCKETS) + 1)]
        row[0] += 1
        row[1] += seconds
        row[2][bisect_left(LATENCY_BUCKETS, seconds)] += 1     # the first bound >= seconds, as observe()

    def flush(self) -> None:
        """Add what every thread counted since the last flush to the Prometheus series."""
        with self._flush_lock:
            for t in self._tallies:
                for key, row in list(t.items()):
                    n = row[0]
                    if n == row[3]:
                        continue
                    if type(key) is str:
                        self._cache_levels[key].inc(n - row[3])
                        row[3] = n
                        continue
                    total, buckets, done = row[1], row[2], row[5]
                    count, hist = self._series(key)
                    count.inc(n - row[3])
                    hist._sum.inc(total - row[4])
                    for i, b in enumerate(buckets):
                        if b != done[i]:
                            hist._buckets[i].inc(b - done[i])
                            done[i] = b
                    row[3], row[4] = n, total

    def _series(self, key: tuple[str, str, int]) -> tuple[Any, Any]:
        series = self._served.get(key)
        if series is None:
            endpoint, method, status = key
            outcome = _outcome(status)
            series = self._served[key] = (self.requests.labels(endpoint, method, str(status), outcome),
                                          self.latency.labels(endpoint, method, outcome))
        return series


# Every live Metrics, flushed once a second by one daemon thread per process (started with the first
# count; a forked child starts its own) and when the process exits.
_FLUSHED: "weakref.WeakSet[Metrics]" = weakref.WeakSet()
_flusher: list = [None]


def _flush_all() -> None:
    for m in list(_FLUSHED):
        try:
            m.flush()
        except Exception:      # pragma: no cover  (a metrics failure never stops the flusher)
            logging.getLogger("seafarers").exception("metrics flush failed")


def _flush_loop() -> None:
    while True:
        time.sleep(FLUSH_SECONDS)
        _flush_all()


def _start_flusher() -> None:
    if _flusher[0] is None:
        _flusher[0] = threading.Thread(target=_flush_loop, name="metrics-flush", daemon=True)
        _flusher[0].start()


def _forget_flusher() -> None:
    _flusher[0] = None


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_flusher)
atexit.register(_flush_all)


def _outcome(status: int) -> str:
    if status < 400:
        return "success"
    return "client_error" if status < 500 else "server_error"


# -- hooks and endpoints ------------------------------------------------------------------------------


def _before() -> None:
    req = request._get_current_object()         # (each proxy access costs a context lookup: once each)
    rid = req.environ.get("HTTP_X_REQUEST_ID")
    gg = g._get_current_object()
    gg.request_id = rid if rid and _ID_RE.match(rid) else new_request_id()
    gg.t0 = time.perf_counter()


def _after(resp: Response) -> Response:
    now = time.perf_counter()
    gg = g._get_current_object()
    req = request._get_current_object()
    rid = gg.get("request_id") or _incoming_id()
    resp.headers[REQUEST_ID_HEADER] = rid
    elapsed = now - gg.get("t0", now)
    rule = req.url_rule
    endpoint = rule.rule if rule is not None else "unmatched"
    method, status = req.method, resp.status_code
    current_app.extensions["metrics"].served(endpoint, method, status, elapsed)
    level = logging.DEBUG if endpoint in QUIET_ENDPOINTS else logging.INFO
    if access_log.isEnabledFor(level):
        extra = {"request_id": rid, "method": method, "path": req.path, "endpoint": endpoint,
                 "status": status, "duration_ms": round(elapsed * 1000, 3)}
        if _only_stderr(level):     # the line JsonFormatter would write, written at once
            _write_line(level, extra)
        else:   # (made directly: the caller is known, no stack walk to find it)
            access_log.handle(access_log.makeRecord(access_log.name, level, __file__, 0, "request", None, None,
                                                    extra=extra))
    return resp


_FORMAT = JsonFormatter()
_SEAFARERS = logging.getLogger("seafarers")


def _only_stderr(level: int) -> bool:
    """Whether the access log's record would reach only the handler of :func:`configure_logging` (no
    filter, no other handler on the way), so that its line can be written without the record."""
    hs = _SEAFARERS.handlers
    return (len(hs) == 1 and type(hs[0]) is _StderrHandler and level >= hs[0].level and not hs[0].filters
            and not access_log.handlers and not access_log.filters and not _SEAFARERS.filters
            and access_log.propagate and (not _SEAFARERS.propagate or not logging.getLogger().handlers)
            and type(hs[0].formatter) is JsonFormatter)


def _write_line(level: int, extra: dict[str, Any]) -> None:
    """The access line as ``JsonFormatter`` words it, written to stderr (one write of a whole line: the
    lines of several threads never mix, and no logging lock is taken)."""
    now = time.time()
    sec = int(now)
    last = _FORMAT._second
    if last[0] != sec:
        last = _FORMAT._second = (sec, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(sec)))
    out = {"ts": f"{last[1]}.{int((now - sec) * 1000):03d}Z", "level": logging.getLevelName(level).lower(),
           "logger": access_log.name, "msg": "request", **extra}
    try:
        line = orjson.dumps(out).decode()
    except TypeError:   # pragma: no cover  (every value is a str or a number)
        line = json.dumps(out, separators=(",", ":"))
    try:
        sys.stderr.write(line + "\n")
    except (OSError, ValueError):  # pragma: no cover  (stderr closed: the log line is lost, not the answer)
        pass


@bp.get("/readyz")
def readyz():
    """Ready whenever the process can answer: Redis is an optional accelerator, so its state is reported
    but never makes the pod unready (that would take every pod out of the Service at once)."""
    cache = current_app.extensions["graph_cache"]
    state = cache.redis_state()
    m: Metrics = current_app.extensions["metrics"]
    if state != "disabled":
        m.redis_up.set(1 if state == "up" else 0)
    body = {"status": "ready", "redis": state, "circuit": cache.breaker.state}
    return Response(json.dumps(body, separators=(",", ":")), mimetype="application/json")


@bp.get("/metrics")
def metrics():
    m: Metrics = current_app.extensions["metrics"]
    m.flush()
    cache = current_app.extensions["graph_cache"]
    if cache.redis is not None:  # the breaker's view, without a network call on every scrape
        m.redis_up.set(0 if cache.breaker.state == "open" else 1)
    registry = m.registry
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
    return Response(generate_latest(registry), headers={"Content-Type": CONTENT_TYPE_LATEST})


def init_app(app: Flask) -> None:
    """Request ids, JSON logs, metrics and the ``/readyz`` and ``/metrics`` endpoints for ``app``
    (call after the graph cache is in ``app.extensions``)."""
    configure_logging()
    m = Metrics(CollectorRegistry(auto_describe=True))
    app.extensions["metrics"] = m
    cache = app.extensions.get("graph_cache")
    if cache is not None:
        cache.listeners.append(m.cache_event)
    app.before_request(_before)
    app.after_request(_after)
    app.register_blueprint(bp)
