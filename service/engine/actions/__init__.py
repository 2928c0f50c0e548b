"""Action handlers: for each action type, when it may be taken, what it must satisfy, what it does.

A handler is registered with :func:`handler`. ``check(ctx)`` returns the violations (each citing the rule
ID it enforces); ``apply(ctx, s)`` carries the action out on ``s``, a fresh copy of the posted state.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Optional

from ..core import Ctx, Violation

#: Which rule a wrong-phase action breaks, by phase (the rule a player would be shown).
WRONG_PHASE_RULE = {
    "setup": ("BASE-SETUP-7", "set-up is for placing starting settlements and roads only"),
    "roll": ("BASE-TURN-2", "nothing but a development card may happen before the production roll"),
    "discard": ("BASE-ROBBER-2", "on a 7 every player over 7 cards discards before anything else"),
    "robber": ("BASE-ROBBER-3", "after a 7 the roller must move the robber before anything else"),
    "gold_choice": ("SEA-024", "gold-field picks are made before the turn goes on"),
    "main": ("BASE-TURN-1", "the production roll has already been made and resolved this turn"),
    "game_over": ("BASE-VP-1", "the game is over"),
}


@dataclass(frozen=True)
class Handler:
    type: str
    phases: frozenset[str]
    check: Callable[[Ctx], list[Violation]]
    apply: Callable[[Ctx, object], None]
    actor: str = "current"          # "current" | "discard" | "gold"
    not_your_turn: str = "BASE-TURN-6"
    changes_routes: bool = False
    wrong_phase: Optional[Callable[[Ctx], Optional[Violation]]] = None
    #: A module's replacement whose check fails wherever the engine's handler of its type fails on a part
    #: that reads no parameter of the action (the card held, ``dev.may_play``; the piece in supply and the
    #: cost, ``placement.supply_left``, ``bank.cannot_pay``): the legal-action list then rules the whole
    #: type out on those parts as it does for the engine's handler (its "block").
    keeps_block: bool = False
    #: A module's handler declared from the engine's (``declared_own``) whose hooks only add violations to
    #: the engine's check for the actions the engine's generator proposes (the rules the engine's prefilter
    #: follows still hold): the legal-action list then takes the type's candidates from that prefilter,
    #: each judged in full, the module's own candidates after them (``tests/test_legal_fast.py`` holds
    #: the list to judging every candidate).
    prefiltered: bool = False


#: The engine's own handlers (the base game's and Seafarers' action types). A module's handlers are not
#: registered here: its ``ActionSpec`` carries them (``module.py``).
HANDLERS: dict[str, Handler] = {}


def handler(type_: str, phases: set[str], *, actor: str = "current", not_your_turn: str = "BASE-TURN-6",
            changes_routes: bool = False,
            wrong_phase: Optional[Callable[[Ctx], Optional[Violation]]] = None):
    """Register ``check`` and ``apply`` for an action type: ``@handler(...)`` on a class with both."""
    def register(cls):
        HANDLERS[type_] = Handler(type_, frozenset(phases), cls.check, cls.apply, actor, not_your_turn,
                                  changes_routes, wrong_phase)
        return cls
    return register


def own_handler(type_: str, phases: set[str], *, actor: str = "current", not_your_turn: str = "BASE-TURN-6",
                changes_routes: bool = False,
                wrong_phase: Optional[Callable[[Ctx], Optional[Violation]]] = None):
    """Like :func:`handler`, for a module's own action type: the handler is kept on the class
    (``cls.HANDLER``) for the module's ``ActionSpec``, not registered with the engine's."""
    def make(cls):
        cls.HANDLER = Handler(type_, frozenset(phases), cls.check, cls.apply, actor, not_your_turn, changes_routes,
                              wrong_phase)
        return cls
    return make


def declared_own(h: Handler, **changes) -> Handler:
    """The engine's handler ``h`` as a module's own (its ``ActionSpec.handler``): the same check and apply,
    for a module whose hooks change what they judge (Diamond Isles' ship anchors). Declared as the module's,
    the type's candidates are each judged in full, not taken through the engine's prefilter, which knows
    only the engine's own rules; its check being the engine's, it keeps the type's block
    (``Handler.keeps_block``: the card held, the supply and the cost read no hook). ``changes``: the fields
    that differ (``not_your_turn``...)."""
    return replace(h, **{"keeps_block": "check" not in changes, **changes})


def load_all() -> dict[str, Handler]:
    from . import build, dev, robber, seafarers, setup, trade, turn  # noqa: F401  (registration)
    return HANDLERS
