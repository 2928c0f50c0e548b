"""Treasures, Dragons & Explorers scenario 5, "The Great Canal" (3 and 4 players, seeds/003).

Base, Seafarers and Cities & Knights rules together (TDE5-001; without Cities & Knights no game: R-079,
TDE5-002), the map of ``maps.py`` (TDE5-003..005), three set-up rounds: a settlement, a city, then the
second settlement from the last player to place a city (TDE5-006/007), a coastal building with a ship
(TDE5-008/009, R-074), the robber only (TDE5-010), knights built only on the home island (TDE5-011) who dig
the canal (``canal.py``: TDE5-012..014, TDE5-019/020, R-072), prospect gold and trade on the small islands
(TDE5-015..018, TDE5-022, R-070, R-071), no settlement on the small islands (TDE5-021), ship lines that do
not branch (TDE5-023, R-073), Irrigation on barren fields (TDE5-024) and 21 / 18 VP (TDE5-025).

Decided here (the text leaves these open; one place each):

- The canal hexes are dry ground (deserts) the canal is dug through, so digging changes no production;
  the canal and the flooded basin keep their hexes on the board (the picture shows them as water): the
  geometry of roads, settlements and ships never changes under pieces already placed.
- TDE5-010 "the robber starts on any desert": the starting player's choice is the game option ``robber``
  (a desert hex; default the basin "A"), given when the game is created, as R-007 does for the pirate.
- A field's token lies face down (TDE5-004) on its hex, so the field stays a field (TDE5-024: Irrigation
  counts it) but it produces nothing until the flood; the Inventor (CK-PROG-S4) cannot pick a face-down
  token, as it cannot be seen.
- R-072's "earliest-activated" knight: active knights keep the order in which they became active
  (``scenario_state.activation_order``); knights activated together (Warlord) follow in intersection
  order, and a displaced active knight counts as activated where it lands.
- R-071: besides the intersections of a gold hex or a harbour, no intersection of a small island takes a
  knight (nothing else is done there).
"""
from __future__ import annotations

from typing import Any, Optional

from ...core import Ctx, Violation
from ...geometry import edge_nodes, hex_corners, hex_str, node_str
from ...mapgraph import MapGraph, RESOURCES
from ...module import EventSpec, OptionSpec
from ...picture import Glyph, Layer
from ...rng import Rng
from ...seats import Secret
from ...scenarios._sc_common import player_count_problems
from ...scenarios.base import hex_option
from ...scenarios.mapdata import MappedScenario
from ...scenarios.seafarers import Seafarers
from ...spec import HEX, NODE, Bool, F, Int, List, Map, Obj, Str, by_player
from ...state import State
from ..cities_and_knights import store
from ..cities_and_knights.module import CitiesAndKnights
from ..cities_and_knights.required import PlayedWithCitiesAndKnights, option_spec
from . import canal as C
from .lean import PLAY_LEAN as _LEAN
from .maps import BASIN, CANAL, FIELDS, MAP_SPECS, component_table, fixed_harbors

VP = {3: 21, 4: 18}                                          # TDE5-025
_HEXES = List(HEX, max_len=16)
_TILE = Obj({"hex": F(HEX, required=True), "chips": F(Int(0, 2), required=True), "dug": F(Bool(), required=True)})



def _face_down_numbers(doc: Any) -> Any:
    """the position with the number tokens of the fields still face down shown as null (TDE5-004)"""
    barren = {tuple(h) for h in ((doc.get("scenario_state") or {}).get("barren") or ())}
    board = doc.get("board")
    if not barren or not isinstance(board, dict):
        return doc
    hexes = [{**h, "number": None} if (h.get("q"), h.get("r")) in barren else h for h in board.get("hexes") or ()]
    return {**doc, "board": {**board, "hexes": hexes}}


def _picture_face_down(state: State, seat: int) -> State:
    """the board drawn with the fields still face down without their numbers (TDE5-004)"""
    barren = {tuple(h) for h in state.scenario_state.get("barren") or ()}
    if not barren:
        return state
    s = state.copy()
    s.hexes = {h: (t._replace(number=None) if h in barren else t) for h, t in state.hexes.items()}
    return s


#: What the Great Canal keeps from every player (a seat's view, ``seats.py``).
TDE5_SECRETS = (
    Secret("state:", _face_down_numbers, "the number tokens of the fields still face down (barren)", owner="",
           rules="TDE5-004"),
    Secret("picture:", _picture_face_down, "the number tokens of the fields still face down, on the board picture",
           owner="", rules="TDE5-004"),
)

class GreatCanalMap(MappedScenario, Seafarers):
    """The map, the set-up, the canal, prospectors and traders: the scenario's module below Cities & Knights
    (the scenario is :class:`GreatCanal`, with Cities & Knights in its stack)."""
    id = "TDE5"
    module_name = "TDE5"
    name = "The Great Canal"
    source = "Treasures, Dragons & Explorers, scenario 5 (its rules: GET /v1/rules?prefix=TDE5)"
    players = (3, 4)                                          # TDE5-002
    vp_target = VP[3]                                         # TDE5-025 (18 with 4 players: new_game)
    pirate = False                                            # TDE5-010: the robber only
    setup_rounds = 3                                          # TDE5-006: settlement, city, settlement
    # TDE5-007: the base set-up pays starting resources for the last round's settlement only: the third
    component_rule = "TDE5-003"
    component_tables = {n: component_table() for n in (3, 4)}
    map_specs = MAP_SPECS

    WITHOUT_ACTIONS = ("move_pirate",)                        # TDE5-010
    SECRETS = TDE5_SECRETS
    PLAY_LEAN = _LEAN                                         # random play: knights dig the canal (lean.py)
    STATE = {
        "canal": F(List(_TILE, max_len=9), doc="R-072: the canal hexes in order from lake B to the basin, their "
                   "Catan chips and whether dug (TDE5-012, TDE5-019)"),
        "canal_chips": F(by_player(Int(0, 18)), doc="TDE5-013: Catan chips won per player (1 VP each)"),
        "flooded": F(Bool(), doc="TDE5-020: the canal is complete and the basin flooded"),
        "basin": F(HEX, doc="desert A, flooded on completion (TDE5-020)"),
        "fields": F(_HEXES, doc="TDE5-004: the fields whose tokens start face down"),
        "barren": F(_HEXES, doc="TDE5-004: the fields still face down (no grain until the flood)"),
        "activation_order": F(List(NODE, max_len=24), doc="R-072: active knights, earliest activated first"),
    }
    DERIVED = {
        "great_canal": F(Obj({
            "canal": F(List(_TILE, max_len=9), doc="R-072: the canal in order, chips left, dug or not"),
            "dug": F(Int(0, 9), doc="TDE5-019: canal tiles placed"),
            "to_complete": F(Int(0, 9), doc="TDE5-019: tiles still to dig before the canal is finished (the "
                             "penultimate one finishes it)"),
            "flooded": F(Bool(), doc="TDE5-020"),
            "barren_fields": F(_HEXES, doc="TDE5-004: fields producing no grain yet"),
            "chips": F(by_player(Int(0, 18)), doc="TDE5-013: Catan chips per player (1 VP each)"),
            "chips_left": F(Int(0, 18), doc="chips still on the canal hexes"),
            "diggable": F(List(Obj({"hex": F(HEX), "knights": F(List(NODE, max_len=6))}), max_len=9),
                          doc="TDE5-012: canal hexes with one active knight on a corner (a second digs)"),
            "prospectors": F(by_player(_HEXES), doc="TDE5-015: per player the small islands' gold hexes an own "
                             "knight stands on"),
            "prospect_picks": F(Map(by_player(Int(0, 4)), max_len=11),
                                doc="TDE5-015/016, R-070: per number rolled, the resources of choice it gives "
                                    "each player (none after the flood, TDE5-022)"),
            "traders": F(by_player(List(Str(("3:1",) + RESOURCES), max_len=6)),
                         doc="TDE5-017: per player the small islands' harbours an own knight uses"),
            "island_knights": F(by_player(List(NODE, max_len=6)),
                                doc="TDE5-018: knights on the small islands (no barbarian defence)"),
            "vp_chips": F(by_player(Int(0, 18)), doc="TDE5-013: VP from Catan chips"),
        }), doc="The Great Canal (TDE5-012..025)"),
    }
    EVENTS = (
        EventSpec("canal_dug", {"hex": F(HEX), "knights": F(List(NODE, max_len=2)), "chips": F(by_player(Int(0, 2)))},
                  "TDE5-012/013: two active knights dug a canal hex; who took its chips"),
        EventSpec("canal_completed", {"hex": F(HEX)}, "TDE5-019: the last canal tile placed with the "
                  "penultimate one; its chips leave the game"),
        EventSpec("basin_flooded", {"fields": F(_HEXES)}, "TDE5-020: the basin floods; the fields' tokens "
                  "turn face up"),
    )
    OPTIONS = (OptionSpec("robber", hex_option, "[q, r]: the desert the starting player chooses for the "
                          "robber (TDE5-010, R-009; default the basin A)"),)

    # -- a new game ------------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)
        want = (options or {}).get("robber")
        if want is not None:
            h = tuple(want)
            t = state.hexes.get(h)
            if t is None or t.terrain != "desert":
                raise ValueError("options.robber must name a desert of the board (TDE5-010, R-009)")
            state.robber = h
        return state

    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        board = super().new_board(num_players, rng)
        board["harbors"] = fixed_harbors()                   # TDE5-005: the ports as shown
        board["robber"] = BASIN                              # TDE5-010 (the option may choose another desert)
        board["pirate"] = None                               # TDE5-010: no pirate
        return board

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out.update({"canal": C.initial_canal(CANAL), "canal_chips": {str(p): 0 for p in range(num_players)},
                    "flooded": False, "basin": list(BASIN),
                    "fields": [list(h) for h in FIELDS], "barren": [list(h) for h in FIELDS],   # TDE5-004
                    "activation_order": []})
        return out

    # -- checks ----------------------------------------------------------------------------------------
    def check(self, ctx: Ctx) -> list[Violation]:
        out = super().check(ctx)
        if out:
            return out
        s, a = ctx.state, ctx.action
        t = a.type
        if t == "build_settlement":
            return self._settlement(ctx)
        if t in ("build_road", "build_ship") and s.phase == "setup":
            return self._setup_way(ctx)
        if t == "build_knight":
            return self._knight_site(ctx, a.get("node"), "/action/node")
        if t in ("move_knight", "displace_knight"):
            return self._island_site(ctx, a.get("to"), "/action/to")
        if t in ("build_ship", "move_ship"):
            return self._no_branch(ctx, [a.get("edge") if t == "build_ship" else a.get("to")],
                                   a.get("from") if t == "move_ship" else None, "/action/" +
                                   ("edge" if t == "build_ship" else "to"))
        if t == "play_progress":
            card = a.get("card")
            if card == "deserter" and a.get("node") is not None:
                return self._knight_site(ctx, a.get("node"), "/action/node")
            if card == "road_building":
                ships = [p["edge"] for p in a.get("pieces") or () if p.get("kind") == "ship"]
                return self._no_branch(ctx, ships, None, "/action/pieces")
            if card == "inventor":
                barren = {tuple(h) for h in s.scenario_state.get("barren") or ()}
                for i, h in enumerate(a.get("hexes") or ()):
                    if tuple(h) in barren:                   # TDE5-004: the token lies face down
                        return [Violation("TDE5-004", f"the token of the field {hex_str(tuple(h))} lies face down "
                                          "until the basin is flooded; the Inventor cannot choose it",
                                          f"/action/hexes/{i}")]
        return []

    def _settlement(self, ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        node = a.get("node")
        home = C.home_hexes(s)
        if not C.on_home(s, node, home):
            rule = "TDE5-021" if C.on_small_island(s, node, home) else "TDE5-006"
            return [Violation(rule, f"settlements stand on the home island only (no settlement on the small "
                              f"islands); {node_str(node)} is not on it", "/action/node")]
        if s.phase == "setup" and s.setup.round == self.setup_rounds:
            g = ctx.graph
            coastal = [n for n, (p, _) in s.buildings.items() if p == a.player and _coastal(g, n)]
            if not coastal and not _coastal(g, node):            # TDE5-008, R-074
                return [Violation("TDE5-008", f"each player has a starting building on the coast (the lake is no "
                                  f"coast); player {a.player} has none yet and {node_str(node)} is inland, so the "
                                  "last one must be coastal", "/action/node", ruling="R-074")]
        return []

    def _setup_way(self, ctx: Ctx) -> list[Violation]:
        """TDE5-009 / R-074: a coastal starting building takes a ship, not a road."""
        s, a = ctx.state, ctx.action
        last = s.setup.last_settlement
        if a.type == "build_road" and last is not None and _coastal(ctx.graph, last):
            return [Violation("TDE5-009", f"the starting building at {node_str(last)} stands on the coast, so it "
                              "takes a ship (build_ship), not a road", "/action/edge", ruling="R-074")]
        return []

    def _knight_site(self, ctx: Ctx, node: Any, path: str) -> list[Violation]:
        """TDE5-011 / R-071: knights are built (or placed) on the home island only."""
        if node is not None and not C.on_home(ctx.state, node):
            return [Violation("TDE5-011", f"knights are built on the home island only; {node_str(tuple(node))} is not "
                              "on it (a knight reaches a small island by moving along a ship line)", path,
                              ruling="R-071")]
        return []

    def _island_site(self, ctx: Ctx, node: Any, path: str) -> list[Violation]:
        """R-071: on a small island a knight stands on a gold hex's or a harbour's intersection only
        (TDE5-015, TDE5-017); it gets there along its owner's ship line (CK-SEA-6)."""
        s = ctx.state
        home = C.home_hexes(s)
        if node is None or not C.on_small_island(s, node, home):
            return []
        if C.gold_corner(s, node, home) or tuple(node) in C.harbor_nodes(s, ctx.graph, home):
            return []
        return [Violation("TDE5-015", f"on a small island a knight goes to an intersection of the gold hex "
                          f"(prospector) or of a harbour (trader, TDE5-017); {node_str(tuple(node))} is neither",
                          path, ruling="R-071")]

    def _no_branch(self, ctx: Ctx, edges: list, removed: Any, path: str) -> list[Violation]:
        """TDE5-023 / R-073: no intersection carries more than 2 of one player's ships."""
        s, p = ctx.state, ctx.action.player
        own = {e for e, o in s.ships.items() if o == p}
        if removed is not None:
            own.discard(tuple(removed))
        for e in edges:
            if e is None:
                continue
            own.add(tuple(e))
            for n in edge_nodes(tuple(e)):
                k = sum(1 for x in own if n in edge_nodes(x))
                if k > 2:
                    return [Violation("TDE5-023", f"shipping lines do not branch: {node_str(n)} would carry {k} of "
                                      f"player {p}'s ships (at most 2)", path, ruling="R-073")]
        return []

    # -- reactions -------------------------------------------------------------------------------------
    def after_action(self, ctx: Ctx, s: State) -> None:
        super().after_action(ctx, s)
        C.dig(ctx, s)                                        # TDE5-012..014, TDE5-019/020

    def idle_hexes(self, state: State) -> Any:
        """TDE5-004 / TDE5-020: fields whose token lies face down produce no grain until the flood."""
        barren = state.scenario_state.get("barren")
        if not barren:
            return super().idle_hexes(state)
        return {*super().idle_hexes(state), *(tuple(h) for h in barren)}

    def roll_picks(self, state: State, graph: Any, total: int) -> dict[int, int]:
        out = dict(super().roll_picks(state, graph, total))
        for p, k in C.prospector_picks(state, total).items():    # TDE5-015/016/022, R-070
            out[p] = out.get(p, 0) + k
        return out

    def knight_defends(self, state: State, knight: dict) -> bool:
        """TDE5-018: knights on the small islands do not defend against the barbarians."""
        if C.on_small_island(state, knight["node"]):
            return False
        return super().knight_defends(state, knight)

    def harbor_access(self, state: State, graph: Any, player: int) -> list[str]:
        """TDE5-017: a knight (active or not) on a small island's harbour intersection opens that port."""
        return [*super().harbor_access(state, graph, player), *C.traders(state, graph).get(player, [])]

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        out = dict(super().vp_extra(state, player))
        out["canal_chips"] = int((state.scenario_state.get("canal_chips") or {}).get(str(player), 0))   # TDE5-013
        return out

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = list(super().validate_state(state))
        out += player_count_problems(state, self.players, "TDE5-002")
        ss = state.scenario_state
        for i, t in enumerate(ss.get("canal") or ()):
            if t["dug"] and t["chips"]:     # both sides of the clash: the chips and the hex dug
                out.append((f"/state/scenario_state/canal/{i}/chips", "a dug canal hex holds no chips (TDE5-012)"))
                out.append((f"/state/scenario_state/canal/{i}/dug", "a dug canal hex holds no chips (TDE5-012)"))
            if tuple(t["hex"]) not in state.hexes:
                out.append((f"/state/scenario_state/canal/{i}/hex", "not a hex of the board"))
        for i, h in enumerate(ss.get("barren") or ()):
            t = state.hexes.get(tuple(h))
            if t is None or t.terrain != "fields":
                out.append((f"/state/scenario_state/barren/{i}", "a barren field is a fields hex (TDE5-004)"))
                if t is not None:           # and the hex that is no fields
                    out.append((f"/state/board/hexes/{list(state.hexes).index(tuple(h))}",
                                "a barren field is a fields hex (TDE5-004)"))
        if ss.get("flooded") and ss.get("barren"):
            out.append(("/state/scenario_state/barren", "after the flood every field bears (TDE5-020)"))
            out.append(("/state/scenario_state/flooded", "after the flood every field bears (TDE5-020)"))
        return out

    # -- what it reports -------------------------------------------------------------------------------
    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        out = dict(super().derived_extra(state, graph))
        ss = state.scenario_state
        tiles = C.canal(state)
        n = state.num_players
        chips = {str(p): int((ss.get("canal_chips") or {}).get(str(p), 0)) for p in range(n)}
        dug = sum(1 for t in tiles if t["dug"])
        diggable = []
        island_knights: dict[str, list] = {str(p): [] for p in range(n)}
        picks: dict[str, dict[str, int]] = {}
        pros: dict[str, list] = {str(p): [] for p in range(n)}
        trade: dict[str, list] = {str(p): [] for p in range(n)}
        if store.KEY in ss:
            for t in tiles:
                if not t["dug"]:
                    here = C.active_knights_at(state, tuple(t["hex"]))
                    if here:
                        diggable.append({"hex": list(t["hex"]), "knights": [list(k["node"]) for k in here]})
            home = C.home_hexes(state)
            for k in store.ck(state)["knights"]:
                if C.on_small_island(state, k["node"], home):
                    island_knights[str(k["player"])].append(list(k["node"]))
            for p, hs in C.prospectors(state, home).items():
                pros[str(p)] = [list(h) for h in hs]
            for total in sorted({state.hexes[h].number for h in C.small_gold_hexes(state, home)
                                 if state.hexes[h].number}):
                got = C.prospector_picks(state, total)
                if got:
                    picks[str(total)] = {str(p): k for p, k in got.items()}
            for p, kinds in C.traders(state, graph).items():
                trade[str(p)] = kinds
        out["great_canal"] = {
            "canal": [dict(t) for t in tiles], "dug": dug,
            "to_complete": max(0, len(tiles) - 1 - dug) if tiles and not ss.get("flooded") else 0,
            "flooded": bool(ss.get("flooded")), "barren_fields": [list(h) for h in ss.get("barren") or ()],
            "chips": chips, "chips_left": sum(t["chips"] for t in tiles), "diggable": diggable,
            "prospectors": pros, "prospect_picks": picks, "traders": trade, "island_knights": island_knights,
            "vp_chips": dict(chips),
        }
        return out

    def board_layers(self, state: State, graph: Any) -> list:
        """The canal (chips still to win, dug tiles, water once complete), the face-down fields, the basin,
        and the knights working on the small islands."""
        ss = state.scenario_state
        wet = bool(ss.get("flooded"))
        tiles = C.canal(state)
        chips = tuple(Glyph(tuple(t["hex"]), str(t["chips"]), None, f"canal hex: {t['chips']} Catan chips (TDE5-012)")
                      for t in tiles if not t["dug"])
        dug = tuple(Glyph(tuple(t["hex"]), "~" if wet else "", None,
                          "canal, water side up (TDE5-020)" if wet else "canal dug, trench side up (TDE5-012)")
                    for t in tiles if t["dug"])
        barren = tuple(Glyph(tuple(h), "?", None, "field: token face down, no grain until the flood (TDE5-004)")
                       for h in ss.get("barren") or ())
        basin = ss.get("basin")
        out = [*super().board_layers(state, graph),
               Layer("canal_chips", "canal hex with Catan chips (TDE5-012)", "square", "#8d6e63", chips),
               Layer("canal", "canal tile (TDE5-012, TDE5-020)", "ring", "#1e88e5", dug),
               Layer("barren", "barren field, token face down (TDE5-004)", "ring", "#a1887f", barren)]
        if basin is not None:
            out.append(Layer("basin", "desert A, flooded on completion (TDE5-020)", "ring",
                             "#1565c0" if wet else "#ffb300",
                             (Glyph(tuple(basin), "A", None, "flooded" if wet else "the dry basin A"),)))
        if store.KEY in ss:
            home = C.home_hexes(state)
            gold = {n for h in C.small_gold_hexes(state, home) for n in hex_corners(h)}
            ports = C.harbor_nodes(state, graph, home)
            marks = []
            for k in store.ck(state)["knights"]:
                n = tuple(k["node"])
                if not C.on_small_island(state, n, home):
                    continue
                jobs = []
                if n in gold and not wet:
                    jobs.append("prospector (TDE5-015)")
                if n in ports:
                    jobs.append(f"trader at the {'/'.join(ports[n])} port (TDE5-017)")
                label = "P" if n in gold and not wet else "T" if n in ports else ""
                marks.append(Glyph(n, label, k["player"], "; ".join(jobs) or "idle on a small island"))
            out.append(Layer("island_knight", "knight on a small island: prospector P, trader T (no barbarian "
                             "defence, TDE5-018)", "ring", "#6a1b9a", tuple(marks)))
        return out

    def explain_extra(self, state: State, graph: Any) -> dict[str, Any]:
        d = self.derived_extra(state, graph)["great_canal"]
        n = state.num_players
        chips = ", ".join(f"player {p}: {d['chips'][str(p)]}" for p in range(n))
        if d["flooded"]:
            canal_why = ("the canal is complete (TDE5-019): the basin is flooded and the fields bear grain "
                         "(TDE5-020); the knights on the small islands no longer prospect (TDE5-022)")
        else:
            canal_why = (f"{d['dug']} of 9 canal tiles dug; {d['to_complete']} more finish it (the penultimate "
                         "one places the last, TDE5-019); two active knights on corners of a chip hex dig it at "
                         "once (TDE5-012, R-072)")
        pros = {p: hs for p, hs in d["prospectors"].items() if hs}
        trade = {p: ks for p, ks in d["traders"].items() if ks}
        return {**super().explain_extra(state, graph),
                "great_canal": {
                    "canal": {"dug": d["dug"], "flooded": d["flooded"], "why": canal_why},
                    "chips": {"per_player": d["chips"], "why": f"Catan chips, 1 VP each (TDE5-013): {chips}"},
                    "prospectors": {"per_player": pros, "why": (
                        "a knight on a corner of a small island's gold hex gives its owner 1 resource of choice "
                        "when that hex's number (8) is rolled, active or not, one per hex however many knights, "
                        "not under the robber (TDE5-015/016, R-070)" + (
                            "; stopped by the flood (TDE5-022)" if d["flooded"] else ""))},
                    "traders": {"per_player": trade, "why": "a knight at a small island's harbour lets its owner "
                                "trade at that port (TDE5-017)"},
                    "defence": {"island_knights": {p: v for p, v in d["island_knights"].items() if v},
                                "why": "knights on the small islands do not fight the barbarians (TDE5-018)"},
                }}


def _coastal(g: MapGraph, node: Any) -> bool:
    """R-074: an intersection touching the sea (a lake is no coast, R-002)."""
    nid = g.node_index.get(tuple(node))
    return nid is not None and g.node_water[nid] and g.node_land[nid]


class GreatCanalWithCitiesAndKnights:
    """The Great Canal's own rules with Cities & Knights, stacked above that module: the target (TDE5-025:
    21 VP with 3 players, 18 with 4, instead of CK-SEA-1's raised target)."""
    module_name = "TDE5_cities_and_knights"
    requires_rule = "TDE5-002"                                # played only with Cities & Knights
    OPTIONS = (option_spec(GreatCanalMap.name, requires_rule),)

    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)   # type: ignore[misc]
        state.vp_target = VP.get(num_players, VP[3])         # TDE5-025
        return state

    def ck_vp_target(self) -> int:
        return VP[3]                                          # TDE5-025 (the 4-player 18: new_game)


class GreatCanal(GreatCanalWithCitiesAndKnights, PlayedWithCitiesAndKnights, CitiesAndKnights, GreatCanalMap):
    """TDE5-001, TDE5-002, R-079: base, Seafarers and Cities & Knights together, the scenario's text above them;
    never without Cities & Knights."""
    id = "TDE5"


__all__ = ["GreatCanal", "GreatCanalMap", "GreatCanalWithCitiesAndKnights", "VP"]
