"""The Great Canal's own pieces of rule, as functions of a position: where the home island and the small
islands lie, the canal and its chips (TDE5-012..014, TDE5-019/020, R-072), the gold prospectors
(TDE5-015/016/022, R-070) and the knight traders (TDE5-017)."""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ...core import Ctx
from ...geometry import Hex, Node, hex_corners, hex_str, node_hexes
from ...mapgraph import LAND, MapGraph
from ...scenarios._sc_common import regions, spec_regions
from ...scenarios.hooks import mainland_of
from ...state import State
from ..cities_and_knights import store
from .maps import CHIPS_PER_HEX, SPEC

HOME = "home"
_FALLBACK = spec_regions(SPEC)


def home_hexes(state: State) -> set[Hex]:
    """The home island's hexes: the map's ``home`` region, else the largest land mass (R-018)."""
    imap = regions(state, _FALLBACK)
    names = set(imap.values())
    home = HOME if HOME in names else mainland_of(state)
    return {h for h, n in imap.items() if n == home}


def on_home(state: State, node: Any, home: Optional[set] = None) -> bool:
    """An intersection touching a hex of the home island."""
    home = home_hexes(state) if home is None else home
    return any(h in home for h in node_hexes(tuple(node)))


def on_small_island(state: State, node: Any, home: Optional[set] = None) -> bool:
    """An intersection of a small island: touching its land, and no hex of the home island."""
    home = home_hexes(state) if home is None else home
    hs = node_hexes(tuple(node))
    if any(h in home for h in hs):
        return False
    return any(state.hexes.get(h) is not None and state.hexes[h].terrain in LAND for h in hs)


def small_gold_hexes(state: State, home: Optional[set] = None) -> list[Hex]:
    """TDE5-015: the gold hexes of the small islands."""
    home = home_hexes(state) if home is None else home
    return sorted((h for h, t in state.hexes.items() if t.terrain == "gold" and h not in home),
                  key=lambda h: (h[1], h[0]))


def island_harbors(state: State, graph: MapGraph, home: Optional[set] = None) -> dict[Any, str]:
    """TDE5-017: the small islands' harbours, edge -> kind."""
    home = home_hexes(state) if home is None else home
    out = {}
    for e, kind in state.harbors.items():
        eid = graph.edge_index.get(e)
        if eid is None:
            continue
        if any(on_small_island(state, graph.nodes[n], home) for n in graph.edge_node_ids[eid]):
            out[e] = kind
    return out


def harbor_nodes(state: State, graph: MapGraph, home: Optional[set] = None) -> dict[Node, list[str]]:
    """Intersections of the small islands' harbours, with the harbour kinds there."""
    out: dict[Node, list[str]] = {}
    for e, kind in island_harbors(state, graph, home).items():
        for n in graph.edge_node_ids[graph.edge_index[e]]:
            out.setdefault(graph.nodes[n], []).append(kind)
    return out


def gold_corner(state: State, node: Any, home: Optional[set] = None) -> bool:
    return any(h in small_gold_hexes(state, home) for h in node_hexes(tuple(node)))


# -- the canal -------------------------------------------------------------------------------------------

def canal(state: State) -> list[dict]:
    return list(state.scenario_state.get("canal") or [])


def flooded(state: State) -> bool:
    return bool(state.scenario_state.get("flooded"))


def active_knights_at(state: State, h: Hex) -> list[dict]:
    nodes = {n for n in _corners(h)}
    return [k for k in store.ck(state)["knights"] if k["active"] and tuple(k["node"]) in nodes]


def _corners(h: Hex) -> list[Node]:
    return hex_corners(h)


def acting_knight(ctx: Ctx) -> Optional[Node]:
    """R-072: the knight the action just acted with (activated, moved or displaced), if any."""
    a = ctx.action
    if a.type == "activate_knight":
        return tuple(a.get("node"))
    if a.type in ("move_knight", "displace_knight"):
        return tuple(a.get("to"))
    return None


def update_order(s: State, acting: Optional[Node]) -> list[list]:
    """The active knights in the order they became active (R-072's "earliest-activated"): those still
    active keep their places; newly active ones follow, the acting knight last."""
    ss = s.scenario_state
    active = {tuple(k["node"]) for k in store.ck(s)["knights"] if k["active"]} if store.KEY in ss else set()
    old = [tuple(n) for n in ss.get("activation_order") or []]
    kept = [n for n in old if n in active]
    new = sorted(n for n in active if n not in kept and n != acting)
    if acting is not None and acting in active and acting not in kept:
        new.append(acting)
    order = kept + new
    ss["activation_order"] = [list(n) for n in order]
    return order


def dig(ctx: Ctx, s: State) -> None:
    """TDE5-012..014 / R-072: every canal hex still holding chips with at least two active knights on its
    corners is dug at once: the pair is the knight just acted with (if there) and the earliest-activated
    other one; both of one player take both chips, of two players one each. TDE5-019: once 8 are dug the
    9th is placed too (its chips leave the game) and TDE5-020 the basin floods."""
    ss = s.scenario_state
    if not ss.get("canal") or ss.get("flooded") or store.KEY not in ss:
        return
    acting = acting_knight(ctx)
    order = update_order(s, acting)
    rank = {n: i for i, n in enumerate(order)}
    tiles = [dict(t) for t in ss["canal"]]
    chips = dict(ss.get("canal_chips") or {})
    for t in tiles:
        if t["dug"]:
            continue
        here = active_knights_at(s, tuple(t["hex"]))
        if len(here) < 2:                                    # TDE5-014: any strengths; dug at once, so no third
            continue
        here.sort(key=lambda k: rank.get(tuple(k["node"]), len(rank)))
        first = next((k for k in here if tuple(k["node"]) == acting), None)
        if first is not None:
            pair = [first, next(k for k in here if k is not first)]
        else:
            pair = here[:2]
        got: dict[str, int] = {}
        if pair[0]["player"] == pair[1]["player"]:          # TDE5-013: both chips to the one player
            got[str(pair[0]["player"])] = t["chips"]
        else:                                                # TDE5-013: one each
            for k in pair:
                got[str(k["player"])] = got.get(str(k["player"]), 0) + t["chips"] // 2
        for p, n in got.items():
            chips[p] = chips.get(p, 0) + n
        t["dug"] = True                                      # TDE5-014: the knights stay active
        t["chips"] = 0
        ctx.emit("canal_dug", hex=list(t["hex"]), knights=[list(k["node"]) for k in pair], chips=got)
    ss["canal"] = tiles
    ss["canal_chips"] = chips
    if sum(1 for t in tiles if t["dug"]) >= len(tiles) - 1:  # TDE5-019: the penultimate tile finishes it
        for t in tiles:
            if not t["dug"]:
                t["dug"] = True
                t["chips"] = 0                               # TDE5-019: its 2 chips leave the game
                ctx.emit("canal_completed", hex=list(t["hex"]))
        ss["flooded"] = True                                 # TDE5-020: the basin floods, the fields bear
        ss["barren"] = []
        ctx.emit("basin_flooded", fields=[list(h) for h in ss.get("fields") or []])


def initial_canal(course: Iterable[Hex]) -> list[dict]:
    """R-072: the canal hexes in order, each with 2 Catan chips."""
    return [{"hex": list(h), "chips": CHIPS_PER_HEX, "dug": False} for h in course]


# -- prospectors and traders ---------------------------------------------------------------------------

def prospectors(state: State, home: Optional[set] = None) -> dict[int, list[Hex]]:
    """TDE5-015: per player the small islands' gold hexes with at least one own knight on a corner
    (active or not)."""
    if store.KEY not in state.scenario_state:
        return {}
    home = home_hexes(state) if home is None else home
    out: dict[int, list[Hex]] = {}
    for h in small_gold_hexes(state, home):
        corners = set(_corners(h))
        # TDE5-016: one entry per player however many of their knights stand there
        for p in sorted({k["player"] for k in store.ck(state)["knights"] if tuple(k["node"]) in corners}):
            out.setdefault(p, []).append(h)
    return out


def prospector_picks(state: State, total: int) -> dict[int, int]:
    """TDE5-015/016 / R-070: on a roll of a small-island gold hex's own number (the 8), 1 resource of choice
    per player per such hex with an own knight on it, unless the robber stands there; none once the basin
    is flooded (TDE5-022)."""
    if flooded(state):
        return {}
    out: dict[int, int] = {}
    for p, hs in prospectors(state).items():
        n = sum(1 for h in hs if state.hexes[h].number == total and h != state.robber)
        if n:
            out[p] = n
    return out


def traders(state: State, graph: MapGraph) -> dict[int, list[str]]:
    """TDE5-017: per player the small islands' harbours an own knight stands at (active or not)."""
    if store.KEY not in state.scenario_state:
        return {}
    at = harbor_nodes(state, graph)
    out: dict[int, list[str]] = {}
    for k in store.ck(state)["knights"]:
        for kind in at.get(tuple(k["node"]), ()):
            kinds = out.setdefault(k["player"], [])
            if kind not in kinds:
                kinds.append(kind)
    return {p: sorted(v) for p, v in sorted(out.items())}


__all__ = ["home_hexes", "on_home", "on_small_island", "small_gold_hexes", "island_harbors", "harbor_nodes",
           "gold_corner", "canal", "flooded", "dig", "initial_canal", "prospectors", "prospector_picks", "traders",
           "update_order", "hex_str"]
