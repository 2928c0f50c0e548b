"""Perft: the number of legal action sequences of a given depth from a position, split by first action.

What is counted (``docs/perft.md`` states it for users):

- The actions of a position are those of its legal-action list (``legal.legal_actions`` for the player
  it names first: the player owing a discard, the next gold picker, else the current player), each
  listed action once, and each range by the exact number of actions inside it
  (``legal.counting.range_count``: counted, not enumerated). So ``perft(1)`` is the size of the list,
  ranges counted.
- An action whose result depends on chance (dice, a stolen or drawn card, a revealed hex, any draw the
  engine makes from the seeded generator) is followed down every outcome it can have: the draws are
  forced one by one through every value (``rng.FORCED``), and the outcomes giving the same position
  (the generator's counter aside) are one branch. Decision D-perft-chance: a sequence of depth ``n`` is
  ``n`` actions with the outcome of each action but the last; the last action counts once whatever its
  outcome, as it counts once in the list. Hence ``perft(1)`` equals the list's size, and ``perft(2)``
  from a position before the roll is the sum, over the roll's distinct outcomes, of the sizes of the
  lists after them.
  When the choices an action carries are made after its own draws (``Scenario.chance_base``: SC11/TDE3's
  mainland token sources after a blind draw from the reserve), the family of actions sharing its base is
  followed under every draw with the choices that draw allows (``family_outcomes``), as at the table the
  choice follows the outcome; ``perft(1)`` stays the list's size.
- Positions reached by different orders (set-up placements that commute, trades undone) are counted
  once per depth left and their count reused (a transposition table keyed by the whole position; a
  position with one action to go is not kept: its list costs less than its key).

>>> from service.engine.scenarios import get_scenario
>>> from service.engine.mapgraph import MapGraph
>>> scen = get_scenario("base")
>>> state = scen.new_game(3, seed=7)
>>> graph = MapGraph.build(state.terrain_map())
>>> perft(state, graph, scen, 1).count, perft(state, graph, scen, 2).count
(54, 144)
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field, fields, is_dataclass
from hashlib import blake2b
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional

from .core import Action, Ctx
from .legal import action_json, legal_actions
from .legal.common import handler_for
from .legal.counting import range_count, range_members
from .mapgraph import MapGraph
from .referee import settle
from .rng import FORCED, Rng
from .state import State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

#: The most ways of drawing an action's outcomes walked (its draws forced through every value); an
#: action drawing more (a long shuffle) is not counted: :class:`Uncountable`.
MAX_DRAW_PATHS = 4096
#: Positions kept in the transposition table of one count (cleared when full): each is kept as a 128-bit
#: digest of its whole key, so the table holds about 100 bytes a position.
MAX_TABLE = 500_000


class Uncountable(ValueError):
    """The count cannot be made exactly: a range whose kind does not say how many actions it holds, or an
    action with more ways of drawing its outcome than :data:`MAX_DRAW_PATHS`. ``where`` names the part of
    the position (a JSON pointer below the state) or the action."""

    def __init__(self, message: str, where: str = "/state") -> None:
        super().__init__(message)
        self.where = where


@dataclass
class Work:
    """What a count did: legal-action lists made, actions applied (each outcome once), table hits."""
    lists: int = 0
    applies: int = 0
    transpositions: int = 0


@dataclass
class Perft:
    depth: int
    count: int
    #: With ``divide``: per first action (listed, or a whole range) its count; with chance outcomes and
    #: depth 2 or more, per outcome too.
    divide: Optional[list[dict[str, Any]]] = None
    work: Work = field(default_factory=Work)


# -- positions as keys ---------------------------------------------------------------------------------

_FIELDS: dict[type, tuple[str, ...]] = {}
_BOARDS: dict[int, tuple[Any, Any]] = {}


def _freeze(v: Any) -> Any:
    t = type(v)
    if t is int or t is str or t is bool or t is float or v is None:
        return v
    if t is dict:
        items = [(k, _freeze(x)) for k, x in v.items()]
        try:
            items.sort()
        except TypeError:
            items.sort(key=repr)
        return ("{", tuple(items))
    if t is list or t is tuple:
        return tuple(_freeze(x) for x in v)
    if is_dataclass(v):
        names = _FIELDS.get(t)
        if names is None:
            names = _FIELDS[t] = tuple(f.name for f in fields(v))
        return tuple(_freeze(getattr(v, n)) for n in names)
    if isinstance(v, tuple):                    # a named tuple (a tile)
        return tuple(_freeze(x) for x in v)
    return repr(v)


def _board(d: dict) -> Any:
    """The key of a board dict (hexes, harbours), a digest of all of it: shared between positions, so
    kept by identity."""
    hit = _BOARDS.get(id(d))
    if hit is not None and hit[0] is d:
        return hit[1]
    if len(_BOARDS) > 256:
        _BOARDS.clear()
    key = blake2b(repr(_freeze(d)).encode(), digest_size=16).digest()
    _BOARDS[id(d)] = (d, key)
    return key


_SKIP = ("hexes", "harbors", "rng_counter")


def position_key(state: State, counter: bool = True) -> tuple:
    """Everything of a position, as a hashable value; with ``counter`` False the generator's counter is
    left out (outcomes of one action differing only in how many draws they took are one)."""
    names = _FIELDS.get(State)
    if names is None:
        names = _FIELDS[State] = tuple(f.name for f in fields(State) if f.name not in _SKIP)
    return (_board(state.hexes), _board(state.harbors), state.rng_counter if counter else None,
            *[_freeze(getattr(state, n)) for n in names])


# -- chance --------------------------------------------------------------------------------------------

class _Draws:
    """The forced values of one walk: the ``prefix`` given, then 0; records how many values each draw had."""

    __slots__ = ("prefix", "arity")

    def __init__(self, prefix: tuple[int, ...]) -> None:
        self.prefix, self.arity = prefix, []

    def draw(self, n: int) -> int:
        i = len(self.arity)
        self.arity.append(n)
        return self.prefix[i] if i < len(self.prefix) else 0


@dataclass
class Outcome:
    state: State
    graph: MapGraph
    events: list[dict]


@contextmanager
def _forcing(draws: "_Draws") -> Iterator["_Draws"]:
    """The seeded draws made inside forced to ``draws`` (``rng.FORCED``)."""
    token = FORCED.set(draws)
    try:
        yield draws
    finally:
        FORCED.reset(token)


def _draw_paths(what: str) -> Iterator[tuple[tuple[int, ...], Callable[[tuple[int, ...]], None]]]:
    """The ways of drawing ``what``'s outcome, walked depth first: yields ``(prefix, push)`` per way (``push``
    adds a way still to walk), at most :data:`MAX_DRAW_PATHS` (past it, :class:`Uncountable`)."""
    stack: list[tuple[int, ...]] = [()]
    walked = 0
    while stack:
        prefix = stack.pop()
        walked += 1
        if walked > MAX_DRAW_PATHS:
            raise Uncountable(f"{what} draws its outcome in more than {MAX_DRAW_PATHS} ways; "
                              "perft does not count past it", "/state")
        yield prefix, stack.append


def _push_siblings(draws: "_Draws", prefix: tuple[int, ...], push: Callable[[tuple[int, ...]], None]) -> tuple[int, ...]:
    """The draws taken along ``prefix`` (first values past it), each other value of every draw past the
    prefix pushed as a way still to walk."""
    chosen = prefix + (0,) * (len(draws.arity) - len(prefix))
    for j in range(len(draws.arity) - 1, len(prefix) - 1, -1):
        for k in range(draws.arity[j] - 1, 0, -1):
            push(chosen[:j] + (k,))
    return chosen


def outcomes(state: State, action: Action, graph: MapGraph, scenario: "Scenario") -> list[Outcome]:
    """Every distinct position ``action`` (legal in ``state``) can lead to: one for an action drawing
    nothing, else one per distinct result of forcing its draws through every value (first found first)."""
    h = handler_for(scenario, action.type)
    found: dict[tuple, Outcome] = {}
    for prefix, push in _draw_paths(action.type):
        with _forcing(_Draws(prefix)) as draws:
            ctx = Ctx(state, action, graph, scenario)
            s, g, _ = settle(ctx, h, graph)
        out = Outcome(s, g, ctx.events)
        if not draws.arity:                     # no chance: the one outcome
            return [out]
        found.setdefault(position_key(s, counter=False), out)
        _push_siblings(draws, prefix, push)
    return list(found.values())


def family_outcomes(state: State, base: Action, graph: MapGraph, scenario: "Scenario") -> list[tuple[Action, list[Outcome]]]:
    """The family of ``base`` (``Scenario.chance_base``: actions whose choices follow the action's own draws),
    each member with every distinct position it leads to: the draws are forced through every value (as
    :func:`outcomes` does for one action), and under each the family is the one the list would give for
    those draws, each member judged and applied with them. A member legal under no draw is left out; one
    legal under draws the position's generator would not make is in (D-perft-chance)."""
    from .referee import check_action
    h = handler_for(scenario, base.type)
    found: dict[str, tuple[Action, dict[tuple, Outcome]]] = {}
    for prefix, push in _draw_paths(base.type):
        with _forcing(_Draws(prefix)) as draws:
            settle(Ctx(state, base, graph, scenario), h, graph)
        chosen = _push_siblings(draws, prefix, push)
        with _forcing(_Draws(chosen)):
            family = scenario.chance_family(state, graph, base)
        for m in family:
            hm = handler_for(scenario, m.type)
            with _forcing(_Draws(chosen)):              # judged with the draws it will meet,
                bad = check_action(Ctx(state, m, graph, scenario), hm)
            if bad:
                continue
            with _forcing(_Draws(chosen)):              # then applied with the same draws
                ctx = Ctx(state, m, graph, scenario)
                s2, g2, _ = settle(ctx, hm, graph)
            key = repr(sorted(action_json(m).items()))
            entry = found.setdefault(key, (m, {}))
            entry[1].setdefault(position_key(s2, counter=False), Outcome(s2, g2, ctx.events))
    return [(m, list(outs.values())) for m, outs in found.values()]


# -- the count -----------------------------------------------------------------------------------------

def _moves(la, state: State, graph: MapGraph, scenario: "Scenario") -> Iterator[tuple[Optional[dict], Action]]:
    """Each action of a list: the listed ones, then each range's members (with its spec)."""
    for t in sorted(la.actions):
        for a in la.actions[t]:
            yield None, a
    for t in sorted(la.ranges):
        for spec in la.ranges[t]:
            members = range_members(spec, state, graph, scenario)
            if members is None:
                raise Uncountable(f"perft cannot go past a range of {t}: its kind does not list its members")
            for a in members:
                yield spec, a


def _branches(la, state: State, graph: MapGraph, scenario: "Scenario",
              outs: Callable[[Action], list[Outcome]],
              work: Optional[Work] = None) -> Iterator[tuple[Optional[dict], Action, list[Outcome]]]:
    """Each first action of a list with its outcomes: the listed ones and each range's members, and for a
    family whose choices follow its own draws (``Scenario.chance_base``) each member of it under every draw
    (those the list gives for the position's own draws, and the others), the family once, where its first
    member is listed."""
    bases: set[str] = set()
    for spec, a in _moves(la, state, graph, scenario):
        base = scenario.chance_base(state, graph, a) if spec is None else None
        if base is None:
            yield spec, a, outs(a)
            continue
        key = repr(sorted(action_json(base).items()))
        if key in bases:
            continue
        bases.add(key)
        for m, o in family_outcomes(state, base, graph, scenario):
            if work is not None:
                work.applies += len(o)
            yield None, m, o


def list_size(la, state: Optional[State] = None, graph: Optional[MapGraph] = None,
              scenario: Optional["Scenario"] = None) -> int:
    """The number of actions a legal-action list describes: each listed one, each range by its count (a
    positional range, C&K's roll, at the list's position, given)."""
    n = la.count
    for t, specs in la.ranges.items():
        for spec in specs:
            c = range_count(spec, state, graph, scenario)
            if c is None:
                raise Uncountable(f"perft cannot count a range of {t}: its kind does not say how many "
                                  "actions it holds")
            n += c
    return n


class _Counter:
    def __init__(self, scenario: "Scenario", tick: Optional[Callable[[], None]], table: bool = True) -> None:
        self.scenario, self.tick, self.use_table = scenario, tick, table
        self.table: dict[tuple, int] = {}
        self.work = Work()

    def count(self, state: State, graph: MapGraph, depth: int) -> int:
        key = None
        if depth >= 2 and self.use_table:          # a leaf's list costs less than its key
            key = (blake2b(repr(position_key(state)).encode(), digest_size=16).digest(), depth)
            hit = self.table.get(key)
            if hit is not None:
                self.work.transpositions += 1
                return hit
        n = self._count(state, graph, depth)
        if key is not None:
            if len(self.table) >= MAX_TABLE:
                self.table.clear()
            self.table[key] = n
        return n

    def _count(self, state: State, graph: MapGraph, depth: int) -> int:
        if depth == 0:
            return 1
        if self.tick is not None:
            self.tick()
        la = legal_actions(state, graph, self.scenario)
        self.work.lists += 1
        if depth == 1:
            return list_size(la, state, graph, self.scenario)
        total = 0
        for _, a, outs in _branches(la, state, graph, self.scenario, lambda a: self.outcomes(state, a, graph), self.work):
            for o in outs:
                total += self.count(o.state, o.graph, depth - 1)
        return total

    def outcomes(self, state: State, a: Action, graph: MapGraph) -> list[Outcome]:
        outs = outcomes(state, a, graph, self.scenario)
        self.work.applies += len(outs)
        return outs


def perft(state: State, graph: MapGraph, scenario: "Scenario", depth: int, divide: bool = False,
          tick: Optional[Callable[[], None]] = None, transpositions: bool = True) -> Perft:
    """The number of legal action sequences of ``depth`` from ``state`` (see the module's docstring);
    with ``divide``, split by first action. ``tick`` is called once per list made (the service passes
    the request budget's check); ``transpositions`` False counts every position reached however often
    (the reference the table is tested against). The posted state is never changed."""
    if depth < 0:
        raise ValueError("depth must be at least 0")
    c = _Counter(scenario, tick, transpositions)
    if not divide or depth == 0:
        return Perft(depth, c.count(state, graph, depth), None, c.work)
    la = legal_actions(state, graph, scenario)
    c.work.lists += 1
    rows: list[dict[str, Any]] = []
    bases: set[str] = set()
    for t in sorted(la.actions):
        for a in la.actions[t]:
            base = scenario.chance_base(state, graph, a) if depth > 1 else None
            if base is not None:            # a family whose choices follow its draws: every member, once
                key = repr(sorted(action_json(base).items()))
                if key in bases:
                    continue
                bases.add(key)
                listed = {repr(sorted(action_json(x).items())) for x in la.actions[t]}
                for m, outs in family_outcomes(state, base, graph, scenario):
                    c.work.applies += len(outs)
                    rows.append(_row(c, m, outs, depth, repr(sorted(action_json(m).items())) in listed))
                continue
            if depth == 1:
                rows.append({"action": action_json(a), "count": 1})
            else:
                rows.append(_row(c, a, c.outcomes(state, a, graph), depth, True))
    for t in sorted(la.ranges):
        for spec in la.ranges[t]:
            row = {"range": spec}
            if depth == 1:
                n = range_count(spec, state, graph, scenario)
                if n is None:
                    raise Uncountable(f"perft cannot count a range of {t}: its kind does not say how many "
                                      "actions it holds")
                row["count"] = n
            else:
                members = range_members(spec, state, graph, scenario)
                if members is None:
                    raise Uncountable(f"perft cannot go past a range of {t}: its kind does not list its members")
                n = 0
                for a in members:
                    for o in c.outcomes(state, a, graph):
                        n += c.count(o.state, o.graph, depth - 1)
                row["count"] = n
            rows.append(row)
    return Perft(depth, sum(r["count"] for r in rows), rows, c.work)


def _row(c: _Counter, a: Action, outs: list[Outcome], depth: int, listed: bool) -> dict[str, Any]:
    """The divide row of a first action: its count over its outcomes (and per outcome when several);
    ``listed`` False marks a member of a family the list does not give for the position's own draws."""
    counts = [c.count(o.state, o.graph, depth - 1) for o in outs]
    row: dict[str, Any] = {"action": action_json(a), "count": sum(counts)}
    if not listed:
        row["listed"] = False
    if len(outs) > 1:
        row["outcomes"] = _outcome_rows(outs, counts)
    return row


def _outcome_rows(outs: list[Outcome], counts: list[int]) -> list[dict[str, Any]]:
    """Per outcome its count, named by the events that tell it from the other outcomes."""
    keyed = [[repr(sorted(e.items())) for e in o.events] for o in outs]
    common = set(keyed[0]).intersection(*keyed[1:])
    return [{"events": [e for e, k in zip(o.events, ks) if k not in common], "count": n}
            for o, ks, n in zip(outs, keyed, counts)]


# -- the work a count would take, before it starts ----------------------------------------------------

@dataclass
class Estimate:
    """Per depth ``d`` (index ``d - 1``): the positions whose list a count of that depth makes and the
    actions it applies, estimated by random descents (Knuth's estimator: the product of the branching
    met on a random path), and the seconds that work would take at the pace the descents had."""
    lists: list[float]
    applies: list[float]
    seconds: list[float]

    def deepest_within(self, seconds: float) -> int:
        """The largest depth whose estimate fits in ``seconds`` (at least 1: one list is always made)."""
        best = 1
        for d, s in enumerate(self.seconds, start=1):
            if s <= seconds:
                best = d
        return best


def estimate(state: State, graph: MapGraph, scenario: "Scenario", depth: int, clock: Callable[[], float],
             probes: int = 6, seed: int = 0x5EAF) -> Estimate:
    """The work of counting to each depth up to ``depth``, from ``probes`` random descents of ``depth - 1``
    actions (seeded: the same position gives the same estimate). Each step of a descent makes the list,
    picks an action uniformly among those it describes (a range's member as the range's example) and an
    outcome uniformly among the action's."""
    rng = Rng(seed, 0)
    per_list: list[float] = []
    per_apply: list[float] = []
    level = [0.0] * (depth + 1)             # positions at each level, summed over the probes
    for _ in range(probes):
        s, g, weight = state, graph, 1.0
        for lv in range(depth):
            level[lv] += weight
            if lv == depth - 1:
                break
            t0 = clock()
            la = legal_actions(s, g, scenario)
            per_list.append(clock() - t0)
            size = list_size(la, s, g, scenario)
            if not size:
                break
            a = _pick(la, rng.below(size), s, g, scenario)
            t0 = clock()
            outs = outcomes(s, a, g, scenario)
            o = outs[rng.below(len(outs))]
            position_key(o.state)               # what the count does with each position it reaches
            per_apply.append((clock() - t0) / len(outs))
            weight *= size * len(outs)
            s, g = o.state, o.graph
    nodes = [x / probes for x in level]
    t_list = (sum(per_list) / len(per_list)) if per_list else 0.0
    t_apply = (sum(per_apply) / len(per_apply)) if per_apply else 0.0
    lists, applies, seconds = [], [], []
    for d in range(1, depth + 1):
        ls = sum(nodes[:d])                 # the positions of levels 0..d-1 make a list
        ap = sum(nodes[1:d])                # the positions of levels 1..d-1 are reached by an apply
        lists.append(ls)
        applies.append(ap)
        seconds.append(ls * t_list + ap * t_apply)
    return Estimate(lists, applies, seconds)


def _pick(la, i: int, state: State, graph: MapGraph, scenario: "Scenario") -> Action:
    """The ``i``-th action a list describes (listed ones in type order, then each range's members, each
    member of a range taken as its example)."""
    for t in sorted(la.actions):
        acts = la.actions[t]
        if i < len(acts):
            return acts[i]
        i -= len(acts)
    for t in sorted(la.ranges):
        for spec in la.ranges[t]:
            n = range_count(spec, state, graph, scenario) or 0
            if i < n:                       # the range's checked example stands for its members (a
                ex = spec["example"]        # range may hold millions: not walked to the i-th)
                return Action(ex["type"], ex["player"], {k: v for k, v in ex.items() if k not in ("type", "player")})
            i -= n
    raise IndexError("no such action")

