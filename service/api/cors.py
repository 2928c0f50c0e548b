"""Cross-origin calls from browsers (CORS, the Fetch standard).

The API holds no credentials, cookies or sessions: any web page may call it, so by default every origin
is allowed (``Access-Control-Allow-Origin: *``). ``CORS_ORIGINS`` (configuration, then the environment)
narrows it: a comma-separated list of origins (``https://a.example,https://b.example``), each answered
with its own origin and ``Vary: Origin``; ``*`` (the default) any origin; an empty value none (no CORS
headers at all). Credentials are never allowed.

A preflight (``OPTIONS`` with ``Access-Control-Request-Method``) from an allowed origin is answered 204
with the methods and request headers a client sends; one from another origin 204 without them (the
browser then refuses the call). An answer to a request without ``Origin`` is unchanged.
"""
from __future__ import annotations

import os
from typing import Any, Optional

from flask import Flask, Response, request

#: Request headers a page may send: the body's type, the state's tag, a request id, content negotiation.
ALLOW_HEADERS = "Content-Type, State-Tag, X-Request-ID, Accept, Accept-Encoding, If-None-Match"
#: Response headers a page may read beside the simple ones.
EXPOSE_HEADERS = ("State-Tag, X-Request-ID, X-Legal, X-Violations, X-Route-Length, Location, ETag, Retry-After")
ALLOW_METHODS = "GET, POST, OPTIONS"
MAX_AGE = "600"


def allowed_origins(config: Any) -> Optional[frozenset[str]]:
    """None: any origin; else the set of allowed origins (empty: none)."""
    raw = config.get("CORS_ORIGINS", os.environ.get("CORS_ORIGINS", "*"))
    if isinstance(raw, (list, tuple, set, frozenset)):
        items = [str(o).strip() for o in raw]
    else:
        items = [o.strip() for o in str(raw).split(",")]
    items = [o.rstrip("/") for o in items if o]
    if "*" in items:
        return None
    return frozenset(items)


def init_app(app: Flask) -> None:
    origins = allowed_origins(app.config)

    def allow(origin: str) -> Optional[str]:
        if origins is None:
            return "*"
        return origin if origin in origins else None

    @app.before_request
    def _preflight():
        if request.method != "OPTIONS" or "Access-Control-Request-Method" not in request.headers:
            return None
        origin = request.headers.get("Origin")
        r = Response(status=204)
        given = allow(origin) if origin else None
        if given is not None:
            r.headers["Access-Control-Allow-Origin"] = given
            r.headers["Access-Control-Allow-Methods"] = ALLOW_METHODS
            r.headers["Access-Control-Allow-Headers"] = ALLOW_HEADERS
            r.headers["Access-Control-Max-Age"] = MAX_AGE
        if origins is not None:
            r.headers["Vary"] = "Origin"
        return r

    @app.after_request
    def _cors(response: Response) -> Response:
        origin = request.headers.get("Origin")
        if not origin or "Access-Control-Allow-Origin" in response.headers:
            return response
        given = allow(origin)
        if given is not None:
            response.headers["Access-Control-Allow-Origin"] = given
            response.headers["Access-Control-Expose-Headers"] = EXPOSE_HEADERS
        if origins is not None:
            response.headers.add("Vary", "Origin")
        return response
