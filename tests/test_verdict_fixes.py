"""Verdicts that were wrong or missing: each test names the rule (and ruling) it holds and fails
without the fix beside it."""
from __future__ import annotations

from .ck_util import (E_N_NE, E_NE_SE, E_NW_N, NE, N, S, act, ck, knight, position, post, rules, with_cards)


def _holding(*cards, p=0, c=None, **kw):
    return position(ck_state=with_cards(c or ck(), p, *cards), **kw)


def _legal(client, st, player=0, type_=None):
    r = client.post("/v1/legal-actions", json={"state": st, "player": player})
    assert r.status_code == 200, r.get_json()
    acts = r.get_json()["actions"]
    return [a for t, xs in acts.items() if type_ in (None, t) for a in xs]


# -- one connection rule (CK-KNIGHT-2 through CK-PROG-S9, CK-PROG-P4) ---------------------------------------

BEHIND_KNIGHT = [1, -1, "SE"]       # joins player 0's road on E_N_NE only at NE, where player 1's knight stands


def test_road_building_progress_respects_knights(client):
    """CK-PROG-S9 with CK-KNIGHT-2: Road Building's second road may not join the network through an
    intersection holding an opponent's knight, as build_road may not (one connection rule for both)."""
    c = ck(knights=[knight(1, NE)])
    st = _holding("road_building", c=c, roads=((0, E_N_NE),), cities=((0, N), (1, S)))
    built = post(client, position(ck_state=c, roads=((0, E_N_NE),), cities=((0, N), (1, S)),
                                  hands={0: {"lumber": 1, "brick": 1}}), act("build_road", edge=BEHIND_KNIGHT))
    assert not built["legal"] and rules(built) == ["CK-KNIGHT-2"]
    v = post(client, st, act("play_progress", card="road_building",
                             pieces=[{"kind": "road", "edge": list(E_NW_N)}, {"kind": "road", "edge": BEHIND_KNIGHT}]))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-2"]
    assert v["violations"][0]["path"] == "/action/pieces/1/edge"
    listed = _legal(client, st, type_="play_progress")
    rb = [a for a in listed if a.get("card") == "road_building"]
    assert rb and not any(BEHIND_KNIGHT in [p["edge"] for p in a["pieces"]] for a in rb)


def test_diplomat_replacement_respects_knights(client):
    """CK-PROG-P4 with CK-KNIGHT-2: an own road removed by the Diplomat goes back under the same connection
    rule: not beyond an opponent's knight."""
    c = ck(knights=[knight(1, NE)])
    st = _holding("diplomat", c=c, roads=((0, E_N_NE), (0, E_NW_N)), cities=((0, N), (1, S)))
    v = post(client, st, act("play_progress", card="diplomat", edge=list(E_NW_N), replace=BEHIND_KNIGHT))
    assert not v["legal"] and rules(v) == ["CK-KNIGHT-2"]
    ok = post(client, st, act("play_progress", card="diplomat", edge=list(E_NW_N), replace=list(E_NW_N)))
    assert ok["legal"]


# -- Road Building with fewer than two places (BASE-DEV-6, CK-PROG-S9) -------------------------------

def _rb(pieces):
    return {"type": "play_road_building", "player": 0, "pieces": [{"kind": "road", "edge": list(e)} for e in pieces]}


def _cornered():
    """Player 0's settlement on the north corner of the only land hex; player 1's roads take every side
    but the north-east one, so after a road there no place is left for a second."""
    from .helpers import radius_board, state
    theirs = [(0, 0, "E"), (0, 0, "SE"), (-1, 1, "NE"), (-1, 0, "E"), (0, -1, "SE")]
    st = state(radius_board(0), settlements=[(0, (0, 0, "N")), (1, (0, 0, "S"))], roads=[(1, e) for e in theirs])
    st["players"][0]["dev_cards"] = {"road_building": 1}
    return st


def test_road_building_one_road_when_no_second_place_BASE_DEV_6_R_123(client):
    """R-123 (BASE-DEV-6): with no legal place for a second road after the first, one road is accepted; with
    no place at all the card cannot be played."""
    from .helpers import adjudicate
    st = _cornered()
    v = adjudicate(client, st, _rb([(0, 0, "NE")]))
    assert v["legal"], v["violations"]
    assert v["state"]["players"][0]["supply"]["roads"] == 14
    st["pieces"]["roads"].append({"player": 1, "edge": [0, 0, "NE"]})
    none = adjudicate(client, st, _rb([(0, 0, "NE")]))
    assert not none["legal"] and rules(none) == ["BASE-BUILD-1"]
    listed = _legal(client, _cornered(), type_="play_road_building")
    assert listed == [_rb([(0, 0, "NE")])]


def test_road_building_one_road_when_it_wins_BASE_DEV_6_R_123(client):
    """R-123 (BASE-DEV-6, BASE-VP-1): one road is accepted when it wins the game at once (here Longest Road's
    2 VP bring player 0 to 10); a second place left does not make it owed."""
    from .helpers import adjudicate, radius_board, state
    chain = [(0, 0, "NE"), (0, 0, "E"), (0, 0, "SE"), (-1, 1, "NE")]
    st = state(radius_board(2), cities=[(0, (0, 0, "N"))], settlements=[(1, (1, 1, "S")), (0, (2, -2, "S"))],
               roads=[(0, e) for e in chain])
    st["players"][0]["dev_cards"] = {"road_building": 1, "victory_point": 5}
    st["dev_deck"] = {"knight": 14, "road_building": 1, "year_of_plenty": 2, "monopoly": 2, "victory_point": 0}
    v = adjudicate(client, st, _rb([(-1, 0, "E")]))
    assert v["legal"], v["violations"]
    assert v["state"]["phase"] == "game_over" and v["state"]["winner"] == 0
    short = adjudicate(client, st, _rb([(1, -1, "SE")]))          # a road that does not win: 2 are owed
    assert not short["legal"] and rules(short) == ["BASE-DEV-6"]
    assert short["violations"][0]["ruling"] == "R-123"


def test_progress_road_building_one_road_when_no_second_place_CK_PROG_S9_R_123(client):
    """R-123 (CK-PROG-S9): the progress card places one road when no place is left for a second."""
    from .helpers import radius_board
    theirs = [(0, 0, "E"), (0, 0, "SE"), (-1, 1, "NE"), (-1, 0, "E"), (0, -1, "SE")]
    st = _holding("road_building", brd=radius_board(0), cities=((0, N),), settlements=((1, S),), robber=(0, 0),
                  roads=[(1, e) for e in theirs])
    v = post(client, st, act("play_progress", card="road_building", pieces=[{"kind": "road", "edge": [0, 0, "NE"]}]))
    assert v["legal"], v["violations"]
    open_ = _holding("road_building")
    r = post(client, open_, act("play_progress", card="road_building", pieces=[{"kind": "road", "edge": list(E_NW_N)}]))
    assert not r["legal"] and rules(r) == ["CK-PROG-S9"]


# -- a robber move with nobody to rob (BASE-ROBBER-4, SEA-030) -----------------------------------------

def test_robber_move_names_no_victim_when_nobody_has_cards_BASE_ROBBER_4_R_124(client):
    """R-124 (BASE-ROBBER-4): when every opponent beside the new hex holds no cards the move may name no
    victim (naming one is accepted too, nothing is stolen); one holding a card must be named."""
    from .helpers import adjudicate, hand, radius_board, state
    st = state(radius_board(2), phase="robber", settlements=[(0, (0, 0, "N")), (1, (1, 0, "N"))], robber=[0, 0])
    move = {"type": "move_robber", "player": 0, "hex": [1, 0]}
    v = adjudicate(client, st, move)
    assert v["legal"], v["violations"]
    named = adjudicate(client, st, {**move, "steal_from": 1})
    assert named["legal"] and named["state"]["players"][0]["resources"] == hand()
    listed = _legal(client, st, type_="move_robber")
    assert {"type": "move_robber", "player": 0, "hex": [1, 0], "steal_from": None, "card": None} in listed \
        or any(a["hex"] == [1, 0] and a.get("steal_from") is None for a in listed)
    st["players"][1]["resources"] = hand(ore=1)
    owed = adjudicate(client, st, move)
    assert not owed["legal"] and rules(owed) == ["BASE-ROBBER-4"]
    assert not any(a["hex"] == [1, 0] and a.get("steal_from") is None for a in _legal(client, st, type_="move_robber"))


def test_robber_move_with_cities_and_knights_counts_commodities_BASE_ROBBER_4_R_124(client):
    """R-124 with Cities & Knights: commodities are cards of the hand (CK-COM-3), so an opponent holding
    only a coin must still be named; with nothing at all the victim may be left out."""
    from .ck_util import with_commodities
    c = ck(attacks=1)
    st = position(ck_state=c, phase="robber", robber=(0, 1))
    st.setdefault("turn_flags", {})["rolled"] = True
    move = act("move_robber", hex=[-1, 1])                          # hills (-1, 1): player 1's S
    v = post(client, st, move)
    assert v["legal"], v["violations"]
    coin = position(ck_state=with_commodities(c, 1, coin=1), phase="robber", robber=(0, 1))
    r = post(client, coin, move)
    assert not r["legal"] and rules(r) == ["BASE-ROBBER-4"]


# -- CK-SEA-11 / SEA-009: the Diplomat on a ship meeting an own road at a corner without a building ----------

def test_diplomat_ship_meeting_road_is_open_CK_SEA_11_SEA_009(client):
    """CK-SEA-11, CK-PROG-P4, SEA-009: an own ship and an own road meeting at a corner without a building do
    not join, so each is open at that corner: the Diplomat removes either (the ship is the loose end of its
    lane, which move_ship may move too)."""
    from .ck_util import board, with_cards
    st = position(brd=board({(1, 1): "sea", (2, 0): "sea", (2, -1): "sea"}), scenario="seafarers", roads=(),
                  cities=((0, (1, 0, "N")), (1, (-1, 1, "N"))), settlements=((0, (1, 1, "N")),),
                  ck_state=with_cards(ck(), 0, "diplomat"))
    st["pieces"]["ships"] = [{"player": 0, "edge": [1, 0, "NE"]}]           # city (1,0,N) .. corner (2,-1,S)
    st["pieces"]["roads"] = [{"player": 0, "edge": [1, 0, "E"]}]            # corner (2,-1,S) .. settlement
    ship = post(client, st, act("play_progress", card="diplomat", edge=[1, 0, "NE"]))
    assert ship["legal"], ship["violations"]
    road = post(client, st, act("play_progress", card="diplomat", edge=[1, 0, "E"]))
    assert road["legal"], road["violations"]
    moves = _legal(client, st, type_="move_ship")
    assert any(m["from"] == [1, 0, "NE"] for m in moves)


# -- DIAM-010: a village traded with anchors a lane; DIAM-012: extending from it --------------

def _free_village_start():
    """A ship edge at a corner of V0 that player 0's route R0 does not touch, leading away from V0, and the
    edge after it (a line of two ships started from the village)."""
    from .test_diamond_isles import GRAPH, R0, V0
    g = GRAPH
    corners = g.hex_node_ids[V0]
    used = {n for e in R0 for n in g.edge_node_ids[g.edge_index[tuple(e)]]}
    for free in corners:
        if free in used:
            continue
        for eid in g.node_edge_ids[free]:
            if not g.ship_edge(eid) or set(g.edge_node_ids[eid]) <= set(corners):
                continue
            far = next(n for n in g.edge_node_ids[eid] if n != free)
            nxt = next((g.edges[x] for x in g.node_edge_ids[far] if x != eid and g.ship_edge(x)
                        and not set(g.edge_node_ids[x]) & set(corners)), None)
            if nxt is not None:
                return g.edges[eid], nxt
    raise AssertionError("no free village corner")


def test_first_ship_of_a_route_from_a_village_does_not_move_DIAM_010_R_045(client):
    """DIAM-010 (R-045, R-046): a village the player trades with anchors lanes like a building, so the first
    ship of a line started from it is not the loose end and does not move; the line's last ship does."""
    from .helpers import adjudicate
    from .test_diamond_isles import R0, S0, V0, V1, V2, V3, diam, sea_path, sstate
    first, second = _free_village_start()
    st = diam(ships=[(0, e) for e in R0] + [(0, first), (0, second)],
              scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}))
    away = sea_path(S0, V1)[0]
    v = adjudicate(client, st, {"type": "move_ship", "player": 0, "from": list(first), "to": list(away)})
    assert not v["legal"] and rules(v) == ["DIAM-010"]
    ok = adjudicate(client, st, {"type": "move_ship", "player": 0, "from": list(second), "to": list(away)})
    assert ok["legal"], ok["violations"]
    moves = _legal(client, st, type_="move_ship")
    assert moves and not any(m["from"] == list(first) for m in moves)


def test_closed_route_extended_from_its_village_DIAM_012(client):
    """DIAM-012 (R-045): a closed route is extended from its village: a ship may start at a corner of the
    village with no own ship or building there; without the route that corner anchors nothing (SEA-008)."""
    from .helpers import adjudicate
    from .test_diamond_isles import R0, RICH, V0, V1, V2, V3, diam, ship_action, sstate
    first, _ = _free_village_start()
    st = diam(ships=[(0, e) for e in R0], hands={0: RICH},
              scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}))
    v = adjudicate(client, st, ship_action(0, first))
    assert v["legal"], v["violations"]
    bare = diam(ships=[], hands={0: RICH})
    assert rules(adjudicate(client, bare, ship_action(0, first))) == ["SEA-008"]


# -- CK-PROG-4: a progress point card is never held ------------------------------------------------------

def test_point_card_in_a_hand_is_refused_CK_PROG_4(client):
    """CK-PROG-4: Printer and Constitution are revealed at once: a posted hand holding one is a 422 naming
    the card in the hand; the same card face up (vp_cards) is accepted."""
    import copy
    st = _holding("printer")                                  # with_cards puts it face up
    assert post(client, st, None)["derived"]["victory_points"]["0"]["progress_vp"] == 1
    bad = copy.deepcopy(st)
    cks = bad["scenario_state"]["cities_and_knights"]
    cks["hands"]["0"] = {**cks["hands"]["0"], "printer": 1}
    cks["vp_cards"]["0"] = {k: v for k, v in cks["vp_cards"]["0"].items() if k != "printer"}
    r = client.post("/v1/adjudicate", json={"state": bad, "action": None})
    assert r.status_code == 422
    pointers = [e["pointer"] for e in r.get_json()["errors"]]
    assert "/state/scenario_state/cities_and_knights/hands/0/printer" in pointers
    assert "CK-PROG-4" in str(r.get_json())


# -- parameters that cannot apply are refused, naming them ---------------------------------------------------

def test_improvement_without_a_metropolis_refuses_one_named_CK_IMP_7(client):
    """CK-IMP-7: a metropolis is placed only with the level that takes it; below level 4 a ``metropolis``
    named (even off the board) is refused, pointing at it; at level 4 it is placed where named."""
    from .ck_util import with_commodities
    c = with_commodities(ck(), 0, coin=3)
    st = position(ck_state=c)
    v = post(client, st, act("improve_city", track="politics", metropolis=[40, 40, "N"]))
    assert not v["legal"] and rules(v) == ["CK-IMP-7"] and v["violations"][0]["path"] == "/action/metropolis"
    assert post(client, st, act("improve_city", track="politics"))["legal"]
    c4 = with_commodities(ck(), 0, coin=4)
    c4["improvements"]["0"]["politics"] = 3
    v4 = post(client, position(ck_state=c4), act("improve_city", track="politics", metropolis=list(N)))
    assert v4["legal"], v4["violations"]


# -- pointers: the component check points at the board (SC01-007, R-001) ------------------------------------

def test_component_check_points_into_the_board_SC01_007(client):
    """SC01-007 (R-001): a component mismatch points at /state/board/hexes (or harbors), where the board is
    posted, and names the kind in plain words."""
    from .test_scenarios_sc01_05 import example
    r = client.post("/v1/scenarios/SC01/check", json={"state": example("svp-newshores-01")})
    probs = r.json["problems"]
    assert probs and all(p["path"] in ("/state/board/hexes", "/state/board/harbors") for p in probs), probs
    assert not any("hexe " in p["message"] for p in probs)


# -- answered states accepted when posted back (R-044, BASE-VP-1) ---------------------------------------------

def test_settlement_keeps_the_ships_its_city_homed_GOLD_022_R_044(client):
    """GOLD-022 with R-044: capacity is checked when a ship is built; a city pillaged to a settlement (C&K)
    keeps the 2 ships it homes, so such a state is accepted; 3 ships at one home never are."""
    from .test_gold_rules import HOME, harbour_position, ship
    st = harbour_position(ships=[ship(), ship(edge=[2, 3, "SE"])])             # HOME is a settlement
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 200, r.get_json()
    st3 = harbour_position(ships=[ship(), ship(edge=[2, 3, "SE"]), ship(edge=[1, 4, "NE"])], cities=[(0, HOME)],
                           settlements=[(1, [4, 3, "S"])])
    r3 = client.post("/v1/adjudicate", json={"state": st3, "action": None})
    assert r3.status_code == 422 and "GOLD-022" in str(r3.get_json())


def test_game_won_on_a_roll_keeps_picks_owed_BASE_VP_1(client):
    """BASE-VP-1: a game won on a roll ends at once, leaving gold picks (or discards) the roll made owed:
    such a game_over state is accepted when posted back."""
    from .helpers import radius_board, state
    st = state(radius_board(2), phase="game_over", settlements=[(0, (0, 0, "N"))], winner=0,
               pending_gold={"1": 1}, turn_flags={"rolled": True})
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 200, r.get_json()
