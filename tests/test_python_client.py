"""The typed Python client package (``clients/python/``, ``seafarers-referee-client``): built from the
published contract by openapi-python-client when its wheel is built (``bin/python-client``), versioned with
the service and its contract, and it plays a game against the service."""
from __future__ import annotations

import hashlib
import subprocess
import sys
import tomllib
import zipfile
from importlib.metadata import version as installed_version
from pathlib import Path

import pytest

from .test_client_generation import MOVES, ONE, _import, _play_through, opc_client, server  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "clients" / "python"
PACKAGE = "seafarers_referee_client"


def _run(cmd) -> None:
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, (cmd, r.stdout[-3000:], r.stderr[-3000:])


def _service_version() -> str:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, Path]:
    """(the wheel, where it is installed): built as a user builds it, in an isolated build with the pinned
    generator."""
    out = tmp_path_factory.mktemp("client-wheel")
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(CLIENT)])
    found = list(out.glob(f"{PACKAGE}-*.whl"))
    assert len(found) == 1, found
    target = tmp_path_factory.mktemp("client-site")
    _run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(found[0])])
    return found[0], target


@pytest.fixture(scope="module")
def client(built):
    return _import(built[1], PACKAGE)


def test_the_client_is_versioned_with_the_service_and_its_contract(built, client):
    wheel, target = built
    version = _service_version()
    assert wheel.name.startswith(f"{PACKAGE}-{version}-")
    assert client.__version__ == version
    assert client.CONTRACT_SHA256 == hashlib.sha256((ROOT / "openapi.yaml").read_bytes()).hexdigest()
    assert (target / PACKAGE / "py.typed").is_file()                   # typed (PEP 561)
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
    assert "Name: seafarers-referee-client" in meta and f"Version: {version}" in meta
    assert "Requires-Dist: httpx" in meta and "Requires-Dist: attrs" in meta


def test_the_client_is_what_the_generator_makes_from_the_current_contract(built, tmp_path):
    """Every operation of the contract is in the client, and the wheel's package is file for file what
    ``bin/python-client --source`` writes from the current openapi.yaml."""
    pinned = next(r for r in tomllib.loads((CLIENT / "pyproject.toml").read_text(encoding="utf-8"))
                  ["build-system"]["requires"] if r.startswith("openapi-python-client=="))
    if installed_version("openapi-python-client") != pinned.partition("==")[2]:
        pytest.skip(f"this environment's openapi-python-client is not the pinned {pinned}")
    _run([str(ROOT / "bin" / "python-client"), "--source", str(tmp_path)])
    made = {p.relative_to(tmp_path): p.read_bytes() for p in (tmp_path / PACKAGE).rglob("*") if p.is_file()}
    wheel = {p.relative_to(built[1]): p.read_bytes() for p in (built[1] / PACKAGE).rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert made.keys() == wheel.keys(), sorted(made.keys() ^ wheel.keys())[:10]
    assert [k for k in made if made[k] != wheel[k]] == []
    import yaml
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text(encoding="utf-8"))
    operations = {op["operationId"] for path in spec["paths"].values() for op in path.values()
                  if isinstance(op, dict) and "operationId" in op}
    modules = {p.stem for p in (tmp_path / PACKAGE / "api").rglob("*.py") if p.stem != "__init__"}
    snake = {"".join("_" + c.lower() if c.isupper() else c for c in o).lstrip("_").replace("-", "_") for o in operations}
    assert snake <= modules, snake - modules


def test_the_client_plays_a_game(client, server):    # noqa: F811
    _play_through(opc_client(client, server), ONE, MOVES)
