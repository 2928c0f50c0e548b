"""The bounded trade-route search gives what the exhaustive search gave: the same length and the same
witness trail, piece for piece (a verdict's bytes include the witness), on thousands of random and
adversarial networks (BASE-LR-1, BASE-LR-2, SEA-021, SEA-022). The exhaustive search is kept unchanged in
``tests/route_oracle.py`` as the oracle."""
from __future__ import annotations

import random

import pytest

from service.engine import routes
from tests.route_networks import (PLAYER, Net, board, cluster_net, flower, flower_sides, mutate, random_net)
from tests.route_oracle import longest_route_oracle

G = board()


def _same(net: Net) -> None:
    got = routes._longest_route(net.owners, G, PLAYER, net.eids)
    want = longest_route_oracle(net.owners, G, PLAYER, net.eids)
    assert got == want, net.describe(G)


@pytest.mark.parametrize("seed", range(4))
def test_random_networks_BASE_LR_1_BASE_LR_2_SEA_022(seed):
    rnd = random.Random(seed)
    for i in range(500):
        _same(random_net(rnd, G) if i % 3 else random_net(rnd, G, rnd.randint(20, 30)))


@pytest.mark.parametrize("seed", range(2))
def test_dense_clusters_of_roads_and_ships_SEA_021(seed):
    rnd = random.Random(100 + seed)
    for _ in range(400):
        _same(cluster_net(rnd, G))


def test_flowers_with_own_buildings_where_roads_meet_ships_SEA_022():
    """Every side of seven hexes (30 pieces, 12 junctions): ships and roads in many mixes, the player's own
    buildings where they meet (or anywhere the distance rule allows)."""
    rnd = random.Random(7)
    inner, outer = flower_sides(G)
    sides = inner + outer
    for i in range(300):
        ships = frozenset(rnd.sample(sides, rnd.choice([0, 8, 15, 15, 15, 22, 30])))
        net = flower(G, ships=ships, own_everywhere=i % 4 == 0)
        rnd.shuffle(net.eids)
        _same(net)


def test_networks_found_by_walking_away_from_hard_shapes():
    """Chains of small changes (what the hill-climb in bench/trade_route.py does) from flowers and dense
    clusters: pieces added, taken, turned; buildings of the player and of others put and taken."""
    rnd = random.Random(11)
    inner, outer = flower_sides(G)
    for walk in range(30):
        net = flower(G, ships=frozenset(rnd.sample(outer, 15))) if walk % 2 else cluster_net(rnd, G, 7)
        for _ in range(25):
            net = mutate(rnd, G, net)
            _same(net)


def test_the_same_answers_when_the_bounds_give_up(monkeypatch):
    """The bounds' searches have step budgets; out of steps they fall back to weaker bounds, never to
    another answer."""
    rnd = random.Random(3)
    nets = [cluster_net(rnd, G, 7) for _ in range(40)] + [random_net(rnd, G, 30) for _ in range(40)]
    for budget in (0, 5):
        monkeypatch.setattr(routes, "PARITY_BUDGET", budget)
        monkeypatch.setattr(routes, "ENDS_BUDGET", budget)
        for net in nets:
            _same(net)


def test_the_bound_is_never_below_the_longest_trail():
    rnd = random.Random(5)
    for i in range(600):
        net = random_net(rnd, G) if i % 2 else cluster_net(rnd, G)
        adj, ends = routes._fold(net.owners, G.edge_node_ids, PLAYER, net.eids)
        links, _ = routes._links(adj, ends, list(range(len(adj))))
        if links:
            n, _ = longest_route_oracle(net.owners, G, PLAYER, net.eids)
            assert routes._bound([(a, b, ln) for a, b, ln, _ in links], 0) >= n, net.describe(G)


def test_folded_trees_keep_every_trail_within_the_bound():
    """A tree folds away entirely: its bound is its longest trail (a path between two of its leaves)."""
    # a spider: three legs of lengths 3, 2 and 1 from one node, and a fork at the end of the longest
    links = [(0, 1, 3), (0, 2, 2), (0, 3, 1), (1, 4, 1), (1, 5, 2)]
    core, inside = routes._fold_trees(links)
    assert core == [] and inside == 7                  # 5 -> 1 -> 0 -> 2: 2 + 3 + 2


def test_the_public_search_agrees_through_the_memo():
    rnd = random.Random(9)
    inner, outer = flower_sides(G)
    for _ in range(20):
        net = flower(G, ships=frozenset(rnd.sample(outer, 15)))
        bkey = frozenset(net.owners.items())
        routes.clear_memo()
        first = routes.route_of(G, PLAYER, net.eids, net.owners, bkey)
        again = routes.route_of(G, PLAYER, net.eids, net.owners, bkey)
        n, path = longest_route_oracle(net.owners, G, PLAYER, net.eids)
        assert first == again == (n, path)
