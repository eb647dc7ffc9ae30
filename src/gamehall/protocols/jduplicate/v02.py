"""Protocol 0.2: ``COMMAND|payload`` text lines (note §3.1).

Reading splits once at the first ``|`` (no ``|``: empty payload). A token that is not
``[A-Z]+`` is 99000; a token this side does not receive is 99002 with the token. Fields are
``#``-separated and read with a fixed ``maxsplit``, so the last field (free text, where there
is some) keeps every separator. Input is lenient: missing fields read as empty, a missing
final separator is fine, empty list items are dropped.

Writing is canonical: every list item ends with its separator, an empty list is an empty
field, an empty optional field is ``""`` (``ERROR|30101#``). 0.2 has no escaping, so a
separator inside a field that is not free text raises ``ValueError`` (names are validated
long before; this guards against our own bugs sending a misleading line).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, Final

from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.errors import ErrorCode, WireError
from gamehall.protocols.jduplicate.schema import (
    Field,
    Items,
    Kind,
    Layout,
    Record,
    Scalar,
    StartField,
    check_tile,
    layout_of,
    read_count,
    read_tile,
)

_TOKEN: Final = re.compile(r"[A-Z]+")


class _Level:
    """The separators of one list level (note §3.1): a whole-body list, or a list nested in a
    ``#`` field."""

    def __init__(self, item: str, sub: str, reserved: str) -> None:
        self.item = item
        self.sub = sub
        self.reserved = reserved  # characters no item or sub-field may hold at this level


BODY: Final = _Level("#", "&", "#&")
NESTED: Final = _Level("&", "~", "#&~")


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def parse(text: str, known: Mapping[str, Layout]) -> Any:
    """The message on one 0.2 line.

    Raises:
        WireError: 99000 (bad token), 99002 (token not in ``known``), or a field's code
            (30105, 30110, 60000, 60107, 99000), with ``command`` set once the token is known.
    """
    token, _, payload = text.partition("|")
    if _TOKEN.fullmatch(token) is None:
        raise WireError(ErrorCode.BAD_FORMAT, reason=f"bad command token {token[:40]!r}")
    layout = known.get(token)
    if layout is None:
        raise WireError(ErrorCode.UNKNOWN_COMMAND, token, reason=f"unknown command {token}")
    try:
        return layout.cls(**_read_fields(layout, payload))
    except WireError as error:
        raise error.with_command(token) from None


def _read_fields(layout: Layout, payload: str) -> dict[str, Any]:
    fields = layout.fields
    if not fields:
        return {}
    if len(fields) == 1:
        only = fields[0]
        if isinstance(only, Items):
            return {only.attr: _read_items(only, payload, BODY)}
        if isinstance(only, Scalar):
            return {only.attr: only.read(payload)}
    count = layout.wire_field_count
    parts = payload.split("#", count - 1)
    parts += [""] * (count - len(parts))
    values: dict[str, Any] = {}
    position = 0
    for field in fields:
        if isinstance(field, StartField):
            values[field.attr] = _read_start(parts[position], parts[position + 1])
            position += 2
            continue
        part = parts[position]
        position += 1
        if isinstance(field, Items):
            values[field.attr] = _read_items(field, part, NESTED)
        else:
            values[field.attr] = field.read(part)
    return values


def _read_start(x: str, y: str) -> m.Square | None:
    if x in ("", "0") and y in ("", "-"):
        return None
    try:
        return m.Square(read_count(x), y)
    except ValueError:
        raise WireError(ErrorCode.BAD_FORMAT, x, reason=f"bad start column {x!r}") from None


def _read_items(field: Items, payload: str, level: _Level) -> tuple[Any, ...]:
    form = field.form
    items = [item for item in payload.split(level.item) if item]
    if isinstance(form, Kind):
        return tuple(Scalar(field.attr, field.tag, form).read(item) for item in items)
    if isinstance(form, Record):
        return tuple(_read_record(form, item, level) for item in items)
    return tuple(_read_tile(item, level) for item in items)


def _read_record(form: Record, item: str, level: _Level) -> Any:
    parts = item.split(level.sub, len(form.fields) - 1)
    parts += [""] * (len(form.fields) - len(parts))
    return form.cls(**{sub.attr: sub.read(part) for sub, part in zip(form.fields, parts, strict=True)})


def _read_tile(item: str, level: _Level) -> m.Tile:
    parts = item.split(level.sub)
    if len(parts) != 3:
        raise WireError(ErrorCode.BAD_MOVES, item, reason=f"bad tile {item!r}")
    x, y, glyph = parts
    return read_tile(x, y, glyph, None, item)


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def render(message: object) -> str:
    """The 0.2 line of ``message`` (any client or server message).

    Raises:
        ValueError: a field that 0.2 cannot carry (a separator in a non-free field, an empty
            list item, a number out of range, a tile that would read back differently).
    """
    layout = layout_of(message)
    return f"{layout.token}|{_write_fields(layout, message)}"


def _write_fields(layout: Layout, message: object) -> str:
    fields = layout.fields
    if not fields:
        return ""
    if len(fields) == 1:
        only = fields[0]
        if isinstance(only, Items):
            return _write_items(only, getattr(message, only.attr), BODY)
        if isinstance(only, Scalar):
            return only.kind.write(getattr(message, only.attr))
    return "#".join(_write_field(field, getattr(message, field.attr)) for field in fields)


def _write_field(field: Field, value: Any) -> str:
    if isinstance(field, StartField):
        return "0#-" if value is None else f"{_plain(str(value.x), '#')}#{_plain(value.y, '#')}"
    if isinstance(field, Items):
        return _write_items(field, value, NESTED)
    written = field.kind.write(value)
    return written if field.free else _plain(written, "#")


def _write_items(field: Items, values: tuple[Any, ...], level: _Level) -> str:
    form = field.form
    out = []
    for value in values:
        if isinstance(form, Kind):
            item = _plain(form.write(value), level.reserved)
            if not item:
                raise ValueError(f"{field.attr}: an empty item would vanish on the wire")
        elif isinstance(form, Record):
            item = level.sub.join(
                _plain(sub.kind.write(getattr(value, sub.attr)), level.reserved + level.sub)
                for sub in form.fields
            )
        else:
            item = _write_tile(value, level)
        out.append(item + level.item)
    return "".join(out)


def _write_tile(tile: m.Tile, level: _Level) -> str:
    check_tile(tile)
    glyph = tile.glyph.lower() if tile.blank else tile.glyph
    return level.sub.join((str(tile.x), tile.y, _plain(glyph, level.reserved + level.sub)))


def _plain(text: str, reserved: str) -> str:
    """``text`` unchanged, or ValueError when it holds one of the ``reserved`` separators."""
    for separator in reserved:
        if separator in text:
            raise ValueError(f"{text!r} holds the 0.2 separator {separator!r}")
    return text


__all__ = ["parse", "render"]
