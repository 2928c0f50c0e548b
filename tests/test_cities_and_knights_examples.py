"""Cities & Knights example positions (``tests/fixtures/examples/cities_and_knights/*.json``), through
POST /v1/adjudicate: legality, the rule named, and what the action leaves.

The files follow the shared example format (id, title, rules, board, pieces, context, action, expect,
why), with the module's data in ``context.cities_and_knights`` (any keys of
``scenario_state.cities_and_knights``; the rest is the start of a game, and the commodity bank and the
progress decks hold what the hands leave) and ``context.options``. ``expect.derived`` keys:
``hand_after`` (resources), ``ck_after`` (keys of the module's data after the action; maps by player
compare on the listed players), ``buildings_after`` (pieces that must stand there after the action),
``events`` (event types emitted), ``progress_drawn`` (cards drawn per player), ``phase``,
``pending_gold``, ``pending_discards``.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from service.engine.modules.cities_and_knights import store
from service.engine.modules.cities_and_knights.data import COMMODITIES, COMMODITY_COUNT, DECK_OF, DECKS, TRACKS

HERE = Path(__file__).resolve().parent / "fixtures" / "examples" / "cities_and_knights"
CASES = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(HERE.glob("*.json"))]
RES = ("lumber", "brick", "wool", "grain", "ore")


def module_state(n: int, given: dict) -> dict:
    c = store.initial(n)
    for k, v in given.items():
        if k in ("commodities", "improvements", "defenders", "hands", "vp_cards"):
            for p, val in v.items():
                if isinstance(c[k][p], dict):
                    c[k][p] = {**c[k][p], **val}
                else:
                    c[k][p] = val
        elif k == "turn":
            c[k] = {**c[k], **v}
        else:
            c[k] = v
    c["knights"] = [{"activated": False, "acted": False, "promoted": False, **k} for k in c["knights"]]
    for com in COMMODITIES:
        c["commodity_bank"][com] = COMMODITY_COUNT - sum(h.get(com, 0) for h in c["commodities"].values())
    for d in TRACKS:
        for card, q in DECKS[d].items():
            held = sum(h.get(card, 0) for h in c["hands"].values()) + sum(h.get(card, 0) for h in c["vp_cards"].values())
            c["decks"][d][card] = q - held
    return c


def to_state(ex: dict) -> dict:
    ctx = ex["context"]
    n = int(ctx.get("players", 3))
    st = {
        "scenario": ctx.get("scenario", "base"),
        "options": ctx.get("options", {"cities_and_knights": True}),
        "board": {"hexes": ex["board"]["hexes"], "harbors": ex["board"].get("harbors", [])},
        "players": [{"resources": {r: int((ctx.get("hands", {}).get(str(i)) or {}).get(r, 0)) for r in RES}}
                    for i in range(n)],
        "pieces": ex["pieces"],
        "robber": ctx.get("robber_hex"),
        "pirate": ctx.get("pirate_hex"),
        "phase": ctx.get("phase", "main"),
        "current_player": int(ctx.get("current_player", 0)),
        "scenario_state": {store.KEY: module_state(n, ctx.get("cities_and_knights", {}))},
    }
    if st["phase"] in ("main", "discard", "robber", "gold_choice"):
        st["turn_flags"] = {"rolled": True}
    return st


def test_there_are_examples():
    assert len(CASES) >= 25


def _subset(want, got) -> bool:
    if isinstance(want, dict) and isinstance(got, dict):
        return all(k in got and _subset(v, got[k]) for k, v in want.items())
    if isinstance(want, list) and isinstance(got, list):
        return len(want) == len(got) and all(_subset(a, b) for a, b in zip(want, got))
    return want == got


@pytest.mark.parametrize("example", CASES, ids=[c["id"] for c in CASES])
def test_example(client, example):
    posted = to_state(example)
    before = copy.deepcopy(posted)
    r = client.post("/v1/adjudicate", json={"state": posted, "action": example["action"]})
    assert r.status_code == 200, (example["id"], r.get_json())
    assert posted == before
    v = r.get_json()
    expect = example["expect"]
    assert v["legal"] is expect["legal"], (example["id"], example["why"], v["violations"])
    if not expect["legal"]:
        named = [x["rule"] for x in v["violations"]]
        assert named and named[0] in {expect["rule"], *expect.get("also_acceptable_rules", [])}, (example["id"], named)
        return
    after = v["state"]
    c = after["scenario_state"][store.KEY]
    for key, want in (expect.get("derived") or {}).items():
        if key == "hand_after":
            for p, cards in want.items():
                assert all(after["players"][int(p)]["resources"][k] == n for k, n in cards.items()), (example["id"], key)
        elif key == "ck_after":
            for k, val in want.items():
                assert _subset(val, c[k]), (example["id"], k, val, c[k])
        elif key == "buildings_after":
            for kind, pieces in want.items():
                for piece in pieces:
                    assert piece in after["pieces"][kind], (example["id"], kind, piece)
        elif key == "events":
            types = {e["type"] for e in v["events"]}
            assert set(want) <= types, (example["id"], want, types)
        elif key == "progress_drawn":
            drawn = {}
            for e in v["events"]:
                if e["type"] == "progress_drawn":
                    drawn[str(e["player"])] = drawn.get(str(e["player"]), 0) + 1
            assert all(drawn.get(p, 0) == k for p, k in want.items()), (example["id"], drawn)
        elif key in ("phase", "pending_gold", "pending_discards"):
            assert after[key] == want, (example["id"], key, after[key])
        else:
            raise AssertionError(f"{example['id']}: unknown expected key {key}")
