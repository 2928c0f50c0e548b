"""Diamond Isles (DIAM): island villages, diamonds, trade routes, the limited robber and pirate, the end by
exhausted villages. Each test names the rule IDs it asserts (``rules/index.md`` DIAM-*, rulings R-045..R-053).

Most positions are small synthetic boards (R-001 allows them): a three-hex island in a sea of radius 4 and
four single-hex villages three hexes out, each listed in ``scenario_state.villages``."""
from __future__ import annotations

import copy
from collections import deque

import pytest

from service.api.replay import canonical_json
from service.engine.core import Action
from service.engine.geometry import hex_distance, hex_neighbours
from service.engine.legal import action_json, legal_actions
from service.engine.mapgraph import MapGraph
from service.engine.referee import adjudicate as engine_adjudicate
from service.engine.scenarios import get_scenario
from service.engine.scenarios.components import check_components
from service.engine.selfplay import play_game

from .helpers import adjudicate, hand, hexes, rules, state

SCEN = get_scenario("DIAM")
V0, V1, V2, V3 = (3, -1), (0, -3), (-3, 1), (0, 3)
NUMBERS = {V0: 4, V1: 10, V2: 3, V3: 9}


def board(extra: dict | None = None) -> list[dict]:
    rows: dict = {}
    for q in range(-5, 6):
        for r in range(-5, 6):
            d = hex_distance((0, 0), (q, r))
            if d <= 4:
                rows[(q, r)] = "sea"
            elif d == 5:
                rows[(q, r)] = "frame"
    rows.update({(0, 0): ("forest", 6), (1, 0): ("fields", 8), (0, 1): ("pasture", 5)})
    for h, n in NUMBERS.items():
        rows[h] = ("desert", n)
    rows.update(extra or {})
    return hexes(rows)


GRAPH = MapGraph.build({(h["q"], h["r"]): h["terrain"] for h in board()})


def sea_path(start: tuple, goal_hex: tuple, avoid=()) -> list[list]:
    """The ship edges of a shortest line from intersection ``start`` to a corner of ``goal_hex``."""
    g = GRAPH
    goal = set(g.hex_node_ids[goal_hex])
    s = g.node_index[tuple(start)]
    prev = {s: None}
    dq = deque([s])
    while dq:
        n = dq.popleft()
        if n in goal:
            out = []
            while prev[n] is not None:
                n, eid = prev[n]
                out.append(list(g.edges[eid]))
            return out[::-1]
        for eid in g.node_edge_ids[n]:
            if not g.ship_edge(eid) or g.edges[eid] in avoid:
                continue
            m = g.other_node(eid, n)
            if m not in prev:
                prev[m] = (n, eid)
                dq.append(m)
    raise AssertionError("no path")


S0 = [1, 0, "N"]            # player 0's coastal settlement, two ships from V0
S1 = [0, 1, "S"]            # player 1's, three ships from V3
R0 = sea_path(S0, V0)
R1 = sea_path(S1, V3)


def sstate(villages=None, cache=10, reserve=20, diamonds=None, routes=None):
    vs = villages or {V0: 5, V1: 5, V2: 5, V3: 5}
    return {"villages": [{"hex": list(h), "diamonds": d} for h, d in vs.items()], "diamond_cache": cache,
            "diamond_reserve": reserve, "diamonds": {str(k): v for k, v in (diamonds or {}).items()},
            "trade_routes": {str(k): [list(h) for h in v] for k, v in (routes or {}).items()}}


def diam(*, ships=(), settlements=((0, S0), (1, S1)), scen_state=None, **kw) -> dict:
    kw.setdefault("players", 3)
    return state(board(), scenario="DIAM", settlements=settlements, ships=ships,
                 scenario_state=scen_state or sstate(), **kw)


def ship_action(p, edge):
    return {"type": "build_ship", "player": p, "edge": list(edge)}


RICH = hand(lumber=5, wool=5, brick=5, grain=5, ore=5)


# -- the map (DIAM-002, DIAM-003, DIAM-004, R-053) ----------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4])
def test_the_default_map_holds_the_stated_components(players):
    """DIAM-002: 4 island villages; DIAM-003: 5 diamonds each and 10 in the cache, of 50 counters; DIAM-004:
    each village has a number token; R-045: a non-producing land hex surrounded by sea; R-053: 3-4 players."""
    assert SCEN.players == (3, 4)
    s = SCEN.new_game(players, seed=5)
    assert check_components(SCEN, players, s) == []
    vs = s.scenario_state["villages"]
    assert len(vs) == 4 and all(v["diamonds"] == 5 for v in vs)
    assert s.scenario_state["diamond_cache"] == 10 and s.scenario_state["diamond_reserve"] == 20
    for v in vs:
        t = s.hexes[tuple(v["hex"])]
        assert t.terrain == "desert" and t.number is not None
        assert all(s.hexes[m].terrain == "sea" for m in hex_neighbours(tuple(v["hex"])))
    total = sum(v["diamonds"] for v in vs) + 10 + 20
    assert total == 50
    assert s.vp_target == 14                                     # DIAM-020
    assert SCEN.validate_state(s) == []


def test_a_new_game_through_the_api(client):
    """DIAM-001 / R-053: POST /v1/games starts Diamond Isles for 3 or 4 players, not 2 or 5."""
    r = client.post("/v1/games", json={"scenario": "DIAM", "players": 4, "seed": 2})
    assert r.status_code == 201
    st = r.get_json()["state"]
    assert len(st["scenario_state"]["villages"]) == 4
    assert client.post("/v1/games", json={"scenario": "DIAM", "players": 2, "seed": 2}).status_code == 422
    d = client.post("/v1/derive", json={"state": st}).get_json()["derived"]
    assert d["diamond_cache"] == {"cache": 10, "reserve": 20, "total": 50}
    assert [v["diamonds"] for v in d["villages"]] == [5, 5, 5, 5]
    assert d["may_move"] == {"robber": False, "pirate": []}


def _problem(client, st):
    r = client.post("/v1/adjudicate", json={"state": st, "action": {"type": "end_turn", "player": 0}})
    assert r.status_code == 422, r.get_json()
    return r.get_json()


def test_a_posted_board_marks_its_villages_in_scenario_state(client):
    """DIAM-002: exactly four villages, listed in ``scenario_state.villages``; R-045: each a desert (no
    resource) surrounded by sea; DIAM-004: each with a number token. A board breaking that is a 422 naming it."""
    st = diam(scen_state=sstate(villages={V0: 5, V1: 5, V2: 5}, reserve=25)) if False else diam(scen_state={**sstate(villages={V0: 5, V1: 5, V2: 5}), "diamond_reserve": 20, "diamonds": {"0": 5}})
    assert "DIAM-002" in str(_problem(client, st))
    bad = diam()
    bad["board"]["hexes"] = board({V0: ("forest", 4)})
    p = _problem(client, bad)
    assert "R-045" in str(p) and "/state/scenario_state/villages/0/hex" in str(p)
    bad["board"]["hexes"] = board({V0: "desert"})
    assert "DIAM-004" in str(_problem(client, bad))
    bad["board"]["hexes"] = board({(4, -1): ("hills", 2)})
    assert "surrounded by sea" in str(_problem(client, bad))
    missing = diam()
    del missing["scenario_state"]["villages"]
    assert "/state/scenario_state/villages" in str(_problem(client, missing))
    two = diam(players=2)
    assert "DIAM-001" in str(_problem(client, two))


def test_the_fifty_diamonds_are_conserved_in_a_posted_position(client):
    """DIAM-003 (R-047): villages, cache, spare counters and players hold exactly 50 counters."""
    st = diam(scen_state=sstate(diamonds={0: 3}))
    p = _problem(client, st)
    assert "DIAM-003" in str(p) and "53" in str(p)
    ok = diam(scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}),
              ships=[(0, e) for e in R0])
    assert adjudicate(client, ok, None)["derived"]["diamond_cache"]["total"] == 50


# -- settlements and trade routes (DIAM-005, DIAM-006, DIAM-012, DIAM-013) ----------------------------------

def test_no_settlement_on_a_village_spot(client):
    """DIAM-005: no settlement on a village's corners, in set-up or later."""
    corner = list(GRAPH.nodes[GRAPH.hex_node_ids[V3][0]])
    st = state(board(), scenario="DIAM", players=3, phase="setup", scenario_state=sstate(),
               setup={"round": 1, "step": "settlement", "last_settlement": None}, turn=0)
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": corner})
    assert rules(v) == ["DIAM-005"]
    ok = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert ok["legal"]
    # later: a ship of player 1 touches the village corner, and they have the cards
    path = sea_path(S1, V3)
    st = diam(ships=[(1, e) for e in path], current=1, hands={1: RICH},
              scen_state=sstate(villages={V0: 5, V1: 5, V2: 5, V3: 4}, diamonds={1: 1}, routes={1: [V3]}))
    end = GRAPH.edge_node_ids[GRAPH.edge_index[tuple(path[-1])]]
    node = next(list(GRAPH.nodes[n]) for n in end if n in GRAPH.hex_node_ids[V3])
    v = adjudicate(client, st, {"type": "build_settlement", "player": 1, "node": node})
    assert rules(v) == ["DIAM-005"]


def test_closing_a_route_pays_a_diamond_at_once(client):
    """DIAM-006: the ship that joins the village to the player's settlement makes a trade route and pays one
    diamond from the village at once; R-048: only once per player and village."""
    st = diam(ships=[(0, R0[0])], hands={0: RICH})
    v = adjudicate(client, st, ship_action(0, R0[1]))
    assert v["legal"]
    ev = [e for e in v["events"] if e["type"] in ("trade_route", "diamond")]
    assert ev == [{"type": "trade_route", "player": 0, "village": list(V0)},
                  {"type": "diamond", "player": 0, "village": list(V0), "source": "village", "reason": "route"}]
    after = v["state"]["scenario_state"]
    assert after["villages"][0]["diamonds"] == 4 and after["diamonds"]["0"] == 1
    assert after["trade_routes"]["0"] == [list(V0)]
    d = v["derived"]
    assert d["trade_routes"]["0"] == [{"village": list(V0), "number": 4, "ships": sorted(R0)}]
    assert d["diamonds"]["0"] == {"diamonds": 1, "vp": 0}
    # a second line of ships to the same village pays nothing more
    other = sea_path(S0, V0, avoid={tuple(e) for e in R0})
    st2 = diam(ships=[(0, e) for e in R0 + other[:-1]], hands={0: RICH},
               scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}))
    v2 = adjudicate(client, st2, ship_action(0, other[-1]))
    assert v2["legal"] and not [e for e in v2["events"] if e["type"] == "diamond"]
    assert v2["state"]["scenario_state"]["diamonds"]["0"] == 1 and v2["derived"]["diamonds"]["0"]["diamonds"] == 1


def test_a_posted_route_must_be_recorded(client):
    """DIAM-006: a route is recorded (and paid) the moment it is made; a position whose ships join a village
    without the record cannot exist (422), nor a record without a ship at the village (R-045)."""
    st = diam(ships=[(0, e) for e in R0])
    assert "DIAM-006" in str(_problem(client, st))
    st = diam(scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}))
    assert "no ship touching it" in str(_problem(client, st))


def test_a_closed_route_is_extended_to_a_second_village(client):
    """DIAM-012: a closed route may be extended from its village, so that it joins two villages; the second
    village is a trade route too and pays its diamond (R-045: a connected village anchors new ships)."""
    path = sea_path(list(GRAPH.nodes[GRAPH.hex_node_ids[V0][0]]), V1)      # from V0's north corner to V1
    st = diam(ships=[(0, e) for e in R0 + path[:-1]], hands={0: RICH},
              scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}))
    v = adjudicate(client, st, ship_action(0, path[-1]))
    assert v["legal"], v["violations"]
    assert v["state"]["scenario_state"]["trade_routes"]["0"] == [list(V0), list(V1)]
    assert v["state"]["scenario_state"]["villages"][1]["diamonds"] == 4
    closed = {tuple(e) for e in v["derived"]["closed_ships"]["0"]}
    assert {tuple(e) for e in path} <= closed                     # DIAM-011: the V0-V1 line is closed too


def test_a_new_route_starts_at_any_connection_point(client):
    """DIAM-013 (R-045): a new ship may start at any corner of a village the player trades with, with no own
    ship there; without a route to the village that corner is no connection (SEA-008)."""
    corners = GRAPH.hex_node_ids[V0]
    used = {n for e in R0 for n in GRAPH.edge_node_ids[GRAPH.edge_index[tuple(e)]]}
    free = next(n for n in corners if n not in used and not any(
        GRAPH.edges[eid] in {tuple(e) for e in R0} for eid in GRAPH.node_edge_ids[n]))
    edge = next(GRAPH.edges[eid] for eid in GRAPH.node_edge_ids[free]
                if GRAPH.ship_edge(eid) and not set(GRAPH.edge_node_ids[eid]) <= set(corners))
    st = diam(ships=[(0, e) for e in R0], hands={0: RICH, 1: RICH},
              scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}))
    assert adjudicate(client, st, ship_action(0, edge))["legal"]
    st["current_player"] = 1
    assert rules(adjudicate(client, st, ship_action(1, edge))) == ["SEA-008"]
    # a branch from the middle of a route (an ordinary Seafarers connection) stays legal
    mid = GRAPH.edge_node_ids[GRAPH.edge_index[tuple(R0[0])]][1]
    branch = next(GRAPH.edges[eid] for eid in GRAPH.node_edge_ids[mid]
                  if GRAPH.ship_edge(eid) and list(GRAPH.edges[eid]) not in R0)
    st["current_player"] = 0
    assert adjudicate(client, st, ship_action(0, branch))["legal"]


# -- ships (DIAM-010, DIAM-011) -----------------------------------------------------------------------------

def test_route_ships_never_move_and_open_last_ships_do(client):
    """DIAM-011 (R-046): the ships of a route between a settlement and a village are closed and never move;
    DIAM-010: the last ship of an open line still moves under the Seafarers rules."""
    open_line = sea_path(S1, V2)[:2]
    st = diam(ships=[(0, e) for e in R0] + [(1, e) for e in open_line],
              scen_state=sstate(villages={V0: 4, V1: 5, V2: 5, V3: 5}, diamonds={0: 1}, routes={0: [V0]}))
    far = sea_path(S0, V1)
    v = adjudicate(client, st, {"type": "move_ship", "player": 0, "from": R0[1], "to": far[0]})
    assert rules(v) == ["DIAM-011"]
    v = adjudicate(client, st, {"type": "move_ship", "player": 0, "from": R0[0], "to": far[0]})
    assert rules(v) == ["DIAM-011"]
    assert sorted(adjudicate(client, st, None)["derived"]["closed_ships"]["0"]) == sorted(R0)
    st["current_player"] = 1
    v = adjudicate(client, st, {"type": "move_ship", "player": 1, "from": open_line[0], "to": open_line[1]})
    assert rules(v) == ["DIAM-010"]                            # not the last ship of the line
    other = sea_path(S1, V3)
    ok = adjudicate(client, st, {"type": "move_ship", "player": 1, "from": open_line[1], "to": other[0]})
    assert ok["legal"], ok["violations"]


# -- production of diamonds (DIAM-007, DIAM-008, DIAM-009) -------------------------------------------------

def two_routes(v0=5, cache=10, reserve=20, diamonds=None):
    r1 = sea_path([1, 0, "S"], V0, avoid={tuple(e) for e in R0})
    d = diamonds or {0: 1, 1: 1}
    vs = {V0: v0, V1: 5, V2: 5, V3: 5}
    rest = 50 - sum(vs.values()) - cache - sum(d.values())
    if rest > 20:                           # the rest of the counters taken from V0 are player 2's
        d = {**d, 2: rest - 20}
        rest = 20
    return dict(settlements=((0, S0), (1, [1, 0, "S"])), ships=[(0, e) for e in R0] + [(1, e) for e in r1],
                scen_state=sstate(villages=vs, cache=cache, reserve=rest, diamonds=d, routes={0: [V0], 1: [V0]}))


def test_a_roll_of_the_village_number_pays_every_connected_player(client):
    """DIAM-007: rolling a village's number pays one diamond to each player with a route to it; R-048: from
    the roller clockwise, each from the village while it has any."""
    st = diam(phase="roll", current=1, **two_routes())
    v = adjudicate(client, st, {"type": "roll", "player": 1, "dice": [1, 3]})
    paid = [(e["player"], e["source"]) for e in v["events"] if e["type"] == "diamond"]
    assert paid == [(1, "village"), (0, "village")]
    assert v["state"]["scenario_state"]["villages"][0]["diamonds"] == 3
    assert v["derived"]["villages"][0] == {"hex": list(V0), "number": 4, "diamonds": 3, "routes": [0, 1]}
    other = adjudicate(client, st, {"type": "roll", "player": 1, "dice": [4, 4]})
    assert not [e for e in other["events"] if e["type"] == "diamond"]


def test_a_short_village_is_topped_up_from_the_general_cache(client):
    """DIAM-008: what the village cannot pay comes from the general cache; R-047: then from the spare
    counters. The village is then empty, so the game ends at once (DIAM-021)."""
    st = diam(phase="roll", current=0, **two_routes(v0=1))
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [2, 2]})
    assert [(e["player"], e["source"]) for e in v["events"] if e["type"] == "diamond"] == [(0, "village"), (1, "cache")]
    ss = v["state"]["scenario_state"]
    assert ss["diamond_cache"] == 9 and ss["villages"][0]["diamonds"] == 0
    st = diam(phase="roll", current=0, **two_routes(v0=1, cache=0))
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [2, 2]})
    assert [e["source"] for e in v["events"] if e["type"] == "diamond"] == ["village", "reserve"]


def test_every_pair_of_diamonds_is_a_victory_point(client):
    """DIAM-009: diamonds // 2 victory points: 1 diamond is none, 3 are one."""
    st = diam(**two_routes(diamonds={0: 3, 1: 1}))
    d = adjudicate(client, st, None)["derived"]
    assert d["diamonds"]["0"] == {"diamonds": 3, "vp": 1} and d["diamonds"]["1"] == {"diamonds": 1, "vp": 0}
    assert d["victory_points"]["0"]["diamonds"] == 1 and d["victory_points"]["0"]["total"] == 2


# -- the 7: robber and pirate (DIAM-014, DIAM-015, DIAM-016, R-050, R-051) -------------------------------

def test_the_robber_waits_for_a_player_with_3_victory_points(client):
    """DIAM-014 (R-050): the robber moves only once some player has 3 public VP; hidden VP cards do not
    count, diamond VP do."""
    st = diam(phase="robber", robber=[0, 0])
    v = adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [1, 0], "steal_from": None})
    assert rules(v) == ["DIAM-014"]
    st["players"][1]["dev_cards"] = {"victory_point": 2}
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [1, 0]})) == ["DIAM-014"]
    st["pieces"]["cities"] = [{"player": 1, "node": S1}]
    st["pieces"]["settlements"] = [{"player": 0, "node": S0}]
    assert rules(adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [0, 1]})) == ["DIAM-014"]
    st["scenario_state"] = sstate(diamonds={1: 2}, reserve=18)          # a city and a diamond VP: 3
    v = adjudicate(client, st, {"type": "move_robber", "player": 0, "hex": [0, 1], "steal_from": 1})
    assert v["legal"], v["violations"]
    assert adjudicate(client, st, None)["derived"]["may_move"]["robber"] is True


def test_a_seven_with_nothing_to_move_moves_nothing(client):
    """R-050 (DIAM-014, DIAM-015): on a 7 discards still happen; when the roller may move neither the robber
    nor the pirate, nothing moves and nothing is stolen: the turn goes on."""
    st = diam(phase="roll", hands={1: hand(lumber=8)})
    v = adjudicate(client, st, {"type": "roll", "player": 0, "dice": [3, 4]})
    assert v["state"]["phase"] == "discard"
    v2 = adjudicate(client, v["state"], {"type": "discard", "player": 1, "resources": hand(lumber=4)})
    assert v2["state"]["phase"] == "main" and {"type": "robber_skipped", "player": 0} in v2["events"]
    v3 = adjudicate(client, diam(phase="roll"), {"type": "roll", "player": 0, "dice": [3, 4]})
    assert v3["state"]["phase"] == "main"


def test_only_a_player_with_a_route_moves_the_pirate(client):
    """DIAM-015 (R-050): the pirate is moved only by a player with a trade route to a village; the robber
    limit is separate."""
    st = diam(phase="robber", pirate=[-4, 0], current=1, **two_routes())
    st["current_player"] = 2
    st["players"].append({"resources": hand()}) if len(st["players"]) < 3 else None
    v = adjudicate(client, st, {"type": "move_pirate", "player": 2, "hex": [2, -1], "steal_from": 0})
    assert rules(v) == ["DIAM-015"]
    st["current_player"] = 1
    assert adjudicate(client, st, {"type": "move_pirate", "player": 1, "hex": [2, -1], "steal_from": 0})["legal"]
    assert adjudicate(client, st, None)["derived"]["may_move"] == {"robber": False, "pirate": [0, 1]}


def test_the_pirate_takes_a_card_or_a_diamond(client):
    """DIAM-016 (R-051): the mover chooses a card or a diamond from a player with a ship beside the pirate;
    with none of the chosen kind the other is taken; a settlement alone on the coast is no victim (SEA-030)."""
    base = two_routes(diamonds={0: 2, 1: 1})
    st = diam(phase="robber", pirate=[-4, 0], current=1, hands={0: hand(ore=1)}, **base)
    hx = [2, -1]                                               # R0 runs along this sea hex
    v = adjudicate(client, st, {"type": "move_pirate", "player": 1, "hex": hx, "steal_from": 0, "steal": "diamond"})
    assert v["legal"] and {"type": "stole_diamond", "player": 1, "victim": 0} in v["events"]
    ss = v["state"]["scenario_state"]
    assert ss["diamonds"] == {"0": 1, "1": 2}
    v = adjudicate(client, st, {"type": "move_pirate", "player": 1, "hex": hx, "steal_from": 0, "steal": "card"})
    assert v["state"]["players"][0]["resources"]["ore"] == 0 and v["state"]["players"][1]["resources"]["ore"] == 1
    # the victim has no card: a diamond is taken instead
    st0 = copy.deepcopy(st)
    st0["players"][0]["resources"] = hand()
    v = adjudicate(client, st0, {"type": "move_pirate", "player": 1, "hex": hx, "steal_from": 0, "steal": "card"})
    assert v["state"]["scenario_state"]["diamonds"]["0"] == 1
    # naming a card when a diamond is taken is refused
    v = adjudicate(client, st, {"type": "move_pirate", "player": 1, "hex": hx, "steal_from": 0, "steal": "diamond",
                                "card": "ore"})
    assert rules(v) == ["DIAM-016"]
    # player 2 has no ship beside the hex
    st3 = diam(phase="robber", pirate=[-4, 0], current=1, players=3, **base)
    v = adjudicate(client, st3, {"type": "move_pirate", "player": 1, "hex": [-1, 2], "steal_from": 2})
    assert rules(v) == ["SEA-030"]


def test_a_knight_moves_only_a_permitted_piece_and_counts_for_largest_army(client):
    """R-050: a knight obeys DIAM-014/DIAM-015; with neither permitted it is played without a move and still
    counts for Largest Army (DIAM-018)."""
    st = diam()
    st["players"][0]["dev_cards"] = {"knight": 1}
    st["players"][0]["dev_cards_played"] = {"knight": 2}
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [1, 0], "target": "robber"})
    assert rules(v) == ["DIAM-014"]
    v = adjudicate(client, st, {"type": "play_knight", "player": 0, "hex": [2, -1], "target": "pirate"})
    assert rules(v) == ["DIAM-015"]
    v = adjudicate(client, st, {"type": "play_knight", "player": 0})
    assert v["legal"] and {"type": "knight_without_move", "player": 0} in v["events"]
    assert v["state"]["awards"]["largest_army"] == 0 and v["derived"]["victory_points"]["0"]["largest_army"] == 2
    # with a route, the pirate is permitted, so the knight must name a hex
    st2 = diam(**two_routes())
    st2["players"][0]["dev_cards"] = {"knight": 1}
    assert rules(adjudicate(client, st2, {"type": "play_knight", "player": 0})) == ["DIAM-015"]


# -- scoring, trading, the end (DIAM-017..022) --------------------------------------------------------------

def test_there_is_no_longest_road(client):
    """DIAM-017: the Longest Road card is not used: a long line of ships takes nothing, and a posted holder
    is a 422."""
    line = sea_path(S0, (4, -4))[:5] + []
    st = diam(ships=[(0, e) for e in line[:-1]], hands={0: RICH})
    v = adjudicate(client, st, ship_action(0, line[-1]))
    assert v["legal"] and v["state"]["awards"]["longest_road"] is None
    assert v["derived"]["longest_road_holder"] is None
    st["awards"] = {"longest_road": 0}
    assert "DIAM-017" in str(_problem(client, st))


def test_trading_and_building_in_any_order_on_ones_own_turn(client):
    """DIAM-019 (R-052): the active player builds and trades in any order (the strict-phase variant is
    refused); nobody else builds or trades on another's turn (BASE-COST-3, BASE-TURN-6)."""
    st = diam(hands={0: RICH, 1: RICH})
    v = adjudicate(client, st, ship_action(0, R0[0]))
    assert v["legal"]
    t = adjudicate(client, v["state"], {"type": "maritime_trade", "player": 0, "give": {"ore": 4}, "get": {"brick": 1}})
    assert t["legal"]
    assert adjudicate(client, t["state"], {"type": "build_road", "player": 0, "edge": [1, -1, "SE"]})["legal"]
    assert rules(adjudicate(client, st, ship_action(1, sea_path(S1, V3)[0]))) == ["BASE-COST-3"]
    assert rules(adjudicate(client, st, {"type": "maritime_trade", "player": 1, "give": {"ore": 4},
                                         "get": {"brick": 1}}))[0].startswith("BASE-")
    strict = diam(options={"BASE-VAR-STRICT-PHASES": True})
    p = _problem(client, strict)
    assert "DIAM-019" in str(p)


def test_fourteen_victory_points_win_on_ones_own_turn(client):
    """DIAM-020 (R-003): 14 VP wins, checked for the player whose turn it is."""
    st = diam(current=2, scen_state=sstate(villages={V0: 1, V1: 5, V2: 5, V3: 5}, reserve=0, diamonds={0: 24}))
    # player 0: a settlement + 12 diamond VP = 13; a VP card makes 14, reached on player 2's turn
    st["players"][0]["dev_cards"] = {"victory_point": 1}
    assert adjudicate(client, st, None)["derived"]["winner"] is None
    v = adjudicate(client, st, {"type": "end_turn", "player": 2})
    assert v["state"]["phase"] == "game_over" and v["state"]["winner"] == 0
    st["players"][0]["dev_cards"] = {}
    v = adjudicate(client, st, {"type": "end_turn", "player": 2})
    assert v["state"]["winner"] is None


def ending(d0: int, d1: int, vp_extra_city: bool = False):
    """A position where player 0's roll empties V0 (the first village to run dry)."""
    kw = two_routes(v0=1, diamonds={0: d0, 1: d1})
    if vp_extra_city:
        kw["settlements"] = ((0, S0),)
        kw["cities"] = [(1, [1, 0, "S"])]
    return diam(phase="roll", current=0, **kw)


def test_the_game_ends_when_only_three_villages_hold_diamonds(client):
    """DIAM-021 (R-049): the roll that empties a village ends the game at once, after the whole roll is
    paid; the most VP wins (here player 1, by a city), whoever rolled."""
    v = adjudicate(client, ending(1, 1, vp_extra_city=True), {"type": "roll", "player": 0, "dice": [1, 3]})
    assert v["state"]["phase"] == "game_over" and v["state"]["winner"] == 1
    assert {"type": "villages_exhausted", "villages_with_diamonds": 3} in v["events"]
    ge = v["derived"]["game_end"]
    assert ge["ended_by_villages"] and ge["villages_with_diamonds"] == 3 and ge["decided_by"] == "victory_points"
    assert "DIAM-021" in ge["why"] and "player 1 has the most victory points" in ge["why"]
    # a posted running game with an empty village cannot exist
    st = diam(**two_routes(v0=0))
    assert "DIAM-021" in str(_problem(client, st))


def test_a_tie_at_the_end_goes_to_the_most_diamonds(client):
    """DIAM-022 (R-049): equal VP at the end: the most diamonds wins; equal in both: a shared victory."""
    v = adjudicate(client, ending(1, 0), {"type": "roll", "player": 0, "dice": [1, 3]})
    # both get one more: player 0 has 2 (1 VP), player 1 has 1 (0 VP): VP decide
    assert v["state"]["winner"] == 0
    v = adjudicate(client, ending(3, 2), {"type": "roll", "player": 0, "dice": [1, 3]})
    # player 0: 4 diamonds (2 VP), player 1: 3 diamonds (1 VP) -> VP; make VP equal with 5 and 4
    assert v["state"]["winner"] == 0
    v = adjudicate(client, ending(2, 3), {"type": "roll", "player": 0, "dice": [1, 3]})
    ge = v["derived"]["game_end"]           # 3 and 4 diamonds: 1 and 2 VP
    assert v["state"]["winner"] == 1 and ge["decided_by"] == "victory_points"
    v = adjudicate(client, ending(4, 5), {"type": "roll", "player": 0, "dice": [1, 3]})
    ge = v["derived"]["game_end"]           # 5 and 6 diamonds: 2 and 3 VP
    assert v["state"]["winner"] == 1
    v = adjudicate(client, ending(5, 4), {"type": "roll", "player": 0, "dice": [1, 3]})
    ge = v["derived"]["game_end"]           # 6 and 5 diamonds: 3 and 2 VP, player 0
    assert v["state"]["winner"] == 0
    v = adjudicate(client, ending(4, 3), {"type": "roll", "player": 0, "dice": [1, 3]})
    ge = v["derived"]["game_end"]           # 5 and 4 diamonds: 2 VP each: diamonds decide
    assert v["state"]["winner"] == 0 and ge["decided_by"] == "diamonds" and ge["winners"] == [0]
    st = ending(4, 3)
    st["current_player"] = 1
    st["players"][2] = {"resources": hand()}
    v = adjudicate(client, st, {"type": "roll", "player": 1, "dice": [1, 3]})
    ge = v["derived"]["game_end"]
    assert ge["decided_by"] == "diamonds" and v["state"]["winner"] == 0
    v = adjudicate(client, ending(3, 3), {"type": "roll", "player": 0, "dice": [1, 3]})
    ge = v["derived"]["game_end"]           # 4 diamonds each, 2 VP each: shared
    assert ge["decided_by"] == "shared" and sorted(ge["winners"]) == [0, 1] and v["state"]["winner"] == 0
    assert "shared victory" in ge["why"]


# -- derived values, legal actions, replay, random play ----------------------------------------------------

def test_every_declared_derived_value_is_reported(client):
    """The derived values DIAM declares (DIAM-009, DIAM-011, DIAM-014, DIAM-015, DIAM-022) are all in the
    verdict, with the shapes declared."""
    d = adjudicate(client, diam(**two_routes()), None)["derived"]
    decl = SCEN.composition.derived
    for key, f in decl.fields.items():
        assert key in d, key
        assert f.type.problems(d[key], f"/derived/{key}") == [], (key, d[key])
    for e in adjudicate(client, ending(1, 1), {"type": "roll", "player": 0, "dice": [1, 3]})["events"]:
        if e["type"] in SCEN.composition.events:
            spec = SCEN.composition.events[e["type"]]
            assert set(e) - {"type"} <= set(spec.fields), e


def _judge_listed(client, st, player=None):
    body = {"state": st} if player is None else {"state": st, "player": player}
    r = client.post("/v1/legal-actions", json=body)
    assert r.status_code == 200, r.get_json()
    out = r.get_json()
    for t, acts in out["actions"].items():
        for a in acts:
            assert adjudicate(client, st, a)["legal"], a
    return out


def test_legal_actions_list_the_new_choices_and_each_is_legal(client):
    """DIAM-016 (R-051): the pirate's diamond thefts are listed next to the card thefts; R-050: a knight
    without a move is listed when nothing is permitted (DIAM-014, DIAM-015); every listed action is legal."""
    st = diam(phase="robber", pirate=[-4, 0], current=1, **two_routes(diamonds={0: 2, 1: 1}))
    st["players"][0]["resources"] = hand(ore=1)
    out = _judge_listed(client, st)
    pir = out["actions"]["move_pirate"]
    assert {"type": "move_pirate", "player": 1, "hex": [2, -1], "steal_from": 0, "steal": "diamond"} in pir
    assert any(a.get("steal_from") == 0 and a.get("steal") in (None, "card") for a in pir)
    assert "move_robber" not in out["actions"]                                  # DIAM-014
    kn = diam()
    kn["players"][0]["dev_cards"] = {"knight": 1}
    out = _judge_listed(client, kn)
    assert out["actions"]["play_knight"] == [{"type": "play_knight", "player": 0, "target": "robber"}]
    main = diam(hands={0: RICH}, **two_routes())
    main["players"][0]["resources"] = RICH
    out = _judge_listed(client, main)
    ships = {tuple(a["edge"]) for a in out["actions"]["build_ship"]}
    corners = set(GRAPH.hex_node_ids[V0])
    assert any(set(GRAPH.edge_node_ids[GRAPH.edge_index[e]]) & corners for e in ships)        # DIAM-013


def test_a_game_log_replays(client):
    """A seeded Diamond Isles game replays through POST /v1/replay to the same final state."""
    g = play_game("DIAM", 3, seed=2, max_actions=120)
    log = [action_json(a) for a in g.log]
    r = client.post("/v1/replay", json={"new_game": {"scenario": "DIAM", "players": 3, "seed": 2}, "actions": log})
    out = r.get_json()
    assert r.status_code == 200 and out["all_legal"] and out["applied"] == len(log)
    assert out["final"]["state"]["scenario_state"] == g.final.scenario_state


@pytest.mark.parametrize("players,seed", [(3, 2), (4, 5)])
def test_random_games_end_by_a_diamond_isles_end_with_diamonds_conserved(players, seed):
    """Seeded random play reaches one of the two ends (DIAM-020: 14 VP, DIAM-021: only 3 villages with
    diamonds), every invariant holding and the 50 diamonds conserved after every action (DIAM-003)."""
    from service.engine.modules.diamond_isles.villages import diamond_total, villages_with_diamonds
    totals = []
    g = play_game("DIAM", players, seed, max_actions=3000, dump=canonical_json,
                  on_step=lambda s, a, v: totals.append(diamond_total(v.state) if v.legal else 50))
    assert g.failures == [] and g.ended == "won"
    assert set(totals) == {50} and len(totals) == g.actions
    final = g.final
    vp = {p: SCEN.vp_extra(final, p) for p in range(players)}
    assert villages_with_diamonds(final) <= 3 or final.winner == final.current_player, vp


def test_every_id_the_module_names_resolves_in_the_catalogue(client):
    """Every rule and ruling ID the Diamond Isles module cites (DIAM-001..022, R-045..R-053 and the ones it
    builds on) is in the rules catalogue a referee reads (GET /v1/rules/{id})."""
    import re
    from pathlib import Path
    pkg = Path(__file__).resolve().parents[1] / "service" / "engine" / "modules" / "diamond_isles"
    ids = set()
    for p in pkg.glob("*.py"):
        ids |= set(re.findall(r"\b(?:DIAM-\d{3}|R-\d{3}|SEA-\d{3}|BASE-[A-Z]+-\d+)\b", p.read_text(encoding="utf-8")))
    assert {f"DIAM-{i:03d}" for i in range(1, 23)} <= ids
    for rid in sorted(ids):
        assert client.get(f"/v1/rules/{rid}").status_code == 200, rid
