"""What one player (a seat) may know: the secrets the rule modules declare, and views that keep them.

Each module declares, in ``SECRETS``, what its data holds that some players may not see: a
:class:`Secret` names a place in an answer (the position, its derived values or an event), how it is shown to
a player who may not see it (``mask``) and who may (``owner``, ``seen_by``). The places are JSON pointers into
the position as answered (``state:/players/*/resources``), the derived values (``derived:/...``) or an
event's field (``event:stole/resource``); a ``*`` stands for every key or index there, and the first ``*`` of
a secret with ``owner="*"`` names the player it belongs to (a player's index, or a per-player key ``"0"``).

A view is made from the referee's full answer (plain JSON data, never changed: the parts a mask changes are
copied), so every endpoint answers a seat through the same functions: :func:`view_state`,
:func:`view_derived`, :func:`view_events`. ``docs/seats.md`` lists every declared secret
(:func:`secrets_table`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Optional, Union

#: How a masked value is shown: ``"count"`` (cards by kind -> how many in all; a list -> its length),
#: ``"hidden"`` (null), or a function of the value giving what is shown.
Mask = Union[str, Callable[[Any], Any]]

#: The key a view of a position carries (decision D-seat-view, docs/seats.md): a position answered to a seat
#: is not a position the service takes back.
VIEW_KEY = "seat_view"


@dataclass(frozen=True)
class Secret:
    """One thing kept from some players.

    ``where``: ``"state:<pointer>"``, ``"derived:<pointer>"``, ``"legal:<pointer>"`` (into a legal-action
    list, no ``*``: see :func:`view_legal`), ``"picture:"`` (:func:`picture_state`) or
    ``"event:<type>/<field>"``.
    ``owner`` (positions and derived values): ``"*"``: the player the first ``*`` names sees it, the others
    see the mask; ``""``: nobody sees it (a face-down pile, a seeded draw to come). ``seen_by`` (events): the
    event's fields naming the players who see it (none: nobody but the referee). ``rules``: what it enforces
    (rule IDs, rulings). ``open_when`` (positions and derived values, ``owner="*"``): a function
    ``(answer, owner) -> bool`` of the whole document the place is in and the place's owner; true: the place
    is shown to every player (victory-point cards once the game is over, BASE-DEV-9)."""
    where: str
    mask: Mask
    doc: str
    owner: str = "*"
    seen_by: tuple[str, ...] = ()
    rules: str = ""
    open_when: Optional[Callable[[Any, int], bool]] = None

    def is_open(self, answer: Any, owner: Optional[int]) -> bool:
        """Whether the place owned by ``owner`` is shown to every player in ``answer`` (``open_when``)."""
        return self.open_when is not None and owner is not None and bool(self.open_when(answer, owner))

    @property
    def root(self) -> str:
        return self.where.split(":", 1)[0]

    @property
    def path(self) -> tuple[str, ...]:
        rest = self.where.split(":", 1)[1]
        return tuple(p for p in rest.split("/") if p != "")


def _masked(value: Any, mask: Mask) -> Any:
    if callable(mask):
        return mask(value)
    if mask == "count":
        if isinstance(value, dict):
            return sum(v for v in value.values() if isinstance(v, int))
        if isinstance(value, list):
            return len(value)
        return value
    if mask == "hidden":
        return None
    raise ValueError(f"unknown mask {mask!r}")


def _owner_of(key: Any) -> Optional[int]:
    if isinstance(key, int):
        return key
    if isinstance(key, str) and key.isdigit():
        return int(key)
    return None


def _apply(node: Any, path: tuple[str, ...], secret: Secret, seat: int, owner: Optional[int], found: list,
           answer: Any = None) -> Any:
    """``node`` with ``secret`` masked below it along ``path`` (copies where it changes; ``node`` itself when
    nothing changes). ``found`` collects the pointers masked (the parts of ``path`` matched); ``answer``: the
    whole document (``Secret.open_when``)."""
    if not path:
        if secret.owner == "*" and (owner == seat or secret.is_open(answer, owner)):
            return node
        found.append(None)
        return _masked(node, secret.mask)
    head, rest = path[0], path[1:]
    first_star = secret.owner == "*" and owner is None
    if isinstance(node, dict):
        keys = list(node) if head == "*" else ([head] if head in node else [])
        out = node
        for k in keys:
            got = _apply(node[k], rest, secret, seat, _owner_of(k) if head == "*" and first_star else owner, found,
                         answer)
            if got is not node[k]:
                if out is node:
                    out = dict(node)
                out[k] = got
        return out
    if isinstance(node, list) and (head == "*" or head.isdigit()):
        idx = range(len(node)) if head == "*" else ([int(head)] if int(head) < len(node) else [])
        out_l = node
        for i in idx:
            got = _apply(node[i], rest, secret, seat, i if head == "*" and first_star else owner, found, answer)
            if got is not node[i]:
                if out_l is node:
                    out_l = list(node)
                out_l[i] = got
        return out_l
    return node


def _view(doc: Any, root: str, secrets: Iterable[Secret], seat: int) -> Any:
    answer = doc
    for s in secrets:
        if s.root == root:
            doc = _apply(doc, s.path, s, seat, None, [], answer)
    return doc


def view_state(doc: dict[str, Any], secrets: Iterable[Secret], seat: int) -> dict[str, Any]:
    """The position ``doc`` (as answered) as ``seat`` may see it, marked as a view (``seat_view``)."""
    out = _view(doc, "state", secrets, seat)
    out = dict(out)
    out[VIEW_KEY] = {"seat": seat}
    return out


def view_derived(doc: Any, secrets: Iterable[Secret], seat: int) -> Any:
    """The derived values ``doc`` as ``seat`` may see them."""
    return _view(doc, "derived", secrets, seat)


def view_legal(doc: dict[str, Any], secrets: Iterable[Secret], seat: int, state: Any, graph: Any, scenario: Any
               ) -> dict[str, Any]:
    """A legal-action list of ``seat`` (``LegalActions.to_json()``) as the seat may see it, so that it is the
    same whatever the seat cannot see: each ``legal:`` secret's mask, a function ``(listed, seat, state,
    graph, scenario)``, gives what is listed at its place (None: nothing) from what the seat knows alone (a
    module lists, say, the trades the seat may propose rather than those the partners' hands allow)."""
    out = doc
    for s in secrets:
        if s.root != "legal":
            continue
        *parents, last = s.path
        node = out = dict(out)
        for p in parents:
            node[p] = dict(node.get(p) or {})
            node = node[p]
        got = s.mask(node.get(last), seat, state, graph, scenario)
        if got is None:
            node.pop(last, None)
        else:
            node[last] = got
    if out is not doc and isinstance(out.get("actions"), dict) and "count" in out:    # (the actions listed)
        out["count"] = sum(len(v) for v in out["actions"].values())
    return out


def picture_state(state: Any, secrets: Iterable[Secret], seat: int) -> Any:
    """The position a picture for ``seat`` is drawn from: each ``picture:`` secret's mask, a function
    ``(state, seat) -> state`` (a new state, the given one never changed), takes out what the board would show
    and the seat may not see (a face-down token's number)."""
    for s in secrets:
        if s.root == "picture":
            state = s.mask(state, seat)
    return state


def view_events(events: Optional[list], secrets: Iterable[Secret], seat: int) -> Optional[list]:
    """The events as ``seat`` may see them: a field only some players see is masked for the others (a
    stolen card, a drawn card)."""
    if not events:
        return events
    by_type: dict[str, list[Secret]] = {}
    for s in secrets:
        if s.root == "event":
            by_type.setdefault(s.path[0], []).append(s)
    if not by_type:
        return events
    out = []
    for e in events:
        own = by_type.get(e.get("type")) if isinstance(e, dict) else None
        if own:
            for s in own:
                field = s.path[1]
                if field in e and seat not in [e.get(k) for k in s.seen_by]:
                    e = {**e, field: _masked(e[field], s.mask)}
        out.append(e)
    return out


def hidden_places(doc: Any, root: str, secrets: Iterable[Secret], seat: int) -> list[tuple[Secret, tuple]]:
    """Every place of ``doc`` that ``seat`` may not see, as ``(secret, concrete path)``: what a test may
    change without changing what the seat sees."""
    out: list[tuple[Secret, tuple]] = []

    def walk(node: Any, path: tuple, at: tuple, s: Secret, owner: Optional[int]) -> None:
        if not path:
            if not (s.owner == "*" and (owner == seat or s.is_open(doc, owner))):
                out.append((s, at))
            return
        head, rest = path[0], path[1:]
        first_star = s.owner == "*" and owner is None
        if isinstance(node, dict):
            for k in (list(node) if head == "*" else ([head] if head in node else [])):
                walk(node[k], rest, at + (k,), s, _owner_of(k) if head == "*" and first_star else owner)
        elif isinstance(node, list) and (head == "*" or head.isdigit()):
            for i in (range(len(node)) if head == "*" else [int(head)] if int(head) < len(node) else []):
                walk(node[i], rest, at + (i,), s, i if head == "*" and first_star else owner)

    for s in secrets:
        if s.root == root:
            walk(doc, s.path, (), s, None)
    return out


def secrets_table(declared: Iterable[tuple[str, Secret]]) -> str:
    """The secrets ``[(module, secret)]`` as a Markdown table (``docs/seats.md``)."""
    rows = ["| Module | Where | Shown to the others | Who sees it | What it is | Rules |",
            "|---|---|---|---|---|---|"]
    seen = set()
    for mod, s in declared:
        if (mod, s.where) in seen:
            continue
        seen.add((mod, s.where))
        mask = s.mask if isinstance(s.mask, str) else " ".join((s.mask.__doc__ or "masked").split())
        shown = {"count": "a count", "hidden": "null"}.get(mask, mask)
        if s.root == "legal":
            who = "the seat's own list is made so"
        elif s.root == "picture":
            who = "nobody (the referee's picture only)"
        elif s.root == "event" and s.seen_by:
            who = "the players named by " + ", ".join(f"`{f}`" for f in s.seen_by)
        elif s.root == "event" or s.owner == "":
            who = "nobody (the referee only)"
        else:
            who = "its owner"
        rows.append(f"| {mod} | `{s.where}` | {shown} | {who} | {s.doc} | {s.rules} |")
    return "\n".join(rows) + "\n"


def secrets_doc() -> str:
    """The table of every secret some game's modules declare (``docs/seats.md``, written by ``bin/contract``)."""
    from .scenarios import all_games
    declared: list[tuple[str, Secret]] = []
    for game in all_games().values():
        for pair in game.composition.secrets:
            if pair not in declared:
                declared.append(pair)
    order = {"base": 0, "seafarers": 1, "cities_and_knights": 2}
    declared.sort(key=lambda ms: (order.get(ms[0], 3), ms[0]))
    return secrets_table(declared)


__all__ = ["picture_state", "secrets_doc", "view_legal", "Secret", "Mask", "VIEW_KEY", "view_state", "view_derived", "view_events", "hidden_places",
           "secrets_table"]
