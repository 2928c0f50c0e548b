"""Health probes answer in milliseconds whatever the request load: every worker thread is kept busy with
long replays and the probes are sent meanwhile (gunicorn alone, and behind the container's nginx). The
probe port is the gunicorn master's (``service/probes.py``): liveness says "alive" while readiness says
"busy", and readiness itself proves the saturation (every thread of every worker in a request) around each
liveness probe that is counted."""
from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from service.probes import InFlight, status
from tests.redis_util import free_port

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def get(port: int, path: str, timeout: float = 10.0) -> tuple[int, dict, float]:
    t = time.perf_counter()
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        c.request("GET", path)
        r = c.getresponse()
        body = r.read()
    finally:
        c.close()
    return r.status, json.loads(body or b"{}"), time.perf_counter() - t


def _worker(beat: float, slot: int) -> SimpleNamespace:
    return SimpleNamespace(tmp=SimpleNamespace(last_update=lambda: beat), probe_slot=slot)


def test_the_probe_view_counts_threads_in_flight_and_heartbeats():
    counts = InFlight(4)
    a, b, stale = _worker(100.0, None), _worker(100.0, None), _worker(10.0, None)
    for w in (a, b, stale):
        counts.assign(w)
    counts.add(a, 1)
    counts.add(a, 1)
    s = status([a, b, stale], counts, threads=2, timeout=30, now=101.0)
    assert s == {"workers": 3, "alive": 2, "busy_workers": 1, "in_flight": 2, "threads": 4}
    counts.add(b, 2)
    assert status([a, b], counts, 2, 30, now=101.0)["busy_workers"] == 2
    counts.add(b, -2)
    counts.release(b)
    assert counts.of(b) == 0 and b.probe_slot in counts.free


def _heavy_body() -> bytes:
    """A replay of ~4,000 legal rolls and turn ends from a base position, a digest per step (about a
    second of CPU)."""
    from service.api.codec import dump_state
    from service.engine.selfplay import play_game
    seen = []
    play_game("base", 3, 3, max_actions=150, check=False, on_step=lambda s, a, v: seen.append((s, a)))
    st = [s for s, a in seen if a.type == "roll" and s.phase == "roll"][-1]
    p, actions = st.current_player, []
    for _ in range(2_000):
        actions += [{"type": "roll", "player": p, "dice": [2, 3]}, {"type": "end_turn", "player": p}]
        p = (p + 1) % st.num_players
    return json.dumps({"state": dump_state(st), "actions": actions, "digests": "each"}).encode()


@pytest.fixture(scope="module", params=["gunicorn", "nginx+gunicorn"])
def server(request):
    if not (BIN / "gunicorn").exists():
        pytest.skip("gunicorn is not installed next to this Python")
    port, probe = free_port(), free_port()
    env = {**os.environ, "WORKERS": "2", "THREADS": "1", "LOG_LEVEL": "warning", "PROBE_BIND": f"127.0.0.1:{probe}",
           "PATH": f"{BIN}:{os.environ.get('PATH', '')}", "REQUEST_BUDGET_SECONDS": "60"}
    env.pop("REDIS_URL", None)
    run_dir = tempfile.mkdtemp(prefix="seafarers-test-")
    os.chmod(run_dir, 0o755)
    if request.param == "gunicorn":
        cmd = [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "service.api:create_app()"]
        env["BIND"] = f"127.0.0.1:{port}"
    else:
        if not shutil.which("nginx"):
            pytest.skip("nginx is not installed (apt-get install nginx)")
        cmd = [str(ROOT / "bin" / "start-with-proxy")]
        env.update(RUN_DIR=run_dir, LISTEN=str(port))
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        deadline = time.monotonic() + 40
        while True:
            try:
                if get(probe, "/readyz", 2)[0] == 200 and get(port, "/healthz", 2)[0] == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                pytest.fail("the server did not come up")
            time.sleep(0.2)
        yield port, probe
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(run_dir, ignore_errors=True)


BODY = None


def test_probes_answer_while_every_worker_is_busy(server, request):
    global BODY
    port, probe = server
    idle = _idle(probe)
    assert idle["status"] == "ready" and idle["alive"] == 2 and idle["in_flight"] == 0
    BODY = BODY or _heavy_body()
    # first a few requests one after another: behind nginx, a keepalive pool to gunicorn would keep their
    # connection with the worker that took it and send it every request after (the other worker idle)
    for _ in range(2):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        c.request("POST", "/v1/replay", body=BODY, headers={"Content-Type": "application/json"})
        assert c.getresponse().status == 200
        c.close()
    stop = threading.Event()
    answers: list[int] = []

    def load() -> None:      # one client per worker thread and one more: every thread stays busy
        while not stop.is_set():
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            try:
                c.request("POST", "/v1/replay", body=BODY, headers={"Content-Type": "application/json"})
                r = c.getresponse()
                r.read()
                answers.append(r.status)
            except OSError as e:
                answers.append(repr(e))
            finally:
                c.close()

    clients = [threading.Thread(target=load, daemon=True) for _ in range(4)]
    for t in clients:
        t.start()
    busy_probes: list[float] = []
    deadline = time.monotonic() + 60
    try:
        while len(busy_probes) < 10 and time.monotonic() < deadline:
            before = get(probe, "/readyz")
            code, live, seconds = get(probe, "/healthz")
            after = get(probe, "/readyz")
            assert code == 200 and live["status"] == "alive", live
            if before[0] == after[0] == 503 and before[1]["status"] == after[1]["status"] == "busy":
                assert before[1]["in_flight"] >= before[1]["threads"] == 2    # provably: every thread busy
                busy_probes.append(seconds)
                if os.environ.get("PROBE_COMPARE") and len(busy_probes) == 5:   # the app's own /healthz, as it was
                    print("app /healthz while busy: %.3f s" % get(port, "/healthz", 60)[2])
            time.sleep(0.05)
    finally:
        stop.set()
    for t in clients:
        t.join(120)
    assert len(busy_probes) >= 10, f"the workers were never all busy ({len(busy_probes)} probes; {answers[:5]})"
    assert answers and set(answers) == {200}
    busy_probes.sort()
    print("probe /healthz while busy: median %.4f s, max %.4f s" % (busy_probes[len(busy_probes) // 2],
                                                                     busy_probes[-1]))
    # each replay takes about a second of CPU; a probe waiting behind one would take as long
    assert busy_probes[len(busy_probes) // 2] < 0.25 and busy_probes[-1] < 1.0, busy_probes
    assert _idle(probe)["in_flight"] == 0     # every request counted out again


def _idle(probe: int) -> dict:
    """The readiness answer once no request is in flight (a worker counts a request out just after its
    answer is sent), within a few seconds."""
    deadline = time.monotonic() + 10
    while True:
        code, body, _ = get(probe, "/readyz")
        if code == 200 and body["in_flight"] == 0 or time.monotonic() > deadline:
            return body
        time.sleep(0.1)


def test_the_probe_port_answers_only_its_probes(server):
    _, probe = server
    assert get(probe, "/nowhere")[0] == 404
    c = http.client.HTTPConnection("127.0.0.1", probe, timeout=5)
    c.request("POST", "/healthz", body=b"{}")
    assert c.getresponse().status == 405
    c.close()


@pytest.mark.parametrize("server", ["nginx+gunicorn"], indirect=True)     # the proxy's limits: nginx only
def test_one_address_cannot_take_every_proxy_connection(server):
    """Behind nginx: one address holding many half-sent bodies gets a 429 problem past 128 requests at once,
    and a request from elsewhere is still answered (deploy/nginx.conf.template, decision D-proxy-limits)."""
    import socket
    port, _ = server
    held, refused = [], 0
    try:
        for _ in range(160):
            s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0))
            s.sendall(b"POST /v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 100000\r\n\r\n" + b" " * 1000)
            held.append(s)
        time.sleep(0.5)
        for s in held:
            s.setblocking(False)
            try:
                data = s.recv(4096)
            except BlockingIOError:
                continue
            if data.startswith(b"HTTP/1.1 429"):
                assert b"application/problem+json" in data
                refused += 1
        assert 160 - 128 <= refused < 160
        code, body, seconds = get(port, "/healthz")
        assert code == 200 and body == {"status": "ok"}
    finally:
        for s in held:
            s.close()
