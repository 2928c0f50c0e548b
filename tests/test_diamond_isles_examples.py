"""The Diamond Isles example positions (``tests/fixtures/examples/cases/diam-*.json``, the shared example
format) through POST /v1/adjudicate: the shared cache (DIAM-008), the pirate's preconditions and theft
(DIAM-015, DIAM-016), the robber's (DIAM-014), closed routes (DIAM-011), the end by exhausted villages and
its tie-break (DIAM-021, DIAM-022)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .examples_adapter import compare, derived_values, to_action, to_state

CASES = [json.loads(p.read_text(encoding="utf-8"))
         for p in sorted((Path(__file__).parent / "fixtures" / "examples" / "cases").glob("diam-*.json"))]


def test_there_are_diamond_isles_examples():
    assert len(CASES) >= 5
    covered = {r for c in CASES for r in c["rules"]}
    assert {"DIAM-008", "DIAM-014", "DIAM-015", "DIAM-016", "DIAM-021", "DIAM-022"} <= covered


@pytest.mark.parametrize("example", CASES, ids=[c["id"] for c in CASES])
def test_diamond_isles_example(client, example):
    posted = to_state(example)
    r = client.post("/v1/adjudicate", json={"state": posted, "action": to_action(example)})
    assert r.status_code == 200, (example["id"], r.get_json())
    verdict = r.get_json()
    expect = example["expect"]
    assert verdict["legal"] is expect["legal"], (example["id"], verdict["violations"])
    if not expect["legal"]:
        acceptable = {expect["rule"], *expect.get("also_acceptable_rules", [])}
        assert verdict["violations"][0]["rule"] in acceptable, (example["id"], verdict["violations"])
    got = derived_values(example, posted, verdict)
    for key, want in (expect.get("derived") or {}).items():
        value = got[key] if key in got else verdict["derived"][key]
        assert compare(key, want, value), (example["id"], key, want, value)
