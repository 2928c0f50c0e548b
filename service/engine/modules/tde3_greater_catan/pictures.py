"""What "Greater Catan" (TDE3) adds to the board picture and to the explanations (``explain=true``): the
new-island hexes still awaiting a number token, the home-island hexes whose token has moved away and the
home-island buildings left without production; in words, the reserve, where the next tokens would come
from and which limitations (TDE3-011..013) give way in the order 1, 2, 3 (TDE3-014), the 8 cities and the
VP by source.

Pure functions of the state (no drawing code: ``service/render`` draws the layers).
"""
from __future__ import annotations

from typing import Any

from ...geometry import hex_str, node_str
from ...picture import Glyph, Layer
from ...state import State

#: TDE3-011..013: the limitations as the rules number them.
LIMIT_NUMBER = {"TDE3-011": 1, "TDE3-012": 2, "TDE3-013": 3}


def impoverishment_layers(imp: dict[str, Any]) -> list[Layer]:
    """``imp``: the derived ``impoverishment`` value of the state."""
    awaiting = Layer("awaiting-token", "new-island hex awaiting its number token (TDE3-009)", "ring", "#6a1b9a",
                     tuple(Glyph(tuple(h), "", None, f"{hex_str(tuple(h))}: the next road or ship beside it brings "
                                 "it a number token (TDE3-009/010)") for h in imp["awaiting"]))
    blank = Layer("token-moved", "home-island hex whose token moved away (TDE3-010)", "cross", "#5d4037",
                  tuple(Glyph(tuple(h), "", None, f"{hex_str(tuple(h))}: its number token went to a new island "
                              "(TDE3-010)") for h in imp["home_blank"]))
    idle = Layer("unproductive", "home-island building without production (TDE3-013)", "ring", "#e53935",
                 tuple(Glyph(tuple(n), "", None, f"the building at {node_str(tuple(n))} has no numbered hex left "
                             "(TDE3-013)") for n in imp["unproductive"]))
    return [awaiting, blank, idle]


def impoverishment_explained(state: State, imp: dict[str, Any]) -> dict[str, Any]:
    """The reserve, the hexes waiting for a token and, with the reserve empty, where each would take its
    token from and which limitations give way (TDE3-009..014, R-026, R-063)."""
    left = imp["reserve_left"]
    parts = [f"{left} token{'s' if left != 1 else ''} left face down in the reserve (TDE3-005): a road or ship "
             "placed beside a new-island hex without a token brings it one, drawn blind from the reserve while it "
             "lasts (TDE3-009, R-063)",
             f"{len(imp['awaiting'])} new-island hex{' still awaits' if len(imp['awaiting']) == 1 else 'es still await'} "
             "a token"]
    if left:
        parts.append("once the reserve is empty, tokens come from the home island (TDE3-010)")
    else:
        parts.append(f"the reserve is empty: each token now moves from a home-island hex (TDE3-010); "
                     f"{imp['home_tokens']} tokens are left there")
    sources = {}
    for key, src in imp["next_sources"].items():
        dropped = src["limits_dropped"]
        words = (f"for {key}, player {state.current_player} would take the token from "
                 + (", ".join(f"{q},{r}" for q, r in src["from"]) or "no hex: none is left"))
        if src["from"]:
            words += (": no red token beside another red on the new islands (1, TDE3-011), from a hex at one of "
                      "the placer's own buildings (2, TDE3-012), leaving no home-island building without production "
                      "(3, TDE3-013)")
            if dropped:
                words += ("; no hex meets them all, so limitation" + ("s " if len(dropped) > 1 else " ")
                          + " and ".join(f"{LIMIT_NUMBER[d]} ({d})" for d in dropped)
                          + " give" + ("" if len(dropped) > 1 else "s") + " way, in the order 1, 2, 3 (TDE3-014, R-026)")
        sources[key] = {**src, "why": words}
    if imp["unproductive"]:
        parts.append(f"{len(imp['unproductive'])} home-island building(s) have no numbered hex left: "
                     + ", ".join(node_str(tuple(n)) for n in imp["unproductive"])
                     + " (limitation 3, TDE3-013, keeps a building's last numbered hex unless no other token "
                       "can move, TDE3-014)")
    return {"reserve_left": left, "awaiting": imp["awaiting"], "home_blank": imp["home_blank"],
            "next_sources": sources, "unproductive": imp["unproductive"], "why": "; ".join(parts)}


def cities_explained(state: State, scen: Any) -> dict[str, Any]:
    """TDE3-006 (R-028): 8 cities per player."""
    have = {str(p): sum(1 for q, k in state.buildings.values() if q == p and k == "city")
            for p in range(state.num_players)}
    return {"per_player": scen.supply["cities"], "built": have,
            "why": f"each player has {scen.supply['cities']} cities: the usual 4 and 4 more from the box "
                   f"(TDE3-006, R-028); built: " + ", ".join(f"player {p} {n}" for p, n in have.items())}


__all__ = ["impoverishment_layers", "impoverishment_explained", "cities_explained", "LIMIT_NUMBER"]
