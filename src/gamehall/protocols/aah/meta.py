"""AAH ``META`` payloads: Base64 of a small XML document (section 3.3 and 3.4 of ``specs/aah.md``).

- The server describes its table with six tags, always all of them, each once, in a fixed order
  (the 0.2.0 client crashes when one is missing and warns on duplicates).
- A client sends only ``<version>``; the server reads nothing else.

0.2.0 writes the XML without a declaration, two-space indented, with CRLF line ends; we write
exactly that (so the Base64 matches byte for byte) but read any whitespace and an optional
declaration. Parsing goes through defusedxml with DTDs forbidden, so no entity expansion.
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Final
from xml.etree.ElementTree import Element, ParseError
from xml.sax.saxutils import escape

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

PROTOCOL_VERSION: Final = 200
"""The version id of AAH 0.2.0 (major·10000 + minor·100 + patch), announced by default."""

SERVER_TAGS: Final = ("version", "playermax", "players", "ruleset", "aplimit", "timeout")
"""The server META tags, in the order 0.2.0 writes them."""

OUTDATED_SERVER: Final = "Outdated server."
OUTDATED_CLIENT: Final = "Outdated client."

_NUMBER = re.compile(r"[0-9]{1,10}")


class MetaError(ValueError):
    """A META argument that is not Base64 of well-formed, DTD-free XML with the expected tags
    (the server answers ``REFU`` "Malformed data.")."""


@dataclass(frozen=True, slots=True)
class ServerMeta:
    """What a server tells about the table a connection sits at (or would land at)."""

    version: int = PROTOCOL_VERSION
    playermax: int = 5
    players: int = 0
    ruleset: str = "Standard"
    aplimit: int = 8
    timeout: int = 30


def _xml(tags: list[tuple[str, str]]) -> str:
    lines = ["<meta>", *(f"  <{name}>{escape(value)}</{name}>" for name, value in tags), "</meta>"]
    return "\r\n".join(lines)


def _b64(xml: str) -> str:
    return base64.b64encode(xml.encode("utf-8")).decode("ascii")


def server_meta_xml(meta: ServerMeta) -> str:
    """The server META XML exactly as 0.2.0 writes it: six tags in order, CRLF, no declaration."""
    return _xml(
        [
            ("version", str(meta.version)),
            ("playermax", str(meta.playermax)),
            ("players", str(meta.players)),
            ("ruleset", meta.ruleset),
            ("aplimit", str(meta.aplimit)),
            ("timeout", str(meta.timeout)),
        ]
    )


def encode_server_meta(meta: ServerMeta) -> str:
    """The argument of the server's ``META`` reply: Base64 (with padding) of :func:`server_meta_xml`."""
    return _b64(server_meta_xml(meta))


def client_meta_xml(version: int = PROTOCOL_VERSION) -> str:
    """A client META XML as the 0.2.0 client writes it."""
    return _xml([("version", str(version))])


def encode_client_meta(version: int = PROTOCOL_VERSION) -> str:
    """The argument of a client's ``META`` reply (the 0.2.0 client's exact bytes for 200)."""
    return _b64(client_meta_xml(version))


def _parse_root(argument: str) -> Element:
    try:
        data = base64.b64decode(argument.encode("ascii"), validate=True)
    except (UnicodeEncodeError, binascii.Error) as error:
        raise MetaError(f"META argument is not Base64: {error}") from None
    try:
        root: Element = fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except (ParseError, DefusedXmlException, ValueError) as error:
        raise MetaError(f"META payload is not acceptable XML: {error}") from None
    if root.tag != "meta":
        raise MetaError(f"META root element is <{root.tag}>, expected <meta>")
    return root


def _number(text: str | None, tag: str) -> int:
    value = (text or "").strip()
    if not _NUMBER.fullmatch(value):
        raise MetaError(f"<{tag}> is not a decimal number: {value[:40]!r}")
    return int(value)


def decode_client_meta(argument: str) -> int:
    """The version id from a client ``META`` reply.

    Raises:
        MetaError: bad Base64, bad or DTD-carrying XML, a root other than ``<meta>``, a missing
            ``<version>`` or one that is not a plain decimal number.
    """
    root = _parse_root(argument)
    version = root.find("version")
    if version is None:
        raise MetaError("META payload has no <version>")
    return _number(version.text, "version")


def decode_server_meta(argument: str) -> ServerMeta:
    """The table description from a server ``META`` reply, checked as strictly as the 0.2.0
    client needs it: each of the six tags present exactly once (extra tags are ignored).

    Raises:
        MetaError: bad Base64 or XML, a missing or repeated tag, a non-numeric number.
    """
    root = _parse_root(argument)
    texts: dict[str, str] = {}
    for child in root:
        if child.tag in SERVER_TAGS:
            if child.tag in texts:
                raise MetaError(f"server META repeats <{child.tag}>")
            texts[child.tag] = (child.text or "").strip()
    missing = [tag for tag in SERVER_TAGS if tag not in texts]
    if missing:
        raise MetaError(f"server META lacks {', '.join('<' + tag + '>' for tag in missing)}")
    return ServerMeta(
        version=_number(texts["version"], "version"),
        playermax=_number(texts["playermax"], "playermax"),
        players=_number(texts["players"], "players"),
        ruleset=texts["ruleset"],
        aplimit=_number(texts["aplimit"], "aplimit"),
        timeout=_number(texts["timeout"], "timeout"),
    )


def version_refusal(version: int) -> str | None:
    """``None`` when a client of ``version`` may join, else the ``REFU`` reason (section 3.4).

    Accepted: major 0, minor 1 or 2 (ids 100-299: spec 0.1 and client 0.2.x); patch ignored.
    """
    major, minor = version // 10000, (version // 100) % 100
    if major == 0 and minor in (1, 2):
        return None
    if (major, minor) > (0, 2):
        return OUTDATED_SERVER
    return OUTDATED_CLIENT


__all__ = [
    "OUTDATED_CLIENT",
    "OUTDATED_SERVER",
    "PROTOCOL_VERSION",
    "SERVER_TAGS",
    "MetaError",
    "ServerMeta",
    "client_meta_xml",
    "decode_client_meta",
    "decode_server_meta",
    "encode_client_meta",
    "encode_server_meta",
    "server_meta_xml",
    "version_refusal",
]
