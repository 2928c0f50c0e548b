"""Treasures, Dragons & Explorers scenario 3 "Greater Catan", for 3 and 4 players (TDE3-001..015).

Base and Seafarers rules apply (TDE3-001: the class builds on ``Seafarers``). On top of them:

- 3 or 4 players (TDE3-002); the default maps (``maps.py``, R-054/R-062): the home island, a fixed sea
  ring and the grey new-island area laid face up without tokens (TDE3-003/004); the reserve of 4 or 5
  tokens face down beside the board (TDE3-005);
- 8 cities per player: 4 of the box's cities added to the usual 4 (TDE3-006, R-028);
- both starting settlements on the home island, a coastal one may take a ship instead of its road
  (TDE3-007; the ship is the Seafarers set-up rule SEA-026);
- robber on the home desert (3 players: off the board), pirate on the sea hex marked x (TDE3-008, R-062);
- the impoverishment rule (TDE3-009..014): a road or ship placed beside a tokenless hex brings it a token,
  from the reserve while it lasts, then from the home island under limitations 1 (red tokens apart on
  the small islands), 2 (from a hex at one of the placer's own buildings) and 3 (no home-island building
  left without production), broken one after another in the order 1, 2, 3 when no token meets all three
  (R-026). The code is Greater Catan's of the Seafarers book (``scenarios/_sc_tokens.py``), with this
  scenario's rule IDs and its drop order;
- 18 VP on the player's own turn wins (TDE3-015, R-003). The Cities & Knights combination is not built.
"""
from __future__ import annotations

from typing import Any

from ...core import Ctx, Violation
from ...geometry import Hex, node_hexes
from ...mapgraph import MapGraph
from ...module import EventSpec
from ...scenarios._sc_common import player_count_problems
from ...scenarios._sc_tokens import ReserveTokens, TokenRules, candidates, token_from_field
from ...scenarios.components import counts
from ...scenarios.hooks import mainland_of, setup_area_violations
from ...scenarios.mapdata import PRODUCING, MappedScenario
from ...scenarios.seafarers import Seafarers
from ...islands import island_map
from ...memo import per_position
from ...spec import HEX, NODE, Any_, F, Int, List, Map, Null, Obj, Str, Type
from ...state import State
from . import pictures
from .maps import COMPONENT_TABLES, MAPS, RESERVE

#: TDE3-009..014 (R-026): the impoverishment rule as the TD&E book words it. Limitation 1 is RED, 2 is
#: OWN, 3 is PROD; "only when it is not possible to fulfil all three rules, the player may break the rules
#: one after another, in the order 1-3" (TDE3-014): RED is dropped first, then OWN, then PROD.
TDE3_TOKENS = TokenRules(
    reserve="TDE3-009",                  # a blind draw from the face-down reserve
    area_rule="TDE3-010",                # the reserve is empty: a home-island token moves
    limits={"RED": "TDE3-011", "OWN": "TDE3-012", "PROD": "TDE3-013"},
    drop="TDE3-014",
    drop_order=("RED", "OWN", "PROD"),   # TDE3-014: broken one after another in the order 1, 2, 3
    area="home-island",
    report_drops=True,
)

HOME = "home"
_HOME: dict = {}

_LIMIT = Str(("TDE3-011", "TDE3-012", "TDE3-013"))
_SOURCES = Obj({
    "from": F(List(HEX, max_len=19), required=True,
              doc="the home-island hexes the token may come from (the first is taken when none is named)"),
    "limits_dropped": F(List(_LIMIT, max_len=3), required=True,
                        doc="TDE3-014: the limitations no hex meets, dropped in the order 1, 2, 3"),
})
_IMPOVERISHMENT: Type = Obj({
    "reserve_left": F(Int(0, 5), required=True, doc="TDE3-005: tokens left face down in the reserve"),
    "home_tokens": F(Int(0, 19), required=True, doc="TDE3-010: number tokens still on the home island"),
    "home_blank": F(List(HEX, max_len=19), required=True,
                    doc="TDE3-010: producing home-island hexes whose token has been taken"),
    "awaiting": F(List(HEX, max_len=40), required=True,
                  doc="TDE3-009: producing hexes off the home island still without a token: the next road or "
                      "ship beside one brings it one"),
    "next_sources": F(Map(_SOURCES, max_len=40), required=True,
                      doc="TDE3-010..014: with the reserve empty, for each awaiting hex (\"q,r\"), where the "
                          "current player would take its token from now"),
    "unproductive": F(List(NODE, max_len=40), required=True,
                      doc="TDE3-013: home-island settlements and cities left without a numbered hex"),
}, doc="The impoverishment rule's state (TDE3-005, TDE3-009..014)")


class GreaterCatanTDE(ReserveTokens, MappedScenario, Seafarers):   # TDE3-001: base + Seafarers rules apply
    id = "TDE3"
    module_name = "TDE3"
    name = "Greater Catan (Treasures, Dragons & Explorers)"
    source = "Catan: Treasures, Dragons & Explorers, scenario 3 (its rules: GET /v1/rules?prefix=TDE3)"
    players = (3, 4)                                                     # TDE3-002
    vp_target = 18                                                       # TDE3-015: 18 VP on own turn
    supply = {"settlements": 5, "cities": 8, "roads": 15, "ships": 15}   # TDE3-006: 4 + 4 cities
    component_rule = "TDE3-004"
    component_tables = COMPONENT_TABLES
    map_specs = MAPS
    token_rules = TDE3_TOKENS

    #: TDE3-010..014 (R-026): the home-island hexes a placement's tokens are taken from, in trigger order.
    ACTION_FIELDS = token_from_field("TDE3-010..014 (R-026): the home-island hexes whose tokens move, in "
                                     "trigger order (the first allowed hex each time when left out)")
    EVENTS = (
        EventSpec("number_token_placed", {
            "player": F(Int(0, 3), required=True, doc="the placer"),
            "hex": F(HEX, required=True, doc="the hex that takes a token"),
            "from": F(Any_("\"reserve\" (TDE3-009), the home-island hex [q, r] the token came from "
                           "(TDE3-010), or null when no token may move there"), nullable=True),
            "number": F(Null(Int(2, 12)), doc="the token placed"),
            "limits_dropped": F(List(_LIMIT, max_len=3), doc="TDE3-014: the limitations broken for this move"),
        }, "TDE3-009/010: a number token placed on a new-island hex beside a new road or ship"),
    )
    DERIVED = {"impoverishment": F(_IMPOVERISHMENT, required=True)}

    # -- a new game ---------------------------------------------------------------------------------
    def cities_and_knights_rules(self) -> type:
        """TDE3-016: the scenario's target with Cities & Knights (``cities_and_knights.py``)."""
        from .cities_and_knights import GreaterCatanCitiesAndKnights
        return GreaterCatanCitiesAndKnights

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out["mainland"] = HOME
        out["token_pile"] = list(board.get("token_pile") or [])    # TDE3-005: shuffled face down
        return out

    # -- the home island ------------------------------------------------------------------------------
    def home(self, state: State) -> set[Hex]:
        """The home island: the island ``scenario_state["mainland"]`` names (the map tags it ``home``),
        else the largest land component (R-018). Computed once per position (``memo.per_position``: the
        hexes, the tagged islands and the name are what it reads; every placement judged asks for it) and
        shared by every caller: read-only."""
        ss = state.scenario_state or {}
        return per_position(_HOME, "home", (state.hexes, ss.get("islands"), ss.get("mainland")),
                            lambda: self._home(state))

    def _home(self, state: State) -> set[Hex]:
        name = mainland_of(state)
        return {h for h, n in island_map(state).items() if n == name}

    def token_area(self, state: State) -> set[Hex]:
        return self.home(state)

    # -- hooks --------------------------------------------------------------------------------------
    def check(self, ctx: Ctx) -> list[Violation]:
        # TDE3-007: both starting settlements (with their roads or ships) on the home island.
        out = setup_area_violations(ctx, {mainland_of(ctx.state)}, "TDE3-007", "the home island")
        if out:
            return out
        return self.token_check(ctx)                     # TDE3-009..014

    def legal_candidates(self, state: State, graph, player: int) -> list:
        """Every way of naming the home-island hexes a placement's tokens come from (``token_from``)."""
        return self.token_candidates(state, graph, player)

    def after_action(self, ctx: Ctx, s: State) -> None:
        self.token_after_action(ctx, s)                  # TDE3-009/010

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = player_count_problems(state, self.players, "TDE3-002")
        if out:
            return out
        pile = state.scenario_state.get("token_pile") or []
        allowed = RESERVE[state.num_players]
        have = counts(pile)
        if any(have.get(v, 0) > allowed.get(v, 0) for v in have):
            out.append(("/state/scenario_state/token_pile",
                        f"TDE3-005: the reserve ({state.num_players} players) holds at most "
                        f"{', '.join(str(v) for v in sorted(allowed))}"))
        return out

    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = super().derived_extra(state, graph)
        out["impoverishment"] = impoverishment(state, self.home(state))
        return out

    def board_layers(self, state: State, graph: MapGraph) -> list:
        """Hexes awaiting a token, home hexes whose token moved, buildings left without production."""
        return [*super().board_layers(state, graph),
                *pictures.impoverishment_layers(impoverishment(state, self.home(state)))]

    def explain_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        from ...explain import vp_by_source
        imp = impoverishment(state, self.home(state))
        return {**super().explain_extra(state, graph),
                "impoverishment": pictures.impoverishment_explained(state, imp),
                "cities": pictures.cities_explained(state, self),
                "victory_points": vp_by_source(state, self, {})}


def impoverishment(state: State, home: set[Hex]) -> dict[str, Any]:
    """The derived ``impoverishment`` value (see ``DERIVED``)."""
    hexes = state.hexes
    order = sorted(hexes, key=lambda h: (h[1], h[0]))
    producing = [h for h in order if hexes[h].terrain in PRODUCING]
    home_hexes = [h for h in producing if h in home]
    awaiting = [h for h in producing if h not in home and hexes[h].number is None]
    pile = state.scenario_state.get("token_pile") or []
    sources: dict[str, Any] = {}
    if not pile:
        for dest in awaiting:
            cands, keep, _ = candidates(hexes, home, state.buildings, state.current_player, dest,
                                        TDE3_TOKENS.drop_order)
            sources[f"{dest[0]},{dest[1]}"] = {
                "from": [list(h) for h in cands],
                "limits_dropped": [TDE3_TOKENS.limits[k] for k in TDE3_TOKENS.drop_order if k not in keep]}
    unproductive = []
    for node in sorted(state.buildings, key=lambda n: (n[1], n[0], n[2])):
        hs = [h for h in node_hexes(node) if h in hexes]
        if any(h in home for h in hs) and not any(hexes[h].number is not None for h in hs):
            unproductive.append(list(node))
    return {"reserve_left": len(pile),
            "home_tokens": sum(1 for h in home_hexes if hexes[h].number is not None),
            "home_blank": [list(h) for h in home_hexes if hexes[h].number is None],
            "awaiting": [list(h) for h in awaiting],
            "next_sources": sources,
            "unproductive": unproductive}


__all__ = ["GreaterCatanTDE", "TDE3_TOKENS", "impoverishment"]
