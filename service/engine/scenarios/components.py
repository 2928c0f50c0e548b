"""Component tables: what a scenario's map is made of, and the explicit check of a board against them.

A scenario class states its tables per player count in ``component_tables`` (R-001: the counts are the
only faithful information left of the missing maps)::

    component_tables = {
        4: {"hexes": {"sea": 10, "forest": 5, ...},      # tiles only, never frame (R-102)
            "tokens": {2: 1, 3: 2, ...},                  # number tokens on the tiles
            "harbors": {"3:1": 4, "brick": 1, ...},       # harbour tokens: "3:1" or the 2:1 resource
            "hidden": {"hexes": {...}, "tokens": {...}}}, # optional: the face-down piles (R-005)
    }

``hidden`` describes hexes that start face down in a pile and are laid on the board's ``unknown``
spaces during play (Oceans row 2, R-005). A board mid-game is checked as *board plus piles*: a revealed
hex has moved from the pile onto the board, so ``tiles + pile`` always equals ``hexes + hidden.hexes``,
``tokens on tiles + token pile`` equals ``tokens + hidden.tokens``, and the number of ``unknown``
spaces equals the hexes left in the pile.

The check is never a precondition for a verdict (R-001): it runs when the service generates a game and
when a client asks for it, and each mismatch names the scenario's component rule
(``Scenario.component_rule``, e.g. ``"SC01-007"``).

>>> from ..state import Tile
>>> hexes = {(0, 0): Tile("forest", 6), (1, 0): Tile("sea"), (2, 0): Tile("frame"), (3, 0): Tile("unknown")}
>>> count_components(hexes, {(0, 0, "E"): "3:1"}, {"hexes": ["hills"], "tokens": [5]})
{'hexes': {'forest': 1, 'hills': 1, 'sea': 1}, 'tokens': {5: 1, 6: 1}, 'harbors': {'3:1': 1}, 'unknown': 1, 'pile': 1}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping, Optional

from ..core import Violation
from ..geometry import hex_neighbours
from ..state import State, Tile

if TYPE_CHECKING:  # pragma: no cover
    from .base import Scenario

#: Tile terrains a component table counts, in the order of the rulebook's tables.
TILE_TERRAINS = ("sea", "desert", "gold", "fields", "hills", "mountains", "pasture", "forest")
#: Number-token values, in table order.
TOKEN_VALUES = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
#: Harbour kinds: the generic 3:1 and one 2:1 per resource.
HARBOR_KINDS = ("3:1", "brick", "lumber", "wool", "grain", "ore")
#: The five special 2:1 harbours of a Seafarers scenario, one per resource.
SPECIAL_HARBORS = {"brick": 1, "lumber": 1, "wool": 1, "grain": 1, "ore": 1}


def counts(values: Iterable[Any]) -> dict[Any, int]:
    """A multiset as a dict, keys sorted.

    >>> counts(["sea", "gold", "sea"])
    {'gold': 1, 'sea': 2}
    """
    out: dict[Any, int] = {}
    for v in values:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items(), key=lambda kv: str(kv[0]) if not isinstance(kv[0], int) else f"{kv[0]:03d}"))


def hex_row(sea=0, desert=0, gold=0, fields=0, hills=0, mountains=0, pasture=0, forest=0) -> dict[str, int]:
    """A hex table row in the rulebook's column order (zeros dropped).

    >>> hex_row(10, 0, 2, 1, 1, 2, 1, 1)
    {'sea': 10, 'gold': 2, 'fields': 1, 'hills': 1, 'mountains': 2, 'pasture': 1, 'forest': 1}
    """
    row = dict(zip(TILE_TERRAINS, (sea, desert, gold, fields, hills, mountains, pasture, forest)))
    return {k: v for k, v in row.items() if v}


def token_row(*amounts: int) -> dict[int, int]:
    """A number-token table row: the amounts for 2, 3, 4, 5, 6, 8, 9, 10, 11, 12 (zeros dropped).

    >>> token_row(1, 1, 1, 1, 0, 1, 1, 1, 1, 0)
    {2: 1, 3: 1, 4: 1, 5: 1, 8: 1, 9: 1, 10: 1, 11: 1}
    """
    if len(amounts) != len(TOKEN_VALUES):
        raise ValueError(f"a token row has {len(TOKEN_VALUES)} amounts (2..12 without 7)")
    return {v: n for v, n in zip(TOKEN_VALUES, amounts) if n}


def harbor_row(special: int, generic: int) -> dict[str, int]:
    """Harbour tokens: ``special`` 2:1 (one per resource, in brick, lumber, wool, grain, ore order,
    repeating) and ``generic`` 3:1.

    >>> harbor_row(5, 4)
    {'3:1': 4, 'brick': 1, 'lumber': 1, 'wool': 1, 'grain': 1, 'ore': 1}
    """
    out = {"3:1": generic} if generic else {}
    for i in range(special):
        r = HARBOR_KINDS[1 + i % 5]
        out[r] = out.get(r, 0) + 1
    return out


def add(*tables: Mapping[Any, int]) -> dict[Any, int]:
    """The sum of several count tables (zeros dropped).

    >>> add({"sea": 1, "gold": 1}, {"sea": 2})
    {'sea': 3, 'gold': 1}
    """
    out: dict[Any, int] = {}
    for t in tables:
        for k, n in t.items():
            out[k] = out.get(k, 0) + n
    return {k: n for k, n in out.items() if n}


def as_list(table: Mapping[Any, int]) -> list:
    """A count table as a list of items (e.g. a pool to shuffle), in table order.

    >>> as_list({"sea": 2, "gold": 1})
    ['sea', 'sea', 'gold']
    """
    return [k for k, n in table.items() for _ in range(n)]


def count_components(board_hexes: Mapping[Any, Tile], harbors: Mapping[Any, str],
                     hidden_pile: Optional[Mapping[str, list]] = None) -> dict[str, Any]:
    """Count a board's components: tiles by terrain (never frame, never an ``unknown`` space), number
    tokens, harbours, the ``unknown`` spaces, plus the face-down piles ``{"hexes": [...], "tokens": [...]}``
    (their hexes and tokens are added to the totals; ``pile`` is the number of hexes left in it)."""
    pile_hexes = list((hidden_pile or {}).get("hexes") or [])
    pile_tokens = list((hidden_pile or {}).get("tokens") or [])
    tiles = [t for t in board_hexes.values() if t.terrain not in ("frame", "unknown")]
    return {
        "hexes": counts([t.terrain for t in tiles] + pile_hexes),
        "tokens": counts([t.number for t in tiles if t.number is not None] + [int(n) for n in pile_tokens]),
        "harbors": counts(list(harbors.values()) + list((hidden_pile or {}).get("harbors") or [])),
        "unknown": sum(1 for t in board_hexes.values() if t.terrain == "unknown"),
        "pile": len(pile_hexes),
    }


def expected_components(table: Mapping[str, Any]) -> dict[str, Any]:
    """What :func:`count_components` should give for a table (face-up plus hidden piles)."""
    hidden = table.get("hidden") or {}
    return {
        "hexes": add(table.get("hexes", {}), hidden.get("hexes", {})),
        "tokens": add(table.get("tokens", {}), hidden.get("tokens", {})),
        "harbors": add(table.get("harbors", {})),
    }


def _diff(what: str, have: Mapping[Any, int], want: Mapping[Any, int]) -> list[str]:
    out = []
    for k in sorted(set(have) | set(want), key=str):
        if have.get(k, 0) != want.get(k, 0):
            out.append(f"{what} {k}: the table has {want.get(k, 0)}, the board {have.get(k, 0)}")
    return out


def hidden_pile_of(state: State) -> dict[str, list]:
    """The face-down piles a scenario keeps in ``scenario_state`` (``hex_pile``, ``token_pile``, and
    ``harbor_pile``: harbour tokens not yet laid face up, R-020)."""
    ss = state.scenario_state or {}
    return {"hexes": list(ss.get("hex_pile") or []), "tokens": list(ss.get("token_pile") or []),
            "harbors": list(ss.get("harbor_pile") or [])}


def check_counts(table: Mapping[str, Any], found: Mapping[str, Any], rule: str) -> list[Violation]:
    """Compare counted components with a table; one violation per mismatching kind."""
    want = expected_components(table)
    out: list[Violation] = []
    for key, one, path in (("hexes", "hex", "/state/board/hexes"), ("tokens", "token", "/state/board/hexes"),
                           ("harbors", "harbor", "/state/board/harbors")):
        lines = _diff(one, found[key], want[key])
        if lines:
            out.append(Violation(rule, f"{key} do not match the component table: " + "; ".join(lines), path))
    hidden = table.get("hidden")
    if hidden is not None or found["unknown"] or found["pile"]:
        if found["unknown"] != found["pile"]:
            out.append(Violation(
                "R-005", f"{found['unknown']} unexplored spaces but {found['pile']} hexes in the pile: "
                "every unexplored space takes one pile hex", "/state/scenario_state/hex_pile"))
    return out


def adjacent_reds(hexes: Mapping[Any, Tile]) -> list[tuple[int, int]]:
    """BASE-COMP-8: the pairs of board positions (indices in ``hexes``' order, each pair once) whose hexes
    touch and both carry a red number (6 or 8)."""
    at = {h: i for i, h in enumerate(hexes)}
    out = []
    for h, t in hexes.items():
        if t.number in (6, 8):
            for m in hex_neighbours(h):
                u = hexes.get(m)
                if u is not None and u.number in (6, 8) and at[h] < at[m]:
                    out.append((at[h], at[m]))
    return out


def red_violations(scenario: "Scenario", state: State) -> list[Violation]:
    """BASE-COMP-8 where the scenario lays its board at random with the red numbers apart (the base game):
    one violation per pair of touching 6s and 8s, pointing at the first hex's number."""
    if not scenario.red_numbers_apart(state):
        return []
    keys = list(state.hexes)
    out = []
    for i, j in adjacent_reds(state.hexes):
        a, b = keys[i], keys[j]
        out.append(Violation("BASE-COMP-8", f"red numbers touch: {state.hexes[a].number} on {a[0]},{a[1]} and "
                             f"{state.hexes[b].number} on {b[0]},{b[1]}; a random layout keeps 6s and 8s apart",
                             f"/state/board/hexes/{i}/number"))
    return out


def check_components(scenario: "Scenario", num_players: int, state: State) -> list[Violation]:
    """The explicit component-table check of a board (R-001): ``[]`` when it matches the scenario's
    table for ``num_players``, else one violation per mismatching kind citing the scenario's
    ``component_rule``; and where the scenario lays its board at random with the red numbers apart, any
    6 or 8 touching another (BASE-COMP-8). A scenario without tables (a posted board) has no counts to
    check."""
    tables = getattr(scenario, "component_tables", None) or {}
    rule = getattr(scenario, "component_rule", None) or "R-001"
    reds = red_violations(scenario, state)
    if not tables:
        return reds
    table = tables.get(num_players)
    if table is None:
        return [Violation(rule, f"{scenario.name} has no component table for {num_players} players "
                                f"(it is played by {', '.join(map(str, sorted(tables)))})", "/num_players")]
    found = count_components(state.hexes, state.harbors, hidden_pile_of(state))
    return check_counts(table, found, rule) + reds


def describe_tables(tables: Mapping[int, Mapping[str, Any]]) -> dict[str, Any]:
    """Component tables as JSON (string keys)."""
    def js(t: Mapping[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in t.items():
            out[k] = js(v) if k == "hidden" else {str(a): b for a, b in v.items()}
        return out
    return {str(n): js(t) for n, t in sorted(tables.items())}


__all__ = ["TILE_TERRAINS", "TOKEN_VALUES", "HARBOR_KINDS", "SPECIAL_HARBORS", "hex_row", "token_row",
           "harbor_row", "add", "as_list", "counts", "count_components", "expected_components",
           "check_counts", "check_components", "adjacent_reds", "red_violations", "hidden_pile_of", "describe_tables"]
