"""Draw docs/records.svg: JSettlers2's coordinates of a few hexes, their corners and sides, on our axial grid.

Left: the classic board (encoding v1, ``0xXY``) around its centre hex 0x77 = our (0, 0). Right: the sea board
(encoding v3, ``0xRRCC``) around hex 0x0705 = our (1, 3). Each hex shows our (q, r) and JSettlers2's hex
code; each canonical corner (N, S) and side (NE, E, SE) of the middle hex its JSettlers2 node or edge code,
computed by ``service/records/jsgeometry.py`` (the picture is drawn from the mapping, not typed in).

Run from the project root: ``python docs/make_records_svg.py`` (no third-party package).
"""
from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.records import jsgeometry as g  # noqa: E402

SIZE = 52
W3 = math.sqrt(3)
CORNER_ANGLE = {"N": -90, "NE": -30, "SE": 30, "S": 90, "SW": 150, "NW": -150}
SIDE_ANGLE = {"NE": -60, "E": 0, "SE": 60}


def text(x: float, y: float, s: str, size: int = 12, colour: str = "#222", weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{colour}" font-weight="{weight}" '
            f'text-anchor="middle" dominant-baseline="middle">{s}</text>')


def panel(ox: float, oy: float, middle: tuple[int, int], title: str, hex_code, node_code, edge_code) -> list[str]:
    def centre(q: int, r: int) -> tuple[float, float]:
        dq, dr = q - middle[0], r - middle[1]
        return ox + SIZE * W3 * (dq + dr / 2), oy + SIZE * 1.5 * dr

    out = [text(ox, oy - 200, title, 14, weight="bold")]
    hexes = [(middle[0] + dq, middle[1] + dr) for dq, dr in ((0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1))]
    for q, r in hexes:
        x, y = centre(q, r)
        pts = " ".join(f"{x + SIZE * math.cos(math.radians(a)):.1f},{y + SIZE * math.sin(math.radians(a)):.1f}"
                       for a in CORNER_ANGLE.values())
        fill = "#f3e3b5" if (q, r) == middle else "#e8f1e0"
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="#555" stroke-width="1.5"/>')
        out.append(text(x, y - 8, f"({q}, {r})", 13, weight="bold"))
        out.append(text(x, y + 10, hex_code((q, r)), 12, "#1a4f9c"))
    x, y = centre(*middle)
    for name in ("N", "S"):
        a = math.radians(CORNER_ANGLE[name])
        cx, cy = x + SIZE * math.cos(a), y + SIZE * math.sin(a)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="4" fill="#b03030"/>')
        out.append(text(cx + 12, cy + (10 if name == "S" else -10), name, 11, "#b03030", "bold"))
    for name, a in SIDE_ANGLE.items():
        a = math.radians(a)
        d = SIZE * W3 / 2
        sx, sy = x + d * math.cos(a), y + d * math.sin(a)
        out.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="3.5" fill="#2a7a2a"/>')
        out.append(text(sx - 14 * math.cos(a) - 6, sy - 10 * math.sin(a), name, 11, "#2a7a2a", "bold"))
    nodes = ", ".join(f"{n} = {node_code((*middle, n))}" for n in ("N", "S"))
    edges = ", ".join(f"{e} = {edge_code((*middle, e))}" for e in ("NE", "E", "SE"))
    out.append(text(ox, oy + 150, f"corners of ({middle[0]}, {middle[1]}): {nodes}", 12, "#b03030"))
    out.append(text(ox, oy + 168, f"sides of ({middle[0]}, {middle[1]}): {edges}", 12, "#2a7a2a"))
    return out


def _inverse(fn, codes):
    table = {fn(c): c for c in codes if fn(c) is not None}
    return lambda key: table.get(key)


def svg() -> str:
    v1_hex = _inverse(g.v1_hex, range(0x100))
    v1_node = _inverse(g.v1_node, range(0x100))
    v1_edge = _inverse(g.v1_edge, range(0x100))
    v3_hex = _inverse(g.v3_hex, range(0x1, 0x1400))
    v3_node = _inverse(g.v3_node, range(0x0, 0x1400))
    v3_edge = _inverse(g.v3_edge, range(0x1, 0x1400))

    def fmt(width: int):
        return lambda v: "—" if v is None else f"0x{v:0{width}X}"

    f2, f4 = fmt(2), fmt(4)
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="960" height="470" viewBox="0 0 960 470" '
           'font-family="Helvetica, Arial, sans-serif">', '<rect width="960" height="470" fill="white"/>']
    out += panel(230, 250, (0, 0), "JSettlers2 classic board (v1, 0xXY) on our (q, r)",
                 lambda h: f2(v1_hex(h)), lambda n: f2(v1_node(n)), lambda e: f2(v1_edge(e)))
    out += panel(710, 250, (1, 3), "JSettlers2 sea board (v3, 0xRRCC) on our (q, r)",
                 lambda h: f4(v3_hex(h)), lambda n: f4(v3_node(n)), lambda e: f4(v3_edge(e)))
    out.append(text(480, 450, "black: our hex (q, r); blue: JSettlers2's hex code; red: the canonical corners "
                    "N, S; green: the canonical sides NE, E, SE, with JSettlers2's node and edge codes", 11))
    out.append("</svg>")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    (ROOT / "docs" / "records.svg").write_text(svg(), encoding="utf-8")
    print("docs/records.svg written")
