"""What "The Treasure Islands" (TDE1) and "Departure into the Unknown" (TDE2) add to the board picture and
to the explanations (``explain=true``): the treasure tokens, the face-down hexes, the special ports
attached to buildings; the rewards owed, the treasure stock, the kept tokens and their benefits, the
Catan chips and the victory points by source.

Pure functions of the state (no drawing code: ``service/render`` draws the layers).
"""
from __future__ import annotations

from typing import Any

from ...geometry import hex_str, node_str
from ...picture import Glyph, Layer
from ...state import State
from .treasures import MAX_KEPT, kept, pending, port_owed, port_sites

TREASURE_COLOUR = "#8d6e63"
FACE_DOWN_COLOUR = "#cfd8dc"


def _sort_node(n) -> tuple:
    return (n[1], n[0], n[2])


def treasure_layer(state: State, scen: Any) -> Layer:
    """The treasure tokens lying chest side up on their intersections (what they give stays hidden:
    TDE1-005, TDE2-006); a road or ship reaching one takes it (TDE1-011, TDE2-014)."""
    rule = scen.rules["treasure"]
    nodes = sorted((tuple(t["node"]) for t in state.scenario_state.get("treasures") or []), key=_sort_node)
    return Layer("treasure", f"treasure token (taken by the road or ship reaching it, {rule})", "disc",
                 TREASURE_COLOUR, tuple(Glyph(n, "T", None, f"treasure token at {node_str(n)} ({rule})")
                                        for n in nodes))


def face_down_layer(state: State, scen: Any) -> Layer:
    """The face-down hexes, turned over when a road or ship reaches one of their corners (TDE1-008,
    TDE2-011)."""
    rule = scen.rules["reveal"]
    hexes = sorted((h for h, t in state.hexes.items() if t.terrain == "unknown"), key=lambda h: (h[1], h[0]))
    return Layer("face-down", f"face-down hex (turned over when a road or ship reaches it, {rule})", "ring",
                 FACE_DOWN_COLOUR, tuple(Glyph(h, "", None, f"face-down hex {hex_str(h)} ({rule})") for h in hexes))


def special_port_layer(state: State) -> Layer:
    """The special 2:1 ports attached to a player's coastal building (TDE2-018, R-060): a ring round the
    building in its owner's colour, the port itself drawn with the harbours."""
    ports = state.scenario_state.get("special_ports") or {}
    glyphs = []
    for p, port in sorted(ports.items(), key=lambda kv: int(kv[0])):
        n = tuple(port["node"])
        glyphs.append(Glyph(n, f"2:1 {port['resource']}", int(p),
                            f"player {p}'s special 2:1 {port['resource']} port at {node_str(n)} (TDE2-018, R-060)"))
    return Layer("special-port", "special 2:1 port attached to a building (TDE2-018)", "ring", "#6d4c2f",
                 tuple(glyphs))


def treasure_layers(state: State, scen: Any) -> list[Layer]:
    out = [face_down_layer(state, scen), treasure_layer(state, scen)]
    if scen.may_keep:
        out.append(special_port_layer(state))
    return out


# -- explanations -----------------------------------------------------------------------------------


def _reward_words(r: dict) -> str:
    kind, n = r["kind"], r["count"]
    what = {"resources": f"{n} resource{'s' if n != 1 else ''} of their choice",
            "roads_ships": f"{n} free road{'s' if n != 1 else ''} or ship{'s' if n != 1 else ''}",
            "development_card": "the top development card"}[kind]
    src = {"board": "a treasure token from the board", "stock": "a treasure token from the stock",
           "gold": "a discovered gold hex"}[r["source"]]
    return f"player {r['player']}: {what} ({src}, {r['rule']})"


def treasures_explained(state: State, scen: Any) -> dict[str, Any]:
    ss = state.scenario_state
    on_board = [tuple(t["node"]) for t in ss.get("treasures") or []]
    queue = pending(state)
    rules = scen.rules
    why = [f"{len(on_board)} treasure token{' still lies' if len(on_board) == 1 else 's still lie'} on the board; a road or "
           f"ship reaching an intersection with one takes it ({rules['treasure']}), before the face-down hexes it "
           f"reaches are turned over (TDE2-013)"]
    if scen.stock_on_discovery:
        n = len(ss.get("treasure_stock") or [])
        why.append(f"{n} token{'s' if n != 1 else ''} left in the stock beside the board: discovering a sea or "
                   f"desert hex gives the top one, nothing once it is empty ({rules['stock']}, R-058)")
    if queue:
        why.append(f"{len(queue)} reward{'s' if len(queue) != 1 else ''} owed, claimed first to last before anything "
                   f"else happens ({rules['use']}; rewards won by free pieces come first, R-055): "
                   + "; ".join(_reward_words(r) for r in queue))
    else:
        why.append(f"no reward is owed: play goes on ({rules['use']})")
    return {"on_board": [list(n) for n in on_board], "stock": len(ss.get("treasure_stock") or []),
            "pending": [dict(r) for r in queue], "why": "; ".join(why)}


def kept_explained(state: State, graph: Any, scen: Any) -> dict[str, Any]:
    """TDE2-016..020 (R-060): each player's kept tokens and the benefits they add up to."""
    out: dict[str, Any] = {}
    ports = state.scenario_state.get("special_ports") or {}
    for p in range(state.num_players):
        k = kept(state, p)
        parts = [f"player {p} keeps {k} treasure token{'s' if k != 1 else ''} face down (TDE2-016; never used or "
                 "lost, R-060)"]
        if k >= 1:
            parts.append(f"with at least one, a 7 makes them discard only above {scen.discard_limit(state, p)} cards "
                         "(TDE2-017)")
        else:
            parts.append("with none, a 7 makes them discard above 7 cards as usual")
        port = ports.get(str(p))
        if port:
            parts.append(f"their special 2:1 {port['resource']} port is attached at {node_str(tuple(port['node']))} "
                         "(TDE2-018, R-060: one port)")
        elif k >= 2 and port_owed(state, p):
            sites = port_sites(state, graph, p)
            parts.append("a special port is owed and " + (f"must be attached to one of {len(sites)} coastal building "
                                                          "sides before anything else (TDE2-018, R-060)" if sites else
                                                          "waits for their first coastal building (R-060)"))
        elif k >= 2:
            parts.append("the special ports' stock is empty: no port to attach (TDE2-018)")
        vp = scen.vp_extra(state, p).get("treasures", 0)
        if k >= 3:
            parts.append(f"3 tokens are worth 1 VP, 4 are worth 2 VP in all: {vp} VP (TDE2-019, R-060)")
        if k >= MAX_KEPT:
            parts.append(f"{MAX_KEPT} is the most a player keeps: further treasures are used (TDE2-020)")
        out[str(p)] = {**scen.kept_benefits(state, graph, p), "why": "; ".join(parts)}
    return out


def chips_explained(state: State, scen: Any) -> dict[str, Any]:
    """TDE1-013/015 (R-056, R-057): the Catan chips awarded, left, and the end they bring."""
    from .scenarios import CHIPS
    by = {str(i): p.svp for i, p in enumerate(state.players)}
    awarded = sum(by.values())
    why = (f"{awarded} of the {CHIPS} Catan chips awarded, {max(0, CHIPS - awarded)} left: a player's first "
           "settlement on each treasure island earns 1 chip, worth 1 VP (TDE1-013, R-056); "
           + ", ".join(f"player {p} {n}" for p, n in by.items()))
    shared = scen.shared_victory(state)
    if awarded >= CHIPS:
        why += (f"; the {CHIPS}th chip ended the game at once and the most VP won (TDE1-015, R-057)"
                + (f", players {shared} sharing the victory (R-003)" if shared else ""))
    else:
        why += f"; the game ends at once when the {CHIPS}th chip is awarded (TDE1-015, R-057)"
    return {"awarded": awarded, "left": max(0, CHIPS - awarded), "by_player": by, "shared_victory": shared,
            "why": why}


__all__ = ["treasure_layers", "treasure_layer", "face_down_layer", "special_port_layer", "treasures_explained",
           "kept_explained", "chips_explained"]
