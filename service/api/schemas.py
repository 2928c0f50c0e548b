"""Marshmallow schemas: the JSON contract for a game state, an action and a verdict.

Loading gives engine objects (:class:`State`, :class:`Action`); dumping gives canonical JSON (sorted
pieces, canonical coordinates), so the same state always serialises to the same bytes.
"""
from __future__ import annotations

from operator import itemgetter
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, post_load, validate, validates_schema

from ..engine.core import Action
from ..engine.mapgraph import RESOURCES, TERRAINS
from ..engine.scenarios import SCENARIOS
from ..engine.module import DECLARED_PHASES
from ..engine.spec import MAX_PLAYERS
from ..engine.state import DEV_CARDS, PHASES, SCHEMA_VERSION
from .compose import ACTIONS, all_action_types
from .fastload import load_or_schema
from .fields import (_CORNER_SHIFT, _SIDE_SHIFT, FreeForm, Seed, BoundedList, Cards, EdgeCoord, HexCoord, NodeCoord,
                     PlayerKeyed, StrictBool, StrictInt, _coord_pair, _fast_coord, _int)

HARBOR_KINDS = ("3:1",) + RESOURCES
MIN_PLAYERS = 2


def all_phases() -> tuple[str, ...]:
    """The engine's phases, then those the registered rule modules declare (``PHASES``: the 5-6 extension's);
    whether the game's own stack has a module's phase is the consistency check's."""
    return PHASES + tuple(sorted(DECLARED_PHASES))


class _Phase(validate.OneOf):
    """``OneOf`` over :func:`all_phases`, read when a state is loaded (modules register after this import)."""

    def __init__(self) -> None:
        super().__init__(PHASES)

    def __call__(self, value):
        if value in PHASES or value in DECLARED_PHASES:
            return value
        self.choices = all_phases()
        self.choices_text = ", ".join(str(c) for c in self.choices)
        return super().__call__(value)


class Base(Schema):
    class Meta:
        unknown = RAISE


# -- board --------------------------------------------------------------------------------------------

_HEX_VALUES = itemgetter("q", "r", "terrain", "number")
_TILES = frozenset((t, n) for t in TERRAINS for n in (None, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12))  # terrain, token


class HexList(fields.Field):
    """``[{"q", "r", "terrain", "number"}]`` -> ``{(q, r): (terrain, number)}``, in one pass."""

    ONE_PASS = True

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("must be a list of hexes")
        if len(value) > 400:
            raise ValidationError("a board has at most 400 hexes")
        out: dict[tuple[int, int], tuple[str, Any]] = {}
        errors: dict[int, Any] = {}
        for i, h in enumerate(value):
            if type(h) is dict and len(h) == 4:   # the usual, valid hex: one look at each value
                try:
                    q, r, t, n = _HEX_VALUES(h)
                except KeyError:
                    pass
                else:
                    if type(q) is int and type(r) is int and -64 <= q <= 64 and -64 <= r <= 64 \
                            and type(t) is str and (n is None or type(n) is int) and (t, n) in _TILES \
                            and (q, r) not in out:
                        out[(q, r)] = (t, n)
                        continue
            if not isinstance(h, dict):
                errors[i] = ["must be an object {q, r, terrain, number}"]
                continue
            extra = set(h) - {"q", "r", "terrain", "number"}
            if extra:
                errors[i] = {k: ["unknown field"] for k in sorted(extra)}
                continue
            q, r, t, n = h.get("q"), h.get("r"), h.get("terrain"), h.get("number")
            if not (_int(q) and _int(r)) or abs(q) > 64 or abs(r) > 64:
                errors[i] = {"q": ["q and r must be integers within +-64"]}
                continue
            if not isinstance(t, str) or t not in TERRAINS:
                errors[i] = {"terrain": [f"unknown terrain {t!r} (one of {', '.join(sorted(TERRAINS))})"]}
                continue
            if n is not None and (not _int(n) or n < 2 or n > 12 or n == 7):
                errors[i] = {"number": ["a number token is an integer 2-6 or 8-12, or null"]}
                continue
            if (q, r) in out:     # both entries, each as a whole (q and r together place it)
                j = next(k for k, x in enumerate(value) if type(x) is dict and x.get("q") == q and x.get("r") == r)
                errors[j] = [f"hex {q},{r} is listed twice (again at {i})"]
                errors[i] = [f"hex {q},{r} is listed twice (first at {j})"]
                continue
            out[(q, r)] = (t, n)
        if errors:
            raise ValidationError(errors)
        return out


class HarborSchema(Base):
    edge = EdgeCoord(required=True)
    kind = fields.String(required=True, validate=validate.OneOf(HARBOR_KINDS))


class BoardSchema(Base):
    hexes = HexList(required=True)
    harbors = BoundedList(fields.Nested(HarborSchema), load_default=list, max_length=60)


# -- pieces -------------------------------------------------------------------------------------------

class PieceList(fields.Field):
    """``[{"player", "node"|"edge"}]`` -> ``[(coord, player)]``."""

    ONE_PASS = True

    def __init__(self, key: str, **kw):
        super().__init__(**kw)
        self.key = key
        self.coord = NodeCoord() if key == "node" else EdgeCoord()
        self.shift = _CORNER_SHIFT if key == "node" else _SIDE_SHIFT

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, list):
            raise ValidationError("must be a list")
        if len(value) > 200:
            raise ValidationError("too many pieces")
        out = []
        errors: dict[int, Any] = {}
        key, shift = self.key, self.shift
        for i, p in enumerate(value):
            if type(p) is dict and len(p) == 2:   # the usual, valid piece: one look at each value
                pl = p.get("player")
                if type(pl) is int and 0 <= pl < MAX_PLAYERS:
                    c = _fast_coord(p.get(key), shift)
                    if c is not None:
                        out.append((c, pl))
                        continue
            if not isinstance(p, dict) or set(p) != {"player", self.key}:
                errors[i] = [f"must be an object {{player, {self.key}}}"]
                continue
            pl = p["player"]
            if not _int(pl) or pl < 0 or pl >= MAX_PLAYERS:
                errors[i] = {"player": [f"must be a player number 0-{MAX_PLAYERS - 1}"]}
                continue
            try:
                out.append((self.coord.deserialize(p[self.key]), pl))
            except ValidationError as e:
                errors[i] = {self.key: e.messages}
        if errors:
            raise ValidationError(errors)
        return out


class PiecesSchema(Base):
    settlements = PieceList("node", load_default=list)
    cities = PieceList("node", load_default=list)
    roads = PieceList("edge", load_default=list)
    ships = PieceList("edge", load_default=list)


# -- players and the rest ---------------------------------------------------------------------------------

PIECE_KINDS = ("settlements", "cities", "roads", "ships")


class PlayerSchema(Base):
    resources = Cards(load_default=None)
    dev_cards = Cards(DEV_CARDS, load_default=None)
    dev_cards_new = Cards(DEV_CARDS, load_default=None)
    dev_cards_played = Cards(DEV_CARDS, load_default=None)
    supply = Cards(PIECE_KINDS, fill=False, load_default=None)
    svp = StrictInt(load_default=0, validate=validate.Range(0, 100))
    # Values a rule module adds to a player (``PLAYER`` declarations) are taken apart before loading
    # (``service.split_player_extras``) and checked against the scenario's declarations.


class SetupSchema(Base):
    round = StrictInt(load_default=1, validate=validate.Range(1, 3))
    step = fields.String(load_default="settlement", validate=validate.OneOf(("settlement", "road")))
    last_settlement = NodeCoord(load_default=None, allow_none=True)


class FlagsSchema(Base):
    rolled = StrictBool(load_default=None, allow_none=True)
    dev_card_played = StrictBool(load_default=False)
    ship_moved = StrictBool(load_default=False)
    ships_built = BoundedList(EdgeCoord(), load_default=list, max_length=30)
    built = StrictBool(load_default=False)


class AwardsSchema(Base):
    longest_road = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))
    largest_army = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))


class RngSchema(Base):
    seed = Seed(required=True)
    counter = StrictInt(load_default=0, validate=validate.Range(0, 2**53))


class SvpSchema(Base):
    node = NodeCoord(required=True)
    count = StrictInt(required=True, validate=validate.Range(1, 100))


class StateSchema(Base):
    schema_version = StrictInt(load_default=SCHEMA_VERSION, validate=validate.Equal(SCHEMA_VERSION))
    scenario = fields.String(load_default="base", validate=validate.Length(max=40))
    options = FreeForm(max_keys=30, max_key_length=60, max_values=300, load_default=dict)
    board = fields.Nested(BoardSchema, required=True)
    players = BoundedList(fields.Nested(PlayerSchema), required=True, min_length=MIN_PLAYERS, max_length=MAX_PLAYERS)
    pieces = fields.Nested(PiecesSchema, load_default=None)
    robber = HexCoord(load_default=None, allow_none=True)
    pirate = HexCoord(load_default=None, allow_none=True)
    bank = Cards(load_default=None, allow_none=True)
    dev_deck = Cards(DEV_CARDS, load_default=None, allow_none=True)
    phase = fields.String(required=True, validate=_Phase())
    current_player = StrictInt(required=True, validate=validate.Range(0, MAX_PLAYERS - 1))
    turn = StrictInt(load_default=1, validate=validate.Range(0, 100_000))
    setup = fields.Nested(SetupSchema, load_default=None)
    turn_flags = fields.Nested(FlagsSchema, load_default=None)
    last_roll = BoundedList(StrictInt(validate=validate.Range(1, 6)), load_default=None, allow_none=True,
                            min_length=2, max_length=2)
    pending_discards = PlayerKeyed(load_default=dict)
    pending_gold = PlayerKeyed(load_default=dict)
    awards = fields.Nested(AwardsSchema, load_default=None)
    vp_target = StrictInt(load_default=None, validate=validate.Range(1, 100))
    rng = fields.Nested(RngSchema, load_default=None)
    winner = StrictInt(load_default=None, allow_none=True, validate=validate.Range(0, MAX_PLAYERS - 1))
    svp_attached = BoundedList(fields.Nested(SvpSchema), load_default=list, max_length=100)
    scenario_state = FreeForm(load_default=dict)

    @validates_schema
    def _scenario_known(self, data, **kwargs):
        if data.get("scenario") not in SCENARIOS:
            raise ValidationError(f"unknown scenario {data.get('scenario')!r} (one of {', '.join(SCENARIOS)})",
                                  "scenario")


# -- actions ------------------------------------------------------------------------------------------
# Each action type's fields are declared by the rule module that owns it (``ActionSpec``); ``compose.py``
# builds the schemas per scenario from those declarations.

ACTION_TYPES = all_action_types()


def _exactly_one_kind(cards: dict[str, int], path: str) -> None:
    nonzero = {k: v for k, v in cards.items() if v}
    if len(nonzero) != 1:
        raise ValidationError({path: ["must name exactly one resource type with a positive count"]})


def _word_foreign_fields(messages: Any, type_: str, scenario: str) -> Any:
    """An unknown field that another scenario's modules declare for this action type is named as such."""
    if not isinstance(messages, dict):
        return messages
    others = {k for s in SCENARIOS.values() for k in (s.composition.actions.get(type_).fields
                                                       if type_ in s.composition.actions else ())}
    return {k: ([f"{k!r} has no meaning in scenario {scenario!r}; leave it out"]
                if v == ["Unknown field."] and k in others else v) for k, v in messages.items()}


def _foreign_fields(type_: str, scen: Any) -> frozenset[str]:
    """The fields other games' modules declare for action ``type_`` that ``scen``'s do not (the contract
    lists them, each saying where it has a meaning)."""
    key = (type_, type(scen), tuple(SCENARIOS))
    got = _FOREIGN.get(key)
    if got is None:
        from ..engine.scenarios import all_games
        mine = scen.composition.actions[type_].fields
        got = frozenset(k for g in all_games().values() if type_ in g.composition.actions
                        for k in g.composition.actions[type_].fields if k not in mine)
        if len(_FOREIGN) < 4096:
            _FOREIGN[key] = got
    return got


_FOREIGN: dict[tuple, frozenset[str]] = {}


def load_action(data: Any, scenario: Any = "base") -> Action:
    """An action of ``scenario``'s game (an id, or the game's scenario with its expansions stacked),
    loaded by the schema its modules declare for its type."""
    if not isinstance(data, dict):
        raise ValidationError("must be an object with a 'type'")
    t = data.get("type")
    got = ACTIONS.get(scenario, t) if isinstance(t, str) else None
    scen = SCENARIOS[scenario] if isinstance(scenario, str) else scenario
    if got is None:
        known = (ACTION_TYPES if not isinstance(t, str) or (t not in ACTION_TYPES and t not in scen.action_types())
                 else scen.action_types())
        where = "" if known is ACTION_TYPES else f" in scenario {scen.id!r}"
        raise ValidationError({"type": [f"unknown action type {t!r}{where} (one of {', '.join(sorted(known))})"]})
    if None in data.values():     # null where an optional field refuses it: as if left out
        foreign = _foreign_fields(t, scen)   # (and a field of other games only: D-not-in-this-game)
        data = {k: v for k, v in data.items() if not (v is None and (k in got[2] or k in foreign))}
    try:
        loaded = load_or_schema(got[0], got[1], data)
    except ValidationError as e:
        raise ValidationError(_word_foreign_fields(e.messages, t, scen.id)) from None
    if t == "maritime_trade":
        _exactly_one_kind(loaded["give"], "give")
        _exactly_one_kind(loaded["get"], "get")
    player = loaded.pop("player")
    loaded.pop("type")
    return Action(t, player, loaded)


class NewGameSchema(Base):
    """A new game: ``POST /v1/games`` and a replay's ``new_game`` (one schema, one engine entry point)."""
    scenario = fields.String(load_default="base", validate=validate.OneOf(tuple(SCENARIOS)))
    players = StrictInt(required=True, validate=validate.Range(MIN_PLAYERS, MAX_PLAYERS))
    #: left out or null: None here; POST /v1/games draws one, a replay's new game takes 0 (``started``)
    seed = Seed(load_default=None, allow_none=True)
    options = FreeForm(max_keys=30, max_key_length=60, max_values=300, load_default=dict)


class AdjudicateRequest(Base):
    state = fields.Raw(required=True)
    action = fields.Raw(load_default=None, allow_none=True)


def pointerize(messages: Any, prefix: str = "") -> list[dict[str, str]]:
    """Marshmallow's nested error dict -> ``[{"pointer": "/state/board/hexes/3/terrain", "detail": ...}]``."""
    out: list[dict[str, str]] = []
    if isinstance(messages, dict):
        for k, v in messages.items():
            key = str(k).replace("~", "~0").replace("/", "~1")
            sub = prefix if k == "_schema" else f"{prefix}/{key}"
            out.extend(pointerize(v, sub))
    elif isinstance(messages, list):
        for m in messages:
            if isinstance(m, (dict, list)):
                out.extend(pointerize(m, prefix))
            else:
                out.append({"pointer": prefix or "/", "detail": str(m)})
    else:
        out.append({"pointer": prefix or "/", "detail": str(messages)})
    return out


__all__ = ["StateSchema", "load_action", "pointerize", "ACTION_TYPES", "_coord_pair", "post_load"]
