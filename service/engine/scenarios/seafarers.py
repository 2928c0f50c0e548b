"""The general Seafarers rules on any board (SEA-001): ships, the pirate, gold fields, trade routes.

The eleven scenarios (SC01-SC11) build on this class, each adding its own data and hooks.
"""
from __future__ import annotations

from ..rng import Rng
from .base import BASE_ACTIONS, Scenario

SEAFARERS_ACTIONS = BASE_ACTIONS + ("build_ship", "move_ship", "move_pirate", "choose_gold")


class Seafarers(Scenario):
    id = "seafarers"
    name = "Seafarers: general rules on a posted board"
    source = "seeds/002 (general rules)"
    supply = {"settlements": 5, "cities": 4, "roads": 15, "ships": 15}   # SEA-036: 15 ships per colour
    ships = True
    has_map = False
    pirate = True

    def action_types(self) -> frozenset[str]:
        return frozenset(SEAFARERS_ACTIONS)

    def gold_entitlement(self, terrain: str, kind: str) -> int:
        """SEA-024: a settlement on a producing gold field picks 1 resource, a city 2."""
        if terrain == "gold":
            return 2 if kind == "city" else 1
        return 0

    def new_board(self, num_players: int, rng: Rng):
        raise NotImplementedError("the general Seafarers rules have no map of their own: post a state")
