"""The repository stands alone: nothing in it reads a folder beside it, and the data the tests need is in it.

``.ci/run`` runs the suite on a copy placed alone in a temporary directory; this test catches the same
mistake earlier, by reading the code, the tests, the scripts and the documents for paths that leave the
repository.
"""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("service", "tests", "bench", "bin", "docs", ".ci")
TOP_FILES = ("README.md", "Dockerfile", "gunicorn.conf.py", "pyproject.toml", "openapi.yaml")
SUFFIXES = {".py", ".md", ".sh", ".yaml", ".yml", ".json", ".toml", ".html", ""}
SIBLING = "sha" + "red"            # spelt in two parts so this file does not find itself
OUTSIDE = [
    re.compile(r"\.\./+" + SIBLING + r"\b"),                       # the sibling folder, by a relative path
    re.compile(r"parents\[\d+\]\s*/\s*[\"']" + SIBLING + r"[\"']"),  # a path climbing out by parents[n]
    re.compile(r"/work/" + SIBLING + r"\b"),
]


def _files():
    for name in TOP_FILES:
        if (ROOT / name).is_file():
            yield ROOT / name
    for d in SCANNED:
        for p in (ROOT / d).rglob("*"):
            if p.is_file() and p.suffix in SUFFIXES and "fixtures" not in p.parts and "__pycache__" not in p.parts:
                yield p


def test_nothing_reads_beside_the_repository():
    found = []
    for p in _files():
        text = p.read_text(encoding="utf-8", errors="replace")
        for rx in OUTSIDE:
            for m in rx.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{p.relative_to(ROOT)}:{line}: {m.group(0)}")
    assert not found, "paths outside the repository:\n" + "\n".join(found)


def test_example_positions_are_in_the_repository():
    cases = sorted((ROOT / "tests" / "fixtures" / "examples" / "cases").glob("*.json"))
    assert len(cases) >= 30
    assert (ROOT / "tests" / "fixtures" / "examples" / "README.md").is_file()
    from .examples_adapter import CASES
    assert CASES.resolve().is_relative_to(ROOT)


def test_ci_runs_the_readme_command_on_a_lone_copy():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./bin/test" in ci and "mktemp -d" in ci
    assert "./bin/test" in (ROOT / "README.md").read_text(encoding="utf-8")
