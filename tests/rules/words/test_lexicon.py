"""Word lists: normalisation, membership, the GADDAG cache (round trip, corruption), bundled data."""

from __future__ import annotations

import gzip
import hashlib
import os
from importlib import resources
from pathlib import Path

import pytest

from gamehall.rules.words import lexicon as lexicon_module
from gamehall.rules.words.board import Board
from gamehall.rules.words.gaddag import build_gaddag
from gamehall.rules.words.lexicon import BUNDLED, Lexicon, normalise_word, normalise_words, read_cache
from gamehall.rules.words.movegen import best_move

# The pins of data/LICENSES.md: normalised word count and SHA-256 of the decompressed file.
PINNED = {
    "enable": (168_551, "0d6d47327b05142362f52844113497d0439bd0a7fc8d0bc33ee40ecff0216ac1"),
    "letterpress-en": (270_652, "4411d7651e31923b679811fe9fe9632d75648f676aa167816eb76a8d86f4b8a3"),
    "letterpress-fr": (311_509, "0f73fd066fcea22190ccdaa2e5e09ad37e954adf41c9b0488e3d14131ab4f1f8"),
}


@pytest.mark.parametrize(
    ("entry", "word"),
    [
        ("élève", "ELEVE"),
        ("  Garçon\n", "GARCON"),
        ("cœur", "COEUR"),
        ("ex-aequo", None),
        ("aujourd'hui", None),
        ("a", None),
        ("à", None),
        ("cm", "CM"),
        ("abcdefghijklmno", "ABCDEFGHIJKLMNO"),
        ("abcdefghijklmnop", None),
        ("naïveté", "NAIVETE"),
        ("straße", "STRASSE"),
        ("12", None),
        ("ελλάδα", None),
    ],
)
def test_normalise_word(entry: str, word: str | None) -> None:
    assert normalise_word(entry) == word


def test_normalise_words_sorts_and_deduplicates() -> None:
    assert normalise_words(["été", "ete", "Été", "zoo", "a", "bé-bé"]) == ["ETE", "ZOO"]


def test_membership_and_length() -> None:
    lex = Lexicon.from_words(["chat", "chats", "chaton", "é", "ô-ô"])
    assert len(lex) == 3
    assert "CHAT" in lex and "CHATS" in lex and "CHATON" in lex
    assert "CHA" not in lex and "HAT" not in lex and "CHATONS" not in lex and "chat" not in lex
    assert 42 not in lex
    assert list(lex) == ["CHAT", "CHATON", "CHATS"]


def test_every_gaddag_path_is_present_for_each_word() -> None:
    words = ["CARE", "CAR", "RACE", "ACRE", "ARC"]
    gaddag = build_gaddag(sorted(words))
    for word in words:
        codes = [ord(c) - 65 for c in word]
        for split in range(1, len(word)):
            node = gaddag.walk(gaddag.root, [*codes[:split][::-1], 26])
            assert node >= 0 and gaddag.walk(node, codes[split:-1]) >= 0
            assert gaddag.accepts_after(gaddag.walk(node, codes[split:-1]), codes[-1])


def test_user_file_is_normalised(tmp_path: Path) -> None:
    source = tmp_path / "mots.txt"
    source.write_text("été\nÉTÉ\nchat\na\nporte-clé\n", encoding="utf-8")
    lex = Lexicon.load(source, cache_dir=tmp_path / "cache")
    assert len(lex) == 2 and "ETE" in lex and "CHAT" in lex
    assert lex.name == "mots.txt"


def test_gzipped_user_file(tmp_path: Path) -> None:
    source = tmp_path / "words.gz"
    source.write_bytes(gzip.compress(b"cat\ncats\n"))
    assert list(Lexicon.load(source, use_cache=False)) == ["CAT", "CATS"]


def test_unknown_name_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        Lexicon.load("no-such-list", cache_dir=tmp_path)


def test_cache_round_trip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "words.txt"
    source.write_text("cat\ncats\nact\nscat\ntact\nretains\nstainer\n", encoding="ascii")
    first = Lexicon.load(source, cache_dir=tmp_path / "cache")
    (cache_file,) = (tmp_path / "cache").iterdir()
    assert cache_file.name.startswith("gaddag-") and not list((tmp_path / "cache").glob("*.tmp"))

    def no_build(words: object) -> None:
        raise AssertionError("the cache should have been used")

    monkeypatch.setattr(lexicon_module, "build_gaddag", no_build)
    second = Lexicon.load(source, cache_dir=tmp_path / "cache")
    assert second.gaddag == first.gaddag and second.digest == first.digest
    assert second.anagrams.keys == first.anagrams.keys
    assert list(second) == ["ACT", "CAT", "CATS", "RETAINS", "SCAT", "STAINER", "TACT"]
    assert len(second.anagrams) == 1 and second.anagrams.spells_a_word("NASTIER")


@pytest.mark.parametrize("damage", ["truncate", "flip", "garbage", "empty"])
def test_corrupt_cache_is_rebuilt(tmp_path: Path, damage: str) -> None:
    source = tmp_path / "words.txt"
    source.write_text("cat\ncats\nact\n", encoding="ascii")
    Lexicon.load(source, cache_dir=tmp_path)
    (cache_file,) = tmp_path.glob("gaddag-*.bin")
    data = bytearray(cache_file.read_bytes())
    if damage == "truncate":
        data = data[: len(data) - 5]
    elif damage == "flip":
        data[-3] ^= 0xFF
    elif damage == "garbage":
        data = bytearray(b"not a gaddag at all" * 10)
    else:
        data = bytearray()
    cache_file.write_bytes(bytes(data))
    assert read_cache(cache_file, 3) is None
    rebuilt = Lexicon.load(source, cache_dir=tmp_path)
    assert list(rebuilt) == ["ACT", "CAT", "CATS"]
    assert read_cache(cache_file, 3) == (rebuilt.gaddag, rebuilt.anagrams.keys)


def test_unwritable_cache_dir_still_loads(tmp_path: Path) -> None:
    source = tmp_path / "words.txt"
    source.write_text("cat\n", encoding="ascii")
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="ascii")
    assert "CAT" in Lexicon.load(source, cache_dir=blocker / "sub")


def test_default_cache_dir_follows_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", os.fspath(tmp_path))
    assert lexicon_module.default_cache_dir() == tmp_path / "gamehall"


@pytest.mark.parametrize("name", BUNDLED)
def test_bundled_lists_match_their_pins(name: str) -> None:
    data = resources.files("gamehall.rules.words").joinpath("data", f"{name}.txt.gz").read_bytes()
    text = gzip.decompress(data)
    count, digest = PINNED[name]
    assert hashlib.sha256(text).hexdigest() == digest
    words = text.decode("ascii").split("\n")
    assert words[-1] == "" and len(words) - 1 == count
    assert words[:-1] == normalise_words(words[:-1])


def test_enable_through_the_disk_cache() -> None:
    """The one test with the full ENABLE list: built once (seconds) into the user cache, then loaded."""
    enable = Lexicon.load("enable")
    assert len(enable) == 168_551
    assert "QUIXOTIC" in enable and "AA" in enable and "QUIXOTICS" not in enable
    top = best_move(Board.empty(), "AEINRST", enable)
    assert top is not None and (top.ref, top.score) == ("H2", 66)


def test_anagram_index() -> None:
    lex = Lexicon.from_words(["RETAINS", "STAINER", "CAT", "QUIXOTIC"])
    assert len(lex.anagrams) == 2  # RETAINS and STAINER share their letters; CAT is too short
    assert lex.anagrams.spells_a_word("NASTIER") and lex.anagrams.spells_a_word("QUIXOTI", blanks=1)
    assert lex.anagrams.spells_a_word("RETAI", blanks=2)
    assert not lex.anagrams.spells_a_word("RETAINZ") and not lex.anagrams.spells_a_word("CAT")


def test_forward_walk_reads_words_left_to_right() -> None:
    gaddag = Lexicon.from_words(["CAT", "CATS", "COT"]).gaddag
    node = gaddag.forward(ord("C") - 65)
    after_a = gaddag.child(node, ord("A") - 65)
    assert after_a >= 0 and gaddag.accepts_after(after_a, ord("T") - 65)
    assert not gaddag.accepts_after(node, ord("A") - 65)  # CA is not a word
    assert gaddag.child(node, ord("X") - 65) == -1 and gaddag.forward(ord("Z") - 65) == -1
