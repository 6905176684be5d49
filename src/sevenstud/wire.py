"""The wire and storage format: every event, action, view and game as a JSON-ready dict, and back.

The card-room server sends these dicts over its websockets, stores them in its database and
reads them back; self-play writes them to disk. Each dict carries a ``type`` tag; a whole hand
is a *record* (game, stacks, deck, actions) that :func:`hand_from_record` plays again into an
identical :class:`~sevenstud.hand.Hand`, at any point of the hand. ``docs/events.md`` documents
the format and :func:`json_schema` gives its JSON Schema.

The codecs are built from the type annotations of the engine's own classes, so an event the
engine gains is in the format at once, and encoding and decoding cannot drift apart. In the
compiled engine (tools/build_compiled.py) mypyc replaces a compiled class's annotations by the
runtime classes it stores (``type`` for ``int | None``, bare ``tuple`` for ``tuple[int, ...]``),
so the annotations are read from the class's source, kept beside the compiled module
(:func:`_annotations`): the same format from the same text in both builds.

>>> from sevenstud.hand import Action, ActionKind
>>> to_wire(Action(ActionKind.RAISE, 20))
{'type': 'action', 'kind': 'raise', 'amount': 20}
>>> from_wire({'type': 'action', 'kind': 'raise', 'amount': 20}) == Action(ActionKind.RAISE, 20)
True
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from sevenstud.cards import Card, CardError, parse_cards
from sevenstud.deck import Deck
from sevenstud.games import GAMES, Game, GameError, Stakes
from sevenstud.hand import Action, Event, Hand, HandError, IllegalAction, SeatView
from sevenstud.table_events import Entry, TableEvent, TableRecord, TableView

WIRE_VERSION = 1
"""The format's version: a reader refuses records of a version it does not know."""


class WireError(ValueError):
    """A dict that is not a valid event, action, view, game or record; the message names what
    was wrong and where."""


Encode = Callable[[Any], Any]
Decode = Callable[[Any, str], Any]


class _Codec(typing.NamedTuple):
    encode: Encode
    decode: Decode
    schema: dict[str, Any]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _fail(where: str, expected: str, value: object) -> typing.NoReturn:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    raise WireError(f"{where}: expected {expected}, not {shown}")


def _plain(kind: type, name: str, schema: dict[str, Any]) -> _Codec:
    def decode(value: Any, where: str) -> Any:
        if type(value) is not kind and not (kind is float and type(value) is int):
            _fail(where, name, value)
        # JSON writes 15.0 as 15 in some encoders: a time read back is a float all the same.
        return float(value) if kind is float else value  # type: ignore[arg-type]

    return _Codec(lambda v: v, decode, schema)


def _card_codec() -> _Codec:
    def decode(value: Any, where: str) -> Card:
        if not isinstance(value, str):
            _fail(where, "a card such as 'As'", value)
        try:
            (card,) = parse_cards(value)
        except (CardError, ValueError):
            _fail(where, "one card such as 'As'", value)
        return card

    return _Codec(str, decode, {"$ref": "#/$defs/card"})


def _fraction_codec() -> _Codec:
    def decode(value: Any, where: str) -> Fraction:
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            _fail(where, "a fraction such as '1/2'", value)
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            _fail(where, "a fraction such as '1/2'", value)

    return _Codec(
        lambda f: str(f),
        decode,
        {"type": ["string", "integer"], "pattern": r"^-?\d+(/\d+)?$"},
    )


def _enum_codec(cls: type[Enum]) -> _Codec:
    values = [m.value for m in cls]

    def decode(value: Any, where: str) -> Enum:
        try:
            return cls(value)
        except ValueError:
            _fail(where, "one of " + ", ".join(map(repr, values)), value)

    return _Codec(lambda e: e.value, decode, {"enum": values})


def _literal_codec(choices: tuple[Any, ...]) -> _Codec:
    def decode(value: Any, where: str) -> Any:
        if type(value) not in {type(c) for c in choices} or value not in choices:
            _fail(where, "one of " + ", ".join(map(repr, choices)), value)
        return value

    return _Codec(lambda v: v, decode, {"enum": list(choices)})


def _optional_codec(inner: _Codec) -> _Codec:
    def decode(value: Any, where: str) -> Any:
        return None if value is None else inner.decode(value, where)

    return _Codec(
        lambda v: None if v is None else inner.encode(v),
        decode,
        {"anyOf": [inner.schema, {"type": "null"}]},
    )


def _tuple_codec(items: Sequence[_Codec] | _Codec) -> _Codec:
    if isinstance(items, _Codec):  # tuple[X, ...]
        each = items

        def decode(value: Any, where: str) -> tuple[Any, ...]:
            if not isinstance(value, list):
                _fail(where, "a list", value)
            return tuple(each.decode(v, f"{where}[{i}]") for i, v in enumerate(value))

        return _Codec(
            lambda t: [each.encode(v) for v in t],
            decode,
            {"type": "array", "items": each.schema},
        )
    fixed = list(items)

    def decode_fixed(value: Any, where: str) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != len(fixed):
            _fail(where, f"a list of {len(fixed)}", value)
        return tuple(c.decode(v, f"{where}[{i}]") for i, (c, v) in enumerate(zip(fixed, value, strict=True)))

    return _Codec(
        lambda t: [c.encode(v) for c, v in zip(fixed, t, strict=True)],
        decode_fixed,
        {
            "type": "array",
            "prefixItems": [c.schema for c in fixed],
            "minItems": len(fixed),
            "maxItems": len(fixed),
        },
    )


_TAGGED: dict[str, type] = {}
"""Every tagged type of the format by its ``type`` tag."""
_RECORD_CODECS: dict[type, _Codec] = {}
_DEFS: dict[str, dict[str, Any]] = {}


def _source_annotations(cls: type) -> dict[str, str]:
    """The annotations of ``cls``'s own body as its source writes them, read from the ``.py``
    file beside its compiled module (mypyc's ``.so`` file: ``hand.cpython-311-...so``)."""
    module = sys.modules[cls.__module__]
    compiled = Path(module.__file__ or "")
    source = compiled.with_name(compiled.name.split(".")[0] + ".py")
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"), str(source))
    except OSError as error:
        raise RuntimeError(  # a broken build, not bad input
            f"the wire format needs {cls.__qualname__}'s source beside its compiled module "
            f"{compiled} (mypyc compiled its annotations away): {error}"
        ) from None
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == cls.__qualname__:
            return {
                item.target.id: ast.unparse(item.annotation)
                for item in node.body
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
            }
    raise RuntimeError(f"no class {cls.__qualname__} in {source}")


def _annotations(cls: type) -> dict[str, Any]:
    """The type of each annotated name of ``cls`` and its bases (``typing.get_type_hints``).
    With ``from __future__ import annotations`` every engine module's annotations are strings;
    a class whose own annotations are not (compiled by mypyc) has them read from its source,
    and evaluated in its module as ``get_type_hints`` would."""
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        own = inspect.get_annotations(klass)
        if all(isinstance(a, str) for a in own.values()):
            hints.update(typing.get_type_hints(klass, include_extras=False) if own else {})
            continue
        namespace = vars(sys.modules[klass.__module__])
        for name, text in _source_annotations(klass).items():
            hints[name] = eval(text, namespace)  # the engine's own source text
    return hints


def _fields_of(cls: type) -> dict[str, Any]:
    hints = _annotations(cls)
    is_dataclass = dataclasses.is_dataclass(cls)
    # A dataclass's fields, or a NamedTuple's.
    names = [f.name for f in dataclasses.fields(cls)] if is_dataclass else list(cls._fields)  # type: ignore[attr-defined]
    return {name: hints[name] for name in names}


ADDED_LATER = "wire_added_later"
"""The metadata key of a dataclass field added to the format after records were stored
(``field(default=..., metadata={ADDED_LATER: True})``): a record without it reads its default.
Every other field must be there."""


def _defaulted(cls: type) -> frozenset[str]:
    """The fields of a dataclass added to the format later, which a record may lack."""
    if not dataclasses.is_dataclass(cls):
        return frozenset()
    return frozenset(f.name for f in dataclasses.fields(cls) if f.metadata.get(ADDED_LATER))


def _record_codec(cls: type, tag: str | None) -> _Codec:
    """A codec for a dataclass or NamedTuple: an object of its fields (and its tag, if any)."""
    known = _RECORD_CODECS.get(cls)
    if known is not None:
        return known
    name = tag or _snake(cls.__name__)
    ref = {"$ref": f"#/$defs/{name}"}

    # Register first, so that a type may (indirectly) hold itself.
    def encode(value: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"type": tag} if tag else {}
        for field, codec in fields.items():
            out[field] = codec.encode(getattr(value, field))
        return out

    def decode(value: Any, where: str) -> Any:
        if not isinstance(value, dict):
            _fail(where, f"an object ({name})", value)
        expected = set(fields) | ({"type"} if tag else set())
        extra = sorted(set(value) - expected)
        if extra:
            raise WireError(f"{where}: unknown field {extra[0]!r} in {name}")
        if tag and value.get("type") != tag:
            _fail(f"{where}.type", repr(tag), value.get("type"))
        # A field added to the format later: a record written before it (a server's stored
        # table) reads its default.
        missing = [f for f in fields if f not in value and f not in optional]
        if missing:
            raise WireError(f"{where}: {name} lacks the field {missing[0]!r}")
        args = {
            f: codec.decode(value[f], f"{where}.{f}") for f, codec in fields.items() if f in value
        }
        try:
            return cls(**args)
        except (ValueError, TypeError) as error:
            raise WireError(f"{where}: not a valid {name}: {error}") from None

    codec = _RECORD_CODECS[cls] = _Codec(encode, decode, ref)
    if tag:
        _TAGGED[tag] = cls
    fields = {f: _codec_for(t) for f, t in _fields_of(cls).items()}
    optional = _defaulted(cls)
    properties = {f: c.schema for f, c in fields.items()}
    if tag:
        properties = {"type": {"const": tag}, **properties}
    _DEFS[name] = {
        "type": "object",
        "properties": properties,
        "required": [f for f in properties if f not in optional],
        "additionalProperties": False,
    }
    return codec


def _union_codec(members: Sequence[type]) -> _Codec:
    """A tagged union: the ``type`` field says which member."""
    by_tag = {_snake(m.__name__): _record_codec(m, _snake(m.__name__)) for m in members}
    by_type = {m: by_tag[_snake(m.__name__)] for m in members}

    def decode(value: Any, where: str) -> Any:
        if not isinstance(value, dict) or value.get("type") not in by_tag:
            _fail(where, "an event: one of " + ", ".join(by_tag), value)
        return by_tag[value["type"]].decode(value, where)

    return _Codec(
        lambda v: by_type[type(v)].encode(v),
        decode,
        {"oneOf": [c.schema for c in by_tag.values()]},
    )


_ATOMS: dict[Any, _Codec] = {
    int: _plain(int, "a whole number", {"type": "integer"}),
    bool: _plain(bool, "true or false", {"type": "boolean"}),
    str: _plain(str, "a string", {"type": "string"}),
    float: _plain(float, "a number", {"type": "number"}),
    Card: _card_codec(),
    Fraction: _fraction_codec(),
}


def _codec_for(annotation: Any) -> _Codec:
    atom = _ATOMS.get(annotation)
    if atom is not None:
        return atom
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is typing.Literal:
        return _literal_codec(args)
    if origin in (typing.Union, types.UnionType):
        members = [a for a in args if a is not type(None)]
        inner = _codec_for(members[0]) if len(members) == 1 else _union_codec(members)
        return _optional_codec(inner) if len(members) < len(args) else inner
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_codec(_codec_for(args[0]))
        return _tuple_codec([_codec_for(a) for a in args])
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return _enum_codec(annotation)
    if isinstance(annotation, type) and (
        dataclasses.is_dataclass(annotation) or hasattr(annotation, "_fields")
    ):
        tag = None if annotation is Stakes else _snake(annotation.__name__)
        if annotation is SeatView:
            tag = "view"
        return _record_codec(annotation, tag)
    raise TypeError(f"no wire format for {annotation!r}")  # a programming error, not input


# ------------------------------------------------------------------------- the tagged types

_EVENTS = _codec_for(Event | TableEvent)
"""The engine's events and the table's, one tagged union."""
_ACTION = _codec_for(Action)
_VIEW = _codec_for(SeatView)
_STAKES = _codec_for(Stakes)
_DEFS["card"] = {"type": "string", "pattern": "^[2-9TJQKA][cdhs]$"}


def _game_options() -> dict[str, _Codec]:
    return {f: _codec_for(t) for f, t in _fields_of(Game).items() if f != "stakes"}


_GAME_OPTIONS = _game_options()


def game_to_wire(game: Game) -> dict[str, Any]:
    """A game with its stakes and every option."""
    out: dict[str, Any] = {"type": "game", "game": game.code, "stakes": _STAKES.encode(game.stakes)}
    for name, codec in _GAME_OPTIONS.items():
        out[name] = codec.encode(getattr(game, name))
    return out


def game_from_wire(value: Any, where: str = "game") -> Game:
    """The game of :func:`game_to_wire`; options left out take their defaults."""
    if not isinstance(value, dict) or value.get("type") != "game":
        _fail(where, "a game object", value)
    cls = GAMES.get(value.get("game"))  # type: ignore[arg-type]
    if cls is None:
        _fail(f"{where}.game", "one of " + ", ".join(map(repr, GAMES)), value.get("game"))
    extra = sorted(set(value) - {"type", "game", "stakes"} - set(_GAME_OPTIONS))
    if extra:
        raise WireError(f"{where}: unknown option {extra[0]!r}")
    if "stakes" not in value:
        raise WireError(f"{where}: a game needs its stakes")
    options = {
        name: codec.decode(value[name], f"{where}.{name}")
        for name, codec in _GAME_OPTIONS.items()
        if name in value
    }
    try:
        return cls(_STAKES.decode(value["stakes"], f"{where}.stakes"), **options)
    except GameError as error:
        raise WireError(f"{where}: {error}") from None


_DEFS["game"] = {
    "type": "object",
    "properties": {
        "type": {"const": "game"},
        "game": {"enum": list(GAMES)},
        "stakes": _STAKES.schema,
        **{name: codec.schema for name, codec in _GAME_OPTIONS.items()},
    },
    "required": ["type", "game", "stakes"],
    "additionalProperties": False,
}


Wired = Event | TableEvent | Entry | Action | SeatView | TableView | Game | TableRecord
"""Everything :func:`to_wire` writes and :func:`from_wire` reads."""


def to_wire(obj: Wired) -> dict[str, Any]:
    """The JSON-ready dict of an event (the engine's or the table's), a stream entry, an action,
    a view (a hand's or a table's), a game or a table record, with its ``type`` tag."""
    if isinstance(obj, Game):
        return game_to_wire(obj)
    codec = _TOP_BY_TYPE.get(type(obj), _EVENTS)
    return typing.cast(dict[str, Any], codec.encode(obj))


def from_wire(value: Mapping[str, Any]) -> Wired:
    """The value of a dict from :func:`to_wire`; :class:`WireError` names what is wrong with a
    bad one."""
    if not isinstance(value, dict):
        _fail("message", "an object", value)
    tag = value.get("type")
    if tag == "game":
        return game_from_wire(value)
    if tag == "hand_record":
        raise WireError("a hand record: read it with hand_from_record")
    codec = _TOP_BY_TAG.get(tag) if isinstance(tag, str) else None
    if codec is not None and isinstance(tag, str):
        return typing.cast(Wired, codec.decode(value, tag))
    return typing.cast(Event, _EVENTS.decode(value, tag if isinstance(tag, str) else "event"))


# ------------------------------------------------------------------------- hand records


def hand_to_record(hand: Hand) -> dict[str, Any]:
    """The whole hand as stored: game, stacks, the deck in dealing order and every action so
    far. It holds every card, the undealt ones included: storage only, never for a player.
    ``dead`` (the seats whose hands were dead from the deal: players away at a tournament) is
    written only where there are some: a record without it has none."""
    record: dict[str, Any] = {
        "type": "hand_record",
        "version": WIRE_VERSION,
        "game": game_to_wire(hand.game),
        "stacks": list(hand.starting_stacks),
        "deck": [str(c) for c in hand.deck.cards],
        "actions": [[seat, _ACTION.encode(action)] for seat, action in hand.actions],
        "auto_showdown": hand.auto_showdown,
        "rake": hand.fixed_rake,
    }
    if hand.dead:
        record["dead"] = sorted(hand.dead)
    return record


class RecordText:
    """:func:`hand_to_record` of a hand as JSON text, for a hand written again after each of
    its actions (a card room's record of the hand in progress): what is fixed at the deal is
    encoded once, each action once. ``json.dumps`` of the whole record at every action was a
    tenth of the card room's CPU under benchmarks/load.py."""

    __slots__ = ("_actions", "_hand", "_head", "_tail")

    def __init__(self) -> None:
        self._hand: Hand | None = None
        self._head = self._tail = ""
        self._actions: list[str] = []

    def text(self, hand: Hand) -> str:
        """The record of ``hand`` now, as JSON (``json.loads`` of it is ``hand_to_record(hand)``)."""
        actions = self._actions
        if hand is not self._hand or len(hand.actions) < len(actions):
            fixed = hand_to_record(hand)
            fixed["actions"] = []
            # The text with no action, split where the actions go (the key is there once).
            head, tail = json.dumps(fixed).split('"actions": []')
            self._head, self._tail = head + '"actions": [', "]" + tail
            self._hand, actions = hand, []
            self._actions = actions
        for seat, action in hand.actions[len(actions) :]:
            actions.append(json.dumps([seat, _ACTION.encode(action)]))
        return self._head + ", ".join(actions) + self._tail


def hand_from_record(record: Mapping[str, Any]) -> Hand:
    """The hand of :func:`hand_to_record`, played again through the engine to the same point;
    :class:`WireError` when the record is malformed or its actions are not legal."""
    if not isinstance(record, dict) or record.get("type") != "hand_record":
        _fail("record", "a hand record", record)
    version = record.get("version")
    if version != WIRE_VERSION:
        raise WireError(f"record: version {version!r} is not one this reader knows ({WIRE_VERSION})")
    expected = {"type", "version", "game", "stacks", "deck", "actions", "auto_showdown", "rake"}
    extra = sorted(set(record) - expected - {"dead"})
    if extra:
        raise WireError(f"record: unknown field {extra[0]!r}")
    missing = sorted(expected - set(record))
    if missing:
        raise WireError(f"record: lacks the field {missing[0]!r}")
    game_in = record["game"]
    if isinstance(game_in, dict) and "rake_third_street" not in game_in:
        # Written before the option was (every option is written out): the engine raked a hand
        # won on 3rd street then, and a stored hand replays as it was played.
        game_in = {**game_in, "rake_third_street": True}
    game = game_from_wire(game_in, "record.game")
    stacks = _tuple_codec(_ATOMS[int]).decode(record["stacks"], "record.stacks")
    deck_cards = _tuple_codec(_ATOMS[Card]).decode(record["deck"], "record.deck")
    actions_in = record["actions"]
    if not isinstance(actions_in, list):
        _fail("record.actions", "a list", actions_in)
    auto = _ATOMS[bool].decode(record["auto_showdown"], "record.auto_showdown")
    rake = _optional_codec(_ATOMS[int]).decode(record["rake"], "record.rake")
    dead = _tuple_codec(_ATOMS[int]).decode(record.get("dead", []), "record.dead")
    try:
        hand = Hand(game, list(stacks), Deck(deck_cards), auto_showdown=auto, rake=rake, dead=dead)
    except (HandError, CardError) as error:
        raise WireError(f"record: {error}") from None
    for i, item in enumerate(actions_in):
        where = f"record.actions[{i}]"
        if not isinstance(item, list) or len(item) != 2:
            _fail(where, "a [seat, action] pair", item)
        seat = _ATOMS[int].decode(item[0], f"{where}[0]")
        action = _ACTION.decode(item[1], f"{where}[1]")
        try:
            hand.act_recorded(action, seat)
        except IllegalAction as error:
            raise WireError(f"{where}: {error}") from None
    return hand


_DEFS["hand_record"] = {
    "type": "object",
    "properties": {
        "type": {"const": "hand_record"},
        "version": {"const": WIRE_VERSION},
        "game": {"$ref": "#/$defs/game"},
        "stacks": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 8},
        "deck": {
            "type": "array",
            "items": {"$ref": "#/$defs/card"},
            "minItems": 52,
            "maxItems": 52,
        },
        "actions": {
            "type": "array",
            "items": {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"$ref": "#/$defs/action"}],
                "minItems": 2,
                "maxItems": 2,
            },
        },
        "auto_showdown": {"type": "boolean"},
        "rake": {"type": ["integer", "null"]},
        "dead": {"type": "array", "items": {"type": "integer"}},
    },
    "required": ["type", "version", "game", "stacks", "deck", "actions", "auto_showdown", "rake"],
    "additionalProperties": False,
}


def _game_codec() -> _Codec:
    return _Codec(game_to_wire, game_from_wire, {"$ref": "#/$defs/game"})


def _hand_codec() -> _Codec:
    def decode(value: Any, where: str) -> Hand:
        try:
            return hand_from_record(value)
        except WireError as error:
            raise WireError(f"{where}: {error}") from None

    return _Codec(hand_to_record, decode, {"$ref": "#/$defs/hand_record"})


# A game and a whole hand inside the table's values are written as game_to_wire and
# hand_to_record write them alone.
_ATOMS[Game] = _game_codec()
_ATOMS[Hand] = _hand_codec()
_ENTRY = _codec_for(Entry)
_TABLE_VIEW = _codec_for(TableView)
_TABLE_RECORD = _codec_for(TableRecord)
_TOP: dict[str, tuple[type, _Codec]] = {
    "action": (Action, _ACTION),
    "view": (SeatView, _VIEW),
    "entry": (Entry, _ENTRY),
    "table_view": (TableView, _TABLE_VIEW),
    "table_record": (TableRecord, _TABLE_RECORD),
}
_TOP_BY_TAG = {tag: codec for tag, (_, codec) in _TOP.items()}
_TOP_BY_TYPE: dict[type, _Codec] = {cls: codec for cls, codec in _TOP.values()}


def json_schema() -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of everything :func:`to_wire` and
    :func:`hand_to_record` write: one of an event (the engine's or the table's), a stream
    entry, an action, a view (a hand's or a table's), a game, a table record or a hand record."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"sevenstud-wire-v{WIRE_VERSION}",
        "title": f"sevenstud wire format, version {WIRE_VERSION}",
        "oneOf": [
            _EVENTS.schema,
            *({"$ref": f"#/$defs/{tag}"} for tag in _TOP),
            {"$ref": "#/$defs/game"},
            {"$ref": "#/$defs/hand_record"},
        ],
        "$defs": dict(sorted(_DEFS.items())),
    }


__all__ = [
    "WIRE_VERSION",
    "RecordText",
    "WireError",
    "Wired",
    "from_wire",
    "game_from_wire",
    "game_to_wire",
    "hand_from_record",
    "hand_to_record",
    "json_schema",
    "to_wire",
]
