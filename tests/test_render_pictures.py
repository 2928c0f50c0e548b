"""Board pictures good enough to settle a dispute: PNG size and colours, the legend, harbour labels off the
edges, gold unlike grain, a route highlight visible on any terrain, only the offending piece marked."""
from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import pytest

from service.engine.geometry import edge_nodes
from service.render.svg import PLAYER_COLOURS, ROUTE_CASING, ROUTE_CORE, TERRAIN_FILL, board, hex_center, node_point

from .helpers import hexes, radius_board, state

Image = pytest.importorskip("PIL.Image", reason="pillow is not installed")
cairosvg = pytest.importorskip("cairosvg", reason="cairosvg needs the cairo library")

ROOT = Path(__file__).resolve().parents[1]
TRY_IT = json.loads((ROOT / "docs" / "try-it.json").read_text(encoding="utf-8"))


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def colours_of(png: bytes) -> dict[tuple[int, int, int], int]:
    img = Image.open(io.BytesIO(png)).convert("RGB")
    return {c: n for n, c in img.getcolors(maxcolors=1 << 20)}


def near(found: dict, colour: str, tol: int = 6) -> int:
    r, g, b = rgb(colour)
    return sum(n for (x, y, z), n in found.items() if abs(x - r) <= tol and abs(y - g) <= tol and abs(z - b) <= tol)


def render(client, body, fmt="png"):
    r = client.post(f"/v1/render?format={fmt}", json=body)
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return r


def test_a_small_board_is_scaled_up_and_its_png_has_the_colours_of_the_position(client):
    r = render(client, {"state": TRY_IT["state"], "highlight": {"route_of": 0}})
    img = Image.open(io.BytesIO(r.data))
    assert img.format == "PNG" and max(img.size) >= 560 and min(img.size) >= 400   # not 280 x 252 any more
    found = colours_of(r.data)
    for colour in (TERRAIN_FILL["forest"], TERRAIN_FILL["hills"], TERRAIN_FILL["fields"], TERRAIN_FILL["frame"],
                   PLAYER_COLOURS[0], PLAYER_COLOURS[1], ROUTE_CORE):
        assert near(found, colour) > 50, colour
    assert r.headers["X-Route-Length"] == "1"


def test_the_png_of_a_known_position_looks_as_it_did(client):
    from .picture_util import matches_reference
    body = {"state": TRY_IT["state"], "highlight": {"route_of": 0},
            "action": {"type": "build_settlement", "player": 0, "node": [0, -1, "S"]}}
    matches_reference("render-try-it.png", render(client, body).data)


def test_a_given_size_is_kept(client):
    small = Image.open(io.BytesIO(render(client, {"state": TRY_IT["state"], "size": 20}).data)).size
    big = Image.open(io.BytesIO(render(client, {"state": TRY_IT["state"], "size": 40}).data)).size
    assert 1.8 < big[0] / small[0] < 2.2


def test_the_legend_names_each_player_and_each_shape(client):
    body = {"state": TRY_IT["state"], "highlight": {"route_of": 0},
            "action": {"type": "build_settlement", "player": 0, "node": [0, -1, "S"]}}
    svg = render(client, body, "svg").get_data(as_text=True)
    legend = svg[svg.index('class="legend"'):]
    for word in ("player 0 (red)", "player 1 (blue)", "player 2 (orange)", "settlement", "city", "road", "ship",
                 "robber", "longest route", "rule broken here"):
        assert word in legend, word
    assert "player 3" not in legend and "pirate" not in legend   # a 3-player game, no pirate on this board
    plain = render(client, {"state": TRY_IT["state"]}, "svg").get_data(as_text=True)
    legend = plain[plain.index('class="legend"'):]
    assert "settlement" in legend and "longest route" not in legend and "rule broken" not in legend
    with_pirate = {**ship_position()[0], "pirate": [0, -2]}
    svg = render(client, {"state": with_pirate}, "svg").get_data(as_text=True)
    assert "pirate" in svg[svg.index('class="legend"'):]


def test_gold_is_striped_and_unlike_grain():
    svg = board({(0, 0): _tile("gold", 8), (1, 0): _tile("fields", 6)}, size=30)
    assert 'fill="url(#gold-stripes)"' in svg and ">GOLD<" in svg
    gold, grain = rgb(TERRAIN_FILL["gold"]), rgb(TERRAIN_FILL["fields"])
    assert sum(abs(a - b) for a, b in zip(gold, grain)) > 80
    png = cairosvg.svg2png(bytestring=svg.encode())
    assert near(colours_of(png), "#8a4b00") > 30              # the stripes are drawn


def _tile(terrain, number=None):
    from service.engine.state import Tile
    return Tile(terrain, number)


def test_harbour_labels_sit_inside_their_sea_hex_not_on_the_edge():
    e = (0, 0, "E")                                         # between land (0, 0) and sea (1, 0)
    svg = board({(0, 0): _tile("forest", 5), (1, 0): _tile("sea")}, harbors={e: "wool"}, size=40)
    m = re.search(r'<g class="harbor">.*?<text x="([\d.-]+)" y="([\d.-]+)"[^>]*>2:1 wool</text>', svg)
    assert m, svg
    lx, ly = float(m.group(1)), float(m.group(2))
    (x1, y1), (x2, y2) = (node_point(n, 40) for n in edge_nodes(e))
    mid = ((x1 + x2) / 2, (y1 + y2) / 2)
    sea = hex_center((1, 0), 40)
    assert math.dist((lx, ly), mid) > 15 and math.dist((lx, ly), sea) < math.dist(mid, sea)
    assert 'font-size="10.8"' in svg                         # 0.27 of the hex size: readable


def test_the_route_has_a_dark_casing_and_a_bright_core(client):
    svg = render(client, {"state": TRY_IT["state"], "highlight": {"route_of": 0}}, "svg").get_data(as_text=True)
    route = svg[svg.index('<g class="route">'):]
    assert ROUTE_CASING in route.split("</g>")[0] and ROUTE_CORE in route.split("</g>")[0]
    # a bright core on a dark casing stays visible on the palest and the darkest terrain
    for terrain in ("fields", "desert", "sea", "forest", "gold"):
        t = rgb(TERRAIN_FILL[terrain])
        assert max(_contrast(rgb(ROUTE_CASING), t), _contrast(rgb(ROUTE_CORE), t)) > 3, terrain


def _contrast(a, b):
    def lum(c):
        v = [x / 255 for x in c]
        v = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
        return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def ship_position():
    """A sea board round one forest hex: player 0's settlement on its coast and a lane of two ships."""
    from service.engine.geometry import canonical_edge, edge_hexes as hexes_of, hex_distance, node_edges
    rows = {(q, r): ("sea", None) for q in range(-3, 4) for r in range(-3, 4) if hex_distance((0, 0), (q, r)) <= 2}
    rows.update({(q, r): "frame" for q in range(-4, 5) for r in range(-4, 5) if hex_distance((0, 0), (q, r)) == 3})
    rows[(0, 0)] = ("forest", 5)
    first = (0, 0, "E")
    far_end = edge_nodes(first)[1]
    second = next(e for e in (canonical_edge(*x) for x in node_edges(far_end))
                  if e != first and all(rows.get(h, "frame") != "frame" for h in hexes_of(e)))
    st = state(hexes(rows), scenario="seafarers", settlements=[(0, edge_nodes(first)[0])],
               ships=[(0, first), (0, second)], turn_flags={"ship_moved": True})
    return st, second


def marks_of(svg: str) -> list[str]:
    return re.findall(r'<(?:circle|ellipse) class="mark"[^>]*>', svg)


def test_only_the_offending_piece_is_marked(client):
    """A ship move refused for a reason about the whole action (a second move this turn, SEA-017) marks
    nothing; one refused for its destination marks that end only."""
    st, second = ship_position()
    move = {"type": "move_ship", "player": 0, "from": list(second), "to": [-1, -1, "E"]}
    r = render(client, {"state": st, "action": move}, "svg")
    assert r.headers["X-Violations"] == "SEA-017" and marks_of(r.get_data(as_text=True)) == []
    st["turn_flags"] = {}
    r = render(client, {"state": st, "action": {**move, "player": 1}}, "svg")
    assert r.headers["X-Legal"] == "false" and marks_of(r.get_data(as_text=True)) == []     # turn order
    r = render(client, {"state": st, "action": move}, "svg")       # to an edge touching nothing of player 0
    assert r.headers["X-Violations"] == "SEA-008"
    marked = marks_of(r.get_data(as_text=True))
    assert len(marked) == 1 and marked[0].startswith("<ellipse")                 # the destination only


def test_violation_marks_follow_the_pointer():
    from service.api.tools import violation_marks
    from service.engine.core import Action, Violation
    a = Action("move_ship", 0, {"from": (1, 0, "NE"), "to": (2, 0, "E")})
    assert violation_marks(a, [Violation("SEA-017", "m", "/action")]) == {"hexes": [], "nodes": [], "edges": []}
    assert violation_marks(a, [Violation("SEA-018", "m", "/action/from")])["edges"] == [[1, 0, "NE"]]
    rb = Action("play_road_building", 0, {"pieces": [{"kind": "road", "edge": (0, 0, "E")},
                                                     {"kind": "ship", "edge": (1, 0, "E")}]})
    assert violation_marks(rb, [Violation("BASE-COMP-1", "m", "/action/pieces/1/kind")])["edges"] == [[1, 0, "E"]]
