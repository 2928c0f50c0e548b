"""The map-graph cache without a Redis server: LRU, circuit breaker, fallbacks with a failing client."""
from __future__ import annotations

import json
import time

import pytest

from service.cache import LRU, CircuitBreaker, GraphCache, redis_from_url
from service.engine.mapgraph import GRAPH_FORMAT, MapGraph, board_key

BOARD = {(0, 0): "forest", (1, 0): "sea", (0, 1): "hills", (-1, 0): "frame"}
OTHER = {(0, 0): "pasture", (1, 0): "sea"}


class FailingRedis:
    """A client whose every call raises, counting the calls."""

    def __init__(self, exc: Exception = ConnectionError("refused")) -> None:
        self.exc, self.calls = exc, 0

    def getrange(self, key, start, end):
        self.calls += 1
        raise self.exc

    def set(self, key, value, ex=None):
        self.calls += 1
        raise self.exc

    def ping(self):
        self.calls += 1
        raise self.exc


class DictRedis:
    """An in-memory stand-in with the three calls the cache makes."""

    def __init__(self) -> None:
        self.data: dict[str, bytes] = {}
        self.reads: list[str] = []

    def getrange(self, key, start, end):
        self.reads.append(key)
        return self.data.get(key, b"")[start:end + 1]

    def set(self, key, value, ex=None):
        self.data[key] = value.encode() if isinstance(value, str) else value

    def ping(self):
        return True


def same_graph(a: MapGraph, b: MapGraph) -> bool:
    return a.to_dict() == b.to_dict()


def test_lru_evicts_the_least_recently_used():
    lru = LRU(2)
    g = MapGraph.build(BOARD)
    lru.put("a", g), lru.put("b", g)
    assert lru.get("a") is g  # a is now the most recent
    lru.put("c", g)
    assert lru.get("b") is None and lru.get("a") is g and lru.get("c") is g and len(lru) == 2


def test_key_is_order_independent_and_carries_the_format_version():
    k = board_key(BOARD)
    assert k == board_key(dict(reversed(list(BOARD.items()))))
    assert k.startswith(f"mapgraph:v{GRAPH_FORMAT}:") and k != board_key(OTHER)


def test_breaker_opens_half_opens_with_one_probe_and_closes():
    t = [0.0]
    b = CircuitBreaker(threshold=3, cooldown=2.0, clock=lambda: t[0])
    for _ in range(2):
        b.failure()
    assert b.state == "closed" and b.allow()
    b.failure()
    assert b.state == "open" and not b.allow()
    t[0] = 2.5
    assert b.state == "half-open" and b.allow() and not b.allow()
    b.failure()  # the probe failed: open for another cool-down
    assert b.state == "open" and not b.allow()
    t[0] = 5.0
    assert b.allow()
    b.success()
    assert b.state == "closed" and b.allow() and b.allow()


def test_breaker_gives_up_a_probe_that_never_reported():
    t = [0.0]
    b = CircuitBreaker(threshold=1, cooldown=1.0, clock=lambda: t[0])
    b.failure()
    t[0] = 1.0
    assert b.allow() and not b.allow()
    t[0] = 2.1
    assert b.allow()


def test_no_redis_counts_miss_then_l1_hits():
    c = GraphCache()
    g = c.get(BOARD)
    assert same_graph(g, MapGraph.build(BOARD))
    assert c.get(dict(BOARD)) is g and c.get(OTHER) is not g
    assert (c.stats["miss"], c.stats["l1_hit"], c.stats["l2_hit"]) == (2, 1, 0)
    assert c.redis_state() == "disabled"


def test_level_two_serves_a_graph_another_instance_computed():
    shared = DictRedis()
    a, b = GraphCache(shared, prefix="p:", hmac_key=b"k"), GraphCache(shared, prefix="p:", hmac_key=b"k")
    ga = a.get(BOARD)
    assert list(shared.data) == ["p:" + board_key(BOARD)]
    gb = b.get(BOARD)
    assert b.stats["l2_hit"] == 1 and b.stats["miss"] == 0 and same_graph(ga, gb)
    assert b.get(BOARD) is gb and b.stats["l1_hit"] == 1


@pytest.mark.parametrize("raw", [
    b"\x80\x04not json at all",
    b'{"format": 1}',
    b"[]",
    json.dumps({**MapGraph.build(BOARD).to_dict(), "format": GRAPH_FORMAT + 1}).encode(),
    json.dumps(MapGraph.build(OTHER).to_dict()).encode(),  # a valid graph of another board
])
def test_a_bad_entry_is_ignored_recomputed_and_overwritten(raw):
    r = DictRedis()
    key = "p:" + board_key(BOARD)
    r.data[key] = raw
    c = GraphCache(r, prefix="p:")
    g = c.get(BOARD)
    assert same_graph(g, MapGraph.build(BOARD))
    assert c.stats["corrupt"] == 1 and c.stats["miss"] == 1 and c.stats["redis_error"] == 0
    assert same_graph(MapGraph.from_dict(c.unseal(key, r.data[key])), g)


def land_as_sea(board):
    """The graph of ``board`` with every land edge turned to sea: well formed, and wrong."""
    d = MapGraph.build(board).to_dict()
    d["edge_kind"] = ["sea" if k == "land" else k for k in d["edge_kind"]]
    return d


def test_an_entry_not_signed_with_the_key_is_refused_even_when_well_formed():
    r, key = DictRedis(), "p:" + board_key(BOARD)
    forger = GraphCache(r, prefix="p:", hmac_key=b"not the key")
    r.data[key] = forger.seal(key, MapGraph.from_dict(land_as_sea(BOARD)))
    c = GraphCache(r, prefix="p:", hmac_key=b"the key")
    assert same_graph(c.get(BOARD), MapGraph.build(BOARD))
    assert c.stats["corrupt"] == 1 and c.stats["l2_hit"] == 0
    assert same_graph(c.lru.get(frozenset(BOARD.items())), MapGraph.build(BOARD))   # level 1 kept the good one


def test_an_entry_moved_from_another_key_is_refused():
    r = DictRedis()
    c = GraphCache(r, prefix="p:", hmac_key=b"k")
    c.get(OTHER)
    other_key, key = "p:" + board_key(OTHER), "p:" + board_key(BOARD)
    r.data[key] = r.data[other_key]     # a genuine entry, at the wrong key
    fresh = GraphCache(r, prefix="p:", hmac_key=b"k")
    assert same_graph(fresh.get(BOARD), MapGraph.build(BOARD)) and fresh.stats["corrupt"] == 1


def test_an_oversized_entry_is_never_read_whole():
    r, key = DictRedis(), "p:" + board_key(BOARD)
    r.data[key] = b"SGv1" + b"x" * 5_000_000
    c = GraphCache(r, prefix="p:", hmac_key=b"k", max_entry_bytes=64 * 1024)
    assert same_graph(c.get(BOARD), MapGraph.build(BOARD))
    assert c.stats["corrupt"] == 1 and r.reads == [key]
    assert len(r.data[key]) < 64 * 1024   # overwritten by the computed graph


def test_a_failing_redis_opens_the_breaker_and_stops_being_called():
    bad = FailingRedis()
    c = GraphCache(bad, breaker=CircuitBreaker(threshold=3, cooldown=60))
    boards = [{(0, 0): t, (1, 0): "sea"} for t in ("forest", "hills", "pasture", "fields", "mountains", "desert")]
    graphs = [c.get(b) for b in boards]
    assert all(same_graph(g, MapGraph.build(b)) for g, b in zip(graphs, boards))
    assert bad.calls == 3  # one failed GET per request (no SET after it), then the breaker is open
    assert c.stats["redis_error"] == 3 and c.stats["redis_skipped"] == 3 and c.breaker.state == "open"
    assert c.redis_state() == "down" and bad.calls == 3  # no ping while open


def test_listeners_see_events_and_cannot_break_a_lookup():
    seen = []
    c = GraphCache()
    c.listeners.append(seen.append)
    c.listeners.append(lambda e: 1 / 0)
    c.get(BOARD), c.get(BOARD)
    assert seen == ["miss", "l1_hit"]


def test_from_config_reads_settings():
    c = GraphCache.from_config({"REDIS_URL": None, "GRAPH_CACHE_SIZE": 7, "REDIS_BREAKER_THRESHOLD": 2,
                                "REDIS_BREAKER_COOLDOWN": 0.5, "REDIS_KEY_PREFIX": "x:"})
    assert c.redis is None and c.lru.size == 7 and c.breaker.threshold == 2 and c.breaker.cooldown == 0.5
    assert c.prefix == "x:"


def test_client_has_short_timeouts_and_no_retries():
    r = redis_from_url("redis://127.0.0.1:1/0", 0.05)
    kw = r.connection_pool.connection_kwargs
    assert kw["socket_timeout"] == 0.05 and kw["socket_connect_timeout"] == 0.05
    t = time.perf_counter()
    with pytest.raises(Exception):
        r.get("k")  # nothing listens on port 1: refused at once, not retried
    assert time.perf_counter() - t < 0.5


# -- reading a damaged entry -------------------------------------------------------------------------------

def _damage_paths(d, path=()):
    """Every place in a to_dict() value: (path, value)."""
    yield path, d
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _damage_paths(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d[:3]) if len(d) > 3 else enumerate(d):
            yield from _damage_paths(v, path + (i,))
        if len(d) > 3:
            yield from _damage_paths(d[-1], path + (len(d) - 1,))


def _replace(d, path, value):
    d = json.loads(json.dumps(d))
    target = d
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    return d


_SAMPLE = MapGraph.build({(0, 0): "forest", (1, 0): "sea", (0, 1): "hills", (1, -1): "gold", (-1, 0): "frame",
                          (-1, 1): "pasture", (0, -1): "sea"}).to_dict()
_DAMAGES = [None, True, -1, 10_000, "x", 1.5, [], {}, [1], ["N"], [0, 0, "Q"]]


@pytest.mark.parametrize("path", [p for p, _ in _damage_paths(_SAMPLE) if p and p != ("format",)])
def test_a_damaged_entry_reads_as_the_graph_or_as_a_value_error(path):
    """Any one value of an entry replaced by a wrong one: the entry is refused with ValueError (the cache
    then builds the graph), or, where the replacement is still a consistent graph, reads as exactly that."""
    for bad in _DAMAGES:
        damaged = _replace(_SAMPLE, path, bad)
        try:
            g = MapGraph.from_dict(damaged)
        except ValueError:
            continue
        assert g.to_dict() == damaged, (path, bad)   # accepted only when it says what it read


def test_an_entry_reads_back_to_the_graph_it_was_written_from():
    g = MapGraph.build(BOARD)
    assert same_graph(MapGraph.from_dict(json.loads(json.dumps(g.to_dict()))), g)
