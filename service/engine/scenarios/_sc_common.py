"""Helpers shared by scenarios 6-11: map-tagged areas, start-area checks and "first settlement in new
land" special victory points (R-018, R-019).

Scenario data (``scenario_state``, JSON values):

- ``islands``: region name -> list of ``[q, r]`` (R-018 map-tagged regions; untagged land falls back to
  connected land components, :func:`service.engine.islands.island_map`);
- ``start_nodes``: ``{"<player>": [[q, r, corner], ...]}`` the starting settlements (home islands are the
  islands holding them, R-018);
- ``svp_first``: ``{"<player>": [q, r, corner]}`` the settlement that earned the player's one token for a
  first settlement in new land (R-019).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Optional

from ..core import Violation
from ..geometry import Hex, Node, node_hexes, node_str
from ..islands import island_map
from ..state import State
from ..svp import award_svp

if TYPE_CHECKING:  # pragma: no cover
    from ..core import Ctx


def as_node(v: Any) -> Node:
    return (int(v[0]), int(v[1]), str(v[2]))


def regions(state: State, fallback: Optional[dict[str, list]] = None) -> dict[Hex, str]:
    """Hex -> region/island name: the state's tagged regions, else the scenario map's ``fallback``
    regions (a posted position may leave ``scenario_state`` empty), else land components (R-018)."""
    out = island_map(state)
    if not state.scenario_state.get("islands") and fallback:
        for name, hs in fallback.items():
            for q, r in hs:
                if (q, r) in state.hexes:
                    out[(q, r)] = name
    return out


def spec_regions(spec: Any) -> dict[str, list]:
    """The tagged regions of a map spec (fixed cells), as in a new game's ``scenario_state``."""
    cells = spec.cells()
    order = sorted(cells, key=lambda h: (h[1], h[0]))
    return {name: [list(h) for h in order if cells[h] in chars] for name, chars in spec.regions.items()}


def node_regions(node: Node, imap: dict[Hex, str]) -> set[str]:
    """The regions whose hexes meet at an intersection (a border node can lie in two)."""
    return {imap[h] for h in node_hexes(node) if h in imap}


def player_count_problems(state: State, players: Iterable[int], rule: str) -> list[tuple[str, str]]:
    """``rule`` (e.g. SC06-001): the scenario is played by exactly these numbers of players."""
    allowed = sorted(players)
    if state.num_players not in allowed:
        return [("/state/players", f"{rule}: this scenario is played by exactly "
                 f"{' or '.join(map(str, allowed))} players, not {state.num_players}")]
    return []


def record_start_node(ctx: "Ctx", s: State) -> None:
    """R-018: home islands are the islands holding a player's starting settlements, fixed in set-up."""
    a = ctx.action
    if ctx.state.phase == "setup" and a.type == "build_settlement":
        starts = s.scenario_state.setdefault("start_nodes", {})
        starts.setdefault(str(a.player), []).append(list(a.get("node")))


def home_regions(state: State, player: int, imap: dict[Hex, str]) -> set[str]:
    out: set[str] = set()
    for n in (state.scenario_state.get("start_nodes") or {}).get(str(player), []):
        out |= node_regions(as_node(n), imap)
    return out


def award_first_settlement(ctx: "Ctx", s: State, qualifies: bool, rule: str, reason: str) -> None:
    """One token per player for his first settlement in new land (R-019 for SC06/SC07, "FIRST ... ONE"
    for SC08/SC09); it is placed under that settlement (SEA-020) and recorded in ``svp_first``."""
    a = ctx.action
    if not qualifies:
        return
    first = s.scenario_state.setdefault("svp_first", {})
    if str(a.player) in first:
        return
    node = a.get("node")
    first[str(a.player)] = list(node)
    award_svp(ctx, s, a.player, node, 1, f"{rule}: {reason}")


def main_phase_settlement(ctx: "Ctx") -> bool:
    return ctx.action.type == "build_settlement" and ctx.state.phase != "setup"


def validate_common(state: State) -> list[tuple[str, str]]:
    """Shapes and facts of ``start_nodes`` / ``svp_first`` (the settlement must still stand)."""
    out: list[tuple[str, str]] = []
    ss = state.scenario_state
    for key in ("start_nodes", "svp_first"):
        v = ss.get(key)
        if v is not None and not isinstance(v, dict):
            out.append((f"/state/scenario_state/{key}", "must be an object keyed by player"))
    for p, n in (ss.get("svp_first") or {}).items():
        try:
            node = as_node(n)
            pl = int(p)
        except (TypeError, ValueError, IndexError):
            out.append((f"/state/scenario_state/svp_first/{p}", "must be [q, r, corner] under a player key"))
            continue
        b = state.buildings.get(node)
        if b is None or b[0] != pl:
            out.append((f"/state/scenario_state/svp_first/{p}",
                        f"player {p}'s first-settlement token lies under {node_str(node)}, which holds no "
                        f"building of theirs"))
    for p, ns in (ss.get("start_nodes") or {}).items():
        if not isinstance(ns, list) or len(ns) > 2:
            out.append((f"/state/scenario_state/start_nodes/{p}", "at most two starting settlements"))
    return out


def violation(rule: str, message: str, path: str = "/action/node") -> list[Violation]:
    return [Violation(rule, message, path)]
