"""POST /v1/render: the board as SVG (or PNG), with the route witness and a violation's location marked."""
from __future__ import annotations

import pytest

from .helpers import hand, hexes, radius_board, state
from .spec_util import check_response


def render(client, body, query=""):
    r = client.post("/v1/render" + query, json=body)
    check_response("/v1/render", "post", r)
    return r


def test_a_new_game_is_drawn_with_every_hex_token_and_harbour(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 4, "seed": 3}).get_json()["state"]
    r = render(client, {"state": st})
    assert r.status_code == 200 and r.mimetype == "image/svg+xml"
    svg = r.get_data(as_text=True)
    assert svg.startswith("<svg") and svg.count('class="hex ') == 37 and svg.count('class="harbor"') == 9
    assert svg.count("<circle") >= 18 + 1                 # 18 number tokens and the robber
    assert ">R<" in svg


def test_pieces_hidden_hexes_pirate_and_special_points_are_drawn(client):
    board = hexes({(0, 0): ("forest", 6), (1, 0): "sea", (0, 1): "unknown", (1, -1): "sea", (0, -1): "frame",
                   (-1, 0): "frame", (-1, 1): "frame", (2, -1): "frame", (2, 0): "frame", (1, 1): "frame",
                   (0, 2): "frame", (2, -2): "frame", (1, -2): "frame"})
    st = state(board, scenario="seafarers", settlements=[(0, [0, 0, "N"])], ships=[(0, [0, 0, "NE"])],
               pirate=[1, 0], turn_flags={"rolled": True}, svp_attached=[{"node": [0, 0, "N"], "count": 1}])
    st["players"][0]["svp"] = 1
    svg = render(client, {"state": st}).get_data(as_text=True)
    assert 'class="hex unknown"' in svg and ">?<" in svg
    assert 'stroke-dasharray' in svg and 'class="settlement"' in svg and ">P<" in svg
    assert 'class="svp"' in svg


def test_the_longest_route_witness_is_highlighted(client):
    st = state(radius_board(), settlements=[(0, [0, 0, "N"])],
               roads=[(0, [0, -1, "SE"]), (0, [0, -1, "E"]), (0, [1, -2, "SE"])], turn_flags={"rolled": True})
    r = render(client, {"state": st, "highlight": {"route_of": 0}})
    assert r.headers["X-Route-Length"] == "3" and 'class="route"' in r.get_data(as_text=True)


def test_an_illegal_action_is_marked_where_it_breaks_the_rule(client):
    """BASE-BUILD-2: the settlement's intersection is circled; the rule is named in a header."""
    st = state(radius_board(), hands={0: hand(lumber=1, brick=1, wool=1, grain=1)},
               settlements=[(1, [0, 0, "N"])], roads=[(0, [0, -1, "SE"])], turn_flags={"rolled": True})
    r = render(client, {"state": st, "action": {"type": "build_settlement", "player": 0, "node": [1, -1, "S"]}})
    assert r.headers["X-Legal"] == "false" and "BASE-BUILD-2" in r.headers["X-Violations"]
    assert 'class="mark"' in r.get_data(as_text=True)
    ok = render(client, {"state": st, "action": {"type": "end_turn", "player": 0}})
    assert ok.headers["X-Legal"] == "true" and 'class="mark"' not in ok.get_data(as_text=True)


def test_png_output(client):
    pytest.importorskip("cairosvg", reason="cairosvg is not installed")
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1}).get_json()["state"]
    r = client.post("/v1/render?format=png", json={"state": st})
    assert r.status_code == 200 and r.mimetype == "image/png" and r.data[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.post("/v1/render", json={"state": st, "format": "png"}).mimetype == "image/png"


def test_bad_render_requests_are_422(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1}).get_json()["state"]
    assert render(client, {"state": st, "highlight": {"route_of": 3}}).status_code == 422
    assert render(client, {"state": st, "size": 500}).status_code == 422
    assert render(client, {"state": st, "colour": "red"}).status_code == 422


def _big_board_state(radius: int = 11):
    from .helpers import hexes
    b = {}
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            if abs(q + r) <= radius:
                b[(q, r)] = ("forest", 6) if (q * 7 + r * 3) % 4 else "sea"
    return state(hexes(b), scenario="seafarers")


def test_a_png_over_the_area_limit_is_422_naming_the_size_and_the_size_that_fits(client):
    """400 hexes at size 80 would be some 3200 x 2800 pixels: refused before anything is drawn, with the
    largest size that fits (never drawn smaller without asking); an SVG of the same board is drawn."""
    from service.render import cache as pictures
    st = _big_board_state()
    r = render(client, {"state": st, "size": 80}, "?format=png")
    assert r.status_code == 422 and r.mimetype == "application/problem+json"
    err = r.get_json()["errors"][0]
    assert err["pointer"] == "/size" and "pixels" in err["detail"] and "at most size" in err["detail"]
    fits = int(err["detail"].split("at most size ")[1].split(" ")[0])
    ok = client.post("/v1/render", json={"state": st, "size": fits})
    w, h = pictures.svg_size(ok.get_data(as_text=True))
    assert w * h <= pictures.MAX_AREA
    assert render(client, {"state": st, "size": 80}).status_code == 200          # svg: no area limit


def test_a_png_over_the_time_budget_is_422(client, monkeypatch):
    from service.render import cache as pictures
    monkeypatch.setattr(pictures, "PNG_BUDGET_SECONDS", 0.01)
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1}).get_json()["state"]
    r = render(client, {"state": st, "size": 60}, "?format=png")
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/size"
    assert "longer to draw" in r.get_json()["errors"][0]["detail"]


def test_pngs_are_kept_by_what_they_draw(client, monkeypatch):
    """The same picture is drawn once: a second state that differs only where the picture shows nothing
    (a hand of cards) is answered from the cache, byte for byte; another size is another picture."""
    pytest.importorskip("cairosvg", reason="cairosvg is not installed")
    from service.api import tools
    from service.render import cache as pictures
    pictures.clear()
    drawn = []
    real = tools.png_of
    monkeypatch.setattr(tools, "png_of", lambda svg: drawn.append(1) or real(svg))
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 2}).get_json()["state"]
    first = client.post("/v1/render?format=png", json={"state": st})
    later = dict(st, turn=st["turn"] + 5)                 # the turn number is not drawn
    again = client.post("/v1/render?format=png", json={"state": later})
    assert first.status_code == again.status_code == 200 and first.data == again.data and len(drawn) == 1
    client.post("/v1/render?format=png", json={"state": st, "size": 20})
    assert len(drawn) == 2 and pictures.held() >= len(first.data)


def test_the_picture_cache_is_bounded_in_bytes():
    from service.render import cache as pictures
    pictures.resize(10_000)
    try:
        for i in range(20):
            pictures.put(pictures.key_of(f"<svg>{i}</svg>", "png"), b"x" * 2_000)
        assert pictures.held() <= 10_000
        assert pictures.get(pictures.key_of("<svg>19</svg>", "png")) == b"x" * 2_000
        assert pictures.get(pictures.key_of("<svg>0</svg>", "png")) is None
        pictures.put(pictures.key_of("<svg>huge</svg>", "png"), b"x" * 20_000)    # larger than the bound
        assert pictures.get(pictures.key_of("<svg>huge</svg>", "png")) is None
    finally:
        pictures.resize(16 << 20)
