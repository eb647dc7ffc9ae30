"""The term reader and printer (note 2.2, 2.3, 15.8): every example of the note both ways,
quoting, the seed's plain spacing, free text, and what does not parse."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols._core import ProtocolError
from gamehall.protocols.mrjack.messages import term
from gamehall.protocols.mrjack.terms import (
    Atom,
    Command,
    Compound,
    Str,
    Style,
    Term,
    TList,
    parse_line,
    print_line,
    quote_atom,
)

PROLOG, PLAIN = Style.PROLOG, Style.PLAIN


def coords(*labels: str) -> TList:
    return TList(tuple(Atom(label) for label in labels))


NOTE_EXAMPLES: list[tuple[Command, str, str]] = [
    (term("beginn", "spiel", "detektiv"), "beginn(spiel,detektiv).", "beginn(spiel, detektiv)"),
    (term("ok", "Farbe ist aktiv: gelb"), "ok('Farbe ist aktiv: gelb').", "ok(Farbe ist aktiv: gelb)"),
    (
        term("moeglichkeiten", coords("a1", "c4", "c5")),
        "moeglichkeiten([a1,c4,c5]).",
        "moeglichkeiten([a1, c4, c5])",
    ),
    (term("update_Absp", "f3", "g2", "h6", "h7"), "update_Absp(f3,g2,h6,h7).", "update_Absp(f3, g2, h6, h7)"),
    (term("err", "Du bist nicht dran."), "err('Du bist nicht dran.').", "err(Du bist nicht dran.)"),
    (term("jack", "lila"), "jack(lila).", "jack(lila)"),
    (term("update_Figur", "f7", "gelb"), "update_Figur(f7,gelb).", "update_Figur(f7,gelb)"),
    (term("update_Art", "g6", "laterne"), "update_Art(g6,laterne).", "update_Art(g6, laterne)"),
    (term("update_Schiff", "f2", "c7"), "update_Schiff(f2,c7).", "update_Schiff(f2,c7)"),
    (term("ende", "spiel", "detektiv", "lila"), "ende(spiel,detektiv,lila).", "ende(spiel,detektiv,lila)"),
    (term("chat", "Hallo, Welt (test)."), "chat('Hallo, Welt (test).').", "chat(Hallo, Welt (test).)"),
    (term("ison", coords("Max", "anna")), "ison(['Max',anna]).", "ison([Max,anna])"),
    (term("ok", "Du heißt jetzt: Max"), "ok('Du heißt jetzt: Max').", "ok(Du heißt jetzt: Max)"),
    (term("chat", "hallo"), "chat(hallo).", "chat(hallo)"),
    (
        term("auswahl", TList((coords("gelb", "nein"), coords("rot", "ja")))),
        "auswahl([[gelb,nein],[rot,ja]]).",
        "auswahl([[gelb,nein],[rot,ja]])",
    ),
    (Atom("fertig"), "fertig.", "fertig"),
]


@pytest.mark.parametrize(("command", "prolog", "plain"), NOTE_EXAMPLES, ids=[e[1] for e in NOTE_EXAMPLES])
def test_each_note_example_prints_and_reads_back_in_both_styles(
    command: Command, prolog: str, plain: str
) -> None:
    assert print_line(command, PROLOG) == prolog
    assert print_line(command, PLAIN) == plain
    assert parse_line(prolog) == command
    assert parse_line(plain) == command


def test_the_bytes_of_jack_lila_are_the_notes() -> None:
    line = (print_line(term("jack", "lila")) + "\n").encode()
    assert line.hex(" ").upper() == "6A 61 63 6B 28 6C 69 6C 61 29 2E 0A"


@pytest.mark.parametrize(
    ("name", "written"),
    [
        ("gelb", "gelb"),
        ("update_Figur", "update_Figur"),
        ("[]", "[]"),
        ("Max", "'Max'"),
        ("", "''"),
        ("a b", "'a b'"),
        ("It's", "'It\\'s'"),
        ("back\\slash", "'back\\\\slash'"),
        ("two\nlines", "'two\\nlines'"),
        ("tab\there", "'tab\\there'"),
        ("bell\x07", "'bell '"),
        ("9lives", "'9lives'"),
        ("_x", "'_x'"),
        ("grün", "'grün'"),
    ],
)
def test_atoms_are_quoted_only_where_prolog_needs_quotes(name: str, written: str) -> None:
    assert quote_atom(name) == written


def test_plain_free_text_is_raw_with_line_breaks_as_one_space() -> None:
    assert print_line(term("chat", "a\r\nb\nc'd"), PLAIN) == "chat(a b c'd)"


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("  AKTIV( Gelb ) . ", Compound("AKTIV", (Atom("Gelb"),))),
        ("aktiv('gelb')", Compound("aktiv", (Atom("gelb"),))),
        ("ziel( F5 ).", Compound("ziel", (Atom("F5"),))),
        ("chat('It''s')", Compound("chat", (Atom("It's"),))),
        ("chat(a (b) c.)", Compound("chat", (Atom("a (b) c."),))),
        ("chat(Ende.).", Compound("chat", (Atom("Ende."),))),
        ('chat("Hallo Welt")', Compound("chat", (Atom("Hallo Welt"),))),
        ("chat('a' 'b')", Compound("chat", (Atom("'a' 'b'"),))),
        ("nick(Max)", Compound("nick", (Atom("Max"),))),
        ('nick("Max")', Compound("nick", (Str("Max"),))),
        ("ison", Atom("ison")),
        ("quit.", Atom("quit")),
        ("f(g(h, [1, x]), [])", Compound("f", (Compound("g", (Atom("h"), TList((1, Atom("x"))))), TList()))),
    ],
)
def test_input_rules_of_note_2_3(line: str, command: Command) -> None:
    assert parse_line(line) == command


@pytest.mark.parametrize(
    "line",
    [
        "aktiv(gelb",
        "aktiv(gelb))",
        "aktiv((gelb)",
        "aktiv(gelb) x",
        "aktiv()",
        "aktiv(gelb,)",
        "aktiv([gelb)",
        "aktiv('gelb)",
        "chat(hallo",
        "(gelb)",
        "1abc(x)",
        "aktiv(ge lb)",
        ".",
        "aktiv(-)",
    ],
)
def test_unparsable_lines_raise_the_seeds_unknown_command_text(line: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_line(line)
    expected = line.strip()
    expected = expected[:-1].strip() if expected.endswith(".") else expected
    assert caught.value.reason == f"Unbekannter Befehl oder Befehl zur Zeit nicht möglich: {expected}"
    assert caught.value.code == "unparsable"


def test_the_echo_is_cut_to_200_characters() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_line("x(" + "y" * 500)
    assert caught.value.reason.endswith(": x(" + "y" * 198)


def test_deep_nesting_is_refused_not_a_crash() -> None:
    with pytest.raises(ProtocolError):
        parse_line("f(" + "[" * 5000 + "]" * 5000 + ")")


# ------------------------------------------------------------------------------ round trips

words = st.from_regex(r"[a-z][A-Za-z0-9_]{0,8}", fullmatch=True)
texts = st.text(st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\n\t"), max_size=12)
"""Texts without control characters other than LF and TAB (the others become spaces, by design)."""
raw_texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
leaves: st.SearchStrategy[Term] = st.one_of(
    words.map(Atom), texts.map(Atom), st.integers(0, 10**6), texts.map(Str)
)
arguments = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4).map(lambda items: TList(tuple(items))),
        st.tuples(words, st.lists(inner, min_size=1, max_size=3)).map(lambda p: Compound(p[0], tuple(p[1]))),
    ),
    max_leaves=12,
)
functors = words.filter(lambda w: w.lower() not in ("chat", "ok", "err"))


@settings(max_examples=200, deadline=None)
@given(functors, st.lists(arguments, min_size=1, max_size=4))
def test_any_term_prints_in_prolog_style_and_reads_back_equal(functor: str, args: list[Term]) -> None:
    command = Compound(functor, tuple(args))
    assert parse_line(print_line(command, PROLOG)) == command


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["chat", "ok", "err"]), raw_texts)
def test_free_text_round_trips_in_prolog_style(functor: str, text: str) -> None:
    command = term(functor, text)
    cleaned = "".join(" " if (ord(c) < 32 and c not in "\n\t") or c in "\r\x7f" else c for c in text)
    assert parse_line(print_line(command, PROLOG)) == term(functor, cleaned)
