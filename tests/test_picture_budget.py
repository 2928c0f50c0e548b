"""The picture budget covers what a PNG makes the service do: its area, its shapes, its labels (characters,
by font size), a process's first drawing, and it fits in what is left of the request's CPU budget.
``bench/picture_budget.py`` holds the estimate above the measured drawing time."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from service.api import create_app
from service.render import cache as pictures
from tests.helpers import hexes, state

pytest.importorskip("cairosvg")


def _sea_board() -> dict:
    sea = {(q, r): "sea" for q in range(-11, 12) for r in range(-11, 12) if abs(q + r) <= 11}
    sea.update({h: "sea" for h in ((12, -12), (-12, 12), (0, 12))})
    sea[(0, 0)] = ("forest", 6)
    return state(hexes(sea), scenario="seafarers")


@pytest.fixture(scope="module")
def client():
    return create_app({"TESTING": True}).test_client()


def test_labels_are_counted_by_their_characters_and_font_size():
    small = '<svg width="10" height="10"><text x="1" font-size="4">1,2</text></svg>'
    large = '<svg width="10" height="10"><text x="1" font-size="40">1,2</text></svg>'
    longer = '<svg width="10" height="10"><text x="1" font-size="4">1,2 3,4</text></svg>'
    assert 0 < pictures.text_seconds(small) < pictures.text_seconds(longer)
    assert pictures.text_seconds(small) < pictures.text_seconds(large)
    assert pictures.text_seconds('<svg><text>abc</text></svg>') > 0     # (no size: the default font size)


def test_a_large_board_with_its_coordinates_is_over_the_budget_without_them_within(client):
    st = _sea_board()
    svg = lambda coords: client.post("/v1/render", json={"state": st, "coords": coords, "size": 16}).get_data(True)
    with_labels, without = pictures.picture_seconds(svg(True)), pictures.picture_seconds(svg(False))
    assert with_labels[2] - without[2] >= pictures.text_seconds(svg(True)) - pictures.text_seconds(svg(False)) > 0.1
    r = client.post("/v1/render", json={"state": st, "coords": True, "size": 16, "format": "png"})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/size"
    assert "longer to draw" in r.get_json()["errors"][0]["detail"]
    ok = client.post("/v1/render", json={"state": st, "coords": False, "size": 16, "format": "png"})
    assert ok.status_code == 200 and ok.mimetype == "image/png"


def test_a_drawing_that_the_rest_of_the_request_budget_cannot_hold_is_not_started():
    app = create_app({"TESTING": True, "REQUEST_BUDGET_SECONDS": 0.25})
    st = _sea_board()
    pictures.resize(0)      # (nothing kept: the picture must be drawn)
    try:
        r = app.test_client().post("/v1/render", json={"state": st, "coords": False, "size": 16, "format": "png"})
    finally:
        pictures.resize(16 << 20)
    assert r.status_code == 503 and r.get_json()["type"].endswith("/budget-exceeded")
