"""GOLD: the fan scenario "Gold / Front Coast" (seed 000, GOLD-001..043, rulings R-031..R-044).

Gold is a currency (the player value ``gold``, declared in ``PLAYER``, 8 to start, GOLD-006) paid on top of every cost; ships are single
mobile pieces that fetch it from the gold islands (``actions/gold.py``); the front coast of the main
island is where ships are built, and the Minimum Number of Roads rule keeps everyone able to reach it
(``gold_mnr.py``). Hooks used here: the replacement handlers, the front-coast checks, cargo loss on a 2
or 12, Largest Fleet, and the derived values (gold, fleet, MNR with witness paths, statements A/B/C).

The maps (GOLD-003, R-001, R-035; pictures and notes in ``docs/maps/gold.md``): a main island in the
north whose south coast (the front coast, tagged intersection by intersection) faces two rows of sea
and then the gold islands. Land tiles, their tokens and the harbours are dealt at random; gold and sea
never move and gold hexes carry no token (GOLD-004). Every front-coast site is 3 or 4 spaces from the
nearest gold dock (GOLD-034, checked by :func:`front_coast_distances` in the tests).

Decisions the rulings leave open (decided here, once):

- A space along the frame counts: the frame is water for the sides it shares with tiles (R-102), so a
  tile/frame or sea/frame edge is a space and a gold/frame edge a gold dock (R-031 with R-102).
- A ship may sail in several ``sail_ship`` actions in one turn, within its allowance (2, or 4 once
  extended); that is how it loads or unloads mid-move (R-032) and buys its extension "at any point"
  with cargo it has just loaded (R-033).
- ``buy_development_card`` without ``price`` pays the grain price (wool + ore + grain + 1 gold) when the
  buyer can, else the 2-gold price (GOLD-011).
- The statements A/B/C are evaluated (and reported in ``derived``) once a settlement passes the site,
  connection and cost checks; the road rule of R-040 applies to every road placement, set-up and Road
  Building included.
- One ``gold_trade`` may buy or sell several units at the fixed rates (2n gold for n cards, 3n cards for
  n gold), never both directions at once (GOLD-016, GOLD-018).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ...geometry import Node, edge_hexes, edge_str, node_str
from ...mapgraph import RESOURCES, MapGraph
from ...module import ActionSpec, EventSpec, RangeKind
from ...spec import EDGE, NODE, PLAYER, Any_, Bool, Cards, F, Int, List, Map, Null, Obj, Str, by_player
from ...state import State
from ...scenarios.base import BASE_ACTIONS
from ...scenarios.coins import domestic_trade_with_gold
from ...scenarios.components import harbor_row, hex_row, token_row
from .mnr import Board, front_coast, increase_cuts, road_mnr, site_gold_distance, statements
from ...scenarios.mapdata import MappedScenario, MapSpec
from ...scenarios.seafarers import Seafarers

if TYPE_CHECKING:  # pragma: no cover
    from ...core import Ctx, Violation

GOLD_ACTIONS = BASE_ACTIONS + ("build_ship", "sail_ship", "load_gold", "unload_gold", "gold_trade")


def _gold(name: str):
    def get():
        from . import actions as gold
        return gold.replacement(name) or getattr(gold, name).HANDLER
    return get


def _gold_ranges() -> RangeKind:
    def specs(*args):
        from .actions import gold_trade_ranges
        return gold_trade_ranges(*args)

    def admits(spec, action):
        from .actions import gold_trade_admits
        return gold_trade_admits(spec, action)

    def sample(spec, rng):
        from .actions import gold_trade_sample
        return gold_trade_sample(spec, rng)

    def count(spec):
        from .actions import gold_trade_count
        return gold_trade_count(spec)

    def members(spec):
        from .actions import gold_trade_members
        return gold_trade_members(spec)
    return RangeKind(specs, admits, sample, count=count, members=members)


_P = F(PLAYER, required=True)
_SHIP = F(Int(0, 10_000), required=True)
_SHIP_ID = F(Int(0, 10_000), required=True, doc="the ship's id (scenario_state.ships)")
_AMOUNT = F(Int(0, 100), nullable=True, doc="gold moved; left out: as much as possible")
_COINS = Cards(RESOURCES + ("gold",))
GOLD_ACTION_SPECS = (
    ActionSpec("build_road", handler=_gold("build_road")),
    ActionSpec("build_settlement", handler=_gold("build_settlement")),
    ActionSpec("build_city", handler=_gold("build_city")),
    ActionSpec("build_ship", handler=_gold("build_ship")),
    ActionSpec("buy_development_card", {"price": F(Str(("grain", "gold")), nullable=True,
                                                   doc="GOLD-011: the price paid (grain + 1 gold, or 2 gold)")},
               handler=_gold("buy_development_card")),
    ActionSpec("play_road_building", handler=_gold("play_road_building")),
    domestic_trade_with_gold(),
    ActionSpec("sail_ship", {"ship": _SHIP_ID, "path": F(List(EDGE, min_len=1, max_len=4), required=True),
                             "extend": F(Str(("wool", "cargo")), nullable=True,
                                         doc="GOLD-025/026: extend the move to 4 spaces, paying wool or cargo")},
               "Sail a mobile ship along a path of spaces (GOLD-024, R-031).", handler=_gold("SailShip")),
    ActionSpec("load_gold", {"ship": _SHIP_ID, "amount": _AMOUNT}, "Load gold at a gold dock (GOLD-032).",
               handler=_gold("LoadGold")),
    ActionSpec("unload_gold", {"ship": _SHIP_ID, "amount": _AMOUNT}, "Unload gold at the ship's home (GOLD-031).",
               handler=_gold("UnloadGold")),
    ActionSpec("gold_trade", {"give": F(_COINS, required=True), "get": F(_COINS, required=True)},
               "Trade with the bank: 2 gold for a card, 3 cards for a gold (GOLD-016, GOLD-018).",
               handler=_gold("GoldTrade"), ranged=True, ranges=_gold_ranges()),
)
START_GOLD = 8                     # GOLD-006 (10 with Cities & Knights: modules/cities_and_knights/gold.py)
LARGEST_FLEET_VP = 2               # GOLD-037
LARGEST_FLEET_MIN = 2

# Cell legend: "L" a land tile dealt from the map's pool, "g" gold, "s" sea (mapdata.LEGEND).
MAP_4P = MapSpec(
    rows=(
        "s s s L L L L s s s",
        " s s L L L L L s s",
        "s s L L L L L L s s",
        " s s L L L L s s s",
        "s s s s s s s s s s",
        " s s s s s s s s s",
        "s s g g s s g g s s",
        " s s s s s s s s s",
    ),
    legend={"L": "pool:main"},
    pools={"main": {"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1}},
    tokens={"L": token_row(1, 2, 2, 2, 2, 2, 2, 2, 2, 1)},
    harbors=(((2, 1), "NW"), ((3, 0), "NW"), ((4, 0), "NE"), ((6, 0), "NW"), ((6, 0), "E"), ((6, 2), "E"),
             ((5, 2), "SE"), ((1, 2), "NW"), ((1, 2), "SW")),
    harbor_kinds=harbor_row(5, 4),
)
MAP_3P = MapSpec(
    rows=(
        "s s s L L L s s s",
        " s s L L L L s s",
        "s s L L L L L s s",
        " s s L L L s s s",
        "s s s s s s s s s",
        " s s s s s s s s",
        "s s g g s s g s s",
        " s s s s s s s s",
    ),
    legend={"L": "pool:main"},
    pools={"main": {"forest": 3, "pasture": 3, "fields": 3, "hills": 3, "mountains": 2, "desert": 1}},
    tokens={"L": token_row(1, 1, 2, 2, 1, 2, 2, 1, 1, 1)},
    harbors=(((3, 0), "NW"), ((4, 0), "NE"), ((5, 0), "E"), ((5, 1), "E"), ((5, 2), "SE"), ((2, 1), "NW"),
             ((1, 2), "NW"), ((1, 2), "SW")),
    harbor_kinds=harbor_row(5, 3),
)
#: The front coast (R-035): the south corners of the island's bottom row and the north corners of the
#: sea hexes just below it, from the west end of that coast to the east end.
FRONT_COAST: dict[int, tuple[Node, ...]] = {
    4: ((0, 4, "N"), (1, 3, "S"), (1, 4, "N"), (2, 3, "S"), (2, 4, "N"), (3, 3, "S"), (3, 4, "N"), (4, 3, "S"),
        (4, 4, "N")),
    3: ((0, 4, "N"), (1, 3, "S"), (1, 4, "N"), (2, 3, "S"), (2, 4, "N"), (3, 3, "S"), (3, 4, "N")),
}


class Gold(MappedScenario, Seafarers):
    id = "GOLD"
    name = "Gold / Front Coast (fan scenario, Minimum Number of Roads, Largest Fleet)"
    source = "Gold / Front Coast fan scenario (GET /v1/rules?prefix=GOLD)"
    players = (3, 4)                                        # GOLD-001
    vp_target = 12                                          # GOLD-002
    supply = {"settlements": 5, "cities": 4, "roads": 15, "ships": 15}   # 15 ships per player
    ships = True
    pirate = False                                          # no pirate
    CURRENCIES = ("gold",)                                  # coins change hands in domestic trades
    ACTIONS = GOLD_ACTION_SPECS
    WITHOUT_ACTIONS = ("move_ship", "move_pirate", "choose_gold")
    STATE = {
        "front_coast": F(List(NODE, max_len=100), doc="R-035: the front-coast intersections, as tagged in the map data"),
        "ships": F(List(Obj({"id": F(Int(0, 10_000), required=True), "player": F(PLAYER, required=True),
                             "home": F(NODE, required=True), "edge": F(EDGE, required=True),
                             "cargo": F(Int(0, 100)), "built": F(Bool()), "moved": F(Int(0, 100)),
                             "extended": F(Bool())}), max_len=60),
                   doc="GOLD-020: the mobile ships, each with its home and cargo"),
        "largest_fleet": F(PLAYER, nullable=True, doc="GOLD-037: who holds Largest Fleet"),
    }
    DERIVED = {
        "gold": F(by_player(Obj({"coins": F(Int(0, 10_000), required=True), "cargo": F(Int(0, 1000), required=True)})),
                  doc="GOLD-005/030: each player's coins and the gold their ships carry"),
        "fleet": F(by_player(List(Obj({"id": F(Int(0, 10_000), required=True), "edge": F(EDGE, required=True),
                                       "home": F(NODE, required=True), "cargo": F(Int(0, 100), required=True),
                                       "docked": F(Str(("home", "gold")), nullable=True)}), max_len=60)),
                   doc="GOLD-020: each player's ships, where they lie and what they carry"),
        "largest_fleet": F(Obj({"holder": F(PLAYER, nullable=True), "ships": F(by_player(Int(0, 100)))}),
                           doc="GOLD-037, R-041: the holder and every player's ship count"),
        "mnr": F(by_player(Any_(doc="the minimum number of roads to the front coast, with a witness")),
                 doc="GOLD-038..042: per player still owed a front-coast site, the minimum number of roads"),
        "front_coast": F(List(NODE, max_len=100), doc="R-035: the front coast"),
        "statements": F(Obj({"A": F(Bool()), "B": F(Bool()), "C": F(Bool())}),
                        doc="R-037..R-040: the three statements judged for a settlement"),
        "mnr_before": F(Map(Null(Int(0, 1000)), max_len=4), doc="the MNR of every player before the placement"),
        "mnr_if_built": F(Map(Null(Int(0, 1000)), max_len=4), doc="the MNR of every player if it were built"),
        "statement_c_site": F(Any_(doc="the front-coast site (and road) that makes statement C true")),
    }
    EVENTS = (
        EventSpec("built", {"ship": F(Int(0, 10_000), doc="GOLD: the new ship's id"),
                            "home": F(NODE, doc="GOLD-021: the ship's home")}),
        EventSpec("bought_development_card", {"price": F(Str(("grain", "gold"))), "paid": F(Map(Int(0, 100)))}),
        EventSpec("paid_gold", {"player": _P, "gold": F(Int(0, 100), required=True), "item": F(Str(max_len=40))},
                  "Gold paid on top of a cost (GOLD-007..011)."),
        EventSpec("sailed", {"player": _P, "ship": _SHIP, "path": F(List(EDGE, max_len=4), required=True),
                             "extend": F(Str(("wool", "cargo")), nullable=True), "docked": F(Str(("home", "gold")), nullable=True)},
                  "A ship sailed (GOLD-024..026)."),
        EventSpec("loaded_gold", {"player": _P, "ship": _SHIP, "gold": F(Int(0, 100), required=True),
                                  "cargo": F(Int(0, 100), required=True)}, "Gold loaded at a gold dock (GOLD-032)."),
        EventSpec("unloaded_gold", {"player": _P, "ship": _SHIP, "gold": F(Int(0, 100), required=True)},
                  "Gold unloaded at the ship's home (GOLD-031)."),
        EventSpec("cargo_lost", {"player": _P, "ship": _SHIP, "gold": F(Int(0, 100), required=True),
                                 "roll": F(Int(2, 12), required=True)}, "Cargo lost in open water on a 2 or 12 (GOLD-033)."),
    )
    # (after the declarations above: in a class body this name hides ``spec.PLAYER``)
    PLAYER = {"gold": F(Int(0, 10_000), default=0, doc="GOLD-005, R-042: the gold coins the player holds")}
    module_name = "GOLD"
    has_map = True
    map_specs = {3: MAP_3P, 4: MAP_4P}
    component_rule = "GOLD-003"
    component_tables = {
        4: {"hexes": hex_row(53, 1, 4, 4, 3, 3, 4, 4), "tokens": token_row(1, 2, 2, 2, 2, 2, 2, 2, 2, 1),
            "harbors": harbor_row(5, 4)},
        3: {"hexes": hex_row(50, 1, 3, 3, 3, 2, 3, 3), "tokens": token_row(1, 1, 2, 2, 1, 2, 2, 1, 1, 1),
            "harbors": harbor_row(5, 3)},
    }

    # -- a new game ------------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)
        for p in state.players:
            p.extra["gold"] = START_GOLD                    # GOLD-006
        return state

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out.pop("islands", None)
        out["front_coast"] = [list(n) for n in FRONT_COAST[num_players]]      # tagged in map data
        out["ships"] = []
        out["largest_fleet"] = None
        return out

    def maps(self) -> dict[int, Any]:
        return {n: {**spec.layout(), "front_coast": [list(x) for x in FRONT_COAST[n]]}
                for n, spec in self.map_specs.items()}

    # -- hooks -----------------------------------------------------------------------------------------
    def gold_entitlement(self, terrain: str, kind: str) -> int:
        return 0                                            # GOLD-004: gold hexes never produce

    def legal_candidates(self, state: State, graph, player: int) -> list:
        """Ships sailing (each reachable space with one shortest path, per extension choice), loading and
        unloading (each amount), ship sites, the two development-card prices, Road Building with ships."""
        from .actions import gold_candidates
        return gold_candidates(state, graph, player)

    def free_piece(self, ctx: "Ctx", i: int, kind: str, edge, path: str):
        """A free piece of the progress card Road Building is one of GOLD's: a ship is a mobile ship docked
        at home (GOLD-020..022, R-031..R-034, R-044), a road cuts nobody off the front coast (GOLD-036)."""
        from .actions import _free_piece_violations
        return _free_piece_violations(ctx, i, kind, edge, path)

    def place_free_piece(self, ctx: "Ctx", s: State, kind: str, edge) -> bool:
        from .actions import PlayGoldRoadBuilding
        PlayGoldRoadBuilding.place_piece(ctx, s, kind, edge)
        return True

    def route_pieces(self, state: State, player: int):
        return [(e, "road") for e, p in state.roads.items() if p == player]   # GOLD-029: ships never count

    def pieces_off_grid(self, scenario_state: dict, player: int) -> dict[str, int]:
        ships = scenario_state.get("ships") or []
        return {"ships": sum(1 for sh in ships if isinstance(sh, dict) and sh.get("player") == player)}

    def check(self, ctx: "Ctx") -> list["Violation"]:
        t = ctx.action.type
        if t == "build_settlement":
            return self._settlement_check(ctx)
        if t == "build_road":
            return self._road_check(ctx)
        return []

    def _settlement_check(self, ctx: "Ctx") -> list["Violation"]:
        from ...core import Violation
        s, a, g = ctx.state, ctx.action, ctx.graph
        node = a.get("node")
        board = Board(s, g)
        if s.phase == "setup" and node in board.fc:
            return [Violation("GOLD-035", f"starting settlements may not stand on the front coast; "
                              f"{node_str(node)} is a front-coast intersection", "/action/node")]
        st = statements(board, a.player, node)
        ctx.derived.update({
            "statements": {"A": st.A, "B": st.B, "C": st.C},
            "mnr_before": {str(q): v for q, v in sorted(st.mnr_before.items())},
            "mnr_if_built": {str(q): v for q, v in sorted(st.mnr_if_built.items())},
        })
        if st.alternative is not None:
            ctx.derived["statement_c_site"] = st.alternative      # the site (and road) that makes C true
        if not st.illegal:
            return []
        hit = [q for q in st.mnr_before if increase_cuts(st.mnr_before[q], st.mnr_if_built[q])]
        show = lambda v: "none" if v is None else str(v)  # noqa: E731
        raised = "; ".join(f"player {q}: {show(st.mnr_before[q])} -> {show(st.mnr_if_built[q])}" for q in hit)
        why = []
        if st.B:
            why.append("B (the site is not on the front coast)" if node not in board.fc
                       else "B (it is not your first front-coast settlement)")
        if st.C:
            alt = st.alternative
            road = f" with a road on {','.join(map(str, alt['road']))}" if alt.get("road") else ""
            why.append(f"C (front-coast site {','.join(map(str, alt['site']))}{road} cuts nobody off)")
        return [Violation("GOLD-042", f"a settlement on {node_str(node)} would raise an opponent's minimum number of "
                          f"roads to the front coast by more than one ({raised}): statement A is true, and so is "
                          f"{' and '.join(why)}; A and (B or C) make it illegal (R-037..R-040)", "/action/node")]

    def _road_check(self, ctx: "Ctx") -> list["Violation"]:
        from .actions import cut_off_violation
        from .mnr import road_cuts_off
        s, a = ctx.state, ctx.action
        board = Board(s, ctx.graph)
        before, after = road_mnr(board, a.player, a.get("edge"))
        if before:
            ctx.derived.update({"mnr_before": {str(q): v for q, v in sorted(before.items())},
                                "mnr_if_built": {str(q): v for q, v in sorted(after.items())}})
        cut = road_cuts_off(board, a.player, a.get("edge"))
        return [cut_off_violation(cut, a.get("edge"), "/action/edge")] if cut else []

    def after_action(self, ctx: "Ctx", s: State) -> None:
        """GOLD-037, R-041: Largest Fleet moves like Longest Road (at least 2, strictly the most)."""
        from .actions import fleet_sizes
        counts = fleet_sizes(s)
        holder = s.scenario_state.get("largest_fleet")
        new = largest_fleet(counts, holder)
        if new != holder:
            s.scenario_state["largest_fleet"] = new
            ctx.emit("award", award="largest_fleet", **{"from": holder, "to": new})

    def after_production(self, ctx: "Ctx", s: State, total: int) -> None:
        """GOLD-033, R-034: on a 2 or 12 every ship in open water loses 2 gold of cargo (less if it has less)."""
        if total not in (2, 12):
            return
        from .actions import dock_of, ships_of
        for sh in ships_of(s):
            if sh.get("cargo", 0) and dock_of(ctx.graph, sh) is None:
                lost = min(2, sh["cargo"])
                sh["cargo"] -= lost
                ctx.emit("cargo_lost", player=sh["player"], ship=sh["id"], gold=lost, roll=total)

    def on_turn_end(self, ctx: "Ctx", s: State) -> None:
        for sh in s.scenario_state.get("ships") or []:
            sh["built"] = False
            sh["moved"] = 0
            sh["extended"] = False

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        return {"largest_fleet": LARGEST_FLEET_VP if state.scenario_state.get("largest_fleet") == player else 0}

    def board_layers(self, state: State, graph: MapGraph) -> list:
        from .pictures import board_layers
        return [*super().board_layers(state, graph), *board_layers(state, graph)]

    def derived_extra(self, state: State, graph: MapGraph) -> dict[str, Any]:
        from .actions import dock_of, fleet_sizes, ships_of
        board = Board(state, graph)
        n = state.num_players
        cargo = [0] * n
        fleet: dict[str, list] = {str(p): [] for p in range(n)}
        for sh in ships_of(state):
            if 0 <= sh["player"] < n:
                cargo[sh["player"]] += sh.get("cargo", 0)
                fleet[str(sh["player"])].append({"id": sh["id"], "edge": sh["edge"], "home": sh["home"],
                                                 "cargo": sh.get("cargo", 0), "docked": dock_of(graph, sh)})
        return {
            "gold": {str(p): {"coins": state.players[p].extra.get("gold", 0), "cargo": cargo[p]} for p in range(n)},
            "fleet": fleet,
            "largest_fleet": {"holder": state.scenario_state.get("largest_fleet"),
                              "ships": {str(p): k for p, k in enumerate(fleet_sizes(state))}},
            "mnr": {str(p): board.mnr_witness(p) for p in range(n) if board.pending(p)},
            "front_coast": sorted([list(x) for x in board.fc], key=lambda x: (x[1], x[0], x[2])),
        }

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        if state.ships:
            out.append(("/state/pieces/ships", "GOLD's ships are single mobile pieces with a home and a cargo, listed "
                        "in scenario_state.ships (GOLD-020), not as trade-route pieces"))
        ss = state.scenario_state
        fc = ss.get("front_coast")
        if fc is not None and not (isinstance(fc, list) and all(_is_node(x) for x in fc)):
            out.append(("/state/scenario_state/front_coast", "a list of intersections [q, r, \"N\"|\"S\"] (R-035)"))
            return out
        lf = ss.get("largest_fleet")
        if lf is not None and not (type(lf) is int and 0 <= lf < state.num_players):
            out.append(("/state/scenario_state/largest_fleet", "the Largest Fleet holder is a player number or null"))
        ships = ss.get("ships") or []
        if not isinstance(ships, list):
            return out + [("/state/scenario_state/ships", "a list of ship records")]
        out.extend(_validate_ships(state, ships))
        return out


def _is_node(x: Any) -> bool:
    return (isinstance(x, list) and len(x) == 3 and type(x[0]) is int and type(x[1]) is int and x[2] in ("N", "S"))


def _is_edge(x: Any) -> bool:
    return (isinstance(x, list) and len(x) == 3 and type(x[0]) is int and type(x[1]) is int
            and x[2] in ("NE", "E", "SE"))


SHIP_KEYS = {"id", "player", "home", "edge", "cargo", "built", "moved", "extended"}


def _validate_ships(state: State, ships: list) -> list[tuple[str, str]]:
    from .actions import CARGO_MAX, SHIP_CAPACITY
    out = []
    seen: set = set()
    homed: dict[tuple, int] = {}
    fc = {tuple(x) for x in state.scenario_state.get("front_coast") or []}
    for i, sh in enumerate(ships):
        at = f"/state/scenario_state/ships/{i}"
        if not isinstance(sh, dict) or not {"id", "player", "home", "edge"} <= set(sh) or set(sh) - SHIP_KEYS:
            out.append((at, "a ship is {id, player, home, edge, cargo, built, moved, extended}"))
            continue
        if type(sh["id"]) is not int or sh["id"] in seen:
            out.append((at + "/id", "ship ids are distinct integers"))
        seen.add(sh["id"])
        p = sh["player"]
        if type(p) is not int or not 0 <= p < state.num_players:
            out.append((at + "/player", f"player {p!r} does not exist"))
            continue
        if not _is_node(sh["home"]) or not _is_edge(sh["edge"]):
            out.append((at, "home is an intersection [q, r, \"N\"|\"S\"], edge a path [q, r, \"NE\"|\"E\"|\"SE\"] "
                        "(canonical names)"))
            continue
        sides = [state.hexes.get(h) for h in edge_hexes(tuple(sh["edge"]))]
        if any(t is None for t in sides) or all(t.terrain == "frame" for t in sides):
            out.append((at + "/edge", f"a ship lies on a path of the board (GOLD-020); {edge_str(tuple(sh['edge']))} "
                        "is not one"))
        home = tuple(sh["home"])
        b = state.buildings.get(home)
        if b is None or b[0] != p:
            out.append((at + "/home", f"a ship's home is one of its owner's buildings (GOLD-021); {node_str(home)} "
                        f"holds {'nothing' if b is None else 'player %d' % b[0] + chr(39) + 's ' + b[1]}"))
            continue
        if fc and home not in fc:
            out.append((at + "/home", f"a ship's home stands on the front coast (GOLD-021); {node_str(home)} does not"))
        homed[home] = homed.get(home, 0) + 1
        if homed[home] > max(SHIP_CAPACITY.values()):   # capacity is checked when a ship is built, and a
            out.append((at + "/home", f"a building homes at most {max(SHIP_CAPACITY.values())} ships "   # city
                        "(GOLD-022; a city reduced to a settlement keeps its ships, R-044)"))   # losing a level keeps them
        c = sh.get("cargo", 0)
        if type(c) is not int or not 0 <= c <= CARGO_MAX:
            out.append((at + "/cargo", f"a ship carries 0 to {CARGO_MAX} gold (GOLD-030)"))
        m, ext, new = sh.get("moved", 0), sh.get("extended", False), sh.get("built", False)
        if type(m) is not int or not 0 <= m <= (4 if ext else 2):
            out.append((at + "/moved", "spaces moved this turn: 0-2, or 0-4 with the extension (GOLD-024/025)"))
        if type(new) is not bool or type(ext) is not bool:
            out.append((at, "built and extended are true or false"))
    return out


def largest_fleet(counts: list[int], holder: Optional[int]) -> Optional[int]:
    """GOLD-037, R-041: taken with at least 2 ships and strictly more than everyone; the holder keeps it
    while nobody has more; if someone has more, it goes to the strict leader or to nobody.

    >>> largest_fleet([2, 1, 0], None), largest_fleet([2, 2, 0], 0), largest_fleet([2, 3, 3], 0)
    (0, 0, None)
    """
    best = max(counts, default=0)
    if holder is not None and 0 <= holder < len(counts) and counts[holder] >= best and best >= LARGEST_FLEET_MIN:
        return holder
    leaders = [p for p, n in enumerate(counts) if n == best]
    if best >= LARGEST_FLEET_MIN and len(leaders) == 1:
        return leaders[0]
    return None


def front_coast_distances(state: State, graph: MapGraph) -> dict[Node, Optional[int]]:
    """GOLD-034 / R-031: per front-coast site, the spaces from its docks to the nearest gold dock."""
    return {n: site_gold_distance(graph, n) for n in front_coast(state, graph)}


__all__ = ["Gold", "largest_fleet", "front_coast_distances", "MAP_3P", "MAP_4P", "FRONT_COAST", "START_GOLD"]
