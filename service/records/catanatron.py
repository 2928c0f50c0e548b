"""catanatron's game JSON (``catanatron.json.GameEncoder``, catanatron 3.x) read as our initial position and
action list.

catanatron names hexes by cube coordinates ``(x, y, z)`` (``x + y + z = 0``) with pointy-top hexes, its
``EAST`` unit vector ``(1, -1, 0)`` and ``NORTHEAST`` ``(1, 0, -1)``: our axial ``[q, r]`` is ``[x, z]``. Its
nodes and edges are integers and pairs of integers; the JSON names each node by one tile and a corner
(``NORTH`` .. ``NORTHWEST``) and each edge by one tile and a side (``EAST`` .. ``NORTHEAST``), which map to our
canonical names; every edge is checked to join the two nodes its id names.

Its actions (``[color, type, value]``, the log form with chance outcomes filled in: the dice, the stolen
card, the bought card, the discarded cards) map to ours one to one, except two that catanatron splits in
two steps and we judge as one action: ``PLAY_KNIGHT_CARD`` with the ``MOVE_ROBBER`` after it is our
``play_knight``; ``PLAY_ROAD_BUILDING`` with the free ``BUILD_ROAD``s after it is our ``play_road_building``.
Each of our actions keeps the index of its first catanatron action (``sources``).
"""
from __future__ import annotations

from typing import Any

from ..engine.geometry import canonical_edge, canonical_node, edge_nodes
from .problems import malformed, unsupported

FORMAT = "catanatron"
RESOURCES = {"WOOD": "lumber", "BRICK": "brick", "SHEEP": "wool", "WHEAT": "grain", "ORE": "ore"}
TERRAINS = {"WOOD": "forest", "BRICK": "hills", "SHEEP": "pasture", "WHEAT": "fields", "ORE": "mountains"}
CORNERS = {"NORTH": "N", "NORTHEAST": "NE", "SOUTHEAST": "SE", "SOUTH": "S", "SOUTHWEST": "SW", "NORTHWEST": "NW"}
SIDES = {"EAST": "E", "SOUTHEAST": "SE", "SOUTHWEST": "SW", "WEST": "W", "NORTHWEST": "NW", "NORTHEAST": "NE"}
CARDS = {"KNIGHT": "knight", "YEAR_OF_PLENTY": "year_of_plenty", "MONOPOLY": "monopoly",
         "ROAD_BUILDING": "road_building", "VICTORY_POINT": "victory_point"}
MAX_ACTIONS = 20_000


def _name(v: Any, table: dict) -> Any:
    """``table[v]`` for a name in it; None for anything else (another name, a number, a list)."""
    return table.get(v) if isinstance(v, str) else None


def _cube(v: Any, pointer: str) -> tuple[int, int]:
    if not isinstance(v, list) or len(v) != 3 or not all(type(x) is int and abs(x) <= 64 for x in v) or sum(v) != 0:
        raise malformed(pointer, "a cube coordinate is three integers adding up to 0")
    return (v[0], v[2])


def _res(v: Any, pointer: str) -> str:
    r = RESOURCES.get(v) if isinstance(v, str) else None
    if r is None:
        raise malformed(pointer, f"{v!r} is not a resource ({', '.join(RESOURCES)})")
    return r


def looks_like(record: Any) -> bool:
    return isinstance(record, dict) and "tiles" in record and "actions" in record and "player_state" in record


def import_game(game: Any, pointer: str = "/record") -> dict[str, Any]:
    """catanatron game JSON -> ``{"format", "initial", "actions", "sources", "stated", "provenance"}``."""
    from ..api.codec import dump_state   # (the JSON form of a state; pure functions)
    from ..engine.scenarios import start_game
    if not looks_like(game):
        raise malformed(pointer, "a catanatron game JSON has tiles, nodes, edges, actions and player_state")
    colors = game.get("colors")
    if not isinstance(colors, list) or not all(isinstance(c, str) for c in colors):
        raise malformed(f"{pointer}/colors", "must be a list of colour names")
    if not 3 <= len(colors) <= 4:
        raise unsupported(f"{pointer}/colors", f"{len(colors)} players: we play 3 or 4")
    player_of = {c: i for i, c in enumerate(colors)}
    prov: list[dict] = [{"field": f"{pointer}/colors", "note": "our players " + ", ".join(
        f"{i} = {c}" for i, c in enumerate(colors)) + " (catanatron's seating order)"}]
    hexes: dict[tuple[int, int], dict] = {}
    harbors: dict[tuple, str] = {}
    desert = None
    tiles = game["tiles"]
    if not isinstance(tiles, list) or len(tiles) > 200:
        raise malformed(f"{pointer}/tiles", "must be a list of at most 200 tiles")
    for i, t in enumerate(tiles):
        tp = f"{pointer}/tiles/{i}"
        if not isinstance(t, dict) or not isinstance(t.get("tile"), dict):
            raise malformed(tp, "a tile is {coordinate, tile}")
        at = _cube(t.get("coordinate"), f"{tp}/coordinate")
        tile = t["tile"]
        kind = tile.get("type")
        if kind == "RESOURCE_TILE":
            terrain = _name(tile.get("resource"), TERRAINS)
            if terrain is None or tile.get("number") not in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
                raise malformed(f"{tp}/tile", "a resource tile has a resource and a number")
            hexes[at] = {"terrain": terrain, "number": tile["number"]}
        elif kind == "DESERT":
            hexes[at] = {"terrain": "desert"}
            desert = at
        elif kind in ("WATER", "PORT"):
            hexes[at] = {"terrain": "frame"}
            if kind == "PORT":
                side = _name(tile.get("direction"), SIDES)
                if side is None:
                    raise malformed(f"{tp}/tile/direction", "not a direction")
                harbors[canonical_edge(at[0], at[1], side)] = (
                    "3:1" if tile.get("resource") is None else _res(tile.get("resource"), f"{tp}/tile/resource"))
        else:
            raise unsupported(f"{tp}/tile/type", f"tile type {kind!r} is not one we know")
    nodes: dict[int, tuple] = {}
    raw_nodes = game.get("nodes")
    if not isinstance(raw_nodes, dict) or len(raw_nodes) > 1000:
        raise malformed(f"{pointer}/nodes", "must be an object of at most 1000 nodes")
    for k, n in raw_nodes.items():
        np_ = f"{pointer}/nodes/{k}"
        if not isinstance(n, dict) or _name(n.get("direction"), CORNERS) is None:
            raise malformed(np_, "a node has a tile_coordinate and a direction (NORTH .. NORTHWEST)")
        at = _cube(n.get("tile_coordinate"), f"{np_}/tile_coordinate")
        try:
            nodes[int(k)] = canonical_node(at[0], at[1], CORNERS[n["direction"]])
        except ValueError:
            raise malformed(np_, "node ids are integers") from None
    edges: dict[tuple[int, int], tuple] = {}
    raw_edges = game.get("edges")
    if not isinstance(raw_edges, list) or len(raw_edges) > 2000:
        raise malformed(f"{pointer}/edges", "must be a list of at most 2000 edges")
    for i, e in enumerate(raw_edges):
        ep = f"{pointer}/edges/{i}"
        if not isinstance(e, dict) or _name(e.get("direction"), SIDES) is None:
            raise malformed(ep, "an edge has an id, a tile_coordinate and a direction (EAST .. NORTHEAST)")
        eid = e.get("id")
        if not isinstance(eid, list) or len(eid) != 2 or not all(type(x) is int for x in eid):
            raise malformed(f"{ep}/id", "an edge id is a pair of node ids")
        at = _cube(e.get("tile_coordinate"), f"{ep}/tile_coordinate")
        ours = canonical_edge(at[0], at[1], SIDES[e["direction"]])
        a, b = nodes.get(eid[0]), nodes.get(eid[1])
        if a is None or b is None or set(edge_nodes(ours)) != {a, b}:
            raise malformed(ep, f"edge {eid} ({SIDES[e['direction']]} side of {list(at)}) does not join its two nodes")
        edges[tuple(sorted(eid))] = ours
    for c, n in nodes.items():
        from ..engine.geometry import node_hexes
        if not any(h in hexes for h in node_hexes(n)):
            raise malformed(f"{pointer}/nodes/{c}", "a node off the board")
    if desert is None:
        raise unsupported(f"{pointer}/tiles", "a board without a desert: the robber's start is not stated")
    state = dump_state(start_game("base", len(colors), 0, None))
    state["board"] = {"hexes": [{"q": q, "r": r, **t} for (q, r), t in sorted(hexes.items(), key=lambda x: (x[0][1], x[0][0]))],
                      "harbors": [{"edge": list(e), "kind": k} for e, k in sorted(harbors.items())]}
    state["robber"] = list(desert)
    # catanatron pays nobody a resource the bank cannot pay in full, even when one player is owed it: the
    # 4th-edition rule, our variant BASE-VAR-BANK-STRICT (BASE-ED-3), played as catanatron plays it
    state["options"] = {"BASE-VAR-BANK-STRICT": True}
    prov.append({"field": pointer, "note": "judged with BASE-VAR-BANK-STRICT: catanatron's bank pays nobody a "
                 "resource it cannot pay in full (the 4th-edition rule, no single-player exception)"})
    prov.append({"field": f"{pointer}/tiles", "note": "water and port tiles are our frame; each port is the harbour on "
                 "the side its direction names; the robber starts on the desert"})
    actions, sources, left_out = convert_actions(game["actions"], player_of, nodes, edges, f"{pointer}/actions")
    for x in left_out:
        prov.append({"field": f"{pointer}/actions/{x['source']}", "value": x["action"], "note": x["detail"]})
    stated = stated_values(game, colors, pointer)
    return {"format": FORMAT, "initial": state, "actions": actions, "sources": sources, "stated": stated,
            "provenance": prov}


def stated_values(game: dict, colors: list, pointer: str) -> dict[str, Any]:
    ps = game.get("player_state")
    if not isinstance(ps, dict):
        raise malformed(f"{pointer}/player_state", "must be an object")
    vp, road, army, lengths = [], None, None, []
    for i in range(len(colors)):
        vp.append(ps.get(f"P{i}_ACTUAL_VICTORY_POINTS"))
        lengths.append(ps.get(f"P{i}_LONGEST_ROAD_LENGTH"))
        if ps.get(f"P{i}_HAS_ROAD"):
            road = i
        if ps.get(f"P{i}_HAS_ARMY"):
            army = i
    win = game.get("winning_color")
    return {"vp": vp, "longest_road": road, "largest_army": army, "road_lengths": lengths,
            "winner": colors.index(win) if win in colors else None}


def convert_actions(raw: Any, player_of: dict, nodes: dict, edges: dict, pointer: str
                    ) -> tuple[list[dict], list[int], list[dict]]:
    """Our actions, the index of each one's first catanatron action, and what was left out (said why)."""
    if not isinstance(raw, list) or len(raw) > MAX_ACTIONS:
        raise malformed(pointer, f"must be a list of at most {MAX_ACTIONS} actions")
    out: list[dict] = []
    sources: list[int] = []
    i = 0
    left_out: list[dict] = []

    def parts(j: int) -> tuple[int, str, Any]:
        a = raw[j]
        if not isinstance(a, list) or len(a) != 3 or not isinstance(a[1], str):
            raise malformed(f"{pointer}/{j}", "an action is [color, type, value]")
        if not isinstance(a[0], str) or a[0] not in player_of:
            raise malformed(f"{pointer}/{j}/0", f"{a[0]!r} is not a colour of this game")
        return player_of[a[0]], a[1], a[2]

    def node(v: Any, j: int) -> list:
        n = nodes.get(v) if type(v) is int else None
        if n is None:
            raise malformed(f"{pointer}/{j}/2", f"{v!r} is not a node of this board")
        return list(n)

    def edge(v: Any, j: int) -> list:
        e = edges.get(tuple(sorted(v))) if isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v) else None
        if e is None:
            raise malformed(f"{pointer}/{j}/2", f"{v!r} is not an edge of this board")
        return list(e)

    def robber(v: Any, j: int) -> dict:
        if not isinstance(v, list) or len(v) != 3:
            raise malformed(f"{pointer}/{j}/2", "a robber move is [coordinate, victim, card]")
        d: dict[str, Any] = {"hex": list(_cube(v[0], f"{pointer}/{j}/2/0"))}
        if v[1] is not None:
            if not isinstance(v[1], str) or v[1] not in player_of:
                raise malformed(f"{pointer}/{j}/2/1", f"{v[1]!r} is not a colour of this game")
            d["steal_from"] = player_of[v[1]]
            if v[2] is not None:
                d["card"] = _res(v[2], f"{pointer}/{j}/2/2")
        return d

    while i < len(raw):
        p, t, v = parts(i)
        start = i
        if t == "BUILD_SETTLEMENT":
            a = {"type": "build_settlement", "player": p, "node": node(v, i)}
        elif t == "BUILD_CITY":
            a = {"type": "build_city", "player": p, "node": node(v, i)}
        elif t == "BUILD_ROAD":
            a = {"type": "build_road", "player": p, "edge": edge(v, i)}
        elif t == "ROLL":
            if not isinstance(v, list) or len(v) != 2 or not all(type(x) is int and 1 <= x <= 6 for x in v):
                raise malformed(f"{pointer}/{i}/2", "a roll is two dice 1..6")
            a = {"type": "roll", "player": p, "dice": v}
        elif t == "END_TURN":
            a = {"type": "end_turn", "player": p}
        elif t == "DISCARD":
            if not isinstance(v, list):
                raise malformed(f"{pointer}/{i}/2", "a discard lists the cards discarded")
            res: dict[str, int] = {}
            for k, c in enumerate(v):
                r = _res(c, f"{pointer}/{i}/2/{k}")
                res[r] = res.get(r, 0) + 1
            a = {"type": "discard", "player": p, "resources": res}
        elif t == "MOVE_ROBBER":
            a = {"type": "move_robber", "player": p, **robber(v, i)}
        elif t == "BUY_DEVELOPMENT_CARD":
            card = CARDS.get(v) if isinstance(v, str) else None
            if card is None:
                raise malformed(f"{pointer}/{i}/2", f"{v!r} is not a development card")
            a = {"type": "buy_development_card", "player": p, "card": card}
        elif t == "PLAY_KNIGHT_CARD":
            a = {"type": "play_knight", "player": p}
            p2, t2, v2 = parts(i + 1) if i + 1 < len(raw) else (None, None, None)
            if t2 == "MOVE_ROBBER" and p2 == p:
                i += 1
                a.update(robber(v2, i))
            elif i + 1 == len(raw):
                # catanatron ends the game on the knight that gives Largest Army, before its robber move; our
                # play_knight moves the robber in the same action: the record's last action is left out, and said
                left_out.append({"source": i, "action": raw[i], "detail": "a knight card with no robber move after "
                                 "it ends the record (catanatron ends a game on the card that wins it, before the "
                                 "robber moves); our knight action moves the robber, so the record ends before it"})
                break
            else:
                raise unsupported(f"{pointer}/{i}", "a knight card with no robber move after it")
        elif t == "PLAY_YEAR_OF_PLENTY":
            if not isinstance(v, list) or not 1 <= len(v) <= 2:
                raise malformed(f"{pointer}/{i}/2", "year of plenty names one or two resources")
            res = {}
            for k, c in enumerate(v):
                r = _res(c, f"{pointer}/{i}/2/{k}")
                res[r] = res.get(r, 0) + 1
            a = {"type": "play_year_of_plenty", "player": p, "resources": res}
        elif t == "PLAY_MONOPOLY":
            a = {"type": "play_monopoly", "player": p, "resource": _res(v, f"{pointer}/{i}/2")}
        elif t == "PLAY_ROAD_BUILDING":
            pieces = []
            while len(pieces) < 2 and i + 1 < len(raw):
                p2, t2, v2 = parts(i + 1)
                if t2 != "BUILD_ROAD" or p2 != p:
                    break
                i += 1
                pieces.append({"kind": "road", "edge": edge(v2, i)})
            if not pieces:
                raise unsupported(f"{pointer}/{start}", "road building with no road after it: our action places "
                                  "one or two roads")
            a = {"type": "play_road_building", "player": p, "pieces": pieces}
        elif t == "MARITIME_TRADE":
            if not isinstance(v, list) or len(v) != 5:
                raise malformed(f"{pointer}/{i}/2", "a maritime trade is four offered cards (some null) and the card asked")
            give: dict[str, int] = {}
            for k, c in enumerate(v[:4]):
                if c is not None:
                    r = _res(c, f"{pointer}/{i}/2/{k}")
                    give[r] = give.get(r, 0) + 1
            a = {"type": "maritime_trade", "player": p, "give": give, "get": {_res(v[4], f"{pointer}/{i}/2/4"): 1}}
        else:
            raise unsupported(f"{pointer}/{i}/1", f"action type {t!r} is not one we read")
        out.append(a)
        sources.append(start)
        i += 1
    return out, sources, left_out
