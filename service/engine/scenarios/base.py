"""The scenario contract: data (board, supply, VP target) plus hooks, and the base game as its first use.

A scenario states only what differs from the defaults below (class attributes are the data, methods
the hooks). The engine calls the hooks; it never asks *which* scenario it is playing. Hooks:

- ``new_board(num_players, rng)``: the map (hexes, harbours, robber and pirate start) for a new game;
- ``action_types()``: the actions this scenario knows (adds e.g. ``build_ship``, ``move_ship``);
- ``handler(type)``: a handler replacing the engine's for one action type (GOLD mobile ships...);
- ``check(ctx)``: extra violations of a proposed action (set-up areas, front coast, ...);
- ``after_action(ctx, s)``: reactions once an action is applied (special VP, discovery, treasures);
- ``produce(ctx, s, roll)``: production of a roll (gold fields, dragons, cargo loss...);
- ``idle_hexes(state)``: hexes that produce nothing on a roll besides the robber's;
- ``army_award(state, holder)``: who holds the Largest Army card (a game without it: nobody);
- ``route_pieces(state, player)``: which pieces count for the longest route;
- ``vp_extra(state, player)``: VP sources beyond buildings, cards and awards;
- ``end_condition(state)``: an immediate end of game other than the VP target (R-003);
- ``robber_hex_ok`` / ``pirate_hex_ok``: where the robber and pirate may go;
- ``validate_state(state)``: consistency of the scenario's own data (``scenario_state``);
- ``pieces_off_grid(scenario_state, player)``: pieces kept in ``scenario_state`` (GOLD's mobile ships),
  counted against the supply;
- ``legal_candidates(state, graph, player)``: candidate actions of the scenario's own action types,
  for the legal-action list (filtered through the same checks; default: none).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Optional

from ..derive import largest_army
from ..geometry import Edge, Hex, Node, hex_distance, hex_neighbours
from ..mapgraph import LAND, RESOURCES
from ..module import ActionSpec, Composition, EventSpec, OptionSpec, compose
from ..placement import road_connected, ship_connected
from ..rng import Rng
from ..seats import Secret
from ..spec import EDGE, HEX, MAX_PLAYERS, NODE, PLAYER, Any_, Bool, Cards, F, Int, List, Map, Obj, Str
from ..state import DEV_CARDS, Player, Setup, State, Tile, TurnFlags, empty_dev, empty_resources

if TYPE_CHECKING:  # pragma: no cover
    from ..core import Action, Ctx, Violation


def flag_option(value: Any, players: int) -> bool:
    return type(value) is bool


def _refusing(why: str) -> Callable[[Any, int], bool]:
    return lambda value, players: value is False


def player_option(value: Any, players: int) -> bool:
    return type(value) is int and 0 <= value < players


def hex_option(value: Any, players: int) -> bool:
    return type(value) is list and len(value) == 2 and all(type(x) is int for x in value)


# -- the base game's declarations ------------------------------------------------------------------------

_ROBBER_FIELDS = {
    "hex": F(HEX, required=True, doc="where the robber goes"),
    "steal_from": F(PLAYER, nullable=True, doc="the player robbed (one with a building on the hex)"),
    "card": F(Str(RESOURCES), nullable=True, doc="the card taken, as observed (else drawn by the seeded generator)"),
}
_HAND = Cards(RESOURCES, fill=True)
_TRADE = Cards(RESOURCES)

BASE_ACTION_SPECS = (
    ActionSpec("build_settlement", {"node": F(NODE, required=True)}, "Build a settlement (or place a starting one)."),
    ActionSpec("build_road", {"edge": F(EDGE, required=True)}, "Build a road (or place a starting one)."),
    ActionSpec("build_city", {"node": F(NODE, required=True)}, "Upgrade a settlement to a city."),
    ActionSpec("roll", {"dice": F(List(Int(1, 6), min_len=2, max_len=2), nullable=True,
                                  doc="the two dice as rolled; left out, the seeded generator rolls")},
               "The production roll."),
    ActionSpec("discard", {"resources": F(_HAND, required=True)}, "Discard half the hand on a 7.", ranged=True),
    ActionSpec("move_robber", dict(_ROBBER_FIELDS), "Move the robber after a 7 and rob."),
    ActionSpec("buy_development_card",
               {"card": F(Str(DEV_CARDS), nullable=True, doc="the card drawn, as observed")},
               "Buy a development card."),
    ActionSpec("play_knight", {**_ROBBER_FIELDS, "target": F(Str(("robber", "pirate")), nullable=True,
                                                             doc="what the knight moves: required where the "
                                                                 "scenario has a pirate (SEA-031); elsewhere, left "
                                                                 "out, the robber")},
               "Play a knight: move the robber and rob."),
    ActionSpec("play_road_building",
               {"pieces": F(List(Obj({"kind": F(Str(("road", "ship")), required=True),
                                      "edge": F(EDGE, required=True)}), min_len=1, max_len=2), required=True)},
               "Play Road Building: place up to two pieces for free."),
    ActionSpec("play_year_of_plenty", {"resources": F(_HAND, required=True)},
               "Play Year of Plenty: take two resources from the bank.", ranged=True),
    ActionSpec("play_monopoly", {"resource": F(Str(RESOURCES), required=True)},
               "Play Monopoly: every other player gives all cards of one resource."),
    ActionSpec("maritime_trade", {"give": F(_TRADE, required=True), "get": F(_TRADE, required=True)},
               "Trade with the bank at 4:1 or a harbour's rate (one kind given, one kind got)."),
    ActionSpec("domestic_trade", {"partner": F(PLAYER, required=True),
                                  "give": F(Cards(RESOURCES + DEV_CARDS), required=True),
                                  "get": F(Cards(RESOURCES + DEV_CARDS), required=True),
                                  "accepted": F(Bool(), required=True)},
               "A trade between the active player and another, as agreed.", ranged=True),
    ActionSpec("end_turn", {}, "End the turn."),
)

BASE_ACTIONS = tuple(a.type for a in BASE_ACTION_SPECS)

_P = F(PLAYER, required=True)
_COUNTS = Map(Int(0, 10_000), max_len=20)          # cards (or coins) by kind
_PER_PLAYER = Map(Int(0, 10_000), max_len=MAX_PLAYERS)   # a count per player ("0".."5")
_PIECE = Str(("settlement", "city", "road", "ship"))
BASE_EVENT_SPECS = (
    EventSpec("built", {"player": _P, "piece": F(_PIECE, required=True), "node": F(NODE), "edge": F(EDGE),
                        "free": F(Bool(), doc="placed by a card, not paid")}, "A piece was built or placed."),
    EventSpec("moved", {"piece": F(Str(("robber", "pirate", "ship")), required=True), "player": _P,
                        "hex": F(HEX), "steal_candidates": F(List(PLAYER, max_len=MAX_PLAYERS)),
                        "from": F(EDGE), "to": F(EDGE)}, "The robber (or another piece) moved."),
    EventSpec("rolled", {"player": _P, "dice": F(List(Int(1, 6), min_len=2, max_len=2), required=True),
                         "total": F(Int(2, 12), required=True)}, "The production roll."),
    EventSpec("production", {"player": _P, "resources": F(_COUNTS, required=True)}, "What a player's buildings produced."),
    EventSpec("shortage", {"resource": F(Str(RESOURCES), required=True), "owed": F(_PER_PLAYER, required=True),
                           "bank": F(Int(0, 100), required=True)},
              "The bank could not pay a resource in full (BASE-PROD-4)."),
    EventSpec("must_discard", {"players": F(_PER_PLAYER, required=True)}, "On a 7, who discards how many."),
    EventSpec("discarded", {"player": _P, "resources": F(_COUNTS, required=True)}, "A player discarded."),
    EventSpec("stole", {"player": _P, "victim": F(PLAYER, required=True), "resource": F(Str(RESOURCES), nullable=True)},
              "A card was stolen (null: the victim had none)."),
    EventSpec("traded", {"player": _P, "partner": F(Any_(), required=True, doc="a player, or \"bank\""),
                         "gave": F(_COUNTS, required=True), "got": F(_COUNTS, required=True)}, "A trade."),
    EventSpec("bought_development_card", {"player": _P, "card": F(Str(DEV_CARDS), required=True)},
              "A development card was bought."),
    EventSpec("played", {"player": _P, "card": F(Str(DEV_CARDS), required=True), "resources": F(_COUNTS),
                         "resource": F(Str(RESOURCES)), "taken": F(_PER_PLAYER)}, "A development card was played."),
    EventSpec("award", {"award": F(Str(max_len=40), required=True), "from": F(PLAYER, nullable=True),
                        "to": F(PLAYER, nullable=True)}, "An award (Longest Road, Largest Army...) changed hands."),
    EventSpec("starting_resources", {"player": _P, "resources": F(_COUNTS, required=True)},
              "What a second starting settlement paid (BASE-SETUP-5)."),
    EventSpec("setup_complete", {}, "Set-up is over; the first turn begins."),
    EventSpec("turn_started", {"player": _P, "turn": F(Int(0, 100_000), required=True)}, "A new turn began."),
    EventSpec("winner", {"player": _P}, "The game is won."),
)

BASE_OPTION_SPECS = (
    OptionSpec("BASE-VAR-STRICT-PHASES", flag_option,
               "true or false: no trade once the active player has built or bought this turn (BASE-TURN-4; the "
               "default is the combined phase, BASE-TURN-3)"),
    OptionSpec("BASE-VAR-BANK-STRICT", flag_option,
               "true or false: when the bank cannot pay a resource in full, nobody gets it even when only one player "
               "is owed it (BASE-PROD-4, BASE-ED-3)"),
    OptionSpec("lr_broken_tie_holder_keeps", flag_option,
               "true or false (default true): a holder whose road was broken but is still tied for longest keeps the "
               "card (BASE-LR-8)"),
)


def _public_points(vp: Any) -> Any:
    """the total without the hidden victory-point cards, which show as null"""
    if not isinstance(vp, dict) or not isinstance(vp.get("victory_point_cards"), int):
        return vp
    out = dict(vp)
    if isinstance(out.get("total"), int):
        out["total"] -= out["victory_point_cards"]
    out["victory_point_cards"] = None
    return out


def _game_over(derived: Any, owner: int) -> bool:
    """BASE-DEV-9: victory-point cards are "revealed when the player declares victory ... or at game end":
    every player's are shown once the game is over (phase game over), the winner's and the others' alike."""
    return isinstance(derived, dict) and derived.get("phase") == "game_over"


def _seat_trades(listed: Any, seat: int, state: State, graph: Any, scenario: Any) -> Any:
    """the trades the seat may propose: one range per partner holding any card, what the partner may give
    left open (``get.at_most`` null, ``get.total_at_most`` the partner's cards), no example (decision
    D-seat-trades, docs/seats.md); whether the trade is open now is judged on the position with the partner's
    cards all of one kind, so that it does not depend on their kinds"""
    from ..core import Action
    from ..legal import is_legal
    from ..actions.trade import trade_partners
    currencies = scenario.composition.currencies
    kinds = RESOURCES + currencies

    def hand(q: int) -> dict[str, int]:
        pl = state.players[q]
        return {**{r: pl.resources.get(r, 0) for r in RESOURCES}, **{c: pl.extra.get(c, 0) for c in currencies}}

    mine = hand(seat)
    held = [k for k in kinds if mine[k] > 0]
    if not held:
        return None
    a = held[0]
    out = []
    for q in trade_partners(state, seat):
        theirs = hand(q)
        cards = sum(theirs[r] for r in RESOURCES)
        probe = state
        if cards:       # the partner's cards, as one kind other than the one offered
            b = next(r for r in RESOURCES if r != a)
            probe = state.copy()
            probe.players[q].resources = {r: cards if r == b else 0 for r in RESOURCES}
        else:           # (a currency is public)
            b = next((c for c in currencies if c != a and theirs[c] > 0), None)
            if b is None:
                continue
        trade = Action("domestic_trade", seat, {"partner": q, "give": {a: 1}, "get": {b: 1}, "accepted": True})
        if is_legal(probe, trade, graph, scenario):
            out.append({"type": "domestic_trade", "player": seat, "partner": q, "accepted": True,
                        "give": {"at_least": 1, "at_most": mine},
                        "get": {"at_least": 1, "at_most": None, "total_at_most": sum(theirs.values())},
                        "no_type_on_both_sides": True, "example": None})
    return out or None


#: What the base game keeps from other players (a seat's view, ``seats.py``).
BASE_SECRETS = (
    Secret("state:/players/*/resources", "count", "the resource cards in hand, by kind", rules="BASE-ROBBER-4"),
    Secret("state:/players/*/dev_cards", "count", "the development cards held, by kind", rules="BASE-DEV-1"),
    Secret("state:/players/*/dev_cards_new", "count", "the development cards bought this turn, by kind",
           rules="BASE-DEV-1"),
    Secret("state:/dev_deck", "count", "the development cards left in the deck, by kind (what opponents hold "
           "follows from it)", owner="", rules="BASE-DEV-1"),
    Secret("state:/rng/seed", "hidden", "the seed of the seeded draws (dice, stolen cards, drawn cards to come "
           "follow from it)", owner=""),
    Secret("derived:/victory_points/*", _public_points, "the hidden victory-point cards, and the total "
           "counting them; every player's are shown to all once the game is over (phase `game_over`)",
           rules="BASE-DEV-9", open_when=_game_over),    # BASE-DEV-9: hidden until the game ends
    Secret("legal:/ranges/domestic_trade", _seat_trades, "in a seat's legal actions, the domestic trades: which "
           "partners' hands allow a trade (D-seat-trades)", owner=""),
    Secret("event:stole/resource", "hidden", "the card the robber (or pirate) took", seen_by=("player", "victim"),
           rules="BASE-ROBBER-4"),
    Secret("event:bought_development_card/card", "hidden", "the development card bought", seen_by=("player",),
           rules="BASE-DEV-1"),
)


class Scenario:
    """The base game module, and the defaults of every hook (BASE-COMP-1..6, BASE-VP-1)."""

    id = "base"
    name = "Catan base game"
    source = "Catan base game rules (GET /v1/rules?module=BASE)"
    players: tuple[int, ...] = (3, 4)
    vp_target = 10
    supply = {"settlements": 5, "cities": 4, "roads": 15, "ships": 0}       # BASE-COMP-1
    resource_count = 19                                                       # BASE-COMP-2
    dev_deck = {"knight": 14, "victory_point": 5, "road_building": 2,         # BASE-COMP-3
                "year_of_plenty": 2, "monopoly": 2}
    ships = False              # Seafarers ship rules (SEA-006..018)
    pirate = False             # Seafarers pirate (SEA-027..033)
    route_minimum = 5          # BASE-LR-3
    setup_rounds = 2           # BASE-SETUP-2/3
    has_map = True             # ships a map of its own, so POST /v1/games can start it
    #: Component tables per player count (``components.py`` documents the format); checked explicitly
    #: on game generation and on request, never before a verdict (R-001).
    component_tables: dict[int, dict] = {}
    component_rule: Optional[str] = None      # the rule ID a component mismatch cites (e.g. "SC01-007")

    # -- declarations (module.py): the base game's ----------------------------------------------------
    ACTIONS = BASE_ACTION_SPECS
    EVENTS = BASE_EVENT_SPECS
    OPTIONS = BASE_OPTION_SPECS
    SECRETS = BASE_SECRETS
    module_name = "base"

    #: The declarations composed along this scenario's stack (set by :func:`registered`).
    composition: Composition

    # -- options -------------------------------------------------------------------------------------
    def all_options(self) -> dict[str, OptionSpec]:
        """The options a game of this scenario may carry in ``State.options``: those its modules declare
        (``OPTIONS``), and each expansion's switch where the scenario declares none of its own (a refused
        one takes only false, with the rule that refuses it)."""
        specs = dict(self.composition.options)
        from . import EXPANSIONS
        for name, exp in EXPANSIONS.items():
            if name not in specs:
                why = exp.refusal(self)
                specs[name] = OptionSpec(name, _refusing(why) if why else (exp.accepts or flag_option),
                                         ("" if exp.accepts else "true or false: ") + exp.doc
                                         + (f" (refused here: {why})" if why else ""))
        return specs

    def option_specs(self) -> dict[str, tuple[Callable[[Any, int], bool], str]]:
        """``{name: (accepts(value, players), what the value must be and does)}`` (:meth:`all_options`)."""
        return {o.name: (o.accepts, o.doc) for o in self.all_options().values()}

    def option_problems(self, options: Mapping[str, Any], num_players: int) -> list[tuple[str, str]]:
        """``(name, reason)`` for every option this scenario does not know, or whose value it refuses: a
        misspelt or unsupported variant would otherwise change no verdict and say nothing."""
        if not options:              # the usual state: nothing to look up (this runs on every request)
            return []
        specs = self.all_options()
        out = []
        for name, value in options.items():
            spec = specs.get(name)
            if spec is None:
                out.append((name, f"scenario {self.id!r} has no option {name!r} (it has {', '.join(sorted(specs))})"))
            elif not spec.accepts(value, num_players):
                out.append((name, f"{name!r} is {spec.doc}"))
        return out

    # -- data for a new game -----------------------------------------------------------------------
    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        """``{"hexes": {hex: Tile}, "harbors": {edge: kind}, "robber": hex|None, "pirate": hex|None}``."""
        return standard_board(rng)

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        rng = Rng(seed, 0)
        board = self.new_board(num_players, rng)
        players = [
            Player(empty_resources(), empty_dev(), empty_dev(), empty_dev(), dict(self.supply))
            for _ in range(num_players)
        ]
        return State(
            scenario=self.id, hexes=board["hexes"], harbors=board["harbors"], players=players,
            buildings={}, roads={}, ships={}, robber=board.get("robber"), pirate=board.get("pirate"),
            bank={r: self.resource_count for r in RESOURCES}, dev_deck=dict(self.dev_deck),
            phase="setup", current_player=0, turn=0, setup=Setup(), flags=TurnFlags(), last_roll=None,
            pending_discards={}, pending_gold={}, longest_road_holder=None, largest_army_holder=None,
            vp_target=self.vp_target, rng_seed=seed, rng_counter=rng.counter,
            options=dict(options or {}), scenario_state=self.initial_scenario_state(num_players, board),
        )

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        return {}

    def describe(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "players": self.player_counts(), "vp_target": self.vp_target,
                "source": self.source, "supply": dict(self.supply), "ships": self.ships, "pirate": self.pirate,
                "actions": sorted(self.action_types()), "has_map": self.has_map}

    def player_counts(self) -> list[int]:
        """The player counts a game of this scenario is for: its own, and those an expansion switched on by
        the count adds (the 5-6 extension's 5 and 6, BASE56-002) unless it refuses the scenario."""
        from . import EXPANSIONS
        extra = {n for e in EXPANSIONS.values() for n in e.players if e.refusal(self) is None}
        return sorted(set(self.players) | extra)

    def maps(self) -> dict[int, Any]:
        """The map data per player count (``mapdata.MapSpec.layout()``), for the full definition."""
        return {}

    def board_layers(self, state: State, graph: Any) -> list:
        """What the module adds to the board picture: ``[picture.Layer | picture.Panel]`` (none in the base
        game)."""
        return []

    def explain_extra(self, state: State, graph: Any) -> dict[str, Any]:
        """The module's own explanations, ``{section: {..., "why": ...}}`` (none in the base game)."""
        return {}

    def definition(self) -> dict[str, Any]:
        """The full definition (``GET /v1/scenarios/{id}``): the summary plus map data, component tables
        and the hooks this scenario overrides."""
        from .components import describe_tables
        c = self.composition
        return {**self.describe(), "component_rule": self.component_rule,
                "component_tables": describe_tables(self.component_tables),
                "maps": {str(n): m for n, m in sorted(self.maps().items())}, "hooks": sorted(c.hooks),
                "options": {name: o.doc for name, o in sorted(self.all_options().items())}}

    # -- hooks -------------------------------------------------------------------------------------
    def action_types(self) -> frozenset[str]:
        """The action types of this game (``ACTIONS`` along the stack, less ``WITHOUT_ACTIONS``)."""
        return self._action_types

    def handler(self, action_type: str):
        """The handler a module of the stack declares for ``action_type``, or None: the engine's own."""
        return self.composition.handler(action_type)

    def check(self, ctx: "Ctx") -> list["Violation"]:
        """Violations the scenario adds once the engine's own checks pass."""
        return []

    def after_action(self, ctx: "Ctx", s: State) -> None:
        return None

    def after_production(self, ctx: "Ctx", s: State, total: int) -> None:
        """After a roll's fixed production is paid (dragons, cargo loss, diamonds...)."""
        return None

    def on_turn_end(self, ctx: "Ctx", s: State) -> None:
        return None

    def derived_extra(self, state: State, graph) -> dict[str, Any]:
        """Scenario-specific derived values (largest fleet, MNR, route tokens...)."""
        return {}

    def cards_held(self, state: State, player: int) -> int:
        """The cards of ``player``'s hand that count for a discard on a 7: the resource cards."""
        return state.players[player].hand_size

    def holds_loot(self, state: State, player: int, target: str) -> bool:
        return self.cards_held(state, player) > 0

    def discard_limit(self, state: State, player: int) -> int:
        """BASE-ROBBER-2: on a 7 a player holding more than 7 cards discards half of them."""
        return 7

    def gold_entitlement(self, terrain: str, kind: str) -> int:
        """How many free-choice picks a building on a producing hex of ``terrain`` gets (SEA-024)."""
        return 0

    def idle_hexes(self, state: State) -> Any:
        """Hexes that produce nothing on a roll besides the robber's: none in the base game."""
        return ()

    def roll_picks(self, state: State, graph: Any, total: int) -> dict[int, int]:
        """Resources of choice a roll gives beyond gold fields: none in the base game."""
        return {}

    def knight_defends(self, state: State, knight: dict) -> bool:
        """Every active knight defends (CK-BARB-3)."""
        return True

    def harbor_access(self, state: State, graph: Any, player: int) -> list[str]:
        """Harbours used without an own building there: none."""
        return []

    def knight_may_stand(self, state: State, knight: dict, node: Any) -> bool:
        """A knight may stand on any intersection the Cities & Knights rules allow (CK-KNIGHT-7)."""
        return True

    def army_award(self, state: State, holder: Optional[int]) -> Optional[int]:
        """The Largest Army card's holder after an action (BASE-LA-1..3)."""
        return largest_army(state, holder)

    def route_pieces(self, state: State, player: int) -> list[tuple[Edge, str]]:
        out = [(e, "road") for e, p in state.roads.items() if p == player]
        if self.ships:
            out += [(e, "ship") for e, p in state.ships.items() if p == player]
        return out

    def route_blockers(self, state: State) -> dict[Node, int]:
        """Intersections held by pieces other than buildings that break opponents' routes: none."""
        return {}

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        return {}

    def end_condition(self, state: State) -> Optional[int]:
        return None

    def may_win(self, state: State) -> bool:
        """BASE-VP-1: the player whose turn it is wins by the VP target at any moment of it."""
        return True

    def robber_hex_ok(self, state: State, h: Hex) -> bool:
        t = state.hexes.get(h)
        return t is not None and t.terrain in LAND

    def pirate_hex_ok(self, state: State, h: Hex) -> bool:
        t = state.hexes.get(h)
        return t is not None and t.terrain == "sea"

    def robber_permission(self, ctx: "Ctx", target: str) -> list["Violation"]:
        return []

    def steal_violations(self, ctx: "Ctx", target: str) -> list["Violation"]:
        return []

    def move_and_steal(self, ctx: "Ctx", s: State, target: str, mover: int) -> None:
        from ..actions.robber import do_move
        do_move(ctx, s, target, mover)

    def knight_violations(self, ctx: "Ctx") -> list["Violation"]:
        from ..actions.robber import robber_checks
        return robber_checks(ctx, ctx.action.get("target") or "robber", ctx.action.player)

    def knight_effect(self, ctx: "Ctx", s: State) -> None:
        self.move_and_steal(ctx, s, ctx.action.get("target") or "robber", ctx.action.player)

    def red_numbers_apart(self, state: State) -> bool:
        """BASE-COMP-8: whether the board is the base game's random layout, whose 6s and 8s lie apart: its
        land is exactly the base game's 19 tiles and 18 tokens (a smaller or house board posted for a test
        is not, R-001). A scenario with its own map (Seafarers and after) leaves it to its map."""
        land = [t for t in state.hexes.values() if t.terrain not in ("sea", "frame", "unknown")]
        return len(land) == len(BASE_TERRAINS) and \
            sorted(t.terrain for t in land) == sorted(BASE_TERRAINS) and \
            sorted(t.number for t in land if t.number is not None) == BASE_TOKENS

    def free_piece(self, ctx: "Ctx", i: int, kind: str, edge: Edge, path: str) -> Optional[list["Violation"]]:
        return None

    def place_free_piece(self, ctx: "Ctx", s: State, kind: str, edge: Edge) -> bool:
        return False

    def piece_connection(self, ctx: "Ctx", kind: str, edge: Edge, player: int, path: str,
                         ignore: Optional[Edge] = None) -> list["Violation"]:
        if kind == "road":
            return road_connected(ctx, edge, player, path)
        return ship_connected(ctx, edge, player, path, ignore)

    def ship_lane_violations(self, ctx: "Ctx", src: Edge) -> list["Violation"]:
        from ..actions.seafarers import lane_violations
        return lane_violations(ctx, src)

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        return []

    def pieces_off_grid(self, scenario_state: dict, player: int) -> dict[str, int]:
        """Pieces of ``player`` on the board that the engine's piece maps do not hold, by supply kind
        (GOLD's mobile ships live in ``scenario_state``): counted with the board's pieces against the
        supply. Takes the raw ``scenario_state`` so the codec can fill an omitted supply with it."""
        return {}

    def legal_candidates(self, state: State, graph, player: int) -> list["Action"]:
        """Candidate actions of this scenario's own action types for ``player`` (``legal.py`` lists
        those that pass the same checks as ``adjudicate``). A superset is fine; the default is none."""
        return []

    def chance_base(self, state: State, graph, action: "Action") -> Optional["Action"]:
        """No action's choices follow its own draws (see ``module.Hooks``)."""
        return None

    def chance_family(self, state: State, graph, base: "Action") -> list["Action"]:
        return [base]


# -- the standard base board --------------------------------------------------------------------------

BASE_TERRAINS = ["forest"] * 4 + ["pasture"] * 4 + ["fields"] * 4 + ["hills"] * 3 + ["mountains"] * 3 + ["desert"]
BASE_TOKENS = [2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12]                     # BASE-COMP-5
BASE_HARBORS = ["3:1"] * 4 + ["brick", "lumber", "wool", "grain", "ore"]                       # BASE-COMP-6


def hexagon(radius: int) -> list[Hex]:
    """Hexes within ``radius`` of (0, 0), north to south, west to east."""
    out = [(q, r) for r in range(-radius, radius + 1) for q in range(-radius, radius + 1)
           if hex_distance((0, 0), (q, r)) <= radius]
    return sorted(out, key=lambda h: (h[1], h[0]))


def ring(radius: int) -> list[Hex]:
    """The hexes at exactly ``radius`` from (0, 0), clockwise from the north-west corner."""
    q, r = 0, -radius
    out = []
    for dq, dr in ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1)):
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def no_adjacent_reds(tokens: dict[Hex, int]) -> bool:
    """BASE-COMP-8: no 6 or 8 on edge-adjacent hexes."""
    for h, n in tokens.items():
        if n in (6, 8):
            for m in hex_neighbours(h):
                if tokens.get(m) in (6, 8):
                    return False
    return True


def deal_tokens(rng: Rng, producing: list[Hex], tokens: list[int], reds_apart: bool = True) -> dict[Hex, int]:
    """Tokens dealt blind onto ``producing`` hexes; redealt until no two reds touch (BASE-COMP-8)."""
    for _ in range(1000):
        dealt = dict(zip(producing, rng.shuffle(tokens)))
        if not reds_apart or no_adjacent_reds(dealt):
            return dealt
    raise ValueError("could not deal tokens with the red numbers apart")


def standard_board(rng: Rng) -> dict[str, Any]:
    """The base game's 19 tiles in a hexagon, framed by 18 frame hexes (R-102), 9 harbours on the frame."""
    land = hexagon(2)
    terrains = dict(zip(land, rng.shuffle(BASE_TERRAINS)))
    producing = [h for h in land if terrains[h] != "desert"]
    tokens = deal_tokens(rng, producing, BASE_TOKENS)
    hexes = {h: Tile(terrains[h], tokens.get(h)) for h in land}
    for h in ring(3):
        hexes[h] = Tile("frame")
    kinds = rng.shuffle(BASE_HARBORS)
    harbors: dict[Edge, str] = {}
    from ..geometry import canonical_edge
    sides = ("E", "NE", "NW", "W", "SW", "SE")  # side names in hex_neighbours order
    for i, fh in enumerate(ring(3)):
        if i % 2:
            continue  # every other frame hex carries a harbour, as on the printed frame
        for side, nb in zip(sides, hex_neighbours(fh)):
            if nb in terrains:
                harbors[canonical_edge(fh[0], fh[1], side)] = kinds[len(harbors)]
                break
    desert = next(h for h in land if terrains[h] == "desert")
    return {"hexes": hexes, "harbors": harbors, "robber": desert, "pirate": None}


def registered(scen: Scenario) -> Scenario:
    """Fix a scenario's composition once, when it is registered: its declarations along the stack, the
    hooks its modules implement, its action types."""
    from ..actions import load_all
    load_all()                      # the engine's own handlers, which a module's may build on
    cls = type(scen)
    cls.composition = compose(cls, Scenario)
    cls._action_types = frozenset(cls.composition.actions)
    return scen


__all__ = ["Scenario", "registered", "BASE_ACTION_SPECS", "flag_option", "player_option", "hex_option", "BASE_ACTIONS", "standard_board", "hexagon", "ring", "deal_tokens", "no_adjacent_reds",
           "DEV_CARDS", "Node"]
