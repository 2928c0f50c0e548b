"""What a rule module adds to the board picture, said in engine terms (no drawing code here).

A module's ``board_layers`` hook returns :class:`Layer` s: one kind of thing it keeps on the board (a dragon,
a village's diamond count, a knight, a blocked road), each with the words the legend gives it and where
each one lies. ``service/render`` draws every layer the same way (a shape at a hex, an intersection or a
path, with a short label, in a player's colour where one is named) and lists each layer that has something
on the board in the legend, so a new module gets its pieces drawn and explained without touching the
renderer. Things that lie off the board (a track, a cache, a supply) are a :class:`Panel`: a titled box of
lines, with an optional track of cells, drawn under the legend; a hook returns layers and panels together.

>>> lay = Layer("dragon", "dragon (blocks the hex)", "diamond", "#b71c1c", (Glyph((0, 0), "D"),))
>>> lay.glyphs[0].where()
'hex'
>>> Glyph((0, 0, "N")).where(), Glyph((0, 0, "NE")).where()
('node', 'edge')
>>> Panel("cache", "general cache", ("10 diamonds",), track=(3, 7)).track
(3, 7)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

#: The shapes the renderer knows. ``ring`` and ``band`` draw around or along what lies there (a closed
#: route, a blocked road) and leave it visible; the others are tokens with the glyph's label on them.
SHAPES = ("disc", "square", "diamond", "triangle", "cross", "ring", "band")


@dataclass(frozen=True)
class Glyph:
    """One thing drawn: where it lies (a hex ``(q, r)``, an intersection ``(q, r, "N"|"S")`` or a path
    ``(q, r, "NE"|"E"|"SE")``), a label of a few characters drawn on it, the player whose colour it takes
    (None: the layer's colour) and a note shown when hovering (what it is, which rule)."""
    at: tuple
    label: str = ""
    player: Optional[int] = None
    note: str = ""

    def where(self) -> str:
        if len(self.at) == 2:
            return "hex"
        return "node" if self.at[2] in ("N", "S") else "edge"


@dataclass(frozen=True)
class Layer:
    """One kind of thing a module keeps on the board: ``key`` (the SVG class), ``legend`` (what the legend
    calls it), ``shape`` (one of :data:`SHAPES`), ``colour`` (its fill, or its outline for ``ring`` and
    ``band``) and the glyphs. Layers are drawn after the pieces, in the order given."""
    key: str
    legend: str
    shape: str
    colour: str
    glyphs: tuple[Glyph, ...] = ()

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"layer {self.key!r}: shape {self.shape!r} is not one of {SHAPES}")


@dataclass(frozen=True)
class Panel:
    """Something a module keeps off the board (a track, a cache, a supply): ``key`` (the SVG class),
    ``title``, the ``lines`` of text under it (each a few words, citing the rule) and an optional ``track``
    ``(filled, cells)`` drawn as a row of cells, the first ``filled`` of them filled (a ship's advance, a
    count against its limit)."""
    key: str
    title: str
    lines: tuple[str, ...] = ()
    track: Optional[tuple[int, int]] = None

    def __post_init__(self) -> None:
        if self.track is not None and not 0 <= self.track[0] <= self.track[1]:
            raise ValueError(f"panel {self.key!r}: track {self.track!r} is not (filled, cells) with filled <= cells")


__all__ = ["Glyph", "Layer", "Panel", "SHAPES"]
