"""How random play leans in The Great Canal (``PLAY_LEAN``, read by ``selfplay``): the game is won with
the canal's Catan chips (TDE5-013) and the grain the flood brings (TDE5-020), and the canal is dug only by
two active knights on the corners of a canal hex (TDE5-012, R-072), so random play leans towards knights
on the canal: built there, activated there, moved there (first where another active knight already
stands, which digs at once), and towards a trade for the grain that activates them while the fields are
barren (TDE5-004). Every other legal action stays possible."""
from __future__ import annotations

from ...core import Action
from ...geometry import hex_corners
from ...module import PlayLean
from ...state import State
from ..cities_and_knights import store


def _undug(s: State) -> list[set]:
    return [set(hex_corners(tuple(t["hex"]))) for t in s.scenario_state.get("canal") or () if not t["dug"]]


def _knights(s: State) -> list[dict]:
    return store.ck(s)["knights"] if store.KEY in s.scenario_state else []


def on_canal(s: State, node) -> bool:
    """An intersection on a corner of a canal hex not yet dug."""
    return node is not None and any(tuple(node) in cs for cs in _undug(s))


def to_canal(s: State, a: Action) -> bool:
    """A knight moved from off the canal onto a corner of a canal hex."""
    return on_canal(s, a.get("to")) and not on_canal(s, a.get("from"))


def digs(s: State, a: Action) -> bool:
    """A knight moved onto a canal hex where another active knight stands: the two dig it (TDE5-012)."""
    to, fr = a.get("to"), a.get("from")
    if to is None or fr is None:
        return False
    active = {tuple(k["node"]) for k in _knights(s) if k["active"]}
    return any(tuple(to) in cs and tuple(fr) not in cs and cs & active for cs in _undug(s))


def grain_for_knight(s: State, a: Action) -> bool:
    """A bank trade for grain by a player without grain and with an inactive knight on the canal."""
    if not (a.get("get") or {}).get("grain") or s.players[a.player].resources.get("grain", 0):
        return False
    return any(k["player"] == a.player and not k["active"] and on_canal(s, k["node"]) for k in _knights(s))


PLAY_LEAN = (
    PlayLean("build_knight", lambda s, a: on_canal(s, a.get("node")), "a knight built on the canal"),
    PlayLean("activate_knight", lambda s, a: on_canal(s, a.get("node")), "a knight on the canal activated"),
    PlayLean("move_knight", digs, "a knight moved beside another active one on the canal (it digs)"),
    PlayLean("move_knight", digs, "the same, twice as likely"),
    PlayLean("move_knight", to_canal, "a knight moved onto the canal"),
    PlayLean("maritime_trade", grain_for_knight, "grain for a knight on the canal (no grain before the flood)"),
)

__all__ = ["PLAY_LEAN", "on_canal", "to_canal", "digs", "grain_for_knight"]
