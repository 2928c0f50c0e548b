"""The Cities & Knights rule module (``rules/cities-and-knights.md``), stacked above any scenario's
modules when a game's options carry ``cities_and_knights: true``.

Its hooks add to the scenario's (each calls ``super()``); its declarations compose on top: the roll
with the event die, discarding with commodities, the robber asleep until the first attack, knights,
city walls, city improvements and metropolises, progress cards instead of development cards (CK-CHG-2:
the development-card actions are gone), trading with commodities.

Decisions the digest leaves open (decided here, once):

- The second set-up placement (CK-SETUP-1) is posted as ``build_settlement`` and is a city from the
  moment its road is placed (the position between the two shows it as the settlement just placed, which
  is how the set-up road finds it); starting resources are 1 per producing hex, as BASE-SETUP-5
  (CK-SETUP-2).
- Choices other players make during the roll (the city a losing player gives up, the deck a tied
  defender draws from, the progress card put back over the limit) are carried by the roll action, as
  observed; a roll that needs one and lacks it is refused naming the choices.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ...core import Violation
from ...geometry import edge_str, node_hexes, node_str
from ...mapgraph import LAND, MapGraph
from ...module import ActionSpec, EventSpec, OptionSpec
from ...scenarios.base import _ROBBER_FIELDS, flag_option
from ...scenarios.seafarers import SEAFARERS_ACTION_SPECS
from ...seats import Secret
from ...spec import EDGE, HEX, NODE, PLAYER, Any_, Bool, Cards, F, Int, List, Map, Obj, PLAYER_KEY, Str
from ...state import DEV_CARDS, State
from . import store
from .discards import RANGES as DISCARD_RANGES
from .progress_ranges import RANGES as PROGRESS_RANGES
from .roll_ranges import RANGES as ROLL_RANGES
from .data import (BARBARIAN_STEPS, CARD_NAMES, CARDS, COMMODITIES, COSTS, DECKS, EVENTS, NAMES_2025, PROGRESS_CARDS,
                   PROGRESS_LIMIT, SEA_VP_RAISE, TRACKS, VP_CARDS, VP_TARGET, card_id)

if TYPE_CHECKING:  # pragma: no cover
    from ...core import Ctx


def _h(name: str):
    def get():
        from . import actions
        return getattr(actions, name).HANDLER
    return get


def _cands(name: str):
    def gen(state, graph, scen, p):
        from . import actions
        return getattr(actions, name)(state, graph, scen, p)
    gen.__name__ = name
    return gen


def _p(name: str):
    def get():
        from . import progress
        return getattr(progress, name).HANDLER
    return get


def _pc(state, graph, scen, p):
    from . import progress
    return progress.progress_candidates(state, graph, scen, p)


_CARD = Str(CARDS)
#: CK-PROG-9: a progress card named by an action, by its ID or its 2025 name (``data.card_id``).
_NAME = Str(CARD_NAMES)
_NAMES_DOC = ", ".join(f"{new} = {old}" for old, new in NAMES_2025.items())
_CHOICES = {
    "pillage": F(Map(NODE, key=PLAYER_KEY, max_len=4), nullable=True,
                 doc="CK-BARB-4: per losing player with several plain cities, the city they give up"),
    "defender_decks": F(Map(Str(TRACKS), key=PLAYER_KEY, max_len=4), nullable=True,
                        doc="CK-BARB-6: per tied best defender, the deck they draw from"),
    "fighting": F(Map(List(NODE, max_len=6), key=PLAYER_KEY, max_len=4), nullable=True,
                  doc="CK-VAR-MEANIES: per player the active knights sent against the barbarians (left out: all)"),
    "progress_discards": F(Map(_NAME, key=PLAYER_KEY, max_len=4), nullable=True,
                           doc="CK-PROG-5: per player over 4 progress cards outside their turn, the card put back"),
}
CK_ACTION_SPECS = (
    ActionSpec("roll", {"event": F(Str(EVENTS), nullable=True, doc="the event die as rolled (CK-DICE-3): ship or "
                                                                   "a gate; left out, the seeded generator rolls"),
                        "alchemist": F(Bool(), default=False, doc="CK-PROG-S1: play the Alchemist; dice are then "
                                                                  "the chosen red and yellow values"),
                        **_CHOICES},
               "The roll of the red, yellow and event dice (CK-DICE-2).", handler=_h("Roll"),
               candidates=_cands("roll_candidates"), ranges=ROLL_RANGES),
    ActionSpec("discard_cards", {"resources": F(Cards(tuple(c for c in CARDS if c not in COMMODITIES))),
                                 "commodities": F(Cards(COMMODITIES))},
               "Discard half of resources plus commodities on a 7 (CK-SEVEN-2).", handler=_h("DiscardCards"),
               ranged=True, ranges=DISCARD_RANGES),
    ActionSpec("move_robber", {"card": F(_CARD, nullable=True, doc="the card taken (resource or commodity), as "
                                                                   "observed")}, handler=_h("MoveRobber")),
    ActionSpec("build_settlement", candidates=_cands("setup_gold_candidates")),
    ActionSpec("build_knight", {"node": F(NODE, required=True)}, "Build a basic knight (CK-KNIGHT-1).",
               handler=_h("BuildKnight"), candidates=_cands("knight_candidates")),
    ActionSpec("activate_knight", {"node": F(NODE, required=True),
                                   "pay": F(Str(("grain", "gold")), nullable=True, default="grain",
                                            doc="GOLD-013: grain or gold (GOLD only; elsewhere left out)")},
               "Activate a knight (CK-KNIGHT-3).", handler=_h("ActivateKnight")),
    ActionSpec("promote_knight", {"node": F(NODE, required=True)}, "Promote a knight (CK-KNIGHT-4).",
               handler=_h("PromoteKnight")),
    ActionSpec("move_knight", {"from": F(NODE, required=True), "to": F(NODE, required=True)},
               "Move an active knight along own roads (CK-KNIGHT-6).", handler=_h("MoveKnight")),
    ActionSpec("displace_knight", {"from": F(NODE, required=True), "to": F(NODE, required=True),
                                   "retreat": F(NODE, nullable=True, doc="where the displaced knight's owner moves "
                                                                        "it (their choice; none: removed)")},
               "Displace a weaker opponent's knight (CK-KNIGHT-7).", handler=_h("DisplaceKnight")),
    ActionSpec("chase_robber", {"node": F(NODE, required=True, doc="the chasing knight"), **_ROBBER_FIELDS,
                                "card": F(_CARD, nullable=True),
                                "target": F(Str(("robber", "pirate")), nullable=True,
                                            doc="what the knight chases: required where the scenario has a "
                                                "pirate (CK-SEA-9); elsewhere, left out, the robber")},
               "Chase the robber (or pirate) with an active knight (CK-KNIGHT-9, CK-SEA-9).",
               handler=_h("ChaseRobber")),
    ActionSpec("build_wall", {"node": F(NODE, required=True)}, "Build a city wall (CK-WALL-1).",
               handler=_h("BuildWall"), candidates=_cands("build_candidates")),
    ActionSpec("restore_city", {"node": F(NODE, required=True)},
               "Raise a city laid on its side after a pillage (CK-BARB-5).", handler=_h("RestoreCity")),
    ActionSpec("improve_city", {"track": F(Str(TRACKS), required=True),
                                "metropolis": F(NODE, nullable=True, doc="the city taking the metropolis, if "
                                                                        "this level wins it (CK-IMP-7)")},
               "Buy the next city improvement of a track (CK-IMP-1).", handler=_h("ImproveCity")),
    ActionSpec("maritime_trade", {"give": F(Cards(CARDS), required=True), "get": F(Cards(CARDS), required=True)},
               handler=_h("MaritimeTrade"), candidates=_cands("maritime_candidates")),
    ActionSpec("domestic_trade", {"give": F(Cards(CARDS), required=True), "get": F(Cards(CARDS), required=True)},
               handler=_h("DomesticTrade")),
    next(a for a in SEAFARERS_ACTION_SPECS if a.type == "choose_gold"),     # CK-IMP-5: the Aqueduct's pick
    ActionSpec("buy_development_card", handler=_h("NoDevelopmentCards")),
    ActionSpec("play_progress", {
        "card": F(_NAME, required=True, doc="the progress card played (CK-PROG-S1..T6), by its ID or its name in "
                                             "the 2025 printing (CK-PROG-9: " + _NAMES_DOC + ")"),
        "node": F(NODE, nullable=True, doc="Engineer: the city walled; Medicine: the settlement; Deserter: where "
                                          "your knight goes; Intrigue: the knight displaced"),
        "nodes": F(List(NODE, max_len=2), nullable=True, doc="Smith: the knights promoted"),
        "hex": F(HEX, nullable=True, doc="Bishop: the robber's new hex; Merchant: the merchant's hex"),
        "hexes": F(List(HEX, min_len=2, max_len=2), nullable=True, doc="Inventor: the two tokens swapped"),
        "edge": F(EDGE, nullable=True, doc="Diplomat: the open road removed"),
        "replace": F(EDGE, nullable=True, doc="Diplomat: where your own removed road goes again"),
        "pieces": F(List(Obj({"kind": F(Str(("road", "ship")), required=True), "edge": F(EDGE, required=True)}),
                         min_len=1, max_len=2), nullable=True, doc="Road Building: the free roads or ships, in order"),
        "target": F(PLAYER, nullable=True, doc="Deserter, Spy, Master Merchant: the opponent"),
        "removed": F(NODE, nullable=True, doc="Deserter: the knight its owner removes (their choice)"),
        "retreat": F(NODE, nullable=True, doc="Intrigue: where the displaced knight's owner moves it"),
        "progress": F(_NAME, nullable=True, doc="Spy: the card taken"),
        "take": F(Cards(CARDS), nullable=True, doc="Master Merchant: the 2 cards taken"),
        "cards": F(Map(Cards(CARDS), key=PLAYER_KEY, max_len=4), nullable=True,
                   doc="Saboteur: each victim's discards; Wedding: each guest's gift (their choice)"),
        "offers": F(Map(Obj({"give": F(Str(tuple(c for c in CARDS if c not in COMMODITIES)), required=True),
                             "get": F(Str(COMMODITIES), nullable=True)}), key=PLAYER_KEY, max_len=3),
                    nullable=True, doc="Commercial Harbor: per opponent the resource offered and the commodity "
                                       "returned (null: they hold none, the trade is void)"),
        "kind": F(Str(CARDS), nullable=True, doc="Merchant Fleet: the card traded 2:1 this turn"),
        "resource": F(Str(tuple(c for c in CARDS if c not in COMMODITIES)), nullable=True,
                      doc="Resource Monopoly: the resource"),
        "commodity": F(Str(COMMODITIES), nullable=True, doc="Trade Monopoly: the commodity"),
    }, "Play a progress card (CK-PROG-3).", handler=_p("PlayProgress"), candidates=_pc, ranges=PROGRESS_RANGES),
    ActionSpec("end_turn", {"put_back": F(List(_NAME, max_len=10), nullable=True,
                                          doc="CK-PROG-5: the progress cards put back to end the turn with 4")},
               candidates=_cands("end_turn_candidates")),
)
#: CK-CHG-2, CK-VP-2: no development cards are played, so no Largest Army is ever awarded. Only these go:
#: CK-SEA-2, with Seafarers ``build_ship`` (1 lumber + 1 wool) and the trade route counting ships (the
#: Longest Trade Route, 2 VP) stay the modules' below.
DEV_ACTIONS = ("discard", "play_knight", "play_road_building", "play_year_of_plenty",
               "play_monopoly")

_P = F(PLAYER, required=True)
_PN = F(PLAYER, nullable=True)
_N = F(NODE, required=True)
_LIST_P = F(List(PLAYER, max_len=4))
_COUNTS = F(Map(Int(0, 10_000), max_len=20))
CK_EVENTS = (
    # the engine's events, with what C&K adds to them
    EventSpec("rolled", {"event": F(Str(EVENTS), doc="CK-DICE-3: the event die")}),
    EventSpec("built", {"piece": F(Str(("settlement", "city", "road", "ship", "knight", "wall")), required=True),
                        "setup": F(Bool(), doc="CK-SETUP-1: the set-up city"),
                        "restored": F(Bool(), doc="CK-BARB-5: a city raised from its side")}),
    EventSpec("stole", {"resource": F(Str(CARDS), nullable=True, doc="a resource or a commodity (CK-SEVEN-4)")}),
    EventSpec("shortage", {"resource": F(Str(CARDS), required=True)}),
    EventSpec("traded", {"void": F(Bool(), doc="CK-PROG-T1: the partner had no commodity")}),
    # the module's own
    EventSpec("barbarians_advance", {"position": F(Int(0, 50), required=True), "steps": F(Int(1, 50), required=True)},
              "CK-BARB-1: the ship advanced"),
    EventSpec("barbarian_attack", {"barbarians": F(Int(0, 100), required=True), "defence": F(Int(0, 100), required=True),
                                   "knights": F(Map(Int(0, 100), max_len=4), required=True),
                                   "catan_wins": F(Bool(), required=True), "lose_city": _LIST_P, "defender": _PN,
                                   "tied_defenders": _LIST_P, "why": F(Str(max_len=400))},
              "CK-BARB-2..6: strengths, knights per player, the outcome and why"),
    EventSpec("city_pillaged", {"player": _P, "node": _N}, "CK-BARB-4: a city became a settlement"),
    EventSpec("wall_lost", {"player": _P, "node": _N}, "CK-BARB-5: the pillaged city's wall returns to the supply"),
    EventSpec("defender_of_catan", {"player": _P}, "CK-BARB-6: the strongest defender takes a Defender of Catan VP"),
    EventSpec("progress_drawn", {"player": _P, "card": F(Str(PROGRESS_CARDS), required=True),
                                 "why": F(Str(max_len=80)), "revealed": F(Bool())}, "CK-PROG-2: a progress card drawn"),
    EventSpec("progress_discarded", {"player": _P, "card": F(Str(PROGRESS_CARDS), required=True)},
              "CK-PROG-5: a progress card put back under its deck"),
    EventSpec("progress_played", {"player": _P, "card": F(Str(PROGRESS_CARDS), required=True)},
              "CK-PROG-3: a progress card played"),
    EventSpec("deck_empty", {"deck": F(Str(TRACKS), required=True), "player": _P}, "CK-PROG-2: nothing to draw"),
    EventSpec("aqueduct", {"player": _P}, "CK-IMP-5: an Aqueduct owner takes a resource of choice"),
    # CK-IMP-5 on a map without gold fields too: the Aqueduct's pick is owed and chosen like a gold-field pick
    EventSpec("gold_owed", {"players": F(Map(Int(0, 100), max_len=4), required=True)},
              "Picks of a resource of choice a roll gives (gold fields, SEA-024; the Aqueduct, CK-IMP-5)."),
    EventSpec("gold_chosen", {"player": _P, "resources": F(Map(Int(0, 100)), required=True)},
              "A player picked resources of choice (a gold field or the Aqueduct)."),
    EventSpec("robber_sleeps", {"until": F(Str(max_len=80))}, "CK-SEVEN-3: the robber does not move before the first attack"),
    EventSpec("knight_activated", {"player": _P, "node": _N}, "CK-KNIGHT-3"),
    EventSpec("knight_promoted", {"player": _P, "node": _N, "level": F(Int(1, 3), required=True)}, "CK-KNIGHT-4"),
    EventSpec("knight_moved", {"player": _P, "from": _N, "to": _N}, "CK-KNIGHT-6"),
    EventSpec("knight_displaced", {"player": _P, "from": _N, "to": F(NODE, nullable=True)},
              "CK-KNIGHT-7: where the displaced knight went (null: back to the supply)"),
    EventSpec("knight_removed", {"player": _P, "node": _N}, "CK-PROG-P3: a knight left the board"),
    EventSpec("improved", {"player": _P, "track": F(Str(TRACKS), required=True), "level": F(Int(1, 5), required=True)},
              "CK-IMP-1: a city improvement bought"),
    EventSpec("metropolis", {"player": _P, "track": F(Str(TRACKS), required=True), "node": _N, "from": _PN},
              "CK-IMP-7/9: a metropolis placed or taken over"),
    EventSpec("merchant", {"player": _P, "hex": F(HEX, required=True)}, "CK-PROG-T3: the merchant placed"),
    EventSpec("cards_taken", {"player": _P, "card": F(Str(PROGRESS_CARDS), required=True), "victim": _PN,
                              "progress": F(Str(PROGRESS_CARDS)),
                              "got": F(Cards(CARDS), doc="the cards the player got, by kind"),
                              "kind": F(Str(CARDS)),
                              "taken": F(Map(Int(0, 10_000), key=PLAYER_KEY, max_len=4),
                                         doc="how many cards of `kind` each other player gave, by player")},
              "a progress card moved cards between players"),
    EventSpec("tokens_swapped", {"hexes": F(List(HEX, max_len=2), required=True), "numbers": F(List(Int(2, 12), max_len=2))},
              "CK-PROG-S4: two number tokens swapped"),
    EventSpec("removed", {"player": _P, "piece": F(Str(("road", "ship")), required=True), "edge": F(EDGE, required=True)},
              "CK-PROG-P4: a road or ship the Diplomat removed"),
)


def ck_refusal(scen: Any) -> Optional[str]:
    """R-079: a scenario whose text forbids Cities & Knights refuses the option (TDE4-001)."""
    if str(scen.id).upper().startswith("TDE4"):
        return "TDE4-001: this scenario must not be combined with Cities & Knights"
    return None


_COLOUR_OF = {card: deck for deck, cards in DECKS.items() for card in cards}


def _by_colour(hand: Any) -> Any:
    """how many cards of each colour (the backs show it, CK-PROG-7)"""
    if not isinstance(hand, dict):
        return hand
    out = {d: 0 for d in DECKS}
    for card, n in hand.items():
        if isinstance(n, int) and card in _COLOUR_OF:
            out[_COLOUR_OF[card]] += n
    return out


#: The progress cards whose listed plays name a card another player holds, and the field that names it.
_CHOSEN_FROM_A_HAND = {"spy": "progress", "master_merchant": "take"}


def _seat_progress_plays(listed: Any, seat: int, state: Any, graph: Any, scenario: Any) -> Any:
    """the plays of a Spy or a Master Merchant one per opponent, the card(s) taken left open (null; chosen on
    looking at the hand, CK-PROG-P7, CK-PROG-T2): which cards that hand holds is not the seat's to know"""
    if not listed:
        return listed
    out, seen = [], set()
    for a in listed:
        field = _CHOSEN_FROM_A_HAND.get(a.get("card"))
        if field is None:
            out.append(a)
            continue
        key = (a["card"], a.get("target"))
        if key not in seen:
            seen.add(key)
            out.append({**a, field: None})
    return out


#: What Cities & Knights keeps from other players (a seat's view, ``seats.py``).
CK_SECRETS = (
    Secret("state:/scenario_state/cities_and_knights/hands/*", _by_colour, "the progress cards held, by card",
           rules="CK-PROG-7"),
    Secret("state:/scenario_state/cities_and_knights/commodities/*", "count", "the commodity cards in hand, by kind"),
    Secret("state:/scenario_state/cities_and_knights/decks/*", "count", "the progress cards left in each deck, by "
           "card", owner="", rules="CK-PROG-7"),
    Secret("derived:/cities_and_knights/progress_cards/hands/*", _by_colour, "the progress cards held, by card",
           rules="CK-PROG-7"),
    Secret("derived:/cities_and_knights/commodities/players/*", "count", "the commodity cards in hand, by kind"),
    Secret("legal:/actions/play_progress", _seat_progress_plays, "in a seat's legal actions, the cards a Spy or a "
           "Master Merchant would take (D-seat-trades)", owner=""),
    Secret("event:progress_drawn/card", "hidden", "the progress card drawn", seen_by=("player",), rules="CK-PROG-7"),
    Secret("event:progress_discarded/card", "hidden", "the progress card discarded face down", seen_by=("player",),
           rules="CK-PROG-6"),
    Secret("event:cards_taken/progress", "hidden", "the progress card a Spy took", seen_by=("player", "victim"),
           rules="CK-PROG-P7"),
    Secret("event:cards_taken/got", "count", "the cards taken, by kind (their number stays public)",
           seen_by=("player", "victim"), rules="CK-PROG-T2"),
)


class CitiesAndKnights:
    """The Cities & Knights module (CK-*)."""

    module_name = "cities_and_knights"
    dev_deck = {c: 0 for c in DEV_CARDS}                     # CK-CHG-2: no development cards
    #: CK-SETUP-1: the set-up round whose placement is a city (a scenario's own C&K rules may restate it).
    setup_city_round = 2

    def setup_city_pays(self) -> bool:
        """CK-SETUP-2: the set-up city pays the starting resources when it is the last round's placement
        (the base set-up pays that one only); a scenario with a later round pays for that one instead."""
        return self.setup_city_round == self.setup_rounds

    ACTIONS = CK_ACTION_SPECS
    WITHOUT_ACTIONS = DEV_ACTIONS
    ACTION_FIELDS = {"build_settlement": {"gold_picks": F(Cards(tuple(c for c in CARDS if c not in COMMODITIES)),
                                                         nullable=True,
                                                         doc="CK-SEA-12: the set-up city's picks on gold fields "
                                                             "(1 resource of choice per gold hex)")}}
    STATE = {store.KEY: F(store.SHAPE, required=True, doc="Cities & Knights (CK-*)")}
    DERIVED = {"cities_and_knights": F(Obj({
        "barbarians": F(Any_("CK-BARB-1..4: position, steps, strength, defence, who would lose a city or "
                             "be the defender on an attack now")),
        "knights": F(Any_("CK-BARB-3: active knight strength per player and the knights on the board")),
        "defenders": F(Any_("CK-BARB-6: Defender of Catan VP per player")),
        "improvements": F(Any_("CK-IMP-1: levels per player and track")),
        "metropolises": F(Any_("CK-IMP-7: holder and city per track")),
        "commodities": F(Any_("CK-COM: commodities per player and in the bank")),
        "progress_cards": F(Any_("CK-PROG-7: hand sizes (and cards) per player, deck sizes")),
        "hand_limit": F(Any_("CK-SEVEN-2: discard limit per player")),
        "robber_awake": F(Any_("CK-SEVEN-3")),
        "merchant": F(Any_("CK-PROG-T3")),
    }))}
    EVENTS = CK_EVENTS
    SECRETS = CK_SECRETS
    #: CK-VAR: the variants are options of a game with Cities & Knights, off unless switched on (the
    #: game's stack declares them, so a game without the module refuses them); CK-VAR-5-6 is not played.
    OPTIONS = (
        OptionSpec("BASE-VAR-STRICT-PHASES", lambda value, players: value is False,
                   "false only: with Cities & Knights trade and build are always one phase (CK-CHG-7)"),
        OptionSpec("harbormaster", lambda value, players: value is False,
                   "false only: the Harbormaster is a separate variant (Atlantis, Traders & Barbarians), not part of "
                   "Cities & Knights nor of its combination with Seafarers, and no scenario played here names it "
                   "(CK-SEA-13)"),
        OptionSpec("CK-VAR-MEANIES", flag_option,
                   "true or false (default false): each player chooses which active knights fight the barbarians "
                   "(the roll's fighting); only those are deactivated (CK-VAR-MEANIES)"),
        OptionSpec("deserter_fallback", lambda value, players: value in ("lower", "basic"),
                   "\"lower\" (default) or \"basic\": the knight a Deserter places when none of the removed one's "
                   "strength is left: any lower level (2025 printing) or a basic one (almanac) (CK-PROG-P3)"),
        OptionSpec("metropolis_counts_double", flag_option,
                   "true or false (default false): a metropolis city counts twice for the barbarians (CK-BARB-2)"),
    )

    # -- a new game --------------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)
        state.vp_target = self.ck_vp_target()
        return state

    def ck_vp_target(self) -> int:
        """CK-VP-1 (13); CK-SEA-1: a Seafarers scenario's target raised by 2."""
        if self.ships:
            return super().vp_target + SEA_VP_RAISE
        return VP_TARGET

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out[store.KEY] = store.initial(num_players, BARBARIAN_STEPS)
        return out

    # -- costs -------------------------------------------------------------------------------------------
    def ck_cost(self, state: State, action: Any, item: str) -> dict[str, int]:
        """CK-COST table (a scenario's C&K adjustments replace this)."""
        return dict(COSTS[item])

    def free_item_cost(self, item: str) -> dict[str, int]:
        """What an item a progress card makes free still costs (nothing; GOLD-019: its gold)."""
        return {}

    # -- hooks -------------------------------------------------------------------------------------------
    def cards_held(self, state: State, player: int) -> int:
        return store.hand_size(state, player)                 # CK-COM-3

    def check(self, ctx: "Ctx") -> list[Violation]:
        out = super().check(ctx)
        if out:
            return out
        a, s = ctx.action, ctx.state
        t = a.type
        if t == "build_settlement":
            v = self._setup_gold(ctx)
            if v:
                return v
            k = store.knight_at(s, a.get("node"))
            if k is not None:                                 # CK-KNIGHT-2, CK-KNIGHT-11
                return [Violation("CK-KNIGHT-11" if k["player"] == a.player else "CK-KNIGHT-2",
                                  f"{node_str(a.get('node'))} holds a knight; nobody builds a settlement there "
                                  "(an own knight must move away first)", "/action/node")]
        elif t == "end_turn":
            return self._progress_limit(ctx)
        elif t in ("build_city", "play_progress") and (t == "build_city" or a.get("card") == "medicine"):
            side = [n for n in store.sideways(s) if s.buildings.get(n, (None,))[0] == a.player]
            if side:                                           # CK-BARB-5
                return [Violation("CK-BARB-5", f"the city on its side at {node_str(side[0])} is restored (restore_city) "
                                  "before any other settlement is upgraded", "/action/node")]
        return []

    def _gold_hexes(self, ctx: "Ctx") -> int:
        """CK-SEA-12: gold fields touching the second set-up placement (the city)."""
        s, g = ctx.state, ctx.graph
        if s.phase != "setup" or s.setup.round != self.setup_city_round or not self.setup_city_pays():
            return 0
        nid = g.node_index.get(ctx.action.get("node"))
        if nid is None:
            return 0
        return sum(1 for h in g.node_hexes[nid] if ctx.scenario.gold_entitlement(s.hexes[h].terrain, "settlement"))

    def _setup_gold(self, ctx: "Ctx") -> list[Violation]:
        """CK-SEA-12, CK-SETUP-2: a set-up city on a gold field takes 1 resource of choice per gold hex
        (named in the action), what the bank holds."""
        s = ctx.state
        picks = {k: v for k, v in (ctx.action.get("gold_picks") or {}).items() if v}
        n = self._gold_hexes(ctx)
        want = min(n, sum(s.bank.values()))
        if sum(picks.values()) != want or any(s.bank.get(k, 0) < v for k, v in picks.items()):
            if not n:
                return [Violation("CK-SEA-12", "only a set-up city on a gold field takes gold picks: leave gold_picks "
                                  "out", "/action/gold_picks")]
            return [Violation("CK-SEA-12", f"the set-up city touches {n} gold field(s): name {want} resource(s) of "
                              "choice in gold_picks", "/action/gold_picks")]
        return []

    def piece_connection(self, ctx: "Ctx", kind: str, edge, player: int, path: str,
                         ignore=None) -> list[Violation]:
        """CK-KNIGHT-2: an opponent's knight breaks a network like an opponent's building: a road or ship joins
        the player's own pieces of its kind only at an intersection without one (an own building, or an own
        knight, anchors it there). Every way a piece joins a network is judged through this hook (building,
        moving a ship, Road Building, the Diplomat's replacement)."""
        v = super().piece_connection(ctx, kind, edge, player, path, ignore)
        if v:
            return v
        s, g = ctx.state, ctx.graph
        eid = g.edge_index.get(edge)
        kn = store.knight_nodes(s)
        if eid is None or not kn:
            return []
        own = s.roads if kind == "road" else s.ships
        blocked = False
        for nid in g.edge_node_ids[eid]:
            n = g.nodes[nid]
            b = s.buildings.get(n)
            if b is not None:
                if b[0] == player:
                    return []
                continue
            k = kn.get(n)
            if k == player:
                return []
            if any(x != eid and own.get(g.edges[x]) == player and g.edges[x] != ignore
                   for x in g.node_edge_ids[nid]):
                if k is None:
                    return []
                blocked = True                                # an opponent's knight stands here
        if not blocked:
            return v
        return [Violation("CK-KNIGHT-2", f"{edge_str(edge)} connects to your network only through an intersection "
                          "holding an opponent's knight", path)]

    def _progress_limit(self, ctx: "Ctx") -> list[Violation]:
        """CK-PROG-5: the active player ends the turn holding at most 4 progress cards."""
        s, a = ctx.state, ctx.action
        over = store.progress_count(s, a.player) - PROGRESS_LIMIT
        back = [card_id(c) for c in a.get("put_back") or []]          # CK-PROG-9
        held = dict(store.hand_of(s, a.player))
        for c in back:
            if held.get(c, 0) <= 0:
                return [Violation("CK-PROG-5", f"player {a.player} holds no {c} to put back", "/action/put_back")]
            held[c] -= 1
        if len(back) != max(over, 0):
            return [Violation("CK-PROG-5", f"player {a.player} ends the turn with at most {PROGRESS_LIMIT} progress "
                              f"cards: put back exactly {max(over, 0)}, not {len(back)}", "/action/put_back")]
        return []

    def after_action(self, ctx: "Ctx", s: State) -> None:
        super().after_action(ctx, s)
        before = ctx.state
        if ctx.action.type == "build_settlement" and ctx.action.get("gold_picks"):
            got = {k: v for k, v in ctx.action.get("gold_picks").items() if v}
            for k, v in got.items():
                store.give_card(s, ctx.action.player, k, v)            # CK-SEA-12
            ctx.emit("gold_chosen", player=ctx.action.player, resources=got)
        if before.phase == "setup" and ctx.action.type in ("build_road", "build_ship") and before.setup.round == self.setup_city_round:
            # CK-SETUP-1, CK-CHG-4: the second placement is a city (CK-SETUP-4: 3 VP to start)
            node = before.setup.last_settlement
            if node is not None and s.buildings.get(node) == (ctx.action.player, "settlement"):
                s.buildings[node] = (ctx.action.player, "city")
                sup = s.players[ctx.action.player].supply
                sup["settlements"] += 1
                sup["cities"] -= 1
                ctx.emit("built", player=ctx.action.player, piece="city", node=list(node), setup=True)

    def on_turn_end(self, ctx: "Ctx", s: State) -> None:
        super().on_turn_end(ctx, s)
        c = store.ck(s)
        back = [card_id(c) for c in ctx.action.get("put_back") or []]   # CK-PROG-9
        h = store.hand(s, ctx.action.player)
        for card in back:                                     # CK-PROG-5, CK-PROG-6: under its deck
            h[card] -= 1
            if not h[card]:
                del h[card]
            from .data import DECK_OF
            c["decks"][DECK_OF[card]][card] += 1
            ctx.emit("progress_discarded", player=ctx.action.player, card=card)
        for k in c["knights"]:
            k["activated"] = k["acted"] = k["promoted"] = False
        c["turn"] = store.fresh_turn()

    def route_blockers(self, state: State) -> dict[Any, int]:
        """CK-KNIGHT-12, CK-CHG-8, CK-SEA-7: a knight, active or not, breaks opponents' roads and trade
        routes at its intersection."""
        out = dict(super().route_blockers(state))
        c = state.scenario_state.get(store.KEY)
        if c:
            out.update(store.knight_nodes(state))
        return out

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        # CK-SEA-14: the scenario's own rewards (special VP, awards) still count, towards the raised target
        out = dict(super().vp_extra(state, player))
        c = state.scenario_state.get(store.KEY)
        if not c:
            return out
        metro = sum(1 for h in c["metropolises"].values() if h and h["player"] == player)
        out["metropolises"] = 2 * metro                        # CK-IMP-7, CK-VP table
        out["defenders"] = c["defenders"].get(str(player), 0)  # CK-BARB-6
        out["progress_vp"] = sum(c["vp_cards"].get(str(player), {}).values())    # CK-PROG-4
        m = c.get("merchant")
        out["merchant"] = 1 if m and m["player"] == player else 0                   # CK-PROG-T3
        side = sum(1 for n in c.get("sideways") or () if state.buildings.get(tuple(n), (None,))[0] == player)
        if side:
            out["sideways_cities"] = -side                     # CK-BARB-5: a settlement's 1 VP, not 2
        return out

    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = dict(super().derived_extra(state, graph))
        c = state.scenario_state.get(store.KEY)
        if not c:
            return out
        from .barbarians import outcome
        from .turn import hand_limit
        n = state.num_players
        o = outcome(state, None, self)
        out["cities_and_knights"] = {
            "barbarians": {"position": c["barbarian"], "steps": c["barbarian_steps"],
                           "to_attack": c["barbarian_steps"] - c["barbarian"], "attacks": c["attacks"],
                           "strength": o["barbarians"], "defence": o["defence"], "catan_wins": o["catan_wins"],
                           "would_lose_city": o["lose_city"], "would_defend": o["defender"],
                           "tied_defenders": o["tied_defenders"]},
            "knights": {"strength": o["knights"],
                        "on_board": [dict(k) for k in c["knights"]]},
            "defenders": dict(c["defenders"]),
            "improvements": {p: dict(v) for p, v in c["improvements"].items()},
            "metropolises": {t: (dict(h) if h else None) for t, h in c["metropolises"].items()},
            "commodities": {"players": {p: dict(v) for p, v in c["commodities"].items()},
                            "bank": dict(c["commodity_bank"])},
            "progress_cards": {"hand_sizes": {str(p): store.progress_count(state, p) for p in range(n)},
                               # CK-PROG-7: the backs show each card's colour
                               "by_colour": {str(p): {d: sum(k for card, k in c["hands"].get(str(p), {}).items()
                                                             if card in DECKS[d]) for d in TRACKS}
                                             for p in range(n)},
                               "hands": {p: dict(v) for p, v in c["hands"].items()},
                               "vp_cards": {p: dict(v) for p, v in c["vp_cards"].items()},
                               "decks": {d: sum(v.values()) for d, v in c["decks"].items()}},
            "hand_limit": {str(p): hand_limit(state, p) for p in range(n)},
            "robber_awake": store.robber_awake(state),
            "merchant": c.get("merchant"),
        }
        return out

    def board_layers(self, state: State, graph: MapGraph) -> list:
        from .pictures import board_layers
        return [*super().board_layers(state, graph), *board_layers(state, self)]

    def explain_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        from .explain import explain_extra
        return {**super().explain_extra(state, graph), **explain_extra(state, self)}

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = list(super().validate_state(state))
        c = state.scenario_state.get(store.KEY)
        if not isinstance(c, dict):
            return out
        at = f"/state/scenario_state/{store.KEY}"
        n = state.num_players
        for p in c["commodities"]:
            if int(p) >= n:
                out.append((f"{at}/commodities/{p}", f"player {p} does not exist"))
        for com in COMMODITIES:                                # CK-COMP-1: commodities conserved
            total = c["commodity_bank"].get(com, 0) + sum(v.get(com, 0) for v in c["commodities"].values())
            if total != 12:
                why = f"{com} in hands and bank add up to {total}, not 12 (CK-COMP-1)"
                out.append((f"{at}/commodity_bank/{com}", why))      # both sides: the bank and every hand
                out.extend((f"{at}/commodities/{q}/{com}", why) for q in c["commodities"])
        seen = set()
        for i, k in enumerate(c["knights"]):
            node = tuple(k["node"])
            if k["player"] >= n:
                out.append((f"{at}/knights/{i}/player", f"player {k['player']} does not exist"))
            if node in seen or node in state.buildings:
                out.append((f"{at}/knights/{i}/node", f"{node_str(node)} holds another piece (CK-KNIGHT-2)"))
            elif not any((t := state.hexes.get(h)) is not None and t.terrain != "frame" for h in node_hexes(node)):
                out.append((f"{at}/knights/{i}/node", f"a knight stands on an intersection of the board (CK-KNIGHT-1, "
                            f"CK-SEA-5: one touched by a road or a ship); {node_str(node)} is not one"))
            seen.add(node)
        for p in range(n):
            for lvl in (1, 2, 3):
                if store.knights_in_supply(state, p, lvl) < 0:
                    out.append((f"{at}/knights", f"player {p} has more than 2 knights of level {lvl} (CK-COMP-2)"))
        for i, w in enumerate(c["walls"]):
            b = state.buildings.get(tuple(w))
            if b is None or b[1] != "city" or c["walls"].index(w) != i:
                out.append((f"{at}/walls/{i}", "a city wall lies under a city, one per city (CK-WALL-1)"))
                out.append(("/state/pieces/cities", "a city wall lies under a city, one per city (CK-WALL-1)"))
        for p in range(n):
            if store.walls_in_supply(state, p) < 0:
                out.append((f"{at}/walls", f"player {p} has more than 3 city walls (CK-WALL-1)"))
        for i, n in enumerate(c.get("sideways") or ()):
            b = state.buildings.get(tuple(n))
            if b is None or b[1] != "city" or state.players[b[0]].supply.get("settlements", 0):
                out.append((f"{at}/sideways/{i}", "a city lies on its side only when no settlement piece was left "
                            "(CK-BARB-5)"))
        m = c.get("merchant")
        if m and ((t := state.hexes.get(tuple(m["hex"]))) is None or t.terrain not in LAND):
            out.append((f"{at}/merchant/hex", f"the merchant stands on a land hex of the board (CK-PROG-T3); "
                        f"{m['hex'][0]},{m['hex'][1]} is not one"))
        if m and m["player"] >= state.num_players:
            out.append((f"{at}/merchant/player", f"player {m['player']} does not exist"))
        for t, h in c["metropolises"].items():
            if h and state.buildings.get(tuple(h["node"])) != (h["player"], "city"):
                out.append((f"{at}/metropolises/{t}", "a metropolis stands on its holder's city (CK-IMP-7)"))
        for p, hand in c["hands"].items():                     # CK-PROG-4: point cards are shown at once
            for card in sorted(VP_CARDS):
                if hand.get(card, 0):
                    out.append((f"{at}/hands/{p}/{card}", f"a {card} is a point card, revealed at once and never "
                                f"held: it belongs in vp_cards/{p} (CK-PROG-4)"))
        for d in TRACKS:                                       # CK-COMP-4: every card in a deck, a hand or face up
            for card, q in DECKS[d].items():
                held = sum(v.get(card, 0) for v in c["hands"].values()) + sum(
                    v.get(card, 0) for v in c["vp_cards"].values())
                if held + c["decks"][d].get(card, 0) != q:     # both sides: the deck and every hand
                    why = (f"{card}: {held} held and {c['decks'][d].get(card, 0)} in the deck do not add up to "
                           f"{q} (CK-COMP-4)")
                    out.append((f"{at}/decks/{d}/{card}", why))
                    out.extend((f"{at}/{k}/{p}/{card}", why) for k in ("hands", "vp_cards") for p in c[k])
        return out


__all__ = ["CitiesAndKnights", "ck_refusal", "CK_ACTION_SPECS", "DEV_ACTIONS"]
