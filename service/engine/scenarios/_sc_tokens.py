"""Greater Catan's small-island tokens (SC11-008..013, R-026, R-027, R-063).

When a road or ship is placed (or a ship moved) on an edge of a producing small-island hex without a
number token, the placer puts a token on that hex: drawn blind from the reserve while it lasts
(SC11-008, R-063), else taken from a mainland hex (SC11-009) chosen under three ranked limitations
(SC11-010 RED > SC11-011 PROD > SC11-012 OWN), the lowest ranked dropped first when no hex meets them all
(SC11-013, R-026: drop order OWN, PROD, RED). The placer names the hex(es) he takes from in the
action's ``token_from`` (in trigger order); without it the first candidate (north to south, west to
east) is taken. A ``token_from`` entry no mainland token move takes is refused (SC11-009).

Decided here (the text's heading is "Small Island Rules"): only hexes off the mainland trigger; a
mainland hex left without its token stays blank (R-027 otherwise applied as written: edge-adjacent
producing hexes, after placement or move, setup included, hexes in ascending order).
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional

from ..core import Violation
from ..geometry import Edge, Hex, Node, edge_hexes, hex_corners, hex_neighbours, node_hexes
from ..rng import Rng
from ..state import State, Tile
from .mapdata import PRODUCING

RED = (6, 8)
#: R-026: the order in which SC11 drops its limitations when no hex meets them all.
SC11_DROP_ORDER = ("OWN", "PROD", "RED")
LIMIT_RULE = {"RED": "SC11-010", "PROD": "SC11-011", "OWN": "SC11-012"}


def placed_edges(action) -> list[Edge]:
    """The edges a road/ship placement or ship move puts a piece on, in order."""
    t = action.type
    if t in ("build_road", "build_ship"):
        return [action.get("edge")]
    if t == "move_ship":
        return [action.get("to")]
    if t == "play_road_building":
        return [p["edge"] for p in action.get("pieces") or []]
    return []


def triggered(hexes: dict[Hex, Tile], mainland: set[Hex], edge: Edge) -> list[Hex]:
    """SC11-008 / R-027: the hexes sharing ``edge`` that are producing, off the mainland and tokenless."""
    out = [h for h in edge_hexes(edge)
           if h in hexes and hexes[h].terrain in PRODUCING and hexes[h].number is None and h not in mainland]
    return sorted(out, key=lambda h: (h[1], h[0]))


def candidates(hexes: dict[Hex, Tile], mainland: set[Hex], buildings: dict[Node, tuple[int, str]], placer: int,
               dest: Hex, drop_order: Iterable[str] = SC11_DROP_ORDER) -> tuple[list[Hex], set[str], dict]:
    """R-026: the mainland hexes the token may come from, the limitations still in force, and the tests."""
    pool = sorted((t for t in mainland if t != dest and t in hexes and hexes[t].number is not None),
                  key=lambda h: (h[1], h[0]))

    def red(t: Hex) -> bool:
        """SC11-010: a red token may not end up next to another red token on the small islands."""
        if hexes[t].number not in RED:
            return True
        return not any(m not in mainland and m in hexes and hexes[m].number in RED for m in hex_neighbours(dest))

    def prod(t: Hex) -> bool:
        """SC11-011: no mainland settlement/city that has a numbered hex may be left without one."""
        for node in hex_corners(t):
            if node not in buildings or not any(h in mainland for h in node_hexes(node)):
                continue
            numbered = [h for h in node_hexes(node) if h in hexes and hexes[h].number is not None]
            if numbered == [t]:
                return False
        return True

    def own(t: Hex) -> bool:
        """SC11-012: the token comes from a hex next to one of the placer's own settlements/cities."""
        return any(buildings.get(n, (-1,))[0] == placer for n in hex_corners(t))

    tests: dict[str, Callable[[Hex], bool]] = {"RED": red, "PROD": prod, "OWN": own}
    keep = {"RED", "PROD", "OWN"}
    cands = [t for t in pool if all(tests[k](t) for k in keep)]
    for limit in drop_order:
        if cands:
            break
        keep.discard(limit)                  # SC11-013: ignore the lowest ranked limitation first
        cands = [t for t in pool if all(tests[k](t) for k in keep)]
    return cands, keep, tests


def settle_tokens(state: State, mainland: set[Hex], action, draw: Optional[Callable[[list[int]], int]],
                  hexes: Optional[dict[Hex, Tile]] = None, reserve: Optional[list[int]] = None
                  ) -> tuple[list[dict], list[Violation]]:
    """Play out the token placements an action triggers on ``hexes``/``reserve`` (copies are changed).

    ``draw(reserve) -> index`` draws from the reserve; ``None`` (when only checking) takes a placeholder.
    Returns the moves and the violations of the placer's ``token_from`` choices."""
    hexes = dict(state.hexes) if hexes is None else hexes
    reserve = list(state.scenario_state.get("token_pile") or []) if reserve is None else reserve
    choices = list(action.get("token_from") or [])
    moves: list[dict] = []
    for edge in placed_edges(action):
        for dest in triggered(hexes, mainland, edge):
            terrain = hexes[dest].terrain
            if reserve:
                # SC11-008 / R-063: a blind draw from the reserve.
                i = draw(reserve) if draw is not None else 0
                n = reserve.pop(i)
                hexes[dest] = Tile(terrain, n)
                moves.append({"hex": list(dest), "from": "reserve", "number": n})
                continue
            # SC11-009: the reserve is empty, so a mainland token moves here.
            cands, keep, tests = candidates(hexes, mainland, state.buildings, action.player, dest)
            if not cands:
                moves.append({"hex": list(dest), "from": None, "number": None})
                continue
            src = cands[0]
            if choices:
                want = tuple(choices.pop(0))
                if want not in cands:
                    if want not in mainland or want not in hexes or hexes[want].number is None or want == dest:
                        return moves, [Violation("SC11-009", f"the token for {dest[0]},{dest[1]} comes from a "
                                                 f"numbered mainland hex; {want[0]},{want[1]} is not one",
                                                 "/action/token_from")]
                    broken = next(k for k in ("RED", "PROD", "OWN") if k in keep and not tests[k](want))
                    return moves, [Violation(LIMIT_RULE[broken], f"the token for {dest[0]},{dest[1]} may not come "
                                             f"from {want[0]},{want[1]}: {tests[broken].__doc__.split(': ', 1)[1]} "
                                             f"(allowed: {', '.join(f'{h[0]},{h[1]}' for h in cands)})",
                                             "/action/token_from")]
                src = want
            n = hexes[src].number
            hexes[src] = Tile(hexes[src].terrain, None)
            hexes[dest] = Tile(terrain, n)
            moves.append({"hex": list(dest), "from": list(src), "number": n})
    if choices:
        used = sum(1 for m in moves if m["from"] not in (None, "reserve"))
        return moves, [Violation("SC11-009", f"token_from names {len(choices)} more hex(es) than this placement "
                                 f"moves mainland tokens ({used})", "/action/token_from")]
    return moves, []


def seeded_draw(state: State) -> Callable[[list[int]], int]:
    """R-063's blind draw from the reserve, taken from the state's seeded generator: judging an action
    (``check``), listing it and applying it (``after_action``) all see the same tokens drawn, so a
    ``token_from`` choice is judged against the board it will meet."""
    rng = Rng(state.rng_seed, state.rng_counter)
    return lambda pile: rng.below(len(pile))


def token_choices(state: State, mainland: set[Hex], action) -> list[list[Hex]]:
    """Every ``token_from`` the placer may name for ``action`` (SC11-009..013): one list per way of
    choosing, in trigger order, a source for each token taken from the mainland, each source allowed on
    the board the earlier moves (and the reserve's seeded draws) leave. ``[]`` when the action moves no
    mainland token.

    Draws from the reserve all come before the first mainland move (the reserve never refills), so
    they are the same in every branch and one generator serves the whole walk."""
    edges = placed_edges(action)
    draw = seeded_draw(state)
    out: list[list[Hex]] = []

    def walk(k: int, dests: list[Hex], hexes: dict[Hex, Tile], reserve: list[int], chosen: list[Hex]) -> None:
        while True:
            if not dests:
                if k == len(edges):
                    if chosen:
                        out.append(chosen)
                    return
                dests, k = triggered(hexes, mainland, edges[k]), k + 1
                continue
            dest, dests = dests[0], dests[1:]
            terrain = hexes[dest].terrain
            if reserve:                                   # SC11-008: a blind draw, no choice
                reserve = list(reserve)
                hexes = {**hexes, dest: Tile(terrain, reserve.pop(draw(reserve)))}
                continue
            cands, _, _ = candidates(hexes, mainland, state.buildings, action.player, dest)
            if not cands:                                 # nothing may move here: the hex stays blank
                continue
            for src in cands:                             # SC11-009: one branch per allowed source
                h2 = dict(hexes)
                h2[dest] = Tile(terrain, h2[src].number)
                h2[src] = Tile(h2[src].terrain, None)
                walk(k, dests, h2, reserve, chosen + [src])
            return

    walk(0, [], state.hexes, list(state.scenario_state.get("token_pile") or []), [])
    return out
