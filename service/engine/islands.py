"""Islands (R-018): connected components of land hexes, unless the map tags regions.

>>> from .state import Tile
>>> hexes = {(0, 0): Tile("forest"), (1, 0): Tile("hills"), (3, 0): Tile("gold"), (2, 0): Tile("sea")}
>>> sorted(sorted(i) for i in land_components(hexes))
[[(0, 0), (1, 0)], [(3, 0)]]
"""
from __future__ import annotations

from typing import Mapping, Optional

from .geometry import Hex, Node, hex_neighbours, node_hexes
from .mapgraph import LAND
from .memo import bounded_put
from .state import State, Tile


_COMPONENTS: dict[frozenset, tuple[frozenset, ...]] = {}


def land_components(hexes: Mapping[Hex, Tile]) -> list[frozenset[Hex]]:
    """The connected groups of land hexes, north-west first. Kept per land layout (bounded, per process):
    scenario hooks ask for them on every action of a game whose land rarely changes."""
    land = frozenset(h for h, t in hexes.items() if t.terrain in LAND)
    hit = _COMPONENTS.get(land)
    if hit is None:
        hit = tuple(frozenset(c) for c in _components(land))
        bounded_put(_COMPONENTS, land, hit, 256)
    return list(hit)


def _components(land: frozenset[Hex]) -> list[set[Hex]]:
    seen: set[Hex] = set()
    out = []
    for h in sorted(land, key=lambda x: (x[1], x[0])):
        if h in seen:
            continue
        comp = {h}
        stack = [h]
        seen.add(h)
        while stack:
            x = stack.pop()
            for m in hex_neighbours(x):
                if m in land and m not in seen:
                    seen.add(m)
                    comp.add(m)
                    stack.append(m)
        out.append(comp)
    return out


def island_map(state: State) -> dict[Hex, str]:
    """Hex -> island name. Map-tagged regions (``scenario_state["islands"]``: name -> list of [q, r])
    take precedence; other land hexes get their component's name ``"island-<n>"`` (north-west first)."""
    tagged: dict[Hex, str] = {}
    for name, hs in (state.scenario_state.get("islands") or {}).items():
        for q, r in hs:
            tagged[(q, r)] = name
    out = dict(tagged)
    for i, comp in enumerate(land_components(state.hexes)):
        for h in comp:
            out.setdefault(h, f"island-{i}")
    return out


def islands_of_node(state: State, node: Node, imap: Optional[dict[Hex, str]] = None) -> set[str]:
    """The island(s) an intersection lies on (a coastal node touches one island, rarely two)."""
    imap = island_map(state) if imap is None else imap
    return {imap[h] for h in node_hexes(node) if h in imap}
