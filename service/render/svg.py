"""A board as an SVG picture: pure functions taking a state (or its parts) plus keyword-only options.

>>> from service.engine.state import Tile
>>> svg = board({(0, 0): Tile("forest", 6), (1, 0): Tile("unknown")}, size=20)
>>> svg.startswith("<svg") and "forest" in svg and ">6<" in svg and "?" in svg
True
"""
from __future__ import annotations

import math
from html import escape
from typing import Any, Mapping, Optional

from ..engine.geometry import Edge, Hex, Node, edge_nodes

TERRAIN_FILL = {
    "sea": "#3b7dd8", "frame": "#1f4e8c", "desert": "#e8d69a", "gold": "#f2c21b", "fields": "#f4e04d",
    "hills": "#c8643b", "mountains": "#8f8f8f", "pasture": "#92d050", "forest": "#2e7d32",
    "unknown": "#555a66", "lake": "#7fc8f8",
}
PLAYER_COLOURS = ("#d32f2f", "#1565c0", "#ef8f00", "#f5f5f5", "#2e7d32", "#6d4c41")
HARBOR_LABEL = {"3:1": "3:1", "brick": "2:1 B", "lumber": "2:1 L", "wool": "2:1 W", "grain": "2:1 G", "ore": "2:1 O"}


def hex_center(h: Hex, size: float) -> tuple[float, float]:
    """Pixel centre of a pointy-top hex."""
    q, r = h
    return size * math.sqrt(3) * (q + r / 2), size * 1.5 * r


def node_point(n: Node, size: float) -> tuple[float, float]:
    x, y = hex_center((n[0], n[1]), size)
    return (x, y - size) if n[2] == "N" else (x, y + size)


def _corners(cx: float, cy: float, size: float) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 90)
        pts.append(f"{cx + size * math.cos(a):.1f},{cy + size * math.sin(a):.1f}")
    return " ".join(pts)


def board(hexes: Mapping[Hex, Any], *, harbors: Optional[Mapping[Edge, str]] = None,
          buildings: Optional[Mapping[Node, tuple[int, str]]] = None, roads: Optional[Mapping[Edge, int]] = None,
          ships: Optional[Mapping[Edge, int]] = None, robber: Optional[Hex] = None, pirate: Optional[Hex] = None,
          size: float = 30, title: Optional[str] = None, show_frame: bool = True, show_coords: bool = False,
          colours: tuple[str, ...] = PLAYER_COLOURS, svp: Optional[Mapping[Node, int]] = None,
          route: Optional[list[Edge]] = None, marks: Optional[Mapping[str, list]] = None,
          tokens: Optional[Mapping[Node, str]] = None) -> str:
    """The SVG text of a board: hexes by terrain (unexplored ones shown hidden, "?"), number tokens,
    harbours, roads, ships, settlements and cities in player colours, robber (R) and pirate (P).

    Options: ``svp`` (node -> special victory point tokens under the building there, drawn as a star with
    the count), ``route`` (a witness path of edges, drawn as a bright band under the pieces) and ``marks``
    (``{"hexes": [...], "nodes": [...], "edges": [...]}``, e.g. where a violation lies, circled in magenta),
    ``tokens`` (node -> a short label: tokens a scenario keeps on intersections, e.g. treasure chests)."""
    shown = {h: t for h, t in hexes.items() if show_frame or t.terrain != "frame"}
    centres = {h: hex_center(h, size) for h in shown}
    xs = [c[0] for c in centres.values()] or [0]
    ys = [c[1] for c in centres.values()] or [0]
    pad = size * 1.2
    top = pad + (size if title else 0)
    minx, miny = min(xs) - pad, min(ys) - top
    w, h = max(xs) - min(xs) + 2 * pad, max(ys) - min(ys) + pad + top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{minx:.1f} {miny:.1f} {w:.1f} {h:.1f}" '
           f'width="{w:.0f}" height="{h:.0f}" font-family="sans-serif">']
    if title:
        out.append(f'<text x="{minx + w / 2:.1f}" y="{miny + size * 0.9:.1f}" text-anchor="middle" '
                   f'font-size="{size * 0.6:.1f}">{escape(title)}</text>')
    for hx in sorted(shown, key=lambda k: (k[1], k[0])):
        t = shown[hx]
        cx, cy = centres[hx]
        fill = TERRAIN_FILL.get(t.terrain, "#cccccc")
        out.append(f'<polygon class="hex {t.terrain}" points="{_corners(cx, cy, size * 0.98)}" fill="{fill}" '
                   f'stroke="#203040" stroke-width="1"><title>{hx[0]},{hx[1]} {t.terrain}</title></polygon>')
        if t.terrain == "unknown":
            out.append(f'<text x="{cx:.1f}" y="{cy + size * 0.25:.1f}" text-anchor="middle" fill="#ddd" '
                       f'font-size="{size * 0.7:.1f}">?</text>')
        if t.number is not None:
            red = t.number in (6, 8)
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.36:.1f}" fill="#f8f0d8" stroke="#333"/>')
            out.append(f'<text x="{cx:.1f}" y="{cy + size * 0.14:.1f}" text-anchor="middle" font-size="{size * 0.4:.1f}" '
                       f'fill="{"#c00" if red else "#111"}" font-weight="{"bold" if red else "normal"}">{t.number}</text>')
        if show_coords:
            out.append(f'<text x="{cx:.1f}" y="{cy + size * 0.7:.1f}" text-anchor="middle" font-size="{size * 0.22:.1f}" '
                       f'fill="#fff">{hx[0]},{hx[1]}</text>')
    for e, kind in (harbors or {}).items():
        (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(e))
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        out.append(f'<line class="harbor" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#7a4a12" '
                   f'stroke-width="{size * 0.16:.1f}"/>')
        out.append(f'<text x="{mx:.1f}" y="{my + size * 0.1:.1f}" text-anchor="middle" font-size="{size * 0.28:.1f}" '
                   f'fill="#fff" stroke="#000" stroke-width="0.4">{escape(HARBOR_LABEL.get(kind, kind))}</text>')
    if route:
        pts = [node_point(n, size) for n in _trail_nodes(route)]
        out.append(f'<polyline class="route" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in pts)}" fill="none" '
                   f'stroke="#ffeb3b" stroke-opacity="0.85" stroke-linecap="round" stroke-linejoin="round" '
                   f'stroke-width="{size * 0.42:.1f}"/>')
    for pieces, dash in ((roads or {}, ""), (ships or {}, ' stroke-dasharray="4 2"')):
        for e, p in pieces.items():
            (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(e))
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colours[p % len(colours)]}" '
                       f'stroke-width="{size * 0.2:.1f}"{dash}/>')
    for n, (p, kind) in (buildings or {}).items():
        x, y = node_point(n, size)
        s = size * (0.3 if kind == "city" else 0.2)
        out.append(f'<rect class="{kind}" x="{x - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" '
                   f'fill="{colours[p % len(colours)]}" stroke="#000"/>')
    for n, count in (svp or {}).items():
        x, y = node_point(n, size)
        out.append(f'<g class="svp"><circle cx="{x + size * 0.3:.1f}" cy="{y - size * 0.3:.1f}" r="{size * 0.17:.1f}" '
                   f'fill="#fff59d" stroke="#6d4c00"/><text x="{x + size * 0.3:.1f}" y="{y - size * 0.24:.1f}" '
                   f'text-anchor="middle" font-size="{size * 0.2:.1f}">{count}</text></g>')
    for n, label in sorted((tokens or {}).items()):
        x, y = node_point(tuple(n), size)
        out.append(f'<g class="token"><circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.2:.1f}" fill="#8d6e63" '
                   f'stroke="#3e2723"/><text x="{x:.1f}" y="{y + size * 0.07:.1f}" text-anchor="middle" fill="#fff" '
                   f'font-size="{size * 0.2:.1f}">{escape(label)}</text></g>')
    for hx, label in ((robber, "R"), (pirate, "P")):
        if hx is not None:
            cx, cy = hex_center(hx, size)
            out.append(f'<circle cx="{cx:.1f}" cy="{cy - size * 0.5:.1f}" r="{size * 0.22:.1f}" fill="#111"/>'
                       f'<text x="{cx:.1f}" y="{cy - size * 0.42:.1f}" text-anchor="middle" fill="#fff" '
                       f'font-size="{size * 0.25:.1f}">{label}</text>')
    marks = marks or {}
    for hx in marks.get("hexes", ()):
        cx, cy = hex_center(tuple(hx), size)
        out.append(f'<circle class="mark" cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.8:.1f}" fill="none" stroke="#e040fb" '
                   f'stroke-width="{size * 0.12:.1f}"/>')
    for n in marks.get("nodes", ()):
        x, y = node_point(tuple(n), size)
        out.append(f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.4:.1f}" fill="none" stroke="#e040fb" '
                   f'stroke-width="{size * 0.12:.1f}"/>')
    for e in marks.get("edges", ()):
        (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(tuple(e)))
        out.append(f'<ellipse class="mark" cx="{(x1 + x2) / 2:.1f}" cy="{(y1 + y2) / 2:.1f}" rx="{size * 0.55:.1f}" '
                   f'ry="{size * 0.55:.1f}" fill="none" stroke="#e040fb" stroke-width="{size * 0.12:.1f}"/>')
    out.append("</svg>")
    return "\n".join(out)


def _trail_nodes(route: list[Edge]) -> list[Node]:
    """The intersections a trail of edges passes, in order (a witness path is a connected trail)."""
    if not route:
        return []
    first = list(edge_nodes(tuple(route[0])))
    if len(route) > 1 and first[0] in edge_nodes(tuple(route[1])):
        first.reverse()
    nodes = first
    for e in route[1:]:
        a, b = edge_nodes(tuple(e))
        nodes.append(b if a == nodes[-1] else a)
    return nodes


def state_svg(state, **options: Any) -> str:
    """:func:`board` of a :class:`~service.engine.state.State`."""
    options.setdefault("svp", state.svp_attached)
    return board(state.hexes, harbors=state.harbors, buildings=state.buildings, roads=state.roads,
                 ships=state.ships, robber=state.robber, pirate=state.pirate, **options)
