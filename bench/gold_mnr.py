"""Time a GOLD settlement verdict (statements A/B/C with every pending opponent's MNR, R-036..R-040) on
the 4-player map, in-process, against a baseline measured in the same run: a plain settlement verdict
in the base game (same engine path: checks, apply, awards, derived values).

    .venv/bin/python bench/gold_mnr.py

Prints microseconds per verdict and the ratio GOLD / baseline (figures, not assertions: machines are
noisy). Target from the issue: a GOLD settlement verdict under 5 ms.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.timing import per_call  # noqa: E402
from service.engine.core import Action  # noqa: E402
from service.engine.mapgraph import MapGraph  # noqa: E402
from service.engine.referee import adjudicate  # noqa: E402
from service.engine.scenarios import get_scenario  # noqa: E402
from service.engine.routes import clear_memo as clear_routes  # noqa: E402
from service.engine.modules.gold.mnr import Board, statements  # noqa: E402
from service.engine.modules.gold.mnr import clear_memo as clear_mnr  # noqa: E402

RES = ("lumber", "brick", "wool", "grain", "ore")
#: Set-up of the 4-player GOLD map (seed 1): settlement and road per player, snake order, off the coast.
GOLD_SETUP = [
    (0, (2, 3, "N"), (2, 2, "SE")), (1, (4, 3, "N"), (4, 2, "SE")), (2, (3, 1, "N"), (3, 1, "NE")),
    (3, (6, 1, "N"), (6, 1, "NE")), (3, (5, 0, "N"), (5, 0, "NE")), (2, (3, 0, "N"), (3, 0, "NE")),
    (1, (1, 3, "N"), (1, 3, "NE")), (0, (6, 2, "N"), (6, 2, "NE")),
]
#: The base game's board (seed 1): eight settlements spread over the island, each with a road.
BASE_SETUP = [
    (0, (0, 1, "N"), (0, 0, "E")), (1, (-1, 1, "N"), (-1, 0, "E")), (2, (0, -2, "S"), (0, -2, "SE")),
    (3, (1, 1, "N"), (1, 0, "E")), (3, (-1, -2, "S"), (-2, -1, "E")), (2, (-2, -1, "S"), (-3, 0, "E")),
    (1, (3, -2, "S"), (2, -1, "NE")), (0, (2, -3, "S"), (1, -2, "NE")),
]


def play(scen_id: str, setup, extra_road):
    """Set-up by the engine, a roll, a road for player 0; returns (state, graph, scenario)."""
    scen = get_scenario(scen_id)
    s = scen.new_game(4, 1)
    g = MapGraph.build(s.terrain_map())
    for p, node, edge in setup:
        for a in (Action("build_settlement", p, {"node": node}), Action("build_road", p, {"edge": edge})):
            v = adjudicate(s, a, g, scen, with_derived=False)
            assert v.legal, (scen_id, a, v.violations)
            s = v.state
    v = adjudicate(s, Action("roll", 0, {"dice": (1, 3)}), g, scen, with_derived=False)
    s = v.state
    for r in RES:
        k = min(4, s.bank[r])
        s.bank[r] -= k
        s.players[0].resources[r] += k
    v = adjudicate(s, Action("build_road", 0, {"edge": extra_road}), g, scen, with_derived=False)
    assert v.legal, (scen_id, v.violations)
    return v.state, g, scen


def main() -> None:
    n = 300
    gs, gg, gscen = play("GOLD", GOLD_SETUP, (1, 3, "E"))        # S(2,2) -> N(1,4): onto the front coast
    gold_site = Action("build_settlement", 0, {"node": (1, 4, "N")})  # player 0's first front-coast settlement
    bs, bg, bscen = play("base", BASE_SETUP, (1, -1, "SE"))
    base_site = Action("build_settlement", 0, {"node": (1, 0, "N")})
    vg = adjudicate(gs, gold_site, gg, gscen)
    vb = adjudicate(bs, base_site, bg, bscen)
    assert vg.legal and vb.legal, (vg.violations, vb.violations)
    def cold():   # every memo forgotten (route lengths, MNR witnesses): the figures the target is judged on
        clear_routes()
        clear_mnr()
    t_gold = per_call(lambda: (cold(), adjudicate(gs, gold_site, gg, gscen)), n)
    t_gold_warm = per_call(lambda: adjudicate(gs, gold_site, gg, gscen), n)
    t_base = per_call(lambda: (cold(), adjudicate(bs, base_site, bg, bscen)), n)
    t_stmt = per_call(lambda: (cold(), statements(Board(gs, gg), 0, (1, 4, "N"))), n)
    tiles = sum(1 for t in gs.hexes.values() if t.terrain != "frame")
    print(f"GOLD settlement verdict, 4-player map ({tiles} tiles, {len(gg.nodes)} intersections): "
          f"{t_gold:.0f} us cold, {t_gold_warm:.0f} us with the memos warm  (target < 5000 us, cold)")
    print(f"  of which statements A/B/C with MNR before/after: {t_stmt:.0f} us; "
          f"statements {vg.derived['statements']}, MNR before {vg.derived['mnr_before']}, "
          f"after {vg.derived['mnr_if_built']}")
    print(f"baseline: plain settlement verdict, base game (19 tiles): {t_base:.0f} us")
    print(f"ratio GOLD / baseline: {t_gold / t_base:.2f}")


if __name__ == "__main__":
    main()
