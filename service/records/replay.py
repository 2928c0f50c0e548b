"""Replaying a record (ours, or one imported from another app): every action judged in order by the same
loop as ``POST /v1/replay``, the first illegal one named with its rule and the record's own line or index,
and the derived values the record states compared with ours at its end.

Nothing here decides a verdict: the position is parsed by the service's one input boundary
(``parse_state``), each action by ``parse_action`` and judged by ``api.replay.replay``.
"""
from __future__ import annotations

from typing import Any

from ..api.codec import dump_state
from ..api.replay import replay, state_digest
from ..api.service import invalid, parse_action, parse_state
from ..engine.derive import derive
from ..engine.legal import action_json
from ..engine.scenarios import scenario_of

#: An outcome left to the seeded generator, written back from the step's event: (action type, field) ->
#: (event type, event field).
OUTCOMES = {
    ("roll", "dice"): ("rolled", "dice"),
    ("move_robber", "card"): ("stole", "resource"),
    ("play_knight", "card"): ("stole", "resource"),
    ("steal_card", "card"): ("stole", "resource"),
    ("buy_development_card", "card"): ("bought_development_card", "card"),
}


def with_outcomes(action: dict, events: list[dict]) -> dict:
    out = dict(action)
    for (t, fld), (ev, evf) in OUTCOMES.items():
        if action["type"] != t or out.get(fld) is not None:
            continue
        for e in events:
            if e.get("type") == ev and e.get(evf) is not None:
                out[fld] = e[evf]
                break
    return out


def replay_record(rec: dict, cache: Any, *, budget: Any = None, pointer: str = "/record") -> dict[str, Any]:
    """The verdict on a record (see the module text) and the record with its digests and outcomes filled in
    (``"record"``): written by ``record.write_json`` it is the same bytes however often it is replayed.
    Keys starting with ``_`` are the replay itself (for the HTTP answer), not part of the verdict."""
    state, graph = parse_state(rec["initial"], cache, f"{pointer}/initial")
    actions = [parse_action(a, state, f"{pointer}/actions/{i}") for i, a in enumerate(rec["actions"])]
    for i, c in enumerate(rec.get("checks") or []):
        if not 0 <= c["player"] < state.num_players:
            raise invalid([{"pointer": f"{pointer}/checks/{i}/player",
                            "detail": f"player {c['player']} does not exist in a {state.num_players}-player game"}])
    checks = sorted(rec.get("checks") or [], key=lambda c: c["after"])
    r, check_disagreements = _replay_checked(state, actions, graph, checks, budget)
    sources = rec.get("sources")
    steps = [s.get("digest") for s in r.steps if s.get("legal")]
    written = []
    for i, a in enumerate(actions):
        aj = action_json(a)
        if i < len(r.steps) and r.steps[i].get("legal"):
            aj = with_outcomes(aj, r.steps[i].get("events") or [])
        written.append(aj)
    first = None
    if r.first_illegal is not None:
        i = r.first_illegal["index"]
        first = {"index": i, "source": sources[i] if sources else i, "action": written[i],
                 "rules": [v["rule"] for v in r.first_illegal["violations"]],
                 "violations": r.first_illegal["violations"],
                 "digest_before": state_digest(r.first_illegal["state_before"])}
    final = r.final
    derived = derive(final, r.graph or graph, scenario_of(final))
    stated = rec.get("stated")
    disagreements = check_disagreements + (compare(stated, derived, final) if stated and first is None else [])
    out_rec = dict(rec)
    out_rec["initial"] = dump_state(state)
    out_rec["actions"] = written
    out_rec["digests"] = {"initial": state_digest(state), "steps": steps + [None] * (len(actions) - len(steps)),
                          "final": state_digest(final)}
    return {"actions": len(actions), "applied": r.applied, "all_legal": first is None, "first_illegal": first,
            "final": {"digest": state_digest(final), "derived": derived}, "stated": stated,
            "disagreements": disagreements, "record": out_rec,
            "_replay": r, "_initial": state, "_graph": graph, "_actions": actions}


def _replay_checked(state: Any, actions: list, graph: Any, checks: list[dict], budget: Any) -> tuple[Any, list]:
    """``replay`` in parts, cut where the record states a player's hand (``checks``: after how many actions,
    the player, the resources), comparing ours there. The parts are judged by the one replay loop; their
    steps, digests and final position are those of a replay in one go."""
    out: list[dict] = []
    cuts = sorted({c["after"] for c in checks if 0 <= c["after"] <= len(actions)})
    total = None
    cur, g, start = state, graph, 0
    for cut in cuts + [len(actions)]:
        r = replay(cur, actions[start:cut], g, on_illegal="stop", digests="each", events=True, budget=budget)
        for st in r.steps:
            st["index"] += start
        if total is None:
            total = r
        else:
            total.steps += r.steps
            total.applied += r.applied
            if r.first_illegal is not None:
                r.first_illegal["index"] += start
                for v in r.first_illegal.get("violations") or []:      # (paths name the action in the whole list)
                    path = v.get("path")
                    if isinstance(path, str) and path.startswith("/actions/"):
                        head, _, rest = path[len("/actions/"):].partition("/")
                        if head.isdigit():
                            v["path"] = f"/actions/{int(head) + start}" + (f"/{rest}" if rest else "")
                total.first_illegal = r.first_illegal
            total.final, total.graph = r.final, r.graph
        cur, g = r.final, r.graph or g
        if total.first_illegal is not None:
            break
        for c in checks:
            if c["after"] == cut:
                ours = {k: v for k, v in cur.players[c["player"]].resources.items() if v}
                theirs = {k: v for k, v in c["resources"].items() if v}
                if ours != theirs:
                    out.append({"value": f"resources/{c['player']}", "after": cut, "source": c.get("line"),
                                "record": theirs, "ours": ours})
        start = cut
    return total, out


def compare(stated: dict, derived: dict, final: Any) -> list[dict]:
    """Where the derived values a record states differ from ours at its end: one entry per value, naming
    it, the record's value and ours."""
    out: list[dict] = []
    if not isinstance(stated, dict):
        return out
    vps = derived.get("victory_points") or {}
    for p, v in enumerate(stated.get("vp") if isinstance(stated.get("vp"), list) else []):
        ours = (vps.get(str(p)) or {}).get("total")
        if v is not None and ours is not None and v != ours:
            out.append({"value": f"victory_points/{p}", "record": v, "ours": ours,
                        "ours_by_source": vps.get(str(p))})
    if "longest_road" in stated:
        ours = derived.get("longest_road_holder")
        if stated["longest_road"] != ours:
            lengths = {k: v.get("length") for k, v in (derived.get("longest_road") or {}).items()}
            out.append({"value": "longest_road_holder", "record": stated["longest_road"], "ours": ours,
                        "our_lengths": lengths, "record_lengths": stated.get("road_lengths")})
    if "largest_army" in stated:
        ours = (derived.get("largest_army") or {}).get("holder")
        if stated["largest_army"] != ours:
            out.append({"value": "largest_army", "record": stated["largest_army"], "ours": ours})
    if "winner" in stated:
        ours = derived.get("winner")
        if stated["winner"] != ours:
            out.append({"value": "winner", "record": stated["winner"], "ours": ours})
    return out


def position_comparison(imported: dict, cache: Any) -> dict[str, Any]:
    """For an imported position (a save): our derived values and where they differ from what the save states.
    The position is judged as the service writes it (its canonical form), so that the answer is the one
    the same position posted directly gets."""
    state, graph = parse_state(imported["state"], cache, "/state")
    state, graph = parse_state(dump_state(state), cache, "/state")
    derived = derive(state, graph, scenario_of(state))
    return {"derived": derived, "disagreements": compare(imported.get("stated") or {}, derived, state),
            "digest": state_digest(state), "state": dump_state(state)}

