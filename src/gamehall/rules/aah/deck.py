"""AAH decks: reading deck files into packs, and building one table's piles from packs.

Section 9 of the spec note. Two file formats are read, both from bytes so the parsers stay pure
and easy to test:

- **AAH XML** (the format of Apps Against Humanity 0.2.0): one file is one pack.
- **JSON Against Humanity**, in any of its three shapes (compact, full list, full keyed); one
  file may hold many packs.

Every card goes through the same clean-up (section 9.4) whatever its format, so the engine only
ever sees sane texts. A :class:`DeckLibrary` keeps packs by name (first one wins on a clash) and
builds a game's shuffled white and black piles (section 5.3). The only file access is in
:meth:`DeckLibrary.load_dir` and :func:`load_bundled_pack`, which run once at server start.
"""

from __future__ import annotations

import functools
import importlib.resources
import json
import logging
import re
from collections.abc import Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import Any

import defusedxml.ElementTree as SafeElementTree
from defusedxml import DefusedXmlException

from gamehall.rules._core import ConfigError, Rng
from gamehall.rules.aah.cards import BlackCard, Pack, WhiteCard

log = logging.getLogger(__name__)

MAX_CARD_CODE_POINTS = 500
"""Longer cards are dropped on load (9.4): no legacy client can show them sensibly."""

MIN_WHITES_PER_SEAT = 20
"""Deck size check (5.3): a table needs this many white cards per possible seat..."""

MIN_BLACKS = 20
"""...and this many (usable) black cards."""

MAX_CARD_ID = 2**31 - 1
"""Card ids are int32 on the 0.2.0 client; they are drawn from ``[1, MAX_CARD_ID]``."""

BUNDLED_DECK_FILE = "gamehall-original.json"
"""The project's own CC0 deck, shipped in ``gamehall/rules/aah/decks/``."""

_OTHER_C0_CONTROLS = re.compile("[\x00-\x09\x0b-\x1f]")


class DeckError(ValueError):
    """A deck file cannot be read at all (bad syntax, wrong structure, forbidden XML)."""


# --------------------------------------------------------------------------------------------
# Card clean-up shared by both formats (9.4)
# --------------------------------------------------------------------------------------------


def clean_card_text(raw: str, where: str) -> str | None:
    """The card text as the game uses it, or ``None`` (with a warning) if the card is dropped.

    CRLF becomes LF, every other C0 control (tab, lone CR, NUL, ETX...) becomes a space, and the
    text is stripped. Empty cards and cards over :data:`MAX_CARD_CODE_POINTS` are dropped.
    ``where`` names the card in the warning ("decks/x.xml, white card 3").
    """
    text = _OTHER_C0_CONTROLS.sub(" ", raw.replace("\r\n", "\n")).strip()
    if not text:
        log.warning("%s: empty card dropped", where)
        return None
    if len(text) > MAX_CARD_CODE_POINTS:
        log.warning("%s: card of %d characters dropped (limit %d)", where, len(text), MAX_CARD_CODE_POINTS)
        return None
    return text


def make_black_card(raw: str, pick: int, draw: int, where: str) -> BlackCard | None:
    """A cleaned black card, or ``None`` (with a warning) if its text or its pick is unusable."""
    if not 1 <= pick <= 3:
        log.warning("%s: black card with pick %d dropped (pick must be 1-3)", where, pick)
        return None
    text = clean_card_text(raw, where)
    if text is None:
        return None
    return BlackCard(text, pick, draw)


def _clean_whites(raws: Iterable[str], where: str) -> tuple[str, ...]:
    cleaned = (clean_card_text(raw, f"{where}, white card {i}") for i, raw in enumerate(raws, 1))
    return tuple(text for text in cleaned if text is not None)


def _pack_name(raw: object, fallback: str) -> str:
    """A pack's name: the given one stripped, or ``fallback`` when it is missing or blank."""
    if isinstance(raw, str) and raw.strip():
        return " ".join(raw.split())
    return fallback


def _file_stem(source: str) -> str:
    return PurePath(source).stem or source


# --------------------------------------------------------------------------------------------
# AAH XML (9.2)
# --------------------------------------------------------------------------------------------


def load_aah_xml(data: bytes, source: str) -> Pack:
    """Read one AAH XML deck file (``<deck>`` with ``<name>`` and ``<cards>``) into a pack.

    ``source`` names the file in messages, and its stem names a pack without ``<name>``. A
    UTF-8 BOM is allowed; ``<count>`` and the ``type`` attribute are ignored. A black card's
    ``pick`` defaults to 1; ``draw`` is 2 when ``xd`` is present and not "false", 1 when it is
    "false", and when ``xd`` is absent 2 for pick 3 and 1 otherwise.

    Raises:
        DeckError: not well-formed XML, a DTD or entity declaration (refused outright, so no
            entity expansion attack gets near the parser), or no ``<deck>``/``<cards>`` element.
    """
    try:
        root = SafeElementTree.fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise DeckError(f"{source}: DTDs and entities are not allowed in deck files ({exc!r})") from None
    except SafeElementTree.ParseError as exc:
        raise DeckError(f"{source}: not a well-formed XML file ({exc})") from None
    if root.tag != "deck":
        raise DeckError(f"{source}: the root element is <{root.tag}>, expected <deck>")
    cards = root.find("cards")
    if cards is None:
        raise DeckError(f"{source}: no <cards> element")

    name = _pack_name(root.findtext("name"), _file_stem(source))
    whites = _clean_whites(("".join(card.itertext()) for card in cards.iterfind("white/card")), source)
    blacks: list[BlackCard] = []
    for i, card in enumerate(cards.iterfind("black/card"), 1):
        where = f"{source}, black card {i}"
        pick = _xml_pick(card.get("pick"), where)
        if pick is None:
            continue
        black = make_black_card("".join(card.itertext()), pick, _xml_draw(card.get("xd"), pick), where)
        if black is not None:
            blacks.append(black)
    return Pack(name, whites, tuple(blacks))


def _xml_pick(raw: str | None, where: str) -> int | None:
    """The ``pick`` attribute as a number (missing: 1), or ``None`` with a warning if garbled."""
    if raw is None:
        return 1
    try:
        return int(raw.strip())
    except ValueError:
        log.warning("%s: black card with pick %r dropped (not a number)", where, raw)
        return None


def _xml_draw(xd: str | None, pick: int) -> int:
    """9.2: ``xd`` present and not "false" means "Draw 2"; absent, only pick 3 draws 2."""
    if xd is None:
        return 2 if pick == 3 else 1
    return 1 if xd.strip().lower() == "false" else 2


# --------------------------------------------------------------------------------------------
# JSON Against Humanity (9.3)
# --------------------------------------------------------------------------------------------


def load_json_against_humanity(data: bytes, source: str) -> list[Pack]:
    """Read a JSON Against Humanity file, in any of its three shapes, into its packs.

    - compact: top-level ``white`` (texts) and ``black`` (``{"text", "pick"}``) lists, and
      ``packs`` (a dict or a list) whose entries name their cards by index. Without ``packs``
      the whole file is one pack, named by a top-level ``name`` or else by the file's stem.
    - full, list: a list of pack objects ``{"name", "white": [{"text"}...], "black": [...]}``.
    - full, keyed: a dict of such pack objects (a pack without ``name`` is named by its key).

    A black card's ``pick`` defaults to 1 and it draws 2 exactly when it picks 3. A top-level
    (compact) or per-pack ``license`` string is kept on the pack.

    Raises:
        DeckError: not UTF-8 JSON, or a structure that fits none of the shapes (the message
            says where).
    """
    try:
        document = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise DeckError(f"{source}: not a UTF-8 JSON file ({exc})") from None
    if isinstance(document, list):
        stem = _file_stem(source)
        return [
            _full_pack(entry, f"{source} pack {i}", stem if len(document) == 1 else f"{stem} {i}")
            for i, entry in enumerate(document, 1)
        ]
    if not isinstance(document, dict):
        raise DeckError(f"{source}: the top level must be an object or a list")
    if _is_compact(document):
        return _compact_packs(document, source)
    return [_full_pack(entry, f"{source} pack {key!r}", str(key)) for key, entry in document.items()]


def _is_compact(document: Mapping[str, Any]) -> bool:
    """A compact file has the card texts at the top level; a keyed one has only packs there."""
    return isinstance(document.get("white"), list) or isinstance(document.get("black"), list)


def _compact_packs(document: Mapping[str, Any], source: str) -> list[Pack]:
    license_ = _license(document)
    white_texts = _list_of(document.get("white", []), f"{source}: white", str)
    black_specs = _list_of(document.get("black", []), f"{source}: black", dict)
    packs = document.get("packs")
    if packs is None:
        name = _pack_name(document.get("name"), _file_stem(source))
        whites = _clean_whites(white_texts, source)
        blacks = _json_blacks(black_specs, source)
        return [Pack(name, whites, blacks, license_)]

    if isinstance(packs, dict):
        entries = [(str(key), entry) for key, entry in packs.items()]
    elif isinstance(packs, list):
        entries = [(f"{_file_stem(source)} {i}", entry) for i, entry in enumerate(packs, 1)]
    else:
        raise DeckError(f"{source}: 'packs' must be an object or a list")
    result = []
    for fallback, entry in entries:
        where = f"{source} pack {fallback!r}"
        if not isinstance(entry, dict):
            raise DeckError(f"{where}: a pack must be an object")
        white_ids = _indices(entry.get("white", []), len(white_texts), f"{where}: white")
        black_ids = _indices(entry.get("black", []), len(black_specs), f"{where}: black")
        whites = _clean_whites((white_texts[i] for i in white_ids), where)
        blacks = _json_blacks((black_specs[i] for i in black_ids), where)
        result.append(
            Pack(_pack_name(entry.get("name"), fallback), whites, blacks, _license(entry) or license_)
        )
    return result


def _full_pack(entry: object, where: str, fallback_name: str) -> Pack:
    """One pack object of the full shapes, with card objects ``{"text": ..., "pick": ...}``."""
    if not isinstance(entry, dict):
        raise DeckError(f"{where}: a pack must be an object")
    white_specs = _list_of(entry.get("white", []), f"{where}: white", dict)
    white_texts = [_text_of(spec, f"{where}: white card {i}") for i, spec in enumerate(white_specs, 1)]
    black_specs = _list_of(entry.get("black", []), f"{where}: black", dict)
    return Pack(
        _pack_name(entry.get("name"), fallback_name),
        _clean_whites(white_texts, where),
        _json_blacks(black_specs, where),
        _license(entry),
    )


def _json_blacks(specs: Iterable[Mapping[str, Any]], where: str) -> tuple[BlackCard, ...]:
    blacks = []
    for i, spec in enumerate(specs, 1):
        card_where = f"{where}, black card {i}"
        text = _text_of(spec, card_where)
        pick = spec.get("pick", 1)
        if not isinstance(pick, int) or isinstance(pick, bool):
            raise DeckError(f"{card_where}: 'pick' must be an integer")
        black = make_black_card(text, pick, 2 if pick == 3 else 1, card_where)
        if black is not None:
            blacks.append(black)
    return tuple(blacks)


def _text_of(spec: Mapping[str, Any], where: str) -> str:
    text = spec.get("text")
    if not isinstance(text, str):
        raise DeckError(f"{where}: 'text' must be a string")
    return text


def _list_of(value: object, where: str, item_type: type) -> list[Any]:
    if not isinstance(value, list) or not all(isinstance(item, item_type) for item in value):
        kind = "strings" if item_type is str else "objects"
        raise DeckError(f"{where} must be a list of {kind}")
    return value


def _indices(value: object, size: int, where: str) -> list[int]:
    if not isinstance(value, list) or not all(
        isinstance(i, int) and not isinstance(i, bool) and 0 <= i < size for i in value
    ):
        raise DeckError(f"{where} must be a list of card indices below {size}")
    return value


def _license(entry: Mapping[str, Any]) -> str:
    value = entry.get("license")
    return value.strip() if isinstance(value, str) else ""


# --------------------------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------------------------


def load_deck_file(data: bytes, source: str) -> list[Pack]:
    """The packs of one deck file, chosen by its suffix (``.xml`` or ``.json``).

    Raises:
        DeckError: unknown suffix, or the file cannot be read (see the loaders).
    """
    suffix = PurePath(source).suffix.lower()
    if suffix == ".xml":
        return [load_aah_xml(data, source)]
    if suffix == ".json":
        return load_json_against_humanity(data, source)
    raise DeckError(f"{source}: unknown deck file type (expected .xml or .json)")


@functools.cache
def load_bundled_pack() -> Pack:
    """The project's own deck, "gamehall Original" (CC0), read once from the package data."""
    resource = importlib.resources.files("gamehall.rules.aah").joinpath("decks", BUNDLED_DECK_FILE)
    (pack,) = load_json_against_humanity(resource.read_bytes(), BUNDLED_DECK_FILE)
    return pack


# --------------------------------------------------------------------------------------------
# The library of packs, and a game's deck
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SharedDeck:
    """The cards of a set of packs, shared between tables (see :meth:`DeckLibrary.shared_deck`)."""

    whites: tuple[str, ...]
    blacks: tuple[BlackCard, ...]


class DeckLibrary:
    """Packs by name, in load order. The first pack of a name wins; later ones are skipped."""

    def __init__(self, packs: Iterable[Pack] = ()) -> None:
        self._packs: dict[str, Pack] = {}
        self._merged: dict[tuple[tuple[str, ...], bool], SharedDeck] = {}
        for pack in packs:
            self.add(pack)

    @classmethod
    def bundled(cls) -> DeckLibrary:
        """A library holding just the bundled "gamehall Original" deck."""
        return cls([load_bundled_pack()])

    def add(self, pack: Pack, source: str = "") -> bool:
        """Add ``pack`` unless its name is taken (then warn). Returns whether it was added."""
        if pack.name in self._packs:
            log.warning(
                "%sa pack named %r is already loaded; this one is skipped",
                f"{source}: " if source else "",
                pack.name,
            )
            return False
        self._packs[pack.name] = pack
        return True

    def load_dir(self, path: str | Path) -> int:
        """Add the packs of every ``*.xml`` and ``*.json`` file in ``path`` (by file name order).

        A file that cannot be read is skipped with a log line; so is a missing directory. Never
        raises for bad decks: a server must start even when an operator's file is broken.
        Returns the number of packs added.
        """
        directory = Path(path)
        try:
            files = sorted(
                p for p in directory.iterdir() if p.is_file() and p.suffix.lower() in (".xml", ".json")
            )
        except OSError as exc:
            log.error("deck directory %s cannot be read: %s", directory, exc)
            return 0
        added = 0
        for file in files:
            try:
                packs = load_deck_file(file.read_bytes(), str(file))
            except (DeckError, OSError) as exc:
                log.error("deck file skipped: %s", exc)
                continue
            added += sum(self.add(pack, str(file)) for pack in packs)
        return added

    def names(self) -> list[str]:
        """The pack names, in load order."""
        return list(self._packs)

    def __contains__(self, name: object) -> bool:
        return name in self._packs

    def __len__(self) -> int:
        return len(self._packs)

    def get(self, name: str) -> Pack:
        """The pack called ``name``.

        Raises:
            KeyError: no such pack.
        """
        try:
            return self._packs[name]
        except KeyError:
            raise KeyError(f"no deck pack named {name!r}") from None

    def shared_deck(self, pack_names: Sequence[str], *, pick1_only: bool) -> SharedDeck:
        """The merged card texts of the chosen packs, built once and shared by every table
        that chose the same packs: long-lived, immutable (tuples of strings and of frozen
        cards), so a table holds only indexes into it and the collector never needs to walk
        it again after ``gc.freeze()``.

        Packs are merged in the given order; a white text that appears twice is kept once.
        With ``pick1_only`` the black cards that pick more than one are left out.

        Raises:
            ConfigError: no pack chosen, or a name the library does not know.
        """
        if not pack_names:
            raise ConfigError("Choose at least one card pack.")
        unknown = [name for name in pack_names if name not in self._packs]
        if unknown:
            raise ConfigError(f"Unknown card pack(s): {', '.join(unknown)}.")
        key = (tuple(dict.fromkeys(pack_names)), pick1_only)
        shared = self._merged.get(key)
        if shared is None:
            packs = [self._packs[name] for name in key[0]]
            shared = SharedDeck(
                whites=tuple(dict.fromkeys(text for pack in packs for text in pack.whites)),
                blacks=tuple(
                    black for pack in packs for black in pack.blacks if not pick1_only or black.pick == 1
                ),
            )
            self._merged[key] = shared
        return shared

    def deal_order(self, shared: SharedDeck, rng: Rng) -> tuple[list[int], list[int], list[BlackCard]]:
        """One table's part of a deck (5.3): a random card id per white text (unique, in
        ``[1, 2**31-1]``), the white texts' order (indexes, top first) and the black cards'
        order, all from ``rng`` alone, so the same seed builds the same deck."""
        ids = rng.sample(range(1, MAX_CARD_ID + 1), len(shared.whites))
        order = list(range(len(shared.whites)))
        blacks = list(shared.blacks)
        rng.shuffle(order)
        rng.shuffle(blacks)
        return ids, order, blacks

    def build_game_deck(
        self, pack_names: Sequence[str], rng: Rng, *, pick1_only: bool
    ) -> tuple[list[WhiteCard], list[BlackCard]]:
        """A table's white and black draw piles, shuffled, from the chosen packs (5.3).

        Packs are merged in the given order; a white text that appears twice is kept once. Every
        white card gets a random id in ``[1, 2**31-1]``, unique within the deck. With
        ``pick1_only`` the black cards that pick more than one are left out. Ids and order come
        from ``rng`` only, so the same seed builds the same deck.

        Raises:
            ConfigError: no pack chosen, or a name the library does not know.
        """
        shared = self.shared_deck(pack_names, pick1_only=pick1_only)
        ids, order, blacks = self.deal_order(shared, rng)
        return [WhiteCard(ids[index], shared.whites[index]) for index in order], blacks


def check_deck_size(whites: Sized, blacks: Sequence[BlackCard], playermax: int, pick1_only: bool) -> None:
    """Refuse a table whose deck is too small for its seats (5.3, deck size check).

    It needs at least 20 white cards per possible seat and 20 black cards, counting only pick-1
    black cards when ``pick1_only`` is set.

    Raises:
        ConfigError: too few cards of either colour.
    """
    needed_whites = MIN_WHITES_PER_SEAT * playermax
    if len(whites) < needed_whites:
        raise ConfigError(
            f"The chosen packs have {len(whites)} white cards; {playermax} players need at least "
            f"{needed_whites}."
        )
    usable_blacks = sum(1 for black in blacks if black.pick == 1) if pick1_only else len(blacks)
    if usable_blacks < MIN_BLACKS:
        kind = "pick-1 black cards" if pick1_only else "black cards"
        raise ConfigError(
            f"The chosen packs have {usable_blacks} {kind}; a table needs at least {MIN_BLACKS}."
        )
