"""Building blocks for scenario hooks: set-up areas, coastal set-up ships, first-settlement special
victory points per island, and exploration of hidden hexes.

Each helper takes the rule ID to cite, so a scenario's hook reads as its rule:
``return setup_area_violations(ctx, {mainland_of(ctx.state)}, "SC01-004", "the mainland")``.
Scenario data lives in ``State.scenario_state`` (JSON values):

- ``islands``: island name -> ``[[q, r], ...]`` (map-tagged regions, R-018); ``mainland``: a name;
- ``home_islands``: ``{"<player>": [island, ...]}``, recorded when set-up ends (R-018);
- ``island_svp``: ``{"<player>": {island: [q, r, corner]}}``: which first settlement earned the
  special victory points of an island (R-018: recorded per player and island, SEA-020);
- ``hex_pile`` / ``token_pile``: face-down piles, top first (R-005); ``revealed``: ``[[q, r, terrain,
  number], ...]`` the hexes discovered so far;
- ``faces_island``: ``{"q,r": true|false}`` overrides R-017's inner/outer sea per sea hex.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping, Optional

from ..core import Ctx, Violation
from ..geometry import Edge, Hex, Node, edge_hexes, edge_nodes, hex_neighbours, hex_str, node_edges, node_hexes, node_str
from ..islands import island_map, islands_of_node, land_components
from ..mapgraph import LAND, RESOURCE_OF, TERRAINS
from ..module import EventSpec
from ..spec import HEX, PLAYER, F, Int, List, Map, Obj, Str, by_player
from ..rng import Rng
from ..state import State, Tile
from ..svp import award_svp

# -- islands ---------------------------------------------------------------------------------------


def mainland_of(state: State) -> str:
    """R-018: the island named ``scenario_state["mainland"]``, else the largest land component's name."""
    name = (state.scenario_state or {}).get("mainland")
    if name:
        return name
    imap = island_map(state)
    comps = land_components(state.hexes)
    if not comps:
        return ""
    biggest = max(comps, key=len)          # the first (north-westernmost) of the largest
    return imap[min(biggest, key=lambda h: (h[1], h[0]))]


def player_islands(state: State, player: int, imap: Optional[dict[Hex, str]] = None,
                   exclude: Optional[Node] = None) -> set[str]:
    """The islands on which ``player`` has a settlement or city (other than on ``exclude``)."""
    imap = island_map(state) if imap is None else imap
    out: set[str] = set()
    for n, (p, _kind) in state.buildings.items():
        if p == player and n != exclude:
            out |= islands_of_node(state, n, imap)
    return out


def home_islands(state: State, player: int, imap: Optional[dict[Hex, str]] = None) -> set[str]:
    """R-018: the islands holding the player's starting settlements (recorded when set-up ends). A
    posted state without the record: the islands of the player's buildings that carry no special
    victory point token (a first settlement on an unknown island always carries one)."""
    rec = (state.scenario_state or {}).get("home_islands") or {}
    if str(player) in rec:
        return set(rec[str(player)])
    imap = island_map(state) if imap is None else imap
    out: set[str] = set()
    for n, (p, _kind) in state.buildings.items():
        if p == player and not state.svp_attached.get(n):
            out |= islands_of_node(state, n, imap)
    return out


def record_home_islands(ctx: Ctx, s: State) -> None:
    """R-018: when set-up ends, fix every player's home islands in ``scenario_state``."""
    if ctx.state.phase != "setup" or s.phase == "setup":
        return
    imap = island_map(s)
    s.scenario_state["home_islands"] = {
        str(p): sorted(player_islands(s, p, imap)) for p in range(s.num_players)}
    ctx.emit("home_islands", islands=s.scenario_state["home_islands"])


# -- set-up rules ----------------------------------------------------------------------------------


def setup_area_violations(ctx: Ctx, allowed: Iterable[str], rule: str, where: str) -> list[Violation]:
    """A starting settlement must stand on one of the ``allowed`` islands (``rule``: e.g. SC01-004)."""
    s, a = ctx.state, ctx.action
    if s.phase != "setup" or a.type != "build_settlement":
        return []
    node = tuple(a.get("node"))
    on = islands_of_node(s, node)
    if on & set(allowed):
        return []
    return [Violation(rule, f"starting settlements must be placed on {where}; {node_str(node)} is "
                      f"{'on ' + ', '.join(sorted(on)) if on else 'not on land'}", "/action/node")]


def faces_island(state: State, h: Hex) -> bool:
    """R-017/R-102: a sea hex faces other islands unless it touches a frame hex (the outer sea ring);
    ``scenario_state["faces_island"]["q,r"]`` overrides it per hex."""
    override = ((state.scenario_state or {}).get("faces_island") or {}).get(hex_str(h))
    if override is not None:
        return bool(override)
    return not any(state.hexes.get(m, Tile("frame")).terrain == "frame" for m in hex_neighbours(h))


def ship_edges_at(ctx: Ctx, node: Node) -> list[Edge]:
    """Free edges at ``node`` where a set-up ship could go (SEA-007, SEA-010, SEA-032)."""
    s, g = ctx.state, ctx.graph
    out = []
    for e in node_edges(node):
        eid = g.edge_index.get(e)
        if eid is None or g.edge_kind[eid] not in ("sea", "coast"):
            continue
        if e in s.roads or e in s.ships or (s.pirate is not None and s.pirate in edge_hexes(e)):
            continue
        out.append(e)
    return out


def coastal_setup_ship_violations(ctx: Ctx, rule: str) -> list[Violation]:
    """R-017: a starting settlement on a coast facing another island takes a ship, not a road
    (``rule``: SC02-004 / SC03-004); board-edge coasts keep the SEA-026 choice; with no legal ship
    edge (the pirate) a road is allowed."""
    s, a = ctx.state, ctx.action
    if s.phase != "setup" or a.type != "build_road" or s.setup.last_settlement is None:
        return []
    node = tuple(s.setup.last_settlement)
    inner = [h for h in node_hexes(node) if s.hexes.get(h, Tile("frame")).terrain == "sea" and faces_island(s, h)]
    if not inner or not ship_edges_at(ctx, node):
        return []
    return [Violation(rule, f"the starting settlement at {node_str(node)} lies on a coast facing another island "
                      f"(sea {', '.join(hex_str(h) for h in inner)}): it takes a ship instead of a road",
                      "/action")]


# -- special victory points for first settlements -------------------------------------------------


def _record_island_svp(s: State, player: int, island: str, node: Node) -> None:
    rec = s.scenario_state.setdefault("island_svp", {}).setdefault(str(player), {})
    rec[island] = list(node)


def islands_with_svp(state: State, player: int) -> set[str]:
    return set(((state.scenario_state or {}).get("island_svp") or {}).get(str(player), {}))


def new_settlement_node(ctx: Ctx) -> Optional[Node]:
    """The node of a settlement built in play (not set-up), else None."""
    if ctx.action.type != "build_settlement" or ctx.state.phase == "setup":
        return None
    return tuple(ctx.action.get("node"))


def award_first_on_island(ctx: Ctx, s: State, counted: set[str], first: int, further: int,
                          rule_first: str, rule_further: str, once: bool = False) -> None:
    """SVP for a player's first settlement on an island of ``counted`` (R-018): ``first`` tokens for
    the first such island, ``further`` for the first settlement on each further one (``once``: only
    one award per player in total, SC01/SC06). Other players' settlements there do not matter."""
    node = new_settlement_node(ctx)
    if node is None:
        return
    p = ctx.action.player
    imap = island_map(s)
    here = sorted(islands_of_node(s, node, imap) & counted)
    if not here:
        return
    island = here[0]
    before = (player_islands(ctx.state, p, imap) | islands_with_svp(ctx.state, p)) & counted
    if island in before:
        return
    if once and before:
        return
    count, rule = (first, rule_first) if not before else (further, rule_further)
    if count <= 0:
        return
    award_svp(ctx, s, p, node, count, reason=f"{rule}: first settlement on island {island}")
    _record_island_svp(s, p, island, node)


# -- exploration of hidden hexes (Oceans; TDE1/TDE2 reuse it) -------------------------------------

#: R-006: what was turned over on each unexplored space a placement reaches, when the table reports it
#: (``ACTION_FIELDS`` of every module with exploration: the types that place a road or ship).
DISCOVERIES = F(List(Obj({"terrain": F(Str(tuple(sorted(TERRAINS - {"frame", "unknown"}))), required=True),
                          "number": F(Int(2, 12), nullable=True)}), max_len=12), nullable=True,
                doc="R-006: the hexes turned over, in reveal order, as observed; left out, drawn from the piles")
EXPLORING_ACTIONS = ("build_road", "build_ship", "move_ship", "play_road_building")
#: The event :func:`explore` emits (``EVENTS`` of every module with exploration).
DISCOVERED = EventSpec("discovered", {
    "player": F(PLAYER, required=True), "hex": F(HEX, required=True), "terrain": F(Str(max_len=20), required=True),
    "number": F(Int(2, 12), nullable=True), "reward": F(Map(Int(0, 10)), required=True),
    "rule": F(Str(max_len=20), required=True), "reveal_rule": F(Str(max_len=20), required=True)},
    "An unexplored hex was turned over (R-006) and what it paid.")
#: The event :func:`record_home_islands` emits.
HOME_ISLANDS = EventSpec("home_islands", {"islands": F(by_player(List(Str(max_len=40), max_len=60)), required=True)},
                         "Set-up is over: each player's home islands are fixed (R-018).")


def placed_edges(ctx: Ctx) -> list[Edge]:
    """The edges a road or ship was placed on by this action (a moved ship counts, SEA-016/R-006)."""
    a = ctx.action
    if a.type in ("build_road", "build_ship"):
        return [tuple(a.get("edge"))]
    if a.type == "move_ship":
        return [tuple(a.get("to"))]
    if a.type == "play_road_building":
        return [tuple(p["edge"]) for p in a.get("pieces") or []]
    return []


def hexes_to_reveal(s: State, edges: Iterable[Edge]) -> list[Hex]:
    """R-006: every unknown hex at either endpoint of each placed piece, north to south, west to east."""
    out: list[Hex] = []
    for e in edges:
        found = {h for n in edge_nodes(e) for h in node_hexes(n)
                 if s.hexes.get(h, Tile("frame")).terrain == "unknown"}
        out += [h for h in sorted(found, key=lambda x: (x[1], x[0])) if h not in out]
    return out


def _draw(pool: dict[Any, int], rng: Rng) -> Any:
    held = {k: n for k, n in sorted(pool.items(), key=lambda kv: str(kv[0])) if n > 0}
    if not held:
        return None
    pick = rng.pick_weighted(held, tuple(held))     # one draw, as from the pile laid out in that order
    pool[pick] -= 1
    return pick


def remaining_pile(s: State, hidden: Mapping[str, Any]) -> tuple[dict, dict]:
    """What the face-down piles still hold when the state does not list them: the table's hidden
    hexes and tokens less those already revealed (``scenario_state["revealed"]``)."""
    hexes = dict(hidden.get("hexes", {}))
    tokens = dict(hidden.get("tokens", {}))
    for _q, _r, t, n in (s.scenario_state or {}).get("revealed") or []:
        if hexes.get(t, 0) > 0:
            hexes[t] -= 1
        if n is not None and tokens.get(n, 0) > 0:
            tokens[n] -= 1
    return hexes, tokens


def discovery_violations(ctx: Ctx, hidden: Optional[Mapping[str, Any]], rule: str) -> list[Violation]:
    """Observed reveals given in the action (``discoveries``) must be possible (R-006): no more than the
    unknown hexes the piece reaches, each a terrain the face-down pile still holds, a land hex with a
    token the token pile still holds, sea and desert without one (R-016)."""
    given = list(ctx.action.get("discoveries") or [])
    if not given:
        return []
    s = ctx.state
    targets = hexes_to_reveal(s, placed_edges(ctx))
    if len(given) > len(targets):
        return [Violation(rule, f"the action names {len(given)} discovered hexes but the piece reaches "
                          f"{len(targets)} unexplored one(s)", "/action/discoveries")]
    ss = s.scenario_state or {}
    if "hex_pile" in ss:
        pool_hexes: dict = {}
        for t in ss.get("hex_pile") or []:
            pool_hexes[t] = pool_hexes.get(t, 0) + 1
        pool_tokens: dict = {}
        for n in ss.get("token_pile") or []:
            pool_tokens[n] = pool_tokens.get(n, 0) + 1
    else:
        pool_hexes, pool_tokens = remaining_pile(s, hidden or {})
    for i, g in enumerate(given):
        terrain, number = g.get("terrain"), g.get("number")
        path = f"/action/discoveries/{i}"
        if pool_hexes.get(terrain, 0) <= 0:
            return [Violation(rule, f"the face-down pile holds no {terrain} hex any more", path + "/terrain")]
        pool_hexes[terrain] -= 1
        producing = terrain in LAND and terrain != "desert"
        if producing and number is None:
            return [Violation(rule, f"a discovered {terrain} hex takes a number token from the pile", path + "/number")]
        if not producing and number is not None:
            return [Violation(rule, f"a discovered {terrain} hex takes no number token (R-016)", path + "/number")]
        if number is not None:
            if pool_tokens.get(number, 0) <= 0:
                return [Violation(rule, f"the token pile holds no {number} any more", path + "/number")]
            pool_tokens[number] -= 1
    return []


def explore(ctx: Ctx, s: State, hidden: Optional[Mapping[str, Any]], rules: Mapping[str, str]) -> None:
    """Reveal the unknown hexes a placed road or ship reaches (R-006), one at a time.

    The outcome is, in order of precedence: given in the action (``discoveries``: ``[{"terrain",
    "number"}]``, what the table turned over), the top of ``hex_pile`` / ``token_pile`` in
    ``scenario_state``, or drawn with the game's seeded generator from what the piles still hold
    (``hidden``, the component table's face-down part). A land hex takes a token and gives the
    discoverer 1 card of its resource; sea gives nothing; a desert takes no token and gives nothing
    (R-016). ``rules``: ``{"reveal", "reward", "sea"}`` rule IDs cited in the events."""
    targets = hexes_to_reveal(s, placed_edges(ctx))
    if not targets:
        return
    given = list(ctx.action.get("discoveries") or [])
    ss = s.scenario_state
    rng = Rng(s.rng_seed, s.rng_counter)
    pool_hexes, pool_tokens = remaining_pile(s, hidden or {})
    player = ctx.action.player
    for h in targets:
        found = turn_over(ss, given, pool_hexes, pool_tokens, rng)
        if found is None:
            return                          # pile empty -> nothing
        terrain, number = found
        lay_hex(ctx, s, h, terrain, number)
        reward: dict[str, int] = {}
        res = RESOURCE_OF.get(terrain)
        if res and s.bank.get(res, 0) > 0:
            s.bank[res] -= 1
            s.players[player].resources[res] += 1
            reward = {res: 1}
        rule = rules["reward"] if res else rules["sea"]
        ctx.emit("discovered", player=player, hex=list(h), terrain=terrain, number=number, reward=reward,
                 rule=rule, reveal_rule=rules["reveal"])
    s.rng_counter = rng.counter


def turn_over(ss: dict, given: list, pool_hexes: dict, pool_tokens: dict,
              rng: Rng) -> Optional[tuple[str, Optional[int]]]:
    """R-006: what one unexplored space turns out to be, ``(terrain, number)``, or None when the pile is
    empty: the next observed outcome in ``given`` (taken off the list), else the top of ``hex_pile`` /
    ``token_pile`` in ``ss``, else a draw with ``rng`` from what the piles still hold (``pool_hexes`` /
    ``pool_tokens``, see :func:`remaining_pile`). Sea and desert take no token (R-016)."""
    number: Optional[int] = None
    if given:
        g = given.pop(0)
        terrain, number = g.get("terrain"), g.get("number")
        if "hex_pile" in ss:             # discovery_violations checked the piles hold them
            ss["hex_pile"].remove(terrain)
        if number is not None and "token_pile" in ss:
            ss["token_pile"].remove(number)
    elif "hex_pile" in ss:
        if not ss["hex_pile"]:
            return None
        terrain = ss["hex_pile"].pop(0)
        if terrain in LAND and terrain != "desert" and ss.get("token_pile"):
            number = ss["token_pile"].pop(0)
    else:
        terrain = _draw(pool_hexes, rng)
        if terrain is None:
            return None
        if terrain in LAND and terrain != "desert":
            number = _draw(pool_tokens, rng)
    if terrain not in LAND or terrain == "desert":
        number = None
    return terrain, number


def lay_hex(ctx: Ctx, s: State, h: Hex, terrain: str, number: Optional[int]) -> None:
    """Lay a turned-over hex on its space and record it in ``scenario_state["revealed"]`` (R-006)."""
    s.hexes = {**s.hexes, h: Tile(terrain, number)}   # (a new dict: copies of a state share the board)
    ctx.board_changed = True
    s.scenario_state.setdefault("revealed", []).append([h[0], h[1], terrain, number])
