"""Prolog-style terms as the Mr. Jack wire carries them: the subset the seed uses, read and
written by hand (note 2.2, 2.3; never with a Prolog reader, note 14).

Terms are atoms (``gelb``, ``'Du bist nicht dran.'``), integers, strings (``"..."``), lists
and compound terms (``update_Figur(f7,gelb)``). Capitalised words are atoms, never variables:
``nick(Max)`` names the user ``Max``.

Reading a line (:func:`parse_line`) follows note 2.3: one optional trailing dot is removed,
the functor is matched case-insensitively by the dialogue (the parser keeps its case, so
``parse(print(t)) == t``), and the argument of ``chat``, ``ok`` and ``err`` is *free text*
taken raw between the first ``(`` and the last ``)``, unless it is exactly one quoted atom or
string. Anything else that does not parse raises :class:`~gamehall.protocols._core.ProtocolError`
whose reason is the seed's ``Unbekannter Befehl oder Befehl zur Zeit nicht möglich: <line>``.

Writing (:func:`print_term`) has two styles (note 2.2): ``prolog`` (no spaces, atoms quoted
where Prolog needs quotes) and ``plain`` (the seed's own spacing per message, free text raw).
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass
from typing import Final

from gamehall.protocols._core import ProtocolError

# --------------------------------------------------------------------------------------------
# The terms
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Atom:
    """An atom; ``name`` may hold any text (free text travels as one atom)."""

    name: str


@dataclass(frozen=True, slots=True)
class Str:
    """A double-quoted string."""

    text: str


@dataclass(frozen=True, slots=True)
class TList:
    """A list ``[a,b,...]``."""

    items: tuple[Term, ...] = ()


@dataclass(frozen=True, slots=True)
class Compound:
    """``functor(arg, ...)`` with at least one argument."""

    functor: str
    args: tuple[Term, ...]


Term = Atom | int | Str | TList | Compound
Command = Atom | Compound
"""What one line holds: a bare functor (``fertig``) or a compound term."""


def atom_or_compound(functor: str, *args: Term) -> Command:
    """``functor`` alone, or ``functor(args)``."""
    return Compound(functor, tuple(args)) if args else Atom(functor)


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


class Style(enum.Enum):
    """The two output styles of note 2.2."""

    PROLOG = "prolog"
    PLAIN = "plain"


FREE_TEXT_FUNCTORS: Final = frozenset({"chat", "ok", "err"})
"""Commands whose one argument is free text (note 2.3 rule 4)."""

PLAIN_SPACED: Final = frozenset({"beginn", "update_Art", "update_Absp", "moeglichkeiten"})
"""Messages the seed prints with ``", "`` between arguments (and between the items of a list
argument); all the others have no spaces (note 4.2, ``plain`` column)."""

_BARE_ATOM: Final = re.compile(r"[a-z][A-Za-z0-9_]*")
_CONTROL: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_LINE_BREAK: Final = re.compile(r"\r\n|\r|\n")


def quote_atom(name: str) -> str:
    """``name`` as Prolog writes it: bare iff ``[a-z][A-Za-z0-9_]*`` or ``[]``, else quoted
    with ``\\\\``, ``\\'``, ``\\n``, ``\\t`` escapes; other control characters become a space."""
    if name == "[]" or _BARE_ATOM.fullmatch(name):
        return name
    text = name.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t")
    return "'" + _CONTROL.sub(" ", text.replace("\r", " ")) + "'"


def plain_text(text: str) -> str:
    """Free text as ``plain`` writes it: raw, each line break one space, no control characters."""
    return _CONTROL.sub(" ", _LINE_BREAK.sub(" ", text)).replace("\t", " ")


def print_term(term: Term, style: Style = Style.PROLOG, *, separator: str = ",") -> str:
    """``term`` as text in ``style`` (no trailing dot). ``separator`` is what ``plain`` puts
    between the arguments of this term and the items of its list arguments."""
    if isinstance(term, bool):  # bool is an int: refuse it rather than print True
        raise TypeError("a term cannot be a bool")
    if isinstance(term, int):
        return str(term)
    if isinstance(term, Atom):
        return quote_atom(term.name) if style is Style.PROLOG else plain_text(term.name)
    if isinstance(term, Str):
        if style is Style.PLAIN:
            return plain_text(term.text)
        escaped = (
            term.text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        )
        return '"' + _CONTROL.sub(" ", escaped.replace("\r", " ")) + '"'
    if isinstance(term, TList):
        return "[" + separator.join(print_term(item, style) for item in term.items) + "]"
    functor = term.functor if style is Style.PLAIN else quote_atom(term.functor)
    inner = ", " if style is Style.PLAIN and term.functor in PLAIN_SPACED else ","
    return functor + "(" + inner.join(print_term(arg, style, separator=inner) for arg in term.args) + ")"


def print_line(command: Command, style: Style = Style.PROLOG) -> str:
    """One whole line without its LF: ``term.`` in ``prolog``, ``term`` in ``plain``."""
    text = print_term(command, style)
    return text + "." if style is Style.PROLOG else text


# --------------------------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------------------------

UNKNOWN_COMMAND: Final = "Unbekannter Befehl oder Befehl zur Zeit nicht möglich: "
"""The seed's text for a line the server cannot process; the line follows (note 2.3 rule 7)."""

ECHO_LIMIT: Final = 200
"""Characters of the offending line echoed in :data:`UNKNOWN_COMMAND`."""

_FUNCTOR: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_WORD: Final = re.compile(r"[A-Za-z0-9_]+")


def unknown_command(line: str) -> str:
    """The ``err`` text for ``line`` (cut to :data:`ECHO_LIMIT` characters)."""
    return UNKNOWN_COMMAND + line[:ECHO_LIMIT]


def normalise(line: str) -> str:
    """Note 2.3 rule 2: strip, then remove one trailing dot and strip again."""
    text = line.strip()
    if text.endswith("."):
        text = text[:-1].strip()
    return text


def parse_line(line: str) -> Command:
    """The command on one line (already without LF/CR), per note 2.3.

    Raises:
        ProtocolError: ``unparsable``, with :func:`unknown_command` of the normalised line.
    """
    text = normalise(line)
    match = _FUNCTOR.match(text)
    if match is None:
        raise ProtocolError(unknown_command(text), code="unparsable")
    functor = match.group()
    rest = text[match.end() :].lstrip()
    if not rest:
        return Atom(functor)
    if rest[0] != "(" or not rest.endswith(")"):
        raise ProtocolError(unknown_command(text), code="unparsable")
    if functor.lower() in FREE_TEXT_FUNCTORS:
        return Compound(functor, (Atom(free_text(rest[1:-1])),))
    try:
        reader = _Reader(rest)
        args = reader.arguments()
        reader.end()
    except _Unparsable:
        raise ProtocolError(unknown_command(text), code="unparsable") from None
    return Compound(functor, args)


def free_text(raw: str) -> str:
    """The free text of ``chat``/``ok``/``err``: raw, unless it is (ignoring outer spaces)
    exactly one quoted atom or one string, which is unquoted (note 2.3 rule 4)."""
    inner = raw.strip()
    if len(inner) >= 2 and inner[0] in "'\"":
        try:
            reader = _Reader(inner)
            value = reader.quoted(inner[0])
            reader.end()
        except _Unparsable:
            return raw
        return value
    return raw


class _Unparsable(Exception):
    pass


class _Reader:
    """A recursive-descent reader over ``arg := word | 'quoted' | "string" | [arg,...] |
    word(arg,...)`` with whitespace around every token (note 2.3 rule 5)."""

    __slots__ = ("pos", "text")

    MAX_DEPTH: Final = 32

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def _skip(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def _peek(self) -> str:
        self._skip()
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def _expect(self, char: str) -> None:
        if self._peek() != char:
            raise _Unparsable
        self.pos += 1

    def end(self) -> None:
        if self._peek() != "":
            raise _Unparsable

    def arguments(self, depth: int = 0) -> tuple[Term, ...]:
        """``( arg {, arg} )``."""
        self._expect("(")
        args = [self.argument(depth)]
        while self._peek() == ",":
            self.pos += 1
            args.append(self.argument(depth))
        self._expect(")")
        return tuple(args)

    def argument(self, depth: int) -> Term:
        if depth > self.MAX_DEPTH:
            raise _Unparsable
        char = self._peek()
        if char in ("'", '"'):
            text = self.quoted(char)
            return Atom(text) if char == "'" else Str(text)
        if char == "[":
            self.pos += 1
            if self._peek() == "]":
                self.pos += 1
                return TList()
            items = [self.argument(depth + 1)]
            while self._peek() == ",":
                self.pos += 1
                items.append(self.argument(depth + 1))
            self._expect("]")
            return TList(tuple(items))
        match = _WORD.match(self.text, self.pos)
        if match is None:
            raise _Unparsable
        word = match.group()
        self.pos = match.end()
        if self.pos < len(self.text) and self.text[self.pos] == "(":
            if not _FUNCTOR.fullmatch(word):
                raise _Unparsable
            return Compound(word, self.arguments(depth + 1))
        return int(word) if word.isdigit() and len(word) <= 18 else Atom(word)

    def quoted(self, quote: str) -> str:
        """A quoted atom or string starting at the current position: ``''`` (doubled quote)
        and backslash escapes (``\\n``, ``\\t``, ``\\\\``, ``\\'``, ``\\"``) are read."""
        self._expect(quote)
        out: list[str] = []
        text = self.text
        while True:
            if self.pos >= len(text):
                raise _Unparsable
            char = text[self.pos]
            self.pos += 1
            if char == quote:
                if self.pos < len(text) and text[self.pos] == quote:
                    out.append(quote)
                    self.pos += 1
                    continue
                return "".join(out)
            if char == "\\":
                if self.pos >= len(text):
                    raise _Unparsable
                escaped = text[self.pos]
                self.pos += 1
                out.append({"n": "\n", "t": "\t"}.get(escaped, escaped))
                continue
            out.append(char)


__all__ = [
    "ECHO_LIMIT",
    "FREE_TEXT_FUNCTORS",
    "PLAIN_SPACED",
    "UNKNOWN_COMMAND",
    "Atom",
    "Command",
    "Compound",
    "Str",
    "Style",
    "TList",
    "Term",
    "atom_or_compound",
    "free_text",
    "normalise",
    "parse_line",
    "plain_text",
    "print_line",
    "print_term",
    "quote_atom",
    "unknown_command",
]
