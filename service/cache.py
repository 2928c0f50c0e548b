"""The map-graph cache: level 1 an in-process LRU (always on), level 2 Redis when configured.

The graph is derived from the board's hexes alone and keyed by their content hash
(:func:`service.engine.mapgraph.board_key`). Entries are JSON (never pickle). Redis is optional: any
Redis error or timeout falls back to computing, and a circuit breaker stops asking a dead Redis.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from typing import Callable, Optional

from .engine.mapgraph import MapGraph, board_key

log = logging.getLogger("seafarers.cache")


class LRU:
    def __init__(self, size: int = 256) -> None:
        self.size = size
        self.data: OrderedDict[str, MapGraph] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> Optional[MapGraph]:
        with self.lock:
            g = self.data.get(key)
            if g is not None:
                self.data.move_to_end(key)
            return g

    def put(self, key: str, g: MapGraph) -> None:
        with self.lock:
            self.data[key] = g
            self.data.move_to_end(key)
            while len(self.data) > self.size:
                self.data.popitem(last=False)


class CircuitBreaker:
    """Open after ``threshold`` consecutive failures; half-open again after ``cooldown`` seconds."""

    def __init__(self, threshold: int = 3, cooldown: float = 5.0, clock: Callable[[], float] = time.monotonic):
        self.threshold, self.cooldown, self.clock = threshold, cooldown, clock
        self.failures = 0
        self.opened_at: Optional[float] = None
        self.lock = threading.Lock()

    def allow(self) -> bool:
        with self.lock:
            if self.opened_at is None:
                return True
            if self.clock() - self.opened_at >= self.cooldown:
                return True  # half-open: let one call try
            return False

    def success(self) -> None:
        with self.lock:
            self.failures = 0
            self.opened_at = None

    def failure(self) -> None:
        with self.lock:
            self.failures += 1
            if self.failures >= self.threshold:
                self.opened_at = self.clock()

    @property
    def state(self) -> str:
        if self.opened_at is None:
            return "closed"
        return "half-open" if self.clock() - self.opened_at >= self.cooldown else "open"


class GraphCache:
    def __init__(self, redis_client=None, lru_size: int = 256, ttl: int = 86400,
                 breaker: Optional[CircuitBreaker] = None) -> None:
        self.lru = LRU(lru_size)
        self.redis = redis_client
        self.ttl = ttl
        self.breaker = breaker or CircuitBreaker()
        self.stats = {"l1_hit": 0, "l2_hit": 0, "miss": 0, "redis_error": 0}
        self.stats_lock = threading.Lock()

    def _count(self, k: str) -> None:
        with self.stats_lock:
            self.stats[k] += 1

    def get(self, terrain: dict) -> MapGraph:
        key = board_key(terrain)
        g = self.lru.get(key)
        if g is not None:
            self._count("l1_hit")
            return g
        g = self._redis_get(key)
        if g is not None:
            self._count("l2_hit")
            self.lru.put(key, g)
            return g
        self._count("miss")
        g = MapGraph.build(terrain)
        self.lru.put(key, g)
        self._redis_put(key, g)
        return g

    def _redis_get(self, key: str) -> Optional[MapGraph]:
        if self.redis is None or not self.breaker.allow():
            return None
        try:
            raw = self.redis.get(key)
            self.breaker.success()
        except Exception as e:  # any Redis trouble: compute instead
            self._count("redis_error")
            self.breaker.failure()
            log.warning("redis get failed: %s", e.__class__.__name__)
            return None
        if raw is None:
            return None
        try:
            return MapGraph.from_dict(json.loads(raw))
        except Exception:
            log.warning("corrupt cache entry %s ignored", key)
            return None

    def _redis_put(self, key: str, g: MapGraph) -> None:
        if self.redis is None or not self.breaker.allow():
            return
        try:
            self.redis.set(key, json.dumps(g.to_dict(), separators=(",", ":")), ex=self.ttl)
            self.breaker.success()
        except Exception as e:
            self._count("redis_error")
            self.breaker.failure()
            log.warning("redis set failed: %s", e.__class__.__name__)

    def redis_state(self) -> str:
        if self.redis is None:
            return "disabled"
        if self.breaker.state == "open":
            return "down"
        try:
            self.redis.ping()
            self.breaker.success()
            return "up"
        except Exception:
            self.breaker.failure()
            return "down"


def redis_from_url(url: str, timeout: float = 0.05):
    import redis
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                retry_on_timeout=False, retry=None)
