"""The pictures under docs/ are what the renderer draws today (regenerate with docs/maps/make_maps.py and
the other scripts there when a picture change is meant), and the coordinates picture fits its canvas."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from service.engine.mapgraph import MapGraph
from service.engine.scenarios import SCENARIOS
from service.render.svg import state_svg

MAPS = Path(__file__).resolve().parents[1] / "docs" / "maps"
SEED = 1          # as make_maps.py


def mapped():
    for sid, scen in SCENARIOS.items():
        if scen.has_map and getattr(scen, "component_tables", None):
            for n in scen.players:
                yield sid, n


@pytest.mark.parametrize("sid,n", list(mapped()))
def test_each_scenario_map_in_docs_is_current(sid, n):
    scen = SCENARIOS[sid]
    st = scen.new_game(n, SEED)
    svg = state_svg(st, title=f"{sid} {scen.name}, {n} players",
                    layers=scen.board_layers(st, MapGraph.build(st.terrain_map())))
    assert (MAPS / f"{sid}-{n}p.svg").read_text(encoding="utf-8") == svg, (
        f"docs/maps/{sid}-{n}p.svg is stale: run python docs/maps/make_maps.py")


def test_the_coordinates_picture_is_current_and_inside_its_canvas():
    import importlib.util
    path = MAPS.parent / "make_coordinates_svg.py"
    spec = importlib.util.spec_from_file_location("make_coordinates_svg", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    svg = mod.svg()
    assert (MAPS.parent / "coordinates.svg").read_text(encoding="utf-8") == svg
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    for m in re.finditer(r'<text x="([\d.]+)"[^>]*font-size="(\d+)"[^>]*>(.*?)</text>', svg):
        x, fs, body = float(m.group(1)), int(m.group(2)), re.sub(r"<[^>]+>", "", m.group(3))
        anchor_mid = 'text-anchor="middle"' in m.group(0)
        right = x + len(body) * fs * 0.48 / (2 if anchor_mid else 1)      # a generous average glyph width
        assert right <= width, f"{body!r} runs past the right edge ({right:.0f} > {width})"
