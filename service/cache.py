"""The map-graph cache: level 1 an in-process LRU (always on), level 2 Redis when configured.

The graph is derived from the board's hexes alone. Level 1 is keyed by the hex list itself (as a
frozenset); Redis by its content hash (:func:`service.engine.mapgraph.board_key`, which carries the
serialisation format version), computed only when level 1 misses. Redis is optional and never on the
critical path for correctness, and nothing read from it can change an answer:

* **authenticated entries**: an entry is ``SGv1`` + HMAC-SHA256 + compact JSON, the MAC taken with a
  secret key (``REDIS_HMAC_KEY``, or the file ``REDIS_HMAC_KEY_FILE`` names: a Kubernetes Secret) over
  the entry's own Redis key and the JSON. An entry someone else wrote, damaged, or copied from another
  key fails the check and is never decoded; one that passes is still checked for shape and for being the
  graph of the requested board. Without a configured key each process makes up its own, so entries are
  trusted only by the process that wrote them (a warning says so; set the key to share them);
* **bounded reads**: an entry is read with ``GETRANGE 0 max`` (``REDIS_MAX_ENTRY_BYTES``, 1 MiB by
  default, ~40x the largest map's graph), never whole: a longer value is refused after ``max + 1`` bytes;
* **a total deadline per call**: ``REDIS_TIMEOUT`` (0.05 s) bounds each call from its first byte sent
  to its last byte read (the socket's timeout is cut to the time left before every read), so a Redis
  that drips an answer cannot hold a request longer than one timeout; there are no retries;
* any Redis error, timeout or refused entry falls back to computing the graph, so answers are identical
  with Redis up, slow, down, absent or hostile; a refused entry is overwritten by the computed graph;
  level 1 only ever holds graphs that were computed here or passed every check;
* a circuit breaker stops asking a Redis that keeps failing, and lets a single probe through after a
  cool-down, so the service recovers by itself when Redis comes back.

>>> c = GraphCache()
>>> g = c.get({(0, 0): "forest", (1, 0): "sea"})
>>> c.get({(1, 0): "sea", (0, 0): "forest"}) is g, c.stats["l1_hit"], c.stats["miss"]
(True, 1, 1)
"""
from __future__ import annotations

import hashlib
import hmac
import logging
import os
import socket
import threading
import time
import weakref
from typing import Any, Callable, Hashable, Mapping, Optional

import orjson

from .engine.mapgraph import MapGraph, board_key
from .engine.memo import ByteLRU, bounded_put

log = logging.getLogger("seafarers.cache")

#: The first bytes of every entry: the entry format (``v1``: an HMAC-SHA256 of key and JSON, then the JSON).
ENTRY_MAGIC = b"SGv1"
MAC_BYTES = 32
DEFAULT_MAX_ENTRY_BYTES = 1024 * 1024
#: Boards remembered by their JSON bytes (:meth:`GraphCache.get_by_text`; bounded in bytes too).
BY_TEXT_KEPT = 256

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
                 hmac_key: Optional[bytes] = None, max_entry_bytes: int = DEFAULT_MAX_ENTRY_BYTES,
                 timeout: Optional[float] = None, lru_bytes: int = 32 << 20) -> None:
        self.lru = LRU(lru_size, lru_bytes)
        self.redis = redis_client
        self.ttl = int(ttl)
        self.prefix = prefix
        if redis_client is not None and not hmac_key:
            log.warning("no REDIS_HMAC_KEY: Redis entries are trusted only by the process that wrote them")
            hmac_key = os.urandom(32)
        self.hmac_key = hmac_key or b""
        self.max_entry_bytes = max(1024, int(max_entry_bytes))
        #: the total time one Redis call may take (None: only the client's own socket timeouts)
        self.timeout = timeout
        self.breaker = breaker or CircuitBreaker()
        self.stats = {k: 0 for k in STAT_NAMES}
        self.stats_lock = threading.Lock()
        self.listeners: list[Callable[[str], None]] = []
        self._by_text: dict[bytes, "weakref.ref[MapGraph]"] = {}

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
                   breaker, _env(config, "REDIS_KEY_PREFIX", "seafarers:"), hmac_key=_hmac_key(config),
                   max_entry_bytes=int(_env(config, "REDIS_MAX_ENTRY_BYTES", str(DEFAULT_MAX_ENTRY_BYTES))),
                   timeout=timeout, lru_bytes=int(float(_env(config, "GRAPH_CACHE_MB", "32")) * (1 << 20)))

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
    def get_by_text(self, text: bytes, terrain: Callable[[], Mapping]) -> MapGraph:
        """``get(terrain())``, found first by ``text``, the posted board's JSON bytes: a client posts the
        same board with every move, and comparing its bytes costs less than building its terrain map and
        comparing that. Only a weak reference is kept by text, so the graphs held stay those of the LRU
        (a graph it dropped is looked up again); a hit counts as a level-1 hit."""
        ref = self._by_text.get(text)
        g = ref() if ref is not None else None
        if g is not None:
            self._count("l1_hit")
            return g
        g = self.get(terrain())
        bounded_put(self._by_text, text, weakref.ref(g), BY_TEXT_KEPT, nbytes=len(text) + 200)
        return g

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

    # -- entries -------------------------------------------------------------------------------------------
    def _mac(self, key: str, payload: bytes) -> bytes:
        return hmac.new(self.hmac_key, key.encode() + b"\n" + payload, hashlib.sha256).digest()

    def seal(self, key: str, g: MapGraph) -> bytes:
        """The entry written at Redis key ``key`` (prefix included) for graph ``g``."""
        payload = orjson.dumps(g.to_dict())
        return ENTRY_MAGIC + self._mac(key, payload) + payload

    def unseal(self, key: str, raw: bytes) -> dict:
        """The JSON value of an entry read at ``key``; ``ValueError`` unless this service wrote it there."""
        head = len(ENTRY_MAGIC) + MAC_BYTES
        if not isinstance(raw, bytes) or len(raw) <= head or not raw.startswith(ENTRY_MAGIC):
            raise ValueError("entry is not in this service's format")
        if len(raw) > self.max_entry_bytes:
            raise ValueError("entry is larger than the limit")
        mac, payload = raw[len(ENTRY_MAGIC):head], raw[head:]
        if not hmac.compare_digest(mac, self._mac(key, payload)):
            raise ValueError("entry fails authentication (not written by this service at this key)")
        return orjson.loads(payload)

    def _call(self, f: Callable[..., Any], *args: Any, **kw: Any) -> Any:
        """One Redis call under the total deadline (see :func:`redis_deadline`)."""
        if self.timeout is None:
            return f(*args, **kw)
        with redis_deadline(self.timeout):
            return f(*args, **kw)

    def _redis_get(self, key: str, terrain: Mapping) -> tuple[Optional[MapGraph], bool]:
        """(graph or None, whether Redis may be written to)."""
        if self.redis is None:
            return None, False
        if not self.breaker.allow():
            self._count("redis_skipped")
            return None, False
        full = self.prefix + key
        try:   # at most max + 1 bytes: a longer value is never read whole
            raw = self._call(self.redis.getrange, full, 0, self.max_entry_bytes)
        except Exception as e:  # any Redis trouble (a value that is not a string too): compute instead
            self._redis_failed("get", e)
            return None, False
        self.breaker.success()
        if not raw:   # (GETRANGE answers "" for a missing key)
            return None, True
        try:
            g = MapGraph.from_dict(self.unseal(full, raw))
            if g.terrain != dict(terrain):
                raise ValueError("entry is the graph of another board")
        except Exception as e:
            self._count("corrupt")
            log.warning("cache entry refused: %s", e, extra={"cache_key": key})
            return None, True
        return g, True

    def _redis_put(self, key: str, g: MapGraph) -> None:
        if not self.breaker.allow():
            self._count("redis_skipped")
            return
        full = self.prefix + key
        try:
            self._call(self.redis.set, full, self.seal(full, g), ex=self.ttl)
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
            self._call(self.redis.ping)
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


def _hmac_key(config: Mapping[str, Any]) -> Optional[bytes]:
    """The entries' secret: ``REDIS_HMAC_KEY`` (text), else the contents of ``REDIS_HMAC_KEY_FILE``."""
    key = _env(config, "REDIS_HMAC_KEY", "")
    if key:
        return key.encode()
    path = _env(config, "REDIS_HMAC_KEY_FILE", "")
    if path:
        try:
            with open(path, "rb") as f:
                return f.read().strip() or None
        except OSError as e:
            log.warning("REDIS_HMAC_KEY_FILE unreadable: %s", e.__class__.__name__)
    return None


# -- the total deadline of one Redis call ----------------------------------------------------------------
_deadline = threading.local()


class redis_deadline:
    """``with redis_deadline(seconds):`` every socket operation of the Redis clients made by
    :func:`redis_from_url` in this thread must end before ``seconds`` from now (a timeout otherwise)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def __enter__(self) -> None:
        self.saved = getattr(_deadline, "at", None)
        _deadline.at = time.monotonic() + self.seconds

    def __exit__(self, *exc: Any) -> None:
        _deadline.at = self.saved


class DeadlineSocket:
    """A socket whose reads and writes never outlast the thread's :class:`redis_deadline`: before each
    one the timeout is cut to the time left (at once a ``socket.timeout`` when none is)."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self._timeout = sock.gettimeout()

    def _arm(self) -> None:
        at = getattr(_deadline, "at", None)
        if at is None:
            self._sock.settimeout(self._timeout)
            return
        left = at - time.monotonic()
        if left <= 0:
            raise socket.timeout("the Redis call's deadline has passed")
        self._sock.settimeout(left if self._timeout is None else min(left, self._timeout))

    def settimeout(self, t: Optional[float]) -> None:
        self._timeout = t
        self._sock.settimeout(t)

    def gettimeout(self) -> Optional[float]:
        return self._timeout

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def _armed(name: str):
    """The socket's ``name`` operation, run once the deadline is armed."""
    def op(self: DeadlineSocket, *a: Any) -> Any:
        self._arm()
        return getattr(self._sock, name)(*a)
    op.__name__ = name
    return op


for _op in ("recv", "recv_into", "send", "sendall"):     # the reads and writes a Redis call makes
    setattr(DeadlineSocket, _op, _armed(_op))


def redis_from_url(url: str, timeout: float = 0.05):
    """A redis-py client with short connect/read timeouts, no retries (its defaults retry 3 times), and
    sockets that keep to the thread's :class:`redis_deadline`."""
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    base = {"redis": redis.Connection, "rediss": redis.SSLConnection,
            "unix": redis.UnixDomainSocketConnection}.get(url.partition("://")[0], redis.Connection)

    class DeadlineConnection(base):   # type: ignore[misc, valid-type]
        def _connect(self):
            return DeadlineSocket(super()._connect())

    kw: dict[str, Any] = {"connection_class": DeadlineConnection}
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout,
                                retry_on_timeout=False, retry=Retry(NoBackoff(), 0),
                                health_check_interval=0, max_connections=64, **kw)
