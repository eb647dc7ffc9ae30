"""Room settings of the word games, the predefined games and the shared lexicons (note §9, §11).

A room picks a **preset** (the JDuplicate "predefined game" codes: ``fr``, ``DupEN``, ``ScrEN``,
``ScrFR``, ``BogEN``, ``BogFR``); ``mode``, ``letters``, ``dictionary`` and ``rounds`` override
the preset when set (empty / 0 = the preset's). :func:`resolve` turns a validated config into a
:class:`Rules` record the tables read.

Lexicons are loaded through :meth:`Lexicon.load` (the only file access, with its disk cache) and
kept in a process-wide table, so every room on the same dictionary shares one GADDAG.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import JSON, ConfigError
from gamehall.rules.words.letters import LETTER_SETS, LetterSet
from gamehall.rules.words.lexicon import Lexicon, dictionary_ids, dictionary_source

MODES = ("duplicate", "scrabble", "boggle")
MAX_PLAYERS_CAP = 32
SCRABBLE_MAX_PLAYERS = 4


@dataclass(frozen=True, slots=True)
class Preset:
    """A predefined game (PREDEFGAMES): rules, dictionary id, letter set, board, description."""

    code: str
    mode: str
    dictionary: str
    letters: str
    board: str
    description: str
    rounds: int = 0
    max_players: int = MAX_PLAYERS_CAP


PRESETS: Mapping[str, Preset] = {
    p.code: p
    for p in (
        Preset("fr", "duplicate", "francais", "FR", "standard", "Duplicate - francais"),
        Preset("DupEN", "duplicate", "english", "EN", "standard", "Duplicate - English"),
        Preset(
            "ScrEN", "scrabble", "english", "EN", "standard", "Scrabble - English", 0, SCRABBLE_MAX_PLAYERS
        ),
        Preset(
            "ScrFR", "scrabble", "francais", "FR", "standard", "Scrabble - francais", 0, SCRABBLE_MAX_PLAYERS
        ),
        Preset("BogEN", "boggle", "english-lp", "EN", "boggle4", "Boggle 4x4 - English", 5),
        Preset("BogFR", "boggle", "francais", "FR", "boggle4", "Boggle 4x4 - francais", 5),
    )
}
"""The predefined games of note §9.2, in the order PREDEFGAMES lists them (codes are case-sensitive)."""

DEFAULT_ROUNDS = {"duplicate": 0, "scrabble": 0, "boggle": 5}

SCHEMA = ConfigSchema(
    "words",
    [
        Setting(
            "preset", "DupEN", "choice", choices=tuple(PRESETS), help="Predefined game (PREDEFGAMES code)."
        ),
        Setting(
            "mode",
            "",
            "choice",
            choices=("", *MODES),
            help="duplicate, scrabble or boggle; empty: the preset's.",
        ),
        Setting(
            "letters",
            "",
            "choice",
            choices=("", *LETTER_SETS),
            help="Letter set EN or FR; empty: the preset's.",
        ),
        Setting(
            "dictionary",
            "",
            "str",
            help="Dictionary id: english, english-lp, francais, or a list of the operator's --words-dir; "
            "empty: the preset's.",
            high=32,
        ),
        Setting("time_per_turn", 120, "int", 5, 600, help="Seconds per turn."),
        Setting("max_players", 8, "int", 1, MAX_PLAYERS_CAP, help="Seats (scrabble: at most 4)."),
        Setting("grace_s", 5.0, "float", 0, 60, help="Seconds after MOVESREQUEST before the turn closes."),
        Setting("pause_s", 5.0, "float", 0, 60, help="Pause between turns (duplicate, scrabble)."),
        Setting("rounds", 0, "int", 0, 100, help="Boggle rounds; 0: the preset's (5)."),
        Setting(
            "join_after_start", True, "bool", help="Players may join a running game (never in scrabble)."
        ),
        Setting(
            "end_turn_when_all_moved", False, "bool", help="Close a duplicate turn once everyone has played."
        ),
        Setting(
            "solo_bonus", 0, "int", 0, 100, help="Duplicate: bonus for the one strictly best valid move."
        ),
        Setting("solo_min_players", 2, "int", 2, MAX_PLAYERS_CAP, help="Players needed for the solo bonus."),
        Setting("boggle_words_max", 300, "int", 1, 1000, help="Boggle: words a player may send per turn."),
    ],
)


@dataclass(frozen=True, slots=True)
class Rules:
    """A room's settings, resolved against its preset: what the tables read."""

    preset: Preset
    mode: str
    letters: LetterSet
    dictionary: str
    time_per_turn: float
    max_players: int
    grace_s: float
    pause_s: float
    rounds: int
    join_after_start: bool
    end_turn_when_all_moved: bool
    solo_bonus: int
    solo_min_players: int
    boggle_words_max: int

    def __deepcopy__(self, memo: dict[int, object]) -> Rules:
        """Frozen: a copy of a game shares it."""
        return self


def resolve(config: Mapping[str, JSON]) -> Rules:
    """The :class:`Rules` of a config (validated by :data:`SCHEMA`, or partial: defaults fill in).

    Raises:
        ConfigError: a value is invalid.
    """
    full = SCHEMA.validate(config)
    preset = PRESETS[str(full["preset"])]
    mode = str(full["mode"]) or preset.mode
    cap = SCRABBLE_MAX_PLAYERS if mode == "scrabble" else MAX_PLAYERS_CAP
    rounds = int(full["rounds"]) or preset.rounds or DEFAULT_ROUNDS[mode]
    return Rules(
        preset=preset,
        mode=mode,
        letters=LETTER_SETS[str(full["letters"]) or preset.letters],
        dictionary=str(full["dictionary"]) or preset.dictionary,
        time_per_turn=float(full["time_per_turn"]),
        max_players=min(int(full["max_players"]), cap),
        grace_s=float(full["grace_s"]),
        pause_s=float(full["pause_s"]),
        rounds=rounds,
        join_after_start=bool(full["join_after_start"]) and mode != "scrabble",
        end_turn_when_all_moved=bool(full["end_turn_when_all_moved"]),
        solo_bonus=int(full["solo_bonus"]),
        solo_min_players=int(full["solo_min_players"]),
        boggle_words_max=int(full["boggle_words_max"]),
    )


MODE_TITLES = {"duplicate": "Duplicate", "scrabble": "Scrabble", "boggle": "Boggle"}
LANGUAGE_NAMES = {"EN": "English", "FR": "French"}


def mode_title(mode: str, letters: str) -> str:
    """A mode in words, as a room title and the create form say it: "Duplicate (English)"."""
    return f"{MODE_TITLES.get(mode, mode)} ({LANGUAGE_NAMES.get(letters, letters)})"


def default_title(config: Mapping[str, JSON]) -> str:
    """The title of a words room created without one: its mode and language, so that two
    rooms of different modes do not look alike in the lobby."""
    rules = resolve(config)
    return mode_title(rules.mode, rules.letters.name)


def seat_count(config: Mapping[str, JSON]) -> int:
    """How many seats a room with ``config`` has (scrabble is capped at 4)."""
    return resolve(config).max_players


_SHARED: dict[str, Lexicon] = {}


def shared_lexicon(dictionary: str) -> Lexicon:
    """The lexicon named by a dictionary id (``english``..., or one of the operator's
    ``--words-dir`` lists), loaded once per process and shared by every room that names it.
    A client names an id, never a file: anything else is refused with the same message whether
    or not such a file exists (no file-existence oracle).

    Raises:
        ConfigError: no dictionary has that id, or the operator's file became unreadable.
    """
    source = dictionary_source(dictionary)
    if source is None:
        known = ", ".join(dictionary_ids())
        raise ConfigError(f"words.dictionary: no dictionary {dictionary[:32]!r} (known: {known})")
    key = os.fspath(source)
    lexicon = _SHARED.get(key)
    if lexicon is None:
        try:
            lexicon = Lexicon.load(source)
        except OSError:
            raise ConfigError(f"words.dictionary: the word list {dictionary!r} cannot be read") from None
        _SHARED[key] = lexicon
    return lexicon


SCHEMA.present(
    {
        "preset": ("Game", "Game", "What to play, and in which language."),
        "mode": ("Game", "Mode", "Overrides the game's mode (empty: as chosen above)."),
        "letters": ("Game", "Letters", "Overrides the game's letter set (empty: as chosen above)."),
        "max_players": ("Table", "Seats", "Players who can sit down (Scrabble: at most 4)."),
        "join_after_start": ("Table", "Late joiners", "Players may join a running game (never in Scrabble)."),
        "time_per_turn": ("Timing", "Seconds per turn", "Time to find a move."),
        "grace_s": ("Timing", "Extra seconds", "After the time is up, the seconds left to send a move."),
        "pause_s": ("Timing", "Pause between turns", "Seconds between two turns (Duplicate, Scrabble)."),
        "end_turn_when_all_moved": (
            "Timing",
            "End the turn when everyone has played",
            "Duplicate: close the turn early.",
        ),
        "rounds": ("Boggle", "Rounds", "Boggle rounds (0: five)."),
        "solo_bonus": ("Duplicate", "Solo bonus", "Points for the one strictly best valid move (0: none)."),
        "solo_min_players": (
            "Duplicate",
            "Players for a solo",
            "Players needed before the solo bonus counts.",
        ),
    },
    server=("dictionary", "boggle_words_max"),
    choice_labels={
        "preset": {
            "fr": "Duplicate (French)",
            "DupEN": "Duplicate (English)",
            "ScrEN": "Scrabble (English)",
            "ScrFR": "Scrabble (French)",
            "BogEN": "Boggle (English)",
            "BogFR": "Boggle (French)",
        },
        "mode": {
            "": "As the game says",
            "duplicate": "Duplicate",
            "scrabble": "Scrabble",
            "boggle": "Boggle",
        },
        "letters": {"": "As the game says", "EN": "English", "FR": "French"},
    },
)
