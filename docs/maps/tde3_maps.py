"""Write docs/maps/TDE3-areas-3p.svg and TDE3-areas-4p.svg: the TDE3 "Greater Catan" default maps (seed 1) with the
new-island area (grey in the book) circled and coordinates shown.

Run from the project root: ``python docs/maps/tde3_maps.py``.
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from service.engine.scenarios import get_scenario  # noqa: E402  (the registry first: it finds the module)
from service.engine.modules.tde3_greater_catan.maps import MAPS, NEW  # noqa: E402
from service.render.svg import board  # noqa: E402


def main() -> None:
    scen = get_scenario("TDE3")
    for n in scen.players:
        st = scen.new_game(n, 1)
        grey = [list(h) for h, ch in MAPS[n].cells().items() if ch == NEW]
        svg = board(st.hexes, harbors=st.harbors, robber=st.robber, pirate=st.pirate, show_coords=True,
                    title=f"TDE3, {n} players: new islands circled",
                    marks={"hexes": grey})
        (ROOT / "docs" / "maps" / f"TDE3-areas-{n}p.svg").write_text(svg, encoding="utf-8")


if __name__ == "__main__":
    main()
