"""Rendered pictures, kept by what they draw, and the limits a picture is drawn within.

The cache key of a picture is a digest of its SVG text (every hex, piece, mark and option the picture
shows, and nothing else) and the output format: two requests that draw the same picture share it, however
their states differ elsewhere (hands, turn, bank), and a change to the drawing itself can never serve a
stale picture. The SVG text is cheap to make; the PNG made from it is not, and is the part kept. The
cache is bounded in bytes (``RENDER_CACHE_MB``, set by the app factory through :func:`resize`).

Limits (:func:`check_area`, :func:`png_budget`): a picture's area in pixels (its width times height at the
size asked) is bounded, and so is the estimated time to draw a PNG (proportional to its area and to the
number of shapes); a request over either is answered 422 naming ``/size`` with the largest size that
would do, never silently drawn smaller.
"""
from __future__ import annotations

import hashlib
import math
from typing import Optional

from ..engine.memo import ByteLRU

#: The largest picture drawn, in pixels (width x height): 2.5 megapixels (about 1,600 x 1,550).
MAX_AREA = 2_500_000
#: Estimated seconds to draw a PNG: per megapixel and per thousand shapes (measured with cairosvg on the
#: 2-core machine the figures in the README come from; conservative), and the budget a request may use.
PNG_SECONDS_PER_MEGAPIXEL = 0.08
PNG_SECONDS_PER_KILOSHAPE = 0.15
PNG_BUDGET_SECONDS = 0.5

_CACHE = ByteLRU(16 << 20)


def resize(max_bytes: int) -> None:
    """Set the cache's bound in bytes (dropping what no longer fits)."""
    global _CACHE
    _CACHE = ByteLRU(max_bytes)


def key_of(svg: str, fmt: str) -> bytes:
    return hashlib.sha256(svg.encode("utf-8")).digest() + fmt.encode("ascii")


def get(key: bytes) -> Optional[bytes]:
    return _CACHE.get(key)


def put(key: bytes, picture: bytes) -> None:
    _CACHE.put(key, picture, len(picture) + len(key) + 200)


def held() -> int:
    return _CACHE.held


def clear() -> None:
    _CACHE.clear()


def picture_size(hexes, size: float) -> tuple[int, int]:
    """Width and height in pixels of the picture of ``hexes`` at ``size`` (as ``svg.board`` lays it out:
    hex centres plus a margin of 1.2 sizes each side)."""
    if not hexes:
        return 1, 1
    xs = [size * math.sqrt(3) * (q + r / 2) for q, r in hexes]
    ys = [size * 1.5 * r for _, r in hexes]
    pad = size * 1.2
    return int(max(xs) - min(xs) + 2 * pad) + 1, int(max(ys) - min(ys) + 2 * pad) + 1


def largest_size(hexes, size: float, fits) -> float:
    """The largest size not above ``size`` (whole pixels, at least 8) for which ``fits(size)`` holds."""
    lo, hi = 8.0, float(size)
    if not fits(lo):
        return lo
    while hi - lo > 0.5:
        mid = (lo + hi) / 2
        if fits(mid):
            lo = mid
        else:
            hi = mid
    return math.floor(lo)


def area(hexes, size: float) -> int:
    w, h = picture_size(hexes, size)
    return w * h


def png_seconds(hexes, size: float, shapes: int) -> float:
    """The estimated time to draw a PNG of the picture (see the module's docstring)."""
    return area(hexes, size) / 1e6 * PNG_SECONDS_PER_MEGAPIXEL + shapes / 1000 * PNG_SECONDS_PER_KILOSHAPE
