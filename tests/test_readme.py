"""The README's commands work when pasted: each ```sh block runs against a live server (started here on a
free port, standing in for ``localhost:8000``) and prints the ``#>`` line written under it; ``bin/serve
--wait`` returns only once the service answers."""
from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from service.api import create_app

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```sh\n(.*?)```", README, re.S)

needs_curl = pytest.mark.skipif(not shutil.which("curl"), reason="the README's commands use curl")


def commands() -> list[tuple[str, str]]:
    out = []
    for block in BLOCKS:
        expected = [line[3:] for line in block.splitlines() if line.startswith("#> ")]
        script = "\n".join(line for line in block.splitlines() if not line.startswith("#"))
        out.append((script, expected[0] if expected else ""))
    return out


def test_the_readme_has_a_command_per_tool():
    text = "\n".join(BLOCKS)
    for path in ("/v1/adjudicate", "/v1/replay", "/v1/legal-actions", "/v1/derive", "explain=true", "/v1/render",
                 "/check", "/v1/rules", "/v1/games"):
        assert path in text, f"no runnable README command for {path}"
    assert all(expected for _s, expected in commands()), "every command shows what it prints (#> ...)"
    assert "docs/evidence.md" in README and "bin/serve --wait" in README


@pytest.fixture(scope="module")
def server():
    from werkzeug.serving import make_server
    srv = make_server("127.0.0.1", 0, create_app({"TESTING": True, "REDIS_URL": None}), threaded=True)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"127.0.0.1:{srv.server_port}"
    srv.shutdown()


@needs_curl
@pytest.mark.parametrize("script,expected", commands(), ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_a_readme_command_prints_what_it_says(server, script, expected, tmp_path):
    env = {**os.environ, "TMPDIR": str(tmp_path), "PATH": f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}"}
    run = subprocess.run(["bash", "-eo", "pipefail", "-c", script.replace("localhost:8000", server)], cwd=ROOT,
                         env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert expected.strip() in [line.strip() for line in run.stdout.splitlines()], run.stdout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.skipif(not (ROOT / ".venv" / "bin" / "gunicorn").exists(), reason="bin/serve runs .venv's gunicorn")
def test_serve_wait_returns_once_the_service_answers(tmp_path):
    port = free_port()
    env = {**os.environ, "BIND": f"127.0.0.1:{port}", "WORKERS": "1", "THREADS": "1",
           "SERVE_LOG": str(tmp_path / "serve.log"), "SERVE_WAIT_SECONDS": "60"}
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    run = subprocess.run([str(ROOT / "bin" / "serve"), "--wait"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    pid = int(re.search(r"kill (\d+)", run.stdout).group(1))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:   # at once, no retry
            assert r.status == 200
    finally:
        os.kill(pid, signal.SIGTERM)
        for _ in range(50):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.1)
