"""The word games' dictionaries, prepared in the background on the first start.

Building the GADDAG of a bundled word list takes seconds of pure Python (ENABLE: about ten on a
slow machine); the result is cached on disk (:mod:`gamehall.rules.words.lexicon`), so only the
very first start pays. Without this module that first build happened inside whichever request
first needed the list: a browser creating a words room saw nothing happen, and every table of
the server stood still meanwhile.

Now the server starts listening at once and builds the missing caches on a worker thread, one
list after the other:

- the terminal shows a progress line (rewritten in place on a terminal, an INFO line every
  quarter otherwise);
- browsers are told (web protocol ``preparing``, docs/web-protocol.md section 4), with the
  progress, and once more when it is done;
- a words room asked for from the browser meanwhile is refused with ``preparing`` (a few seconds,
  once per installation) instead of building the same list a second time on the event loop.

Whether a list's cache exists is decided without reading the list: a marker file named after
the SHA-256 of the bundled file is written next to the cache once it is built.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import TextIO

from gamehall.rules._core import JSON
from gamehall.rules.words.lexicon import BUNDLED, DICTIONARY_IDS, Lexicon, default_cache_dir

log = logging.getLogger("gamehall.server")

LANGUAGE = {"english": "English", "english-lp": "English (Letterpress)", "francais": "French"}
WEB_STEP = 0.05
"""Browsers hear of every 5 % (the terminal of every 1 %)."""


def _label(dictionary: str) -> str:
    return LANGUAGE.get(dictionary) or Path(dictionary).name


def source_of(dictionary: str) -> str:
    """The list a dictionary id names: a bundled list (``enable``...) or a word file's path."""
    return DICTIONARY_IDS.get(dictionary, dictionary)


def marker_path(source: str, cache_dir: Path | None = None) -> Path:
    """The marker saying the cache of ``source`` was built, keyed by the list's bytes (cheap:
    the list is hashed, not parsed)."""
    if source in BUNDLED:
        data = resources.files("gamehall.rules.words").joinpath("data", f"{source}.txt.gz").read_bytes()
    else:
        data = Path(source).read_bytes()
    digest = hashlib.sha256(data).hexdigest()[:24]
    label = source if source in BUNDLED else "file"
    return (cache_dir or default_cache_dir()) / f"list-{label}-{digest}.ready"


def missing(dictionaries: Sequence[str], cache_dir: Path | None = None) -> list[str]:
    """The dictionary ids whose list has no cache yet (an unreadable list is left to the
    room that names it, which reports it)."""
    todo: list[str] = []
    for dictionary in dictionaries:
        try:
            ready = marker_path(source_of(dictionary), cache_dir).is_file()
        except OSError:
            continue
        if not ready:
            todo.append(dictionary)
    return todo


class DictionaryPreparation:
    """Builds missing dictionary caches; tells the terminal and ``announce`` (the browsers)."""

    def __init__(
        self,
        announce: Callable[[dict[str, JSON] | None], None],
        *,
        stream: TextIO | None = None,
        cache_dir: Path | None = None,
    ) -> None:
        self._announce = announce
        self._stream = stream if stream is not None else sys.stderr
        self._cache_dir = cache_dir
        self._last_web = -1.0
        self._last_term = -1.0
        self._last_quarter = -1
        self.state: dict[str, JSON] | None = None

    async def run(self, dictionaries: Sequence[str]) -> list[str]:
        """Build every missing cache of ``dictionaries``, one after the other; returns the ids
        built. Failures are logged (the list is then built when a room first needs it)."""
        todo = await asyncio.to_thread(missing, dictionaries, self._cache_dir)
        loop = asyncio.get_running_loop()
        built: list[str] = []
        for number, dictionary in enumerate(todo, start=1):
            name = source_of(dictionary)
            self._last_web = self._last_term = -1.0
            self._last_quarter = -1

            def progress(fraction: float, dictionary: str = dictionary, number: int = number) -> None:
                loop.call_soon_threadsafe(self._progress, dictionary, number, len(todo), fraction)

            self._progress(dictionary, number, len(todo), 0.0)
            try:
                await asyncio.to_thread(self._build, name, progress)
            except Exception:
                log.exception("dictionary %s: the cache could not be built", dictionary)
                continue
            built.append(dictionary)
            self._line(f"preparing dictionaries: {_label(dictionary)} ready", final=True)
        if todo:
            self.state = None
            self._announce(None)
        return built

    def _build(self, name: str, progress: Callable[[float], None]) -> None:
        cache_dir = self._cache_dir
        Lexicon.load(name, cache_dir, progress=progress)  # writes the cache; dropped here
        marker = marker_path(name, cache_dir)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(str(Lexicon.cache_file(name, cache_dir).name) + "\n")

    def _progress(self, dictionary: str, number: int, total: int, fraction: float) -> None:
        language = _label(dictionary)
        percent = int(fraction * 100)
        text = f"Preparing the {language} dictionary ({number} of {total}, first start only): {percent} %"
        line = f"preparing dictionaries: {language} ({number}/{total}) {percent:3d} %"
        if self._stream.isatty():
            if fraction - self._last_term >= 0.01 or fraction in (0.0, 1.0):
                self._last_term = fraction
                self._line(line)
        elif int(fraction * 4) > self._last_quarter:  # a log file: one line a quarter
            self._last_quarter = int(fraction * 4)
            log.info("%s", line)
        if fraction - self._last_web >= WEB_STEP or fraction in (0.0, 1.0):
            self._last_web = fraction
            self.state = {
                "what": "dictionary",
                "name": dictionary,
                "progress": round(fraction, 3),
                "text": text,
            }
            self._announce(self.state)

    def _line(self, text: str, *, final: bool = False) -> None:
        """A progress line: rewritten in place on a terminal, an INFO line otherwise."""
        if self._stream.isatty():
            self._stream.write("\r" + text.ljust(72) + ("\n" if final else ""))
            self._stream.flush()
        else:
            log.info("%s", text)
