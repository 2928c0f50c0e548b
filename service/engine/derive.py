"""Derived values: computed from the pieces every time, never stored as truth.

Route lengths with a witness path, the awards they imply, victory points by source, the winner.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from .lanes import closed_ships
from .mapgraph import MapGraph
from .routes import longest_route, piece_ids, route_context, route_hit, update_route_award
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

_DEFAULT_ROUTE_PIECES = None        # Scenario.route_pieces (looked up on first use: scenarios import us)


def route_lengths(state: State, graph: MapGraph, scenario: "Scenario") -> dict[int, tuple[int, list]]:
    """Per player: (length, witness edges) of the longest road / trade route (BASE-LR-1, SEA-021)."""
    by, owners, bkey = _networks(state, graph, scenario)
    out = {}
    for p, eids in enumerate(by):
        n, path = route_hit(graph, p, eids, owners, bkey)
        out[p] = (n, list(path))
    return out


def route_hits(state: State, graph: MapGraph, scenario: "Scenario",
               owners: Optional[dict[int, int]] = None) -> dict[int, tuple[int, tuple]]:
    """:func:`route_lengths` with each witness a tuple shared with the route memo (read only); ``owners``
    the owner of each built intersection by node id when the caller has them (:func:`_tally`)."""
    by, owners, bkey = _networks(state, graph, scenario, owners)
    return {p: route_hit(graph, p, eids, owners, bkey) for p, eids in enumerate(by)}


def _networks(state: State, graph: MapGraph, scenario: "Scenario", owners: Optional[dict[int, int]] = None
              ) -> tuple[list[list[int]], dict[int, int], frozenset]:
    """Every player's route pieces (:func:`piece_ids` of the ``route_pieces`` hook) and the position's
    :func:`route_context` (from ``owners`` when given)."""
    global _DEFAULT_ROUTE_PIECES
    if _DEFAULT_ROUTE_PIECES is None:
        from .scenarios.base import Scenario as _Scenario
        _DEFAULT_ROUTE_PIECES = _Scenario.route_pieces
    blockers = scenario.route_blockers(state) if "route_blockers" in scenario.composition.hooks else None
    owners, bkey = route_context(state, graph, blockers, owners)
    players = range(len(state.players))
    if type(scenario).route_pieces is _DEFAULT_ROUTE_PIECES:
        # The default hook (roads, then ships with Seafarers, each in board order; see ``piece_ids``),
        # for every player in one pass over the pieces.
        edge_index = graph.edge_index
        by: list[list[int]] = [[] for _ in players]
        add = [b.append for b in by]
        for e, p in state.roads.items():
            eid = edge_index.get(e)
            if eid is not None and p in players:
                add[p](eid)
        if scenario.ships:
            for e, p in state.ships.items():
                eid = edge_index.get(e)
                if eid is not None and p in players:
                    add[p](~eid)
    else:
        by = [piece_ids(graph, scenario.route_pieces(state, p)) for p in players]
    return by, owners, bkey


def largest_army(state: State, holder: Optional[int]) -> Optional[int]:
    """BASE-LA-1: the first to 3 played knights; BASE-LA-2: taken only by strictly more.

    Only played knights count (``dev_cards_played``), never knights in hand (BASE-LA-2)."""
    counts = [p.dev_cards_played.get("knight", 0) for p in state.players]
    best = max(counts, default=0)
    if holder is not None and counts[holder] >= best:
        return holder                                   # BASE-LA-2: a tie keeps it with the holder
    if best >= 3 and counts.count(best) == 1:
        return counts.index(best)                       # BASE-LA-1 (first to 3) / BASE-LA-2 (strictly more)
    # BASE-LA-3: played knights are never lost, so the card is never taken away or set aside: it only
    # changes hands by being exceeded.
    return holder


def victory_points(state: State, scenario: "Scenario", player: int) -> dict[str, int]:
    """VP by source (BASE-VP-1..3 table, SEA-019 special tokens, the modules' own sources) and the total."""
    settlements = cities = 0
    for owner, kind in state.buildings.values():
        if owner == player:
            if kind == "city":
                cities += 2
            else:
                settlements += 1
    return _vp(state, scenario, player, settlements, cities)


def victory_point_total(state: State, scenario: "Scenario", player: int) -> int:
    """``victory_points(state, scenario, player)["total"]``."""
    return victory_points(state, scenario, player)["total"]


def all_victory_points(state: State, scenario: "Scenario",
                       counted: Optional[tuple[list[int], list[int]]] = None) -> dict[str, dict[str, int]]:
    """:func:`victory_points` of every player (keyed by the player as a string), buildings counted once
    (``counted``: the VP of each player's settlements and of their cities, when the caller has them)."""
    players = state.players
    n = len(players)
    seats = range(n)
    if counted is None:
        settlements = [0] * n
        cities = [0] * n
        for owner, kind in state.buildings.values():
            if owner in seats:
                if kind == "city":
                    cities[owner] += 2
                else:
                    settlements[owner] += 1
    else:
        settlements, cities = counted
    names = _names(n)
    if "vp_extra" in scenario.composition.hooks:
        return {names[p]: _vp(state, scenario, p, settlements[p], cities[p]) for p in seats}
    # _vp without a module's sources, the position's holders read once (BASE-COMP-4: one Longest Road
    # and one Largest Army card, 2 VP each; BASE-DEV-9: VP cards count while held, new ones too)
    lr_holder = state.longest_road_holder
    la_holder = state.largest_army_holder
    out = {}
    for p in seats:
        pl = players[p]
        st = settlements[p]
        ct = cities[p]
        lr = 2 if lr_holder == p else 0
        la = 2 if la_holder == p else 0
        cards = pl.dev_cards.get("victory_point", 0) + pl.dev_cards_new.get("victory_point", 0)
        svp = pl.svp
        out[names[p]] = {"settlements": st, "cities": ct, "longest_road": lr, "largest_army": la,
                         "victory_point_cards": cards, "special": svp, "total": st + ct + lr + la + cards + svp}
    return out


#: The players' keys in derived values ("0", "1", ...), made once.
_NAMES = tuple(str(p) for p in range(16))


def _names(n: int) -> tuple[str, ...]:
    return _NAMES if n <= len(_NAMES) else tuple(str(p) for p in range(n))


def _vp(state: State, scenario: "Scenario", player: int, settlements: int, cities: int) -> dict[str, int]:
    """The one VP table: buildings (counted by the caller), awards, cards, special tokens, module sources."""
    p = state.players[player]
    # BASE-COMP-4: one Longest Road and one Largest Army card (a single holder each), 2 VP each.
    # BASE-DEV-9: VP cards count while held, never "played", including one bought this turn.
    lr = 2 if state.longest_road_holder == player else 0
    la = 2 if state.largest_army_holder == player else 0
    cards = p.dev_cards.get("victory_point", 0) + p.dev_cards_new.get("victory_point", 0)
    out = {"settlements": settlements, "cities": cities, "longest_road": lr, "largest_army": la,
           "victory_point_cards": cards, "special": p.svp}
    extra = scenario.vp_extra(state, player) if "vp_extra" in scenario.composition.hooks else None
    if extra:
        for k, v in extra.items():
            out[k] = out.get(k, 0) + v
        out["total"] = sum(out.values())
    else:
        out["total"] = settlements + cities + lr + la + cards + p.svp
    return out


def _tally(state: State, graph: MapGraph) -> tuple[dict[int, int], tuple[list[int], list[int]]]:
    """One pass over the buildings for two uses: the owner of each built intersection by node id (what
    :func:`route_context` starts from) and, per player, the VP of their settlements and of their cities
    (what :func:`all_victory_points` counts)."""
    node_index = graph.node_index
    n = len(state.players)
    seats = range(n)
    owners: dict[int, int] = {}
    settlements = [0] * n
    cities = [0] * n
    for node, (owner, kind) in state.buildings.items():
        nid = node_index.get(node)
        if nid is not None:
            owners[nid] = owner
        if owner in seats:
            if kind == "city":
                cities[owner] += 2
            else:
                settlements[owner] += 1
    return owners, (settlements, cities)


def derive(state: State, graph: MapGraph, scenario: "Scenario",
           routes: Optional[dict[int, tuple[int, Sequence]]] = None) -> dict[str, Any]:
    if routes is None:
        owners, counted = _tally(state, graph)
        routes = route_hits(state, graph, scenario, owners)
    else:
        counted = None
    players = state.players
    names = _names(max(len(players), len(routes)))
    out: dict[str, Any] = {
        "victory_points": all_victory_points(state, scenario, counted),
        "longest_road": {names[p]: {"length": n, "path": list(map(list, path))} for p, (n, path) in routes.items()},
        "longest_road_holder": state.longest_road_holder,
        "largest_army": {"holder": state.largest_army_holder,
                         "knights": {names[i]: p.dev_cards_played.get("knight", 0) for i, p in enumerate(players)}},
        "winner": state.winner,
        "phase": state.phase,
        "current_player": state.current_player,
    }
    if scenario.ships:
        out["closed_ships"] = {str(p): sorted([list(e) for e in closed_ships(state, graph, p)])
                               for p in range(state.num_players)}
    if state.pending_discards:
        out["pending_discards"] = {str(k): v for k, v in sorted(state.pending_discards.items())}
    if scenario.ships:
        from .actions.seafarers import gold_entitlement     # SEA-024: what the last roll's gold fields owe
        owed = gold_entitlement(state, graph, scenario)
        if owed:
            out["gold_entitlement"] = {str(k): v for k, v in sorted(owed.items())}
    if state.pending_gold:
        out["gold_pending"] = {str(k): v for k, v in sorted(state.pending_gold.items())}
    out.update(scenario.derived_extra(state, graph))
    return out


def update_awards(ctx, s: State, routes_changed: bool) -> Optional[dict[int, tuple[int, tuple]]]:
    """Move the Longest Road (BASE-LR-5: recomputed on every placement) and Largest Army cards."""
    routes = None
    if routes_changed:
        routes = route_hits(s, ctx.graph, ctx.scenario)
        # BASE-LR-8: a broken holder still tied for longest keeps the card. The option false is a house
        # rule that applies only when the holder's own route got shorter (a plain tie always keeps it,
        # BASE-LR-4); the holder's length before the action is computed only in that case.
        keeps = bool(s.options.get("lr_broken_tie_holder_keeps", True))
        h = s.longest_road_holder
        if not keeps and h is not None:
            before = longest_route(ctx.state, ctx.graph, h, ctx.scenario.route_pieces(ctx.state, h),
                                   blockers=ctx.scenario.route_blockers(ctx.state))[0]
            keeps = routes[h][0] >= before
        holder = update_route_award({p: n for p, (n, _) in routes.items()}, h, ctx.scenario.route_minimum, keeps)
        if holder != s.longest_road_holder:
            ctx.emit("award", award="longest_road", **{"from": s.longest_road_holder, "to": holder})
            s.longest_road_holder = holder
    army = ctx.scenario.army_award(s, s.largest_army_holder)
    if army != s.largest_army_holder:
        ctx.emit("award", award="largest_army", **{"from": s.largest_army_holder, "to": army})
        s.largest_army_holder = army
    return routes
