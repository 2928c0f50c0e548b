"""catanatron games imported and replayed: how many are legal to the end, and where our derived values differ.

    /tmp/catbench/bin/python bench/catanatron_games.py --games 200 --out /tmp/catanatron-games
    .venv/bin/python bench/records_catanatron.py /tmp/catanatron-games [--json out.json]

For each game: import (``service.records.catanatron``), replay (``service.records.replay``), then count the
games legal to the end, the first illegal moves by rule, and the derived-value disagreements by value.
"""
from __future__ import annotations

import argparse
import collections
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def catanatron_style_lengths(state) -> dict[int, int]:
    """Each player's longest road counted as catanatron 3.2 counts it (``longest_acyclic_path``): a walk never
    takes a road into an intersection with another player's building, so a road ending at an opponent's
    settlement is not counted. An independent count, here only to explain the differences by rule."""
    from service.engine.geometry import edge_nodes
    out = {}
    for p in range(state.num_players):
        adj: dict = {}
        for e, q in state.roads.items():
            if q == p:
                a, b = edge_nodes(e)
                adj.setdefault(a, []).append((b, e))
                adj.setdefault(b, []).append((a, e))

        def blocked(n):
            b = state.buildings.get(n)
            return b is not None and b[0] != p

        best = 0
        for start in adj:
            if blocked(start):      # (catanatron's components hold no opponent's intersection)
                continue
            stack = [(start, frozenset())]
            while stack:
                n, used = stack.pop()
                best = max(best, len(used))
                for m, e in adj[n]:
                    if e not in used and not blocked(m):
                        stack.append((m, used | {e}))
        out[p] = best
    return out


def explain(kind: str, res: dict, rec: dict) -> str:
    """The rule that explains a first illegal action or a disagreement (see docs/records.md)."""
    r = res["_replay"]
    state = r.first_illegal["state_before"] if r.first_illegal else r.final
    from service.engine.derive import route_lengths
    from service.engine.scenarios import scenario_of
    ours = {p: v[0] for p, v in route_lengths(state, res["_graph"], scenario_of(state)).items()}
    theirs = catanatron_style_lengths(state)
    undercount = ours != theirs
    left_out = any("ends the record" in (x.get("note") or "") for x in rec.get("provenance") or [])
    if kind == "BASE-DEV-4":
        return "catanatron-fresh-card"
    if kind == "BASE-ROBBER-4":
        fi = res["first_illegal"]
        hexes = fi["action"].get("hex")
        from service.engine.actions.robber import robbable
        cands = robbable(state, res["_graph"], "robber", tuple(hexes), fi["action"]["player"])
        if cands and all(sum(state.players[c].resources.values()) == 0 for c in cands):
            return "R-124-not-enforced"
        return "unexplained"
    if kind == "BASE-DEV-6":
        fi = res["first_illegal"]
        pieces = fi["action"].get("pieces") or []
        if len(pieces) == 1:
            import copy
            from service.engine.derive import derive
            p = fi["action"]["player"]
            after = copy.deepcopy(state)
            after.roads[tuple(pieces[0]["edge"])] = p
            lengths = {q: v[0] for q, v in route_lengths(after, res["_graph"], scenario_of(after)).items()}
            vp = derive(state, res["_graph"], scenario_of(state))["victory_points"][str(p)]["total"]
            if lengths[p] >= 5 and all(lengths[p] > v for q, v in lengths.items() if q != p) and vp + 2 >= state.vp_target:
                return "R-123-win-case-not-enforced"
    if kind in ("BASE-VP-1", "BASE-DEV-6", "longest_road_holder") and undercount:
        return "catanatron-longest-road-undercount"
    if kind in ("victory_points", "largest_army", "winner") and left_out:
        return "record-ends-on-winning-knight"
    if kind in ("victory_points", "winner") and undercount:
        return "catanatron-longest-road-undercount"
    return "unexplained"


def main() -> None:
    from service.api.errors import Problem
    from service.cache import GraphCache
    from service.records.catanatron import import_game
    from service.records.record import new_record
    from service.records.replay import replay_record
    ap = argparse.ArgumentParser()
    ap.add_argument("dir", type=Path)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    cache = GraphCache.from_config({"REDIS_URL": None, "GRAPH_CACHE_SIZE": 16, "REDIS_TIMEOUT": 0.05})
    files = sorted(a.dir.glob("*.json"))
    legal, illegal_rules, disagreements, examples = 0, collections.Counter(), collections.Counter(), {}
    per_game = []
    explained = collections.Counter()
    refused = collections.Counter()
    t0 = time.perf_counter()
    actions = 0
    for f in files:
        imp = import_game(json.loads(f.read_text()))
        rec = new_record(imp["initial"], imp["actions"], source={"format": "catanatron", "file": f.name},
                         sources=imp["sources"], stated=imp["stated"], provenance=imp["provenance"])
        try:
            res = replay_record(rec, cache)
        except Problem as e:
            refused[e.detail[:120]] += 1
            examples.setdefault("refused:" + e.detail[:120], {"game": f.name, "errors": e.errors[:3]})
            continue
        actions += res["actions"]
        row = {"game": f.name, "actions": res["actions"], "applied": res["applied"], "all_legal": res["all_legal"]}
        if res["all_legal"]:
            legal += 1
        else:
            fi = res["first_illegal"]
            key = ",".join(fi["rules"])
            illegal_rules[key] += 1
            examples.setdefault(key, {"game": f.name, "index": fi["index"], "source": fi["source"],
                                      "action": fi["action"], "violations": fi["violations"]})
            why = explain(fi["rules"][0], res, rec)
            explained[f"{key}: {why}"] += 1
            row["first_illegal"] = {"index": fi["index"], "source": fi["source"], "rules": fi["rules"], "why": why}
        for d in res["disagreements"]:
            k = d["value"].split("/")[0]
            disagreements[k] += 1
            why = explain(k, res, rec)
            explained[f"{k}: {why}"] += 1
            d["why"] = why
            examples.setdefault("value:" + k, {"game": f.name, **d})
        row["disagreements"] = res["disagreements"]
        for k in [k for k in res if k.startswith("_")]:
            res.pop(k)
        per_game.append(row)
    dt = time.perf_counter() - t0
    summary = {"games": len(files), "actions": actions, "legal_to_end": legal, "first_illegal_by_rules": dict(illegal_rules),
               "disagreements_by_value": dict(disagreements), "refused": dict(refused),
               "explained": dict(sorted(explained.items())), "seconds": round(dt, 2)}
    print(json.dumps(summary, indent=1))
    for k, v in examples.items():
        print(k, json.dumps(v)[:700])
    if a.json:
        a.json.write_text(json.dumps({"summary": summary, "examples": examples, "games": per_game}, indent=1))


if __name__ == "__main__":
    main()
