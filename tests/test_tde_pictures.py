"""Treasures, Dragons & Explorers 1-4 on the board picture (``board_layers``: each layer drawn where its
pieces lie and named in the legend) and in the explanations (``explain=true``: what each module keeps,
in plain words citing the rules)."""
from __future__ import annotations

import math
import re

import pytest

from service.api.codec import dump_state
from service.engine.mapgraph import MapGraph
from service.engine.scenarios import get_scenario
from service.render.svg import hex_center, node_point

from .helpers import adjudicate
from .test_tde3_greater_catan import EDGE as TDE3_EDGE
from .test_tde3_greater_catan import small_state
from .test_tde4_desert_dragons import dragons, position
from .test_tde_treasures import SETTLEMENT, claim, post, treasure

SIZE = 30


def render(client, st: dict) -> str:
    r = client.post("/v1/render?format=svg", json={"state": st, "size": SIZE})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return r.get_data(as_text=True)


def layer(svg: str, key: str) -> list[tuple[str, tuple[float, float]]]:
    """The glyphs of a module layer: (hover note, centre of the shape drawn)."""
    m = re.search(rf'<g class="layer {re.escape(key)}">(.*?)</g></g>\n', svg, re.S)
    assert m, f"no layer {key}"
    out = []
    for g in re.findall(r'<g class="glyph">(.*?)</g>', m.group(1) + "</g>", re.S):
        note = re.search(r"<title>(.*?)</title>", g).group(1)
        out.append((note, _centre(g)))
    return out


def _centre(g: str) -> tuple[float, float]:
    if m := re.search(r'<circle cx="([-\d.]+)" cy="([-\d.]+)"', g):
        return float(m.group(1)), float(m.group(2))
    if m := re.search(r'<line x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"', g):
        x1, y1, x2, y2 = map(float, m.groups())
        return (x1 + x2) / 2, (y1 + y2) / 2
    if m := re.search(r'<path d="M([-\d.]+),([-\d.]+) L([-\d.]+),([-\d.]+)', g):
        x1, y1, x2, y2 = map(float, m.groups())
        return (x1 + x2) / 2, (y1 + y2) / 2
    pts = [tuple(map(float, p.split(","))) for p in re.search(r'points="([^"]+)"', g).group(1).split()]
    return (min(p[0] for p in pts) + max(p[0] for p in pts)) / 2, (min(p[1] for p in pts) + max(p[1] for p in pts)) / 2


def at_hex(h, below=True) -> tuple[float, float]:
    x, y = hex_center(tuple(h), SIZE)
    return x, y + (SIZE * 0.55 if below else 0)


def at_node(n) -> tuple[float, float]:
    return node_point(tuple(n), SIZE)


def at_edge(e) -> tuple[float, float]:
    from service.engine.geometry import edge_nodes
    (x1, y1), (x2, y2) = (node_point(n, SIZE) for n in edge_nodes(tuple(e)))
    return (x1 + x2) / 2, (y1 + y2) / 2


def same_places(glyphs, wanted) -> bool:
    got = sorted(c for _, c in glyphs)
    want = sorted(wanted)
    return len(got) == len(want) and all(math.dist(a, b) < 1.5 for a, b in zip(got, want))


def legend(svg: str) -> str:
    return svg[svg.index('class="legend"'):]


def explained(client, st: dict, action=None) -> dict:
    if action is None:
        r = client.post("/v1/derive?explain=true", json={"state": st})
    else:
        r = client.post("/v1/adjudicate?explain=true", json={"state": st, "action": action})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return r.get_json()["explanations"]["modules"]


# -- TDE1 / TDE2 ----------------------------------------------------------------------------------------


def test_treasures_and_face_down_hexes_are_drawn_where_they_lie_TDE1_005_TDE1_008(client):
    """TDE1-005: the treasure tokens on their intersections (chest side up: "T", never what they give);
    TDE1-008: the face-down hexes ringed; both named in the legend."""
    nodes = [(3, 1, "N"), (5, 0, "S")]
    st = post("TDE1", ss={"treasures": [treasure(n, "resources") for n in nodes]})
    svg = render(client, st)
    tokens = layer(svg, "treasure")
    assert same_places(tokens, [at_node(n) for n in nodes])
    assert all("TDE1-011" in note for note, _ in tokens) and "resources" not in svg
    down = layer(svg, "face-down")
    assert same_places(down, [at_hex(h, below=False) for h in ((4, 1), (5, 1))])
    words = legend(svg)
    assert "treasure token (taken by the road or ship reaching it, TDE1-011)" in words
    assert "face-down hex (turned over when a road or ship reaches it, TDE1-008)" in words
    assert "special 2:1 port" not in words                   # TDE1 has none


def test_a_taken_treasure_and_a_turned_hex_leave_the_picture_TDE1_011(client):
    st = post("TDE1", ss={"treasures": [treasure((4, 0, "S"), "resources")]})
    v = adjudicate(client, st, {"type": "build_ship", "player": 0, "edge": [3, 0, "SE"]})
    assert v["legal"], v["violations"]
    v = adjudicate(client, v["state"], {"type": "build_ship", "player": 0, "edge": [3, 1, "NE"],
                                        "discoveries": [{"terrain": "sea"}]})
    assert v["legal"], v["violations"]
    svg = render(client, v["state"])
    assert 'class="layer treasure"' not in svg and "treasure token" not in legend(svg)
    assert len(layer(svg, "face-down")) == 1                 # (4, 1) turned over, (5, 1) still face down


def test_an_attached_special_port_is_ringed_in_its_owner_colour_TDE2_018(client):
    """TDE2-018 (R-060): the special port's building is ringed in its owner's colour, labelled with the
    port, the port itself drawn as a harbour; the legend names it."""
    st = post("TDE2", ss={"kept": {"0": 2, "1": 0, "2": 0}})
    v = adjudicate(client, st, {"type": "attach_special_port", "player": 0, "node": list(SETTLEMENT),
                                "resource": "ore"})
    assert v["legal"], v["violations"]
    svg = render(client, v["state"])
    ports = layer(svg, "special-port")
    assert same_places(ports, [at_node(SETTLEMENT)]) and "TDE2-018" in ports[0][0]
    block = svg[svg.index('class="layer special-port"'):].split("</g></g>")[0]
    assert 'stroke="#d32f2f"' in block and ">2:1 ore<" in block             # player 0's red
    assert "special 2:1 port attached to a building (TDE2-018)" in legend(svg)
    assert "treasure token (taken by the road or ship reaching it, TDE2-014)" not in legend(svg)   # none left


def test_treasures_explained_with_the_rewards_owed_TDE1_010_TDE1_012_R_055(client):
    st = post("TDE1", ss={"treasures": [treasure((3, 1, "N"), "resources")],
                          "pending": [{"player": 0, "kind": "roads_ships", "count": 2, "source": "stock",
                                       "rule": "TDE1-010"}]})
    ex = explained(client, st)
    t = ex["treasures"]
    assert t["on_board"] == [[3, 1, "N"]] and t["stock"] == 2 and len(t["pending"]) == 1
    for words in ("1 treasure token still lies on the board", "TDE1-011", "TDE2-013", "2 tokens left in the stock", "R-058",
                  "1 reward owed", "TDE1-012", "R-055", "player 0: 2 free roads or ships (a treasure token from the "
                  "stock, TDE1-010)"):
        assert words in t["why"], words


def test_catan_chips_and_victory_points_explained_TDE1_013_TDE1_015(client):
    st = post("TDE1")
    st["players"][0]["svp"] = 2
    st["players"][1]["svp"] = 1
    ex = explained(client, st)
    chips = ex["catan_chips"]
    assert chips["awarded"] == 3 and chips["left"] == 11 and chips["by_player"] == {"0": 2, "1": 1, "2": 0}
    assert "3 of the 14 Catan chips awarded, 11 left" in chips["why"]
    assert "TDE1-013" in chips["why"] and "R-056" in chips["why"] and "TDE1-015" in chips["why"]
    vp = ex["victory_points"]["0"]
    assert vp["total"] == 3 and vp["sources"] == {"settlements": 1, "special": 2}
    assert "2 for Catan chips (1 VP each, TDE1-013)" in vp["why"] and "of the 15 VP needed" in vp["why"]


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4])
def test_kept_treasures_and_their_benefits_explained_TDE2_016_TDE2_020(client, k):
    """R-060: the benefits add up: ≥1 the discard limit 9, 2 a special port, 3 one VP, 4 two VP in all and
    no more kept."""
    ss = {"kept": {"0": k, "1": 0, "2": 0}}
    st = post("TDE2", ss=ss)
    if k >= 2:
        st["scenario_state"]["special_ports"] = {"0": {"node": list(SETTLEMENT), "edge": [1, 1, "E"],
                                                       "resource": "ore"}}
        st["scenario_state"]["harbor_pile"] = ["lumber", "brick", "wool", "grain"]
        st["board"]["harbors"] = [{"edge": [1, 1, "E"], "kind": "ore"}]
    ex = explained(client, st)
    mine = ex["kept_treasures"]["0"]
    why = mine["why"]
    assert mine["kept"] == k and f"keeps {k} treasure token" in why and "TDE2-016" in why
    assert ("discard only above 9 cards (TDE2-017)" in why) is (k >= 1)
    assert ("special 2:1 ore port is attached at 2,0,S (TDE2-018" in why) is (k >= 2)
    assert ("TDE2-019" in why) is (k >= 3)
    assert ("TDE2-020" in why) is (k == 4)
    vp = ex["victory_points"]["0"]
    want = {0: 0, 1: 0, 2: 0, 3: 1, 4: 2}[k]
    assert vp["sources"].get("treasures", 0) == want
    if want:
        assert f"{want} for kept treasure tokens" in vp["why"] and "TDE2-019" in vp["why"]


def test_a_special_port_owed_is_explained_R_060(client):
    ex = explained(client, post("TDE2", ss={"kept": {"0": 2, "1": 0, "2": 0}}))
    assert "a special port is owed and must be attached" in ex["kept_treasures"]["0"]["why"]
    assert ex["kept_treasures"]["0"]["port_owed"] is True


def test_explanations_come_with_a_verdict_and_do_not_change_it(client):
    st = post("TDE1", ss={"pending": [{"player": 0, "kind": "resources", "count": 2, "source": "board",
                                       "rule": "TDE1-011"}]})
    plain = client.post("/v1/adjudicate", json={"state": st, "action": claim(st, resources={"ore": 2})[1]}).get_json()
    r = client.post("/v1/adjudicate?explain=true", json={"state": st, "action": claim(st, resources={"ore": 2})[1]})
    v = r.get_json()
    assert v["legal"] and v["state"] == plain["state"] and v["events"] == plain["events"]
    assert "no reward is owed" in v["explanations"]["modules"]["treasures"]["why"]


# -- TDE3 -----------------------------------------------------------------------------------------------


def _tde3_post(st) -> dict:
    return dump_state(st)


def test_hexes_awaiting_a_token_and_moved_tokens_are_drawn_TDE3_009_TDE3_010(client):
    """TDE3-009: the new-island hex without a token is ringed; TDE3-010: once its token came from the home
    island, that home hex is crossed out; both named in the legend."""
    st = small_state([])
    svg = render(client, _tde3_post(st))
    assert same_places(layer(svg, "awaiting-token"), [at_hex((0, 2), below=False)])
    assert 'class="layer token-moved"' not in svg
    assert "new-island hex awaiting its number token (TDE3-009)" in legend(svg)
    r = client.post("/v1/adjudicate", json={"state": _tde3_post(st), "action": {
        "type": "build_ship", "player": 0, "edge": list(TDE3_EDGE)}}).get_json()
    assert r["legal"], r["violations"]
    src = next(e for e in r["events"] if e["type"] == "number_token_placed")["from"]
    svg = render(client, r["state"])
    assert 'class="layer awaiting-token"' not in svg
    moved = layer(svg, "token-moved")
    assert same_places(moved, [at_hex(src)]) and "TDE3-010" in moved[0][0]
    assert "home-island hex whose token moved away (TDE3-010)" in legend(svg)


def test_buildings_left_without_production_are_drawn_TDE3_013(client):
    from .test_tde3_greater_catan import HOME_ROW, X
    home = {h: (t, None) for h, (t, _) in HOME_ROW.items()}
    st = small_state([], home=home)
    svg = render(client, _tde3_post(st))
    idle = layer(svg, "unproductive")
    assert any(math.dist(c, at_node(X)) < 1.5 for _, c in idle)
    assert "home-island building without production (TDE3-013)" in legend(svg)


def test_impoverishment_explained_with_the_limitations_given_way_TDE3_014(client):
    """With the reserve empty, each awaiting hex's token source is named, and which limitations give way
    in the order 1, 2, 3 (TDE3-014, R-026)."""
    st = small_state([])
    ex = explained(client, _tde3_post(st))
    imp = ex["impoverishment"]
    assert imp["reserve_left"] == 0 and imp["awaiting"] == [[0, 2]]
    src = imp["next_sources"]["0,2"]
    assert src["from"] == [[0, 0], [1, 0]] and src["limits_dropped"] == ["TDE3-011"]
    assert "from 0,0, 1,0" in src["why"] and "limitation 1 (TDE3-011) gives way, in the order 1, 2, 3 (TDE3-014, " \
        "R-026)" in src["why"]
    assert "the reserve is empty" in imp["why"] and "TDE3-010" in imp["why"]
    assert "1 new-island hex still awaits a token" in imp["why"]
    cities = ex["cities"]
    assert cities["per_player"] == 8 and "TDE3-006" in cities["why"] and "R-028" in cities["why"]
    assert "of the 18 VP needed" in ex["victory_points"]["0"]["why"]


def test_a_reserve_still_full_is_explained_TDE3_009(client):
    ex = explained(client, _tde3_post(small_state([4, 5])))
    imp = ex["impoverishment"]
    assert imp["next_sources"] == {} and "2 tokens left face down in the reserve (TDE3-005)" in imp["why"]
    assert "R-063" in imp["why"]


# -- TDE4 -----------------------------------------------------------------------------------------------

#: Desert (1, 2) with 6 dragons, landscapes (1, 3) and (2, 2) invaded: the road (1,2,SE) lies between the
#: desert and (1, 3), the settlement (1,3,N) between all three.
BLOCKED = dict(settlements=[(0, [1, 3, "N"])], roads=[(0, [1, 2, "SE"])],
               **dragons((6, 5, 5), hexes=[(1, 3), (2, 2)]))


def test_dragons_blocks_and_targets_are_drawn_where_they_lie_TDE4_018_TDE4_019(client):
    st = position(**BLOCKED)
    svg = render(client, st)
    deserts = layer(svg, "desert-dragons")
    assert same_places(deserts, [at_hex(h) for h in ((1, 2), (2, 3), (0, 4))])
    block = svg[svg.index('class="layer desert-dragons"'):].split("</g></g>\n")[0]
    assert sorted(re.findall(r">(\d)</text>", block)) == ["5", "5", "6"]
    assert same_places(layer(svg, "dragon"), [at_hex(h) for h in ((1, 3), (2, 2))])
    assert same_places(layer(svg, "blocked-road"), [at_edge((1, 2, "SE"))])
    assert same_places(layer(svg, "blocked-building"), [at_node((1, 3, "N"))])
    targets = layer(svg, "invasion-target")
    derived = client.post("/v1/derive", json={"state": st}).get_json()["derived"]["invasion_targets"]
    want = [tuple(h) for hs in derived.values() for h in hs]
    assert want and same_places(targets, [at_hex(h, below=False) for h in want])
    words = legend(svg)
    for w in ("dragons on a desert (how many, TDE4-009/010)", "dragon on a landscape hex (it produces nothing, "
              "TDE4-016)", "next invasion target (on a roll of its number, R-065)", "blocked road (between two "
              "dragon hexes: no trade route, no road onto it, TDE4-018)", "blocked building (dragons all round: 0 VP, "
              "TDE4-019)"):
        assert w in words, w


def test_before_the_invasion_only_the_gathered_dragons_are_drawn_TDE4_011(client):
    st = position(**dragons((2, 2, 1)))
    svg = render(client, st)
    assert len(layer(svg, "desert-dragons")) == 3
    for key in ("dragon", "invasion-target", "blocked-road", "blocked-building"):
        assert f'class="layer {key}"' not in svg
    assert "invasion target" not in legend(svg)


def test_dragons_explained_gathering_invasion_and_knights_R_064_R_065_R_067(client):
    ex = explained(client, position(**dragons((2, 2, 1))))
    d = ex["dragons"]
    assert d["gathered"] == 5 and d["invasion"] is False and d["invasion_targets"] == {}
    for w in ("5 of the 18 dragons gathered, 13 beside the board", "adds 3 with 3 players (TDE4-009", "R-064",
              "TDE4-010", "no invasion yet", "TDE4-011", "13 to go", "R-067", "TDE4-021/022"):
        assert w in d["why"], w
    ex = explained(client, position(**BLOCKED))
    d = ex["dragons"]
    assert d["invasion"] is True and d["hexes"] == [[2, 2], [1, 3]]
    for w in ("the invasion is on", "TDE4-017", "R-065", "no chaining within a roll", "a 10 invades 1,1",
              "2 landscape hexes hold a dragon and produce nothing (TDE4-016)"):
        assert w in d["why"], w
    assert "TDE4-008" in ex["seven"]["why"] and "R-069" in ex["seven"]["why"] and "TDE4-007" in ex["seven"]["why"]


def test_blocked_pieces_explained_with_the_hexes_that_block_them_R_066(client):
    ex = explained(client, position(**BLOCKED))
    b = ex["blocked"]
    assert [r["edge"] for r in b["roads"]] == [[1, 2, "SE"]]
    assert "desert 1,2 (6 dragons); forest 1,3 (a dragon)" in b["roads"][0]["why"]
    assert "TDE4-018" in b["roads"][0]["why"] and "R-066" in b["roads"][0]["why"]
    assert [x["node"] for x in b["buildings"]] == [[1, 3, "N"]]
    assert "scores 0 VP" in b["buildings"][0]["why"] and "TDE4-019" in b["buildings"][0]["why"]
    assert "may still become a city, 0 VP while blocked" in b["buildings"][0]["why"]
    assert "1 road and 1 building blocked" in b["why"] and "TDE4-020" in b["why"] and "TDE4-023" in b["why"]
    vp = ex["victory_points"]["0"]
    assert vp["total"] == 0 and vp["sources"] == {"settlements": 1, "blocked_buildings": -1}
    assert "-1 for blocked buildings taken back (0 VP while blocked, TDE4-019)" in vp["why"]


# -- the maps drawn in docs/maps ------------------------------------------------------------------------


@pytest.mark.parametrize("sid,keys", [("TDE1", ("face-down", "treasure")), ("TDE2", ("face-down", "treasure")),
                                      ("TDE3", ("awaiting-token",))])
def test_a_new_game_picture_shows_the_scenario_layers(sid, keys):
    from service.render.svg import state_svg
    scen = get_scenario(sid)
    st = scen.new_game(3, 1)
    svg = state_svg(st, layers=scen.board_layers(st, MapGraph.build(st.terrain_map())))
    for key in keys:
        assert f'class="layer {key}"' in svg
