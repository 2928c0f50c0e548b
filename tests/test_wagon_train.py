"""The wagon-train variant (WAG, seeds/004): the scenario, its maps and options, the one step-cost function,
wagon moves, tolls, plazas and tokens, sea jumps, barbarians, warships, purchases and the movement phase.

Positions are posted through the API on the small board of ``wag_util`` (west island with the Castle and the
Glassworks, a one-hex strait, east island with the Quarry); each test names the rule IDs it asserts.
"""
from __future__ import annotations

import pytest

from service.engine.geometry import edge_nodes, hex_corners, node_edges
from service.engine.scenarios import get_scenario
from service.engine.scenarios.components import check_components

from .helpers import adjudicate, hand, rules
from .wag_util import (CASTLE, GLASSWORKS, QUARRY, corner, edge, ends, gold_of, move, wag)

WAG = get_scenario("WAG")


def ok(v: dict) -> dict:
    assert v["legal"], v["violations"]
    return v


def refused(v: dict, rule: str, pointer: str | None = None) -> dict:
    assert not v["legal"], v
    assert v["violations"][0]["rule"] == rule, v["violations"]
    if pointer is not None:
        assert v["violations"][0]["path"] == pointer, v["violations"]
    return v


def after(v: dict) -> dict:
    return v["state"]


def mp_used(st: dict) -> int:
    return (st["scenario_state"].get("wagon_turn") or {}).get("mp_used", 0)


# -- the scenario, its maps and options (layer 1) ------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4])
def test_new_game_maps_hold_what_the_rulings_ask(client, players):
    """R-089: three trade hexes (deserts); R-104: 3 barbarians, one beside each; R-095: a river with 2 public
    bridges; R-007/WAG-031: the pirate in the strait; R-110/WAG-039: the bonus on; R-103: 5 gold each;
    R-088: 18 tokens in three stacks; components match the tables computed from the map."""
    r = client.post("/v1/games", json={"scenario": "WAG", "players": players, "seed": 3})
    assert r.status_code == 201, r.get_json()
    st = r.get_json()["state"]
    ss = st["scenario_state"]
    th = {k: tuple(v) for k, v in ss["trade_hexes"].items()}
    assert set(th) == {"castle", "quarry", "glassworks"}
    terr = {(h["q"], h["r"]): h["terrain"] for h in st["board"]["hexes"]}
    assert all(terr[h] == "desert" for h in th.values())
    assert len(ss["barbarians"]) == 3 and sum(ss["barbarians"].values()) == 3
    from service.engine.geometry import hex_distance
    for k in ss["barbarians"]:
        q, r_ = map(int, k.split(","))
        assert min(hex_distance((q, r_), h) for h in th.values()) == 1
    assert len(ss["rivers"]) == 5 and [b["player"] for b in ss["bridges"]] == [None, None]
    assert st["pirate"] == [3, 2] and terr[(3, 2)] == "sea"
    assert st["robber"] == [6, 3] and tuple(st["robber"]) not in th.values()
    assert st["options"]["large_map_bonus"] is True
    assert [p["gold"] for p in st["players"]] == [5] * players
    assert sum(sum(s.values()) for s in ss["stacks"].values()) == 18
    assert client.get("/v1/scenarios/WAG").status_code == 200


def test_the_quarry_is_reached_only_over_the_sea():
    """R-085 on the default map: no land path joins the Quarry's island to the Castle's (tools and marble
    need a sea jump, WAG-022)."""
    from service.engine.mapgraph import MapGraph
    st = WAG.new_game(4, 1)
    g = MapGraph.build(st.terrain_map())
    th = {k: tuple(v) for k, v in st.scenario_state["trade_hexes"].items()}
    start = hex_corners(th["castle"])[0]
    seen, todo = {start}, [start]
    while todo:
        n = todo.pop()
        for e in node_edges(n):
            eid = g.edge_index.get(e)
            if eid is None or not g.road_edge(eid):
                continue
            for m in edge_nodes(e):
                if m not in seen and m in g.node_index:
                    seen.add(m)
                    todo.append(m)
    assert not seen & set(hex_corners(th["quarry"]))
    assert seen & set(hex_corners(th["glassworks"]))


@pytest.mark.parametrize("players", [3, 4])
def test_component_tables_are_computed_from_the_map(players):
    st = WAG.new_game(players, 7)
    assert check_components(WAG, players, st) == []


def test_knights_on_horseback_are_refused_naming_r096(client):
    """R-096: strong knights on horseback (WAG-046, WAG-048, WAG-053, WAG-055, WAG-056, WAG-057) need a module
    the rules do not define: asking for them is a 422 naming R-096."""
    r = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "options": {"knights_on_horseback": True}})
    assert r.status_code == 422
    err = r.get_json()["errors"][0]
    assert err["pointer"] == "/options/knights_on_horseback" and "R-096" in err["detail"]
    st = wag()
    st["options"]["knights_on_horseback"] = True
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422 and "R-096" in r.get_json()["errors"][0]["detail"]


@pytest.mark.parametrize("options, pointer", [
    ({"start_gold": 51}, "/state/options/start_gold"),
    ({"baggage_train": [{"mp": 4, "gold": 1, "faces": []}]}, "/state/options/baggage_train"),
    ({"upgrade_cost": {"gold": 1}}, "/state/options/upgrade_cost"),
    ({"large_map_bonus": "yes"}, "/state/options/large_map_bonus"),
])
def test_bad_options_are_422_naming_them(client, options, pointer):
    st = wag(options=options)
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == pointer


def test_start_gold_option_sets_each_players_gold(client):
    """R-103: the start_gold option."""
    r = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 1, "options": {"start_gold": 9}})
    assert [p["gold"] for p in r.get_json()["state"]["players"]] == [9, 9, 9]


def test_the_wagon_starts_on_the_first_settlement(client):
    """R-097 (WAG-004): the first set-up settlement places the wagon."""
    st = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 2}).get_json()["state"]
    la = client.post("/v1/legal-actions", json={"state": st, "player": 0}).get_json()
    first = la["actions"]["build_settlement"][0]
    v = adjudicate(client, st, first)
    assert v["state"]["scenario_state"]["wagons"]["0"]["node"] == first["node"]
    assert any(e["type"] == "wagon_placed" for e in v["events"])


@pytest.mark.parametrize("bad, pointer", [
    ({"barbarians": {"5,1": 1}}, "/state/scenario_state/barbarians/5,1"),
    ({"trade_hexes": {"castle": [5, 1]}}, "/state/scenario_state/trade_hexes/castle"),
    ({"warships": {"1": [2, 2]}}, "/state/scenario_state/warships/1"),
    ({"stacks": {"castle": {"glass": 1}}}, "/state/scenario_state/stacks/castle/glass"),
])
def test_impossible_wag_data_is_a_422_naming_it(client, bad, pointer):
    """WAG-049/R-105: barbarians on land; R-093: trade hexes on land; R-086: warships at sea; R-088: no hex
    stacks a kind delivered to itself."""
    st = wag()
    st["scenario_state"].update(bad)
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422, r.get_json()
    assert pointer in [e["pointer"] for e in r.get_json()["errors"]]


# -- the step cost (layer 2) -----------------------------------------------------------------------------------

A, B = ends((2, 0), (2, 1))          # a path on the west island between (2,0) and (2,1)


def one_step(client, **kw):
    return adjudicate(client, wag(wagons={0: A}, **kw), move(path=[B]))


def test_a_path_without_road_costs_2_mp(client):
    """WAG-008: 2 MP with no road."""
    v = ok(one_step(client))
    assert mp_used(after(v)) == 2 and v["derived"]["wagon_move"]["steps"][0]["parts"][0]["rule"] == "WAG-008"


def test_own_road_costs_1_mp(client):
    """WAG-009: 1 MP on the player's own road."""
    v = ok(one_step(client, roads=[(0, edge((2, 0), (2, 1)))]))
    assert mp_used(after(v)) == 1 and gold_of(after(v))[:2] == [5, 5]


def test_opponents_road_costs_1_mp_and_1_gold_once_a_turn(client):
    """WAG-010: 1 MP + 1 gold to the owner; WAG-054 / R-082: the same path again this turn owes nothing."""
    v = ok(one_step(client, roads=[(1, edge((2, 0), (2, 1)))]))
    st = after(v)
    assert mp_used(st) == 1 and gold_of(st)[:2] == [4, 6]
    assert any(e["type"] == "toll_paid" and e["rule"] == "WAG-010" for e in v["events"])
    v2 = ok(adjudicate(client, st, move(path=[A])))
    assert gold_of(after(v2))[:2] == [4, 6] and mp_used(after(v2)) == 2


def test_a_waived_payer_passes_free(client):
    """WAG-044 / R-112: the owner's standing waiver; set_toll_policy sets it on his own turn."""
    v = ok(one_step(client, roads=[(1, edge((2, 0), (2, 1)))], waivers={1: [0]}))
    assert gold_of(after(v))[:2] == [5, 5]
    st = wag(current=1)
    v = ok(adjudicate(client, st, {"type": "set_toll_policy", "player": 1, "payer": 0, "charge": False}))
    assert after(v)["scenario_state"]["toll_waivers"] == {"1": [0]}
    refused(adjudicate(client, st, {"type": "set_toll_policy", "player": 1, "payer": 1, "charge": False}),
            "WAG-044")


def test_an_unpayable_toll_refuses_the_step(client):
    """R-107 (WAG-010): there is no debt."""
    v = one_step(client, roads=[(1, edge((2, 0), (2, 1)))], gold=(0, 5, 5))
    refused(v, "WAG-010", "/action/path/0")
    assert v["violations"][0]["ruling"] == "R-107"


def test_river_costs_3_bridge_1_and_an_opponents_bridge_2_gold(client):
    """WAG-041: a river with no bridge 3 MP (R-109: whatever road lies there); WAG-042: a bridge 1 MP;
    WAG-043: an opponent's bridge 2 gold; a public bridge no toll (R-109)."""
    e = edge((2, 0), (2, 1))
    assert mp_used(after(ok(one_step(client, rivers=[e])))) == 3
    assert mp_used(after(ok(one_step(client, rivers=[e], roads=[(0, e)])))) == 3
    v = ok(one_step(client, rivers=[e], bridges=[(e, None)]))
    assert mp_used(after(v)) == 1 and gold_of(after(v))[:2] == [5, 5]
    v = ok(one_step(client, rivers=[e], bridges=[(e, 1)]))
    assert mp_used(after(v)) == 1 and gold_of(after(v))[:2] == [3, 7]


def test_a_river_with_a_barbarian_costs_5(client):
    """WAG-041 with WAG-050: an unbridged river path is undeveloped (R-109): 3 + 2 = 5 MP."""
    e = edge((2, 0), (2, 1))
    v = ok(one_step(client, rivers=[e], barbarians={(2, 0): 1}, options={"large_map_bonus": True}))
    assert mp_used(after(v)) == 5


def test_one_barbarian_slows_only_undeveloped_paths(client):
    """WAG-050 / R-084: 1 barbarian adds 2 on an undeveloped path (2 + 2 = 4 MP, WAG-026), nothing on a road;
    WAG-011: the surcharge is +2 (R-083)."""
    assert mp_used(after(ok(one_step(client, barbarians={(2, 0): 1})))) == 4
    assert mp_used(after(ok(one_step(client, barbarians={(2, 0): 1}, roads=[(0, edge((2, 0), (2, 1)))])))) == 1


def test_two_barbarians_slow_every_path(client):
    """WAG-051: 2 barbarians add 2 on every path: road + barbarians = 3 MP (WAG-026)."""
    v = ok(one_step(client, barbarians={(2, 0): 2}, roads=[(0, edge((2, 0), (2, 1)))]))
    assert mp_used(after(v)) == 3


def test_two_flanking_barbarian_hexes_add_4(client):
    """WAG-011 / WAG-061 / R-083: each flanking hex is dealt with separately: 2 + 2 + 2 = 6 MP."""
    v = ok(one_step(client, barbarians={(2, 0): 1, (2, 1): 2}, options={"large_map_bonus": True}))
    assert mp_used(after(v)) == 6


def test_a_conquered_hex_closes_its_paths(client):
    """WAG-052 / R-081: 3 barbarians: no path beside the hex, no bribe; R-106: it produces nothing."""
    v = one_step(client, barbarians={(2, 0): 3})
    refused(v, "WAG-052", "/action/path/0")
    site = corner((2, 0), "N")                          # (2,0) is pasture with the 4 on this board
    for n, wool in ((3, 0), (2, 1)):
        st = wag(barbarians={(2, 0): n}, settlements=[(0, site)], phase="roll")
        v = ok(adjudicate(client, st, {"type": "roll", "player": 0, "dice": [1, 3]}))
        assert after(v)["players"][0]["resources"]["wool"] == wool


def test_the_robber_adds_one(client):
    """WAG-060 / R-094: +1 MP per hex beside the path with the robber (or a pirate lair)."""
    assert mp_used(after(ok(one_step(client, robber=[2, 0])))) == 3
    assert mp_used(after(ok(one_step(client, lairs=[(2, 1)])))) == 3


def test_ships_never_pave_a_coast_path(client):
    """WAG-025 / R-108: a coast path with a ship costs 2 like a roadless one, no toll; the sea is never
    walked (WAG-058, WAG-007)."""
    a, b = ends((4, 1), (5, 1))                       # coast: land (4,1) / sea (5,1)
    v = ok(adjudicate(client, wag(wagons={0: a}, ships=[(1, edge((4, 1), (5, 1)))]), move(path=[b])))
    assert mp_used(after(v)) == 2 and gold_of(after(v))[:2] == [5, 5]
    c, d = ends((5, 0), (5, 1))                       # sea / sea
    st = wag(wagons={0: c})
    refused(adjudicate(client, st, move(path=[d])), "WAG-058", "/action/path/0")


def test_too_few_mp_refuse_the_step_that_overspends(client):
    """WAG-015 / WAG-026: a path is never partly travelled; the first step beyond the MP left is refused
    at its pointer. WAG-006: the card starts at 4 MP."""
    corners = hex_corners((2, 1))            # walk round (2,1) clockwise: N -> NE -> SE -> S
    v = adjudicate(client, wag(wagons={0: corners[0]}), move(path=corners[1:4]))
    refused(v, "WAG-015", "/action/path/2")
    ok(adjudicate(client, wag(wagons={0: corners[0]}), move(path=corners[1:3])))


def test_grain_adds_2_mp_once_a_turn(client):
    """WAG-012 / R-099: 1 grain for +2 MP, once a turn, payable after the MP ran out; WAG-039: +2 more with
    the large-map bonus."""
    corners = hex_corners((2, 1))
    st = wag(wagons={0: corners[0]}, hands={0: hand(grain=2)})
    v = ok(adjudicate(client, st, move(path=corners[1:4], grain=True)))
    assert mp_used(after(v)) == 6 and after(v)["players"][0]["resources"]["grain"] == 1
    refused(adjudicate(client, after(v), move(path=[corners[4]], grain=True)), "WAG-012", "/action/grain")
    none = wag(wagons={0: corners[0]})                                   # no grain to pay with
    v = adjudicate(client, none, move(path=corners[1:5], grain=True))
    refused(v, "WAG-012", "/action/grain")
    assert "has none" in v["violations"][0]["message"]
    st = wag(wagons={0: corners[0]}, options={"large_map_bonus": True})
    ok(adjudicate(client, st, move(path=corners[1:4])))


def test_grain_may_be_paid_with_no_mp_left(client):
    """WAG-012 / R-099: even after MP were spent."""
    corners = hex_corners((2, 1))
    st = wag(wagons={0: corners[0]}, hands={0: hand(grain=1)})
    st = after(ok(adjudicate(client, st, move(path=corners[1:3]))))
    st = after(ok(adjudicate(client, st, move(grain=True))))
    ok(adjudicate(client, st, move(path=[corners[3]])))


def test_wagons_share_intersections(client):
    """WAG-005: any number of wagons on one intersection."""
    ok(adjudicate(client, wag(wagons={0: A, 1: B}), move(path=[B])))


def test_steps_go_to_adjacent_intersections(client):
    """WAG-004: intersection to adjacent intersection."""
    refused(adjudicate(client, wag(wagons={0: A}), move(path=[corner((0, 0), "S")])), "WAG-004", "/action/path/0")


def test_unused_mp_are_lost_at_the_end_of_the_turn(client):
    """WAG-013: the turn's bookkeeping is cleared when the turn ends."""
    st = after(ok(one_step(client)))
    v = ok(adjudicate(client, st, {"type": "end_turn", "player": 0}))
    assert after(v)["scenario_state"]["wagon_turn"] is None


# -- plazas, tokens, deliveries (layer 3) -------------------------------------------------------------------------

HELD_SAND = {"castle": {"tools": 3, "sand": 2}, "quarry": {"marble": 3, "sand": 3},
             "glassworks": {"glass": 3, "tools": 3}}


def test_first_arrival_draws_a_token_and_no_gold(client):
    """WAG-017: no gold, a secret token; WAG-016: any plaza with a stack will do; WAG-014: movement ends."""
    c = corner(CASTLE, "N")
    v = ok(adjudicate(client, wag(wagons={0: c}), move(plaza="castle", draw="sand")))
    st = after(v)
    w = st["scenario_state"]["wagons"]["0"]
    assert w["plaza"] == "castle" and w["token"] == {"kind": "sand", "from": "castle"} and gold_of(st)[0] == 5
    assert st["scenario_state"]["stacks"]["castle"] == {"tools": 3, "sand": 2}
    refused(adjudicate(client, st, move(path=[c])), "WAG-014")
    refused(adjudicate(client, wag(wagons={0: c}), move(path=[corner(CASTLE, "NE")], draw="sand")), "WAG-017",
            "/action/draw")                                              # no plaza entered, no token drawn


def test_delivery_scores_pays_and_draws_the_next(client):
    """WAG-018: sand goes to the Glassworks; WAG-020: 1 VP, the card's gold, the next token there; WAG-002:
    the delivered token counts as a VP; WAG-040: doubled with the large-map bonus."""
    c = corner(GLASSWORKS, "N")
    w = {"node": list(c), "token": {"kind": "sand", "from": "castle"}}
    st = wag(wagons={0: w}, stacks=HELD_SAND)
    v = ok(adjudicate(client, st, move(plaza="glassworks", draw="tools")))
    s2 = after(v)
    w2 = s2["scenario_state"]["wagons"]["0"]
    assert w2["delivered"] == {"sand": 1} and w2["token"] == {"kind": "tools", "from": "glassworks"}
    assert gold_of(s2)[0] == 6
    assert v["derived"]["victory_points"]["0"]["deliveries"] == 1 == v["derived"]["victory_points"]["0"]["total"]
    st = wag(wagons={0: w}, options={"large_map_bonus": True}, stacks=HELD_SAND)
    assert gold_of(after(ok(adjudicate(client, st, move(plaza="glassworks")))))[0] == 7


def test_an_unrelated_plaza_does_nothing(client):
    """WAG-019 / R-093: holding a token for elsewhere, a plaza draws nothing (a draw named is refused)."""
    c = corner(CASTLE, "N")
    w = {"node": list(c), "token": {"kind": "sand", "from": "castle"}}
    st = wag(wagons={0: w}, stacks=HELD_SAND)
    refused(adjudicate(client, st, move(plaza="castle", draw="tools")), "WAG-019", "/action/draw")
    st = after(ok(adjudicate(client, st, move(plaza="castle"))))
    assert st["scenario_state"]["wagons"]["0"]["token"]["kind"] == "sand"


def test_an_empty_stack_draws_nothing(client):
    """WAG-021 / R-080: stacks are never refilled; the delivery still scores."""
    c = corner(GLASSWORKS, "N")
    w = {"node": list(c), "token": {"kind": "sand", "from": "castle"}}
    stacks = {"castle": {"tools": 3, "sand": 2}, "quarry": {"marble": 3, "sand": 3}, "glassworks": {}}
    v = ok(adjudicate(client, wag(wagons={0: w}, stacks=stacks), move(plaza="glassworks")))
    assert after(v)["scenario_state"]["wagons"]["0"]["token"] is None
    assert any(e["type"] == "stack_empty" for e in v["events"])
    refused(adjudicate(client, wag(wagons={0: w}, stacks=stacks), move(plaza="glassworks", draw="glass")),
            "WAG-019")


def test_passing_a_trade_hex_does_not_enter_its_plaza(client):
    """WAG-068 / R-093: corners are ordinary intersections."""
    corners = hex_corners(CASTLE)
    st = after(ok(adjudicate(client, wag(wagons={0: corners[0]}), move(path=corners[1:3]))))
    assert st["scenario_state"]["wagons"]["0"]["plaza"] is None


def test_a_plaza_is_entered_from_its_corners_and_left_to_them(client):
    """R-093: corner <-> plaza at 0 MP; leaving on a later turn to any corner; WAG-014: a segment ends on a
    plaza or with a jump, not both."""
    refused(adjudicate(client, wag(wagons={0: A}), move(plaza="castle")), "WAG-014", "/action/plaza")
    v = refused(adjudicate(client, wag(wagons={0: corner(CASTLE, "N")}), move(plaza="castle", jump=corner(CASTLE, "S"))),
                "WAG-014", "/action/jump")                           # a segment ends one way only
    assert "not both" in v["violations"][0]["message"]
    st = wag(wagons={0: "castle"})
    c = hex_corners(CASTLE)
    v = ok(adjudicate(client, st, move(path=[c[3], c[2]])))
    assert mp_used(after(v)) == 2


# -- sea jumps (layer 4) ------------------------------------------------------------------------------------------

W_END, E_END = corner((5, 1), "NW"), corner((5, 1), "NE")    # west and east ends of the lane over (5,1)
LANE = [edge((5, 1), (5, 0)), edge((5, 1), (6, 0))]


def jump_pos(owner=0, **kw):
    return wag(wagons={0: W_END}, settlements=[(owner, W_END), (owner, E_END)], ships=[(owner, e) for e in LANE],
               **kw)


def test_a_sea_jump_uses_all_mp_and_ends_the_movement(client):
    """WAG-022 / R-085: from a building along a closed sea route to another, all MP; WAG-023: no grain after."""
    v = ok(adjudicate(client, jump_pos(hands={0: hand(grain=1)}), move(jump=E_END)))
    st = after(v)
    assert st["scenario_state"]["wagons"]["0"]["node"] == list(E_END) and mp_used(st) == 4
    refused(adjudicate(client, st, move(grain=True)), "WAG-023")


def test_an_opponents_sea_route_costs_3_gold(client):
    """WAG-024: 3 gold to the owner."""
    assert gold_of(after(ok(adjudicate(client, jump_pos(owner=1), move(jump=E_END)))))[:2] == [2, 8]


def test_a_route_beside_the_pirate_pays_the_pirate_pool(client):
    """WAG-031 / R-111: the toll goes to the pool; WAG-032 / R-091: nobody can take it back."""
    v = ok(adjudicate(client, jump_pos(owner=1, pirate=[5, 1]), move(jump=E_END)))
    st = after(v)
    assert gold_of(st)[:2] == [2, 5] and st["scenario_state"]["pirate_pool"] == 3
    assert v["derived"]["pirate_pool"] == 3


def test_an_open_lane_cannot_be_crossed(client):
    """R-085 (WAG-007, WAG-022): without the second building the lane is open."""
    st = wag(wagons={0: W_END}, settlements=[(0, W_END)], ships=[(0, e) for e in LANE])
    refused(adjudicate(client, st, move(jump=E_END)), "WAG-022", "/action/jump")


def test_a_jump_needs_one_mp_left(client):
    """R-085: at least 1 MP."""
    st = jump_pos(turn={"player": 0, "started": True, "mp_used": 4})
    refused(adjudicate(client, st, move(jump=E_END)), "WAG-022", "/action/jump")



# -- routes a Cities & Knights knight breaks (WAG-045, decision D-wag-orphans) ---------------------------------

MID = corner((5, 1), "N")                              # the lane's middle intersection (the east island's coast)


def broken_pos(knights=(), ships=(), settlements=(), **kw):
    """The closed lane of :func:`jump_pos` in a game with Cities & Knights, knights ``[(player, node)]``, with
    further ``ships`` and ``settlements``."""
    from .ck_util import ck, knight
    st = wag(wagons={0: W_END}, settlements=[(0, W_END), (0, E_END), *settlements],
             ships=[*((0, e) for e in LANE), *ships], options={"cities_and_knights": True}, **kw)
    st["scenario_state"]["cities_and_knights"] = ck(3, knights=[knight(p, n) for p, n in knights])
    st.setdefault("turn_flags", {})["rolled"] = True
    return st


def test_a_knight_placement_that_breaks_a_route_leaves_its_ships_on_the_board(client):
    """WAG-045: an opponent's knight placed in the middle of a closed sea route removes nothing: every road
    and ship stays where it was; the route it breaks is no closed sea route any more (R-013 stops at the
    knight as at an opponent's building, R-010), so the derived closed lanes drop it."""
    st = broken_pos(current=1, ships=[(1, edge((5, 0), (6, 0)))], settlements=[(1, corner((6, 0), "NW"))],
                    roads=[(1, edge((6, 0), (6, 1)))], hands={1: hand(wool=1, ore=1)})
    v = ok(adjudicate(client, st, {"type": "build_knight", "player": 1, "node": list(MID)}))
    s2 = after(v)
    def pieces(x):
        return {k: sorted((p["player"], tuple(p["edge"])) for p in x["pieces"][k]) for k in ("roads", "ships")}
    assert pieces(s2) == pieces(st) and len(pieces(st)["ships"]) == 3
    assert v["derived"]["closed_ships"]["0"] == []
    assert ok(adjudicate(client, st, None))["derived"]["closed_ships"]["0"] == sorted(LANE)


def test_a_route_a_knight_breaks_carries_no_jump(client):
    """WAG-045 with R-085/R-111: the jump follows a closed sea route; an opponent's knight on it breaks it (the
    wagon's own player's knight does not)."""
    ok(adjudicate(client, broken_pos(), move(jump=E_END)))
    refused(adjudicate(client, broken_pos([(1, MID)]), move(jump=E_END)), "WAG-022", "/action/jump")
    ok(adjudicate(client, broken_pos([(0, MID)]), move(jump=E_END)))


def test_ships_of_a_broken_route_stay_movable_one_a_turn_from_the_free_end(client):
    """WAG-045: the ship movement rule still applies to the ships of a route a knight breaks: the lane is closed
    no more (SEA-014 does not hold them), the ship at the break is the foremost of its broken lane (R-010),
    one ship a turn (SEA-017); the legal-action list offers the move."""
    to = edge((5, 1), (4, 1))
    mv = {"type": "move_ship", "player": 0, "from": LANE[0], "to": to}
    refused(adjudicate(client, broken_pos(), mv), "SEA-014", "/action/from")
    refused(adjudicate(client, broken_pos([(0, MID)]), mv), "SEA-014", "/action/from")
    st = broken_pos([(1, MID)])
    s2 = after(ok(adjudicate(client, st, mv)))
    assert sorted(map(tuple, (x["edge"] for x in s2["pieces"]["ships"]))) == sorted(map(tuple, [to, LANE[1]]))
    refused(adjudicate(client, s2, {"type": "move_ship", "player": 0, "from": LANE[1], "to": LANE[0]}), "SEA-017")
    r = client.post("/v1/legal-actions", json={"state": st, "player": 0})
    assert r.status_code == 200, r.get_json()
    moves = r.get_json()["actions"].get("move_ship") or []
    assert any(a["from"] == LANE[0] and a["to"] == to for a in moves), moves

# -- barbarians driven off (layer 4) ----------------------------------------------------------------------------

def test_drive_off_needs_an_upgrade(client):
    """WAG-027: level 1 has no die numbers (R-113: an attempt that cannot succeed is refused)."""
    st = wag(wagons={0: A}, barbarians={(2, 0): 1})
    refused(adjudicate(client, st, {"type": "drive_off_barbarian", "player": 0, "hex": [2, 0], "to": [0, 0],
                                    "die": 6}), "WAG-027")


def test_a_successful_drive_off_moves_one_barbarian_and_waives_the_hex(client):
    """WAG-028: move one barbarian to a hex not conquered; WAG-061: that hex's surcharge is waived this turn;
    WAG-029: movement goes on, MP untouched; WAG-030: one attempt per hex per turn."""
    st = wag(wagons={0: {"node": list(A), "level": 2}}, barbarians={(2, 0): 2})
    act = {"type": "drive_off_barbarian", "player": 0, "hex": [2, 0], "to": [0, 0], "die": 6}
    v = ok(adjudicate(client, st, act))
    s2 = after(v)
    assert s2["scenario_state"]["barbarians"] == {"2,0": 1, "0,0": 1} and mp_used(s2) == 0
    refused(adjudicate(client, s2, act), "WAG-030", "/action/hex")
    v = ok(adjudicate(client, s2, move(path=[B])))
    assert mp_used(after(v)) == 2                      # (2,0) waived: no +2 although 1 barbarian is left


def test_a_failed_drive_off_changes_nothing_but_the_attempt(client):
    """WAG-029 / R-081: failure keeps the surcharge; no bribe."""
    st = wag(wagons={0: {"node": list(A), "level": 2}}, barbarians={(2, 0): 1})
    v = ok(adjudicate(client, st, {"type": "drive_off_barbarian", "player": 0, "hex": [2, 0], "to": [0, 0],
                                   "die": 1}))
    assert after(v)["scenario_state"]["barbarians"] == {"2,0": 1}
    assert mp_used(after(ok(adjudicate(client, after(v), move(path=[B]))))) == 4


def test_a_wagon_moves_only_once_on_the_board_WAG_004(client):
    """WAG-004 (R-097): a player's wagon starts on the first settlement; with none on the board a move is
    refused for it."""
    v = refused(adjudicate(client, wag(wagons={1: A}), move(path=[B])), "WAG-004", "/action")
    assert "no wagon on the board" in v["violations"][0]["message"]
    ok(adjudicate(client, wag(wagons={0: A}), move(path=[B])))


def test_a_drive_off_needs_a_barbarian_the_wagon_beside_it_and_a_target_WAG_028(client):
    """WAG-028 (R-113): a barbarian is driven off a hex that holds one, by a wagon pausing on a corner of
    it, naming before the roll where it goes."""
    st = wag(wagons={0: {"node": list(A), "level": 2}}, barbarians={(2, 0): 1})
    drive = {"type": "drive_off_barbarian", "player": 0, "hex": [2, 0], "to": [0, 0], "die": 6}
    v = refused(adjudicate(client, st, {**drive, "hex": [2, 1]}), "WAG-028", "/action/hex")
    assert "no barbarian" in v["violations"][0]["message"]
    far = wag(wagons={0: {"node": [0, 0, "N"], "level": 2}}, barbarians={(2, 0): 1})
    v = refused(adjudicate(client, far, drive), "WAG-028", "/action/hex")
    assert "pauses on an intersection next to" in v["violations"][0]["message"]
    refused(adjudicate(client, st, {k: x for k, x in drive.items() if k != "to"}), "WAG-028", "/action/to")
    ok(adjudicate(client, st, drive))


def test_a_chase_is_rolled_only_near_the_warship_WAG_036(client):
    """WAG-036 (R-116): the chase is rolled as the wagon is about to enter a corner of the warship's hex;
    far from it, it is refused for that; WAG-034: not once the tribute is paid for the turn."""
    st = wag(wagons={0: {"node": [0, 0, "N"], "level": 2}}, warships={1: WS})
    v = refused(adjudicate(client, st, {"type": "chase_warship", "player": 0, "owner": 1, "to": [4, 0], "die": 6}),
                "WAG-036", "/action")
    assert "about to enter a corner" in v["violations"][0]["message"]
    corners = set(hex_corners(WS))
    a = next(n for n in (WA, WB) if n not in corners)
    near = wag(wagons={0: {"node": list(a), "level": 2}}, warships={1: WS})
    chase = {"type": "chase_warship", "player": 0, "owner": 1, "to": [5, 1], "die": 1}
    for owner in (0, 2):                                             # own, or an opponent with no warship
        v = refused(adjudicate(client, near, {**chase, "owner": owner}), "WAG-036", "/action/owner")
        assert "no warship to chase" in v["violations"][0]["message"]
    v = refused(adjudicate(client, wag(wagons={0: a}, warships={1: WS}), chase), "WAG-036", "/action")
    assert "no die numbers" in v["violations"][0]["message"]          # level 1
    v = refused(adjudicate(client, near, {k: x for k, x in chase.items() if k != "to"}), "WAG-036", "/action/to")
    assert "name the vacant adjacent sea hex" in v["violations"][0]["message"]
    paid = wag(wagons={0: {"node": list(a), "level": 2}}, warships={1: WS}, turn={"player": 0, "tribute": [1]})
    refused(adjudicate(client, paid, chase), "WAG-034", "/action/owner")    # WAG-034: nothing left to gain
    lost = after(ok(adjudicate(client, near, chase)))
    v = refused(adjudicate(client, lost, chase), "WAG-036", "/action/owner")
    assert "chased already this turn" in v["violations"][0]["message"]


def test_a_drive_off_target_must_be_land_not_conquered(client):
    """WAG-028 / R-105 / R-113: named before the roll, checked either way."""
    st = wag(wagons={0: {"node": list(A), "level": 2}}, barbarians={(2, 0): 1, (0, 0): 3})
    for to in ([5, 1], [0, 0], [2, 0]):
        refused(adjudicate(client, st, {"type": "drive_off_barbarian", "player": 0, "hex": [2, 0], "to": to,
                                        "die": 1}), "WAG-028", "/action/to")


# -- warships, tribute, chases (layer 4) ---------------------------------------------------------------------------

WS = (5, 0)                                           # a warship on sea hex (5,0), beside the lane's corners
WA, WB = ends((4, 0), (4, 1))                         # a west-island path with one end on a corner of (5,0)


def test_tribute_is_owed_once_a_turn_per_warship(client):
    """WAG-033: 1 gold to the warship's owner (level 1: no chase, R-116); WAG-034: once for the turn;
    WAG-035: owed whatever was bought before."""
    corners = set(hex_corners(WS))
    a = next(n for n in (WA, WB) if n not in corners)
    b = WB if a == WA else WA
    assert b in corners
    st = wag(wagons={0: a}, warships={1: WS}, turn={"player": 0, "bought": 2})
    v = ok(adjudicate(client, st, move(path=[b])))
    s2 = after(v)
    assert gold_of(s2)[:2] == [4, 6]
    assert gold_of(after(ok(adjudicate(client, s2, move(path=[a])))))[:2] == [4, 6]


def test_at_level_2_the_chase_is_rolled_first(client):
    """WAG-036 / R-086: the step is refused until a chase is rolled; WAG-038: a lost chase leaves the tribute
    owed; WAG-037: the wagon moves on after a chase."""
    corners = set(hex_corners(WS))
    a = next(n for n in (WA, WB) if n not in corners)
    b = WB if a == WA else WA
    st = wag(wagons={0: {"node": list(a), "level": 2}}, warships={1: WS})
    refused(adjudicate(client, st, move(path=[b])), "WAG-036", "/action/path/0")
    lost = after(ok(adjudicate(client, st, {"type": "chase_warship", "player": 0, "owner": 1, "to": [5, 1],
                                            "die": 1})))
    assert gold_of(after(ok(adjudicate(client, lost, move(path=[b])))))[:2] == [4, 6]
    won = ok(adjudicate(client, st, {"type": "chase_warship", "player": 0, "owner": 1, "to": [5, 1], "die": 6}))
    s2 = after(won)
    assert s2["scenario_state"]["warships"] == {"1": [5, 1]}
    assert gold_of(after(ok(adjudicate(client, s2, move(path=[b])))))[:2] == [5, 5]


def test_a_chase_names_a_vacant_sea_hex(client):
    """WAG-036 / R-113 / R-116."""
    corners = set(hex_corners(WS))
    a = next(n for n in (WA, WB) if n not in corners)
    st = wag(wagons={0: {"node": list(a), "level": 2}}, warships={1: WS})
    refused(adjudicate(client, st, {"type": "chase_warship", "player": 0, "owner": 1, "to": [4, 0], "die": 6}),
            "WAG-036", "/action/to")


# -- purchases and the movement phase (layers 3, 4) ------------------------------------------------------------------

def test_gold_buys_two_resources_a_turn(client):
    """WAG-067 / R-098: 2 gold each, at most 2 a turn, buy only."""
    st = wag(gold=(10, 5, 5))
    v = ok(adjudicate(client, st, {"type": "gold_trade", "player": 0, "give": {"gold": 4}, "get": {"ore": 2}}))
    assert gold_of(after(v))[0] == 6 and after(v)["players"][0]["resources"]["ore"] == 2
    refused(adjudicate(client, after(v), {"type": "gold_trade", "player": 0, "give": {"gold": 2},
                                          "get": {"ore": 1}}), "WAG-067")
    refused(adjudicate(client, st, {"type": "gold_trade", "player": 0, "give": {"ore": 3}, "get": {"gold": 1}}),
            "WAG-067")


def test_upgrades_raise_the_level_and_the_mp(client):
    """WAG-006 / R-087 / R-120: +1 level for grain, ore, wool; level 2 has 5 MP."""
    st = wag(wagons={0: A}, hands={0: hand(grain=9, ore=9, wool=9)})
    v = ok(adjudicate(client, st, {"type": "upgrade_baggage_train", "player": 0}))
    s2 = after(v)
    assert s2["scenario_state"]["wagons"]["0"]["level"] == 2
    s3 = after(ok(adjudicate(client, s2, {"type": "upgrade_baggage_train", "player": 0})))
    assert s3["scenario_state"]["wagons"]["0"]["level"] == 3
    while True:                                     # up to the top level; then refused for it, cards in hand
        v = adjudicate(client, s3, {"type": "upgrade_baggage_train", "player": 0})
        if not v["legal"]:
            break
        s3 = after(v)
    refused(v, "WAG-006")
    assert "top level" in v["violations"][0]["message"] and s3["scenario_state"]["wagons"]["0"]["level"] >= 4


def test_no_building_or_trading_once_the_wagon_moved(client):
    """WAG-003 / R-092 / R-114: the movement phase allows only wagon actions, ship moves and the end."""
    site = corner((1, 0), "S")
    st = after(ok(one_step(client, hands={0: hand(grain=1, ore=1, wool=1, lumber=1, brick=1)},
                           settlements=[(0, site)])))
    refused(adjudicate(client, st, {"type": "build_road", "player": 0, "edge": edge((1, 0), (0, 1))}), "WAG-003")
    refused(adjudicate(client, st, {"type": "upgrade_baggage_train", "player": 0}), "WAG-003")


def test_another_movable_item_ends_the_wagons_movement(client):
    """WAG-047 / R-114: a ship moved in the movement phase ends the wagon's movement."""
    a, b = ends((4, 1), (5, 1))
    sea2 = edge((5, 1), (5, 2))
    st = wag(wagons={0: A}, settlements=[(0, a)], ships=[(0, edge((4, 1), (5, 1)))])
    st = after(ok(adjudicate(client, st, move(path=[B]))))
    la = client.post("/v1/legal-actions", json={"state": st, "player": 0}).get_json()
    ship_moves = la["actions"].get("move_ship", [])
    if not ship_moves:
        pytest.skip("no ship move on this board")
    s2 = after(ok(adjudicate(client, st, ship_moves[0])))
    refused(adjudicate(client, s2, move(path=[A])), "WAG-047")


def test_deliveries_win_the_game(client):
    """WAG-001: 13 VP on one's own turn; WAG-002: each delivered token 1 VP."""
    c = corner(GLASSWORKS, "N")
    w = {"node": list(c), "token": {"kind": "sand", "from": "castle"},
         "delivered": {"glass": 3, "marble": 3, "tools": 4, "sand": 2}}
    stacks = {"castle": {"tools": 1, "sand": 1}, "quarry": {"marble": 0, "sand": 1}, "glassworks": {"tools": 1}}
    v = ok(adjudicate(client, wag(wagons={0: w}, stacks=stacks), move(plaza="glassworks", draw="tools")))
    assert after(v)["phase"] == "game_over" and after(v)["winner"] == 0


# -- legal actions: the wagon's destinations with their cheapest plans (layer 6) ------------------------------------

def test_every_legal_wagon_move_is_covered_by_a_listed_destination():
    """Property on positions of seeded random WAG play: every listed ``move_wagon`` adjudicates legal, and every
    legal random walk (WAG-004) is covered by a listed plan with its destination and grain choice; the listed
    plan is the cheapest in MP (the step-cost function's, WAG-008..015)."""
    import random
    from service.engine.legal import legal_actions
    from service.engine.mapgraph import MapGraph
    from service.engine.referee import adjudicate as judge
    from service.engine.selfplay import play_game

    from .test_legal_property import _wagon_walk, wagon_covered
    from service.engine.core import Action
    seen = {"legal": 0, "listed": 0}

    def step(state, action, verdict):
        if state.phase != "main" or rnd.random() < 0.7:
            return
        graph = MapGraph.build(state.terrain_map())
        p = state.current_player
        la = legal_actions(state, graph, WAG, p)
        for a in la.actions.get("move_wagon", []):
            assert judge(state, a, graph, WAG, with_derived=False).legal, a
            seen["listed"] += 1
        for _ in range(25):
            a = Action("move_wagon", p, _wagon_walk(rnd, graph, state, p))
            if judge(state, a, graph, WAG, with_derived=False).legal:
                seen["legal"] += 1
                assert wagon_covered(la, a, state, graph), a
                listed = [x for x in la.actions["move_wagon"] if (x.get("plaza"), x.get("jump"),
                          tuple((x.get("path") or [None])[-1] or ()), bool(x.get("grain"))) ==
                          (a.get("plaza"), a.get("jump"), tuple((a.get("path") or [None])[-1] or ()),
                           bool(a.get("grain")))]
                if listed and not a.get("jump"):
                    mine = judge(state, a, graph, WAG, with_derived=True).derived.get("wagon_move", {}).get("mp")
                    best = judge(state, listed[0], graph, WAG, with_derived=True).derived.get("wagon_move", {}).get("mp")
                    assert best is None or mine is None or best <= mine, (a, listed[0])

    rnd = random.Random(5)
    for seed in (1, 2):
        play_game("WAG", 3 + seed % 2, seed, max_actions=400, check=False, on_step=step)
    assert seen["legal"] > 20 and seen["listed"] > 20, seen


# -- pictures and explanations (layer 6) ------------------------------------------------------------------------------

def test_the_picture_draws_wagons_barbarians_rivers_bridges_warships_and_the_panel(client):
    """R-093/R-095/R-086: what WAG keeps on the board is drawn and named in the legend."""
    e = edge((2, 0), (2, 1))
    st = wag(wagons={0: A, 1: "castle"}, barbarians={(0, 0): 2}, rivers=[e], bridges=[(e, 1)], warships={1: (5, 0)},
             pool=3)
    r = client.post("/v1/render?format=svg", json={"state": st, "size": 40})
    assert r.status_code == 200, r.get_json()
    svg = r.get_data(as_text=True)
    for key in ("wag-wagons", "wag-barbarians", "wag-rivers", "wag-bridges", "wag-warships", "wag-trade"):
        assert key in svg, key
    assert "pirate pool: 3 gold" in svg and "to the castle" in svg


def test_explanations_break_each_step_down_by_rule(client):
    """"Why 5 MP": a river with no bridge 3 (WAG-041) + 1 barbarian 2 (WAG-050), from the one step-cost function."""
    e = edge((2, 0), (2, 1))
    st = wag(wagons={0: A}, rivers=[e], barbarians={(2, 0): 1}, options={"large_map_bonus": True})
    r = client.post("/v1/derive?explain=true", json={"state": st})
    assert r.status_code == 200, r.get_json()
    reach = r.get_json()["explanations"]["modules"]["wagon_reach"]
    row = reach["destinations"][f"node:{B[0]},{B[1]},{B[2]}"]
    assert row["mp"] == 5
    rules_ = [x["rule"] for x in row["steps"][0]["parts"]]
    assert rules_ == ["WAG-041", "WAG-050"] and "WAG-041" in row["steps"][0]["why"]


# -- soak: seeded random games reach a winner with tokens, barbarians and gold conserved (layer 7) -----------------

def _conservation(state, action, verdict):
    """Tokens (R-088: 18, in stacks, hands and deliveries), barbarians (moved, never made or lost) and gold
    (tolls and tribute change hands or go to the pirate pool; only deliveries and purchases meet the bank)."""
    after_ = verdict.state
    if after_ is None:
        return
    for s in (state, after_):
        ss = s.scenario_state
        held = sum(sum(st.values()) for st in (ss.get("stacks") or {}).values())
        for w in (ss.get("wagons") or {}).values():
            held += (1 if w.get("token") else 0) + sum((w.get("delivered") or {}).values())
        assert held == 18, (action, held)
    nb = lambda s: sum((s.scenario_state.get("barbarians") or {}).values())  # noqa: E731
    assert nb(after_) == nb(state) == 3, action
    total = lambda s: sum(p.extra.get("gold", 0) for p in s.players) + int(s.scenario_state.get("pirate_pool", 0))  # noqa: E731
    bank = sum(e.get("gold", 0) for e in verdict.events if e["type"] == "token_delivered")
    bank -= sum(e["gave"].get("gold", 0) for e in verdict.events if e["type"] == "traded" and e.get("partner") == "bank")
    assert total(after_) - total(state) == bank, (action, verdict.events)
    assert all(p.extra.get("gold", 0) >= 0 for p in after_.players)


@pytest.mark.parametrize("players, seed", [(3, 5), pytest.param(4, 1, marks=pytest.mark.slow)])
def test_seeded_games_reach_a_winner_with_everything_conserved(players, seed):
    """WAG-001: someone reaches 13 VP on his turn; deliveries count (WAG-002); R-088 tokens, R-104 barbarians
    and the gold are conserved on every action."""
    from service.engine.selfplay import play_game
    g = play_game("WAG", players, seed, max_actions=3000, on_step=_conservation)
    assert not g.failures, g.failures[:3]
    assert g.ended == "won" and g.winner is not None
    assert any(a.type == "move_wagon" and a.get("plaza") for a in g.log)


@pytest.mark.slow
@pytest.mark.parametrize("players, seed", [(3, 1), (4, 2)])
def test_soak_games_with_cities_and_knights_keep_every_invariant(players, seed):
    """Longer runs (``-m slow``) with Cities & Knights (target 15, R-117): every invariant and the WAG
    conservation hold on every action (random play with C&K rarely reaches 15 within the cap)."""
    from service.engine.selfplay import play_game
    g = play_game("WAG", players, seed, max_actions=1500, on_step=_conservation,
                  options={"cities_and_knights": True})
    assert not g.failures, g.failures[:3]
    assert g.final.vp_target == 15
    assert any(a.type == "move_wagon" for a in g.log)


def test_with_cities_and_knights_the_target_is_15(client):
    """R-117 (WAG-001 with CK-SEA-1)."""
    r = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 1,
                                       "options": {"cities_and_knights": True}})
    assert r.status_code == 201, r.get_json()
    assert r.get_json()["state"]["vp_target"] == 15


def test_only_warships_take_tribute(client):
    """WAG-059 / R-118 / R-094: of the armed forces the text lists, only personal warships take tribute; the
    Seafarers pirate ship beside a path takes none and adds no MP (it is not a pirate lair)."""
    a, b = ends((4, 1), (5, 1))
    v = ok(adjudicate(client, wag(wagons={0: a}, pirate=[5, 1]), move(path=[b])))
    assert mp_used(after(v)) == 2 and gold_of(after(v)) == [5, 5, 5]
    v = ok(adjudicate(client, wag(wagons={0: a}, warships={1: (5, 1)}), move(path=[b])))
    assert gold_of(after(v))[:2] == [4, 6]


def test_gold_changes_hands_in_domestic_trades(client):
    """WAG-044 / R-112: a deal for passage is an ordinary domestic trade with gold as a currency."""
    st = wag(hands={1: hand(wool=1)})
    v = ok(adjudicate(client, st, {"type": "domestic_trade", "player": 0, "partner": 1, "give": {"gold": 2},
                                   "get": {"wool": 1}, "accepted": True}))
    assert gold_of(after(v)) == [3, 7, 5] and after(v)["players"][0]["resources"]["wool"] == 1


# -- Santa's workshop (option santa_workshop, R-090; layer 5) ---------------------------------------------------------

WORKSHOP = (0, 0)


def santa_pos(*, pile=12, presents=(0, 0, 0), castle_number=None, **kw):
    st = wag(options={"santa_workshop": True}, **kw)
    for h in st["board"]["hexes"]:
        if (h["q"], h["r"]) == WORKSHOP:
            h["terrain"], h["number"] = "desert", 9
        if (h["q"], h["r"]) == CASTLE and castle_number:
            h["number"] = castle_number
    st["scenario_state"]["santa"] = {"hex": list(WORKSHOP), "pile": pile}
    for i, n in enumerate(presents):
        st["players"][i]["presents"] = n
    return st


def test_a_new_game_with_santas_workshop(client):
    """R-090 (decision D-wag-santa): the workshop on the marked desert with a 9, the trade hexes numbered
    (WAG-065), 12 presents in the pile; off by default."""
    st = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 1,
                                        "options": {"santa_workshop": True}}).get_json()["state"]
    nums = {(h["q"], h["r"]): h["number"] for h in st["board"]["hexes"]}
    assert st["scenario_state"]["santa"] == {"hex": [6, 3], "pile": 12} and nums[(6, 3)] == 9
    assert [nums[tuple(h)] for h in (st["scenario_state"]["trade_hexes"][k] for k in ("castle", "quarry",
                                                                                       "glassworks"))] == [5, 10, 4]
    plain = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "seed": 1}).get_json()["state"]
    assert not plain["scenario_state"].get("santa")


def test_the_workshop_gives_one_present_per_player_per_roll(client):
    """WAG-062: each player with a building on the workshop's corners gets one present (one per roll)."""
    cs = hex_corners(WORKSHOP)
    st = santa_pos(settlements=[(0, cs[2]), (0, cs[4]), (1, cs[0])], phase="roll")
    v = ok(adjudicate(client, st, {"type": "roll", "player": 0, "dice": [4, 5]}))
    s2 = after(v)
    assert [p["presents"] for p in s2["players"]] == [1, 1, 0] and s2["scenario_state"]["santa"]["pile"] == 10


def test_an_empty_pile_takes_two_from_the_holder_of_most(client):
    """WAG-064 / R-090: with the pile empty, a player owed a present takes two from the player holding the
    most (ties: the current player first, then clockwise)."""
    cs = hex_corners(WORKSHOP)
    st = santa_pos(pile=0, presents=(0, 3, 3), settlements=[(0, cs[2])], phase="roll")
    s2 = after(ok(adjudicate(client, st, {"type": "roll", "player": 0, "dice": [4, 5]})))
    assert [p["presents"] for p in s2["players"]] == [2, 1, 3]


def test_presents_are_redeemed_on_a_plaza_for_delivery_gold(client):
    """WAG-063 / R-122: each present pays the card's delivery gold, no VP, back to the pile; only on a plaza."""
    st = santa_pos(pile=5, presents=(3, 0, 0), wagons={0: corner(CASTLE, "N")})
    v = ok(adjudicate(client, st, {**move(plaza="castle", draw="tools"), "redeem": 2}))
    s2 = after(v)
    assert s2["players"][0]["presents"] == 1 and s2["players"][0]["gold"] == 7
    assert s2["scenario_state"]["santa"]["pile"] == 7
    assert v["derived"]["victory_points"]["0"]["total"] == 0
    refused(adjudicate(client, st, {**move(path=[corner(CASTLE, "NE")]), "redeem": 1}), "WAG-063", "/action/redeem")
    v = refused(adjudicate(client, wag(wagons={0: corner(CASTLE, "N")}), {**move(plaza="castle"), "redeem": 1}),
                "WAG-063", "/action/redeem")
    assert "Santa's workshop" in v["violations"][0]["message"]        # no workshop, no presents at all
    v = refused(adjudicate(client, st, {**move(plaza="castle", draw="tools"), "redeem": 4}), "WAG-063", "/action/redeem")
    assert "holds 3 presents" in v["violations"][0]["message"]


def test_trade_hexes_produce_with_the_workshop(client):
    """WAG-065: the Castle produces grain (the Quarry brick, the Glassworks lumber)."""
    st = santa_pos(castle_number=5, settlements=[(1, corner(CASTLE, "N"))], phase="roll")
    s2 = after(ok(adjudicate(client, st, {"type": "roll", "player": 0, "dice": [1, 4]})))
    assert s2["players"][1]["resources"]["grain"] == 1


def test_presents_trade_like_cards(client):
    """WAG-064: presents may be traded with other players."""
    st = santa_pos(presents=(2, 0, 0), hands={1: hand(ore=1)})
    v = ok(adjudicate(client, st, {"type": "domestic_trade", "player": 0, "partner": 1, "give": {"presents": 1},
                                   "get": {"ore": 1}, "accepted": True}))
    assert [p["presents"] for p in after(v)["players"]] == [1, 1, 0]


def test_presents_without_the_option_are_a_422(client):
    st = wag()
    st["players"][0]["presents"] = 1
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422 and r.get_json()["errors"][0]["pointer"] == "/state/scenario_state/santa"


def test_the_north_pole_is_refused_naming_r090(client):
    """R-090: the North Pole wild trade hex (WAG-066) and favour tokens (WAG-069) are not played: asking for
    them is a 422 naming R-090."""
    r = client.post("/v1/games", json={"scenario": "WAG", "players": 3, "options": {"north_pole": True}})
    assert r.status_code == 422
    err = r.get_json()["errors"][0]
    assert err["pointer"] == "/options/north_pole" and "R-090" in err["detail"] and "WAG-066" in err["detail"]


@pytest.mark.parametrize("where, value, pointer", [
    ("wagons", {"0": {"node": [40, 40, "N"]}}, "/state/scenario_state/wagons/0/node"),
    ("wagons", {"0": {"node": [2, 0, "N"], "plaza": "castle"}}, "/state/scenario_state/wagons/0"),
    ("bridges", [{"edge": [2, 0, "E"], "player": None}], "/state/scenario_state/bridges/0/edge"),
])
def test_impossible_wagons_and_bridges_are_a_422(client, where, value, pointer):
    """WAG-004: wagons on the board's intersections; R-095: bridges on river paths."""
    st = wag()
    st["scenario_state"][where] = value
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422 and pointer in [e["pointer"] for e in r.get_json()["errors"]], r.get_json()


@pytest.mark.parametrize("action", [
    {"type": "move_wagon", "player": 0, "path": [[40, 40, "N"]]},
    {"type": "move_wagon", "player": 0, "jump": [40, 40, "S"]},
    {"type": "drive_off_barbarian", "player": 0, "hex": [40, 40], "to": [41, 41]},
    {"type": "chase_warship", "player": 0, "owner": 3},
    {"type": "set_toll_policy", "player": 0, "payer": 3, "charge": False},
])
def test_actions_off_the_board_are_refused_not_crashed(client, action):
    v = adjudicate(client, wag(wagons={0: A}), action)
    assert not v["legal"] and v["violations"][0]["rule"].startswith(("WAG-", "BASE-"))
