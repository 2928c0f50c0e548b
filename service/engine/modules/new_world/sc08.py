"""Scenario 8 "A New World" (III): a random board, player-placed harbours, tokens for new islands.

The map (Illustration O shows only the frame, R-001). Decided: the frame holds 6 rows of alternately 7
and 6 tiles (39 = the table's total), the shape of a Seafarers frame; every cell draws from the one
shuffled pile of all 39 hexes, sea included (SC08-002), and the 20 number tokens are dealt blind onto
the land (SC08-003). Touching reds are repaired by swaps with the seeded generator (SC08-004, R-021).
No harbour is on the board at the start: the players place the 9 tokens (5 special 2:1, 4 generic 3:1)
face down in turn before the first settlement (SC08-005, R-020; ``_sc_harbors``). No desert: the robber
starts off the board (SEA-034); the pirate as R-007.

Rules: exactly 3 players (SC08-001); starting settlements anywhere, their islands being the player's
home islands (SC08-006, R-018); one token for his first settlement on any other island (SC08-007);
12 VP (SC08-008).
"""
from __future__ import annotations

from typing import Any, Optional

from ...core import Ctx
from ...islands import island_map
from ...rng import Rng
from ...state import State, Tile
from ...scenarios._sc_common import (award_first_settlement, home_regions, main_phase_settlement, node_regions,
                         player_count_problems, record_start_node, validate_common)
from .harbors import NEW_WORLD_SECRETS, face_down_layers, harbor_phase_violation, make_handler, placer, validate_harbor_state
from ...module import ActionSpec, EventSpec, OptionSpec
from ...spec import EDGE, PLAYER, Bool, F, List, Obj, Str
from ...scenarios.base import player_option
from ...scenarios.components import as_list, harbor_row, hex_row, token_row
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition, MappedScenario, MapSpec, build_board, repair_reds
from ...scenarios.seafarers import Seafarers


def new_world_map(num_rows: int, hexes: dict[str, int], tokens: dict[int, int]) -> MapSpec:
    """A New World frame (SC08-002 / SC09-002): ``num_rows`` rows of alternately 7 and 6 cells, each
    drawn from the one shuffled pile of every hex, sea included; the tokens dealt blind on the land
    (SC08-003 / SC09-003) and the touching reds repaired afterwards by swaps (SC08-004 / SC09-004,
    R-021), not by a redeal."""
    return MapSpec(
        rows=tuple(" n n n n n n" if i % 2 else "n n n n n n n" for i in range(num_rows)),
        legend={"n": "pool:all"},
        pools={"all": hexes},
        tokens={"*": tokens},
        reds_apart=False,
    )


HEXES = hex_row(19, 0, 0, 4, 4, 4, 4, 4)
TOKENS = token_row(1, 2, 2, 2, 2, 2, 3, 3, 2, 1)
SC08_MAP = new_world_map(6, HEXES, TOKENS)


def _harbor_candidates(state: State, graph, scen, player: int) -> list:
    """``place_harbor`` on every coast side (the legal-action list keeps those its check allows)."""
    if state.phase != "setup" or not state.scenario_state.get("harbor_pile"):
        return []
    from ...core import Action
    return [Action("place_harbor", player, {"edge": e})
            for eid, e in enumerate(graph.edges) if graph.edge_kind[eid] == "coast"]


class NewWorld3(MappedScenario, Seafarers, edition=Edition(
        "SC08", "A New World (III)", SEAFARERS_BOOK, 8, (3,), 12,        # SC08-001: 3 players; SC08-008: 12 VP wins
        "SC08-002", {3: {"hexes": HEXES, "tokens": TOKENS, "harbors": harbor_row(5, 4)}}, {3: SC08_MAP})):
    rule_players, rule_red, rule_harbor, rule_home, rule_svp = (
        "SC08-001", "SC08-004", "SC08-005", "SC08-006", "SC08-007")
    ACTIONS = (ActionSpec("place_harbor", {"edge": F(EDGE, required=True, doc="the coast side the token faces")},
                          "Place a harbour token face down on a sea hex, facing the coast side named (R-020).",
                          handler=lambda: make_handler("SC08-005"), candidates=_harbor_candidates),)
    OPTIONS = (OptionSpec("oldest_player", player_option, "a player number: the oldest player, who places the first "
                          "harbour token (SC08-005, R-020; default 0)"),)
    STATE = {
        "harbor_pile": F(List(Str(("3:1", "brick", "lumber", "wool", "grain", "ore")), max_len=12),
                         doc="R-020: the harbour tokens still to place"),
        "harbor_slots": F(List(EDGE, max_len=12), doc="R-020: the coast sides where harbour tokens were placed"),
    }
    EVENTS = (EventSpec("harbor_placed", {"player": F(PLAYER, required=True), "edge": F(EDGE, required=True),
                                          "face_down": F(Bool(), required=True)},
                        "A harbour token was placed face down (R-020)."),
              EventSpec("harbors_revealed", {"harbors": F(List(Obj({"edge": F(EDGE, required=True),
                                                                    "kind": F(Str(max_len=10), required=True)}),
                                                               max_len=12), required=True)},
                        "All harbour tokens are placed and turned face up (R-020)."))
    SECRETS = NEW_WORLD_SECRETS           # SC08-005 / SC09-005: the face-down harbour pile
    module_name = "A New World"

    # -- map ---------------------------------------------------------------------------------------
    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        """SC08-002/003: every hex and token shuffled into the frame (``build_board``); then the red
        numbers are moved apart by seeded swaps (SC08-004, R-021)."""
        spec = self.map_specs[num_players]
        board = build_board(spec, rng)
        numbers = {h: t.number for h, t in board["hexes"].items() if t.number is not None}
        numbers = repair_reds(numbers, rng)
        board["hexes"] = {h: Tile(t.terrain, numbers.get(h)) for h, t in board["hexes"].items()}
        board["robber"] = None                       # SEA-034: no desert
        board["harbor_pile"] = as_list(self.component_tables[num_players]["harbors"])
        return board

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        return {"harbor_pile": list(board["harbor_pile"]), "harbor_slots": []}

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)
        state.current_player = placer(state, 0)      # the oldest player places the first harbour
        return state

    # -- hooks -------------------------------------------------------------------------------------
    def check(self, ctx: Ctx):
        return harbor_phase_violation(ctx, self.rule_harbor)

    def after_action(self, ctx: Ctx, s: State) -> None:
        # SC08-006: the starting settlements, wherever they stand, fix the home islands.
        record_start_node(ctx, s)
        if main_phase_settlement(ctx):
            imap = island_map(s)
            islands = node_regions(ctx.action.get("node"), imap)
            new = islands - home_regions(s, ctx.action.player, imap)
            award_first_settlement(ctx, s, bool(islands) and bool(new), self.rule_svp,
                                   f"first settlement on an island other than the home island(s) "
                                   f"({', '.join(sorted(new))})")

    def board_layers(self, state: State, graph) -> list:
        return super().board_layers(state, graph) + face_down_layers(state)     # SC08-005 / SC09-005

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        return (player_count_problems(state, self.players, self.rule_players) + validate_common(state)
                + validate_harbor_state(state, self.rule_harbor))
