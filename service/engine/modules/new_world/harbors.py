"""Player-placed harbours (A New World, R-020): the ``place_harbor`` action and its set-up phase.

Before the first settlement, starting with the oldest player (``options["oldest_player"]``, default
seat 0) and going round the table, each player puts one face-down harbour token on a sea hex next to the
land hex of his choice, naming the coast edge it faces (``{"type": "place_harbor", "edge": [q, r, side]}``).
The tokens are turned face up once all are placed: the engine keeps the unplaced tokens as a multiset
(``scenario_state["harbor_pile"]``) and the chosen edges (``harbor_slots``), and deals the kinds onto the
slots with the game's seeded generator only then, so no one, the placer included, knows a kind before.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import Handler
from ...core import Ctx, Violation
from ...geometry import edge_hexes, edge_str
from ...mapgraph import LAND
from ...rng import Rng
from ...state import State
from ...scenarios._sc_common import as_node  # noqa: F401  (re-exported for callers parsing slots)
from ...seats import Secret

if TYPE_CHECKING:  # pragma: no cover
    pass


#: What A New World keeps from every player (a seat's view, ``seats.py``). SC08-005 / SC09-005: the tokens
#: are drawn from a face-down pile and laid face down, unseen by the placer too, until all are placed. The
#: pile shows as its size; a laid token has no kind in the position before all are turned face up (the
#: kinds are dealt onto ``harbor_slots`` then, from the seeded generator whose seed no seat sees), so a slot
#: shows only where it lies, and the picture draws it face down.
NEW_WORLD_SECRETS = (
    Secret("state:/scenario_state/harbor_pile", "count", "the face-down harbour tokens, until all are placed "
           "and turned face up (a laid token's kind is dealt from the seeded draws only then; its place, "
           "`harbor_slots`, is public)", owner="", rules="SC08-005, SC09-005, R-020"),
)


def harbors_pending(state: State) -> int:
    """Harbour tokens still to place (0 once they are all placed and turned face up)."""
    ss = state.scenario_state
    return max(0, len(ss.get("harbor_pile") or []) - len(ss.get("harbor_slots") or []))


def slot_sea_hexes(state: State) -> set:
    out = set()
    for e in state.scenario_state.get("harbor_slots") or []:
        for h in edge_hexes((int(e[0]), int(e[1]), str(e[2]))):
            t = state.hexes.get(h)
            if t is not None and t.terrain == "sea":
                out.add(h)
    for e in state.harbors:
        for h in edge_hexes(e):
            t = state.hexes.get(h)
            if t is not None and t.terrain == "sea":
                out.add(h)
    return out


def placer(state: State, placed: int) -> int:
    """R-020: oldest player first, then clockwise, round and round (4 players, 10 tokens: 3, 3, 2, 2)."""
    return (int(state.options.get("oldest_player", 0)) + placed) % state.num_players


def make_handler(rule: str) -> Handler:
    """The ``place_harbor`` handler of a scenario whose harbour rule is ``rule`` (SC08-005, SC09-005)."""

    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        if harbors_pending(s) == 0:
            return [Violation(rule, "all harbour tokens are placed; set-up goes on with the settlements")]
        edge = a.get("edge")
        g = ctx.graph
        eid = g.edge_index.get(edge)
        hexes = [s.hexes.get(h) for h in edge_hexes(edge)]
        terrains = [t.terrain if t is not None else None for t in hexes]
        if eid is None or not (any(t in LAND for t in terrains) and "sea" in terrains):
            return [Violation(rule, f"a harbour token goes on a sea hex next to a land hex, facing that land: "
                              f"{edge_str(edge)} is not a side between a sea hex and a land hex", "/action/edge")]
        sea = next(h for h, t in zip(edge_hexes(edge), terrains) if t == "sea")
        if sea in slot_sea_hexes(s):
            return [Violation(rule, f"sea hex {sea[0]},{sea[1]} already holds a harbour token (one per sea hex, "
                              "R-020)", "/action/edge")]
        return []

    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        ss = s.scenario_state
        slots = ss.setdefault("harbor_slots", [])
        slots.append(list(a.get("edge")))
        ctx.emit("harbor_placed", player=a.player, edge=list(a.get("edge")), face_down=True)
        if harbors_pending(s) == 0:
            rng = Rng(s.rng_seed, s.rng_counter)
            kinds = rng.shuffle(sorted(ss.get("harbor_pile") or []))
            s.rng_counter = rng.counter
            s.harbors = {**s.harbors, **{(int(e[0]), int(e[1]), str(e[2])): k for e, k in zip(slots, kinds)}}
            ss["harbor_pile"] = []
            ss["harbor_slots"] = []
            s.current_player = placer(s, 0)
            ctx.emit("harbors_revealed", harbors=[{"edge": list(e), "kind": k} for e, k in sorted(s.harbors.items())])
        else:
            s.current_player = placer(s, len(slots))

    return Handler("place_harbor", frozenset({"setup"}), check, apply, not_your_turn=rule)


def face_down_layers(state: State) -> list:
    """The picture's harbour tokens laid face down (SC08-005 / SC09-005): a square marked "?" on the sea
    hex of each slot, its kind not drawn (no one knows it before all are turned face up); none once they
    are (the board's harbours are drawn then)."""
    from ...picture import Glyph, Layer
    glyphs = []
    for e in state.scenario_state.get("harbor_slots") or []:
        edge = (int(e[0]), int(e[1]), str(e[2]))
        sea = [h for h in edge_hexes(edge) if (t := state.hexes.get(h)) is not None and t.terrain == "sea"]
        glyphs += [Glyph(h, "?", None, f"harbour token laid face down facing {edge_str(edge)}, its kind "
                                     "unknown until all are placed (SC08-005, SC09-005)") for h in sea[:1]]
    if not glyphs:
        return []
    return [Layer("harbor-face-down", "harbour token laid face down (SC08-005, SC09-005)", "square", "#8d6e63",
                  tuple(glyphs))]


def harbor_phase_violation(ctx: Ctx, rule: str) -> list[Violation]:
    """While harbour tokens remain, set-up placements wait (they come before the setup phase)."""
    if ctx.state.phase == "setup" and ctx.action.type != "place_harbor" and harbors_pending(ctx.state):
        return [Violation(rule, f"{harbors_pending(ctx.state)} harbour token(s) are still to be placed before "
                          "the first settlement (place_harbor)", "/action/type")]
    return []


def validate_harbor_state(state: State, rule: str) -> list[tuple[str, str]]:
    ss = state.scenario_state
    pile, slots = ss.get("harbor_pile") or [], ss.get("harbor_slots") or []
    out: list[tuple[str, str]] = []
    if not isinstance(pile, list) or not isinstance(slots, list):
        return [("/state/scenario_state/harbor_pile", "harbor_pile and harbor_slots are lists")]
    if len(slots) > len(pile):
        out.append(("/state/scenario_state/harbor_slots", f"{len(slots)} harbour slots for {len(pile)} tokens"))
    if pile and state.phase != "setup":
        out.append(("/state/scenario_state/harbor_pile", f"{rule}: harbour tokens are placed before set-up ends"))
    if harbors_pending(state) and state.buildings:
        out.append(("/state/scenario_state/harbor_pile", f"{rule}: all harbours are placed before the first "
                    "settlement"))
    for i, e in enumerate(slots):
        if not (isinstance(e, list) and len(e) == 3):
            out.append((f"/state/scenario_state/harbor_slots/{i}", "a slot is [q, r, side]"))
    return out
