"""Write docs/maps/<id>-<players>p.svg for every registered scenario with a map, and docs/maps/README.md.

Run from the project root: ``python docs/maps/make_maps.py`` (seed 1 boards).
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from service.engine.scenarios import SCENARIOS  # noqa: E402
from service.engine.mapgraph import MapGraph  # noqa: E402
from service.render.svg import state_svg  # noqa: E402

SEED = 1


def main() -> None:
    here = ROOT / "docs" / "maps"
    lines = ["# Scenario maps", "",
             f"Each map as `POST /v1/games` lays it out with seed {SEED} (the random parts differ by seed; the",
             "shape, the fixed hexes and the harbour slots do not). Regenerate with `python docs/maps/make_maps.py`.",
             "", "| file | scenario | players | tiles | frame | land | sea | unexplored | harbours |",
             "|---|---|---|---|---|---|---|---|---|"]
    for sid, scen in SCENARIOS.items():
        if not scen.has_map or not getattr(scen, "component_tables", None):
            continue
        for n in scen.players:
            try:
                st = scen.new_game(n, SEED)
            except Exception as e:  # a scenario still without a map for this count
                print(f"skip {sid} {n}p: {e}")
                continue
            name = f"{sid}-{n}p.svg"
            graph = MapGraph.build(st.terrain_map())
            game = scen
            (here / name).write_text(state_svg(st, title=f"{sid} {scen.name}, {n} players",
                                               layers=game.board_layers(st, graph)),
                                     encoding="utf-8")
            terr = [t.terrain for t in st.hexes.values()]
            frame, sea, unknown = terr.count("frame"), terr.count("sea"), terr.count("unknown")
            tiles = len(terr) - frame
            lines.append(f"| [{name}]({name}) | {sid} {scen.name} | {n} | {tiles} | {frame} | "
                         f"{tiles - sea - unknown} | {sea} | {unknown} | {len(st.harbors)} |")
    lines += ["", "Tiles are the hexes inside the frame (unexplored spaces included); the frame (R-102) is not a tile."]
    (here / "README.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
