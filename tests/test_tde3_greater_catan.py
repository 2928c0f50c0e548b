"""TD&E scenario 3 "Greater Catan" (TDE3-001..015): the default maps against what the text states, the
set-up, pieces and end, and the impoverishment rule (TDE3-009..014, R-026, R-027, R-063) it shares with
the Seafarers book's Greater Catan (SC11), with its own rule IDs and drop order."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from service.api.codec import dump_state
from service.engine.core import Action
from service.engine.derive import victory_points
from service.engine.geometry import canonical_edge, canonical_node, edge_hexes, node_hexes
from service.engine.legal import legal_actions
from service.engine.mapgraph import MapGraph
from service.engine.modules.tde3_greater_catan.maps import (MAPS, NUMBERS_3P, RESERVE, STATED, stated_problems)
from service.engine.modules.tde3_greater_catan.scenario import TDE3_TOKENS
from service.engine.referee import adjudicate
from service.engine.scenarios import get_scenario
from service.engine.scenarios._sc_tokens import SC11_TOKENS, candidates, seeded_draw, settle_tokens, token_choices
from service.engine.scenarios.base import no_adjacent_reds
from service.engine.scenarios.components import check_components, count_components, counts, hidden_pile_of
from service.engine.state import Tile

from .helpers import adjudicate as api_adjudicate
from .helpers import rules as api_rules

SCEN = get_scenario("TDE3")


def judge(st, type_, player, **params):
    return adjudicate(st, Action(type_, player, params), MapGraph.build(st.terrain_map()), SCEN)


def play(st, type_, player, **params):
    v = judge(st, type_, player, **params)
    assert v.legal, v.violations
    return v.state, v


def rules(v):
    return [x.rule for x in v.violations]


def give(st, player, **cards):
    for r, n in cards.items():
        st.players[player].resources[r] = st.players[player].resources.get(r, 0) + n
        st.bank[r] -= n


def cells(n, ch):
    return [h for h, c in MAPS[n].cells().items() if c == ch]


# -- maps (R-054) ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize("seed", range(1, 13))
def test_default_maps_hold_every_stated_number(n, seed):
    """TDE3-003 (home island), TDE3-004 (R-062: 20 / 26 new-island hexes face up, no tokens), TDE3-005
    (4 / 5 reserve tokens), TDE3-008 (R-062: robber on the home desert, 3 players off the board; pirate
    on x): every seed's board holds what the text states, and the component tables."""
    st = SCEN.new_game(n, seed)
    assert stated_problems(st) == []
    assert check_components(SCEN, n, st) == []
    home = cells(n, "m")
    new = cells(n, "n")
    assert len(new) == STATED[n]["new_area"] == {3: 20, 4: 26}[n]
    assert all(st.hexes[h].number is None for h in new)
    assert sum(1 for h in home if st.hexes[h].terrain != "sea") == {3: 14, 4: 19}[n]
    assert sorted(st.scenario_state["token_pile"]) == sorted(counts_list(RESERVE[n]))
    assert len(st.scenario_state["token_pile"]) == {3: 4, 4: 5}[n]
    numbers = {h: st.hexes[h].number for h in home if st.hexes[h].number is not None}
    assert no_adjacent_reds(numbers)                                   # BASE-COMP-8 on the home island
    if n == 3:
        assert st.robber is None                                       # TDE3-008 / R-062: off the board
        assert numbers == NUMBERS_3P                                   # TDE3-003: tokens as illustrated
        assert not any(st.hexes[h].terrain == "desert" for h in st.hexes)
    else:
        assert st.hexes[st.robber].terrain == "desert" and st.robber in home
        assert sorted(numbers.values()) == [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]
    assert st.pirate == MAPS[n].pirate and st.hexes[st.pirate].terrain == "sea"
    assert all(all(st.hexes[h].terrain == "sea" for h in cells(n, "s")) for _ in [0])   # fixed sea


def counts_list(table):
    return [k for k, v in table.items() for _ in range(v)]


@pytest.mark.parametrize("n", [3, 4])
def test_random_parts_vary_by_seed_and_fixed_parts_do_not(n):
    """TDE3-003: the home island's land is laid at random (3 players: tokens fixed); TDE3-004: the new
    islands are shuffled into the grey area; the sea hexes are placed as shown."""
    boards = [SCEN.new_game(n, s) for s in range(1, 6)]
    home, new, sea = cells(n, "m"), cells(n, "n"), cells(n, "s")
    assert len({tuple(b.hexes[h].terrain for h in home) for b in boards}) > 1
    assert len({tuple(b.hexes[h].terrain for h in new) for b in boards}) > 1
    assert all(b.hexes[h].terrain == "sea" for b in boards for h in sea)
    if n == 3:
        assert all({h: b.hexes[h].number for h in home} == NUMBERS_3P for b in boards)


@pytest.mark.parametrize("n", [3, 4])
def test_the_stated_numbers_check_catches_a_wrong_board(n):
    """TDE3-004 / TDE3-005 / TDE3-003: the validator fails a board that breaks a stated number."""
    st = SCEN.new_game(n, 2)
    new = cells(n, "n")
    land = next(h for h in new if st.hexes[h].terrain != "sea")
    st.hexes = {**st.hexes, land: Tile(st.hexes[land].terrain, 5)}
    st.scenario_state["token_pile"] = st.scenario_state["token_pile"][1:]
    got = {rule for rule, _ in stated_problems(st)}
    assert {"TDE3-004", "TDE3-005"} <= got
    st2 = SCEN.new_game(n, 2)
    h = next(h for h in cells(n, "m") if st2.hexes[h].number is not None)
    st2.hexes = {**st2.hexes, h: Tile(st2.hexes[h].terrain, None)}
    assert "TDE3-003" in {rule for rule, _ in stated_problems(st2)}
    # the component-table count sees the token missing from the board too
    assert check_components(SCEN, n, st2) and check_components(SCEN, n, st2)[0].rule == "TDE3-004"


def test_component_count_is_board_plus_reserve_as_tokens_move():
    """TDE3-005/009: a reserve token laid on a new island keeps board + reserve equal to the table."""
    st = SCEN.new_game(3, 4)
    new = cells(3, "n")
    land = next(h for h in new if st.hexes[h].terrain != "sea")
    pile = list(st.scenario_state["token_pile"])
    st.hexes = {**st.hexes, land: Tile(st.hexes[land].terrain, pile.pop())}
    st.scenario_state["token_pile"] = pile
    found = count_components(st.hexes, st.harbors, hidden_pile_of(st))
    assert found["tokens"] == counts(list(NUMBERS_3P.values()) + counts_list(RESERVE[3]))
    assert check_components(SCEN, 3, st) == []


# -- players, pieces, set-up, end --------------------------------------------------------------------------

def test_three_or_four_players(client):
    """TDE3-002: 3 or 4 players; a 2-player position is refused naming the rule."""
    assert SCEN.players == (3, 4)
    for n in (3, 4):
        r = client.post("/v1/games", json={"scenario": "TDE3", "players": n, "seed": 1})
        assert r.status_code in (200, 201), r.get_json()
    st = dump_state(SCEN.new_game(3, 1))
    st["players"] = st["players"][:2]
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422
    assert "TDE3-002" in str(r.get_json())


def test_the_reserve_holds_only_its_tokens(client):
    """TDE3-005: a posted reserve holding a token the scenario's reserve never had is refused (422 naming
    the key)."""
    st = dump_state(SCEN.new_game(3, 1))
    st["scenario_state"]["token_pile"] = [6]
    r = client.post("/v1/adjudicate", json={"state": st, "action": None})
    assert r.status_code == 422
    body = r.get_json()
    assert any(e["pointer"] == "/state/scenario_state/token_pile" and "TDE3-005" in e["detail"]
               for e in body["errors"]), body


def test_eight_cities_each():
    """TDE3-006 (R-028): 4 extra cities: 8 in each player's supply, and a 5th city may be built."""
    st = SCEN.new_game(4, 1)
    assert all(p.supply["cities"] == 8 for p in st.players)
    st = main_phase(SCEN.new_game(4, 3))
    mine = [n for n, (p, _) in st.buildings.items() if p == 0]
    for node in mine:
        st.buildings[node] = (0, "city")
    # four cities stand (the set-up two and two more, posted): with the base game's 4 the next is refused
    st.players[0].supply["cities"] = 8 - len(mine)
    for _ in range(4 - len(mine)):
        more = free_site(st, 0)
        st.buildings[more] = (0, "city")
        st.players[0].supply["cities"] -= 1
    free = free_site(st, 0)
    st.buildings[free] = (0, "settlement")
    st.players[0].supply["settlements"] -= 1
    assert st.players[0].supply["cities"] == 4
    give(st, 0, grain=2, ore=3)
    st2, _ = play(st, "build_city", 0, node=free)
    assert st2.buildings[free] == (0, "city") and st2.players[0].supply["cities"] == 3
    st.players[0].supply["cities"] = 0
    assert rules(judge(st, "build_city", 0, node=free)) == ["BASE-COMP-1"]


def free_site(st, player):
    """A free intersection on the home island, far enough from every building (for a posted settlement)."""
    g = MapGraph.build(st.terrain_map())
    home = SCEN.home(st)
    for i, n in enumerate(g.nodes):
        if not g.node_land[i] or n in st.buildings or not any(h in home for h in node_hexes(n)):
            continue
        if any(m in st.buildings for m in neighbours(g, n)):
            continue
        return n
    raise AssertionError("no free site")


def neighbours(g, n):
    from service.engine.geometry import edge_nodes, node_edges
    return [m for e in node_edges(n) for m in edge_nodes(e) if m != n]


def setup_random(st, seed=1):
    """Both set-up rounds by the legal-action list (seeded), as a client would play them."""
    from service.engine.legal import random_action
    from service.engine.rng import Rng
    rng = Rng(seed, 7)
    g = MapGraph.build(st.terrain_map())
    while st.phase == "setup":
        a = random_action(legal_actions(st, g, SCEN, st.current_player), rng)
        v = adjudicate(st, a, g, SCEN)
        assert v.legal, v.violations
        st = v.state
    return st


def main_phase(st):
    st = setup_random(st)
    st.flags.rolled = True
    st.phase = "main"
    return st


def test_starting_settlements_on_the_home_island_and_a_coastal_one_may_take_a_ship():
    """TDE3-007: both starting settlements on the home island (a new-island site is refused); a coastal
    starting settlement may take a ship instead of its road."""
    st = SCEN.new_game(4, 5)
    g = MapGraph.build(st.terrain_map())
    home = SCEN.home(st)
    away = next(n for i, n in enumerate(g.nodes) if g.node_land[i]
                and not any(h in home for h in node_hexes(n)))
    v = judge(st, "build_settlement", 0, node=away)
    assert rules(v) == ["TDE3-007"]
    coastal = next(n for i, n in enumerate(g.nodes) if g.node_land[i]
                   and any(h in home for h in node_hexes(n))
                   and any(st.hexes.get(h) is not None and st.hexes[h].terrain == "sea" for h in node_hexes(n))
                   and judge(st, "build_settlement", 0, node=n).legal)
    st, _ = play(st, "build_settlement", 0, node=coastal)
    from service.engine.geometry import node_edges
    ship_edge = next(e for e in node_edges(coastal) if judge(st, "build_ship", 0, edge=e).legal)
    st2, _ = play(st, "build_ship", 0, edge=ship_edge)
    assert st2.ships[ship_edge] == 0


def test_base_and_seafarers_rules_apply():
    """TDE3-001: the Seafarers rules hold in this scenario: a ship costs 1 lumber + 1 wool (SEA-006) and
    none may be placed beside the pirate (SEA-032)."""
    st = main_phase(SCEN.new_game(3, 2))
    assert {"build_ship", "move_ship", "move_pirate"} <= SCEN.action_types()
    g = MapGraph.build(st.terrain_map())
    give(st, 0, lumber=1, wool=1)
    ships = legal_actions(st, g, SCEN, 0).actions.get("build_ship") or []
    assert ships
    edge = ships[0].get("edge")
    st.players[0].resources["wool"] = 0
    st.bank["wool"] += 1
    assert rules(judge(st, "build_ship", 0, edge=edge)) == ["SEA-006"]
    st.players[0].resources["wool"] = 1
    st.bank["wool"] -= 1
    st.pirate = next(h for h in edge_hexes(edge) if st.hexes.get(h) and st.hexes[h].terrain == "sea")
    assert rules(judge(st, "build_ship", 0, edge=edge)) == ["SEA-032"]


def test_eighteen_points_on_the_own_turn_win():
    """TDE3-015: 18 VP win, on the player's own turn (R-003)."""
    assert SCEN.vp_target == 18
    st = main_phase(SCEN.new_game(4, 6))
    for node, (p, _) in list(st.buildings.items()):
        if p == 0:
            st.buildings[node] = (0, "city")
            st.players[0].supply["cities"] -= 1
            st.players[0].supply["settlements"] += 1
    st.players[0].dev_cards["victory_point"] = 0
    base = victory_points(st, SCEN, 0)["total"]
    st.players[0].svp = 0
    st.players[0].dev_cards["victory_point"] = 17 - base - 1
    st.dev_deck["victory_point"] = 0
    assert victory_points(st, SCEN, 0)["total"] == 16
    node = free_site_with_road(st, 0)
    give(st, 0, lumber=1, brick=1, wool=1, grain=1)
    st2, v = play(st, "build_settlement", 0, node=node)
    assert st2.winner is None                                          # 17: not yet
    st.players[0].dev_cards["victory_point"] += 1                     # 18 with the settlement
    st3, v = play(st, "build_settlement", 0, node=node)
    assert st3.winner == 0 and st3.phase == "game_over"


def free_site_with_road(st, player):
    """A site for ``player``'s next settlement: a road is placed (posted) from one of his buildings."""
    g = MapGraph.build(st.terrain_map())
    from service.engine.geometry import edge_nodes, node_edges
    home = SCEN.home(st)
    for b, (p, _) in list(st.buildings.items()):
        if p != player:
            continue
        for e1 in node_edges(b):
            if e1 not in g.edge_index or g.edge_kind[g.edge_index[e1]] != "land" or e1 in st.roads or e1 in st.ships:
                continue
            mid = next(n for n in edge_nodes(e1) if n != b)
            for e2 in node_edges(mid):
                if e2 == e1 or e2 not in g.edge_index or g.edge_kind[g.edge_index[e2]] != "land" \
                        or e2 in st.roads or e2 in st.ships:
                    continue
                end = next(n for n in edge_nodes(e2) if n != mid)
                if end in st.buildings or any(m in st.buildings for m in neighbours(g, end)) \
                        or not any(h in home for h in node_hexes(end)):
                    continue
                st.roads[e1] = player
                st.roads[e2] = player
                st.players[player].supply["roads"] -= 2
                return end
    raise AssertionError("no site two roads away")


# -- impoverishment on a small board ----------------------------------------------------------------------
#
# Row 0 is the home island, row 1 sea, row 2 a small island: (0, 2) has no token, (1, 2) carries an 8.
# Player 0 has a settlement at (0, 1, N) touching (0, 0) and (1, 0), and two ships reaching (0, 2, N);
# a ship on (0, 1, SE) then lies beside (0, 2) (TDE3-009, R-027).

HOME_ROW = {(0, 0): ("forest", 6), (1, 0): ("hills", 8), (2, 0): ("fields", 5), (3, 0): ("pasture", 9)}
X = canonical_node(0, 1, "N")
THEIRS = canonical_node(2, 0, "N")
SHIPS = [canonical_edge(0, 1, "NE"), canonical_edge(0, 1, "E")]
EDGE = canonical_edge(0, 1, "SE")
DEST = (0, 2)


def small_state(pile=(), home=None, buildings=None, players=3):
    st = SCEN.new_game(players, 9)
    hexes = {}
    for q in range(-2, 6):
        for r in range(-1, 4):
            hexes[(q, r)] = Tile("sea")
    for h, (t, n) in (home or HOME_ROW).items():
        hexes[h] = Tile(t, n)
    hexes[DEST] = Tile("forest")
    hexes[(1, 2)] = Tile("hills", 8)
    st.hexes = hexes
    st.harbors = {}
    st.robber = None
    st.pirate = None
    st.buildings = dict(buildings if buildings is not None else {X: (0, "settlement"), THEIRS: (1, "settlement")})
    st.roads, st.ships = {}, {e: 0 for e in SHIPS}
    for i, p in enumerate(st.players):
        p.supply["settlements"] = 5 - sum(1 for (o, _) in st.buildings.values() if o == i)
        p.supply["ships"] = 15 - sum(1 for o in st.ships.values() if o == i)
    st.scenario_state = {"islands": {"home": [list(h) for h in (home or HOME_ROW)]}, "mainland": "home",
                         "token_pile": list(pile)}
    st.phase, st.turn, st.current_player = "main", 9, 0
    st.flags.rolled = True
    give(st, 0, lumber=2, wool=2)
    return st


def test_a_road_or_ship_beside_a_tokenless_hex_draws_from_the_reserve():
    """TDE3-009 (R-027, R-063): the ship beside the tokenless (0, 2) takes a token drawn blind from the
    reserve, by the seeded generator: the same draw every time, and the reserve shrinks."""
    st = small_state([4, 5, 9, 10])
    st2, v = play(st, "build_ship", 0, edge=EDGE)
    n = st2.hexes[DEST].number
    assert n in (4, 5, 9, 10) and sorted(st2.scenario_state["token_pile"] + [n]) == [4, 5, 9, 10]
    ev = [e for e in v.events if e["type"] == "number_token_placed"]
    assert ev == [{"type": "number_token_placed", "player": 0, "hex": [0, 2], "from": "reserve", "number": n}]
    assert play(st, "build_ship", 0, edge=EDGE)[0].hexes[DEST].number == n
    assert st.hexes[DEST].number is None and st.scenario_state["token_pile"] == [4, 5, 9, 10]   # not mutated
    assert v.derived["impoverishment"]["reserve_left"] == 3


def test_an_empty_reserve_moves_a_home_island_token():
    """TDE3-010: with the reserve empty a home-island token moves to the hex; naming a hex that is not a
    numbered home-island hex, or more hexes than the placement moves, is refused with TDE3-010."""
    st = small_state([])
    st2, v = play(st, "build_ship", 0, edge=EDGE)
    moved = next(e for e in v.events if e["type"] == "number_token_placed")
    src = tuple(moved["from"])
    assert src in HOME_ROW and st2.hexes[src].number is None and st2.hexes[DEST].number == HOME_ROW[src][1]
    assert rules(judge(st, "build_ship", 0, edge=EDGE, token_from=[[1, 2]])) == ["TDE3-010"]
    assert rules(judge(st, "build_ship", 0, edge=EDGE, token_from=[[0, 0], [1, 0]])) == ["TDE3-010"]
    assert v.derived["impoverishment"]["home_blank"] == [list(src)]


def test_limitation_1_red_tokens_apart_on_the_small_islands():
    """TDE3-011: while another token meets every limitation, a 6 or 8 may not come next to the small
    island's 8."""
    home = dict(HOME_ROW)
    home[(1, 0)] = ("hills", 4)                      # player 0's hexes: the 6 and a 4
    st = small_state([], home=home)
    v = judge(st, "build_ship", 0, edge=EDGE, token_from=[[0, 0]])
    assert rules(v) == ["TDE3-011"]
    assert "red" in v.violations[0].message
    st2, v = play(st, "build_ship", 0, edge=EDGE)
    assert st2.hexes[DEST].number == 4


def test_limitation_2_only_from_a_hex_at_an_own_building():
    """TDE3-012: the token comes from a hex next to one of the placer's settlements or cities."""
    home = dict(HOME_ROW)
    home[(1, 0)] = ("hills", 4)
    st = small_state([], home=home)
    v = judge(st, "build_ship", 0, edge=EDGE, token_from=[[3, 0]])
    assert rules(v) == ["TDE3-012"]


def test_limitation_3_no_home_building_left_without_production():
    """TDE3-013: the only numbered hex of a home-island building (here player 1's (2, 0)) may not be
    taken; a player's own hex neither, when it is his building's last."""
    home = dict(HOME_ROW)
    home[(0, 0)] = ("forest", 4)
    home[(1, 0)] = ("hills", None)                   # player 0's settlement at X keeps only (0, 0)
    home[(4, 0)] = ("mountains", 10)
    blds = {X: (0, "settlement"), THEIRS: (1, "settlement"), canonical_node(3, 1, "N"): (0, "settlement")}
    st = small_state([], home=home, buildings=blds)
    # player 0's second settlement (3, 1, N) touches (3, 0) and (4, 0): either may go
    v = judge(st, "build_ship", 0, edge=EDGE, token_from=[[0, 0]])
    assert rules(v) == ["TDE3-013"]
    v = judge(st, "build_ship", 0, edge=EDGE, token_from=[[2, 0]])
    assert rules(v) == ["TDE3-013"]
    st2, v = play(st, "build_ship", 0, edge=EDGE)
    assert next(e for e in v.events if e["type"] == "number_token_placed")["from"] == [3, 0]


def test_limitations_are_broken_in_the_order_1_2_3():
    """TDE3-014 (R-026): when no token meets all three limitations they are broken one after another in
    the order 1 (red), 2 (own), 3 (production): here both of player 0's hexes are red and the small
    island already has an 8, so the TD&E rule lets a red come from player 0's hexes (limitation 1
    broken), where the Seafarers book's order (SC11-013: own first) would take player 1's side's 9."""
    st = small_state([])
    hexes, home = st.hexes, SCEN.home(st)
    tde, keep, _ = candidates(hexes, home, st.buildings, 0, DEST, TDE3_TOKENS.drop_order)
    sc11, keep11, _ = candidates(hexes, home, st.buildings, 0, DEST, SC11_TOKENS.drop_order)
    assert tde == [(0, 0), (1, 0)] and keep == {"OWN", "PROD"}
    assert sc11 == [(3, 0)] and keep11 == {"RED", "PROD"}
    st2, v = play(st, "build_ship", 0, edge=EDGE, token_from=[[1, 0]])
    ev = next(e for e in v.events if e["type"] == "number_token_placed")
    assert ev["from"] == [1, 0] and ev["number"] == 8 and ev["limits_dropped"] == ["TDE3-011"]
    assert st2.hexes[DEST].number == 8                                  # two 8s side by side: allowed now
    v = judge(st, "build_ship", 0, edge=EDGE, token_from=[[3, 0]])
    assert rules(v) == ["TDE3-012"] and "TDE3-014" in v.violations[0].message
    # next: player 0's only hex would be his last numbered one: 1 and 2 broken, 3 holds (not player 1's 5)
    home2 = dict(HOME_ROW)
    home2[(1, 0)] = ("hills", None)
    st = small_state([], home=home2)
    got, keep, _ = candidates(st.hexes, SCEN.home(st), st.buildings, 0, DEST, TDE3_TOKENS.drop_order)
    assert got == [(3, 0)] and keep == {"PROD"}
    d = SCEN.derived_extra(st, MapGraph.build(st.terrain_map()))["impoverishment"]
    assert d["next_sources"]["0,2"] == {"from": [[3, 0]], "limits_dropped": ["TDE3-011", "TDE3-012"]}
    # last: every token breaks limitation 3 as well: any home-island token may move
    home3 = {(0, 0): ("forest", 6), (1, 0): ("hills", None), (2, 0): ("fields", 5), (3, 0): ("pasture", None)}
    st = small_state([], home=home3)
    got, keep, _ = candidates(st.hexes, SCEN.home(st), st.buildings, 0, DEST, TDE3_TOKENS.drop_order)
    assert keep == set() and got == [(0, 0), (2, 0)]


def test_no_token_can_move_leaves_the_hex_blank():
    """TDE3-010 (R-026): with no token on the home island the hex stays without one."""
    home = {h: (t, None) for h, (t, _) in HOME_ROW.items()}
    st = small_state([], home=home)
    st2, v = play(st, "build_ship", 0, edge=EDGE)
    assert st2.hexes[DEST].number is None
    assert [e["from"] for e in v.events if e["type"] == "number_token_placed"] == [None]
    assert v.derived["impoverishment"]["unproductive"] == [list(THEIRS), list(X)]   # north to south


def test_the_reserve_runs_out_in_the_middle_of_road_building():
    """TDE3-009 then TDE3-010: Road Building's two ships beside two tokenless hexes: the first takes the
    reserve's last token, the second a home-island token."""
    st = small_state([10])
    st.hexes[(-1, 2)] = Tile("pasture")
    st.players[0].dev_cards["road_building"] = 1
    second = canonical_edge(0, 1, "SW")
    pieces = [{"kind": "ship", "edge": EDGE}, {"kind": "ship", "edge": second}]
    st2, v = play(st, "play_road_building", 0, pieces=pieces)
    ev = [e for e in v.events if e["type"] == "number_token_placed"]
    assert [e["from"] == "reserve" for e in ev][:1] == [True]
    assert any(isinstance(e["from"], list) for e in ev)
    assert st2.scenario_state["token_pile"] == []


# -- legal actions ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("pile", [[], [10]])
def test_listed_token_choices_are_exactly_the_accepted_ones(pile):
    """TDE3-010..014: every ``token_from`` listed for the placement is judged legal, and exactly the
    choices the referee accepts are listed (a reserve emptied on the way included)."""
    st = small_state(pile)
    st.hexes[(-1, 2)] = Tile("pasture")
    st.players[0].dev_cards["road_building"] = 1
    g = MapGraph.build(st.terrain_map())
    la = legal_actions(st, g, SCEN, 0)
    listed = [a for t in ("build_ship", "play_road_building") for a in la.actions.get(t, [])
              if a.get("token_from")]
    assert listed
    for a in listed:
        v = adjudicate(st, a, g, SCEN)
        assert v.legal, (a, v.violations)
        moved = [tuple(e["from"]) for e in v.events if e["type"] == "number_token_placed"
                 and isinstance(e["from"], list)]
        assert moved == [tuple(h) for h in a.get("token_from")]
    ship = [a for a in listed if a.type == "build_ship" and a.get("edge") == EDGE]
    choices = sorted(a.get("token_from") for a in ship)
    numbered = sorted(h for h, (t, n) in HOME_ROW.items() if n)
    action = Action("build_ship", 0, {"edge": EDGE})
    accepted = []
    for c in numbered:
        _, problems = settle_tokens(st, SCEN.home(st), Action("build_ship", 0, {"edge": EDGE, "token_from": [c]}),
                                    seeded_draw(st), rules=TDE3_TOKENS)
        if not problems and not pile:
            accepted.append([c])
    assert choices == sorted(accepted) == sorted(token_choices(st, SCEN.home(st), action, TDE3_TOKENS))


def test_every_listed_action_of_a_played_position_is_legal():
    """TDE3-009..014 with the whole list: from a set-up board with the reserve empty and ships near a
    new island, every listed action is judged legal by adjudicate."""
    st = impoverished_position()
    g = MapGraph.build(st.terrain_map())
    la = legal_actions(st, g, SCEN, 0)
    with_choice = [a for acts in la.actions.values() for a in acts if a.get("token_from")]
    assert with_choice
    for acts in la.actions.values():
        for a in acts[:60]:
            v = adjudicate(st, a, g, SCEN)
            assert v.legal, (a, v.violations)


def impoverished_position(n=4, seed=3):
    """A set-up default board, main phase, reserve empty; player 0 has ships one edge short of a
    tokenless new-island hex, and resources for a ship."""
    st = main_phase(SCEN.new_game(n, seed))
    st.scenario_state["token_pile"] = []
    st.current_player = 0
    g = MapGraph.build(st.terrain_map())
    home = SCEN.home(st)
    from service.engine.geometry import edge_nodes, node_edges
    from collections import deque
    starts = [b for b, (p, _) in st.buildings.items() if p == 0]
    prev = {s: None for s in starts}
    queue = deque(starts)
    target = None
    while queue and target is None:
        node = queue.popleft()
        for e in node_edges(node):
            eid = g.edge_index.get(e)
            if eid is None or g.edge_kind[eid] not in ("sea", "coast") or e in st.ships or e in st.roads:
                continue
            if st.pirate in edge_hexes(e):
                continue
            hs = [h for h in edge_hexes(e) if h in st.hexes and st.hexes[h].terrain not in ("sea", "frame")]
            if hs and all(h not in home for h in hs) and node not in starts:
                target = (node, e)
                break
            if hs:
                continue
            nxt = next(m for m in edge_nodes(e) if m != node)
            if nxt not in prev and nxt not in st.buildings:
                prev[nxt] = (node, e)
                queue.append(nxt)
    node, last = target
    while prev[node] is not None:
        node, e = prev[node]
        st.ships[e] = 0
        st.players[0].supply["ships"] -= 1
    give(st, 0, lumber=3, wool=3)
    return st


# -- derived values and events against their declarations ------------------------------------------------

def test_derived_values_and_events_match_their_declarations():
    """TDE3-009/010: the ``impoverishment`` derived value and the ``number_token_placed`` events have the
    shapes the module declares (DERIVED, EVENTS)."""
    from service.engine.spec import F, Int, Obj, Str
    comp = SCEN.composition
    st = small_state([])
    st2, v = play(st, "build_ship", 0, edge=EDGE, token_from=[[1, 0]])
    assert comp.derived.problems({k: v.derived[k] for k in comp.derived.fields}, "/derived") == []
    for ev in v.events:
        if ev["type"] == "number_token_placed":
            spec = comp.events[ev["type"]]
            shape = Obj({"type": F(Str(), required=True), **spec.fields})
            assert shape.problems(ev, "/events/0") == []
    d = v.derived["impoverishment"]
    assert d["reserve_left"] == 0 and d["home_tokens"] == 3 and d["home_blank"] == [[1, 0]]
    assert d["awaiting"] == [] and d["next_sources"] == {}


def test_derived_through_the_api(client):
    """TDE3-005/009: the API's verdict reports the impoverishment value on the default board."""
    st = dump_state(SCEN.new_game(3, 1))
    out = api_adjudicate(client, st, None)
    d = out["derived"]["impoverishment"]
    assert d["reserve_left"] == 4 and d["home_tokens"] == 14 and d["home_blank"] == []
    assert len(d["awaiting"]) == 13 and d["next_sources"] == {} and d["unproductive"] == []


def test_token_choice_refused_through_the_api(client):
    """TDE3-012 through POST /v1/adjudicate: the violation names the rule and /action/token_from."""
    home = dict(HOME_ROW)
    home[(1, 0)] = ("hills", 4)
    posted = dump_state(small_state([], home=home))
    out = api_adjudicate(client, posted, {"type": "build_ship", "player": 0, "edge": list(EDGE),
                                          "token_from": [[3, 0]]})
    assert api_rules(out) == ["TDE3-012"] and out["violations"][0]["path"] == "/action/token_from"


# -- replay and random play ------------------------------------------------------------------------------

def test_replay_of_impoverishing_play(client):
    """TDE3-009/010 through POST /v1/replay: seeded random play from an impoverished position replays to
    the same bytes, and a token choice breaking limitation 2 is named as the first illegal action."""
    from service.api.replay import state_digest
    from service.engine.legal import action_json, random_action
    from service.engine.rng import Rng
    st = impoverished_position()
    g = MapGraph.build(st.terrain_map())
    rng = Rng(5, 0)
    log, states, moved = [], [st], 0
    cur = st
    while len(log) < 40:
        la = legal_actions(cur, g, SCEN)
        choice = [a for acts in la.actions.values() for a in acts if a.get("token_from")]
        a = choice[0] if choice and moved == 0 else random_action(la, rng)
        v = adjudicate(cur, a, g, SCEN)
        assert v.legal
        moved += sum(1 for e in v.events if e["type"] == "number_token_placed")
        log.append(action_json(a))
        cur = v.state
        states.append(cur)
        if cur.phase == "game_over":
            break
    assert moved >= 1
    r = client.post("/v1/replay", json={"state": dump_state(st), "actions": log})
    out = r.get_json()
    assert r.status_code == 200 and out["all_legal"], out.get("first_illegal")
    assert out["final"]["digest"] == state_digest(states[-1])
    i = next(k for k, a in enumerate(log) if a.get("token_from"))
    bad = dict(log[i])
    src = [h for h, t in st.hexes.items() if h in SCEN.home(st) and t.number is not None
           and not any(b[0] == 0 for n, b in st.buildings.items() if h in node_hexes(n))]
    bad["token_from"] = [list(src[0])]
    out = client.post("/v1/replay", json={"state": dump_state(st), "actions": log[:i] + [bad]}).get_json()
    assert out["first_illegal"]["index"] == i
    assert set(out["first_illegal"]["rules"]) & {"TDE3-012", "TDE3-011", "TDE3-013"}


@pytest.mark.parametrize("n", [3, 4])
def test_random_play_keeps_every_invariant(n):
    """TDE3-001..015 under seeded random play: every listed action legal, every invariant held, the log
    replaying to the same final position."""
    from service.api.replay import canonical_json
    from service.engine.selfplay import play_game
    g = play_game("TDE3", n, 11, max_actions=150, dump=canonical_json)
    assert g.failures == []


# -- example positions (shared format, tests/fixtures/examples/cases/tde3-*.json) ---------------------------------

EXAMPLES = sorted((Path(__file__).parent / "fixtures" / "examples" / "cases").glob("tde3-*.json"))


def test_there_are_tde3_examples():
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_position(client, path):
    """TDE3-007, TDE3-009..014 (R-026, R-027, R-063): each example position gets the verdict, the rule and
    the derived values it states."""
    from .examples_adapter import compare, derived_values, to_action, to_state
    example = json.loads(path.read_text(encoding="utf-8"))
    assert example["context"]["scenario"] == "TDE3"
    posted = to_state(example)
    verdict = api_adjudicate(client, posted, to_action(example))
    expect = example["expect"]
    assert verdict["legal"] is expect["legal"], (example["id"], verdict["violations"])
    if not expect["legal"]:
        assert api_rules(verdict)[0] in {expect["rule"], *expect.get("also_acceptable_rules", [])}
    got = derived_values(example, posted, verdict)
    for key, want in (expect.get("derived") or {}).items():
        value = got[key] if key in got else verdict["derived"][key]
        assert compare(key, want, value), (example["id"], key, want, value)
