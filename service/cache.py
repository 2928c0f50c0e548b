"""The map-graph cache: level 1 an in-process LRU (always on), level 2 Redis when configured.

The graph is derived from the board's hexes alone. Level 1 is keyed by the hex list itself (as a
frozenset); Redis by its content hash (:func:`service.engine.mapgraph.board_key`, which carries the
serialisation format version), computed only when level 1 misses. Entries
are compact JSON (never pickle: a Redis shared with others is not trusted). Redis is optional and never
on the critical path for correctness:

* every Redis call has a short socket timeout and no retries (``redis_from_url``);
* any Redis error, timeout or unreadable entry falls back to computing the graph, so answers are
  identical with Redis up, slow, down or absent;
* a circuit breaker stops asking a Redis that keeps failing, and lets a single probe through after a
  cool-down, so the service recovers by itself when Redis comes back;
* an entry that does not decode, or decodes to a graph of another board, is ignored, recomputed and
  overwritten.

>>> c = GraphCache()
>>> g = c.get({(0, 0): "forest", (1, 0): "sea"})
>>> c.get({(1, 0): "sea", (0, 0): "forest"}) is g, c.stats["l1_hit"], c.stats["miss"]
(True, 1, 1)
"""
from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any, Callable, Hashable, Mapping, Optional

import orjson

from .engine.mapgraph import MapGraph, board_key
from .engine.memo import ByteLRU

log = logging.getLogger("seafarers.cache")

#: Counters kept by :class:`GraphCache` (also reported to listeners, see ``GraphCache.listeners``).
STAT_NAMES = ("l1_hit", "l2_hit", "miss", "corrupt", "redis_error", "redis_skipped")


#: Bytes a map graph holds per hex of its board (measured with tracemalloc: about 1.8 kB per hex from
#: 37 to 400 hexes), and besides.
GRAPH_BYTES_PER_HEX = 2048
GRAPH_BYTES_BASE = 4096


def graph_bytes(g: MapGraph) -> int:
    """What a map graph is counted as in the LRU (a little more than it holds)."""
    return GRAPH_BYTES_BASE + GRAPH_BYTES_PER_HEX * len(g.terrain)


class LRU:
    """A thread-safe least-recently-used map of board key -> graph, bounded in entries (``size``) and
    in bytes (``max_bytes``, each graph counted by :func:`graph_bytes`; the graph just put always stays)."""

    def __init__(self, size: int = 256, max_bytes: int = 32 << 20) -> None:
        self.size = max(1, int(size))
        self.max_bytes = max(0, int(max_bytes))
        self._lru = ByteLRU(self.max_bytes, self.size)

    def get(self, key: Hashable) -> Optional[MapGraph]:
        return self._lru.get(key)

    def put(self, key: Hashable, g: MapGraph) -> None:
        self._lru.put(key, g, min(graph_bytes(g), self.max_bytes))

    @property
    def held(self) -> int:
        return self._lru.held

    def __len__(self) -> int:
        return len(self._lru)


class CircuitBreaker:
    """Closed -> open after ``threshold`` consecutive failures; after ``cooldown`` seconds half-open.

    Half-open lets exactly one call through (the probe); its success closes the breaker, its failure
    opens it for another cool-down. A probe that never reports (its thread died) is given up after
    another cool-down so the breaker cannot stick half-open.

    >>> t = [0.0]
    >>> b = CircuitBreaker(threshold=2, cooldown=1.0, clock=lambda: t[0])
    >>> b.failure(); b.allow(), b.state
    (True, 'closed')
    >>> b.failure(); b.allow(), b.state
    (False, 'open')
    >>> t[0] = 1.5
    >>> b.allow(), b.allow(), b.state   # one probe only
    (True, False, 'half-open')
    >>> b.success(); b.state
    'closed'
    """

    def __init__(self, threshold: int = 3, cooldown: float = 5.0, clock: Callable[[], float] = time.monotonic):
        self.threshold, self.cooldown, self.clock = max(1, int(threshold)), float(cooldown), clock
        self.failures = 0
        self.opened_at: Optional[float] = None
        self.probe_at: Optional[float] = None
        self.lock = threading.Lock()

    def allow(self) -> bool:
        with self.lock:
            if self.opened_at is None:
                return True
            now = self.clock()
            if now - self.opened_at < self.cooldown:
                return False
            if self.probe_at is not None and now - self.probe_at < self.cooldown:
                return False  # a probe is already out
            self.probe_at = now
            return True

    def success(self) -> None:
        with self.lock:
            self.failures = 0
            self.opened_at = None
            self.probe_at = None

    def failure(self) -> None:
        with self.lock:
            self.failures += 1
            if self.opened_at is not None or self.failures >= self.threshold:
                self.opened_at = self.clock()
                self.probe_at = None

    @property
    def state(self) -> str:
        with self.lock:
            if self.opened_at is None:
                return "closed"
            return "half-open" if self.clock() - self.opened_at >= self.cooldown else "open"


def _env(config: Mapping[str, Any], key: str, default: str) -> str:
    v = config.get(key)
    return str(v) if v is not None else os.environ.get(key, default)


class GraphCache:
    """``get(terrain) -> MapGraph`` through the LRU, then Redis, then :meth:`MapGraph.build`.

    ``listeners`` are called as ``listener(event)`` with an event of :data:`STAT_NAMES` (metrics hook
    in); they must be cheap and must not raise.
    """

    def __init__(self, redis_client: Any = None, lru_size: int = 256, ttl: int = 86400,
                 breaker: Optional[CircuitBreaker] = None, prefix: str = "seafarers:",
                 lru_bytes: int = 32 << 20) -> None:
        self.lru = LRU(lru_size, lru_bytes)
        self.redis = redis_client
        self.ttl = int(ttl)
        self.prefix = prefix
        self.breaker = breaker or CircuitBreaker()
        self.stats = {k: 0 for k in STAT_NAMES}
        self.stats_lock = threading.Lock()
        self.listeners: list[Callable[[str], None]] = []

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> "GraphCache":
        """Build from a Flask config (keys as below), falling back to the environment, then defaults.

        ``REDIS_CLIENT`` (a ready client, for tests) or ``REDIS_URL``; ``REDIS_TIMEOUT`` seconds per
        call (0.05); ``REDIS_TTL`` seconds (86400); ``REDIS_KEY_PREFIX`` ("seafarers:");
        ``REDIS_BREAKER_THRESHOLD`` consecutive failures (3); ``REDIS_BREAKER_COOLDOWN`` seconds (5);
        ``GRAPH_CACHE_SIZE`` graphs in the LRU (256); ``GRAPH_CACHE_MB`` megabytes they may hold
        together (32: some 45 graphs of the largest boards, 400 hexes, or the 256 of boards of 37 hexes).
        """
        client = config.get("REDIS_CLIENT")
        url = config["REDIS_URL"] if "REDIS_URL" in config else os.environ.get("REDIS_URL")
        timeout = float(_env(config, "REDIS_TIMEOUT", "0.05"))
        if client is None and url:
            client = redis_from_url(url, timeout)
        breaker = CircuitBreaker(int(_env(config, "REDIS_BREAKER_THRESHOLD", "3")),
                                 float(_env(config, "REDIS_BREAKER_COOLDOWN", "5")))
        return cls(client, int(_env(config, "GRAPH_CACHE_SIZE", "256")), int(_env(config, "REDIS_TTL", "86400")),
                   breaker, _env(config, "REDIS_KEY_PREFIX", "seafarers:"),
                   int(float(_env(config, "GRAPH_CACHE_MB", "32")) * (1 << 20)))

    # -- bookkeeping ----------------------------------------------------------------------------------
    def _count(self, k: str) -> None:
        with self.stats_lock:
            self.stats[k] += 1
        for f in self.listeners:
            try:
                f(k)
            except Exception:  # a metrics hook must never break a request
                log.debug("cache listener failed", exc_info=True)

    def _redis_failed(self, op: str, e: Exception) -> None:
        self._count("redis_error")
        self.breaker.failure()
        log.warning("redis %s failed: %s (circuit %s)", op, e.__class__.__name__, self.breaker.state,
                    extra={"redis_op": op, "error": e.__class__.__name__})

    # -- the lookup -------------------------------------------------------------------------------------
    def get(self, terrain: Mapping) -> MapGraph:
        # Level 1 is keyed by the board itself (a frozenset of its (hex, terrain) pairs: hashed in C, and
        # compared in full on a hit, so two boards never share an entry); the content hash that names
        # the Redis entry is only computed when level 1 misses.
        local = frozenset(terrain.items())
        g = self.lru.get(local)
        if g is not None:
            self._count("l1_hit")
            return g
        key = board_key(terrain) if self.redis is not None else ""
        g, redis_ok = self._redis_get(key, terrain)
        if g is not None:
            self._count("l2_hit")
            self.lru.put(local, g)
            return g
        self._count("miss")
        g = MapGraph.build(terrain)
        self.lru.put(local, g)
        if redis_ok:  # not when the GET just failed: one request spends at most one timeout
            self._redis_put(key, g)
        return g

    def _redis_get(self, key: str, terrain: Mapping) -> tuple[Optional[MapGraph], bool]:
        """(graph or None, whether Redis may be written to)."""
        if self.redis is None:
            return None, False
        if not self.breaker.allow():
            self._count("redis_skipped")
            return None, False
        try:
            raw = self.redis.get(self.prefix + key)
        except Exception as e:  # any Redis trouble: compute instead
            self._redis_failed("get", e)
            return None, False
        self.breaker.success()
        if raw is None:
            return None, True
        try:
            g = MapGraph.from_dict(orjson.loads(raw))
            if g.terrain != dict(terrain):
                raise ValueError("entry is the graph of another board")
        except Exception as e:
            self._count("corrupt")
            log.warning("unreadable cache entry ignored: %s", e.__class__.__name__, extra={"cache_key": key})
            return None, True
        return g, True

    def _redis_put(self, key: str, g: MapGraph) -> None:
        if not self.breaker.allow():
            self._count("redis_skipped")
            return
        try:
            self.redis.set(self.prefix + key, orjson.dumps(g.to_dict()), ex=self.ttl)
        except Exception as e:
            self._redis_failed("set", e)
            return
        self.breaker.success()

    # -- readiness ----------------------------------------------------------------------------------------
    def redis_state(self) -> str:
        """``disabled`` (no Redis configured), ``up``, or ``down`` (also while the breaker is open).

        Pings at most once (bounded by the socket timeout), and only when the breaker lets a call through,
        so a readiness probe doubles as the breaker's recovery probe.
        """
        if self.redis is None:
            return "disabled"
        if not self.breaker.allow():
            return "down"
        try:
            self.redis.ping()
        except Exception as e:
            self._redis_failed("ping", e)
            return "down"
        self.breaker.success()
        return "up"

    def describe(self) -> dict[str, Any]:
        with self.stats_lock:
            stats = dict(self.stats)
        return {"l1_entries": len(self.lru), "l1_size": self.lru.size, "l1_bytes": self.lru.held,
                "l1_max_bytes": self.lru.max_bytes, "circuit": self.breaker.state, **stats}


def redis_from_url(url: str, timeout: float = 0.05):
    """A redis-py client with short connect/read timeouts and no retries (its defaults retry 3 times)."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                retry_on_timeout=False, retry=Retry(NoBackoff(), 0),
                                health_check_interval=0, max_connections=64)
