"""The request path inside the engine: gate, check, apply, award, win, derive.

>>> from service.engine.scenarios import get_scenario
>>> scen = get_scenario("base")
>>> state = scen.new_game(3, seed=7)
>>> from service.engine.mapgraph import MapGraph
>>> graph = MapGraph.build(state.terrain_map())
>>> v = adjudicate(state, Action("end_turn", 0), graph, scen)
>>> v.legal, v.violations[0].rule
(False, 'BASE-TURN-5')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Optional

from .actions import WRONG_PHASE_RULE, Handler, load_all
from .core import Action, Ctx, Violation
from .derive import derive, update_awards, victory_point_total
from .mapgraph import MapGraph
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

HANDLERS = load_all()


class UnsupportedAction(ValueError):
    """The action type does not exist in this scenario (a malformed request, not a verdict)."""


@dataclass(slots=True)
class Verdict:
    legal: bool
    violations: list[Violation]
    state: Optional[State]
    events: list[dict[str, Any]] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)
    #: The map graph of the resulting state: the one passed in, unless the action changed the board.
    graph: Optional[MapGraph] = None
    #: Suspicious but possible things about the posted position (``warnings.py``), filled by the caller.
    warnings: list[dict[str, str]] = field(default_factory=list)


def gate_fault(state: State, h: Handler, player: int) -> Optional[str]:
    """What stops every action of ``player`` that handler ``h`` judges, before its own rules: the game is
    over (``"over"``), the phase is not one of the handler's (``"phase"``), or the handler takes the
    current player's actions and ``player`` is not the current player (``"turn"``); None when the gate is
    open. It reads no parameter of the action, so the legal-action list asks it once per type."""
    if state.phase == "game_over":
        return "over"
    if state.phase not in h.phases:
        return "phase"
    if h.actor == "current" and player != state.current_player:
        return "turn"
    return None


def gate(ctx: Ctx, h: Handler) -> list[Violation]:
    """Game over, wrong phase, wrong player (:func:`gate_fault`): the checks every action passes first."""
    s, a = ctx.state, ctx.action
    fault = gate_fault(s, h, a.player)
    if fault is None:
        return []
    if fault == "over":
        return [Violation("BASE-VP-1", f"the game is over: player {s.winner} has won")]
    if fault == "phase":
        if s.phase not in WRONG_PHASE_RULE:  # a phase a module adds (``PHASES``) says what it does not take
            return [ctx.scenario.composition.phases[s.phase](ctx)]
        if h.wrong_phase is not None:
            v = h.wrong_phase(ctx)
            if v is not None:
                return [v]
        rule, why = WRONG_PHASE_RULE[s.phase]
        return [Violation(rule, f"{a.type} is not possible now: {why} (phase {s.phase!r})")]
    return [Violation(h.not_your_turn, f"it is player {s.current_player}'s turn; player {a.player} may not "
                      f"{a.type.replace('_', ' ')} now", "/action/player")]


def check_action(ctx: Ctx, h: Handler, rest: Optional[Callable[[Ctx], list[Violation]]] = None) -> list[Violation]:
    """Every check a proposed action passes, in order: the gate, the handler's rules, the scenario's.

    The legal-action generator (``legal.py``) filters its candidates through this same function. ``rest``:
    what is left of the handler's check when its first part is known to pass for the action (the list
    judges which ship may move once per ship, then each destination with ``seafarers.move_destination_violations``)."""
    v = gate(ctx, h) or (h.check if rest is None else rest)(ctx) or ctx.scenario.check(ctx)
    if v:
        return v
    for rule in ctx.scenario.composition.checks:    # the rules modules add to every action (``CHECKS``)
        v = rule(ctx)
        if v:
            return v
    return []


def adjudicate(state: State, action: Action, graph: MapGraph, scenario: "Scenario",
               with_derived: bool = True) -> Verdict:
    """Judge ``action`` in ``state``; the state passed in is never changed."""
    if action.type not in scenario.action_types():
        raise UnsupportedAction(f"action type {action.type!r} does not exist in scenario {scenario.id!r}")
    h = scenario.handler(action.type) or HANDLERS[action.type]
    ctx = Ctx(state, action, graph, scenario)
    violations = check_action(ctx, h)
    if violations:
        return Verdict(False, violations, None, [],
                       {**derive(state, graph, scenario), **ctx.derived} if with_derived else {})
    s, graph, routes = settle(ctx, h, graph)
    return Verdict(True, [], s, ctx.events,
                   {**derive(s, graph, scenario, routes), **ctx.derived} if with_derived else {}, graph)


def settle(ctx: Ctx, h: Handler, graph: MapGraph) -> tuple[State, MapGraph, Any]:
    """The position after ``ctx.action``, judged legal: applied to a copy, the scenario's reaction, the
    awards and the winner; with the graph of the new board (``graph`` when it did not change) and the
    route lengths the awards found."""
    s = ctx.state.copy()
    h.apply(ctx, s)
    ctx.scenario.after_action(ctx, s)
    if ctx.board_changed:                       # a revealed hex: the graph of the new board
        graph = ctx.graph = MapGraph.build(s.terrain_map())
    routes = update_awards(ctx, s, h.changes_routes)
    decide_winner(ctx, s)
    return s, graph, routes


def ends_game(ctx: Ctx) -> bool:
    """Whether ``ctx.action``, applied as it stands without being judged, makes a player win (BASE-VP-1):
    the question a rule asks of a part of an action (R-123: Road Building's first road)."""
    h = ctx.scenario.handler(ctx.action.type) or HANDLERS[ctx.action.type]
    sub = Ctx(ctx.state, ctx.action, ctx.graph, ctx.scenario)
    s = ctx.state.copy()
    h.apply(sub, s)
    ctx.scenario.after_action(sub, s)
    if sub.board_changed:
        sub.graph = MapGraph.build(s.terrain_map())
    update_awards(sub, s, h.changes_routes)
    decide_winner(sub, s)
    return s.phase == "game_over"


def decide_winner(ctx: Ctx, s: State) -> None:
    """BASE-VP-1, BASE-VP-2, BASE-VP-3, SEA-035, R-003: only the player whose turn it is wins, checked
    after every action and at the start of each turn; a scenario may end the game at once (R-003)."""
    if s.phase == "game_over" or s.phase == "setup":
        return
    winner = ctx.scenario.end_condition(s)
    if winner is None and ctx.scenario.may_win(s):
        vp = victory_point_total(s, ctx.scenario, s.current_player)
        if vp >= s.vp_target:
            winner = s.current_player
    if winner is not None:
        s.winner = winner
        s.phase = "game_over"
        ctx.emit("winner", player=winner)
