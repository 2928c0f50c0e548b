"""The general Seafarers rules on any board (SEA-001): ships, the pirate, gold fields, trade routes.

The eleven scenarios (SC01 to SC11) build on this class, each adding its own data and hooks.
"""
from __future__ import annotations

from typing import Any, Mapping, Optional

from ..geometry import Hex
from ..mapgraph import RESOURCES
from ..module import ActionSpec, EventSpec
from ..rng import Rng
from ..seats import Secret
from ..mapgraph import TERRAINS
from ..spec import EDGE, HEX, MAX_PLAYERS, NODE, PLAYER, Bool, Cards, F, Int, List, Map, Null, Str, Tuple, by_player
from ..state import State, Tile
from .base import _ROBBER_FIELDS, BASE_ACTIONS, Scenario

SEAFARERS_ACTION_SPECS = (
    ActionSpec("build_ship", {"edge": F(EDGE, required=True)}, "Build a ship (or place a starting one)."),
    ActionSpec("move_ship", {"from": F(EDGE, required=True, doc="the open ship moved"),
                             "to": F(EDGE, required=True, doc="where it goes")},
               "Move one open ship once a turn (SEA-013..SEA-016)."),
    ActionSpec("move_pirate", dict(_ROBBER_FIELDS), "Move the pirate instead of the robber and rob (SEA-027..033)."),
    ActionSpec("choose_gold", {"resources": F(Cards(RESOURCES + ("gold",)), required=True)},
               "Pick the resources a gold field pays (SEA-024).", ranged=True),
    ActionSpec("place_pirate", {"hex": F(HEX, required=True, doc="the sea hex the pirate starts on")},
               "Place the pirate of a new game that named no pirate hex, before any settlement (SEA-027, R-007).",
               candidates=lambda state, graph, scen, player: _place_pirate_candidates(state, player)),
)


def _place_pirate_candidates(state, player: int) -> list:
    """R-007: every sea hex, while a new game's pirate is still to be placed."""
    if state.scenario_state.get("pirate_pending") is not True:
        return []
    from ..core import Action
    return [Action("place_pirate", player, {"hex": h}) for h, t in state.hexes.items() if t.terrain == "sea"]
SEAFARERS_ACTIONS = BASE_ACTIONS + tuple(a.type for a in SEAFARERS_ACTION_SPECS)

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


_ISLAND = Str(max_len=40)
_TERRAIN = Str(tuple(sorted(TERRAINS)))
#: The keys the Seafarers scenarios keep in ``scenario_state`` (islands, set-up records, face-down piles).
SEAFARERS_STATE = {
    "islands": F(Map(List(HEX, max_len=400), max_len=60),
                 doc="R-018: the map's named islands (or regions): name -> its hexes"),
    "mainland": F(_ISLAND, doc="R-018: the island that counts as the mainland"),
    "home_islands": F(by_player(List(_ISLAND, max_len=60)),
                      doc="R-018: each player's home islands, recorded when set-up ends"),
    "island_svp": F(by_player(Map(NODE, max_len=60)),
                    doc="SEA-020: per player, the island -> the first settlement that earned its special VP"),
    "faces_island": F(Map(Bool(), max_len=400), doc="R-017: \"q,r\" -> whether a sea hex faces another island"),
    "hex_pile": F(List(_TERRAIN, max_len=400), doc="R-005: the face-down hexes, top first"),
    "token_pile": F(List(Int(2, 12), max_len=400), doc="R-005: the face-down number tokens (or a reserve), top first"),
    "revealed": F(List(Tuple((Int(-64, 64), Int(-64, 64), _TERRAIN, Null(Int(2, 12)))), max_len=400),
                  doc="R-006: the hexes discovered so far, [q, r, terrain, number]"),
    "start_nodes": F(by_player(List(NODE, max_len=3)), doc="each player's starting settlements (home islands)"),
    "svp_first": F(by_player(NODE), doc="the settlement that earned a player's one first-settlement token"),
    "pirate_pending": F(Bool(), doc="SEA-027, R-007: true while a new game's pirate is to be placed (place_pirate)"),
}


_PER_PLAYER = Map(Int(0, 100), max_len=MAX_PLAYERS)
SEAFARERS_EVENTS = (
    EventSpec("gold_owed", {"players": F(_PER_PLAYER, required=True)}, "Gold-field picks a roll gives (SEA-024)."),
    EventSpec("gold_chosen", {"player": F(PLAYER, required=True), "resources": F(Map(Int(0, 100)), required=True)},
              "A player picked gold-field resources."),
    EventSpec("gold_lapsed", {"players": F(_PER_PLAYER, required=True)},
              "Picks that lapsed because the bank is empty (R-014)."),
    EventSpec("pirate_placed", {"player": F(PLAYER, required=True), "hex": F(HEX, required=True)},
              "The starting player placed the pirate before the first settlement (SEA-027, R-007)."),
    EventSpec("special_victory_point", {"player": F(PLAYER, required=True), "node": F(NODE, required=True),
                                        "count": F(Int(1, 100), required=True), "reason": F(Str(max_len=200))},
              "Special victory point tokens placed under a settlement (SEA-019/020)."),
    EventSpec("special_victory_point_lost", {"player": F(PLAYER, required=True), "node": F(NODE, required=True),
                                             "count": F(Int(1, 100), required=True), "reason": F(Str(max_len=200))},
              "Special victory point tokens taken back."),
)


def _pirate_first(ctx):
    from ..actions.seafarers import pirate_first
    return pirate_first(ctx)


def _pirate_pending_problems(state, scenario):
    from ..actions.seafarers import pirate_pending_problems
    return pirate_pending_problems(state, scenario)


#: What the Seafarers scenarios keep from every player (a seat's view, ``seats.py``): the face-down piles.
SEAFARERS_SECRETS = (
    Secret("state:/scenario_state/hex_pile", "count", "the face-down hexes still to be discovered, top first "
           "(what an unexplored hex turns out to be)", owner="", rules="R-005"),
    Secret("state:/scenario_state/token_pile", "count", "the face-down number tokens, top first", owner="",
           rules="R-005"),
)


class Seafarers(Scenario):
    id = "seafarers"
    name = "Seafarers: general rules on a posted board"
    source = "The Seafarers of Catan rulebook (1998), general rules (GET /v1/rules?module=SEA)"
    supply = {"settlements": 5, "cities": 4, "roads": 15, "ships": 15}   # SEA-036: 15 ships per colour
    ships = True
    has_map = False
    pirate = True
    ACTIONS = SEAFARERS_ACTION_SPECS
    STATE = SEAFARERS_STATE
    EVENTS = SEAFARERS_EVENTS
    SECRETS = SEAFARERS_SECRETS
    CHECKS = (_pirate_first,)                 # SEA-027, R-007
    VALIDATORS = (_pirate_pending_problems,)
    module_name = "seafarers"

    def red_numbers_apart(self, state: State) -> bool:
        return False                    # the scenario's map decides where its tokens lie (BASE-COMP-8 is base's)

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
