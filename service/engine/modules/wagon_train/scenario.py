"""WAG: the fan wagon-train variant "Overseas Baggage Train" (seeds/004, WAG-001..069, rulings R-080..R-101
and R-103..R-122), played over Catan + Seafarers by 3 or 4 players (R-097) to 13 VP (WAG-001; 15 with Cities
& Knights, R-117).

Each player's wagon crosses the intersections on a movement-point budget (``costs.py``: the one step-cost
function), draws a secret trade token at one of three trade hexes and delivers it to the right one for 1 VP
and gold (``handlers.py``); gold pays tolls on opponents' roads, bridges and sea routes and tribute to
warships; barbarians standing in hexes slow or close paths and can be driven off with a die.

The rules live in :class:`WagonTrainRules`, a module class whose hooks call ``super()``, so another scenario
could stack it later over its own map; :class:`WagonTrain` is that module over the default maps (``maps.py``).
Trade hexes are desert tiles marked in ``scenario_state.trade_hexes`` (the Diamond Isles precedent).

Santa's workshop (``santa.py``) is an option, off by default (R-090).

Strong knights on horseback (WAG-046's knight half, WAG-048, WAG-053, WAG-055..057) need a knights-on-horseback
module the seeds do not define: the ``knights_on_horseback`` option takes only false, and asking for them is
a 422 naming R-096.
"""
from __future__ import annotations

import copy
from typing import Any, Optional

from ...bank import COSTS, shortfall
from ...core import Action, Ctx, Violation
from ...geometry import Hex, hex_corners, hex_distance, hex_str, node_hexes
from ...lanes import closed_ships
from ...mapgraph import LAND, RESOURCES, MapGraph
from ...module import ActionSpec, EventSpec, OptionSpec, PlayAvoid, PlayLean, RangeKind
from ...scenarios.coins import domestic_trade_with_gold
from ...scenarios.mapdata import Edition, MappedScenario
from ...scenarios.seafarers import Seafarers
from ...seats import Secret
from ...spec import EDGE, HEX, NODE, PLAYER, PLAYER_KEY, Any_, Bool, Cards, F, Int, List, Map, Null, Obj, Str, \
    by_player
from ...state import State
from . import costs as C
from . import santa
from .handlers import (BuyWithGold, ChaseWarship, DriveOff, MoveWagon, OTHER_MOVABLES, SetTollPolicy, Upgrade,
                       movement_phase_check, vacant_sea)
from .maps import MAP_SPECS, component_table, map_marks

BOOK = "Overseas Baggage Train, a fan wagon-train variant"
_KIND = Str(C.KINDS)
_TRADE = Str(C.TRADE)
_TRADE_IN = Str(C.TRADE + ("forge",))
_STACK = Cards(C.KINDS, hi=6)
_WAGON = Obj({
    "node": F(NODE, nullable=True, doc="R-097: the intersection the wagon stands on (null on a plaza or before set-up)"),
    "plaza": F(_TRADE, nullable=True, doc="R-093: the trade hex whose plaza the wagon stands on"),
    "level": F(Int(1, 5), doc="WAG-006, R-087: the baggage-train card's level (1-5)"),
    "token": F(Obj({"kind": F(_KIND, required=True), "from": F(_TRADE_IN, required=True)}), nullable=True,
               doc="WAG-017/019: the trade token held (one at most), its kind secret to opponents (R-101)"),
    "delivered": F(Cards(C.KINDS, hi=6), doc="WAG-002/020: the tokens delivered, face up (1 VP each)"),
})
_TURN = Obj({
    "player": F(PLAYER, doc="whose turn this bookkeeping is"),
    "started": F(Bool(), doc="R-114: the movement phase has started"),
    "ended": F(Bool(), doc="WAG-014/022, R-114: the wagon's movement is over for the turn"),
    "plaza": F(Bool(), doc="WAG-014: a plaza was entered"),
    "jumped": F(Bool(), doc="WAG-022/023: the wagon jumped along a sea route"),
    "mp_used": F(Int(0, 40), doc="WAG-004: movement points spent this turn"),
    "grain": F(Bool(), doc="WAG-012: the grain for +2 MP was paid"),
    "paid_edges": F(List(EDGE, max_len=60), doc="WAG-054: paths whose toll was paid this turn"),
    "tribute": F(List(PLAYER, max_len=4), doc="WAG-034: warship owners paid this turn"),
    "chases": F(Map(Str(("won", "lost")), key=PLAYER_KEY, max_len=4), doc="WAG-036: chases rolled this turn"),
    "attempts": F(List(HEX, max_len=64), doc="WAG-030: barbarian hexes tried this turn"),
    "waived": F(List(HEX, max_len=64), doc="WAG-061: barbarian hexes cleared by a drive-off this turn"),
    "bought": F(Int(0, 2), doc="R-098: resource cards bought with gold this turn"),
})
_CARD_ROW = Obj({"mp": F(Int(0, 20), required=True), "gold": F(Int(0, 20), required=True),
                 "faces": F(List(Int(1, 6), max_len=6), required=True)})


def _flag(value: Any, players: int) -> bool:
    return type(value) is bool


def _false_only(value: Any, players: int) -> bool:
    return value is False


def _start_gold(value: Any, players: int) -> bool:
    return type(value) is int and 0 <= value <= 50


def _card_table(value: Any, players: int) -> bool:
    return (type(value) is list and len(value) == 5 and all(_CARD_ROW.ok(x) for x in value)
            and all(value[i]["mp"] <= value[i + 1]["mp"] for i in range(4)))


def _upgrade_cost(value: Any, players: int) -> bool:
    return (type(value) is dict and value and all(k in RESOURCES and type(n) is int and 0 <= n <= 5
                                                  for k, n in value.items()))


def _ranges() -> RangeKind:
    from ...scenarios.coins import bank_trade_admits, bank_trade_count, bank_trade_members, bank_trade_sample, buy_range

    def specs(state, graph, scen, p):
        if C.turn_of(state).get("started"):
            return
        most = 2 - int(C.turn_of(state).get("bought", 0))
        r = buy_range(state, p, 2, most) if most > 0 else None
        if r is not None:
            yield r
    return RangeKind(specs, bank_trade_admits, bank_trade_sample, count=bank_trade_count, members=bank_trade_members)


# -- candidates for the legal-action list ------------------------------------------------------------------

def move_candidates(state: State, graph: MapGraph, scen: Any, p: int):
    """``move_wagon``: one cheapest plan per destination and grain choice (``costs.plans``)."""
    w = C.wagon(state, p)
    if state.phase != "main" or state.current_player != p or not w or (w.get("node") is None and not w.get("plaza")):
        return []
    t = C.turn_of(state)
    if t.get("ended"):                      # the movement is over (``handlers.movement_over``)
        return []
    out = []
    choices = [False] + ([True] if not t.get("grain") and state.players[p].resources.get("grain", 0) else [])
    for grain in choices:
        for dest, plan in sorted(C.plans(state, graph, p, grain).items(), key=lambda x: repr(x[0])):
            out.append(Action("move_wagon", p, {"path": plan["path"], "plaza": plan.get("plaza"),
                                                "jump": plan.get("jump"), "grain": grain, "draw": None}))
        if grain:
            out.append(Action("move_wagon", p, {"path": [], "plaza": None, "jump": None, "grain": True,
                                                "draw": None}))
    return out


move_candidates.distinct = True     # one action per destination and grain choice: the list keys none again
#: Each move passes ``MoveWagon.check``: the wagon is on the board, its movement goes on, the grain is
#: unpaid and held, and each plan is the cheapest one ``costs.plans`` found legal (the check of a listed
#: move would read the same verdict from the listing's book); the list asks the rest of ``check_action``.
move_candidates.judged = True


def _may_roll(state: State, p: int) -> bool:
    """Necessary for a drive-off or a chase (so the legal list tries no other): the current player's wagon
    is still moving (R-115) and its card has die numbers (WAG-027, R-116)."""
    return (state.phase == "main" and state.current_player == p and not C.turn_of(state).get("ended")
            and bool(C.card(state, int(C.wagon(state, p).get("level", 1)))["faces"]))


def drive_candidates(state: State, graph: MapGraph, scen: Any, p: int):
    if not _may_roll(state, p):
        return []
    at = C.wagon_node(state, p)
    if at is None:
        return []
    tried = {tuple(h) for h in C.turn_of(state).get("attempts") or ()}
    barb = {C.unkey(k): n for k, n in (state.scenario_state.get("barbarians") or {}).items() if n}
    land = [h for h, t in sorted(state.hexes.items()) if t.terrain in LAND and barb.get(h, 0) < 3]
    out = []
    for h in sorted(barb):
        if at in hex_corners(h) and h not in tried:
            out += [Action("drive_off_barbarian", p, {"hex": h, "to": m, "die": None}) for m in land if m != h]
    return out


def chase_candidates(state: State, graph: MapGraph, scen: Any, p: int):
    if not _may_roll(state, p):
        return []
    out = []
    for o, h in sorted((state.scenario_state.get("warships") or {}).items()):
        if int(o) == p or not h:
            continue
        free = vacant_sea(state, tuple(h)) or [None]
        out += [Action("chase_warship", p, {"owner": int(o), "to": m, "die": None}) for m in free]
    return out


def upgrade_candidates(state, graph, scen, p):
    return [Action("upgrade_baggage_train", p, {})] if state.phase == "main" and state.current_player == p else []


def policy_candidates(state, graph, scen, p):
    if state.phase != "main" or state.current_player != p:
        return []
    return [Action("set_toll_policy", p, {"payer": q, "charge": c}) for q in range(state.num_players) if q != p
            for c in (True, False)]


def _target(state: State, p: int) -> Optional[tuple[str, Hex]]:
    """Where the wagon of ``p`` heads: the held token's destination, else the nearest stack to draw from."""
    w = C.wagon(state, p)
    th = C.trade_hexes(state)
    kind = (w.get("token") or {}).get("kind")
    if kind is not None:
        name = C.DELIVER[kind]
        return (name, th[name]) if name in th else None
    stacks = state.scenario_state.get("stacks") or {}
    full = [n for n in th if sum((stacks.get(n) or {}).values())]
    if not full:
        return None
    here = _where(state, p)
    return min(((n, th[n]) for n in full), key=lambda x: (_dist(here, x[1]), x[0])) if here else (full[0], th[full[0]])


def _where(state: State, p: int) -> Optional[list[Hex]]:
    w = C.wagon(state, p)
    if w.get("node") is not None:
        return list(node_hexes(tuple(w["node"])))
    th = C.trade_hexes(state)
    return [th[w["plaza"]]] if w.get("plaza") in th else None


def _dist(hexes: Optional[list[Hex]], h: Hex) -> int:
    return min((hex_distance(x, h) for x in hexes), default=99) if hexes else 99


# -- how seeded random play leans (``PLAY_LEAN``) and what it sets aside (``PLAY_AVOID``): not rules ---------

#: Random play keeps this much gold for tolls and tribute before it buys cards with gold (R-098): the bank
#: keeps what it is paid, and spent at random every coin of the game ends there, wagons stopping at tolls.
GOLD_RESERVE = 8
#: Random play builds no more ships once it has this many on the board: built at random, ships eat the
#: lumber and wool of settlements long before a lane closes.
SHIPS_ENOUGH = 6
#: Random play pays grain for +2 MP (WAG-012) only while it holds at least this much: the grain of
#: settlements and cities would go to the wagon.
GRAIN_TO_SPARE = 3


def short_of_gold(state: State, player: int) -> bool:
    """Random play sets gold purchases aside while buying one card would leave less than ``GOLD_RESERVE``."""
    return int(state.players[player].extra.get("gold", 0)) - 2 < GOLD_RESERVE


def ships_enough(state: State, player: int) -> bool:
    """Random play sets ship building aside once the player has ``SHIPS_ENOUGH`` ships on the board."""
    return sum(1 for o in state.ships.values() if o == player) >= SHIPS_ENOUGH


def grain_needed(state: State, action: Action) -> bool:
    """Random play sets aside the wagon moves paying grain (WAG-012) while grain is short."""
    return bool(action.get("grain")) and state.players[action.player].resources.get("grain", 0) < GRAIN_TO_SPARE


def settled(state: State, player: int) -> bool:
    """Random play sets road building aside once the player has no settlement left to place: its lumber and
    brick would be spent on roads leading nowhere while cities wait."""
    return not state.players[player].supply.get("settlements", 0)


def toward_building(state: State, action: Action) -> bool:
    """Random play leans to bank trades that bring a settlement or a city nearer (one left in the supply):
    the card got is one the building lacks, the cards given are beyond what either needs (two trades never
    undo each other)."""
    hand = state.players[action.player].resources
    get, give = action.get("get") or {}, action.get("give") or {}
    supply = state.players[action.player].supply
    wanted = [k for k in ("settlement", "city") if supply.get(k + "s", 0)]
    if any(hand.get(r, 0) - n < max([COSTS[k].get(r, 0) for k in wanted], default=0) for r, n in give.items()):
        return False
    return any(get and all(r in lacks for r in get) for lacks in (shortfall(hand, COSTS[k]) for k in wanted))


def toward_delivery(state: State, action: Action) -> bool:
    """Random play leans to wagon moves that enter the plaza the wagon heads for (a delivery or a draw), or
    end nearer to it."""
    p = action.player
    tgt = _target(state, p)
    if tgt is None:
        return False
    name, h = tgt
    if action.get("plaza") is not None:
        return action.get("plaza") == name
    end = action.get("jump") or ((action.get("path") or [None])[-1])
    if end is None:
        return False
    return _dist(list(node_hexes(tuple(end))), h) < _dist(_where(state, p), h)



def _kind_hidden(token: Any) -> Any:
    """the token with its kind null (whether one is held, and where it was drawn, stay public)"""
    return {**token, "kind": None} if isinstance(token, dict) and "kind" in token else token


#: What the wagon-train variant keeps from other players (a seat's view, ``seats.py``): R-101, R-121.
WAG_SECRETS = (
    Secret("state:/scenario_state/wagons/*/token", _kind_hidden, "the kind of the trade token a wagon holds, until "
           "delivered (R-121: that one is held and where it was drawn are public)", rules="WAG-017, R-101, R-121"),
    Secret("state:/scenario_state/stacks/*", "count", "the trade tokens left in each hex's stack, by kind (a "
           "held token's kind would follow from it)", owner="", rules="R-121"),
    Secret("derived:/wagons/*/token", _kind_hidden, "the kind of the trade token a wagon holds",
           rules="WAG-017, R-101, R-121"),
    Secret("event:token_drawn/kind", "hidden", "the kind of the trade token drawn", seen_by=("player",),
           rules="WAG-017, R-101, R-121"),
)

class WagonTrainRules:
    """The wagon-train rules as a module: declarations and hooks (each hook adds to the modules below)."""
    module_name = "WAG"
    CURRENCIES = ("gold", "presents")                       # WAG-044, R-112: gold; WAG-064: Santa's presents
    ACTIONS = (
        domestic_trade_with_gold(("presents",)),           # WAG-044, R-112: deals for passage; WAG-064: presents
        ActionSpec("move_wagon", {
            "path": F(List(NODE, max_len=16), doc="WAG-004: the intersections entered, one path each"),
            "plaza": F(_TRADE, nullable=True, doc="WAG-014, R-093: end by entering this trade hex's plaza"),
            "jump": F(NODE, nullable=True, doc="WAG-022, R-085: end by jumping along a closed sea route to this "
                      "building"),
            "grain": F(Bool(), default=False, doc="WAG-012, R-099: pay 1 grain first for +2 MP (once a turn)"),
            "draw": F(_KIND, nullable=True, doc="WAG-017/020: the token drawn on the plaza, as observed; left out, "
                      "the seeded generator draws it"),
            "redeem": F(Int(0, 100), default=0, doc="WAG-063, R-122: presents redeemed on entering the plaza "
                        "(Santa's workshop)"),
        }, "Move the wagon one segment (WAG-003..026): the verdict names the first illegal step.",
            handler=MoveWagon.HANDLER, candidates=move_candidates),
        ActionSpec("drive_off_barbarian", {
            "hex": F(HEX, required=True, doc="WAG-028: the barbarian hex beside the wagon"),
            "to": F(HEX, nullable=True, doc="R-105, R-113: where one barbarian goes if the roll succeeds"),
            "die": F(Int(1, 6), nullable=True, doc="the die as observed; left out, the seeded generator rolls"),
        }, "WAG-027..030, WAG-061: roll to drive one barbarian off a hex beside the wagon.",
            handler=DriveOff.HANDLER, candidates=drive_candidates),
        ActionSpec("chase_warship", {
            "owner": F(PLAYER, required=True, doc="the opponent whose warship is chased"),
            "to": F(HEX, nullable=True, doc="R-113/R-116: the vacant adjacent sea hex it goes to on success"),
            "die": F(Int(1, 6), nullable=True, doc="the die as observed; left out, the seeded generator rolls"),
        }, "WAG-036..038, R-086: roll to chase an opponent's warship away (no tribute on success).",
            handler=ChaseWarship.HANDLER, candidates=chase_candidates),
        ActionSpec("upgrade_baggage_train", {}, "WAG-006, R-087, R-120: the baggage train goes up one level.",
                   handler=Upgrade.HANDLER, candidates=upgrade_candidates),
        ActionSpec("set_toll_policy", {"payer": F(PLAYER, required=True), "charge": F(Bool(), required=True)},
                   "WAG-044, R-082, R-112: charge (default) or waive one opponent's tolls and tribute.",
                   handler=SetTollPolicy.HANDLER, candidates=policy_candidates),
        ActionSpec("gold_trade", {"give": F(Cards(RESOURCES + ("gold",)), required=True),
                                  "get": F(Cards(RESOURCES + ("gold",)), required=True)},
                   "WAG-067, R-098: buy resource cards from the bank, 2 gold each, at most 2 a turn.",
                   handler=BuyWithGold.HANDLER, ranged=True, ranges=_ranges()),
    )
    STATE = {
        "trade_hexes": F(Obj({n: F(HEX) for n in C.TRADE + ("forge",)}),
                         doc="R-089, R-093: the trade hexes (desert tiles), by name; forge = glassworks"),
        "stacks": F(Obj({n: F(_STACK) for n in C.TRADE + ("forge",)}),
                    doc="R-088, WAG-021: the trade tokens left in each hex's stack, by kind"),
        "wagons": F(by_player(_WAGON), doc="WAG-004, R-097: each player's wagon"),
        "wagon_turn": F(_TURN, nullable=True, doc="this turn's wagon bookkeeping (cleared at the end of the turn)"),
        "barbarians": F(Map(Int(0, 3), max_len=64), doc="WAG-049, R-084: \"q,r\" of a land hex -> barbarians in it"),
        "rivers": F(List(EDGE, max_len=100), doc="R-095: land paths that cross a river"),
        "bridges": F(List(Obj({"edge": F(EDGE, required=True), "player": F(PLAYER, nullable=True)}), max_len=40),
                     doc="R-095, R-109: bridges on river paths and their owners (null: public)"),
        "warships": F(by_player(HEX), doc="R-086: each player's personal warship (a sea hex)"),
        "pirate_pool": F(Int(0, 10_000), doc="WAG-031, WAG-032, R-091: tolls diverted to the pirate; no action "
                           "takes them back (the plundering rules are missing)"),
        "toll_waivers": F(by_player(List(PLAYER, max_len=3)), doc="R-112: owner -> payers he lets pass free"),
        "pirate_lairs": F(List(HEX, max_len=20), doc="R-094: pirate lairs (none on the default maps)"),
        "santa": F(Obj({"hex": F(HEX, required=True), "pile": F(Int(0, 100), required=True)}), nullable=True,
                   doc="WAG-062, R-090: Santa's workshop (option santa_workshop): its hex and the presents left"),
    }
    DERIVED = {
        "wagons": F(by_player(Any_(doc="position, level, card, allowance, MP left, token (kind to its owner)"))),
        "trade_hexes": F(Map(Any_(doc="hex, stack size, kinds delivered there"), max_len=4)),
        "barbarians": F(Map(Any_(doc="count and effect"), max_len=64), doc="WAG-049..052"),
        "pirate_pool": F(Int(0, 10_000), doc="WAG-031, R-091"),
        "wagon_move": F(Any_(doc="the judged segment: MP and gold per step, each part citing its rule")),
        "closed_ships": F(by_player(List(EDGE, max_len=100)), doc="SEA-014 / R-013, WAG-045: ships of closed "
                          "lanes; a lane an opponent's knight breaks is closed no more"),
    }
    EVENTS = (
        EventSpec("wagon_moved", {"player": F(PLAYER), "path": F(List(NODE, max_len=16)), "plaza": F(Null(_TRADE)),
                                  "jump": F(Null(NODE)), "mp": F(Int(0, 40)), "mp_left": F(Int(0, 40)),
                                  "grain": F(Bool())}, "WAG-004: the wagon moved one segment"),
        EventSpec("toll_paid", {"payer": F(PLAYER), "payee": F(Null(PLAYER)), "gold": F(Int(0, 100)),
                                "reason": F(Str(("road", "bridge", "lane", "tribute"))), "rule": F(Str(max_len=20))},
                  "WAG-010/024/031/033/043: gold paid for a step (payee null: the pirate pool)"),
        EventSpec("barbarian_attempt", {"player": F(PLAYER), "hex": F(HEX), "die": F(Int(1, 6)),
                                        "success": F(Bool()), "to": F(Null(HEX))}, "WAG-028: a drive-off roll"),
        EventSpec("warship_chase", {"player": F(PLAYER), "owner": F(PLAYER), "die": F(Int(1, 6)),
                                    "success": F(Bool()), "to": F(Null(HEX))}, "WAG-036: a chase roll"),
        EventSpec("token_drawn", {"player": F(PLAYER), "hex": F(_TRADE), "kind": F(_KIND)},
                  "WAG-017/020: a trade token drawn (its kind for its owner, R-101)"),
        EventSpec("token_delivered", {"player": F(PLAYER), "kind": F(_KIND), "hex": F(_TRADE), "gold": F(Int(0, 100))},
                  "WAG-020: a token delivered: 1 VP and gold"),
        EventSpec("stack_empty", {"hex": F(_TRADE)}, "WAG-021, R-080: nothing left to draw here"),
        EventSpec("baggage_train_upgraded", {"player": F(PLAYER), "level": F(Int(1, 5))}, "WAG-006"),
        EventSpec("toll_policy", {"owner": F(PLAYER), "payer": F(PLAYER), "charge": F(Bool())}, "R-112"),
        EventSpec("wagon_placed", {"player": F(PLAYER), "node": F(NODE)}, "R-097: the wagon starts here"),
        EventSpec("present_given", {"player": F(PLAYER), "from": F(Null(PLAYER)), "presents": F(Int(0, 2))},
                  "WAG-062/064: a present from Santa's pile (from null) or two taken from the player holding most"),
        EventSpec("presents_redeemed", {"player": F(PLAYER), "presents": F(Int(0, 100)), "gold": F(Int(0, 10_000))},
                  "WAG-063, R-122: presents redeemed on a plaza"),
        EventSpec("trade_hex_produced", {"player": F(PLAYER), "resource": F(Str(RESOURCES)), "count": F(Int(0, 20))},
                  "WAG-065: a trade hex produced (Santa's workshop option)"),
    )
    OPTIONS = (
        OptionSpec("large_map_bonus", _flag, "true or false: WAG-039/040, R-110: +2 MP always and double delivery "
                   "gold (a new game on the default maps turns it on)"),
        OptionSpec("start_gold", _start_gold, "an integer 0..50: R-103, each player's gold at the start (default 5)"),
        OptionSpec("baggage_train", _card_table, "5 levels [{mp, gold, faces}] with MP not falling: R-087, the "
                   "baggage-train card table (default MP 4/5/5/6/6, gold 1-5, faces none/6/5-6/4-6/3-6)"),
        OptionSpec("upgrade_cost", _upgrade_cost, "resource counts: R-087, the price of an upgrade (default 1 grain, "
                   "1 ore, 1 wool)"),
        OptionSpec("santa_workshop", _flag, "true or false (default false): R-090, Santa's workshop: presents "
                   "(WAG-062..064) and producing trade hexes (WAG-065); the North Pole and favour tokens are not "
                   "played"),
        OptionSpec("north_pole", _false_only, "false only: R-090, the North Pole wild trade hex (WAG-066) and the "
                   "favour tokens for presents (WAG-069) are alternatives the rulings leave out"),
        OptionSpec("knights_on_horseback", _false_only, "false only: R-096, strong knights on horseback (WAG-046, "
                   "WAG-048, WAG-053, WAG-055, WAG-056, WAG-057) need a knights-on-horseback module the rules do not define"),
    )
    CHECKS = (movement_phase_check,)
    SECRETS = WAG_SECRETS
    # (after the declarations above: in a class body this name hides ``spec.PLAYER``)
    PLAYER = {"gold": F(Int(0, 10_000), default=0, doc="WAG-002, R-103: the gold coins the player holds"),
              "presents": F(Int(0, 100), default=0, doc="WAG-062..064: Santa's presents held (option santa_workshop)")}

    PLAY_LEAN = (PlayLean("move_wagon", toward_delivery, "a wagon move towards the plaza it heads for (draw or "
                          "deliver)"),
                 PlayLean("upgrade_baggage_train", None, "an upgrade of the baggage train"),
                 PlayLean("maritime_trade", toward_building, "a bank trade for a card a settlement or a city lacks, "
                          "paid with cards it does not need"))
    PLAY_AVOID = (PlayAvoid("gold_trade", short_of_gold, "no cards bought with gold (R-098: paid to the bank) "
                            "while it would leave the player short of gold for tolls"),
                  PlayAvoid("move_ship", None, "no ship moved: moved at random, ships undo the closed sea routes a "
                            "wagon jumps along (WAG-022) faster than building closes them"),
                  PlayAvoid("build_ship", ships_enough, "no more ships once the player has a few on the board"),
                  PlayAvoid("move_wagon", None, "no grain paid for MP (WAG-012) while grain is short",
                            each=grain_needed),
                  PlayAvoid("build_road", settled, "no more roads once every settlement is on the board"))

    # -- a new game --------------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        options = {"large_map_bonus": True, **(options or {})}        # the default maps are large
        state = super().new_game(num_players, seed, options)
        for p in state.players:
            p.extra["gold"] = int(options.get("start_gold", C.START_GOLD))
            p.extra["presents"] = 0        # (held in every game, as the loader reads a left-out count: 0)
        if options.get("santa_workshop") and self.has_map:
            from .maps import ROBBER
            santa.setup(state, ROBBER)                                    # R-090, decision D-wag-santa
        return state

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out.update(map_marks(num_players))
        out["stacks"] = {k: dict(v) for k, v in C.STACKS.items()}
        out["wagons"] = {str(p): {"node": None, "plaza": None, "level": 1, "token": None, "delivered": {}}
                         for p in range(num_players)}
        out["warships"] = {}
        out["pirate_pool"] = 0
        out["toll_waivers"] = {}
        out["pirate_lairs"] = []
        out["wagon_turn"] = None
        return out

    # -- reactions ---------------------------------------------------------------------------------------
    def after_action(self, ctx: Ctx, s: State) -> None:
        super().after_action(ctx, s)
        a = ctx.action
        if a.type == "build_settlement" and ctx.state.phase == "setup":     # the first settlement
            w = (s.scenario_state.get("wagons") or {}).get(str(a.player))
            if w is not None and w.get("node") is None and not w.get("plaza"):
                s.scenario_state = copy.deepcopy(s.scenario_state)
                s.scenario_state["wagons"][str(a.player)]["node"] = list(a.get("node"))
                ctx.emit("wagon_placed", player=a.player, node=list(a.get("node")))
        elif a.type in OTHER_MOVABLES:
            t = s.scenario_state.get("wagon_turn")
            if t and t.get("started") and not t.get("ended"):
                s.scenario_state = copy.deepcopy(s.scenario_state)
                s.scenario_state["wagon_turn"]["ended"] = True

    def after_production(self, ctx: Ctx, s: State, total: int) -> None:
        super().after_production(ctx, s, total)
        santa.after_production(ctx, s, total, self.idle_hexes(s))         # WAG-062..065 (option only)

    def on_turn_end(self, ctx: Ctx, s: State) -> None:
        super().on_turn_end(ctx, s)
        if s.scenario_state.get("wagon_turn") is not None:                 # WAG-013: unused MP are lost
            s.scenario_state = {**s.scenario_state, "wagon_turn": None}

    def ship_lane_violations(self, ctx: Ctx, src) -> list[Violation]:
        """WAG-045 (decision D-wag-orphans): a route another player's piece breaks (a Cities & Knights knight)
        leaves its orphan ships on the board, and the ship movement rule still applies to them: the lane
        ends at that piece as at an opponent's building (R-010), so a lane it breaks is closed no more
        (R-013), and its ships move one a turn (SEA-017) from the free ends of their broken lanes."""
        broken = C.broken_at(ctx.state, ctx.action.player)
        if not broken:
            return super().ship_lane_violations(ctx, src)
        from ...actions.seafarers import lane_violations
        return lane_violations(ctx, src, broken)

    def idle_hexes(self, state: State) -> Any:
        """WAG-052 / R-106: a conquered hex (3 barbarians) produces nothing."""
        own = {C.unkey(k) for k, n in (state.scenario_state.get("barbarians") or {}).items() if n >= 3}
        below = super().idle_hexes(state)
        return own | set(below) if below else own

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        out = dict(super().vp_extra(state, player))
        out["deliveries"] = sum((C.wagon(state, player).get("delivered") or {}).values())   # WAG-002
        return out

    # -- reports -----------------------------------------------------------------------------------------
    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = dict(super().derived_extra(state, graph))
        ss = state.scenario_state
        wagons = {}
        for p in range(state.num_players):
            w = C.wagon(state, p)
            if not w:
                continue
            level = int(w.get("level", 1))
            tok = w.get("token")
            entry = {"node": w.get("node"), "plaza": w.get("plaza"), "level": level, "card": C.card(state, level),
                     "allowance": C.allowance(state, p, C.turn_of(state) if p == state.current_player else {}),
                     "token": None if tok is None else {"held": True, "from": tok.get("from"), "kind": tok.get("kind")},
                     "deliveries": sum((w.get("delivered") or {}).values())}
            if p == state.current_player and state.phase == "main":
                entry["mp_left"] = max(0, C.mp_left(state, p))
            wagons[str(p)] = entry
        stacks = ss.get("stacks") or {}
        trade = {}
        for name, h in C.trade_hexes(state).items():
            st = stacks.get(name) or (stacks.get("forge") if name == "glassworks" else None) or {}
            trade[name] = {"hex": list(h), "stack": sum(st.values()),
                           "delivers": sorted(k for k, t in C.DELIVER.items() if t == name)}
        barb = {}
        for k, n in sorted((ss.get("barbarians") or {}).items()):
            if n:
                barb[k] = {"count": n, "effect": {1: "undeveloped", 2: "all", 3: "conquered"}[min(n, 3)]}
        out.update({"wagons": wagons, "trade_hexes": trade, "barbarians": barb,
                    "pirate_pool": int(ss.get("pirate_pool", 0))})
        broken = {p: C.broken_at(state, p) for p in range(state.num_players)}
        if any(broken.values()):                    # WAG-045: lanes a knight breaks are closed no more
            out["closed_ships"] = {str(p): sorted([list(e) for e in closed_ships(state, graph, p, broken[p])])
                                   for p in range(state.num_players)}
        return out

    def board_layers(self, state: State, graph) -> list:
        from . import pictures
        return list(super().board_layers(state, graph)) + pictures.layers(state, graph)

    def explain_extra(self, state: State, graph) -> dict[str, Any]:
        from . import pictures
        return {**super().explain_extra(state, graph), **pictures.explain(state, graph)}

    # -- consistency ---------------------------------------------------------------------------------------
    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = list(super().validate_state(state))
        ss = state.scenario_state
        at = "/state/scenario_state"
        th = ss.get("trade_hexes") or {}
        if "forge" in th and "glassworks" in th:
            out.append((f"{at}/trade_hexes/forge", "forge is another name of the glassworks (R-089): give one"))
        seen: dict = {}
        for name, h in th.items():
            if h is None:
                continue
            t = state.hexes.get(tuple(h))
            if t is None or t.terrain not in LAND:
                out.append((f"{at}/trade_hexes/{name}", f"a trade hex is a land hex of the board (R-093); "
                            f"{hex_str(tuple(h))} is not"))
            if tuple(h) in seen:
                out.append((f"{at}/trade_hexes/{name}", f"the {seen[tuple(h)]} stands on {hex_str(tuple(h))} already"))
            seen[tuple(h)] = name
        held: dict[str, int] = {}
        for p, w in (ss.get("wagons") or {}).items():
            if int(p) >= state.num_players:
                out.append((f"{at}/wagons/{p}", f"player {p} does not exist"))
                continue
            if w.get("node") is not None and w.get("plaza"):
                out.append((f"{at}/wagons/{p}", "a wagon stands on an intersection or on a plaza, not both"))
            if w.get("node") is not None and not any(
                    (t := state.hexes.get(h)) is not None and t.terrain != "frame" for h in node_hexes(tuple(w["node"]))):
                out.append((f"{at}/wagons/{p}/node", "a wagon stands on an intersection of the board (WAG-004)"))
            if w.get("plaza") and w["plaza"] not in C.trade_hexes(state):
                out.append((f"{at}/wagons/{p}/plaza", f"there is no {w['plaza']} trade hex on this board"))
            if w.get("level") is not None and w["level"] > len(C.card_table(state)):
                out.append((f"{at}/wagons/{p}/level", "above the card table's top level (R-087)"))
            if w.get("token"):
                held[w["token"]["kind"]] = held.get(w["token"]["kind"], 0) + 1
            for k, n in (w.get("delivered") or {}).items():
                held[k] = held.get(k, 0) + n
        for name, st in (ss.get("stacks") or {}).items():
            tname = "glassworks" if name == "forge" else name
            for k, n in st.items():
                held[k] = held.get(k, 0) + n
                if n and C.DELIVER[k] == tname:
                    out.append((f"{at}/stacks/{name}/{k}", f"the {tname} never stacks a kind delivered to itself "
                                "(R-088)"))
        for k, n in held.items():
            if n > C.TOTALS[k]:     # every side of the sum: the stacks and each wagon's token and deliveries
                why = f"{n} {k} tokens in stacks, hands and deliveries; the game has {C.TOTALS[k]} (R-088)"
                out.append((f"{at}/stacks", why))
                out.extend((f"{at}/wagons/{p}", why) for p in (ss.get("wagons") or {}))
        for k, n in (ss.get("barbarians") or {}).items():
            try:
                h = C.unkey(k)
            except ValueError:
                out.append((f"{at}/barbarians/{k}", "a key is \"q,r\""))
                continue
            t = state.hexes.get(h)
            if n and (t is None or t.terrain not in LAND):
                out.append((f"{at}/barbarians/{k}", "barbarians stand on land hexes only (WAG-049, R-105)"))
        rivers = {tuple(e) for e in ss.get("rivers") or ()}
        for i, b in enumerate(ss.get("bridges") or ()):
            if tuple(b["edge"]) not in rivers:     # the bridge, and the rivers it should lie on
                out.append((f"{at}/bridges/{i}/edge", "a bridge lies on a river path (R-095)"))
                out.append((f"{at}/rivers", "a bridge lies on a river path (R-095)"))
        spots = {}
        for o, h in (ss.get("warships") or {}).items():
            if h is None:
                continue
            t = state.hexes.get(tuple(h))
            if t is None or t.terrain != "sea":
                out.append((f"{at}/warships/{o}", "a warship lies on a sea hex (R-086)"))
            if tuple(h) in spots:
                out.append((f"{at}/warships/{o}", "two warships never share a hex (R-086)"))
            spots[tuple(h)] = o
        if state.options.get("santa_workshop"):
            sh = (ss.get("santa") or {}).get("hex")
            tile = None if sh is None else state.hexes.get(tuple(sh))
            if tile is None or tile.terrain not in LAND:
                out.append((f"{at}/santa", "with santa_workshop on, Santa's workshop is a land hex of the board "
                            "(R-090)"))
        elif ss.get("santa") or any(p.extra.get("presents") for p in state.players):
            why = "presents and Santa's workshop exist only with the option santa_workshop (R-090)"
            out.append((f"{at}/santa", why))
            out.extend((f"/state/players/{i}/presents", why) for i, p in enumerate(state.players)
                       if p.extra.get("presents"))
        t = ss.get("wagon_turn")
        if t and t.get("player") is not None and t["player"] != state.current_player:
            out.append((f"{at}/wagon_turn/player", "the turn's wagon bookkeeping belongs to the current player"))
            out.append(("/state/current_player", "the turn's wagon bookkeeping belongs to the current player"))
        return out


class WagonTrain(WagonTrainRules, MappedScenario, Seafarers, edition=Edition(
        "WAG", "Wagon Train / Overseas Baggage Train (fan variant)", BOOK, None, (3, 4), 13,   # R-097, WAG-001
        "R-089", {n: component_table(n) for n in (3, 4)}, MAP_SPECS)):
    """WAG on its default maps (``maps.py``)."""
    pirate = True

    def maps(self) -> dict[int, Any]:
        return {n: {**spec.layout(), **map_marks(n)} for n, spec in self.map_specs.items()}


__all__ = ["WagonTrain", "WagonTrainRules"]
