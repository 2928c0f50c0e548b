"""A board as an SVG picture: pure functions taking a state (or its parts) plus keyword-only options.

The picture is meant to settle a dispute at a table: hexes by terrain (gold striped, so it never reads as
grain), number tokens, harbours as labels inside their sea hex joined to the two corners they serve,
pieces in player colours with distinct shapes, the robber and the pirate, a route witness drawn as a dark
band with a bright core (visible on any terrain), violations circled, a proposed action's piece in green
(legal) or red (illegal), the verdict written over the board on request, and a legend under the board that
says which colour is which player, what each shape is and what each terrain is. Harbour labels, hex
coordinates and the GOLD label are drawn after the pieces, so no piece hides them.

>>> from service.engine.state import Tile
>>> svg = board({(0, 0): Tile("forest", 6), (1, 0): Tile("unknown")}, size=20)
>>> svg.startswith("<svg") and "forest" in svg and ">6<" in svg and "?" in svg
True
>>> 'class="legend"' in svg
True
"""
from __future__ import annotations

import math
import textwrap
from html import escape
from typing import Any, Mapping, Optional, Sequence

from ..engine.geometry import Edge, Hex, Node, edge_hexes, edge_nodes
from ..engine.picture import Glyph, Layer, Panel

TERRAIN_FILL = {
    "sea": "#3b7dd8", "frame": "#1f4e8c", "desert": "#e3cfa4", "gold": "#e08a00", "fields": "#f5dc3c",
    "hills": "#c8643b", "mountains": "#8f8f8f", "pasture": "#92d050", "forest": "#2e7d32",
    "unknown": "#555a66", "lake": "#7fc8f8",
}
#: Gold fields carry dark diagonal stripes on top of their fill (never mistaken for grain).
GOLD_STRIPE = "#8a4b00"
#: Six seats (BASE56-002). The 5th and 6th (black, lavender) were chosen so that under simulated protanopia,
#: deuteranopia and tritanopia every pair of the six stays at least 28 CIELAB units apart (red, green and
#: brown fell to 16): `tests/test_five_six_tools.py` measures it.
PLAYER_COLOURS = ("#d32f2f", "#1565c0", "#ef8f00", "#f5f5f5", "#212121", "#b39ddb")
PLAYER_NAMES = ("red", "blue", "orange", "white", "black", "lavender")
HARBOR_LABEL = {"3:1": "3:1", "brick": "2:1 brick", "lumber": "2:1 lumber", "wool": "2:1 wool",
                "grain": "2:1 grain", "ore": "2:1 ore"}
HARBOR_FILL = {"3:1": "#ffffff", "brick": "#f2b8a0", "lumber": "#a5d6a7", "wool": "#dcedc8",
               "grain": "#fff3a0", "ore": "#d6d6d6"}
#: What the legend calls each terrain (what it yields, for the producing ones).
TERRAIN_NAME = {
    "sea": "sea", "frame": "frame (sea, no tiles)", "desert": "desert", "gold": "gold field (any resource)",
    "fields": "fields (grain)", "hills": "hills (brick)", "mountains": "mountains (ore)",
    "pasture": "pasture (wool)", "forest": "forest (lumber)", "unknown": "unexplored (?)", "lake": "lake",
}
ROUTE_CASING, ROUTE_CORE = "#101820", "#00e5ff"
MARK = "#e040fb"
WATER = ("sea", "frame", "lake")
#: The longer side of a picture drawn without a ``size`` (pixels), and the bounds of the hex size then.
TARGET_PX, MIN_SIZE, MAX_SIZE = 640, 24.0, 64.0


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


def auto_size(hexes: Mapping[Hex, Any]) -> float:
    """The hex size that draws ``hexes`` about ``TARGET_PX`` wide or high (small boards scaled up, big
    ones down), within ``MIN_SIZE``..``MAX_SIZE``.

    >>> from service.engine.state import Tile
    >>> auto_size({(0, 0): Tile("forest"), (1, 0): Tile("sea")}) == MAX_SIZE
    True
    """
    if not hexes:
        return MAX_SIZE
    xs = [hex_center(h, 1.0)[0] for h in hexes]
    ys = [hex_center(h, 1.0)[1] for h in hexes]
    span = max(max(xs) - min(xs) + 2.4, max(ys) - min(ys) + 2.4)
    return max(MIN_SIZE, min(MAX_SIZE, TARGET_PX / span))


def _house(x: float, y: float, s: float) -> str:
    """A settlement: a small house (square body, pointed roof)."""
    return (f"{x - s:.1f},{y + s:.1f} {x + s:.1f},{y + s:.1f} {x + s:.1f},{y - s * 0.2:.1f} "
            f"{x:.1f},{y - s * 1.2:.1f} {x - s:.1f},{y - s * 0.2:.1f}")


def _city(x: float, y: float, s: float) -> str:
    """A city: a wide low hall with a taller house on its left."""
    return (f"{x - s:.1f},{y + s * 0.8:.1f} {x + s:.1f},{y + s * 0.8:.1f} {x + s:.1f},{y - s * 0.1:.1f} "
            f"{x:.1f},{y - s * 0.1:.1f} {x:.1f},{y - s * 0.6:.1f} {x - s * 0.5:.1f},{y - s * 1.1:.1f} "
            f"{x - s:.1f},{y - s * 0.6:.1f}")


def board(hexes: Mapping[Hex, Any], *, harbors: Optional[Mapping[Edge, str]] = None,
          buildings: Optional[Mapping[Node, tuple[int, str]]] = None, roads: Optional[Mapping[Edge, int]] = None,
          ships: Optional[Mapping[Edge, int]] = None, robber: Optional[Hex] = None, pirate: Optional[Hex] = None,
          size: Optional[float] = None, title: Optional[str] = None, show_frame: bool = True,
          show_coords: bool = False, colours: tuple[str, ...] = PLAYER_COLOURS,
          svp: Optional[Mapping[Node, int]] = None, route: Optional[list[Edge]] = None,
          marks: Optional[Mapping[str, list]] = None, players: Optional[int] = None, legend: bool = True,
          mark_label: str = "rule broken here", layers: Sequence[Layer | Panel] = (),
          proposal: Optional[Mapping[str, Any]] = None, caption: Optional[tuple[bool, Sequence[str]]] = None) -> str:
    """The SVG text of a board: hexes by terrain (unexplored ones shown hidden, "?"), number tokens,
    harbours, roads, ships, settlements and cities in player colours, robber (R) and pirate (P).

    Options: ``size`` (pixels from a hex's centre to a corner; ``None`` scales the board to about
    ``TARGET_PX``), ``svp`` (node -> special victory point tokens under the building there, drawn as a
    disc with the count), ``route`` (a witness path of edges, drawn as a band under the pieces),
    ``marks`` (``{"hexes": [...], "nodes": [...], "edges": [...]}``, where a violation lies, circled in
    magenta), ``players`` (how many players the legend lists; default: those with pieces), ``legend``
    (the legend lists the players, the piece shapes, and the robber, pirate, route and marks when drawn)
    ``mark_label`` (what the legend calls a mark) and ``layers`` (what the game's rule modules add:
    :class:`~service.engine.picture.Layer` s, each drawn by its shape and listed in the legend when it has
    something on the board, and :class:`~service.engine.picture.Panel` s, boxes of text drawn under the
    legend), ``proposal`` (a proposed action's piece or places, ``{"legal", "kind", "player", "nodes",
    "edges", "hexes", "rules"}``: the piece drawn in green when legal, red when not; other places ringed in those
    colours; ``rules``: the rules an illegal one breaks, named in the legend, where they hide nothing) and
    ``caption`` (``(legal, lines)``: the verdict written in a band over the board, so the picture
    can be shared as it is). Several token glyphs at one hex or intersection stand side by side, not on top of
    each other. Harbour labels, coordinates and the GOLD label are drawn over the pieces, never under them;
    the legend also names each terrain drawn."""
    shown = {h: t for h, t in hexes.items() if show_frame or t.terrain != "frame"}
    if size is None:
        size = auto_size(shown)
    centres = {h: hex_center(h, size) for h in shown}
    xs = [c[0] for c in centres.values()] or [0]
    ys = [c[1] for c in centres.values()] or [0]
    pad = size * 1.2
    cap_fs = min(16.0, max(11.0, size * 0.34))
    cap_chars = max(20, int((max(xs) - min(xs) + 2 * pad) / (cap_fs * 0.6)) - 3)
    cap_lines = [w for line in (caption[1] if caption else ()) for w in (textwrap.wrap(line, cap_chars) or [""])]
    cap_h = (len(cap_lines) * cap_fs * 1.4 + cap_fs * 0.8) if caption else 0.0
    top = pad + (size if title else 0) + cap_h
    minx, miny = min(xs) - pad, min(ys) - top
    w = max(xs) - min(xs) + 2 * pad
    board_h = max(ys) - min(ys) + pad + top
    if players is None:
        owners = [p for p, _k in (buildings or {}).values()] + list((roads or {}).values()) + list((ships or {}).values())
        players = max(owners) + 1 if owners else 0
    shown_items: dict[str, Any] = {"robber": robber is not None, "pirate": pirate is not None, "route": bool(route),
                   "mark": any(marks.values()) if marks else False,
                   "proposed-legal": bool(proposal) and bool(proposal.get("legal")),
                   "proposed-illegal": bool(proposal) and not proposal.get("legal")}
    if proposal and not proposal.get("legal") and proposal.get("rules"):
        mark_rules = list(proposal["rules"])
        shown_items["proposed-rules"] = ", ".join(mark_rules[:3]) + (" ..." if len(mark_rules) > 3 else "")
    terrains = sorted({t.terrain for t in shown.values()}, key=lambda k: (list(TERRAIN_FILL).index(k)
                                                                       if k in TERRAIN_FILL else 99, k))
    drawn_layers = [lay for lay in layers if isinstance(lay, Layer) and lay.glyphs]
    panels = [pan for pan in layers if isinstance(pan, Panel)] if legend else []
    legend_rows, legend_h = (_legend_layout(players, size, w, shown_items, mark_label, drawn_layers, terrains)
                             if legend else ([], 0.0))
    panel_rows, panel_h = _panel_layout(panels, size, w)
    h = board_h + legend_h + panel_h
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{minx:.1f} {miny:.1f} {w:.1f} {h:.1f}" '
           f'width="{w:.0f}" height="{h:.0f}" data-hex-size="{size:.3f}" font-family="DejaVu Sans, sans-serif">',
           f'<defs><pattern id="gold-stripes" patternUnits="userSpaceOnUse" width="{size * 0.3:.1f}" '
           f'height="{size * 0.3:.1f}" patternTransform="rotate(45)"><rect width="{size * 0.3:.1f}" '
           f'height="{size * 0.3:.1f}" fill="{TERRAIN_FILL["gold"]}"/><rect width="{size * 0.1:.1f}" '
           f'height="{size * 0.3:.1f}" fill="{GOLD_STRIPE}"/></pattern></defs>',
           f'<rect x="{minx:.1f}" y="{miny:.1f}" width="{w:.1f}" height="{h:.1f}" fill="#ffffff"/>']
    if title:
        out.append(f'<text x="{minx + w / 2:.1f}" y="{miny + size * 0.9:.1f}" text-anchor="middle" '
                   f'font-size="{size * 0.6:.1f}">{escape(title)}</text>')
    if caption:
        out.append(_caption(caption[0], cap_lines, minx, miny + (size if title else 0), w, cap_fs))
    over: list[str] = []       # drawn over the pieces: the GOLD labels and the coordinates
    labels: list[str] = []     # the harbour labels, over the pieces too
    for hx in sorted(shown, key=lambda k: (k[1], k[0])):
        t = shown[hx]
        cx, cy = centres[hx]
        fill = "url(#gold-stripes)" if t.terrain == "gold" else TERRAIN_FILL.get(t.terrain, "#cccccc")
        out.append(f'<polygon class="hex {t.terrain}" points="{_corners(cx, cy, size * 0.98)}" fill="{fill}" '
                   f'stroke="#203040" stroke-width="1"><title>{hx[0]},{hx[1]} {t.terrain}</title></polygon>')
        if t.terrain == "unknown":
            out.append(f'<text x="{cx:.1f}" y="{cy + size * 0.25:.1f}" text-anchor="middle" fill="#ddd" '
                       f'font-size="{size * 0.7:.1f}">?</text>')
        if t.terrain == "gold":
            over.append(_gold_label(cx, cy, size))
        if t.number is not None:
            red = t.number in (6, 8)
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.36:.1f}" fill="#f8f0d8" stroke="#333"/>')
            out.append(f'<text x="{cx:.1f}" y="{cy + size * 0.14:.1f}" text-anchor="middle" font-size="{size * 0.4:.1f}" '
                       f'fill="{"#c00" if red else "#111"}" font-weight="{"bold" if red else "normal"}">{t.number}</text>')
        if show_coords:
            over.append(_coord_label(cx, cy, f"{hx[0]},{hx[1]}", size))
    for e, kind in sorted((harbors or {}).items()):
        piers, label = _harbor(e, kind, shown, size)
        out.append(piers)
        labels.append(label)
    if route:
        pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in (node_point(n, size) for n in _trail_nodes(route)))
        out.append(f'<g class="route"><polyline points="{pts}" fill="none" stroke="{ROUTE_CASING}" '
                   f'stroke-opacity="0.9" stroke-linecap="round" stroke-linejoin="round" '
                   f'stroke-width="{size * 0.5:.1f}"/><polyline points="{pts}" fill="none" stroke="{ROUTE_CORE}" '
                   f'stroke-linecap="round" stroke-linejoin="round" stroke-width="{size * 0.3:.1f}"/></g>')
    for pieces, kind in ((roads or {}, "road"), (ships or {}, "ship")):
        for e, p in sorted(pieces.items()):
            out.append(_edge_piece(e, p, kind, size, colours))
    for n, (p, kind) in sorted((buildings or {}).items()):
        x, y = node_point(n, size)
        s = size * (0.3 if kind == "city" else 0.2)
        shape = _city(x, y, s) if kind == "city" else _house(x, y, s)
        out.append(f'<polygon class="{kind}" points="{shape}" fill="{colours[p % len(colours)]}" stroke="#000" '
                   f'stroke-width="{max(1.0, size * 0.04):.1f}"><title>player {p} {kind} '
                   f'{n[0]},{n[1]},{n[2]}</title></polygon>')
    for n, count in sorted((svp or {}).items()):
        x, y = node_point(n, size)
        out.append(f'<g class="svp"><circle cx="{x + size * 0.3:.1f}" cy="{y - size * 0.3:.1f}" r="{size * 0.17:.1f}" '
                   f'fill="#fff59d" stroke="#6d4c00"/><text x="{x + size * 0.3:.1f}" y="{y - size * 0.24:.1f}" '
                   f'text-anchor="middle" font-size="{size * 0.2:.1f}">{count}</text></g>')
    offsets = _stack_offsets(drawn_layers)
    for li, lay in enumerate(drawn_layers):
        out.append(f'<g class="layer {escape(lay.key)}">' + "".join(
            _glyph(lay, g, size, colours, offsets.get((li, gi), 0.0)) for gi, g in enumerate(lay.glyphs)) + "</g>")
    out.extend(labels)
    out.extend(over)
    for hx, label, cls in ((robber, "R", "robber"), (pirate, "P", "pirate")):
        if hx is not None:
            cx, cy = hex_center(hx, size)
            out.append(_token(cx, cy - size * 0.5, label, cls, size))
    if proposal:
        out.append(_proposal(proposal, size, colours))
    marks = marks or {}
    for hx in marks.get("hexes", ()):
        cx, cy = hex_center(tuple(hx), size)
        out.append(f'<circle class="mark" cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.8:.1f}" fill="none" stroke="{MARK}" '
                   f'stroke-width="{size * 0.12:.1f}"/>')
    for n in marks.get("nodes", ()):
        x, y = node_point(tuple(n), size)
        out.append(f'<circle class="mark" cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.4:.1f}" fill="none" stroke="{MARK}" '
                   f'stroke-width="{size * 0.12:.1f}"/>')
    for e in marks.get("edges", ()):
        (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(tuple(e)))
        out.append(f'<ellipse class="mark" cx="{(x1 + x2) / 2:.1f}" cy="{(y1 + y2) / 2:.1f}" rx="{size * 0.55:.1f}" '
                   f'ry="{size * 0.55:.1f}" fill="none" stroke="{MARK}" stroke-width="{size * 0.12:.1f}"/>')
    if legend_rows:
        out.append(_legend(legend_rows, minx, miny + board_h, size, colours, mark_label))
    if panel_rows:
        out.append(_panels(panel_rows, minx, miny + board_h + legend_h, size, w))
    out.append("</svg>")
    return "\n".join(out)


def _edge_piece(e: Edge, p: int, kind: str, size: float, colours: tuple[str, ...]) -> str:
    """A road (a bar) or a ship (a hull with a sail), in the player's colour with a dark outline."""
    (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(e))
    col = colours[p % len(colours)]
    label = f"<title>player {p} {kind} {e[0]},{e[1]},{e[2]}</title>"
    if kind == "road":
        return (f'<g class="road">{label}<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#000" '
                f'stroke-width="{size * 0.24:.1f}"/><line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
                f'stroke="{col}" stroke-width="{size * 0.16:.1f}"/></g>')
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    s = size * 0.22
    hull = f"{mx - 1.6 * s:.1f},{my:.1f} {mx + 1.6 * s:.1f},{my:.1f} {mx + s:.1f},{my + 0.8 * s:.1f} {mx - s:.1f},{my + 0.8 * s:.1f}"
    sail = f"{mx - 0.1 * s:.1f},{my - 0.1 * s:.1f} {mx - 0.1 * s:.1f},{my - 1.6 * s:.1f} {mx + 1.1 * s:.1f},{my - 0.1 * s:.1f}"
    return (f'<g class="ship">{label}<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{col}" '
            f'stroke-width="{size * 0.1:.1f}" stroke-dasharray="{size * 0.15:.1f} {size * 0.1:.1f}"/>'
            f'<polygon points="{hull}" fill="{col}" stroke="#000" stroke-width="1"/>'
            f'<polygon points="{sail}" fill="{col}" stroke="#000" stroke-width="1"/></g>')


def _token(x: float, y: float, label: str, cls: str, size: float) -> str:
    return (f'<g class="{cls}"><circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.24:.1f}" fill="#111" stroke="#fff" '
            f'stroke-width="{max(1.0, size * 0.04):.1f}"/><text x="{x:.1f}" y="{y + size * 0.09:.1f}" '
            f'text-anchor="middle" fill="#fff" font-weight="bold" font-size="{size * 0.26:.1f}">{label}</text></g>')


def _harbor(e: Edge, kind: str, hexes: Mapping[Hex, Any], size: float) -> tuple[str, str]:
    """A harbour: two piers from a point inside its water hex to the corners it serves, and its label at
    that point (drawn later, over the pieces, so a ship or road never hides it)."""
    a, b = edge_hexes(e)
    ta, tb = hexes.get(a), hexes.get(b)
    water, land = (a, b) if (ta is None or ta.terrain in WATER) and not (tb is None or tb.terrain in WATER) else (b, a)
    (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(e))
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    wx, wy = hex_center(water, size)
    lx, ly = mx + (wx - mx) * 0.7, my + (wy - my) * 0.7           # inside the water hex, off the edge
    text = HARBOR_LABEL.get(kind, kind)
    fs = size * 0.27
    tw = max(3, len(text)) * fs * 0.62 + fs * 0.6
    th = fs * 1.5
    piers = (f'<g class="harbor-piers"><line x1="{lx:.1f}" y1="{ly:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" stroke="#6d4c2f" '
             f'stroke-width="{size * 0.07:.1f}"/><line x1="{lx:.1f}" y1="{ly:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" '
             f'stroke="#6d4c2f" stroke-width="{size * 0.07:.1f}"/></g>')
    label = (f'<g class="harbor"><title>harbour {escape(text)} at {e[0]},{e[1]},{e[2]}</title>'
             f'<rect x="{lx - tw / 2:.1f}" y="{ly - th / 2:.1f}" width="{tw:.1f}" height="{th:.1f}" rx="{fs * 0.3:.1f}" '
             f'fill="{HARBOR_FILL.get(kind, "#ffffff")}" stroke="#3e2a16" stroke-width="1"/>'
             f'<text x="{lx:.1f}" y="{ly + fs * 0.35:.1f}" text-anchor="middle" font-size="{fs:.1f}" '
             f'font-weight="bold" fill="#1a1a1a">{escape(text)}</text></g>')
    return piers, label


def _coord_label(cx: float, cy: float, text: str, size: float) -> str:
    """A hex's coordinates near its bottom corner: white on a dark plate, readable on any terrain."""
    fs = size * 0.2
    tw, th = len(text) * fs * 0.62 + fs * 0.4, fs * 1.25
    y = cy + size * 0.8
    return (f'<g class="coord"><rect x="{cx - tw / 2:.1f}" y="{y - th / 2:.1f}" width="{tw:.1f}" height="{th:.1f}" '
            f'rx="{fs * 0.3:.1f}" fill="#111" fill-opacity="0.75"/><text x="{cx:.1f}" y="{y + fs * 0.36:.1f}" '
            f'text-anchor="middle" fill="#fff" font-size="{fs:.1f}">{text}</text></g>')


def _gold_label(cx: float, cy: float, size: float) -> str:
    """The word GOLD on a gold field: dark bold letters on a light plate, below the number token."""
    fs = size * 0.3
    tw, th = fs * 3.1, fs * 1.3
    y = cy + size * 0.58
    return (f'<g class="gold-label"><rect x="{cx - tw / 2:.1f}" y="{y - th / 2:.1f}" width="{tw:.1f}" '
            f'height="{th:.1f}" rx="{fs * 0.3:.1f}" fill="#fff8e1" stroke="#4a2800" stroke-width="1"/>'
            f'<text x="{cx:.1f}" y="{y + fs * 0.36:.1f}" text-anchor="middle" fill="#4a2800" font-weight="bold" '
            f'font-size="{fs:.1f}">GOLD</text></g>')


PROPOSED_LEGAL, PROPOSED_ILLEGAL = "#00c853", "#d50000"
#: The pieces a proposal can be drawn as (anything else it names is ringed).
PIECE_KINDS = ("settlement", "city", "road", "ship")


def _proposal(prop: Mapping[str, Any], size: float, colours: tuple[str, ...]) -> str:
    """A proposed action drawn on the board: its piece (a house, a hall, a road, a ship) where it would go,
    in green when the action is legal and red when not; any other place it names ringed in that colour."""
    col = PROPOSED_LEGAL if prop.get("legal") else PROPOSED_ILLEGAL
    kind = prop.get("kind")
    p = prop.get("player")
    inner = colours[p % len(colours)] if isinstance(p, int) and p >= 0 else "#ffffff"
    sw = max(1.5, size * 0.08)
    out = [f'<g class="proposed {"legal" if prop.get("legal") else "illegal"}">']
    for n in prop.get("nodes", ()):
        x, y = node_point(tuple(n), size)
        if kind in ("settlement", "city"):
            s = size * (0.3 if kind == "city" else 0.2)
            shape = _city(x, y, s) if kind == "city" else _house(x, y, s)
            out.append(f'<polygon points="{shape}" fill="{inner}" fill-opacity="0.85" stroke="{col}" '
                       f'stroke-width="{sw:.1f}"/>')
        else:
            out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{size * 0.28:.1f}" fill="none" stroke="{col}" '
                       f'stroke-width="{sw:.1f}" stroke-dasharray="{size * 0.12:.1f} {size * 0.06:.1f}"/>')
    for e in prop.get("edges", ()):
        (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(tuple(e)))
        if kind == "road":
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{col}" '
                       f'stroke-width="{size * 0.3:.1f}"/><line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" '
                       f'y2="{y2:.1f}" stroke="{inner}" stroke-width="{size * 0.14:.1f}"/>')
        elif kind == "ship":
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{col}" '
                       f'stroke-width="{size * 0.3:.1f}" stroke-opacity="0.8"/>')
            out.append(_edge_piece(tuple(e), p if isinstance(p, int) else 0, "ship", size, colours))
        else:
            out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{col}" '
                       f'stroke-width="{sw:.1f}" stroke-dasharray="{size * 0.12:.1f} {size * 0.06:.1f}"/>')
    for hx in prop.get("hexes", ()):
        cx, cy = hex_center(tuple(hx), size)
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{size * 0.7:.1f}" fill="none" stroke="{col}" '
                   f'stroke-width="{sw:.1f}" stroke-dasharray="{size * 0.2:.1f} {size * 0.1:.1f}"/>')
    out.append("</g>")
    return "".join(out)


def _caption(legal: bool, lines: Sequence[str], x0: float, y0: float, width: float, fs: float) -> str:
    """The verdict written over the board: a green or red band with its lines."""
    col, bg = (PROPOSED_LEGAL, "#e8f5e9") if legal else (PROPOSED_ILLEGAL, "#ffebee")
    h = len(lines) * fs * 1.4 + fs * 0.6
    out = [f'<g class="caption {"legal" if legal else "illegal"}"><rect x="{x0 + fs * 0.3:.1f}" y="{y0 + fs * 0.2:.1f}" '
           f'width="{width - fs * 0.6:.1f}" height="{h:.1f}" rx="{fs * 0.3:.1f}" fill="{bg}" stroke="{col}" '
           f'stroke-width="2"/>']
    for i, line in enumerate(lines):
        weight = ' font-weight="bold"' if i == 0 else ""
        out.append(f'<text x="{x0 + fs * 0.8:.1f}" y="{y0 + fs * 0.2 + fs * 1.4 * (i + 1):.1f}" font-size="{fs:.1f}" '
                   f'fill="#111"{weight}>{escape(line)}</text>')
    out.append("</g>")
    return "".join(out)


def _legend_items(players: int, shown: Mapping[str, Any], layers: Sequence[Layer] = (),
                  terrains: Sequence[str] = ()) -> list[tuple[str, Any]]:
    """The players, the piece shapes, what else the picture shows (robber, pirate, route, marks, a proposed
    action, each module layer with something on the board) and the terrains drawn."""
    items: list[tuple[str, Any]] = [("player", p) for p in range(players)]
    items += [("settlement", None), ("city", None), ("road", None), ("ship", None)]
    items += [(k, shown.get("proposed-rules") if k == "proposed-illegal" else None)
              for k in ("robber", "pirate", "route", "mark", "proposed-legal", "proposed-illegal") if shown.get(k)]
    items += [("layer", lay) for lay in layers]
    items += [("terrain", t) for t in terrains]
    return items


def _legend_text(kind: str, arg: Any, mark_label: str = "rule broken here") -> str:
    if kind == "proposed-illegal" and arg:
        return f"proposed (illegal: {arg})"
    if kind == "player":
        return f"player {arg} ({PLAYER_NAMES[arg % len(PLAYER_NAMES)]})"
    if kind == "layer":
        return arg.legend
    if kind == "terrain":
        return TERRAIN_NAME.get(arg, arg)
    return {"route": "longest route", "mark": mark_label, "proposed-legal": "proposed (legal)",
            "proposed-illegal": "proposed (illegal)"}.get(kind, kind)


def _legend_layout(players: int, size: float, width: float, shown: Mapping[str, Any],
                   mark_label: str, layers: Sequence[Layer] = (),
                   terrains: Sequence[str] = ()) -> tuple[list[list[tuple[str, Any, float]]], float]:
    """Legend items flowed into rows that fit ``width``; returns the rows and their total height."""
    fs = min(14.0, max(10.0, size * 0.3))
    rows: list[list[tuple[str, Any, float]]] = [[]]
    x = 0.0
    for kind, arg in _legend_items(players, shown, layers, terrains):
        iw = fs * 2.2 + len(_legend_text(kind, arg, mark_label)) * fs * 0.6 + fs
        if rows[-1] and x + iw > width - fs:
            rows.append([])
            x = 0.0
        rows[-1].append((kind, arg, iw))
        x += iw
    return rows, (len(rows) * fs * 1.9 + fs * 0.6)


def _legend(rows: list, x0: float, y0: float, size: float, colours: tuple[str, ...], mark_label: str) -> str:
    fs = min(14.0, max(10.0, size * 0.3))
    out = ['<g class="legend">']
    for i, row in enumerate(rows):
        y = y0 + fs * 0.5 + i * fs * 1.9 + fs * 0.95
        x = x0 + fs * 0.6
        for kind, arg, iw in row:
            sx = x + fs * 0.8
            s = fs * 0.5
            if kind == "player":
                out.append(f'<rect x="{sx - s:.1f}" y="{y - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" '
                           f'fill="{colours[arg % len(colours)]}" stroke="#000"/>')
            elif kind == "settlement":
                out.append(f'<polygon points="{_house(sx, y + s * 0.1, s * 0.8)}" fill="#bbb" stroke="#000"/>')
            elif kind == "city":
                out.append(f'<polygon points="{_city(sx, y + s * 0.1, s)}" fill="#bbb" stroke="#000"/>')
            elif kind == "road":
                out.append(f'<line x1="{sx - s * 1.4:.1f}" y1="{y:.1f}" x2="{sx + s * 1.4:.1f}" y2="{y:.1f}" '
                           f'stroke="#000" stroke-width="{fs * 0.45:.1f}"/><line x1="{sx - s * 1.4:.1f}" y1="{y:.1f}" '
                           f'x2="{sx + s * 1.4:.1f}" y2="{y:.1f}" stroke="#bbb" stroke-width="{fs * 0.3:.1f}"/>')
            elif kind == "ship":
                out.append(_edge_piece_icon(sx, y, fs))
            elif kind in ("robber", "pirate"):
                out.append(_token(sx, y, "R" if kind == "robber" else "P", "legend-" + kind, fs * 2.4))
            elif kind == "route":
                out.append(f'<line x1="{sx - s * 1.4:.1f}" y1="{y:.1f}" x2="{sx + s * 1.4:.1f}" y2="{y:.1f}" '
                           f'stroke="{ROUTE_CASING}" stroke-width="{fs * 0.8:.1f}" stroke-linecap="round"/>'
                           f'<line x1="{sx - s * 1.4:.1f}" y1="{y:.1f}" x2="{sx + s * 1.4:.1f}" y2="{y:.1f}" '
                           f'stroke="{ROUTE_CORE}" stroke-width="{fs * 0.45:.1f}" stroke-linecap="round"/>')
            elif kind == "layer":
                out.append(_shape(arg.shape, sx, y, fs * 0.55, arg.colour, "", fs))
            elif kind == "mark":
                out.append(f'<circle cx="{sx:.1f}" cy="{y:.1f}" r="{s:.1f}" fill="none" stroke="{MARK}" '
                           f'stroke-width="{fs * 0.2:.1f}"/>')
            elif kind in ("proposed-legal", "proposed-illegal"):
                col = PROPOSED_LEGAL if kind == "proposed-legal" else PROPOSED_ILLEGAL
                out.append(f'<polygon points="{_house(sx, y + s * 0.1, s * 0.8)}" fill="#fff" stroke="{col}" '
                           f'stroke-width="{fs * 0.2:.1f}"/>')
            elif kind == "terrain":
                fill = "url(#gold-stripes)" if arg == "gold" else TERRAIN_FILL.get(arg, "#cccccc")
                out.append(f'<polygon class="swatch {escape(arg)}" points="{_corners(sx, y, s * 1.1)}" fill="{fill}" '
                           f'stroke="#203040"/>')
                if arg == "unknown":
                    out.append(f'<text x="{sx:.1f}" y="{y + s * 0.45:.1f}" text-anchor="middle" fill="#ddd" '
                               f'font-size="{s * 1.3:.1f}">?</text>')
            out.append(f'<text x="{x + fs * 2.2:.1f}" y="{y + fs * 0.35:.1f}" font-size="{fs:.1f}" fill="#111">'
                       f'{escape(_legend_text(kind, arg, mark_label))}</text>')
            x += iw
    out.append("</g>")
    return "".join(out)


#: The corners of the polygon glyphs, in radii from the centre.
_CORNERS = {"diamond": ((0, -1.2), (1.2, 0), (0, 1.2), (-1.2, 0)), "triangle": ((0, -1.2), (1.1, 0.8), (-1.1, 0.8))}


def _shape(shape: str, x: float, y: float, r: float, colour: str, label: str, size: float,
           along: Optional[tuple[float, float, float, float]] = None) -> str:
    """One module glyph's shape centred on ``(x, y)`` with radius ``r``, its label on it. ``band`` is drawn
    along ``along`` (a path's two ends) when given, else as a short bar."""
    solid = f'fill="{colour}" stroke="#111" stroke-width="{max(1.0, size * 0.04):.1f}"/>'
    if shape == "disc":
        body = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" {solid}'
    elif shape == "square":
        body = f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" height="{2 * r:.1f}" {solid}'
    elif shape in _CORNERS:
        points = " ".join(f"{x + r * dx:.1f},{y + r * dy:.1f}" for dx, dy in _CORNERS[shape])
        body = f'<polygon points="{points}" {solid}'
    elif shape == "cross":
        body = (f'<path d="M{x - r:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} M{x - r:.1f},{y + r:.1f} '
                f'L{x + r:.1f},{y - r:.1f}" stroke="{colour}" stroke-width="{r * 0.45:.1f}" stroke-linecap="round"/>')
    elif shape == "ring":
        body = (f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="none" stroke="{colour}" '
                f'stroke-width="{r * 0.3:.1f}"/>')
    else:  # band
        x1, y1, x2, y2 = along if along is not None else (x - r * 1.4, y, x + r * 1.4, y)
        body = (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                f'stroke-opacity="0.75" stroke-linecap="round" stroke-width="{r * 0.9:.1f}"/>')
    if label and shape not in ("ring", "band", "cross"):
        body += (f'<text x="{x:.1f}" y="{y + r * 0.35:.1f}" text-anchor="middle" font-weight="bold" '
                 f'font-size="{r * (1.1 if len(label) < 3 else 0.8):.1f}" fill="{_ink(colour)}">{escape(label)}</text>')
    elif label:
        body += (f'<text x="{x:.1f}" y="{y - r * 1.2:.1f}" text-anchor="middle" font-weight="bold" '
                 f'font-size="{r * 0.9:.1f}" fill="#111">{escape(label)}</text>')
    return body


def _ink(fill: str) -> str:
    """Black or white text, whichever reads on ``fill`` (a ``#rrggbb`` colour)."""
    try:
        r, g, b = (int(fill[i:i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        return "#111"
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#fff"


def _stack_offsets(layers: Sequence[Layer]) -> dict[tuple[int, int], float]:
    """Where several token glyphs (not rings or bands) lie at one hex or intersection: each one's place in
    the row they form, centred (-0.5, 0.5 for two; -1, 0, 1 for three), keyed by (layer, glyph) index."""
    at: dict[tuple, list[tuple[int, int]]] = {}
    for li, lay in enumerate(layers):
        if lay.shape in ("ring", "band"):
            continue
        for gi, g in enumerate(lay.glyphs):
            at.setdefault(tuple(g.at), []).append((li, gi))
    out: dict[tuple[int, int], float] = {}
    for keys in at.values():
        if len(keys) > 1:
            for i, k in enumerate(keys):
                out[k] = i - (len(keys) - 1) / 2
    return out


def _glyph(layer: Layer, g: Glyph, size: float, colours: tuple[str, ...], offset: float = 0.0) -> str:
    """A module glyph: on a hex it sits below the hex's centre (the number token keeps the middle), on an
    intersection on the corner, on a path at its middle (a ``band`` along the whole path); ``offset`` moves
    it sideways by its own width (glyphs sharing a place stand in a row)."""
    colour = layer.colour if g.player is None else colours[g.player % len(colours)]
    where = g.where()
    along = None
    if where == "hex":
        x, y = hex_center(tuple(g.at), size)
        y += size * 0.55
        r = size * 0.24
    elif where == "node":
        x, y = node_point(tuple(g.at), size)
        r = size * 0.17
    else:
        (x1, y1), (x2, y2) = (node_point(n, size) for n in edge_nodes(tuple(g.at)))
        x, y = (x1 + x2) / 2, (y1 + y2) / 2
        r = size * 0.17
        along = (x1, y1, x2, y2)
    if layer.shape == "ring":
        r = size * (0.75 if where == "hex" else 0.32)
        if where == "hex":
            y -= size * 0.55
    x += offset * r * 2.5
    title = f"<title>{escape(g.note or layer.legend)}</title>"
    return f'<g class="glyph">{title}{_shape(layer.shape, x, y, r, colour, g.label, size, along)}</g>'


def _panel_layout(panels: Sequence[Panel], size: float, width: float) -> tuple[list[tuple[Panel, list[str]]], float]:
    """Each panel with its lines wrapped to ``width``, and the height all of them take."""
    fs = min(13.0, max(10.0, size * 0.28))
    chars = max(20, int((width - fs * 2) / (fs * 0.58)))
    rows: list[tuple[Panel, list[str]]] = []
    h = 0.0
    for pan in panels:
        lines = [w for line in pan.lines for w in (textwrap.wrap(line, chars) or [""])]
        rows.append((pan, lines))
        h += fs * 1.6 * (1 + len(lines) + (1 if pan.track else 0)) + fs * 0.8
    return rows, h


def _panels(rows: list[tuple[Panel, list[str]]], x0: float, y0: float, size: float, width: float) -> str:
    """Module panels under the legend: a framed box each, its title in bold, its lines, its track of cells."""
    fs = min(13.0, max(10.0, size * 0.28))
    lh = fs * 1.6
    out = []
    y = y0
    for pan, lines in rows:
        box_h = lh * (1 + len(lines) + (1 if pan.track else 0)) + fs * 0.4
        body = [f'<rect x="{x0 + fs * 0.4:.1f}" y="{y:.1f}" width="{width - fs * 0.8:.1f}" height="{box_h:.1f}" '
                f'rx="{fs * 0.3:.1f}" fill="#f7f7f2" stroke="#888"/>',
                f'<text x="{x0 + fs:.1f}" y="{y + lh * 0.8:.1f}" font-size="{fs:.1f}" font-weight="bold" '
                f'fill="#111">{escape(pan.title)}</text>']
        ty = y + lh
        for line in lines:
            body.append(f'<text x="{x0 + fs:.1f}" y="{ty + lh * 0.8:.1f}" font-size="{fs:.1f}" fill="#111">'
                        f'{escape(line)}</text>')
            ty += lh
        if pan.track:
            filled, cells = pan.track
            cw = min(fs * 1.6, (width - fs * 2) / max(cells, 1))
            for i in range(cells):
                body.append(f'<rect class="cell{" filled" if i < filled else ""}" x="{x0 + fs + i * cw:.1f}" '
                            f'y="{ty + lh * 0.15:.1f}" width="{cw * 0.85:.1f}" height="{lh * 0.7:.1f}" '
                            f'fill="{"#37474f" if i < filled else "#ffffff"}" stroke="#37474f"/>')
        out.append(f'<g class="panel {escape(pan.key)}">{"".join(body)}</g>')
        y += box_h + fs * 0.4
    return "".join(out)


def _edge_piece_icon(x: float, y: float, fs: float) -> str:
    s = fs * 0.45
    hull = f"{x - 1.6 * s:.1f},{y:.1f} {x + 1.6 * s:.1f},{y:.1f} {x + s:.1f},{y + 0.8 * s:.1f} {x - s:.1f},{y + 0.8 * s:.1f}"
    sail = f"{x - 0.1 * s:.1f},{y - 0.1 * s:.1f} {x - 0.1 * s:.1f},{y - 1.6 * s:.1f} {x + 1.1 * s:.1f},{y - 0.1 * s:.1f}"
    return f'<polygon points="{hull}" fill="#bbb" stroke="#000"/><polygon points="{sail}" fill="#bbb" stroke="#000"/>'


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
    """:func:`board` of a :class:`~service.engine.state.State` (the legend lists all its players)."""
    options.setdefault("svp", state.svp_attached)
    options.setdefault("players", state.num_players)
    return board(state.hexes, harbors=state.harbors, buildings=state.buildings, roads=state.roads,
                 ships=state.ships, robber=state.robber, pirate=state.pirate, **options)
