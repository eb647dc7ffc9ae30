"""Deck lint (AAH note 9.1): the bundled "gamehall Original" deck, checked card by card.

The lint reads the raw JSON file rather than the loaded pack, because the loader would quietly
repair some of the faults the lint exists to catch (stray control characters, whitespace). The
lint itself is tested on broken decks, so a green run means something.
"""

from __future__ import annotations

import importlib.resources
import json
import re
import unicodedata
from collections import Counter
from typing import Any

import pytest

from gamehall.rules.aah.deck import BUNDLED_DECK_FILE, DeckLibrary, load_bundled_pack

DECKS = importlib.resources.files("gamehall.rules.aah").joinpath("decks")
BLANK = "_____"
BLANKS_ALLOWED_BY_PICK = {1: {0, 1}, 2: {2}, 3: {0, 3}}


def raw_deck() -> dict[str, Any]:
    document = json.loads(DECKS.joinpath(BUNDLED_DECK_FILE).read_text(encoding="utf-8"))
    assert isinstance(document, dict)
    return document


def text_problems(text: object) -> list[str]:
    """What is wrong with one card text (white or black), per the lint of 9.1."""
    if not isinstance(text, str):
        return [f"{text!r}: not a string"]
    problems = []
    if not 1 <= len(text) <= 200:
        problems.append(f"{text!r}: {len(text)} code points (1-200 allowed)")
    if text != text.strip():
        problems.append(f"{text!r}: surrounding whitespace")
    if any(unicodedata.category(c) == "Cc" and c != "\n" for c in text):
        problems.append(f"{text!r}: control character")
    if any(run != BLANK for run in re.findall("_+", text)):
        problems.append(f"{text!r}: a blank that is not exactly five underscores")
    return problems


def lint(document: dict[str, Any]) -> list[str]:
    """Every problem of a deck in the bundled deck's shape; empty when the deck is fit to ship."""
    problems = []
    whites, blacks = document.get("white", []), document.get("black", [])
    for white in whites:
        problems += text_problems(white)
        if isinstance(white, str) and "_" in white:
            problems.append(f"{white!r}: a white card with a blank")
    for black in blacks:
        text, pick = black.get("text"), black.get("pick")
        problems += text_problems(text)
        if set(black) != {"text", "pick"} or type(pick) is not int or pick not in BLANKS_ALLOWED_BY_PICK:
            problems.append(f"{black!r}: needs exactly a text and a pick of 1, 2 or 3")
        elif isinstance(text, str) and text.count(BLANK) not in BLANKS_ALLOWED_BY_PICK[pick]:
            problems.append(f"{text!r}: {text.count(BLANK)} blanks on a pick-{pick} card")
    texts = [*whites, *(black.get("text") for black in blacks)]
    problems += [f"{text!r}: appears {n} times" for text, n in Counter(map(str, texts)).items() if n > 1]
    return problems


RAW = raw_deck()


def test_the_bundled_deck_passes_the_lint() -> None:
    assert lint(RAW) == []


def test_deck_names_itself_and_its_licence() -> None:
    assert RAW["name"] == "gamehall Original"
    assert RAW["license"] == "CC0-1.0"
    assert set(RAW) == {"name", "license", "white", "black"}


def test_a_cc0_notice_ships_next_to_the_deck() -> None:
    notice = DECKS.joinpath("LICENSE-CC0.txt").read_text(encoding="utf-8")
    assert "CC0 1.0" in notice
    assert "https://creativecommons.org/publicdomain/zero/1.0/" in notice


def test_deck_is_big_enough() -> None:
    picks = Counter(black["pick"] for black in RAW["black"])
    assert len(RAW["white"]) >= 300
    assert len(RAW["black"]) >= 75
    assert picks[2] >= 10
    assert picks[3] >= 3


def test_loader_reads_the_deck_without_changing_or_dropping_a_card() -> None:
    pack = load_bundled_pack()
    assert pack.name == "gamehall Original"
    assert pack.license == "CC0-1.0"
    assert list(pack.whites) == RAW["white"]
    assert [(b.text, b.pick, b.draw) for b in pack.blacks] == [
        (b["text"], b["pick"], 2 if b["pick"] == 3 else 1) for b in RAW["black"]
    ]


def test_bundled_library_holds_just_the_original_deck() -> None:
    library = DeckLibrary.bundled()
    assert library.names() == ["gamehall Original"]
    assert library.get("gamehall Original") is load_bundled_pack()


# The lint must catch each kind of fault.


@pytest.mark.parametrize(
    ("white", "fault"),
    [
        ("", "code points"),
        ("x" * 201, "code points"),
        (" Leading space.", "whitespace"),
        ("A tab\there.", "control character"),
        ("A frame end\x03.", "control character"),
        ("A NUL\x00.", "control character"),
        ("A blank ___ too short.", "five underscores"),
        ("A blank _____.", "white card with a blank"),
    ],
)
def test_lint_rejects_a_bad_white_card(white: str, fault: str) -> None:
    problems = lint({"white": [white], "black": []})
    assert any(fault in problem for problem in problems), problems


@pytest.mark.parametrize(
    ("black", "fault"),
    [
        ({"text": "Two _____ on _____ pick one.", "pick": 1}, "2 blanks on a pick-1"),
        ({"text": "Only _____ here.", "pick": 2}, "1 blanks on a pick-2"),
        ({"text": "Only _____ and _____.", "pick": 3}, "2 blanks on a pick-3"),
        ({"text": "A blank ______ too long.", "pick": 1}, "five underscores"),
        ({"text": "Pick four?", "pick": 4}, "pick of 1, 2 or 3"),
        ({"text": "Pick as text?", "pick": "1"}, "pick of 1, 2 or 3"),
        ({"text": "Line one\r\nline two?", "pick": 1}, "control character"),
    ],
)
def test_lint_rejects_a_bad_black_card(black: dict[str, Any], fault: str) -> None:
    problems = lint({"white": [], "black": [black]})
    assert any(fault in problem for problem in problems), problems


def test_lint_rejects_a_repeated_text() -> None:
    problems = lint({"white": ["Same."], "black": [{"text": "Same.", "pick": 1}]})
    assert problems == ["'Same.': appears 2 times"]


def test_lint_accepts_the_allowed_blank_counts() -> None:
    deck = {
        "white": ["A line\nbreak is fine."],
        "black": [
            {"text": "No blank?", "pick": 1},
            {"text": "One _____.", "pick": 1},
            {"text": "_____ and _____.", "pick": 2},
            {"text": "_____, _____, _____.", "pick": 3},
            {"text": "Name three.", "pick": 3},
        ],
    }
    assert lint(deck) == []
