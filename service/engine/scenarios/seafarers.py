"""The general Seafarers rules on any board (SEA-001): ships, the pirate, gold fields, trade routes.

The eleven scenarios (SC01 to SC11) build on this class, each adding its own data and hooks.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

from ..geometry import Hex
from ..rng import Rng
from ..state import Tile
from .base import BASE_ACTIONS, Scenario

SEAFARERS_ACTIONS = BASE_ACTIONS + ("build_ship", "move_ship", "move_pirate", "choose_gold", "place_pirate")

#: SEA-036: the expansion's components (tiles, 8 SVP tokens, 10 number tokens, 12 harbour tokens, 15 ships
#: per colour in 4 colours, 1 pirate). Supplies use the ship count; SVP tokens are not a limit (R-029).
COMPONENTS: dict[str, Any] = {
    "hexes": {"sea": 12, "gold": 2, "desert": 3, "fields": 1, "forest": 1, "pasture": 1, "mountains": 2, "hills": 2},
    "svp_tokens": 8, "number_tokens": 10, "harbor_tokens": 12, "ships_per_colour": 15, "colours": 4, "pirate": 1,
}


def start_positions(hexes: Mapping[Hex, Tile], marked_robber: Optional[Hex] = None,
                    marked_pirate: Optional[Hex] = None, agreed_pirate: Optional[Hex] = None
                    ) -> dict[str, Optional[Hex]]:
    """Where the robber and the pirate stand before the first settlement, for any board.

    SEA-027 / R-007: the pirate goes on the map's marked hex, else on the sea hex the game-creation
    request names (the players' agreed hex); with neither it stays off the board until the starting
    player places it. SEA-034 / R-009: the robber goes on the marked desert, else the only desert; with
    no desert (or several and none marked) it starts off the board.
    """
    def sea(h: Optional[Hex]) -> bool:
        return h is not None and h in hexes and hexes[h].terrain == "sea"

    pirate = marked_pirate if sea(marked_pirate) else (agreed_pirate if sea(agreed_pirate) else None)
    deserts = sorted((h for h, t in hexes.items() if t.terrain == "desert"), key=lambda h: (h[1], h[0]))
    if marked_robber is not None and marked_robber in deserts:
        robber: Optional[Hex] = marked_robber
    else:
        robber = deserts[0] if len(deserts) == 1 else None
    return {"robber": robber, "pirate": pirate}


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
        """SEA-002: the board is always the map data of a scenario (or one the client posts): the general
        rules have no map of their own. SEA-004: harbours are harbour tokens (an edge and a kind), never
        printed on sea hexes, so every sea hex of a map is plain sea."""
        raise NotImplementedError("the general Seafarers rules have no map of their own: post a state")
