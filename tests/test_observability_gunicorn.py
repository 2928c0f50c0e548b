"""gunicorn.conf.py for real: two workers on loopback, probes answer, /metrics adds up both workers."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path
from urllib.request import Request, urlopen

import pytest

from tests.redis_util import free_port

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = Path(sys.executable).with_name("gunicorn")


def get(url: str, headers: dict | None = None):
    with urlopen(Request(url, headers=headers or {}), timeout=5) as r:
        return r.status, dict(r.headers), r.read().decode()


@pytest.fixture()
def server(tmp_path):
    if not GUNICORN.exists():
        pytest.skip("gunicorn is not installed next to this Python")
    port = free_port()
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WORKERS": "2", "THREADS": "2", "LOG_LEVEL": "warning",
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics")}
    env.pop("REDIS_URL", None)
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics" / "stale.db").write_bytes(b"left by an earlier run")
    proc = subprocess.Popen([str(GUNICORN), "-c", "gunicorn.conf.py", "service.api:create_app()"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                get(base + "/healthz")
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    pytest.fail("gunicorn did not come up")
                time.sleep(0.1)
        yield base, tmp_path / "metrics"
    finally:
        proc.terminate()
        proc.wait(20)


def test_two_workers_serve_probes_and_aggregate_metrics(server):
    base, metrics_dir = server
    assert not (metrics_dir / "stale.db").exists()  # emptied when gunicorn started
    n = 40
    for i in range(n):
        status, headers, _ = get(base + "/healthz", {"X-Request-ID": f"g-{i}"})
        assert status == 200 and headers["X-Request-ID"] == f"g-{i}"
    status, _, body = get(base + "/readyz")
    assert status == 200 and '"redis":"disabled"' in body
    # Every request counted whichever worker answered it (the first /healthz polls may add a few); the
    # worker not answering the scrape adds its counts within a second (observability.FLUSH_SECONDS).
    deadline = time.monotonic() + 10
    while True:
        status, headers, text = get(base + "/metrics")
        assert status == 200 and headers["Content-Type"].startswith("text/plain")
        m = re.search(r'^seafarers_http_requests_total\{[^}]*endpoint="/healthz"[^}]*\} (\S+)$', text, re.M)
        if (m and float(m.group(1)) >= n) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert m and float(m.group(1)) >= n
    pids = {re.search(r"_(\d+)\.db$", f.name).group(1) for f in metrics_dir.glob("*_*.db")}
    assert len(pids) >= 2, "both workers write into the shared metrics directory"
