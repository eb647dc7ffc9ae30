"""Word lists: loading, normalisation, and the GADDAG built from them, cached on disk.

A lexicon is a set of upper-case words of 2..15 letters A-Z. It comes from a bundled list (by name:
``enable``, ``letterpress-en``, ``letterpress-fr``; see ``data/LICENSES.md``) or from any text file
a user names (one word per line, plain or ``.gz``). Every entry goes through
:func:`normalise_word`, so a French list with accents and hyphens loads as the tiles spell it.

Building the GADDAG of ENABLE takes a few seconds of pure Python, so the built arrays are written
to a cache file keyed by the SHA-256 of the normalised list. The file is written to a temporary
name and renamed into place (readers never see half a file); it carries its own checksum, and a
cache file that fails any check is ignored and rebuilt.

This module is the only part of ``gamehall.rules.words`` that touches files; the move generator
and the referee only see the built :class:`Lexicon`.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import re
import struct
import sys
import tempfile
import unicodedata
from array import array
from collections.abc import Callable, Iterable, Iterator
from importlib import resources
from pathlib import Path

from gamehall.rules.words.anagrams import AnagramIndex, build_anagram_keys
from gamehall.rules.words.gaddag import Gaddag, build_gaddag

BUNDLED = ("enable", "letterpress-en", "letterpress-fr")
"""Names of the word lists shipped in ``data/`` as ``<name>.txt.gz``."""

DICTIONARY_IDS = {"english": "enable", "english-lp": "letterpress-en", "francais": "letterpress-fr"}
"""The protocol's dictionary ids (JDuplicate GAMEINFOS) and the bundled list each one names."""

WORD_LIST_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
"""What an operator's word-list file is called by (its file name without ``.txt``/``.txt.gz``,
lower case): the only way a room names it. No setting ever carries a path (issue 10 item 5)."""

_OPERATOR_LISTS: dict[str, Path] = {}
"""Word lists from the operator's ``--words-dir`` folders, by id (process-wide, like the shared
lexicons: a bot resolves the same id the room was created with)."""


def add_words_dir(folder: str | os.PathLike[str]) -> list[str]:
    """Offer every ``*.txt`` / ``*.txt.gz`` file of ``folder`` (not its subfolders) as a
    dictionary id. A name that is not a valid id, or that a bundled list already uses, is
    skipped; the first folder that offers an id keeps it. Returns the ids added.

    Raises:
        FileNotFoundError: ``folder`` is not a directory (an operator's typo must not pass).
    """
    directory = Path(folder)
    if not directory.is_dir():
        raise FileNotFoundError(f"words directory {os.fspath(folder)!r} does not exist")
    added = []
    for path in sorted(directory.iterdir()):
        stem = path.name.lower().removesuffix(".gz").removesuffix(".txt")
        if not path.is_file() or stem == path.name.lower() or not WORD_LIST_ID.fullmatch(stem):
            continue
        if stem in DICTIONARY_IDS or stem in BUNDLED or stem in _OPERATOR_LISTS:
            continue
        _OPERATOR_LISTS[stem] = path
        added.append(stem)
    return added


def dictionary_ids() -> list[str]:
    """Every id a room may name: the protocol's, the bundled lists', the operator's."""
    return [*DICTIONARY_IDS, *BUNDLED, *_OPERATOR_LISTS]


def dictionary_source(dictionary_id: str) -> str | Path | None:
    """The bundled list name or the operator's file behind ``dictionary_id``; ``None`` for an
    unknown id (anything else a client may send, paths included)."""
    if dictionary_id in DICTIONARY_IDS:
        return DICTIONARY_IDS[dictionary_id]
    if dictionary_id in BUNDLED:
        return dictionary_id
    return _OPERATOR_LISTS.get(dictionary_id)


MIN_LENGTH = 2
MAX_LENGTH = 15
_VALID = re.compile(r"[A-Z]{2,15}")
_LIGATURES = str.maketrans({"Œ": "OE", "œ": "oe", "Æ": "AE", "æ": "ae", "ß": "SS"})

_CACHE_MAGIC = b"GHGADDAG"
_CACHE_VERSION = 3
_HEADER = struct.Struct("<8sHBxIIIII32s")
"""magic, format version, byte order (0 little, 1 big), word count, root, node count, edge count,
anagram key count, SHA-256 of the array payload."""


def normalise_word(entry: str) -> str | None:
    """The tile spelling of a dictionary entry, or ``None`` when the entry is not playable.

    Ligatures are split (Œ -> OE), accents are removed (NFKD, combining marks dropped), the result
    is upper-cased, and only ``^[A-Z]{2,15}$`` is kept: hyphenated, one-letter, too long and
    non-Latin entries are dropped rather than repaired.
    """
    decomposed = unicodedata.normalize("NFKD", entry.strip().translate(_LIGATURES))
    word = "".join(ch for ch in decomposed if not unicodedata.combining(ch)).upper()
    return word if _VALID.fullmatch(word) else None


def normalise_words(entries: Iterable[str]) -> list[str]:
    """The sorted, deduplicated, normalised words of ``entries`` (see :func:`normalise_word`)."""
    return sorted({word for word in map(normalise_word, entries) if word is not None})


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/gamehall``, else ``~/.cache/gamehall``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "gamehall"


class Lexicon:
    """A word list with its GADDAG: membership tests and the structure the move generator walks.

    Build one with :meth:`load` (files, cache) or :meth:`from_words` (tests, in memory).
    """

    __slots__ = ("_size", "anagrams", "digest", "gaddag", "name")

    def __init__(self, name: str, gaddag: Gaddag, anagrams: AnagramIndex, size: int, digest: str) -> None:
        self.name = name
        self.gaddag = gaddag
        self.anagrams = anagrams
        """The letter multisets of the long words (the top-move search's bingo check)."""
        self._size = size
        self.digest = digest
        """SHA-256 (hex) of the normalised list, one word per line with LF: identifies the lexicon."""

    def __deepcopy__(self, memo: dict[int, object]) -> Lexicon:
        """Never changed once built and shared by every table: a copy of a game (a cross-node
        check, hall/replica.py) shares it instead of copying a million-entry GADDAG."""
        return self

    @classmethod
    def from_words(cls, words: Iterable[str], name: str = "custom") -> Lexicon:
        """A lexicon from words in memory, normalised, without any cache."""
        normalised = normalise_words(words)
        anagrams = AnagramIndex(build_anagram_keys(normalised))
        return cls(name, build_gaddag(normalised), anagrams, len(normalised), _digest(normalised))

    @classmethod
    def load(
        cls,
        name_or_path: str | os.PathLike[str],
        cache_dir: str | os.PathLike[str] | None = None,
        *,
        use_cache: bool = True,
        progress: Callable[[float], None] | None = None,
    ) -> Lexicon:
        """Load a bundled list by name, or a word file by path, using the GADDAG cache.
        ``progress`` follows a build (see :func:`build_gaddag`); a cache hit does not call it.

        ``cache_dir`` defaults to :func:`default_cache_dir`. A cache that cannot be written (read-only
        home, full disk) only costs the build time of the next start.

        Raises:
            FileNotFoundError: ``name_or_path`` is neither a bundled name nor an existing file.
        """
        label = os.fspath(name_or_path)
        if label in BUNDLED:
            words = read_bundled_words(label)
        else:
            path = Path(label)
            if not path.is_file():
                raise FileNotFoundError(f"no bundled word list or file named {label!r}")
            words = normalise_words(_read_lines(path))
            label = path.name
        digest = _digest(words)
        cache_file = Path(cache_dir or default_cache_dir()) / f"gaddag-{digest[:32]}.bin"
        if use_cache:
            cached = read_cache(cache_file, len(words))
            if cached is not None:
                gaddag, keys = cached
                return cls(label, gaddag, AnagramIndex(keys), len(words), digest)
        gaddag = build_gaddag(words, progress)
        keys = build_anagram_keys(words)
        if use_cache:
            write_cache(cache_file, gaddag, keys, len(words))
        return cls(label, gaddag, AnagramIndex(keys), len(words), digest)

    @staticmethod
    def cache_file(
        name_or_path: str | os.PathLike[str], cache_dir: str | os.PathLike[str] | None = None
    ) -> Path:
        """Where the GADDAG cache of this list lives (reads the list to know its digest).

        Raises:
            FileNotFoundError: as :meth:`load`.
        """
        label = os.fspath(name_or_path)
        if label in BUNDLED:
            words = read_bundled_words(label)
        else:
            path = Path(label)
            if not path.is_file():
                raise FileNotFoundError(f"no bundled word list or file named {label!r}")
            words = normalise_words(_read_lines(path))
        return Path(cache_dir or default_cache_dir()) / f"gaddag-{_digest(words)[:32]}.bin"

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.gaddag.contains(word)

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[str]:
        """Every word, in alphabetical order (read back from the GADDAG)."""
        return self.gaddag.words()

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {self._size} words)"


def _digest(words: list[str]) -> str:
    hasher = hashlib.sha256()
    for word in words:
        hasher.update(word.encode("ascii") + b"\n")
    return hasher.hexdigest()


def read_bundled_words(name: str) -> list[str]:
    """The words of the bundled list ``name``: already normalised and sorted when packaged."""
    data = resources.files("gamehall.rules.words").joinpath("data", f"{name}.txt.gz").read_bytes()
    return gzip.decompress(data).decode("ascii").split()


def _read_lines(path: Path) -> list[str]:
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return raw.decode("utf-8", errors="replace").splitlines()


def _payload(gaddag: Gaddag, anagram_keys: array[int]) -> bytes:
    parts = (gaddag.masks, gaddag.accepts, gaddag.bases, gaddag.children, anagram_keys)
    return b"".join(part.tobytes() for part in parts)


def write_cache(path: Path, gaddag: Gaddag, anagram_keys: array[int], word_count: int) -> bool:
    """Write ``gaddag`` and the anagram keys to ``path`` atomically; False when unwritable."""
    payload = _payload(gaddag, anagram_keys)
    header = _HEADER.pack(
        _CACHE_MAGIC,
        _CACHE_VERSION,
        0 if sys.byteorder == "little" else 1,
        word_count,
        gaddag.root,
        len(gaddag.masks),
        len(gaddag.children),
        len(anagram_keys),
        hashlib.sha256(payload).digest(),
    )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=path.name, suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(header)
                out.write(payload)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise
    except OSError:
        return False
    return True


def read_cache(path: Path, word_count: int) -> tuple[Gaddag, array[int]] | None:
    """The GADDAG and anagram keys in ``path``; ``None`` if missing, foreign, truncated or corrupt."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    if len(data) < _HEADER.size:
        return None
    magic, version, order, count, root, nodes, edges, anagram_count, checksum = _HEADER.unpack_from(data)
    expected_order = 0 if sys.byteorder == "little" else 1
    if magic != _CACHE_MAGIC or version != _CACHE_VERSION or order != expected_order or count != word_count:
        return None
    payload = data[_HEADER.size :]
    if len(payload) != 4 * (3 * nodes + edges) + 8 * anagram_count:
        return None
    if hashlib.sha256(payload).digest() != checksum or not 0 <= root < nodes:
        return None
    arrays = []
    offset = 0
    for code, size in (("I", nodes), ("I", nodes), ("I", nodes), ("I", edges), ("Q", anagram_count)):
        part = array(code)
        part.frombytes(payload[offset : offset + part.itemsize * size])
        arrays.append(part)
        offset += part.itemsize * size
    masks, accepts, bases, children, anagram_keys = arrays
    return Gaddag(masks, accepts, bases, children, root), anagram_keys
