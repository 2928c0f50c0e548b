"""Requests the app never sees, answered by the HTTP server itself: gunicorn alone (``bin/serve``) and nginx in
front of it (``bin/start-with-proxy``, the container's command). Each refusal is application/problem+json."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.redis_util import free_port

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

MALFORMED = {
    "negative Content-Length": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\nConnection: close\r\n\r\n",
                                400),
    "bad chunk size": (b"POST /v1/adjudicate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                       b"Content-Type: application/json\r\nConnection: close\r\n\r\nzz\r\nab\r\n0\r\n\r\n", 400),
    "bad request line": (b"GARBAGE\r\n\r\n", 400),
    "bad header name": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: y\r\nConnection: close\r\n\r\n", 400),
    "request line too long": (b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 414),
    "header too long": (b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: " + b"a" * 10000 + b"\r\nConnection: close\r\n\r\n",
                        431),
    "chunked body past the limit": (
        b"POST /v1/adjudicate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n"
        b"Connection: close\r\n\r\n" + (b"100000\r\n" + b" " * 0x100000 + b"\r\n") * 3 + b"0\r\n\r\n", 413),
}


def raw(port: int, data: bytes) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        try:
            s.sendall(data)
        except OSError:
            pass   # the server may answer and close before the whole body is sent
        out = b""
        while True:
            try:
                d = s.recv(65536)
            except OSError:
                break
            if not d:
                break
            out += d
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def wait_up(port: int, proc: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            status, _, _ = raw(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            if status == 200:
                return
        except (OSError, ValueError, IndexError):
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            pytest.fail("the server did not come up")
        time.sleep(0.2)


@pytest.fixture(scope="module", params=["gunicorn", "nginx+gunicorn"])
def server(request):
    if not (BIN / "gunicorn").exists():
        pytest.skip("gunicorn is not installed next to this Python")
    port = free_port()
    env = {**os.environ, "WORKERS": "1", "THREADS": "2", "LOG_LEVEL": "warning",
           "PATH": f"{BIN}:{os.environ.get('PATH', '')}"}
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
        wait_up(port, proc)
        yield request.param, port
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
        shutil.rmtree(run_dir, ignore_errors=True)


@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_request_refused_by_the_http_server_is_a_problem(server, case):
    _, port = server
    data, want = MALFORMED[case]
    status, headers, body = raw(port, data)
    assert status == want, body[:300]
    assert headers["content-type"] == "application/problem+json", body[:300]
    problem = json.loads(body)
    assert problem["status"] == want and problem["type"].startswith("https://") and problem["detail"]


def test_valid_requests_pass_through_unchanged(server):
    _, port = server
    status, headers, body = raw(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Request-ID: abc\r\nConnection: close\r\n\r\n")
    assert status == 200 and headers["x-request-id"] == "abc" and body == b'{"status":"ok"}'
    status, headers, body = raw(port, b"POST /v1/adjudicate HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                                      b"Content-Length: 2\r\nConnection: close\r\n\r\n{}")
    assert status == 422 and headers["content-type"] == "application/problem+json"   # the app's own problem
