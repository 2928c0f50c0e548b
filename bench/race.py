"""The speed race: our engine against catanatron, in one run on the same machine.

    .venv/bin/python bench/race.py                 # or bench/race.sh
    .venv/bin/python bench/race.py --quick         # fewer samples (a smoke run)
    .venv/bin/python bench/race.py --json out.json # also write every figure as JSON
    .venv/bin/python bench/race.py --no-ck         # without the Cities & Knights figures

Both engines play seeded random 4-player base games with the same policy (an action type drawn
uniformly, then one action of that type), skip the opening (set-up and the first turns) and sample the
positions that follow, with the action the policy chose there. On those mid-game positions each engine is
timed on:

- **apply**: judge and apply one action, leaving the posted position untouched. Ours: ``adjudicate``
  without the derived values (gate, rule checks, copy, apply, scenario reaction, awards, winner).
  Catanatron: ``State.copy()`` + ``apply_action`` (it mutates in place, so a copy is what keeps the
  position; its ``apply_action`` also regenerates the next position's playable actions).
- **legal**: every legal action of the player to act. Ours: ``legal.legal_actions``. Catanatron:
  ``generate_playable_actions``.
- **longest road**: every player's longest road. Ours: ``derive.route_lengths`` (``routes.longest_route``
  per player, with a witness path). Catanatron: ``Board.continuous_roads_by_player`` per colour (the paths
  of each component).
- **derive**: what a verdict reports about a position. Ours: ``derive.derive`` (VP by source, routes
  with witness paths, awards, winner). Catanatron: longest roads of every colour + actual VP of every
  colour (catanatron keeps VP as running counters; there is no more to compute).

Each sample is timed (CPU time) over enough repetitions for ~3 ms, per-call mean; the figure is the median over
samples (microseconds). The two sides run one after the other, ``--rounds`` times alternately (ours,
catanatron, ours, ...); each side's figure is its lowest median over the rounds, so a burst of load on the
machine during one side's run does not decide the ratio. Ratio = catanatron / ours (above 1: ours is faster). Catanatron runs in
``bench/.venv-race`` (made on first use, never a project dependency) as a subprocess that prints JSON.

Ours memoises route results per board (``routes.longest_route``: a process judging one move after another
finds most networks unchanged). Apply, longest road and derive are therefore timed twice: **cold**, the
memo cleared before every call (every route searched), and **warm**, the memo as the repetitions leave it
(the same position judged again: every route found). Both figures and both ratios are printed; a target
counts as met only on the cold ratio.

One step of a game: **apply + derive** (the action judged, then the derived values of the new position,
as a verdict reports them), against catanatron's apply (which keeps its longest roads up to date as it
goes, for the player whose network changed), the two timed together as one step. Ours is timed cold (the
memo cleared) and **incremental**: the memo holding what the position before the action left in it
(cleared, then the position before derived, untimed), so only what the action changed is searched again,
as a process judging one move after another works; the incremental figure is the like-for-like one. A
step costs more than the sum of apply and derive each timed in its own loop (caches of the machine and of
the interpreter): the per-measure figures above are tight-loop figures on both sides.

Cities & Knights: catanatron does not play it, so our C&K per-action cost (the same policy and measures on
4-player base-map games with the expansion on, run alternately with the other two sides) is printed beside
our base game's figures, with the ratio C&K / base.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from bench.timing import RACE_PY, ensure_race_env  # noqa: E402

TARGETS = {"apply": 5.0, "derive": 5.0, "longest_road": 5.0, "legal": 2.0}
#: Measures timed cold and warm on our side (see the module docstring).
MEMO_MEASURES = ("apply", "longest_road", "derive")
SEEDS = (1, 2, 3)


def per_call_us(fn, budget_s: float = 0.003, max_reps: int = 300) -> float:
    """Mean microseconds of CPU time per call over enough repetitions to fill ``budget_s`` (after one warm
    call). CPU time of this process, so other load on the machine does not inflate either side."""
    clock = time.process_time
    t = clock()
    fn()
    one = clock() - t
    reps = max(1, min(max_reps, int(budget_s / max(one, 1e-6))))
    t = clock()
    for _ in range(reps):
        fn()
    return (clock() - t) / reps * 1e6


def step_us(before, action, graph, scen, primed: bool, budget_s: float = 0.003, max_reps: int = 300) -> float:
    """Mean CPU microseconds of apply + derive of the new position, timed together, the route memo cleared
    before every repetition and (``primed``) then holding what deriving the position ``before`` left in it
    (untimed). Timed as one step, not as the sum of two figures each timed in its own loop: the two in turn
    run slower than each alone (caches of the machine and of the interpreter), and a game runs them in turn."""
    from service.engine.derive import derive
    from service.engine.referee import adjudicate
    from service.engine.routes import clear_memo
    clock = time.process_time
    spent, reps = 0.0, 0
    while reps < max_reps and (spent < budget_s or reps < 2):
        clear_memo(graph)
        if primed:
            derive(before, graph, scen)
        t = clock()
        v = adjudicate(before, action, graph, scen, with_derived=False)
        derive(v.state, graph, scen)
        spent += clock() - t
        reps += 1
    return spent / reps * 1e6


def summarise(rows: list[dict]) -> dict:
    """Median per measure, overall and per action type (apply) / per phase (legal)."""
    out: dict = {"samples": len(rows)}
    if "step_incremental" in rows[0]:
        for m in ("step_cold", "step_incremental"):
            out[m] = statistics.median(r[m] for r in rows)
    for m in ("apply", "legal", "longest_road", "derive"):
        out[m] = statistics.median(r[m] for r in rows)
        if m + "_warm" in rows[0]:
            out[m + "_warm"] = statistics.median(r[m + "_warm"] for r in rows)
    by_type = defaultdict(list)
    by_phase = defaultdict(list)
    for r in rows:
        by_type[r["type"]].append(r["apply"])
        by_phase[r["phase"]].append(r["legal"])
    out["apply_by_type"] = {t: [round(statistics.median(v), 2), len(v)] for t, v in sorted(by_type.items())}
    out["legal_by_phase"] = {p: [round(statistics.median(v), 2), len(v)] for p, v in sorted(by_phase.items())}
    out["roads_per_player"] = statistics.mean(r["roads"] for r in rows)
    out["legal_count"] = statistics.mean(r["n_legal"] for r in rows)
    return out


# -- ours ---------------------------------------------------------------------------------------------------

def ours(skip_turns: int, samples: int, options: dict | None = None) -> dict:
    sys.path.insert(0, str(HERE.parent))
    from service.engine.derive import derive, route_lengths
    from service.engine.legal import legal_actions, random_action
    from service.engine.mapgraph import MapGraph
    from service.engine.referee import adjudicate
    from service.engine.rng import Rng
    from service.engine.routes import clear_memo
    from service.engine.scenarios import get_scenario, with_expansions

    scen = with_expansions(get_scenario("base"), options)
    rows = []
    for seed in SEEDS:
        state = scen.new_game(4, seed, options) if options else scen.new_game(4, seed)
        graph = MapGraph.build(state.terrain_map())
        rng = Rng(seed, 7)
        taken = 0
        while state.phase != "game_over" and taken < samples // len(SEEDS):
            la = legal_actions(state, graph, scen)
            action = random_action(la, rng)
            if state.turn >= skip_turns and state.phase != "setup":
                st, a = state, action
                timed = {"apply": lambda: adjudicate(st, a, graph, scen, with_derived=False),
                         "longest_road": lambda: route_lengths(st, graph, scen),
                         "derive": lambda: derive(st, graph, scen)}
                row = {"type": a.type, "phase": "main" if st.phase == "main" else st.phase,
                       "legal": per_call_us(lambda: legal_actions(st, graph, scen)),
                       "roads": len(st.roads) / st.num_players, "n_legal": la.count}
                for m, fn in timed.items():
                    row[m] = per_call_us(lambda fn=fn: (clear_memo(graph), fn()))       # cold
                    row[m + "_warm"] = per_call_us(fn)
                row["step_cold"] = step_us(st, a, graph, scen, False)
                row["step_incremental"] = step_us(st, a, graph, scen, True)
                rows.append(row)
                taken += 1
            v = adjudicate(state, action, graph, scen, with_derived=False)
            assert v.legal, (action, v.violations)
            state = v.state
    return summarise(rows)


# -- catanatron (runs inside bench/.venv-race) ---------------------------------------------------------------

CAT_TYPES = {"PLAY_KNIGHT_CARD": "play_knight", "PLAY_YEAR_OF_PLENTY": "play_year_of_plenty",
             "PLAY_MONOPOLY": "play_monopoly", "PLAY_ROAD_BUILDING": "play_road_building",
             "BUY_DEVELOPMENT_CARD": "buy_development_card"}
CAT_PHASE = {"PLAY_TURN": "main", "MOVE_ROBBER": "robber", "DISCARD": "discard"}


def catanatron(skip_turns: int, samples: int) -> dict:
    from catanatron.game import Game
    from catanatron.models.actions import generate_playable_actions
    from catanatron.models.player import Color, Player
    from catanatron.state import apply_action
    from catanatron.state_functions import get_actual_victory_points, player_has_rolled

    rows = []
    for seed in SEEDS:
        rnd = random.Random(seed)
        game = Game([Player(c) for c in (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)], seed=seed)
        taken = 0
        while game.winning_color() is None and taken < samples // len(SEEDS):
            st = game.state
            acts = st.playable_actions
            by_type = defaultdict(list)
            for a in acts:
                by_type[a.action_type.value].append(a)
            t = sorted(by_type)[rnd.randrange(len(by_type))]
            action = by_type[t][rnd.randrange(len(by_type[t]))]
            # the dice and the stolen card come from the global generator: keep it in step for both uses
            if st.num_turns >= skip_turns and not st.is_initial_build_phase:
                colors = st.colors
                board = st.board
                phase = CAT_PHASE.get(st.current_prompt.value, st.current_prompt.value.lower())
                if phase == "main" and not player_has_rolled(st, st.current_color()):
                    phase = "roll"

                def apply_once(st=st, action=action):
                    s2 = st.copy()
                    apply_action(s2, action)
                state_rand = random.getstate()
                row = {
                    "type": CAT_TYPES.get(t, t.lower()), "phase": phase,
                    "apply": per_call_us(apply_once),
                    "legal": per_call_us(lambda: generate_playable_actions(st)),
                    "longest_road": per_call_us(lambda: [board.continuous_roads_by_player(c) for c in colors]),
                    "derive": per_call_us(lambda: ([board.continuous_roads_by_player(c) for c in colors],
                                                   [get_actual_victory_points(st, c) for c in colors])),
                    "roads": len(board.roads) / 2 / len(colors), "n_legal": len(acts),
                }
                row["copy"] = per_call_us(st.copy)
                random.setstate(state_rand)
                rows.append(row)
                taken += 1
            game.execute(action, validate_action=False)
    out = summarise(rows)
    out["copy_only"] = statistics.median(r["copy"] for r in rows)
    return out


# -- the race ------------------------------------------------------------------------------------------------

def lowest(runs: list[dict]) -> dict:
    """The run with the lowest medians: per measure the minimum over ``runs`` (the rest from the first)."""
    out = dict(runs[0])
    for k, v in runs[0].items():
        if isinstance(v, float) and k not in ("roads_per_player", "legal_count"):
            out[k] = min(r[k] for r in runs)
    out["rounds"] = len(runs)
    return out


def _breakdown(title: str, key: str, mine: dict, theirs: dict) -> None:
    """One table of per-group medians, ours beside catanatron's, with the ratio where both have samples."""
    print(title)
    for group in sorted(set(mine[key]) | set(theirs[key])):
        a, b = mine[key].get(group), theirs[key].get(group)
        fa = f"{a[0]:9.1f} ({a[1]:3d})" if a else " " * 15
        fb = f"{b[0]:9.1f} ({b[1]:3d})" if b else " " * 15
        ratio = f"{b[0] / a[0]:6.1f}x" if a and b else ""
        print(f"  {group:28s} {fa} | {fb} {ratio}")


#: The Cities & Knights side: the same policy and positions on the base map with the expansion switched on
#: (catanatron does not play it, so its figures stand beside our base game's, not against catanatron's).
CK_OPTIONS = {"cities_and_knights": True}


def _ck_table(base: dict, ck: dict) -> None:
    print(f"Cities & Knights, ours only (same policy, {ck['samples']} samples from turn 40 of the same seeds; "
          f"legal actions per position {ck['legal_count']:.1f}):")
    print(f"  {'measure (median us per call)':34s} {'base':>10s} {'C&K':>10s} {'C&K/base':>9s}")
    for m in ("apply", "legal", "longest_road", "derive"):
        label = f"{m} (cold)" if m in MEMO_MEASURES else m
        print(f"  {label:34s} {base[m]:10.1f} {ck[m]:10.1f} {ck[m] / base[m]:8.2f}x")
    print("  apply by action type, C&K (median us, samples):")
    for t, (us, n) in sorted(ck["apply_by_type"].items()):
        print(f"    {t:28s} {us:9.1f} ({n:3d})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--side", choices=("ours", "catanatron", "ours-ck"))
    ap.add_argument("--no-ck", action="store_true", help="leave out the Cities & Knights figures")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--skip-turns", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    samples = 60 if args.quick else args.samples
    if args.side:
        if args.side == "ours-ck":
            print(json.dumps(ours(args.skip_turns, samples, CK_OPTIONS)))
            return
        fn = ours if args.side == "ours" else catanatron
        print(json.dumps(fn(args.skip_turns, samples)))
        return
    if not ensure_race_env():
        sys.exit(1)
    common = ["--samples", str(samples), "--skip-turns", str(args.skip_turns)]
    # one after the other in this run, each in its own interpreter (same machine, same minute), alternately
    runs: dict[str, list[dict]] = {"ours": [], "catanatron": [], "ours-ck": []}
    sides = (("ours", sys.executable), ("catanatron", str(RACE_PY))) + (() if args.no_ck else
                                                                        (("ours-ck", sys.executable),))
    for _ in range(max(1, args.rounds)):
        for side, py in sides:
            out = subprocess.run([py, __file__, "--side", side, *common], check=True, capture_output=True,
                                 text=True).stdout.strip().splitlines()[-1]
            runs[side].append(json.loads(out))
    mine, theirs = (lowest(runs["ours"]), lowest(runs["catanatron"]))
    print(f"mid-game base positions, 4 players, seeds {list(SEEDS)}, from turn {args.skip_turns}: "
          f"{mine['samples']} ours / {theirs['samples']} catanatron samples, lowest median of {mine['rounds']} "
          f"alternate runs per side "
          f"(roads per player {mine['roads_per_player']:.1f} / {theirs['roads_per_player']:.1f}; "
          f"legal actions per position {mine['legal_count']:.1f} / {theirs['legal_count']:.1f})")
    print(f"{'measure (median us per call)':36s} {'ours':>10s} {'catanatron':>11s} {'ratio':>8s} {'target':>7s}")
    ok = True
    for m in ("apply", "legal", "longest_road", "derive"):
        ratio = theirs[m] / mine[m]
        hit = ratio >= TARGETS[m]
        ok &= hit
        label = f"{m} (cold: memo cleared)" if m in MEMO_MEASURES else m
        print(f"{label:36s} {mine[m]:10.1f} {theirs[m]:11.1f} {ratio:7.1f}x {TARGETS[m]:5.0f}x {'ok' if hit else 'MISSED'}")
        if m in MEMO_MEASURES:
            w = mine[m + "_warm"]
            print(f"{'  ' + m + ' (warm: memoised)':36s} {w:10.1f} {theirs[m]:11.1f} {theirs[m] / w:7.1f}x")
    print("  (targets are judged on the cold ratios)")
    for m, label in (("step_cold", "apply + derive (cold)"),
                     ("step_incremental", "apply + derive (incremental)")):
        if m in mine:
            print(f"{label:36s} {mine[m]:10.1f} {theirs['apply']:11.1f} {theirs['apply'] / mine[m]:7.1f}x"
                  f"{'   (catanatron: its apply)' if m == 'step_cold' else ''}")
    print(f"  (catanatron State.copy() alone: {theirs['copy_only']:.1f} us of its apply)")
    _breakdown("apply by action type (median us, samples): ours cold | catanatron", "apply_by_type", mine, theirs)
    _breakdown("legal by phase (median us, samples): ours | catanatron", "legal_by_phase", mine, theirs)
    ck = lowest(runs["ours-ck"]) if runs["ours-ck"] else None
    if ck is not None:
        _ck_table(mine, ck)
    if args.json:
        Path(args.json).write_text(json.dumps({"ours": mine, "catanatron": theirs, "ours_cities_and_knights": ck},
                                              indent=1))
    print("all targets met" if ok else "some targets missed (see the profile figures in README.md, Evidence)")


if __name__ == "__main__":
    main()
