"""JSettlers2 position saves (``.game.json``, ``SavedGameModel`` versions 2300..2400) read as our state.

The answer is a state in the JSON form ``POST /v1/adjudicate`` takes, with a provenance list for every value
whose mapping is not one-to-one, and what the save itself states about the derived values (its Longest
Road holder, each player's VP) to compare with ours. What a save holds that we do not play (the 6-player
board, fog hexes, a scenario we have not registered, a rule option such as "robber can't return to the
desert") is a :class:`~.problems.RecordProblem` naming the field: never a guess.

Decision D-records-options (the one place it is decided, :func:`check_options`): a JSettlers2 game option is
either read into our state (``PL``, ``VP``, ``SBL``, ``SC``, the scenario's own ``_SC_`` option, ``_BHW`` the
sea board's size, ``PLB`` the 6-player board: its layout is read as posted, and with 5 or 6 players the 5-6
extension referees the game; ``PLP`` switched on is our own rule (the phase only with 5 or 6); ``_VP_ALL`` the standard 10 VP in a
scenario), accepted because nothing we judge from the record depends on it (``BC`` only shapes how the board
was dealt, ``N7`` and ``N7C`` only which dice were rolled, and a record carries its dice; ``UB``/``UBL`` allow
undo, which a save cannot hold) and listed in the provenance, or refused with a 422 naming it: ``RD`` set (the
robber kept off the desert) and ``NT`` set (no trades between players) are house rules we do not play, and so
is every option JSettlers2 keeps for its own tests (``_TESTACT``, ``DEBUG...``, ``_3P``) or does not know.

Decision D-records-two-players (:data:`SEATED`): JSettlers2 plays 2 seats of a 4-seat game by its 3-4 player
rules unchanged (no neutral player, no trade tokens), and our input boundary takes a posted position of 2 players
and referees it by the same base rules (no rule of the base game or Seafarers reads the number of players but
set-up order, which follows the seats): such a save or log is read as it is, the provenance says so.

Decision D-records-deck (:func:`dev_deck`): a save's deck is hidden from the players; our position keeps the
game's cards conserved (the deck holds the game's cards less those in hands and played). A JSettlers2 save can
break that two ways, both kept by its test saves: its debug command ``dev:`` gives a player a card that never
left the deck, and a save written before 2.5 keeps no list of the progress cards played. The hands and played
cards are read as the save states them and the deck is the game's cards less those; the provenance names each
kind whose count in the save's deck differs. A save whose hands and played cards alone hold more of a kind than
the game has is refused (no deck can make it). The derived values compared with the save (VP, Longest Road,
Largest Army) never read the deck.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from . import jsgeometry as g
from .problems import malformed, unsupported

FORMAT = "jsettlers2-save"
#: SavedGameModel versions read here (``modelVersion``): 2300 is the first with this layout, 2400 the last seen.
MODEL_VERSIONS = (2300, 2400)

RESOURCES = {"clay": "brick", "ore": "ore", "sheep": "wool", "wheat": "grain", "wood": "lumber"}
#: JSettlers2 hex types (v1 message encoding and v3) -> our terrains.
TERRAIN_V3 = {1: "hills", 2: "mountains", 3: "pasture", 4: "fields", 5: "forest", 6: "desert", 7: "gold"}
#: ``SOCBoardLayout`` (the v1 message) sends water as 6 and desert as 0, and dice as indexes into this table.
V1_SENT_WATER, V1_SENT_DESERT = 6, 0
V1_DICE = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
PORTS = {0: "3:1", 1: "brick", 2: "ore", 3: "wool", 4: "grain", 5: "lumber"}
DEV_CARDS = {"KNIGHT": "knight", "ROADS": "road_building", "DISC": "year_of_plenty", "MONO": "monopoly",
             "CAP": "victory_point", "MARKET": "victory_point", "UNIV": "victory_point",
             "TEMPLE": "victory_point", "CHAPEL": "victory_point"}
#: JSettlers2 scenarios we play, by (scenario key, players) -> our scenario id.
SCENARIOS = {("SC_4ISL", 3): "SC02", ("SC_4ISL", 4): "SC03"}
#: The scenario option each of those scenarios sets (part of the scenario, not a variant).
SCENARIO_OPTIONS = {"SC_4ISL": {"_SC_SEAC"}}
#: Per-player counts of played progress cards a save may keep among a seat's elements.
PLAYED_ELEMENTS = {"NUM_PLAYED_DEV_CARD_ROADS": "road_building", "NUM_PLAYED_DEV_CARD_DISC": "year_of_plenty",
                   "NUM_PLAYED_DEV_CARD_MONO": "monopoly"}
#: Development card types as numbers (``SavedGameModel`` 2300 writes them so; 0 is JSettlers2's UNKNOWN).
DEV_CARD_NUMBERS = {1: "ROADS", 2: "DISC", 3: "MONO", 4: "CAP", 5: "MARKET", 6: "UNIV", 7: "TEMPLE", 8: "CHAPEL",
                    9: "KNIGHT"}
#: Piece types as numbers (``SavedGameModel`` 2300): JSettlers2's ROAD, SETTLEMENT, CITY, SHIP.
PIECE_NUMBERS = {0: "ROAD", 1: "SETTLEMENT", 2: "CITY", 3: "SHIP"}
#: ``gameState`` values a save is taken in -> (our phase, rolled). 100: JSettlers2's Special Building Phase.
GAME_STATES = {15: ("roll", False), 20: ("main", True), 100: ("special_build", True), 1000: ("game_over", True)}
#: Decision D-records-two-players: the numbers of seated players read (2: see the module text; 5-6: the 5-6
#: extension, switched on by the count).
SEATED = (2, 3, 4, 5, 6)

# Decision D-records-options (see the module text).
OPTIONS_READ = {"PL", "VP", "SBL", "SC", "_BHW", "PLB", "_VP_ALL"}
OPTIONS_IGNORED = {"BC": "only how the board was dealt (clumps broken up)",
                   "N7": "only which dice could be rolled in the first rounds; a record carries its dice",
                   "N7C": "only which dice could be rolled before the first city; a record carries its dice",
                   "UB": "undo of a build or move: a save holds no undo, a log's undo is refused where met",
                   "UBL": "how many undos were allowed"}
#: House rules we do not play: accepted only switched off.
OPTIONS_OFF_ONLY = {"RD": "the robber kept off the desert once moved", "NT": "a game without trades between players"}


def parse_options(text: Any, pointer: str = "/record/gameOptions") -> dict[str, str]:
    if not isinstance(text, str) or len(text) > 2000:
        raise malformed(pointer, "the game options are a string of KEY=value pairs separated by commas")
    out: dict[str, str] = {}
    for part in filter(None, text.split(",")):
        if "=" not in part:
            raise malformed(pointer, f"{part!r} is not KEY=value")
        k, v = part.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _opt_bool(v: str) -> bool:
    return v[:1] == "t"


def _opt_int(v: str, pointer: str, key: str) -> int:
    digits = v[1:] if v[:1] in ("t", "f") else v
    try:
        return int(digits)
    except ValueError:
        raise malformed(pointer, f"option {key}={v!r} is not a number") from None


def check_options(opts: dict[str, str], players: int, pointer: str, provenance: list) -> tuple[str, Optional[int]]:
    """Decision D-records-options: our scenario id and VP target (None: the scenario's) for a game's options,
    or a 422 naming the first option we do not play."""
    scen_key = opts.get("SC")
    sea = _opt_bool(opts.get("SBL", "f")) or scen_key is not None
    allowed_scen_opts = SCENARIO_OPTIONS.get(scen_key or "", set())
    for k, v in opts.items():
        if k in OPTIONS_READ or k in allowed_scen_opts:
            continue
        if k in OPTIONS_IGNORED:
            provenance.append({"field": f"{pointer}/{k}", "value": v, "note": f"accepted: it changes {OPTIONS_IGNORED[k]}"})
            continue
        if k == "PLP":      # read below
            continue
        if k in OPTIONS_OFF_ONLY and not _opt_bool(v):
            continue
        if k in OPTIONS_OFF_ONLY:
            raise unsupported(f"{pointer}/{k}", f"game option {k}={v} is {OPTIONS_OFF_ONLY[k]}, a house rule "
                              "we do not play")
        raise unsupported(f"{pointer}/{k}", f"game option {k}={v} is not one we play"
                          + (f" in scenario {scen_key}" if scen_key else "")
                          + (" (an option JSettlers2 keeps for its own tests)" if k.startswith(("_T", "DEBUG", "_3P"))
                             else ""))
    if scen_key is not None:
        sid = SCENARIOS.get((scen_key, players))
        if sid is None:
            raise unsupported(f"{pointer}/SC", f"scenario {scen_key} with {players} players is not one we play "
                              f"(we read {', '.join(sorted({k for k, _ in SCENARIOS}))})")
        provenance.append({"field": f"{pointer}/SC", "value": scen_key, "note": f"our scenario {sid}"})
    else:
        sid = "seafarers" if sea else "base"
    vp = None
    if "VP" in opts and _opt_bool(opts["VP"]):
        vp = _opt_int(opts["VP"], f"{pointer}/VP", "VP")
    elif scen_key is not None and _opt_bool(opts.get("_VP_ALL", "f")):
        vp = 10
        provenance.append({"field": f"{pointer}/_VP_ALL", "value": opts["_VP_ALL"],
                           "note": "the standard 10 VP to win in place of the scenario's own"})
    # PLP, JSettlers2's "6-player board: Special Building only with 5 or 6 players in the game": on, it is our
    # rule (the phase only with 5 or 6); off (its default), it lets fewer players on the 6-player board build
    # specially, which we do not play: a position not in that phase is read, and the provenance says so.
    if _opt_bool(opts.get("PLB", "f")) and players < 5 and not _opt_bool(opts.get("PLP", "f")):
        provenance.append({"field": f"{pointer}/PLP", "value": opts.get("PLP", "f"), "note": "JSettlers2 lets this "
                           f"game of {players} on the 6-player board build in a Special Building Phase (PLP off"
                           + ("" if "PLP" in opts else ", its default") + "); we do not (the 5-6 extension is for 5 "
                           "or 6 players): a replay from this position has none"})
    if _opt_bool(opts.get("PLB", "f")):
        provenance.append({"field": f"{pointer}/PLB", "value": opts["PLB"], "note": "the 6-player board, read as "
                           "posted" + (" (the 5-6 extension referees a game of 5 or 6)" if players >= 5 else
                                       f" (R-001: any board; {players} players, so not the 5-6 extension)")})
    return sid, vp


def _need(d: Any, key: str, kind: type | tuple, pointer: str) -> Any:
    if not isinstance(d, dict) or key not in d:
        raise malformed(f"{pointer}/{key}", "missing")
    v = d[key]
    if not isinstance(v, kind) or (isinstance(v, bool) and kind in (int, (int,))):
        raise malformed(f"{pointer}/{key}", f"must be {getattr(kind, '__name__', 'of another type')}")
    return v


def _int_list(v: Any, pointer: str, limit: int = 5000) -> list[int]:
    if not isinstance(v, list) or len(v) > limit or not all(type(x) is int for x in v):
        raise malformed(pointer, "must be a list of integers")
    return v


class Board:
    """A JSettlers2 board mapped to ours: hexes, harbours, and the coordinate functions for its encoding."""

    def __init__(self, encoding: int):
        self.encoding = encoding
        self.hexes: dict[tuple[int, int], dict] = {}
        self.harbors: dict[tuple, str] = {}
        self.robber: Optional[tuple[int, int]] = None
        self.pirate: Optional[tuple[int, int]] = None
        self.hex_of: Callable[[int], Optional[tuple]] = g.v1_hex if encoding == 1 else g.v3_hex
        self.node_of: Callable[[int], Optional[tuple]] = g.v1_node if encoding == 1 else g.v3_node
        self.edge_of: Callable[[int], Optional[tuple]] = g.v1_edge if encoding == 1 else g.v3_edge

    def hex(self, c: Any, pointer: str) -> tuple[int, int]:
        h = self.hex_of(c) if type(c) is int else None
        if h is None:
            raise malformed(pointer, f"{c!r} is not a hex coordinate of the v{self.encoding} encoding")
        return h

    def state_hexes(self) -> list[dict]:
        return [{"q": q, "r": r, **t} for (q, r), t in sorted(self.hexes.items(), key=lambda x: (x[0][1], x[0][0]))]


def board_v1(layout: dict, pointer: str, provenance: list) -> Board:
    b = Board(1)
    hl = _int_list(layout.get("hexLayout"), f"{pointer}/hexLayout", 37)
    nl = _int_list(layout.get("numberLayout"), f"{pointer}/numberLayout", 37)
    if len(hl) != 37 or len(nl) != 37:
        raise malformed(f"{pointer}/hexLayout", "the classic board has 37 hexes (hexLayout and numberLayout)")
    for i, (code, h) in enumerate(zip(hl, g.V1_HEXES)):
        at = g.v1_hex(h)
        if code == V1_SENT_WATER or code >= 7:
            b.hexes[at] = {"terrain": "frame"}
            if code >= 7:
                if code <= 12:
                    kind, facing = 0, code - 6
                else:
                    kind, facing = code & 0xF, code >> 4
                if kind not in PORTS or facing not in g.FACINGS:
                    raise malformed(f"{pointer}/hexLayout/{i}", f"{code} is not a port of the v1 encoding")
                b.harbors[g.side_of(at, g.FACINGS[facing])] = PORTS[kind]
            continue
        terrain = "desert" if code == V1_SENT_DESERT else TERRAIN_V3.get(code)
        if terrain is None:
            raise malformed(f"{pointer}/hexLayout/{i}", f"{code} is not a hex type of the v1 encoding")
        tile: dict[str, Any] = {"terrain": terrain}
        if nl[i] >= 0:
            if nl[i] >= len(V1_DICE):
                raise malformed(f"{pointer}/numberLayout/{i}", f"{nl[i]} is not a number index (0..9)")
            tile["number"] = V1_DICE[nl[i]]
        b.hexes[at] = tile
    provenance.append({"field": f"{pointer}/hexLayout", "note": "the 18 water and port hexes of the ring are our "
                       "frame; each port is the harbour on the side it faces (its facing 1..6 = NE, E, SE, SW, W, NW)"})
    provenance.append({"field": f"{pointer}/numberLayout", "note": "number indexes 0..9 read as 2, 3, 4, 5, 6, 8, 9, "
                       "10, 11, 12 (the v1 message's table)"})
    rh = layout.get("robberHex")
    if type(rh) is int and rh > 0:
        b.robber = b.hex(rh, f"{pointer}/robberHex")
    return b


#: The 6-player board (encoding v2): its ports' edges and facings, fixed by the encoding (JSettlers2's
#: ``SOCBoard6p``); the layout's ``PL`` gives each one's kind in this order.
V2_PORT_EDGES = (0x07, 0x3A, 0x7C, 0xAC, 0xCA, 0xC7, 0xA3, 0x70, 0x30, 0x00, 0x03)
V2_PORT_FACINGS = (3, 4, 4, 5, 5, 6, 6, 1, 1, 2, 3)
#: v2 port kinds (``SOCBoard`` port types: 0 generic 3:1, 1..5 the 2:1 resources).
V2_PORTS = PORTS


def board_v2(layout: dict, pointer: str, provenance: list) -> Board:
    """The 6-player board (``layout2`` with ``boardEncodingFormat`` 2): the v1 grid and its 37-slot ``HL``/``NL``
    order, with the 30 land hexes of the 5-6 board, ports on fixed edges (``PL``: their kinds) and, unlike
    v1, ``NL`` holding the dice numbers themselves. Every hex beside the land that is not land is our frame."""
    b = Board(1)
    b.encoding = 2
    parts = layout.get("layoutParts")
    if not isinstance(parts, dict):
        raise malformed(f"{pointer}/layoutParts", "missing")
    pp = f"{pointer}/layoutParts"
    for key in parts:
        if key not in ("HL", "NL", "RH", "PL"):
            raise unsupported(f"{pp}/{key}", f"layout part {key!r} is not one of the 6-player board's (HL, NL, RH, PL)")
    hl = _int_list(parts.get("HL"), f"{pp}/HL", 37)
    nl = _int_list(parts.get("NL"), f"{pp}/NL", 37)
    if len(hl) != 37 or len(nl) != 37:
        raise malformed(f"{pp}/HL", "the 6-player board's layout has 37 slots (HL and NL)")
    for i, (code, h) in enumerate(zip(hl, g.V1_HEXES)):
        if code == V1_SENT_WATER:
            continue
        terrain = "desert" if code == V1_SENT_DESERT else TERRAIN_V3.get(code)
        if terrain is None or terrain == "gold":
            raise malformed(f"{pp}/HL/{i}", f"{code} is not a hex type of the v2 encoding")
        tile: dict[str, Any] = {"terrain": terrain}
        if nl[i] >= 0 and terrain != "desert":
            if nl[i] not in V1_DICE:
                raise malformed(f"{pp}/NL/{i}", f"{nl[i]} is not a dice number")
            tile["number"] = nl[i]
        b.hexes[g.v1_hex(h)] = tile
    from ..engine.geometry import hex_neighbours
    for at in list(b.hexes):
        for nb in hex_neighbours(at):
            b.hexes.setdefault(nb, {"terrain": "frame"})
    pl = _int_list(parts.get("PL", []), f"{pp}/PL", len(V2_PORT_EDGES))
    if pl and len(pl) != len(V2_PORT_EDGES):
        raise malformed(f"{pp}/PL", f"the 6-player board has {len(V2_PORT_EDGES)} ports")
    for i, kind in enumerate(pl):
        if kind not in V2_PORTS:
            raise malformed(f"{pp}/PL/{i}", f"{kind} is not a port type (0: 3:1, 1..5: 2:1)")
        e = g.v1_edge(V2_PORT_EDGES[i])
        b.harbors[e] = V2_PORTS[kind]
    provenance.append({"field": pp, "note": "the 6-player board (encoding v2): HL water slots are off the board, "
                       "a frame ring surrounds the 30 land hexes; NL holds dice numbers; each port of PL lies on its "
                       "fixed edge of the encoding (SOCBoard6p's port edges)"})
    rh = parts.get("RH")
    if type(rh) is int and rh > 0:
        b.robber = b.hex(rh, f"{pp}/RH")
    return b


def board_v3(layout: dict, opts: dict[str, str], pointer: str, provenance: list) -> Board:
    b = Board(3)
    if layout.get("boardEncodingFormat") != 3:
        raise unsupported(f"{pointer}/boardEncodingFormat", f"board encoding {layout.get('boardEncodingFormat')!r} "
                          "is not one we read (1: classic 4-player, 3: sea board)")
    parts = layout.get("layoutParts")
    if not isinstance(parts, dict):
        raise malformed(f"{pointer}/layoutParts", "missing")
    pp = f"{pointer}/layoutParts"
    height, width = 16, 18
    if "_BHW" in opts:
        bhw = _opt_int(opts["_BHW"], "/record/gameOptions/_BHW", "_BHW")
        if bhw:
            height, width = bhw >> 8, bhw & 0xFF
    for key in parts:
        if key not in ("LH", "PL", "RH", "PH", "VS", "HL", "NL", "LA"):
            raise unsupported(f"{pp}/{key}", f"layout part {key!r} (a scenario's board feature) is not one we read")
    lh = _int_list(parts.get("LH"), f"{pp}/LH", 3 * 128 * 128)
    if len(lh) % 3:
        raise malformed(f"{pp}/LH", "land hexes come as (hex, type, dice number) triples")
    for i in range(0, len(lh), 3):
        c, t, n = lh[i:i + 3]
        at = b.hex(c, f"{pp}/LH/{i}")
        if t == 8:
            raise unsupported(f"{pp}/LH/{i + 1}", "a fog hex (type 8: hidden until a piece is placed beside it, JSettlers2's fog rule): "
                              "no rule we play for this game reveals a hex (the general Seafarers rules have none)")
        terrain = TERRAIN_V3.get(t)
        if terrain is None:
            raise malformed(f"{pp}/LH/{i + 1}", f"{t} is not a land hex type")
        tile: dict[str, Any] = {"terrain": terrain}
        if n:
            if n not in (2, 3, 4, 5, 6, 8, 9, 10, 11, 12):
                raise malformed(f"{pp}/LH/{i + 2}", f"{n} is not a dice number")
            tile["number"] = n
        b.hexes[at] = tile
    # Water: every in-bounds hex not listed as land (JSettlers2's isHexInBounds: 0 < row < height, 0 < col < width).
    inside = []
    for row in range(1, height, 2):
        for col in range(1, width):
            if g.v3_is_hex(row, col):
                at = g.v3_hex((row << 8) | col)
                inside.append(at)
                b.hexes.setdefault(at, {"terrain": "sea"})
    from ..engine.geometry import hex_neighbours
    for at in inside:
        for nb in hex_neighbours(at):
            if nb not in b.hexes:
                b.hexes[nb] = {"terrain": "frame"}
    provenance.append({"field": f"{pp}/LH", "note": f"land hexes as listed; every other hex of the {height} x {width} "
                       "board is sea, and a frame ring surrounds the board"})
    pl = _int_list(parts.get("PL", []), f"{pp}/PL", 3 * 64)
    if len(pl) % 3:
        raise malformed(f"{pp}/PL", "ports come as n types, n edges, n facings")
    n = len(pl) // 3
    for i in range(n):
        kind, edge, facing = pl[i], pl[n + i], pl[2 * n + i]
        if edge < 0:
            continue      # a port not on the board (movable ports): none of ours
        e = b.edge_of(edge)
        if e is None or kind not in PORTS:
            raise malformed(f"{pp}/PL/{n + i}", f"{edge} is not a port edge of the v3 encoding")
        b.harbors[e] = PORTS[kind]
    if "RH" in parts and type(parts["RH"]) is int and parts["RH"] > 0:
        b.robber = b.hex(parts["RH"], f"{pp}/RH")
    if "PH" in parts and type(parts["PH"]) is int and parts["PH"] > 0:
        b.pirate = b.hex(parts["PH"], f"{pp}/PH")
    if "VS" in parts:
        provenance.append({"field": f"{pp}/VS", "note": "the client's initial view offset: not part of the position"})
    return b


def seat_map(seats: list, pointer: str, first: Any = None) -> list[int]:
    """JSettlers2 seat numbers of the seated players, in turn order from the first player (our player 0
    starts, BASE-SETUP-1): our player i is seat ``seat_map(...)[i]``."""
    out = [i for i, s in enumerate(seats) if isinstance(s, dict) and not s.get("isSeatVacant", False)]
    if len(out) not in SEATED:
        raise unsupported(pointer, f"{len(out)} seated players: we play {SEATED[0]} to {SEATED[-1]}")
    if first in out:
        k = out.index(first)
        out = out[k:] + out[:k]
    return out


def _cards(names: Any, pointer: str) -> dict[str, int]:
    out = {"knight": 0, "road_building": 0, "year_of_plenty": 0, "monopoly": 0, "victory_point": 0}
    if names is None:
        return out
    if not isinstance(names, list) or len(names) > 200:
        raise malformed(pointer, "must be a list of development card names")
    for i, c in enumerate(names):
        if type(c) is int:                  # SavedGameModel 2300: card types as numbers
            c = DEV_CARD_NUMBERS.get(c, c)
        ours = DEV_CARDS.get(c) if isinstance(c, str) else None
        if ours is None:
            raise unsupported(f"{pointer}/{i}", f"{c!r} is not a development card we know "
                              f"({', '.join(sorted(DEV_CARDS))}): JSettlers2 loads a card name it does not know "
                              "as a card of unknown type, which no rule of ours can play or score")
        out[ours] += 1
    return out


def game_of(sid: str, players: int) -> Any:
    """The game a record is read into: our scenario with the expansions its number of players switches on
    (the 5-6 extension for 5 or 6), for its components (deck, resource cards)."""
    from ..engine.scenarios import SCENARIOS, with_expansions
    return with_expansions(SCENARIOS[sid], None, players)


def dev_deck(saved: dict[str, int], players: list[dict], game_deck: dict[str, int], pointer: str,
             provenance: list, large_deck: bool = False) -> dict[str, int]:
    """Decision D-records-deck (see the module text): the game's cards less those in hands and played."""
    out = {}
    for card, total in game_deck.items():
        held = sum(pl[k][card] for pl in players for k in ("dev_cards", "dev_cards_new", "dev_cards_played"))
        if held > total:
            raise unsupported(pointer, f"the players hold and have played {held} {card} cards, more than the {total} "
                              "a game has (cards a debug command gave)")
        out[card] = total - held
        if out[card] != saved.get(card, 0):
            why = (("JSettlers2 deals its 34-card 5-6 deck to any game on the 6-player board" if large_deck else
                    "cards given by JSettlers2's debug command, which never left its deck") if saved.get(card, 0) > out[card]
                   else "cards played that the save does not credit to a player (no list of played cards)")
            provenance.append({"field": pointer, "value": saved.get(card, 0), "note": f"D-records-deck: {card}: "
                               f"{out[card]} in our deck, the {total} of the game less {held} in hands and played; the "
                               f"save's deck holds {saved.get(card, 0)} ({why})"})
    return out


def import_save(save: Any, pointer: str = "/record") -> dict[str, Any]:
    """A JSettlers2 save -> ``{"format", "state", "provenance", "stated", "seats"}`` or a RecordProblem."""
    if not isinstance(save, dict):
        raise malformed(pointer, "a JSettlers2 save is a JSON object")
    version = _need(save, "modelVersion", int, pointer)
    if not MODEL_VERSIONS[0] <= version <= MODEL_VERSIONS[1]:
        raise unsupported(f"{pointer}/modelVersion", f"save model version {version} is not one we read "
                          f"({MODEL_VERSIONS[0]}..{MODEL_VERSIONS[1]})")
    prov: list[dict] = []
    seats = _need(save, "playerSeats", list, pointer)
    if len(seats) > 6:
        raise malformed(f"{pointer}/playerSeats", "at most 6 seats")
    opts = parse_options(_need(save, "gameOptions", str, pointer), f"{pointer}/gameOptions")
    els0 = save.get("elements") if isinstance(save.get("elements"), dict) else {}
    seated = seat_map(seats, f"{pointer}/playerSeats", els0.get("FIRST_PLAYER"))
    if len(seats) not in (4, 6):
        raise malformed(f"{pointer}/playerSeats", f"{len(seats)} seats: a JSettlers2 game has 4 seats (or 6)")
    if len(seated) == 2:
        prov.append({"field": f"{pointer}/playerSeats", "note": "D-records-two-players: 2 seated players, refereed "
                     "by the base rules unchanged (as JSettlers2 plays them)"})
    sid, vp = check_options(opts, len(seated), f"{pointer}/gameOptions", prov)
    gs = _need(save, "gameState", int, pointer)
    if gs not in GAME_STATES:
        raise unsupported(f"{pointer}/gameState", f"game state {gs} is not one we map (15: before the roll, "
                          "20: after it, 1000: over)")
    phase, rolled = GAME_STATES[gs]
    info = _need(save, "boardInfo", dict, pointer)
    if "layout1" in info:
        if sid != "base":
            raise unsupported(f"{pointer}/boardInfo/layout1", "a classic board in a sea game")
        board = board_v1(_need(info, "layout1", dict, f"{pointer}/boardInfo"), f"{pointer}/boardInfo/layout1", prov)
    elif "layout2" in info:
        lay = _need(info, "layout2", dict, f"{pointer}/boardInfo")
        if lay.get("boardEncodingFormat") == 2:
            if sid != "base":
                raise unsupported(f"{pointer}/boardInfo/layout2", "the classic 6-player board in a sea game")
            board = board_v2(lay, f"{pointer}/boardInfo/layout2", prov)
        else:
            board = board_v3(lay, opts, f"{pointer}/boardInfo/layout2", prov)
    else:
        raise malformed(f"{pointer}/boardInfo", "holds neither layout1 nor layout2")
    els = save.get("elements") or {}
    if not isinstance(els, dict):
        raise malformed(f"{pointer}/elements", "must be an object")

    def ours(seat: Any, field: str) -> Optional[int]:
        if seat is None or seat == -1:
            return None
        if type(seat) is not int or seat not in seated:
            raise malformed(f"{pointer}/elements/{field}", f"seat {seat!r} is not a seated player")
        return seated.index(seat)

    from ..engine.geometry import edge_hexes, node_hexes
    from ..engine.mapgraph import LAND
    land = {h for h, t in board.hexes.items() if t["terrain"] in LAND}
    players, buildings, roads, ships = [], {"settlements": [], "cities": []}, [], []
    stated_vp = []
    for p, seat in enumerate(seated):
        sp = f"{pointer}/playerSeats/{seat}"
        s = seats[seat]
        res = _need(s, "resources", dict, sp)
        resources = {}
        for k, v in res.items():
            if k not in RESOURCES:
                raise unsupported(f"{sp}/resources/{k}", f"{k!r} is not a resource we play")
            if type(v) is not int or v < 0:
                raise malformed(f"{sp}/resources/{k}", "must be a count")
            resources[RESOURCES[k]] = v
        e = _need(s, "elements", dict, sp)
        supply = {"settlements": e.get("SETTLEMENTS", 0), "cities": e.get("CITIES", 0), "roads": e.get("ROADS", 0),
                  "ships": e.get("SHIPS", 0)}
        for k, v in supply.items():
            if type(v) is not int or v < 0:
                raise malformed(f"{sp}/elements", f"{k} left must be a count")
        played = _cards(s.get("playedDevCards"), f"{sp}/playedDevCards")
        if s.get("playedDevCards") is None:     # counts kept as elements instead (or none played)
            for key, card in PLAYED_ELEMENTS.items():
                v = e.get(key, 0)
                if type(v) is not int or v < 0:
                    raise malformed(f"{sp}/elements/{key}", "must be a count")
                played[card] = v
        knights = e.get("NUMKNIGHTS", 0)
        if type(knights) is not int or knights < 0:
            raise malformed(f"{sp}/elements/NUMKNIGHTS", "must be a count")
        played["knight"] = knights
        player: dict[str, Any] = {"resources": resources, "supply": supply,
                                  "dev_cards": _cards(s.get("oldDevCards"), f"{sp}/oldDevCards"),
                                  "dev_cards_new": _cards(s.get("newDevCards"), f"{sp}/newDevCards"),
                                  "dev_cards_played": played}
        svp = e.get("SCENARIO_SVP", 0)
        if svp:
            player["svp"] = svp
        players.append(player)
        stated_vp.append(s.get("totalVP"))
        pieces = _need(s, "pieces", list, sp)
        if len(pieces) > 200:
            raise malformed(f"{sp}/pieces", "at most 200 pieces")
        for i, pc in enumerate(pieces):
            pt = f"{sp}/pieces/{i}"
            kind = pc.get("pieceType") if isinstance(pc, dict) else None
            if type(kind) is int:             # SavedGameModel 2300: piece types as numbers
                kind = PIECE_NUMBERS.get(kind, kind)
            c = pc.get("coord") if isinstance(pc, dict) else None
            if type(c) is not int:
                raise malformed(f"{pt}/coord", "must be an integer coordinate")
            if kind in ("SETTLEMENT", "CITY"):
                n = board.node_of(c)
                if n is None:
                    raise malformed(f"{pt}/coord", f"{c} is not a node of the v{board.encoding} encoding")
                if not any(h in land for h in node_hexes(n)):
                    raise unsupported(f"{pt}/coord", f"a {kind.lower()} at {c:#x} (our {list(n)}) touches no land hex")
                buildings["settlements" if kind == "SETTLEMENT" else "cities"].append({"player": p, "node": list(n)})
            elif kind in ("ROAD", "SHIP"):
                ed = board.edge_of(c)
                if ed is None:
                    raise malformed(f"{pt}/coord", f"{c} is not an edge of the v{board.encoding} encoding")
                if not all(h in board.hexes for h in edge_hexes(ed)):
                    raise unsupported(f"{pt}/coord", f"a {kind.lower()} at {c:#x} (our {list(ed)}) is off the board")
                (roads if kind == "ROAD" else ships).append({"player": p, "edge": list(ed)})
            else:
                raise unsupported(f"{pt}/pieceType", f"piece {kind!r} is not one we play")
    game = game_of(sid, len(seated))
    deck = dev_deck(_cards(save.get("devCardDeck", []), f"{pointer}/devCardDeck"), players, game.dev_deck,
                    f"{pointer}/devCardDeck", prov, large_deck=len(seats) == 6 and len(seated) < 5)
    total = game.resource_count
    bank = {r: total - sum(pl["resources"].get(r, 0) for pl in players) for r in RESOURCES.values()}
    for r, v in bank.items():
        if v < 0:
            raise unsupported(f"{pointer}/playerSeats", f"the players hold {total - v} {r}: more than the {total} "
                              "cards there are")
    prov.append({"field": f"{pointer}/playerSeats", "note": f"the bank is {total} of each resource less the players' hands "
                 "(a save does not hold it)"})
    prov.append({"field": f"{pointer}/playerSeats", "note": "our players " + ", ".join(
        f"{i} = seat {s}" + (f" ({seats[s].get('name')})" if seats[s].get("name") else "") for i, s in enumerate(seated))})
    cur = ours(els.get("CURRENT_PLAYER"), "CURRENT_PLAYER")
    rounds = els.get("ROUND_COUNT", 1)
    if type(rounds) is not int or rounds < 0:
        raise malformed(f"{pointer}/elements/ROUND_COUNT", "must be a count")
    prov.append({"field": f"{pointer}/elements/ROUND_COUNT", "value": rounds,
                 "note": "our turn counter is the round count (a save holds no turn count)"})
    state: dict[str, Any] = {
        "scenario": sid,
        "board": {"hexes": board.state_hexes(),
                  "harbors": [{"edge": list(e), "kind": k} for e, k in sorted(board.harbors.items())]},
        "players": players,
        "pieces": {"settlements": buildings["settlements"], "cities": buildings["cities"], "roads": roads,
                   "ships": ships},
        "robber": list(board.robber) if board.robber else None,
        "pirate": list(board.pirate) if board.pirate else None,
        "bank": bank, "dev_deck": deck,
        "phase": phase, "current_player": cur if cur is not None else 0,
        "turn": rounds,
        "turn_flags": {"rolled": rolled},
        "awards": {"longest_road": ours(els.get("LONGEST_ROAD_PLAYER"), "LONGEST_ROAD_PLAYER"),
                   "largest_army": ours(els.get("LARGEST_ARMY_PLAYER"), "LARGEST_ARMY_PLAYER")},
    }
    if vp is not None:
        state["vp_target"] = vp
    if phase == "special_build":
        ended = ours(els.get("SPECIAL_BUILDING_AFTER_PLAYER"), "SPECIAL_BUILDING_AFTER_PLAYER")
        if ended is None or len(seated) < 5:
            raise unsupported(f"{pointer}/gameState", "a Special Building Phase outside a game of 5 or 6 players "
                              "or without the player whose turn ended (SPECIAL_BUILDING_AFTER_PLAYER)")
        state["scenario_state"] = {"special_build": {"ended": ended}}
        prov.append({"field": f"{pointer}/elements/SPECIAL_BUILDING_AFTER_PLAYER", "value": els.get(
            "SPECIAL_BUILDING_AFTER_PLAYER"), "note": "the Special Building Phase after this player's turn; the slot "
            "is CURRENT_PLAYER's. Every later player has a slot (the 5-6 extension's phase), asked for or not (JSettlers2 gives "
            "slots only to those who asked, ASK_SPECIAL_BUILD)"})
    if phase == "game_over":
        state["winner"] = state["current_player"]
        prov.append({"field": f"{pointer}/gameState", "value": gs,
                     "note": "the game is over: the winner is the player whose turn it is (JSettlers2 ends the game "
                             "on the winner's turn)"})
    if save.get("currentDice") in range(2, 13) and rolled:
        prov.append({"field": f"{pointer}/currentDice", "value": save["currentDice"],
                     "note": "the last roll's sum (a save does not hold the two dice)"})
    stated = {"longest_road": state["awards"]["longest_road"], "largest_army": state["awards"]["largest_army"],
              "vp": stated_vp}
    return {"format": FORMAT, "state": state, "provenance": prov, "stated": stated,
            "source": {"game": save.get("gameName"), "model_version": version,
                       "saved_by_version": save.get("savedByVersion"), "seats": seated}}

