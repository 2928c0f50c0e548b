"""The wagon's path engine: the one step-cost function, the judging of a move, and the cheapest plans.

:func:`step_cost` is the only place that prices a wagon's step; the ``move_wagon`` handler
(:func:`judge_segment`), the legal-action list and the explanations (:func:`plans`) all call it. Its answer
is a :class:`Step`: the movement points (MP) and the gold owed, each part citing its rule, or the
:class:`~service.engine.core.Violation` that forbids the step. The order of evaluation (R-083, R-084, R-094,
R-095, R-108, R-109 decide the gaps):

1. the path must be a land or coast path (WAG-058, WAG-007: the sea is crossed only by a jump, R-085);
2. a hex beside it with 3 barbarians closes it (WAG-052, R-081/R-106);
3. the base cost: a river path 3 MP (WAG-041), 1 with a bridge (WAG-042; an opponent's bridge 2 gold,
   WAG-043); a road 1 MP (WAG-009; an opponent's road 1 gold, WAG-010); else 2 MP (WAG-008); a ship never
   paves a path (WAG-025, R-108); a road on a river path changes nothing (R-109); a toll is charged the
   first time a path is travelled in the turn (WAG-054, R-082) and never to a payer its owner waives (WAG-044,
   R-112);
4. barbarians: +2 per hex beside the path with 1 barbarian when the path is undeveloped (WAG-050), with 2
   always (WAG-051); two such hexes +4 (WAG-011, WAG-061, R-083); a hex a drive-off cleared this turn adds
   nothing (WAG-061, R-105);
5. +1 per hex beside the path with the robber or a pirate lair (WAG-060, R-094);
6. warships: an opponent's warship whose hex has the step's start or end as a corner takes 1 gold tribute
   (WAG-033), once per warship a turn (WAG-034), owed whatever was bought before (WAG-035); at level 2 or more
   the wagon must roll a chase first (WAG-036, R-086); after a lost chase the tribute is owed (WAG-038); a won
   chase clears it for the turn;
7. the budget: the step's MP within the MP left (WAG-015, WAG-026) and the gold within the gold held (R-107).
"""
from __future__ import annotations

import heapq
from functools import lru_cache
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional

from ...core import Violation
from ...geometry import Edge, Hex, Node, canonical_edge, edge_hexes, edge_nodes, edge_str, hex_corners, hex_str, \
    node_edges, node_str
from ...lanes import closed_ships
from ...legal.listing import NOW, per_listing
from ...memo import per_position

KINDS = ("glass", "marble", "tools", "sand")
TRADE = ("castle", "quarry", "glassworks")
#: WAG-018: where each kind is delivered.
DELIVER = {"glass": "castle", "marble": "castle", "tools": "quarry", "sand": "glassworks"}
#: R-088: what each trade hex stacks, 3 of each kind (6 a stack, 18 in all).
STACKS = {"castle": {"tools": 3, "sand": 3}, "quarry": {"marble": 3, "sand": 3},
          "glassworks": {"glass": 3, "tools": 3}}
TOTALS = {"glass": 3, "marble": 3, "tools": 6, "sand": 6}
#: R-087 (engine default): the baggage-train card, levels 1..5.
CARD = ({"mp": 4, "gold": 1, "faces": []}, {"mp": 5, "gold": 2, "faces": [6]}, {"mp": 5, "gold": 3, "faces": [5, 6]},
        {"mp": 6, "gold": 4, "faces": [4, 5, 6]}, {"mp": 6, "gold": 5, "faces": [3, 4, 5, 6]})
UPGRADE_COST = {"grain": 1, "ore": 1, "wool": 1}
START_GOLD = 5
LARGE_MAP_MP = 2                    # WAG-039
GRAIN_MP = 2                        # WAG-012
JUMP_TOLL = 2 + 1                   # WAG-024: 3 gold
POOL = None                         # the payee of a toll diverted to the pirate pool (WAG-031)


def key(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def unkey(k: str) -> Hex:
    q, r = k.split(",")
    return (int(q), int(r))


def card_table(state) -> tuple:
    return tuple(state.options.get("baggage_train") or CARD)


def card(state, level: int) -> dict:
    """R-087: the baggage-train card at ``level`` (the game's table, else the engine default)."""
    t = card_table(state)
    return t[max(1, min(level, len(t))) - 1]


def trade_hexes(state) -> dict[str, Hex]:
    """R-089: the marked trade hexes by name ("forge" is read as the glassworks)."""
    th = state.scenario_state.get("trade_hexes") or {}
    out = {}
    for name, h in th.items():
        if h is not None:
            out["glassworks" if name == "forge" else name] = (int(h[0]), int(h[1]))
    return out


def wagon(state, p: int) -> dict:
    return (state.scenario_state.get("wagons") or {}).get(str(p)) or {}


def wagon_node(state, p: int) -> Optional[Node]:
    n = wagon(state, p).get("node")
    return None if n is None else (int(n[0]), int(n[1]), str(n[2]))


def turn_of(state) -> dict:
    """This turn's wagon bookkeeping (``scenario_state.wagon_turn``), empty before any wagon action."""
    t = state.scenario_state.get("wagon_turn")
    return t if t else {}


def allowance(state, p: int, turn: Optional[dict] = None, grain: bool = False) -> int:
    """WAG-006, WAG-039, WAG-012: the card's MP, +2 on a large map, +2 for the grain."""
    turn = turn_of(state) if turn is None else turn
    level = int(wagon(state, p).get("level", 1))
    return (card(state, level)["mp"] + (LARGE_MAP_MP if state.options.get("large_map_bonus") else 0)
            + (GRAIN_MP if (turn.get("grain") or grain) else 0))


def mp_left(state, p: int, turn: Optional[dict] = None, grain: bool = False) -> int:
    turn = turn_of(state) if turn is None else turn
    return allowance(state, p, turn, grain) - int(turn.get("mp_used", 0))


def waives(state, owner: int, payer: int) -> bool:
    """R-112: the owner's standing waiver toward the payer (``set_toll_policy``)."""
    w = (state.scenario_state.get("toll_waivers") or {}).get(str(owner)) or ()
    return payer in w


def _show(x: Any) -> str:
    if isinstance(x, tuple) and len(x) == 2:
        return hex_str(x)
    if isinstance(x, tuple) and len(x) == 3:
        return node_str(x) if x[2] in ("N", "S") else edge_str(x)
    return str(x)


@dataclass(slots=True)
class Part:
    """One item of a step's cost: ``mp`` movement points or ``gold`` to ``payee`` (None: the pirate pool).
    ``text`` is a format string and its places, worded only when asked (``why``): the legal-action list
    prices many steps and words none."""
    rule: str
    text: tuple
    mp: int = 0
    gold: int = 0
    payee: Optional[int] = None
    reason: str = ""                # road | bridge | lane | tribute
    ruling: Optional[str] = None

    @property
    def why(self) -> str:
        fmt, *args = self.text
        return fmt.format(*(_show(a) for a in args))

    def as_dict(self) -> dict:
        out: dict[str, Any] = {"rule": self.rule, "why": self.why}
        if self.mp:
            out["mp"] = self.mp
        if self.gold:
            out["gold"], out["payee"], out["reason"] = self.gold, self.payee, self.reason
        if self.ruling:
            out["ruling"] = self.ruling
        return out


@dataclass(slots=True)
class Step:
    parts: list[Part] = field(default_factory=list)
    paid_edge: Optional[Edge] = None            # a toll charged on this path (WAG-054)
    tribute: tuple[int, ...] = ()               # warship owners paid now (WAG-034)

    @property
    def mp(self) -> int:
        return sum(p.mp for p in self.parts)

    @property
    def gold(self) -> int:
        return sum(p.gold for p in self.parts)


class View:
    """What the cost of a step reads from a position, gathered once."""
    __slots__ = ("state", "graph", "player", "barbarians", "rivers", "bridges", "warships", "marks", "level",
                 "faces", "trade", "corners", "lairs", "ws_corners")

    def __init__(self, state, graph, player: int) -> None:
        ss = state.scenario_state
        self.state, self.graph, self.player = state, graph, player
        self.barbarians = {unkey(k): int(n) for k, n in (ss.get("barbarians") or {}).items() if n}
        self.rivers = {tuple(e) for e in ss.get("rivers") or ()}
        self.bridges = {tuple(b["edge"]): b.get("player") for b in ss.get("bridges") or ()}
        self.warships = {int(o): (int(h[0]), int(h[1])) for o, h in (ss.get("warships") or {}).items() if h}
        self.lairs = {(int(h[0]), int(h[1])) for h in ss.get("pirate_lairs") or ()}
        self.marks = self.lairs | ({state.robber} if state.robber is not None else set())
        self.level = int(wagon(state, player).get("level", 1))
        self.faces = card(state, self.level)["faces"]
        self.trade = trade_hexes(state)
        self.corners = {name: set(hex_corners(h)) for name, h in self.trade.items()}
        self.ws_corners = {o: frozenset(hex_corners(h)) for o, h in self.warships.items()}


def view_of(state, graph, player: int) -> View:
    """The :class:`View` of ``player``'s wagon, kept for the legal-action listing under way (every candidate
    move it judges reads the same one)."""
    return per_listing(("wag.view", player), lambda: View(state, graph, player), state, graph)


def planned(state, graph) -> dict:
    """The segments :func:`plans` found legal in the legal-action listing under way, by ``(player, path,
    plaza, jump, grain)``: the listing's check of each listed move reads its verdict here rather than walking
    the path again (outside a listing this is a fresh, empty book)."""
    return per_listing(("wag.planned",), dict, state, graph)


def in_listing(state) -> bool:
    return NOW.scope is not None and NOW.scope[0] is state


@lru_cache(maxsize=1 << 16)
def _edge_of(a: Node, b: Node) -> Optional[Edge]:
    for e in node_edges(a):
        if b in edge_nodes(e):
            return e
    return None


def warship_part(v: View, turn: dict, node: Node, where: str, paid: set, path: str) -> tuple[list[Part], Optional[Violation]]:
    """Rule 6: the tribute (or the chase first) for every opponent warship whose hex has ``node`` as a corner.
    WAG-059 / R-118: the armed forces that take tribute are the personal warships only (no Cities & Knights
    knight, no Seafarers pirate ship)."""
    out: list[Part] = []
    p = v.player
    chases = turn.get("chases") or {}
    for o, h in sorted(v.warships.items()):
        if o == p or node not in v.ws_corners[o] or o in paid:
            continue
        if chases.get(str(o)) == "won" or waives(v.state, o, p):     # a won chase; R-112: waived, no roll
            continue
        if v.faces and str(o) not in chases:
            return out, Violation("WAG-036", f"{where} {node_str(node)} touches a corner of hex {hex_str(h)}, where player {o}'s "
                                  f"warship lies: at level {v.level} the wagon rolls a chase first "
                                  "(chase_warship), and pays tribute only if it fails", path, "R-086")
        out.append(Part("WAG-033", ("tribute to player {}'s warship on {} ({} {})", o, h, where, node), gold=1, payee=o,
                        reason="tribute", ruling="R-086"))
        paid.add(o)
    return out, None


def step_cost(v: View, turn: dict, a: Node, b: Node, paid_edges: set, tribute: set,
              path: str = "/action/path") -> Step | Violation:
    """The cost of moving the wagon of ``v.player`` from ``a`` to the adjacent ``b`` (rules 1-6 above; the
    budget, rule 7, is the caller's: it knows what the move spent before). ``paid_edges`` and ``tribute``
    are what the turn already paid (updated by the caller from the answer)."""
    g, s, p = v.graph, v.state, v.player
    e = _edge_of(a, b)
    eid = None if e is None else g.edge_index.get(e)
    # WAG-005: nothing here asks whether another wagon stands on ``b``: wagons share intersections and pass freely
    if eid is None:
        return Violation("WAG-004", f"{node_str(b)} is not next to {node_str(a)}: a wagon moves from an intersection "
                         "to an adjacent one along a path", path)
    if not g.road_edge(eid):                                                        # rule 1
        return Violation("WAG-058", f"{edge_str(e)} is a sea path: a wagon crosses the sea only by a jump along a "
                         "closed sea route (WAG-007, WAG-022)", path, "R-085")
    hexes = edge_hexes(e)
    for h in hexes:                                                                 # rule 2
        if v.barbarians.get(h, 0) >= 3:
            return Violation("WAG-052", f"hex {hex_str(h)} is conquered (3 barbarians): no path beside it can be "
                             f"travelled, and barbarians take no bribe ({edge_str(e)})", path, "R-081")
    st = Step()
    road = s.roads.get(e)
    if e in v.rivers:                                                               # rule 3: rivers
        developed = e in v.bridges
        if e not in v.bridges:
            st.parts.append(Part("WAG-041", ("river {} with no bridge", e), mp=3, ruling="R-109"))
        else:
            owner = v.bridges[e]
            st.parts.append(Part("WAG-042", ("bridge on {}", e), mp=1))
            if owner is not None and owner != p and e not in paid_edges and not waives(s, owner, p):
                st.parts.append(Part("WAG-043", ("toll for player {}'s bridge on {}", owner, e), gold=2,
                                     payee=owner, reason="bridge", ruling="R-082"))
                st.paid_edge = e
    elif road is not None:
        developed = True
        if road == p:
            st.parts.append(Part("WAG-009", ("own road on {}", e), mp=1))
        else:
            st.parts.append(Part("WAG-010", ("player {}'s road on {}", road, e), mp=1))
            if e not in paid_edges and not waives(s, road, p):
                st.parts.append(Part("WAG-010", ("toll for player {}'s road on {}", road, e), gold=1, payee=road,
                                     reason="road", ruling="R-082"))
                st.paid_edge = e
    else:
        developed = e in s.ships                       # a ship leaves the cost at 2 but develops the path
        st.parts.append(Part("WAG-008" if not developed else "WAG-025",
                             ("no road on {}" + (" (a ship does not pave it)" if developed else ""), e),
                             mp=2, ruling="R-108" if developed else None))
    waived = turn.get("waived") or ()
    for h in hexes:                                                                 # rule 4
        n = v.barbarians.get(h, 0)
        if not n or (waived and list(h) in waived):
            continue
        if n == 1 and not developed:
            st.parts.append(Part("WAG-050", ("1 barbarian in {} beside the undeveloped path {}", h, e),
                                 mp=2, ruling="R-084"))
        elif n == 2:
            st.parts.append(Part("WAG-051", ("2 barbarians in {} beside {}", h, e), mp=2,
                                 ruling="R-084"))
    for h in hexes:                                                                 # rule 5
        if h in v.marks:
            what = "the robber" if h == s.robber else "a pirate lair"
            st.parts.append(Part("WAG-060", ("{} in {} beside {}", what, h, e), mp=1, ruling="R-094"))
    if not v.warships:                                                              # rule 6
        return st
    paid = set(tribute)
    more: list[Part] = []
    for node, where in ((a, "leaving"), (b, "entering")):
        parts, bad = warship_part(v, turn, node, where, paid, path)
        if bad is not None:
            return bad
        more += parts
    st.parts += more
    st.tribute = tuple(sorted(paid - set(tribute)))
    return st


# -- a segment: the steps of one move_wagon, judged in order -----------------------------------------------

@dataclass
class Segment:
    steps: list[tuple[Node, Node, Step]] = field(default_factory=list)
    mp: int = 0
    payments: list[Part] = field(default_factory=list)
    paid_edges: list[Edge] = field(default_factory=list)
    tribute: list[int] = field(default_factory=list)
    end: Optional[Node] = None
    plaza: Optional[str] = None
    jump: Optional[Node] = None
    jump_owner: Optional[int] = None


def broken_at(state, owner: int) -> frozenset:
    """WAG-045: the intersections where another player's piece breaks ``owner``'s routes (with Cities &
    Knights, a knight: the stack's ``route_blockers``). There a lane ends as at an opponent's building
    (R-010, R-013; decision D-wag-orphans): a route it breaks is no closed sea route (no jump, R-111), and
    the orphan ships beyond it stay on the board and movable, one a turn, from their free ends; nothing is
    removed. Empty without such pieces."""
    blockers = _blockers(state)
    return frozenset(n for n, q in blockers.items() if q != owner) if blockers else _NOTHING


_NOTHING: frozenset = frozenset()


def _blockers(state) -> dict:
    """The stack's ``route_blockers`` for ``state`` (``{}`` when no module of it has any)."""
    from ...scenarios import scenario_of        # (the registry imports this package: imported late)
    scen = scenario_of(state)
    if "route_blockers" not in scen.composition.hooks:
        return {}
    return scen.route_blockers(state)


def sea_route(state, graph, owner: int, start: Node) -> tuple[set[Edge], set[Node]]:
    """R-111: the sea route through ``start``: the connected group of ``owner``'s ships in closed lanes
    (R-013) reached from it, not passing an opponent's building, nor a piece that breaks it (WAG-045);
    its ships and its intersections."""
    broken = broken_at(state, owner)
    closed = closed_ships(state, graph, owner, broken)
    at: dict[Node, list[tuple[Node, Edge]]] = {}
    for e in closed:
        x, y = edge_nodes(e)
        at.setdefault(x, []).append((y, e))
        at.setdefault(y, []).append((x, e))
    ships, nodes, stack = set(), {start}, [start]
    while stack:
        n = stack.pop()
        b = state.buildings.get(n)
        if (b is not None and b[0] != owner or n in broken) and n != start:
            continue
        for m, e in at.get(n, ()):
            ships.add(e)
            if m not in nodes:
                nodes.add(m)
                stack.append(m)
    return ships, nodes


def jump_targets(state, graph, at: Node) -> dict[Node, tuple[int, set[Edge], set[Node]]]:
    """WAG-022, R-085, R-111: where a wagon on the building at ``at`` may jump: every other building of that
    building's owner on the same closed sea route, with the owner, the route's ships and intersections."""
    b = state.buildings.get(at)
    if b is None:
        return {}
    owner = b[0]
    ships, nodes = sea_route(state, graph, owner, at)
    out = {}
    for n in sorted(nodes):
        bn = state.buildings.get(n)
        if n != at and bn is not None and bn[0] == owner:
            out[n] = (owner, ships, nodes)
    return out


def route_touches_pirate(state, ships: Iterable[Edge]) -> bool:
    """WAG-031, R-111: some ship of the route borders the pirate's hex."""
    return state.pirate is not None and any(state.pirate in edge_hexes(e) for e in ships)


def judge_segment(state, graph, player: int, path: list, plaza: Optional[str], jump: Optional[Node],
                  grain: bool) -> Segment | Violation:
    """Judge one ``move_wagon`` segment step by step; the first illegal step is the answer (its pointer
    names it). The segment's cost is what :func:`step_cost` answers for each step."""
    book = planned(state, graph)
    if book:
        key = (player, tuple(tuple(n) for n in path), plaza, None if jump is None else tuple(jump), bool(grain))
        seg = book.get(key)
        if seg is not None:
            return seg
    v = view_of(state, graph, player)
    turn = turn_of(state)
    w = wagon(state, player)
    seg = Segment()
    left = mp_left(state, player, turn, grain)
    gold = int(state.players[player].extra.get("gold", 0))
    paid_edges = {tuple(e) for e in turn.get("paid_edges") or ()}
    tribute = set(turn.get("tribute") or ())
    here = wagon_node(state, player)
    on_plaza = w.get("plaza")
    spent_gold = 0

    def pay(parts: list[Part], at: str) -> Optional[Violation]:
        nonlocal spent_gold
        for part in parts:
            if part.gold:
                if spent_gold + part.gold > gold:
                    return Violation(part.rule, f"{part.why}: {part.gold} gold owed, and player {player} has "
                                     f"{gold - spent_gold} left; there is no debt, the wagon stops before it or goes "
                                     "another way", at, "R-107")
                spent_gold += part.gold
                seg.payments.append(part)
        return None

    for i, n in enumerate(path):
        at = f"/action/path/{i}"
        n = (int(n[0]), int(n[1]), str(n[2]))
        if here is None and on_plaza:                       # from the plaza to one of its corners, 0 MP
            if n not in v.corners.get(on_plaza, ()):
                return Violation("WAG-004", f"a wagon on the {on_plaza}'s plaza leaves it to one of that hex's "
                                 f"corners; {node_str(n)} is not one", at, "R-093")
            parts, bad = warship_part(v, turn, n, "entering", tribute, at)
            if bad is not None:
                return bad
            bad = pay(parts, at)
            if bad is not None:
                return bad
            seg.tribute += [p.payee for p in parts]
            here = n
            continue
        if here is None:
            return Violation("WAG-004", f"player {player}'s wagon is not on the board yet (it starts on the first "
                             "settlement, R-097)", at, "R-097")
        st = step_cost(v, turn, here, n, paid_edges, tribute, at)
        if isinstance(st, Violation):
            return st
        if seg.mp + st.mp > left:
            why = " + ".join(f"{p.mp} ({p.rule})" for p in st.parts if p.mp)
            return Violation("WAG-015", f"step {i + 1} to {node_str(n)} costs {st.mp} MP ({why}) and the wagon has "
                             f"{left - seg.mp} MP left: it stops before the path or goes another way (WAG-026)", at)
        bad = pay(st.parts, at)
        if bad is not None:
            return bad
        seg.mp += st.mp
        if st.paid_edge is not None:
            paid_edges.add(st.paid_edge)
            seg.paid_edges.append(st.paid_edge)
        tribute.update(st.tribute)
        seg.tribute += list(st.tribute)
        seg.steps.append((here, n, st))
        here = n
    if plaza is not None:
        at = "/action/plaza"
        if plaza not in v.trade:
            return Violation("WAG-014", f"there is no {plaza} trade hex on this board", at, "R-089")
        if on_plaza and here is None:
            return Violation("WAG-014", f"the wagon already stands on the {on_plaza}'s plaza", at, "R-093")
        if here not in v.corners[plaza]:
            return Violation("WAG-014", f"the {plaza}'s plaza is entered from a corner of its hex "
                             f"{hex_str(v.trade[plaza])}; {node_str(here)} is not one", at, "R-093")
        if v.barbarians.get(v.trade[plaza], 0) >= 3:
            return Violation("WAG-052", f"the {plaza} is conquered (3 barbarians): its plaza cannot be entered", at,
                             "R-106")
        parts, bad = warship_part(v, turn, here, "leaving for the plaza", tribute, at)
        if bad is not None:
            return bad
        bad = pay(parts, at)
        if bad is not None:
            return bad
        seg.tribute += [p.payee for p in parts]
        seg.plaza = plaza
    elif jump is not None:
        at = "/action/jump"
        jump = (int(jump[0]), int(jump[1]), str(jump[2]))
        if here is None:
            return Violation("WAG-022", "a jump starts from a settlement or city the wagon stands on", at, "R-085")
        targets = jump_targets(state, graph, here)
        if jump not in targets:
            b = state.buildings.get(here)
            where = "no building" if b is None else f"player {b[0]}'s {b[1]}"
            return Violation("WAG-022", f"a wagon jumps from a settlement or city to another of the same owner on the "
                             f"same closed sea route; {node_str(here)} holds {where} and {node_str(jump)} is not such "
                             "a building (an open lane cannot be crossed)", at, "R-085")
        if left - seg.mp < 1:
            return Violation("WAG-022", "a jump needs at least 1 MP left, and uses all of them", at, "R-085")
        owner, ships, nodes = targets[jump]
        for n in sorted(nodes):                                   # every intersection of the route
            parts, bad = warship_part(v, turn, n, "the sea route passing", tribute, at)
            if bad is not None:
                return bad
            bad = pay(parts, at)
            if bad is not None:
                return bad
            seg.tribute += [p.payee for p in parts]
        if owner != player and not waives(state, owner, player):
            pool = route_touches_pirate(state, ships)
            part = Part("WAG-031" if pool else "WAG-024",
                        ("toll for player {}'s sea route" + (", to the pirate pool: the route borders the pirate"
                                                               if pool else ""), owner),
                        gold=JUMP_TOLL, payee=None if pool else owner, reason="lane",
                        ruling="R-111" if pool else "R-085")
            bad = pay([part], at)
            if bad is not None:
                return bad
        seg.jump, seg.jump_owner = jump, owner
        seg.mp = left                                             # WAG-022: all remaining MP
        here = jump
    seg.end = here
    return seg


# -- the cheapest plan to every reachable destination (legal actions, explanations, random play) ------------

_REACH: dict = {}


def _reach(state, graph, player: int, left: int) -> dict:
    """The search behind :func:`plans`, with ``left`` MP (:func:`_search`), kept while what it reads of the
    position stays the same (``memo.per_position``: trades, cards and most builds leave it as it was; random
    play and clients list the same wagon's moves again and again). Shared: read-only."""
    ss = state.scenario_state
    inputs = (state.roads, state.ships, state.buildings, state.robber, ss.get("wagons"), ss.get("wagon_turn"),
              ss.get("barbarians"), ss.get("rivers"), ss.get("bridges"), ss.get("warships"),
              ss.get("toll_waivers"), ss.get("pirate_lairs"), ss.get("trade_hexes"),
              state.players[player].extra.get("gold", 0), _blockers(state), state.options)
    return per_position(_REACH, (graph.memo_token, player, left), inputs,
                        lambda: _search(state, graph, player, left), size=16)


_PRICED: dict = {}


def _priced(state, graph, player: int, turn: dict) -> dict:
    """The steps :func:`_search` priced with :func:`step_cost` (no warships: nothing paid this turn), by
    ``(from, to)``, filled as searches ask, kept while what a step's price reads of the position is the
    same (a wagon that moved, gold spent or a card traded leave every step's price as it was). Shared."""
    ss = state.scenario_state
    inputs = (state.roads, state.ships, state.robber, ss.get("barbarians"), ss.get("rivers"), ss.get("bridges"),
              ss.get("pirate_lairs"), ss.get("toll_waivers"), turn.get("waived"))
    return per_position(_PRICED, (graph.memo_token, player), inputs, dict, size=16)


def _search(state, graph, player: int, left: int) -> dict:
    """Per intersection its cheapest arrival with ``left`` MP, per plaza and jump landing the arrivals at the
    corners or buildings they start from, cheapest first, and the cheapest round trip back to the start. A
    label-setting search over (intersection, warships paid) with Pareto labels (MP, gold); the MP and the
    gold held are hard limits; a step needing a chase first is not taken. Without warships a step's answer
    depends on the turn's paid paths only through its own toll, so :func:`step_cost` prices each step once
    (as if nothing were paid) and a toll already paid is taken off."""
    v = view_of(state, graph, player)
    turn = turn_of(state)
    w = wagon(state, player)
    gold = int(state.players[player].extra.get("gold", 0))
    paid0 = {tuple(e) for e in turn.get("paid_edges") or ()}
    trib0 = frozenset(turn.get("tribute") or ())
    start = wagon_node(state, player)
    heap: list = []
    priced: Optional[dict] = None if v.warships else _priced(state, graph, player, turn)
    back_best = None
    best: dict[tuple, list[tuple[int, int]]] = {}
    nodes: dict[Node, tuple] = {}
    plazas: dict[str, list] = {}
    jumps: dict[Node, list] = {}

    def push(mp: int, gd: int, path: tuple, node: Node, trib: frozenset, paid: frozenset) -> None:
        heapq.heappush(heap, (mp, gd, len(path), path, node, trib, paid))

    if start is None:
        name = w.get("plaza")
        if not name or name not in v.corners:
            return {"nodes": {}, "plazas": {}, "jumps": {}, "back": None, "start": None}
        for c in sorted(v.corners[name]):
            if c not in graph.node_index:
                continue
            paid = set(trib0)
            parts, bad = warship_part(v, turn, c, "", paid, "")
            if bad is not None:
                continue
            gd = sum(p.gold for p in parts)
            if gd <= gold:
                push(0, gd, (c,), c, frozenset(paid), frozenset())
    else:
        push(0, 0, (), start, trib0, frozenset())
    while heap:
        mp, gd, _, path, node, trib, paid = heapq.heappop(heap)
        labels = best.setdefault((node, trib), [])
        if any(m <= mp and g2 <= gd for m, g2 in labels):
            continue
        labels.append((mp, gd))
        if path and node not in nodes:
            nodes[node] = (mp, gd, path)
        for name, cs in v.corners.items():                         # plaza entries: terminal, 0 MP
            if node in cs and v.barbarians.get(v.trade[name], 0) < 3:
                plazas.setdefault(name, []).append((mp, path))
        if state.buildings.get(node) is not None:                   # jumps: terminal, all MP
            for tgt in jump_targets(state, graph, node):
                jumps.setdefault(tgt, []).append((mp, path))
        paid_all = paid0 | paid
        for e in node_edges(node):
            x, y = edge_nodes(e)
            nxt = y if x == node else x
            if nxt not in graph.node_index:
                continue
            if priced is not None:
                got = priced.get((node, nxt))
                if got is None:
                    st = step_cost(v, turn, node, nxt, set(), set())
                    got = priced[(node, nxt)] = st if isinstance(st, Violation) else (st.mp, st.gold, st.paid_edge)
                if isinstance(got, Violation):
                    continue
                smp, sgd, paid_edge = got
                if paid_edge is not None and paid_edge in paid_all:      # WAG-054: this path's toll is paid
                    sgd, paid_edge = 0, None
                ntrib = trib
            else:
                st = step_cost(v, turn, node, nxt, paid_all, set(trib))
                if isinstance(st, Violation):
                    continue
                smp, sgd, paid_edge = st.mp, st.gold, st.paid_edge
                ntrib = trib | frozenset(st.tribute)
            if mp + smp > left or gd + sgd > gold:
                continue
            if nxt == start:                                       # out and back: the cheapest round trip
                back = (mp + smp, gd + sgd, len(path) + 1)
                if back_best is None or back < back_best[0]:
                    back_best = (back, path + (nxt,))
                continue
            npaid = paid | {paid_edge} if paid_edge is not None else paid
            push(mp + smp, gd + sgd, path + (nxt,), nxt, ntrib, npaid)
    return {"nodes": nodes, "plazas": plazas, "jumps": jumps, "back": back_best, "start": start}


def plans(state, graph, player: int, grain: bool = False) -> dict[tuple, dict]:
    """Every destination the wagon reaches in one segment with its cheapest legal plan: ``{("node", n) |
    ("plaza", name) | ("jump", n): {"path", "mp", "gold", ...}}``, least MP then least gold then fewest steps.
    One search with the most MP the wagon may have this turn (the grain's included) serves both grain
    choices (kept for the listing under way): the cheapest plan to a place fits a smaller budget whenever any
    plan does. A plaza entry or a jump is judged by :func:`judge_segment` (its tribute and toll)."""
    turn = turn_of(state)
    left = mp_left(state, player, turn, grain)
    top = mp_left(state, player, turn, True)
    raw = per_listing(("wag.reach", player, top), lambda: _reach(state, graph, player, top), state, graph)
    book = planned(state, graph) if in_listing(state) else None
    out: dict[tuple, dict] = {}
    for node, (mp, gd, path) in raw["nodes"].items():
        if mp <= left:
            out[("node", node)] = {"path": list(path), "mp": mp, "gold": gd}
    if raw["back"] is not None and raw["start"] is not None:
        (mp, gd, _), path = raw["back"]
        if mp <= left:
            out[("node", raw["start"])] = {"path": list(path), "mp": mp, "gold": gd}
    if book is not None:
        for (kind, d), plan in out.items():
            book[(player, tuple(plan["path"]), None, None, bool(grain))] = Segment(mp=plan["mp"], end=d)
    def cheapest(tries, plaza, jump, need):
        """The first of ``tries`` (cheapest first) that fits ``need`` MP and that the step-cost function
        judges legal, as a plan (kept in ``book``), or None."""
        for mp, path in tries:
            if mp + need > left:
                continue
            seg = judge_segment(state, graph, player, list(path), plaza, jump, grain)
            if isinstance(seg, Segment):
                if book is not None:
                    book[(player, tuple(path), plaza, jump, bool(grain))] = seg
                return mp, path, sum(p.gold for p in seg.payments)
        return None

    for name, tries in raw["plazas"].items():
        found = cheapest(tries, name, None, 0)
        if found is not None:
            mp, path, gold = found
            out[("plaza", name)] = {"path": list(path), "mp": mp, "plaza": name, "gold": gold}
    for tgt, tries in raw["jumps"].items():
        found = cheapest(tries, None, tgt, 1)          # a jump leaves at least 1 MP to spend on it
        if found is not None:
            _mp, path, gold = found
            out[("jump", tgt)] = {"path": list(path), "mp": left, "jump": tgt, "gold": gold}
    return out


__all__ = ["step_cost", "judge_segment", "plans", "View", "Step", "Part", "Segment", "card", "allowance", "mp_left",
           "jump_targets", "sea_route", "broken_at", "KINDS", "TRADE", "DELIVER", "STACKS", "TOTALS", "CARD",
           "UPGRADE_COST",
           "START_GOLD", "key", "unkey", "trade_hexes", "wagon", "wagon_node", "turn_of", "waives"]
