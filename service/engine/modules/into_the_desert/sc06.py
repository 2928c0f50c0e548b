"""Scenario 6 "Into the Desert" (III): a desert strip cuts the main island; new land earns a token.

The map (Illustration M is missing, R-001). Decided from the text: a main island across the top of a
6-row board (rows of 7 and 6 tiles, 39 tiles in all), a diagonal strip of the four deserts cutting off a
small area of three tiles in the upper right (with the gold field: "the jewels of this unknown desert"),
the larger area of 16 tiles below and left of it, a sea channel, and two small islands along the bottom
edge. Fixed: the desert strip, the gold field and the 9 harbour slots; shuffled from the seed: the 22
resource tiles over the other land cells, and the 23 number tokens (drawn blind, SEA-005, reds apart),
the harbour tokens over the slots (SEA-003). The robber starts on the marked desert at the north end of
the strip (R-009). Regions are tagged on the map (R-018): ``larger-area`` (home), ``desert-strip`` (in
neither), ``small-area`` and the islands (the "unknown" areas, SC06-004).

Rules here: exactly 3 players (SC06-001); both starting settlements in the larger area (SC06-003); one
token for a player's first settlement in any unknown area (SC06-005, R-019); 12 VP (SC06-006). The text's
"build ships instead of roads" is a hint, not a rule: the SEA-026 choice stays free.
"""
from __future__ import annotations

from ...core import Ctx
from ...geometry import node_str
from ...state import State
from ...scenarios._sc_common import (award_first_settlement, main_phase_settlement, node_regions, player_count_problems,
                         regions, spec_regions, validate_common, violation)
from ...scenarios.components import harbor_row, hex_row, token_row
from ...scenarios.mapdata import SEAFARERS_BOOK, Edition, MappedScenario, MapSpec
from ...scenarios.seafarers import Seafarers

#: Cell characters of the Into the Desert maps: every resource cell draws from one shuffled pool.
DESERT_LEGEND = {"r": "pool:land", "u": "pool:land", "a": "pool:land", "b": "pool:land", "c": "pool:land",
                 "G": "gold", "g": "gold"}
DESERT_HARBORS = (((1, 0), "NW"), ((2, 0), "NE"), ((3, 0), "NW"), ((0, 1), "W"), ((0, 2), "W"),
                  ((-1, 3), "SW"), ((1, 3), "SE"), ((3, 3), "E"), ((-2, 5), "NE"))

#: The main island, the same on both boards: the larger area, the desert strip, the small area with
#: the gold field, and the sea channel below it; the boards differ in the islands along the south edge.
MAIN_ISLAND_ROWS = (
    "s r r r d G u",
    " r r r r d u",
    "s r r r r d d",
    " r r r r r s",
    "s s s s s s s",
)
MAIN_ISLAND_REGIONS = {"larger-area": "r", "desert-strip": "d", "small-area": "Gu"}


def desert_map(south_rows: tuple[str, ...], land: dict[str, int], tokens: dict[int, int],
               harbors: dict[str, int], islands: dict[str, str]) -> MapSpec:
    """An Into the Desert board (SC06-002 / SC07-002): the fixed main island above ``south_rows``, every
    resource cell drawn from ``land``, the tokens dealt blind (SEA-005, reds apart), the harbour tokens
    onto the fixed slots (SEA-003), the robber on the marked desert (R-009); ``islands`` tags the
    southern islands (R-018)."""
    return MapSpec(
        rows=MAIN_ISLAND_ROWS + south_rows,
        legend=DESERT_LEGEND,
        pools={"land": land},
        tokens={"*": tokens},
        harbors=DESERT_HARBORS,
        harbor_kinds=harbors,
        regions={**MAIN_ISLAND_REGIONS, **islands},
        robber=(4, 0),
    )


TOKENS = token_row(1, 2, 3, 3, 2, 3, 3, 3, 2, 1)
HARBORS = harbor_row(5, 4)
SC06_MAP = desert_map((" a a s s b b",), hex_row(0, 0, 0, 4, 5, 4, 5, 4), TOKENS, HARBORS,
                      {"island-south-west": "a", "island-south-east": "b"})


class IntoTheDesert3(MappedScenario, Seafarers, edition=Edition(
        "SC06", "Into the Desert (III)", SEAFARERS_BOOK, 6, (3,), 12,    # SC06-001: 3 players; SC06-006: 12 VP wins
        "SC06-002", {3: {"hexes": hex_row(12, 4, 1, 4, 5, 4, 5, 4), "tokens": TOKENS, "harbors": HARBORS}},
        {3: SC06_MAP})):
    home_areas = ("larger-area",)
    neutral_areas = ("desert-strip",)
    rule_players, rule_setup, rule_unknown, rule_svp = "SC06-001", "SC06-003", "SC06-004", "SC06-005"

    # -- map (SC06-002: the fixed layout with the desert strip dividing the main island) ------------
    def fallback_regions(self, state: State) -> dict[str, list]:
        spec = self.map_specs.get(state.num_players) or next(iter(self.map_specs.values()))
        return spec_regions(spec)

    def unknown_regions(self, imap: dict) -> set[str]:
        """SC06-004: the small area of the main island and the surrounding islands are unknown: every
        region that is neither the larger area nor the desert strip."""
        return set(imap.values()) - set(self.home_areas) - set(self.neutral_areas)

    # -- hooks -------------------------------------------------------------------------------------
    def check(self, ctx: Ctx):
        s, a = ctx.state, ctx.action
        if s.phase == "setup" and a.type == "build_settlement":
            node = a.get("node")
            imap = regions(s, self.fallback_regions(s))
            at = node_regions(node, imap)
            if not (at & set(self.home_areas)) or at & self.unknown_regions(imap):
                where = ", ".join(sorted(at)) or "no tagged area"
                return violation(self.rule_setup, f"both starting settlements go in the larger part of the main "
                                 f"island; {node_str(node)} lies in {where}")
        return []

    def after_action(self, ctx: Ctx, s: State) -> None:
        if main_phase_settlement(ctx):
            imap = regions(s, self.fallback_regions(s))
            unknown = node_regions(ctx.action.get("node"), imap) & self.unknown_regions(imap)
            award_first_settlement(ctx, s, bool(unknown), self.rule_svp,
                                   f"first settlement in an unknown area ({', '.join(sorted(unknown))})")

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        return player_count_problems(state, self.players, self.rule_players) + validate_common(state)
