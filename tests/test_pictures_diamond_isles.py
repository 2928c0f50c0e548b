"""Diamond Isles on the board picture and in the explanations: the villages and their diamonds (DIAM-002,
DIAM-003), the ships of closed routes (DIAM-011), the diamond panel (DIAM-008, DIAM-009, DIAM-021); each
player's diamonds and VP, the routes and why they pay (DIAM-006, DIAM-007), who may move the robber and
the pirate (DIAM-014, DIAM-015, R-050), the end and its tie-break (DIAM-021, DIAM-022)."""
from __future__ import annotations

import html
import json
import re
from pathlib import Path

from .examples_adapter import to_action, to_state

CASES = Path(__file__).parent / "fixtures" / "examples" / "cases"


def case(name: str) -> dict:
    return json.loads((CASES / f"{name}.json").read_text(encoding="utf-8"))


def svg_of(client, st: dict) -> str:
    r = client.post("/v1/render?format=svg", json={"state": st})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return html.unescape(r.get_data(as_text=True))       # the notes as written (apostrophes)


def layer(svg: str, key: str) -> str:
    m = re.search(rf'<g class="layer {key}">(.*?)</g></g>', svg, re.S)
    assert m, key
    return m.group(1) + "</g>"


def modules(client, st: dict) -> dict:
    r = client.post("/v1/derive?explain=true", json={"state": st})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["explanations"]["modules"]


def test_the_villages_their_diamonds_and_the_closed_routes_are_drawn_and_in_the_legend(client):
    """diam-03: two players trade with the village on 3,-1 (number 4); four villages of 5 diamonds."""
    st = to_state(case("diam-03"))
    svg = svg_of(client, st)
    villages = layer(svg, "diam-village")
    assert villages.count('class="glyph"') == 4                       # DIAM-002: four island villages
    assert "island village on 3,-1, number 4" in villages
    gems = layer(svg, "diam-diamonds")
    counts = sorted(re.findall(r'font-weight="bold"[^>]*>(\d+)</text>', gems))
    assert counts == sorted(str(v["diamonds"]) for v in st["scenario_state"]["villages"])   # DIAM-003
    routes = layer(svg, "diam-route")
    # DIAM-011: player 0's 2 ships and player 1's 4 ships of their routes to 3,-1, one band each
    assert routes.count('class="glyph"') == 6
    assert routes.count("player 0's ship on a closed trade route to the village on 3,-1") == 2
    assert routes.count("player 1's ship on a closed trade route to the village on 3,-1") == 4
    legend = svg[svg.index('class="legend"'):]
    for words in ("island village (DIAM-002)", "diamonds left on a village (DIAM-003)",
                  "ship of a closed trade route (DIAM-011: never moves)"):
        assert words in legend, words


def test_the_diamond_panel_shows_the_cache_each_players_diamonds_and_the_end(client):
    st = to_state(case("diam-03"))
    svg = svg_of(client, st)
    drawn = re.search(r'<g class="panel diam-cache">(.*?)</g>', svg, re.S).group(1)
    panel = " ".join(re.findall(r">([^<]*)</text>", drawn))        # its lines, joined again if wrapped
    ss = st["scenario_state"]
    assert f"general cache: {ss['diamond_cache']}" in panel and f"spare counters: {ss['diamond_reserve']}" in panel
    assert "0: 2 diamonds = 1 VP" in panel and "1: 1 diamond = 0 VP" in panel        # DIAM-009
    assert "every counter: 50 of 50" in panel                                         # DIAM-003
    assert "4 villages still hold diamonds: the game ends when only 3 do (DIAM-021)" in panel
    assert svg.index('class="legend"') < svg.index('class="panel diam-cache"')       # under the legend


def test_a_village_with_no_route_draws_no_route_band(client):
    """Before any route: villages and diamonds drawn, no route layer, nothing about routes in the legend."""
    st = to_state(case("diam-03"))
    st["pieces"]["ships"] = []
    st["scenario_state"]["trade_routes"] = {}
    extra = sum(st["scenario_state"]["diamonds"].values())
    st["scenario_state"]["diamonds"] = {}
    st["scenario_state"]["diamond_reserve"] += extra
    svg = svg_of(client, st)
    assert 'class="layer diam-village"' in svg and 'class="layer diam-route"' not in svg
    assert "closed trade route" not in svg
    ex = modules(client, st)
    assert ex["trade_routes"]["players"] == {"0": [], "1": [], "2": []}
    assert "nobody has a trade route yet" in ex["trade_routes"]["why"] and "DIAM-006" in ex["trade_routes"]["why"]
    assert ex["robber_and_pirate"]["pirate"] == [] and "nobody may move the pirate" in ex["robber_and_pirate"]["why"]
    assert "player 1 moves nothing and steals nothing (R-050)" in ex["robber_and_pirate"]["why"]


def test_the_explanations_give_diamonds_routes_and_who_may_move_what(client):
    st = to_state(case("diam-03"))
    ex = modules(client, st)
    assert ex["diamonds"]["players"] == {"0": {"diamonds": 2, "vp": 1}, "1": {"diamonds": 1, "vp": 0},
                                         "2": {"diamonds": 0, "vp": 0}}
    assert "player 0 has 2 diamonds, worth 1 VP" in ex["diamonds"]["why"] and "DIAM-009" in ex["diamonds"]["why"]
    r0 = ex["trade_routes"]["players"]["0"]
    assert [(r["village"], r["number"], len(r["ships"])) for r in r0] == [([3, -1], 4, 2)]
    assert len(ex["trade_routes"]["players"]["1"][0]["ships"]) == 4
    why = r0[0]["why"]
    for rule in ("DIAM-006", "DIAM-007", "DIAM-008", "DIAM-011"):
        assert rule in why, rule
    assert "pays 1 on every roll of 4" in why
    mm = ex["robber_and_pirate"]
    # DIAM-014: nobody shows 3 VP; DIAM-015: both route owners may move the pirate, player 1's turn
    assert mm["robber"] is False and mm["pirate"] == [0, 1] and mm["public_vp"] == {"0": 2, "1": 1, "2": 0}
    assert "the robber may not be moved yet: the most victory points anyone shows is 2" in mm["why"]
    assert "player 1, whose turn it is, may move the pirate" in mm["why"] and "R-050" in mm["why"]


def test_the_robber_explanation_names_who_has_3_victory_points(client):
    """diam-06: player 0 shows 2 VP (a settlement, a pair of diamonds), so the robber waits (DIAM-014);
    two more diamonds (from the spare counters) make 3 and the robber may move."""
    st = to_state(case("diam-06"))
    before = modules(client, st)["robber_and_pirate"]
    assert before["robber"] is False and "the most victory points anyone shows is 2, under 3 (DIAM-014" in before["why"]
    assert "player 0, whose turn it is, may move the pirate" in before["why"]
    st["scenario_state"]["diamonds"]["0"] += 2
    st["scenario_state"]["diamond_reserve"] -= 2
    after = modules(client, st)["robber_and_pirate"]
    assert after["robber"] is True and after["public_vp"]["0"] == 3
    assert "the robber may be moved: player(s) 0 have 3 or more victory points" in after["why"]
    assert "player 0, whose turn it is, may move the robber or the pirate" in after["why"]


def test_the_end_by_exhausted_villages_and_its_tie_break_are_explained(client):
    """diam-05: the roll empties a village; 3 VP each for players 0 and 1, player 0 has more diamonds."""
    ex = case("diam-05")
    v = client.post("/v1/adjudicate", json={"state": to_state(ex), "action": to_action(ex)}).get_json()
    end = modules(client, v["state"])["game_end"]
    assert end["ended_by_villages"] is True and end["villages_with_diamonds"] == 3
    assert end["winners"] == [0] and end["decided_by"] == "diamonds"
    assert "only 3 villages still hold diamonds, so the game ended at once (DIAM-021, R-049)" in end["why"]
    assert "player 0 has the most diamonds (5; DIAM-022)" in end["why"]
    svg = svg_of(client, v["state"])
    assert "3 villages still hold diamonds" in svg
    assert re.search(r'<title>0 diamonds left on the village on 3,-1', svg)
