"""Helpers for the word-game mode tests: small lexicons, tables with a chosen bag, timer driving."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gamehall.rules._core import JSON, Event, Seat
from gamehall.rules.words import new_game
from gamehall.rules.words.actions import Moves
from gamehall.rules.words.lexicon import Lexicon, read_bundled_words
from gamehall.rules.words.words_table import WordsTable

FIXTURE_WORDS = ["BISE", "BISES", "ASK", "RETAINS", "STAINER", "CAT", "CATS", "QUIT", "QUITE"]
"""The JDuplicate note's fixture lexicon (§13)."""

FIXTURE = Lexicon.from_words(FIXTURE_WORDS, name="fixture")

QUICK = {"pause_s": 0.0, "grace_s": 5.0}
"""Settings that keep turns moving: no pause between turns."""


_SLICE: list[Lexicon] = []


def enable_slice() -> Lexicon:
    """Every 25th ENABLE word plus every two-letter word: big enough for real games, built fast."""
    if not _SLICE:
        words = read_bundled_words("enable")
        _SLICE.append(
            Lexicon.from_words([w for i, w in enumerate(words) if i % 25 == 0 or len(w) == 2], "slice")
        )
    return _SLICE[0]


def table(
    config: Mapping[str, JSON],
    players: Sequence[str] = ("ams", "jim"),
    *,
    seed: int = 1,
    lexicon: Lexicon = FIXTURE,
    bag: str | None = None,
    start: bool = True,
) -> tuple[WordsTable, list[Event]]:
    """A table with ``players`` seated (seats 0, 1, ...), optionally a bag in a chosen order, started."""
    game = new_game({**QUICK, **config}, seed, lexicon)
    events: list[Event] = []
    for name in players:
        _, joined = game.seat_join(name)
        events += joined
    if bag is not None:
        game.bag = list(bag)  # type: ignore[attr-defined]
    if start:
        events += game.start()
    return game, events


def fire(game: WordsTable) -> list[Event]:
    """Fire the one pending timer."""
    (timer,) = game.pending_timers()
    return game.on_timeout(timer.key)


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, kind)]


def visible(events: Sequence[Event], seat: Seat | None) -> list[Event]:
    return [e for e in events if e.visible_to(seat)]


def play_duplicate(config: Mapping[str, JSON], seed: int, lexicon: Lexicon) -> dict[str, JSON]:
    """A whole duplicate game: ``ams`` plays the top's tiles every turn, ``jim`` never plays.

    Returns the record the replay fixtures hold: every rack (as HAND shows it), every top (as
    ENDOFTURN shows it), the end reason and the final totals.
    """
    from gamehall.rules.words.duplicate import DuplicateTable
    from gamehall.rules.words.events import GameEnded, HandDealt, TurnEnded

    game, events = table(config, ("ams", "jim"), seed=seed, lexicon=lexicon)
    assert isinstance(game, DuplicateTable)
    racks: list[str] = []
    tops: list[str] = []
    while True:
        for event in events:
            if isinstance(event, HandDealt):
                racks.append(f"{''.join(event.letters)} kept={event.kept} rejected={event.rejected}")
            elif isinstance(event, TurnEnded):
                tops.append(f"{event.ref} {event.word} {event.score}")
            elif isinstance(event, GameEnded):
                return {
                    "seed": seed,
                    "racks": racks,
                    "tops": tops,
                    "end": event.reason,
                    "toptotal": event.toptotal,
                    "totals": {s.name: s.total for s in event.ranking},
                }
        events = []
        if game.top is not None and game.phase.value == "open":
            tiles = tuple((row, col, tile.glyph) for (row, col), tile in game.top.placed())
            events += game.apply(0, Moves(tiles))
        events += fire(game)
