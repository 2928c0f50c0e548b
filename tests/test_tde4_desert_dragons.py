"""TDE4 "The Desert Dragons" (seeds/003 scenario 4): maps, dragons gathering and invading, what they block,
the scenario's own 7, knights removing dragons, the end.

Positions are built on the scenario's own 3-player map (seed 1) and posted through the API. The home
island's deserts lie on (1,2), (2,3) and (0,4); its tokens are fixed: (1,1) and (1,3) both carry the 10,
(2,2) and (2,4) the 4, (0,2) and (1,4) the 5.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from service.api.codec import dump_state
from service.engine.legal import legal_actions
from service.engine.mapgraph import LAND, MapGraph
from service.engine.modules.tde4_desert_dragons import dragons as D
from service.engine.modules.tde4_desert_dragons.maps import EAST_NUMBERS, HOME_NUMBERS, MAP_SPECS
from service.engine.referee import adjudicate as engine_adjudicate
from service.engine.scenarios import get_scenario
from service.engine.scenarios.base import no_adjacent_reds
from service.engine.scenarios.components import check_components
from service.engine.selfplay import play_game

from .examples_adapter import compare, derived_values, to_action, to_state
from .helpers import adjudicate, rules

TDE4 = get_scenario("TDE4")
RES = ("lumber", "brick", "wool", "grain", "ore")
DESERTS = [(1, 2), (2, 3), (0, 4)]
EXAMPLES = Path(__file__).parent / "fixtures" / "examples"


def full(**kw):
    return {r: kw.get(r, 0) for r in RES}


def dragons(deserts=(0, 0, 0), hexes=(), gathered=None, removed=0) -> dict:
    ss = {"desert_dragons": {f"{q},{r}": n for (q, r), n in zip(DESERTS, deserts)},
          "dragons": [list(h) for h in hexes], "removed": removed}
    ss["gathered"] = sum(deserts) + len(hexes) + removed if gathered is None else gathered
    return ss


FULL = dragons((6, 6, 6))        # all 18 gathered: the invasion is on


def position(players: int = 3, *, settlements=(), cities=(), roads=(), ships=(), hands=None, phase: str = "main",
             current: int = 0, seed: int = 1, dev=None, played=None, numbers=None, **scen) -> dict:
    """A posted TDE4 state on the default map: pieces ``(player, coord)``; ``scen`` into scenario_state."""
    st = dump_state(TDE4.new_game(players, seed))
    for k in ("bank", "dev_deck"):
        st.pop(k)
    for i, p in enumerate(st["players"]):
        p.pop("supply")
        p["resources"] = (hands or {}).get(i, full())
        for key, src in (("dev_cards", dev), ("dev_cards_played", played)):
            if src and i in src:
                p[key] = {**p[key], **src[i]}
    if numbers:
        for h in st["board"]["hexes"]:
            if (h["q"], h["r"]) in numbers:
                h["number"] = numbers[(h["q"], h["r"])]
    st["pieces"] = {
        "settlements": [{"player": p, "node": list(n)} for p, n in settlements],
        "cities": [{"player": p, "node": list(n)} for p, n in cities],
        "roads": [{"player": p, "edge": list(e)} for p, e in roads],
        "ships": [{"player": p, "edge": list(e)} for p, e in ships],
    }
    st["scenario_state"].update(scen)
    st["phase"], st["current_player"], st["turn"] = phase, current, 9
    if phase != "setup":
        st["setup"] = {"round": 2, "step": "settlement", "last_settlement": None}
    st["turn_flags"] = {"rolled": phase not in ("setup", "roll")}
    return st


def act(type_: str, player: int = 0, **kw) -> dict:
    return {"type": type_, "player": player, **kw}


def roll(total: int, player: int = 0) -> dict:
    first = min(6, total - 1)
    return act("roll", player, dice=[first, total - first])


def terrain(st, h):
    return next(x["terrain"] for x in st["board"]["hexes"] if (x["q"], x["r"]) == tuple(h))


def ss_of(v) -> dict:
    return v["state"]["scenario_state"]


# -- maps: TDE4-003, TDE4-004, TDE4-005 ------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3, 17])
def test_maps_hold_every_stated_number_TDE4_003_TDE4_004_TDE4_005(n, seed):
    """TDE4-003: 3 deserts, 2 forests and 2 pastures fixed on the home island, its tokens and 3:1 harbours
    fixed; TDE4-004: the neighbouring island shuffled, its tokens and harbours fixed, three 4s and two 5s
    with 3 players (R-068); TDE4-005: 18 dragons beside the board; the component table holds (R-054)."""
    s = TDE4.new_game(n, seed)
    spec = MAP_SPECS[n]
    cells = spec.cells()
    assert sorted(h for h, t in s.hexes.items() if t.terrain == "desert") == sorted(DESERTS)
    for ch, terr in (("d", "desert"), ("W", "forest"), ("P", "pasture")):
        fixed = [h for h, c in cells.items() if c == ch]
        assert fixed and all(s.hexes[h].terrain == terr for h in fixed)
    assert len([h for h, c in cells.items() if c == "W"]) == 2 and len([h for h, c in cells.items() if c == "P"]) == 2
    assert {h: t.number for h, t in s.hexes.items() if t.number} == dict(spec.numbers)
    assert no_adjacent_reds(spec.numbers)
    home = [h for h, c in cells.items() if c in "hdWP"]
    assert len(home) == 19 and sorted(t.number for h in home for t in [s.hexes[h]] if t.number) == sorted(HOME_NUMBERS)
    east = sorted(EAST_NUMBERS[n])
    if n == 3:                                                  # the erratum
        assert east.count(4) == 3 and east.count(5) == 2
    kinds = sorted(s.harbors.values())
    assert kinds.count("3:1") == 4
    home_edges = [e for e, k in s.harbors.items() if k == "3:1"]
    assert all(any(cells.get(h) in tuple("hdWP") for h in ((e[0], e[1]), D.edge_hexes(e)[1])) for e in home_edges)
    assert s.harbors == TDE4.new_game(n, seed + 100).harbors      # fixed, whatever the seed
    assert check_components(TDE4, n, s) == []
    ss = s.scenario_state
    assert ss["gathered"] == 0 and ss["dragons"] == [] and set(ss["desert_dragons"].values()) == {0}
    assert s.robber is None and s.pirate is None                # TDE4-007


def test_the_neighbouring_island_is_out_of_the_dragons_reach_TDE4_020():
    """TDE4-020: dragons never cross the sea: no neighbouring-island hex touches the home island."""
    for n in (3, 4):
        cells = MAP_SPECS[n].cells()
        east = {h for h, c in cells.items() if c == "e"}
        home = {h for h, c in cells.items() if c in "hdWP"}
        assert east and not any(m in home for h in east for m in D.hex_neighbours(h))


def test_scenario_page_lists_the_maps_and_the_options(client):
    r = client.get("/v1/scenarios/TDE4")
    assert r.status_code == 200
    body = r.get_json()
    assert body["vp_target"] == 13 and set(body["maps"]) == {"3", "4"}
    assert "cities_and_knights" in body["options"] and "TDE4-001" in body["options"]["cities_and_knights"]
    assert "steal_card" in body["actions"] and "move_robber" not in body["actions"]


# -- TDE4-001, TDE4-002 -------------------------------------------------------------------------------

def test_cities_and_knights_is_refused_TDE4_001(client):
    st = position()
    r = client.post("/v1/adjudicate", json={"state": {**st, "options": {"cities_and_knights": True}}, "action": None})
    assert r.status_code == 422
    err = r.get_json()["errors"]
    assert [e["pointer"] for e in err] == ["/state/options/cities_and_knights"]
    assert "TDE4-001" in err[0]["detail"]
    ok = client.post("/v1/adjudicate", json={"state": {**st, "options": {"cities_and_knights": False}}, "action": None})
    assert ok.status_code == 200


def test_three_or_four_players_TDE4_002(client):
    r = client.post("/v1/games", json={"scenario": "TDE4", "players": 2, "seed": 1})
    assert 400 <= r.status_code < 500
    st = position()
    st["players"] = st["players"][:2]
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422
    assert any("TDE4-002" in e["detail"] for e in r.get_json()["errors"])
    for n in (3, 4):
        assert client.post("/v1/games", json={"scenario": "TDE4", "players": n, "seed": 1}).status_code == 201


# -- foundation: TDE4-006 -------------------------------------------------------------------------------

def setup_position(**kw):
    st = position(phase="setup", **kw)
    st["setup"] = {"round": 1, "step": "settlement", "last_settlement": None}
    st["turn"] = 0
    return st


def test_starting_settlements_on_the_home_island_only_TDE4_006(client):
    st = setup_position()
    v = adjudicate(client, st, act("build_settlement", node=[7, 2, "N"]))     # neighbouring island
    assert not v["legal"] and rules(v) == ["TDE4-006"]
    v = adjudicate(client, st, act("build_settlement", node=[0, 2, "N"]))
    assert v["legal"], v["violations"]


def test_one_starting_road_may_be_a_ship_TDE4_006(client):
    """R-069: at most one of the two starting roads is replaced by a ship, at a coastal settlement."""
    st = setup_position(settlements=[(0, [3, 1, "N"]), (0, [-1, 3, "N"])], ships=[(0, [3, 1, "NE"])])
    st["setup"] = {"round": 2, "step": "road", "last_settlement": [-1, 3, "N"]}
    v = adjudicate(client, st, act("build_ship", edge=[-1, 3, "NW"]))
    assert not v["legal"] and rules(v) == ["TDE4-006"]
    assert adjudicate(client, st, act("build_road", edge=[-1, 3, "NE"]))["legal"]
    st2 = setup_position(settlements=[(0, [-1, 3, "N"])])
    st2["setup"] = {"round": 1, "step": "road", "last_settlement": [-1, 3, "N"]}
    assert adjudicate(client, st2, act("build_ship", edge=[-1, 3, "NW"]))["legal"]


# -- no robber or pirate; the scenario's own 7: TDE4-007, TDE4-008 -----------------------------------

def test_no_robber_and_no_pirate_TDE4_007(client):
    st = position(phase="robber")
    r = client.post("/v1/adjudicate", json={"state": st, "action": act("move_robber", hex=[1, 1])})
    assert r.status_code == 422
    bad = {**position(), "robber": [1, 1]}
    r = client.post("/v1/adjudicate", json={"state": bad, "action": None})
    assert r.status_code == 422 and any("TDE4-007" in e["detail"] for e in r.get_json()["errors"])
    v = adjudicate(client, position(dev={0: {"knight": 1}}, **dragons((6, 6, 5), [(1, 1)])),
                   act("play_knight", hex=[1, 1], target="pirate"))
    assert not v["legal"] and rules(v) == ["TDE4-007"]


def test_a_seven_discards_then_the_roller_takes_a_card_TDE4_008(client):
    st = position(phase="roll", hands={1: full(ore=9), 2: full(wool=2)})
    v = adjudicate(client, st, roll(7))
    assert v["legal"] and v["state"]["phase"] == "discard"
    assert v["state"]["pending_discards"] == {"1": 4}          # floor(9 / 2)
    st = position(phase="robber", hands={2: full(wool=2)})
    st["last_roll"] = [3, 4]
    v = adjudicate(client, st, act("steal_card", steal_from=2))
    assert v["legal"] and v["state"]["phase"] == "main"
    assert v["state"]["players"][0]["resources"]["wool"] == 1 and v["state"]["players"][2]["resources"]["wool"] == 1
    assert [e for e in v["events"] if e["type"] == "card_taken"][0]["resource"] == "wool"
    v = adjudicate(client, st, act("steal_card", steal_from=0))
    assert not v["legal"] and rules(v) == ["TDE4-008"]
    v = adjudicate(client, st, act("steal_card", steal_from=1, card="ore"))
    assert not v["legal"] and rules(v) == ["TDE4-008"]
    late = position(hands={2: full(wool=2)})
    v = adjudicate(client, late, act("steal_card", steal_from=2))     # not after a 7
    assert not v["legal"] and rules(v) == ["TDE4-008"]
    v = adjudicate(client, st, act("steal_card", steal_from=None))   # "may": he takes none
    assert v["legal"] and v["state"]["phase"] == "main"


def test_the_card_taken_after_a_seven_is_from_a_player_in_the_game_TDE4_008(client):
    """TDE4-008: the roller takes a card from another player of the game: a card named with nobody to take
    it from is refused, so is a player who does not play (never a card out of nowhere)."""
    st = position(phase="robber", hands={2: full(wool=2)})
    st["last_roll"] = [3, 4]
    v = adjudicate(client, st, act("steal_card", steal_from=None, card="wool"))
    assert not v["legal"] and rules(v) == ["TDE4-008"] and v["violations"][0]["path"] == "/action/card"
    r = client.post("/v1/adjudicate", json={"state": st, "action": act("steal_card", steal_from=3)})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/action/steal_from"
    from service.engine.core import Action                      # the engine alone refuses it too
    s, g = _engine(st)
    v = engine_adjudicate(s, Action("steal_card", 0, {"steal_from": 3}), g, TDE4, with_derived=False)
    assert not v.legal and [x.rule for x in v.violations] == ["TDE4-008"]
    ok = adjudicate(client, st, act("steal_card", steal_from=2, card="wool"))
    assert ok["legal"] and ok["state"]["players"][0]["resources"]["wool"] == 1


# -- gathering: TDE4-009, TDE4-010, TDE4-011 (R-064) -------------------------------------------------

BUILD = full(lumber=1, brick=1, wool=1, grain=1)
TWO_ROADS = [(0, [0, 2, "NE"]), (0, [1, 1, "SE"])]      # from (0,2,N) to (1,2,N), a free site


@pytest.mark.parametrize("players, added", [(3, 3), (4, 2)])
def test_each_building_gathers_dragons_evenly_TDE4_009_TDE4_010(client, players, added):
    st = position(players, settlements=[(0, [0, 2, "N"])], roads=TWO_ROADS, hands={0: BUILD})
    v = adjudicate(client, st, act("build_settlement", node=[1, 2, "N"]))
    assert v["legal"], v["violations"]
    ss = ss_of(v)
    assert ss["gathered"] == added
    assert list(ss["desert_dragons"].values()) == ([1, 1, 1] if added == 3 else [1, 1, 0])
    assert v["derived"]["dragons"]["beside_board"] == 18 - added
    # TDE4-010: the next go to the deserts with the fewest (ties: north to south, west to east)
    st2 = position(players, cities=[], settlements=[(0, [0, 2, "N"])], hands={0: full(grain=2, ore=3)},
                   **dragons((1, 1, 0)))
    v = adjudicate(client, st2, act("build_city", node=[0, 2, "N"]))
    assert v["legal"]
    assert list(ss_of(v)["desert_dragons"].values()) == ([2, 2, 1] if added == 3 else [2, 1, 1])


def test_foundation_settlements_gather_no_dragons_R_064_TDE4_009(client):
    st = setup_position()
    v = adjudicate(client, st, act("build_settlement", node=[0, 2, "N"]))
    assert v["legal"] and ss_of(v)["gathered"] == 0


def test_gathering_stops_at_18_and_the_invasion_begins_TDE4_011(client):
    st = position(settlements=[(0, [0, 2, "N"])], roads=TWO_ROADS, hands={0: BUILD},
                  **dragons((6, 5, 5)))
    assert adjudicate(client, st, None)["derived"]["dragons"]["invasion"] is False
    # before the 18th, no roll moves a dragon
    st_roll = position(phase="roll", **dragons((6, 5, 5)))
    assert ss_of(adjudicate(client, st_roll, roll(10)))["dragons"] == []
    v = adjudicate(client, st, act("build_settlement", node=[1, 2, "N"]))
    ss = ss_of(v)
    assert ss["gathered"] == 18 and list(ss["desert_dragons"].values()) == [6, 6, 6]    # 2 of 3 fit
    assert any(e["type"] == "invasion_begins" for e in v["events"])
    assert v["derived"]["dragons"]["invasion"] is True and v["derived"]["dragons"]["per_build"] == 0


# -- invasion: TDE4-012..015, TDE4-017 (R-065) ------------------------------------------------------

def test_a_roll_sends_dragons_to_every_hex_of_its_number_next_to_a_dragon_TDE4_012_TDE4_014_TDE4_015(client):
    st = position(phase="roll", **FULL)
    v = adjudicate(client, st, roll(10))
    ss = ss_of(v)
    assert sorted(map(tuple, ss["dragons"])) == [(1, 1), (1, 3)]        # TDE4-014: both 10s
    # TDE4-015: the first from the fullest desert (a tie: the first), the second from the next fullest
    assert list(ss["desert_dragons"].values()) == [5, 5, 6] and ss["gathered"] == 18
    moved = [(tuple(e["from"]), tuple(e["hex"])) for e in v["events"] if e["type"] == "dragon_invaded"]
    assert moved == [((1, 2), (1, 1)), ((2, 3), (1, 3))]


def test_a_hex_holds_one_dragon_and_no_dragon_goes_where_none_touches_TDE4_012_TDE4_013(client):
    st = position(phase="roll", **dragons((5, 5, 6), [(1, 1), (1, 3)]))
    v = adjudicate(client, st, roll(10))
    assert sorted(map(tuple, ss_of(v)["dragons"])) == [(1, 1), (1, 3)]      # TDE4-013: none added
    st = position(phase="roll", **FULL)
    v = adjudicate(client, st, roll(9))      # (3,1) and (-1,4) carry the 9: (-1,4) touches desert (0,4)
    assert sorted(map(tuple, ss_of(v)["dragons"])) == [(-1, 4)]
    v = adjudicate(client, st, roll(11))     # the 11s: (3,2) touches desert (2,3); (8,3) is on the other island
    assert sorted(map(tuple, ss_of(v)["dragons"])) == [(3, 2)]


def test_the_invasion_spreads_from_landscape_dragons_on_the_pre_roll_state_R_065_TDE4_012(client):
    """R-065: a hex next to a landscape dragon qualifies; a hex next only to a dragon arriving in the same
    roll does not (no chaining)."""
    # (3,1) carries the 9 and touches (2,2) and (3,2) only among the home hexes; with a dragon on (3,2) it
    # is invaded.
    st = position(phase="roll", **dragons((5, 6, 6), [(3, 2)]))
    assert sorted(map(tuple, ss_of(adjudicate(client, st, roll(9)))["dragons"])) == [(-1, 4), (3, 1), (3, 2)]
    # (3,2) renumbered 4: it touches (2,2) (a 4 next to desert (1,2)) and the empty desert (2,3).
    st = position(phase="roll", numbers={(3, 2): 4}, **dragons((1, 0, 1), removed=16))
    v = adjudicate(client, st, roll(4))
    assert sorted(map(tuple, ss_of(v)["dragons"])) == [(2, 2)]       # not (3,2), though a dragon is left
    assert list(ss_of(v)["desert_dragons"].values()) == [0, 0, 1]


def test_the_invasion_stops_when_the_deserts_are_empty_R_065_TDE4_015(client):
    st = position(phase="roll", **dragons((1, 0, 0), [(2, 2), (3, 2)], removed=15))
    v = adjudicate(client, st, roll(10))        # (1,1) and (1,3) qualify; one dragon is left
    assert sorted(map(tuple, ss_of(v)["dragons"])) == [(1, 1), (2, 2), (3, 2)]
    assert list(ss_of(v)["desert_dragons"].values()) == [0, 0, 0]


def test_production_is_paid_before_the_dragon_lands_TDE4_017_and_then_stops_TDE4_016(client):
    st = position(phase="roll", settlements=[(1, [1, 1, "N"])], **FULL)
    res = {"fields": "grain", "forest": "lumber", "hills": "brick", "pasture": "wool", "mountains": "ore"}[terrain(st, (1, 1))]
    v = adjudicate(client, st, roll(10))
    assert v["state"]["players"][1]["resources"][res] == 1              # TDE4-017: paid first
    assert [1, 1] in ss_of(v)["dragons"]
    after = copy.deepcopy(v["state"])
    after["phase"], after["turn_flags"] = "roll", {"rolled": False}
    v2 = adjudicate(client, after, roll(10))
    assert v2["state"]["players"][1]["resources"][res] == 1              # TDE4-016: nothing more
    assert [1, 1] in v2["derived"]["idle_hexes"]


# -- what dragons block: TDE4-018, TDE4-019, TDE4-020 (R-066) -----------------------------------------

BLOCKING = dragons((6, 5, 5), [(1, 3), (2, 2)])      # (1,3)-(2,2) share edge (1,3,NE); desert (1,2) by both


def test_a_road_between_two_dragon_hexes_is_blocked_and_no_road_is_added_to_it_TDE4_018(client):
    pieces = dict(settlements=[(0, [1, 3, "N"])], roads=[(0, [1, 3, "NE"])], hands={0: full(lumber=1, brick=1)})
    free = position(**pieces)
    assert adjudicate(client, free, act("build_road", edge=[1, 3, "E"]))["legal"]
    st = position(**pieces, **BLOCKING)
    v = adjudicate(client, st, act("build_road", edge=[1, 3, "E"]))
    assert not v["legal"] and rules(v) == ["TDE4-018"] and v["violations"][0]["path"] == "/action/edge"
    blocked = v["derived"]["blocked_roads"]
    assert [b["edge"] for b in blocked] == [[1, 3, "NE"]] and "TDE4-018" in blocked[0]["reason"]
    # a road at the settlement itself still connects
    assert adjudicate(client, st, act("build_road", edge=[1, 2, "SE"]))["legal"]
    # Road Building: the same, piece by piece
    rb = position(**pieces, **BLOCKING, dev={0: {"road_building": 1}})
    v = adjudicate(client, rb, act("play_road_building", pieces=[{"kind": "road", "edge": [1, 3, "E"]},
                                                                 {"kind": "road", "edge": [1, 2, "SE"]}]))
    assert not v["legal"] and rules(v) == ["TDE4-018"]


def test_blocked_roads_do_not_count_for_the_trade_route_TDE4_018(client):
    roads = [(0, [0, 3, "NE"]), (0, [1, 2, "SE"]), (0, [1, 3, "NE"])]
    st = position(settlements=[(0, [0, 3, "N"])], roads=roads)
    base = adjudicate(client, st, None)["derived"]["longest_road"]["0"]["length"]
    blocked = adjudicate(client, position(settlements=[(0, [0, 3, "N"])], roads=roads, **BLOCKING), None)
    assert base == 3 and blocked["derived"]["longest_road"]["0"]["length"] == 1
    # (1,2,SE) lies between the desert (1,2) and (1,3), (1,3,NE) between (1,3) and (2,2): both blocked
    assert sorted(b["edge"] for b in blocked["derived"]["blocked_roads"]) == [[1, 2, "SE"], [1, 3, "NE"]]
    assert blocked["derived"]["longest_road"]["0"]["path"] == [[0, 3, "NE"]]


def test_a_building_with_dragons_all_round_scores_nothing_TDE4_019(client):
    st = position(settlements=[(0, [1, 3, "N"]), (0, [0, 2, "N"])], cities=[(1, [1, 3, "S"])],
                  **dragons((5, 5, 5), [(1, 3), (2, 2), (1, 4)]))
    v = adjudicate(client, st, None)
    vp = v["derived"]["victory_points"]
    assert vp["0"]["settlements"] == 2 and vp["0"]["blocked_buildings"] == -1 and vp["0"]["total"] == 1
    assert vp["1"]["cities"] == 2 and vp["1"]["blocked_buildings"] == -2 and vp["1"]["total"] == 0
    assert v["derived"]["vp_blocked"] == {"0": 1, "1": 2, "2": 0}
    nodes = {tuple(b["node"]): b for b in v["derived"]["blocked_buildings"]}
    assert set(nodes) == {(1, 3, "N"), (1, 3, "S")} and "TDE4-019" in nodes[(1, 3, "N")]["reason"]
    free = adjudicate(client, position(settlements=[(0, [1, 3, "N"]), (0, [0, 2, "N"])],
                                       cities=[(1, [1, 3, "S"])]), None)
    assert free["derived"]["victory_points"]["0"]["total"] == 2 and free["derived"]["victory_points"]["1"]["total"] == 2


def test_the_explanation_of_a_blocked_building_adds_up_TDE4_019(client):
    st = position(settlements=[(0, [1, 3, "N"]), (0, [0, 2, "N"])], **BLOCKING)
    r = client.post("/v1/adjudicate?explain=true", json={"state": st, "action": None})
    vp = r.get_json()["explanations"]["victory_points"]["0"]
    assert vp["total"] == 1 == sum(i["points"] for i in vp["sources"])
    assert any(i["source"] == "blocked_buildings" and i["points"] == -1 for i in vp["sources"])


def test_a_blocked_settlement_may_be_upgraded_but_still_scores_nothing_R_066_TDE4_019(client):
    st = position(settlements=[(0, [1, 3, "N"])], hands={0: full(grain=2, ore=3)}, **BLOCKING)
    v = adjudicate(client, st, act("build_city", node=[1, 3, "N"]))
    assert v["legal"] and v["derived"]["victory_points"]["0"]["total"] == 0


def test_a_coastal_building_is_never_blocked_TDE4_020(client):
    """(3,2,N) touches (3,2), (3,1) and the sea (4,1); its two land hexes hold dragons."""
    st = position(settlements=[(0, [3, 2, "N"])], **dragons((5, 5, 6), [(3, 2), (3, 1)]))
    v = adjudicate(client, st, None)
    assert v["derived"]["blocked_buildings"] == [] and v["derived"]["victory_points"]["0"]["total"] == 1
    st = position(phase="roll", **FULL)
    v = adjudicate(client, st, roll(5))
    assert all(terrain(st, h) in LAND for h in ss_of(v)["dragons"])


# -- knights: TDE4-021, TDE4-022, TDE4-023 (R-067) ----------------------------------------------------

def test_a_knight_removes_a_landscape_dragon_from_the_game_TDE4_021(client):
    st = position(dev={0: {"knight": 1}}, **BLOCKING)
    v = adjudicate(client, st, act("play_knight", hex=[1, 3]))
    assert v["legal"], v["violations"]
    ss = ss_of(v)
    assert ss["dragons"] == [[2, 2]] and ss["removed"] == 1 and ss["gathered"] == 18
    assert v["derived"]["dragons"]["removed"] == 1
    for h, why in (([1, 2], "not from the desert"), ([0, 2], "no dragon")):
        bad = adjudicate(client, st, act("play_knight", hex=h))
        assert not bad["legal"] and rules(bad) == ["TDE4-021"] and why in bad["violations"][0]["message"], why


def test_a_knight_steals_nothing_and_there_is_no_largest_army_TDE4_022(client):
    st = position(dev={0: {"knight": 1}}, played={0: {"knight": 3}}, settlements=[(1, [1, 1, "N"])],
                  hands={1: full(ore=2)}, **BLOCKING)
    v = adjudicate(client, st, act("play_knight", hex=[1, 3], steal_from=1))
    assert not v["legal"] and rules(v) == ["TDE4-022"]
    v = adjudicate(client, st, act("play_knight", hex=[1, 3]))
    assert v["legal"]
    assert v["state"]["players"][1]["resources"]["ore"] == 2
    assert v["state"]["awards"]["largest_army"] is None and v["derived"]["largest_army"]["holder"] is None
    assert v["derived"]["largest_army"]["knights"]["0"] == 4
    assert v["derived"]["victory_points"]["0"]["largest_army"] == 0
    bad = {**position(), "awards": {"longest_road": None, "largest_army": 0}}
    r = client.post("/v1/adjudicate", json={"state": bad, "action": None})
    assert r.status_code == 422 and any("TDE4-022" in e["detail"] for e in r.get_json()["errors"])


def test_a_freed_hex_produces_from_the_next_roll_and_blocks_lift_TDE4_023(client):
    st = position(dev={0: {"knight": 1}}, settlements=[(0, [1, 3, "N"])], roads=[(0, [1, 3, "NE"])],
                  **BLOCKING)
    before = adjudicate(client, st, None)["derived"]
    assert before["blocked_buildings"] and before["blocked_roads"]
    v = adjudicate(client, st, act("play_knight", hex=[2, 2]))
    d = v["derived"]
    assert d["blocked_buildings"] == [] and d["blocked_roads"] == []
    assert d["victory_points"]["0"]["total"] == 1
    # the freed hex (2,2) (a 4) produces on the next roll
    nxt = copy.deepcopy(v["state"])
    nxt["phase"], nxt["turn_flags"] = "roll", {"rolled": False}
    res = {"fields": "grain", "forest": "lumber", "hills": "brick", "pasture": "wool", "mountains": "ore"}[terrain(st, (2, 2))]
    got = adjudicate(client, nxt, roll(4))
    assert got["state"]["players"][0]["resources"][res] == 1
    assert [2, 2] in ss_of(got)["dragons"]            # and, touching dragons, is invaded again after paying


# -- the end: TDE4-024 -----------------------------------------------------------------------------------

def test_thirteen_points_win_and_blocked_buildings_do_not_count_TDE4_024(client):
    cities = [(0, n) for n in ([3, 1, "N"], [-1, 3, "N"], [1, 5, "S"])]
    sett = [(0, [0, 2, "N"]), (0, [2, 4, "S"])]
    vp_cards = {0: {"victory_point": 4}}
    st = position(cities=cities, settlements=sett, hands={0: full(grain=2, ore=3)}, dev=vp_cards)
    assert TDE4.vp_target == 13
    assert adjudicate(client, st, None)["derived"]["victory_points"]["0"]["total"] == 12
    v = adjudicate(client, st, act("build_city", node=[0, 2, "N"]))
    assert v["legal"] and v["state"]["phase"] == "game_over" and v["state"]["winner"] == 0
    st = position(cities=cities, settlements=sett + [(0, [1, 3, "N"])], dev=vp_cards, **BLOCKING)
    v = adjudicate(client, st, act("end_turn"))
    assert v["legal"] and v["derived"]["victory_points"]["0"]["total"] == 12 and v["state"]["winner"] is None


# -- derived values, events, legal actions, replay, random play ----------------------------------------

def test_invasion_targets_per_number_R_065(client):
    d = adjudicate(client, position(**FULL), None)["derived"]
    t = {k: sorted(map(tuple, v)) for k, v in d["invasion_targets"].items()}
    assert t["10"] == [(1, 1), (1, 3)] and t["9"] == [(-1, 4)] and "3" in t and "12" not in t
    assert adjudicate(client, position(**dragons((5, 5, 5))), None)["derived"]["invasion_targets"] == {}
    assert d["dragons"]["deserts"] == {"1,2": 6, "2,3": 6, "0,4": 6}


def test_every_derived_value_and_event_is_declared(client):
    comp = TDE4.composition
    st = position(phase="roll", settlements=[(0, [1, 1, "N"])], **FULL)
    v = adjudicate(client, st, roll(10))
    for key in ("dragons", "invasion_targets", "blocked_roads", "blocked_buildings", "idle_hexes", "vp_blocked"):
        assert key in comp.derived.fields
        assert comp.derived.fields[key].type.problems(v["derived"][key], "/d") == [], key
    for e in v["events"]:
        if e["type"] in comp.events:
            spec = comp.events[e["type"]]
            assert set(e) - {"type"} <= set(spec.fields), e
    assert {"dragon_invaded"} <= {e["type"] for e in v["events"]}


def test_bad_dragon_data_is_a_422_naming_the_key_TDE4_005_TDE4_010_TDE4_013(client):
    cases = [
        (dragons((7, 6, 6), gathered=18), "/state/scenario_state/desert_dragons", "TDE4-005"),
        (dragons((6, 4, 5)), "/state/scenario_state/desert_dragons", "TDE4-010"),
        ({**dragons((5, 5, 5)), "dragons": [[1, 1], [1, 1]], "gathered": 17}, "/state/scenario_state/dragons/1",
         "TDE4-013"),
        (dragons((5, 5, 5), [(1, 1)]), "/state/scenario_state/dragons", "TDE4-011"),
        ({"desert_dragons": {"1,1": 1}}, "/state/scenario_state/desert_dragons/1,1", "TDE4-009"),
        ({"dragons": [[5, 0]], "gathered": 18, "removed": 17}, "/state/scenario_state/dragons/0", "TDE4-020"),
        ({"gathered": 19}, "/state/scenario_state/gathered", ""),
    ]
    for ss, pointer, rule in cases:
        r = client.post("/v1/adjudicate", json={"state": position(**ss), "action": None})
        assert r.status_code == 422, (ss, r.get_json())
        errs = r.get_json()["errors"]
        assert any(e["pointer"] == pointer and rule in e["detail"] for e in errs), (ss, errs)


def _engine(st_json):
    from service.api.codec import build_state
    from service.api.schemas import StateSchema
    s, _ = build_state(StateSchema().load(st_json))
    return s, MapGraph.build(s.terrain_map())


@pytest.mark.parametrize("st", [
    position(phase="robber", hands={1: full(ore=2)}),
    position(dev={0: {"knight": 1}}, **BLOCKING),
    position(phase="roll", dev={0: {"knight": 1}}, **BLOCKING),
    position(settlements=[(0, [1, 3, "N"])], roads=[(0, [1, 3, "NE"])], hands={0: full(lumber=3, brick=3)},
             dev={0: {"road_building": 1}}, **BLOCKING),
], ids=["seven", "knight", "knight-before-roll", "roads-by-blocked"])
def test_listed_actions_are_judged_legal_TDE4_008_TDE4_018_TDE4_021(st):
    if st["phase"] == "robber":
        st["last_roll"] = [3, 4]
    s, g = _engine(st)
    la = legal_actions(s, g, TDE4)
    assert la.actions
    for t, acts in la.actions.items():
        for a in acts:
            v = engine_adjudicate(s, a, g, TDE4, with_derived=False)
            assert v.legal, (t, a, [x.rule for x in v.violations])
    if st["phase"] == "robber":
        assert len(la.actions["steal_card"]) == 3                   # none, player 1, player 2
    if st["players"][0]["dev_cards"].get("knight"):
        hexes = sorted(tuple(a.get("hex")) for a in la.actions["play_knight"])
        assert hexes == [(1, 3), (2, 2)]
    if st["players"][0]["dev_cards"].get("road_building"):
        assert all(a.get("edge") != (1, 3, "E") for a in la.actions.get("build_road", []))


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2)])
def test_random_games_reach_a_winner_with_every_invariant(players, seed):
    g = play_game("TDE4", players, seed, dump=lambda s: json.dumps(dump_state(s), sort_keys=True))
    assert g.failures == []
    assert g.ended == "won", (g.ended, len(g.log))
    ss = g.final.scenario_state
    assert ss["gathered"] == 18                     # games go through the whole invasion


# -- shared-format example positions ---------------------------------------------------------------------

EXAMPLE_FILES = sorted(EXAMPLES.glob("tde4-*.json"))


def test_there_are_tde4_examples():
    assert len(EXAMPLE_FILES) >= 3


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.stem for p in EXAMPLE_FILES])
def test_tde4_example(client, path):
    example = json.loads(path.read_text(encoding="utf-8"))
    posted = to_state(example)
    r = client.post("/v1/adjudicate", json={"state": posted, "action": to_action(example)})
    assert r.status_code == 200, r.get_json()
    verdict = r.get_json()
    expect = example["expect"]
    assert verdict["legal"] is expect["legal"], (example["why"], verdict["violations"])
    if not expect["legal"]:
        assert verdict["violations"][0]["rule"] in {expect["rule"], *expect.get("also_acceptable_rules", [])}
    got = derived_values(example, posted, verdict)
    for key, want in (expect.get("derived") or {}).items():
        value = got[key] if key in got else verdict["derived"][key]
        assert compare(key, want, value), (key, want, value)


# -- replay ---------------------------------------------------------------------------------------------

def test_a_tde4_game_replays_through_the_api_and_names_the_first_illegal_action_TDE4_006(client):
    from service.api.replay import state_digest
    from service.engine.legal import action_json
    g = play_game("TDE4", 3, 1, max_actions=400, check=False)
    log = [action_json(a) for a in g.log]
    new_game = {"scenario": "TDE4", "players": 3, "seed": 1}
    r = client.post("/v1/replay", json={"new_game": new_game, "actions": log})
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["all_legal"] and out["applied"] == 400
    assert out["final"]["state"] == dump_state(g.final) and out["final"]["digest"] == state_digest(g.final)
    assert "dragons" in out["final"]["derived"]
    bad = dict(log[0], node=[7, 2, "N"])                       # a starting settlement on the other island
    out = client.post("/v1/replay", json={"new_game": new_game, "actions": [bad] + log[1:]}).get_json()
    assert out["first_illegal"]["index"] == 0 and "TDE4-006" in out["first_illegal"]["rules"]


def test_the_trade_route_card_follows_roads_blocked_and_freed_TDE4_018_TDE4_023(client):
    """An invasion that blocks a road shortens the holder's trade route at once (the card is set aside
    when nobody else has 5); a knight freeing the hex gives it back (BASE-LR-5)."""
    chain = [[1, 3, "NE"], [1, 2, "SE"], [0, 3, "NE"], [0, 2, "SE"], [-1, 3, "NE"]]
    st = position(phase="roll", settlements=[(0, [2, 2, "S"])], roads=[(0, e) for e in chain],
                  dev={0: {"knight": 1}}, **FULL)
    st["awards"] = {"longest_road": 0, "largest_army": None}
    assert adjudicate(client, st, None)["derived"]["longest_road"]["0"]["length"] == 5
    v = adjudicate(client, st, roll(10))                 # (1,3) is invaded: (1,2,SE) lies between it and a desert
    assert v["legal"] and [1, 2, "SE"] in [b["edge"] for b in v["derived"]["blocked_roads"]]
    assert v["derived"]["longest_road"]["0"]["length"] == 3
    assert v["state"]["awards"]["longest_road"] is None
    assert any(e["type"] == "award" and e["award"] == "longest_road" for e in v["events"])
    v2 = adjudicate(client, v["state"], act("play_knight", hex=[1, 3]))
    assert v2["legal"] and v2["derived"]["longest_road"]["0"]["length"] == 5
    assert v2["state"]["awards"]["longest_road"] == 0
