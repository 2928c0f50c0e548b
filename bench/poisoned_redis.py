"""A poisoned Redis under load: wrong answers (must be 0) and the slowest request, through gunicorn.

    .venv/bin/python bench/poisoned_redis.py                     # Redis at redis://127.0.0.1:6379/0
    .venv/bin/python bench/poisoned_redis.py --boards 24 --rounds 20 --threads 8

Every board's entry is written by an attacker before the service starts (under a key prefix of this run,
deleted at the end), one kind of poison per board in turn:

* ``land-as-sea``: the board's own graph with every land edge turned to sea, in the old unsigned form
  (a legal set-up road becomes illegal, BASE-BUILD-1, if it is believed);
* ``forged``: the same wrong graph sealed with a key that is not the service's;
* ``moved``: a genuine entry of this service for another board, copied to this board's key;
* ``oversized``: 42 MB at the key.

gunicorn (2 workers x 4 threads, ``REDIS_HMAC_KEY`` set) then answers ``--rounds`` set-up road requests
per board from ``--threads`` client threads; every answer is compared with the answer of an app without
Redis. Then the keys are deleted (FLUSHALL for this prefix) and the same load runs again: level 1 must
not have kept a wrong graph. Prints wrong answers per phase, the slowest request and the cache counters.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("LOG_LEVEL", "warning")
VENV_BIN = Path(sys.executable).parent
KEY = "the service's key for this run"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def road_bodies(n: int) -> list[dict]:
    from service.api import create_app
    c = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    out = []
    for seed in range(1, n + 1):
        st = c.post("/v1/games", json={"scenario": "base", "players": 3, "seed": 1000 + seed}).json["state"]
        v = c.post("/v1/adjudicate", json={"state": st, "action": {"type": "build_settlement", "player": 0,
                                                                    "node": [0, 0, "N"]}}).json
        out.append({"state": v["state"], "action": {"type": "build_road", "player": 0, "edge": [0, 0, "NE"]}})
    return out


def terrain(body: dict) -> dict:
    return {(h["q"], h["r"]): h["terrain"] for h in body["state"]["board"]["hexes"]}


def poison(r, prefix: str, bodies: list[dict]) -> list[str]:
    from service.cache import GraphCache
    from service.engine.mapgraph import MapGraph, board_key
    forger = GraphCache(None, prefix=prefix, hmac_key=b"a guessed key")
    genuine = GraphCache(None, prefix=prefix, hmac_key=KEY.encode())
    kinds = []
    for i, b in enumerate(bodies):
        key = prefix + board_key(terrain(b))
        wrong = MapGraph.build(terrain(b)).to_dict()
        wrong["edge_kind"] = ["sea" if k == "land" else k for k in wrong["edge_kind"]]
        kind = ("land-as-sea", "forged", "moved", "oversized")[i % 4]
        if kind == "land-as-sea":
            r.set(key, json.dumps(wrong))
        elif kind == "forged":
            r.set(key, forger.seal(key, MapGraph.from_dict(wrong)))
        elif kind == "moved":
            other = terrain(bodies[(i + 1) % len(bodies)])
            r.set(key, genuine.seal(prefix + board_key(other), MapGraph.build(other)))
        else:
            r.set(key, b"SGv1" + b"\0" * (42 * 1024 * 1024))
        kinds.append(kind)
    return kinds


def load(port: int, bodies: list[dict], expected: list[bytes], rounds: int, threads: int) -> dict:
    jobs = [(i, b) for _ in range(rounds) for i, b in enumerate(bodies)]
    lock = threading.Lock()
    res = {"requests": 0, "wrong": 0, "errors": 0, "slowest_ms": 0.0}

    def worker(part):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        for i, b in part:
            t = time.perf_counter()
            try:
                c.request("POST", "/v1/adjudicate", body=json.dumps(b), headers={"Content-Type": "application/json"})
                r = c.getresponse()
                data = r.read()
                ok = r.status == 200
            except OSError:
                ok, data = False, b""
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            took = (time.perf_counter() - t) * 1000
            with lock:
                res["requests"] += 1
                res["slowest_ms"] = max(res["slowest_ms"], round(took, 1))
                if not ok:
                    res["errors"] += 1
                elif json.loads(data) != json.loads(expected[i]):
                    res["wrong"] += 1
    ts = [threading.Thread(target=worker, args=(jobs[k::threads],)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    ap.add_argument("--boards", type=int, default=24)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--threads", type=int, default=8)
    args = ap.parse_args()
    import redis
    r = redis.Redis.from_url(args.redis, socket_timeout=10)
    r.ping()
    from service.api import create_app
    bodies = road_bodies(args.boards)
    plain = create_app({"TESTING": True, "REDIS_URL": None}).test_client()
    expected = [plain.post("/v1/adjudicate", json=b).get_data() for b in bodies]
    assert all(json.loads(e)["legal"] for e in expected)
    prefix = f"bench:{uuid.uuid4().hex[:10]}:"
    kinds = poison(r, prefix, bodies)
    port = free_port()
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WORKERS": "2", "THREADS": "4", "REDIS_URL": args.redis,
           "REDIS_KEY_PREFIX": prefix, "REDIS_HMAC_KEY": KEY, "LOG_LEVEL": "error"}
    proc = subprocess.Popen([str(VENV_BIN / "gunicorn"), "-c", "gunicorn.conf.py", "service.api:create_app()"],
                            cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
                c.request("GET", "/healthz")
                if c.getresponse().status == 200:
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        poisoned = load(port, bodies, expected, args.rounds, args.threads)
        for k in r.scan_iter(match=prefix + "*", count=500):   # FLUSHALL, for this run's keys
            r.delete(k)
        flushed = load(port, bodies, expected, args.rounds, args.threads)
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        c.request("GET", "/metrics")
        metrics = c.getresponse().read().decode()
        counters = {line.split()[0]: line.split()[1] for line in metrics.splitlines()
                    if line.startswith(("seafarers_graph_cache_corrupt_entries_total",
                                        "seafarers_graph_cache_lookups_total"))}
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(20)
        for k in r.scan_iter(match=prefix + "*", count=500):
            r.delete(k)
    print(json.dumps({"boards": len(bodies), "poison": {k: kinds.count(k) for k in sorted(set(kinds))},
                      "poisoned": poisoned, "after_flush": flushed, "metrics (one worker)": counters}, indent=1))
    sys.exit(1 if poisoned["wrong"] or flushed["wrong"] or poisoned["errors"] or flushed["errors"] else 0)


if __name__ == "__main__":
    main()
