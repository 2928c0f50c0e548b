"""Development cards: buying (BASE-DEV-1, BASE-COMP-3) and playing (BASE-DEV-2..8, SEA-023, SEA-031)."""
from __future__ import annotations

from typing import Optional

from ..bank import COSTS, cannot_pay, pay
from ..core import Action, Ctx, Violation
from ..placement import road_site, ship_site
from ..rng import Rng
from ..state import DEV_CARDS, State
from . import WRONG_PHASE_RULE, handler
from .robber import target_violations

CARD_RULE = {"knight": "BASE-DEV-5", "road_building": "BASE-DEV-6", "year_of_plenty": "BASE-DEV-7",
             "monopoly": "BASE-DEV-8"}


def dev_wrong_phase(ctx: Ctx) -> Optional[Violation]:
    if ctx.state.phase == "setup":
        return Violation("BASE-DEV-3", "development cards are not played during set-up")
    rule, why = WRONG_PHASE_RULE[ctx.state.phase]
    return Violation(rule, f"{why}; the game is in the {ctx.state.phase!r} phase")


def may_play(ctx: Ctx, card: str) -> list[Violation]:
    """BASE-DEV-2: one card per turn; BASE-DEV-4: not one bought this turn; the card must be held."""
    p = ctx.state.players[ctx.action.player]
    if ctx.state.flags.dev_card_played:
        return [Violation("BASE-DEV-2", "at most one development card may be played per turn; player "
                          f"{ctx.action.player} has already played one this turn")]
    if p.dev_cards.get(card, 0) <= 0:
        if p.dev_cards_new.get(card, 0) > 0:
            return [Violation("BASE-DEV-4", f"a development card may not be played in the turn it was bought; "
                              f"player {ctx.action.player}'s only {card} card was bought this turn")]
        return [Violation(CARD_RULE[card], f"player {ctx.action.player} holds no {card} card to play")]
    return []


def mark_played(s: State, player: int, card: str) -> None:
    p = s.players[player]   # (new dicts: copies of a state share a player's card counts, see Player.copy)
    p.dev_cards = {**p.dev_cards, card: p.dev_cards[card] - 1}
    p.dev_cards_played = {**p.dev_cards_played, card: p.dev_cards_played.get(card, 0) + 1}
    s.flags.dev_card_played = True


def play_card(ctx: Ctx, s: State, card: str) -> None:
    """The card leaves the player's hand, announced (``played``) before what it does."""
    mark_played(s, ctx.action.player, card)
    ctx.emit("played", player=ctx.action.player, card=card)


def draw_card(s: State, player: int, card: Optional[str]) -> str:
    """The named card, or one drawn from the deck at random (weighted by what it holds), moves from the
    deck to the player's cards bought this turn (BASE-DEV-4: not playable before the next turn)."""
    if card is None:
        rng = Rng(s.rng_seed, s.rng_counter)
        card = rng.pick_weighted(s.dev_deck, DEV_CARDS)
        s.rng_counter = rng.counter
    s.dev_deck[card] -= 1
    p = s.players[player]
    p.dev_cards_new = {**p.dev_cards_new, card: p.dev_cards_new.get(card, 0) + 1}   # (a new dict: Player.copy)
    return card


def pieces_in_turn(ctx: Ctx, check_piece) -> list[Violation]:
    """R-015: Road Building's pieces are placed one after the other, each on the board holding the ones
    before it. ``check_piece(sub, i, kind, edge, path)`` judges piece ``i`` on ``sub.state`` (a working
    copy), puts it there and returns its violations; the first piece with any ends the check."""
    tmp = ctx.state.copy()
    for i, piece in enumerate(ctx.action.get("pieces")):
        sub = Ctx(tmp, ctx.action, ctx.graph, ctx.scenario)
        v = check_piece(sub, i, piece["kind"], piece["edge"], f"/action/pieces/{i}/edge")
        if v:
            return v
    return []


def second_place(ctx: Ctx, check_piece, kinds: tuple[str, ...]) -> Optional[tuple[str, object]]:
    """R-123: a place for a second Road Building piece once the action's one piece is placed: the first
    ``(kind, edge)`` whose two-piece action passes ``check_piece`` (see :func:`pieces_in_turn`) and the
    scenario's checks, or None. Edges at the first piece are tried first (the usual answer); each edge is
    judged fully only when its site and the connection rule (the ``piece_connection`` hook) admit it on the
    position after the first piece."""
    from ..placement import road_site, ship_site
    a, g, scen = ctx.action, ctx.graph, ctx.scenario
    first = a.get("pieces")[0]
    tmp = ctx.state.copy()
    (tmp.roads if first["kind"] == "road" else tmp.ships)[first["edge"]] = a.player
    probe = Ctx(tmp, a, g, scen)
    near = [g.edges[x] for n in g.edge_node_ids[g.edge_index[first["edge"]]] for x in g.node_edge_ids[n]]
    for edge in dict.fromkeys(near + list(g.edges)):
        if edge == first["edge"]:
            continue
        for kind in kinds:
            site = road_site if kind == "road" else ship_site
            if site(probe, edge, "") or scen.piece_connection(probe, kind, edge, a.player, ""):
                continue
            two = Action(a.type, a.player, {**a.params, "pieces": [first, {"kind": kind, "edge": edge}]})
            sub = Ctx(ctx.state, two, g, scen)
            if not pieces_in_turn(sub, check_piece) and not scen.check(sub):
                return kind, edge
    return None


def fewer_pieces_violations(ctx: Ctx, check_piece, kinds: tuple[str, ...], rule: str) -> list[Violation]:
    """R-123 (``rule``: the card's): Road Building places as many pieces as it can, up to 2. One piece named
    while the supply holds two is accepted when no legal place for a second is left after it, or when it
    makes the player win (the game ends at once, BASE-VP-1); else the second is owed."""
    from ..referee import ends_game
    place = second_place(ctx, check_piece, kinds)
    if place is None or ends_game(ctx):
        return []
    kind, edge = place
    return [Violation(rule, f"Road Building places 2 pieces while the supply and the board allow them: a {kind} "
                      f"can still go on {edge[0]},{edge[1]},{edge[2]} after the first (R-123)", "/action/pieces",
                      ruling="R-123")]


def place_free_road(ctx: Ctx, s: State, edge) -> None:
    """BASE-DEV-6: a road from the supply, free of cost."""
    a = ctx.action
    s.roads[edge] = a.player
    s.players[a.player].supply["roads"] -= 1
    ctx.emit("built", player=a.player, piece="road", edge=list(edge), free=True)


def deck_left(state: State) -> bool:
    """BASE-COMP-3: a development card is bought while the deck holds one."""
    return sum(state.dev_deck.values()) > 0


@handler("buy_development_card", {"main"}, not_your_turn="BASE-DEV-1")
class BuyDevelopmentCard:
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        s, a = ctx.state, ctx.action
        if not deck_left(s):
            return [Violation("BASE-COMP-3", "the development deck is empty; no more cards can be bought")]
        card = a.get("card")
        if card is not None and s.dev_deck.get(card, 0) <= 0:
            return [Violation("BASE-COMP-3", f"the deck holds no {card} card (left: "
                              f"{ {k: v for k, v in s.dev_deck.items() if v} })", "/action/card")]
        return cannot_pay(s, a.player, COSTS["development_card"], "a development card", "BASE-DEV-1")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        card = draw_card(s, a.player, a.get("card"))
        pay(s, a.player, COSTS["development_card"])
        s.flags.built = True
        ctx.emit("bought_development_card", player=a.player, card=card)


@handler("play_knight", {"roll", "main"}, not_your_turn="BASE-DEV-3", wrong_phase=dev_wrong_phase)
class PlayKnight:
    """BASE-DEV-5 / BASE-ROBBER-6: move the robber and steal as on a 7 (BASE-ROBBER-3/4) with no
    discard step (nothing here touches pending discards); SEA-031: or the pirate. What the knight does is
    the stack's ``knight_violations`` / ``knight_effect``."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return may_play(ctx, "knight") or target_violations(ctx, "SEA-031") or ctx.scenario.knight_violations(ctx)

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        play_card(ctx, s, "knight")
        ctx.scenario.knight_effect(ctx, s)


def _free_piece_violations(sub: Ctx, i: int, kind: str, edge, path: str) -> list[Violation]:
    """One Road Building piece (BASE-DEV-6, SEA-023): from the supply (BASE-COMP-1), on a legal site,
    connected."""
    tmp, player = sub.state, sub.action.player
    if kind == "ship" and not sub.scenario.ships:
        return [Violation("BASE-DEV-6", "Road Building places roads; this scenario has no ships",
                          f"/action/pieces/{i}/kind")]
    if tmp.players[player].supply.get(kind + "s", 0) <= 0:
        return [Violation("BASE-COMP-1", f"no {kind} left in player {player}'s supply",
                          f"/action/pieces/{i}/kind")]
    v = (road_site if kind == "road" else ship_site)(sub, edge, path) or sub.scenario.piece_connection(
        sub, kind, edge, player, path)
    (tmp.roads if kind == "road" else tmp.ships)[edge] = player
    tmp.players[player].supply[kind + "s"] -= 1
    return v


@handler("play_road_building", {"roll", "main"}, not_your_turn="BASE-DEV-3", wrong_phase=dev_wrong_phase,
         changes_routes=True)
class PlayRoadBuilding:
    """BASE-DEV-6: two free roads (SEA-023: or ships), placed one after the other (R-015).

    A module whose Road Building differs derives from this class and replaces only the steps that differ
    (GOLD: each piece pays its gold, its ships dock at home): ``count_violations`` (how many pieces),
    ``cost_violations`` (what the pieces cost), ``piece_violations`` (one piece, judged and placed on a
    working copy, see :func:`pieces_in_turn`), ``place_piece`` and ``pay``."""
    @classmethod
    def check(cls, ctx: Ctx) -> list[Violation]:
        return (may_play(ctx, "road_building") or cls.count_violations(ctx) or cls.cost_violations(ctx)
                or pieces_in_turn(ctx, cls.piece_violations) or cls.fewer_violations(ctx))

    @staticmethod
    def count_violations(ctx: Ctx) -> list[Violation]:
        """Two pieces, or what the supply allows (none: the card cannot be used); one while the supply holds
        two is judged by ``fewer_violations`` (R-123)."""
        s, a = ctx.state, ctx.action
        pieces = a.get("pieces")
        sup = s.players[a.player].supply
        kinds_ok = ("roads", "ships") if ctx.scenario.ships else ("roads",)
        avail = sum(sup.get(k, 0) for k in kinds_ok)
        if avail <= 0:
            return [Violation("BASE-DEV-6", f"player {a.player} has no road{' or ship' if ctx.scenario.ships else ''} "
                              "left in supply, so the card cannot be used")]
        want = min(2, avail)
        if len(pieces) not in (want, 1):
            return [Violation("BASE-DEV-6", f"Road Building places {want} piece{'s' if want > 1 else ''} "
                              f"(2, or what the supply allows); the action names {len(pieces)}", "/action/pieces")]
        return []

    @classmethod
    def fewer_violations(cls, ctx: Ctx) -> list[Violation]:
        """R-123: one piece while the supply holds two only when a second has no legal place or the first wins."""
        s, a = ctx.state, ctx.action
        sup = s.players[a.player].supply
        kinds = ("road", "ship") if ctx.scenario.ships else ("road",)
        if len(a.get("pieces")) != 1 or sum(sup.get(k + "s", 0) for k in kinds) < 2:
            return []
        return fewer_pieces_violations(ctx, cls.piece_violations, kinds, "BASE-DEV-6")

    @staticmethod
    def cost_violations(ctx: Ctx) -> list[Violation]:
        """The pieces are free."""
        return []

    piece_violations = staticmethod(_free_piece_violations)

    @classmethod
    def apply(cls, ctx: Ctx, s: State) -> None:
        play_card(ctx, s, "road_building")
        for piece in ctx.action.get("pieces"):
            cls.place_piece(ctx, s, piece["kind"], piece["edge"])
        cls.pay(ctx, s)

    @staticmethod
    def place_piece(ctx: Ctx, s: State, kind: str, edge) -> None:
        if kind == "road":
            place_free_road(ctx, s, edge)
            return
        a = ctx.action
        s.ships[edge] = a.player
        s.flags.ships_built.append(edge)
        s.players[a.player].supply["ships"] -= 1
        ctx.emit("built", player=a.player, piece="ship", edge=list(edge), free=True)

    @staticmethod
    def pay(ctx: Ctx, s: State) -> None:
        """Nothing to pay."""


@handler("play_year_of_plenty", {"roll", "main"}, not_your_turn="BASE-DEV-3", wrong_phase=dev_wrong_phase)
class PlayYearOfPlenty:
    """BASE-DEV-7: take any 2 resources from the bank (what the bank has, if it holds fewer)."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        v = may_play(ctx, "year_of_plenty")
        if v:
            return v
        s, cards = ctx.state, ctx.action.get("resources")
        want = min(2, sum(s.bank.values()))
        n = sum(cards.values())
        if n != want:
            return [Violation("BASE-DEV-7", f"Year of Plenty takes {want} card{'s' if want != 1 else ''} from the "
                              f"bank; the action names {n}", "/action/resources")]
        for r, k in cards.items():
            if k > s.bank.get(r, 0):
                return [Violation("BASE-DEV-7", f"the bank holds {s.bank.get(r, 0)} {r}; choose another type",
                                  f"/action/resources/{r}")]
        return []

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        mark_played(s, a.player, "year_of_plenty")
        cards = {r: k for r, k in a.get("resources").items() if k}
        for r, k in cards.items():
            s.bank[r] -= k
            s.players[a.player].resources[r] += k
        ctx.emit("played", player=a.player, card="year_of_plenty", resources=cards)


@handler("play_monopoly", {"roll", "main"}, not_your_turn="BASE-DEV-3", wrong_phase=dev_wrong_phase)
class PlayMonopoly:
    """BASE-DEV-8: every other player gives the player all their cards of the named type."""
    @staticmethod
    def check(ctx: Ctx) -> list[Violation]:
        return may_play(ctx, "monopoly")

    @staticmethod
    def apply(ctx: Ctx, s: State) -> None:
        a = ctx.action
        res = a.get("resource")
        mark_played(s, a.player, "monopoly")
        taken = {}
        for i, p in enumerate(s.players):
            if i != a.player and p.resources.get(res, 0):
                taken[str(i)] = p.resources[res]
                s.players[a.player].resources[res] += p.resources[res]
                p.resources[res] = 0
        ctx.emit("played", player=a.player, card="monopoly", resource=res, taken=taken)

