"""No setting names a server file (issue 10 item 5, docs/configuration.md "Dictionaries"): a word
game's dictionary is an id from the bundled lists or the operator's ``--words-dir`` folders; a
path is refused exactly like an unknown id, so it neither reads the file nor tells whether it
exists. Every text and list setting is bounded (docs/settings-audit.md)."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest
from recording_listener import RecordingListener

from gamehall.config import add_server_arguments, load_config
from gamehall.games import game_types
from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import HallError
from gamehall.rules._config import LIST_MAX, STR_MAX, Setting
from gamehall.rules._core import ConfigError
from gamehall.rules.words import new_game
from gamehall.rules.words.lexicon import add_words_dir, dictionary_ids
from gamehall.rules.words.settings import shared_lexicon
from gamehall.store.memory import MemoryStore


def refusal(dictionary: str) -> str:
    with pytest.raises(ConfigError) as refused:
        shared_lexicon(dictionary)
    return str(refused.value)


def test_a_path_is_refused_like_any_unknown_id_and_never_read(tmp_path: Path) -> None:
    existing = tmp_path / "words.txt"
    existing.write_text("CAT\nDOG\n")
    messages = {
        refusal(str(existing)).replace(repr(str(existing)[:32]), "X"),
        refusal("/etc/passwd").replace(repr("/etc/passwd"), "X"),
        refusal(str(tmp_path / "missing.txt")).replace(repr(str(tmp_path / "missing.txt")[:32]), "X"),
        refusal("no-such-id").replace(repr("no-such-id"), "X"),
    }
    assert len(messages) == 1  # no file-existence oracle
    assert "english" in messages.pop()


def test_a_browser_room_with_a_path_dictionary_is_refused_by_the_hall() -> None:
    hall = Hall(games=game_types(), store=MemoryStore(), clock=FakeClock())
    web = hall.login("webby", RecordingListener(), protocol="web")
    with pytest.raises(HallError) as refused:
        web.create_room("words", {"dictionary": "/etc/passwd"})
    assert refused.value.code == "config" and "no dictionary" in refused.value.reason
    assert hall.rooms("words") == []


def test_words_dir_files_become_ids_and_play(tmp_path: Path) -> None:
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "Mini-Test.txt").write_text("CAT\nCATS\nact\n")
    (folder / "english.txt").write_text("ZZZ\n")  # a bundled id keeps its list
    (folder / "bad name.txt").write_text("CAT\n")
    (folder / "notes.md").write_text("CAT\n")
    assert add_words_dir(folder) == ["mini-test"]
    assert "mini-test" in dictionary_ids()
    assert sorted(shared_lexicon("mini-test")) == ["ACT", "CAT", "CATS"]
    assert "ZZZ" not in shared_lexicon("english")
    table = new_game({"preset": "DupEN", "dictionary": "mini-test"}, 1)
    assert table.view(None)["dictionary"] == "mini-test"
    with pytest.raises(FileNotFoundError):
        add_words_dir(tmp_path / "nowhere")


def test_words_dirs_come_from_flags_toml_and_environment(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    add_server_arguments(parser)
    flags = vars(parser.parse_args(["--words-dir", "/a", "--words-dir", "/b"]))
    assert load_config(flags=flags, set_items=[], config_path=None, environ={}, schemas={}).words_dirs == (
        "/a",
        "/b",
    )
    toml = tmp_path / "g.toml"
    toml.write_text('[server]\nwords_dirs = ["/srv/words"]\n')
    assert load_config(flags={}, set_items=[], config_path=str(toml), environ={}, schemas={}).words_dirs == (
        "/srv/words",
    )
    environ = {"GAMEHALL_WORDS_DIRS": "/x"}
    assert load_config(flags={}, set_items=[], config_path=None, environ=environ, schemas={}).words_dirs == (
        "/x",
    )


def test_text_and_list_settings_are_bounded() -> None:
    text, items = Setting("t", "", "str"), Setting("l", [], "list")
    assert text.check("x" * STR_MAX) == "x" * STR_MAX
    with pytest.raises(ConfigError):
        text.check("x" * (STR_MAX + 1))
    with pytest.raises(ConfigError):
        items.check(["a"] * (LIST_MAX + 1))
    with pytest.raises(ConfigError):
        items.check(["x" * (STR_MAX + 1)])
    with pytest.raises(ConfigError):
        Setting("d", "", "str", high=32).check("x" * 33)
