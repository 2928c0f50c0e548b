"""Treasures, Dragons & Explorers scenario 6, "Enchanted Land" (3 and 4 players, seeds/003).

The game is the base game, Seafarers and Cities & Knights together, the scenario text winning where they
differ (TDE6-001, R-079): the stack is the map module (:class:`EnchantedLandMap`: map, set-up, building on
the Enchanted Land), the Cities & Knights module above it, and the scenario's rules with Cities & Knights
above that (:class:`EnchantedLandRules`: knights sent across, moving and fighting dragons, the card
exceptions, the barbarians, the end). It is never played without Cities & Knights: a game or a posted
position without ``cities_and_knights: true`` is refused (HTTP 422, R-079).

Decided here (the text leaves it open), once each:

- the map (``maps.py``), the dragons' flags (8 one-flag, 6 two-flag, 5 three-flag tokens, R-077 leaves
  them to the token data), and that a dragon's flags stay known once it was fought and not beaten
  (the token lies face down again, but everybody saw it);
- the landing of a ship line (R-075) is any Enchanted Land intersection one of the player's ships touches
  and that his roads, buildings and ships join to the knight's intersection;
- knights reach the Enchanted Land only by being sent (TDE6-012): none is built there, none is placed
  there by a Deserter, none walks there along ships by the ordinary knight move;
- no settlement is built on an intersection holding a dragon token (the token takes the intersection);
- a displaced knight with no free inland intersection of the Enchanted Land left goes back to its owner's
  supply (as CK-KNIGHT-10), and its owner still may not send another (TDE6-013: one knight each, ever);
- sending is instantaneous, so no knight is ever "on a ship crossing the sea" (TDE6-023 then concerns
  the knights on the Enchanted Land only).
"""
from __future__ import annotations

from typing import Any, Optional

from ...core import Ctx, Violation
from ...geometry import edge_hexes, node_str
from ...module import ActionSpec, EventSpec
from ...picture import Glyph, Layer
from ...rng import Rng
from ...scenarios._sc_common import player_count_problems
from ...scenarios.mapdata import MappedScenario
from ...scenarios.seafarers import Seafarers
from ...spec import NODE, PLAYER, Any_, Bool, F, Int, List, Null, Obj, Str, by_player
from ...state import State
from ..cities_and_knights import store
from ..cities_and_knights.module import CitiesAndKnights
from ..cities_and_knights.required import PlayedWithCitiesAndKnights, option_spec
from . import knights as K
from . import land as L
from .maps import DRAGONS, FLAG_TOKENS, MAP_SPECS, component_table, fixed_harbors

VP_TARGET = {3: 21, 4: 18}                     # TDE6-026
DRAGONS_TO_WIN = 6                             # TDE6-026, R-078


class EnchantedLandMap(MappedScenario, Seafarers):
    """The map, the set-up and building on the Enchanted Land (TDE6-003..011)."""
    id = "TDE6"
    module_name = "TDE6"
    name = "Enchanted Land"
    source = "Treasures, Dragons & Explorers, scenario 6 (its rules: GET /v1/rules?prefix=TDE6)"
    players = (3, 4)                                          # TDE6-002
    vp_target = 21
    pirate = False                                            # TDE6-008: the robber only
    setup_rounds = 3                                          # TDE6-006: settlement, city, settlement
    component_rule = "TDE6-003"
    component_tables = {n: component_table(n) for n in (3, 4)}
    map_specs = MAP_SPECS

    WITHOUT_ACTIONS = ("move_pirate",)                        # TDE6-008
    STATE = {
        "dragons": F(List(Obj({"node": F(NODE, required=True),
                               "flags": F(Null(Int(1, 3)), nullable=True,
                                          doc="null: face down and never seen; else seen in a lost fight")}),
                          max_len=DRAGONS), doc="TDE6-005: the dragon tokens on the Enchanted Land"),
        "dragon_pool": F(Obj({k: F(Int(0, DRAGONS), required=True) for k in L.FLAG_KEYS}),
                         doc="R-077: the flags of the tokens never turned over (1, 2, 3 flags: how many)"),
        "defeated": F(by_player(List(Int(1, 3), max_len=DRAGONS)), doc="TDE6-021: the flags of each dragon taken"),
        "sent": F(List(PLAYER, max_len=4), doc="TDE6-013: the players who sent their one knight across"),
    }

    # -- a new game --------------------------------------------------------------------------------
    def new_board(self, num_players: int, rng: Rng) -> dict[str, Any]:
        board = super().new_board(num_players, rng)
        board["harbors"] = fixed_harbors()                   # TDE6-003: harbours as shown
        board["pirate"] = None                               # TDE6-008
        return board

    def initial_scenario_state(self, num_players: int, board: dict) -> dict[str, Any]:
        out = super().initial_scenario_state(num_players, board)
        out.update(L.initial(num_players))                   # TDE6-005
        return out

    # -- checks ------------------------------------------------------------------------------------
    def check(self, ctx: Ctx) -> list[Violation]:
        out = super().check(ctx)
        if out:
            return out
        s, a = ctx.state, ctx.action
        t = a.type
        if t == "build_settlement":
            node = a.get("node")
            if s.phase == "setup":
                if not L.on_home(s, node) or L.on_el(s, node):
                    return [Violation("TDE6-006", f"the starting settlements and the city go on the home island; "
                                      f"{node_str(node)} is not on it", "/action/node")]
                if s.setup.round == self.setup_rounds and not L.coastal(s, node) and not any(
                        o == a.player and L.coastal(s, n) for n, (o, _k) in s.buildings.items()):
                    return [Violation("TDE6-007", f"each player has a coastal starting building: the last one, "
                                      f"{node_str(node)}, must touch the sea", "/action/node", "R-074")]
                return []
            if L.on_el(s, node):
                if not L.coastal(s, node):
                    return [Violation("TDE6-009", f"settlements on the Enchanted Land stand on its coast only; "
                                      f"{node_str(node)} is inland", "/action/node")]
                if L.dragon_at(s, node) is not None:
                    return [Violation("TDE6-009", f"a dragon token lies on {node_str(node)}: no settlement there",
                                      "/action/node")]
        elif t == "build_city" and L.on_el(s, a.get("node")):
            return [Violation("TDE6-010", "a settlement on the Enchanted Land is never upgraded to a city",
                              "/action/node")]
        elif t == "build_road" and self._el_edge(s, a.get("edge")):
            return [Violation("TDE6-011", "no road is built on the Enchanted Land, neither on its coast nor inland",
                              "/action/edge")]
        return []

    @staticmethod
    def _el_edge(s: State, e: Any) -> bool:
        if e is None:
            return False
        el = L.el_hexes(s)
        return any(h in el for h in edge_hexes(tuple(e)))

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = super().validate_state(state)
        out += player_count_problems(state, self.players, "TDE6-002")
        if state.pirate is not None:
            out.append(("/state/pirate", "TDE6-008: there is no pirate in this scenario (leave it null)"))
        ss = state.scenario_state or {}
        base = "/state/scenario_state"
        el = L.el_hexes(state)
        seen: dict = {}
        face_down = 0
        for i, d in enumerate(ss.get("dragons") or ()):
            n = tuple(d["node"])
            if not L.on_el(state, n, el):
                out.append((f"{base}/dragons/{i}/node", f"TDE6-005: dragons lie on the Enchanted Land; {node_str(n)} "
                            "is not on it"))
            if n in seen:       # both tokens named: either may be the one misplaced
                why = f"TDE6-005: one dragon token per intersection; {node_str(n)} is listed twice"
                out.append((f"{base}/dragons/{i}/node", why))
                out.append((f"{base}/dragons/{seen[n]}/node", why))
            else:
                seen[n] = i
            face_down += d.get("flags") is None
        pool = ss.get("dragon_pool")
        taken = sum(len(v or ()) for v in (ss.get("defeated") or {}).values())
        if len(seen) + taken > DRAGONS:
            out.append((f"{base}/dragons", f"TDE6-005: there are {DRAGONS} dragon tokens; the board and the players "
                        f"hold {len(seen) + taken}"))
        if pool is not None:
            if sum(pool.values()) != face_down:
                out.append((f"{base}/dragon_pool", f"R-077: {face_down} dragon(s) were never turned over, but the "
                            f"unseen flags add up to {sum(pool.values())}"))
            seen_flags = {k: 0 for k in L.FLAG_KEYS}
            for d in ss.get("dragons") or ():
                if d.get("flags") is not None:
                    seen_flags[str(d["flags"])] += 1
            for v in (ss.get("defeated") or {}).values():
                for f in v or ():
                    seen_flags[str(f)] += 1
            for k in L.FLAG_KEYS:
                if pool.get(k, 0) + seen_flags[k] > FLAG_TOKENS[int(k)]:
                    out.append((f"{base}/dragon_pool/{k}", f"R-077: there are {FLAG_TOKENS[int(k)]} dragons with "
                                f"{k} flag(s); the position accounts for {pool.get(k, 0) + seen_flags[k]}"))
        for p in (ss.get("defeated") or {}):
            if not p.isdigit() or int(p) >= state.num_players:
                out.append((f"{base}/defeated/{p}", f"player {p} does not exist"))
        for i, p in enumerate(ss.get("sent") or ()):
            if p >= state.num_players:
                out.append((f"{base}/sent/{i}", f"player {p} does not exist"))
        return out


class EnchantedLandRules:
    """The scenario's rules with Cities & Knights (TDE6-012..026), stacked above the C&K module."""
    module_name = "TDE6_cities_and_knights"

    ACTIONS = (
        ActionSpec("transfer_knight", {
            "from": F(NODE, required=True, doc="the active home-island knight sent"),
            "to": F(NODE, required=True, doc="the landing of the ship line (TDE6-014: beside an own settlement there)"),
            "retreat": F(NODE, nullable=True, doc="TDE6-018: where the displacing player puts a weaker knight found "
                                                  "on the landing (any free inland Enchanted Land intersection)")},
            "TDE6-012..015, R-075: send an active knight along the player's roads and ship line to the Enchanted "
            "Land (one knight per player, never back); it arrives inactive.", handler=K.TransferKnight.HANDLER,
            candidates=K.knight_candidates),
        ActionSpec("move_knight", {}, "CK-KNIGHT-6 on the home island; on the Enchanted Land 1-3 intersections "
                   "freely, not ending on its coast but on a dragon (TDE6-016/017, R-076).",
                   handler=K.MoveKnight.HANDLER),
        ActionSpec("displace_knight", {}, "CK-KNIGHT-7 on the home island; on the Enchanted Land the displacing "
                   "player puts the weaker knight (retreat) on any free inland intersection (TDE6-018, R-076).",
                   handler=K.DisplaceKnight.HANDLER),
        ActionSpec("fight_dragon", {
            "node": F(NODE, required=True, doc="the knight's intersection, holding a dragon"),
            "flags": F(Null(Int(1, 3)), nullable=True, doc="the flags the token shows when turned over, as observed "
                                                           "(left out, the seeded generator turns it)")},
            "TDE6-019..022, R-077: an active knight activated in an earlier turn fights the dragon it stands on: "
            "basic beats 1 flag, strong 2, mighty 3.", handler=K.FightDragon.HANDLER),
    )
    requires_rule = "TDE6-002"                                     # played only with Cities & Knights
    OPTIONS = (option_spec(EnchantedLandMap.name, requires_rule),)
    DERIVED = {
        "enchanted_land": F(Obj({
            "knights": F(List(Obj({"node": F(NODE), "player": F(PLAYER), "level": F(Int(1, 3)),
                                   "strength": F(Str(("basic", "strong", "mighty"))),
                                   "state": F(Str(("active", "inactive"))), "on_dragon": F(Bool()),
                                   "may_fight": F(Bool(), doc="TDE6-019: active, activated in an earlier turn, on a "
                                                              "dragon, not acted this turn")}), max_len=4),
                         doc="TDE6-012..019: the knights on the Enchanted Land"),
            "dragons": F(List(Obj({"node": F(NODE), "flags": F(Null(Int(1, 3))),
                                   "beaten_by": F(Null(Str(max_len=40)), doc="TDE6-020, once its flags are known")}),
                              max_len=DRAGONS), doc="TDE6-005: the dragons left, with their strength when known"),
            "dragons_left": F(Int(0, DRAGONS)),
            "face_down_flags": F(Obj({k: F(Int(0, DRAGONS)) for k in L.FLAG_KEYS}),
                                 doc="R-077: the flags of the tokens never turned over"),
            "defeated": F(by_player(Int(0, DRAGONS)), doc="TDE6-021: dragons taken per player"),
            "to_win": F(by_player(Int(0, DRAGONS_TO_WIN)), doc="TDE6-026: dragons each player still needs"),
            "sent": F(List(PLAYER, max_len=4), doc="TDE6-013: players whose one knight went across"),
            "vp_target": F(Int(0, 30), doc="TDE6-026: 21 (3 players) or 18 (4 players)"),
            "vp_by_source": F(by_player(Any_("VP per source (buildings, cards, metropolises, dragons...)"))),
        }), doc="Enchanted Land (TDE6-*)"),
    }
    EVENTS = (
        EventSpec("knight_sent", {"player": F(PLAYER), "from": F(NODE), "to": F(NODE)},
                  "TDE6-012: a knight went to the Enchanted Land"),
        EventSpec("dragon_fought", {"player": F(PLAYER), "node": F(NODE), "flags": F(Int(1, 3)),
                                    "level": F(Int(1, 3)), "won": F(Bool())},
                  "TDE6-019..022: a knight fought a dragon"),
    )

    # -- a new game --------------------------------------------------------------------------------
    def new_game(self, num_players: int, seed: int, options: Optional[dict] = None) -> State:
        state = super().new_game(num_players, seed, options)
        state.vp_target = VP_TARGET.get(num_players, 21)     # TDE6-026
        return state

    # -- checks ------------------------------------------------------------------------------------
    def check(self, ctx: Ctx) -> list[Violation]:
        out = super().check(ctx)
        if out:
            return out
        s, a = ctx.state, ctx.action
        t = a.type
        if t == "build_knight" and L.on_el(s, a.get("node")):
            return [Violation("TDE6-012", "knights reach the Enchanted Land only by being sent across "
                              "(transfer_knight); none is built there", "/action/node", "R-075")]
        if t != "play_progress":
            return []
        card = a.get("card")
        if card == "inventor":
            el = L.el_hexes(s)
            for i, h in enumerate(a.get("hexes") or ()):
                if tuple(h) in el:                                             # TDE6-024
                    return [Violation("TDE6-024", "the Inventor moves no number token of the Enchanted Land",
                                      f"/action/hexes/{i}")]
        elif card == "deserter":
            if a.get("removed") is not None and L.on_el(s, a.get("removed")):  # TDE6-025
                return [Violation("TDE6-025", "a Deserter takes no knight on the Enchanted Land", "/action/removed")]
            victim_knights = [k for k in store.knights(s) if k["player"] == a.get("target")]
            if a.get("target") is not None and victim_knights and all(L.on_el(s, k["node"]) for k in victim_knights):
                return [Violation("TDE6-025", f"player {a.get('target')}'s only knights are on the Enchanted Land: "
                                  "a Deserter cannot be played against them", "/action/target")]
            if a.get("node") is not None and L.on_el(s, a.get("node")):
                return [Violation("TDE6-012", "knights reach the Enchanted Land only by being sent across; a "
                                  "Deserter's knight is not placed there", "/action/node", "R-075")]
        elif card == "intrigue":
            if a.get("node") is not None and L.on_el(s, a.get("node")):        # TDE6-025
                return [Violation("TDE6-025", "Intrigue displaces no knight on the Enchanted Land", "/action/node")]
        elif card == "medicine" and a.get("node") is not None and L.on_el(s, a.get("node")):
            return [Violation("TDE6-010", "a settlement on the Enchanted Land is never upgraded to a city",
                              "/action/node")]
        elif card == "road_building":
            for i, piece in enumerate(a.get("pieces") or ()):
                if piece.get("kind") == "road" and self._el_edge(s, piece.get("edge")):
                    return [Violation("TDE6-011", "no road is built on the Enchanted Land",
                                      f"/action/pieces/{i}/edge")]
        elif card == "diplomat" and a.get("replace") is not None and self._el_edge(s, a.get("replace")):
            return [Violation("TDE6-011", "no road is built on the Enchanted Land", "/action/replace")]
        return []

    # -- hooks -------------------------------------------------------------------------------------
    def knight_defends(self, state: State, knight: dict) -> bool:
        """TDE6-023: knights on the Enchanted Land neither defend against the barbarians nor are deactivated
        by their attack."""
        return not L.on_el(state, knight["node"])

    def after_action(self, ctx: Ctx, s: State) -> None:
        super().after_action(ctx, s)
        before = ctx.state
        if (ctx.action.type == "roll" and store.KEY in s.scenario_state
                and store.ck(s)["attacks"] > store.ck(before)["attacks"]):
            was = {tuple(k["node"]): k["active"] for k in store.knights(before)}
            for k in store.knights(s):                       # TDE6-023: not deactivated by the attack
                if L.on_el(s, k["node"]) and was.get(tuple(k["node"])):
                    k["active"] = True

    def knight_may_stand(self, state: State, knight: dict, node: Any) -> bool:
        """TDE6-012: a knight reaches the Enchanted Land only by being sent; a displaced home-island
        knight does not retreat there along its owner's ships (nor leaves it: TDE6-013)."""
        return L.on_el(state, node) == L.on_el(state, knight["node"])

    def vp_extra(self, state: State, player: int) -> dict[str, int]:
        out = dict(super().vp_extra(state, player))
        out["dragons"] = len(L.defeated(state, player))      # TDE6-021: 1 VP each
        return out

    def end_condition(self, state: State) -> Optional[int]:
        """TDE6-026, R-078: defeating one's sixth dragon wins at once (only on one's own turn)."""
        for p in range(state.num_players):
            if len(L.defeated(state, p)) >= DRAGONS_TO_WIN:
                return p
        return super().end_condition(state)

    def derived_extra(self, state: State, graph: Any) -> dict[str, Any]:
        out = dict(super().derived_extra(state, graph))
        from ...derive import victory_points
        el = L.el_hexes(state)
        kn = []
        if store.KEY in state.scenario_state:
            for k in store.knights(state):
                if not L.on_el(state, k["node"], el):
                    continue
                on_dragon = L.dragon_at(state, k["node"]) is not None
                kn.append({"node": list(k["node"]), "player": k["player"], "level": k["level"],
                           "strength": L.LEVEL_WORDS[k["level"]], "state": "active" if k["active"] else "inactive",
                           "on_dragon": on_dragon,
                           "may_fight": bool(on_dragon and k["active"] and not k.get("activated")
                                             and not k.get("acted"))})
        ds = [{"node": list(d["node"]), "flags": d.get("flags"),
               "beaten_by": L.BEATEN_BY.get(d.get("flags"))} for d in L.dragons(state)]
        n = state.num_players
        out["enchanted_land"] = {
            "knights": kn, "dragons": ds, "dragons_left": len(ds), "face_down_flags": L.pool(state),
            "defeated": {str(p): len(L.defeated(state, p)) for p in range(n)},
            "to_win": {str(p): max(0, DRAGONS_TO_WIN - len(L.defeated(state, p))) for p in range(n)},
            "sent": L.sent(state), "vp_target": state.vp_target,
            "vp_by_source": {str(p): victory_points(state, self, p) for p in range(n)},
        }
        return out

    def board_layers(self, state: State, graph: Any) -> list:
        out = list(super().board_layers(state, graph))
        dragons = tuple(Glyph(tuple(d["node"]), "?" if d.get("flags") is None else str(d["flags"]),
                              note=("a dragon, face down (TDE6-005)" if d.get("flags") is None else
                                    f"a dragon of {d['flags']} flag(s): beaten by {L.BEATEN_BY[d['flags']]} "
                                    "(TDE6-020)")) for d in L.dragons(state))
        out.append(Layer("tde6-dragon", "dragon token (flags, ? unseen: TDE6-005, TDE6-020)", "diamond", "#b71c1c",
                         dragons))
        el = L.el_hexes(state)
        if store.KEY in state.scenario_state:
            ks = tuple(Glyph(tuple(k["node"]), "K" + str(k["level"]), k["player"],
                             f"player {k['player']}'s {L.LEVEL_WORDS[k['level']]} knight on the Enchanted Land, "
                             f"{'active' if k['active'] else 'inactive'} (TDE6-016)")
                       for k in store.knights(state) if L.on_el(state, k["node"], el))
            out.append(Layer("tde6-knight", "knight on the Enchanted Land (TDE6-012..019)", "ring", "#6a1b9a", ks))
        return out

    def explain_extra(self, state: State, graph: Any) -> dict[str, Any]:
        out = dict(super().explain_extra(state, graph))
        n = state.num_players
        taken = {p: len(L.defeated(state, p)) for p in range(n)}
        out["enchanted_land"] = {
            "dragons": {str(p): taken[p] for p in range(n)},
            "why": (f"{len(L.dragons(state))} dragon(s) are left on the Enchanted Land (TDE6-005); each one taken "
                    f"counts 1 VP (TDE6-021) and the sixth wins at once (TDE6-026, R-078); taken so far: "
                    + ", ".join(f"player {p} {taken[p]}" for p in range(n))
                    + f". A fight is won when the knight's strength (basic 1, strong 2, mighty 3) reaches the "
                      f"dragon's flags (TDE6-020, R-077). Otherwise the game is won with {state.vp_target} VP on "
                      "one's own turn (TDE6-026). Knights on the Enchanted Land do not meet the barbarians "
                      "(TDE6-023)."),
        }
        return out

    def validate_state(self, state: State) -> list[tuple[str, str]]:
        out = super().validate_state(state)
        if store.KEY not in (state.scenario_state or {}):
            return out
        el = L.el_hexes(state)
        on = [k for k in store.knights(state) if L.on_el(state, k["node"], el)]
        sent = L.sent(state)
        for i, k in enumerate(store.knights(state)):
            if k in on and k["player"] not in sent:
                out.append((f"/state/scenario_state/{store.KEY}/knights/{i}", f"TDE6-012: player {k['player']}'s "
                            "knight stands on the Enchanted Land but is not listed as sent (sent)"))
        for p in range(state.num_players):
            if sum(1 for k in on if k["player"] == p) > 1:
                out.append(("/state/scenario_state/sent", f"TDE6-013: player {p} has more than one knight on the "
                            "Enchanted Land"))
        return out


class EnchantedLand(EnchantedLandRules, PlayedWithCitiesAndKnights, CitiesAndKnights, EnchantedLandMap):
    """TDE6-001, TDE6-002, R-079: base, Seafarers and Cities & Knights combined, the scenario's text above them;
    never without Cities & Knights."""
    id = "TDE6"


__all__ = ["EnchantedLand", "EnchantedLandMap", "EnchantedLandRules", "VP_TARGET", "DRAGONS_TO_WIN"]
