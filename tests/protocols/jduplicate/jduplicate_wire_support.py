"""Helpers for the JDuplicate codec tests: draining a codec, and hypothesis strategies that
build any valid message straight from the wire layouts (so a new message is covered by the
round-trip and fuzz tests as soon as it has a layout)."""

from __future__ import annotations

import itertools
import string
from typing import Any

from hypothesis import strategies as st

from gamehall.protocols._core import NEED_DATA, ProtocolError
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.codec import JDuplicateCodec
from gamehall.protocols.jduplicate.errors import WireError
from gamehall.protocols.jduplicate.schema import (
    COUNT,
    DATE,
    NUMBER,
    OPTIONAL_COUNT,
    TEXT,
    Items,
    Kind,
    Layout,
    Record,
    Scalar,
    StartField,
)

Outcome = Any
"""A decoded message, or ("error", code, parameter) for a WireError."""


def drain(codec: JDuplicateCodec) -> list[Outcome]:
    """Every message and error the buffered bytes give, in order (stops after a fatal one)."""
    out: list[Outcome] = []
    while True:
        try:
            message = codec.next_message()
        except WireError as error:
            out.append(("error", error.code, error.parameter))
            if not error.recoverable:
                return out
            continue
        if message is NEED_DATA:
            return out
        out.append(message)


def feed(codec: JDuplicateCodec, data: bytes, cuts: list[int] | None = None) -> list[Outcome]:
    """Feed ``data`` whole, or cut at the offsets ``cuts``, collecting every outcome."""
    out: list[Outcome] = []
    for start, end in itertools.pairwise([0, *sorted(cuts or []), len(data)]):
        codec.receive_data(data[start:end])
        out.extend(drain(codec))
        if out and isinstance(out[-1], tuple) and out[-1][1] == "99004":
            break
    return out


def only_protocol_errors(codec: JDuplicateCodec) -> int:
    """Drain ``codec`` asserting nothing but messages and ProtocolErrors come out; the count."""
    count = 0
    while True:
        try:
            message = codec.next_message()
        except ProtocolError as error:
            count += 1
            if not error.recoverable:
                return count
            continue
        if message is NEED_DATA:
            return count
        count += 1


# -- strategies -------------------------------------------------------------------------------

_SEPARATORS = "#&~|<>"
_FORBIDDEN = "".join(chr(c) for c in range(0x20)) + "\x7f\ufffe\uffff"

plain_text = st.text(
    st.characters(blacklist_categories=("Cs", "Cc", "Zs", "Zl", "Zp"), blacklist_characters=_SEPARATORS),
    max_size=12,
) | st.builds(
    lambda a, b: f"{a} {b}",
    st.text(string.ascii_letters, min_size=1, max_size=6),
    st.text(string.ascii_letters + "'-.", min_size=1, max_size=6),
)
"""Names and other fields that are not free text: no separator, no blank at either end."""

free_text = st.text(
    st.characters(
        blacklist_categories=("Cs",),
        blacklist_characters=_FORBIDDEN.replace("\t", "").replace("\n", "").replace("\r", ""),
    ),
    max_size=40,
)
"""Chat and reasons: anything the MUTF-8 gate and XML let through, separators included."""

letters = st.sampled_from(string.ascii_uppercase)
tiles = st.builds(m.Tile, st.integers(0, 999_999), letters, letters, st.booleans())


def _kind(kind: Kind) -> st.SearchStrategy[Any]:
    if kind is TEXT:
        return plain_text
    if kind is COUNT:
        return st.integers(0, 999_999)
    if kind is OPTIONAL_COUNT:
        return st.none() | st.integers(0, 999_999)
    if kind is NUMBER:
        return st.integers(-99_999_999, 999_999_999)
    if kind is DATE:
        return st.dates()
    return st.sampled_from(list(kind.read))  # an enum: read is the StrEnum class


def _scalar(field: Scalar) -> st.SearchStrategy[Any]:
    return free_text if field.free else _kind(field.kind)


def _items(field: Items) -> st.SearchStrategy[tuple[Any, ...]]:
    form = field.form
    item: st.SearchStrategy[Any]
    if isinstance(form, Kind):
        item = plain_text.filter(bool)
    elif isinstance(form, Record):
        item = st.builds(form.cls, **{sub.attr: _scalar(sub) for sub in form.fields})
    else:
        item = tiles
    return st.lists(item, max_size=6).map(tuple)


def message_of(layout: Layout) -> st.SearchStrategy[Any]:
    """Any valid message of ``layout``."""
    values: dict[str, st.SearchStrategy[Any]] = {}
    for field in layout.fields:
        if isinstance(field, Scalar):
            values[field.attr] = _scalar(field)
        elif isinstance(field, Items):
            values[field.attr] = _items(field)
        elif isinstance(field, StartField):
            values[field.attr] = st.none() | st.builds(m.Square, st.integers(1, 999_999), letters)
    return st.builds(layout.cls, **values)


def messages_of(layouts: tuple[Layout, ...]) -> st.SearchStrategy[Any]:
    return st.one_of(*(message_of(layout) for layout in layouts))
