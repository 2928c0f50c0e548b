"""The Cities & Knights roll in the legal-action list: listed one by one where that is cheap, given as
ranges where the choices the outcome asks are too many to list (CK-BARB-4, CK-BARB-6, CK-PROG-5,
CK-PROG-S1, CK-VAR-MEANIES).

A roll carries the choices its outcome asks (``turn.NeedChoice``): the city each losing player gives up
(``pillage``, CK-BARB-4), the deck each tied best defender draws from (``defender_decks``, CK-BARB-6),
the card a player over the progress-card limit outside their turn puts back (``progress_discards``,
CK-PROG-5), and with the variant CK-VAR-MEANIES the knights each player sends (``fighting``). They are
asked in the order the roll resolves them and depend on each other: the knights sent decide who loses a
city or ties as defender; a tied defender's deck and a put-back card (under its deck, CK-PROG-6) change
every seeded draw after them (``turn.draw_progress`` weighs the decks' counts), so which put-backs are
asked, and their options, follow from the draws before them.

Listed: the roll with the seeded dice and every combination of the choices it asks, found by resolving it
on a copy choice by choice, when that takes at most :data:`WALK` resolutions; and each roll with the
Alchemist's dice (CK-PROG-S1: every ``[red, yellow]`` pair, 36 actions: the red die decides the progress
draws, CK-PROG-2) that asks no choice.

Ranges, each ``{"alchemist": bool, "dice": null | [[red, yellow], ...], "fighting": {...}, "asks": [...]}``:

- the seeded roll when its choices take more than :data:`WALK` resolutions, or with CK-VAR-MEANIES;
- the Alchemist's rolls that ask a choice (their pairs in ``dice``), or every pair with CK-VAR-MEANIES.

A roll lies inside a range when it is of its player, plays the Alchemist as ``alchemist`` says, has the
seeded dice (``dice`` null) or one of the pairs listed, leaves the event die to the seeded generator, and
resolves: it carries a valid option for every choice its resolution asks (``fighting``, only with
CK-VAR-MEANIES: per player any of the active knights named, a player left out sending all). ``asks``
states the choices the example's resolution asked, in order, each ``{"key", "player", "options"}``:
the options of ``pillage`` (the player's cities without a metropolis) and of ``defender_decks`` (the
three decks) are those of any roll with the same knights fighting; which put-backs are asked and their
options follow from the draws before them. ``admits`` is exact: it resolves the roll at the position
(the range is ``positional``); ``sample`` varies the example's ``pillage`` choices, which nothing after
them reads.

The cost is bounded: at most :data:`WALK` resolutions for the seeded roll's choices, one per Alchemist
pair, and one path of first options per range example; then each listed roll and example is judged once
more by the legal-action list.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ...core import Action, Ctx
from ...legal.listing import per_listing
from ...module import RangeKind
from ...state import State
from . import store
from .store import ck
from .turn import NeedChoice, roll_outcome

#: The most resolutions spent finding every combination of the seeded roll's choices (the roll itself
#: included): beyond it the roll is given as a range.
WALK = 64
#: The Alchemist's dice, in listing order (CK-PROG-S1: any red and any yellow value).
ALCHEMIST_PAIRS = tuple((r, y) for r in range(1, 7) for y in range(1, 7))
#: A roll asks at most one choice per player and key; beyond this many a path of first options stops.
_MAX_ASKS = 16


def _asked(state: State, graph: Any, scen: Any, a: Action) -> Optional[NeedChoice]:
    """The first choice the roll asks and does not carry (resolved on a copy), or None when it resolves."""
    return roll_outcome(Ctx(state, a, graph, scen))


def _with(params: dict, e: NeedChoice, opt: Any) -> dict:
    more = dict(params)
    more[e.key] = {**(params.get(e.key) or {}), str(e.player): opt}
    return more


def _walk(state: State, graph: Any, scen: Any, p: int, params: dict, budget: list) -> Optional[list[Action]]:
    """Every roll of ``params`` with each combination of the choices it asks, depth first in the order of
    the options; None when that takes more resolutions than ``budget[0]`` left."""
    if budget[0] <= 0:
        return None
    budget[0] -= 1
    a = Action("roll", p, dict(params))
    e = _asked(state, graph, scen, a)
    if e is None:
        return [a]
    out: list[Action] = []
    for opt in e.options:
        got = _walk(state, graph, scen, p, _with(params, e, opt), budget)
        if got is None:
            return None
        out += got
    return out


def _first_path(state: State, graph: Any, scen: Any, p: int, params: dict) -> tuple[Action, list[dict]]:
    """The roll taking the first option of each choice asked, and the choices asked on the way."""
    asks: list[dict] = []
    for _ in range(_MAX_ASKS):
        a = Action("roll", p, dict(params))
        e = _asked(state, graph, scen, a)
        if e is None:
            return a, asks
        asks.append({"key": e.key, "player": e.player, "options": list(e.options)})
        params = _with(params, e, e.options[0])
    raise AssertionError("a roll asks at most one choice per player and key")


class _Plan:
    """What one position's roll list is made of: the listed rolls and the ranges' bases."""
    __slots__ = ("listed", "seeded_range", "seeded_listed", "seeded_example", "seeded_asks", "alchemist_pairs")

    def __init__(self) -> None:
        self.listed: list[Action] = []
        self.seeded_range = False
        #: The seeded roll's choices are listed (their walk fitted in WALK): with CK-VAR-MEANIES those
        #: listed rolls are the range's rolls sending every knight (see :func:`count`).
        self.seeded_listed = False
        self.seeded_example: Optional[Action] = None
        self.seeded_asks: list[dict] = []
        self.alchemist_pairs: list[tuple[int, int]] = []


def _meanies(state: State) -> bool:
    return bool(state.options.get("CK-VAR-MEANIES"))


def plan(state: State, graph: Any, scen: Any, p: int) -> _Plan:
    """The listed rolls of ``p`` and which rolls go to ranges (see the module's doc)."""
    out = _Plan()
    meanies = _meanies(state)
    seeded = {"dice": None}
    got = _walk(state, graph, scen, p, seeded, [WALK])
    if got is None:
        out.seeded_range = True
    else:
        out.listed += got
        out.seeded_listed = True
    if meanies or out.seeded_range:
        out.seeded_range = True
        out.seeded_example, out.seeded_asks = _first_path(state, graph, scen, p, dict(seeded))
    if store.hand_of(state, p).get("alchemist", 0) > 0:
        for r, y in ALCHEMIST_PAIRS:                         # CK-PROG-S1: every pair (the red die: CK-PROG-2)
            a = Action("roll", p, {"dice": [r, y], "alchemist": True})
            if _asked(state, graph, scen, a) is None:
                out.listed.append(a)
                if meanies:
                    out.alchemist_pairs.append((r, y))
            else:
                out.alchemist_pairs.append((r, y))
    return out


def _plan_of(state: State, graph: Any, scen: Any, p: int) -> _Plan:
    """The plan of the position: computed by the candidates, kept for the ranges of the same list
    (``legal.listing.per_listing``: one call of ``legal_actions`` asks both of the same state object)."""
    return per_listing(("cities_and_knights.roll_plan", p), lambda: plan(state, graph, scen, p), state, graph, scen)


def _rolls_now(state: State, p: int) -> bool:
    return state.phase == "roll" and p == state.current_player and store.KEY in state.scenario_state


def roll_candidates(state: State, graph: Any, scen: Any, p: int) -> Iterable[Action]:
    """The listed rolls (each judged again by the legal-action list)."""
    if not _rolls_now(state, p):
        return []
    return list(_plan_of(state, graph, scen, p).listed)


def _fighting(state: State) -> dict[str, list]:
    """CK-VAR-MEANIES: per player the active knights they may send."""
    out: dict[str, list] = {str(q): [] for q in range(state.num_players)}
    for k in ck(state)["knights"]:
        if k["active"]:
            out[str(k["player"])].append(list(k["node"]))
    return {q: sorted(ns) for q, ns in out.items()}


def specs(state: State, graph: Any, scen: Any, p: int) -> Iterable[tuple[dict, Action]]:
    if not _rolls_now(state, p):
        return
    pl = _plan_of(state, graph, scen, p)
    extra = {"fighting": _fighting(state)} if _meanies(state) else {}
    if pl.seeded_range:
        yield {"alchemist": False, "dice": None, **extra, "asks": pl.seeded_asks}, pl.seeded_example
    if pl.alchemist_pairs:
        r, y = pl.alchemist_pairs[0]
        ex, asks = _first_path(state, graph, scen, p, {"dice": [r, y], "alchemist": True})
        yield ({"alchemist": True, "dice": [list(d) for d in pl.alchemist_pairs], **extra, "asks": asks}, ex)


def admits(spec: dict, action: Action, state: State, graph: Any, scen: Any) -> bool:
    """Exact: the roll's base is the range's, and it resolves at the position with the choices it carries
    (the same judgement as ``adjudicate``)."""
    if action.type != "roll" or action.player != spec["player"] or action.get("event") is not None:
        return False
    if bool(action.get("alchemist")) != spec["alchemist"]:
        return False
    dice = action.get("dice")
    if spec["dice"] is None:
        if dice is not None:
            return False
    else:
        try:
            if dice is None or [int(x) for x in dice] not in spec["dice"]:
                return False
        except (TypeError, ValueError):
            return False
    from ...legal.common import is_legal
    return is_legal(state, action, graph, scen)


def sample(spec: dict, rng: Any) -> Action:
    """The example with its ``pillage`` choices drawn again among the options asked (CK-BARB-4: each
    losing player's city is theirs alone to choose; nothing after the attack reads it)."""
    ex = spec["example"]
    params = {k: v for k, v in ex.items() if k not in ("type", "player")}
    for ask in spec["asks"]:
        if ask["key"] == "pillage":
            opts = ask["options"]
            params["pillage"] = {**params["pillage"], str(ask["player"]): opts[rng.below(len(opts))]}
    return Action("roll", ex["player"], params)


# -- counting the rolls of a range (a perft count, ``engine/perft.py``) ------------------------------------
#
# A range's members are its distinct rolls: per base (the seeded dice, or one Alchemist pair of ``dice``),
# each combination of the choices its resolution asks, and with CK-VAR-MEANIES each choice of knights sent:
# per player a set of their active knights (the order named and a player left out sending all are the
# same choice: the member names every player, knights sorted). Rolls the list gives one by one are not
# members again: with CK-VAR-MEANIES the rolls sending every knight of a base whose rolls are listed.
#
# Counted, not enumerated: the knights sent decide a roll's choices only through the attack's outcome
# (who loses a city, who ties as defender: ``barbarians.outcome``), so the choices of knights are counted
# per player by strength (subsets of their knights by the strength they add) and the choices after them
# counted once per distinct outcome; the cities lost multiply (CK-BARB-4: each loser's alone, nothing
# after it reads it), and the decks and put-backs, which change the seeded draws after them (CK-BARB-6,
# CK-PROG-5/6), are followed one by one.

def _choices(state: State, graph: Any, scen: Any, p: int, params: dict) -> int:
    """The number of rolls of ``params`` with each combination of the choices their resolution asks."""
    e = _asked(state, graph, scen, Action("roll", p, dict(params)))
    if e is None:
        return 1
    if e.key == "pillage":                 # CK-BARB-4: the same choices follow whichever city is lost
        return len(e.options) * _choices(state, graph, scen, p, _with(params, e, e.options[0]))
    return sum(_choices(state, graph, scen, p, _with(params, e, o)) for o in e.options)


def _choice_rolls(state: State, graph: Any, scen: Any, p: int, params: dict) -> Iterable[Action]:
    """Each roll of ``params`` with a combination of the choices it asks, once."""
    a = Action("roll", p, dict(params))
    e = _asked(state, graph, scen, a)
    if e is None:
        yield a
        return
    for o in e.options:
        yield from _choice_rolls(state, graph, scen, p, _with(params, e, o))


def _bases(spec: dict) -> list[dict]:
    if spec["dice"] is None:
        return [{"dice": None}]
    return [{"dice": list(d), "alchemist": True} for d in spec["dice"]]


def _base_listed(state: State, graph: Any, scen: Any, p: int, base: dict) -> bool:
    """Whether the list gives ``base``'s rolls sending every knight one by one (CK-VAR-MEANIES)."""
    if base.get("alchemist"):
        return _asked(state, graph, scen, Action("roll", p, dict(base))) is None
    return _plan_of(state, graph, scen, p).seeded_listed


def _knights(state: State, scen: Any) -> dict[str, list[tuple[list, int]]]:
    """CK-VAR-MEANIES: per player their active knights, sorted, each with the strength it adds when sent
    (its level, or 0 for a knight the scenario does not let meet the barbarians)."""
    out: dict[str, list[tuple[list, int]]] = {str(q): [] for q in range(state.num_players)}
    for k in ck(state)["knights"]:
        if k["active"]:
            out[str(k["player"])].append((list(k["node"]), k["level"] if scen.knight_defends(state, k) else 0))
    return {q: sorted(ks, key=lambda x: x[0]) for q, ks in out.items()}


def _by_strength(knights: list[tuple[list, int]]) -> dict[int, tuple[int, list]]:
    """Per strength added: (the number of sets of these knights adding it, one such set)."""
    ways: dict[int, tuple[int, list]] = {0: (1, [])}
    for node, level in knights:
        nxt = dict(ways)                                   # the sets without this knight
        for s_, (n, pick) in ways.items():                 # and with it
            t = s_ + level
            if t in nxt:
                nxt[t] = (nxt[t][0] + n, nxt[t][1])
            else:
                nxt[t] = (n, pick + [node])
        ways = nxt
    return ways


def _attacks(state: State, graph: Any, scen: Any, p: int, base: dict) -> bool:
    """Whether ``base``'s roll meets the barbarians (the event die and the ship, not the knights)."""
    from .turn import resolve_roll
    ctx = Ctx(state, Action("roll", p, dict(base)), graph, scen)
    try:
        resolve_roll(ctx, state.copy())
    except NeedChoice:
        pass
    return any(e.get("type") == "barbarian_attack" for e in ctx.events)


def _meanies_count(state: State, graph: Any, scen: Any, p: int, base: dict) -> int:
    from itertools import product
    from .barbarians import outcome
    knights = _knights(state, scen)
    players = sorted(knights, key=int)
    every = {q: sorted(n for n, _ in knights[q]) for q in players}
    total = 0
    if not _attacks(state, graph, scen, p, base):
        sets = 1
        for q in players:
            sets *= 2 ** len(knights[q])
        total = sets * _choices(state, graph, scen, p, {**base, "fighting": every})
    else:
        per = [_by_strength(knights[q]) for q in players]
        by_outcome: dict[tuple, int] = {}
        for combo in product(*[sorted(w.items()) for w in per]):
            sets, fighting = 1, {}
            for q, (_, (n, pick)) in zip(players, combo):
                sets *= n
                fighting[q] = sorted(pick)
            o = outcome(state, fighting, scen)
            key = (o["catan_wins"], tuple(o["lose_city"]), o["defender"], tuple(o["tied_defenders"]))
            n_choices = by_outcome.get(key)
            if n_choices is None:
                n_choices = by_outcome[key] = _choices(state, graph, scen, p, {**base, "fighting": fighting})
            total += sets * n_choices
    if _base_listed(state, graph, scen, p, base):
        total -= _choices(state, graph, scen, p, {**base, "fighting": every})
    return total


def count(spec: dict, state: State, graph: Any, scen: Any) -> int:
    """The exact number of rolls inside ``spec`` at the position (see above)."""
    p = spec["player"]
    if "fighting" not in spec:
        return sum(_choices(state, graph, scen, p, base) for base in _bases(spec))
    return sum(_meanies_count(state, graph, scen, p, base) for base in _bases(spec))


def members(spec: dict, state: State, graph: Any, scen: Any) -> Iterable[Action]:
    """Each roll inside ``spec`` once (the knights sent named for every player, sorted)."""
    from itertools import combinations, product
    p = spec["player"]
    for base in _bases(spec):
        if "fighting" not in spec:
            yield from _choice_rolls(state, graph, scen, p, base)
            continue
        knights = _knights(state, scen)
        players = sorted(knights, key=int)
        every = {q: sorted(n for n, _ in knights[q]) for q in players}
        skip_all = _base_listed(state, graph, scen, p, base)
        per = [[sorted(c) for k in range(len(every[q]) + 1) for c in combinations(every[q], k)] for q in players]
        for combo in product(*per):
            fighting = dict(zip(players, combo))
            if skip_all and fighting == every:
                continue
            yield from _choice_rolls(state, graph, scen, p, {**base, "fighting": fighting})


RANGES = RangeKind(specs, admits, sample, positional=True, count=count, members=members)

__all__ = ["RANGES", "WALK", "ALCHEMIST_PAIRS", "plan", "roll_candidates", "specs", "admits", "sample", "count",
           "members"]
