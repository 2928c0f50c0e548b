"""What the pictures draw for a referee: the proposed action's piece (green / red), the verdict written over
the board on request, a terrain legend, harbour labels, coordinates and the GOLD label over the pieces,
the hex size a client needs to turn a click into a place, and GOLD's ships, front coast, MNR and panel."""
from __future__ import annotations

import json
import re
from pathlib import Path

from service.engine.core import Action
from service.engine.mapgraph import MapGraph
from service.engine.scenarios import get_scenario
from service.render.svg import auto_size, state_svg

from .helpers import hexes, state
from .spec_util import check_response

TRY_IT = json.loads((Path(__file__).parents[1] / "docs" / "try-it.json").read_text(encoding="utf-8"))
TOO_CLOSE = {"type": "build_settlement", "player": 0, "node": [0, -1, "S"]}      # BASE-BUILD-2


def render(client, body):
    r = client.post("/v1/render", json=body)
    check_response("/v1/render", "post", r)
    assert r.status_code == 200, r.get_data(as_text=True)
    return r.get_data(as_text=True)


def test_a_legal_proposal_is_drawn_green_where_it_goes(client):
    svg = render(client, {"state": TRY_IT["state"], "action": TRY_IT["action"]})
    group = re.search(r'<g class="proposed legal">(.*?)</g>', svg).group(1)
    assert "#00c853" in group and "<line" in group                    # a road, outlined green
    assert "proposed (legal)" in svg and "proposed (illegal" not in svg
    assert 'class="caption' not in svg                                 # the verdict only when asked


def test_an_illegal_proposal_is_drawn_red_with_its_rule_in_the_legend(client):
    svg = render(client, {"state": TRY_IT["state"], "action": TOO_CLOSE})
    group = re.search(r'<g class="proposed illegal">(.*?)</g>', svg).group(1)
    assert "#d50000" in group and "<polygon" in group                  # a house, outlined red
    assert "proposed (illegal: BASE-BUILD-2)" in svg
    assert 'class="mark"' in svg


def test_the_verdict_is_written_into_the_picture_when_asked(client):
    svg = render(client, {"state": TRY_IT["state"], "action": TOO_CLOSE, "verdict": True})
    caption = re.search(r'<g class="caption illegal">(.*?)</g>', svg).group(1)
    text = " ".join(re.findall(r">([^<]+)</text>", caption))
    assert "Illegal: build_settlement by player 0" in text and "BASE-BUILD-2 Distance rule" in text
    legal = render(client, {"state": TRY_IT["state"], "action": TRY_IT["action"], "verdict": True})
    assert "Legal: build_road by player 0" in legal and 'class="caption legal"' in legal
    r = client.post("/v1/render", json={"state": TRY_IT["state"], "verdict": "yes"})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/verdict"


def test_the_legend_names_each_terrain_drawn(client):
    st = client.post("/v1/games", json={"scenario": "SC01", "players": 3, "seed": 1}).get_json()["state"]
    svg = render(client, {"state": st})
    legend = svg[svg.index('<g class="legend">'):]
    for name in ("sea", "frame (sea, no tiles)", "desert", "gold field (any resource)", "fields (grain)"):
        assert f">{name}<" in legend
    terrains = {h["terrain"] for h in st["board"]["hexes"]}
    assert legend.count('class="swatch ') == len(terrains)
    assert 'class="gold-label"' in svg


def test_unexplored_hexes_are_in_the_legend(client):
    board = hexes({(0, 0): ("forest", 6), (1, 0): "sea", (0, 1): "unknown"})
    svg = render(client, {"state": state(board, scenario="seafarers")})
    assert ">unexplored (?)<" in svg


def test_labels_and_coordinates_are_drawn_over_the_pieces(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 7}).get_json()["state"]
    harbor = st["board"]["harbors"][0]["edge"]
    st["pieces"]["roads"].append({"player": 0, "edge": harbor})
    st["pieces"]["settlements"].append({"player": 0, "node": _a_node_of(harbor)})
    st["players"][0]["supply"].update(roads=14, settlements=4)
    svg = render(client, {"state": st, "coords": True})
    last_piece = max(svg.rfind('<g class="road">'), svg.rfind('class="settlement"'))
    assert last_piece > 0
    assert svg.index('<g class="harbor">') > last_piece              # labels over the pieces
    assert svg.index('<g class="coord">') > last_piece
    assert svg.count('<g class="coord">') == len(st["board"]["hexes"])
    assert ">0,0</text>" in svg


def _a_node_of(edge):
    from service.engine.geometry import edge_nodes
    return list(edge_nodes(tuple(edge))[0])


def test_the_picture_carries_its_hex_size(client):
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 7}).get_json()["state"]
    svg = render(client, {"state": st})
    size = float(re.search(r'data-hex-size="([\d.]+)"', svg).group(1))
    from service.engine.state import Tile
    assert abs(size - auto_size({(h["q"], h["r"]): Tile(h["terrain"]) for h in st["board"]["hexes"]})) < 1e-3
    assert 'data-hex-size="30.000"' in render(client, {"state": st, "size": 30})


def test_a_ship_move_is_drawn_where_the_ship_goes():
    from service.api.tools import proposal_of
    p = proposal_of(Action("move_ship", 1, {"from": (0, 0, "E"), "to": (1, 0, "SE")}), True)
    assert p["kind"] == "ship" and p["edges"] == [[1, 0, "SE"]] and p["player"] == 1
    p = proposal_of(Action("move_robber", 0, {"hex": (1, 0), "victim": 2}), False)
    assert p["kind"] is None and p["hexes"] == [[1, 0]]


def test_a_gold_picture_shows_largest_fleet_mnr_ships_and_the_front_coast():
    scen = get_scenario("GOLD")
    st = scen.new_game(3, 1)
    graph = MapGraph.build(st.terrain_map())
    home = sorted(st.scenario_state["front_coast"])[0]
    st.scenario_state["ships"] = [{"id": 1, "player": 2, "edge": [1, 4, "NE"], "home": home, "cargo": 3}]
    st.scenario_state["largest_fleet"] = None
    svg = state_svg(st, layers=scen.board_layers(st, graph))
    assert 'class="layer gold-front-coast"' in svg and 'class="layer gold-ship"' in svg
    ship = svg[svg.index('class="layer gold-ship"'):]
    assert ">3</text>" in ship[:ship.index("</g></g>")]                      # its cargo on it
    panel = svg[svg.index('class="panel gold"'):]
    assert "Largest Fleet (GOLD-037, 2 VP): nobody; ships player 0: 0, player 1: 0, player 2: 1" in panel
    assert "Minimum Number of Roads (GOLD-038)" in panel
