"""The renderer's generic parts for rule modules: panels under the legend (a module's off-board things,
with a track of cells) and token glyphs sharing a place drawn side by side."""
from __future__ import annotations

import re

import pytest

from service.engine.picture import Glyph, Layer, Panel
from service.engine.state import Tile
from service.render.svg import board, hex_center

HEXES = {(0, 0): Tile("forest", 6), (1, 0): Tile("sea")}


def test_a_panel_is_drawn_under_the_legend_with_its_lines_and_its_track():
    pan = Panel("stock", "Stock", ("3 left of 5", "the second line"), track=(3, 5))
    svg = board(HEXES, size=30, layers=[pan])
    g = re.search(r'<g class="panel stock">(.*?)</g>', svg).group(1)
    assert ">Stock</text>" in g and ">3 left of 5</text>" in g and ">the second line</text>" in g
    assert g.count('class="cell filled"') == 3 and g.count('class="cell"') == 2
    assert svg.index('class="legend"') < svg.index('class="panel stock"')
    plain = board(HEXES, size=30)
    height = [float(re.search(r'height="([\d.]+)"', s).group(1)) for s in (plain, svg)]
    assert height[1] > height[0]                                 # the picture grows to hold it
    assert 'class="panel' not in board(HEXES, size=30, layers=[pan], legend=False)


def test_long_panel_lines_wrap_to_the_pictures_width():
    words = " ".join(f"word{i}" for i in range(60))
    svg = board(HEXES, size=30, layers=[Panel("long", "Long", (words,))])
    lines = re.findall(r">(word[^<]*)</text>", svg)
    assert len(lines) > 1 and " ".join(lines) == words


def test_a_panel_track_is_filled_no_further_than_its_cells():
    with pytest.raises(ValueError):
        Panel("bad", "Bad", track=(4, 3))


def test_glyphs_sharing_a_hex_stand_side_by_side():
    a = Layer("a", "first", "disc", "#ff0000", (Glyph((0, 0), "1"),))
    b = Layer("b", "second", "square", "#00ff00", (Glyph((0, 0), "2"),))
    ring = Layer("c", "around", "ring", "#0000ff", (Glyph((0, 0)),))
    svg = board(HEXES, size=40, layers=[a, b, ring])
    cx = hex_center((0, 0), 40)[0]
    disc_x = float(re.search(r'<g class="layer a">.*?<circle cx="([\d.-]+)"', svg).group(1))
    square = re.search(r'<g class="layer b">.*?<rect x="([\d.-]+)" y="[\d.-]+" width="([\d.-]+)"', svg)
    square_x = float(square.group(1)) + float(square.group(2)) / 2
    assert disc_x < cx < square_x and abs((cx - disc_x) - (square_x - cx)) < 0.2
    ring_x = float(re.search(r'<g class="layer c">.*?<circle cx="([\d.-]+)"', svg).group(1))
    assert abs(ring_x - cx) < 0.1                                # a ring stays round its place
    alone = board(HEXES, size=40, layers=[a])
    assert abs(float(re.search(r'<g class="layer a">.*?<circle cx="([\d.-]+)"', alone).group(1)) - cx) < 0.1
