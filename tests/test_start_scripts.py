"""The start scripts notice a gunicorn that did not start: ``bin/serve --wait`` with its address taken by
another server, ``bin/start-with-proxy`` with a gunicorn that dies at once (nginx is then never started)."""
from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


class _Ready(BaseHTTPRequestHandler):
    def do_GET(self):       # answers /readyz as the service would
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'{"status": "ready"}')

    def log_message(self, *a):
        pass


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "gunicorn").exists(), reason="bin/serve runs .venv's gunicorn")
def test_serve_wait_refuses_an_address_another_server_answers_on(tmp_path):
    other = HTTPServer(("127.0.0.1", 0), _Ready)
    threading.Thread(target=other.serve_forever, daemon=True).start()
    try:
        env = {**os.environ, "BIND": f"127.0.0.1:{other.server_port}", "SERVE_WAIT_SECONDS": "20",
               "SERVE_LOG": str(tmp_path / "serve.log")}
        t = time.monotonic()
        r = subprocess.run([str(ROOT / "bin" / "serve"), "--wait"], cwd=ROOT, env=env, capture_output=True,
                           text=True, timeout=120)
        assert r.returncode == 1, r.stdout + r.stderr
        assert "already in use" in r.stderr and "serving on" not in r.stdout
        assert time.monotonic() - t < 60
    finally:
        other.shutdown()


def _script(path: Path, body: str) -> Path:
    path.write_text("#!/usr/bin/env bash\n" + body, encoding="utf-8")
    path.chmod(0o755)
    return path


def test_start_with_proxy_stops_when_gunicorn_dies_at_once(tmp_path):
    marker = tmp_path / "nginx-started"
    gunicorn = _script(tmp_path / "gunicorn", "echo 'cannot import the app' >&2; exit 3\n")
    nginx = _script(tmp_path / "nginx", f"touch {marker}; exec sleep 30\n")
    env = {**os.environ, "GUNICORN": str(gunicorn), "NGINX": str(nginx), "RUN_DIR": str(tmp_path / "run"),
           "LISTEN": "0"}
    r = subprocess.run([str(ROOT / "bin" / "start-with-proxy")], env=env, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 3, r.stderr
    assert "gunicorn exited (status 3)" in r.stderr
    assert not marker.exists(), "nginx was started for a gunicorn that had died"


def test_start_with_proxy_starts_nginx_once_gunicorn_listens(tmp_path):
    run = tmp_path / "run"
    marker = tmp_path / "nginx-started"
    # a stand-in gunicorn that listens on the socket, then exits after a moment; nginx waits
    gunicorn = _script(tmp_path / "gunicorn", f"""exec {sys.executable} -c '
import socket, time
s = socket.socket(socket.AF_UNIX); s.bind("{run}/gunicorn.sock"); s.listen(1); time.sleep(1.5)'
""")
    nginx = _script(tmp_path / "nginx", f"touch {marker}; exec sleep 30\n")
    env = {**os.environ, "GUNICORN": str(gunicorn), "NGINX": str(nginx), "RUN_DIR": str(run), "LISTEN": "0"}
    r = subprocess.run([str(ROOT / "bin" / "start-with-proxy")], env=env, capture_output=True, text=True,
                       timeout=60)
    assert marker.exists(), r.stderr
    assert r.returncode == 0, r.stderr      # gunicorn's own status once it stops (then nginx is stopped)
