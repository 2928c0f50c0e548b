"""JSettlers2 game event logs (``.soclog``, format version 2500 and later; the STAC corpus's legacy lines)
read as our initial position and action list.

A log is the server's messages in order, each line ``[time:]audience:SOCMessage:key=value|...`` after a
header line ``SOC game event log: type=F|C, version=N, ..., game_name=NAME``. The announcements to everyone
(``all:``) and the private lines that show a hidden outcome to the one who sees it (``pN:``: the card drawn,
the resource stolen) make the actions; the rest (text, prompts, faces, statistics) is skipped, and a message
that changes the game but is not read here is a 422 naming its line: never skipped silently.

Each of our actions keeps the line it was read from (``sources``); hands the log states (``pN:`` SET of a
player's resources) become ``checks`` compared with ours at that step; the scores in the log's closing
comments (``# - pn N: total score V``) become the stated VP at its end.

Decision D-records-dice: a log gives a roll's total only (``SOCDiceResult``); our ``roll`` takes the two
dice. The total is written as the dice ``(t - d, d)`` with ``d = min(6, t - 1)``; the provenance says so.
In the base game and Seafarers no rule reads the dice apart from their total (Cities & Knights' red die
does: such a log is not read).
"""
from __future__ import annotations

import re
from typing import Any, Optional

from . import jsettlers as js
from .problems import RecordProblem, malformed, unsupported

FORMAT = "jsettlers2-soclog"
MIN_VERSION = 2500
MAX_LINES = 500_000
MAX_LINE = 20_000
MAX_ACTIONS = 20_000

HEADER = re.compile(r"^SOC game event log: (?P<fields>.*)$")
# [h:]m:ss.mmm: timestamp (optional), then the audience, the message name and its parameters.
ENTRY = re.compile(r"^(?:(?:\d+:)?\d+:\d\d\.\d{3}:)?(?P<aud>all|ob|un|fo|f\d|p\d|!p\d|!p\[[\d, ]*\]):"
                   r"(?P<msg>SOC[A-Za-z0-9]+):(?P<params>.*)$")
LEGACY = re.compile(r"^\d{4}:\d\d:\d\d:\d\d:\d\d:\d\d:\d{3}:[+-]\d{4}:(?P<msg>SOC[A-Za-z0-9]+):(?P<params>.*)$")
SCORE = re.compile(r"^# - pn (\d+): total score (\d+)")

RES = {1: "brick", 2: "ore", 3: "wool", 4: "grain", 5: "lumber"}
RES_NAMES = {"clay": "brick", "ore": "ore", "sheep": "wool", "wheat": "grain", "wood": "lumber"}
CARD_TYPES = {1: "road_building", 2: "year_of_plenty", 3: "monopoly", 4: "victory_point", 5: "victory_point",
              6: "victory_point", 7: "victory_point", 8: "victory_point", 9: "knight"}
PIECES = {0: "road", 1: "settlement", 2: "city", 3: "ship"}
#: JSettlers2's debug commands a player types (the server gives resources or cards, or changes the board).
DEBUG_COMMANDS = {"rsrcs:", "dev:", "*freeplace*", "*scen*", "*gc*", "*clvi*", "*rev*"}
#: Messages that change nothing we judge (text, prompts, faces, seat locks, statistics, requests a server
#: answers with the messages we do read, hands and counts it restates).
SKIPPED = {
    "SOCGameServerText", "SOCGameTextMsg", "SOCChangeFace", "SOCRollDicePrompt", "SOCClearOffer",
    "SOCDiceResultResources", "SOCPlayerElements", "SOCPlayerElement", "SOCGameElements", "SOCGameState",
    "SOCGameMembers", "SOCJoinGame", "SOCJoinGameAuth", "SOCSetSeatLock", "SOCPotentialSettlements",
    "SOCMakeOffer", "SOCRejectOffer", "SOCClearTradeMsg", "SOCSimpleAction", "SOCSimpleRequest", "SOCPlayerStats",
    "SOCGameStats", "SOCResourceCount", "SOCRollDice", "SOCEndTurn", "SOCBuildRequest", "SOCCancelBuildRequest",
    "SOCBuyDevCardRequest", "SOCPlayDevCardRequest", "SOCChoosePlayer", "SOCChoosePlayerRequest", "SOCDiscardRequest",
    "SOCBotJoinGameRequest", "SOCRobotDismiss", "SOCLeaveGame", "SOCVersion", "SOCStartGame", "SOCLastSettlement",
    "SOCSetPlayedDevCard", "SOCLongestRoad", "SOCLargestArmy", "SOCDevCardCount", "SOCSetTurn", "SOCFirstPlayer",
    "SOCPickResourceType", "SOCGameOptionGetInfos",
}


def _params(text: str) -> list[tuple[str, str]]:
    out = []
    for part in text.split("|"):
        k, _, v = part.partition("=")
        out.append((k, v))
    return out


def _get(params: list[tuple[str, str]], key: str) -> Optional[str]:
    for k, v in params:
        if k == key:
            return v
    return None


def _int(v: Optional[str], line: int, what: str, base: int = 10) -> int:
    try:
        if v is not None and v.startswith("0x"):
            return int(v, 16)
        return int(v, base)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise malformed("/record", f"{what} is not a number ({v!r})", line) from None


def _resource_set(params: list[tuple[str, str]], start_key: str, line: int) -> dict[str, int]:
    """``key=clay=1|ore=0|sheep=0|wheat=0|wood=0|unknown=0`` read from where ``start_key`` begins."""
    out: dict[str, int] = {}
    idx = next((i for i, (k, _) in enumerate(params) if k == start_key), None)
    if idx is None:
        raise malformed("/record", f"no {start_key} resources", line)
    items = [params[idx][1].partition("=")[::2]] + [(k, v) for k, v in params[idx + 1: idx + 6]]
    for k, v in items:
        n = _int(v, line, k)
        if k == "unknown":
            if n:
                raise unsupported("/record", "resources hidden from this log's viewer (unknown)", line)
            continue
        if k not in RES_NAMES:
            raise malformed("/record", f"{k!r} is not a resource", line)
        if n:
            out[RES_NAMES[k]] = n
    return out


def _list(v: Optional[str], line: int, base: int) -> list[int]:
    if v is None or not v.startswith("{") or not v.endswith("}"):
        raise malformed("/record", "a list is written { a b c }", line)
    return [_int(x, line, "a list item", base) for x in v[1:-1].split()]


def parse_header(first: str) -> dict[str, str]:
    m = HEADER.match(first)
    if not m:
        raise malformed("/record", "a game event log starts with 'SOC game event log: type=..., version=...'", 1)
    fields: dict[str, str] = {}
    for part in m.group("fields").split(", "):
        k, eq, v = part.partition("=")
        if not eq:
            raise malformed("/record", f"header field {part!r} is not key=value", 1)
        fields[k] = v
    if "type" not in fields:
        raise malformed("/record", "the header has no type (F: the full log at the server, C: at a client)", 1)
    if fields["type"] not in ("F", "C"):
        raise malformed("/record", f"log type {fields['type']!r} is not F or C", 1)
    if "version" not in fields:
        raise malformed("/record", "the header has no version", 1)
    if not fields["version"].isdigit():
        raise malformed("/record", f"version {fields['version']!r} is not a number", 1)
    if int(fields["version"]) < MIN_VERSION:
        raise unsupported("/record", f"log format version {fields['version']} is older than {MIN_VERSION}, the "
                          "first version of this format", 1)
    name = fields.get("game_name")
    if not name:
        raise malformed("/record", "the header has no game_name", 1)
    if any(c in name for c in "|,"):
        raise malformed("/record", f"game name {name!r} holds a character a game name cannot ('|' or ',')", 1)
    return fields


class _Log:
    def __init__(self) -> None:
        self.actions: list[dict] = []
        self.sources: list[int] = []
        self.checks: list[dict] = []
        self.prov: list[dict] = []
        self.seats: dict[int, str] = {}
        self.players: list[int] = []     # seat numbers in our player order
        self.board: Optional[js.Board] = None
        self.options: Optional[dict[str, str]] = None
        self.scenario: Optional[str] = None
        self.vp: Optional[int] = None
        self.first: Optional[int] = None
        self.started = False
        self.current: Optional[int] = None
        self.main = False         # a turn after set-up has begun
        self.pending: Optional[dict] = None  # a robber move or dev card still taking its parts
        self.scores: dict[int, int] = {}
        self.over = False
        self.sbp: Optional[list[int]] = None   # the Special Building Phase slots to come (5-6 players)

    def p(self, seat: Any, line: int) -> int:
        s = _int(seat, line, "a player number") if not isinstance(seat, int) else seat
        if s not in self.players:
            raise malformed("/record", f"player number {s} is not seated in this game", line)
        return self.players.index(s)

    def add(self, a: dict, line: int) -> None:
        self.flush()
        if len(self.actions) >= MAX_ACTIONS:
            raise unsupported("/record", f"more than {MAX_ACTIONS} actions (a replay takes at most that many)", line)
        self.actions.append(a)
        self.sources.append(line)

    def flush(self) -> None:
        if self.pending is not None:
            a, line = self.pending["action"], self.pending["line"]
            hidden = a.pop("_hidden", None)
            if hidden is not None and a.get("card") is None:
                raise unsupported("/record", "the stolen card is hidden from this log's viewer (only 'unknown' "
                                  "is shown); our action carries it", hidden)
            if a["type"] == "play_year_of_plenty" and a.get("resources") is None:
                raise malformed("/record", "a Year of Plenty without the resources picked", line)
            if a["type"] == "play_monopoly" and a.get("resource") is None:
                raise malformed("/record", "a Monopoly without the resource named", line)
            if a["type"] == "play_knight" and a.get("hex") is None:
                raise malformed("/record", "a Knight without the robber's move", line)
            self.pending = None
            self.actions.append(a)
            self.sources.append(line)


def import_log(text: str, pointer: str = "/record", stop_at: Optional[int] = None) -> dict[str, Any]:
    """A ``.soclog`` text -> ``{"format", "initial", "actions", "sources", "checks", "stated", "provenance"}``.
    ``stop_at``: read the lines before it only (an action it would have completed is left out), for the
    replay of a log up to a line it cannot read (``service.records.read_for_replay``)."""
    if not isinstance(text, str):
        raise malformed(pointer, "a game event log is text")
    lines = text.split("\n")
    if len(lines) > MAX_LINES:
        raise unsupported(pointer, f"a log of more than {MAX_LINES} lines")
    legacy = bool(lines and LEGACY.match(lines[0].rstrip("\r")))
    fields = {"type": "legacy", "version": "0", "game_name": ""} if legacy else parse_header(lines[0].rstrip("\r"))
    game = fields["game_name"]
    L = _Log()
    saw_version = legacy
    for n, raw in enumerate(lines[1:] if not legacy else lines, start=2 if not legacy else 1):
        line = raw.rstrip("\r")
        if stop_at is not None and n >= stop_at:
            L.pending = None
            break
        if len(line) > MAX_LINE:
            raise malformed(pointer, f"a line of more than {MAX_LINE} characters", n)
        if not line:
            continue
        if line.startswith("#"):
            m = SCORE.match(line)
            if m:
                L.scores[int(m.group(1))] = int(m.group(2))
            continue
        m = (LEGACY if legacy else ENTRY).match(line)
        if not m:
            raise malformed(pointer, "not a log entry ([time:]audience:SOCMessage:params)", n)
        aud = "all" if legacy else m.group("aud")
        msg, params = m.group("msg"), _params(m.group("params"))
        if msg == "SOCVersion" and aud == "all":
            ver = m.group("params").split("|", 1)[0]
            if not legacy and ver != fields["version"]:
                raise malformed(pointer, f"the log says version {fields['version']} in its header and {ver} here", n)
            saw_version = True
            continue
        if msg in ("SOCNewGame", "SOCNewGameWithOptions") and aud == "all":
            if not saw_version:
                raise malformed(pointer, "SOCNewGame comes before any SOCVersion", n)
            g = _get(params, "game")
            if not legacy and g != game:
                raise malformed(pointer, f"game name {g!r} differs from the header's {game!r}", n)
            game = g or game
            L.options = js.parse_options(_get(params, "param2") or "", pointer)
            continue
        if msg == "SOCGameTextMsg" and aud.startswith("f"):
            said = (_get(params, "text") or "").strip()
            if said.split(" ", 1)[0] in DEBUG_COMMANDS:
                L.prov.append({"field": pointer, "line": n, "note": f"JSettlers2's debug command {said!r}: what it "
                               "gives or changes is no move of the game and no rule's; it is not read, and the moves "
                               "that count on it are judged without it"})
                continue
        private = aud.startswith("p") or aud.startswith("!p")
        if aud != "all" and not (private and msg in ("SOCDevCardAction", "SOCRobberyResult", "SOCPlayerElements",
                                                     "SOCDiscard")):
            continue
        if L.options is None and msg not in SKIPPED and msg not in ("SOCSitDown",):
            raise malformed(pointer, "no SOCNewGame or SOCNewGameWithOptions before the game's messages", n)
        try:
            handle(L, aud, msg, params, n, m.group("params"), pointer)
        except RecordProblem as e:      # (a part read by the save's reader: the log line it came from)
            for err in e.errors:
                err.setdefault("line", n)
            raise
        if L.over:
            break
    if not saw_version:
        raise malformed(pointer, "the log has no SOCVersion entry")
    if L.options is None:
        raise malformed(pointer, "the log has no SOCNewGame or SOCNewGameWithOptions entry")
    if L.board is None or not L.started:
        raise malformed(pointer, "the log ends before the game starts (no board laid out and started)")
    L.flush()
    seats = L.players
    state = initial_state(L.scenario, len(seats))
    state["board"] = {"hexes": L.board.state_hexes(),
                      "harbors": [{"edge": list(e), "kind": k} for e, k in sorted(L.board.harbors.items())]}
    state["robber"] = list(L.board.robber) if L.board.robber else None
    state["pirate"] = list(L.board.pirate) if L.board.pirate else None
    state["current_player"] = L.first if L.first is not None else 0
    if L.vp is not None:
        state["vp_target"] = L.vp
    L.prov.insert(0, {"field": pointer, "note": "our players " + ", ".join(
        f"{i} = seat {s}" + (f" ({L.seats[s]})" if L.seats.get(s) else "") for i, s in enumerate(seats))})
    stated: dict[str, Any] = {}
    if L.scores and all(s in L.scores for s in seats):
        stated["vp"] = [L.scores[s] for s in seats]
    return {"format": FORMAT, "initial": state, "actions": L.actions, "sources": L.sources, "checks": L.checks,
            "stated": stated, "provenance": L.prov, "source": {"game": game, "log_type": fields["type"],
                                                              "version": fields["version"]}}


def initial_state(scenario: str, players: int) -> dict[str, Any]:
    """A game's first position before its board is put in: a new game of the scenario (its pieces, supply
    and deck), or for the general Seafarers rules (no map of their own) the same written out."""
    from ..api.codec import dump_state
    from ..engine.scenarios import SCENARIOS, start_game
    if SCENARIOS[scenario].has_map:
        st = dump_state(start_game(scenario, players, 0, None))
        st["scenario_state"] = {}
        return st
    if players == 2:        # D-records-two-players: a new game's position of 3, its third seat left out
        st = dump_state(start_game("base", 3, 0, None))
        st["players"] = st["players"][:2]
    else:
        st = dump_state(start_game("base", players, 0, None))
    st["scenario"] = scenario
    for p in st["players"]:
        p["supply"]["ships"] = 15
    return st


def handle(L: _Log, aud: str, msg: str, params: list, n: int, raw: str, pointer: str) -> None:
    if msg == "SOCSitDown":
        seat = _int(_get(params, "playerNumber"), n, "playerNumber")
        if L.started:
            L.prov.append({"field": f"{pointer}", "line": n, "note": f"seat {seat} taken over by "
                           f"{_get(params, 'nickname')!r}: the same player continues"})
        L.seats[seat] = _get(params, "nickname") or ""
        return
    if msg == "SOCBoardLayout":
        prov: list = []
        layout = {"hexLayout": _list(_get(params, "hexLayout"), n, 10),
                  "numberLayout": _list(_get(params, "numberLayout"), n, 10)}
        rh = _int(_get(params, "robberHex"), n, "robberHex")
        if rh != 0xFFFFFFFF and rh > 0:
            layout["robberHex"] = rh
        L.board = js.board_v1(layout, pointer, prov)
        L.prov += [dict(p, line=n) for p in prov]
        return
    if msg == "SOCBoardLayout2":
        if _get(params, "bef") not in ("2", "3"):
            raise unsupported(pointer, f"board encoding {_get(params, 'bef')} is not one we read (2: the 6-player "
                              "board, 3: sea board)", n)
        parts: dict[str, Any] = {}
        for k, v in params:
            if k in ("game", "bef"):
                continue
            if v.startswith("{"):     # (lists in hexadecimal but HL and NL; single numbers in decimal)
                parts[k] = _list(v, n, 10) if k in ("HL", "NL") else _list(v, n, 16)
            else:
                parts[k] = _int(v, n, k, 10)
        if _get(params, "bef") == "2":
            prov = []
            L.board = js.board_v2({"layoutParts": parts}, pointer, prov)
            L.prov += [dict(p, line=n) for p in prov]
            return
        if "LH" not in parts:      # an observer's empty board, before the layout is made
            return
        prov = []
        L.board = js.board_v3({"boardEncodingFormat": 3, "layoutParts": parts}, L.options or {}, pointer, prov)
        L.prov += [dict(p, line=n) for p in prov]
        return
    if msg == "SOCTurn":
        seat = _int(_get(params, "playerNumber"), n, "playerNumber")
        gs = _int(_get(params, "gameState"), n, "gameState")
        if not L.started:
            start(L, n, pointer)
            # our player 0 starts (BASE-SETUP-1): seats in JSettlers2's order, from the first player
            i = L.p(seat, n)
            L.players = L.players[i:] + L.players[:i]
            L.first = 0
        elif gs in (15, 100):     # a new turn (15) or a Special Building Phase slot (100): the last one ended
            if L.main and L.current is not None:
                end_turn_or_slot(L, L.p(seat, n), gs, n)
            L.main = True
        L.current = L.p(seat, n)
        return
    if not L.started:
        if msg in SKIPPED or msg in ("SOCPutPiece", "SOCDiceResult"):
            return
        raise unsupported(pointer, f"{msg} before the game starts is not read", n)
    if msg == "SOCPutPiece":
        p = L.p(_get(params, "playerNumber"), n)
        kind = PIECES.get(_int(_get(params, "pieceType"), n, "pieceType"))
        c = _int(_get(params, "coord"), n, "coord", 16)
        if kind is None:
            raise unsupported(pointer, f"piece type {_get(params, 'pieceType')} is not one we play", n)
        if kind in ("road", "ship"):
            e = L.board.edge_of(c)
            if e is None:
                raise malformed(pointer, f"{c:x} is not an edge", n)
            pend = L.pending
            if pend is not None and pend["action"]["type"] == "play_road_building" and len(pend["action"]["pieces"]) < 2:
                pend["action"]["pieces"].append({"kind": kind, "edge": list(e)})
                return
            L.add({"type": f"build_{kind}", "player": p, "edge": list(e)}, n)
        else:
            nd = L.board.node_of(c)
            if nd is None:
                raise malformed(pointer, f"{c:x} is not a node", n)
            L.add({"type": f"build_{kind}", "player": p, "node": list(nd)}, n)
        return
    if msg == "SOCDiceResult":
        t = _int(_get(params, "param"), n, "param")
        if t == -1:
            return
        if not 2 <= t <= 12:
            raise malformed(pointer, f"a roll of {t}", n)
        d = min(6, t - 1)
        L.add({"type": "roll", "player": L.current, "dice": [t - d, d]}, n)
        if not any(x.get("note", "").startswith("D-records-dice") for x in L.prov):
            L.prov.append({"field": pointer, "line": n, "note": "D-records-dice: a roll's total t is written as the "
                           "dice (t - d, d), d = min(6, t - 1); no rule of this game reads the dice apart"})
        return
    if msg == "SOCMoveRobber":
        p = L.p(_get(params, "playerNumber"), n)
        c = _int(_get(params, "coord"), n, "coord", 16)
        pend = L.pending
        target = "pirate" if c < 0 else "robber"
        h = L.board.hex(abs(c), f"{pointer}")
        if pend is not None and pend["action"]["type"] == "play_knight" and "hex" not in pend["action"]:
            pend["action"]["hex"] = list(h)
            pend["action"]["target"] = target      # SEA-031: named where a pirate makes it a choice
            return
        L.flush()
        L.pending = {"action": {"type": "move_robber" if target == "robber" else "move_pirate", "player": p,
                                "hex": list(h)}, "line": n}
        return
    if msg == "SOCRobberyResult":
        pend = L.pending
        if pend is None or pend["action"]["type"] not in ("move_robber", "move_pirate", "play_knight"):
            raise malformed(pointer, "a robbery with no robber move before it", n)
        a = pend["action"]
        victim = L.p(_get(params, "victim"), n)
        a["steal_from"] = victim
        if _get(params, "resType") is None and _get(params, "peType") is not None:
            raise unsupported(pointer, f"a robbery of {_get(params, 'peType')} (a scenario's goods, such as SC_CLVI's "
                              "cloth): our robbery takes a resource card", n)
        rt = _int(_get(params, "resType"), n, "resType")
        if rt in RES:
            a["card"] = RES[rt]
        else:
            a["_hidden"] = n
        return
    if msg == "SOCDevCardAction":
        if aud.startswith("!") and _get(params, "actionType") != "DRAW":
            return
        at = _get(params, "actionType")
        p = L.p(_get(params, "playerNum"), n)
        ct = _int(_get(params, "cardType"), n, "cardType")
        if at == "DRAW":
            if ct in CARD_TYPES:
                L.add({"type": "buy_development_card", "player": p, "card": CARD_TYPES[ct]}, n)
                return
            last = L.actions[-1] if L.actions else None
            if not (last and last["type"] == "buy_development_card" and last["player"] == p
                    and L.sources[-1] >= n - 3):
                raise unsupported(pointer, "the card bought is hidden from this log's viewer (only 'unknown' is "
                                  "shown); our action carries it", n)
            return
        if at != "PLAY" or aud != "all":
            return
        card = CARD_TYPES.get(ct)
        if card == "knight":
            L.flush()
            L.pending = {"action": {"type": "play_knight", "player": p}, "line": n}
        elif card == "road_building":
            L.flush()
            L.pending = {"action": {"type": "play_road_building", "player": p, "pieces": []}, "line": n}
        elif card == "year_of_plenty":
            L.flush()
            L.pending = {"action": {"type": "play_year_of_plenty", "player": p, "resources": None}, "line": n}
        elif card == "monopoly":
            L.flush()
            L.pending = {"action": {"type": "play_monopoly", "player": p, "resource": None}, "line": n}
        else:
            raise unsupported(pointer, f"playing card type {ct}", n)
        return
    if msg == "SOCPickResources":
        pend = L.pending
        if pend is None or pend["action"]["type"] != "play_year_of_plenty":
            raise unsupported(pointer, "resources picked outside a Year of Plenty (gold hex picks are not read)", n)
        pend["action"]["resources"] = _resource_set(params, "resources", n)
        L.flush()
        return
    if msg == "SOCBankTrade":
        p = L.p(_get(params, "pn"), n)
        L.add({"type": "maritime_trade", "player": p, "give": _resource_set(params, "give", n),
               "get": _resource_set(params, "get", n)}, n)
        return
    if msg == "SOCAcceptOffer":
        if _get(params, "toAccepting") is None:      # (the request of the one accepting: the announcement follows)
            return
        offering, accepting = L.p(_get(params, "offering"), n), L.p(_get(params, "accepting"), n)
        L.add({"type": "domestic_trade", "player": offering, "partner": accepting,
               "give": _resource_set(params, "toAccepting", n), "get": _resource_set(params, "toOffering", n),
               "accepted": True}, n)
        return
    if msg == "SOCMovePiece":
        p = L.p(_get(params, "pn"), n)
        kind = PIECES.get(_int(_get(params, "pieceType"), n, "pieceType"))
        if kind != "ship":
            raise unsupported(pointer, f"moving a {kind or 'piece of type ' + str(_get(params, 'pieceType'))}: only "
                              "ships move", n)
        src, dst = (L.board.edge_of(_int(_get(params, k), n, k, 16)) for k in ("fromCoord", "toCoord"))
        if src is None or dst is None:
            raise malformed(pointer, "a ship moved from or to a coordinate that is not an edge", n)
        L.add({"type": "move_ship", "player": p, "from": list(src), "to": list(dst)}, n)
        return
    if msg == "SOCDiscard":
        p = L.p(_get(params, "playerNum"), n)
        if aud.startswith("!"):
            if not (L.actions and L.actions[-1]["type"] == "discard" and L.actions[-1]["player"] == p):
                raise unsupported(pointer, "the cards discarded are hidden from this log's viewer", n)
            return
        if aud.startswith("p"):
            L.add({"type": "discard", "player": p, "resources": _resource_set(params, "resources", n)}, n)
        return
    if msg == "SOCPlayerElements":
        if aud.startswith("p") and _get(params, "actionType") == "SET":
            tail = raw.split("actionType=SET|", 1)[1] if "actionType=SET|" in raw else ""
            els = dict(x.split("=", 1) for x in tail.split(",") if "=" in x)
            if all(f"e{i}" in els for i in range(1, 6)):
                L.flush()
                p = L.p(_get(params, "playerNum"), n)
                res = {RES[i]: _int(els[f"e{i}"], n, f"e{i}") for i in range(1, 6)}
                L.checks.append({"after": len(L.actions), "line": n, "player": p, "resources": res})
        return
    if msg == "SOCGameState":
        if _get(params, "state") == "1000":
            L.over = True
        return
    if msg == "SOCSimpleAction" and _get(params, "actType") == "3":      # monopoly result: the resource taken
        pend = L.pending
        if pend is not None and pend["action"]["type"] == "play_monopoly":
            pend["action"]["resource"] = RES.get(_int(_get(params, "v2"), n, "v2"))
            L.flush()
        return
    if msg in SKIPPED:
        return
    raise unsupported(pointer, f"{msg} is a change to the game this reader does not map "
                      "(trades between players, ship moves, scenario events)", n)


def end_turn_or_slot(L: _Log, nxt: int, gs: int, n: int) -> None:
    """The turn (or Special Building Phase slot) of ``L.current`` ends: our ``end_turn``. With 5 or 6 players
    every other player has a slot after a turn, ended by his own ``end_turn`` (the 5-6 extension's phase, D-five-six-slot);
    JSettlers2 announces only the slots of those who asked for one, so the slots it passes over (up to the
    next seat it names, ``nxt``) are ended here, each said in the provenance. In a game of fewer players a
    slot (JSettlers2's test logs add one) is read as the turn it announces; the replay judges it."""
    L.add({"type": "end_turn", "player": L.current}, n)
    if len(L.players) < 5:
        return
    if L.sbp is None:                       # a regular turn ended: every other player's slot follows
        k = len(L.players)
        L.sbp = [(L.current + i) % k for i in range(1, k)]
    else:
        L.sbp = L.sbp[1:]                   # (the slot just ended)
    while L.sbp and (gs == 15 or L.sbp[0] != nxt):
        skipped = L.sbp.pop(0)
        L.add({"type": "end_turn", "player": skipped}, n)
        L.prov.append({"field": "/record", "line": n, "note": f"player {skipped}'s Special Building Phase slot, "
                       "which JSettlers2 did not announce (not asked for), ended"})
    if gs == 15:
        L.sbp = None


def start(L: _Log, n: int, pointer: str) -> None:
    seats = sorted(L.seats)
    if len(seats) not in js.SEATED:
        raise unsupported(pointer, f"{len(seats)} seated players: we play {js.SEATED[0]} to {js.SEATED[-1]}", n)
    if len(seats) == 2:
        L.prov.append({"field": pointer, "line": n, "note": "D-records-two-players: 2 seated players, refereed by "
                       "the base rules unchanged (as JSettlers2 plays them)"})
    if L.board is None:
        raise malformed(pointer, "the game starts before its board is laid out", n)
    L.players = seats
    prov: list = []
    L.scenario, L.vp = js.check_options(L.options or {}, len(seats), pointer, prov)
    L.prov += prov
    L.started = True
