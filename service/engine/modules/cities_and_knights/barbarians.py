"""The barbarian attack (CK-BARB-1..12, CK-SEA-10): strength against defence, who loses a city, the
Defender of Catan, and what every attack leaves behind."""
from __future__ import annotations

from typing import Any

from ...core import Ctx, Violation
from ...state import State
from . import store
from .data import TRACKS
from .store import ck


def barbarian_strength(s: State) -> int:
    """CK-BARB-2, CK-SEA-10: every city on the board, all islands (a metropolis city counts once; the
    variant flag ``metropolis_counts_double`` counts it twice)."""
    n = sum(1 for _, kind in s.buildings.values() if kind == "city") - len(store.sideways(s))
    if s.options.get("metropolis_counts_double"):
        n += len(store.metropolis_nodes(s))
    return n


def fighters(s: State, chosen: Any = None, scen: Any = None) -> list[dict]:
    """The knights that fight: every active knight (CK-BARB-3) the scenario lets meet the barbarians
    (``knight_defends``; ``scen`` the game's stack, found from the state when not given); with
    CK-VAR-MEANIES only the active knights each player sends (``chosen``: per player the intersections; a
    player left out sends all)."""
    if scen is None:
        from ...scenarios import scenario_of
        scen = scenario_of(s)
    defends = scen.knight_defends                      # a module may leave some knights out (TDE5-018, TDE6-023)
    active = [k for k in ck(s)["knights"] if k["active"] and defends(s, k)]
    if not s.options.get("CK-VAR-MEANIES") or not chosen:
        return active
    out = []
    for k in active:
        sent = chosen.get(str(k["player"]))
        if sent is None or k["node"] in [list(n) for n in sent]:
            out.append(k)
    return out


def defence(s: State, chosen: Any = None, scen: Any = None) -> int:
    """CK-BARB-3: the strength of every active knight of every player (CK-VAR-MEANIES: those sent)."""
    return sum(k["level"] for k in fighters(s, chosen, scen))


def plain_cities(s: State, p: int) -> list:
    """CK-BARB-4, CK-IMP-10: ``p``'s cities without a metropolis (those the barbarians can take)."""
    metro = store.metropolis_nodes(s)
    side = store.sideways(s)
    return sorted(n for n, (o, k) in s.buildings.items() if o == p and k == "city" and n not in metro and n not in side)


def outcome(s: State, chosen: Any = None, scen: Any = None) -> dict[str, Any]:
    """What an attack now would do: strengths, and who would lose a city or be the defender."""
    fight = fighters(s, chosen, scen)
    b, d = barbarian_strength(s), sum(k["level"] for k in fight)
    per = {p: sum(k["level"] for k in fight if k["player"] == p) for p in range(s.num_players)}
    # CK-BARB-6: a tie favours Catan; CK-BARB-9: a defence of 0 is possible, a strength of 0 always beaten
    out: dict[str, Any] = {"barbarians": b, "defence": d, "knights": {str(p): v for p, v in per.items()},
                           "catan_wins": d >= b}
    if d < b:
        exposed = [p for p in per if plain_cities(s, p)]                 # CK-BARB-4, CK-BARB-10
        low = min((per[p] for p in exposed), default=None)
        out["lose_city"] = [p for p in exposed if per[p] == low]
        out["defender"] = None
        out["tied_defenders"] = []
    else:
        best = max(per.values(), default=0)
        top = [p for p in per if per[p] == best]
        out["lose_city"] = []
        if best == 0:
            top = []                  # CK-BARB-12: nobody defended (barbarian strength 0): nothing awarded
        out["defender"] = top[0] if len(top) == 1 else None               # CK-BARB-6
        out["tied_defenders"] = top if len(top) > 1 else []
    return out


def attack(ctx: Ctx, s: State) -> None:
    """CK-BARB-4..9: resolve the attack, then every knight goes inactive and the ship goes home."""
    from .turn import NeedChoice, draw_progress, receive_progress
    c = ck(s)
    chosen = ctx.action.get("fighting")
    o = outcome(s, chosen, ctx.scenario)
    if o["catan_wins"]:
        why = (f"defence {o['defence']} >= barbarians {o['barbarians']}: Catan wins (CK-BARB-6); "
               + (f"player {o['defender']} is the strongest defender" if o["defender"] is not None else
                  f"players {o['tied_defenders']} tie as strongest and each draw a progress card" if o["tied_defenders"]
                  else "no knight strength anywhere: nothing is awarded (CK-BARB-12)"))
    else:
        why = (f"barbarians {o['barbarians']} > defence {o['defence']}: the barbarians win (CK-BARB-4); among players "
               f"with a city that is not a metropolis the weakest ({o['lose_city'] or 'nobody'}) lose a city")
    ctx.emit("barbarian_attack", barbarians=o["barbarians"], defence=o["defence"], knights=o["knights"],
             catan_wins=o["catan_wins"], lose_city=o["lose_city"], defender=o["defender"],
             tied_defenders=o["tied_defenders"], why=why)
    if not o["catan_wins"]:
        choices = ctx.action.get("pillage") or {}
        for p in o["lose_city"]:
            cities = plain_cities(s, p)
            if len(cities) == 1:
                node = cities[0]
            else:
                got = choices.get(str(p))
                node = tuple(got) if got is not None else None
                if node not in cities:
                    raise NeedChoice(Violation(
                        "CK-BARB-4", f"the barbarians win ({o['barbarians']} against {o['defence']}); player {p} has "
                        f"the weakest knights ({o['knights'][str(p)]}) and chooses which city is lost: give pillage "
                        f"{{\"{p}\": one of {[list(x) for x in cities]}}}", f"/action/pillage/{p}"), "pillage", p,
                        [list(x) for x in cities])
            pillage(ctx, s, p, node)
    else:
        if o["defender"] is not None:
            p = o["defender"]
            c["defenders"][str(p)] = c["defenders"].get(str(p), 0) + 1    # CK-BARB-6, CK-BARB-7
            ctx.emit("defender_of_catan", player=p)
        decks = ctx.action.get("defender_decks") or {}
        for p in o["tied_defenders"]:                                      # CK-BARB-6: a tie draws cards
            deck = decks.get(str(p))
            if deck not in TRACKS:
                raise NeedChoice(Violation(
                    "CK-BARB-6", f"Catan wins and players {o['tied_defenders']} tie for the strongest knights: each "
                    f"draws a progress card from a deck of their choice; give defender_decks {{\"{p}\": one of "
                    f"{list(TRACKS)}}}", f"/action/defender_decks/{p}"), "defender_decks", p, list(TRACKS))
            card = draw_progress(s, deck)
            if card is not None:
                receive_progress(ctx, s, p, card, "defenders tie")
    # CK-BARB-8: every knight inactive, the ship back to its start; the robber (and pirate) wake up.
    fought = {id(k) for k in fighters(s, chosen, ctx.scenario)}
    for k in c["knights"]:
        if id(k) in fought or not s.options.get("CK-VAR-MEANIES"):
            k["active"] = False                              # CK-VAR-MEANIES: only those that fought
    c["barbarian"] = 0
    c["attacks"] += 1


def pillage(ctx: Ctx, s: State, p: int, node) -> None:
    """CK-BARB-4/5, CK-WALL-3: the city becomes a settlement and loses its wall; with no settlement piece
    left the city is laid on its side, a settlement until restored."""
    sup = s.players[p].supply
    if sup.get("settlements", 0) > 0:
        s.buildings[node] = (p, "settlement")
        sup["cities"] += 1
        sup["settlements"] -= 1
    else:
        ck(s).setdefault("sideways", []).append(list(node))
    walls = ck(s)["walls"]
    if list(node) in walls:
        walls.remove(list(node))
        ctx.emit("wall_lost", player=p, node=list(node))
    ctx.emit("city_pillaged", player=p, node=list(node))


def can_pillage(s: State, p: int) -> bool:
    """CK-BARB-5: a settlement piece must be in the supply to replace the city."""
    return s.players[p].supply.get("settlements", 0) > 0


__all__ = ["barbarian_strength", "defence", "outcome", "attack", "pillage", "plain_cities"]
