"""Every legal action of a position: candidates per action type, filtered through the referee's checks.

For each action type a generator proposes candidates (a superset of what could be legal: every empty
edge for a road, every hex and victim for the robber...), and each candidate is kept only if
:func:`service.engine.referee.check_action` finds no violation, the very function ``adjudicate`` runs.
So a listed action is legal by construction, and a legal action missing from the list means a
generator proposed too little (the property test in ``tests/test_legal_property.py`` looks for that).
Where the engine's own handler judges a type, a prefilter proposes only the candidates that meet
necessary conditions of that handler's check; when the scenario adds no check of its own, the prefilters
that state the whole check list their candidates without judging them again (``tests/test_legal_fast.py``
holds that list to the one that judges every candidate). A scenario's own candidates of such a type are
judged after the prefilter's; a module whose candidates are actions of the type with a choice of its own
added builds them on :func:`proposed` (SC11/TDE3's ``token_from``). A module's handler declared from the
engine's whose hooks only add violations (``Handler.prefiltered``) takes the prefilter's candidates too,
each judged; a ship move judged by the engine's check through a module's handler judges the ship once and
each destination by the rest of the check.

Some choices are too many to list and are described as *ranges* instead, each with one concrete
example that was checked: discarding (any cards of the hand adding up to the count owed), Year of Plenty
and gold-field picks (any cards of the bank adding up to the count), domestic trades (any cards, and any
currency a module declares, of one hand for any of the other's, at least one each way, no kind on both
sides), and a module's own ranged types by its ``RangeKind`` (GOLD's trades with the bank). A listed
type may give some of its choices as ranges too, by its ``RangeKind`` (C&K's ``play_progress``: the cards
asking other players for cards of their choice; C&K's ``roll``: the choices its outcome asks when too many
to list, and the knights sent with CK-VAR-MEANIES), the ranges then beside its listed actions. A
``positional`` kind (C&K's ``roll``, whose later choices follow from seeded draws) is judged at its
position: ``range_admits`` then takes the state, graph and scenario.

Listing conventions: parameters that report a chance outcome (dice, a drawn or stolen card, what an
unexplored space turned out to be) are listed at their default, left to the seeded generator; GOLD's
``sail_ship`` is listed once per reachable space and extension choice, with one shortest path (any
other path within the allowance ending there is legal too).

A module's own action types come from their ``ActionSpec``'s ``candidates`` (and the hook
``legal_candidates``); its ranged types from their ``RangeKind``. The package is split by job: ``common``
(the list, who acts, JSON form), ``candidates`` (every action of a type that could be legal),
``prefilters`` (only those meeting necessary conditions of the engine's own checks), ``ranges`` (choices
given as counts of cards), ``listing`` (values the checks of one list ask for again and again, kept
for that list), and here the plan per position and the list itself.

>>> from service.engine.scenarios import get_scenario
>>> from service.engine.mapgraph import MapGraph
>>> scen = get_scenario("base")
>>> state = scen.new_game(3, seed=7)
>>> la = legal_actions(state, MapGraph.build(state.terrain_map()), scen)
>>> la.player, sorted(la.actions), len(la.actions["build_settlement"])
(0, ['build_settlement'], 54)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..bank import COSTS
from ..core import Action, Ctx
from ..mapgraph import MapGraph
from ..referee import HANDLERS, check_action, gate_fault
from ..state import State

if TYPE_CHECKING:  # pragma: no cover
    from ..scenarios.base import Scenario

from .candidates import CANDIDATES, _move_ship, candidates, ship_move_sources, ship_move_targets  # noqa: F401
from .common import (RANGE_TYPES, LegalActions, action_json, handler_for, is_legal, players_to_act,  # noqa: F401
                     violations_of)
from ..actions.seafarers import move_destination_violations, move_source_violations
from ..actions.trade import strict_phases_closed
from ..bank import can_pay
from .prefilters import PREFILTERS, _Pos  # noqa: F401
from .listing import close_listing, open_listing, per_listing  # noqa: F401
from .ranges import (_range_specs, cards_in_range, domestic_example, domestic_ranges, draw_cards, random_action,  # noqa: F401
                     range_admits, sample_range, _greedy)

# -- whole types ruled out at once ------------------------------------------------------------------------
#
# A part of the engine's own check for a type that reads no parameter of the action (no such card playable
# this turn, ``dev.may_play``; no piece left, ``placement.supply_left``; the cost not in hand after set-up,
# ``bank.cannot_pay``): when it fails every candidate of the type fails it too, and trying them one by one
# would only find the same violation each time. Only for the engine's handlers, and a scenario's
# replacement that declares it keeps those parts (``Handler.keeps_block``; another may rule differently);
# ``_entry`` records what to read, the loop in ``_legal_actions`` reads it.

_DEV_CARD = {"play_knight": "knight", "play_road_building": "road_building",
             "play_year_of_plenty": "year_of_plenty", "play_monopoly": "monopoly"}
_PIECE = {"build_road": ("roads", "road"), "build_settlement": ("settlements", "settlement"),
          "build_ship": ("ships", "ship"), "build_city": ("cities", "city")}


def _range_exact(t: str, state: State, scenario: "Scenario") -> bool:
    """Whether the example of a range of ``t`` (``_range_specs``) is legal without judging it, for the
    engine's handler and a scenario adding no check: Year of Plenty's example takes what the bank holds
    (the card itself: the type's block); a domestic trade's gives one card held for one the partner
    holds, of another kind, accepted (strict phases aside)."""
    if t == "play_year_of_plenty":
        return True
    if t == "domestic_trade":
        return not scenario.composition.currencies and not strict_phases_closed(state)
    return False


#: Hooks a scenario's rules reach the engine's own checks through (its ``check``, and the steps the
#: robber, Knight and ship handlers consult): with one of them implemented, every candidate a prefilter
#: proposes is judged by ``check_action``, never listed on the prefilter's word alone.
_JUDGING_HOOKS = frozenset({"check", "robber_permission", "steal_violations", "knight_violations",
                            "piece_connection", "ship_lane_violations"})


_SORTED_TYPES: dict[frozenset, list[str]] = {}


def _sorted_types(types: frozenset) -> list[str]:
    out = _SORTED_TYPES.get(types)
    if out is None:
        if len(_SORTED_TYPES) > 64:
            _SORTED_TYPES.clear()
        out = _SORTED_TYPES[types] = sorted(types)
    return out


# -- the list ----------------------------------------------------------------------------------------

def legal_actions(state: State, graph: MapGraph, scenario: "Scenario", player: Optional[int] = None) -> LegalActions:
    """Every legal action of ``player`` (default: the first of :func:`players_to_act`)."""
    return _legal_actions(state, graph, scenario, player, True)


def _legal_actions(state: State, graph: MapGraph, scenario: "Scenario", player: Optional[int],
                   prefilter: bool) -> LegalActions:
    """The list; with ``prefilter`` off every candidate of the full generators is judged (the reference
    the prefiltered list is tested against). Values of the position its checks ask for again and again
    are kept while it is made (``listing.per_listing``), in a game with a module's code (the engine's own
    checks ask for none: without a listing under way each value is computed where it is asked)."""
    comp = scenario.composition
    if not (comp.own_handlers or comp.candidates or comp.hooks or comp.checks):
        return _list(state, graph, scenario, player, prefilter)
    token = open_listing(state, graph, scenario)
    try:
        return _list(state, graph, scenario, player, prefilter)
    finally:
        close_listing(token)


def _list(state: State, graph: MapGraph, scenario: "Scenario", player: Optional[int], prefilter: bool) -> LegalActions:
    to_act = players_to_act(state)
    if player is None:
        player = to_act[0] if to_act else state.current_player
    out = LegalActions(player, to_act)
    comp = scenario.composition
    extra: dict[str, list[Action]] = {}
    keyed: set[str] = set()         # the types whose extras may repeat one another (``distinct`` below)
    judged: set[str] = set()        # the types whose extras all pass their handler's check (``judged``)
    if "legal_candidates" in comp.hooks:
        for a in scenario.legal_candidates(state, graph, player):
            extra.setdefault(a.type, []).append(a)
        keyed.update(extra)
    for fn in comp.candidates:                      # the candidates a module's ActionSpec declares
        mine = set()
        for a in fn(state, graph, scenario, player):
            if a.type in extra and a.type not in mine:
                keyed.add(a.type)                   # a second source of the type
            mine.add(a.type)
            extra.setdefault(a.type, []).append(a)
        if not getattr(fn, "distinct", False):
            keyed.update(mine)
        if getattr(fn, "judged", False):
            judged.update(mine)
    judged -= keyed                 # (a type with another source is judged in full)
    plain = not comp.checks and comp.hooks.isdisjoint(_JUDGING_HOOKS)
    pos: Optional[_Pos] = None
    pl = state.players[player]
    hand, supplies, cards = pl.resources, pl.supply, pl.dev_cards
    no_card = state.flags.dev_card_played
    main = state.phase == "main"
    for t, h, replaced, block, ranged, pf in _plan(scenario, state, player):
        own = replaced is None and (not extra or t not in extra)
        # the type's block: a part of the engine's own check that reads no parameter fails (a replacement's
        # claim to keep it, ``Handler.keeps_block``, is not taken without the prefilters: the plain list
        # judges every candidate of its types, and ``tests/test_legal_fast.py`` compares the two)
        if block is not None and (prefilter or replaced is None) and (ranged is False or (prefilter and own)):
            if block.__class__ is str:                          # ``dev.may_play``
                if no_card or cards.get(block, 0) <= 0:
                    continue
            else:
                supply, cost = block                            # ``placement.supply_left``, ``bank.cannot_pay``
                if supplies.get(supply, 0) <= 0 or (main and not can_pay(hand, cost)):
                    continue
        if ranged:
            exact = prefilter and own and plain and _range_exact(t, state, scenario)
            if t == "domestic_trade" and comp.actions[t].ranges is None:
                listed = domestic_ranges(state, player, comp.currencies)
                if not exact:
                    listed = [e for e in listed if is_legal(state, domestic_example(e), graph, scenario)]
                if listed:
                    out.ranges[t] = list(listed)
                continue
            for spec, example in _range_specs(t, state, graph, scenario, player):
                if exact or is_legal(state, example, graph, scenario):
                    out.ranges.setdefault(t, []).append({"type": t, "player": player, **spec,
                                                         "example": action_json(example)})
            continue
        if pf is not None and prefilter and (replaced is None or h.prefiltered):
            fn, exact, needs_pos = pf
            if needs_pos and pos is None:
                pos = _Pos(state, graph, player)
            cands = fn(state, graph, scenario, player, pos)
            if own:
                if not (exact and plain):
                    cands = [a for a in cands if not check_action(Ctx(state, a, graph, scenario), h)]
            else:                   # the scenario's own candidates of the type after the prefilter's, each judged
                cands = [a for a in _unique(cands, extra.get(t, [])) if not check_action(Ctx(state, a, graph, scenario), h)]
            if cands:
                out.actions[t] = cands
            continue
        found: list[Action] = []
        gen = CANDIDATES.get(t)
        if t == "move_ship" and prefilter and h.check is _MOVE_SHIP_CHECK and gen is _move_ship:
            found = _ship_moves(state, graph, scenario, h, player, extra.get(t))
        else:
            cands = list(gen(state, graph, scenario, player)) if gen else []
            if t in extra:          # the generators yield no duplicates; a scenario's extras may repeat them
                # (a type without a generator whose one source is marked ``distinct`` repeats nothing)
                cands = _unique(cands, extra[t]) if cands or t in keyed else list(extra[t])
            skip_from: set = set()
            rest = _passed if gen is None and t in judged else None
            for a in cands:
                if t == "move_ship" and a.get("from") in skip_from:
                    continue
                v = check_action(Ctx(state, a, graph, scenario), h, rest)
                if not v:
                    found.append(a)
                elif t == "move_ship" and v[0].path == "/action/from":
                    skip_from.add(a.get("from"))       # the ship itself may not move: no destination helps
        if found:
            out.actions[t] = found
        kind = comp.actions[t].ranges if t in comp.actions else None
        if kind is not None:                # a listed type with some choices given as ranges (a module's)
            for spec, example in kind.specs(state, graph, scenario, player):
                if is_legal(state, example, graph, scenario):
                    out.ranges.setdefault(t, []).append({"type": t, "player": player, **spec,
                                                         "example": action_json(example)})
    return out


#: The engine's check of a ship move, also that of a module declaring the engine's handler its own
#: (``actions.declared_own``: Diamond Isles, whose hooks widen where ships connect).
_MOVE_SHIP_CHECK = HANDLERS["move_ship"].check


def _ship_moves(state: State, graph: MapGraph, scenario: "Scenario", h, player: int,
                extra: Optional[list[Action]]) -> list[Action]:
    """The legal ones of the candidates of ``move_ship`` (the generator's, then the scenario's ``extra``),
    judged by the engine's check through a module's handler: which ship may move
    (``seafarers.move_source_violations``) judged once per ship, then each destination by the rest of the
    check (``seafarers.move_destination_violations``) and the scenario's, through ``check_action``. Without
    ``extra``, the generator's candidates (``candidates._move_ship``) are made only for the ships that may
    move."""
    out = []
    if not extra:
        targets = ship_move_targets(graph)
        for src in ship_move_sources(state, player):
            probe = Action("move_ship", player, {"from": src, "to": src})
            if move_source_violations(Ctx(state, probe, graph, scenario), src):
                continue
            rest = _to(src)
            for dst in targets:
                a = Action("move_ship", player, {"from": src, "to": dst})
                if not check_action(Ctx(state, a, graph, scenario), h, rest):
                    out.append(a)
        return out
    rest_of: dict = {}              # per ship: the rest of the check, or False when the ship may not move
    for a in _unique(list(_move_ship(state, graph, scenario, player)), extra):
        src = a.get("from")
        rest = rest_of.get(src)
        if rest is None:
            rest = rest_of[src] = not move_source_violations(Ctx(state, a, graph, scenario), src) and _to(src)
        if rest and not check_action(Ctx(state, a, graph, scenario), h, rest):
            out.append(a)
    return out


def _to(src):
    def rest(ctx: Ctx) -> list:
        return move_destination_violations(ctx, src, ctx.action.get("to"))
    return rest


def _passed(ctx: Ctx) -> list:
    """The handler's check of a candidate its source marks ``judged``: passed (the gate, the scenario's check
    and the modules' ``CHECKS`` are still asked, by ``check_action``)."""
    return []


def _unique(cands: list[Action], extra: list[Action]) -> list[Action]:
    """``cands`` (a generator's or a prefilter's, which yield no repeats) followed by the actions of
    ``extra`` (a scenario's) equal to none before them. Equal actions have the same JSON form
    (``action_json``), so the same fields: only the candidates with the fields of some extra action are
    compared."""
    keys = [repr(sorted(action_json(a).items())) for a in extra]
    fields = {_fields(a) for a in extra}
    seen = {repr(sorted(action_json(a).items())) for a in cands if _fields(a) in fields}
    out = list(cands)
    for a, key in zip(extra, keys):
        if key not in seen:
            seen.add(key)
            out.append(a)
    return out


def _fields(a: Action) -> frozenset:
    """The parameters ``action_json`` gives of ``a``."""
    return frozenset([k for k, v in a.params.items() if v is not None])


def proposed(t: str, state: State, graph: MapGraph, scenario: "Scenario", player: int) -> list[Action]:
    """The candidates of type ``t`` the list judges for ``player``, the scenario's own aside: the
    prefilter's where the engine's handler judges ``t`` (a superset of the legal ones, in the generator's
    order), else every candidate of the type's generator. For a module whose own candidates are legal
    actions of ``t`` with a choice of its own added (SC11/TDE3's ``token_from``)."""
    pf = PREFILTERS.get(t)
    if pf is None or scenario.handler(t) is not None:
        gen = CANDIDATES.get(t)
        return list(gen(state, graph, scenario, player)) if gen else []
    return pf[0](state, graph, scenario, player, _Pos(state, graph, player))


_RANGE_SET = frozenset(RANGE_TYPES)
_PLANS: dict[tuple, list] = {}


def _entry(t: str, h, replaced, ranged: Optional[bool] = None) -> tuple:
    """(type, handler, the scenario's replacement or None, what the type's block reads (a card name, or
    the supply kind and the cost; only for the engine's own handler, not replaced), whether it is a range
    type, its prefilter)."""
    block: Any = None
    if (replaced is None and h is HANDLERS.get(t)) or h.keeps_block:
        if t in _DEV_CARD:
            block = _DEV_CARD[t]
        elif t in _PIECE:
            block = (_PIECE[t][0], COSTS[_PIECE[t][1]])
    return t, h, replaced, block, (t in _RANGE_SET) if ranged is None else ranged, PREFILTERS.get(t)


def _plan(scenario: "Scenario", state: State, player: int) -> list[tuple]:
    """``_entry`` for each type of the scenario, in name order, whose gate is open (``referee.gate``
    reads only the phase, the handler and the actor). Kept between calls: it depends on the types, the
    phase and whether ``player`` is the current player alone, and for a scenario replacing handlers on
    the scenario (its handlers and types are fixed when it is composed)."""
    types = scenario.action_types()
    if not scenario.composition.own_handlers:
        key = (types, state.phase, player == state.current_player)
        plan = _PLANS.get(key)
        if plan is None:
            if len(_PLANS) > 256:
                _PLANS.clear()
            plan = _PLANS[key] = [_entry(t, HANDLERS[t], None) for t in _sorted_types(types)
                                  if t in HANDLERS and gate_fault(state, HANDLERS[t], player) is None]
        return plan
    key = (scenario, state.phase, player == state.current_player)     # its handlers are the scenario's
    plan = _PLANS.get(key)
    if plan is None:
        if len(_PLANS) > 256:
            _PLANS.clear()
        plan = []
        actions = scenario.composition.actions
        for t in _sorted_types(types):
            replaced = scenario.handler(t)
            h = replaced or HANDLERS.get(t)
            if h is not None and gate_fault(state, h, player) is None:
                plan.append(_entry(t, h, replaced, actions[t].ranged))
        _PLANS[key] = plan
    return plan


__all__ = ["LegalActions", "legal_actions", "_legal_actions", "violations_of", "is_legal", "players_to_act",
           "action_json", "handler_for", "range_admits", "sample_range", "random_action", "cards_in_range",
           "draw_cards", "_greedy", "_range_specs", "RANGE_TYPES", "CANDIDATES", "candidates", "PREFILTERS", "proposed"]
