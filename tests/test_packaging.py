"""Packaging: the declared dependencies are exactly what the code imports; the image installs a hashed lock
file and what PNG rendering needs; gunicorn makes no control socket."""
from __future__ import annotations

import ast
import re
import runpy
import sys
from pathlib import Path

import pytest

from .test_k8s import dockerfile

ROOT = Path(__file__).resolve().parents[1]
#: import name -> distribution name, where they differ
DIST = {"PIL": "pillow", "yaml": "pyyaml", "prometheus_client": "prometheus-client",
        "openapi_spec_validator": "openapi-spec-validator", "kubernetes_validate": "kubernetes-validate"}
#: installed for what they run, not imported: gunicorn serves the app (and reads gunicorn.conf.py)
RUN_ONLY = {"gunicorn"}


def pyproject():
    import tomllib
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def names(reqs) -> set[str]:
    return {re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0].lower() for r in reqs}


def third_party_imports(*dirs: str) -> set[str]:
    local = {"service", "seafarers_referee", "tests", "bench", "contract", "clients"}
    found = set()
    for d in dirs:
        for p in (ROOT / d).rglob("*.py"):
            tree = ast.parse(p.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                mods = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                        [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
                for m in mods:
                    top = m.split(".")[0]
                    if top not in sys.stdlib_module_names and top not in local:
                        found.add(DIST.get(top, top).lower())
    return found


def test_runtime_dependencies_are_what_the_service_imports():
    declared = names(pyproject()["project"]["dependencies"])
    used = third_party_imports("service") | third_party_imports_of_file("gunicorn.conf.py")
    assert declared == used | RUN_ONLY, f"declared but unused: {declared - used - RUN_ONLY}; used but undeclared: {used - declared}"
    assert "pyyaml" not in declared


def third_party_imports_of_file(name: str) -> set[str]:
    tree = ast.parse((ROOT / name).read_text(encoding="utf-8"))
    return {DIST.get(a.name.split(".")[0], a.name.split(".")[0]).lower() for n in ast.walk(tree)
            if isinstance(n, ast.Import) for a in n.names if a.name.split(".")[0] not in sys.stdlib_module_names}


def test_test_extras_cover_what_the_tests_import():
    project = pyproject()["project"]
    runtime = names(project["dependencies"])
    test = names(project["optional-dependencies"]["test"])
    used = third_party_imports("tests")
    assert used <= runtime | test, f"imported by tests but not declared: {used - runtime - test}"
    assert {"jsonschema", "referencing", "pyyaml"} <= test


def lock() -> dict[str, tuple[str, list[str]]]:
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    out = {}
    for block in re.split(r"\n(?=[a-z0-9])", text):
        m = re.match(r"([a-z0-9][a-z0-9._-]*)==([^ \\\n]+)", block)
        if m:
            out[m.group(1).lower()] = (m.group(2), re.findall(r"--hash=sha256:([0-9a-f]{64})", block))
    return out


def test_the_lock_pins_every_runtime_dependency_with_hashes():
    locked = lock()
    assert names(pyproject()["project"]["dependencies"]) <= set(locked)
    for name, (version, hashes) in locked.items():
        assert hashes, f"{name}=={version} has no hash"
    text = (ROOT / "requirements.lock").read_text(encoding="utf-8")
    assert "file://" not in text and "--find-links" not in text          # installs from PyPI anywhere
    assert {"cairosvg", "cairocffi"} <= set(locked)                     # PNG rendering's Python side


def test_the_image_installs_the_lock_and_what_png_rendering_needs():
    runs = [a for i, a in dockerfile() if i == "RUN"]
    copies = [a for i, a in dockerfile() if i == "COPY"]
    assert any("requirements.lock" in c for c in copies)
    assert any("--require-hashes" in r and "-r requirements.lock" in r for r in runs)
    apt = " ".join(r for r in runs if "apt-get install" in r)
    assert "libcairo2" in apt, "cairosvg loads libcairo.so.2 at run time"
    assert re.search(r"\bfonts-[a-z-]+", apt), "text in pictures needs a font fontconfig can find"
    # the packages go into the stage that runs the service (after its FROM)
    stages = [i for i, (ins, _a) in enumerate(dockerfile()) if ins == "FROM"]
    apt_at = next(i for i, (ins, a) in enumerate(dockerfile()) if ins == "RUN" and "libcairo2" in a)
    assert apt_at > stages[-1]


def test_gunicorn_makes_no_control_socket():
    from gunicorn.config import Config
    cfg = Config()
    for k, v in runpy.run_path(str(ROOT / "gunicorn.conf.py")).items():
        if k in cfg.settings:
            cfg.set(k, v)
    if "control_socket_disable" not in cfg.settings:
        pytest.skip("this gunicorn has no control socket")
    assert cfg.control_socket_disable is True


def test_the_package_never_names_itself():
    """The folder service/ is installed as seafarers_referee (setup.py): every import inside it is relative,
    so the same files work under both names (the wheel's test imports the installed copy)."""
    absolute = []
    for p in (ROOT / "service").rglob("*.py"):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            mods = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                    [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module else [])
            absolute += [f"{p.relative_to(ROOT)}: {m}" for m in mods if m.split(".")[0] in ("service", "seafarers_referee")]
    assert not absolute, absolute
    text = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert 'NAME = "seafarers_referee"' in text and 'SOURCE = "service"' in text
