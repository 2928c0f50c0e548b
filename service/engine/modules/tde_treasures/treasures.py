"""The treasure machinery shared by "The Treasure Islands" (TDE1) and "Departure into the Unknown" (TDE2).

Data kept in ``scenario_state`` (declared in :data:`TREASURE_STATE`):

- ``treasures``: the treasure tokens lying on the board, ``[{"node", "kind"}]`` (the kind is what the
  token's underside shows; the referee's state knows it, the players do not until it is taken);
- ``treasure_stock``: the face-down stock beside the board, top first (TDE1-005, TDE1-010);
- ``pending``: rewards won and not yet claimed, first to claim first, ``[{"player", "kind", "count",
  "source", "rule"}]`` (R-055: rewards are resolved recursively in placement order);
- ``kept``: per player, the treasure tokens kept face down (TDE2-016..020);
- ``special_ports``: per player, the special 2:1 port attached to a coastal building (TDE2-018, R-060);
- ``harbor_pile``: the special ports still in the stock beside the board (TDE2-007).

Treasure kinds (R-055, data-driven; the engine default deals 8 ``resources``, 6 ``roads_ships`` and 6
``development_card``): ``resources`` = 2 resources of the finder's choice, ``roads_ships`` = 2 roads or
ships (any mix) placed at once for free under the normal placement rules, forfeited when no legal spot
is left, ``development_card`` = the top development card.

A road or ship placed (built, moved, placed in set-up, by Road Building or as a treasure's free piece)
is resolved edge by edge in placement order: first the treasure tokens at its two ends are taken
(TDE2-013), then the unexplored hexes at its ends are turned over (TDE1-008, TDE2-011, the Oceans reveal
of ``scenarios.hooks``). Every reward goes to the front of ``pending`` in the order it was won, so the
rewards a free piece wins are claimed before the rest of the rewards already owed (recursively, R-055).
Nothing else may happen until the head of ``pending`` is claimed (TDE1-012, TDE2-015).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Iterable, Optional

from ...actions import own_handler
from ...core import Action, Ctx, Violation
from ...geometry import Edge, Node, edge_nodes, node_edges, node_str
from ...mapgraph import RESOURCE_OF, RESOURCES
from ...rng import Rng
from ...spec import EDGE, NODE, PLAYER, F, Int, List, Obj, Str, by_player
from ...state import State
from ...scenarios.components import as_list
from ...scenarios.hooks import hexes_to_reveal, lay_hex, placed_edges, remaining_pile, turn_over

KINDS = ("resources", "roads_ships", "development_card")
#: R-055 (engine default, not in the source): the 20 treasure tokens of the box.
DEFAULT_TREASURES = {"resources": 8, "roads_ships": 6, "development_card": 6}
#: R-055: what each kind gives (how many resources / pieces).
KIND_COUNT = {"resources": 2, "roads_ships": 2, "development_card": 1}
#: R-060 (engine default): the special ports' stock, one per resource.
SPECIAL_PORTS = tuple(RESOURCES)
#: TDE2-020: at most 4 kept treasure tokens.
MAX_KEPT = 4

_PENDING = Obj({
    "player": F(PLAYER, required=True),
    "kind": F(Str(KINDS), required=True, doc="resources (a free choice), roads_ships or development_card"),
    "count": F(Int(0, 2), required=True, doc="how many resources or pieces the reward gives"),
    "source": F(Str(("board", "stock", "gold")), required=True,
                doc="a treasure token from the board or the stock, or a discovered gold hex's free pick"),
    "rule": F(Str(max_len=12), required=True, doc="the rule that gives it"),
})

TREASURE_STATE = {
    "treasures": F(List(Obj({"node": F(NODE, required=True), "kind": F(Str(KINDS), required=True)}), max_len=40),
                   doc="TDE1-005, TDE2-006: the treasure tokens on the board (node and what the token gives)"),
    "treasure_stock": F(List(Str(KINDS), max_len=20), doc="TDE1-005: the face-down treasure stock, top first"),
    "pending": F(List(_PENDING, max_len=60),
                 doc="TDE1-012, R-055: rewards won and not yet claimed, the first to claim first"),
    "kept": F(by_player(Int(0, MAX_KEPT)), doc="TDE2-016: treasure tokens each player keeps face down"),
    "special_ports": F(by_player(Obj({"node": F(NODE, required=True), "edge": F(EDGE, required=True),
                                      "resource": F(Str(RESOURCES), required=True)})),
                       doc="TDE2-018 (R-060): the special 2:1 port each player attached, and where"),
    "harbor_pile": F(List(Str(RESOURCES), max_len=5), doc="TDE2-007: the special ports still in the stock"),
}

_PIECES = F(List(Obj({"kind": F(Str(("road", "ship")), required=True), "edge": F(EDGE, required=True)}),
                 max_len=2), nullable=True, doc="roads_ships: the free pieces, in placement order")

# -- the state's treasure data -------------------------------------------------------------------------


def treasure_at(state: State) -> dict[Node, str]:
    return {tuple(t["node"]): t["kind"] for t in state.scenario_state.get("treasures") or []}


def pending(state: State) -> list[dict]:
    return state.scenario_state.get("pending") or []


def kept(state: State, player: int) -> int:
    return int((state.scenario_state.get("kept") or {}).get(str(player), 0))


def deal_treasures(rng: Rng, positions: Iterable[Node], stock: int) -> tuple[list[dict], list[str]]:
    """TDE1-005 / TDE2-006: the treasure tokens shuffled chest side up; one on each marked position, the
    next ``stock`` face down beside the board (R-055: the default 20 tokens)."""
    tokens = rng.shuffle(as_list(DEFAULT_TREASURES))
    positions = list(positions)
    board = [{"node": list(n), "kind": k} for n, k in zip(positions, tokens)]
    return board, tokens[len(positions):len(positions) + stock]


# -- resolving placements --------------------------------------------------------------------------------


def resolve_placements(ctx: Ctx, s: State, edges: list[Edge], player: int, scen: Any) -> None:
    """Treasures first, then discoveries, edge by edge in placement order (TDE2-013, R-055); every reward
    won is queued before the rewards already owed (recursive resolution)."""
    if not edges:
        return
    ss = s.scenario_state
    won: list[dict] = []
    given = list(ctx.action.get("discoveries") or [])
    rng = Rng(s.rng_seed, s.rng_counter)
    table = scen.hidden_table(s.num_players)
    pool_hexes, pool_tokens = remaining_pile(s, table)
    for e in edges:
        on_board = ss.get("treasures") or []
        for n in edge_nodes(e):                                    # TDE2-013: the treasure first
            hit = next((t for t in on_board if tuple(t["node"]) == n), None)
            if hit is None:
                continue
            on_board = [t for t in on_board if t is not hit]
            ss["treasures"] = on_board
            rule = scen.rules["treasure"]
            won.append(_reward(player, hit["kind"], "board", rule))
            ctx.emit("treasure_found", player=player, node=list(n), kind=hit["kind"], rule=rule)
        for h in hexes_to_reveal(s, [e]):                          # then the discovery
            found = turn_over(ss, given, pool_hexes, pool_tokens, rng)
            if found is None:
                break                                              # the pile is empty
            terrain, number = found
            lay_hex(ctx, s, h, terrain, number)
            reward: dict[str, int] = {}
            res = RESOURCE_OF.get(terrain)
            if res:                                                # TDE1-009, TDE2-012: 1 of its resource
                rule = scen.rules["reward"]
                if s.bank.get(res, 0) > 0:
                    s.bank[res] -= 1
                    s.players[player].resources[res] += 1
                    reward = {res: 1}
            elif terrain == "gold":                                # TDE1-009, R-058: 1 of the finder's choice
                rule = scen.rules["reward"]
                won.append(_reward(player, "resources", "gold", rule, 1))
            elif scen.stock_on_discovery and terrain in ("sea", "desert"):
                rule = scen.rules["stock"]                         # TDE1-010: a treasure from the stock
                stock = ss.get("treasure_stock") or []
                if stock:                                          # nothing once it is empty
                    kind = stock[0]
                    ss["treasure_stock"] = stock[1:]
                    won.append(_reward(player, kind, "stock", rule))
                    ctx.emit("treasure_found", player=player, node=None, kind=kind, rule=rule)
            else:
                rule = scen.rules["sea"]                           # TDE2-012: sea (or desert) gives nothing
            ctx.emit("discovered", player=player, hex=list(h), terrain=terrain, number=number, reward=reward,
                     rule=rule, reveal_rule=scen.rules["reveal"])
    s.rng_counter = rng.counter
    if won:
        ss["pending"] = won + list(ss.get("pending") or [])


def _reward(player: int, kind: str, source: str, rule: str, count: Optional[int] = None) -> dict:
    return {"player": player, "kind": kind, "count": KIND_COUNT[kind] if count is None else count,
            "source": source, "rule": rule}


# -- free pieces ---------------------------------------------------------------------------------------


def _free_piece(sub: Ctx, i: int, kind: str, edge, path: str) -> list[Violation]:
    from ...actions.dev import _free_piece_violations
    return _free_piece_violations(sub, i, kind, edge, path)


def free_spots(ctx: Ctx, state: State, player: int) -> list[tuple[str, Edge]]:
    """Every road or ship ``player`` could place now for free (supply, site and connection rules)."""
    g = ctx.graph
    sup = state.players[player].supply
    out = []
    own = {n for n, (p, _k) in state.buildings.items() if p == player}
    for e, p in list(state.roads.items()) + list(state.ships.items()):
        if p == player:
            own.update(edge_nodes(e))
    cands = {e for n in own for e in node_edges(n) if e in g.edge_index}
    sub = Ctx(state, Action("claim_reward", player, {}), g, ctx.scenario)
    from ...placement import road_site, ship_site
    conn = ctx.scenario.piece_connection
    for e in sorted(cands):
        if sup.get("roads", 0) > 0 and not (road_site(sub, e, "") or conn(sub, "road", e, player, "")):
            out.append(("road", e))
        if ctx.scenario.ships and sup.get("ships", 0) > 0 and not (
                ship_site(sub, e, "") or conn(sub, "ship", e, player, "")):
            out.append(("ship", e))
    return out


def pieces_violations(ctx: Ctx, head: dict) -> list[Violation]:
    """R-055: up to 2 free roads or ships, placed one after the other under the normal rules; fewer only
    when no legal spot is left for another one."""
    a, rule = ctx.action, head["rule"]
    pieces = a.get("pieces") or []
    if len(pieces) > head["count"]:
        return [Violation(rule, f"this treasure gives {head['count']} free pieces; the action names {len(pieces)}",
                          "/action/pieces")]
    tmp = ctx.state.copy()
    for i, piece in enumerate(pieces):
        sub = Ctx(tmp, a, ctx.graph, ctx.scenario)
        v = _free_piece(sub, i, piece["kind"], tuple(piece["edge"]), f"/action/pieces/{i}/edge")
        if v:
            return v
    if len(pieces) < head["count"] and free_spots(ctx, tmp, a.player):
        return [Violation(rule, f"the treasure's {head['count']} free roads or ships are placed now (a benefit cannot "
                          f"be saved, TDE1-012); {len(pieces)} named while another can still be placed (R-055)",
                          "/action/pieces")]
    return []


# -- the claim action ----------------------------------------------------------------------------------


def claim_wrong_phase(ctx: Ctx) -> Optional[Violation]:
    return Violation(ctx.scenario.rules["use"], "no treasure reward is waiting to be claimed")


@own_handler("claim_reward", {"setup", "roll", "main"}, actor="reward", changes_routes=True,
             wrong_phase=claim_wrong_phase)
class ClaimReward:
    """Claim the first reward owed: use it (resources chosen, free pieces placed, a development card
    drawn) or, in Departure into the Unknown, keep the treasure token face down (TDE2-016)."""

    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a, scen = ctx.state, ctx.action, ctx.scenario
        queue = pending(s)
        if not queue:
            return [Violation(scen.rules["use"], "no treasure reward is waiting to be claimed")]
        head = queue[0]
        if a.player != head["player"]:
            return [Violation(scen.rules["use"], f"player {head['player']} claims a reward first "
                              f"({head['kind']}, {head['rule']})", "/action/player")]
        if a.get("keep"):
            if not scen.may_keep:
                return [Violation(scen.rules["use"], "treasures are used at once in this scenario; none is kept",
                                  "/action/keep")]
            if head["source"] == "gold":
                return [Violation("TDE2-016", "a discovery's free pick is not a treasure token; it cannot be kept",
                                  "/action/keep")]
            if kept(s, a.player) >= MAX_KEPT:
                return [Violation("TDE2-020", f"player {a.player} already keeps {MAX_KEPT} treasure tokens; this one "
                                  "must be used", "/action/keep")]
            return _no_fields(a, ("resources", "pieces", "card"), "TDE2-016")
        kind, rule = head["kind"], head["rule"]
        if kind == "resources":
            v = _no_fields(a, ("pieces", "card"), rule)
            if v:
                return v
            cards = {r: n for r, n in (a.get("resources") or {}).items() if n}
            want = min(head["count"], sum(s.bank.values()))
            if sum(cards.values()) != want:
                return [Violation(rule, f"the reward is {want} resource{'s' if want != 1 else ''} of the player's "
                                  f"choice; the action names {sum(cards.values())}", "/action/resources")]
            for r, n in cards.items():
                if n > s.bank.get(r, 0):
                    return [Violation(rule, f"the bank holds {s.bank.get(r, 0)} {r}", f"/action/resources/{r}")]
            return []
        if kind == "roads_ships":
            return _no_fields(a, ("resources", "card"), rule) or pieces_violations(ctx, head)
        v = _no_fields(a, ("resources", "pieces"), rule)
        if v:
            return v
        card = a.get("card")
        if card is not None and s.dev_deck.get(card, 0) <= 0:
            return [Violation(rule, f"the development deck holds no {card} card", "/action/card")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a, scen = ctx.action, ctx.scenario
        ss = s.scenario_state
        head, rest = ss["pending"][0], ss["pending"][1:]
        ss["pending"] = rest
        p = a.player
        if a.get("keep"):                                          # TDE2-016: face down, for good
            ss.setdefault("kept", {})[str(p)] = kept(s, p) + 1
            ctx.emit("treasure_kept", player=p, kept=kept(s, p), rule="TDE2-016")
            return
        kind = head["kind"]
        if kind == "resources":
            cards = {r: n for r, n in (a.get("resources") or {}).items() if n}
            for r, n in cards.items():
                s.bank[r] -= n
                s.players[p].resources[r] += n
            ctx.emit("reward_claimed", player=p, kind=kind, resources=cards, rule=head["rule"])
        elif kind == "development_card":
            card = None
            if sum(s.dev_deck.values()) > 0:
                from ...actions.dev import draw_card
                card = draw_card(s, p, a.get("card"))
            ctx.emit("reward_claimed", player=p, kind=kind, card=card, rule=head["rule"])
        else:
            edges = []
            for piece in a.get("pieces") or []:
                e = tuple(piece["edge"])
                if piece["kind"] == "road":
                    s.roads[e] = p
                    s.players[p].supply["roads"] -= 1
                else:
                    s.ships[e] = p
                    if s.phase != "setup":                 # (set-up ships are not "built this turn")
                        s.flags.ships_built.append(e)
                    s.players[p].supply["ships"] -= 1
                ctx.emit("built", player=p, piece=piece["kind"], edge=list(e), free=True)
                edges.append(e)
            ctx.emit("reward_claimed", player=p, kind=kind, pieces=len(edges), rule=head["rule"])
            resolve_placements(ctx, s, edges, p, scen)             # recursively, in placement order


def _no_fields(a: Action, names: tuple[str, ...], rule: str) -> list[Violation]:
    for n in names:
        if a.get(n):
            return [Violation(rule, f"{n} does not belong to this claim", f"/action/{n}")]
    return []


def claim_candidates(state: State, graph, scen, player: int) -> list[Action]:
    """Every way to claim the first reward owed by ``player``."""
    queue = pending(state)
    if not queue or queue[0]["player"] != player or state.phase not in ("setup", "roll", "main"):
        return []
    head = queue[0]
    out = []
    if scen.may_keep and head["source"] != "gold" and kept(state, player) < MAX_KEPT:
        out.append(Action("claim_reward", player, {"keep": True}))
    if head["kind"] == "resources":
        want = min(head["count"], sum(state.bank.values()))
        avail = [r for r in RESOURCES if state.bank.get(r, 0) > 0]
        for combo in combinations_with_replacement(avail, want):
            cards: dict[str, int] = {}
            for r in combo:
                cards[r] = cards.get(r, 0) + 1
            out.append(Action("claim_reward", player, {"resources": cards}))
    elif head["kind"] == "development_card":
        out.append(Action("claim_reward", player, {}))
    else:
        ctx = Ctx(state, Action("claim_reward", player, {}), graph, scen)
        firsts = free_spots(ctx, state, player)
        if not firsts:
            out.append(Action("claim_reward", player, {"pieces": []}))
        for kind, e in firsts:
            one = [{"kind": kind, "edge": list(e)}]
            if head["count"] < 2:
                out.append(Action("claim_reward", player, {"pieces": one}))
                continue
            tmp = state.copy()
            (tmp.roads if kind == "road" else tmp.ships)[e] = player
            tmp.players[player].supply[kind + "s"] -= 1
            seconds = free_spots(ctx, tmp, player)
            if not seconds:
                out.append(Action("claim_reward", player, {"pieces": one}))
            for kind2, e2 in seconds:
                out.append(Action("claim_reward", player, {"pieces": one + [{"kind": kind2, "edge": list(e2)}]}))
    return out


# -- the special port ----------------------------------------------------------------------------------


def coast_edges(state: State, graph, node: Node) -> list[Edge]:
    """The coast sides at ``node`` (land on one side, water on the other) not holding a harbour yet."""
    out = []
    for e in node_edges(node):
        eid = graph.edge_index.get(e)
        if eid is not None and graph.edge_kind[eid] == "coast" and e not in state.harbors:
            out.append(e)
    return out


def port_owed(state: State, player: int) -> bool:
    """R-060: a player keeping 2 treasure tokens takes one special port (once)."""
    return (kept(state, player) >= 2 and str(player) not in (state.scenario_state.get("special_ports") or {})
            and bool(state.scenario_state.get("harbor_pile")))


def port_sites(state: State, graph, player: int) -> list[tuple[Node, Edge]]:
    """Own coastal settlements and cities with a free coast side (TDE2-018)."""
    out = []
    for n, (p, _k) in sorted(state.buildings.items()):
        if p == player:
            out += [(n, e) for e in coast_edges(state, graph, n)]
    return out


@own_handler("attach_special_port", {"roll", "main"}, not_your_turn="TDE2-018")
class AttachSpecialPort:
    """TDE2-018 (R-060): with 2 kept treasure tokens, take a special port from the stock and attach it to
    a coastal settlement or city of your own; that building trades the port's resource at 2:1."""

    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a, g = ctx.state, ctx.action, ctx.graph
        if kept(s, a.player) < 2:
            return [Violation("TDE2-018", f"a special port is taken with 2 kept treasure tokens; player {a.player} "
                              f"keeps {kept(s, a.player)}")]
        if str(a.player) in (s.scenario_state.get("special_ports") or {}):
            return [Violation("TDE2-018", f"player {a.player} has already attached a special port (R-060: one)")]
        res = a.get("resource")
        if res not in (s.scenario_state.get("harbor_pile") or []):
            return [Violation("TDE2-018", f"the stock holds no {res} special port (left: "
                              f"{', '.join(s.scenario_state.get('harbor_pile') or []) or 'none'})", "/action/resource")]
        node = tuple(a.get("node"))
        b = s.buildings.get(node)
        if b is None or b[0] != a.player:
            return [Violation("TDE2-018", f"the port goes against a settlement or city of player {a.player}; "
                              f"{node_str(node)} holds none", "/action/node")]
        free = coast_edges(s, g, node)
        edge = a.get("edge")
        if edge is not None and tuple(edge) not in free:
            return [Violation("TDE2-018", f"{edge[0]},{edge[1]},{edge[2]} is not a free coast side at "
                              f"{node_str(node)}", "/action/edge")]
        if not free:
            return [Violation("TDE2-018", f"the building at {node_str(node)} has no free coast side: it is not "
                              "coastal, or its coast already holds harbours", "/action/node")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        node, res = tuple(a.get("node")), a.get("resource")
        edge = tuple(a.get("edge")) if a.get("edge") is not None else coast_edges(s, ctx.graph, node)[0]
        ss = s.scenario_state
        pile = list(ss.get("harbor_pile") or [])
        pile.remove(res)
        ss["harbor_pile"] = pile
        s.harbors = {**s.harbors, edge: res}        # (a new dict: copies of a state share the board)
        ss.setdefault("special_ports", {})[str(a.player)] = {"node": list(node), "edge": list(edge), "resource": res}
        ctx.emit("special_port_attached", player=a.player, node=list(node), edge=list(edge), resource=res,
                 rule="TDE2-018")


def port_candidates(state: State, graph, scen, player: int) -> list[Action]:
    if state.phase not in ("roll", "main") or player != state.current_player or not port_owed(state, player):
        return []
    return [Action("attach_special_port", player, {"node": list(n), "edge": list(e), "resource": r})
            for n, e in port_sites(state, graph, player) for r in sorted(set(state.scenario_state["harbor_pile"]))]


__all__ = ["KINDS", "DEFAULT_TREASURES", "TREASURE_STATE", "ClaimReward", "AttachSpecialPort", "resolve_placements",
           "claim_candidates", "port_candidates", "deal_treasures", "pending", "kept", "port_owed", "port_sites",
           "treasure_at", "placed_edges"]
