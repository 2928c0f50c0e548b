"""Rendered pictures, kept by what they draw, and the limits a picture is drawn within.

The cache key of a picture is a digest of its SVG text (every hex, piece, mark and option the picture
shows, and nothing else) and the output format: two requests that draw the same picture share it, however
their states differ elsewhere (hands, turn, bank), and a change to the drawing itself can never serve a
stale picture. The SVG text is cheap to make; the PNG made from it is not, and is the part kept. The
cache is bounded in bytes (``RENDER_CACHE_MB``, set by the app factory through :func:`resize`).

Limits: a picture's area in pixels (its width times height, as its SVG declares them) is bounded, and so
is the estimated time to draw a PNG (:func:`png_seconds`: by its area and its number of shapes); a request
over either is answered 422 naming ``/size`` with the largest size that would do, never silently drawn
smaller.
"""
from __future__ import annotations

import hashlib
import math
import re
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


_SIZE = re.compile(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"')


def svg_size(svg: str) -> tuple[int, int]:
    """Width and height in pixels of the picture ``svg`` declares (its root element's)."""
    m = _SIZE.search(svg, 0, 2000)
    if m is None:
        return 1, 1
    return max(1, round(float(m.group(1)))), max(1, round(float(m.group(2))))


def png_seconds(pixels: int, shapes: int) -> float:
    """The estimated time to draw a PNG of ``pixels`` with ``shapes`` shapes (see the module's docstring)."""
    return pixels / 1e6 * PNG_SECONDS_PER_MEGAPIXEL + shapes / 1000 * PNG_SECONDS_PER_KILOSHAPE


def size_that_fits(size: float, pixels: int, limit: int) -> int:
    """The largest whole size (at least 8) at which a picture of ``pixels`` at ``size`` has at most
    ``limit`` pixels (a picture's area grows as the square of its size)."""
    return max(8, math.floor(size * math.sqrt(limit / pixels)))
