"""A real package: the wheel built from this repository, installed in a fresh virtual environment, is the
import package ``seafarers_referee`` (the checkout's folder ``service/``, installed under a name that says
what it is), serves the contract and the rules catalogue, carries its licence and metadata, and has a
command line (``seafarers-referee``: serve, adjudicate, replay, legal) to which another module can add
subcommands."""
from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(cmd, **kw) -> subprocess.CompletedProcess:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, **kw)
    assert r.returncode == 0, (cmd, r.stdout[-3000:], r.stderr[-3000:])
    return r


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # (a build isolated from this environment: setuptools from the index or pip's cache)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)])
    found = list(out.glob("seafarers_referee-*.whl"))
    assert len(found) == 1, found
    return found[0]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; its dependencies are this environment's (a path, not an
    install: no .pth of this environment runs there, so ``seafarers_referee`` is the wheel's, and no
    ``service`` is importable)."""
    env = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(env)])
    site = Path(_run([str(env / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
                .stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    _run([sys.executable, "-m", "pip", "--python", str(env / "bin" / "python"), "install", "--no-deps", "-q",
          str(wheel)])
    return env


def test_the_wheel_holds_the_contract_the_catalogue_the_licence_and_metadata(wheel):
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        assert "seafarers_referee/contract/openapi.yaml" in names
        assert z.read("seafarers_referee/contract/openapi.yaml") == (ROOT / "openapi.yaml").read_bytes()
        assert "seafarers_referee/rules/catalogue.jsonl" in names
        assert "seafarers_referee/contract/gunicorn.conf.py" in names
        # every module of the checkout's service/ is in the wheel, under the new name, and nothing else is
        tops = {n.split("/")[0] for n in names if not n.startswith("seafarers_referee-")}
        assert tops == {"seafarers_referee"}, tops
        source = {str(p.relative_to(ROOT / "service")) for p in (ROOT / "service").rglob("*.py")}
        assert source <= {n[len("seafarers_referee/"):] for n in names}, source - names
        meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
        meta = z.read(meta_name).decode()
        assert any(n.endswith("licenses/LICENSE") or n.endswith("/LICENSE") for n in names)
        entry = z.read(meta_name.replace("METADATA", "entry_points.txt")).decode()
        top_level = z.read(meta_name.replace("METADATA", "top_level.txt")).decode().split()
    assert "License-Expression: MIT" in meta and "Requires-Python: >=3.11" in meta
    assert "Summary: A stateless REST referee" in meta and "Description-Content-Type: text/markdown" in meta
    assert "seafarers-referee = seafarers_referee.cli:main" in entry
    assert "records = seafarers_referee.records.cli" in entry
    assert top_level == ["seafarers_referee"]
    assert not any(n.startswith(("tests/", "bench/", "contract/")) for n in names)


def test_an_installed_copy_serves_the_contract_and_the_rules(venv, tmp_path):
    probe = """
import importlib.util, json, seafarers_referee
from seafarers_referee.api import create_app
from seafarers_referee.engine.scenarios import SCENARIOS
from seafarers_referee.records.record import rules_version
c = create_app({"TESTING": True}).test_client()
spec = c.get("/openapi.yaml")
rules = c.get("/v1/rules?prefix=SEA-029")
print(json.dumps({"where": seafarers_referee.__file__, "spec": spec.status_code, "spec_bytes": len(spec.get_data()),
                  "rules": rules.status_code, "count": rules.get_json()["count"], "scenarios": sorted(SCENARIOS),
                  "rules_version": rules_version(), "service": importlib.util.find_spec("service") is not None}))
"""
    got = json.loads(_run([str(venv / "bin" / "python"), "-c", probe], cwd=tmp_path).stdout.strip().splitlines()[-1])
    assert str(venv) in got["where"], got      # the wheel's copy, not this checkout
    assert got["service"] is False             # the installed name only
    from service.engine.scenarios import SCENARIOS
    from service.records.record import rules_version
    assert got["scenarios"] == sorted(SCENARIOS)   # every module package found under the installed name
    assert got["rules_version"] == rules_version() != "unknown"
    assert got["spec"] == 200 and got["spec_bytes"] == len((ROOT / "openapi.yaml").read_bytes())
    assert got["rules"] == 200 and got["count"] >= 1


def test_the_command_line_of_the_installed_copy(venv, tmp_path):
    from service.api import create_app
    c = create_app({"TESTING": True}).test_client()
    state = c.post("/v1/games", json={"players": 3, "seed": 5}).get_json()["state"]
    listing = c.post("/v1/legal-actions", json={"state": state}).get_json()
    action = next(iter(listing["actions"].values()))[0]
    (tmp_path / "state.json").write_text(json.dumps(state))
    (tmp_path / "adj.json").write_text(json.dumps({"state": state, "action": action}))
    bad = {**action, "player": (action["player"] + 1) % 3}
    (tmp_path / "bad.json").write_text(json.dumps({"state": state, "action": bad}))
    (tmp_path / "replay.json").write_text(json.dumps({"new_game": {"players": 3, "seed": 5}, "actions": [action]}))
    (tmp_path / "broken.json").write_text("{")
    exe = str(venv / "bin" / "seafarers-referee")

    def run(*args):
        return subprocess.run([exe, *args], capture_output=True, text=True, timeout=120, cwd=tmp_path)

    r = run("adjudicate", "adj.json")
    assert r.returncode == 0 and json.loads(r.stdout) == c.post("/v1/adjudicate", json={"state": state, "action": action}).get_json()
    assert r.stderr == ""
    r = run("adjudicate", "bad.json")
    assert r.returncode == 1 and json.loads(r.stdout)["legal"] is False
    r = run("legal", "state.json")
    assert r.returncode == 0 and json.loads(r.stdout) == listing
    r = run("replay", "replay.json")
    assert r.returncode == 0 and json.loads(r.stdout)["all_legal"] is True
    r = run("adjudicate", "broken.json")
    assert r.returncode == 2 and json.loads(r.stderr)["status"] == 400
    r = run("adjudicate", "missing.json")
    assert r.returncode != 0 and "cannot read" in r.stderr
    r = run("--help")
    assert r.returncode == 0 and all(k in r.stdout for k in ("serve", "adjudicate", "replay", "legal"))
    assert all(k in r.stdout for k in ("import", "export"))    # the service's own entry point, loaded


def test_another_module_registers_a_subcommand(monkeypatch, capsys):
    from service import cli
    monkeypatch.setattr(cli, "COMMANDS", dict(cli.COMMANDS))

    @cli.command("hello", "say hello", lambda p: p.add_argument("name"))
    def hello(args):
        print(f"hello {args.name}")
        return 0

    assert cli.main(["hello", "referee"]) == 0
    assert capsys.readouterr().out == "hello referee\n"
    assert {"serve", "adjudicate", "replay", "legal", "hello"} <= set(cli.COMMANDS)


def test_the_installed_copy_serves_http(venv, tmp_path):
    import socket
    import time
    import urllib.request
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        probe_port = s.getsockname()[1]
    import os
    env = {**os.environ, "PROBE_BIND": f"127.0.0.1:{probe_port}"}    # (the packaged gunicorn settings' probes)
    proc = subprocess.Popen([str(venv / "bin" / "seafarers-referee"), "serve", "--bind", f"127.0.0.1:{port}",
                             "--workers", "1"], cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/openapi.yaml", timeout=2) as r:
                    assert r.status == 200 and r.read() == (ROOT / "openapi.yaml").read_bytes()
                with urllib.request.urlopen(f"http://127.0.0.1:{probe_port}/healthz", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
                assert time.monotonic() < deadline, "no answer in 60 s"
                time.sleep(0.3)
    finally:
        proc.terminate()
        proc.wait(timeout=30)
