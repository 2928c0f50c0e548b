"""Cities & Knights as a module stacked above the base game and the Seafarers scenarios (CK-*, R-079).

Each test names the rule IDs it asserts. Positions are small synthetic boards (``tests/ck_util.py``)."""
from __future__ import annotations

import copy

import pytest

from service.engine.core import Action
from service.engine.legal import legal_actions, violations_of
from service.engine.mapgraph import MapGraph
from service.engine.modules.cities_and_knights import store
from service.engine.modules.cities_and_knights.module import ck_refusal
from service.engine.referee import adjudicate as engine_adjudicate
from service.engine.scenarios import SCENARIOS, scenario_of, start_game, with_expansions

from .ck_util import (E_N_NE, E_NE_SE, E_NW_N, E_S_SW, E_SE_S, E_SW_NW, NE, NW, OPT, SE, SW, N, S, act, ck, ckof, hand,
                      knight, position, post, rules, with_cards, with_commodities)


# -- a new game (CK-CHG-2/3, CK-VP-1, CK-SETUP-3, CK-COMP-1/4, CK-SEA-1, GOLD-002/006, TDE4-001) ------------

def test_new_game_base(client):
    """CK-CHG-3, CK-VP-1: 13 VP; CK-CHG-2: no development cards; CK-SETUP-3: the ship at its start, the
    merchant off the board; CK-COMP-1: 12 of each commodity; CK-COMP-4: three decks of 18."""
    r = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 5, "options": OPT})
    assert r.status_code in (200, 201), r.get_json()
    st = r.get_json()["state"] if "state" in r.get_json() else r.get_json()
    assert st["vp_target"] == 13
    c = st["scenario_state"]["cities_and_knights"]
    assert c["barbarian"] == 0 and c["merchant"] is None and c["attacks"] == 0
    assert c["commodity_bank"] == {"paper": 12, "cloth": 12, "coin": 12}
    assert [sum(c["decks"][d].values()) for d in ("trade", "politics", "science")] == [18, 18, 18]
    assert sum(st["dev_deck"].values()) == 0


def test_seafarers_target_raised_and_gold():
    """CK-SEA-1: a Seafarers scenario's target + 2; GOLD-002: GOLD states its own (15); GOLD-006: 10 gold."""
    s = start_game("SC01", 4, 3, OPT)
    assert s.vp_target == SCENARIOS["SC01"].vp_target + 2
    g = start_game("GOLD", 4, 3, OPT)
    assert g.vp_target == 15 and all(p.extra["gold"] == 10 for p in g.players)
    plain = start_game("GOLD", 4, 3, {})
    assert plain.vp_target == 12 and all(p.extra["gold"] == 8 for p in plain.players)


def test_tde4_refuses():
    """TDE4-001 (R-079): a scenario that must not be combined with C&K refuses the option."""
    class Stub:
        id = "TDE4"
    assert ck_refusal(Stub()).startswith("TDE4-001")
    assert ck_refusal(SCENARIOS["SC01"]) is None


def test_no_development_cards(client):
    """CK-CHG-2, CK-PROG-1: buying a development card is refused; playing one does not exist."""
    st = position(hands={0: hand(wool=1, grain=1, ore=1)})
    v = post(client, st, act("buy_development_card"))
    assert not v["legal"] and rules(v) == ["CK-CHG-2"]
    r = client.post("/v1/adjudicate", json={"state": st, "action": act("play_monopoly", resource="ore")})
    assert r.status_code == 422


def test_strict_phases_refused(client):
    """CK-CHG-7: trade and build are always combined; BASE-VAR-STRICT-PHASES is refused."""
    st = position(options={"BASE-VAR-STRICT-PHASES": True})
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422 and "CK-CHG-7" in r.get_json()["detail"]


# -- set-up (CK-SETUP-1/2/4, CK-CHG-4) -------------------------------------------------------------------

def test_second_placement_is_a_city():
    """CK-SETUP-1, CK-CHG-4: round 2 places a city (with build_settlement, a city once its road is placed);
    CK-SETUP-2: 1 resource per producing hex; CK-SETUP-4: 3 VP to start."""
    from service.engine.derive import victory_points
    s = start_game("base", 3, 11, OPT)
    scen = scenario_of(s)
    g = MapGraph.build(s.terrain_map())
    while s.phase == "setup":
        la = legal_actions(s, g, scen)
        t = "build_settlement" if "build_settlement" in la.actions else "build_road"
        a = la.actions[t][0]
        before = s
        v = engine_adjudicate(s, a, g, scen)
        assert v.legal
        s = v.state
        if t == "build_settlement" and before.setup.round == 2:
            got = sum(s.players[a.player].resources.values()) - sum(before.players[a.player].resources.values())
            land = [h for h in g.node_hexes[g.node_index[a.params["node"]]] if s.hexes[h].terrain not in
                    ("desert", "sea", "frame")]
            assert got == len(land)                          # CK-SETUP-2: one card per hex, no commodity
            assert sum(store.commodities(s, a.player).values()) == 0
    for p in range(3):
        kinds = sorted(k for o, k in s.buildings.values() if o == p)
        assert kinds == ["city", "settlement"]
        assert victory_points(s, scen, p)["total"] == 3
        assert s.players[p].supply["cities"] == 3 and s.players[p].supply["settlements"] == 4


# -- the roll: event die, production, commodities (CK-CHG-1/5, CK-DICE-*, CK-COM-*, CK-COMP-1) -----------

def roll(client, st, dice, event, **kw):
    return post(client, st, act("roll", dice=dice, event=event, **kw))


def test_production_with_commodities(client):
    """CK-CHG-1, CK-CHG-5, CK-COM-1: a city on forest takes 1 lumber + 1 paper; a settlement takes no
    commodity; CK-DICE-2: three dice."""
    st = position(phase="roll", settlements=((2, SW),), roads=((2, E_SW_NW), (1, E_SE_S)),
                  cities=((0, N), (1, SE)))
    v = roll(client, st, [3, 3], "trade")
    assert v["legal"]
    c = ckof(v)
    p = v["state"]["players"]
    assert p[0]["resources"]["lumber"] == 1 and c["commodities"]["0"]["paper"] == 1
    assert p[1]["resources"]["lumber"] == 1 and c["commodities"]["1"]["paper"] == 1
    assert p[2]["resources"]["lumber"] == 1 and c["commodities"]["2"]["paper"] == 0
    assert c["commodity_bank"]["paper"] == 10
    ev = next(e for e in v["events"] if e["type"] == "rolled")
    assert ev["event"] == "trade" and ev["dice"] == [3, 3]


def test_city_on_fields_takes_two(client):
    """CK-COM table: fields and hills give a city 2 resources and no commodity."""
    st = position(phase="roll")
    v = roll(client, st, [4, 4], "trade")                   # fields 8 at (1,-1): N is a corner
    assert v["state"]["players"][0]["resources"]["grain"] == 2
    assert ckof(v)["commodities"]["0"] == {"paper": 0, "cloth": 0, "coin": 0}


def test_robber_blocks_commodities(client):
    """CK-COM-2: the robber's hex gives neither resource nor commodity."""
    st = position(phase="roll", robber=(0, 0))
    v = roll(client, st, [3, 3], "trade")
    assert v["state"]["players"][0]["resources"]["lumber"] == 0 and ckof(v)["commodities"]["0"]["paper"] == 0


def test_commodity_shortage(client):
    """CK-COMP-1, BASE-PROD-4: the shortage rule applies to each commodity: two owed, one left: nobody."""
    c = with_commodities(ck(), 2, paper=11)
    st = position(phase="roll", ck_state=c)
    v = roll(client, st, [3, 3], "trade")
    cc = ckof(v)
    assert cc["commodities"]["0"]["paper"] == 0 and cc["commodities"]["1"]["paper"] == 0
    assert any(e["type"] == "shortage" and e["resource"] == "paper" for e in v["events"])


def test_event_die_seeded_and_ship_advances(client):
    """CK-DICE-3, CK-DICE-4, CK-BARB-1: a ship face advances the barbarians one space; left out, the
    event die is drawn by the seeded generator."""
    st = position(phase="roll")
    v = roll(client, st, [1, 2], "ship")
    assert ckof(v)["barbarian"] == 1
    v2 = post(client, st, act("roll"))
    assert v2["legal"] and next(e for e in v2["events"] if e["type"] == "rolled")["event"] in (
        "ship", "politics", "science", "trade")
    assert v2["state"]["rng"]["counter"] == st.get("rng", {}).get("counter", 0) + 3


def test_gate_draws_by_red_die(client):
    """CK-PROG-2: a gate gives a card of its colour to each player whose level covers the red die
    (level L: red 1..L+1); CK-DICE-6: on a 7 too."""
    c = ck()
    c["improvements"]["0"]["science"] = 1                   # red 1-2
    c["improvements"]["1"]["science"] = 3                   # red 1-4
    st = position(phase="roll", ck_state=c)
    v = roll(client, st, [3, 1], "science")
    hands = ckof(v)["hands"]
    drawn = lambda h: sum(h.values())  # noqa: E731
    vp = ckof(v)["vp_cards"]
    assert drawn(hands["0"]) + drawn(vp["0"]) == 0 and drawn(hands["1"]) + drawn(vp["1"]) == 1
    v7 = roll(client, st, [2, 5], "science")               # a 7: the gate still draws
    assert drawn(ckof(v7)["hands"]["0"]) + drawn(ckof(v7)["vp_cards"]["0"]) == 1


def test_progress_limit_outside_turn(client):
    """CK-PROG-5: a 5th card outside one's turn is put back at once (the roll names which); CK-PROG-6:
    under its deck."""
    c = with_cards(ck(), 1, "spy", "spy", "warlord", "wedding")
    c["improvements"]["1"]["politics"] = 5
    c["decks"]["politics"] = {k: (v if k == "bishop" else 0) for k, v in c["decks"]["politics"].items()}
    c["decks"]["politics"]["bishop"] = 2
    # cards not in the deck must be somewhere: give the rest to player 2
    rest = {k: v for k, v in store.initial(3)["decks"]["politics"].items()}
    for k, n in rest.items():
        held = c["hands"]["1"].get(k, 0) + (2 if k == "bishop" else 0)
        if n - held > 0:
            target = c["vp_cards"]["2"] if k == "constitution" else c["hands"]["2"]
            target[k] = n - held
    st = position(phase="roll", ck_state=c)
    v = roll(client, st, [1, 1], "politics")
    assert not v["legal"] and rules(v) == ["CK-PROG-5"] and v["violations"][0]["path"] == "/action/progress_discards/1"
    v = roll(client, st, [1, 1], "politics", progress_discards={"1": "spy"})
    assert v["legal"]
    cc = ckof(v)
    assert cc["hands"]["1"] == {"spy": 1, "warlord": 1, "wedding": 1, "bishop": 1}
    assert cc["decks"]["politics"]["spy"] == 1 and cc["decks"]["politics"]["bishop"] == 1


def test_progress_limit_end_of_turn(client):
    """CK-PROG-5: in their own turn a player may hold more than 4; the surplus goes back at the turn's end."""
    c = with_cards(ck(), 0, "spy", "spy", "warlord", "wedding", "bishop")
    st = position(ck_state=c)
    v = post(client, st, act("end_turn"))
    assert not v["legal"] and rules(v) == ["CK-PROG-5"]
    v = post(client, st, act("end_turn", put_back=["spy"]))
    assert v["legal"] and ckof(v)["hands"]["0"]["spy"] == 1 and ckof(v)["decks"]["politics"]["spy"] == 2
    v = post(client, st, act("end_turn", put_back=["crane"]))             # a card not held goes nowhere
    assert not v["legal"] and rules(v) == ["CK-PROG-5"] and "holds no crane" in v["violations"][0]["message"]


# -- the 7 (CK-SEVEN-*, CK-WALL-2, CK-COM-3) -------------------------------------------------------------

def test_seven_before_first_attack(client):
    """CK-SEVEN-3: before the first attack a 7 causes only discards; CK-SEVEN-2, CK-COM-3: commodities
    count for the limit; CK-WALL-2: each wall raises it by 2."""
    c = with_commodities(ck(), 0, cloth=4)
    st = position(phase="roll", hands={0: hand(ore=4), 1: hand(ore=4, grain=5)}, ck_state=c)
    v = roll(client, st, [3, 4], "trade")
    assert v["state"]["phase"] == "discard" and v["state"]["pending_discards"] == {"0": 4, "1": 4}
    c2 = copy.deepcopy(c)
    c2["walls"] = [list(N)]
    st2 = position(phase="roll", hands={0: hand(ore=4), 1: hand(ore=4, grain=5)}, ck_state=c2)
    v2 = roll(client, st2, [3, 4], "trade")
    assert v2["state"]["pending_discards"] == {"1": 4}
    after = post(client, v2["state"], act("discard_cards", 1, resources={"grain": 4}))
    assert after["legal"] and after["state"]["phase"] == "main"          # CK-SEVEN-3: robber sleeps
    st3 = copy.deepcopy(v2["state"])
    r = post(client, st3, act("discard_cards", 1, resources={"grain": 2}, commodities={"cloth": 2}))
    assert not r["legal"] and rules(r) == ["CK-SEVEN-2"]


def test_robber_moves_after_first_attack(client):
    """CK-SEVEN-4: from the first attack on, a 7 moves the robber and the steal may take a commodity;
    CK-SEVEN-6: before it the robber cannot move."""
    c = with_commodities(ck(attacks=1), 1, coin=1)
    st = position(phase="roll", ck_state=c)
    v = roll(client, st, [3, 4], "trade")
    assert v["state"]["phase"] == "robber"
    mv = post(client, v["state"], act("move_robber", hex=[0, 0], steal_from=1, card="coin"))
    assert mv["legal"] and ckof(mv)["commodities"]["0"]["coin"] == 1
    asleep = position(phase="robber", ck_state=ck())
    r = post(client, asleep, act("move_robber", hex=[0, 0], steal_from=1))
    assert not r["legal"] and rules(r) == ["CK-SEVEN-3"]


def test_first_attack_on_a_seven(client):
    """CK-SEVEN-7, CK-DICE-4: the attack on the same roll as a 7 comes first, so the robber moves."""
    c = ck(barbarian=6)
    c["knights"] = [knight(0, NE, 3, True)]
    st = position(phase="roll", ck_state=c)
    v = roll(client, st, [3, 4], "ship")
    assert v["legal"] and ckof(v)["attacks"] == 1 and v["state"]["phase"] == "robber"


# -- barbarians (CK-BARB-*, CK-IMP-10, CK-WALL-3) --------------------------------------------------------

def attack_position(knights, cities=((0, N), (1, S)), walls=(), metro=None, settlements=(), **kw):
    c = ck(barbarian=6)
    c["knights"] = knights
    c["walls"] = [list(w) for w in walls]
    if metro:
        for t, h in metro.items():
            c["metropolises"][t] = h
    return position(phase="roll", ck_state=c, cities=cities, settlements=settlements, **kw)


def test_barbarians_win_weakest_loses(client):
    """CK-BARB-2: strength = cities; CK-BARB-3: defence = active knights; CK-BARB-4: the weakest with a
    plain city loses one; CK-BARB-5, CK-WALL-3: it becomes a settlement and loses its wall; CK-BARB-8:
    knights go inactive and the ship goes home."""
    st = attack_position([knight(0, NE, 1, True)], walls=[S])
    v = roll(client, st, [1, 1], "ship")
    assert v["legal"]
    ev = next(e for e in v["events"] if e["type"] == "barbarian_attack")
    assert ev["barbarians"] == 2 and ev["defence"] == 1 and not ev["catan_wins"]
    b = {tuple(x["node"]): x["player"] for x in v["state"]["pieces"]["settlements"]}
    assert b.get(S) == 1
    c = ckof(v)
    assert c["walls"] == [] and c["barbarian"] == 0 and c["attacks"] == 1
    assert all(not k["active"] for k in c["knights"])


def test_barbarians_tie_for_lowest_both_lose(client):
    """CK-BARB-4: several tied for the lowest strength each lose a city."""
    st = attack_position([], cities=((0, N), (1, SE), (2, SW)), roads=((0, E_N_NE), (1, E_SE_S), (2, E_SW_NW)))
    v = roll(client, st, [1, 1], "ship")
    assert v["legal"]
    lost = sorted(e["player"] for e in v["events"] if e["type"] == "city_pillaged")
    assert lost == [0, 1, 2]


def test_defence_ties_favour_catan(client):
    """CK-BARB-6: defence equal to the barbarians wins; the single strongest takes a Defender of Catan
    VP; CK-BARB-7: counted even when the cards run out (a counter)."""
    c_k = [knight(0, NE, 2, True)]
    st = attack_position(c_k)
    st["scenario_state"]["cities_and_knights"]["defenders"]["0"] = 6
    v = roll(client, st, [1, 1], "ship")
    assert ckof(v)["defenders"]["0"] == 7
    assert v["derived"]["victory_points"]["0"]["defenders"] == 7


def test_tied_defenders_draw_progress_cards(client):
    """CK-BARB-6: several tied strongest take no Defender card; each draws a progress card from the deck
    of their choice (named in the roll)."""
    st = attack_position([knight(0, NE, 1, True), knight(1, SW, 1, True)])
    v = roll(client, st, [1, 1], "ship")
    assert not v["legal"] and rules(v) == ["CK-BARB-6"]
    v = roll(client, st, [1, 1], "ship", defender_decks={"0": "trade", "1": "science"})
    assert v["legal"]
    c = ckof(v)
    assert c["defenders"] == {"0": 0, "1": 0, "2": 0}
    got = {p: sum(c["hands"][p].values()) + sum(c["vp_cards"][p].values()) for p in ("0", "1")}
    assert got == {"0": 1, "1": 1}


def test_zero_strength_awards_nothing(client):
    """CK-BARB-9: no cities: strength 0 is always beaten; CK-BARB-12: with every knight strength 0
    nothing is awarded."""
    st = attack_position([], cities=(), settlements=((0, N), (1, S)))
    v = roll(client, st, [1, 1], "ship")
    c = ckof(v)
    assert v["legal"] and c["defenders"] == {"0": 0, "1": 0, "2": 0} and not any(c["hands"][p] for p in "012")


def test_owner_chooses_city_and_metropolis_immune(client):
    """CK-BARB-4: the owner chooses which city is lost; CK-BARB-10, CK-IMP-10: a metropolis is immune
    (a player with only metropolises is left out of the comparison) but counts for strength."""
    metro = {"trade": {"player": 1, "node": list(SW), "level": 4}}
    st = attack_position([knight(1, NW, 1, True)], cities=((0, N), (0, SE), (1, SW)), metro=metro,
                         roads=((0, E_N_NE), (0, E_NE_SE), (1, E_S_SW), (1, E_SW_NW)))
    st["scenario_state"]["cities_and_knights"]["improvements"]["1"]["trade"] = 4
    v = roll(client, st, [1, 1], "ship")
    assert not v["legal"] and rules(v) == ["CK-BARB-4"] and v["violations"][0]["path"] == "/action/pillage/0"
    v = roll(client, st, [1, 1], "ship", pillage={"0": list(SE)})
    assert v["legal"]
    assert [e["node"] for e in v["events"] if e["type"] == "city_pillaged"] == [list(SE)]
    assert next(e for e in v["events"] if e["type"] == "barbarian_attack")["barbarians"] == 3


def test_pillaged_city_produces_as_settlement(client):
    """CK-BARB-11: the attack comes before production, so the pillaged city produces as a settlement."""
    st = attack_position([knight(0, NE, 1, True)])
    v = roll(client, st, [2, 2], "ship")                    # hills 4 at (-1,1): S is a corner
    assert v["state"]["players"][1]["resources"]["brick"] == 1


def test_derived_barbarian_values(client):
    """CK-BARB-2/3/4/6: the derived values: strengths, who would lose a city or defend now."""
    st = attack_position([knight(0, NE, 1, True)])
    st["phase"] = "main"
    st.setdefault("turn_flags", {})["rolled"] = True
    v = post(client, st, None)
    b = v["derived"]["cities_and_knights"]["barbarians"]
    assert b["strength"] == 2 and b["defence"] == 1 and b["would_lose_city"] == [1] and b["to_attack"] == 1


# -- knights (CK-KNIGHT-*, CK-COST-1, CK-SEA-5/6) --------------------------------------------------------

def test_build_knight(client):
    """CK-KNIGHT-1: 1 wool + 1 ore, a basic inactive knight on an empty intersection touched by own roads;
    CK-COST-1: paid to the bank by the active player."""
    st = position(hands={0: hand(wool=1, ore=1)})
    v = post(client, st, act("build_knight", node=list(NE)))
    assert v["legal"] and ckof(v)["knights"] == [knight(0, NE)]
    assert v["state"]["players"][0]["resources"]["wool"] == 0
    bad = post(client, st, act("build_knight", node=list(NW)))
    assert not bad["legal"] and rules(bad) == ["CK-KNIGHT-1"]
    other = post(client, st, act("build_knight", 1, node=list(NW)))
    assert not other["legal"] and rules(other) == ["CK-COST-1"]


def test_knight_supply(client):
    """CK-COMP-2: two knights of each level per player."""
    c = ck(knights=[knight(0, NE), knight(0, SE)])
    st = position(hands={0: hand(wool=1, ore=1)}, ck_state=c, roads=((0, E_N_NE), (0, E_NE_SE), (0, E_SE_S)))
    v = post(client, st, act("build_knight", node=[0, 1, "N"]))
    assert not v["legal"] and rules(v) == ["CK-COMP-2"]


def test_activate_and_act_same_turn(client):
    """CK-KNIGHT-3: 1 grain activates; a knight activated this turn may not act."""
    c = ck(knights=[knight(0, NE)])
    st = position(hands={0: hand(grain=1)}, ck_state=c)
    v = post(client, st, act("activate_knight", node=list(NE)))
    assert v["legal"] and ckof(v)["knights"][0]["active"]
    mv = post(client, v["state"], act("move_knight", **{"from": list(NE), "to": list(SE)}))
    assert not mv["legal"] and rules(mv) == ["CK-KNIGHT-3"]


def test_promote_needs_fortress(client):
    """CK-KNIGHT-4, CK-IMP-4: strong to mighty needs the Fortress; once per turn; CK-KNIGHT-8: status kept."""
    c = ck(knights=[knight(0, NE, 2, True)])
    st = position(hands={0: hand(wool=2, ore=2)}, ck_state=c)
    v = post(client, st, act("promote_knight", node=list(NE)))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-4"]
    c["improvements"]["0"]["politics"] = 3
    st = position(hands={0: hand(wool=2, ore=2)}, ck_state=c)
    v = post(client, st, act("promote_knight", node=list(NE)))
    assert v["legal"] and ckof(v)["knights"][0]["level"] == 3 and ckof(v)["knights"][0]["active"]
    c2 = ck(knights=[knight(0, NE, 1, False)])
    v1 = post(client, position(hands={0: hand(wool=2, ore=2)}, ck_state=c2), act("promote_knight", node=list(NE)))
    again = post(client, v1["state"], act("promote_knight", node=list(NE)))
    assert not again["legal"] and rules(again) == ["CK-KNIGHT-4"]


def test_move_knight_along_roads(client):
    """CK-KNIGHT-6: along own roads to an empty intersection, the knight then inactive; CK-KNIGHT-5: an
    inactive knight or a second action is refused."""
    c = ck(knights=[knight(0, NE, 1, True)])
    st = position(ck_state=c, roads=((0, E_N_NE), (0, E_NE_SE), (0, E_SE_S)), cities=((0, N),),
                  settlements=((1, SW),), )
    st["pieces"]["roads"].append({"player": 1, "edge": list(E_SW_NW)})
    v = post(client, st, act("move_knight", **{"from": list(NE), "to": list(SE)}))
    assert v["legal"] and ckof(v)["knights"][0]["node"] == list(SE) and not ckof(v)["knights"][0]["active"]
    again = post(client, v["state"], act("move_knight", **{"from": list(SE), "to": list(S)}))
    assert not again["legal"] and rules(again) == ["CK-KNIGHT-5"]
    far = post(client, st, act("move_knight", **{"from": list(NE), "to": list(NW)}))
    assert not far["legal"] and rules(far) == ["CK-KNIGHT-6"]


def test_displace_weaker_only(client):
    """CK-KNIGHT-7: a knight displaces only a strictly weaker opponent's knight, which its owner moves
    along their roads (the retreat named in the action) or loses when there is none."""
    roads = ((0, E_N_NE), (0, E_NE_SE), (1, E_SE_S), (1, E_S_SW))
    c = ck(knights=[knight(0, NE, 2, True), knight(1, SE, 1, True)])
    st = position(ck_state=c, roads=roads, cities=((0, N),), settlements=())
    v = post(client, st, act("displace_knight", **{"from": list(NE), "to": list(SE)}))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-7"] and v["violations"][0]["path"] == "/action/retreat"
    v = post(client, st, act("displace_knight", **{"from": list(NE), "to": list(SE), "retreat": list(S)}))
    assert v["legal"]
    ks = {tuple(k["node"]): (k["player"], k["level"], k["active"]) for k in ckof(v)["knights"]}
    assert ks == {SE: (0, 2, False), S: (1, 1, True)}
    equal = copy.deepcopy(st)
    equal["scenario_state"]["cities_and_knights"]["knights"][1]["level"] = 2
    e = post(client, equal, act("displace_knight", **{"from": list(NE), "to": list(SE), "retreat": list(S)}))
    assert not e["legal"] and rules(e) == ["CK-KNIGHT-7"]


def test_displaced_without_retreat_is_removed(client):
    """CK-KNIGHT-7, CK-KNIGHT-10: with no empty intersection to go to, the displaced knight is removed."""
    roads = ((0, E_N_NE), (0, E_NE_SE))
    c = ck(knights=[knight(0, NE, 2, True), knight(1, SE, 1, True)])
    st = position(ck_state=c, roads=roads, cities=((0, N), (1, S)))
    st["pieces"]["roads"].append({"player": 1, "edge": list(E_SE_S)})
    v = post(client, st, act("displace_knight", **{"from": list(NE), "to": list(SE)}))
    assert v["legal"] and [k["player"] for k in ckof(v)["knights"]] == [0]


def test_a_retreat_named_for_a_knight_with_nowhere_to_go_is_refused_CK_KNIGHT_7(client):
    """CK-KNIGHT-7: a displaced knight with no empty intersection along its owner's roads is removed, so an
    action naming a retreat for it is refused with that reason (leave retreat out), not asked for a retreat."""
    roads = ((0, E_N_NE), (0, E_NE_SE))
    c = ck(knights=[knight(0, NE, 2, True), knight(1, SE, 1, True)])
    st = position(ck_state=c, roads=roads, cities=((0, N), (1, S)))
    st["pieces"]["roads"].append({"player": 1, "edge": list(E_SE_S)})
    v = post(client, st, act("displace_knight", **{"from": list(NE), "to": list(SE), "retreat": list(S)}))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-7"] and v["violations"][0]["path"] == "/action/retreat"
    assert "no empty intersection" in v["violations"][0]["message"]
    assert "leave retreat out" in v["violations"][0]["message"]

def test_chase_robber(client):
    """CK-KNIGHT-9: an active knight on a corner of the robber's hex moves it and robs; CK-SEVEN-6: not
    before the first attack."""
    c = ck(knights=[knight(0, NE, 1, True)], attacks=1)
    st = position(ck_state=c, robber=(0, 0), hands={1: hand(ore=1)})
    v = post(client, st, act("chase_robber", node=list(NE), hex=[-1, 1], steal_from=1, card="ore"))
    assert v["legal"] and v["state"]["robber"] == [-1, 1] and v["state"]["players"][0]["resources"]["ore"] == 1
    asleep = copy.deepcopy(st)
    asleep["scenario_state"]["cities_and_knights"]["attacks"] = 0
    r = post(client, asleep, act("chase_robber", node=list(NE), hex=[-1, 1], steal_from=1))
    assert not r["legal"] and rules(r) == ["CK-SEVEN-6"]


def test_knight_blocks_settlement_and_roads(client):
    """CK-KNIGHT-2: a knight's intersection takes no settlement and an opponent's road may not pass it;
    CK-KNIGHT-11: not even its owner's settlement."""
    far = (1, 0, "N")
    cards = {0: hand(lumber=2, brick=2, wool=1, grain=1)}
    c = ck(knights=[knight(0, far)])
    st = position(ck_state=c, hands=cards, roads=((0, E_N_NE), (0, (1, -1, "SE"))), cities=((0, N), (1, S)))
    own = post(client, st, act("build_settlement", node=list(far)))
    assert not own["legal"] and rules(own) == ["CK-KNIGHT-11"]
    c = ck(knights=[knight(1, NE)])
    st = position(ck_state=c, hands=cards, roads=((0, E_N_NE),), cities=((0, N), (1, S)))
    road = post(client, st, act("build_road", edge=[1, -1, "SE"]))
    assert not road["legal"] and rules(road) == ["CK-KNIGHT-2"]
    ok = post(client, st, act("build_road", edge=list(E_NW_N)))
    assert ok["legal"]


# -- walls, improvements, metropolises (CK-WALL-1, CK-IMP-*) ---------------------------------------------

def test_city_wall(client):
    """CK-WALL-1: 2 brick under an own city without a wall, 3 per player: a fourth wall is refused."""
    st = position(hands={0: hand(brick=2)})
    v = post(client, st, act("build_wall", node=list(N)))
    assert v["legal"] and ckof(v)["walls"] == [list(N)]
    twice = post(client, v["state"], act("build_wall", node=list(N)))
    assert not twice["legal"] and rules(twice) == ["CK-WALL-1"]
    not_city = post(client, st, act("build_wall", node=list(S)))
    assert not not_city["legal"] and rules(not_city) == ["CK-WALL-1"]
    four = position(hands={0: hand(brick=2)}, cities=((0, N), (0, SE), (0, SW), (0, (1, -1, "N")), (1, (-1, 0, "N"))),
                    ck_state=ck(walls=[list(N), list(SE), list(SW)]))
    v = post(client, four, act("build_wall", node=[1, -1, "N"]))
    assert not v["legal"] and rules(v) == ["CK-WALL-1"] and "at most 3" in v["violations"][0]["message"]


def test_improvement_levels(client):
    """CK-IMP-1: level by level, n commodities of the track; CK-COM-6: commodities pay only for these."""
    c = with_commodities(ck(), 0, coin=3)
    st = position(ck_state=c)
    v = post(client, st, act("improve_city", track="politics"))
    assert v["legal"] and ckof(v)["improvements"]["0"]["politics"] == 1
    v2 = post(client, v["state"], act("improve_city", track="politics"))
    assert v2["legal"] and ckof(v2)["commodities"]["0"]["coin"] == 0
    v3 = post(client, v2["state"], act("improve_city", track="politics"))
    assert not v3["legal"] and rules(v3) == ["CK-IMP-1"]


def test_improvement_needs_a_city(client):
    """CK-IMP-2, CK-IMP-6: no city, no improvement (levels already bought are kept)."""
    c = with_commodities(ck(), 2, cloth=2)
    c["improvements"]["2"]["trade"] = 1
    st = position(ck_state=c, current=2, settlements=((2, (-1, 0, "N")),), roads=((2, (-1, 0, "NE")),))
    v = post(client, st, act("improve_city", 2, track="trade"))
    assert not v["legal"] and rules(v) == ["CK-IMP-2"]


def test_metropolis_taken_and_taken_over(client):
    """CK-IMP-7: the first to level 4 takes the metropolis (+2 VP, on a city of their choice); CK-IMP-9:
    the first other player to level 5 takes it over from a level-4 holder."""
    c = with_commodities(ck(), 0, cloth=4)
    c["improvements"]["0"]["trade"] = 3
    st = position(ck_state=c, cities=((0, N), (0, SE), (1, SW)), roads=((0, E_N_NE), (0, E_NE_SE), (1, E_S_SW)))
    v = post(client, st, act("improve_city", track="trade"))
    assert not v["legal"] and rules(v) == ["CK-IMP-7"]
    v = post(client, st, act("improve_city", track="trade", metropolis=list(SE)))
    assert v["legal"] and ckof(v)["metropolises"]["trade"] == {"player": 0, "node": list(SE), "level": 4}
    assert v["derived"]["victory_points"]["0"]["metropolises"] == 2
    c2 = with_commodities(ckof(v), 1, cloth=5)
    c2["improvements"]["1"]["trade"] = 4
    st2 = position(ck_state=c2, current=1, cities=((0, N), (0, SE), (1, SW)),
                   roads=((0, E_N_NE), (0, E_NE_SE), (1, E_S_SW)))
    v2 = post(client, st2, act("improve_city", 1, track="trade"))
    assert v2["legal"] and ckof(v2)["metropolises"]["trade"]["player"] == 1
    assert any(e["type"] == "metropolis" and e["from"] == 0 for e in v2["events"])


def test_level_four_needs_a_free_city(client):
    """CK-IMP-8: level 4 needs a city without a metropolis; CK-IMP-12: the holder's own level 5 does not."""
    c = with_commodities(ck(), 0, coin=5, cloth=4)
    c["improvements"]["0"] = {"trade": 3, "politics": 4, "science": 0}
    c["metropolises"]["politics"] = {"player": 0, "node": list(N), "level": 4}
    st = position(ck_state=c)
    v = post(client, st, act("improve_city", track="trade"))
    assert not v["legal"] and rules(v) == ["CK-IMP-8"]
    v = post(client, st, act("improve_city", track="politics"))
    assert v["legal"] and ckof(v)["metropolises"]["politics"]["level"] == 5


def test_aqueduct(client):
    """CK-IMP-5: an Aqueduct owner given nothing by a roll takes 1 resource of choice; a commodity counts
    as something."""
    c = ck()
    c["improvements"]["1"]["science"] = 3
    st = position(phase="roll", ck_state=c)
    v = roll(client, st, [4, 4], "trade")                  # 8: fields at (1,-1) touch N (player 0) only
    assert v["state"]["phase"] == "gold_choice" and v["state"]["pending_gold"] == {"1": 1}
    pick = post(client, v["state"], act("choose_gold", 1, resources={"ore": 1}))
    assert pick["legal"] and pick["state"]["players"][1]["resources"]["ore"] == 1
    v2 = roll(client, st, [3, 3], "trade")                 # 6: forest: player 1's city takes lumber + paper
    assert v2["state"]["phase"] == "main"


# -- trade (CK-COM-4/5, CK-IMP-3) ------------------------------------------------------------------------

def test_commodity_trades(client):
    """CK-COM-5: 4 commodities for any card, 4 resources for a commodity; CK-IMP-3: Merchant Guild 2:1;
    CK-COM-4: commodities trade between players."""
    c = with_commodities(ck(), 0, coin=4)
    st = position(ck_state=c, hands={0: hand(ore=4), 1: hand(grain=1)})
    v = post(client, st, act("maritime_trade", give={"coin": 4}, get={"grain": 1}))
    assert v["legal"]
    v = post(client, st, act("maritime_trade", give={"ore": 4}, get={"paper": 1}))
    assert v["legal"] and ckof(v)["commodities"]["0"]["paper"] == 1
    v = post(client, st, act("maritime_trade", give={"coin": 2}, get={"grain": 1}))
    assert not v["legal"] and rules(v) == ["CK-COM-5"]
    c["improvements"]["0"]["trade"] = 3
    st = position(ck_state=c, hands={0: hand(ore=4), 1: hand(grain=1)})
    v = post(client, st, act("maritime_trade", give={"coin": 2}, get={"grain": 1}))
    assert v["legal"]
    d = post(client, st, act("domestic_trade", partner=1, give={"coin": 1}, get={"grain": 1}, accepted=True))
    assert d["legal"] and ckof(d)["commodities"]["1"]["coin"] == 1


def test_gold_costs(client):
    """GOLD-012: a knight costs a gold too; GOLD-013: activation 1 grain or 1 gold; GOLD-014: a wall 1
    gold more; GOLD-015: improvements no gold; GOLD-017: 4 gold buy a commodity."""
    s = start_game("GOLD", 4, 7, OPT)
    scen = scenario_of(s)
    g = MapGraph.build(s.terrain_map())
    assert scen.ck_cost(s, Action("build_knight", 0, {}), "knight") == {"wool": 1, "ore": 1, "gold": 1}
    assert scen.ck_cost(s, Action("activate_knight", 0, {"pay": "gold"}), "activate") == {"gold": 1}
    assert scen.ck_cost(s, Action("activate_knight", 0, {}), "activate") == {"grain": 1}
    assert scen.ck_cost(s, Action("build_wall", 0, {}), "wall") == {"brick": 2, "gold": 1}
    from service.engine.modules.cities_and_knights.actions import improvement_cost
    assert improvement_cost(s, "trade", 2) == {"cloth": 2}
    s.phase = "main"
    s.flags.rolled = True
    s.turn = 1
    v = engine_adjudicate(s, Action("gold_trade", 0, {"give": {"gold": 4}, "get": {"coin": 1}}), g, scen)
    assert v.legal and store.commodities(v.state, 0)["coin"] == 1 and v.state.players[0].extra["gold"] == 6
    bad = engine_adjudicate(s, Action("gold_trade", 0, {"give": {"gold": 2}, "get": {"coin": 1}}), g, scen)
    assert not bad.legal and bad.violations[0].rule == "GOLD-017"


def test_gold_accepts_the_option(client):
    """GOLD-002: GOLD plays with C&K (formerly refused)."""
    r = client.post("/v1/games", json={"scenario": "GOLD", "players": 4, "seed": 2, "options": OPT})
    assert r.status_code in (200, 201), r.get_json()


# -- victory (CK-VP-1, CK-VP-2) --------------------------------------------------------------------------

def test_thirteen_points_win(client):
    """CK-VP-1: 13 VP in one's own turn wins; CK-VP-2: no Largest Army; metropolis 4 VP per city."""
    c = ck()
    c["defenders"]["0"] = 5
    c["metropolises"]["trade"] = {"player": 0, "node": list(N), "level": 4}
    c["improvements"]["0"]["trade"] = 4
    c = with_commodities(c, 0, paper=1)
    st = position(ck_state=c, cities=((0, N), (0, SE), (1, SW)), hands={0: hand(grain=1)},
                  roads=((0, E_N_NE), (0, E_NE_SE), (1, E_S_SW)))
    st["vp_target"] = 13
    v = post(client, st, act("improve_city", track="science"))
    assert v["derived"]["victory_points"]["0"]["total"] == 4 + 2 + 5
    c["defenders"]["0"] = 7
    st["scenario_state"]["cities_and_knights"] = c
    v = post(client, st, act("improve_city", track="science"))
    assert v["state"]["phase"] == "game_over" and v["state"]["winner"] == 0
    assert v["derived"]["largest_army"]["holder"] is None


# -- Seafarers combination (CK-SEA-*) --------------------------------------------------------------------

def sea_position(**kw):
    extra = {(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}
    from .ck_util import board
    return position(brd=board(extra), scenario="seafarers", **kw)


def test_knight_on_ship_network(client):
    """CK-SEA-5: a ship alone anchors a knight."""
    st = sea_position(hands={0: hand(wool=1, ore=1)}, roads=(), ships=[(0, [1, 0, "E"])])
    st["pieces"]["ships"] = [{"player": 0, "edge": [1, 0, "NE"]}]
    from service.engine.geometry import edge_nodes
    a, b = edge_nodes((1, 0, "NE"))
    st["pieces"]["cities"] = [{"player": 0, "node": list(a)}, {"player": 1, "node": list(S)}]
    v = post(client, st, act("build_knight", node=list(b)))
    assert v["legal"], v["violations"]


def test_pirate_sleeps(client):
    """CK-SEA-8: the pirate may not move before the first attack."""
    st = sea_position(phase="robber", pirate=[2, 0])
    v = post(client, st, act("move_pirate", hex=[1, 1]))
    assert not v["legal"] and rules(v) == ["CK-SEA-8"]


def test_gold_field_city_takes_two_picks_no_commodity(client):
    """CK-SEA-3: a city on a gold field picks 2 resources and no commodity."""
    from .ck_util import board
    brd = board({(0, 0): ("gold", 6)})
    st = position(brd=brd, scenario="seafarers", phase="roll")
    v = roll(client, st, [3, 3], "trade")
    assert v["state"]["pending_gold"] == {"0": 2, "1": 2}
    assert ckof(v)["commodities"]["0"]["paper"] == 0


def test_barbarians_count_every_island(client):
    """CK-SEA-10: all cities on all islands count; all active knights count."""
    st = sea_position(phase="roll", ck_state=ck(barbarian=6, knights=[knight(0, NE, 2, True)]))
    v = roll(client, st, [1, 1], "ship")
    ev = next(e for e in v["events"] if e["type"] == "barbarian_attack")
    assert ev["barbarians"] == 2 and ev["catan_wins"]


# -- legal actions and random games -----------------------------------------------------------------------

@pytest.mark.parametrize("sid,n,seed", [("base", 3, 1), ("base", 4, 2), ("SC01", 3, 3), ("SC05", 4, 1),
                                        ("GOLD", 3, 4)])
def test_random_games_listed_actions_legal(sid, n, seed):
    """Every listed action of seeded random C&K play is judged legal, the invariants hold, and the game
    is won (CK-VP-1, CK-SEA-1)."""
    from service.engine.selfplay import play_game
    g = play_game(sid, n, seed, max_actions=4000, options=OPT)
    assert g.failures == [] and g.ended == "won", (g.failures[:3], g.ended)


def test_listed_knight_actions_are_legal():
    """Legal actions of the new types (knights, walls, improvements, discards) pass adjudicate."""
    from service.engine.selfplay import play_game
    seen = set()
    g = play_game("base", 3, 7, max_actions=600, options=OPT)
    s = g.final
    scen = scenario_of(s)
    graph = MapGraph.build(s.terrain_map())
    for a in g.log:
        seen.add(a.type)
    assert {"build_knight", "activate_knight", "roll", "end_turn"} <= seen
    la = legal_actions(s, graph, scen)
    for acts in la.actions.values():
        for a in acts:
            assert not violations_of(s, a, graph, scen)


# -- further rules ----------------------------------------------------------------------------------------

def test_seven_gives_nothing_and_limits(client):
    """CK-SEVEN-1: a 7 produces nothing; CK-CHG-6: the robber stays put before the first attack and the
    limit is raised by walls; CK-SEVEN-5: progress cards never count for the limit."""
    c = with_cards(ck(walls=[list(N)]), 0, "spy", "spy", "warlord", "wedding")
    st = position(phase="roll", hands={0: hand(ore=9)}, ck_state=c)
    v = roll(client, st, [3, 4], "trade")
    assert v["state"]["phase"] == "main" and v["state"]["pending_discards"] == {}
    assert sum(v["state"]["players"][1]["resources"].values()) == 0
    assert v["state"]["robber"] == [-1, 0]


def test_components(client):
    """CK-COMP-3: three metropolises (one per track), one merchant, the barbarian ship at its start."""
    s = start_game("base", 4, 9, OPT)
    c = s.scenario_state["cities_and_knights"]
    assert c["metropolises"] == {"trade": None, "politics": None, "science": None} and c["merchant"] is None


def test_knight_actions_after_roll(client):
    """CK-DICE-5: knights are built and act in the trade/build phase after the roll."""
    st = position(hands={0: hand(wool=1, ore=1)})
    assert post(client, st, act("build_knight", node=list(NE)))["legal"]


def test_commodities_never_pay_base_costs(client):
    """CK-COM-6: commodities pay for improvements only, never for a city or a knight."""
    c = with_commodities(ck(), 0, coin=3, cloth=2)
    st = position(ck_state=c, settlements=((0, (1, 0, "N")),), roads=((0, E_N_NE), (0, (1, -1, "SE"))),
                  hands={0: hand(grain=2)})
    v = post(client, st, act("build_city", node=[1, 0, "N"]))
    assert not v["legal"] and rules(v) == ["BASE-COST-1"]
    k = post(client, st, act("build_knight", node=list(NE)))
    assert not k["legal"] and rules(k) == ["CK-COST-1"]


def test_wall_on_a_metropolis(client):
    """CK-IMP-11: a metropolis city may carry a city wall."""
    c = ck()
    c["metropolises"]["science"] = {"player": 0, "node": list(N), "level": 4}
    c["improvements"]["0"]["science"] = 4
    v = post(client, position(ck_state=c, hands={0: hand(brick=2)}), act("build_wall", node=list(N)))
    assert v["legal"]


def test_progress_colours_public(client):
    """CK-PROG-7: hand sizes per colour are public (derived)."""
    v = post(client, position(ck_state=with_cards(ck(), 1, "spy", "crane")), None)
    pc = v["derived"]["cities_and_knights"]["progress_cards"]
    assert pc["hand_sizes"]["1"] == 2 and pc["by_colour"]["1"] == {"trade": 0, "politics": 1, "science": 1}


def test_progress_placements_follow_base_rules(client):
    """CK-PROG-8: Road Building's roads obey the base placement rules."""
    st = position(ck_state=with_cards(ck(), 0, "road_building"))
    v = post(client, st, act("play_progress", card="road_building",
                             pieces=[{"kind": "road", "edge": [1, 0, "SE"]}, {"kind": "road", "edge": [1, 0, "E"]}]))
    assert not v["legal"] and rules(v)[0].startswith("BASE-BUILD")


def test_knights_break_roads(client):
    """CK-KNIGHT-12, CK-CHG-8: an opponent's knight, active or not, breaks a road for Longest Road."""
    roads = ((0, E_N_NE), (0, E_NE_SE), (0, E_SE_S), (0, E_S_SW), (0, E_SW_NW))
    st = position(roads=roads, cities=((0, N),), ck_state=ck())
    assert post(client, st, None)["derived"]["longest_road"]["0"]["length"] == 5
    st = position(roads=roads, cities=((0, N),), ck_state=ck(knights=[knight(1, S)]))
    assert post(client, st, None)["derived"]["longest_road"]["0"]["length"] == 3
    st = position(roads=roads, cities=((0, N),), ck_state=ck(knights=[knight(0, S)]))
    assert post(client, st, None)["derived"]["longest_road"]["0"]["length"] == 5


def test_knights_break_trade_routes(client):
    """CK-SEA-7: a knight interrupts an opponent's shipping route for Longest Trade Route."""
    brd_extra = {(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}
    from .ck_util import board
    ships = [[1, 0, "NE"], [1, 0, "E"], [1, 0, "SE"]]
    st = position(brd=board(brd_extra), scenario="seafarers", roads=(), cities=((0, (1, 0, "N")),), ck_state=ck())
    st["pieces"]["ships"] = [{"player": 0, "edge": e} for e in ships]
    whole = post(client, st, None)["derived"]["longest_road"]["0"]["length"]
    from service.engine.geometry import edge_nodes
    mid = edge_nodes((1, 0, "E"))[0]
    st["scenario_state"]["cities_and_knights"]["knights"] = [knight(1, mid)]
    cut = post(client, st, None)["derived"]["longest_road"]["0"]["length"]
    assert whole == 3 and cut < whole


def test_chase_pirate(client):
    """CK-SEA-9: an active knight on a corner of the pirate's sea hex moves the pirate."""
    from .ck_util import board
    from service.engine.geometry import hex_corners
    st = position(brd=board({(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}), scenario="seafarers",
                  cities=((0, N), (1, S)), pirate=[2, 0])
    corner = next(n for n in hex_corners((2, 0)) if n in [tuple(x) for x in ([1, 0, "N"], [1, 1, "N"], [2, -1, "S"])])
    st["scenario_state"]["cities_and_knights"]["knights"] = [knight(0, corner, 1, True)]
    st["scenario_state"]["cities_and_knights"]["attacks"] = 1
    v = post(client, st, act("chase_robber", node=list(corner), hex=[1, 1], target="pirate"))
    assert v["legal"] and v["state"]["pirate"] == [1, 1]
    # with a pirate what the knight chases is a choice: left out, refused naming it (the list always names it)
    v = post(client, st, act("chase_robber", node=list(corner), hex=[1, 1]))
    assert rules(v) == ["CK-SEA-9"] and v["violations"][0]["path"] == "/action/target"
    away = copy.deepcopy(st)
    away["pirate"] = [2, -1] if corner not in [tuple(x) for x in hex_corners((2, -1))] else [1, 1]
    v = post(client, away, act("chase_robber", node=list(corner), hex=[2, 0], target="pirate"))
    assert not v["legal"] and rules(v) == ["CK-SEA-9"]                # not at the pirate's hex


def test_bishop_moves_robber_only_and_ship_roads(client):
    """CK-SEA-11: Road Building places ships too; the Bishop moves the robber, never the pirate."""
    from .ck_util import board
    st = position(brd=board({(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}), scenario="seafarers",
                  cities=((0, (1, 0, "N")), (1, S)), roads=(),
                  ck_state=with_cards(ck(attacks=1), 0, "road_building", "bishop"))
    v = post(client, st, act("play_progress", card="road_building",
                             pieces=[{"kind": "ship", "edge": [1, 0, "NE"]}, {"kind": "ship", "edge": [1, 0, "E"]}]))
    assert v["legal"], v["violations"]
    b = post(client, st, act("play_progress", card="bishop", hex=[2, 0]))
    assert not b["legal"] and rules(b) == ["BASE-ROBBER-3"]


def test_city_on_its_side(client):
    """CK-BARB-5: with no settlement piece left the pillaged city lies on its side: a settlement (1 VP, 1
    card) until restored, which comes before any other upgrade."""
    setts = ((1, (-1, 0, "N")), (1, (1, 0, "N")), (1, (-2, 1, "N")), (1, (-2, 2, "N")), (1, (0, 1, "S")))
    st = attack_position([knight(0, NE, 1, True)], settlements=setts)
    for p in st["players"]:
        p.pop("supply", None)
    v = roll(client, st, [2, 2], "ship")                   # hills 4 at (-1,1): S is a corner
    assert v["legal"], v["violations"]
    c = ckof(v)
    assert c["sideways"] == [list(S)] and v["state"]["players"][1]["resources"]["brick"] == 2   # 1 + 1 (-2,2,N)
    assert v["derived"]["victory_points"]["1"]["sideways_cities"] == -1
    st2 = copy.deepcopy(v["state"])
    st2["current_player"] = 1
    st2["players"][1]["resources"].update({"grain": 4, "ore": 6})
    st2.pop("bank", None)
    up = post(client, st2, act("build_city", 1, node=[1, 0, "N"]))
    assert not up["legal"] and rules(up) == ["CK-BARB-5"]
    rest = post(client, st2, act("restore_city", 1, node=list(S)))
    assert rest["legal"] and ckof(rest)["sideways"] == []


def test_variant_meanies(client):
    """CK-VAR-MEANIES (off by default): players choose which active knights fight; only those go inactive.
    CK-BARB-3: without the variant every active knight fights, and naming the fighters is refused for it."""
    ks = [knight(0, NE, 2, True), knight(0, (1, 0, "N"), 1, True)]
    st = attack_position(ks, roads=((0, E_N_NE), (0, (1, -1, "SE")), (1, E_S_SW)))
    v = roll(client, st, [1, 1], "ship", fighting={"0": [list(NE)]})
    assert not v["legal"] and rules(v) == ["CK-BARB-3"]                 # off: every knight fights
    st["options"]["CK-VAR-MEANIES"] = True
    v = roll(client, st, [1, 1], "ship", fighting={"0": [list(NE)]})
    ev = next(e for e in v["events"] if e["type"] == "barbarian_attack")
    assert ev["defence"] == 2
    assert {tuple(k["node"]): k["active"] for k in ckof(v)["knights"]} == {NE: False, (1, 0, "N"): True}
    bad = roll(client, st, [1, 1], "ship", fighting={"0": [list(SE)]})
    assert not bad["legal"] and rules(bad) == ["CK-VAR-MEANIES"]


def test_scenario_rewards_still_count(client):
    """CK-SEA-14: a Seafarers scenario's special VP still count with C&K, towards the raised target."""
    from .ck_util import board
    st = position(brd=board({(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}), scenario="seafarers")
    st["players"][0]["svp"] = 2
    v = post(client, st, None)
    assert v["derived"]["victory_points"]["0"]["special"] == 2 and v["derived"]["victory_points"]["0"]["total"] == 4


def test_legal_actions_endpoint(client):
    """POST /v1/legal-actions lists the C&K action types of a position, each judged legal by adjudicate."""
    c = with_cards(with_commodities(ck(knights=[knight(0, NE, 1, True)], attacks=1), 0, cloth=1), 0, "merchant")
    st = position(ck_state=c, hands={0: hand(wool=1, ore=1, grain=1, brick=2)})
    r = client.post("/v1/legal-actions", json={"state": st})
    assert r.status_code == 200, r.get_json()
    acts = r.get_json()["actions"]
    assert {"build_knight", "promote_knight", "move_knight", "build_wall", "improve_city", "play_progress"} <= set(acts)
    for t, lst in acts.items():
        for a in lst[:5]:
            v = post(client, st, a)
            assert v["legal"], (t, a, v["violations"])


def test_replay_a_ck_game(client):
    """POST /v1/replay replays a seeded C&K game from new_game with the option, verdict by verdict."""
    from service.engine.legal import action_json
    from service.engine.selfplay import play_game
    g = play_game("base", 3, 21, max_actions=120, options=OPT)
    body = {"new_game": {"scenario": "base", "players": 3, "seed": 21, "options": OPT},
            "actions": [action_json(a) for a in g.log]}
    r = client.post("/v1/replay", json=body)
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    assert out["first_illegal"] is None and out["all_legal"] and out["applied"] == len(g.log)


def test_setup_city_on_gold(client):
    """CK-SEA-12: the set-up city on a gold field takes a resource of choice per gold hex (named in the
    action); other sites take no picks."""
    from .ck_util import board
    st = position(brd=board({(0, 0): ("gold", 6)}), scenario="seafarers", phase="setup", cities=(), roads=(),
                  settlements=((0, (1, 0, "N")), (1, (-1, 0, "N")), (2, (0, 1, "S"))))
    st["setup"] = {"round": 2, "step": "settlement", "last_settlement": None}
    st["current_player"] = 2
    st["turn_flags"] = {}
    v = post(client, st, act("build_settlement", 2, node=list(SW)))
    assert not v["legal"] and rules(v) == ["CK-SEA-12"]
    v = post(client, st, act("build_settlement", 2, node=list(SW), gold_picks={"ore": 1}))
    assert v["legal"] and v["state"]["players"][2]["resources"]["ore"] == 1
    far = post(client, st, act("build_settlement", 2, node=[1, 0, "S"], gold_picks={"ore": 1}))
    assert not far["legal"] and rules(far) == ["CK-SEA-12"] and "leave gold_picks out" in far["violations"][0]["message"]


@pytest.mark.parametrize("sid,players,seed", [("base", 4, 3), ("SC01", 3, 3), ("GOLD", 4, 3), ("base", 3, 8)])
def test_every_event_and_derived_value_is_declared(sid, players, seed):
    """What a C&K game emits and reports is what its stacked modules declare (EVENTS, DERIVED)."""
    from service.engine.selfplay import play_game
    from service.engine.spec import F as F_, Obj as Obj_, Str as Str_
    scen = with_expansions(SCENARIOS[sid], OPT)
    comp = scen.composition
    core = {"victory_points", "longest_road", "longest_road_holder", "largest_army", "winner", "phase",
            "current_player", "closed_ships", "pending_discards", "gold_entitlement", "gold_pending"}
    bad: list[str] = []

    def step(state, action, verdict):
        for e in verdict.events:
            spec = comp.events.get(e["type"])
            if spec is None:
                bad.append(f"{action.type}: event {e['type']!r} is not declared")
                continue
            shape = Obj_({"type": F_(Str_(max_len=60), required=True), **spec.fields})
            bad.extend(f"{action.type}: event {p}: {r}" for p, r in shape.problems(e, "/event"))
        extra = {k: v for k, v in verdict.derived.items() if k not in core}
        bad.extend(f"{action.type}: derived {p}: {r}" for p, r in comp.derived.problems(extra, "/derived"))

    play_game(sid, players, seed, max_actions=1500, check=False, on_step=step, options=OPT)
    assert not bad, "\n".join(sorted(set(bad))[:20])


def test_judging_a_roll_leaves_the_position_judged_as_it_was():
    """CK-PROG-S1: an Alchemist roll by a player holding no progress cards is refused, and judging it (or
    listing the legal actions) adds nothing to the position judged: no empty hand is made for the player
    (a kept position is judged again later, and must give the same bytes)."""
    from service.api import create_app
    from service.api.codec import dump_state
    from service.api.service import parse_state
    st = position(phase="roll", ck_state=ck(3, hands={}))
    state, graph = parse_state(copy.deepcopy(st), create_app({"TESTING": True}).extensions["graph_cache"])
    before = dump_state(state)
    scen = scenario_of(state)
    v = engine_adjudicate(state, Action("roll", 0, {"dice": [2, 5], "alchemist": True}), graph, scen)
    assert not v.legal and [x.rule for x in v.violations] == ["CK-PROG-S1"]
    legal_actions(state, graph, scen)
    assert dump_state(state) == before and store.ck(state)["hands"] == {}


def test_a_posted_knight_and_merchant_stand_on_the_board(client):
    """CK-KNIGHT-1: a knight stands on an intersection of a land hex; CK-PROG-T3: the merchant on a land hex.
    A posted state with either off the board (or the merchant on a frame hex) is refused, naming the piece."""
    st = client.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 3,
                                        "options": {"cities_and_knights": True}}).get_json()["state"]
    ck = st["scenario_state"]["cities_and_knights"]
    for node, ok in (([50, 50, "N"], False), ([0, 0, "N"], True)):
        posted = copy.deepcopy(st)
        posted["scenario_state"]["cities_and_knights"]["knights"] = [
            {"node": node, "player": 0, "level": 1, "active": False}]
        r = client.post("/v1/derive", json={"state": posted})
        assert (r.status_code == 200) is ok
        if not ok:
            assert any(e["pointer"].endswith("/knights/0/node") and "CK-KNIGHT-1" in e["detail"]
                       for e in r.get_json()["errors"])
    for hex_, ok in (([50, 50], False), ([0, -3], False), ([0, 0], True)):      # off, a frame hex, a tile
        posted = copy.deepcopy(st)
        posted["scenario_state"]["cities_and_knights"]["merchant"] = {"hex": hex_, "player": 0}
        r = client.post("/v1/derive", json={"state": posted})
        assert (r.status_code == 200) is ok
        if not ok:
            assert any(e["pointer"].endswith("/merchant/hex") and "CK-PROG-T3" in e["detail"]
                       for e in r.get_json()["errors"])
    assert ck["merchant"] is None


# -- refusals a broken implementation would pass (a mutation audit of the rules) ----------------------------

def test_knight_built_only_on_an_empty_corner_reached_by_own_roads_CK_KNIGHT_1(client):
    """CK-KNIGHT-1: a knight goes on an empty intersection touched by its owner's roads: not on the
    owner's city, not on a knight, not off the board, not where only an opponent's road reaches."""
    c = ck(knights=[knight(0, SE)])
    st = position(hands={0: hand(wool=2, ore=2)}, ck_state=c)
    for node in (N, SE, (40, 40, "N"), NW):
        v = post(client, st, act("build_knight", node=list(node)))
        assert not v["legal"] and rules(v) == ["CK-KNIGHT-1"], (node, v["violations"])
    ok = post(client, st, act("build_knight", node=list(NE)))
    assert ok["legal"] and [k["node"] for k in ckof(ok)["knights"]] == [list(SE), list(NE)]


def test_knight_built_by_a_ship_only_where_own_ships_reach_CK_SEA_5(client):
    """CK-SEA-5: with Seafarers a knight stands on a corner touched by its owner's roads or ships; a
    corner neither reaches is refused for it."""
    from service.engine.geometry import edge_nodes
    st = sea_position(hands={0: hand(wool=1, ore=1)}, roads=())
    st["pieces"]["ships"] = [{"player": 0, "edge": [1, 0, "NE"]}]
    a, b = edge_nodes((1, 0, "NE"))
    st["pieces"]["cities"] = [{"player": 0, "node": list(a)}, {"player": 1, "node": list(S)}]
    v = post(client, st, act("build_knight", node=list(NW)))
    assert not v["legal"] and rules(v) == ["CK-SEA-5"]
    assert post(client, st, act("build_knight", node=list(b)))["legal"]


def test_knight_moves_only_where_own_roads_and_ships_lead_CK_SEA_6(client):
    """CK-SEA-6: with Seafarers a knight moves along its owner's roads and ships: an empty corner off that
    network is refused for it, the far end of the ship line is reached."""
    from service.engine.geometry import edge_nodes
    from .ck_util import board
    st = position(brd=board({(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}), scenario="seafarers", roads=(),
                  cities=((0, (1, 0, "N")),))
    st["pieces"]["ships"] = [{"player": 0, "edge": e} for e in ([1, 0, "NE"], [1, 0, "E"])]
    a = edge_nodes((1, 0, "NE"))
    start = next(n for n in a if n != (1, 0, "N"))
    end = next(n for n in edge_nodes((1, 0, "E")) if n not in a)
    st["scenario_state"]["cities_and_knights"]["knights"] = [knight(0, start, 1, True)]
    v = post(client, st, act("move_knight", **{"from": list(start), "to": list(NW)}))
    assert not v["legal"] and rules(v) == ["CK-SEA-6"]
    ok = post(client, st, act("move_knight", **{"from": list(start), "to": list(end)}))
    assert ok["legal"] and ckof(ok)["knights"][0]["node"] == list(end)


def test_robber_moved_by_a_seven_goes_to_another_land_hex_BASE_ROBBER_3(client):
    """BASE-ROBBER-3 with Cities & Knights: the robber moves to another land hex; staying put or going to
    the frame is refused for it."""
    st = position(phase="robber", ck_state=ck(attacks=1))
    for h in ([-1, 0], [2, 0], [9, 9]):
        v = post(client, st, act("move_robber", hex=h))
        assert not v["legal"] and rules(v) == ["BASE-ROBBER-3"], (h, v["violations"])
    ok = post(client, st, act("move_robber", hex=[1, -1]))
    assert ok["legal"] and ok["state"]["robber"] == [1, -1]


def test_no_level_beyond_the_fifth_CK_IMP_1(client):
    """CK-IMP-1: a track has five levels; with all five bought another is refused for it, whatever the
    commodities held."""
    c = with_commodities(ck(), 0, coin=5, paper=5)
    c["improvements"]["0"]["politics"] = 5
    st = position(ck_state=c)
    v = post(client, st, act("improve_city", track="politics"))
    assert not v["legal"] and rules(v) == ["CK-IMP-1"] and "5 levels" in v["violations"][0]["message"]
    ok = post(client, st, act("improve_city", track="science"))
    assert ok["legal"] and ckof(ok)["improvements"]["0"]["science"] == 1


def test_metropolis_placed_only_on_an_own_city_without_one_CK_IMP_7(client):
    """CK-IMP-7: the metropolis taken at level 4 goes on one of the player's cities without one: with a
    single such city, naming another intersection (an opponent's city, off the board) is refused for it."""
    c = with_commodities(ck(), 0, coin=4)
    c["improvements"]["0"]["politics"] = 3
    st = position(ck_state=c)
    for node in (S, (40, 40, "N")):
        v = post(client, st, act("improve_city", track="politics", metropolis=list(node)))
        assert not v["legal"] and rules(v) == ["CK-IMP-7"], (node, v["violations"])
    ok = post(client, st, act("improve_city", track="politics", metropolis=list(N)))
    assert ok["legal"] and ckof(ok)["metropolises"]["politics"]["node"] == list(N)


def test_the_pirate_moves_to_another_sea_hex_with_cities_and_knights_SEA_029(client):
    """SEA-029 with Cities & Knights: the pirate moves to another sea hex, never onto land nor where it
    stands."""
    sea = sea_position(phase="robber", ck_state=ck(attacks=1), pirate=[2, 0])
    for h in ([1, 0], [2, 0]):
        v = post(client, sea, act("move_pirate", hex=h))
        assert not v["legal"] and rules(v) == ["SEA-029"], (h, v["violations"])
    ok = post(client, sea, act("move_pirate", hex=[1, 1]))
    assert ok["legal"] and ok["state"]["pirate"] == [1, 1]


def test_maritime_trade_with_cities_and_knights_BASE_TRADE_6_BASE_TRADE_9(client):
    """BASE-TRADE-6 with Cities & Knights: a maritime trade gives one kind for another; BASE-TRADE-9: the
    bank gives only what it holds."""
    st = position(hands={0: hand(ore=4), 2: hand(grain=19)})              # every grain card in a hand
    same = post(client, st, act("maritime_trade", give={"ore": 4}, get={"ore": 1}))
    assert not same["legal"] and rules(same) == ["BASE-TRADE-6"]
    empty = post(client, st, act("maritime_trade", give={"ore": 4}, get={"grain": 1}))
    assert not empty["legal"] and rules(empty) == ["BASE-TRADE-9"]
    ok = post(client, st, act("maritime_trade", give={"ore": 4}, get={"wool": 1}))
    assert ok["legal"] and ok["state"]["players"][0]["resources"]["wool"] == 1


def test_the_chasing_knight_stands_at_the_robbers_hex_CK_KNIGHT_9(client):
    """CK-KNIGHT-9: only a knight on a corner of the robber's hex chases it away."""
    c = ck(knights=[knight(0, NE, 1, True)], attacks=1)
    st = position(ck_state=c, robber=(-1, 0))
    v = post(client, st, act("chase_robber", node=list(NE), hex=[-1, 1]))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-9"]


def test_a_knight_moves_to_an_empty_intersection_CK_KNIGHT_6(client):
    """CK-KNIGHT-6: a knight moves to an empty intersection; one holding the player's own knight (or city)
    is refused for it."""
    c = ck(knights=[knight(0, NE, 1, True), knight(0, SE)])
    st = position(ck_state=c, roads=((0, E_N_NE), (0, E_NE_SE), (0, E_SE_S), (1, E_S_SW), (1, E_SW_NW)))
    for to in (SE, N):
        v = post(client, st, act("move_knight", **{"from": list(NE), "to": list(to)}))
        assert not v["legal"] and rules(v) == ["CK-KNIGHT-6"] and "occupied" in v["violations"][0]["message"], to



def test_a_domestic_trade_is_no_gift_BASE_TRADE_3(client):
    """BASE-TRADE-3 with Cities & Knights: a domestic trade has a card on each side; a gift is refused."""
    st = position(hands={0: hand(ore=1), 1: hand(wool=1)})
    v = post(client, st, act("domestic_trade", partner=1, give={"ore": 1}, get={}, accepted=True))
    assert not v["legal"] and rules(v) == ["BASE-TRADE-3"], v["violations"]
    assert post(client, st, act("domestic_trade", partner=1, give={"ore": 1}, get={"wool": 1}, accepted=True))["legal"]


def test_a_domestic_trade_is_with_another_player_BASE_TRADE_2(client):
    """BASE-TRADE-2 with Cities & Knights: the partner of a domestic trade is another player, one of the two
    is the active player, and each gives only cards held."""
    st = position(hands={0: hand(ore=1, wool=1)})
    v = post(client, st, act("domestic_trade", partner=0, give={"ore": 1}, get={"wool": 1}, accepted=True))
    assert not v["legal"] and rules(v) == ["BASE-TRADE-2"] and v["violations"][0]["path"] == "/action/partner"
    st = position(hands={0: hand(ore=1, wool=1), 1: hand(grain=1), 2: hand(brick=1)})
    v = post(client, st, act("domestic_trade", 1, partner=2, give={"grain": 1}, get={"brick": 1}, accepted=True))
    assert not v["legal"] and rules(v) == ["BASE-TRADE-2"] and "non-active players" in v["violations"][0]["message"]
    v = post(client, st, act("domestic_trade", partner=1, give={"ore": 2}, get={"grain": 1}, accepted=True))
    assert not v["legal"] and rules(v) == ["BASE-TRADE-2"] and "short of" in v["violations"][0]["message"]
    assert post(client, st, act("domestic_trade", partner=1, give={"ore": 1}, get={"grain": 1}, accepted=True))["legal"]


def test_only_an_inactive_knight_is_activated_and_only_an_active_one_acts_CK_KNIGHT_3_CK_KNIGHT_5(client):
    """CK-KNIGHT-3: grain activates an inactive knight; an active one is refused for it. CK-KNIGHT-5: only
    an active knight acts (moves). CK-KNIGHT-7: a knight displaces an opponent's knight, not an empty
    intersection."""
    st = position(hands={0: hand(grain=1)}, ck_state=ck(knights=[knight(0, NE, 1, True)]))
    v = post(client, st, act("activate_knight", node=list(NE)))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-3"] and "already active" in v["violations"][0]["message"]
    idle = position(hands={0: hand(grain=1)}, ck_state=ck(knights=[knight(0, NE)]))
    v = post(client, idle, act("activate_knight", node=list(NE), pay="gold"))            # gold: a GOLD rule
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-3"] and "1 grain" in v["violations"][0]["message"]
    acted = position(ck_state=ck(knights=[knight(0, NE, 1, True, acted=True)]))
    v = post(client, acted, act("move_knight", **{"from": list(NE), "to": list(SE)}))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-5"] and "has acted" in v["violations"][0]["message"]
    idle = position(ck_state=ck(knights=[knight(0, NE)]))
    v = post(client, idle, act("move_knight", **{"from": list(NE), "to": list(SE)}))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-5"] and "only an active knight" in v["violations"][0]["message"]
    strong = position(ck_state=ck(knights=[knight(0, NE, 2, True)]))
    v = post(client, strong, act("displace_knight", **{"from": list(NE), "to": list(SE)}))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-7"] and "holds no opponent's knight" in v["violations"][0]["message"]
    far = position(ck_state=ck(knights=[knight(0, NE, 2, True), knight(1, SW)]))
    v = post(client, far, act("displace_knight", **{"from": list(NE), "to": list(SW)}))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-7"] and "is not reached" in v["violations"][0]["message"]
