"""Rendered pictures, kept by what they draw, and the limits a picture is drawn within.

The cache key of a picture is a digest of its SVG text (every hex, piece, mark and option the picture
shows, and nothing else) and the output format: two requests that draw the same picture share it, however
their states differ elsewhere (hands, turn, bank), and a change to the drawing itself can never serve a
stale picture. The SVG text is cheap to make; the PNG made from it is not, and is the part kept. The
cache is bounded in bytes (``RENDER_CACHE_MB``, set by the app factory through :func:`resize`).

Limits: a picture's area in pixels (its width times height, as its SVG declares them) is bounded, and so
is the estimated time to draw a PNG (:func:`picture_seconds`: by its area, its number of shapes and its
labels' characters and font sizes), together with the CPU the request has already used; a request
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
#: Text costs by its characters, each more the larger its font (the glyph's area): labels (coordinates,
#: number tokens, harbours, panels) are laid out and drawn glyph by glyph, which the shape count missed
#: (a large board with its coordinates: 1,750 characters, half the drawing time). Per thousand
#: characters, and per thousand characters and square pixel of font size (``bench/picture_budget.py``).
PNG_SECONDS_PER_KILOCHAR = 0.12
PNG_SECONDS_PER_KILOCHAR_PX2 = 0.0015
PNG_BUDGET_SECONDS = 0.5
#: A process's first PNG also loads the drawing library and its fonts (~0.2 s measured, whatever the
#: picture): drawn first, on a picture of one letter (``WARM_UP``), within the request's CPU budget, so
#: that the estimate of every picture is the same on a fresh worker as on a warm one.
WARM_UP = ('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><text x="0" y="6" font-size="6">'
           '0</text></svg>')
_drawn = [False]


def drawn_once() -> bool:
    """Whether a PNG has been drawn in this process (the libraries are loaded)."""
    return _drawn[0]


def mark_drawn() -> None:
    _drawn[0] = True

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


def png_seconds(pixels: int, shapes: int, text: float = 0.0) -> float:
    """The estimated time to draw a PNG of ``pixels`` with ``shapes`` shapes and ``text`` seconds of
    labels (:func:`text_seconds`; see the module's docstring)."""
    return pixels / 1e6 * PNG_SECONDS_PER_MEGAPIXEL + shapes / 1000 * PNG_SECONDS_PER_KILOSHAPE + text


_TEXT = re.compile(r'<text\b[^>]*?font-size="([0-9.]+)"[^>]*>([^<]*)</text>')
_DEFAULT_FONT_PX = 16.0     # (an SVG text without a font size: the renderer's default)
_TEXT_WITHOUT_SIZE = re.compile(r'<text\b(?![^>]*font-size=)[^>]*>([^<]*)</text>')


def text_seconds(svg: str) -> float:
    """The estimated time to lay out and draw the labels of ``svg``: per character, and per character and
    square pixel of its font size (entities such as ``&amp;`` count as their length: a little more)."""
    chars = 0
    weighted = 0.0
    for fs, content in _TEXT.findall(svg):
        n = len(content)
        chars += n
        weighted += n * float(fs) ** 2
    for content in _TEXT_WITHOUT_SIZE.findall(svg):
        chars += len(content)
        weighted += len(content) * _DEFAULT_FONT_PX ** 2
    return chars / 1000 * PNG_SECONDS_PER_KILOCHAR + weighted / 1000 * PNG_SECONDS_PER_KILOCHAR_PX2 / 1000


def picture_seconds(svg: str) -> tuple[int, int, float]:
    """(pixels, shapes, estimated seconds) of drawing ``svg`` as a PNG: its area, its elements, its labels."""
    w, h = svg_size(svg)
    shapes = svg.count("<")
    return w * h, shapes, png_seconds(w * h, shapes, text_seconds(svg))


def size_that_fits(size: float, pixels: int, limit: int) -> int:
    """The largest whole size (at least 8) at which a picture of ``pixels`` at ``size`` has at most
    ``limit`` pixels (a picture's area grows as the square of its size)."""
    return max(8, math.floor(size * math.sqrt(limit / pixels)))
