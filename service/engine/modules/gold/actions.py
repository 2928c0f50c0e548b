"""GOLD actions: gold as a currency beside the resource cards, and mobile gold ships.

Gold coins (GOLD-005, R-042) are the player value ``gold`` (``Player.extra``, declared by the scenario): never a resource card, so the robber cannot steal them,
a 7 does not count them, Monopoly cannot name them. Every building costs its gold on top of its cards
(GOLD-007..011); Road Building still costs 1 gold per piece (GOLD-019); the bank sells a card for 2 gold
and buys 3 cards for 1 gold (GOLD-016, GOLD-018).

Ships (GOLD-020..033, R-031..R-034, R-044) are single pieces with a home and a cargo, kept in
``scenario_state["ships"]`` (several may share a space, GOLD-028), each a record
``{"id", "player", "home": [q, r, c], "edge": [q, r, s], "cargo", "built", "moved", "extended"}``
where ``built`` / ``moved`` / ``extended`` are this turn's bookkeeping (cleared when the turn ends).

The handlers that replace the engine's for GOLD (building with gold, the development card's two prices,
Road Building, ships docked at home, trades with gold) are in :data:`REPLACEMENTS`, returned by the
scenario's ``handler`` hook; the new action types register as usual.
"""
from __future__ import annotations

from typing import Any, Optional

from ...bank import COSTS, cannot_pay, pay, shortfall, take
from ...core import Action, Ctx, Violation, fmt_cards
from ...geometry import Edge, Node, edge_str, node_str
from ...mapgraph import RESOURCES
from ...placement import road_site
from ...state import State
from ...actions import HANDLERS, Handler, own_handler
from ...actions.dev import PlayRoadBuilding, dev_wrong_phase, draw_card, place_free_road


from ...scenarios.coins import (add_coins, bank_trade_admits, bank_trade_sample, buy_range, buy_violations, coins,
                                gold_short, joined_coins, pay_gold, split_coins)

#: The gold part of each cost (GOLD-007..010); the cards are the base costs (BASE-COST-1..3, SEA-006).
GOLD_COST = {"road": 1, "ship": 1, "settlement": 2, "city": 2}
COST_RULE = {"road": "GOLD-007", "ship": "GOLD-008", "settlement": "GOLD-009", "city": "GOLD-010"}
#: GOLD-011: a development card costs wool + ore + grain + 1 gold, or wool + ore + 2 gold.
DEV_PRICES = {"grain": ({"wool": 1, "ore": 1, "grain": 1}, 1), "gold": ({"wool": 1, "ore": 1}, 2)}
SHIP_CAPACITY = {"settlement": 1, "city": 2}     # GOLD-022
CARGO_MAX = 4                                    # GOLD-030
BASE_MOVE = 2                                    # GOLD-024
EXTRA_MOVE = 2                                   # GOLD-025 / GOLD-026
SELL_RATE = 2                                    # GOLD-016: 2 gold buy 1 resource card
BUY_RATE = 3                                     # GOLD-018: 3 cards (mixed) buy 1 gold


# -- ships in scenario_state -------------------------------------------------------------------------

def ships_of(state: State) -> list[dict]:
    return state.scenario_state.get("ships") or []


def find_ship(state: State, ship_id: Any) -> Optional[dict]:
    for sh in ships_of(state):
        if sh.get("id") == ship_id:
            return sh
    return None


def ship_edge(sh: dict) -> Edge:
    q, r, s = sh["edge"]
    return (int(q), int(r), str(s))


def ship_home(sh: dict) -> Node:
    q, r, c = sh["home"]
    return (int(q), int(r), str(c))


def fleet_sizes(state: State) -> list[int]:
    counts = [0] * state.num_players
    for sh in ships_of(state):
        if 0 <= sh["player"] < state.num_players:
            counts[sh["player"]] += 1
    return counts


def dock_of(g, sh: dict) -> Optional[str]:
    """Where a ship lies: "home" (a space touching its own home, GOLD-031), "gold" (a space between gold
    and water, GOLD-032) or None: open water (GOLD-033)."""
    from .mnr import is_gold_dock, is_home_dock
    e = ship_edge(sh)
    if is_home_dock(g, e, ship_home(sh)):
        return "home"
    if is_gold_dock(g, e):
        return "gold"
    return None


# -- gold as a currency --------------------------------------------------------------------------------

def with_gold(base: Handler, item: str) -> Handler:
    """The engine's handler for ``item`` with its gold part added in the main phase (set-up is free)."""
    rule, need = COST_RULE[item], GOLD_COST[item]

    def check(ctx: Ctx) -> list[Violation]:
        v = base.check(ctx)
        if v or ctx.state.phase == "setup":
            return v
        return gold_short(ctx.state, ctx.action.player, need, f"a {item}", rule)

    def apply(ctx: Ctx, s: State) -> None:
        paid = ctx.state.phase != "setup"
        base.apply(ctx, s)
        if paid:
            pay_gold(s, ctx.action.player, need)
            ctx.emit("paid_gold", player=ctx.action.player, gold=need, item=item)

    return Handler(base.type, base.phases, check, apply, base.actor, base.not_your_turn, base.changes_routes,
                   base.wrong_phase, keeps_block=True)          # the engine's check comes first


# -- building a ship at home (GOLD-021, GOLD-022, R-044) ------------------------------------------------

def ship_site_violations(ctx: Ctx, state: State, player: int, edge: Edge, path: str) -> tuple[list[Violation], Optional[Node]]:
    """GOLD-021: a ship is built on a space touching one of the builder's front-coast buildings, its
    home; GOLD-022: a settlement homes 1 ship, a city 2; R-044: 15 ships per player."""
    from .mnr import front_coast, is_space
    g = ctx.graph
    if state.players[player].supply.get("ships", 0) <= 0:
        return [Violation("BASE-COMP-1", f"no ships left in player {player}'s supply (15 per player, R-044)",
                          path)], None
    if not is_space(g, edge):
        return [Violation("GOLD-021", f"a ship is built on a space (an edge with water on at least one side, "
                          f"R-031) docked at your front-coast building; {edge_str(edge)} is not a space", path)], None
    fc = front_coast(state, g)
    eid = g.edge_index[edge]
    home = None
    for nid in g.edge_node_ids[eid]:
        n = g.nodes[nid]
        b = state.buildings.get(n)
        if b is not None and b[0] == player and n in fc:
            home = n
    if home is None:
        return [Violation("GOLD-021", f"ships are built only docked at one of your settlements or cities on the "
                          f"front coast; {edge_str(edge)} touches none of player {player}'s", path)], None
    kind = state.buildings[home][1]
    homed = sum(1 for sh in ships_of(state) if ship_home(sh) == home)
    cap = SHIP_CAPACITY[kind]
    if homed >= cap:
        return [Violation("GOLD-022", f"a {kind} supports {cap} ship{'s' if cap > 1 else ''}; the {kind} on "
                          f"{node_str(home)} already has {homed}", path)], None
    return [], home


def add_ship(s: State, player: int, edge: Edge, home: Node) -> dict:
    ships = s.scenario_state.setdefault("ships", [])
    new_id = max((sh["id"] for sh in ships), default=-1) + 1
    sh = {"id": new_id, "player": player, "home": list(home), "edge": list(edge), "cargo": 0,
          "built": True, "moved": 0, "extended": False}       # GOLD-027: built this turn, cannot move
    ships.append(sh)
    s.players[player].supply["ships"] -= 1
    return sh


class BuildGoldShip:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        if s.phase == "setup":
            return [Violation("GOLD-021", "ships are built only at front-coast buildings, and no starting "
                              "settlement stands on the front coast (GOLD-035): a set-up piece is a road")]
        v, _ = ship_site_violations(ctx, s, a.player, a.get("edge"), "/action/edge")
        return (v or cannot_pay(s, a.player, COSTS["ship"], "a ship", "GOLD-008")
                or gold_short(s, a.player, GOLD_COST["ship"], "a ship", "GOLD-008"))

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        _, home = ship_site_violations(ctx, ctx.state, a.player, a.get("edge"), "/action/edge")
        sh = add_ship(s, a.player, a.get("edge"), home)
        pay(s, a.player, COSTS["ship"])
        pay_gold(s, a.player, GOLD_COST["ship"])
        ctx.emit("built", player=a.player, piece="ship", edge=list(a.get("edge")), ship=sh["id"], home=sh["home"])


# -- the development card's two prices (GOLD-011) -------------------------------------------------------

def dev_price(state: State, player: int, choice: Optional[str]) -> str:
    """The buyer's choice; without one, the grain price when the hand pays it, else the 2-gold price."""
    if choice is not None:
        return choice
    cards, gold = DEV_PRICES["grain"]
    hand = state.players[player].resources
    if all(hand.get(r, 0) >= n for r, n in cards.items()) and coins(state, player) >= gold:
        return "grain"
    return "gold"


class BuyGoldDevelopmentCard:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        if sum(s.dev_deck.values()) <= 0:
            return [Violation("BASE-COMP-3", "the development deck is empty; no more cards can be bought")]
        card = a.get("card")
        if card is not None and s.dev_deck.get(card, 0) <= 0:
            return [Violation("BASE-COMP-3", f"the deck holds no {card} card", "/action/card")]
        price = dev_price(s, a.player, a.get("price"))
        cards, gold = DEV_PRICES[price]
        what = f"a development card at the {price} price"
        return cannot_pay(s, a.player, cards, what, "GOLD-011") or gold_short(s, a.player, gold, what, "GOLD-011")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        price = dev_price(ctx.state, a.player, a.get("price"))
        cards, gold = DEV_PRICES[price]
        card = draw_card(s, a.player, a.get("card"))
        pay(s, a.player, cards)
        pay_gold(s, a.player, gold)
        s.flags.built = True        # buying counts as building (BASE-VAR-STRICT-PHASES: no trade after it)
        ctx.emit("bought_development_card", player=a.player, card=card, price=price,
                 paid={**{r: n for r, n in cards.items()}, "gold": gold})


# -- Road Building: free cards, but each piece pays its gold (GOLD-019, R-043) ---------------------------

def _free_piece_violations(sub: Ctx, i: int, kind: str, edge: Edge, path: str) -> list[Violation]:
    """One Road Building piece: a road from the supply on a legal, connected site that cuts no player off
    the front coast (GOLD-036), or a ship docked at home (GOLD-021/022)."""
    from .mnr import Board, road_cuts_off
    tmp, player = sub.state, sub.action.player
    if kind != "road":
        v, home = ship_site_violations(sub, tmp, player, edge, path)
        if not v:
            add_ship(tmp, player, edge, home)
        return v
    if tmp.players[player].supply.get("roads", 0) <= 0:
        return [Violation("BASE-COMP-1", f"no roads left in player {player}'s supply", f"/action/pieces/{i}/kind")]
    v = road_site(sub, edge, path) or sub.scenario.piece_connection(sub, "road", edge, player, path)
    if v:
        return v
    cut = road_cuts_off(Board(tmp, sub.graph), player, edge)
    if cut is not None:
        return [cut_off_violation(cut, edge, path)]
    tmp.roads[edge] = player
    tmp.players[player].supply["roads"] -= 1
    return []


class PlayGoldRoadBuilding(PlayRoadBuilding):
    """The engine's Road Building with the GOLD steps: each piece pays its gold (GOLD-019), a ship docks at
    home (GOLD-021/022), a road cuts nobody off the front coast (GOLD-036)."""
    @staticmethod
    def count_violations(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        n = len(a.get("pieces"))
        sup = s.players[a.player].supply
        want = min(2, sup.get("roads", 0) + sup.get("ships", 0))
        if want <= 0 or n not in (want, 1):                # one of two: judged by fewer_violations
            return [Violation("BASE-DEV-6", f"Road Building places {want} piece{'s' if want != 1 else ''} "
                              f"(2, or what the supply allows); the action names {n}", "/action/pieces")]
        return []

    piece_violations = staticmethod(_free_piece_violations)

    @staticmethod
    def cost_violations(ctx: Ctx) -> list[Violation]:
        n = len(ctx.action.get("pieces"))
        return gold_short(ctx.state, ctx.action.player, n, f"Road Building's {n} free piece(s)", "GOLD-019")

    @staticmethod
    def place_piece(ctx: Ctx, s: State, kind: str, edge) -> None:
        if kind == "road":
            place_free_road(ctx, s, edge)
            return
        a = ctx.action
        _, home = ship_site_violations(Ctx(s, a, ctx.graph, ctx.scenario), s, a.player, edge, "/action")
        sh = add_ship(s, a.player, edge, home)
        ctx.emit("built", player=a.player, piece="ship", edge=list(edge), ship=sh["id"], home=sh["home"], free=True)

    @staticmethod
    def pay(ctx: Ctx, s: State) -> None:
        n = len(ctx.action.get("pieces"))
        pay_gold(s, ctx.action.player, n)
        ctx.emit("paid_gold", player=ctx.action.player, gold=n, item="road_building")


def cut_off_violation(cut: tuple[int, int], edge: Edge, path: str) -> Violation:
    q, before = cut
    return Violation("GOLD-036", f"no player may be cut off from the front coast: a road on {edge_str(edge)} "
                     f"leaves player {q} no way to a free front-coast site (minimum number of roads {before} -> "
                     f"none; R-040)", path)


# -- trades with gold ----------------------------------------------------------------------------------

@own_handler("gold_trade", {"main"}, not_your_turn="BASE-TRADE-9")
class GoldTrade:
    """GOLD-016: 2 gold buy 1 resource card; GOLD-018: any 3 resource cards (mixed) buy 1 gold."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        give, give_gold = split_coins(a.get("give"))
        get, get_gold = split_coins(a.get("get"))
        p = s.players[a.player]
        if give_gold and not give and get and not get_gold:
            return buy_violations(s, a.player, give_gold, get, SELL_RATE, "GOLD-016")
        if give and not give_gold and get_gold and not get:
            n = sum(give.values())
            if n != BUY_RATE * get_gold:
                return [Violation("GOLD-018", f"the bank pays 1 gold for any {BUY_RATE} resource cards: {get_gold} gold "
                                  f"take {BUY_RATE * get_gold} cards, not {n}", "/action/give")]
            short = shortfall(p.resources, give)
            if short:
                return [Violation("GOLD-018", f"player {a.player} cannot give cards they do not hold: short of "
                                  f"{fmt_cards(short)}", "/action/give")]
            return []
        return [Violation("GOLD-016", "a gold trade with the bank is gold for resource cards (2 gold each, GOLD-016) "
                          "or resource cards for gold (3 cards each, GOLD-018)", "/action")]

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        give, give_gold = split_coins(a.get("give"))
        get, get_gold = split_coins(a.get("get"))
        pay(s, a.player, give)
        take(s, a.player, get)
        add_coins(s, a.player, get_gold - give_gold)
        ctx.emit("traded", player=a.player, partner="bank", gave=joined_coins(give, give_gold),
                 got=joined_coins(get, get_gold))


# -- sailing, loading, unloading (GOLD-023..032, R-031..R-033) --------------------------------------------

def own_ship(ctx: Ctx) -> tuple[Optional[dict], list[Violation]]:
    a = ctx.action
    sh = find_ship(ctx.state, a.get("ship"))
    if sh is None:
        return None, [Violation("GOLD-020", f"there is no ship {a.get('ship')} (ships are named by their id in "
                                "scenario_state.ships)", "/action/ship")]
    if sh["player"] != a.player:
        return None, [Violation("GOLD-023", f"ship {sh['id']} belongs to player {sh['player']}, not to player "
                                f"{a.player}", "/action/ship")]
    return sh, []


@own_handler("sail_ship", {"main"})            # out of turn: BASE-TURN-6 (GOLD-024 is the allowance)
class SailShip:
    """Move one ship along a path of spaces: 2 a turn (GOLD-024), +2 for 1 wool (GOLD-025) or 2 gold of its
    own cargo (GOLD-026), at most one extension per ship and turn (R-033); not the turn it was built
    (GOLD-027); spaces are shared freely (GOLD-028). The verdict names the first illegal step."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        from .mnr import is_space, spaces_adjacent
        s, a, g = ctx.state, ctx.action, ctx.graph
        sh, v = own_ship(ctx)
        if v:
            return v
        if sh.get("built"):
            return [Violation("GOLD-027", f"ship {sh['id']} was built this turn and cannot move until its owner's "
                              "next turn", "/action/ship")]
        extend = a.get("extend")
        extended = bool(sh.get("extended"))
        if extend is not None:
            if extended:
                return [Violation("GOLD-025", f"ship {sh['id']} has already had its +2 spaces this turn (one wool or "
                                  "2 cargo gold per ship and turn, R-033)", "/action/extend")]
            if extend == "wool" and s.players[a.player].resources.get("wool", 0) < 1:
                return [Violation("GOLD-025", f"+2 spaces cost 1 wool; player {a.player} has none", "/action/extend")]
            if extend == "cargo" and sh.get("cargo", 0) < 2:
                return [Violation("GOLD-026", f"+2 spaces cost 2 gold from the ship's own cargo; ship {sh['id']} "
                                  f"carries {sh.get('cargo', 0)}", "/action/extend")]
            extended = True
        allowance = BASE_MOVE + (EXTRA_MOVE if extended else 0)
        left = allowance - int(sh.get("moved", 0))
        prev = ship_edge(sh)
        for i, e in enumerate(a.get("path")):
            path = f"/action/path/{i}"
            if not is_space(g, e):
                return [Violation("GOLD-024", f"step {i + 1}: {edge_str(e)} is not a space (a space is an edge with "
                                  "water on at least one side, R-031)", path)]
            if not spaces_adjacent(g, prev, e):
                return [Violation("GOLD-024", f"step {i + 1}: {edge_str(e)} does not touch {edge_str(prev)}; each step "
                                  "goes to a space sharing an intersection with the last (R-031)", path)]
            if i + 1 > left:
                more = "" if extended else " (+2 for 1 wool or 2 cargo gold, GOLD-025/026)"
                return [Violation("GOLD-024", f"step {i + 1}: ship {sh['id']} has {max(left, 0)} of its {allowance} "
                                  f"spaces left this turn{more}", path)]
            prev = e
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        sh = find_ship(s, a.get("ship"))
        extend = a.get("extend")
        if extend == "wool":
            s.players[a.player].resources["wool"] -= 1
            s.bank["wool"] = s.bank.get("wool", 0) + 1
        elif extend == "cargo":
            sh["cargo"] = sh.get("cargo", 0) - 2                       # to the bank
        if extend is not None:
            sh["extended"] = True
        path = a.get("path")
        sh["moved"] = int(sh.get("moved", 0)) + len(path)
        sh["edge"] = list(path[-1])
        ctx.emit("sailed", player=a.player, ship=sh["id"], path=[list(e) for e in path], extend=extend,
                 docked=dock_of(ctx.graph, sh))


def _amount(a, default: int) -> int:
    n = a.get("amount")
    return default if n is None else int(n)


@own_handler("load_gold", {"main"}, not_your_turn="GOLD-032")
class LoadGold:
    """GOLD-032 / R-032: docked at a gold island, a ship loads gold up to its hold of 4 (GOLD-030)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        sh, v = own_ship(ctx)
        if v:
            return v
        if dock_of(ctx.graph, sh) != "gold":
            return [Violation("GOLD-032", f"gold is loaded only docked at a gold island (a space between a gold hex "
                              f"and water); ship {sh['id']} lies on {edge_str(ship_edge(sh))}", "/action/ship")]
        room = CARGO_MAX - sh.get("cargo", 0)
        n = _amount(ctx.action, room)
        if n < 1 or n > room:
            return [Violation("GOLD-030", f"a ship carries at most {CARGO_MAX} gold; ship {sh['id']} has {sh.get('cargo', 0)} "
                              f"and can load 1 to {room}, not {n}" if room else
                              f"ship {sh['id']} is full ({CARGO_MAX} gold)", "/action/amount")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        sh = find_ship(s, ctx.action.get("ship"))
        n = _amount(ctx.action, CARGO_MAX - sh.get("cargo", 0))
        sh["cargo"] = sh.get("cargo", 0) + n
        ctx.emit("loaded_gold", player=ctx.action.player, ship=sh["id"], gold=n, cargo=sh.get("cargo", 0))


@own_handler("unload_gold", {"main"}, not_your_turn="GOLD-031")
class UnloadGold:
    """GOLD-031 / GOLD-023: docked at its own home, a ship unloads into its owner's gold."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        sh, v = own_ship(ctx)
        if v:
            return v
        if dock_of(ctx.graph, sh) != "home":
            return [Violation("GOLD-023", f"a ship unloads only docked at its own home {node_str(ship_home(sh))} (a "
                              f"space touching it); ship {sh['id']} lies on {edge_str(ship_edge(sh))}", "/action/ship")]
        n = _amount(ctx.action, sh.get("cargo", 0))
        if n < 1 or n > sh.get("cargo", 0):
            return [Violation("GOLD-031", f"ship {sh['id']} carries {sh.get('cargo', 0)} gold; it cannot unload {n}",
                              "/action/amount")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        sh = find_ship(s, ctx.action.get("ship"))
        n = _amount(ctx.action, sh.get("cargo", 0))
        sh["cargo"] = sh.get("cargo", 0) - n
        add_coins(s, sh["player"], n)
        ctx.emit("unloaded_gold", player=ctx.action.player, ship=sh["id"], gold=n)


# -- candidates for the legal-action list (``Gold.legal_candidates``) -------------------------------------

def sail_walks(g, start: Edge, steps: int) -> dict[Edge, list[Edge]]:
    """Every space a ship on ``start`` reaches in 1 to ``steps`` steps (R-031), each with one shortest
    walk (the start itself, reached out and back, included)."""
    from .mnr import net_of
    net = net_of(g)
    sid = g.edge_index.get(start)
    if sid is None or steps < 1:
        return {}
    out: dict[Edge, list[Edge]] = {}
    frontier = [(sid, [])]
    seen = {sid: 0}                      # the start is at 0 steps but still a destination (out and back)
    for depth in range(1, steps + 1):
        nxt = []
        for eid, walk in frontier:
            for f in net.space_adj[eid]:
                w = walk + [g.edges[f]]
                if g.edges[f] not in out:
                    out[g.edges[f]] = w
                if f not in seen:
                    seen[f] = depth
                    nxt.append((f, w))
        frontier = nxt
    return out


def gold_candidates(state: State, g, player: int) -> list:
    """Candidates of GOLD's own action types and of the replaced handlers whose choices the engine's
    generators do not know (ship sites are spaces at front-coast homes, the development card's two prices,
    Road Building with mobile ships). A superset: the legal-action list keeps those the checks allow."""
    from ...core import Action
    from .mnr import front_coast, home_dock_spaces
    out: list = []
    if state.phase not in ("roll", "main") or state.current_player != player:
        return out                  # Road Building may come before the roll; the rest is main-phase only
    mine = [sh for sh in ships_of(state) if sh.get("player") == player] if state.phase == "main" else []
    for sh in mine:
        if not sh.get("built"):
            for extend in (None, "wool", "cargo"):
                extended = bool(sh.get("extended")) or extend is not None
                left = BASE_MOVE + (EXTRA_MOVE if extended else 0) - int(sh.get("moved", 0))
                for dest, walk in sail_walks(g, ship_edge(sh), left).items():
                    out.append(Action("sail_ship", player, {"ship": sh["id"], "path": walk, "extend": extend}))
        for t in ("load_gold", "unload_gold"):
            for n in (None,) + tuple(range(1, CARGO_MAX + 1)):
                out.append(Action(t, player, {"ship": sh["id"], "amount": n}))
    fc = front_coast(state, g)
    homes = [n for n, (o, _) in state.buildings.items() if o == player and n in fc]
    sites = sorted({e for n in homes for e in home_dock_spaces(g, n)})
    if state.phase == "main":
        out += [Action("buy_development_card", player, {"card": None, "price": price}) for price in DEV_PRICES]
        out += [Action("build_ship", player, {"edge": e}) for e in sites]
    # Road Building with ships: every pair of pieces where a ship is one of them (roads alone are the
    # engine's candidates); a second road may hang off the first.
    if state.players[player].dev_cards.get("road_building", 0) <= 0:
        return out
    near = {g.node_index[n] for n, (o, _) in state.buildings.items() if o == player and n in g.node_index}
    for e, o in state.roads.items():
        if o == player and e in g.edge_index:
            near.update(g.edge_node_ids[g.edge_index[e]])
    roads = sorted({g.edges[eid] for n in near for eid in g.node_edge_ids[n]
                    if g.road_edge(eid) and g.edges[eid] not in state.roads})
    for e1 in sites:
        out.append(Action("play_road_building", player, {"pieces": [{"kind": "ship", "edge": e1}]}))
        for e2 in sites:
            out.append(Action("play_road_building", player, {"pieces": [{"kind": "ship", "edge": e1},
                                                                        {"kind": "ship", "edge": e2}]}))
        for e2 in roads:
            out.append(Action("play_road_building", player, {"pieces": [{"kind": "ship", "edge": e1},
                                                                        {"kind": "road", "edge": e2}]}))
            out.append(Action("play_road_building", player, {"pieces": [{"kind": "road", "edge": e2},
                                                                        {"kind": "ship", "edge": e1}]}))
    return out


def _replacements() -> dict[str, Handler]:
    base = HANDLERS
    out = {item: with_gold(base[f"build_{item}"], item) for item in ("road", "settlement", "city")}
    out = {f"build_{k}": v for k, v in out.items()}
    b = base["build_ship"]
    # (a ship: the supply first, the engine's cost beside the gold; Road Building: ``dev.may_play`` first)
    out["build_ship"] = Handler("build_ship", frozenset({"setup", "main"}), BuildGoldShip.check, BuildGoldShip.apply,
                                not_your_turn=b.not_your_turn, keeps_block=True)
    d = base["buy_development_card"]
    out["buy_development_card"] = Handler(d.type, d.phases, BuyGoldDevelopmentCard.check, BuyGoldDevelopmentCard.apply,
                                          d.actor, d.not_your_turn)
    rb = base["play_road_building"]
    out["play_road_building"] = Handler(rb.type, rb.phases, PlayGoldRoadBuilding.check, PlayGoldRoadBuilding.apply,
                                        rb.actor, rb.not_your_turn, True, dev_wrong_phase, keeps_block=True)
    return out


_REPL: dict[str, Handler] = {}


def replacement(action_type: str) -> Optional[Handler]:
    """The GOLD handler replacing the engine's for ``action_type`` (built on first use)."""
    if not _REPL:
        _REPL.update(_replacements())
    return _REPL.get(action_type)


__all__ = ["replacement", "gold_candidates", "sail_walks",
           "ships_of", "find_ship", "fleet_sizes", "dock_of", "ship_edge", "ship_home",
           "GOLD_COST", "DEV_PRICES", "CARGO_MAX", "RESOURCES"]


# -- gold trades as ranges in the legal-action list (``RangeKind`` of ``gold_trade``) -------------------------

def _greedy(total: int, at_most: dict[str, int]) -> dict[str, int]:
    from ...legal import _greedy as greedy
    return greedy(total, at_most)


def gold_trade_ranges(state: State, graph, scen, p: int):
    """GOLD-016: 2 gold buy 1 card (several at once, any mix the bank holds); GOLD-018: any 3 cards of the
    hand buy 1 gold (a multiple of 3 at once). Never both directions in one trade."""
    hand = state.players[p].resources
    buy = buy_range(state, p, SELL_RATE, coins(state, p) // SELL_RATE)
    if buy is not None:
        yield buy
    m = sum(hand.values()) // BUY_RATE
    if m:
        yield ({"direction": "sell", "rate": BUY_RATE, "get": {"at_most": {"gold": m}},
                "give": {"at_least": BUY_RATE, "total_at_most": BUY_RATE * m, "multiple_of": BUY_RATE,
                         "at_most": {r: min(hand.get(r, 0), BUY_RATE * m) for r in RESOURCES}}},
               Action("gold_trade", p, {"give": _greedy(BUY_RATE, hand), "get": {"gold": 1}}))


def gold_trade_admits(spec: dict, action: Action) -> bool:
    return bank_trade_admits(spec, action)


def gold_trade_count(spec: dict) -> int:
    """The trades inside a range: the cards bought (GOLD-016) or sold (GOLD-018) decide the gold."""
    from ...scenarios.coins import bank_trade_count
    return bank_trade_count(spec)


def gold_trade_members(spec: dict):
    """Each trade inside a range once."""
    from ...scenarios.coins import bank_trade_members
    return bank_trade_members(spec)


def gold_trade_sample(spec: dict, rng) -> Action:
    return bank_trade_sample(spec, rng)
