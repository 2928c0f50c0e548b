"""Where things are in "Enchanted Land": the two islands, the Enchanted Land's intersections and its coast,
its dragons and what the module keeps in ``scenario_state``.

Kept in ``scenario_state`` (declared in the scenario's ``STATE``):

- ``islands``: the map's regions, ``home`` and ``enchanted`` (hexes), as every mapped scenario keeps them;
- ``dragons``: the dragon tokens on the board, each ``{"node", "flags"}`` (flags null while nobody has seen
  them; a token fought and not beaten lies face down again, its flags known, R-077);
- ``dragon_pool``: how many of the tokens never turned over show 1, 2 and 3 flags (drawn at a fight);
- ``defeated``: per player the flags of each dragon taken (TDE6-021);
- ``sent``: the players who sent their one knight to the Enchanted Land (TDE6-013).
"""
from __future__ import annotations

from collections import deque
from typing import Any, Iterable, Optional

from ...geometry import Hex, Node, hex_corners, node_hexes, node_neighbours
from ...mapgraph import LAND
from ...state import State
from .maps import DRAGON_NODES, ENCHANTED, FLAG_TOKENS, HOME, MAP_SPEC

_SPEC_REGIONS = {name: [tuple(h) for h in hs] for name, hs in
                 ((n, [h for h, ch in sorted(MAP_SPEC.cells().items(), key=lambda x: (x[0][1], x[0][0]))
                       if ch in chars]) for n, chars in MAP_SPEC.regions.items())}
FLAG_KEYS = ("1", "2", "3")
LEVEL_WORDS = {1: "basic", 2: "strong", 3: "mighty"}
#: TDE6-020: which knights beat a dragon of 1, 2 and 3 flags.
BEATEN_BY = {1: "any knight", 2: "a strong or mighty knight", 3: "a mighty knight"}


def region_hexes(state: State, name: str) -> frozenset[Hex]:
    """The land hexes of region ``name`` (the state's ``islands``, else the default map's)."""
    isl = (state.scenario_state.get("islands") or {}).get(name)
    src = isl if isl is not None else _SPEC_REGIONS.get(name, ())
    out = []
    for h in src:
        h = (h[0], h[1])
        t = state.hexes.get(h)
        if t is not None and t.terrain in LAND:
            out.append(h)
    return frozenset(out)


def el_hexes(state: State) -> frozenset[Hex]:
    return region_hexes(state, ENCHANTED)


def home_hexes(state: State) -> frozenset[Hex]:
    return region_hexes(state, HOME)


def on_el(state: State, node: Any, el: Optional[frozenset] = None) -> bool:
    """R-076: an Enchanted Land intersection touches at least one of its land hexes."""
    el = el_hexes(state) if el is None else el
    try:
        return any(h in el for h in node_hexes(tuple(node)))
    except (TypeError, ValueError):
        return False


def on_home(state: State, node: Any) -> bool:
    home = home_hexes(state)
    return any(h in home for h in node_hexes(tuple(node)))


def coastal(state: State, node: Any) -> bool:
    """R-074: an intersection is on the coast when it touches a sea hex."""
    for h in node_hexes(tuple(node)):
        t = state.hexes.get(h)
        if t is not None and t.terrain == "sea":
            return True
    return False


def el_nodes(state: State) -> list[Node]:
    """Every Enchanted Land intersection, sorted."""
    return sorted({n for h in el_hexes(state) for n in hex_corners(h)})


def el_distances(state: State, start: Node, limit: int = 3) -> dict[Node, int]:
    """R-076: steps between adjacent Enchanted Land intersections from ``start`` (any may be passed)."""
    el = el_hexes(state)
    seen = {tuple(start): 0}
    todo = deque([tuple(start)])
    while todo:
        n = todo.popleft()
        d = seen[n]
        if d >= limit:
            continue
        for m in node_neighbours(n):
            if m not in seen and on_el(state, m, el):
                seen[m] = d + 1
                todo.append(m)
    return seen


# -- the dragons ---------------------------------------------------------------------------------------

def dragons(state: State) -> list[dict[str, Any]]:
    return list(state.scenario_state.get("dragons") or ())


def dragon_at(state: State, node: Any) -> Optional[dict[str, Any]]:
    want = list(node)
    for d in state.scenario_state.get("dragons") or ():
        if list(d["node"]) == want:
            return d
    return None


def pool(state: State) -> dict[str, int]:
    got = state.scenario_state.get("dragon_pool") or {}
    return {k: int(got.get(k, 0)) for k in FLAG_KEYS}


def defeated(state: State, player: int) -> list[int]:
    return list((state.scenario_state.get("defeated") or {}).get(str(player)) or ())


def sent(state: State) -> list[int]:
    return list(state.scenario_state.get("sent") or ())


def initial(num_players: int) -> dict[str, Any]:
    """TDE6-005: the 19 tokens, dragon side up on their intersections (their flags unseen)."""
    return {"dragons": [{"node": list(n), "flags": None} for n in DRAGON_NODES],
            "dragon_pool": {str(k): v for k, v in FLAG_TOKENS.items()},
            "defeated": {str(p): [] for p in range(num_players)},
            "sent": []}


def free(state: State, node: Node, knights: Iterable[dict]) -> bool:
    """No building and no knight on ``node`` (a dragon token does not keep a knight off)."""
    if node in state.buildings:
        return False
    want = list(node)
    return not any(k["node"] == want for k in knights)


__all__ = ["region_hexes", "el_hexes", "home_hexes", "on_el", "on_home", "coastal", "el_nodes", "el_distances",
           "dragons", "dragon_at", "pool", "defeated", "sent", "initial", "free", "FLAG_KEYS", "BEATEN_BY",
           "LEVEL_WORDS"]
