"""Every per-process cache is bounded in bytes as well as entries: the engine's memos (``memo.py``), the
graph LRU (``cache.py``) and the rendered pictures (``render/cache.py``); the bounds come from the
configuration (MEMO_MB, GRAPH_CACHE_MB, RENDER_CACHE_MB)."""
from __future__ import annotations

import random

from service.cache import LRU, GraphCache, graph_bytes
from service.engine import memo, routes
from service.engine.mapgraph import MapGraph


def _board(radius: int, salt: int) -> dict:
    return {(q, r): ("forest" if (q * 7 + r * 3 + salt) % 4 else "sea")
            for q in range(-radius, radius + 1) for r in range(-radius, radius + 1) if abs(q + r) <= radius}


def test_a_memo_drops_its_oldest_entries_to_stay_within_its_bytes():
    d: dict = {}
    for k in range(100):
        memo.bounded_put(d, k, "x" * 1000, max_bytes=20_000)
    assert memo.held_bytes(d) <= 20_000 and 10 <= len(d) < 100
    assert 99 in d and 0 not in d                         # the newest kept, the oldest gone
    memo.bounded_put(d, "huge", "x" * 50_000, max_bytes=20_000)
    assert "huge" not in d                                # larger than the whole bound: not kept
    d.clear()
    memo.bounded_put(d, "a", "x" * 100, max_bytes=20_000)
    assert memo.held_bytes(d) < 1000                      # cleared memos start counting afresh


def test_a_memo_counts_what_its_entries_hold():
    small = memo.approx_bytes((1, 2, 3))
    big = memo.approx_bytes(tuple(range(1000, 2000)))
    assert big > 20 * small
    board = {"hexes": [{"q": i, "r": -i, "terrain": "forest", "number": 6} for i in range(400)]}
    assert memo.approx_bytes(board) > 400 * 200           # a long list measured by a sample, scaled up


def test_the_route_memo_stays_within_its_bytes(monkeypatch):
    monkeypatch.setattr(memo, "MEMO_BYTES", 50_000)
    from tests.route_networks import board, random_net
    g = board()
    rnd = random.Random(1)
    routes.clear_memo()
    for _ in range(400):
        net = random_net(rnd, g)
        routes.route_of(g, 0, net.eids, net.owners, frozenset(net.owners.items()))
    assert 0 < memo.held_bytes(routes._MEMO) <= 50_000 and len(routes._MEMO) < 400
    routes.clear_memo()


def test_the_graph_lru_is_bounded_in_bytes():
    graphs = [MapGraph.build(_board(6, s)) for s in range(6)]
    one = graph_bytes(graphs[0])
    lru = LRU(size=100, max_bytes=3 * one)
    for i, g in enumerate(graphs):
        lru.put(i, g)
    assert len(lru) == 3 and lru.held <= 3 * one
    assert lru.get(5) is graphs[5] and lru.get(0) is None
    tiny = LRU(size=100, max_bytes=1)                     # never less than the graph just put
    tiny.put("a", graphs[0])
    assert tiny.get("a") is graphs[0]


def test_a_graph_is_counted_by_the_size_of_its_board():
    small, large = MapGraph.build(_board(2, 0)), MapGraph.build(_board(11, 0))
    assert graph_bytes(large) > 20 * graph_bytes(small) // 2


def test_the_bounds_come_from_the_configuration():
    from service.api import create_app
    from service.render import cache as pictures
    try:
        app = create_app({"TESTING": True, "GRAPH_CACHE_MB": 3, "MEMO_MB": 2, "RENDER_CACHE_MB": 1})
        assert app.extensions["graph_cache"].lru.max_bytes == 3 << 20
        assert memo.MEMO_BYTES == 2 << 20 and pictures._CACHE.max_bytes == 1 << 20
        c = GraphCache.from_config({"GRAPH_CACHE_MB": "0.5"})
        assert c.lru.max_bytes == 1 << 19 and c.describe()["l1_max_bytes"] == 1 << 19
    finally:
        create_app({"TESTING": True})                     # the defaults again
    assert memo.MEMO_BYTES == 8 << 20 and pictures._CACHE.max_bytes == 16 << 20
