"""The first start prepares the word lists in the background: a progress line on the terminal,
``preparing`` for the browsers (docs/web-protocol.md, section 4), and words rooms held up from
the browser until it is done. Built with a small word file (a bundled list takes minutes on a
busy machine), in a temporary cache directory."""

from __future__ import annotations

import io
import logging
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from gamehall.hall import FakeClock, Hall
from gamehall.protocols.web.dialogue import WebDialogue
from gamehall.rules.words import GAME_TYPE as WORDS
from gamehall.server.dictionaries import DictionaryPreparation, marker_path, missing
from gamehall.store.memory import MemoryStore


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def word_file(tmp_path: Path, count: int = 3000) -> str:
    rng = random.Random(7)
    words = {
        "".join(rng.choice("ABCDEFGHILMNOPRSTU") for _ in range(rng.randint(2, 9))) for _ in range(count)
    }
    path = tmp_path / "words.txt"
    path.write_text("\n".join(sorted(words)) + "\n")
    return str(path)


async def test_a_missing_cache_is_built_with_progress_then_never_again(tmp_path: Path) -> None:
    source = word_file(tmp_path)
    cache = tmp_path / "cache"
    told: list[dict[str, Any] | None] = []
    terminal = Terminal()
    assert missing([source], cache) == [source]
    built = await DictionaryPreparation(told.append, stream=terminal, cache_dir=cache).run([source])
    assert built == [source]
    assert marker_path(source, cache).is_file() and list(cache.glob("gaddag-*.bin"))
    progress = [state["progress"] for state in told if state is not None]
    assert progress[0] == 0.0 and progress[-1] == 1.0 and progress == sorted(progress) and len(progress) > 5
    assert told[-1] is None  # done
    first = told[0]
    assert first is not None and first["what"] == "dictionary" and "first start only" in first["text"]
    assert "\rpreparing dictionaries: " in terminal.getvalue() and " 100 %" in terminal.getvalue()
    last_line = terminal.getvalue().rsplit("\r", 1)[-1]
    assert last_line.rstrip().endswith("ready") and last_line.endswith("\n")

    told.clear()
    assert missing([source], cache) == []
    assert await DictionaryPreparation(told.append, stream=Terminal(), cache_dir=cache).run([source]) == []
    assert told == []  # nothing to prepare: browsers hear nothing


async def test_without_a_terminal_the_progress_goes_to_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="gamehall.server")
    source = word_file(tmp_path, 1500)
    await DictionaryPreparation(lambda state: None, stream=io.StringIO(), cache_dir=tmp_path / "c").run(
        [source]
    )
    lines = [r.getMessage() for r in caplog.records]
    assert [line.removeprefix("preparing dictionaries: words.txt ") for line in lines] == [
        "(1/1)   0 %", "(1/1)  25 %", "(1/1)  50 %", "(1/1)  75 %", "(1/1) 100 %", "ready"
    ]  # fmt: skip


class Browser:
    def __init__(self, hall: Hall, clock: FakeClock, name: str) -> None:
        self.sent: list[dict[str, Any]] = []
        self._hall = hall
        self.dialogue = WebDialogue(
            hall, lambda text: self.sent.append(orjson.loads(text)), lambda: None, clock
        )
        self.send(t="hello", v=2, name=name)

    def send(self, **message: Any) -> list[dict[str, Any]]:
        before = len(self.sent)
        self.dialogue.text_received(orjson.dumps(message).decode())
        self._hall.flush()  # the loop's turn ends: the hall delivers, then the dialogue answers
        return self.sent[before:]


def test_browsers_are_told_and_words_rooms_wait_until_the_dictionary_is_ready() -> None:
    clock = FakeClock()
    hall = Hall(games={"words": WORDS}, store=MemoryStore(), clock=clock)
    ann = Browser(hall, clock, "ann")
    state = {
        "what": "dictionary",
        "name": "english",
        "progress": 0.4,
        "text": "Preparing the English dictionary",
    }
    hall.lobby.set_preparing({**state, "games": ["words"]})
    assert ann.sent[-1] == {"t": "preparing", "done": False, **state, "games": ["words"]}
    [error] = ann.send(t="create", game="words", id=3)
    assert (error["t"], error["code"], error["ref"]) == ("error", "preparing", 3)
    assert "Preparing the English dictionary" in error["reason"] and hall.rooms() == []
    bob = Browser(hall, clock, "bob")  # logs in meanwhile: told right after welcome
    assert [m["t"] for m in bob.sent] == ["welcome", "preparing"]
    hall.lobby.set_preparing(None)
    assert ann.sent[-1] == bob.sent[-1] == {"t": "preparing", "done": True}
