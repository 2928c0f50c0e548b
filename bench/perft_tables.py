"""The published perft tables: the opening set-up of every scenario and player count, counted to the depth
a time budget allows, written to ``tests/fixtures/perft_tables.json`` and the table in ``docs/perft.md``.

    nice .venv/bin/python bench/perft_tables.py --seconds 60                  # every row (minutes)
    nice .venv/bin/python bench/perft_tables.py --only base/3 --depth 5       # one row to depth 5, printed
    nice .venv/bin/python bench/perft_tables.py --only SC01/4+ck --seconds 60 # with Cities & Knights

A row is a scenario, a player count, whether Cities & Knights is stacked on (it changes the set-up: the
second piece is a city, CK-SETUP-1) and the seed of the new game (``Scenario.new_game``: a scenario
whose board is drawn at random draws it from the seed; the base game's set-up counts are the same on
every board). Each depth is counted by ``engine.perft`` directly, deepening while the estimate of the
next depth (``perft.estimate``) fits the time left of the row's budget. A row already in the table is
kept unless it is counted again deeper; ``--only`` prints without writing unless ``--write``.
Nodes per second (legal-action lists made per CPU second) are reported per row.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TABLE = ROOT / "tests" / "fixtures" / "perft_tables.json"
DOC = ROOT / "docs" / "perft.md"
CK = "cities_and_knights"
BEGIN, END = "<!-- perft-table:begin -->", "<!-- perft-table:end -->"
SEED = 1


def rows_to_count() -> list[tuple[str, int, bool]]:
    """(scenario, players, with C&K) for every scenario that starts a game on its own map, the base game
    with 5 and 6 players (the 5-6 extension's 30-hex board, BASE56-014), and the same with Cities &
    Knights stacked on where the scenario takes it."""
    sys.path.insert(0, str(ROOT / "bench"))
    from digests import ck_scenarios
    from service.engine.selfplay import playable_scenarios
    out = [(sid, n, False) for sid, n in playable_scenarios()]
    out += [("base", n, False) for n in (5, 6) if ("base", n) not in playable_scenarios()]
    out += [(sid, n, True) for sid, n in ck_scenarios()]
    return sorted(out, key=lambda r: (r[0] != "base", r[0], r[1], r[2]))


def label(sid: str, n: int, ck: bool) -> str:
    return f"{sid}/{n}" + ("+ck" if ck else "")


def count_row(sid: str, n: int, ck: bool, seconds: float, seed: int = SEED, most: int = 16,
              exact: bool = False) -> dict:
    """The counts of one row: depths 1, 2, ... while the next one's estimate fits what is left of
    ``seconds``, up to ``most``; with ``exact``, every depth up to ``most`` whatever the time."""
    from service.engine.mapgraph import MapGraph
    from service.engine.perft import estimate, perft
    from service.engine.scenarios import get_scenario, with_expansions
    options = {CK: True} if ck else None
    scen = with_expansions(get_scenario(sid), options, n)
    state = scen.new_game(n, seed, options) if options else scen.new_game(n, seed)
    graph = MapGraph.build(state.terrain_map())
    clock = time.process_time
    start = clock()
    counts: list[int] = []
    lists = 0
    spent = 0.0
    for d in range(1, most + 1):
        left = seconds - (clock() - start)
        if d > 2 and not exact:
            est = estimate(state, graph, scen, d, clock)
            # the descents time cold lists; once a count has run for a while, its own pace is the better guess
            need = est.lists[-1] / (lists / spent) if spent > 1.0 else est.seconds[-1]
            if need > left:
                break
        t0 = clock()
        r = perft(state, graph, scen, d)
        spent += clock() - t0
        lists += r.work.lists
        counts.append(r.count)
        if r.count == 0:
            break
    return {"scenario": sid, "players": n, "options": {CK: True} if ck else {}, "seed": seed,
            "counts": counts, "lists_per_second": round(lists / spent) if spent else None,
            "seconds": None if exact else seconds,
            "command": f"nice .venv/bin/python bench/perft_tables.py --only {label(sid, n, ck)} --depth {len(counts)}"}


def load_table() -> dict:
    if TABLE.exists():
        return json.loads(TABLE.read_text(encoding="utf-8"))
    return {"seed": SEED, "rows": []}


def markdown(table: dict) -> str:
    lines = ["| scenario | players | C&K | perft(1), perft(2), ... | budget (CPU s) | lists/s | reproduce |",
             "|---|---|---|---|---|---|---|"]
    for r in table["rows"]:
        ck = "yes" if r["options"].get(CK) else ""
        counts = ", ".join(f"{c:,}" for c in r["counts"])
        budget = "" if r.get("seconds") is None else f"{r['seconds']:g}"
        lines.append(f"| {r['scenario']} | {r['players']} | {ck} | {counts} | {budget} | {r['lists_per_second'] or ''} | "
                     f"`{r['command']}` |")
    return "\n".join(lines)


def write(table: dict) -> None:
    TABLE.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    doc = DOC.read_text(encoding="utf-8")
    i, j = doc.index(BEGIN) + len(BEGIN), doc.index(END)
    DOC.write_text(doc[:i] + "\n" + markdown(table) + "\n" + doc[j:], encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="CPU seconds per row")
    ap.add_argument("--ck-seconds", type=float, help="CPU seconds per row with Cities & Knights (default --seconds)")
    ap.add_argument("--skip", nargs="*", default=[], help="rows left as the table has them")
    ap.add_argument("--only", nargs="*", help="rows as SID/PLAYERS or SID/PLAYERS+ck")
    ap.add_argument("--depth", type=int, help="count exactly to this depth (no time budget)")
    ap.add_argument("--write", action="store_true", help="with --only: write the rows counted into the table")
    args = ap.parse_args()
    wanted = rows_to_count()
    if args.only:
        names = {label(*r): r for r in wanted}
        unknown = [o for o in args.only if o not in names]
        if unknown:
            print(f"unknown rows {unknown}; rows are {sorted(names)}", file=sys.stderr)
            return 2
        wanted = [names[o] for o in args.only]
    table = load_table()
    by_label = {label(r["scenario"], r["players"], bool(r["options"].get(CK))): r for r in table["rows"]}
    wanted = [r for r in wanted if label(*r) not in args.skip]
    wanted.sort(key=lambda r: r[2])                 # the rows without Cities & Knights first
    for sid, n, ck in wanted:
        seconds = args.ck_seconds if ck and args.ck_seconds else args.seconds
        if args.depth:
            row = count_row(sid, n, ck, seconds, most=args.depth, exact=True)
        else:
            row = count_row(sid, n, ck, seconds)
        old = by_label.get(label(sid, n, ck))
        if old is not None and old["counts"] != row["counts"][:len(old["counts"])] \
                and row["counts"] != old["counts"][:len(row["counts"])]:
            print(f"{label(sid, n, ck)}: counts changed from {old['counts']} to {row['counts']}", file=sys.stderr)
        keep = row
        if old is not None and len(old["counts"]) > len(row["counts"]):
            keep = old
        elif old is not None and len(old["counts"]) == len(row["counts"]) and (old.get("seconds") or 0) > (row.get("seconds") or 0):
            keep = old
        by_label[label(sid, n, ck)] = keep
        print(f"{label(sid, n, ck)}: {row['counts']} ({row['lists_per_second']} lists/s)", flush=True)
        if not args.only or args.write:         # written row by row: a long run stopped keeps what it counted
            order = {label(*r): i for i, r in enumerate(rows_to_count())}
            table["rows"] = sorted(by_label.values(), key=lambda r: order.get(
                label(r["scenario"], r["players"], bool(r["options"].get(CK))), 1 << 30))
            write(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
