"""Write docs/maps/gold-3p.svg and gold-4p.svg: the GOLD maps (seed 1) with the front coast and the gold
docks marked (circles on the front-coast intersections, rings on the gold-dock spaces).

Run from the project root: ``python docs/maps/gold_maps.py``.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from service.engine.mapgraph import MapGraph  # noqa: E402
from service.engine.scenarios import get_scenario  # noqa: E402
from service.engine.modules.gold.scenario import front_coast_distances  # noqa: E402
from service.engine.modules.gold.mnr import net_of  # noqa: E402
from service.render.svg import board  # noqa: E402


def main() -> None:
    scen = get_scenario("GOLD")
    for n in scen.players:
        st = scen.new_game(n, 1)
        g = MapGraph.build(st.terrain_map())
        net = net_of(g)
        docks = [list(g.edges[e]) for e in range(len(g.edges)) if net.gold_dock[e]]
        fc = sorted(front_coast_distances(st, g).items(), key=lambda kv: (kv[0][1], kv[0][0]))
        svg = board(st.hexes, harbors=st.harbors, robber=st.robber, show_coords=True,
                    title=f"GOLD, {n} players: front coast (circled) and gold docks (ringed)",
                    marks={"nodes": [list(x) for x, _ in fc], "edges": docks},
                    mark_label="front coast (circles), gold docks (rings)")
        (ROOT / "docs" / "maps" / f"gold-{n}p.svg").write_text(svg, encoding="utf-8")
        print(f"gold-{n}p.svg: front coast {', '.join(f'{q},{r},{c}={d}' for (q, r, c), d in fc)}; "
              f"{len(docks)} gold-dock spaces")


if __name__ == "__main__":
    main()
