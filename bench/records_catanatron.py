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
            row["first_illegal"] = {"index": fi["index"], "source": fi["source"], "rules": fi["rules"]}
        for d in res["disagreements"]:
            k = d["value"].split("/")[0]
            disagreements[k] += 1
            examples.setdefault("value:" + k, {"game": f.name, **d})
        row["disagreements"] = res["disagreements"]
        per_game.append(row)
    dt = time.perf_counter() - t0
    summary = {"games": len(files), "actions": actions, "legal_to_end": legal, "first_illegal_by_rules": dict(illegal_rules),
               "disagreements_by_value": dict(disagreements), "refused": dict(refused), "seconds": round(dt, 2)}
    print(json.dumps(summary, indent=1))
    for k, v in examples.items():
        print(k, json.dumps(v)[:700])
    if a.json:
        a.json.write_text(json.dumps({"summary": summary, "examples": examples, "games": per_game}, indent=1))


if __name__ == "__main__":
    main()
