"""Impoverishment: small-island number tokens taken from a reserve, then from the mainland (SC11-008..013,
TDE3-009..014, R-026, R-027, R-063). One implementation serves both Greater Catan scenarios; each
scenario states its rule IDs, wording and the order in which it drops its limitations in a
:class:`TokenRules`, and calls :class:`ReserveTokens`' methods from its hooks.

When a road or ship is placed (or a ship moved) on an edge of a producing small-island hex without a
number token, the placer puts a token on that hex: drawn blind from the reserve while it lasts
(SC11-008 / TDE3-009, R-063), else taken from a mainland (home-island) hex (SC11-009 / TDE3-010) chosen
under three limitations: RED (no two red tokens side by side on the small islands), PROD (no mainland
building left without a numbered hex) and OWN (taken next to one of the placer's own buildings). When no
hex meets them all, they are dropped one after another in the scenario's order (R-026: SC11 drops OWN,
PROD, RED; TDE3 drops RED, OWN, PROD). The placer names the hex(es) he takes from in the action's
``token_from`` (in trigger order); without it the first candidate (north to south, west to east) is
taken. A ``token_from`` entry no mainland token move takes is refused (SC11-009 / TDE3-010).

Decided here (the text's heading is "Small Island Rules"): only hexes off the mainland trigger; a
mainland hex left without its token stays blank (R-027 otherwise applied as written: edge-adjacent
producing hexes, after placement or move, setup included, hexes in ascending order). TDE3's text ("a
hex that does not have a number token") is read the same way: its home island gives tokens, it never
takes them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping, Optional

from ..core import Violation
from ..geometry import Edge, Hex, Node, edge_hexes, hex_corners, hex_neighbours, node_hexes
from ..memo import per_position
from ..rng import Rng
from ..spec import HEX, F, List
from ..state import State, Tile
from .mapdata import PRODUCING

RED = (6, 8)


@dataclass(frozen=True)
class TokenRules:
    """What one scenario's impoverishment rules cite and how they differ (R-026)."""
    #: A blind draw from the reserve (SC11-008, TDE3-009).
    reserve: str
    #: The reserve is empty: a mainland token moves; a ``token_from`` that is no such move is refused.
    area_rule: str
    #: The rule of each limitation: ``{"RED": ..., "PROD": ..., "OWN": ...}``.
    limits: Mapping[str, str]
    #: The rule that lets limitations go when no hex meets them all (SC11-013, TDE3-014).
    drop: str
    #: R-026: the order in which the limitations are dropped.
    drop_order: tuple[str, ...]
    #: How the rules name the island tokens come from ("mainland", "home-island").
    area: str = "mainland"
    #: Name the limitations dropped in the token events and in the reason for a refused ``token_from``.
    report_drops: bool = False

    def limit_text(self, limit: str) -> str:
        return {"RED": "a red token may not end up next to another red token on the small islands",
                "PROD": f"no {self.area} settlement/city that has a numbered hex may be left without one",
                "OWN": "the token comes from a hex next to one of the placer's own settlements/cities"}[limit]


#: Greater Catan of the Seafarers book: 002 ranks RED > PROD > OWN and ignores the lowest ranked first.
SC11_TOKENS = TokenRules(reserve="SC11-008", area_rule="SC11-009",
                         limits={"RED": "SC11-010", "PROD": "SC11-011", "OWN": "SC11-012"},
                         drop="SC11-013", drop_order=("OWN", "PROD", "RED"), area="mainland")
#: R-026: the order in which SC11 drops its limitations when no hex meets them all.
SC11_DROP_ORDER = SC11_TOKENS.drop_order
LIMIT_RULE = dict(SC11_TOKENS.limits)


def token_from_field(doc: str) -> dict[str, dict[str, F]]:
    """The ``token_from`` field the placement action types take (``ACTION_FIELDS``)."""
    return {t: {"token_from": F(List(HEX, max_len=4), nullable=True, doc=doc)}
            for t in ("build_road", "build_ship", "move_ship", "play_road_building")}


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
    """SC11-008 / TDE3-009 (R-027): the hexes sharing ``edge`` that are producing, off the mainland and
    tokenless."""
    out = [h for h in edge_hexes(edge)
           if h in hexes and hexes[h].terrain in PRODUCING and hexes[h].number is None and h not in mainland]
    return sorted(out, key=lambda h: (h[1], h[0]))


def candidates(hexes: dict[Hex, Tile], mainland: set[Hex], buildings: dict[Node, tuple[int, str]], placer: int,
               dest: Hex, drop_order: Iterable[str] = SC11_DROP_ORDER) -> tuple[list[Hex], set[str], dict]:
    """R-026: the mainland hexes the token may come from, the limitations still in force, and the tests."""
    def red(t: Hex) -> bool:
        """RED: a red token may not end up next to another red token on the small islands."""
        if hexes[t].number not in RED:
            return True
        return not any(m not in mainland and m in hexes and hexes[m].number in RED for m in hex_neighbours(dest))

    def prod(t: Hex) -> bool:
        """PROD: no mainland settlement/city that has a numbered hex may be left without one."""
        for node in hex_corners(t):
            if node not in buildings or not any(h in mainland for h in node_hexes(node)):
                continue
            numbered = [h for h in node_hexes(node) if h in hexes and hexes[h].number is not None]
            if numbered == [t]:
                return False
        return True

    def own(t: Hex) -> bool:
        """OWN: the token comes from a hex next to one of the placer's own settlements/cities."""
        return any(buildings.get(n, (-1,))[0] == placer for n in hex_corners(t))

    tests: dict[str, Callable[[Hex], bool]] = {"RED": red, "PROD": prod, "OWN": own}

    def ranked() -> tuple[list[Hex], set[str]]:
        pool = sorted((t for t in mainland if t != dest and t in hexes and hexes[t].number is not None),
                      key=lambda h: (h[1], h[0]))
        keep = {"RED", "PROD", "OWN"}
        cands = [t for t in pool if all(tests[k](t) for k in keep)]
        for limit in drop_order:
            if cands:
                break
            keep.discard(limit)              # SC11-013 / TDE3-014: drop the next limitation in the order
            cands = [t for t in pool if all(tests[k](t) for k in keep)]
        return cands, keep

    # The same board asks again for every placement judged there (the legal-action list judges many):
    # kept per position (``memo.per_position``: the hexes, the home or mainland hexes and the buildings are
    # what the tests read), handed out as copies.
    order = tuple(drop_order)
    inputs = (hexes, mainland if type(mainland) is frozenset else frozenset(mainland), buildings)
    cands, keep = per_position(_RANKED, (dest, placer, order), inputs, ranked, size=64)
    return list(cands), set(keep), tests


_RANKED: dict = {}


def settle_tokens(state: State, mainland: set[Hex], action, draw: Optional[Callable[[list[int]], int]],
                  hexes: Optional[dict[Hex, Tile]] = None, reserve: Optional[list[int]] = None,
                  rules: TokenRules = SC11_TOKENS) -> tuple[list[dict], list[Violation]]:
    """Play out the token placements an action triggers on ``hexes``/``reserve`` (copies are changed).

    ``draw(reserve) -> index`` draws from the reserve; ``None`` (when only checking) takes a placeholder.
    Returns the moves and the violations of the placer's ``token_from`` choices."""
    hexes = dict(state.hexes) if hexes is None else hexes
    reserve = list(state.scenario_state.get("token_pile") or []) if reserve is None else reserve
    choices = list(action.get("token_from") or [])
    moves: list[dict] = []
    area = rules.area
    for edge in placed_edges(action):
        for dest in triggered(hexes, mainland, edge):
            terrain = hexes[dest].terrain
            if reserve:
                # SC11-008 / TDE3-009: a blind draw from the reserve.
                i = draw(reserve) if draw is not None else 0
                n = reserve.pop(i)
                hexes[dest] = Tile(terrain, n)
                moves.append({"hex": list(dest), "from": "reserve", "number": n})
                continue
            # SC11-009 / TDE3-010: the reserve is empty, so a mainland token moves here.
            cands, keep, tests = candidates(hexes, mainland, state.buildings, action.player, dest, rules.drop_order)
            dropped = [k for k in rules.drop_order if k not in keep]
            if not cands:
                moves.append({"hex": list(dest), "from": None, "number": None})
                continue
            src = cands[0]
            if choices:
                want = tuple(choices.pop(0))
                if want not in cands:
                    if want not in mainland or want not in hexes or hexes[want].number is None or want == dest:
                        return moves, [Violation(rules.area_rule, f"the token for {dest[0]},{dest[1]} comes from "
                                                 f"a numbered {area} hex; {want[0]},{want[1]} is not one",
                                                 "/action/token_from")]
                    broken = next(k for k in ("RED", "PROD", "OWN") if k in keep and not tests[k](want))
                    why = (f"the token for {dest[0]},{dest[1]} may not come from {want[0]},{want[1]}: "
                           f"{rules.limit_text(broken)} (allowed: {', '.join(f'{h[0]},{h[1]}' for h in cands)})")
                    if rules.report_drops and dropped:
                        why += (f"; {rules.drop}: no hex meets every limitation, so "
                                f"{', '.join(rules.limits[k] for k in dropped)} no longer hold")
                    return moves, [Violation(rules.limits[broken], why, "/action/token_from")]
                src = want
            n = hexes[src].number
            hexes[src] = Tile(hexes[src].terrain, None)
            hexes[dest] = Tile(terrain, n)
            move: dict[str, Any] = {"hex": list(dest), "from": list(src), "number": n}
            if rules.report_drops:
                move["limits_dropped"] = [rules.limits[k] for k in dropped]
            moves.append(move)
    if choices:
        used = sum(1 for m in moves if m["from"] not in (None, "reserve"))
        return moves, [Violation(rules.area_rule, f"token_from names {len(choices)} more hex(es) than this "
                                 f"placement moves {area} tokens ({used})", "/action/token_from")]
    return moves, []


def seeded_draw(state: State) -> Callable[[list[int]], int]:
    """R-063's blind draw from the reserve, taken from the state's seeded generator: judging an action
    (``check``), listing it and applying it (``after_action``) all see the same tokens drawn, so a
    ``token_from`` choice is judged against the board it will meet."""
    rng = Rng(state.rng_seed, state.rng_counter)
    return lambda pile: rng.below(len(pile))


def token_choices(state: State, mainland: set[Hex], action, rules: TokenRules = SC11_TOKENS) -> list[list[Hex]]:
    """Every ``token_from`` the placer may name for ``action`` (SC11-009..013, TDE3-010..014): one list per
    way of choosing, in trigger order, a source for each token taken from the mainland, each source
    allowed on the board the earlier moves (and the reserve's seeded draws) leave. ``[]`` when the
    action moves no mainland token.

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
            if reserve:                                   # a blind draw, no choice
                reserve = list(reserve)
                hexes = {**hexes, dest: Tile(terrain, reserve.pop(draw(reserve)))}
                continue
            cands, _, _ = candidates(hexes, mainland, state.buildings, action.player, dest, rules.drop_order)
            if not cands:                                 # nothing may move here: the hex stays blank
                continue
            for src in cands:                             # one branch per allowed source
                h2 = dict(hexes)
                h2[dest] = Tile(terrain, h2[src].number)
                h2[src] = Tile(h2[src].terrain, None)
                walk(k, dests, h2, reserve, chosen + [src])
            return

    walk(0, [], state.hexes, list(state.scenario_state.get("token_pile") or []), [])
    return out


class ReserveTokens:
    """The impoverishment rule as scenario hooks, for a scenario that states ``token_rules`` and
    ``token_area(state)`` (the hexes tokens come from) and calls these from its hooks: ``token_check``
    from ``check``, ``token_candidates`` from ``legal_candidates``, ``token_after_action`` from
    ``after_action``. The reserve is ``scenario_state["token_pile"]``."""

    token_rules: TokenRules = SC11_TOKENS

    def token_area(self, state: State) -> set[Hex]:
        raise NotImplementedError

    def token_check(self, ctx) -> list[Violation]:
        """The placer's ``token_from``, judged with the draws ``token_after_action`` will make (the seeded
        generator)."""
        s, a = ctx.state, ctx.action
        if not placed_edges(a):
            return []
        _, problems = settle_tokens(s, self.token_area(s), a, seeded_draw(s), rules=self.token_rules)
        return problems

    def token_candidates(self, state: State, graph, player: int) -> list:
        """Once mainland tokens move (the reserve empty, or emptied by the placement itself), every way of
        naming their sources (``token_from``, :func:`token_choices`) makes its own action: for every road or
        ship placement, ship move and Road Building that moves one (the action without ``token_from``,
        taking the first allowed source each time, is listed by the engine as well). The actions they are
        made from are those the list judges (``legal.proposed``): naming sources only adds to the checks
        (without ``token_from`` the first allowed source is taken, never refused), so an action that is
        not legal without ``token_from`` is not legal with any."""
        if state.phase not in ("setup", "main") or player != state.current_player \
                or len(state.scenario_state.get("token_pile") or []) >= 4:   # (one action triggers at most 4)
            return []
        from ..core import Action
        from ..legal import proposed
        mainland = self.token_area(state)
        types = [t for t in ("build_road", "build_ship", "move_ship") if t in self.action_types()]  # type: ignore[attr-defined]
        pl = state.players[player]
        if pl.dev_cards.get("road_building", 0) > 0 and not state.flags.dev_card_played:
            types.append("play_road_building")
        out = []
        for t in types:
            for a in proposed(t, state, graph, self, player):
                if any(triggered(state.hexes, mainland, e) for e in placed_edges(a)):
                    out += [Action(t, player, {**a.params, "token_from": list(choice)})
                            for choice in token_choices(state, mainland, a, self.token_rules)]
        return out

    def chance_base(self, state: State, graph, action) -> Any:
        """R-063 with SC11-009 / TDE3-010: a placement that draws from the reserve (blind, from two tokens or
        more) and then, the reserve emptied, moves a mainland token: the sources it may name depend on the
        tokens drawn (RED), so its ``token_from`` choices follow its own draws. The action without them."""
        pile = state.scenario_state.get("token_pile") or []
        if len(pile) < 2 or not placed_edges(action):
            return None
        from ..core import Action
        base = Action(action.type, action.player, {k: v for k, v in action.params.items() if k != "token_from"})
        moves, _ = settle_tokens(state, self.token_area(state), base, None, rules=self.token_rules)
        if not any(m["from"] == "reserve" for m in moves) or all(m["from"] == "reserve" for m in moves):
            return None
        return base

    def chance_family(self, state: State, graph, base) -> list:
        """``base`` and ``base`` naming each way of choosing its mainland sources (:func:`token_choices`,
        judged with the draws in force, as the list names them)."""
        from ..core import Action
        return [base] + [Action(base.type, base.player, {**base.params, "token_from": list(c)})
                         for c in token_choices(state, self.token_area(state), base, self.token_rules)]

    def token_after_action(self, ctx, s: State) -> list[dict]:
        """Place the tokens the applied action triggers on ``s`` and emit one ``number_token_placed``
        event per token; returns the moves."""
        if not placed_edges(ctx.action):
            return []
        rng = Rng(s.rng_seed, s.rng_counter)
        hexes = dict(s.hexes)
        reserve = list(s.scenario_state.get("token_pile") or [])
        moves, _ = settle_tokens(ctx.state, self.token_area(s), ctx.action, lambda pile: rng.below(len(pile)),
                                 hexes, reserve, rules=self.token_rules)
        if moves:
            s.hexes = hexes
            s.scenario_state["token_pile"] = reserve
            s.rng_counter = rng.counter
            for m in moves:
                ctx.emit("number_token_placed", player=ctx.action.player, **m)
        return moves
