"""Shared Redis fixtures and helpers for the cache tests (tests marked ``redis``).

* The shared server is ``REDIS_TEST_URL`` (default ``redis://127.0.0.1:6379/0``); the tests only touch
  keys under a prefix unique to each test and delete them afterwards. They never stop or reconfigure it.
* A test that needs a server it may stop gets its own ``redis-server`` on a free loopback port
  (:class:`PrivateRedis`).
* A slow Redis is a local TCP proxy in front of the shared server that delays every answer
  (:class:`DelayProxy`).
* Without a Redis (or without ``redis-server`` for a private one) the test is skipped with the reason,
  except under ``CI=true``, where it fails instead: CI must exercise the real server.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from typing import Iterator, Optional

import pytest

SHARED_URL = os.environ.get("REDIS_TEST_URL", "redis://127.0.0.1:6379/0")


def unavailable(reason: str) -> None:
    """Skip with ``reason``; under ``CI=true`` fail instead."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true and {reason}", pytrace=False)
    pytest.skip(reason)


def free_port() -> int:
    """A loopback port nobody listens on (just released by us)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def client(url: str, timeout: float = 0.5):
    import redis
    return redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)


def ping(url: str, timeout: float = 0.3) -> bool:
    try:
        return bool(client(url, timeout).ping())
    except Exception:
        return False


@pytest.fixture(scope="session")
def redis_url() -> str:
    """The shared Redis's URL, or a skip (a failure under CI=true) when it does not answer."""
    if not ping(SHARED_URL):
        unavailable(f"no Redis answers at {SHARED_URL} (bin/test starts one when redis-server is installed)")
    return SHARED_URL


@pytest.fixture()
def key_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own; its keys are deleted afterwards."""
    prefix = f"test:{uuid.uuid4().hex[:12]}:"
    yield prefix
    r = client(redis_url)
    keys = list(r.scan_iter(match=prefix + "*", count=500))
    if keys:
        r.delete(*keys)


class PrivateRedis:
    """A ``redis-server`` of the test's own on a free loopback port, which the test may stop and start."""

    def __init__(self) -> None:
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.dir = tempfile.mkdtemp(prefix="seafarers-redis-")
        self.proc: Optional[subprocess.Popen] = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.binary and self.proc is None
        self.proc = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.dir, "--daemonize", "no", "--logfile", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 5
        while not ping(self.url, 0.1):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None


@pytest.fixture()
def private_redis() -> Iterator[PrivateRedis]:
    """A running private Redis (stopped at the end whatever happens)."""
    if not shutil.which("redis-server"):
        unavailable("redis-server is not installed: cannot start a Redis to stop mid-run")
    srv = PrivateRedis()
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()
        shutil.rmtree(srv.dir, ignore_errors=True)


class DelayProxy:
    """A TCP proxy on 127.0.0.1 in front of ``target``; every answer is held ``delay`` seconds
    (changeable while running)."""

    def __init__(self, target_host: str, target_port: int, delay: float = 0.0) -> None:
        self.target = (target_host, target_port)
        self.delay = delay
        #: when > 0, answers are passed on ``drip`` bytes at a time, ``drip_gap`` seconds apart
        self.drip, self.drip_gap = 0, 0.0
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.port = self.sock.getsockname()[1]
        self.closed = False
        self.conns: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _accept(self) -> None:
        while not self.closed:
            try:
                down, _ = self.sock.accept()
                up = socket.create_connection(self.target, timeout=2)
                up.settimeout(None)
            except OSError:
                return
            with self.lock:
                self.conns += [down, up]
            threading.Thread(target=self._pump, args=(down, up, False), daemon=True).start()
            threading.Thread(target=self._pump, args=(up, down, True), daemon=True).start()

    def _pump(self, src: socket.socket, dst: socket.socket, delayed: bool) -> None:
        try:
            while True:
                data = src.recv(65536)
                if not data:
                    break
                if delayed and self.delay:
                    time.sleep(self.delay)
                if delayed and self.drip:
                    for i in range(0, len(data), self.drip):
                        dst.sendall(data[i:i + self.drip])
                        time.sleep(self.drip_gap)
                    continue
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.closed = True
        self.sock.close()
        with self.lock:
            for c in self.conns:
                try:
                    c.close()
                except OSError:
                    pass


@pytest.fixture()
def slow_redis(redis_url: str) -> Iterator[DelayProxy]:
    """A proxy to the shared Redis that delays every answer by 0.3 s (set ``.delay`` to change it)."""
    from urllib.parse import urlparse
    u = urlparse(redis_url)
    proxy = DelayProxy(u.hostname or "127.0.0.1", u.port or 6379, delay=0.3)
    try:
        yield proxy
    finally:
        proxy.close()


# -- request bodies -----------------------------------------------------------------------------------


def adjudication_bodies(app, seeds=(1, 2, 3)) -> list[dict]:
    """One adjudication request per seed (each seed deals its own board)."""
    c = app.test_client()
    out = []
    for seed in seeds:
        r = c.post("/v1/games", json={"scenario": "base", "players": 3, "seed": seed})
        assert r.status_code == 201, r.get_data(as_text=True)
        out.append({"state": r.json["state"],
                    "action": {"type": "build_settlement", "player": 0, "node": [0, 0, "N"]}})
    return out
