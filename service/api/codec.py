"""Loaded JSON <-> engine :class:`State`, and the canonical JSON form of a state.

Values a client may leave out are filled from the scenario (a player's supply, the bank, the deck:
whatever the pieces and hands leave); values a client gives are checked, never corrected.
"""
from __future__ import annotations

import json
from collections import Counter
from typing import Any, Optional

import orjson

from ..engine.mapgraph import RESOURCES
from ..rules import title as rule_title
from ..engine.scenarios import get_scenario, with_expansions
from ..engine.state import DEV_CARDS, SCHEMA_VERSION, Player, Setup, State, Tile, TurnFlags, empty_dev, empty_resources
from .fields import seed_json

PIECE_KEYS = {"settlements": "node", "cities": "node", "roads": "edge", "ships": "edge"}


class Pointers:
    """Where each piece of the state came from in the request, for 422 answers."""

    def __init__(self, prefix: str = "/state") -> None:
        self.prefix = prefix
        self.index: dict[tuple[str, tuple], int] = {}

    def __call__(self, kind: str, coord: tuple) -> str:
        return f"{self.prefix}/pieces/{kind}/{self.index.get((kind, coord), 0)}"


class Inconsistent(ValueError):
    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__("; ".join(f"{p}: {r}" for p, r in problems))
        self.problems = problems


# Tiles are immutable: one instance per (terrain, number) serves every board (the schema has checked both).
_TILES: dict[tuple[str, Any], Tile] = {}


def _extra(declared: Any, given: Any) -> dict[str, Any]:
    """A player's module values in declaration order, each given or its declared default."""
    if not declared:
        return {}
    given = given or {}
    return {k: given[k] if given.get(k) is not None else f.default for k, f in declared.items()}


def _tile(tn: tuple[str, Any]) -> Tile:
    t = _TILES[tn] = Tile(*tn)
    return t


def build_state(d: dict[str, Any], prefix: str = "/state", board: Optional[tuple[dict, dict]] = None
                ) -> tuple[State, Pointers]:
    """Engine state from a loaded :class:`StateSchema` dict; duplicates are reported as problems.

    ``board``: the ``(hexes, harbors)`` built before from this same loaded board (by a state that passed
    every check), shared instead of built again (a board is never changed in place: ``State.copy``)."""
    scen = with_expansions(get_scenario(d["scenario"]), d.get("options"), len(d["players"]))
    problems: list[tuple[str, str]] = []
    ptr = Pointers(prefix)
    if board is not None:
        hexes, harbors = board
    else:
        tiles = _TILES
        hexes = {h: tiles.get(tn) or _tile(tn) for h, tn in d["board"]["hexes"].items()}
        harbors = {}
        for i, hb in enumerate(d["board"]["harbors"]):
            if hb["edge"] in harbors:      # both harbours named: either may be the one misplaced
                j = next(k for k, x in enumerate(d["board"]["harbors"]) if x["edge"] == hb["edge"])
                problems.append((f"{prefix}/board/harbors/{i}/edge", "two harbours on one edge"))
                problems.append((f"{prefix}/board/harbors/{j}/edge", "two harbours on one edge"))
            harbors[hb["edge"]] = hb["kind"]
    buildings: dict = {}
    roads: dict = {}
    ships: dict = {}
    pieces = d.get("pieces") or {}
    first: dict = {}        # where each place was first taken: a clash names both pieces
    for kind in ("settlements", "cities"):
        for i, (node, p) in enumerate(pieces.get(kind, [])):
            at = f"{prefix}/pieces/{kind}/{i}/node"
            if node in buildings:
                problems.append((at, "two buildings on one intersection"))
                problems.append((first[node], "two buildings on one intersection"))
            else:
                first[node] = at
            buildings[node] = (p, kind[:-1] if kind == "settlements" else "city")
            ptr.index[(kind, node)] = i
    for kind, target in (("roads", roads), ("ships", ships)):
        for i, (edge, p) in enumerate(pieces.get(kind, [])):
            at = f"{prefix}/pieces/{kind}/{i}/edge"
            if edge in roads or edge in ships:
                problems.append((at, "two pieces on one edge (SEA-010)"))
                problems.append((first[edge], "two pieces on one edge (SEA-010)"))
            else:
                first[edge] = at
            target[edge] = p
            ptr.index[(kind, edge)] = i
    players = []
    declared = scen.composition.player.fields
    n_buildings, n_roads, n_ships = Counter(buildings.values()), Counter(roads.values()), Counter(ships.values())
    for i, pd in enumerate(d["players"]):
        on_board = {
            "settlements": n_buildings[(i, "settlement")],
            "cities": n_buildings[(i, "city")],
            "roads": n_roads[i],
            "ships": n_ships[i],
        }
        for kind, k in scen.pieces_off_grid(d["scenario_state"], i).items():
            on_board[kind] = on_board.get(kind, 0) + k
        supply = pd["supply"]
        if supply is None:
            supply = {k: max(0, scen.supply.get(k, 0) - on_board[k]) for k in PIECE_KEYS}
        else:
            supply = {k: supply.get(k, 0) for k in PIECE_KEYS}
        players.append(Player(
            resources=pd["resources"] or empty_resources(),
            dev_cards=pd["dev_cards"] or empty_dev(),
            dev_cards_new=pd["dev_cards_new"] or empty_dev(),
            dev_cards_played=pd["dev_cards_played"] or empty_dev(),
            supply=supply, svp=pd["svp"], extra=_extra(declared, pd.get("extra")),
        ))
    bank = d["bank"]
    if bank is None:
        bank = {r: scen.resource_count - sum(p.resources[r] for p in players) for r in RESOURCES}
    deck = d["dev_deck"]
    if deck is None:
        deck = {c: scen.dev_deck.get(c, 0) - sum(p.dev_cards[c] + p.dev_cards_new[c] + p.dev_cards_played[c]
                                                 for p in players) for c in DEV_CARDS}
    for name, vals in (("bank", bank), ("dev_deck", deck)):
        for k, v in vals.items():
            if v < 0:       # the bank (or deck) left out is worked out from the hands: they are the other side
                problems.append((f"{prefix}/{name}/{k}", f"more {k} cards are held than the game has"))
                problems.extend((f"{prefix}/players/{i}/{h}/{k}", f"more {k} cards are held than the game has")
                                for i in range(len(players))
                                for h in (("resources",) if name == "bank" else
                                          ("dev_cards", "dev_cards_new", "dev_cards_played")))
    setup_d = d.get("setup") or {}
    flags_d = d.get("turn_flags") or {}
    phase = d["phase"]
    rolled = flags_d.get("rolled")
    if rolled is None:
        rolled = phase not in ("setup", "roll")
    awards = d.get("awards") or {}
    rng = d.get("rng") or {"seed": 0, "counter": 0}
    svp_attached: dict = {}
    for i, sv in enumerate(d.get("svp_attached", [])):
        if sv["node"] in svp_attached:
            problems.append((f"{prefix}/svp_attached/{i}/node", "listed twice"))
        svp_attached[sv["node"]] = sv["count"]
    state = State(
        scenario=scen.id, hexes=hexes, harbors=harbors, players=players, buildings=buildings, roads=roads,
        ships=ships, robber=d.get("robber"), pirate=d.get("pirate"), bank=bank, dev_deck=deck, phase=phase,
        current_player=d["current_player"], turn=d["turn"],
        setup=Setup(setup_d.get("round", 1), setup_d.get("step", "settlement"), setup_d.get("last_settlement")),
        flags=TurnFlags(rolled, flags_d.get("dev_card_played", False), flags_d.get("ship_moved", False),
                        list(flags_d.get("ships_built", [])), flags_d.get("built", False)),
        last_roll=tuple(d["last_roll"]) if d.get("last_roll") else None,
        pending_discards=dict(d["pending_discards"]), pending_gold=dict(d["pending_gold"]),
        longest_road_holder=awards.get("longest_road"), largest_army_holder=awards.get("largest_army"),
        vp_target=d["vp_target"] if d.get("vp_target") is not None else scen.vp_target,
        rng_seed=rng["seed"], rng_counter=rng["counter"], winner=d.get("winner"),
        svp_attached=svp_attached, options=dict(d["options"]), scenario_state=dict(d["scenario_state"]),
    )
    if problems:
        raise Inconsistent(problems)
    return state, ptr


def _pieces(items, key):
    """Pieces north to south, west to east (coordinates are unique, so the tuples sort without ties)."""
    return [{"player": p, key: [q, r, c]} for r, q, c, p in sorted([(c[1], c[0], c[2], p) for c, p in items])]


def dump_board(s: State) -> dict[str, Any]:
    """The ``board`` of :func:`dump_state`."""
    return {
        # north to south, west to east: (r, q) pairs are unique, so the tiles themselves are never compared
        "hexes": [{"q": q, "r": r, "terrain": t.terrain, "number": t.number}
                  for r, q, t in sorted([(h[1], h[0], t) for h, t in s.hexes.items()])],
        "harbors": [{"edge": [q, r, c], "kind": k}
                    for r, q, c, k in sorted([(e[1], e[0], e[2], k) for e, k in s.harbors.items()])],
    }


def dump_state(s: State, board: Any = None) -> dict[str, Any]:
    """The canonical JSON of a state (re-postable: ``build_state`` of it gives the same state).

    ``board``, when given, stands in place of the board (see :func:`board_text`)."""
    return {
        "schema_version": SCHEMA_VERSION,
        "scenario": s.scenario,
        "options": dict(s.options),
        "board": dump_board(s) if board is None else board,
        "players": [{
            "resources": dict(p.resources), "dev_cards": dict(p.dev_cards), "dev_cards_new": dict(p.dev_cards_new),
            "dev_cards_played": dict(p.dev_cards_played), "supply": dict(p.supply), "svp": p.svp, **p.extra,
        } for p in s.players],
        "pieces": {
            "settlements": _pieces(((n, p) for n, (p, k) in s.buildings.items() if k == "settlement"), "node"),
            "cities": _pieces(((n, p) for n, (p, k) in s.buildings.items() if k == "city"), "node"),
            "roads": _pieces(s.roads.items(), "edge"),
            "ships": _pieces(s.ships.items(), "edge"),
        },
        "robber": list(s.robber) if s.robber is not None else None,
        "pirate": list(s.pirate) if s.pirate is not None else None,
        "bank": dict(s.bank),
        "dev_deck": dict(s.dev_deck),
        "phase": s.phase,
        "current_player": s.current_player,
        "turn": s.turn,
        "setup": {"round": s.setup.round, "step": s.setup.step,
                  "last_settlement": list(s.setup.last_settlement) if s.setup.last_settlement else None},
        "turn_flags": {"rolled": s.flags.rolled, "dev_card_played": s.flags.dev_card_played,
                       "ship_moved": s.flags.ship_moved, "ships_built": [list(e) for e in s.flags.ships_built],
                       "built": s.flags.built},
        "last_roll": list(s.last_roll) if s.last_roll else None,
        "pending_discards": {str(k): v for k, v in sorted(s.pending_discards.items())},
        "pending_gold": {str(k): v for k, v in sorted(s.pending_gold.items())},
        "awards": {"longest_road": s.longest_road_holder, "largest_army": s.largest_army_holder},
        "vp_target": s.vp_target,
        "rng": {"seed": seed_json(s.rng_seed), "counter": s.rng_counter},
        "winner": s.winner,
        "svp_attached": [{"node": list(n), "count": c} for n, c in sorted(s.svp_attached.items())],
        "scenario_state": s.scenario_state,
    }


# The board is most of a state's text and rarely changes from one request to the next: its JSON text is
# kept, keyed by the hexes and harbours themselves (tiles are immutable), for the answers to splice in.
_BOARD_TEXT: dict[tuple, bytes] = {}
BOARD_TEXTS = 256


_COMPACT = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def ENCODE(value: Any) -> str:
    """Compact JSON text of an answer (non-ASCII characters as UTF-8, not escaped), written in C; a value
    orjson does not take (a non-string key, an integer past 64 bits) is written by the standard library."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:
        return _COMPACT(value)


def ENCODE_BYTES(value: Any) -> bytes:
    """:func:`ENCODE`'s text as UTF-8 bytes (what an answer's body is), without decoding orjson's bytes."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return _COMPACT(value).encode()


# Boards the request path keeps (``posted_state._BOARDS``) are built once, and every state loaded on one shares
# its two dicts (boards are never changed in place: ``State.copy``): their texts are then found by the
# dicts' identity, without hashing or comparing the tiles. Each entry holds its dicts, so no other object
# can take their ids while it is kept.
_SHARED: dict[int, list] = {}   # id(hexes) -> [hexes, harbors, text's bytes or None, sorted bytes or None]


def share_board(hexes: dict, harbors: dict) -> None:
    """Mark ``hexes`` and ``harbors`` as a kept board's, shared and never changed in place."""
    if len(_SHARED) >= BOARD_TEXTS:
        _SHARED.clear()
    _SHARED[id(hexes)] = [hexes, harbors, None, None]


def _shared(s: State) -> Optional[list]:
    got = _SHARED.get(id(s.hexes))
    if got is not None and got[0] is s.hexes and got[1] is s.harbors:
        return got
    return None


def board_text(s: State) -> str:
    """``json.dumps(dump_board(s), separators=(",", ":"))``, kept between calls."""
    return board_bytes(s).decode()


def board_bytes(s: State) -> bytes:
    """:func:`board_text` as UTF-8 bytes, kept between calls."""
    return _kept_board(s, 2, _BOARD_TEXT, ENCODE_BYTES)


# The board's canonical bytes for state tags (``integrity``: sorted keys), kept like its text.
_BOARD_SORTED: dict[tuple, bytes] = {}


def _sorted_bytes(board: Any) -> bytes:
    return orjson.dumps(board, option=orjson.OPT_SORT_KEYS)


def board_canonical(s: State) -> bytes:
    """``integrity.canonical_board(dump_board(s))``, kept between calls."""
    return _kept_board(s, 3, _BOARD_SORTED, _sorted_bytes)


def _kept_board(s: State, slot: int, kept: dict[tuple, bytes], encode: Any) -> bytes:
    """``encode(dump_board(s))``: from the shared board's ``slot`` when the state's board is a kept one
    (found by identity), else from ``kept`` by the tiles' contents (at most ``BOARD_TEXTS`` boards)."""
    shared = _shared(s)
    if shared is not None and shared[slot] is not None:
        return shared[slot]
    key = (tuple(s.hexes.items()), tuple(s.harbors.items())) if shared is None else None
    got = kept.get(key) if key is not None else None
    if got is None:
        got = encode(dump_board(s))
        if key is not None:
            if len(kept) >= BOARD_TEXTS:
                kept.clear()
            kept[key] = got
    if shared is not None:
        shared[slot] = got
    return got


def violation_json(v: Any, path: str | None = None) -> dict[str, str]:
    """A violation as answers carry it: ``rule``, ``message``, ``path`` (``path`` given to rebase it), the
    rule's ``title`` from the catalogue and, where a ruling decided it, ``ruling``."""
    out = {"rule": v.rule, "message": v.message, "path": v.path if path is None else path,
           "title": rule_title(v.rule) or v.rule}
    ruling = v.deciding_ruling()
    if ruling is not None:
        out["ruling"] = ruling
    return out
