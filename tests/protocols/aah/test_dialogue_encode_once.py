"""Encode once on the AAH wire (docs/architecture.md): the seats of a table share the frames
of an event that reads the same for them, and never share one that does not.

alice, bob and carol with the defaults; bob is the first czar (see test_dialogue_rounds).
"""

from __future__ import annotations

import pytest
from aah_dialogue_support import AahHarness, LegacyClient
from render_counting import count_calls, per_listener

from gamehall.protocols.aah import dialogue as aah_dialogue
from gamehall.rules.aah.events import CardPlayed, Revealed


def three_players() -> tuple[AahHarness, LegacyClient, LegacyClient, LegacyClient]:
    harness = AahHarness()
    alice, bob, carol = (harness.join(nick) for nick in ("alice", "bob", "carol"))
    harness.advance(15)
    harness.take_all()
    return harness, alice, bob, carol


def test_a_reveal_is_rendered_once_and_every_seat_gets_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, alice, bob, carol = three_players()
    alice.pick(5001)
    calls = count_calls(monkeypatch, aah_dialogue, "table_frames")
    marks = [len(client.wire.writes) for client in (alice, bob, carol)]
    carol.pick(5021)  # the last pick: both cards are revealed to all three, one REVL each
    seats = zip((alice, bob, carol), marks, strict=True)
    reveals = [[w for w in client.wire.writes[mark:] if w[:4] == b"REVL"] for client, mark in seats]
    assert len(reveals[0]) == 2 and reveals[0] == reveals[1] == reveals[2]
    assert all(a is b is c for a, b, c in zip(*reveals, strict=True))  # the very same bytes
    assert sum(isinstance(args[0], Revealed) for args in calls) == 2  # once per event


def test_a_played_card_renders_once_for_the_player_and_once_for_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The player's own client learns nothing from its ``CardPlayed``; the others get a
    ``BLNK``. Two renderings, and the player's (nothing) is never the others' (a ``BLNK``)."""
    harness, alice, bob, carol = three_players()
    calls = count_calls(monkeypatch, aah_dialogue, "table_frames")
    alice.pick(5001)
    played = [args for args in calls if isinstance(args[0], CardPlayed)]
    assert sorted(str(seat == 0) for _, seat in played) == ["False", "True"]
    assert harness.take_all() == {"alice": [], "bob": ["BLNK"], "carol": ["BLNK"]}
    assert bob.wire.writes[-1] is carol.wire.writes[-1]


def _one_round(harness: AahHarness, alice: LegacyClient, bob: LegacyClient, carol: LegacyClient) -> None:
    alice.pick(5001)
    carol.pick(5021)
    bob.send("CZPK", "5021")
    harness.advance(5)  # the next round: everyone draws a card of their own


def test_hands_stay_private_the_bytes_are_those_of_one_rendering_per_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A whole round, with the cache and without (the old path): every seat's transcript is
    the same either way, and the cache cut the renderings."""
    shared = three_players()
    calls = count_calls(monkeypatch, aah_dialogue, "table_frames")
    _one_round(*shared)
    with_cache, renders_shared = [c.all_frames() for c in shared[1:]], len(calls)

    per_listener(monkeypatch)
    alone = three_players()
    calls.clear()
    _one_round(*alone)
    assert [c.all_frames() for c in alone[1:]] == with_cache
    assert renders_shared < len(calls)
    alice_cards = {f.args[0] for f in with_cache[0] if f.command == "WHTE"}
    carol_cards = {f.args[0] for f in with_cache[2] if f.command == "WHTE"}
    assert alice_cards and carol_cards and not alice_cards & carol_cards


def test_the_render_key_holds_everything_the_frames_read_of_the_seat() -> None:
    """Over every event of a whole 8-seat game (and the seat changes), seats with equal
    :func:`render_key` get equal frames: sharing a rendering can never show one seat what
    another one's frames say."""
    import random

    from gamehall.protocols.aah.frames import render_key, table_frames
    from gamehall.rules._core import SeatJoined, SeatLeft, SeatRenamed
    from gamehall.rules.aah import GAME_TYPE

    config = {**GAME_TYPE.schema.defaults(), "playermax": 8}
    game = GAME_TYPE.new_game(config, 5)
    events = [event for seat in range(8) for event in game.seat_join(f"p{seat}")[1]]
    rng = random.Random(5)
    for _ in range(300):
        seats = sorted(game.to_move().seats)
        if seats:
            events += game.apply(seats[0], rng.choice(list(game.legal_actions(seats[0]))))  # type: ignore[attr-defined]
        elif timers := game.pending_timers():
            events += game.on_timeout(timers[0].key)
    events += [SeatLeft(seat=3, name="p3"), SeatRenamed(seat=2, old="p2", new="q2")]
    events.append(SeatJoined(seat=3, name="r3"))
    for event in events:
        readers = [seat for seat in (*range(8), None) if event.visible_to(seat)]
        by_key: dict[object, list[object]] = {}
        for seat in readers:
            by_key.setdefault(render_key(event, seat), []).append(table_frames(event, seat))
        for rendered in by_key.values():
            assert all(frames == rendered[0] for frames in rendered), event
