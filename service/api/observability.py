"""Observability: request ids, structured JSON logs, Prometheus metrics, ``/readyz`` and ``/metrics``.

``init_app(app)`` hooks everything into one Flask app:

* **Request id**: ``X-Request-ID`` is accepted when it looks like an id (1-128 characters of
  ``A-Z a-z 0-9 . _ : -``), otherwise a fresh one is generated; it is echoed in the response header and
  carried by every log line of the request.
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
* **Bounded labels**: ``endpoint`` is a route's rule or ``unmatched``, ``method`` one of
  :data:`KNOWN_METHODS` or ``other``, ``status`` an HTTP status code.
* **Several gunicorn workers**: each worker is its own process with its own counters, and a scrape
  reaches one worker. Set ``PROMETHEUS_MULTIPROC_DIR`` to an empty writable directory (the container
  image does) and ``/metrics`` aggregates all workers through prometheus_client's multiprocess mode;
  ``gunicorn.conf.py`` empties the directory at start and marks exited workers dead. Without it the
  figures are per worker.
"""
from __future__ import annotations

import json
import logging
import os
import re
import sys
import time
import uuid
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


def _incoming_id() -> str:
    rid = request.headers.get(REQUEST_ID_HEADER, "")
    return rid if _ID_RE.match(rid) else uuid.uuid4().hex


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


class Metrics:
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
        self._served: dict[tuple[str, str, int], tuple[Any, Any]] = {}

    def cache_event(self, event: str) -> None:
        series = self._cache_levels.get(event)
        if series is not None:
            series.inc()
        elif event == "corrupt":
            self.corrupt.inc()
        elif event == "redis_error":
            self.redis_errors.inc()
        elif event == "redis_skipped":
            self.redis_skipped.inc()

    def served(self, endpoint: str, method: str, status: int, seconds: float) -> None:
        """Count one answered request and observe its latency."""
        if method not in KNOWN_METHODS:
            method = "other"
        status = status if 100 <= status <= 599 else 599
        key = (endpoint, method, status)
        series = self._served.get(key)
        if series is None:
            outcome = _outcome(status)
            series = self._served[key] = (self.requests.labels(endpoint, method, str(status), outcome),
                                          self.latency.labels(endpoint, method, outcome))
        series[0].inc()
        series[1].observe(seconds)


def _outcome(status: int) -> str:
    if status < 400:
        return "success"
    return "client_error" if status < 500 else "server_error"


# -- hooks and endpoints ------------------------------------------------------------------------------


def _before() -> None:
    g.request_id = _incoming_id()
    g.t0 = time.perf_counter()


def _after(resp: Response) -> Response:
    rid = g.get("request_id") or _incoming_id()
    resp.headers[REQUEST_ID_HEADER] = rid
    elapsed = time.perf_counter() - g.get("t0", time.perf_counter())
    rule = request.url_rule
    endpoint = rule.rule if rule is not None else "unmatched"
    current_app.extensions["metrics"].served(endpoint, request.method, resp.status_code, elapsed)
    level = logging.DEBUG if endpoint in QUIET_ENDPOINTS else logging.INFO
    if access_log.isEnabledFor(level):   # (made directly: the caller is known, no stack walk to find it)
        access_log.handle(access_log.makeRecord(access_log.name, level, __file__, 0, "request", None, None, extra={
            "request_id": rid, "method": request.method, "path": request.path, "endpoint": endpoint,
            "status": resp.status_code, "duration_ms": round(elapsed * 1000, 3)}))
    return resp


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
