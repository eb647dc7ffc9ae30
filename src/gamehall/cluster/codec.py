"""The bytes nodes send each other: msgpack, with the game's own value types kept.

Cross-node play (docs/scale-out.md, "Play across nodes") ships a room's events from its owner
to the nodes whose connections sit at it, so those nodes render them in their own protocols
exactly as the owner would. Events are frozen dataclasses of the engines (cards, enums,
audiences as frozen sets), so plain msgpack would lose what they are. This codec keeps them:

- a dataclass becomes ``[TAG_OBJECT, "module:QualName", {field: value}]``;
- an enum member ``[TAG_ENUM, "module:QualName", value]``;
- a tuple ``[TAG_TUPLE, [...]]``, a frozen set ``[TAG_FROZENSET, [...]]``, a set
  ``[TAG_SET, [...]]``, a dict with keys that are not strings ``[TAG_DICT, [[k, v], ...]]``;
- everything else is msgpack's own (None, bool, int, float, str, bytes, list, str-keyed dict).

Why not pickle: a peer's bytes must never run code here. Decoding looks a class name up only
among the modules of ``gamehall`` already imported (``sys.modules``, never an import), and
accepts only dataclasses and enums found there: the worst a forged message can do is build a
wrong event, which a trusted Redis would never carry anyway.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
from typing import Any

import msgpack  # type: ignore[import-untyped]

TAG_OBJECT = "\x00o"
TAG_ENUM = "\x00e"
TAG_TUPLE = "\x00t"
TAG_FROZENSET = "\x00f"
TAG_SET = "\x00s"
TAG_DICT = "\x00d"
_TAGS = frozenset((TAG_OBJECT, TAG_ENUM, TAG_TUPLE, TAG_FROZENSET, TAG_SET, TAG_DICT))


class CodecError(ValueError):
    """A value that cannot cross (an unknown type), or bytes that are not a message."""


def pack(value: Any) -> bytes:
    """``value`` as bytes for another node."""
    packed: bytes = msgpack.packb(_lower(value), use_bin_type=True)
    return packed


def unpack(data: bytes) -> Any:
    """The value :func:`pack` made.

    Raises:
        CodecError: the bytes are not such a value.
    """
    try:
        raw = msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, TypeError, msgpack.ExtraData) as exc:
        raise CodecError(f"not a node message: {exc}") from None
    return _raise(raw)


def _name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _lower(value: Any) -> Any:
    if value is None or isinstance(value, (bool, str, bytes, float)):
        return value
    if isinstance(value, enum.Enum):  # before int: IntEnum members are ints too
        return [TAG_ENUM, _name(type(value)), _lower(value.value)]
    if isinstance(value, int):
        return value
    if isinstance(value, list):
        return [_lower(v) for v in value]
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return [TAG_TUPLE, [_lower(v) for v in value]]
    if isinstance(value, frozenset):
        return [TAG_FROZENSET, [_lower(v) for v in value]]
    if isinstance(value, set):
        return [TAG_SET, [_lower(v) for v in value]]
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: _lower(v) for k, v in value.items()}
        return [TAG_DICT, [[_lower(k), _lower(v)] for k, v in value.items()]]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _lower(getattr(value, f.name)) for f in dataclasses.fields(value)}
        return [TAG_OBJECT, _name(type(value)), fields]
    raise CodecError(f"a {type(value).__name__} cannot be sent to another node")


def _raise(raw: Any) -> Any:
    if isinstance(raw, dict):
        return {k: _raise(v) for k, v in raw.items()}
    if not isinstance(raw, list):
        return raw
    if len(raw) in (2, 3) and isinstance(raw[0], str) and raw[0] in _TAGS:
        return _raise_tagged(raw)
    return [_raise(v) for v in raw]


def _raise_tagged(raw: list[Any]) -> Any:
    tag = raw[0]
    if tag == TAG_OBJECT:
        cls = _known_class(raw[1])
        if not dataclasses.is_dataclass(cls) or not isinstance(raw[2], dict):
            raise CodecError(f"{raw[1]} is not a dataclass")
        fields = {k: _raise(v) for k, v in raw[2].items()}
        try:
            return _build(cls, fields)
        except TypeError as exc:
            raise CodecError(f"{raw[1]}: {exc}") from None
    if tag == TAG_ENUM:
        cls = _known_class(raw[1])
        if not issubclass(cls, enum.Enum):
            raise CodecError(f"{raw[1]} is not an enum")
        try:
            return cls(_raise(raw[2]))
        except ValueError as exc:
            raise CodecError(str(exc)) from None
    items = [_raise(v) for v in raw[1]]
    if tag == TAG_TUPLE:
        return tuple(items)
    if tag == TAG_FROZENSET:
        return frozenset(items)
    if tag == TAG_SET:
        return set(items)
    return dict(items)  # TAG_DICT


def _build(cls: type, fields: dict[str, Any]) -> Any:
    """An instance of dataclass ``cls`` with ``fields``, including fields that are not
    ``init`` parameters (set as the frozen dataclass itself would)."""
    init = {f.name for f in dataclasses.fields(cls) if f.init}
    obj = cls(**{k: v for k, v in fields.items() if k in init})
    for name, value in fields.items():
        if name not in init:
            object.__setattr__(obj, name, value)
    return obj


def _known_class(name: Any) -> type:
    """A class of an already imported ``gamehall`` module, by ``module:QualName``."""
    if not isinstance(name, str) or ":" not in name:
        raise CodecError(f"bad class name {name!r}")
    module_name, qualname = name.split(":", 1)
    if module_name != "gamehall" and not module_name.startswith("gamehall."):
        raise CodecError(f"{name}: not a gamehall type")
    target: Any = sys.modules.get(module_name)
    if target is None:
        raise CodecError(f"{name}: module not loaded here")
    for part in qualname.split("."):
        target = getattr(target, part, None)
    if not isinstance(target, type):
        raise CodecError(f"{name}: no such type here")
    return target
