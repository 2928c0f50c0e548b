"""Answers that stay the same for a release (``GET /openapi.yaml``, ``GET /v1/rules``...): a strong ETag
(a digest of the bytes), ``304 Not Modified`` to an ``If-None-Match`` that names it, and the body gzipped
for a client that accepts it (``Accept-Encoding: gzip``), each variant made once and kept."""
from __future__ import annotations

import gzip
import hashlib
from typing import Optional

from flask import Response, request

MIN_GZIP = 1024     # smaller bodies gain too little
#: (ETag, gzipped body or None) by the body's digest: a few answers per release, bounded all the same
KEPT: dict[bytes, tuple[str, Optional[bytes]]] = {}
MAX_KEPT = 256


def keep(key: bytes, value: tuple[str, Optional[bytes]]) -> tuple[str, Optional[bytes]]:
    if len(KEPT) >= MAX_KEPT:
        KEPT.pop(next(iter(KEPT)))
    KEPT[key] = value
    return value


def _accepts_gzip() -> bool:
    for part in request.headers.get("Accept-Encoding", "").split(","):
        name, _, params = part.strip().partition(";")
        if name.strip().lower() in ("gzip", "*"):
            q = params.strip()
            if q.startswith("q="):
                try:
                    return float(q[2:]) > 0
                except ValueError:
                    return False
            return True
    return False


def _matches(etag: str) -> bool:
    given = request.headers.get("If-None-Match")
    if not given:
        return False
    return given.strip() == "*" or any(t.strip().removeprefix("W/") == etag for t in given.split(","))


def cached_answer(body: bytes, content_type: str, status: int = 200, headers: Optional[dict] = None) -> Response:
    """``body`` answered with its ETag; a 304 when the client has it; gzipped when the client accepts it."""
    key = hashlib.sha256(body).digest()
    kept = KEPT.get(key)
    if kept is None:
        etag = '"' + key[:16].hex() + '"'
        zipped = gzip.compress(body, 6, mtime=0) if len(body) >= MIN_GZIP else None
        kept = keep(key, (etag, zipped))
    etag, zipped = kept
    vary = "Accept-Encoding" if zipped is not None else None
    if _matches(etag):
        r = Response(status=304)
    elif zipped is not None and _accepts_gzip():
        r = Response(zipped, status=status, content_type=content_type)
        r.headers["Content-Encoding"] = "gzip"
    else:
        r = Response(body, status=status, content_type=content_type)
    r.headers["ETag"] = etag
    r.headers["Cache-Control"] = "no-cache"      # (kept by caches, checked with If-None-Match each time)
    if vary:
        r.headers["Vary"] = vary
    for k, v in (headers or {}).items():
        r.headers[k] = v
    return r
