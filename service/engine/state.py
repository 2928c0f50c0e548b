"""The game state: plain data, copied (never changed) by every transition.

A :class:`State` is what a client posts and what a verdict returns. Pieces are keyed by canonical
coordinates; derived values (route lengths, VP) are not stored, only history (who holds an award).
"""
from __future__ import annotations

import marshal
from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple, Optional

from .geometry import Edge, Hex, Node
from .mapgraph import RESOURCES

SCHEMA_VERSION = 1

DEV_CARDS = ("knight", "road_building", "year_of_plenty", "monopoly", "victory_point")
PIECES = ("settlements", "cities", "roads", "ships")

PHASES = ("setup", "roll", "discard", "robber", "gold_choice", "main", "game_over")


class Tile(NamedTuple):
    """A hex's terrain and number token: immutable, and hashed in C (boards are dictionary keys of
    per-process caches, hashed on every request)."""
    terrain: str
    number: Optional[int] = None


@dataclass(slots=True)
class Player:
    resources: dict[str, int]
    dev_cards: dict[str, int]                 # held and playable (bought before this turn)
    dev_cards_new: dict[str, int]             # bought this turn (BASE-DEV-4)
    dev_cards_played: dict[str, int]          # face up / set aside; knights count for Largest Army
    supply: dict[str, int]                    # pieces left to build, by kind
    svp: int = 0                              # special victory point tokens (SEA-019)
    #: The values rule modules add to a player (``PLAYER`` declarations), in declaration order.
    extra: dict[str, Any] = field(default_factory=dict)

    def copy(self) -> "Player":
        new = _new(Player)                  # field by field: cheaper than __init__ (see State.copy)
        new.resources = self.resources.copy()
        new.dev_cards = self.dev_cards                  # shared: changed only by replacing the dict
        new.dev_cards_new = self.dev_cards_new
        new.dev_cards_played = self.dev_cards_played
        new.supply = self.supply.copy()
        new.svp = self.svp
        new.extra = self.extra.copy()
        return new

    @property
    def knights_played(self) -> int:
        return self.dev_cards_played.get("knight", 0)

    @property
    def hand_size(self) -> int:
        return sum(self.resources.values())


@dataclass(slots=True)
class Setup:
    """Where the set-up placements stand (BASE-SETUP-2/3)."""
    round: int = 1                     # 1, 2 (, 3 for scenarios with a third settlement)
    step: str = "settlement"           # "settlement" | "road"
    last_settlement: Optional[Node] = None


@dataclass(slots=True)
class TurnFlags:
    """What has happened in the current turn (reset by end_turn)."""
    rolled: bool = False
    dev_card_played: bool = False
    ship_moved: bool = False
    ships_built: list[Edge] = field(default_factory=list)
    built: bool = False               # something was built or bought this turn (BASE-VAR-STRICT-PHASES)

    def copy(self) -> "TurnFlags":
        new = _new(TurnFlags)
        new.rolled = self.rolled
        new.dev_card_played = self.dev_card_played
        new.ship_moved = self.ship_moved
        new.ships_built = list(self.ships_built)
        new.built = self.built
        return new


@dataclass(slots=True)
class State:
    scenario: str
    hexes: dict[Hex, Tile]
    harbors: dict[Edge, str]                     # coast edge -> "3:1" or a resource (2:1)
    players: list[Player]
    buildings: dict[Node, tuple[int, str]]       # node -> (player, "settlement" | "city")
    roads: dict[Edge, int]                       # edge -> player
    ships: dict[Edge, int]                       # edge -> player
    robber: Optional[Hex]
    pirate: Optional[Hex]
    bank: dict[str, int]
    dev_deck: dict[str, int]                     # counts left in the deck (order is drawn, not stored)
    phase: str
    current_player: int
    turn: int
    setup: Setup
    flags: TurnFlags
    last_roll: Optional[tuple[int, int]]
    pending_discards: dict[int, int]             # player -> cards still to discard
    pending_gold: dict[int, int]                 # player -> gold-field picks still owed
    longest_road_holder: Optional[int]
    largest_army_holder: Optional[int]
    vp_target: int
    rng_seed: int
    rng_counter: int
    winner: Optional[int] = None
    svp_attached: dict[Node, int] = field(default_factory=dict)   # node -> SVP tokens under it (SEA-020)
    options: dict[str, Any] = field(default_factory=dict)         # variants switched on (BASE-VAR-*)
    scenario_state: dict[str, Any] = field(default_factory=dict)  # scenario-owned data (JSON values)
    schema_version: int = SCHEMA_VERSION

    @property
    def num_players(self) -> int:
        return len(self.players)

    def copy(self) -> "State":
        """A new state sharing nothing it may change with this one: the board (``hexes``, ``harbors``) is
        shared, and code that changes a board assigns a new dict to ``s.hexes`` / ``s.harbors``, never
        writes into the one it holds (tiles themselves are immutable).

        Built field by field rather than with ``dataclasses.replace`` (which goes through ``__init__``
        with keyword arguments): it runs on every adjudication. ``_COPIED`` below is checked against the
        dataclass fields at import, so a new field cannot be left out."""
        new = _new(State)
        new.scenario = self.scenario
        new.hexes = self.hexes              # shared: the board changes rarely, and then by a new dict
        new.harbors = self.harbors
        new.players = [p.copy() for p in self.players]
        new.buildings = dict(self.buildings)
        new.roads = dict(self.roads)
        new.ships = dict(self.ships)
        new.robber = self.robber
        new.pirate = self.pirate
        new.bank = dict(self.bank)
        new.dev_deck = dict(self.dev_deck)
        new.phase = self.phase
        new.current_player = self.current_player
        new.turn = self.turn
        st, setup = self.setup, _new(Setup)
        setup.round, setup.step, setup.last_settlement = st.round, st.step, st.last_settlement
        new.setup = setup
        new.flags = self.flags.copy()
        new.last_roll = self.last_roll
        new.pending_discards = dict(self.pending_discards)
        new.pending_gold = dict(self.pending_gold)
        new.longest_road_holder = self.longest_road_holder
        new.largest_army_holder = self.largest_army_holder
        new.vp_target = self.vp_target
        new.rng_seed = self.rng_seed
        new.rng_counter = self.rng_counter
        new.winner = self.winner
        new.svp_attached = dict(self.svp_attached)
        new.options = dict(self.options)
        ss = self.scenario_state
        new.scenario_state = _copy_values(ss) if ss else {}
        new.schema_version = self.schema_version
        return new

    def terrain_map(self) -> dict[Hex, str]:
        return {h: t.terrain for h, t in self.hexes.items()}

    def building_owner(self, n: Node) -> Optional[int]:
        b = self.buildings.get(n)
        return None if b is None else b[0]


_new = object.__new__
_COPIED = ("scenario", "hexes", "harbors", "players", "buildings", "roads", "ships", "robber", "pirate", "bank",
           "dev_deck", "phase", "current_player", "turn", "setup", "flags", "last_roll", "pending_discards",
           "pending_gold", "longest_road_holder", "largest_army_holder", "vp_target", "rng_seed", "rng_counter",
           "winner", "svp_attached", "options", "scenario_state", "schema_version")
assert set(_COPIED) == {f.name for f in fields(State)}, "State.copy() must copy every field"
assert {f.name for f in fields(Player)} == {"resources", "dev_cards", "dev_cards_new", "dev_cards_played", "supply",
                                            "svp", "extra"}, "Player.copy() must copy every field"
assert {f.name for f in fields(Setup)} == {"round", "step", "last_settlement"}, "State.copy() must copy every Setup field"
assert {f.name for f in fields(TurnFlags)} == {"rolled", "dev_card_played", "ship_moved", "ships_built",
                                               "built"}, "TurnFlags.copy() must copy every field"


def _copy_values(v: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples, strings, numbers, booleans, None), sharing
    nothing with ``v`` (not even between its own parts, as :func:`_deep`), in C: marshal's format 2 keeps
    every type, the order of every dict and writes no back-references, ~3x faster than the recursion
    on a real scenario's data and ~4x on a large one. Anything marshal cannot write goes to ``_deep``."""
    try:
        return _unmarshal(_marshal(v, 2))
    except (ValueError, TypeError):
        return _deep(v)


_marshal, _unmarshal = marshal.dumps, marshal.loads


def _deep(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: _deep(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_deep(x) for x in v]
    return v


def empty_resources() -> dict[str, int]:
    return {r: 0 for r in RESOURCES}


def empty_dev() -> dict[str, int]:
    return {c: 0 for c in DEV_CARDS}
