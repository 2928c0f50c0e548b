"""The legal-action list's vocabulary: the list itself, who may act, an action's JSON form, judging one."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..actions.seafarers import next_gold_chooser
from ..core import Action, Ctx, Violation
from ..mapgraph import MapGraph
from ..referee import HANDLERS, check_action
from ..state import State

if TYPE_CHECKING:  # pragma: no cover
    from ..scenarios.base import Scenario

#: The engine's own ranged types (a module's are marked ``ranged`` in its ``ActionSpec``).
RANGE_TYPES = ("discard", "play_year_of_plenty", "choose_gold", "domestic_trade")


@dataclass
class LegalActions:
    """The legal actions of one player: listed ones by type, and ranges (with a checked example)."""
    player: int
    players_to_act: list[int]
    actions: dict[str, list[Action]] = field(default_factory=dict)
    ranges: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(len(v) for v in self.actions.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "players_to_act": self.players_to_act,
            "count": self.count,
            "actions": {t: [action_json(a) for a in acts] for t, acts in sorted(self.actions.items())},
            "ranges": {t: specs for t, specs in sorted(self.ranges.items())},
        }


def handler_for(scenario: "Scenario", type_: str):
    return scenario.handler(type_) or HANDLERS.get(type_)


def violations_of(state: State, action: Action, graph: MapGraph, scenario: "Scenario") -> list[Violation]:
    """The violations ``adjudicate`` would report for ``action`` (empty: legal), without applying it."""
    return check_action(Ctx(state, action, graph, scenario), handler_for(scenario, action.type))


def is_legal(state: State, action: Action, graph: MapGraph, scenario: "Scenario") -> bool:
    return not violations_of(state, action, graph, scenario)


def players_to_act(state: State) -> list[int]:
    """Who may act now: the players owing a discard, the next gold picker, else the current player.

    (In the main phase the other players may also take part in a domestic trade with the current
    player; ask for them by name.)"""
    if state.phase == "game_over":
        return []
    if state.phase == "discard":
        return sorted(state.pending_discards)
    if state.phase == "gold_choice":
        nxt = next_gold_chooser(state)
        return [nxt] if nxt >= 0 else []
    return [state.current_player]


# -- JSON form ---------------------------------------------------------------------------------------

def _plain(v: Any) -> Any:
    t = type(v)
    if t is int or t is str or t is bool or v is None:
        return v
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    if isinstance(v, list):
        return [_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: _plain(x) for k, x in v.items()}
    return v


def action_json(a: Action) -> dict[str, Any]:
    """The action as a client would post it (parameters left at their default are left out)."""
    out: dict[str, Any] = {"type": a.type, "player": a.player}
    for k, v in a.params.items():
        if v is not None:
            out[k] = _plain(v)
    return out


