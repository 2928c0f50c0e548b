"""Can this position exist? The checks a posted state must pass before any verdict (else a 422).

Each problem is ``(json_pointer, reason)``. The checks are facts of the components and the board, not
of any scenario's map: a house map or a small test board is fine as long as it is consistent in itself
(R-001).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .geometry import edge_hexes, edge_str, node_str
from .mapgraph import RESOURCES, MapGraph
from .state import DEV_CARDS, PHASES, State

if TYPE_CHECKING:  # pragma: no cover
    from .scenarios.base import Scenario

Where = Callable[[str, tuple], str]

#: Phases a turn reaches only through its roll (BASE-TURN-1): the 7 procedure, gold picks, the main phase.
AFTER_ROLL = frozenset(("discard", "robber", "gold_choice", "main"))


def declared_problems(scenario: "Scenario", scenario_state: Any, players: Any, prefix: str = "/state"
                      ) -> list[tuple[str, str]]:
    """The posted module data against the shapes the scenario's modules declare (``STATE``, ``PLAYER``):
    an unknown key or a wrong shape is named by its pointer before any rule reads it."""
    comp = scenario.composition
    out = comp.state.problems(scenario_state, f"{prefix}/scenario_state")
    if players:
        for i, extra in enumerate(players):
            out += comp.player.problems(extra, f"{prefix}/players/{i}")
    return out


def check_state(state: State, graph: MapGraph, scenario: "Scenario", where: Where, board_checked: bool = False
                ) -> list[tuple[str, str]]:
    """The problems of a position (empty when it can exist). ``board_checked``: the board itself (hexes and
    harbours, which ``graph`` is built from) passed these checks before, with other pieces on it: what only
    the board decides is not looked at again, so the cost follows the pieces and hands posted."""
    out: list[tuple[str, str]] = []
    n = state.num_players
    prefix = getattr(where, "prefix", "/state")
    hex_at: dict = {}

    def hex_pointer(h) -> str:
        """The pointer of hex ``h`` in the posted board's list (worked out only for a piece at fault)."""
        if not hex_at:
            hex_at.update((x, i) for i, x in enumerate(state.hexes))
        return f"{prefix}/board/hexes/{hex_at[h]}"

    def beside(edge) -> list[str]:
        """The hexes either side of ``edge`` on the posted board (what decides its kind), by pointer."""
        hs = edge_hexes(edge)
        # a hex missing there is missing from the board's list: the list is named
        return [hex_pointer(h) for h in hs if h in state.hexes] + \
            ([f"{prefix}/board/hexes"] if any(h not in state.hexes for h in hs) else [])
    # -- pieces on the board --------------------------------------------------------------------------
    # (the pointer of a piece is worked out only for a piece at fault)
    for node, (p, kind) in state.buildings.items():
        nid = graph.node_index.get(node)
        if p >= n:
            out.append((where("cities" if kind == "city" else "settlements", node) + "/player",
                        f"player {p} does not exist in a {n}-player game"))
        elif nid is None or not graph.node_land[nid]:
            out.append((where("cities" if kind == "city" else "settlements", node) + "/node",
                        f"{node_str(node)} is not an intersection of a land hex of this board"))
        else:
            for m in graph.node_neighbour_ids[nid]:
                other = graph.nodes[m]
                if other in state.buildings and other < node:
                    why = (f"buildings on {node_str(node)} and {node_str(other)} are one edge apart, which the "
                           "distance rule never allows")
                    out.append((where("cities" if kind == "city" else "settlements", node) + "/node", why))
                    # both sides: either building may be the one misplaced
                    out.append((where("cities" if state.buildings[other][1] == "city" else "settlements", other)
                                + "/node", why))
    for kind, pieces in (("roads", state.roads), ("ships", state.ships)):
        allowed = graph.road_edge if kind == "roads" else graph.ship_edge
        for edge, p in pieces.items():
            eid = graph.edge_index.get(edge)
            if p < n and eid is not None and allowed(eid):
                continue
            ptr = where(kind, edge)
            if p >= n:
                out.append((ptr + "/player", f"player {p} does not exist in a {n}-player game"))
            elif eid is None:
                why = f"{edge_str(edge)} is not a side shared by two hexes of this board"
                out.append((ptr + "/edge", why))
                out.extend((h, why) for h in beside(edge))
            else:
                why = f"a {kind[:-1]} cannot lie on {edge_str(edge)}, a {graph.edge_kind[eid]} edge"
                out.append((ptr + "/edge", why))
                out.extend((h, why + " (this hex beside it)") for h in beside(edge))
    for rule in scenario.composition.validators:       # the modules' own consistency rules
        out.extend(rule(state, scenario))
    if state.ships and not scenario.ships:
        out.append(("/state/pieces/ships", f"scenario {scenario.id!r} has no ships"))
    # -- supply: pieces on the board + pieces left = the scenario's supply (BASE-COMP-1) ------------------
    counts = [{"settlements": 0, "cities": 0, "roads": 0, "ships": 0} for _ in state.players]
    for p, kind in state.buildings.values():
        if p < n:
            counts[p]["cities" if kind == "city" else "settlements"] += 1
    for kind, pieces in (("roads", state.roads), ("ships", state.ships)):
        for p in pieces.values():
            if p < n:
                counts[p][kind] += 1
    for i, pl in enumerate(state.players):
        on_board = counts[i]
        for kind, k in scenario.pieces_off_grid(state.scenario_state, i).items():
            on_board[kind] = on_board.get(kind, 0) + k
        for kind, total in scenario.supply.items():
            if on_board[kind] > total:
                out.append((f"/state/pieces/{kind}", f"player {i} has {on_board[kind]} {kind} on the board, more "
                            f"than the {total} of the supply"))
            elif on_board[kind] + pl.supply.get(kind, 0) != total:
                why = (f"player {i} has {on_board[kind]} {kind} on the board and {pl.supply.get(kind, 0)} in "
                       f"supply, but the scenario gives {total}")
                # a broken sum names both sides: the supply and the pieces on the board
                out.append((f"/state/players/{i}/supply/{kind}", why))
                out.append((f"/state/pieces/{kind}", why))
    # -- cards are conserved: bank + hands = the supply of each resource (BASE-COMP-2) ----------------------
    for r in RESOURCES:
        held = sum(p.resources.get(r, 0) for p in state.players)
        if held + state.bank.get(r, 0) != scenario.resource_count:
            why = (f"{held} {r} in hands and {state.bank.get(r, 0)} in the bank do not add up to the "
                   f"{scenario.resource_count} cards of the game")
            out.append((f"/state/bank/{r}", why))           # both sides of the sum: the bank and every hand
            out.extend((f"/state/players/{i}/resources/{r}", why) for i in range(len(state.players)))
    for c in DEV_CARDS:
        out_of_deck = sum(p.dev_cards.get(c, 0) + p.dev_cards_new.get(c, 0) + p.dev_cards_played.get(c, 0)
                          for p in state.players)
        if out_of_deck + state.dev_deck.get(c, 0) != scenario.dev_deck.get(c, 0):
            why = (f"{out_of_deck} {c} cards with players and {state.dev_deck.get(c, 0)} in the deck do not add up "
                   f"to the {scenario.dev_deck.get(c, 0)} of the game")
            out.append((f"/state/dev_deck/{c}", why))       # both sides of the sum: the deck and every player's
            out.extend((f"/state/players/{i}/{k}/{c}", why) for i in range(len(state.players))
                       for k in ("dev_cards", "dev_cards_new", "dev_cards_played"))
    # -- robber, pirate, harbours ----------------------------------------------------------------------------
    if state.robber is not None and not graph.is_tile(state.robber):
        out.append(("/state/robber", "the robber stands on a hex that is not a tile of this board"))
    elif state.robber is not None and not scenario.robber_hex_ok(state, state.robber):
        why = f"the robber cannot stand on a {state.hexes[state.robber].terrain} hex"
        out.append(("/state/robber", why))
        out.append((hex_pointer(state.robber), why))       # and its hex
    if state.pirate is not None:
        if not scenario.pirate:
            out.append(("/state/pirate", f"scenario {scenario.id!r} has no pirate"))
        elif not graph.is_tile(state.pirate) or not scenario.pirate_hex_ok(state, state.pirate):
            why = "the pirate stands only on a sea hex of this board"
            out.append(("/state/pirate", why))
            if state.pirate in state.hexes:                  # and the hex it stands on, which decides it
                out.append((hex_pointer(state.pirate), why))
    for i, (edge, kind) in enumerate(() if board_checked else state.harbors.items()):
        eid = graph.edge_index.get(edge)
        if eid is None or graph.edge_kind[eid] != "coast":
            why = f"a harbour lies on a coast edge; {edge_str(edge)} is not one"
            out.append((f"/state/board/harbors/{i}/edge", why))
            out.extend((h, why + " (this hex beside it)") for h in beside(edge))
    # -- turn bookkeeping ---------------------------------------------------------------------------------------
    if state.current_player >= n:
        out.append(("/state/current_player", f"player {state.current_player} does not exist in a {n}-player game"))
    for name, pend in (("pending_discards", state.pending_discards), ("pending_gold", state.pending_gold)):
        for p in pend:
            if p >= n:
                out.append((f"/state/{name}/{p}", f"player {p} does not exist"))
    # BASE-TURN-1: the dice are rolled exactly once a turn, and the roll is what leaves the roll phase
    # (a knight before the roll moves the robber without a robber phase); game_over may follow either.
    if state.phase in ("setup", "roll") and state.flags.rolled:
        out.append(("/state/turn_flags/rolled", f"in phase {state.phase!r} the dice are not rolled yet this turn "
                    "(BASE-TURN-1); leave rolled out or false"))
    elif state.phase in AFTER_ROLL and not state.flags.rolled:
        out.append(("/state/turn_flags/rolled", f"phase {state.phase!r} comes only after this turn's roll "
                    "(BASE-TURN-1); leave rolled out or true"))
    # A game won on the roll (a production, a barbarian attack) ends at once with what the roll still owed
    # left unchosen (BASE-VP-1): game_over may keep pending discards and picks.
    if state.pending_discards and state.phase not in ("discard", "game_over"):
        out.append(("/state/pending_discards", "discards are owed only in the discard phase"))
    if state.phase == "discard" and not state.pending_discards:
        out.append(("/state/pending_discards", "the discard phase needs the discards still owed"))
    for p, k in state.pending_discards.items():
        if p < n and k > scenario.cards_held(state, p):
            out.append((f"/state/pending_discards/{p}", f"player {p} owes {k} cards but holds fewer"))
    if state.pending_gold and state.phase not in ("gold_choice", "game_over"):
        out.append(("/state/pending_gold", "gold-field picks are owed only in the gold_choice phase"))
    if state.phase == "gold_choice" and not state.pending_gold:
        out.append(("/state/pending_gold", "the gold_choice phase needs the picks still owed"))
    for name, holder in (("longest_road", state.longest_road_holder), ("largest_army", state.largest_army_holder)):
        if holder is not None and holder >= n:
            out.append((f"/state/awards/{name}", f"player {holder} does not exist"))
    if state.winner is not None and state.winner >= n:
        out.append(("/state/winner", f"player {state.winner} does not exist"))
    if (state.phase == "game_over") != (state.winner is not None):
        out.append(("/state/winner", "a winner is named exactly when the phase is game_over"))
    if state.phase == "setup":
        last = state.setup.last_settlement
        if state.setup.step == "road" and (last is None or state.buildings.get(last) != (state.current_player, "settlement")):
            out.append(("/state/setup/last_settlement", "when a set-up road is due, last_settlement names the "
                        "current player's settlement just placed"))
        if state.setup.round > scenario.setup_rounds:
            out.append(("/state/setup/round", f"scenario {scenario.id!r} has {scenario.setup_rounds} set-up rounds"))
    for i, e in enumerate(state.flags.ships_built):
        if state.ships.get(e) != state.current_player:
            why = f"no ship of the current player lies on {edge_str(e)}"
            out.append((f"/state/turn_flags/ships_built/{i}", why))
            out.append(("/state/current_player", why))             # the other sides: whose turn it is,
            out.append(("/state/pieces/ships", why))                # and the ships on the board
    for node in state.svp_attached:
        if node not in state.buildings:
            out.append(("/state/svp_attached", f"special victory points lie under {node_str(node)}, which holds no building"))
    if state.phase not in PHASES and state.phase not in scenario.composition.phases:
        out.append(("/state/phase", f"phase {state.phase!r} belongs to a rule module this game does not have "
                    f"(its phases: {', '.join(PHASES + tuple(scenario.composition.phases))})"))
    # -- options: a name the scenario does not know, or a value it refuses, is never ignored ---------------
    for name, why in scenario.option_problems(state.options, n):
        out.append(("/state/options/" + name.replace("~", "~0").replace("/", "~1"), why))
    out.extend(scenario.validate_state(state))
    return out
