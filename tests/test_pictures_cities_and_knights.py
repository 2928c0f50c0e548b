"""Cities & Knights on the board picture and in the explanations: knights with their strength and active
state (CK-KNIGHT-1..4), city walls (CK-WALL-1), metropolises by track (CK-IMP-7), cities on their side
(CK-BARB-5), the merchant (CK-PROG-T3), the barbarian track and improvement panels; a barbarian attack
explained step by step (CK-BARB-1..12), improvements and metropolis holders, VP by source."""
from __future__ import annotations

import html
import re

from .ck_util import N, NE, NW, S, SE, SW, ck, knight, position

P0_CITIES = (N, (1, 0, "S"), (0, -1, "N"))          # player 0's three cities, none adjacent
P2_CITY = (-1, 1, "S")


def svg_of(client, st: dict) -> str:
    r = client.post("/v1/render?format=svg", json={"state": st})
    assert r.status_code == 200, r.get_data(as_text=True)[:300]
    return html.unescape(r.get_data(as_text=True))       # the notes as written (apostrophes)


def layer(svg: str, key: str) -> str:
    m = re.search(rf'<g class="layer {key}">(.*?)</g></g>', svg, re.S)
    assert m, key
    return m.group(1) + "</g>"


def panel(svg: str, key: str) -> str:
    """A panel's drawing, then its text lines joined again (the renderer wraps them to the picture's width)."""
    m = re.search(rf'<g class="panel {key}">(.*?)</g>', svg, re.S)
    assert m, key
    return m.group(1) + "\n" + " ".join(re.findall(r">([^<]*)</text>", m.group(1)))


def modules(client, st: dict) -> dict:
    r = client.post("/v1/derive?explain=true", json={"state": st})
    assert r.status_code == 200, r.get_json()
    return r.get_json()["explanations"]["modules"]


def full_position(**ck_over) -> dict:
    """Player 0: three cities, one with a wall and the metropolis of trade, a strong inactive knight;
    player 1: a city, an active mighty knight and the merchant; player 2: a city and an active basic knight.
    The ship is 5 of 7 spaces along."""
    c = ck(3, knights=[knight(0, NE, 2, False), knight(1, NW, 3, True), knight(2, SE, 1, True)],
           walls=[list(N)], barbarian=5,
           metropolises={"trade": {"player": 0, "node": list(N), "level": 4}, "politics": None, "science": None},
           merchant={"hex": [0, 0], "player": 1}, **ck_over)
    c["improvements"]["0"]["trade"] = 4
    c["improvements"]["1"]["science"] = 2
    return position(ck_state=c, cities=tuple((0, n) for n in P0_CITIES) + ((1, S), (2, P2_CITY)))


def test_knights_walls_metropolises_and_the_merchant_are_drawn_and_in_the_legend(client):
    svg = svg_of(client, full_position())
    active, inactive = layer(svg, "ck-knight-active"), layer(svg, "ck-knight-inactive")
    # CK-KNIGHT-3: two active knights (strength 3 and 1), one inactive (strength 2), labelled by strength
    assert active.count('class="glyph"') == 2 and inactive.count('class="glyph"') == 1
    assert "player 1's mighty knight (strength 3), active, at 0,-1,S" in active
    assert "player 2's basic knight (strength 1), active" in active
    assert "player 0's strong knight (strength 2), inactive, at 1,-1,S" in inactive
    assert re.findall(r">(\d)</text>", inactive) == ["2"] and sorted(re.findall(r">(\d)</text>", active)) == ["1", "3"]
    assert "#d32f2f" in inactive and "#1565c0" in active        # the owner's colour
    assert "city wall under player 0's city at 0,0,N" in layer(svg, "ck-wall")                       # CK-WALL-1
    metro = layer(svg, "ck-metropolis-trade")
    assert "player 0's metropolis of trade at 0,0,N" in metro and ">T</text>" in metro              # CK-IMP-7
    assert 'class="layer ck-metropolis-politics"' not in svg and 'class="layer ck-sideways"' not in svg
    assert "player 1's merchant" in layer(svg, "ck-merchant")                                         # CK-PROG-T3
    legend = svg[svg.index('class="legend"'):svg.index('class="panel')]
    for words in ("active knight, its strength (CK-KNIGHT-3)", "inactive knight, its strength (counts 0, CK-BARB-3)",
                  "city wall (CK-WALL-1)", "metropolis of trade (CK-IMP-7)", "merchant (CK-PROG-T3)"):
        assert words in legend, words
    assert "metropolis of politics" not in legend and "on its side" not in legend


def test_the_barbarian_track_and_the_improvements_are_panels(client):
    svg = svg_of(client, full_position())
    barb = panel(svg, "ck-barbarians")
    assert barb.count('class="cell filled"') == 5 and barb.count('class="cell"') == 2       # CK-BARB-1: 5 of 7
    assert "ship 5 of 7 spaces: it attacks in 2 more ship face(s) (CK-BARB-1)" in barb
    # CK-BARB-2/3: five cities against active knights 3 + 1 (player 0's strong knight is inactive)
    assert "strength 5 (cities, CK-BARB-2) against defence 4" in barb
    assert "player 0: 0, player 1: 3, player 2: 1" in barb and "the barbarians would win" in barb
    imp = panel(svg, "ck-improvements")
    assert "player 0: trade 4, politics 0, science 0; metropolis of trade" in imp
    assert "player 1: trade 0, politics 0, science 2" in imp


def test_a_city_on_its_side_is_crossed(client):
    """CK-BARB-5: player 1 has no settlement piece left, so its pillaged city lies on its side."""
    setts = ((1, (-1, 0, "N")), (1, (1, 0, "N")), (1, (-2, 1, "N")), (1, (-2, 2, "N")), (1, (0, 1, "S")))
    st = position(ck_state=ck(3, sideways=[list(S)]), settlements=setts)
    for p in st["players"]:
        p.pop("supply", None)
    svg = svg_of(client, st)
    assert "pillaged city at 0,0,S, on its side (CK-BARB-5)" in layer(svg, "ck-sideways")
    assert "city on its side: a settlement until restored (CK-BARB-5)" in svg[svg.index('class="legend"'):]
    steps = modules(client, st)["barbarian_attack"]["attack_steps"]
    assert "1 city(ies) on their side count as settlements" in steps[1]


def test_a_lost_attack_is_explained_step_by_step_with_the_cities_that_may_be_chosen(client):
    ex = modules(client, full_position())["barbarian_attack"]
    assert (ex["position"], ex["steps"], ex["to_attack"]) == (5, 7, 2)
    assert (ex["strength"], ex["defence"], ex["catan_wins"]) == (5, 4, False)
    assert ex["knights"] == {"0": 0, "1": 3, "2": 1}
    # CK-BARB-4, CK-IMP-10: player 0 is the weakest; the metropolis city cannot be chosen
    assert ex["would_lose_city"] == [0]
    assert ex["may_choose"] == {"0": [[0, -1, "N"], [1, 0, "S"]]}
    s = ex["attack_steps"]
    assert s[0].startswith("1. the barbarian ship has advanced 5 of 7 spaces") and "CK-BARB-1" in s[0]
    assert "strength is 5" in s[1] and "player 0: 3; player 1: 1; player 2: 1" in s[1] and "CK-BARB-2" in s[1]
    assert "player 1: 3 (mighty at 0,-1,S)" in s[2] and "player 0: 0;" in s[2] and "CK-BARB-3" in s[2]
    assert "strength 5 is more than defence 4: the barbarians win (CK-BARB-4)" == s[3][3:]
    assert "player(s) 0 each lose a city" in s[4] and "player 0: 0,-1,N, 1,0,S" in s[4] and "CK-WALL-3" in s[4]
    assert "CK-BARB-8" in s[5] and ex["why"] == "; ".join(s)


def test_a_player_with_only_a_metropolis_is_out_of_the_comparison(client):
    """CK-BARB-4: player 1's one city carries the metropolis of science, so player 1 is immune; player 0
    (strength 0) loses one of its three cities."""
    st = full_position()
    c = st["scenario_state"]["cities_and_knights"]
    c["knights"] = [knight(2, SE, 1, True)]
    c["metropolises"]["science"] = {"player": 1, "node": list(S), "level": 4}
    c["improvements"]["1"]["science"] = 4
    ex = modules(client, st)["barbarian_attack"]
    assert ex["would_lose_city"] == [0] and len(ex["may_choose"]["0"]) == 2
    assert "out of the comparison (1)" in ex["attack_steps"][4]


def test_a_won_attack_names_the_defender_or_the_tie(client):
    st = full_position()
    c = st["scenario_state"]["cities_and_knights"]
    c["knights"] = [knight(0, NE, 3, True), knight(1, NW, 2, True), knight(2, SE, 1, True)]
    ex = modules(client, st)["barbarian_attack"]
    assert ex["catan_wins"] and ex["defender"] == 0 and ex["would_lose_city"] == []      # 6 >= 5
    assert "player 0 alone has the strongest active knights (3) and takes a Defender of Catan card" in ex["why"]
    assert "a tie favours Catan, CK-BARB-6" in ex["why"]
    c["knights"] = [knight(0, NE, 3, True), knight(1, NW, 3, True)]
    ex = modules(client, st)["barbarian_attack"]
    assert ex["tied_defenders"] == [0, 1] and "players 0, 1 tie for the strongest active knights" in ex["why"]
    svg = svg_of(client, st)
    assert "Catan would win; players 0, 1 tie and draw a card (CK-BARB-6)" in panel(svg, "ck-barbarians")


def test_nobody_defending_against_no_cities_awards_nothing(client):
    """CK-BARB-12: no city and no active knight: Catan wins and nothing is awarded."""
    st = position(cities=(), settlements=((0, N), (1, S)))
    ex = modules(client, st)["barbarian_attack"]
    assert ex["catan_wins"] and ex["defender"] is None and "nothing is awarded (CK-BARB-12)" in ex["why"]


def test_improvements_metropolis_holders_and_vp_by_source_are_explained(client):
    ex = modules(client, full_position())
    imp = ex["improvements"]
    assert imp["levels"]["0"] == {"trade": 4, "politics": 0, "science": 0}
    assert imp["metropolises"] == {"trade": {"player": 0, "node": [0, 0, "N"]}, "politics": None, "science": None}
    assert "they reached level 4 first (CK-IMP-7) and keeps it until another player first reaches level 5 " \
           "(CK-IMP-9)" in imp["why"]
    assert "nobody has reached level 4 in politics" in imp["why"]
    vp = ex["ck_victory_points"]
    assert vp["0"]["total"] == 8 and {i["source"]: i["points"] for i in vp["0"]["sources"]} == {
        "cities": 6, "metropolises": 2}
    assert {i["source"]: i["points"] for i in vp["1"]["sources"]} == {"cities": 2, "merchant": 1}
    assert "1 from the merchant: 1 while controlled (CK-PROG-T3)" in vp["1"]["why"]
    assert "CK-VP-1" in vp["0"]["why"]


def test_a_game_without_the_module_has_no_layers_or_explanations(client):
    from .helpers import radius_board, state
    st = state(radius_board(), players=3)
    assert client.post("/v1/derive?explain=true", json={"state": st}).get_json()["explanations"]["modules"] == {}
    assert 'class="panel' not in svg_of(client, st)


def test_with_the_meanies_variant_the_defence_is_counted_with_every_active_knight(client):
    """CK-VAR-MEANIES: players choose the knights they send when the ship lands; before that the attack is
    explained with every active knight, and says so."""
    st = full_position()
    st["options"]["CK-VAR-MEANIES"] = True
    step = modules(client, st)["barbarian_attack"]["attack_steps"][2]
    assert "Catan's defence is 4" in step and "with CK-VAR-MEANIES each player may send fewer" in step
    assert "CK-VAR-MEANIES" not in modules(client, full_position())["barbarian_attack"]["why"]
