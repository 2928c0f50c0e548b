"""Maps written as readable data, and the seeded placement of their random parts.

A scenario's map is a :class:`MapSpec`: rows of one-character cells drawn the way the board looks,
a legend, the random pools, token groups, harbour slots and the face-down piles. :func:`build_board`
turns it into a board with the game's seeded :class:`~service.engine.rng.Rng`; the frame (R-102) is
added around the tiles automatically.

Rows use *doubled* columns: every cell sits two characters from its neighbours in a row, and a row
below is shifted by one character, so the text has the shape of the board. Cell ``(column c, row i)``
is hex ``(q, r) = ((c - i - p) // 2, i)`` shifted by ``origin`` (``p`` the parity of the first cell:
a cell down-left of another is its SW neighbour); blanks and ``.`` are no hex at all.

>>> spec = MapSpec(rows=(
...     " s s s",
...     "s F W s",
...     " s s s"), legend={"F": "fields", "W": "forest"}, tokens={"*": {5: 1, 9: 1}},
...     harbors=(((1, 1), "E"),), harbor_kinds={"3:1": 1})
>>> board = build_board(spec, Rng(7, 0))
>>> sorted((h, t.terrain) for h, t in board["hexes"].items() if t.terrain not in ("sea", "frame"))
[((0, 1), 'fields'), ((1, 1), 'forest')]
>>> sorted(t.number for t in board["hexes"].values() if t.number)
[5, 9]
>>> board["harbors"]
{(1, 1, 'E'): '3:1'}
>>> sum(1 for t in board["hexes"].values() if t.terrain == "frame")
14

Random parts (each drawn from the seeded generator, in a fixed order, so a seed gives one board):

- *pools* (``"m": {"forest": 4, ...}``): the legend maps a cell character to ``"pool:m"``; the pool's
  tiles are shuffled onto those cells, north to south, west to east;
- *tokens* (SEA-005: drawn blind): token groups keyed by the cell characters they cover (``"*"`` = every
  producing tile not in another group); dealt with the red numbers apart (BASE-COMP-8);
- *harbours* (SEA-003): the harbour tokens shuffled onto the fixed harbour slots, a slot being
  ``(hex, side)`` of a tile (the side names follow ``docs/coordinates.md``);
- *hidden piles* (R-005): ``unknown`` cells (``?``) stay unexplored; the pile hexes and pile tokens are
  shuffled into ``hex_pile`` / ``token_pile`` (top first).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Optional

from ..geometry import Edge, Hex, canonical_edge, edge_hexes, hex_neighbours
from ..mapgraph import LAND
from ..module import OptionSpec
from ..rng import Rng
from ..state import Tile
from .base import deal_tokens, hex_option
from .components import as_list

#: The default legend: a cell character -> terrain (or ``pool:<name>``).
LEGEND: dict[str, str] = {
    "s": "sea", "d": "desert", "g": "gold", "F": "fields", "H": "hills", "M": "mountains",
    "P": "pasture", "W": "forest", "?": "unknown", "~": "lake",
}
#: Terrains that carry a number token (producing land: gold and the five resources).
PRODUCING = frozenset(LAND - {"desert"})


_CELLS: dict[tuple, dict[Hex, str]] = {}


def parse_rows(rows: tuple[str, ...] | list[str], origin: Hex = (0, 0)) -> dict[Hex, str]:
    """Cells of a doubled-column drawing: ``{hex: character}``.

    >>> parse_rows((" a b", "c d"))
    {(0, 0): 'a', (1, 0): 'b', (-1, 1): 'c', (0, 1): 'd'}
    """
    out: dict[Hex, str] = {}
    parity: Optional[int] = None
    for i, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch in " .":
                continue
            p = (c - i) % 2
            if parity is None:
                parity = p
            elif p != parity:
                raise ValueError(f"row {i} column {c}: cell {ch!r} is off the doubled-column grid")
            out[((c - i - parity) // 2 + origin[0], i + origin[1])] = ch
    return out


def hex_at(rows: tuple[str, ...] | list[str], col: int, row: int, origin: Hex = (0, 0)) -> Hex:
    """The hex of the cell drawn at character ``col`` of ``rows[row]`` (to name harbour slots and
    marked hexes by where they are drawn).

    >>> hex_at((" a b", "c d"), 2, 1)
    (0, 1)
    """
    if rows[row][col:col + 1] in ("", " ", "."):
        raise ValueError(f"no cell at row {row} column {col}")
    return {(c, i): h for h, (c, i) in _positions(rows, origin).items()}[(col, row)]


def drawn_slots(rows: tuple[str, ...] | list[str], slots, origin: Hex = (0, 0)) -> tuple[tuple[Hex, str], ...]:
    """Harbour slots ``((column, row), side)`` named by where their tile is drawn, as ``(hex, side)``
    (see :func:`hex_at`).

    >>> drawn_slots((" a b", "c d"), (((2, 1), "E"), ((1, 0), "NW")))
    (((0, 1), 'E'), ((0, 0), 'NW'))
    """
    return tuple((hex_at(rows, col, row, origin), side) for (col, row), side in slots)


def _positions(rows, origin: Hex) -> dict[Hex, tuple[int, int]]:
    cells = parse_rows(rows, origin)
    out = {}
    parity = None
    for i, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch in " .":
                continue
            parity = (c - i) % 2 if parity is None else parity
            out[((c - i - parity) // 2 + origin[0], i + origin[1])] = (c, i)
    assert set(out) == set(cells)
    return out


def frame_ring(tiles) -> set[Hex]:
    """The frame (R-102): every hex next to a tile that is not a tile itself."""
    ts = set(tiles)
    return {m for h in ts for m in hex_neighbours(h) if m not in ts}


@dataclass(frozen=True)
class MapSpec:
    """One map in data. Only ``rows`` is required; everything else has a neutral default."""
    rows: tuple[str, ...]
    legend: Mapping[str, str] = field(default_factory=dict)          # added to / overriding LEGEND
    pools: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    tokens: Mapping[str, Mapping[int, int]] = field(default_factory=dict)
    numbers: Mapping[Hex, int] = field(default_factory=dict)         # fixed tokens (printed maps)
    harbors: tuple[tuple[Hex, str], ...] = ()                        # harbour slots: (tile, side)
    harbor_kinds: Mapping[str, int] = field(default_factory=dict)
    hidden_hexes: Mapping[str, int] = field(default_factory=dict)    # the face-down hex pile
    hidden_tokens: Mapping[int, int] = field(default_factory=dict)   # the face-down token pile
    regions: Mapping[str, str] = field(default_factory=dict)         # region name -> cell characters
    robber: Optional[Hex] = None                                     # marked robber start
    pirate: Optional[Hex] = None                                     # marked pirate start
    origin: Hex = (0, 0)
    reds_apart: bool = True

    def cells(self) -> dict[Hex, str]:
        key = (tuple(self.rows), self.origin)
        cells = _CELLS.get(key)
        if cells is None:          # (specs are module constants: a handful of entries)
            cells = _CELLS[key] = parse_rows(self.rows, self.origin)
        return dict(cells)

    def terrain_of(self, ch: str) -> str:
        legend = {**LEGEND, **self.legend}
        if ch not in legend:
            raise ValueError(f"cell {ch!r} is not in the map legend")
        return legend[ch]

    def layout(self) -> dict[str, Any]:
        """The map as JSON data (rows, legend, pools, slots), for ``GET /v1/scenarios/{id}``."""
        used = sorted(set("".join(self.rows)) - set(" ."))
        return {
            "rows": list(self.rows), "origin": list(self.origin),
            "legend": {ch: self.terrain_of(ch) for ch in used},
            "pools": {k: dict(v) for k, v in self.pools.items()},
            "tokens": {k: {str(n): c for n, c in v.items()} for k, v in self.tokens.items()},
            "numbers": [[q, r, n] for (q, r), n in sorted(self.numbers.items())],
            "harbor_slots": [[h[0], h[1], side] for h, side in self.harbors],
            "harbor_kinds": dict(self.harbor_kinds),
            "hidden": {"hexes": dict(self.hidden_hexes), "tokens": {str(n): c for n, c in self.hidden_tokens.items()}},
            "regions": dict(self.regions),
            "robber": None if self.robber is None else list(self.robber),
            "pirate": None if self.pirate is None else list(self.pirate),
        }


def harbor_edge(h: Hex, side: str) -> Edge:
    """The canonical edge of a harbour slot ``(tile, side)``."""
    return canonical_edge(h[0], h[1], side)


def build_board(spec: MapSpec, rng: Rng) -> dict[str, Any]:
    """A new board from ``spec``: ``{"hexes", "harbors", "robber", "pirate", "hex_pile", "token_pile",
    "regions"}``. Random draws in a fixed order: pools, tokens, harbours, hex pile, token pile."""
    cells = spec.cells()
    order = sorted(cells, key=lambda h: (h[1], h[0]))
    terrain: dict[Hex, str] = {}
    pool_cells: dict[str, list[Hex]] = {}
    for h in order:
        t = spec.terrain_of(cells[h])
        if t.startswith("pool:"):
            pool_cells.setdefault(t[5:], []).append(h)
        else:
            terrain[h] = t
    for name in sorted(pool_cells):
        hs = pool_cells[name]
        pool = as_list(spec.pools.get(name, {}))
        if len(pool) != len(hs):
            raise ValueError(f"pool {name!r} has {len(pool)} tiles for {len(hs)} cells")
        terrain.update(zip(hs, rng.shuffle(pool)))

    numbers: dict[Hex, int] = dict(spec.numbers)
    groups = sorted(spec.tokens, key=lambda k: (k == "*", k))
    claimed: set[Hex] = set()
    for g in groups:
        hs = [h for h in order if terrain[h] in PRODUCING and h not in spec.numbers and h not in claimed
              and (g == "*" or cells[h] in g)]
        claimed.update(hs)
        toks = as_list(spec.tokens[g])
        if len(toks) != len(hs):
            raise ValueError(f"token group {g!r} has {len(toks)} tokens for {len(hs)} producing tiles")
        numbers.update(deal_tokens(rng, hs, toks, spec.reds_apart))

    hexes: dict[Hex, Tile] = {h: Tile(terrain[h], numbers.get(h)) for h in order}
    for h in frame_ring(hexes):
        hexes[h] = Tile("frame")

    slots = [harbor_edge(h, side) for h, side in spec.harbors]
    kinds = as_list(spec.harbor_kinds)
    if len(kinds) != len(slots):
        raise ValueError(f"{len(kinds)} harbour tokens for {len(slots)} harbour slots")
    for e in slots:
        a, b = edge_hexes(e)
        ta, tb = (hexes.get(x, Tile("frame")).terrain for x in (a, b))
        if not ((ta in LAND and tb in ("sea", "frame")) or (tb in LAND and ta in ("sea", "frame"))):
            raise ValueError(f"harbour slot {e} is not on a coast")
    harbors = dict(zip(slots, rng.shuffle(kinds)))

    hex_pile = rng.shuffle(as_list(spec.hidden_hexes)) if spec.hidden_hexes else []
    token_pile = rng.shuffle(as_list(spec.hidden_tokens)) if spec.hidden_tokens else []
    regions = {name: [list(h) for h in order if cells[h] in chars] for name, chars in spec.regions.items()}
    return {"hexes": hexes, "harbors": harbors, "robber": spec.robber, "pirate": spec.pirate,
            "hex_pile": hex_pile, "token_pile": token_pile, "regions": regions}


def robber_start(hexes: Mapping[Hex, Tile], marked: Optional[Hex] = None) -> Optional[Hex]:
    """SEA-034 / R-009: the marked desert, else the only desert; no desert (or several, unmarked)
    leaves the robber off the board until the starting player places it."""
    if marked is not None:
        return marked
    deserts = [h for h, t in hexes.items() if t.terrain == "desert"]
    return deserts[0] if len(deserts) == 1 else None


#: The books printed scenarios come from (an :class:`Edition`'s ``book``).
SEAFARERS_BOOK = "The Seafarers of Catan rulebook (1998)"
TDE_BOOK = "Treasures, Dragons & Explorers"


@dataclass(frozen=True)
class Edition:
    """A printed scenario as played with given player counts: its ID and name, where it is printed
    (``book``, and ``number`` when the book numbers its scenarios), the VP target, and per player count
    its component table and map, with the rule a component mismatch cites. A :class:`MappedScenario`
    names it once (``class Oceans(MappedScenario, Seafarers, edition=Edition(...))``) in place of those
    attributes, so that the III and IV editions of one scenario state only their own data."""
    id: str
    name: str
    book: str
    number: Optional[int]
    players: tuple[int, ...]
    vp_target: int
    component_rule: str
    tables: Mapping[int, dict]
    maps: Mapping[int, "MapSpec"]

    @property
    def source(self) -> str:
        where = self.book if self.number is None else f"{self.book}, scenario {self.number}"
        return f"{where} (its rules: GET /v1/rules?prefix={self.id})"


class MappedScenario:
    """Mixin for a scenario whose maps are :class:`MapSpec` data: ``class SC04(MappedScenario, Seafarers)``
    with ``map_specs = {3: MapSpec(...)}``. It supplies ``new_board`` (the seeded board, robber per
    SEA-034/R-009, pirate per R-007), ``maps`` (the map data for the definition) and the initial
    ``scenario_state``: ``hex_pile`` / ``token_pile`` when the map has hidden spaces (R-005) and
    ``islands`` (region name -> hexes, R-018) when it tags regions. A subclass extending
    ``initial_scenario_state`` calls ``super()`` first.

    R-007: the pirate starts on the map's marked hex, else on the sea hex the game request names
    (``options["pirate"] = [q, r]``), else off the board until the starting player places it.
    """

    map_specs: dict[int, MapSpec] = {}
    has_map = True

    def __init_subclass__(cls, edition: Optional[Edition] = None, **kw: Any) -> None:
        """``edition``: the printed scenario's identity, components and maps (:class:`Edition`)."""
        super().__init_subclass__(**kw)
        if edition is not None:
            cls.edition = edition
            cls.id, cls.name, cls.source = edition.id, edition.name, edition.source
            cls.players, cls.vp_target, cls.component_rule = edition.players, edition.vp_target, edition.component_rule
            cls.component_tables, cls.map_specs = dict(edition.tables), dict(edition.maps)

    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        try:
            spec = self.map_specs[num_players]
        except KeyError:
            raise ValueError(f"no map for {num_players} players") from None
        board = build_board(spec, rng)
        board["robber"] = robber_start(board["hexes"], spec.robber)
        return board

    def maps(self) -> dict[int, Any]:
        return {n: spec.layout() for n, spec in self.map_specs.items()}

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if board.get("hex_pile") or any(t.terrain == "unknown" for t in board["hexes"].values()):
            out["hex_pile"] = list(board.get("hex_pile") or [])
            out["token_pile"] = list(board.get("token_pile") or [])
        if board.get("regions"):
            out["islands"] = {k: [list(h) for h in v] for k, v in board["regions"].items()}
        return out

    OPTIONS = (OptionSpec("pirate", hex_option, "[q, r]: the sea hex where the pirate starts when the map marks "
                          "none (R-007)"),)

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None):
        state = super().new_game(num_players, seed, options)  # type: ignore[misc]
        want = (options or {}).get("pirate")
        if want is not None and state.pirate is None:
            h = tuple(want) if isinstance(want, (list, tuple)) and len(want) == 2 else None
            t = state.hexes.get(h) if h is not None else None
            if t is None or t.terrain != "sea":
                raise ValueError("options.pirate must name a sea hex [q, r] of the board (R-007, SEA-029)")
            state.pirate = h
        if state.pirate is None and getattr(self, "pirate", False):   # placed before the first settlement
            state.scenario_state = {**state.scenario_state, "pirate_pending": True}
        return state


def repair_reds(numbers: Mapping[Hex, int], rng: Rng, tries: int = 100) -> dict[Hex, int]:
    """R-021 (A New World, TDE5): while a 6 or 8 touches another, swap the violating red token on the
    lowest hex (north to south, west to east) with a uniformly drawn non-red token whose hex has no red
    neighbour after the swap; with no such token, redeal all tokens (at most ``tries`` times)."""
    red = (6, 8)
    order = sorted(numbers, key=lambda h: (h[1], h[0]))
    nums = dict(numbers)
    for _ in range(tries):
        while True:
            bad = [h for h in order if nums[h] in red and any(nums.get(m) in red for m in hex_neighbours(h))]
            if not bad:
                return nums
            h = bad[0]
            cands = [t for t in order if nums[t] not in red
                     and all(nums.get(m) not in red or m == h for m in hex_neighbours(t))]
            if not cands:
                break
            t = cands[rng.below(len(cands))]
            nums[h], nums[t] = nums[t], nums[h]     # each swap removes at least one touching red pair
        nums = dict(zip(order, rng.shuffle([nums[h] for h in order])))
    raise ValueError("could not keep the red numbers apart")


__all__ = ["LEGEND", "PRODUCING", "MapSpec", "MappedScenario", "parse_rows", "hex_at", "frame_ring", "build_board",
           "harbor_edge", "robber_start", "repair_reds"]
