"""Protocol 1.0: one XML document per frame (note §3.2).

Reading parses the decoded text with ``defusedxml`` (``forbid_dtd=True``; entities and
external references forbidden by default): a DTD, an entity, an external reference or a syntax
error is 99000. Leading blanks and a leading U+FEFF are skipped, so the seed's indented
examples parse; the declaration is optional. The root is the 0.2 token in lower case: any
other root (or a namespaced one) is 99002 with its name. Unknown children are ignored, leaf
text is trimmed (XML blanks only), and free text (chat, whisper, action, reasons, the ERROR
parameter) is kept verbatim.

Writing follows the note's examples byte for byte: the declaration, then the root, no
whitespace between elements, attributes in the note's order, empty optional elements left
out, ``& < >`` escaped in text and ``& < > "`` in attributes. Characters an XML parser would
normalise are written as character references (CR in text; TAB, LF, CR in attributes), and
characters XML 1.0 cannot carry at all (C0 controls, U+FFFE, U+FFFF, lone surrogates) become
U+FFFD: **Decision (ours)**, so that a 1.0 peer can always read what we send.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET  # only the tree and ParseError types: parsing is defused
from collections.abc import Mapping
from typing import Any, Final

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

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

DECLARATION: Final = '<?xml version="1.0" encoding="UTF-8"?>'
_XML_BLANKS: Final = " \t\r\n"

# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------


def parse(text: str, known: Mapping[str, Layout]) -> Any:
    """The message in one 1.0 document. ``known`` maps 0.2 tokens to layouts.

    Raises:
        WireError: 99000 (not well-formed XML, DTD, entity), 99002 (unknown or namespaced
            root, with its name), or a field's code (30105, 30110, 60000, 60107, 99000), with
            ``command`` set once the root is known.
    """
    document = text.lstrip(_XML_BLANKS + "\ufeff")
    try:
        root = fromstring(document, forbid_dtd=True)
    except DefusedXmlException as error:
        raise WireError(ErrorCode.BAD_FORMAT, reason=f"forbidden XML: {type(error).__name__}") from None
    except ET.ParseError as error:
        raise WireError(ErrorCode.BAD_FORMAT, reason=f"bad XML: {error}") from None
    tag = str(root.tag)
    token = tag.upper()
    layout = known.get(token)
    if layout is None or tag != layout.root:
        raise WireError(ErrorCode.UNKNOWN_COMMAND, tag, reason=f"unknown root {tag[:40]!r}")
    try:
        return layout.cls(**_read_fields(layout, root))
    except WireError as error:
        raise error.with_command(token) from None


def _leaf(element: ET.Element | None, free: bool = False) -> str:
    if element is None:
        return ""
    content = element.text or ""
    return content if free else content.strip(_XML_BLANKS)


def _attribute(element: ET.Element, name: str) -> str:
    return element.get(name, "").strip(_XML_BLANKS)


def _read_fields(layout: Layout, root: ET.Element) -> dict[str, Any]:
    only = layout.value_in_root()
    if only is not None:
        return {only.attr: only.read(_leaf(root, only.free))}
    values: dict[str, Any] = {}
    for field in layout.fields:
        if isinstance(field, Scalar):
            values[field.attr] = field.read(_leaf(root.find(field.tag), field.free))
        elif isinstance(field, Items):
            container = root if field.wrapper is None else root.find(field.wrapper)
            elements = [] if container is None else container.findall(field.tag)
            values[field.attr] = _read_items(field, elements)
        else:
            values[field.attr] = _read_start(root.find(field.tag))
    return values


def _read_start(element: ET.Element | None) -> m.Square | None:
    if element is None:
        return None
    x = _attribute(element, "x")
    try:
        return m.Square(read_count(x), _attribute(element, "y"))
    except ValueError:
        raise WireError(ErrorCode.BAD_FORMAT, x, reason=f"bad start column {x!r}") from None


def _read_items(field: Items, elements: list[ET.Element]) -> tuple[Any, ...]:
    form = field.form
    if isinstance(form, Kind):
        scalar = Scalar(field.attr, field.tag, form)
        return tuple(scalar.read(item) for item in (_leaf(e) for e in elements) if item)
    if isinstance(form, Record):
        main, *others = form.fields
        return tuple(
            form.cls(
                **{main.attr: main.read(_leaf(e))},
                **{sub.attr: sub.read(_attribute(e, sub.tag)) for sub in others},
            )
            for e in elements
        )
    return tuple(_read_tile(e) for e in elements)


def _read_tile(element: ET.Element) -> m.Tile:
    x, y, glyph = _attribute(element, "x"), _attribute(element, "y"), _leaf(element)
    blank = element.get("blank")
    return read_tile(x, y, glyph, None if blank is None else blank.strip(_XML_BLANKS), f"{x}&{y}&{glyph}")


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------

_NOT_XML: Final = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_TEXT_ESCAPES: Final = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;"})
_ATTRIBUTE_ESCAPES: Final = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
)


def escape_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text).translate(_TEXT_ESCAPES)


def escape_attribute(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text).translate(_ATTRIBUTE_ESCAPES)


def element(tag: str, content: str = "", attributes: tuple[tuple[str, str], ...] = ()) -> str:
    """``<tag a="v">content</tag>``, or ``<tag a="v"/>`` without content (content is markup:
    escape text with :func:`escape_text` first)."""
    opening = tag + "".join(f' {name}="{escape_attribute(value)}"' for name, value in attributes)
    return f"<{opening}>{content}</{tag}>" if content else f"<{opening}/>"


def render(message: object) -> str:
    """The 1.0 document of ``message`` (any client or server message), declaration included.

    Raises:
        ValueError: an empty list item, a number out of range, or a tile that would read back
            differently.
    """
    layout = layout_of(message)
    only = layout.value_in_root()
    if only is not None:
        content = escape_text(only.kind.write(getattr(message, only.attr)))
    else:
        content = "".join(_write_field(field, getattr(message, field.attr)) for field in layout.fields)
    return DECLARATION + element(layout.root, content)


def _write_field(field: Field, value: Any) -> str:
    if isinstance(field, StartField):
        return "" if value is None else element(field.tag, "", (("x", str(value.x)), ("y", value.y)))
    if isinstance(field, Items):
        items = "".join(_write_item(field, item) for item in value)
        return items if field.wrapper is None or not items else element(field.wrapper, items)
    written = field.kind.write(value)
    return element(field.tag, escape_text(written)) if written else ""


def _write_item(field: Items, value: Any) -> str:
    form = field.form
    if isinstance(form, Kind):
        written = form.write(value)
        if not written:
            raise ValueError(f"{field.attr}: an empty item would vanish on the wire")
        return element(field.tag, escape_text(written))
    if isinstance(form, Record):
        main, *others = form.fields
        attributes = tuple((sub.tag, sub.kind.write(getattr(value, sub.attr))) for sub in others)
        return element(field.tag, escape_text(main.kind.write(getattr(value, main.attr))), attributes)
    check_tile(value)
    square = (("x", str(value.x)), ("y", value.y))
    if value.blank:
        return element(field.tag, "*", (*square, ("blank", value.glyph)))
    return element(field.tag, escape_text(value.glyph), square)


__all__ = ["DECLARATION", "element", "escape_attribute", "escape_text", "parse", "render"]
