"""The rule-module contract: what a module declares, and the hooks it may implement.

A game is a stack of rule modules: the base game, Seafarers, Cities & Knights when switched on, then the
scenario. In code a module is a class (in a package of its own) and the stack is its method resolution
order: a scenario class derives from the modules it builds on (``class Gold(MappedScenario, Seafarers)``),
states only what differs, and calls ``super()`` where it adds to a hook rather than replacing it (the
variants of python-chess are read the same way).

Each module declares, as class attributes read along the stack by :func:`compose`:

- ``ACTIONS``: :class:`ActionSpec` per action type it adds or replaces (fields, handler, candidates);
- ``ACTION_FIELDS``: fields it adds to another module's action type (``{"build_road": {"token_from": F}}``);
- ``WITHOUT_ACTIONS``: action types of the modules below that this game does not have;
- ``STATE``: the keys it keeps in ``State.scenario_state``, each an :class:`~.spec.F`;
- ``PLAYER``: values it adds to each player (``State.players[i].extra``);
- ``DERIVED``: the derived values its ``derived_extra`` hook reports;
- ``EVENTS``: :class:`EventSpec` per event type it emits;
- ``OPTIONS``: :class:`OptionSpec` per game option it understands;
- ``PHASES``: the phases it adds to the engine's (``state.PHASES``), each with the function giving the
  violation of an action type the phase does not take (``ctx -> Violation``, the gate's "wrong phase");
- ``SECRETS``: :class:`~.seats.Secret` entries: what its data holds that some players may not see (a
  seat's view, ``seats.py``: cards in hand as counts, face-down piles, hidden draws);
- ``PLAY_LEAN``: :class:`PlayLean` entries: what seeded random play (``selfplay``) leans towards in its
  game, besides building (a game whose end needs more than building says how it is reached);
- ``PLAY_AVOID``: :class:`PlayAvoid` entries: what seeded random play sets aside while something else is
  legal (a choice that, taken at random, would keep a game from ever ending).

The engine reads the composed declarations (:class:`Composition`, fixed once when the scenario is
registered); request schemas, ``openapi.yaml``, the legal-action candidates and ``GET /v1/scenarios/{id}``
are built from them. The hooks are listed, typed and documented once, in :class:`Hooks`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Optional, Protocol

from .spec import F, Obj, merge

if TYPE_CHECKING:  # pragma: no cover
    from .actions import Handler
    from .core import Action, Ctx, Violation
    from .mapgraph import MapGraph
    from .picture import Layer
    from .rng import Rng
    from .state import State

Candidates = Callable[["State", "MapGraph", Any, int], Iterable["Action"]]


@dataclass(frozen=True)
class RangeKind:
    """How the legal-action list gives an action type as ranges (counts of cards) rather than one by one:
    ``specs(state, graph, scenario, player)`` yields ``(range spec, one legal example)``;
    ``admits(spec, action)`` says whether a concrete action lies inside a spec; ``sample(spec, rng)`` draws
    one (random play and tests). ``positional``: what lies inside a range depends on how the position
    resolves it (C&K's roll, whose choices follow from seeded draws), and ``admits(spec, action, state,
    graph, scenario)`` judges it at the position. ``count(spec)`` is the exact number of actions inside a
    spec and ``members(spec)`` yields each of them once (a perft count, ``engine/perft.py``; a positional
    kind's take the position too: ``count(spec, state, graph, scenario)``); a kind without them cannot be
    counted by perft (it says so rather than guess)."""
    specs: Callable[..., Iterable[tuple[dict, "Action"]]]
    admits: Callable[..., bool]
    sample: Callable[[dict, Any], "Action"]
    positional: bool = False
    count: Optional[Callable[..., int]] = None
    members: Optional[Callable[..., Iterable["Action"]]] = None


@dataclass(frozen=True)
class ActionSpec:
    """One action type: its fields (besides ``type`` and ``player``), what it means, the handler that
    judges and applies it, and the candidates the legal-action list tries (each filtered through the
    same checks as ``adjudicate``; a superset is fine). ``handler`` None: the engine's own handler of
    that type (``actions/``), for a module that only declares a type the engine already knows."""
    type: str
    fields: Mapping[str, F] = field(default_factory=dict)
    doc: str = ""
    #: A Handler, or a function of no arguments giving one (resolved when the scenario is registered, so
    #: a module's handlers may live in a file that imports the module).
    handler: Any = None
    #: A candidates function marked ``distinct`` (``fn.distinct = True``) yields no two equal actions: when
    #: it is the only source of a type the engine generates none of, the list keys none of them again.
    #: Marked ``judged`` (``fn.judged = True``) as well, each action it yields passes the handler's check
    #: (found legal by the search that made it): the list asks the gate and the other checks only.
    candidates: Optional[Candidates] = None
    #: Legal actions of this type are given as ranges (counts of cards) with a checked example.
    ranged: bool = False
    #: The module's own range functions for a ranged type (the engine's cover the base game's types).
    ranges: Optional[RangeKind] = None


@dataclass(frozen=True)
class EventSpec:
    """One event type: its fields besides ``type`` and what it reports."""
    type: str
    fields: Mapping[str, F] = field(default_factory=dict)
    doc: str = ""


@dataclass(frozen=True)
class OptionSpec:
    """A game option: ``accepts(value, players)`` and what the value must be and does."""
    name: str
    accepts: Callable[[Any, int], bool]
    doc: str


@dataclass(frozen=True)
class PlayLean:
    """One choice random play leans towards: the legal actions of ``type`` for which ``when(state, action)``
    holds (all of them without ``when``). Random play picks among the entries that have such actions, as
    among the building types; a module's entries come after those of the modules below it."""
    type: str
    when: Optional[Callable[["State", "Action"], bool]] = None
    doc: str = ""


@dataclass(frozen=True)
class PlayAvoid:
    """One choice random play sets aside, unless nothing else is legal: every legal action and range of
    ``type`` while ``when(state, player)`` holds for the acting player (always, without ``when`` and
    ``each``); with ``each``, only the listed actions of ``type`` for which ``each(state, action)`` holds.
    The rules are untouched: the actions stay listed and accepted; only the random pick passes them by."""
    type: str
    when: Optional[Callable[["State", int], bool]] = None
    doc: str = ""
    each: Optional[Callable[["State", "Action"], bool]] = None


class Hooks(Protocol):
    """Every hook a rule module may implement, with its default in ``scenarios.base.Scenario``.

    A module implementing a hook that a module below it also implements calls ``super()`` when it adds to
    it (checks, reactions, derived values) and does not when it replaces it (boards, route pieces)."""

    def new_board(self, num_players: int, rng: "Rng") -> dict[str, Any]:
        """The map of a new game: ``{"hexes", "harbors", "robber", "pirate"}`` (and module extras)."""

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> "State":
        """A new game's state; modules add their starting values (coins, a starting player...)."""

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        """The module's keys of ``scenario_state`` at the start (declared in ``STATE``)."""

    def pieces_off_grid(self, scenario_state: dict, player: int) -> dict[str, int]:
        """Pieces of ``player`` on the board that the piece lists do not hold, by supply kind (GOLD's
        mobile ships, kept in ``scenario_state``): counted with the board's pieces against the supply."""

    def check(self, ctx: "Ctx") -> list["Violation"]:
        """Violations of a proposed action that the module adds once the handler's own checks pass."""

    def after_action(self, ctx: "Ctx", s: "State") -> None:
        """Reactions once an action is applied to ``s`` (special VP, discovery, awards...)."""

    def after_production(self, ctx: "Ctx", s: "State", total: int) -> None:
        """After a roll's fixed production is paid (cargo loss, dragons, diamonds...)."""

    def on_turn_end(self, ctx: "Ctx", s: "State") -> None:
        """When the active player ends the turn, before the next player's turn begins."""

    def derived_extra(self, state: "State", graph: "MapGraph") -> dict[str, Any]:
        """The module's derived values (declared in ``DERIVED``)."""

    def cards_held(self, state: "State", player: int) -> int:
        """How many cards of ``player``'s hand count for a discard on a 7 (the resource cards; a module
        with further cards in the hand adds them)."""

    def holds_loot(self, state: "State", player: int, target: str) -> bool:
        """Whether the robber's (``target`` ``"robber"``) or pirate's theft could take anything from ``player``
        (default: a card of those ``cards_held`` counts; DIAM: the pirate takes a diamond too). With nobody
        beside the new hex holding any, the move may name no victim (R-124)."""

    def discard_limit(self, state: "State", player: int) -> int:
        """On a 7, ``player`` discards half their hand only when holding more cards than this (7 by the
        base rules, BASE-ROBBER-2)."""

    def gold_entitlement(self, terrain: str, kind: str) -> int:
        """How many free-choice picks a building of ``kind`` on a producing ``terrain`` hex gets."""

    def idle_hexes(self, state: "State") -> Any:
        """Hexes that produce nothing on a roll besides the robber's (a piece of the module standing on
        them): a collection of hexes, read once per production roll."""

    def roll_picks(self, state: "State", graph: "MapGraph", total: int) -> dict[int, int]:
        """Resources of choice a production roll of ``total`` gives beyond the buildings on gold fields,
        ``{player: picks}`` (default none; TDE5's gold prospectors). Read by the Cities & Knights
        production, chosen with the gold picks."""

    def knight_defends(self, state: "State", knight: dict) -> bool:
        """Whether a Cities & Knights knight (``{"node", "player", "level", "active", ...}``) counts for the
        defence against the barbarians when active (CK-BARB-3; default yes; TDE5: not on the small
        islands; TDE6: not on the Enchanted Land)."""

    def harbor_access(self, state: "State", graph: "MapGraph", player: int) -> list[str]:
        """Harbour kinds (``"3:1"`` or a resource) ``player`` trades at besides those at own buildings
        (default none; TDE5: a knight on a small island's harbour). Read by the Cities & Knights bank
        rates."""

    def knight_may_stand(self, state: "State", knight: dict, node: Any) -> bool:
        """Whether the ordinary Cities & Knights rules may put ``knight`` on intersection ``node`` (a retreat
        after a displacement, CK-KNIGHT-7, or Intrigue): default yes; a scenario may keep knights off a part
        of the board they reach otherwise only (TDE6: the Enchanted Land, reached by being sent)."""

    def army_award(self, state: "State", holder: Optional[int]) -> Optional[int]:
        """Who holds the Largest Army card after an action, given its holder before (BASE-LA-1..3); a
        game without the card answers None."""

    def route_pieces(self, state: "State", player: int) -> list[tuple[Any, str]]:
        """The pieces that count for ``player``'s longest road / trade route: ``[(edge, kind)]``."""

    def route_blockers(self, state: "State") -> dict[Any, int]:
        """Intersections held by pieces other than buildings that break opponents' roads and trade routes
        as a building does, with their owners: ``{node: player}`` (default: none)."""

    def vp_extra(self, state: "State", player: int) -> dict[str, int]:
        """Victory points beyond buildings, cards, awards and special VP tokens, by source."""

    def end_condition(self, state: "State") -> Optional[int]:
        """A winner decided otherwise than by the VP target (R-003), or None."""

    def may_win(self, state: "State") -> bool:
        """Whether the player whose turn it is may win by the VP target now (default: yes; the 5-6
        extension's Special Building Phase is nobody's turn, BASE56-035)."""

    def robber_hex_ok(self, state: "State", h: Any) -> bool:
        """Whether the robber may stand on hex ``h``."""

    def pirate_hex_ok(self, state: "State", h: Any) -> bool:
        """Whether the pirate may stand on hex ``h``."""

    def robber_permission(self, ctx: "Ctx", target: str) -> list["Violation"]:
        """Whether the acting player may move the ``target`` (``"robber"`` or ``"pirate"``) at all now, judged
        by the engine's robber, pirate and Knight handlers before where it goes (default: always)."""

    def steal_violations(self, ctx: "Ctx", target: str) -> list["Violation"]:
        """What the robbing of ``steal_from`` must satisfy beyond the engine's rules (BASE-ROBBER-4, SEA-030),
        judged once the move itself is legal (default: nothing)."""

    def move_and_steal(self, ctx: "Ctx", s: "State", target: str, mover: int) -> None:
        """Move the ``target`` to the action's hex on ``s`` and rob ``steal_from``: one resource card, observed
        or drawn by the seeded generator (BASE-ROBBER-4); a module robbing otherwise replaces it."""

    def knight_violations(self, ctx: "Ctx") -> list["Violation"]:
        """What a Knight played now must satisfy once the card itself may be played (BASE-DEV-5): by default
        the move of the robber, or the pirate (SEA-031), and its theft as on a 7 (BASE-ROBBER-6)."""

    def knight_effect(self, ctx: "Ctx", s: "State") -> None:
        """What a played Knight does on ``s`` once the card is laid out (by default the ``move_and_steal``
        of its target); a module whose knights do otherwise replaces it."""

    def free_piece(self, ctx: "Ctx", i: int, kind: str, edge: Any, path: str) -> Optional[list["Violation"]]:
        """One free piece of a card that places roads or ships (the progress card Road Building, CK-PROG-S9),
        judged and placed on ``ctx.state`` (a working copy); ``None`` (the default): the engine's own rules,
        a road or a ship on its lane. A module whose pieces are kept otherwise (GOLD's mobile ships) judges
        and places its own."""

    def place_free_piece(self, ctx: "Ctx", s: "State", kind: str, edge: Any) -> bool:
        """Place such a free piece on ``s`` (already judged by ``free_piece``), emitting what it emits; ``False``
        (the default): the engine places it as a road or a ship on its lane."""

    def piece_connection(self, ctx: "Ctx", kind: str, edge: Any, player: int, path: str,
                         ignore: Any = None) -> list["Violation"]:
        """The connection rule: what a new or moved piece of ``kind`` (``"road"`` or ``"ship"``) on ``edge``
        joins, ``ignore`` an edge taken as empty (a ship being moved). By default the player's own
        buildings and pieces of that kind, not through an opponent's building (``placement.road_connected``:
        BASE-BUILD-4/5, SEA-009; ``placement.ship_connected``: SEA-008/009). Every way a piece joins a
        network goes through it: building a road or ship, moving a ship, Road Building of either deck, the
        Diplomat's replacement, free pieces of treasures and scenario variants of these. A module with
        further anchors widens it (DIAM: villages), one with further blockers narrows it (C&K: an
        opponent's knight, CK-KNIGHT-2); either calls ``super()``."""

    def ship_lane_violations(self, ctx: "Ctx", src: Any) -> list["Violation"]:
        """Whether the acting player's ship on ``src`` may leave it: never from a closed shipping lane
        (SEA-014), and only the foremost ship of an open one (SEA-015). A module whose lanes differ judges its
        own."""

    def validate_state(self, state: "State") -> list[tuple[str, str]]:
        """Consistency of the module's own data beyond its declared shapes: ``[(pointer, reason)]``."""

    def legal_candidates(self, state: "State", graph: "MapGraph", player: int) -> list["Action"]:
        """Candidate actions beyond those of the action specs' ``candidates`` (a superset is fine)."""

    def chance_base(self, state: "State", graph: "MapGraph", action: "Action") -> Optional["Action"]:
        """When choices ``action`` carries are made after draws the action itself makes (so which choices
        are legal depends on what is drawn), the action without them, the base its family shares; None
        otherwise. A perft count (``engine/perft.py``) then follows the family under every draw."""

    def chance_family(self, state: "State", graph: "MapGraph", base: "Action") -> list["Action"]:
        """The actions of ``base``'s family (``chance_base``) as the legal-action list would give them for the
        draws in force (a perft count forces them, ``rng.FORCED``): ``base`` and ``base`` with each choice."""

    def maps(self) -> dict[int, Any]:
        """The map data per player count, for the scenario page."""

    def red_numbers_apart(self, state: "State") -> bool:
        """Whether the posted board is one whose 6s and 8s must lie apart (BASE-COMP-8: the base game's random
        layout); a module with its own maps answers False and leaves it to them."""

    def board_layers(self, state: "State", graph: "MapGraph") -> list["Layer"]:
        """What the module adds to the board picture (``picture.Layer``: its pieces, tokens and marks, each
        kind with its legend words; ``picture.Panel``: what it keeps off the board, drawn under the legend);
        a module adding to a lower module's layers calls ``super()``."""

    def explain_extra(self, state: "State", graph: "MapGraph") -> dict[str, Any]:
        """The module's own explanations (``explain=true``), ``{section: {..., "why": plain words citing the
        rules}}``, under ``explanations.modules``; a module adding to a lower one's calls ``super()``."""


#: The published hook list, in the order of :class:`Hooks`.
HOOKS: tuple[str, ...] = tuple(n for n in Hooks.__dict__ if not n.startswith("_") and callable(Hooks.__dict__[n]))

DECLARATIONS = ("ACTIONS", "ACTION_FIELDS", "WITHOUT_ACTIONS", "STATE", "PLAYER", "CURRENCIES", "DERIVED", "EVENTS",
                "OPTIONS", "CHECKS", "VALIDATORS", "PLAY_LEAN", "PLAY_AVOID", "PHASES", "SECRETS")

#: Every phase a registered module declares (``PHASES``), with the module declaring it: the state's
#: schema takes these besides the engine's; the consistency check holds a game to its own stack's.
DECLARED_PHASES: dict[str, str] = {}


def note_phases(cls: type) -> None:
    """Record the phases the modules of ``cls``'s stack declare (``PHASES``) in :data:`DECLARED_PHASES`, when a
    scenario or an expansion is registered (before any game stacks it)."""
    for c in cls.__mro__:
        for ph in (c.__dict__.get("PHASES") or {}):
            DECLARED_PHASES.setdefault(ph, getattr(c, "module_name", None) or c.__name__)


def hook_doc(name: str) -> str:
    return " ".join((getattr(Hooks, name).__doc__ or "").split())


@dataclass(frozen=True)
class Composition:
    """A scenario's declarations composed along its stack, fixed when the scenario is registered."""
    modules: tuple[str, ...]
    actions: Mapping[str, ActionSpec]
    action_fields: Mapping[str, Mapping[str, F]]
    state: Obj
    player: Obj
    derived: Obj
    events: Mapping[str, EventSpec]
    options: Mapping[str, OptionSpec]
    #: The hooks some module of the stack implements (the base defaults aside).
    hooks: frozenset[str]
    #: The action types whose handler a module declares (the others use the engine's own).
    own_handlers: frozenset[str] = frozenset()
    #: The candidate generators the action specs declare, ``(state, graph, scenario, player) -> actions``.
    candidates: tuple = ()
    #: Player values (``PLAYER``) that are a currency: traded between players like cards (``CURRENCIES``).
    currencies: tuple[str, ...] = ()
    #: Rules a module adds to every action of every game it is part of (``CHECKS``: ``ctx -> violations``),
    #: judged after the handler's and the scenario's ``check``, base module first.
    checks: tuple = ()
    #: Consistency rules of a module's own data (``VALIDATORS``: ``(state, scenario) -> [(pointer, reason)]``).
    validators: tuple = ()
    #: What random play leans towards besides building (``PLAY_LEAN``), base module first.
    play_lean: tuple = ()
    #: The phases the modules add (``PHASES``), each with its wrong-phase function.
    phases: Mapping[str, Callable] = field(default_factory=dict)
    #: What the modules keep from some players (``SECRETS``), ``(module, Secret)``, base module first.
    secrets: tuple = ()

    #: What random play sets aside while something else is legal (``PLAY_AVOID``), base module first.
    play_avoid: tuple = ()

    @property
    def secret_specs(self) -> tuple:
        """The :class:`~.seats.Secret` entries alone."""
        return tuple(s for _m, s in self.secrets)

    def handler(self, type_: str) -> Optional["Handler"]:
        spec = self.actions.get(type_)
        return None if spec is None else spec.handler


#: The range functions of module-declared ranged types, by type (a type belongs to one module).
RANGE_KINDS: dict[str, RangeKind] = {}


def _own(cls: type, name: str) -> Any:
    return cls.__dict__.get(name)


def _resolve(h: Any) -> Any:
    return h() if h is not None and not hasattr(h, "check") else h


def compose(cls: type, default: type) -> Composition:
    """Read every module's declarations along ``cls``'s stack, base first (a later module replaces an
    action type or option of an earlier one, adds fields, may remove action types)."""
    stack = [c for c in reversed(cls.__mro__) if any(n in c.__dict__ for n in DECLARATIONS) or c is cls]
    actions: dict[str, ActionSpec] = {}
    extra_fields: dict[str, dict[str, F]] = {}
    state: dict[str, F] = {}
    player: dict[str, F] = {}
    derived: dict[str, F] = {}
    events: dict[str, EventSpec] = {}
    options: dict[str, OptionSpec] = {}
    phases: dict[str, Callable] = {}
    names = []
    for c in stack:
        mod = getattr(c, "module_name", None) or c.__name__
        if any(n in c.__dict__ for n in DECLARATIONS):
            names.append(mod)
        for spec in _own(c, "ACTIONS") or ():
            prev = actions.get(spec.type)
            if prev is not None:    # a module restating a type below it: fields added, handler replaced if given
                spec = ActionSpec(spec.type, {**prev.fields, **spec.fields}, spec.doc or prev.doc,
                                  spec.handler or prev.handler, spec.candidates or prev.candidates,
                                  spec.ranged or prev.ranged, spec.ranges or prev.ranges)
            actions[spec.type] = spec
        for t in _own(c, "WITHOUT_ACTIONS") or ():
            actions.pop(t, None)
            extra_fields.pop(t, None)
        for t, fs in (_own(c, "ACTION_FIELDS") or {}).items():
            extra_fields[t] = merge(extra_fields.get(t, {}), fs, where=f"{mod}.ACTION_FIELDS[{t}]")
        state = merge(state, _own(c, "STATE") or {}, where=f"{mod}.STATE")
        player = merge(player, _own(c, "PLAYER") or {}, where=f"{mod}.PLAYER")
        derived.update(_own(c, "DERIVED") or {})
        for e in _own(c, "EVENTS") or ():
            prev_e = events.get(e.type)     # a module restating an event type adds the fields it reports
            events[e.type] = e if prev_e is None else EventSpec(e.type, {**prev_e.fields, **e.fields},
                                                                e.doc or prev_e.doc)
        for o in _own(c, "OPTIONS") or ():
            options[o.name] = o
        for ph, fn in (_own(c, "PHASES") or {}).items():
            phases[ph] = fn
            DECLARED_PHASES.setdefault(ph, mod)
    fields_by_type = {t: {**spec.fields, **{k: f for k, f in extra_fields.get(t, {}).items()}}
                      for t, spec in actions.items()}
    actions = {t: ActionSpec(t, fields_by_type[t], spec.doc, _resolve(spec.handler), spec.candidates, spec.ranged,
                             spec.ranges)
               for t, spec in actions.items()}
    currencies: tuple[str, ...] = ()
    checks: tuple = ()
    validators: tuple = ()
    play_lean: tuple = ()
    secrets: tuple = ()
    play_avoid: tuple = ()
    for c in stack:
        mod = getattr(c, "module_name", None) or c.__name__
        secrets += tuple((mod, x) for x in _own(c, "SECRETS") or () if x not in [y for _m, y in secrets])
        currencies += tuple(x for x in _own(c, "CURRENCIES") or () if x not in currencies)
        checks += tuple(x for x in _own(c, "CHECKS") or () if x not in checks)
        validators += tuple(x for x in _own(c, "VALIDATORS") or () if x not in validators)
        play_lean += tuple(x for x in _own(c, "PLAY_LEAN") or () if x not in play_lean)
        play_avoid += tuple(x for x in _own(c, "PLAY_AVOID") or () if x not in play_avoid)
    for spec in actions.values():
        if spec.ranges is not None:
            RANGE_KINDS[spec.type] = spec.ranges
    hooks = frozenset(n for n in HOOKS if getattr(cls, n, None) is not getattr(default, n, None))
    return Composition(tuple(names), actions, {t: fs for t, fs in extra_fields.items() if t in actions},
                       Obj(state), Obj(player), Obj(derived), events, options, hooks,
                       frozenset(t for t, a in actions.items() if a.handler is not None),
                       tuple(dict.fromkeys(a.candidates for a in actions.values() if a.candidates is not None)),
                       currencies, checks, validators, play_lean, phases, secrets, play_avoid)


__all__ = ["note_phases", "DECLARED_PHASES", "ActionSpec", "EventSpec", "OptionSpec", "PlayLean", "PlayAvoid", "Hooks", "HOOKS", "Composition", "compose", "hook_doc",
           "Candidates"]
