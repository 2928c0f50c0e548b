"""Santa's workshop, the WAG add-on switched on by the option ``santa_workshop`` (R-090: off by default; when
on, the production-token version).

- WAG-062: Santa's workshop is a hex with a number token; when its number is rolled (and no robber stands on
  it, and it is not conquered) every player with a settlement or city on its corners gets one present, one
  per player per roll, from Santa's pile.
- WAG-064: presents are the player value ``presents``, a currency traded like cards; a player owed a present
  when the pile is empty takes two from the player holding the most (ties: the current player first, then
  clockwise, R-090).
- WAG-063 / R-122: on entering any trade-hex plaza (``move_wagon.redeem``) a player redeems presents, each for
  the delivery gold of his baggage-train card (doubled with the large-map bonus); no VP; they go back to
  the pile.
- WAG-065: the trade hexes carry number tokens too and produce: the Quarry brick, the Castle grain, the
  Glassworks lumber (a settlement 1, a city 2; the bank's shortage rule BASE-PROD-4 applies).

Not built (R-090): the North Pole "wild" trade hex and the favour tokens (no rules to referee).

Decisions taken here (decision D-wag-santa): on the default maps the workshop is the marked desert (6,3) with
a 9, the robber starting there as on a desert; the trade hexes get the Castle 5, the Quarry 10, the
Glassworks 4; Santa's pile holds 12 presents.
"""
from __future__ import annotations

from typing import Any, Optional

from ...core import Ctx, Violation
from ...geometry import Hex, hex_corners
from ...state import State, Tile
from . import costs as C

PILE = 12                                                  # D-wag-santa
WORKSHOP_NUMBER = 9
TRADE_NUMBERS = {"castle": 5, "quarry": 10, "glassworks": 4}
#: WAG-065: what each trade hex produces.
TRADE_YIELD = {"quarry": "brick", "castle": "grain", "glassworks": "lumber"}


def on(state: State) -> bool:
    return bool(state.options.get("santa_workshop"))


def workshop(state: State) -> Optional[Hex]:
    s = state.scenario_state.get("santa") or {}
    h = s.get("hex")
    return None if h is None else (int(h[0]), int(h[1]))


def setup(state: State, marked: Hex) -> None:
    """A new game with the option: the workshop's and the trade hexes' number tokens, Santa's pile."""
    hexes = dict(state.hexes)
    hexes[marked] = Tile(hexes[marked].terrain, WORKSHOP_NUMBER)
    for name, h in C.trade_hexes(state).items():
        hexes[h] = Tile(hexes[h].terrain, TRADE_NUMBERS[name])
    state.hexes = hexes
    state.scenario_state = {**state.scenario_state, "santa": {"hex": list(marked), "pile": PILE}}


def _owners_around(state: State, graph, h: Hex) -> dict[int, int]:
    """Per player, the production a hex gives them: 1 a settlement, 2 a city."""
    out: dict[int, int] = {}
    for n in hex_corners(h):
        b = state.buildings.get(n)
        if b is not None:
            out[b[0]] = out.get(b[0], 0) + (2 if b[1] == "city" else 1)
    return out


def _order(state: State) -> list[int]:
    n = state.num_players
    return [(state.current_player + i) % n for i in range(n)]


def after_production(ctx: Ctx, s: State, total: int, idle: Any) -> None:
    if not on(s):
        return
    _trade_hex_yield(ctx, s, total, idle)
    h = workshop(s)
    if h is None or s.robber == h or h in idle or (s.hexes.get(h) and s.hexes[h].number != total):
        return
    ss = s.scenario_state = {**s.scenario_state, "santa": dict(s.scenario_state["santa"])}
    santa = ss["santa"]
    for p in _order(s):                                                 # WAG-062: one present per player
        if p not in _owners_around(s, ctx.graph, h):
            continue
        if santa.get("pile", 0) > 0:
            santa["pile"] -= 1
            _give(s, p, 1)
            ctx.emit("present_given", player=p, **{"from": None}, presents=1)
            continue
        others = [q for q in _order(s) if q != p and s.players[q].extra.get("presents", 0) > 0]   # WAG-064
        if not others:
            continue
        most = max(s.players[q].extra.get("presents", 0) for q in others)
        q = next(q for q in others if s.players[q].extra.get("presents", 0) == most)
        n = min(2, most)
        _give(s, q, -n)
        _give(s, p, n)
        ctx.emit("present_given", player=p, **{"from": q}, presents=n)


def _give(s: State, p: int, n: int) -> None:
    extra = s.players[p].extra
    extra["presents"] = extra.get("presents", 0) + n


def _trade_hex_yield(ctx: Ctx, s: State, total: int, idle: Any) -> None:
    """WAG-065: the trade hexes produce; BASE-PROD-4: when the bank cannot pay every player owed a resource,
    nobody gets it, unless only one player is owed (who gets what is left)."""
    owed: dict[str, dict[int, int]] = {}
    for name, h in C.trade_hexes(s).items():
        t = s.hexes.get(h)
        if t is None or t.number != total or s.robber == h or h in idle:
            continue
        for p, k in _owners_around(s, ctx.graph, h).items():
            per = owed.setdefault(TRADE_YIELD[name], {})
            per[p] = per.get(p, 0) + k
    for res, per in owed.items():
        have = s.bank.get(res, 0)
        if sum(per.values()) > have:
            if len(per) > 1:
                continue
            per = {p: min(k, have) for p, k in per.items()}
        for p, k in per.items():
            if k:
                s.bank[res] -= k
                s.players[p].resources[res] = s.players[p].resources.get(res, 0) + k
                ctx.emit("trade_hex_produced", player=p, resource=res, count=k)


def redeem_violations(state: State, player: int, redeem: int, plaza: Optional[str]) -> list[Violation]:
    if not redeem:
        return []
    if not on(state):
        return [Violation("WAG-063", "presents exist only with Santa's workshop (option santa_workshop)",
                          "/action/redeem", "R-090")]
    if plaza is None:
        return [Violation("WAG-063", "presents are redeemed on entering a trade hex's plaza", "/action/redeem",
                          "R-122")]
    have = state.players[player].extra.get("presents", 0)
    if redeem > have:
        return [Violation("WAG-063", f"player {player} holds {have} presents, not {redeem}", "/action/redeem",
                          "R-122")]
    return []


def redeem(ctx: Ctx, s: State, player: int, n: int) -> None:
    """WAG-063 / R-122: each present pays the delivery gold; no VP; back to Santa's pile."""
    if not n:
        return
    level = int(C.wagon(s, player).get("level", 1))
    each = C.card(s, level)["gold"] * (2 if s.options.get("large_map_bonus") else 1)
    _give(s, player, -n)
    extra = s.players[player].extra
    extra["gold"] = extra.get("gold", 0) + each * n
    santa = s.scenario_state.get("santa")
    if santa is not None:
        s.scenario_state = {**s.scenario_state, "santa": {**santa, "pile": santa.get("pile", 0) + n}}
    ctx.emit("presents_redeemed", player=player, presents=n, gold=each * n)


__all__ = ["on", "setup", "after_production", "redeem", "redeem_violations", "workshop", "PILE"]
