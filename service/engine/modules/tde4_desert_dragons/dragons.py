"""The dragon economy of "The Desert Dragons": where the dragons are, how they gather and invade, and what
they block. Pure functions of the state (``scenario_state``) and the board.

``scenario_state`` keys (declared in the scenario's ``STATE``):

- ``desert_dragons``: ``{"q,r": n}`` the dragons on each desert (a desert left out holds none);
- ``dragons``: ``[[q, r], ...]`` the landscape hexes holding a dragon (at most one each, TDE4-013);
- ``gathered``: how many of the 18 dragons have been put on the deserts so far (TDE4-009, TDE4-011);
- ``removed``: how many dragons knights have taken out of the game (TDE4-021).

A posted position may leave any key out: no dragon there, and ``gathered`` is what the board and
``removed`` account for.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional

from ...geometry import Edge, Hex, Node, edge_hexes, hex_neighbours, hex_str, node_hexes
from ...mapgraph import LAND
from ...memo import bounded_put
from ...state import State

#: TDE4-005: the desert dragons beside the board at the start.
DRAGONS = 18
#: TDE4-009: dragons gathered per settlement or city built, by player count.
PER_BUILD = {3: 3, 4: 2}
#: Non-desert land: the "landscape" hexes dragons invade (R-065, R-067).
LANDSCAPE = LAND - {"desert"}


def order(h: Hex) -> tuple[int, int]:
    """The hex order ties are broken by (R-064, R-065: "lowest id"): north to south, west to east."""
    return (h[1], h[0])


def parse_hex(key: Any) -> Optional[Hex]:
    """``"q,r"`` -> ``(q, r)``; None when it is not one."""
    if not isinstance(key, str):
        return None
    parts = key.split(",")
    if len(parts) != 2:
        return None
    try:
        return (int(parts[0]), int(parts[1]))
    except ValueError:
        return None


_DESERTS: dict[int, tuple[Any, tuple[Hex, ...]]] = {}


def deserts(state: State) -> tuple[Hex, ...]:
    """The board's deserts, in tie-break order (kept per board: copies of a state share the board dict,
    and a changed board is a new dict)."""
    hexes = state.hexes
    hit = _DESERTS.get(id(hexes))
    if hit is not None and hit[0] is hexes:
        return hit[1]
    found = tuple(sorted((h for h, t in hexes.items() if t.terrain == "desert"), key=order))
    bounded_put(_DESERTS, id(hexes), (hexes, found), size=64)
    return found


def desert_counts(state: State) -> dict[Hex, int]:
    """Dragons per desert (every desert of the board, 0 when not listed)."""
    listed = (state.scenario_state or {}).get("desert_dragons") or {}
    out = {h: 0 for h in deserts(state)}
    for k, n in listed.items():
        h = parse_hex(k)
        if h in out and isinstance(n, int):
            out[h] = n
    return out


def landscape_dragons(state: State) -> set[Hex]:
    """The landscape hexes holding a dragon."""
    return {(int(x[0]), int(x[1])) for x in (state.scenario_state or {}).get("dragons") or ()}


def dragon_hexes(state: State) -> set[Hex]:
    """R-066: every land hex holding at least one dragon (a desert with its gathered dragons included)."""
    return {h for h, n in desert_counts(state).items() if n > 0} | landscape_dragons(state)


def removed(state: State) -> int:
    return int((state.scenario_state or {}).get("removed") or 0)


def gathered(state: State) -> int:
    """TDE4-009: dragons put on the deserts so far (all of them are somewhere: a desert, a landscape
    hex, or out of the game)."""
    ss = state.scenario_state or {}
    if ss.get("gathered") is not None:
        return int(ss["gathered"])
    return sum(desert_counts(state).values()) + len(landscape_dragons(state)) + removed(state)


def invasion_active(state: State) -> bool:
    """TDE4-011 / R-064: the invasion begins once all 18 dragons have been gathered (from the roll after
    the 18th: gathering happens only on building, after the turn's roll)."""
    return gathered(state) >= DRAGONS


# -- gathering (TDE4-009, TDE4-010, R-064) -------------------------------------------------------------

def gather(state: State, num_players: int) -> tuple[list[Hex], dict[Hex, int], int]:
    """The dragons one settlement or city adds: ``(deserts in placement order, counts after, gathered
    after)``. TDE4-009: 3 with 3 players, 2 with 4; R-064: stop at 18; TDE4-010 / R-064: each goes to the
    desert with the fewest dragons, the lowest on a tie. No desert on the board: they stay beside it."""
    counts = desert_counts(state)
    done = gathered(state)
    placed: list[Hex] = []
    if not counts:
        return placed, counts, done
    for _ in range(min(PER_BUILD.get(num_players, 2), DRAGONS - done)):
        h = min(counts, key=lambda d: (counts[d], order(d)))      # TDE4-010: as evenly as possible
        counts[h] += 1
        placed.append(h)
    return placed, counts, done + len(placed)


# -- the invasion (TDE4-012..015, R-065) ---------------------------------------------------------------

def invasion_queue(state: State, total: int) -> list[Hex]:
    """R-065: the landscape hexes numbered ``total`` with no dragon that touch a hex holding one, on the
    pre-roll state (no chaining within a roll), in tie-break order (TDE4-012, TDE4-013, TDE4-014)."""
    holding = dragon_hexes(state)
    if not holding:
        return []
    mine = landscape_dragons(state)
    out = []
    for h, t in state.hexes.items():
        if t.number != total or t.terrain not in LANDSCAPE or h in mine:   # TDE4-013: one dragon a hex
            continue
        if any(m in holding for m in hex_neighbours(h)):                   # TDE4-012 / R-065: any dragon
            out.append(h)
    return sorted(out, key=order)


def invade(state: State, total: int) -> tuple[list[tuple[Hex, Hex]], dict[Hex, int]]:
    """The moves a roll of ``total`` makes: ``[(desert, landscape hex)]`` and the desert counts after.
    TDE4-014: every hex of the queue gets a dragon; TDE4-015: each from the desert with the most left
    (the lowest on a tie); with the deserts empty the invasion stops (R-065)."""
    counts = desert_counts(state)
    moves = []
    for h in invasion_queue(state, total):
        if not counts or max(counts.values()) <= 0:
            break
        d = max(counts, key=lambda x: (counts[x], tuple(-v for v in order(x))))
        counts[d] -= 1
        moves.append((d, h))
    return moves, counts


def invasion_targets(state: State) -> dict[str, list[list[int]]]:
    """Per number 2..12 (7 aside): the hexes a roll of it would give a dragon now (empty before the
    invasion, and for numbers that take none)."""
    if not invasion_active(state):
        return {}
    out = {}
    for n in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
        moves, _ = invade(state, n)
        if moves:
            out[str(n)] = [list(h) for _, h in moves]
    return out


# -- the curse (TDE4-018..020, R-066) ------------------------------------------------------------------

def edge_blocked(state: State, e: Edge, holding: Optional[set] = None) -> bool:
    """TDE4-018 / R-066: a road is blocked when both hexes sharing its edge are land holding a dragon."""
    holding = dragon_hexes(state) if holding is None else holding
    a, b = edge_hexes(e)
    return a in holding and b in holding


def node_blocked(state: State, n: Node, holding: Optional[set] = None) -> bool:
    """TDE4-019 / R-066: a building is blocked when every hex at its corner is land holding a dragon;
    TDE4-020: a corner on the sea (or the frame) never is, dragons never going on water."""
    holding = dragon_hexes(state) if holding is None else holding
    return all(h in holding for h in node_hexes(n))


def blocked_roads(state: State, holding: Optional[set] = None) -> list[tuple[Edge, int]]:
    holding = dragon_hexes(state) if holding is None else holding
    if len(holding) < 2:
        return []
    return sorted(((e, p) for e, p in state.roads.items() if edge_blocked(state, e, holding)),
                  key=lambda x: (x[0][1], x[0][0], x[0][2]))


def blocked_buildings(state: State, holding: Optional[set] = None) -> list[tuple[Node, int, str]]:
    holding = dragon_hexes(state) if holding is None else holding
    if len(holding) < 3:
        return []
    return sorted(((n, p, k) for n, (p, k) in state.buildings.items() if node_blocked(state, n, holding)),
                  key=lambda x: (x[0][1], x[0][0], x[0][2]))


def why_blocked(state: State, hexes: Iterable[Hex]) -> str:
    parts = []
    counts = desert_counts(state)
    for h in hexes:
        if h in counts:
            parts.append(f"desert {hex_str(h)} ({counts[h]} dragon{'s' if counts[h] != 1 else ''})")
        else:
            parts.append(f"{state.hexes[h].terrain} {hex_str(h)} (a dragon)")
    return "; ".join(parts)


__all__ = ["DRAGONS", "PER_BUILD", "LANDSCAPE", "order", "parse_hex", "deserts", "desert_counts",
           "landscape_dragons", "dragon_hexes", "removed", "gathered", "invasion_active", "gather",
           "invasion_queue", "invade", "invasion_targets", "edge_blocked", "node_blocked", "blocked_roads",
           "blocked_buildings", "why_blocked"]
