"""One text rule for the whole hall (issue 10, item 4; docs/text-rule.md).

Names, room titles and chat travel between protocols: a browser user's chat reaches UrServer
and AAH clients, a Mr. Jack nick shows up in the browser, a browser name appears in
JDuplicate's GAMEINFOS. Each protocol has bytes that are structure on its wire:

=================  ==============================================================
protocol           structure bytes a text field must never carry
=================  ==============================================================
UrServer           LF / CR (one message per line), space inside a name token
Mr. Jack           LF (one term per line); quoting is the codec's job
AAH                NUL (argument separator), ETX (frame end)
JDuplicate 0.2     ``#`` ``&`` ``~`` in any field but the last; ``|`` before the payload
JDuplicate 1.0     ``<`` ``>`` in names (markup; the codec escapes text)
cg, web            none (msgpack / JSON carry any string)
=================  ==============================================================

So the rule is applied twice, each time in one place:

1. **At the hall, on input** (:func:`check_name`, :func:`check_title`, :func:`clean_chat`):
   every name must be carriable by every protocol (no control or separator character at all,
   since 0.2 has no escaping and names appear in its structured fields); titles and chat are
   normalised once: line breaks become LF, other control characters (C0/C1, bidi overrides,
   lone surrogates) are removed.
2. **At each protocol, on output**, where the protocol itself needs an encoding that the
   normalised text does not already satisfy: :func:`one_line` for line protocols (LF and TAB
   become a space), :func:`one_token` for UrServer names (a foreign name with spaces). AAH,
   JDuplicate and Mr. Jack quote or refuse in their codecs; after step 1 nothing reaches those
   codecs that they must refuse.

This module is sans-I/O and below the hall, so both the hall and every protocol import it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from gamehall.protocols._core import HallError

NAME_MAX: Final = 32
TITLE_MAX: Final = 64
CHAT_MAX: Final = 1000
"""The longest chat line any protocol allows (Mr. Jack: 1000); the others cut or refuse lower."""

NAME_SEPARATORS: Final = "#&~<>"
"""Characters no name may hold: JDuplicate 0.2's field, item and record separators (``#``,
``&``, ``~``: 0.2 has no escaping and names sit in structured fields) and 1.0's markup
(``<``, ``>``; note jduplicate §3.2 "names avoid the union")."""

_BIDI_CONTROLS: Final = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")
_LINE_BREAKS: Final = re.compile("\r\n|[\x85\u2028\u2029]")


def _is_control(ch: str) -> bool:
    """Control, format-override, surrogate and line/paragraph-separator characters: none of
    them is ever text a person means to show, and several are structure somewhere."""
    category = unicodedata.category(ch)
    return category in ("Cc", "Cs", "Zl", "Zp") or ch in _BIDI_CONTROLS


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a user name in this hall, or ``None`` when it can.

    The reason is a sentence for the user; protocols map it to their own error message.
    """
    if not name or len(name) > NAME_MAX:
        return f"A name has 1 to {NAME_MAX} characters."
    if name != name.strip():
        return "A name cannot start or end with a space."
    for ch in name:
        if _is_control(ch) or (ch.isspace() and ch != " ") or unicodedata.category(ch) == "Cf":
            return "A name cannot contain control characters or line breaks."
        if ch in NAME_SEPARATORS:
            shown = " ".join(NAME_SEPARATORS)
            return f"A name cannot contain any of {shown} (other clients use them as separators)."
    return None


def check_name(name: str) -> None:
    """The hall's rule for user names, which every protocol can carry (module docstring).
    Protocols may be stricter at their own login (UrServer, AAH, Mr. Jack, cg).

    Raises:
        HallError: ``name_invalid`` with the reason.
    """
    problem = name_problem(name)
    if problem is not None:
        raise HallError("name_invalid", problem)


def normalise(text: str) -> str:
    """The form in which the hall stores and forwards free text: CRLF and the Unicode line and
    paragraph separators become LF; every other control character (TAB, CR, NUL, ETX, ...)
    becomes a space, as the AAH note (§7.1) asks for its chat; bidi overrides and lone
    surrogates (which no encoder can write) are removed."""
    text = _LINE_BREAKS.sub("\n", text)
    if text.isprintable():
        return text
    return "".join(
        ch if ch == "\n" or not _is_control(ch) else (" " if unicodedata.category(ch) == "Cc" else "")
        for ch in text
    )


def clean_chat(text: str) -> str:
    """A chat line as the hall forwards it: :func:`normalise`, outer blank lines trimmed.

    Raises:
        HallError: ``chat_invalid`` when nothing is left or it is longer than :data:`CHAT_MAX`.
    """
    cleaned = normalise(text).strip("\n")
    if not cleaned.strip() or len(cleaned) > CHAT_MAX:
        raise HallError("chat_invalid", f"A chat line has 1 to {CHAT_MAX} characters.")
    return cleaned


def check_title(title: str) -> str:
    """A room title as the hall keeps it: one line, no control characters, 1 to
    :data:`TITLE_MAX` characters after trimming. Protocols whose game names are stricter
    (UrServer, JDuplicate) list a room under its id when its title does not fit them.

    Raises:
        HallError: ``title_invalid``.
    """
    cleaned = one_line(normalise(title)).strip()
    if not cleaned or len(cleaned) > TITLE_MAX:
        raise HallError("title_invalid", f"A room title has 1 to {TITLE_MAX} characters on one line.")
    return cleaned


def one_line(text: str) -> str:
    """``text`` safe inside one line of a line protocol: every line break, TAB and other
    control character becomes a space."""
    if text.isprintable():
        return text
    return "".join(" " if (ch.isspace() or _is_control(ch)) else ch for ch in text)


def one_token(text: str, *, filler: str = "_") -> str:
    """``text`` as one space-free token (UrServer names): runs of whitespace and control
    characters become ``filler``; never empty."""
    out: list[str] = []
    for ch in text:
        if ch.isspace() or _is_control(ch) or unicodedata.category(ch) == "Cf":
            if not out or out[-1] != filler:
                out.append(filler)
        else:
            out.append(ch)
    return "".join(out) or filler


__all__ = [
    "CHAT_MAX",
    "NAME_MAX",
    "NAME_SEPARATORS",
    "TITLE_MAX",
    "check_name",
    "check_title",
    "clean_chat",
    "name_problem",
    "normalise",
    "one_line",
    "one_token",
]
