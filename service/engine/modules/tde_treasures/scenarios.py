"""Treasures, Dragons & Explorers scenarios 1 and 2: "The Treasure Islands" (TDE1) and
"Departure into the Unknown" (TDE2), 3 and 4 players, on the treasure machinery of :mod:`.treasures`.

The maps (R-054: the pictures and tables are missing; each map holds every number the text states, the
rest is decided here and drawn in ``docs/maps/TDE1.md`` / ``docs/maps/TDE2.md``). One map serves 3 and 4
players in each scenario.

- TDE1: the home island is a base-game island (19 hexes, shuffled, base tokens with the reds apart,
  9 harbours dealt onto fixed slots: TDE1-003); around it 17 face-down spaces, the "grey areas" of six
  treasure islands, take 3 sea, 2 deserts and 12 land hexes (2 gold, 2 of each resource) shuffled face
  down, with their 12 tokens in a face-down stack (TDE1-004); the 20 treasure tokens: 15 on the marked
  intersections (the north corner of 15 of the face-down spaces), 5 in the stock (TDE1-005); the pirate
  on the sea hex marked X, the robber on the home desert (TDE1-007).
- TDE2: the home island's 18 land hexes shuffled round the fixed desert in its middle, its tokens fixed,
  4 3:1 ports fixed (TDE2-003); the unknown sea to the east: 2 deserts and 2 gold hexes fixed, the gold
  hexes with the 6 and the 8 (TDE2-004, R-059), 18 face-down spaces taking 6 sea and 12 land hexes with
  their 12 tokens in a stack (TDE2-005); all 20 treasure tokens on the marked intersections (TDE2-006:
  "the treasure tokens are ... placed on the positions shown"; decided: the north corner of every
  face-down space and of both gold hexes); the 5 special ports in the stock (TDE2-007, R-060).
"""
from __future__ import annotations

from typing import Any, Optional

from ...seats import Secret
from ...core import Action, Ctx, Violation
from ...geometry import canonical_node, node_edges, node_hexes, node_str
from ...islands import island_map
from ...mapgraph import RESOURCES, MapGraph
from ...module import ActionSpec, EventSpec
from ...rng import Rng
from ...spec import EDGE, NODE, PLAYER, Any_, Bool, Cards, F, Int, List, Null, Obj, Str
from ...state import DEV_CARDS, State
from ...scenarios._sc_common import player_count_problems
from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.hooks import (DISCOVERED, DISCOVERIES, EXPLORING_ACTIONS, award_first_on_island,
                                discovery_violations, mainland_of, placed_edges, setup_area_violations)
from ...scenarios.mapdata import TDE_BOOK, Edition, MappedScenario, MapSpec, drawn_slots, parse_rows
from ...scenarios.seafarers import Seafarers
from . import pictures
from .treasures import (KINDS, MAX_KEPT, SPECIAL_PORTS, TREASURE_STATE, AttachSpecialPort, ClaimReward,
                        claim_candidates, deal_treasures, kept, pending, port_candidates, port_owed, port_sites,
                        resolve_placements)

# -- TDE1 map --------------------------------------------------------------------------------------------

TDE1_ROWS = (
    "    s ? ? s s s ? ? s",
    "   s s s s s s s ? s s",
    "  s s m m m s s s s ? s",
    " s s m m m m s x s ? ? s",
    "? s m m m m m s s s s s",
    " s s m m m m s s ? ? s",
    "  s s m m m s s s ? s s",
    "   s s s s s s s s s s",
    "    s ? ? s s ? ? ? s",
)
TDE1_HOME = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}   # TDE1-003
TDE1_HOME_TOKENS = token_row(1, 2, 2, 2, 2, 2, 2, 2, 2, 1)                                    # base game
TDE1_HIDDEN = hex_row(3, 2, 2, 2, 2, 2, 2, 2)                                                 # TDE1-004
TDE1_HIDDEN_TOKENS = token_row(1, 1, 2, 1, 1, 1, 1, 2, 1, 1)
_TDE1_CELLS = parse_rows(TDE1_ROWS)
#: TDE1-005: the 15 marked treasure positions: the north corner of every face-down space but the lone one
#: in the west and (9, 2).
TDE1_TREASURE_NODES = tuple(canonical_node(q, r, "N") for (q, r), ch in sorted(_TDE1_CELLS.items(),
                            key=lambda kv: (kv[0][1], kv[0][0])) if ch == "?" and (q, r) not in ((-2, 4), (9, 2)))
TDE1_PIRATE = next(h for h, ch in _TDE1_CELLS.items() if ch == "x")

TDE1_MAP = MapSpec(
    rows=TDE1_ROWS,
    legend={"m": "pool:home", "x": "sea"},
    pools={"home": TDE1_HOME},
    tokens={"m": TDE1_HOME_TOKENS},
    harbors=drawn_slots(TDE1_ROWS, (((6, 2), "NW"), ((10, 2), "NE"), ((11, 3), "E"), ((12, 4), "SE"),
                                    ((10, 6), "E"), ((8, 6), "SE"), ((5, 5), "SW"), ((4, 4), "W"),
                                    ((5, 3), "NW"))),
    harbor_kinds=harbor_row(5, 4),
    hidden_hexes=TDE1_HIDDEN,
    hidden_tokens=TDE1_HIDDEN_TOKENS,
    regions={"home island": "m"},
    pirate=TDE1_PIRATE,
)

# -- TDE2 map --------------------------------------------------------------------------------------------

TDE2_ROWS = (
    "   s s s s s s ? ? s",
    "  s m m m s ? g ? ? s",
    " s m m m m s ? s d ? s",
    "s m m D m m s ? ? ? ? s",
    " s m m m m s ? s d ? s",
    "  s m m m s ? g ? ? s",
    "   s s s s s s ? ? s",
)
_TDE2_CELLS = parse_rows(TDE2_ROWS)
TDE2_HOME = {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3}
#: TDE2-003: the home island's tokens at fixed positions (reds apart); TDE2-004 / R-059: the gold hexes'
#: 6 and 8.
TDE2_NUMBERS = {
    (1, 1): 5, (2, 1): 2, (3, 1): 6, (0, 2): 3, (1, 2): 8, (2, 2): 10, (3, 2): 9, (-1, 3): 12, (0, 3): 11,
    (2, 3): 4, (3, 3): 8, (-1, 4): 10, (0, 4): 9, (1, 4): 4, (2, 4): 5, (-1, 5): 6, (0, 5): 3, (1, 5): 11,
    (6, 1): 6, (4, 5): 8,
}
TDE2_HIDDEN = hex_row(6, 0, 0, 2, 2, 2, 3, 3)                                                  # TDE2-005
TDE2_HIDDEN_TOKENS = token_row(1, 1, 2, 2, 0, 0, 2, 2, 1, 1)
TDE2_DESERT = next(h for h, ch in _TDE2_CELLS.items() if ch == "D")
#: TDE2-006: the treasure positions: the north corner of every face-down space and of both gold hexes.
TDE2_TREASURE_NODES = tuple(canonical_node(q, r, "N") for (q, r), ch in sorted(_TDE2_CELLS.items(),
                            key=lambda kv: (kv[0][1], kv[0][0])) if ch in "?g")

TDE2_MAP = MapSpec(
    rows=TDE2_ROWS,
    legend={"m": "pool:home", "D": "desert"},
    pools={"home": TDE2_HOME},
    numbers=TDE2_NUMBERS,
    harbors=drawn_slots(TDE2_ROWS, (((4, 1), "NW"), ((8, 1), "NE"), ((2, 3), "W"), ((6, 5), "SE"))),
    harbor_kinds={"3:1": 4},
    hidden_hexes=TDE2_HIDDEN,
    hidden_tokens=TDE2_HIDDEN_TOKENS,
    regions={"home island": "mD"},
    robber=TDE2_DESERT,
)

# -- declarations shared by both -------------------------------------------------------------------------

_CLAIM_FIELDS = {
    "keep": F(Bool(), default=False, doc="TDE2-016: keep the treasure token face down instead of using it"),
    "resources": F(Cards(RESOURCES), nullable=True, doc="a resources reward: the cards chosen"),
    "pieces": F(List(Obj({"kind": F(Str(("road", "ship")), required=True), "edge": F(EDGE, required=True)}),
                     max_len=2), nullable=True, doc="a roads_ships reward: the free pieces, in placement order"),
    "card": F(Str(DEV_CARDS), nullable=True, doc="a development_card reward: the card drawn, as observed"),
    "discoveries": DISCOVERIES,
}

CLAIM_SPEC = ActionSpec("claim_reward", _CLAIM_FIELDS,
                        "Claim the first treasure (or discovery) reward owed: use it now, or keep the token "
                        "(TDE2).", handler=ClaimReward.HANDLER, candidates=claim_candidates)

_EVENTS = (
    DISCOVERED,
    EventSpec("treasure_found", {"player": F(PLAYER), "node": F(Null(NODE)), "kind": F(Str(KINDS)),
                                 "rule": F(Str())}, "A treasure token taken from the board (node) or the stock."),
    EventSpec("reward_claimed", {"player": F(PLAYER), "kind": F(Str(KINDS)), "resources": F(Cards(RESOURCES)),
                                 "card": F(Null(Str(DEV_CARDS))), "pieces": F(Int(0, 2)), "rule": F(Str())},
              "A reward used."),
)



def _without_kind(token: Any) -> Any:
    """the token without its kind (its chest side shows)"""
    return {k: v for k, v in token.items() if k != "kind"} if isinstance(token, dict) else token


#: What the treasure tokens keep from every player (a seat's view, ``seats.py``).
TREASURE_SECRETS = (
    Secret("state:/scenario_state/treasures/*", _without_kind, "what a treasure token on the board gives, until "
           "taken", owner="", rules="TDE1-005"),
    Secret("state:/scenario_state/treasure_stock", "count", "the face-down treasure stock, top first", owner="",
           rules="TDE1-005"),
    Secret("event:reward_claimed/card", "hidden", "the development card a treasure gave", seen_by=("player",),
           rules="BASE-DEV-1"),
)


class TreasureRules(MappedScenario, Seafarers):
    """What TDE1 and TDE2 share: the treasure tokens, discovery by road or ship, the reward queue.
    TDE1-001 / TDE2-001: the base game and Seafarers rules apply below (the class stack)."""

    module_name = "TDE treasures"
    players = (3, 4)
    STATE = {**TREASURE_STATE,
             "setup_hold": F(Bool(), doc="a set-up turn held open until its placement's rewards are claimed")}
    ACTION_FIELDS = {t: {"discoveries": DISCOVERIES} for t in EXPLORING_ACTIONS}
    EVENTS = _EVENTS
    SECRETS = TREASURE_SECRETS
    DERIVED = {
        "treasures": F(Obj({"on_board": F(List(Any_(), max_len=40)), "stock": F(Int(0, 20)),
                            "pending": F(List(Any_(), max_len=60)),
                            "kept": F(Any_("per player: tokens kept and their benefits"))}),
                       doc="treasure tokens on the board, in the stock, rewards owed; kept tokens and their benefits"),
    }
    #: Rule IDs of the edition, per role.
    rules: dict[str, Any] = {}
    may_keep = False                 # TDE2-016
    stock_on_discovery = False       # TDE1-010

    def hidden_table(self, num_players: int) -> dict:
        table = self.component_tables.get(num_players) or next(iter(self.component_tables.values()))
        return table.get("hidden") or {}

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out["mainland"] = "home island"
        out["treasures"] = board["treasures"]
        out["pending"] = []
        return out

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = player_count_problems(state, self.players, self.rules["players"])
        for i, t in enumerate(state.scenario_state.get("pending") or []):
            if t["player"] >= state.num_players:
                out.append((f"/state/scenario_state/pending/{i}/player", f"player {t['player']} does not exist"))
        for i, t in enumerate(state.scenario_state.get("treasures") or []):   # TDE1-005 / TDE2-006: a token
            node = tuple(t["node"])                                           # lies on a position of the board
            if not any((h := state.hexes.get(x)) is not None and h.terrain != "frame" for x in node_hexes(node)):
                out.append((f"/state/scenario_state/treasures/{i}/node", f"{self.rules['tokens']}: a treasure token "
                            f"lies on an intersection of the board; {node_str(node)} is not one"))
        return out

    # -- checks --------------------------------------------------------------------------------------
    def check(self, ctx: Ctx) -> list[Violation]:
        a, s = ctx.action, ctx.state
        queue = pending(s)
        if queue and a.type != "claim_reward":
            head = queue[0]
            return [Violation(self.rules["use"], f"player {head['player']} must first claim the reward just won "
                              f"({head['kind']}, {head['rule']}): a treasure's benefit is taken at once")]
        if a.type == "claim_reward":           # the free pieces' reveals, as observed (R-006)
            if not a.get("discoveries"):
                return []
            ctx = Ctx(s, Action("play_road_building", a.player, {"pieces": a.get("pieces") or [],
                                                                  "discoveries": a.get("discoveries")}),
                      ctx.graph, ctx.scenario)
        return discovery_violations(ctx, self.hidden_table(s.num_players), self.rules["reveal"])

    # -- reactions -----------------------------------------------------------------------------------
    def after_action(self, ctx: Ctx, s: State) -> None:
        a = ctx.action
        if a.type == "claim_reward":
            self._release_setup(ctx, s)
            return
        edges = placed_edges(ctx)
        if not edges:
            return
        resolve_placements(ctx, s, edges, a.player, self)
        if ctx.state.phase == "setup" and pending(s) and a.type in ("build_road", "build_ship"):
            # the set-up turn stays with the placer until its rewards are claimed
            s.phase, s.turn, s.current_player = "setup", ctx.state.turn, ctx.state.current_player
            s.setup = type(s.setup)(ctx.state.setup.round, ctx.state.setup.step, ctx.state.setup.last_settlement)
            s.scenario_state["setup_hold"] = True
            ctx.events[:] = [e for e in ctx.events if e["type"] != "setup_complete"]

    def _release_setup(self, ctx: Ctx, s: State) -> None:
        if s.scenario_state.get("setup_hold") and not pending(s):
            del s.scenario_state["setup_hold"]
            from ...actions.setup import after_setup_road
            after_setup_road(ctx, s)

    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = super().derived_extra(state, graph)
        ss = state.scenario_state
        out["treasures"] = {
            "on_board": [t["node"] for t in ss.get("treasures") or []],
            "stock": len(ss.get("treasure_stock") or []),
            "pending": list(pending(state)),
            "kept": {str(p): self.kept_benefits(state, graph, p) for p in range(state.num_players)} if self.may_keep
            else {},
        }
        return out

    def kept_benefits(self, state: State, graph: MapGraph, p: int) -> dict[str, Any]:
        return {}

    def board_layers(self, state: State, graph: MapGraph) -> list:
        """The face-down hexes, the treasure tokens (chest side up: what they give stays hidden) and, in
        TDE2, the special ports attached (``pictures.py``)."""
        return [*super().board_layers(state, graph), *pictures.treasure_layers(state, self)]

    def explain_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = {**super().explain_extra(state, graph), "treasures": pictures.treasures_explained(state, self)}
        if self.may_keep:
            out["kept_treasures"] = pictures.kept_explained(state, graph, self)
        return out


# -- TDE1 ------------------------------------------------------------------------------------------------

CHIPS = 14          # TDE1-015


TDE1_TABLE = {"hexes": {"sea": 59, **TDE1_HOME}, "tokens": TDE1_HOME_TOKENS, "harbors": harbor_row(5, 4),
              "hidden": {"hexes": TDE1_HIDDEN, "tokens": TDE1_HIDDEN_TOKENS}}


class TreasureIslands(TreasureRules, edition=Edition(
        "TDE1", "The Treasure Islands", TDE_BOOK, 1, (3, 4), 15,         # TDE1-002: 3-4 players; TDE1-014: 15 VP
        "TDE1-004", {3: TDE1_TABLE, 4: TDE1_TABLE}, {3: TDE1_MAP, 4: TDE1_MAP})):
    """TDE1 "The Treasure Islands"."""

    module_name = "TDE1"
    ACTIONS = (CLAIM_SPEC,)
    DERIVED = {"catan_chips": F(Obj({"awarded": F(Int(0, 99)), "left": F(Int(0, 14)),
                                     "by_player": F(Any_("chips per player")),
                                     "shared_victory": F(List(PLAYER, max_len=4))}),
                                doc="TDE1-013/TDE1-015: Catan chips awarded and left of the 14")}
    rules = {"players": "TDE1-002", "reveal": "TDE1-008", "reward": "TDE1-009", "stock": "TDE1-010",
             "sea": "TDE1-010", "treasure": "TDE1-011", "use": "TDE1-012", "tokens": "TDE1-005"}
    stock_on_discovery = True

    def cities_and_knights_rules(self) -> type:
        """TDE1-016/017: the scenario's rules with Cities & Knights (``cities_and_knights.py``)."""
        from .cities_and_knights import TreasureIslandsCitiesAndKnights
        return TreasureIslandsCitiesAndKnights

    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        board = super().new_board(num_players, rng)
        board["treasures"], board["treasure_stock"] = deal_treasures(rng, TDE1_TREASURE_NODES, 5)   # TDE1-005
        return board

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out["treasure_stock"] = board["treasure_stock"]
        return out

    def check(self, ctx: Ctx) -> list[Violation]:
        # TDE1-006: both starting settlements on the home island (a coastal one may take a ship: SEA-026)
        return (setup_area_violations(ctx, {mainland_of(ctx.state)}, "TDE1-006", "the home island")
                or super().check(ctx))

    def after_action(self, ctx: Ctx, s: State) -> None:
        super().after_action(ctx, s)
        # TDE1-013: a Catan chip for a player's first settlement on each treasure island
        if ctx.action.type == "build_settlement" and ctx.state.phase != "setup":
            home = mainland_of(s)
            counted = set(island_map(s).values()) - {home}
            award_first_on_island(ctx, s, counted, 1, 1, "TDE1-013", "TDE1-013")

    def end_condition(self, state: State) -> Optional[int]:
        """TDE1-015 (R-057, R-003): once 14 Catan chips are awarded the game ends at once; the highest VP
        wins; players tied on it share the win (``shared_victory``), the one nearest in turn order from the
        active player being named the winner."""
        if sum(p.svp for p in state.players) < CHIPS:
            return None
        from ...derive import victory_point_total
        n = state.num_players
        vp = {p: victory_point_total(state, self, p) for p in range(n)}
        best = max(vp.values())
        tied = [p for p in range(n) if vp[p] == best]
        return min(tied, key=lambda p: (p - state.current_player) % n)

    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = super().derived_extra(state, graph)
        awarded = sum(p.svp for p in state.players)
        out["catan_chips"] = {"awarded": awarded, "left": max(0, CHIPS - awarded),
                              "by_player": {str(i): p.svp for i, p in enumerate(state.players)},
                              "shared_victory": self.shared_victory(state)}
        return out

    def explain_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        from ...explain import vp_by_source
        return {**super().explain_extra(state, graph), "catan_chips": pictures.chips_explained(state, self),
                "victory_points": vp_by_source(state, self, {"special": "Catan chips (1 VP each, TDE1-013)"})}

    def shared_victory(self, state: State) -> list[int]:
        """R-003: the players tied on the highest VP when the game ended on the 14th chip (TDE1-015)."""
        if state.phase != "game_over" or sum(p.svp for p in state.players) < CHIPS:
            return []
        from ...derive import victory_point_total
        vp = [victory_point_total(state, self, p) for p in range(state.num_players)]
        tied = [p for p, v in enumerate(vp) if v == max(vp)]
        return tied if len(tied) > 1 else []


# -- TDE2 ------------------------------------------------------------------------------------------------


TDE2_TABLE = {"hexes": {"sea": 31, "desert": 3, "gold": 2, **TDE2_HOME},
              "tokens": {k: sum(1 for v in TDE2_NUMBERS.values() if v == k) for k in sorted(set(TDE2_NUMBERS.values()))},
              "harbors": harbor_row(5, 4), "hidden": {"hexes": TDE2_HIDDEN, "tokens": TDE2_HIDDEN_TOKENS}}


class DepartureIntoTheUnknown(TreasureRules, edition=Edition(
        "TDE2", "Departure into the Unknown", TDE_BOOK, 2, (3, 4), 12,   # TDE2-002: 3-4 players; TDE2-021: 12 VP
        "TDE2-005", {3: TDE2_TABLE, 4: TDE2_TABLE}, {3: TDE2_MAP, 4: TDE2_MAP})):
    """TDE2 "Departure into the Unknown"."""

    module_name = "TDE2"
    setup_rounds = 3                                   # TDE2-008 / R-061: a third settlement;
    # TDE2-009: the base set-up pays starting resources for the last round's settlement only, so
    # the third settlement pays and the second does not
    pirate = False                                     # TDE2-010: the robber only
    ACTIONS = (CLAIM_SPEC,
               ActionSpec("attach_special_port",
                          {"node": F(NODE, required=True, doc="the own coastal settlement or city"),
                           "resource": F(Str(RESOURCES), required=True, doc="the special port taken from the stock"),
                           "edge": F(EDGE, nullable=True, doc="the coast side at the node it faces (default: the "
                                     "first free one)")},
                          "TDE2-018: with 2 kept treasure tokens, attach a special 2:1 port to a coastal building.",
                          handler=AttachSpecialPort.HANDLER, candidates=port_candidates))
    WITHOUT_ACTIONS = ("move_pirate",)                 # TDE2-010
    EVENTS = (EventSpec("treasure_kept", {"player": F(PLAYER), "kept": F(Int(0, 4)), "rule": F(Str())},
                        "A treasure token kept face down (TDE2-016)."),
              EventSpec("special_port_attached", {"player": F(PLAYER), "node": F(NODE), "edge": F(EDGE),
                                                  "resource": F(Str(RESOURCES)), "rule": F(Str())},
                        "A special 2:1 port attached (TDE2-018)."),
              )
    rules = {"players": "TDE2-002", "reveal": "TDE2-011", "reward": "TDE2-012", "stock": "TDE2-012",
             "sea": "TDE2-012", "treasure": "TDE2-014", "use": "TDE2-015", "tokens": "TDE2-006"}
    may_keep = True

    def cities_and_knights_rules(self) -> type:
        """TDE2-022..024: the scenario's rules with Cities & Knights (``cities_and_knights.py``)."""
        from .cities_and_knights import DepartureCitiesAndKnights
        return DepartureCitiesAndKnights

    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        board = super().new_board(num_players, rng)
        board["pirate"] = None                                                   # TDE2-010
        board["treasures"], _ = deal_treasures(rng, TDE2_TREASURE_NODES, 0)     # TDE2-006
        return board

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out["harbor_pile"] = list(SPECIAL_PORTS)                                 # TDE2-007
        out["kept"] = {str(p): 0 for p in range(num_players)}
        return out

    def check(self, ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        if s.phase == "setup" and s.setup.round <= 2:
            # TDE2-008: the first two settlements on the home island (the third anywhere, R-061)
            v = setup_area_violations(ctx, {mainland_of(s)}, "TDE2-008", "the home island")
            if v:
                return v
        if s.phase == "setup" and a.type == "build_settlement":
            v = self.anchor_violations(ctx, tuple(a.get("node")))
            if v:
                return v
        v = super().check(ctx)
        if v:
            return v
        free = ("attach_special_port", "claim_reward", "discard", "domestic_trade")
        if (a.type not in free and s.phase in ("roll", "main")
                and a.player == s.current_player and port_owed(s, a.player) and port_sites(s, ctx.graph, a.player)):
            # the port is chosen when the second token is kept (or at the first coastal building)
            return [Violation("TDE2-018", f"player {a.player} keeps 2 treasure tokens and attaches a special port "
                              "to a coastal building first (R-060)")]
        return []

    def anchor_violations(self, ctx: Ctx, node) -> list[Violation]:
        """TDE2-008: every starting settlement comes with an adjoining road or ship, so it goes where one
        can be placed (an intersection of a fixed hex ringed by face-down spaces has none until they are
        turned over)."""
        g, s = ctx.graph, ctx.state
        if g.node_index.get(node) is None:
            return []
        for e in node_edges(node):
            eid = g.edge_index.get(e)
            if eid is None or e in s.roads or e in s.ships:
                continue
            if g.road_edge(eid) or g.ship_edge(eid):
                return []
        return [Violation("TDE2-008", f"a starting settlement comes with an adjoining road or ship; no road or "
                          f"ship can be placed at {node_str(node)}", "/action/node")]

    def discard_limit(self, state: State, player: int) -> int:
        """TDE2-017: with a kept treasure token a player discards on a 7 only above 9 cards."""
        return 9 if kept(state, player) >= 1 else 7

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        """TDE2-019 (R-060): 3 kept treasure tokens are worth 1 VP, 4 are worth 2 VP in all."""
        k = kept(state, player)
        return {"treasures": 2 if k >= 4 else 1 if k == 3 else 0}

    def explain_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        from ...explain import vp_by_source
        return {**super().explain_extra(state, graph),
                "victory_points": vp_by_source(state, self, {
                    "treasures": "kept treasure tokens (3 kept: 1 VP, 4 kept: 2 VP; TDE2-019, R-060)"})}

    def kept_benefits(self, state: State, graph: MapGraph, p: int) -> dict[str, Any]:
        k = kept(state, p)
        return {"kept": k, "discard_limit": self.discard_limit(state, p),
                "special_port": (state.scenario_state.get("special_ports") or {}).get(str(p)),
                "port_owed": port_owed(state, p), "vp": self.vp_extra(state, p)["treasures"],
                "must_use": k >= MAX_KEPT}

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = super().validate_state(state)
        if state.pirate is not None:
            out.append(("/state/pirate", "TDE2-010: this scenario has no pirate"))
        ss = state.scenario_state
        ports = ss.get("special_ports") or {}
        pile = list(ss.get("harbor_pile") or [])
        used = [p["resource"] for p in ports.values()]
        if "harbor_pile" in ss and sorted(pile + used) != sorted(SPECIAL_PORTS):
            out.append(("/state/scenario_state/harbor_pile", "TDE2-007 (R-060): the stock and the attached special "
                        "ports are the 5 special ports, one per resource"))
        for p, port in sorted(ports.items()):
            where = f"/state/scenario_state/special_ports/{p}"
            if int(p) >= state.num_players or kept(state, int(p)) < 2:
                out.append((where, "TDE2-018: a special port belongs to a player keeping 2 treasure tokens"))
            elif state.harbors.get(tuple(port["edge"])) != port["resource"]:
                out.append((where, "TDE2-018: the attached port must lie on the board's harbours at its edge"))
        return out


__all__ = ["TreasureIslands", "DepartureIntoTheUnknown", "TDE1_MAP", "TDE2_MAP", "TDE1_TREASURE_NODES",
           "TDE2_TREASURE_NODES", "CHIPS"]
