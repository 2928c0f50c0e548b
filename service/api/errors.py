"""RFC 9457 problem details: every error the service answers is ``application/problem+json``."""
from __future__ import annotations

import json
from typing import Any, Optional

from flask import Response

PROBLEM_BASE = "https://seafarers-referee.example/problems/"
TITLES = {
    400: "Malformed request body", 404: "Not found", 405: "Method not allowed", 413: "Request body too large",
    415: "Unsupported media type", 422: "Invalid game state or action", 500: "Internal error",
    503: "Over the cost budget",
}


class Problem(Exception):
    def __init__(self, status: int, detail: str, errors: Optional[list[dict[str, str]]] = None,
                 kind: Optional[str] = None, headers: Optional[dict[str, str]] = None) -> None:
        super().__init__(detail)
        self.status, self.detail, self.errors = status, detail, errors or []
        self.kind = kind or {400: "malformed-json", 404: "not-found", 405: "method-not-allowed",
                             413: "too-large", 415: "unsupported-media-type", 422: "validation"}.get(status, "error")
        self.headers = headers or {}


#: Titles of kinds that share a status with another kind (a 400 of the query is not a malformed body).
KIND_TITLES = {"bad-query": "Bad query parameter"}


def bad_query(detail: str, errors: Optional[list[dict[str, str]]] = None) -> Problem:
    """A 400 for a query parameter that is unknown, repeated or of a value it cannot take: its own problem
    type (``bad-query``), each parameter named by a ``/query/{name}`` pointer."""
    return Problem(400, detail, errors, kind="bad-query")


def problem_response(p: Problem, instance: Optional[str] = None) -> Response:
    body: dict[str, Any] = {
        "type": PROBLEM_BASE + p.kind,
        "title": KIND_TITLES.get(p.kind) or TITLES.get(p.status, "Error"),
        "status": p.status,
        "detail": p.detail,
    }
    if instance:
        body["instance"] = instance
    if p.errors:
        body["errors"] = p.errors
    resp = Response(json.dumps(body), status=p.status, mimetype="application/problem+json")
    for k, v in p.headers.items():
        resp.headers[k] = v
    return resp
