"""What WAG adds to the board picture and to the explanations.

Picture (``board_layers``): the wagons (a disc in the owner's colour on the intersection, or on the trade hex
for a wagon on its plaza), the trade hexes with their stacks, the barbarian counts, the rivers and bridges,
the warships; a panel with the tokens, levels, the pirate pool and, for the current wagon, what each
reachable destination would cost and pay.

Explanations (``explain_extra``): the current wagon's reach (destination -> cheapest plan), each step's MP
and gold broken down by rule ("why 5 MP: river 3 (WAG-041) + 1 barbarian 2 (WAG-050)").
"""
from __future__ import annotations

from typing import Any

from ...geometry import hex_str, node_str
from ...mapgraph import MapGraph
from ...picture import Glyph, Layer, Panel
from ...state import State
from . import costs as C


def layers(state: State, graph: MapGraph) -> list:
    ss = state.scenario_state
    th = C.trade_hexes(state)
    stacks = ss.get("stacks") or {}
    out: list = []
    out.append(Layer("wag-trade", "trade hex: name and tokens left in its stack (R-088, R-089)", "square", "#8d6e63",
                     tuple(Glyph(h, f"{name[:2].upper()}{sum((stacks.get(name) or {}).values())}",
                                 note=f"{name}: plaza of the trade hex, {sum((stacks.get(name) or {}).values())} "
                                      f"tokens left (WAG-017, WAG-021)")
                           for name, h in sorted(th.items()))))
    barb = [(C.unkey(k), n) for k, n in sorted((ss.get("barbarians") or {}).items()) if n]
    if barb:
        out.append(Layer("wag-barbarians", "barbarians in a hex: 1 slows undeveloped paths, 2 all, 3 conquered "
                         "(WAG-050..052)", "triangle", "#4e342e",
                         tuple(Glyph(h, str(n), note=f"{n} barbarian(s) in {hex_str(h)}") for h, n in barb)))
    rivers = [tuple(e) for e in ss.get("rivers") or ()]
    if rivers:
        out.append(Layer("wag-rivers", "river: 3 MP to cross without a bridge (WAG-041)", "band", "#1e88e5",
                         tuple(Glyph(e, note="river path (R-095)") for e in rivers)))
    bridges = ss.get("bridges") or []
    if bridges:
        out.append(Layer("wag-bridges", "bridge: 1 MP; an opponent's costs 2 gold (WAG-042, WAG-043)", "square",
                         "#6d4c41", tuple(Glyph(tuple(b["edge"]), "B", player=b.get("player"),
                                                note="public bridge" if b.get("player") is None
                                                else f"player {b['player']}'s bridge") for b in bridges)))
    ws = [(int(o), tuple(h)) for o, h in sorted((ss.get("warships") or {}).items()) if h]
    if ws:
        out.append(Layer("wag-warships", "personal warship: 1 gold tribute to pass its corners (WAG-033)", "diamond",
                         "#37474f", tuple(Glyph(h, "W", player=o, note=f"player {o}'s warship") for o, h in ws)))
    wagons = []
    for p in range(state.num_players):
        w = C.wagon(state, p)
        at = tuple(w["node"]) if w.get("node") else th.get(w.get("plaza"))
        if at is not None:
            wagons.append(Glyph(at, f"W{w.get('level', 1)}", player=p,
                                note=f"player {p}'s wagon, level {w.get('level', 1)}"
                                     + (" holding a token" if w.get("token") else "")))
    if wagons:
        out.append(Layer("wag-wagons", "wagon, with its baggage-train level (WAG-004, WAG-006)", "disc", "#ffb300",
                         tuple(wagons)))
    lines = []
    for p in range(state.num_players):
        w = C.wagon(state, p)
        if not w:
            continue
        tok = w.get("token")
        held = "no token" if not tok else f"a token from the {tok.get('from')}"
        lines.append(f"player {p}: level {w.get('level', 1)}, {held}, "
                     f"{sum((w.get('delivered') or {}).values())} delivered, {state.players[p].extra.get('gold', 0)} "
                     "gold")
    lines.append(f"pirate pool: {int(ss.get('pirate_pool', 0))} gold (WAG-031, R-091)")
    if state.phase == "main" and C.wagon(state, state.current_player):
        reach = C.plans(state, graph, state.current_player)
        plazas = [(k[1], v) for k, v in reach.items() if k[0] == "plaza"]
        for name, v in sorted(plazas):
            lines.append(f"to the {name}: {v['mp']} MP, {v['gold']} gold in tolls")
    out.append(Panel("wag-wagons", "Wagons (WAG)", tuple(lines)))
    return out


def explain(state: State, graph: MapGraph) -> dict[str, Any]:
    p = state.current_player
    if state.phase != "main" or not C.wagon(state, p):
        return {}
    reach = C.plans(state, graph, p)
    left = C.mp_left(state, p)
    rows = {}
    for key, plan in sorted(reach.items(), key=lambda x: repr(x[0])):
        seg = C.judge_segment(state, graph, p, plan["path"], plan.get("plaza"), plan.get("jump"), False)
        if not isinstance(seg, C.Segment):
            continue
        steps = []
        for a, b, st in seg.steps:
            parts = [x.as_dict() for x in st.parts]
            why = " + ".join(f"{x['why']} {x['mp']} MP ({x['rule']})" for x in parts if x.get("mp"))
            gold = "; ".join(f"{x['why']} {x['gold']} gold ({x['rule']})" for x in parts if x.get("gold"))
            steps.append({"from": list(a), "to": list(b), "mp": st.mp, "gold": st.gold, "parts": parts,
                          "why": f"{node_str(a)} -> {node_str(b)}: {st.mp} MP = {why}" + (f"; {gold}" if gold else "")})
        name = (f"the {key[1]}'s plaza" if key[0] == "plaza" else f"a jump to {node_str(key[1])}" if key[0] == "jump"
                else node_str(key[1]))
        rows[f"{key[0]}:{key[1] if key[0] == 'plaza' else node_str(key[1])}"] = {
            "mp": seg.mp, "gold": sum(x.gold for x in seg.payments), "steps": steps,
            "why": f"{name} in {seg.mp} MP and {sum(x.gold for x in seg.payments)} gold, the cheapest way "
                   "(WAG-004, WAG-015)"}
    return {"wagon_reach": {"player": p, "mp_left": left, "destinations": rows,
                            "why": f"player {p}'s wagon has {left} MP left this turn (WAG-006, WAG-012, WAG-039); "
                                   f"it reaches {len(rows)} destinations, each with its cheapest plan"}}


__all__ = ["layers", "explain"]
