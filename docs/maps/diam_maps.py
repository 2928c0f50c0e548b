"""Write docs/maps/diam-3p.svg and diam-4p.svg: the Diamond Isles maps (seed 1) with coordinates, drawn
with the scenario's own layers: the four island villages ringed (each a desert hex with its number token),
their diamonds, and the diamond panel under the legend.

Run from the project root: ``python docs/maps/diam_maps.py``.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from service.engine.mapgraph import MapGraph  # noqa: E402
from service.engine.scenarios import get_scenario  # noqa: E402
from service.render.svg import board  # noqa: E402


def main() -> None:
    scen = get_scenario("DIAM")
    for n in scen.players:
        st = scen.new_game(n, 1)
        vs = st.scenario_state["villages"]
        svg = board(st.hexes, harbors=st.harbors, robber=st.robber, pirate=st.pirate, show_coords=True,
                    title=f"Diamond Isles, {n} players: the four island villages (ringed), 5 diamonds each",
                    players=n, layers=scen.board_layers(st, MapGraph.build(st.terrain_map())))
        (ROOT / "docs" / "maps" / f"diam-{n}p.svg").write_text(svg, encoding="utf-8")
        print(f"diam-{n}p.svg: villages " + ", ".join(
            f"{v['hex'][0]},{v['hex'][1]} (number {st.hexes[tuple(v['hex'])].number})" for v in vs))


if __name__ == "__main__":
    main()
