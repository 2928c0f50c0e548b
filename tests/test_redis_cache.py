"""The map-graph cache against a real Redis: sharing, faults (stopped, unreachable, slow, corrupted), recovery.

Every answer is compared with the answer of an app without Redis: Redis may only change how fast a
graph is found, never what the service says.
"""
from __future__ import annotations

import json
import time

import pytest

from service.api import create_app
from service.engine.mapgraph import MapGraph, board_key
from tests.redis_util import (  # noqa: F401  (fixtures)
    adjudication_bodies, client, free_port, key_prefix, private_redis, redis_url, slow_redis,
)

pytestmark = pytest.mark.redis

#: A request may spend at most one Redis timeout (50 ms) before computing; this bound leaves room for a
#: slow machine without letting a 3 s default-timeout stall through.
BOUND = 0.6


def make_app(url, prefix="test:none:", **extra):
    """An app on Redis ``url``. The deadline of a Redis call is 0.25 s (room for a loaded machine) unless a
    test about slowness sets its own."""
    return create_app({"TESTING": True, "REDIS_URL": url, "REDIS_KEY_PREFIX": prefix, "REDIS_HMAC_KEY": HMAC_KEY,
                       "REDIS_TIMEOUT": 0.25, "REDIS_BREAKER_COOLDOWN": 0.2, **extra})


HMAC_KEY = "a test key"


def entry(app, key, raw):
    return MapGraph.from_dict(app.extensions["graph_cache"].unseal(key, raw))


@pytest.fixture(scope="module")
def bodies():
    return adjudication_bodies(create_app({"TESTING": True, "REDIS_URL": None}), seeds=(11, 12, 13, 14, 15, 16))


@pytest.fixture(scope="module")
def expected(bodies):
    """The answers of an app with no Redis at all."""
    c = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    return [c.post("/v1/adjudicate", json=b).json for b in bodies]


def post_all(app, bodies, bound=BOUND):
    c = app.test_client()
    out = []
    for b in bodies:
        t = time.perf_counter()
        r = c.post("/v1/adjudicate", json=b)
        took = time.perf_counter() - t
        assert r.status_code == 200, r.get_data(as_text=True)
        assert took < bound, f"a request took {took:.3f}s"
        out.append(r.json)
    return out


def stats(app):
    return app.extensions["graph_cache"].stats


def terrain_of(body):
    return {(h["q"], h["r"]): h["terrain"] for h in body["state"]["board"]["hexes"]}


def wait_until(cond, timeout=3.0):
    deadline = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def test_miss_stores_then_l1_hit(redis_url, key_prefix, bodies, expected):
    app = make_app(redis_url, key_prefix)
    assert post_all(app, bodies[:2]) == expected[:2]
    assert stats(app)["miss"] == 2 and stats(app)["l2_hit"] == 0
    r = client(redis_url)
    for b in bodies[:2]:
        raw = r.get(key_prefix + board_key(terrain_of(b)))
        assert raw is not None and entry(app, key_prefix + board_key(terrain_of(b)), raw).terrain == terrain_of(b)
        assert 0 < r.ttl(key_prefix + board_key(terrain_of(b))) <= 86400
    assert post_all(app, bodies[:2]) == expected[:2]
    assert stats(app)["l1_hit"] == 2 and stats(app)["miss"] == 2 and stats(app)["redis_error"] == 0


def test_two_app_instances_share_entries(redis_url, key_prefix, bodies, expected):
    a, b = make_app(redis_url, key_prefix), make_app(redis_url, key_prefix)
    assert post_all(a, bodies) == expected
    assert stats(a)["miss"] == len(bodies)
    assert post_all(b, bodies) == expected
    assert stats(b)["l2_hit"] == len(bodies) and stats(b)["miss"] == 0
    assert b.test_client().get("/readyz").json == {"status": "ready", "redis": "up", "circuit": "closed"}


def test_a_corrupted_entry_is_ignored_and_recomputed(redis_url, key_prefix, bodies, expected):
    r = client(redis_url)
    key = key_prefix + board_key(terrain_of(bodies[0]))
    r.set(key, b"\x80\x05 this is not a map graph")
    app = make_app(redis_url, key_prefix)
    assert post_all(app, bodies[:1]) == expected[:1]
    assert stats(app)["corrupt"] == 1 and stats(app)["miss"] == 1
    assert entry(app, key, r.get(key)).terrain == terrain_of(bodies[0])  # overwritten
    assert "seafarers_graph_cache_corrupt_entries_total 1.0" in app.test_client().get("/metrics").get_data(True)


def test_unreachable_redis_answers_the_same_fast(bodies, expected):
    app = make_app(f"redis://127.0.0.1:{free_port()}/0")
    t = time.perf_counter()
    assert post_all(app, bodies) == expected
    assert time.perf_counter() - t < 2.0
    s = stats(app)
    assert s["redis_error"] == 3 and s["redis_skipped"] == len(bodies) - 3  # the breaker opened after 3
    r = app.test_client().get("/readyz")
    assert r.status_code == 200 and r.json["redis"] == "down"


def test_redis_stopped_mid_run_then_back(private_redis, bodies, expected):
    app = make_app(private_redis.url, "t:")
    assert post_all(app, bodies[:2]) == expected[:2]
    assert stats(app)["miss"] == 2 and stats(app)["redis_error"] == 0

    private_redis.stop()
    assert post_all(app, bodies[2:4]) == expected[2:4]  # L1 cannot help these: computed
    assert post_all(app, bodies[:2]) == expected[:2]    # these are still in L1
    assert stats(app)["redis_error"] >= 1 and stats(app)["l1_hit"] == 2
    assert app.test_client().get("/readyz").json["redis"] == "down"

    private_redis.start()
    cache = app.extensions["graph_cache"]
    assert wait_until(lambda: app.test_client().get("/readyz").json["redis"] == "up"), "no recovery"
    assert cache.breaker.state == "closed"
    assert post_all(app, bodies[4:]) == expected[4:]
    r = client(private_redis.url)
    assert all(r.exists("t:" + board_key(terrain_of(b))) for b in bodies[4:])  # written again
    other = make_app(private_redis.url, "t:")
    assert post_all(other, bodies[4:]) == expected[4:] and stats(other)["l2_hit"] == len(bodies[4:])


def test_slow_redis_costs_one_timeout_then_the_breaker_opens(slow_redis, key_prefix, bodies, expected):
    app = make_app(slow_redis.url, key_prefix, REDIS_TIMEOUT=0.05)
    t = time.perf_counter()
    assert post_all(app, bodies, bound=0.3) == expected
    total = time.perf_counter() - t
    s = stats(app)
    assert s["redis_error"] == 3 and s["redis_skipped"] == len(bodies) - 3 and s["l2_hit"] == 0
    assert total < 1.5, total
    assert app.extensions["graph_cache"].breaker.state == "open"

    slow_redis.delay = 0.0  # Redis answers promptly again: the service heals by itself
    assert wait_until(lambda: app.test_client().get("/readyz").json["redis"] == "up"), "no recovery"
    fresh = adjudication_bodies(app, seeds=(21,))
    post_all(app, fresh)
    assert client(slow_redis.url).exists(key_prefix + board_key(terrain_of(fresh[0])))


# -- entries that must not change an answer ------------------------------------------------------------


def land_as_sea(terrain):
    """The graph of ``terrain`` with every land edge turned to sea: well formed, and wrong (a set-up road
    on land would be judged illegal, BASE-BUILD-1)."""
    d = MapGraph.build(terrain).to_dict()
    d["edge_kind"] = ["sea" if k == "land" else k for k in d["edge_kind"]]
    return d


def road_bodies(bodies):
    """Set-up roads next to the first settlement: legal on the true graph, illegal on ``land_as_sea``."""
    c = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    out = []
    for b in bodies:
        v = c.post("/v1/adjudicate", json=b).json
        assert v["legal"]
        out.append({"state": v["state"], "action": {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]}})
    return out


@pytest.mark.parametrize("how", ["unsigned", "signed with another key"])
def test_a_well_formed_wrong_graph_never_changes_a_verdict(redis_url, key_prefix, bodies, how):
    roads = road_bodies(bodies[:3])
    want = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    expected = [want.post("/v1/adjudicate", json=b).json for b in roads]
    assert all(e["legal"] for e in expected)
    r = client(redis_url)
    forger = make_app(redis_url, key_prefix, REDIS_HMAC_KEY="a guessed key").extensions["graph_cache"]
    for b in roads:
        key = key_prefix + board_key(terrain_of(b))
        bad = land_as_sea(terrain_of(b))
        r.set(key, json.dumps(bad) if how == "unsigned" else forger.seal(key, MapGraph.from_dict(bad)))
    app = make_app(redis_url, key_prefix)
    assert post_all(app, roads) == expected
    assert stats(app)["corrupt"] == 3 and stats(app)["l2_hit"] == 0
    r.delete(*[key_prefix + board_key(terrain_of(b)) for b in roads])   # (FLUSHALL for these keys)
    assert post_all(app, roads) == expected and stats(app)["l1_hit"] == 3   # level 1 kept only good graphs


def test_an_entry_copied_from_another_key_is_refused(redis_url, key_prefix, bodies, expected):
    writer = make_app(redis_url, key_prefix)
    post_all(writer, bodies[1:2])
    r = client(redis_url)
    src, dst = (key_prefix + board_key(terrain_of(b)) for b in (bodies[1], bodies[0]))
    r.set(dst, r.get(src))        # a genuine entry of this service, at the wrong key
    app = make_app(redis_url, key_prefix)
    assert post_all(app, bodies[:1]) == expected[:1]
    assert stats(app)["corrupt"] == 1 and stats(app)["l2_hit"] == 0


def test_an_oversized_entry_is_refused_without_reading_it_whole(redis_url, key_prefix, bodies, expected):
    r = client(redis_url, timeout=5)
    key = key_prefix + board_key(terrain_of(bodies[0]))
    r.set(key, b"SGv1" + b"\x00" * (42 * 1024 * 1024))
    app = make_app(redis_url, key_prefix, REDIS_TIMEOUT=0.5)
    assert post_all(app, bodies[:1], bound=0.5) == expected[:1]
    assert stats(app)["corrupt"] == 1
    assert r.strlen(key) < 1024 * 1024   # overwritten by the computed graph


def test_a_dripping_redis_costs_one_deadline_not_one_timeout_per_read(slow_redis, redis_url, key_prefix, bodies,
                                                                      expected):
    post_all(make_app(redis_url, key_prefix), bodies[:1])   # a genuine entry of a few KB
    slow_redis.delay = 0.0
    slow_redis.drip, slow_redis.drip_gap = 16, 0.01          # 16 bytes every 10 ms: each read is quick
    app = make_app(slow_redis.url, key_prefix, REDIS_TIMEOUT=0.05)
    t = time.perf_counter()
    assert post_all(app, bodies[:1], bound=0.3) == expected[:1]
    assert time.perf_counter() - t < 0.3
    assert stats(app)["redis_error"] == 1 and stats(app)["l2_hit"] == 0
