"""The 5-6 extension's example positions (``tests/fixtures/five_six``): the Special Building Phase's and the
paired turn's edges, each a posted position and a sequence of actions with the verdict expected at each step,
run through ``POST /v1/adjudicate`` (every answer checked against openapi.yaml)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from .helpers import rules
from .spec_util import check_response

CASES = sorted((Path(__file__).resolve().parent / "fixtures" / "five_six").glob("*.json"))


def test_the_four_edges_are_there():
    """BASE56-034, -035, -036, -046: the edges named for the 5-6 extension each have an example."""
    assert {p.stem for p in CASES} == {"card-bought-in-the-phase-played-next-turn",
                                       "longest-road-changes-hands-in-the-phase",
                                       "ten-points-in-the-phase-waits-for-the-own-turn",
                                       "paired-second-player-wins-at-once"}


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_BASE56_example(client, path):
    """Each step's verdict is the one the example states (legal or the rules cited; phase, whose turn or slot,
    winner, Longest Road holder, VP, events)."""
    ex = json.loads(path.read_text(encoding="utf-8"))
    st = ex["state"]
    for i, step in enumerate(ex["steps"]):
        r = client.post("/v1/adjudicate", json={"state": st, "action": step["action"]})
        check_response("/v1/adjudicate", "post", r)
        v = r.get_json()
        where = f"{ex['name']} step {i}"
        assert v["legal"] is step["legal"], (where, v["violations"])
        if not step["legal"]:
            assert rules(v) == step["rules"], where
            continue
        s = v["state"]
        for key in ("phase", "current_player", "winner"):
            if key in step:
                assert s.get(key) == step[key], (where, key, s.get(key))
        if "longest_road_holder" in step:
            assert v["derived"]["longest_road_holder"] == step["longest_road_holder"], where
        for p, vp in step.get("vp", {}).items():
            assert v["derived"]["victory_points"][p]["total"] == vp, where
        for e in step.get("events", []):
            assert e in v["events"], (where, e, v["events"])
        st = s
