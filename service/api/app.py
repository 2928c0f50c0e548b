"""The Flask app factory: configuration, the graph cache, blueprints and problem+json errors."""
from __future__ import annotations

import logging
import os
import time
from pathlib import Path
from typing import Any, Optional

from flask import Flask, request
from werkzeug.exceptions import HTTPException

from ..cache import GraphCache
from ..engine import budget
from .errors import Problem, problem_response

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_MAX_BODY = 2 * 1024 * 1024
#: CPU seconds one request may spend (its thread's CPU time, so other requests' work does not count).
DEFAULT_REQUEST_BUDGET = 10.0

log = logging.getLogger("seafarers")


def _memory_bounds(config: Any) -> None:
    """The per-process memos' byte bound (``MEMO_MB`` per memo, 8 by default) and the rendered-picture
    cache's (``RENDER_CACHE_MB``, 16): one process-wide setting each, taken from the configuration, then
    the environment."""
    from ..engine import memo
    from ..render import cache as render_cache
    memo.MEMO_BYTES = int(float(config.get("MEMO_MB", os.environ.get("MEMO_MB", "8"))) * (1 << 20))
    render_cache.resize(int(float(config.get("RENDER_CACHE_MB", os.environ.get("RENDER_CACHE_MB", "16")))
                            * (1 << 20)))


class ServiceApp(Flask):
    """The service's Flask app: Flask's own, asking once per function (not on each of the five calls a
    request makes) whether a view or hook is a coroutine function to be wrapped (``Flask.ensure_sync``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._sync: dict[Any, Any] = {}

    def ensure_sync(self, func: Any) -> Any:
        try:
            return self._sync[func]
        except KeyError:
            got = super().ensure_sync(func)
            if len(self._sync) < 1024:     # (views, hooks and handlers: a fixed set)
                self._sync[func] = got
            return got
        except TypeError:   # (an unhashable callable)
            return super().ensure_sync(func)


def create_app(config: Optional[dict[str, Any]] = None) -> Flask:
    app = ServiceApp(__name__)
    app.config.update(
        MAX_BODY_BYTES=int(os.environ.get("MAX_BODY_BYTES", DEFAULT_MAX_BODY)),
        REDIS_URL=os.environ.get("REDIS_URL") or None,
        REDIS_TIMEOUT=float(os.environ.get("REDIS_TIMEOUT", "0.05")),
        GRAPH_CACHE_SIZE=int(os.environ.get("GRAPH_CACHE_SIZE", "256")),
        REPLAY_MAX_BODY_BYTES=int(os.environ.get("REPLAY_MAX_BODY_BYTES", 8 * 1024 * 1024)),
        REQUEST_BUDGET_SECONDS=float(os.environ.get("REQUEST_BUDGET_SECONDS", DEFAULT_REQUEST_BUDGET)),
    )
    if config:
        app.config.update(config)
    app.config["MAX_CONTENT_LENGTH"] = None  # bodies are measured by read_json, answered with problem+json
    app.extensions["graph_cache"] = GraphCache.from_config(app.config)
    _memory_bounds(app.config)
    from .observability import init_app as init_observability
    init_observability(app)  # request ids, JSON logs, /readyz, /metrics
    from .cors import init_app as init_cors
    init_cors(app)           # browsers on other origins (CORS_ORIGINS; docs/clients.md)

    from .views import blp
    app.register_blueprint(blp)
    from .tools import tools  # replay, legal actions, render, the viewer page
    app.register_blueprint(tools)
    from .records_views import records  # import of other apps' records, replay of a record
    app.register_blueprint(records)
    from .batch import batch  # many requests in one call, NDJSON
    app.register_blueprint(batch)

    # The cost budget: made current when a request starts (its body is read inside it, and the engine's
    # long loops check it); spent, the answer is a 503 problem instead of a worker held for minutes.
    @app.before_request
    def _budget():
        seconds = app.config["REQUEST_BUDGET_SECONDS"]
        budget.install(budget.Budget(seconds, time.thread_time) if seconds > 0 else None)

    @app.teardown_request
    def _no_budget(exc=None):
        budget.install(None)

    @app.errorhandler(budget.BudgetExceeded)
    def _over_budget(e: budget.BudgetExceeded):
        return problem_response(Problem(
            503, f"answering needs more than the {e.seconds:g} s of CPU a request may use; send less work per "
                 "request (a replay in parts, each from the last part's final state)", kind="budget-exceeded"),
            request.path)

    @app.errorhandler(Problem)
    def _problem(p: Problem):
        return problem_response(p, request.path)

    @app.errorhandler(HTTPException)
    def _http(e: HTTPException):
        headers = {}
        if e.code == 405:
            allowed = e.valid_methods if hasattr(e, "valid_methods") and e.valid_methods else []
            headers["Allow"] = ", ".join(sorted(allowed))
        return problem_response(Problem(e.code or 500, e.description or e.name, headers=headers), request.path)

    @app.errorhandler(Exception)
    def _unexpected(e: Exception):  # never a bare 500 page; logged with the request id
        log.exception("unexpected error")
        return problem_response(Problem(500, "the service failed to answer this request", kind="internal"),
                                request.path)

    return app
