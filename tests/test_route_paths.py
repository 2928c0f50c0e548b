"""Networks without a junction of three pieces (most networks of a game) are folded and walked in one
pass (``routes._paths``), the others handed over to the general search with the keys found so far: the
same longest trail and the same witness, piece for piece, as the exhaustive search (BASE-LR-1: a loop
counts all its edges; BASE-LR-2: an opponent's building breaks the line; SEA-022: a road and a ship join
only at the player's own building)."""
from __future__ import annotations

import random

import pytest

from service.engine import routes
from service.engine.geometry import hex_sides
from tests.route_networks import PLAYER, Net, board, mutate, random_net
from tests.route_oracle import longest_route_oracle

G = board()


def _check(net: Net) -> bool:
    """The one-pass answer equals the exhaustive search's; True when no node joins three pieces."""
    got = routes._paths(net.owners, G.edge_node_ids, PLAYER, net.eids)
    want = longest_route_oracle(net.owners, G, PLAYER, net.eids)
    assert (len(got), routes._edges(G.edges, net.eids, got)) == want, net.describe(G)
    adj, _ = routes._fold(net.owners, G.edge_node_ids, PLAYER, net.eids)
    return max(map(len, adj)) <= 2


@pytest.mark.parametrize("seed", range(3))
def test_small_networks_of_several_parts_BASE_LR_1_BASE_LR_2_SEA_022(seed):
    """One to three parts of 2-9 roads and ships, own and opponent buildings scattered, shuffled."""
    rnd = random.Random(300 + seed)
    simple = 0
    for _ in range(1500):
        net = random_net(rnd, G, rnd.randint(2, 9))
        simple += _check(net)
        simple += _check(mutate(rnd, G, net))
    assert 1000 < simple < 2900                         # most take the one-pass walk, some the hand-over


def test_two_pieces_BASE_LR_2_SEA_022():
    """Two pieces: joined where they meet, unless an opponent's building stands there, or a road meets a
    ship away from the player's own building."""
    e1, e2 = G.edge_index[(0, 0, "E")], G.edge_index[(0, 0, "NE")]
    (a, b), (c, d) = G.edge_node_ids[e1], G.edge_node_ids[e2]
    (shared,) = {a, b} & {c, d}
    for x, y, owners, joined in [
        (e1, e2, {}, True),
        (e2, e1, {}, True),
        (e1, e2, {shared: PLAYER}, True),
        (e1, e2, {shared: 1}, False),                   # BASE-LR-2
        (e1, ~e2, {}, False),                           # SEA-022: a road and a ship, no building
        (~e1, e2, {shared: PLAYER}, True),              # SEA-022: they meet at the own building
        (~e1, ~e2, {}, True),
        (~e1, ~e2, {shared: 2}, False),
        (e1, G.edge_index[(3, 3, "E")], {}, False),     # apart
    ]:
        net = Net([x, y], owners)
        assert _check(net)
        assert len(routes._paths(owners, G.edge_node_ids, PLAYER, [x, y])) == (2 if joined else 1)


def test_a_loop_and_a_loop_broken_by_an_opponent_BASE_LR_1_BASE_LR_2():
    sides = [G.edge_index[e] for e in hex_sides((0, 0))]
    rnd = random.Random(4)
    for _ in range(20):
        order = sides[:]
        rnd.shuffle(order)
        assert _check(Net(order, {}))
        assert len(routes._paths({}, G.edge_node_ids, PLAYER, order)) == 6          # BASE-LR-1
        node = rnd.choice([n for x in order for n in G.edge_node_ids[x]])
        assert _check(Net(order, {node: 1}))
        assert len(routes._paths({node: 1}, G.edge_node_ids, PLAYER, order)) == 6   # a chain round to it
