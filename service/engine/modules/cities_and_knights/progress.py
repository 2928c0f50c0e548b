"""Progress cards (CK-PROG-*): the card catalogue is data (``data.DECKS``), and each card has a handler
here (``check(ctx)`` / ``apply(ctx, s)``), reached through one action type, ``play_progress``.

Choices other players make while a card is resolved (the knight a Deserter's victim removes, the cards a
Wedding guest or a Saboteur's victim gives up, the commodity a Commercial Harbor partner returns) are
carried by the action, as observed at the table, like the choices of the roll.
"""
from __future__ import annotations

from itertools import permutations
from typing import Any, Iterable, Optional

from ...actions import WRONG_PHASE_RULE, own_handler
from ...actions.dev import fewer_pieces_violations, pieces_in_turn
from ...actions.robber import robbable
from ...core import Action, Ctx, Violation, fmt_cards
from ...derive import victory_point_total
from ...geometry import node_str
from ...mapgraph import RESOURCE_OF, RESOURCES, MapGraph
from ...placement import connection_edges, road_site, ship_site
from ...scenarios.base import Scenario
from ...rng import Rng
from ...state import State, Tile
from . import store
from .actions import (cannot_afford, displace, network_nodes, pay, promote, promote_violations, retreat_violation,
                      _retreat_options)
from .module import CitiesAndKnights
from .data import CARD_RULE, CARDS, COMMODITIES, DECK_OF, VP_CARDS, WALLS, card_id
from .store import ck


def _vp(s: State, ctx: Ctx, p: int) -> int:
    return victory_point_total(s, ctx.scenario, p)


def _v(card: str, msg: str, path: str = "/action") -> list[Violation]:
    return [Violation(CARD_RULE[card], msg, path)]


def _need(ctx: Ctx, key: str, card: str, what: str) -> list[Violation]:
    if ctx.action.get(key) is None:
        return _v(card, f"{card.replace('_', ' ')} needs {what}: give {key}", f"/action/{key}")
    return []


# -- one handler per card --------------------------------------------------------------------------------

class Card:
    """A card's rules: ``check`` (its own conditions, CK-PROG-10 included) and ``apply``; ``fields``: the
    parameters of ``play_progress`` it reads (any other given is refused, naming it)."""
    name = ""
    fields: tuple[str, ...] = ()

    def check(self, ctx: Ctx) -> list[Violation]:
        return []

    def apply(self, ctx: Ctx, s: State) -> None:
        pass


class Alchemist(Card):
    def check(self, ctx):
        return _v("alchemist", "the Alchemist is played before the roll only, with the roll (roll with alchemist: "
                  "true and the chosen dice)")


class Revealed(Card):
    def check(self, ctx):
        return [Violation("CK-PROG-4", "Printer and Constitution are revealed when drawn and never played")]


class Crane(Card):
    """CK-PROG-S2: the next improvement this turn costs 1 commodity less."""
    def check(self, ctx):
        s, p = ctx.state, ctx.action.player
        if ck(s)["turn"].get("crane"):
            return _v("crane", "one Crane per improvement: a Crane is already waiting for an improvement")
        if not any(o == p and k == "city" for o, k in s.buildings.values()):
            return [Violation("CK-PROG-10", "with no city no improvement can be bought: the Crane would do nothing")]
        return []

    def apply(self, ctx, s):
        ck(s)["turn"]["crane"] = True


class Engineer(Card):
    """CK-PROG-S3: a city wall, free (the wall rules apply; GOLD-019: its gold is still paid)."""
    fields = ('node',)
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        n = a.get("node")
        if n is None or s.buildings.get(n) != (a.player, "city") or list(n) in ck(s)["walls"]:
            return [Violation("CK-WALL-1", "the Engineer's wall goes under one of your cities without a wall: give node",
                              "/action/node")]
        if store.walls_in_supply(s, a.player) <= 0:
            return [Violation("CK-WALL-1", f"at most {WALLS} city walls per player")]
        return cannot_afford(ctx, ctx.scenario.free_item_cost("wall"), "the wall's gold", "GOLD-019")

    def apply(self, ctx, s):
        a = ctx.action
        pay(s, a.player, ctx.scenario.free_item_cost("wall"))
        ck(s)["walls"].append(list(a.get("node")))
        ctx.emit("built", player=a.player, piece="wall", node=list(a.get("node")), free=True)


class Inventor(Card):
    """CK-PROG-S4: swap two number tokens; 2, 12, 6 and 8 may not be chosen."""
    fields = ('hexes',)
    def check(self, ctx):
        s = ctx.state
        hs = ctx.action.get("hexes")
        if not hs or len(hs) != 2 or tuple(hs[0]) == tuple(hs[1]):
            return _v("inventor", "the Inventor swaps two number tokens: give hexes, two hexes", "/action/hexes")
        for i, h in enumerate(hs):
            t = s.hexes.get(tuple(h))
            if t is None or t.number is None:
                return _v("inventor", f"{h[0]},{h[1]} carries no number token", f"/action/hexes/{i}")
            if t.number in (2, 12, 6, 8):
                return _v("inventor", f"tokens 2, 12, 6 and 8 may not be chosen; {h[0]},{h[1]} shows {t.number}",
                          f"/action/hexes/{i}")
        return []

    def apply(self, ctx, s):
        a, b = (tuple(h) for h in ctx.action.get("hexes"))
        hexes = dict(s.hexes)                           # a new dict: boards are shared between copies
        ta, tb = hexes[a], hexes[b]
        hexes[a], hexes[b] = Tile(ta.terrain, tb.number), Tile(tb.terrain, ta.number)
        s.hexes = hexes
        ctx.emit("tokens_swapped", hexes=[list(a), list(b)], numbers=[tb.number, ta.number])


def _adjacent_hexes(s: State, g: MapGraph, p: int, terrain: str) -> list:
    out = set()
    for n, (o, _) in s.buildings.items():
        if o == p and n in g.node_index:
            for h in g.node_hexes[g.node_index[n]]:
                t = s.hexes.get(h)
                if t is not None and t.terrain == terrain:
                    out.add(h)
    return sorted(out)


class Harvest(Card):
    """CK-PROG-S5 Irrigation (grain, fields), CK-PROG-S7 Mining (ore, mountains): 2 per hex touching an own
    building (each hex once; the robber's hex counts); a short bank gives what it has."""
    def __init__(self, name: str, terrain: str, res: str) -> None:
        self.name, self.terrain, self.res = name, terrain, res

    def check(self, ctx):
        if not _adjacent_hexes(ctx.state, ctx.graph, ctx.action.player, self.terrain):
            return [Violation("CK-PROG-10", f"no {self.terrain} hex touches your buildings: {self.name} would do nothing")]
        return []

    def apply(self, ctx, s):
        k = 2 * len(_adjacent_hexes(s, ctx.graph, ctx.action.player, self.terrain))
        k = min(k, s.bank.get(self.res, 0))
        if k:
            store.give_card(s, ctx.action.player, self.res, k)
        ctx.emit("cards_taken", player=ctx.action.player, card=self.name, got={self.res: k})


class Medicine(Card):
    """CK-PROG-S6: a settlement becomes a city for 2 ore + 1 grain."""
    fields = ('node',)
    COST = {"ore": 2, "grain": 1}

    def check(self, ctx):
        s, a = ctx.state, ctx.action
        n = a.get("node")
        if n is None or s.buildings.get(n) != (a.player, "settlement"):
            return [Violation("BASE-BUILD-6", "Medicine upgrades one of your settlements: give node", "/action/node")]
        if s.players[a.player].supply.get("cities", 0) <= 0:
            return [Violation("BASE-COMP-1", f"player {a.player} has no city left")]
        return cannot_afford(ctx, {**self.COST, **ctx.scenario.free_item_cost("city")}, "a city with Medicine",
                             "CK-PROG-S6")

    def apply(self, ctx, s):
        a = ctx.action
        n = a.get("node")
        pay(s, a.player, {**self.COST, **ctx.scenario.free_item_cost("city")})
        s.buildings[n] = (a.player, "city")
        sup = s.players[a.player].supply
        sup["cities"] -= 1
        sup["settlements"] += 1
        ctx.emit("built", player=a.player, piece="city", node=list(n))


def _road_building_piece(sub: Ctx, i: int, kind: str, edge, path: str) -> list[Violation]:
    """One piece of the progress card's Road Building, judged and placed on ``sub.state`` (a working copy,
    ``actions.dev.pieces_in_turn``): of a kind the game has (CK-SEA-11), from the supply, on a site, joined
    by the stack's connection rule (the ``piece_connection`` hook)."""
    tmp, player = sub.state, sub.action.player
    if kind not in (("road", "ship") if sub.scenario.ships else ("road",)):
        return [Violation("CK-SEA-11", "this game has no ships", f"/action/pieces/{i}/kind")]
    own = sub.scenario.free_piece(sub, i, kind, edge, path)     # a module keeping its pieces otherwise
    if own is not None:
        return own
    if tmp.players[player].supply.get(kind + "s", 0) <= 0:
        return [Violation("BASE-COMP-1", f"no {kind} left", f"/action/pieces/{i}/kind")]
    v = ((road_site if kind == "road" else ship_site)(sub, edge, path)
         or sub.scenario.piece_connection(sub, kind, edge, player, path))
    if v:
        return v
    (tmp.roads if kind == "road" else tmp.ships)[edge] = player
    tmp.players[player].supply[kind + "s"] -= 1
    return []


class RoadBuilding(Card):
    """CK-PROG-S9, CK-SEA-11: two roads (or ships) free, one after the other; GOLD-019: their gold paid."""
    fields = ('pieces',)
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        pieces = a.get("pieces") or []
        kinds = ("road", "ship") if ctx.scenario.ships else ("road",)
        avail = sum(s.players[a.player].supply.get(k + "s", 0) for k in kinds)
        want = min(2, avail)
        if want == 0:
            return [Violation("CK-PROG-10", "no road or ship left: Road Building would do nothing")]
        if len(pieces) not in (want, 1):
            return _v("road_building", f"Road Building places {want} piece(s): give pieces", "/action/pieces")
        v = pieces_in_turn(ctx, _road_building_piece)       # CK-PROG-8: the base placement rules apply
        if v:
            return v
        if len(pieces) < want:                              # one of two only when no place is left
            v = fewer_pieces_violations(ctx, _road_building_piece, kinds, CARD_RULE["road_building"])
            if v:
                return v
        gold = sum(ctx.scenario.free_item_cost(p["kind"]).get("gold", 0) for p in pieces)
        return cannot_afford(ctx, {"gold": gold} if gold else {}, "the pieces' gold", "GOLD-019")

    def apply(self, ctx, s):
        a = ctx.action
        for piece in a.get("pieces"):
            kind, edge = piece["kind"], piece["edge"]
            pay(s, a.player, ctx.scenario.free_item_cost(kind))
            if ctx.scenario.place_free_piece(ctx, s, kind, edge):
                continue
            (s.roads if kind == "road" else s.ships)[edge] = a.player
            if kind == "ship":
                s.flags.ships_built.append(edge)
            s.players[a.player].supply[kind + "s"] -= 1
            ctx.emit("built", player=a.player, piece=kind, edge=list(edge), free=True)


class Smith(Card):
    """CK-PROG-S10: up to 2 knights promoted free (Fortress still needed; each once per turn)."""
    fields = ('nodes',)
    def check(self, ctx):
        nodes = ctx.action.get("nodes") or []
        if not 1 <= len(nodes) <= 2 or len({tuple(n) for n in nodes}) != len(nodes):
            return _v("smith", "the Smith promotes one or two different knights: give nodes", "/action/nodes")
        tmp = ctx.state.copy()
        for i, n in enumerate(nodes):
            sub = Ctx(tmp, ctx.action, ctx.graph, ctx.scenario)
            v = promote_violations(sub, tuple(n), f"/action/nodes/{i}")
            if v:
                return v
            promote(sub, tmp, tuple(n))
        return []

    def apply(self, ctx, s):
        for n in ctx.action.get("nodes"):
            promote(ctx, s, tuple(n))


class Bishop(Card):
    """CK-PROG-P1: the robber moves (never the pirate, CK-SEA-11; not before the first attack, CK-SEVEN-6)
    and 1 random card is taken from each player with a building on the new hex."""
    fields = ('hex',)
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        if not store.robber_awake(s):
            return [Violation("CK-SEVEN-6", "the robber may not be moved by any means before the first attack")]
        h = a.get("hex")
        if h is None or not ctx.scenario.robber_hex_ok(s, h) or h == s.robber:
            return [Violation("BASE-ROBBER-3", "the Bishop moves the robber to another land hex: give hex", "/action/hex")]
        return []

    def apply(self, ctx, s):
        a = ctx.action
        h = a.get("hex")
        s.robber = h
        ctx.emit("moved", piece="robber", hex=list(h), player=a.player,
                 steal_candidates=robbable(ctx.state, ctx.graph, "robber", h, a.player))
        rng = Rng(s.rng_seed, s.rng_counter)
        for victim in robbable(ctx.state, ctx.graph, "robber", h, a.player):
            held = store.cards_of(s, victim)
            if sum(held.values()):
                card = rng.pick_weighted(held, CARDS)
                store.move_card(s, victim, a.player, card)
                ctx.emit("stole", player=a.player, victim=victim, resource=card)
        s.rng_counter = rng.counter


class Deserter(Card):
    """CK-PROG-P3: an opponent removes one of their knights (their choice, ``removed``); you may place one
    of the same strength and status (``node``; none of that level left: a lower one, the default of
    ``deserter_fallback``; mighty allowed without the Fortress)."""
    fields = ('target', 'removed', 'node')
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        q = a.get("target")
        if q is None or q == a.player or not any(k["player"] == q for k in store.knights(s)):
            return _v("deserter", "the Deserter names an opponent with a knight on the board: give target",
                      "/action/target")
        r = a.get("removed")
        k = store.knight_at(s, r) if r is not None else None
        if k is None or k["player"] != q:
            return _v("deserter", f"player {q} chooses one of their knights to remove: give removed", "/action/removed")
        n = a.get("node")
        if n is not None:
            lvl = self.level(s, a.player, k["level"])
            if lvl is None:
                return _v("deserter", "you have no knight of that strength or lower left to place", "/action/node")
            tmp = s.copy()
            ck(tmp)["knights"].remove(store.knight_at(tmp, r))
            if tuple(n) in tmp.buildings or store.knight_at(tmp, n) is not None or \
                    tuple(n) not in network_nodes(tmp, ctx.graph, a.player, ctx.scenario.ships):
                return [Violation("CK-KNIGHT-1", f"the knight goes on an empty intersection touched by your roads; "
                                  f"{node_str(n)} is not one", "/action/node")]
        return []

    @staticmethod
    def level(s: State, p: int, want: int) -> Optional[int]:
        fallback = s.options.get("deserter_fallback", "lower")
        order = [want] + (list(range(want - 1, 0, -1)) if fallback == "lower" else ([1] if want > 1 else []))
        for lvl in order:
            if store.knights_in_supply(s, p, lvl) > 0:
                return lvl
        return None

    def apply(self, ctx, s):
        a = ctx.action
        k = store.knight_at(s, a.get("removed"))
        ck(s)["knights"].remove(k)
        ctx.emit("knight_removed", player=k["player"], node=k["node"])
        n = a.get("node")
        if n is not None:
            lvl = self.level(s, a.player, k["level"])
            ck(s)["knights"].append({"node": list(n), "player": a.player, "level": lvl, "active": k["active"],
                                     "activated": False, "acted": False, "promoted": False})
            ctx.emit("built", player=a.player, piece="knight", node=list(n), free=True)


def open_road(s: State, g: MapGraph, e, ships: bool = False) -> bool:
    """CK-PROG-P4: a road (or ship, CK-SEA-11) is open when one of its ends has none of its owner's buildings
    or knights and no other piece of its owner's of its own kind: a road and a ship never join without a
    building (SEA-009), so an own ship there leaves a road's end open, and an own road a ship's (the ship is
    then the loose end of an open lane, SEA-015)."""
    owner = s.roads.get(e, s.ships.get(e))
    if owner is None or e not in g.edge_index:
        return False
    eid = g.edge_index[e]
    kn = store.knight_nodes(s)
    same = s.roads if e in s.roads else s.ships
    for nid in g.edge_node_ids[eid]:
        n = g.nodes[nid]
        b = s.buildings.get(n)
        if (b is not None and b[0] == owner) or kn.get(n) == owner:
            continue
        if any(x != eid and same.get(g.edges[x]) == owner for x in g.node_edge_ids[nid]):
            continue
        return True
    return False


class Diplomat(Card):
    """CK-PROG-P4: remove an open road of any player; an own road may be placed again at once (``replace``)."""
    fields = ('edge', 'replace')
    def check(self, ctx):
        s, a, g = ctx.state, ctx.action, ctx.graph
        e = a.get("edge")
        if e is None or not open_road(s, g, e):
            return _v("diplomat", "the Diplomat removes an open road or ship (an end with no building or knight of "
                      "its owner's and no other own piece of its kind, SEA-009): give edge", "/action/edge")
        owner = s.roads.get(e, s.ships.get(e))
        rep = a.get("replace")
        if rep is not None:
            if owner != a.player:
                return _v("diplomat", "only your own removed road may be placed again", "/action/replace")
            tmp = s.copy()
            tmp.roads.pop(e, None)
            tmp.ships.pop(e, None)
            sub = Ctx(tmp, a, g, ctx.scenario)
            kind = "ship" if e in s.ships else "road"       # CK-SEA-11: an own ship goes back as a ship
            return ((ship_site if kind == "ship" else road_site)(sub, rep, "/action/replace")
                    or ctx.scenario.piece_connection(sub, kind, rep, a.player, "/action/replace"))
        return []

    def apply(self, ctx, s):
        a = ctx.action
        e = a.get("edge")
        if e in s.roads:
            owner, kind = s.roads.pop(e), "road"
        else:
            owner, kind = s.ships.pop(e), "ship"
            if e in s.flags.ships_built:                     # a ship built this turn and removed is gone
                s.flags.ships_built.remove(e)
        s.players[owner].supply[kind + "s"] += 1
        ctx.emit("removed", player=owner, piece=kind, edge=list(e))
        rep = a.get("replace")
        if rep is not None:                                  # CK-SEA-11: as the piece it was
            (s.roads if kind == "road" else s.ships)[rep] = a.player
            if kind == "ship":
                s.flags.ships_built.append(rep)              # placed this turn: it does not move this turn
            s.players[a.player].supply[kind + "s"] -= 1
            ctx.emit("built", player=a.player, piece=kind, edge=list(rep), free=True)


class Intrigue(Card):
    """CK-PROG-P5: displace an opponent's knight on an intersection touched by your roads (or ships,
    CK-SEA-11), without a knight and with no strength comparison; it retreats as in CK-KNIGHT-7."""
    fields = ('node', 'retreat')
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        n = a.get("node")
        k = store.knight_at(s, n) if n is not None else None
        if k is None or k["player"] == a.player:
            return _v("intrigue", "Intrigue names an opponent's knight: give node", "/action/node")
        if tuple(n) not in network_nodes(s, ctx.graph, a.player, ctx.scenario.ships):
            return _v("intrigue", f"the knight on {node_str(n)} is not on an intersection touched by your roads",
                      "/action/node")
        return retreat_violation(ctx, s, dict(k), tuple(n), "/action/retreat")

    def apply(self, ctx, s):
        displace(ctx, s, tuple(ctx.action.get("node")), None)


def _owed_half(s: State, p: int) -> int:
    return store.hand_size(s, p) // 2


def _gifts_violation(ctx: Ctx, key: str, owed: dict[int, int], card: str) -> list[Violation]:
    gifts = ctx.action.get(key) or {}
    for q, g in gifts.items():
        if int(q) not in owed and any((g or {}).values()):
            return _v(card, f"player {q} owes no card", f"/action/{key}/{q}")
    for q, n in owed.items():
        g = {k: v for k, v in (gifts.get(str(q)) or {}).items() if v}
        held = store.cards_of(ctx.state, q)
        if sum(g.values()) != n or any(held.get(k, 0) < v for k, v in g.items()):
            return _v(card, f"player {q} gives up {n} card(s) of their choice out of {fmt_cards(held)}: give "
                      f"{key}[\"{q}\"]", f"/action/{key}/{q}")
    return []


class Saboteur(Card):
    """CK-PROG-P6: each player with as many VP as you or more discards half their cards (their choice,
    ``cards``)."""
    fields = ('cards',)
    def owed(self, ctx) -> dict[int, int]:
        s, p = ctx.state, ctx.action.player
        mine = _vp(s, ctx, p)
        return {q: _owed_half(s, q) for q in range(s.num_players) if q != p and _vp(s, ctx, q) >= mine
                and _owed_half(s, q)}

    def check(self, ctx):
        return _gifts_violation(ctx, "cards", self.owed(ctx), "saboteur")

    def apply(self, ctx, s):
        for q in self.owed(ctx):
            for k, v in (ctx.action.get("cards") or {}).get(str(q), {}).items():
                if v:
                    store.return_card(s, q, k, v)
            ctx.emit("discarded", player=q, resources=(ctx.action.get("cards") or {}).get(str(q)))


class Spy(Card):
    """CK-PROG-P7: take one progress card (not a VP card) of an opponent."""
    fields = ('target', 'progress')
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        q, c = a.get("target"), card_id(a.get("progress"))
        if q is None or q == a.player:
            return _v("spy", "the Spy names an opponent: give target", "/action/target")
        if not store.progress_count(s, q):
            return [Violation("CK-PROG-10", f"player {q} holds no progress card: the Spy would do nothing")]
        if c in VP_CARDS:                                   # the exclusion: point cards lie face up
            return [Violation("CK-PROG-4", f"the Spy takes no point card: a {c} is laid out face up and cannot be "
                              "taken", "/action/progress")]
        if c is None or store.hand_of(s, q).get(c, 0) <= 0:
            return _v("spy", f"take one of player {q}'s progress cards: give progress", "/action/progress")
        return []

    def apply(self, ctx, s):
        a = ctx.action
        q, c = a.get("target"), card_id(a.get("progress"))
        h = store.hand(s, q)
        h[c] -= 1
        if not h[c]:
            del h[c]
        mine = store.hand(s, a.player)
        mine[c] = mine.get(c, 0) + 1
        ctx.emit("cards_taken", player=a.player, victim=q, card="spy", progress=c)


class Warlord(Card):
    """CK-PROG-P8: every own knight active, free (activated this turn: no action this turn, CK-KNIGHT-3)."""
    def check(self, ctx):
        if not any(k["player"] == ctx.action.player and not k["active"] for k in store.knights(ctx.state)):
            return [Violation("CK-PROG-10", "no inactive knight: the Warlord would do nothing")]
        return []

    def apply(self, ctx, s):
        for k in store.knights(s):
            if k["player"] == ctx.action.player and not k["active"]:
                k["active"] = k["activated"] = True
                ctx.emit("knight_activated", player=k["player"], node=k["node"])


class Wedding(Card):
    """CK-PROG-P9: each player with more VP gives you 2 cards of their choice (``cards``; fewer if fewer)."""
    fields = ('cards',)
    def owed(self, ctx) -> dict[int, int]:
        s, p = ctx.state, ctx.action.player
        mine = _vp(s, ctx, p)
        return {q: min(2, store.hand_size(s, q)) for q in range(s.num_players)
                if q != p and _vp(s, ctx, q) > mine and store.hand_size(s, q)}

    def check(self, ctx):
        return _gifts_violation(ctx, "cards", self.owed(ctx), "wedding")

    def apply(self, ctx, s):
        for q in self.owed(ctx):
            for k, v in (ctx.action.get("cards") or {}).get(str(q), {}).items():
                if v:
                    store.move_card(s, q, ctx.action.player, k, v)


class CommercialHarbor(Card):
    """CK-PROG-T1: offer opponents one resource each; each gives back a commodity of their choice; one
    without commodities gives nothing and the resource stays; once per opponent per turn (``offers``)."""
    fields = ('offers',)
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        offers = a.get("offers") or {}
        if not offers:
            return _v("commercial_harbor", "give offers: per opponent, the resource offered and the commodity "
                      "returned", "/action/offers")
        done = set(ck(s)["turn"].get("harbor_partners") or [])
        mine = dict(s.players[a.player].resources)
        for q, o in offers.items():
            qi = int(q)
            if qi == a.player or qi >= s.num_players:
                return _v("commercial_harbor", f"player {q} is not an opponent", f"/action/offers/{q}")
            if qi in done:
                return _v("commercial_harbor", f"player {q} was already offered a resource this turn",
                          f"/action/offers/{q}")
            if mine.get(o["give"], 0) <= 0:
                return _v("commercial_harbor", f"you hold no {o['give']} to offer", f"/action/offers/{q}/give")
            mine[o["give"]] -= 1
            theirs = store.commodities_of(s, qi)
            got = o.get("get")
            if sum(theirs.values()) == 0:
                if got is not None:
                    return _v("commercial_harbor", f"player {q} holds no commodity: the trade is void",
                              f"/action/offers/{q}/get")
            elif got is None or theirs.get(got, 0) <= 0:
                return _v("commercial_harbor", f"player {q} gives back one of their commodities "
                          f"({fmt_cards(theirs)}): give offers[\"{q}\"].get", f"/action/offers/{q}/get")
        return []

    def apply(self, ctx, s):
        a = ctx.action
        turn = ck(s)["turn"]
        for q, o in (a.get("offers") or {}).items():
            qi = int(q)
            turn["harbor_partners"] = sorted(set(turn.get("harbor_partners") or []) | {qi})
            if o.get("get") is None:
                ctx.emit("traded", player=a.player, partner=qi, gave={}, got={}, void=True)
                continue
            store.move_card(s, a.player, qi, o["give"])
            store.move_card(s, qi, a.player, o["get"])
            ctx.emit("traded", player=a.player, partner=qi, gave={o["give"]: 1}, got={o["get"]: 1})


class MasterMerchant(Card):
    """CK-PROG-T2: from an opponent with more VP, take any 2 of their resources and commodities."""
    fields = ('target', 'take')
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        q = a.get("target")
        richer = [x for x in range(s.num_players) if x != a.player and _vp(s, ctx, x) > _vp(s, ctx, a.player)]
        if not richer:
            return [Violation("CK-PROG-10", "nobody has more VP: the Master Merchant would do nothing")]
        if q not in richer:
            return _v("master_merchant", f"choose an opponent with more VP than you: one of {richer}", "/action/target")
        take = {k: v for k, v in (a.get("take") or {}).items() if v}
        held = store.cards_of(s, q)
        want = min(2, sum(held.values()))
        if sum(take.values()) != want or any(held.get(k, 0) < v for k, v in take.items()):
            return _v("master_merchant", f"take {want} of player {q}'s cards ({fmt_cards(held)}): give take",
                      "/action/take")
        return []

    def apply(self, ctx, s):
        a = ctx.action
        for k, v in (a.get("take") or {}).items():
            if v:
                store.move_card(s, a.get("target"), a.player, k, v)
        ctx.emit("cards_taken", player=a.player, victim=a.get("target"), card="master_merchant", got=a.get("take"))


def merchant_hexes(s: State, g: MapGraph, p: int) -> list:
    """CK-PROG-T3, CK-SEA-4: land hexes (not gold, not sea, not the desert) touching one of your buildings."""
    out = set()
    for n, (o, _) in s.buildings.items():
        if o == p and n in g.node_index:
            for h in g.node_hexes[g.node_index[n]]:
                t = s.hexes.get(h)
                if t is not None and RESOURCE_OF.get(t.terrain):
                    out.add(h)
    return sorted(out)


class Merchant(Card):
    """CK-PROG-T3: the merchant on a land hex touching your building: 2:1 for its resource and 1 VP while
    you hold it; CK-SEA-4: never on gold or sea."""
    fields = ('hex',)
    def check(self, ctx):
        s, a = ctx.state, ctx.action
        h = a.get("hex")
        t = s.hexes.get(h) if h is not None else None
        if t is not None and t.terrain in ("gold", "sea"):
            return [Violation("CK-SEA-4", "the merchant may not stand on a gold field or the sea", "/action/hex")]
        if h is None or h not in merchant_hexes(s, ctx.graph, a.player):
            return _v("merchant", "the merchant goes on a land hex touching one of your buildings: give hex",
                      "/action/hex")
        return []

    def apply(self, ctx, s):
        h = ctx.action.get("hex")
        ck(s)["merchant"] = {"hex": list(h), "player": ctx.action.player}
        ctx.emit("merchant", player=ctx.action.player, hex=list(h))


class MerchantFleet(Card):
    """CK-PROG-T4: one named resource or commodity trades 2:1 with the bank for the rest of the turn."""
    fields = ('kind',)
    def check(self, ctx):
        return _need(ctx, "kind", "merchant_fleet", "the card traded 2:1")

    def apply(self, ctx, s):
        ck(s)["turn"]["fleet"] = ctx.action.get("kind")


class Monopoly(Card):
    """CK-PROG-T5 (a resource, 2 from each opponent) and CK-PROG-T6 (a commodity, 1 from each): all they
    have if fewer."""
    def __init__(self, name: str, key: str, n: int) -> None:
        self.name, self.key, self.n = name, key, n
        self.fields = (key,)

    def check(self, ctx):
        return _need(ctx, self.key, self.name, "the card named")

    def apply(self, ctx, s):
        a = ctx.action
        kind = a.get(self.key)
        taken = {}
        for q in range(s.num_players):
            if q != a.player:
                k = min(self.n, store.cards_of(s, q).get(kind, 0))
                if k:
                    store.move_card(s, q, a.player, kind, k)
                    taken[str(q)] = k
        ctx.emit("cards_taken", player=a.player, card=self.name, kind=kind, taken=taken)


CARDS_PLAYED: dict[str, Card] = {
    "alchemist": Alchemist(), "crane": Crane(), "engineer": Engineer(), "inventor": Inventor(),
    "irrigation": Harvest("irrigation", "fields", "grain"), "medicine": Medicine(),
    "mining": Harvest("mining", "mountains", "ore"), "printer": Revealed(), "road_building": RoadBuilding(),
    "smith": Smith(),
    "bishop": Bishop(), "constitution": Revealed(), "deserter": Deserter(), "diplomat": Diplomat(),
    "intrigue": Intrigue(), "saboteur": Saboteur(), "spy": Spy(), "warlord": Warlord(), "wedding": Wedding(),
    "commercial_harbor": CommercialHarbor(), "master_merchant": MasterMerchant(), "merchant": Merchant(),
    "merchant_fleet": MerchantFleet(), "resource_monopoly": Monopoly("resource_monopoly", "resource", 2),
    "trade_monopoly": Monopoly("trade_monopoly", "commodity", 1),
}


def unused_fields(a: Action, card: str) -> list[Violation]:
    """A parameter of another card given beside the card played means nothing: refused, naming it, under the
    card's own rule (the action the legal list gives for this card never carries it)."""
    own = CARDS_PLAYED[card].fields
    for k, v in a.params.items():
        if k != "card" and v is not None and k not in own:
            takes = ", ".join(own) if own else "no parameter"
            return _v(card, f"the {card.replace('_', ' ')} card takes {takes}; {k} belongs to another card: leave "
                      "it out", f"/action/{k}")
    return []


def progress_wrong_phase(ctx: Ctx) -> Optional[Violation]:
    if ctx.state.phase == "roll":
        return Violation("CK-PROG-3", "progress cards are played after the roll (only the Alchemist before it, with "
                         "the roll)")
    rule, why = WRONG_PHASE_RULE[ctx.state.phase]
    return Violation(rule, f"{why} (phase {ctx.state.phase!r})")


@own_handler("play_progress", {"main"}, not_your_turn="CK-PROG-3", wrong_phase=progress_wrong_phase,
             changes_routes=True)
class PlayProgress:
    """CK-PROG-3: any number of progress cards in one's own turn after the roll; CK-PROG-6: played cards
    go under their deck."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        card = card_id(a.get("card"))                        # CK-PROG-9: the 2025 name is the same card
        if store.hand_of(s, a.player).get(card, 0) <= 0:
            return [Violation("CK-PROG-3", f"player {a.player} holds no {card} card", "/action/card")]
        return CARDS_PLAYED[card].check(ctx) or unused_fields(a, card)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        card = card_id(a.get("card"))                        # CK-PROG-9
        h = store.hand(s, a.player)
        h[card] -= 1
        if not h[card]:
            del h[card]
        ck(s)["decks"][DECK_OF[card]][card] += 1
        ctx.emit("progress_played", player=a.player, card=card)
        CARDS_PLAYED[card].apply(ctx, s)
        if card == "inventor":
            ctx.board_changed = True


# -- candidates ------------------------------------------------------------------------------------------

def progress_candidates(state: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    """A superset of the legal plays of the cards ``p`` holds (each filtered by ``adjudicate``'s checks);
    the Saboteur, the Wedding and the Commercial Harbor are given as ranges (``progress_ranges``)."""
    if state.phase != "main" or p != state.current_player or store.KEY not in state.scenario_state:
        return
    s = state
    h = store.hand_of(s, p)
    opponents = [q for q in range(s.num_players) if q != p]
    mk = lambda card, **kw: Action("play_progress", p, {"card": card, **kw})  # noqa: E731
    for card in sorted(c for c, n in h.items() if n):
        if card in ("crane", "irrigation", "mining", "warlord"):
            yield mk(card)
        elif card == "engineer":
            for n, (o, k) in sorted(s.buildings.items()):
                if o == p and k == "city":
                    yield mk(card, node=n)
        elif card == "medicine":
            for n, (o, k) in sorted(s.buildings.items()):
                if o == p and k == "settlement":
                    yield mk(card, node=n)
        elif card == "inventor":
            ok = sorted(x for x, t in s.hexes.items() if t.number is not None and t.number not in (2, 12, 6, 8))
            for a_, b_ in permutations(ok, 2):              # the two hexes in either order
                yield mk(card, hexes=[a_, b_])
        elif card == "smith":
            own = [tuple(k["node"]) for k in store.knights(s) if k["player"] == p]
            for n in own:
                yield mk(card, nodes=[n])
            for a_, b_ in permutations(own, 2):             # promoted one after the other, either order
                yield mk(card, nodes=[a_, b_])
        elif card == "road_building":
            yield from _road_building(s, graph, scen, p)
        elif card == "bishop":
            for hx in sorted(s.hexes):
                yield mk(card, hex=hx)
        elif card == "deserter":
            mine = network_nodes(s, graph, p, scen.ships)
            for k in store.knights(s):
                if k["player"] != p:
                    yield mk(card, target=k["player"], removed=tuple(k["node"]))
                    for n in sorted(mine):                  # and a knight of yours placed (CK-PROG-P3)
                        yield mk(card, target=k["player"], removed=tuple(k["node"]), node=n)
        elif card == "diplomat":
            own: Optional[dict] = None
            for e in sorted(list(s.roads) + list(s.ships)):
                if open_road(s, graph, e):
                    yield mk(card, edge=e)
                    if s.roads.get(e, s.ships.get(e)) == p:
                        if own is None:
                            own = _own_ids(s, graph, scen, p)
                        yield from _replacements(s, graph, scen, p, e, own)
        elif card == "intrigue":
            for k in store.knights(s):
                if k["player"] != p:
                    trial = Ctx(s, mk(card), graph, scen)
                    opts = _retreat_options(trial, s, dict(k), tuple(k["node"]))
                    for r in (opts or [None]):
                        yield mk(card, node=tuple(k["node"]), retreat=r)
        elif card == "spy":
            for q in opponents:
                for c in sorted(x for x, n in store.hand_of(s, q).items() if n):
                    yield mk(card, target=q, progress=c)
        elif card == "master_merchant":
            for q in opponents:
                held = store.cards_of(s, q)
                kinds = [k for k in CARDS if held.get(k, 0)]
                want = min(2, sum(held.values()))
                if want == 1:
                    for k in kinds:
                        yield mk(card, target=q, take={k: 1})
                else:
                    for i, k in enumerate(kinds):
                        for k2 in kinds[i:]:
                            if k != k2 or held[k] >= 2:
                                t = {k: 1} if k != k2 else {k: 2}
                                if k != k2:
                                    t[k2] = 1
                                yield mk(card, target=q, take=t)
        elif card == "merchant":
            for hx in merchant_hexes(s, graph, p):
                yield mk(card, hex=hx)
        elif card == "merchant_fleet":
            for k in CARDS:
                yield mk(card, kind=k)
        elif card == "resource_monopoly":
            for r in RESOURCES:
                yield mk(card, resource=r)
        elif card == "trade_monopoly":
            for c in COMMODITIES:
                yield mk(card, commodity=c)


def _road_building(s: State, graph: MapGraph, scen: Any, p: int) -> Iterable[Action]:
    kinds = ("road", "ship") if scen.ships else ("road",)
    probe = Ctx(s, Action("play_progress", p, {}), graph, scen)
    firsts = []
    own = None
    for k in kinds:
        if s.players[p].supply.get(k + "s", 0) <= 0:
            continue
        if own is None:
            own = _own_ids(s, graph, scen, p)
        site = road_site if k == "road" else ship_site
        for e in _joinable(graph, s, own, k):
            if not site(probe, e, "") and not scen.piece_connection(probe, k, e, p, ""):
                firsts.append((k, e))
    avail = sum(s.players[p].supply.get(k + "s", 0) for k in kinds)
    near = set()                            # the network's intersections: a second piece touches one, or the first
    for n, (o, _) in s.buildings.items():
        if o == p and n in graph.node_index:
            near.add(graph.node_index[n])
    for pieces in (s.roads, s.ships):
        for e, o in pieces.items():
            if o == p and e in graph.edge_index:
                near.update(graph.edge_node_ids[graph.edge_index[e]])
    for k1, e1 in firsts:
        if avail == 1:
            yield Action("play_progress", p, {"card": "road_building", "pieces": [{"kind": k1, "edge": e1}]})
            continue
        tmp = s.copy()
        (tmp.roads if k1 == "road" else tmp.ships)[e1] = p
        probe2 = Ctx(tmp, Action("play_progress", p, {}), graph, scen)
        ends = near | set(graph.edge_node_ids[graph.edge_index[e1]])
        seconds = sorted({graph.edges[x] for n in ends for x in graph.node_edge_ids[n]} - {e1})
        for k2 in kinds:
            site = road_site if k2 == "road" else ship_site
            for e2 in seconds:
                if not site(probe2, e2, "") and not scen.piece_connection(probe2, k2, e2, p, ""):
                    yield Action("play_progress", p, {"card": "road_building",
                                                      "pieces": [{"kind": k1, "edge": e1}, {"kind": k2, "edge": e2}]})
        # the first piece alone, legal when no place is left for a second or the first wins
        yield Action("play_progress", p, {"card": "road_building", "pieces": [{"kind": k1, "edge": e1}]})


def _connection_narrowed_only(scen: Any) -> bool:
    """Whether the stack's connection rule (the ``piece_connection`` hook) is the engine's, narrowed by no more
    than this module's (CK-KNIGHT-2): then a piece joins only at an edge ``placement.connection_edges`` gives.
    A module widening it (more anchors) leaves every edge to be judged."""
    got = _NARROWED.get(type(scen))
    if got is None:
        owners = [c for c in type(scen).__mro__ if "piece_connection" in c.__dict__]
        got = _NARROWED[type(scen)] = owners == [CitiesAndKnights, Scenario]
    return got


_NARROWED: dict[type, bool] = {}


def _own_ids(s: State, graph: MapGraph, scen: Any, p: int) -> dict:
    """``p``'s building node ids and road and ship edge ids, read once per list for the Diplomat's replacements
    (``_replacements``); empty when the connection rule is widened (every edge is then judged)."""
    if not _connection_narrowed_only(scen):
        return {}
    ni, ei = graph.node_index, graph.edge_index
    return {"buildings": [ni[n] for n, (o, _) in s.buildings.items() if o == p and n in ni],
            "road": [ei[e] for e, o in s.roads.items() if o == p and e in ei],
            "ship": [ei[e] for e, o in s.ships.items() if o == p and e in ei]}


def _joinable(graph: MapGraph, s: State, own: dict, kind: str, without: Optional[int] = None) -> Iterable:
    """The edges, in edge order, where a piece of ``kind`` may join ``p``'s network (``own``, ``_own_ids``):
    those ``placement.connection_edges`` gives for ``p``'s buildings and pieces of the kind (but the edge id
    ``without``), or every edge when ``own`` is empty (a widened connection rule)."""
    if not own:
        return graph.edges
    ids = connection_edges(graph, s.buildings, own["buildings"], [i for i in own[kind] if i != without])
    return [graph.edges[i] for i in sorted(ids)]


def _replacements(s: State, graph: MapGraph, scen: Any, p: int, e, own: dict) -> Iterable[Action]:
    """CK-PROG-P4, CK-SEA-11: the Diplomat removing ``p``'s own open road (or ship) ``e``, then every edge
    where it could go again as the piece it was (the placement checks on the board without it). ``own``
    (``_own_ids``): where the connection rule is the engine's narrowed, only the edges it may join at
    (``_joinable`` with ``p``'s pieces of the kind but ``e``) are judged, in edge order."""
    tmp = s.copy()
    ship = e in tmp.ships
    tmp.roads.pop(e, None)
    tmp.ships.pop(e, None)
    probe = Ctx(tmp, Action("play_progress", p, {}), graph, scen)
    kind, site = ("ship", ship_site) if ship else ("road", road_site)
    for e2 in _joinable(graph, tmp, own, kind, graph.edge_index.get(e)):
        if not site(probe, e2, "") and not scen.piece_connection(probe, kind, e2, p, ""):
            yield Action("play_progress", p, {"card": "diplomat", "edge": e, "replace": e2})


__all__ = ["PlayProgress", "CARDS_PLAYED", "progress_candidates", "open_road", "merchant_hexes"]
