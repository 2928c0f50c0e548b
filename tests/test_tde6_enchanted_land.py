"""TDE6 "Enchanted Land" (seeds/003 scenario 6) on Cities & Knights: the map, the set-up, building on the
Enchanted Land, knights sent across, moving, displacing and fighting dragons, the card exceptions, the
barbarians, the end.

Positions are built on the scenario's own map (3 players, seed 1) and posted through the API. Player 0's
settlement on the home island's north-east coast (5,1,S) with a road to (4,2,N) and a ship line of four
ships lands on the Enchanted Land at (7,1,S); from there (8,2,N) and (6,4,N) are free inland intersections
three steps away and a dragon lies two steps away on (8,1,S).
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from service.api.codec import dump_state
from service.engine.geometry import edge_hexes, hex_corners, node_hexes
from service.engine.legal import legal_actions
from service.engine.mapgraph import LAND, MapGraph
from service.engine.modules.cities_and_knights import store
from service.engine.modules.tde6_enchanted_land import land as L
from service.engine.modules.tde6_enchanted_land import maps as M
from service.engine.referee import adjudicate as engine_adjudicate
from service.engine.scenarios import get_scenario, scenario_of
from service.engine.scenarios.base import no_adjacent_reds
from service.engine.selfplay import play_game

from .examples_adapter import compare
from .helpers import adjudicate, rules

TDE6 = get_scenario("TDE6")
RES = ("lumber", "brick", "wool", "grain", "ore")
EXAMPLES = Path(__file__).parent / "fixtures" / "examples" / "tde6"

SETTLE = (5, 1, "S")
ROAD = (4, 2, "NE")
HOME_KNIGHT = (4, 2, "N")
SHIPS = ((5, 1, "SE"), (5, 2, "NE"), (6, 1, "SE"), (6, 2, "NE"))
LANDING = (7, 1, "S")
DRAGON = (8, 1, "S")
FREE_3 = (8, 2, "N")
COAST_1 = (7, 2, "N")


def full(**kw):
    return {r: kw.get(r, 0) for r in RES}


def kn(p, node, level=1, active=True, **kw):
    return {"node": list(node), "player": p, "level": level, "active": active, "activated": False, "acted": False,
            "promoted": False, **kw}


def position(players: int = 3, *, settlements=(), cities=(), roads=(), ships=(), knights=(), hands=None,
             phase: str = "main", current: int = 0, ck=None, sent=None, **scen) -> dict:
    """A posted TDE6 state on the default map: pieces ``(player, coord)``; ``scen`` into scenario_state."""
    st = dump_state(TDE6.new_game(players, 1))
    for k in ("bank", "dev_deck"):
        st.pop(k)
    for i, p in enumerate(st["players"]):
        p.pop("supply")
        p["resources"] = (hands or {}).get(i, full())
    st["pieces"] = {
        "settlements": [{"player": p, "node": list(n)} for p, n in settlements],
        "cities": [{"player": p, "node": list(n)} for p, n in cities],
        "roads": [{"player": p, "edge": list(e)} for p, e in roads],
        "ships": [{"player": p, "edge": list(e)} for p, e in ships],
    }
    ss = st["scenario_state"]
    ss.update(scen)
    c = ss["cities_and_knights"]
    c["knights"] = [dict(k) for k in knights]
    if sent is None:
        sent = sorted({k["player"] for k in knights if L.on_el(TDE6.new_game(players, 1), k["node"])})
    ss["sent"] = sent
    for k, v in (ck or {}).items():
        c[k] = v
    st["phase"], st["current_player"], st["turn"] = phase, current, 9
    if phase != "setup":
        st["setup"] = {"round": 3, "step": "settlement", "last_settlement": None}
    st["turn_flags"] = {"rolled": phase not in ("setup", "roll")}
    return st


def line(p=0, **kw):
    """Player ``p``'s settlement, road and ship line to the Enchanted Land (with a knight on the road's end)."""
    out = dict(settlements=[(p, SETTLE)], roads=[(p, ROAD)], ships=[(p, e) for e in SHIPS])
    out.update(kw)
    return out


def act(type_: str, player: int = 0, **kw) -> dict:
    return {"type": type_, "player": player, **kw}


def ss_of(v) -> dict:
    return v["state"]["scenario_state"]


def knights_of(v) -> list:
    return ss_of(v)["cities_and_knights"]["knights"]


# -- TDE6-001, TDE6-002, R-079: a game of three rule sets, with Cities & Knights only --------------------

def test_the_game_is_base_seafarers_and_cities_and_knights_TDE6_001():
    mods = TDE6.composition.modules
    assert mods.index("base") < mods.index("seafarers") < mods.index("TDE6") < mods.index("cities_and_knights") \
        < mods.index("TDE6_cities_and_knights")
    types = TDE6.action_types()
    assert {"build_ship", "build_knight", "activate_knight", "play_progress", "transfer_knight",
            "fight_dragon"} <= types
    assert "play_knight" not in types and "move_pirate" not in types      # CK-CHG-2; TDE6-008
    s = TDE6.new_game(3, 5)
    assert scenario_of(s) is TDE6 and s.options == {"cities_and_knights": True}


def test_without_cities_and_knights_it_is_refused_R_079_TDE6_002(client):
    r = client.post("/v1/games", json={"scenario": "TDE6", "players": 3, "seed": 1})
    assert r.status_code == 422
    errs = r.get_json()["errors"]
    assert any(e["pointer"] == "/options/cities_and_knights" and "R-079" in e["detail"] for e in errs), errs
    r = client.post("/v1/games", json={"scenario": "TDE6", "players": 3, "seed": 1,
                                       "options": {"cities_and_knights": False}})
    assert r.status_code == 422 and "R-079" in json.dumps(r.get_json())
    st = position()
    st["options"] = {}
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422
    assert any(e["pointer"] == "/state/options/cities_and_knights" and "R-079" in e["detail"]
               for e in r.get_json()["errors"])
    r = client.post("/v1/games", json={"scenario": "TDE6", "players": 4, "seed": 1,
                                       "options": {"cities_and_knights": True}})
    assert r.status_code in (200, 201)
    assert r.get_json()["state"]["vp_target"] == 18


@pytest.mark.parametrize("n", [2, 5])
def test_three_or_four_players_TDE6_002(client, n):
    r = client.post("/v1/games", json={"scenario": "TDE6", "players": n, "seed": 1,
                                       "options": {"cities_and_knights": True}})
    assert r.status_code == 422


# -- the map: TDE6-003, TDE6-004, TDE6-005, TDE6-008, R-054 -------------------------------------------

@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", [1, 2, 3, 17])
def test_the_map_holds_every_stated_number_R_054_TDE6_003_TDE6_004_TDE6_005(n, seed):
    s = TDE6.new_game(n, seed)
    el, home = L.el_hexes(s), L.home_hexes(s)
    el_terrain = Counter(s.hexes[h].terrain for h in el)
    assert len(el) == 16 and el_terrain["desert"] == 5 and el_terrain["gold"] == 2          # TDE6-004
    assert sum(v for t, v in el_terrain.items() if t not in ("desert", "gold")) == 9
    cells = M.MAP_SPEC.cells()
    for h in el:                                     # deserts and gold fields on their fixed hexes
        assert (cells[h] == "D") == (s.hexes[h].terrain == "desert")
        assert (cells[h] == "g") == (s.hexes[h].terrain == "gold")
    assert s.hexes[M.HOME_DESERT].terrain == "desert"                                          # TDE6-003
    assert M.HOME_DESERT[0] == min(h[0] for h in home if h[1] == M.HOME_DESERT[1])             # on the left
    assert [h for h in home if s.hexes[h].terrain == "desert"] == [M.HOME_DESERT]
    tokens = {h: s.hexes[h].number for h in s.hexes if s.hexes[h].number}
    assert tokens == dict(M.MAP_SPEC.numbers)                                                 # tokens fixed
    assert no_adjacent_reds(tokens)
    assert s.harbors == M.fixed_harbors() and all(any(h in home for h in edge_hexes(e)) for e in s.harbors)
    ss = s.scenario_state                                                                     # TDE6-005
    assert len(ss["dragons"]) == 19 == M.DRAGONS
    assert all(d["flags"] is None and L.on_el(s, d["node"]) for d in ss["dragons"])
    assert len({tuple(d["node"]) for d in ss["dragons"]}) == 19
    assert sum(ss["dragon_pool"].values()) == 19
    assert not any(el & set(node_hexes(n_)) for h in home for n_ in hex_corners(h))          # seas between
    assert s.robber == M.HOME_DESERT and s.pirate is None                                    # TDE6-008


def test_the_map_matches_its_component_table_and_the_home_island_is_random_TDE6_003():
    from service.engine.scenarios.components import check_components
    boards = set()
    for seed in (1, 2, 3):
        s = TDE6.new_game(3, seed)
        assert check_components(TDE6, 3, s) == []
        boards.add(tuple(s.hexes[h].terrain for h in sorted(L.home_hexes(s))))
    assert len(boards) > 1


def test_the_map_is_drawn_in_docs():
    text = (Path(__file__).resolve().parents[1] / "docs" / "maps" / "TDE6.md").read_text(encoding="utf-8")
    assert "TDE6-004" in text and "19" in text


# -- set-up: TDE6-006, TDE6-007, R-074 ----------------------------------------------------------------

def setup_state(round_: int, current: int, buildings=(), roads=()):
    st = position(phase="setup", current=current, settlements=[(p, n) for p, n, k in buildings if k == "s"],
                  cities=[(p, n) for p, n, k in buildings if k == "c"], roads=list(roads))
    st["setup"] = {"round": round_, "step": "settlement", "last_settlement": None}
    st["turn"] = 0
    st["turn_flags"] = {"rolled": False}
    return st


def test_setup_is_settlement_then_city_then_settlement_on_the_home_island_TDE6_006(client):
    s = TDE6.new_game(3, 1)
    g = MapGraph.build(s.terrain_map())
    order, kinds = [], []
    from service.engine.selfplay import pick_action
    from service.engine.rng import Rng
    rng = Rng(1, 9)
    while s.phase == "setup":
        a = pick_action(legal_actions(s, g, TDE6, s.current_player), rng)
        v = engine_adjudicate(s, a, g, TDE6)
        assert v.legal
        if a.type == "build_settlement":
            order.append((s.setup.round, a.player))
        for e in v.events:
            if e["type"] == "built" and e.get("piece") in ("settlement", "city"):
                kinds.append((s.setup.round, e["piece"]))
            if e["type"] == "starting_resources":
                assert s.setup.round == 3                      # from the last settlement
        s = v.state
    assert [p for _, p in order] == [0, 1, 2, 2, 1, 0, 0, 1, 2]
    assert Counter(k for _, k in kinds if k == "city") == {"city": 3}
    for n, (p, k) in s.buildings.items():
        assert L.on_home(s, n) and not L.on_el(s, n)
    assert all(sum(1 for o, k in s.buildings.values() if o == p and k == "city") == 1 for p in range(3))
    assert all(sum(1 for o, k in s.buildings.values() if o == p and k == "settlement") == 2 for p in range(3))


def test_a_starting_settlement_off_the_home_island_is_refused_TDE6_006(client):
    v = adjudicate(client, setup_state(1, 0), act("build_settlement", node=[8, 2, "N"]))
    assert not v["legal"] and rules(v)[0] == "TDE6-006"


def test_the_last_starting_building_must_be_coastal_if_none_is_R_074_TDE6_007(client):
    inland_a, inland_b, inland_c = (2, 2, "N"), (2, 3, "S"), (3, 2, "S")
    for n in (inland_a, inland_b, inland_c):
        assert not L.coastal(TDE6.new_game(3, 1), n)
    st = setup_state(3, 0, buildings=[(0, inland_a, "s"), (0, inland_b, "c")])
    v = adjudicate(client, st, act("build_settlement", node=list(inland_c)))
    assert not v["legal"] and rules(v)[0] == "TDE6-007" and v["violations"][0]["ruling"] == "R-074"
    v = adjudicate(client, st, act("build_settlement", node=list(SETTLE)))
    assert v["legal"]
    # the coastal building may take a ship (or a road)
    v2 = adjudicate(client, v["state"], act("build_ship", edge=list(SHIPS[0])))
    assert v2["legal"], v2["violations"]
    st = setup_state(3, 0, buildings=[(0, SETTLE, "s"), (0, inland_b, "c")])
    assert adjudicate(client, st, act("build_settlement", node=list(inland_c)))["legal"]


# -- building on the Enchanted Land: TDE6-009, TDE6-010, TDE6-011 --------------------------------------

def test_settlements_on_the_enchanted_land_on_its_coast_only_TDE6_009(client):
    hands = {0: full(lumber=2, brick=2, wool=2, grain=2)}
    st = position(**line(), hands=hands)
    v = adjudicate(client, st, act("build_settlement", node=list(LANDING)))
    assert v["legal"], v["violations"]


def test_no_settlement_where_a_dragon_lies_TDE6_009(client):
    """TDE6-009: a settlement on the Enchanted Land's coast, but not on an intersection holding a dragon
    token."""
    hands = {0: full(lumber=2, brick=2, wool=2, grain=2)}
    st = position(**line(), hands=hands)
    ds = st["scenario_state"]["dragons"]
    assert not any(tuple(d["node"]) == LANDING for d in ds)
    ds[0]["node"] = list(LANDING)                               # a dragon where the ship line lands
    v = adjudicate(client, st, act("build_settlement", node=list(LANDING)))
    assert not v["legal"] and rules(v) == ["TDE6-009"] and "dragon" in v["violations"][0]["message"], v["violations"]


def test_an_inland_settlement_site_is_refused_by_TDE6_009(client):
    from service.engine.core import Action, Ctx
    s = TDE6.new_game(3, 1)
    g = MapGraph.build(s.terrain_map())
    s.phase, s.turn = "main", 9
    s.flags.rolled = True
    s.buildings = {SETTLE: (0, "settlement")}
    s.ships = {e: 0 for e in SHIPS}
    # a ship reaching the inland intersection is impossible; the scenario's check answers first anyway
    v = TDE6.check(Ctx(s, Action("build_settlement", 0, {"node": FREE_3}), g, TDE6))
    assert v and v[0].rule == "TDE6-009"


def test_an_enchanted_land_settlement_is_never_a_city_TDE6_010(client):
    st = position(**line(settlements=[(0, SETTLE), (0, LANDING)]), hands={0: full(ore=3, grain=2)})
    v = adjudicate(client, st, act("build_city", node=list(LANDING)))
    assert not v["legal"] and rules(v)[0] == "TDE6-010"
    assert adjudicate(client, st, act("build_city", node=list(SETTLE)))["legal"]


def test_no_road_on_the_enchanted_land_TDE6_011(client):
    st = position(**line(settlements=[(0, SETTLE), (0, LANDING)]), hands={0: full(lumber=1, brick=1)})
    v = adjudicate(client, st, act("build_road", edge=[7, 1, "SE"]))
    assert not v["legal"] and rules(v)[0] == "TDE6-011"


# -- sending the knight: TDE6-012..015, R-075 ---------------------------------------------------------

def test_an_active_knight_is_sent_along_the_ship_line_and_arrives_inactive_R_075_TDE6_012(client):
    st = position(**line(knights=[kn(0, HOME_KNIGHT)]))
    v = adjudicate(client, st, act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING)}))
    assert v["legal"], v["violations"]
    k = knights_of(v)[0]
    assert k["node"] == list(LANDING) and k["active"] is False                 # deactivated after the move
    assert ss_of(v)["sent"] == [0]
    assert any(e["type"] == "knight_sent" for e in v["events"])
    # no settlement of his on the Enchanted Land is needed (none stands there)
    assert not any(L.on_el(TDE6.new_game(3, 1), n["node"]) for n in v["state"]["pieces"]["settlements"])


def test_only_an_activated_knight_connected_by_the_ship_line_is_sent_TDE6_012(client):
    go = act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING)})
    v = adjudicate(client, position(**line(knights=[kn(0, HOME_KNIGHT, active=False)])), go)
    assert not v["legal"] and rules(v)[0] == "TDE6-012"
    v = adjudicate(client, position(**line(knights=[kn(0, HOME_KNIGHT, activated=True)])), go)
    assert not v["legal"] and rules(v)[0] == "TDE6-012"
    short = line(knights=[kn(0, HOME_KNIGHT)], ships=[(0, e) for e in SHIPS[:3]])
    v = adjudicate(client, position(**short), go)
    assert not v["legal"] and rules(v)[0] == "TDE6-012" and v["violations"][0]["ruling"] == "R-075"
    # a knight does not walk across along the ships with the ordinary move, nor is one built there
    v = adjudicate(client, position(**line(knights=[kn(0, HOME_KNIGHT)])),
                   act("move_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-012"
    v = adjudicate(client, position(**line(), hands={0: full(wool=1, ore=1)}), act("build_knight", node=list(LANDING)))
    assert not v["legal"] and rules(v)[0] == "TDE6-012"


def test_one_knight_per_player_and_it_never_returns_TDE6_013(client):
    st = position(**line(knights=[kn(0, HOME_KNIGHT), kn(0, FREE_3, active=True)]))
    v = adjudicate(client, st, act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-013"
    v = adjudicate(client, st, act("move_knight", **{"from": list(FREE_3), "to": list(HOME_KNIGHT)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-013"
    v = adjudicate(client, st, act("transfer_knight", **{"from": list(FREE_3), "to": list(LANDING)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-013"


def test_a_knight_across_never_comes_back_even_if_not_recorded_as_sent_TDE6_013(client):
    """TDE6-013: a knight on the Enchanted Land never goes back: the transfer's own check refuses it for
    what the knight is, not only because its player is recorded as having sent one. A posted state with a
    knight across and no record is refused (TDE6-012), so the check is asked through the engine."""
    from service.engine.core import Action
    st = position(**line(knights=[kn(0, FREE_3)]), sent=[])
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422 and "TDE6-012" in str(r.get_json())
    s = TDE6.new_game(3, 1)
    g = MapGraph.build(s.terrain_map())
    s.phase, s.turn, s.flags.rolled = "main", 9, True
    s.buildings = {SETTLE: (0, "settlement")}
    s.ships = {e: 0 for e in SHIPS}
    store.knights(s).append(kn(0, FREE_3))
    v = engine_adjudicate(s, Action("transfer_knight", 0, {"from": FREE_3, "to": LANDING}), g, TDE6,
                          with_derived=False)
    assert [x.rule for x in v.violations] == ["TDE6-013"] and "never goes back" in v.violations[0].message


def test_a_knight_is_sent_only_to_where_the_ship_line_lands_TDE6_012(client):
    """TDE6-012 (R-075): the knight is sent to where its owner's ship line lands: with no line reaching
    the Enchanted Land it is refused for that; with one, another intersection of the land is refused too;
    a Deserter's knight is never placed there."""
    go = act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING)})
    short = position(**line(knights=[kn(0, HOME_KNIGHT)], ships=[(0, e) for e in SHIPS[:3]]))
    v = adjudicate(client, short, go)
    assert not v["legal"] and rules(v) == ["TDE6-012"] and "no ship line" in v["violations"][0]["message"]
    st = position(**line(knights=[kn(0, HOME_KNIGHT)]))
    v = adjudicate(client, st, act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(FREE_3)}))
    assert not v["legal"] and rules(v) == ["TDE6-012"] and "is not where a ship line" in v["violations"][0]["message"]
    assert adjudicate(client, st, go)["legal"]
    from tests.ck_util import with_cards
    st = position(**line(knights=[kn(1, HOME_KNIGHT)]))
    st["scenario_state"]["cities_and_knights"] = with_cards(st["scenario_state"]["cities_and_knights"], 0, "deserter")
    v = adjudicate(client, st, act("play_progress", card="deserter", target=1, removed=list(HOME_KNIGHT),
                                   node=list(LANDING)))
    assert not v["legal"] and rules(v) == ["TDE6-012"], v["violations"]
    ok = adjudicate(client, st, act("play_progress", card="deserter", target=1, removed=list(HOME_KNIGHT),
                                    node=list(HOME_KNIGHT)))
    assert ok["legal"], ok["violations"]


def test_a_knight_across_never_moves_onto_a_settlement_TDE6_016(client):
    """TDE6-016 (R-076): a knight on the Enchanted Land moves to a free intersection: one holding a
    settlement is refused for it, even where a dragon token lies (the coast's own rule, TDE6-017, would let
    it end there)."""
    st = position(**line(knights=[kn(0, LANDING)], settlements=[(0, SETTLE), (1, COAST_1)]), sent=[0])
    st["scenario_state"]["dragons"][0]["node"] = list(COAST_1)
    v = adjudicate(client, st, act("move_knight", **{"from": list(LANDING), "to": list(COAST_1)}))
    assert not v["legal"] and rules(v) == ["TDE6-016"] and "holds a settlement" in v["violations"][0]["message"]


def test_a_retreat_is_named_only_when_a_knight_is_displaced_TDE6_018(client):
    """TDE6-018: a retreat is named for a knight displaced on landing; with nobody displaced it is refused."""
    st = position(**line(knights=[kn(0, HOME_KNIGHT)]))
    v = adjudicate(client, st, act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING),
                                                         "retreat": list(COAST_1)}))
    assert not v["legal"] and rules(v) == ["TDE6-018"] and v["violations"][0]["path"] == "/action/retreat"


def test_no_road_on_the_enchanted_land_by_a_progress_card_TDE6_011(client):
    """TDE6-011: no road on the Enchanted Land, neither by Road Building nor as the Diplomat's
    replacement."""
    from tests.ck_util import with_cards
    st = position(**line(settlements=[(0, SETTLE), (0, LANDING)]))
    st["scenario_state"]["cities_and_knights"] = with_cards(st["scenario_state"]["cities_and_knights"], 0,
                                                            "road_building", "diplomat")
    v = adjudicate(client, st, act("play_progress", card="road_building",
                                   pieces=[{"kind": "road", "edge": [7, 1, "SE"]}]))
    assert not v["legal"] and rules(v) == ["TDE6-011"], v["violations"]
    v = adjudicate(client, st, act("play_progress", card="diplomat", edge=list(ROAD), replace=[7, 1, "SE"]))
    assert not v["legal"] and rules(v) == ["TDE6-011"], v["violations"]


def test_an_own_settlement_on_the_landing_sends_the_knight_beside_it_TDE6_014(client):
    st = position(**line(settlements=[(0, SETTLE), (0, LANDING)], knights=[kn(0, HOME_KNIGHT)]))
    v = adjudicate(client, st, act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-014"
    v = adjudicate(client, st, act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(COAST_1)}))
    assert v["legal"], v["violations"]
    assert knights_of(v)[0]["node"] == list(COAST_1)


def test_no_landing_on_an_opponents_settlement_or_a_knight_too_strong_TDE6_015(client):
    go = act("transfer_knight", **{"from": list(HOME_KNIGHT), "to": list(LANDING)})
    st = position(**line(settlements=[(0, SETTLE), (1, LANDING)], knights=[kn(0, HOME_KNIGHT)]))
    v = adjudicate(client, st, go)
    assert not v["legal"] and rules(v)[0] in ("TDE6-015", "TDE6-012")
    st = position(**line(knights=[kn(0, HOME_KNIGHT), kn(1, LANDING, level=1)]))
    v = adjudicate(client, st, go)
    assert not v["legal"] and rules(v)[0] == "TDE6-015"
    # a weaker one is displaced, and the sender puts it on a free inland intersection (TDE6-018)
    st = position(**line(knights=[kn(0, HOME_KNIGHT, level=2), kn(1, LANDING, level=1)]))
    v = adjudicate(client, st, go)
    assert not v["legal"] and rules(v)[0] == "TDE6-018"
    v = adjudicate(client, st, dict(go, retreat=list(FREE_3)))
    assert v["legal"], v["violations"]
    assert sorted((k["player"], tuple(k["node"])) for k in knights_of(v)) == [(0, LANDING), (1, FREE_3)]


# -- moving on the Enchanted Land: TDE6-016..018, R-076 -----------------------------------------------

def el_knight(**kw):
    return position(**line(knights=[kn(0, LANDING, **kw)]))


def test_up_to_three_intersections_freely_then_inactive_R_076_TDE6_016(client):
    v = adjudicate(client, el_knight(), act("move_knight", **{"from": list(LANDING), "to": list(FREE_3)}))
    assert v["legal"], v["violations"]
    assert knights_of(v)[0] == {**kn(0, FREE_3, active=False), "acted": True}
    s = TDE6.new_game(3, 1)
    far = next(n for n, d in L.el_distances(s, LANDING, 4).items() if d == 4 and not L.coastal(s, n))
    v = adjudicate(client, el_knight(), act("move_knight", **{"from": list(LANDING), "to": list(far)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-016" and v["violations"][0]["ruling"] == "R-076"
    v = adjudicate(client, el_knight(active=False), act("move_knight", **{"from": list(LANDING), "to": list(FREE_3)}))
    assert not v["legal"]


def test_a_move_does_not_end_on_the_coast_unless_on_a_dragon_R_076_TDE6_017(client):
    v = adjudicate(client, el_knight(), act("move_knight", **{"from": list(LANDING), "to": list(COAST_1)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-017"
    s = TDE6.new_game(3, 1)
    coast_dragons = [tuple(d["node"]) for d in s.scenario_state["dragons"] if L.coastal(s, d["node"])]
    start, target = next((a, b) for b in coast_dragons for a, d in L.el_distances(s, b, 3).items()
                         if 0 < d <= 3 and not L.coastal(s, a) and a not in M.DRAGON_NODES)
    st = position(**line(knights=[kn(0, start)]))
    v = adjudicate(client, st, act("move_knight", **{"from": list(start), "to": list(target)}))
    assert v["legal"], v["violations"]


def test_a_stronger_knight_displaces_a_weaker_one_anywhere_free_inland_TDE6_018(client):
    st = position(**line(knights=[kn(0, LANDING, level=2), kn(1, FREE_3, level=1)]), sent=[0, 1])
    go = act("displace_knight", **{"from": list(LANDING), "to": list(FREE_3)})
    v = adjudicate(client, st, go)
    assert not v["legal"] and rules(v)[0] == "TDE6-018"              # the displacer names where it goes
    far = (10, 2, "S")                                               # free, inland, far from both
    v = adjudicate(client, st, dict(go, retreat=list(far)))
    assert v["legal"], v["violations"]
    assert sorted((k["player"], tuple(k["node"])) for k in knights_of(v)) == [(0, FREE_3), (1, far)]
    v = adjudicate(client, st, dict(go, retreat=list(COAST_1)))
    assert not v["legal"] and rules(v)[0] == "TDE6-018"
    st = position(**line(knights=[kn(0, LANDING, level=1), kn(1, FREE_3, level=1)]), sent=[0, 1])
    v = adjudicate(client, st, dict(go, retreat=list(far)))
    assert not v["legal"] and rules(v)[0] == "TDE6-018"
    v = adjudicate(client, st, act("move_knight", **{"from": list(LANDING), "to": list(FREE_3)}))
    assert not v["legal"] and rules(v)[0] == "TDE6-018"


def test_a_displacement_goes_onto_an_opponents_knight_TDE6_018(client):
    """TDE6-018 (R-076): displace_knight goes onto an opponent's knight; onto an empty intersection it is
    refused for that."""
    st = position(**line(knights=[kn(0, LANDING, level=2)]), sent=[0])
    v = adjudicate(client, st, act("displace_knight", **{"from": list(LANDING), "to": list(FREE_3)}))
    assert not v["legal"] and rules(v) == ["TDE6-018"] and "holds no opponent's knight" in v["violations"][0]["message"]


# -- fighting: TDE6-019..022, R-077 -------------------------------------------------------------------

def on_dragon(level=1, **kw):
    scen = kw.pop("scen", {})
    return position(**line(knights=[kn(0, DRAGON, level=level, **kw)]), sent=[0], **scen)


def test_a_knight_that_acted_does_not_fight_CK_KNIGHT_5(client):
    """CK-KNIGHT-5 on the Enchanted Land: a knight acts once a turn; one that has acted fights no dragon."""
    v = adjudicate(client, on_dragon(acted=True), act("fight_dragon", node=list(DRAGON), flags=1))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-5"] and "has acted" in v["violations"][0]["message"]


def test_a_fight_comes_in_a_turn_after_the_activation_R_077_TDE6_019(client):
    fight = act("fight_dragon", node=list(DRAGON), flags=1)
    v = adjudicate(client, on_dragon(activated=True), fight)
    assert not v["legal"] and rules(v)[0] == "TDE6-019"
    v = adjudicate(client, on_dragon(active=False), fight)
    assert not v["legal"] and rules(v)[0] == "TDE6-019"
    v = adjudicate(client, el_knight(), act("fight_dragon", node=list(LANDING), flags=1))
    assert not v["legal"] and rules(v)[0] == "TDE6-019"
    # activating on the dragon, then fighting in the next turn
    st = on_dragon(active=False)
    st["players"][0]["resources"] = full(grain=1)
    v = adjudicate(client, st, act("activate_knight", node=list(DRAGON)))
    assert v["legal"]
    v2 = adjudicate(client, v["state"], fight)
    assert not v2["legal"] and rules(v2)[0] == "TDE6-019"
    assert adjudicate(client, on_dragon(), fight)["legal"]


@pytest.mark.parametrize("level, flags, won", [(1, 1, True), (1, 2, False), (2, 2, True), (2, 3, False),
                                               (3, 3, True), (3, 1, True)])
def test_the_knight_must_be_as_strong_as_the_flags_R_077_TDE6_020(client, level, flags, won):
    v = adjudicate(client, on_dragon(level), act("fight_dragon", node=list(DRAGON), flags=flags))
    assert v["legal"], v["violations"]
    ev = next(e for e in v["events"] if e["type"] == "dragon_fought")
    assert ev["won"] is won and ev["flags"] == flags and ev["level"] == level
    left = [d for d in ss_of(v)["dragons"] if tuple(d["node"]) == DRAGON]
    assert (left == []) is won
    assert knights_of(v)[0]["active"] is False


def test_a_defeated_dragon_counts_one_vp_TDE6_021(client):
    st = on_dragon(2)
    before = adjudicate(client, st, None)["derived"]["victory_points"]["0"]["total"]
    v = adjudicate(client, st, act("fight_dragon", node=list(DRAGON), flags=2))
    assert ss_of(v)["defeated"]["0"] == [2]
    assert v["derived"]["victory_points"]["0"]["total"] == before + 1
    assert v["derived"]["victory_points"]["0"]["dragons"] == 1
    assert v["derived"]["enchanted_land"]["vp_by_source"]["0"]["dragons"] == 1
    assert v["derived"]["enchanted_land"]["defeated"]["0"] == 1
    assert v["derived"]["enchanted_land"]["dragons_left"] == 18


def test_a_lost_fight_leaves_dragon_and_knight_and_a_promoted_knight_retries_TDE6_022(client):
    """TDE6-022: the dragon lies face down again where it was, the knight stays there inactive; once
    promoted it fights the same dragon again and wins; TDE6-020: a dragon seen before shows the same
    flags, other flags are refused for it."""
    v = adjudicate(client, on_dragon(1), act("fight_dragon", node=list(DRAGON), flags=2))
    assert v["legal"]
    d = next(d for d in ss_of(v)["dragons"] if tuple(d["node"]) == DRAGON)
    assert d["flags"] == 2                                           # face down again, its flags known
    assert ss_of(v)["dragon_pool"]["2"] == M.FLAG_TOKENS[2] - 1
    k = knights_of(v)[0]
    assert k["node"] == list(DRAGON) and k["active"] is False
    # the same dragon shows the same flags later
    st = copy.deepcopy(v["state"])
    st["scenario_state"]["cities_and_knights"]["knights"] = [kn(0, DRAGON, level=2)]
    v2 = adjudicate(client, st, act("fight_dragon", node=list(DRAGON), flags=3))
    assert not v2["legal"] and rules(v2)[0] == "TDE6-020"
    v2 = adjudicate(client, st, act("fight_dragon", node=list(DRAGON)))
    assert v2["legal"] and ss_of(v2)["defeated"]["0"] == [2]


def test_an_unseen_dragon_is_turned_over_by_the_seeded_generator_R_077_TDE6_020(client):
    st = on_dragon(3)
    v = adjudicate(client, st, act("fight_dragon", node=list(DRAGON)))
    assert v["legal"]
    ev = next(e for e in v["events"] if e["type"] == "dragon_fought")
    assert ev["won"] and ev["flags"] in (1, 2, 3)
    assert sum(ss_of(v)["dragon_pool"].values()) == 18
    assert v["state"]["rng"] != st["rng"]
    ss = st["scenario_state"]               # all eight 1-flag dragons taken: none is left face down
    ss["defeated"] = {"0": [], "1": [1] * 8, "2": []}
    ss["dragons"] = [d for d in ss["dragons"] if tuple(d["node"]) == DRAGON] + [
        d for d in ss["dragons"] if tuple(d["node"]) != DRAGON][:10]
    ss["dragon_pool"] = {"1": 0, "2": 6, "3": 5}
    v = adjudicate(client, st, act("fight_dragon", node=list(DRAGON), flags=1))
    assert not v["legal"] and rules(v)[0] == "TDE6-020"


# -- rule changes: TDE6-023, TDE6-024, TDE6-025 -------------------------------------------------------

def test_enchanted_land_knights_do_not_meet_the_barbarians_TDE6_023(client):
    ck = {"barbarian": 6}
    st = position(phase="roll", cities=[(0, (2, 2, "N"))], **line(knights=[kn(0, LANDING, level=3),
                                                                             kn(1, (3, 2, "S"), level=1)]), ck=ck)
    st["pieces"]["roads"].append({"player": 1, "edge": [3, 2, "SE"]})
    v = adjudicate(client, st, act("roll", dice=[1, 1], event="ship"))
    assert v["legal"], v["violations"]
    attack = next(e for e in v["events"] if e["type"] == "barbarian_attack")
    assert attack["defence"] == 1 and attack["knights"]["0"] == 0
    ks = {tuple(k["node"]): k for k in knights_of(v)}
    assert ks[LANDING]["active"] is True                       # not deactivated by the attack
    assert ks[(3, 2, "S")]["active"] is False
    assert TDE6.knight_defends(TDE6.new_game(3, 1), kn(0, LANDING)) is False


def test_the_inventor_moves_no_enchanted_land_token_TDE6_024(client):
    from tests.ck_util import with_cards
    st = position(**line())
    c = st["scenario_state"]["cities_and_knights"]
    st["scenario_state"]["cities_and_knights"] = with_cards(c, 0, "inventor")
    home = next(h for h in sorted(L.home_hexes(TDE6.new_game(3, 1)))
                if TDE6.new_game(3, 1).hexes[h].number in (3, 4, 5, 9, 10, 11))
    el = next(h for h in sorted(L.el_hexes(TDE6.new_game(3, 1))) if TDE6.new_game(3, 1).hexes[h].number in (3, 4, 5, 9, 10, 11))
    v = adjudicate(client, st, act("play_progress", card="inventor", hexes=[list(home), list(el)]))
    assert not v["legal"] and rules(v)[0] == "TDE6-024"
    home2 = next(h for h in sorted(L.home_hexes(TDE6.new_game(3, 1)))
                 if TDE6.new_game(3, 1).hexes[h].number in (3, 4, 5, 9, 10, 11) and h != home)
    assert adjudicate(client, st, act("play_progress", card="inventor", hexes=[list(home), list(home2)]))["legal"]


def test_deserter_and_intrigue_leave_enchanted_land_knights_alone_TDE6_025(client):
    from tests.ck_util import with_cards
    st = position(**line(knights=[kn(1, LANDING)]), sent=[1])
    c = st["scenario_state"]["cities_and_knights"]
    st["scenario_state"]["cities_and_knights"] = with_cards(c, 0, "deserter", "intrigue")
    v = adjudicate(client, st, act("play_progress", card="deserter", target=1, removed=list(LANDING),
                                   node=list(HOME_KNIGHT)))
    assert not v["legal"] and rules(v)[0] == "TDE6-025"
    v = adjudicate(client, st, act("play_progress", card="intrigue", node=list(LANDING)))
    assert not v["legal"] and rules(v)[0] == "TDE6-025"
    both = position(**line(knights=[kn(1, LANDING), kn(1, HOME_KNIGHT)]), sent=[1])   # one knight at home too
    both["scenario_state"]["cities_and_knights"] = with_cards(both["scenario_state"]["cities_and_knights"], 0,
                                                              "deserter")
    v = adjudicate(client, both, act("play_progress", card="deserter", target=1, removed=list(LANDING)))
    assert not v["legal"] and rules(v) == ["TDE6-025"] and v["violations"][0]["path"] == "/action/removed"


# -- the end: TDE6-026, R-078 -------------------------------------------------------------------------

def test_the_sixth_dragon_wins_at_once_R_078_TDE6_026(client):
    st = on_dragon(3, scen={})
    st["scenario_state"]["defeated"] = {"0": [1, 1, 1, 2, 2], "1": [], "2": []}
    st["scenario_state"]["dragons"] = [d for d in st["scenario_state"]["dragons"]][:14]
    if not any(tuple(d["node"]) == DRAGON for d in st["scenario_state"]["dragons"]):
        st["scenario_state"]["dragons"][0] = {"node": list(DRAGON), "flags": None}
    pool = st["scenario_state"]["dragon_pool"]
    pool.update({"1": 5, "2": 4, "3": 5})
    v = adjudicate(client, st, act("fight_dragon", node=list(DRAGON), flags=3))
    assert v["legal"], v["violations"]
    assert v["state"]["phase"] == "game_over" and v["state"]["winner"] == 0
    assert v["derived"]["victory_points"]["0"]["total"] < 21


@pytest.mark.parametrize("n, target", [(3, 21), (4, 18)])
def test_the_vp_target_is_21_or_18_TDE6_026(n, target):
    assert TDE6.new_game(n, 1).vp_target == target


# -- derived values, legal actions, random play --------------------------------------------------------

def test_every_derived_value_and_event_is_declared(client):
    comp = TDE6.composition
    st = position(**line(knights=[kn(0, DRAGON, level=2), kn(1, (3, 2, "S"))]), sent=[0])
    v = adjudicate(client, st, act("fight_dragon", node=list(DRAGON), flags=2))
    f = comp.derived.fields["enchanted_land"]
    assert f.type.problems(v["derived"]["enchanted_land"], "/d") == []
    el = v["derived"]["enchanted_land"]
    assert el["knights"] == [{"node": list(DRAGON), "player": 0, "level": 2, "strength": "strong",
                              "state": "inactive", "on_dragon": False, "may_fight": False}]
    for e in v["events"]:
        if e["type"] in comp.events:
            assert set(e) - {"type"} <= set(comp.events[e["type"]].fields), e


def test_explanations_and_picture_show_the_dragons_and_knights(client):
    st = position(**line(knights=[kn(0, DRAGON, level=2)]), sent=[0])
    r = client.post("/v1/adjudicate?explain=true", json={"state": st, "action": None})
    assert r.status_code == 200
    ex = r.get_json()["explanations"]["modules"]["enchanted_land"]
    assert "TDE6-021" in ex["why"] and "R-078" in ex["why"]
    s = TDE6.new_game(3, 1)
    layers = {l.key: l for l in TDE6.board_layers(s, MapGraph.build(s.terrain_map()))}
    assert len(layers["tde6-dragon"].glyphs) == 19


def _engine(st_json):
    from service.api.codec import build_state
    from service.api.schemas import StateSchema
    s, _ = build_state(StateSchema().load(st_json))
    return s, MapGraph.build(s.terrain_map())


@pytest.mark.parametrize("st", [
    position(**line(knights=[kn(0, HOME_KNIGHT, level=2), kn(1, LANDING, level=1)]), sent=[1]),
    position(**line(settlements=[(0, SETTLE), (0, LANDING)], knights=[kn(0, HOME_KNIGHT)])),
    position(**line(knights=[kn(0, DRAGON, level=2), kn(1, FREE_3, level=1)]), sent=[0, 1]),
], ids=["send-displacing", "send-beside", "move-fight-displace"])
def test_listed_actions_are_judged_legal_TDE6_012_TDE6_016_TDE6_018_TDE6_019(st):
    s, g = _engine(st)
    la = legal_actions(s, g, TDE6, 0)
    types = set(la.actions)
    for t, acts in la.actions.items():
        for a in acts:
            v = engine_adjudicate(s, a, g, TDE6, with_derived=False)
            assert v.legal, (t, a, [x.rule for x in v.violations])
    assert types & {"transfer_knight", "fight_dragon", "move_knight", "displace_knight"}


def test_random_new_actions_agree_with_the_listing_TDE6_012_TDE6_016_TDE6_019():
    """Fuzzing the new action types: random from/to/retreat/flags; whatever adjudicate accepts is listed
    (fight flags aside: the listing turns the token by the generator), and nothing crashes."""
    import random
    from service.engine.core import Action
    from service.engine.legal import action_json
    rnd = random.Random(6)
    for st in (position(**line(knights=[kn(0, HOME_KNIGHT, level=2), kn(1, LANDING, level=1)]), sent=[1]),
               position(**line(knights=[kn(0, DRAGON, level=2), kn(1, FREE_3, level=1)]), sent=[0, 1])):
        s, g = _engine(st)
        listed = {json.dumps(action_json(a), sort_keys=True) for acts in legal_actions(s, g, TDE6, 0).actions.values()
                  for a in acts}
        nodes = g.nodes
        for _ in range(400):
            t = rnd.choice(["transfer_knight", "move_knight", "displace_knight", "fight_dragon"])
            own = [tuple(k["node"]) for k in store.knights(s) if k["player"] == 0]
            frm = rnd.choice(own + [rnd.choice(nodes)])
            if t == "fight_dragon":
                a = Action(t, 0, {"node": frm, "flags": None})
            else:
                params = {"from": frm, "to": rnd.choice(nodes)}
                if t != "move_knight":
                    params["retreat"] = rnd.choice([None, rnd.choice(nodes)])
                a = Action(t, 0, params)
            v = engine_adjudicate(s, a, g, TDE6, with_derived=False)
            if v.legal:
                assert json.dumps(action_json(a), sort_keys=True) in listed, a


@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2)])
def test_random_games_reach_a_winner_with_every_invariant_TDE6_026(players, seed):
    g = play_game("TDE6", players, seed, max_actions=4000,
                  dump=lambda s: json.dumps(dump_state(s), sort_keys=True))
    assert g.failures == []
    assert g.ended == "won", (g.ended, len(g.log))


def test_a_tde6_game_replays_through_the_api(client):
    from service.api.replay import state_digest
    from service.engine.legal import action_json
    g = play_game("TDE6", 3, 1, max_actions=300, check=False)
    log = [action_json(a) for a in g.log]
    new_game = {"scenario": "TDE6", "players": 3, "seed": 1, "options": {"cities_and_knights": True}}
    r = client.post("/v1/replay", json={"new_game": new_game, "actions": log})
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["all_legal"] and out["applied"] == 300
    assert out["final"]["state"] == dump_state(g.final) and out["final"]["digest"] == state_digest(g.final)
    assert "enchanted_land" in out["final"]["derived"]


def test_bad_dragon_data_is_a_422_naming_the_key_TDE6_005_R_077(client):
    cases = [
        ({"dragons": [{"node": [3, 3, "N"], "flags": None}], "dragon_pool": {"1": 1, "2": 0, "3": 0}},
         "/state/scenario_state/dragons/0/node", "TDE6-005"),
        ({"dragon_pool": {"1": 8, "2": 6, "3": 4}}, "/state/scenario_state/dragon_pool", "R-077"),
    ]
    for ss, pointer, rule in cases:
        r = client.post("/v1/adjudicate", json={"state": position(**ss), "action": None})
        assert r.status_code == 422, (ss, r.get_json())
        errs = r.get_json()["errors"]
        assert any(e["pointer"] == pointer and rule in e["detail"] for e in errs), (ss, errs)


# -- shared-format example positions ---------------------------------------------------------------------

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


def test_there_is_an_example_per_ruling():
    named = {r for p in EXAMPLE_FILES for r in json.loads(p.read_text(encoding="utf-8"))["rules"]}
    assert {"R-074", "R-075", "R-076", "R-077", "R-078", "R-079"} <= named


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=[p.stem for p in EXAMPLE_FILES])
def test_tde6_example(client, path):
    from .test_cities_and_knights_examples import to_state as ck_state
    example = json.loads(path.read_text(encoding="utf-8"))
    posted = ck_state(example)
    posted["scenario_state"].update({k: v for k, v in example["context"].items()
                                     if k in ("islands", "dragons", "dragon_pool", "defeated", "sent")})
    if example["context"].get("setup"):
        posted["setup"] = example["context"]["setup"]
        posted["turn"] = 0
    r = client.post("/v1/adjudicate", json={"state": posted, "action": example["action"]})
    expect = example["expect"]
    if expect.get("status"):
        assert r.status_code == expect["status"] and expect["rule"] in json.dumps(r.get_json())
        return
    assert r.status_code == 200, r.get_json()
    verdict = r.get_json()
    assert verdict["legal"] is expect["legal"], (example["why"], verdict["violations"])
    if not expect["legal"]:
        assert verdict["violations"][0]["rule"] in {expect["rule"], *expect.get("also_acceptable_rules", [])}
    for key, want in (expect.get("derived") or {}).items():
        value = verdict["state"] if key == "state_after" else verdict["derived"][key]
        assert _subset(want, value), (key, want, value)


def _subset(want, got) -> bool:
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and _subset(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_subset(w, g) for w, g in zip(want, got))
    return want == got


def test_new_action_types_are_listed_exactly_when_legal_along_random_play_TDE6_012_TDE6_016_TDE6_018_TDE6_019():
    """The property of ``tests/test_legal_property.py`` for the knight action types of this scenario: along a
    random game (with knights of every strength dropped onto the Enchanted Land now and then), every listed
    action is judged legal, and a random action of these types is legal exactly when it is listed."""
    import random
    from service.engine.core import Action
    from service.engine.legal import action_json
    rnd = random.Random(26)
    positions = []

    def keep(state, action, verdict):
        if state.phase == "main" and len(positions) < 40 and rnd.random() < 0.08:
            positions.append(state)

    play_game("TDE6", 3, 3, max_actions=900, check=False, on_step=keep)
    assert len(positions) >= 10
    types = ("transfer_knight", "move_knight", "displace_knight", "fight_dragon")
    checked = Counter()
    for i, s in enumerate(positions):
        s = s.copy()
        s.scenario_state = copy.deepcopy(s.scenario_state)
        if i % 2:                                   # knights of several players on the Enchanted Land
            free_el = [n for n in L.el_nodes(s) if L.free(s, n, store.knights(s))]
            for p in range(s.num_players):
                if p in L.sent(s) or not free_el:
                    continue
                n = free_el.pop(rnd.randrange(len(free_el)))
                store.knights(s).append(kn(p, n, level=rnd.randint(1, 3), active=rnd.random() < 0.7))
                s.scenario_state["sent"] = sorted(set(L.sent(s)) | {p})
        g = MapGraph.build(s.terrain_map())
        p = s.current_player
        la = legal_actions(s, g, TDE6, p)
        listed = {json.dumps(action_json(a), sort_keys=True) for t in types for a in la.actions.get(t, [])}
        for t in types:
            for a in la.actions.get(t, []):
                v = engine_adjudicate(s, a, g, TDE6, with_derived=False)
                assert v.legal, (t, a, [x.rule for x in v.violations])
                checked[t] += 1
        own = [tuple(k["node"]) for k in store.knights(s) if k["player"] == p]
        els, nodes = L.el_nodes(s), g.nodes
        for _ in range(60):
            t = rnd.choice(types)
            frm = rnd.choice(own) if own and rnd.random() < 0.9 else rnd.choice(nodes)
            if t == "fight_dragon":
                a = Action(t, p, {"node": frm, "flags": None})
            else:
                a = Action(t, p, {"from": frm, "to": rnd.choice(els) if rnd.random() < 0.9 else rnd.choice(nodes)})
                if t != "move_knight":
                    a.params["retreat"] = rnd.choice([None] + els)
            v = engine_adjudicate(s, a, g, TDE6, with_derived=False)
            assert v.legal == (json.dumps(action_json(a), sort_keys=True) in listed), (
                "legal but not listed" if v.legal else "listed but illegal", action_json(a), v.violations)
    assert checked["move_knight"] and checked["fight_dragon"]


def test_a_displaced_home_knight_does_not_retreat_onto_the_enchanted_land_TDE6_012(client):
    """CK-KNIGHT-7 lets a displaced knight's owner move it along his roads and ships; TDE6-012 keeps it off
    the Enchanted Land (the ``knight_may_stand`` hook): only the free intersections of the ship line."""
    st = position(settlements=[(1, SETTLE)], roads=[(1, ROAD), (0, (4, 1, "SE"))], ships=[(1, e) for e in SHIPS],
                  knights=[kn(0, (4, 1, "S"), level=2), kn(1, HOME_KNIGHT, level=1)], sent=[])
    go = act("displace_knight", **{"from": [4, 1, "S"], "to": list(HOME_KNIGHT)})
    v = adjudicate(client, st, dict(go, retreat=list(LANDING)))
    assert not v["legal"] and rules(v)[0] == "CK-KNIGHT-7"
    v = adjudicate(client, st, dict(go, retreat=[6, 1, "S"]))
    assert v["legal"], v["violations"]
    s, g = _engine(st)
    retreats = {tuple(a.get("retreat")) for a in legal_actions(s, g, TDE6, 0).actions.get("displace_knight", [])
                if a.get("retreat") is not None}
    assert (6, 1, "S") in retreats and LANDING not in retreats
