"""The scenario registry: every scenario the service knows, by id.

Scenarios of ``service/engine/modules/`` register themselves: each package there lists its scenarios in
``SCENARIOS`` (a tuple of instances), and is found by :func:`discover` with no edit anywhere else.
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional

from .base import Scenario, registered
from .seafarers import Seafarers

SCENARIOS: dict[str, Scenario] = {}


@dataclass(frozen=True)
class Expansion:
    """A rule module a game switches on by an option (Cities & Knights: ``cities_and_knights: true``).

    ``module`` is the module class, stacked above the scenario's own (its hooks call ``super()``, reaching
    the scenario's); ``adjust(scenario)`` may give a further class for that scenario's own rules with the
    expansion (GOLD with Cities & Knights), else None; ``refusal(scenario)`` the reason a scenario cannot be
    played with it (a rule ID and why), else None. Declared by a package in ``EXPANSIONS``."""
    option: str
    module: type
    doc: str
    adjust: Callable[[Scenario], Optional[type]] = lambda scen: None
    refusal: Callable[[Scenario], Optional[str]] = lambda scen: None
    #: Player counts that switch the expansion on with no option (the 5-6 extension: 5 and 6 players).
    players: frozenset = frozenset()
    #: Whether a value of ``option`` switches it on (Cities & Knights: ``true``; the 5-6 extension: a mode).
    switched_on: Callable[[Any], bool] = lambda value: value is True
    #: The value of ``option`` that switches it on, for the list of every game (``all_games``).
    on_value: Any = True
    #: ``accepts(value, players)`` of the option's values (None: true or false).
    accepts: Optional[Callable[[Any, int], bool]] = None


EXPANSIONS: dict[str, Expansion] = {}
_STACKED: dict[tuple, Scenario] = {}
#: The player counts some expansion is switched on by (``Expansion.players``).
_COUNTS: set[int] = set()


def register(s: Scenario) -> Scenario:
    """Add ``s`` to the registry, its declarations composed once (``base.registered``)."""
    if s.id in SCENARIOS and type(SCENARIOS[s.id]) is not type(s):
        raise ValueError(f"two scenarios with the id {s.id!r}")
    SCENARIOS[s.id] = registered(s)
    return s


def discover(package: Optional[str] = None) -> list[str]:
    """Import every module package under ``package`` (default: the engine's ``modules``, under the name the
    engine was imported as) and register the scenarios and expansions it lists."""
    package = package or __package__.rpartition(".")[0] + ".modules"
    found = []
    pkg = importlib.import_module(package)
    for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda i: i.name):
        mod = importlib.import_module(f"{package}.{info.name}")
        for scen in getattr(mod, "SCENARIOS", ()):
            register(scen)
            found.append(scen.id)
        for exp in getattr(mod, "EXPANSIONS", ()):
            add_expansion(exp)
    return found


def add_expansion(exp: Expansion) -> None:
    from ..module import note_phases
    EXPANSIONS[exp.option] = exp
    _COUNTS.update(exp.players)
    note_phases(exp.module)


def expansions_on(options: Optional[Mapping[str, Any]], players: Optional[int] = None) -> tuple[Expansion, ...]:
    """The expansions a game's options (or its player count) switch on, in option-name order."""
    if not EXPANSIONS or (not options and players not in _COUNTS):
        return ()
    return tuple(e for k, e in sorted(EXPANSIONS.items())
                 if (options and k in options and e.switched_on(options[k])) or players in e.players)


def count_refusal(scen: Scenario, players: int) -> Optional[str]:
    """Why ``scen`` cannot be played by ``players`` players when an expansion that count switches on
    refuses it (a scenario whose maps are for 3-4 players, BASE56-050), else None."""
    if players not in _COUNTS:
        return None
    for e in EXPANSIONS.values():
        if players in e.players:
            why = e.refusal(scen)
            if why:
                return why
    return None


def with_expansions(scen: Scenario, options: Optional[Mapping[str, Any]], players: Optional[int] = None) -> Scenario:
    """The game's scenario: ``scen`` with the expansions its options (or its number of ``players``) switch
    on stacked above its modules (composed once per scenario and set of expansions, then kept). An
    expansion already in the scenario's own stack (a scenario played only with it) is not stacked again."""
    on = tuple(e for e in expansions_on(options, players) if not isinstance(scen, e.module))
    if not on:
        return scen
    key = (scen.id, tuple(e.option for e in on))
    got = _STACKED.get(key)
    if got is None:
        bases: list[type] = []
        for e in on:
            adj = e.adjust(scen)
            bases += ([adj] if adj is not None else []) + [e.module]
        cls = type(f"{type(scen).__name__}With{''.join(e.module.__name__ for e in on)}", (*bases, type(scen)),
                   {"id": scen.id})
        got = _STACKED[key] = registered(cls())
    return got


def all_games() -> dict[str, Scenario]:
    """Every game the service plays, by label: each scenario, and each scenario with each expansion its
    options can switch on (``"SC01 with cities_and_knights"``) unless the scenario refuses it."""
    out: dict[str, Scenario] = {sid: SCENARIOS[sid] for sid in sorted(SCENARIOS)}
    for option, exp in sorted(EXPANSIONS.items()):
        for sid in sorted(SCENARIOS):
            scen = SCENARIOS[sid]
            own = scen.composition.options.get(option)
            if (own.accepts(True, max(scen.players)) if own is not None else exp.refusal(scen) is None):
                out[f"{sid} with {option}"] = with_expansions(scen, {option: exp.on_value})
    return out


def scenario_of(state: Any) -> Scenario:
    """The scenario a state is a game of: its ``scenario`` with the expansions its options switch on."""
    scen = SCENARIOS[state.scenario]
    n = len(state.players)
    return with_expansions(scen, state.options, n) if (state.options or n in _COUNTS) and EXPANSIONS else scen


register(Scenario())
register(Seafarers())

discover()


def _book_order(sid: str) -> tuple:
    """The registry's order: the base game, the general Seafarers rules, the book's scenarios, the rest by id."""
    return (0 if sid == "base" else 1 if sid == "seafarers" else 2 if sid.startswith("SC") else 3, sid)


for _sid in sorted(SCENARIOS, key=_book_order):     # (re-inserted in that order)
    SCENARIOS[_sid] = SCENARIOS.pop(_sid)


def get_scenario(sid: str) -> Scenario:
    return SCENARIOS[sid]


class GameRefused(ValueError):
    """A new game that cannot start: ``problems`` are ``(field, reason)`` (field relative to the request)."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__(problems[0][1])
        self.problems = problems


def start_game(scenario_id: str, players: int, seed: int, options: Optional[Mapping[str, Any]] = None) -> Any:
    """A new game's state, or :class:`GameRefused` naming what stops it: a scenario with no map of its own,
    a player count it is not for, an option it does not know or refuses, an option value its map cannot
    take. The one way every endpoint starts a game."""
    scen = SCENARIOS.get(scenario_id)
    if scen is None:
        raise GameRefused([("scenario", f"unknown scenario {scenario_id!r} (one of {', '.join(SCENARIOS)})")])
    if not scen.has_map:
        raise GameRefused([("scenario", f"scenario {scen.id!r} has no map of its own; post a state")])
    if players not in scen.players and (players not in _COUNTS or count_refusal(scen, players) is not None):
        why = count_refusal(scen, players)
        raise GameRefused([("players", f"scenario {scen.id!r} is for {list(scen.players)} players"
                            + (f" ({why})" if why else ""))])
    options = dict(options or {})
    # the expansion switches first (one the scenario refuses is named), then every option against the
    # game's stack: an expansion's own options (its variants) exist only with it switched on
    problems = scen.option_problems({k: v for k, v in options.items() if k in EXPANSIONS}, players)
    if not problems:
        problems = with_expansions(scen, options, players).option_problems(options, players)
    if problems:
        raise GameRefused([("options/" + k.replace("~", "~0").replace("/", "~1"), why) for k, why in problems])
    try:
        return with_expansions(scen, options, players).new_game(players, seed, options)
    except ValueError as e:
        raise GameRefused([("options", str(e))]) from None
