"""The scenario registry: every scenario the service knows, by id."""
from __future__ import annotations

from .base import Scenario
from .seafarers import Seafarers

SCENARIOS: dict[str, Scenario] = {}


def register(s: Scenario) -> Scenario:
    SCENARIOS[s.id] = s
    return s


register(Scenario())
register(Seafarers())


def get_scenario(sid: str) -> Scenario:
    return SCENARIOS[sid]
