"""Draw docs/coordinates.svg: a few pointy-top hexes with their (q, r), the canonical corners and sides.

Run from the project root: ``python docs/make_coordinates_svg.py`` (standard library only).
"""
from __future__ import annotations

import math
from pathlib import Path

SIZE = 60                      # hex radius (centre to corner), px
W3 = math.sqrt(3)
HEXES = [(0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)]
ORIGIN = (300, 250)
CORNER_ANGLE = {"N": -90, "NE": -30, "SE": 30, "S": 90, "SW": 150, "NW": -150}
SIDE_ANGLE = {"NE": -60, "E": 0, "SE": 60, "SW": 120, "W": 180, "NW": -120}


def centre(q: int, r: int) -> tuple[float, float]:
    return ORIGIN[0] + SIZE * W3 * (q + r / 2), ORIGIN[1] + SIZE * 1.5 * r


def corner(q: int, r: int, name: str) -> tuple[float, float]:
    x, y = centre(q, r)
    a = math.radians(CORNER_ANGLE[name])
    return x + SIZE * math.cos(a), y + SIZE * math.sin(a)


def side_mid(q: int, r: int, name: str, frac: float = 1.0) -> tuple[float, float]:
    x, y = centre(q, r)
    a = math.radians(SIDE_ANGLE[name])
    d = SIZE * W3 / 2 * frac
    return x + d * math.cos(a), y + d * math.sin(a)


def text(x: float, y: float, s: str, size: int = 13, colour: str = "#222", weight: str = "normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" fill="{colour}" font-weight="{weight}" '
            f'text-anchor="middle" dominant-baseline="middle">{s}</text>')


def svg() -> str:
    out = ['<svg xmlns="http://www.w3.org/2000/svg" width="900" height="520" viewBox="0 0 900 520" '
           'font-family="Helvetica, Arial, sans-serif">',
           '<rect width="900" height="520" fill="white"/>',
           text(300, 22, "Axial (q, r), pointy-top: q grows east, r grows one row south", 15, weight="bold")]
    for q, r in HEXES:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (corner(q, r, c) for c in CORNER_ANGLE))
        fill = "#f3e3b5" if (q, r) == (0, 0) else "#e8f1e0"
        out.append(f'<polygon points="{pts}" fill="{fill}" stroke="#555" stroke-width="1.5"/>')
        x, y = centre(q, r)
        out.append(text(x, y, f"({q}, {r})", 15, weight="bold"))
    # canonical sides of (0, 0): NE, E, SE (thick), with labels
    for name, colour in (("NE", "#c0392b"), ("E", "#c0392b"), ("SE", "#c0392b")):
        a, b = {"NE": ("N", "NE"), "E": ("NE", "SE"), "SE": ("SE", "S")}[name]
        (x1, y1), (x2, y2) = corner(0, 0, a), corner(0, 0, b)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                   'stroke-width="5" stroke-linecap="round"/>')
        lx, ly = side_mid(0, 0, name, 0.72)
        if name == "E":                    # beside the side, clear of the line and of the (0, 0) label
            lx, ly = side_mid(0, 0, name, 1.0)
            lx, ly = lx + 27, ly + 24
        out.append(text(lx, ly, f"[0,0,{name}]", 11, colour, "bold"))
    # canonical corners of (0, 0): N and S (dots), and an alias example
    for name in ("N", "S"):
        x, y = corner(0, 0, name)
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="7" fill="#2c6fbb"/>')
        out.append(text(x + (34 if name == "N" else -34), y + (-10 if name == "N" else 10),
                        f"[0,0,{name}]", 12, "#2c6fbb", "bold"))
    x, y = corner(0, 0, "NE")
    out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="6" fill="none" stroke="#2c6fbb" stroke-width="2"/>')
    out.append(text(x + 62, y - 2, "NE of (0,0) = [1,-1,S]", 11, "#2c6fbb"))
    # legend and alias table
    lx = 600
    rows = [("corner NE of (q, r)", "S of (q+1, r-1)"), ("corner SE of (q, r)", "N of (q, r+1)"),
            ("corner SW of (q, r)", "N of (q-1, r+1)"), ("corner NW of (q, r)", "S of (q, r-1)"),
            ("side W of (q, r)", "E of (q-1, r)"), ("side NW of (q, r)", "SE of (q, r-1)"),
            ("side SW of (q, r)", "NE of (q-1, r+1)")]
    out.append(f'<text x="{lx}" y="70" font-size="15" font-weight="bold">Input alias  →  canonical</text>')
    for i, (a, b) in enumerate(rows):
        y = 100 + i * 24
        out.append(f'<text x="{lx}" y="{y}" font-size="13">{a}</text>')
        out.append(f'<text x="{lx + 150}" y="{y}" font-size="13" font-weight="bold">{b}</text>')
    y = 100 + len(rows) * 24 + 20
    legend = ['<tspan fill="#2c6fbb" font-weight="bold">●</tspan> intersection [q, r, N|S]',
              '<tspan dx="14">path [q, r, NE|E|SE]</tspan>',
              "hex [q, r]; neighbours E (q+1, r), W (q-1, r),",
              "NE (q+1, r-1), NW (q, r-1),",
              "SE (q, r+1), SW (q-1, r+1)"]
    for i, line in enumerate(legend):
        out.append(f'<text x="{lx}" y="{y + i * 22}" font-size="13">{line}</text>')
    out.append(f'<line x1="{lx}" y1="{y + 22 - 4}" x2="{lx + 10}" y2="{y + 22 - 4}" stroke="#c0392b" '
               'stroke-width="4" stroke-linecap="round"/>')   # the path sample (a drawn line, not a glyph)
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    target = Path(__file__).resolve().parent / "coordinates.svg"
    target.write_text(svg(), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
