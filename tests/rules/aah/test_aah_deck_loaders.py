"""Deck loaders (AAH note 9.2-9.4): AAH XML, the three JSON Against Humanity shapes, and the
card clean-up every format shares. All decks here are tiny ones written for the tests."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.rules.aah.cards import BlackCard, Pack
from gamehall.rules.aah.deck import (
    MAX_CARD_CODE_POINTS,
    DeckError,
    clean_card_text,
    load_aah_xml,
    load_deck_file,
    load_json_against_humanity,
)

BOM = b"\xef\xbb\xbf"


def as_json(document: Any) -> bytes:
    return json.dumps(document).encode()


# --------------------------------------------------------------------------------------------
# AAH XML (9.2)
# --------------------------------------------------------------------------------------------

XML_DECK = """<?xml version="1.0" encoding="utf-8"?>
<deck type="0">
  <name>Kitchen Chaos</name>
  <count white="7" black="1"/>
  <cards>
    <white>
      <card>A spoon with opinions.</card>
      <card>Soup that fights back.</card>
    </white>
    <black>
      <card pick="1">The chef fainted when he saw __________.</card>
      <card pick="2">Mix __ with __.</card>
    </black>
  </cards>
</deck>
"""


def test_xml_deck_with_bom_loads_into_one_pack() -> None:
    pack = load_aah_xml(BOM + XML_DECK.encode(), "decks/kitchen.xml")
    assert pack == Pack(
        "Kitchen Chaos",
        ("A spoon with opinions.", "Soup that fights back."),
        (BlackCard("The chef fainted when he saw __________.", 1, 1), BlackCard("Mix __ with __.", 2, 1)),
    )


def test_xml_count_tag_is_ignored() -> None:
    """0.2.0's counts are often wrong; the cards themselves are the truth (here 2, not 7)."""
    pack = load_aah_xml(XML_DECK.encode(), "kitchen.xml")
    assert len(pack.whites) == 2
    assert len(pack.blacks) == 2


def xml_with_black(attributes: str, text: str = "Name _, _ and _.") -> bytes:
    return (
        f"<deck><name>P</name><cards><white/><black><card {attributes}>{text}</card></black></cards></deck>"
    ).encode()


@pytest.mark.parametrize(
    ("attributes", "pick", "draw"),
    [
        ("", 1, 1),
        ('pick="1"', 1, 1),
        ('pick="2"', 2, 1),
        ('pick="3"', 3, 2),
        ('pick="3" xd="true"', 3, 2),
        ('pick="3" xd="false"', 3, 1),
        ('pick="3" xd="yes"', 3, 2),
        ('pick="3" xd=""', 3, 2),
        ('pick="2" xd="true"', 2, 2),
        ('pick=" 2 "', 2, 1),
    ],
)
def test_xml_pick_and_draw(attributes: str, pick: int, draw: int) -> None:
    (black,) = load_aah_xml(xml_with_black(attributes), "p.xml").blacks
    assert (black.pick, black.draw) == (pick, draw)


@pytest.mark.parametrize("pick", ["0", "4", "-1", "many"])
def test_xml_black_card_with_a_bad_pick_is_dropped_with_a_warning(
    pick: str, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        pack = load_aah_xml(xml_with_black(f'pick="{pick}"'), "p.xml")
    assert pack.blacks == ()
    assert "p.xml, black card 1" in caplog.text


def test_xml_pack_without_name_is_named_after_the_file() -> None:
    data = b"<deck><cards><white><card>Lonely.</card></white></cards></deck>"
    assert load_aah_xml(data, "/srv/decks/Odds and Ends.xml").name == "Odds and Ends"


def test_xml_card_markup_is_read_as_plain_text() -> None:
    data = b"<deck><name>P</name><cards><white><card>A <b>bold</b> move.</card></white></cards></deck>"
    assert load_aah_xml(data, "p.xml").whites == ("A bold move.",)


@pytest.mark.parametrize(
    "data",
    [
        b'<!DOCTYPE deck [<!ENTITY joke "ha">]><deck><name>&joke;</name><cards/></deck>',
        b'<!DOCTYPE deck [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><deck><name>&b;</name></deck>',
        b'<!DOCTYPE deck SYSTEM "http://example.invalid/deck.dtd"><deck><cards/></deck>',
        b'<!DOCTYPE deck [<!ENTITY x SYSTEM "file:///etc/passwd">]><deck><name>&x;</name></deck>',
    ],
    ids=["internal-entity", "entity-expansion", "external-dtd", "external-entity"],
)
def test_xml_with_a_dtd_or_entities_is_refused(data: bytes) -> None:
    with pytest.raises(DeckError, match="DTDs and entities"):
        load_aah_xml(data, "evil.xml")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"<deck><name>Half", "not a well-formed XML"),
        (b"", "not a well-formed XML"),
        (b"<deck>\xff</deck>", "not a well-formed XML"),
        (b"<pack><cards/></pack>", "expected <deck>"),
        (b"<deck><name>No cards</name></deck>", "no <cards>"),
    ],
)
def test_unreadable_xml_is_a_deck_error(data: bytes, message: str) -> None:
    with pytest.raises(DeckError, match=message) as raised:
        load_aah_xml(data, "broken.xml")
    assert "broken.xml" in str(raised.value)


# --------------------------------------------------------------------------------------------
# JSON Against Humanity (9.3)
# --------------------------------------------------------------------------------------------

COMPACT: dict[str, Any] = {
    "white": ["A nap.", "A snack.", "A walk."],
    "black": [{"text": "I need _.", "pick": 1}, {"text": "_ beats _.", "pick": 2}, {"text": "List three."}],
    "packs": {
        "first": {"name": "First Pack", "white": [0, 1], "black": [0, 2], "official": False},
        "second": {"name": "Second Pack", "white": [1, 2], "black": [1]},
    },
}


def test_compact_shape_with_packs_as_an_object() -> None:
    first, second = load_json_against_humanity(as_json(COMPACT), "cards.json")
    assert first == Pack(
        "First Pack", ("A nap.", "A snack."), (BlackCard("I need _."), BlackCard("List three."))
    )
    assert second == Pack("Second Pack", ("A snack.", "A walk."), (BlackCard("_ beats _.", 2, 1),))


def test_compact_shape_with_packs_as_a_list() -> None:
    document = {**COMPACT, "packs": list(COMPACT["packs"].values())}
    packs = load_json_against_humanity(as_json(document), "cards.json")
    assert [pack.name for pack in packs] == ["First Pack", "Second Pack"]
    assert packs[1].whites == ("A snack.", "A walk.")


def test_compact_pack_without_a_name_is_named_by_its_key() -> None:
    document = {**COMPACT, "packs": {"misc": {"white": [0]}}}
    (pack,) = load_json_against_humanity(as_json(document), "cards.json")
    assert pack == Pack("misc", ("A nap.",), ())


def test_compact_shape_without_packs_is_one_pack_named_by_its_name_key() -> None:
    document = {"name": "Whole File", "license": "CC0-1.0", "white": ["One."], "black": []}
    (pack,) = load_json_against_humanity(as_json(document), "whatever.json")
    assert pack == Pack("Whole File", ("One.",), (), "CC0-1.0")


def test_compact_shape_without_packs_or_name_is_named_after_the_file() -> None:
    document = {"white": ["One."], "black": [{"text": "Two _.", "pick": 1}]}
    (pack,) = load_json_against_humanity(as_json(document), "decks/Party Mix.json")
    assert pack == Pack("Party Mix", ("One.",), (BlackCard("Two _."),))


def test_compact_black_cards_draw_two_exactly_when_they_pick_three() -> None:
    document = {"white": [], "black": [{"text": f"Pick {n}.", "pick": n} for n in (1, 2, 3)]}
    (pack,) = load_json_against_humanity(as_json(document), "p.json")
    assert [(b.pick, b.draw) for b in pack.blacks] == [(1, 1), (2, 1), (3, 2)]


FULL_PACK = {
    "name": "Full Pack",
    "white": [{"text": "A kite.", "pack": 0}, {"text": "A moat.", "pack": 0}],
    "black": [{"text": "Fly _.", "pick": 1, "pack": 0}, {"text": "Name three.", "pick": 3, "pack": 0}],
    "official": False,
}
FULL_PACK_LOADED = Pack(
    "Full Pack", ("A kite.", "A moat."), (BlackCard("Fly _.", 1, 1), BlackCard("Name three.", 3, 2))
)


def test_full_list_shape() -> None:
    other = {"name": "Other", "white": [{"text": "A cone."}], "black": []}
    packs = load_json_against_humanity(as_json([FULL_PACK, other]), "full.json")
    assert packs == [FULL_PACK_LOADED, Pack("Other", ("A cone.",), ())]


def test_full_keyed_shape() -> None:
    unnamed = {"white": [{"text": "A cone."}], "black": [{"text": "Pick missing _."}]}
    packs = load_json_against_humanity(as_json({"full": FULL_PACK, "extra": unnamed}), "keyed.json")
    assert packs == [FULL_PACK_LOADED, Pack("extra", ("A cone.",), (BlackCard("Pick missing _."),))]


def test_json_with_a_bom_is_read() -> None:
    (pack,) = load_json_against_humanity(BOM + as_json({"white": ["Hi."]}), "bom.json")
    assert pack.whites == ("Hi.",)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{not json", "not a UTF-8 JSON"),
        (b'{"white": ["\xff"]}', "not a UTF-8 JSON"),
        (b"[" * 100_000, "not a UTF-8 JSON"),
        (b"42", "object or a list"),
        (as_json({"white": "A nap.", "black": []}), "white must be a list of strings"),
        (as_json({"white": [1, 2], "black": []}), "white must be a list of strings"),
        (as_json({"white": [], "black": ["Not an object _."]}), "black must be a list of objects"),
        (as_json({"white": [], "black": [{"pick": 1}]}), "'text' must be a string"),
        (as_json({"white": [], "black": [{"text": "_", "pick": "2"}]}), "'pick' must be an integer"),
        (as_json({"white": [], "black": [{"text": "_", "pick": True}]}), "'pick' must be an integer"),
        (as_json({**COMPACT, "packs": {"p": {"white": [3]}}}), "indices below 3"),
        (as_json({**COMPACT, "packs": {"p": {"black": [-1]}}}), "indices below 3"),
        (as_json({**COMPACT, "packs": "all"}), "'packs' must be"),
        (as_json({**COMPACT, "packs": ["p"]}), "a pack must be an object"),
        (as_json([FULL_PACK, "nope"]), "a pack must be an object"),
        (as_json({"p": {"white": ["bare string"]}}), "white must be a list of objects"),
    ],
)
def test_unreadable_json_is_a_deck_error(data: bytes, message: str) -> None:
    with pytest.raises(DeckError, match=message) as raised:
        load_json_against_humanity(data, "broken.json")
    assert "broken.json" in str(raised.value)


def test_deck_file_type_follows_the_suffix() -> None:
    assert load_deck_file(b"<deck><name>X</name><cards/></deck>", "x.XML")[0].name == "X"
    assert load_deck_file(as_json({"name": "Y", "white": []}), "y.json")[0].name == "Y"
    with pytest.raises(DeckError, match="unknown deck file type"):
        load_deck_file(b"", "z.txt")


# --------------------------------------------------------------------------------------------
# Card clean-up shared by the formats (9.4)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Plain.", "Plain."),
        ("Line one\r\nline two.", "Line one\nline two."),
        ("Keep\nnewlines.", "Keep\nnewlines."),
        ("  Padded.\n ", "Padded."),
        ("Tab\there.", "Tab here."),
        ("Lone\rCR.", "Lone CR."),
        ("End\x03of frame.", "End of frame."),
        ("Nul\x00byte.", "Nul byte."),
        ("Bell\x07and\x1fescape\x1b.", "Bell and escape ."),
        ("\x01Edge\x02", "Edge"),
        ("x" * MAX_CARD_CODE_POINTS, "x" * MAX_CARD_CODE_POINTS),
        ("é" * MAX_CARD_CODE_POINTS, "é" * MAX_CARD_CODE_POINTS),
    ],
)
def test_card_text_is_normalised(raw: str, clean: str) -> None:
    assert clean_card_text(raw, "test") == clean


@pytest.mark.parametrize(
    "raw", ["", "   ", "\r\n\t", "\x00\x03", "x" * (MAX_CARD_CODE_POINTS + 1), " " + "é" * 501]
)
def test_empty_or_overlong_card_is_dropped_with_a_warning(raw: str, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert clean_card_text(raw, "deck.json, white card 9") is None
    assert "deck.json, white card 9" in caplog.text


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=600))
def test_any_kept_card_is_clean(raw: str) -> None:
    text = clean_card_text(raw, "fuzz")
    if text is not None:
        assert 1 <= len(text) <= MAX_CARD_CODE_POINTS
        assert text == text.strip()
        assert all(c == "\n" or ord(c) >= 0x20 for c in text)


def test_loaders_apply_the_clean_up_and_drops(caplog: pytest.LogCaptureFixture) -> None:
    document = {
        "name": "Messy",
        "white": ["  Fine.  ", "", "Two\r\nlines.", "z" * 501],
        "black": [
            {"text": "Zero _.", "pick": 0},
            {"text": "\tTabbed _.", "pick": 1},
            {"text": "Four _ _ _ _.", "pick": 4},
            {"text": " ", "pick": 2},
        ],
    }
    with caplog.at_level(logging.WARNING):
        (pack,) = load_json_against_humanity(as_json(document), "messy.json")
    assert pack == Pack("Messy", ("Fine.", "Two\nlines."), (BlackCard("Tabbed _."),))
    dropped = [record.getMessage() for record in caplog.records]
    assert len(dropped) == 5
    assert any("white card 2" in message and "empty" in message for message in dropped)
    assert any("white card 4" in message and "501" in message for message in dropped)
    assert any("black card 1" in message and "pick 0" in message for message in dropped)
    assert any("black card 3" in message and "pick 4" in message for message in dropped)
    assert any("black card 4" in message and "empty" in message for message in dropped)


def test_xml_cards_get_the_same_clean_up() -> None:
    data = (
        b"<deck><name>  Spaced \n Name </name><cards>"
        b"<white><card>  Padded. </card><card>Tab&#9;char.</card><card>&#13;</card></white>"
        b'<black><card pick="1">Return&#13;\nnewline _.</card></black>'
        b"</cards></deck>"
    )
    pack = load_aah_xml(data, "p.xml")
    assert pack == Pack("Spaced Name", ("Padded.", "Tab char."), (BlackCard("Return\nnewline _."),))
