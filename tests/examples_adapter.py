"""Translate an example position (``tests/fixtures/examples/cases``) into our API's JSON.

An example is written in a neutral format: a board, pieces, a ``context`` (the rest of the state) and an
action. :func:`to_state` gives the state a client would post; :func:`to_action` the action;
:func:`derived_values` reads a verdict back into the example's ``expect.derived`` vocabulary.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

RES = ("lumber", "brick", "wool", "grain", "ore")
CASES = Path(__file__).resolve().parent / "fixtures" / "examples" / "cases"

#: Context keys that are scenario data: passed through into ``scenario_state`` under the same name.
SCENARIO_KEYS = ("islands", "home_islands", "mainland", "hex_pile", "token_pile", "front_coast",
                 "villages", "diamond_cache", "diamond_reserve", "diamonds", "trade_routes",
                 "treasures", "treasure_stock", "pending", "kept", "special_ports", "harbor_pile")


def load_cases() -> list[dict]:
    return [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CASES.glob("*.json"))]


def scenario_id(example: dict) -> str:
    """The scenario an example runs under: its ``context.scenario`` as is, else the general rules."""
    return example.get("context", {}).get("scenario") or "seafarers"


def dice_for(total: int) -> list[int]:
    """A pair of dice showing ``total``."""
    first = min(6, total - 1)
    return [first, total - first]


def _hand(d: Optional[dict]) -> dict[str, int]:
    d = d or {}
    return {r: int(d.get(r, 0)) for r in RES}


def _dev(cards: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def to_state(example: dict) -> dict[str, Any]:
    """The posted state. The bank is left out, so it is what the hands leave of 19 of each resource."""
    ctx = example.get("context", {})
    n = int(ctx.get("players", 2))
    hands = ctx.get("hands", {})
    dev = ctx.get("dev_cards", {})
    dev_new = ctx.get("dev_cards_bought_this_turn") or {}
    if isinstance(dev_new, list):          # a bare list belongs to the current player
        dev_new = {str(ctx.get("current_player", 0)): dev_new}
    gold = ctx.get("gold") or {}
    svp_tokens = ctx.get("svp_tokens") or {}
    players = []
    for i in range(n):
        p: dict[str, Any] = {"resources": _hand(hands.get(str(i)))}
        if dev.get(str(i)):
            p["dev_cards"] = _dev(dev[str(i)])
        if dev_new.get(str(i)):
            p["dev_cards_new"] = _dev(dev_new[str(i)])
        if str(i) in gold:
            p["gold"] = int(gold[str(i)])
        tokens = svp_tokens.get(str(i)) or []
        if tokens:
            p["svp"] = sum(int(t.get("count", 1)) for t in tokens)
        players.append(p)
    pieces = example.get("pieces", {})
    phase = ctx.get("phase", "main")
    st: dict[str, Any] = {
        "scenario": scenario_id(example),
        "board": {"hexes": [{"q": h["q"], "r": h["r"], "terrain": h["terrain"], "number": h.get("number")}
                            for h in example["board"]["hexes"]],
                  "harbors": example["board"].get("harbors", [])},
        "players": players,
        "pieces": {k: [dict(x) for x in pieces.get(k, [])] for k in ("settlements", "cities", "roads", "ships")},
        "robber": ctx.get("robber_hex"),
        "pirate": ctx.get("pirate_hex"),
        "phase": phase,
        "current_player": int(ctx.get("current_player", 0)),
        "turn_flags": {
            "ships_built": [list(e) for e in ctx.get("ships_built_this_turn", [])],
            "ship_moved": bool(ctx.get("ship_moved_this_turn", False)),
            "dev_card_played": bool(ctx.get("dev_card_played_this_turn", False)),
        },
        "awards": {"longest_road": ctx.get("longest_road_holder")},
    }
    if ctx.get("roll") is not None:
        st["last_roll"] = dice_for(int(ctx["roll"]))
    if phase == "setup":
        last = ctx.get("last_settlement")
        st["setup"] = {"round": int(ctx.get("setup_round", 1)), "step": "road" if last else "settlement",
                       "last_settlement": last}
        st["turn"] = 0
    if phase == "gold_choice":
        st["pending_gold"] = pending_gold(example)
    tokens = [{"node": t["node"], "count": int(t.get("count", 1))}
              for i in range(n) for t in (svp_tokens.get(str(i)) or [])]
    if tokens:
        st["svp_attached"] = tokens
    scen_state = {k: ctx[k] for k in SCENARIO_KEYS if k in ctx}
    if scen_state:
        st["scenario_state"] = scen_state
    return st


def pending_gold(example: dict) -> dict[str, int]:
    """Gold-field picks still owed (R-014): 1 per settlement, 2 per city on a gold hex showing the roll,
    less the picks the context says were already made."""
    ctx = example["context"]
    roll = ctx.get("roll")
    gold_hexes = {(h["q"], h["r"]) for h in example["board"]["hexes"]
                  if h["terrain"] == "gold" and h.get("number") == roll
                  and [h["q"], h["r"]] != ctx.get("robber_hex")}
    owed: dict[int, int] = {}
    for kind, n in (("settlements", 1), ("cities", 2)):
        for b in example["pieces"].get(kind, []):
            for h in _node_hexes(tuple(b["node"])):
                if h in gold_hexes:
                    owed[b["player"]] = owed.get(b["player"], 0) + n
    for p, cards in (ctx.get("gold_already_chosen") or {}).items():
        owed[int(p)] = owed.get(int(p), 0) - sum(cards.values())
    return {str(p): k for p, k in sorted(owed.items()) if k > 0}


def _node_hexes(n: tuple) -> tuple:
    q, r, c = n
    if c == "N":
        return ((q, r), (q, r - 1), (q + 1, r - 1))
    return ((q, r), (q, r + 1), (q - 1, r + 1))


def to_action(example: dict) -> Optional[dict[str, Any]]:
    """The action as our API takes it (the neutral vocabulary is ours already, field for field)."""
    a = example.get("action")
    if a is None:
        return None
    return {k: v for k, v in a.items() if not k.endswith("note")}


def derived_values(example: dict, posted: dict, verdict: dict) -> dict[str, Any]:
    """The verdict in the example's ``expect.derived`` vocabulary (only the keys we can express)."""
    d = verdict.get("derived") or {}
    after = verdict.get("state") or posted
    out: dict[str, Any] = {}
    if "longest_road" in d:
        out["trade_route"] = {p: v["length"] for p, v in d["longest_road"].items()}
    if "longest_road_holder" in d:
        out["longest_road_holder"] = d["longest_road_holder"]
    if "closed_ships" in d:
        out["closed_ships"] = d["closed_ships"]
    if "gold_entitlement" in d:
        out["gold_entitlement"] = d["gold_entitlement"]
    out["hand_after"] = {str(i): p["resources"] for i, p in enumerate(after["players"])}
    out["ships_built_this_turn"] = [list(e) for e in (after.get("turn_flags") or {}).get("ships_built", [])]
    for ev in verdict.get("events", []):
        if ev.get("type") == "moved" and "steal_candidates" in ev:
            out["steal_candidates"] = ev["steal_candidates"]
    # hexes discovered by the action (Oceans), in the order they were revealed.
    found = [ev for ev in verdict.get("events", []) if ev.get("type") == "discovered"]
    if found:
        out["revealed"] = [{"hex": ev["hex"], "terrain": ev["terrain"], "number": ev["number"]} for ev in found]
        out["revealed_hexes"] = [ev["hex"] for ev in found]
    # SEA-019/020: special victory points gained by the action, and the building they lie under.
    before_svp = [p.get("svp", 0) for p in posted["players"]]
    out["svp_awarded"] = {str(i): p.get("svp", 0) - before_svp[i] for i, p in enumerate(after["players"])}
    before_att = {tuple(x["node"]): x["count"] for x in posted.get("svp_attached", [])}
    grew = [x["node"] for x in after.get("svp_attached", []) if x["count"] > before_att.get(tuple(x["node"]), 0)]
    if len(grew) == 1:
        out["svp_attached_to"] = grew[0]
    return out


def compare(key: str, expected: Any, got: Any) -> bool:
    """Does ``got`` agree with an expected derived value? Maps compare on the listed keys only."""
    if key == "closed_ships":
        return all(sorted(map(list, v)) == sorted(map(list, got.get(p, []))) for p, v in expected.items())
    if key in ("trade_route", "gold_entitlement", "svp_awarded"):
        return all(got.get(p, 0) == v for p, v in expected.items())
    if key == "hand_after":
        return all(got[p].get(r, 0) == n for p, cards in expected.items() for r, n in cards.items())
    if key in ("steal_candidates",):
        return sorted(expected) == sorted(got)
    if key in ("revealed_hexes",):
        return sorted(map(list, expected)) == sorted(map(list, got))
    return expected == got
