"""Longest Road (BASE-LR-1..8) and victory (BASE-VP-1..3)."""
from __future__ import annotations

from service.engine.geometry import edge_nodes, hex_sides
from tests.helpers import adjudicate, hand, radius_board, rules, state

SETTLEMENT_CARDS = hand(brick=1, lumber=1, wool=1, grain=1)


def zigzag(q0: int, r: int, n: int) -> list[tuple]:
    """``n`` connected edges along the top of hex row ``r``, from the north-west corner of ``(q0, r)``."""
    out = []
    q = q0
    while len(out) < n:
        out.append((q, r - 1, "SE"))        # north-west side of (q, r)
        if len(out) < n:
            out.append((q, r, "NE"))        # north-east side of (q, r)
        q += 1
    for a, b in zip(out, out[1:]):
        assert set(edge_nodes(a)) & set(edge_nodes(b)), (a, b)
    return out


ROW0 = zigzag(-2, 0, 6)      # nodes: (-2,-1,S) (-2,0,N) (-1,-1,S) (-1,0,N) (0,-1,S) (0,0,N) (1,-1,S)
ROW2 = zigzag(-2, 2, 5)
ROW2_NEXT = zigzag(-2, 2, 6)[5]
ROWM2 = zigzag(0, -2, 5)


def derived_length(client, st, player):
    return adjudicate(client, st, None)["derived"]["longest_road"][str(player)]["length"]


def roads(player, edges):
    return [(player, e) for e in edges]


# -- BASE-LR-1 / BASE-LR-2: the length ---------------------------------------------------------------------

def test_a_route_is_the_longest_trail_and_branches_do_not_add_BASE_LR_1(client):
    """A route is the longest trail and branches do not add (BASE-LR-1)."""
    st = state(radius_board(2), roads=roads(0, ROW0))
    d = adjudicate(client, st, None)["derived"]["longest_road"]["0"]
    assert d["length"] == 6 and len(d["path"]) == 6
    # a branch of 2 off the middle: the longest trail is still 6 (3 + 2 via the branch is shorter)
    branch = [(-1, -1, "E"), (0, -2, "SE")]           # from (-1,0,N) northwards, then on
    st = state(radius_board(2), roads=roads(0, ROW0 + branch))
    assert derived_length(client, st, 0) == 6
    # a fork with three arms of 2 (from (-1,-1,S)): a trail uses two arms, 4, never all 6 edges
    fork = ROW0[:4] + [(-2, 0, "E"), (-2, 1, "NE")]
    st = state(radius_board(2), roads=roads(0, fork))
    assert derived_length(client, st, 0) == 4


def test_a_closed_loop_counts_all_its_edges_and_a_tail_adds_BASE_LR_1(client):
    """A closed loop counts all its edges and a tail adds (BASE-LR-1)."""
    ring = hex_sides((0, 0))
    st = state(radius_board(2), roads=roads(0, ring))
    assert derived_length(client, st, 0) == 6
    tail = [(0, -1, "E")]                              # leaves the ring at (0,0,N)
    st = state(radius_board(2), roads=roads(0, ring + tail))
    d = adjudicate(client, st, None)["derived"]["longest_road"]["0"]
    assert d["length"] == 7 and len(d["path"]) == 7


def test_an_opponents_building_breaks_the_route_but_an_own_one_does_not_BASE_LR_2(client):
    """An opponents building breaks the route but an own one does not (BASE-LR-2)."""
    st = state(radius_board(2), roads=roads(0, ROW0), settlements=[(1, (-1, 0, "N"))])
    assert derived_length(client, st, 0) == 3          # 3 + 3, not joined through (-1,0,N)
    st = state(radius_board(2), roads=roads(0, ROW0), settlements=[(0, (-1, 0, "N"))])
    assert derived_length(client, st, 0) == 6
    st = state(radius_board(2), roads=roads(0, ROW0), settlements=[(1, (-2, -1, "S"))])
    assert derived_length(client, st, 0) == 6          # a route may end at the opponent's building


# -- BASE-LR-3 .. 8: the card ---------------------------------------------------------------------------------

def test_the_first_player_to_reach_five_takes_longest_road_BASE_LR_3(client):
    """The first player to reach five takes longest road (BASE-LR-3)."""
    st = state(radius_board(2), hands={0: hand(brick=2, lumber=2)}, roads=roads(0, ROW0[:3]))
    v = adjudicate(client, st, {"type": "build_road", "player": 0, "edge": list(ROW0[3])})
    assert v["legal"] and v["state"]["awards"]["longest_road"] is None             # 4 is not enough
    v = adjudicate(client, v["state"], {"type": "build_road", "player": 0, "edge": list(ROW0[4])})
    assert v["state"]["awards"]["longest_road"] == 0
    assert {"type": "award", "award": "longest_road", "from": None, "to": 0} in v["events"]
    assert v["derived"]["victory_points"]["0"]["longest_road"] == 2


def test_a_tie_keeps_the_card_with_the_holder_and_only_strictly_longer_takes_it_BASE_LR_4(client):
    """A tie keeps the card with the holder and only strictly longer takes it (BASE-LR-4)."""
    st = state(radius_board(2), current=1, hands={1: hand(brick=2, lumber=2)}, awards={"longest_road": 0},
               roads=roads(0, ROW0[:5]) + roads(1, ROW2[:4]))
    v = adjudicate(client, st, {"type": "build_road", "player": 1, "edge": list(ROW2[4])})
    assert v["legal"] and v["state"]["awards"]["longest_road"] == 0                 # 5 ties 5: holder keeps
    v = adjudicate(client, v["state"], {"type": "build_road", "player": 1, "edge": list(ROW2_NEXT)})
    assert v["legal"], v["violations"]
    assert v["derived"]["longest_road"]["1"]["length"] == 6
    assert v["state"]["awards"]["longest_road"] == 1                                 # 6 beats 5


def break_at(client, st, node, road):
    """Player 2 (the active player), with a road to ``node``, builds a settlement on it."""
    st = dict(st, current_player=2)
    st["players"][2]["resources"] = SETTLEMENT_CARDS
    st["pieces"]["roads"].append({"player": 2, "edge": list(road)})
    v = adjudicate(client, st, {"type": "build_settlement", "player": 2, "node": list(node)})
    assert v["legal"], v["violations"]
    return v


def test_routes_are_recomputed_when_a_settlement_splits_a_road_BASE_LR_5(client):
    """Routes are recomputed when a settlement splits a road (BASE-LR-5)."""
    st = state(radius_board(2), awards={"longest_road": 0}, roads=roads(0, ROW0) + roads(1, ROW2))
    v = break_at(client, st, (-1, 0, "N"), (-1, -1, "E"))
    assert v["derived"]["longest_road"]["0"]["length"] == 3
    assert v["state"]["awards"]["longest_road"] == 1                         # BASE-LR-6(b): the one longest


def test_a_broken_holder_still_tied_for_longest_keeps_the_card_BASE_LR_6_BASE_LR_8(client):
    """A broken holder still tied for longest keeps the card (BASE-LR-6, BASE-LR-8)."""
    st = state(radius_board(2), awards={"longest_road": 0}, roads=roads(0, ROW0) + roads(1, ROW2))
    v = break_at(client, st, (0, 0, "N"), (0, -1, "E"))                      # 6 -> 5 + 1
    assert v["derived"]["longest_road"]["0"]["length"] == 5
    assert v["state"]["awards"]["longest_road"] == 0


def test_the_house_rule_switch_sets_the_card_aside_on_a_broken_tie_BASE_LR_8(client):
    """The house rule switch sets the card aside on a broken tie (BASE-LR-8)."""
    st = state(radius_board(2), awards={"longest_road": 0}, roads=roads(0, ROW0) + roads(1, ROW2),
               options={"lr_broken_tie_holder_keeps": False})
    v = break_at(client, st, (0, 0, "N"), (0, -1, "E"))
    assert v["state"]["awards"]["longest_road"] is None
    # but a plain tie without any break still keeps it with the holder
    st = state(radius_board(2), current=1, hands={1: hand(brick=1, lumber=1)}, awards={"longest_road": 0},
               roads=roads(0, ROW0[:5]) + roads(1, ROW2[:4]), options={"lr_broken_tie_holder_keeps": False})
    v = adjudicate(client, st, {"type": "build_road", "player": 1, "edge": list(ROW2[4])})
    assert v["state"]["awards"]["longest_road"] == 0


def test_others_tying_without_the_broken_holder_set_the_card_aside_BASE_LR_6(client):
    """Others tying without the broken holder set the card aside (BASE-LR-6)."""
    st = state(radius_board(2), awards={"longest_road": 0},
               roads=roads(0, ROW0) + roads(1, ROW2) + roads(2, ROWM2))
    v = break_at(client, st, (-1, 0, "N"), (-1, -1, "E"))
    assert v["derived"]["longest_road"]["1"]["length"] == 5 and v["derived"]["longest_road"]["2"]["length"] == 5
    assert v["state"]["awards"]["longest_road"] is None                              # (c)
    assert {"type": "award", "award": "longest_road", "from": 0, "to": None} in v["events"]


def test_nobody_at_five_sets_the_card_aside_BASE_LR_6(client):
    """Nobody at five sets the card aside (BASE-LR-6)."""
    st = state(radius_board(2), awards={"longest_road": 0}, roads=roads(0, ROW0) + roads(1, ROW2[:4]))
    v = break_at(client, st, (-1, 0, "N"), (-1, -1, "E"))
    assert v["state"]["awards"]["longest_road"] is None                              # (d)


def test_a_set_aside_card_goes_to_the_first_strictly_longest_player_BASE_LR_7(client):
    """A set aside card goes to the first strictly longest player (BASE-LR-7)."""
    st = state(radius_board(2), current=1, hands={1: hand(brick=2, lumber=2)}, awards={"longest_road": None},
               roads=roads(1, ROW2) + roads(2, ROWM2) + roads(0, ROW0[:3]))
    assert derived_length(client, st, 1) == 5 and derived_length(client, st, 2) == 5
    v = adjudicate(client, st, {"type": "end_turn", "player": 1})
    assert v["state"]["awards"]["longest_road"] is None                              # tied: still aside
    v = adjudicate(client, st, {"type": "build_road", "player": 1, "edge": list(ROW2_NEXT)})
    assert v["legal"], v["violations"]
    assert v["state"]["awards"]["longest_road"] == 1


# -- BASE-VP-1..3 ----------------------------------------------------------------------------------------------

FAR_NODES = [(-2, 2, "S"), (2, 0, "S"), (2, -2, "N"), (-2, 0, "N")]


def test_reaching_ten_on_ones_own_turn_wins_at_once_BASE_VP_1(client):
    """Reaching ten on ones own turn wins at once (BASE-VP-1)."""
    st = state(radius_board(2), hands={0: SETTLEMENT_CARDS}, cities=[(0, n) for n in FAR_NODES],
               settlements=[(1, (0, 2, "S"))], roads=[(0, (0, 0, "NE"))])
    assert adjudicate(client, st, None)["derived"]["victory_points"]["0"]["total"] == 8
    st["players"][0]["dev_cards"] = {"victory_point": 1}
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert v["legal"]
    assert v["state"]["winner"] == 0 and v["state"]["phase"] == "game_over"
    assert {"type": "winner", "player": 0} in v["events"]
    after = adjudicate(client, v["state"], {"type": "end_turn", "player": 0})
    assert rules(after) == ["BASE-VP-1"]
    st["players"][0]["dev_cards"] = {}
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]})
    assert v["state"]["winner"] is None                                              # 9 is not enough


def test_ten_points_reached_in_another_players_turn_win_at_the_start_of_ones_own_BASE_VP_2_BASE_VP_3(client):
    """Ten points reached in another players turn win at the start of ones own (BASE-VP-2, BASE-VP-3)."""
    # player 2 holds Longest Road; player 0 (active) splits it, player 1 takes the card and reaches 10
    cities1 = [(1, n) for n in FAR_NODES]
    st = state(radius_board(2), current=0, hands={0: SETTLEMENT_CARDS}, awards={"longest_road": 2},
               roads=roads(2, ROW0) + roads(1, zigzag(-1, 2, 5)) + [(0, (-1, -1, "E"))], cities=cities1)
    assert adjudicate(client, st, None)["derived"]["longest_road"]["1"]["length"] == 5
    v = adjudicate(client, st, {"type": "build_settlement", "player": 0, "node": [-1, 0, "N"]})
    assert v["legal"], v["violations"]
    assert v["state"]["awards"]["longest_road"] == 1
    assert v["derived"]["victory_points"]["1"]["total"] == 10
    assert v["state"]["winner"] is None and v["state"]["phase"] == "main"           # not player 1's turn
    v = adjudicate(client, v["state"], {"type": "end_turn", "player": 0})
    assert v["state"]["current_player"] == 1
    assert v["state"]["winner"] == 1 and v["state"]["phase"] == "game_over"         # checked at turn start
