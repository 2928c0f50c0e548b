"""The picture budget against the drawing it bounds: estimated and measured CPU of PNGs.

    .venv/bin/python bench/picture_budget.py          # the catalogue below, each drawn 3 times (best kept)

Pictures: a maximal land board (400 hexes, number tokens), a maximal sea board, a Cities & Knights game
with its panels, each with and without coordinates, at sizes 8 to the largest the area limit admits. For
each: pixels, shapes, characters of labels, the estimate (``service/render/cache.py:picture_seconds``)
and the measured CPU of ``png_of`` (cairosvg), best of 3. The estimate must be at least the measure
(ratio measured/estimate at most 1) for every picture, or the budget lets a request draw longer than it
says. Only pictures within the budget are what a request may draw; the others are listed for the fit.
"""
from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def states() -> list[tuple[str, dict]]:
    from memory import big_board_body
    from tests.helpers import hexes, state
    sea = {(q, r): "sea" for q in range(-11, 12) for r in range(-11, 12) if abs(q + r) <= 11}
    sea.update({h: "sea" for h in ((12, -12), (-12, 12), (0, 12))})
    sea[(0, 0)] = ("forest", 6)
    out = [("land board, 400 hexes", json.loads(big_board_body(1))["state"]),
           ("sea board, 400 hexes", state(hexes(sea), scenario="seafarers"))]
    try:
        from tests.ck_util import position
        out.append(("Cities & Knights, panels", position()))
    except Exception:      # noqa: BLE001 (a checkout without the module)
        pass
    return out


def main() -> None:
    from service.api import create_app
    from service.api.tools import png_of
    from service.render import cache as pictures
    client = create_app({"TESTING": True}).test_client()
    png_of('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text font-size="5">x</text></svg>')
    worst = 0.0
    print(f"{'picture':34} {'size':>4} {'coords':>6} {'Mpx':>5} {'shapes':>6} {'chars':>5} {'est s':>6} "
          f"{'CPU s':>6} {'ratio':>5}")
    for name, st in states():
        for coords in (False, True):
            for size in (8, 16, 24, 32, 40, 60, 80):
                r = client.post("/v1/render", json={"state": st, "coords": coords, "size": size, "format": "svg"})
                if r.status_code != 200:
                    continue
                svg = r.get_data(as_text=True)
                pixels, shapes, est = pictures.picture_seconds(svg)
                if pixels > pictures.MAX_AREA:
                    continue
                chars = sum(len(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg))
                cpu = min(_cpu(png_of, svg) for _ in range(3))
                within = est <= pictures.PNG_BUDGET_SECONDS
                if within:
                    worst = max(worst, cpu / est)
                print(f"{name:34} {size:4} {str(coords):>6} {pixels / 1e6:5.2f} {shapes:6} {chars:5} {est:6.3f} "
                      f"{cpu:6.3f} {cpu / est:5.2f}{'' if within else '  (over the budget: refused)'}", flush=True)
    print(f"worst measured/estimate among pictures within the budget: {worst:.2f} (must be <= 1)")


def _cpu(f, svg: str) -> float:
    t = time.thread_time()
    f(svg)
    return time.thread_time() - t


if __name__ == "__main__":
    main()
