"""Shared helpers for the AAH engine tests: tiny hand-written decks, seated tables, timers.

The decks are made of numbered placeholder texts (no real card text anywhere); a deck is used
top first, so white card ``i`` has id ``i`` and the first seat to be dealt gets cards 1-10.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from gamehall.rules._core import Event, Seat
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.rules.aah.cards import BlackCard, WhiteCard
from gamehall.rules.aah.table import AahTable, Deck, new_game

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi")


def tiny_deck(whites: int = 200, blacks: Sequence[tuple[int, int]] = ((1, 1),) * 20) -> Deck:
    """``whites`` white cards with ids 1..n, and one black card per ``(pick, draw)``."""
    white_cards = [WhiteCard(i, f"White card {i}.") for i in range(1, whites + 1)]
    black_cards = [
        BlackCard(f"Prompt {i}: " + " ".join(["_____"] * pick), pick, draw)
        for i, (pick, draw) in enumerate(blacks)
    ]
    return white_cards, black_cards


def lobby(players: int = 3, *, seed: int = 1, deck: Deck | None = None, **settings: Any) -> AahTable:
    """A table in the lobby with ``players`` seats (alice, bob, ...) and no autostart unless
    ``autostart_delay`` is given."""
    config: dict[str, Any] = {"autostart_delay": 0, "min_players": min(3, max(2, players))}
    config.update(settings)
    table = new_game(config, seed, deck=deck if deck is not None else tiny_deck())
    for name in NAMES[:players]:
        table.seat_join(name)
    return table


def started(players: int = 3, **kwargs: Any) -> tuple[AahTable, list[Event]]:
    """A table whose first round is in the pick phase, and the events of the start."""
    table = lobby(players, **kwargs)
    return table, table.start()


def timer_kind(table: AahTable) -> str | None:
    timers = table.pending_timers()
    return timers[0].key.split(":")[0] if timers else None


def fire(table: AahTable, kind: str) -> list[Event]:
    """Fire the pending timer, which must be of ``kind`` (autostart, pick, judge, gap...)."""
    timers = table.pending_timers()
    assert len(timers) == 1, timers
    assert timers[0].key.split(":")[0] == kind, timers[0].key
    return table.on_timeout(timers[0].key)


def kinds(events: Iterable[Event]) -> list[str]:
    return [type(event).__name__ for event in events]


def visible(events: Iterable[Event], seat: Seat | None) -> list[Event]:
    return [event for event in events if event.visible_to(seat)]


def of_type(events: Iterable[Event], cls: type[Any]) -> list[Any]:
    return [event for event in events if isinstance(event, cls)]


def hand_ids(table: AahTable, seat: Seat) -> list[int]:
    return [card["id"] for card in table.view(seat)["hand"]]


def czar(table: AahTable) -> Seat:
    value = table.view(None)["czar"]
    assert isinstance(value, int)
    return value


def pickers(table: AahTable) -> list[Seat]:
    return sorted(table.to_move().seats)


def play_all(table: AahTable) -> list[Event]:
    """Every awaited seat plays the first cards of its hand, one id per pick."""
    out: list[Event] = []
    pick = table.view(None)["black"]["pick"]
    for seat in pickers(table):
        for card_id in hand_ids(table, seat)[:pick]:
            out += table.apply(seat, Pick((card_id,)))
    return out


def win_round(table: AahTable, winner: Seat | None = None) -> list[Event]:
    """Everyone plays, then the czar names ``winner``'s submission (default: any)."""
    out = play_all(table)
    the_czar = czar(table)
    if winner is None:
        card_id = table.view(None)["submissions"][0]["cards"][0]["id"]
    else:
        card_id = table.view(winner)["my_submission"][0]
    return out + table.apply(the_czar, Judge(card_id))


def next_round(table: AahTable, winner: Seat | None = None) -> list[Event]:
    """Finish this round (see :func:`win_round`) and start the next one."""
    return win_round(table, winner) + fire(table, "gap")


def assert_census(table: AahTable) -> None:
    """The pile invariant of 5.3: every card in exactly one place."""
    census = table.card_census()
    whites, blacks = table.deck_size
    assert census.white_draw + census.white_discard + census.in_hands + census.in_play == whites
    assert len(set(census.white_ids)) == len(census.white_ids) == whites
    assert census.black_draw + census.black_discard + census.black_in_play == blacks
