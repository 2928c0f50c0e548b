"""A game's legal-action list against a Cities & Knights one, as a ratio measured within one run.

    .venv/bin/python bench/legal_ratio.py [--rounds 3] [--games WAG,WAG+ck] [--ref SC01+ck]

Each round lists, for 3 and 4 players, every game named (``SID`` or ``SID+ck`` with Cities & Knights) and the
reference, alternately (``legal_lists.measure``: seeds 1 and 2, 300 seeded random actions, the first 60 not
timed; CPU time), so load on the machine falls on all of them alike. Printed: the mean ms per list of each
game per round, and each game's ratio to the reference (the mean over the rounds, and per round).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def game(label: str) -> tuple[str, dict | None]:
    sid, _, ck = label.partition("+")
    return sid, ({"cities_and_knights": True} if ck else None)


def main() -> None:
    from bench.legal_lists import measure
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--games", default="WAG,WAG+ck")
    ap.add_argument("--ref", default="SC01+ck")
    ap.add_argument("--actions", type=int, default=300)
    a = ap.parse_args()
    labels = [a.ref] + [g for g in a.games.split(",") if g != a.ref]
    rows: dict[str, list[float]] = {k: [] for k in labels}
    for _ in range(a.rounds):
        for label in labels:
            sid, opts = game(label)
            m = [measure(sid, n, opts, [1, 2], a.actions, 60)[0] for n in (3, 4)]
            rows[label].append(sum(m) / len(m))
    for k, v in rows.items():
        print(f"{k:10s}", " ".join(f"{x:.3f}" for x in v), f"mean {sum(v) / len(v):.3f} ms")
    ref = rows[a.ref]
    for k in labels[1:]:
        print(f"{k} / {a.ref} = {sum(rows[k]) / sum(ref):.2f}", "per round:",
              [round(x / y, 2) for x, y in zip(rows[k], ref)])


if __name__ == "__main__":
    main()
