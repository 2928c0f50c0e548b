"""Vocabulary shared by rules, actions and scenarios: violations, actions, events and the context."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional

from .mapgraph import MapGraph
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

_RULING = re.compile(r"\bR-[0-9]{3}\b")


@dataclass(frozen=True, slots=True)
class Violation:
    """One rule an action breaks: the rule ID, what the rule requires and what the position has, the
    JSON pointer (into the request) of the part of the action or state at fault and, where a ruling
    (R-nnn) decided how the rule applies here, its ID."""
    rule: str
    message: str
    path: str = "/action"
    ruling: Optional[str] = None

    def deciding_ruling(self) -> Optional[str]:
        """The ruling that decided this violation: the one given, else the first R-nnn the message names."""
        if self.ruling is not None:
            return self.ruling
        m = _RULING.search(self.message)
        return m.group(0) if m else None


@dataclass(slots=True)
class Action:
    """A proposed action: its ``type``, the acting ``player`` and its parameters (coordinates canonical)."""
    type: str
    player: int
    params: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)


class IllegalAction(Exception):
    """Raised inside a check to stop at the first violation that makes further checks meaningless."""

    def __init__(self, *violations: Violation) -> None:
        super().__init__(violations[0].message if violations else "illegal")
        self.violations = list(violations)


@dataclass(slots=True)
class Ctx:
    """What a rule sees: the position, the proposed action, the board's graph and the scenario."""
    state: State
    action: Action
    graph: MapGraph
    scenario: "Scenario"
    events: list[dict] = field(default_factory=list)
    #: Values a rule computed while judging that the verdict reports whatever its outcome (merged into
    #: ``derived``; e.g. GOLD's statements A/B/C and the MNR before and after a settlement).
    derived: dict[str, Any] = field(default_factory=dict)
    #: Set by whatever changes a hex's terrain (e.g. exploration reveals a hidden hex): the map graph is
    #: derived from the terrain, so the referee derives a new one for the resulting state.
    board_changed: bool = False

    def emit(self, type_: str, **data: Any) -> None:
        self.events.append({"type": type_, **data})


def fmt_cards(cards: dict[str, int]) -> str:
    parts = [f"{n} {r}" for r, n in cards.items() if n]
    return ", ".join(parts) if parts else "nothing"


def coord(x: Optional[tuple]) -> Any:
    return None if x is None else list(x)
