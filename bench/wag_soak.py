"""Wagon-train soak: seeded random WAG games for 3 and 4 players, with and without Cities & Knights.

    .venv/bin/python bench/wag_soak.py --seeds 1,2,3,4,5 [--cap 3000] [--jobs 2]

Each game is played by ``selfplay.play_game`` (its lean and what the WAG module sets aside, ``PLAY_AVOID``)
up to ``--cap`` actions; a line per game gives how it ended, the winner, its actions, the tokens delivered,
the sea jumps, the gold each player holds at the end and the failures, then the count of games won without
failure. Every invariant is checked on every action (``--no-check`` skips them), and so are the WAG counts:
18 tokens (R-088), 3 barbarians (R-104), and gold changing only between players and the pirate pool but for
deliveries and purchases.
"""
from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _held(s) -> tuple[int, int, int]:
    """Tokens (in stacks, on wagons, delivered), barbarians, and gold (players and the pirate pool)."""
    ss = s.scenario_state
    tokens = sum(sum(st.values()) for st in (ss.get("stacks") or {}).values())
    for w in (ss.get("wagons") or {}).values():
        tokens += (1 if w.get("token") else 0) + sum((w.get("delivered") or {}).values())
    return (tokens, sum((ss.get("barbarians") or {}).values()),
            sum(p.extra.get("gold", 0) for p in s.players) + int(ss.get("pirate_pool", 0)))


def one(job: tuple[bool, int, int, int, bool]) -> tuple[bool, str]:
    from service.engine.selfplay import play_game
    ck, n, seed, cap, check = job
    lost: list[str] = []

    def conserved(state, action, verdict) -> None:
        """R-088: 18 tokens; R-104: 3 barbarians; gold meets the bank only on deliveries and purchases."""
        if verdict.state is None:
            return
        (t0, b0, g0), (t1, b1, g1) = _held(state), _held(verdict.state)
        bank = sum(e.get("gold", 0) for e in verdict.events if e["type"] == "token_delivered")
        bank -= sum(e["gave"].get("gold", 0) for e in verdict.events
                    if e["type"] == "traded" and e.get("partner") == "bank")
        if (t0, t1, b0, b1) != (18, 18, 3, 3) or g1 - g0 != bank:
            lost.append(f"{action.type}: tokens {t0}->{t1}, barbarians {b0}->{b1}, gold {g0}->{g1} (bank {bank})")

    g = play_game("WAG", n, seed, max_actions=cap, options={"cities_and_knights": True} if ck else None,
                  check=check, on_step=conserved)
    g.failures.extend(lost)
    ss = g.final.scenario_state
    delivered = sum(sum((w.get("delivered") or {}).values()) for w in ss["wagons"].values())
    jumps = sum(1 for a in g.log if a.type == "move_wagon" and a.get("jump"))
    gold = [p.extra.get("gold") for p in g.final.players]
    return g.ended == "won" and not g.failures, (
        f"WAG {n}p{' +C&K' if ck else ''} seed {seed}: {g.ended}, winner {g.winner}, {len(g.log)} actions, "
        f"{delivered} delivered, {jumps} jumps, gold {gold}, {len(g.failures)} failures")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", default="1,2")
    ap.add_argument("--cap", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--no-check", action="store_true")
    a = ap.parse_args()
    jobs = [(ck, n, int(s), a.cap, not a.no_check) for ck in (False, True) for n in (3, 4)
            for s in a.seeds.split(",")]
    with ProcessPoolExecutor(a.jobs) as ex:
        res = list(ex.map(one, jobs))
    for _, line in res:
        print(line)
    won = sum(ok for ok, _ in res)
    print(f"won {won} of {len(res)}")
    return 0 if won == len(res) else 1


if __name__ == "__main__":
    sys.exit(main())
