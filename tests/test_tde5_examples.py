"""The Great Canal's example positions (``tests/fixtures/examples/tde5/*.json``, one per ruling R-070..R-074),
through POST /v1/adjudicate. The files follow the Cities & Knights examples' format (its ``to_state``),
with the scenario's own data in ``context.tde5`` (keys of ``scenario_state``), ``context.setup`` for a
set-up position, and ``expect.derived.tde5_after`` (keys of the scenario's data after the action)."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from .test_cities_and_knights_examples import _subset, to_state

HERE = Path(__file__).resolve().parent / "fixtures" / "examples" / "tde5"
CASES = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(HERE.glob("*.json"))]


def tde5_state(ex: dict) -> dict:
    st = to_state(ex)
    ctx = ex["context"]
    st["scenario_state"].update(copy.deepcopy(ctx.get("tde5") or {}))
    if ctx.get("setup"):
        st["setup"] = ctx["setup"]
        st.pop("turn_flags", None)
    return st


def test_every_tde5_ruling_has_an_example():
    """R-070, R-071, R-072, R-073, R-074 (the rulings on TDE5) each have an example position."""
    named = {r for c in CASES for r in c["rules"]}
    assert {"R-070", "R-071", "R-072", "R-073", "R-074"} <= named


@pytest.mark.parametrize("example", CASES, ids=[c["id"] for c in CASES])
def test_example(client, example):
    posted = tde5_state(example)
    before = copy.deepcopy(posted)
    r = client.post("/v1/adjudicate", json={"state": posted, "action": example["action"]})
    assert r.status_code == 200, (example["id"], r.get_json())
    assert posted == before
    v = r.get_json()
    expect = example["expect"]
    assert v["legal"] is expect["legal"], (example["id"], example["why"], v["violations"])
    if not expect["legal"]:
        named = [x["rule"] for x in v["violations"]]
        assert named and named[0] == expect["rule"], (example["id"], named)
        return
    after = v["state"]
    for key, want in (expect.get("derived") or {}).items():
        if key == "events":
            assert set(want) <= {e["type"] for e in v["events"]}, example["id"]
        elif key == "tde5_after":
            for k, val in want.items():
                assert _subset(val, after["scenario_state"][k]), (example["id"], k)
        elif key in ("phase", "pending_gold"):
            assert after[key] == want, (example["id"], key, after[key])
        else:
            raise AssertionError(f"{example['id']}: unknown expected key {key}")
