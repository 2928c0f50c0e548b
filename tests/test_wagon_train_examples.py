"""The wagon-train example positions (``tests/fixtures/wagon_train``): exact MP, the grain once, tolls charged
once, graded barbarians, conquered hexes, rivers and bridges, ships that do not pave, deliveries and the next
draw, empty stacks, sea jumps and the pirate pool, tribute per warship, chases, the movement-phase gate
(WAG-003, WAG-008..WAG-043, WAG-050..WAG-054, WAG-058, WAG-060, WAG-061, WAG-067)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import adjudicate

CASES = sorted((Path(__file__).parent / "fixtures" / "wagon_train").glob("*.json"))


def _at(doc, ptr: str):
    for part in ptr.strip("/").split("/"):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def test_there_are_forty_cases_or_more():
    assert len(CASES) >= 40


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_example(client, path):
    case = json.loads(path.read_text(encoding="utf-8"))
    assert case["rules"], case["id"]
    v = adjudicate(client, case["state"], case["action"])
    want = case["expect"]
    assert v["legal"] == want["legal"], (case["id"], v["violations"])
    if not want["legal"]:
        assert v["violations"][0]["rule"] == want["rule"], (case["id"], v["violations"])
        if want.get("pointer"):
            assert v["violations"][0]["path"] == want["pointer"], (case["id"], v["violations"])
    for ptr, value in (want.get("after") or {}).items():
        assert _at(v["state"], ptr) == value, (case["id"], ptr)
