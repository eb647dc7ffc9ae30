"""The dialogue under any input: it never raises, answers only ``err(...)`` (or closes cleanly on
``quit``), and the game goes on; and over many random games the detective and the spectators
never learn who Mr. Jack is before ``ende(spiel,...)``."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mrjack_support import CONFIGS
from mrjack_wire_support import JackHarness, TermClient
from test_dialogue_game import line_of, snapshot

from gamehall.protocols.mrjack.terms import parse_line

TOKENS = [
    b"aktiv(", b"aktion(", b"ziel(", b"nick(", b"init(", b"chat(", b"fertig", b"ison", b"ok(", b"err(",
    b"gelb", b"lila", b"bewegen", b"skip", b"faehigkeit", b"a1", b"f7", b"z9", b"mrjack", b"zuschauer",
    b")", b"(", b".", b"'", b'"', b"[", b"]", b",", b" ", b"\n", b"\r\n", b"\xff", b"\xc3", b"\x00", b"\\",
]  # fmt: skip
noise = st.one_of(
    st.lists(st.sampled_from(TOKENS), max_size=40).map(b"".join),
    st.binary(max_size=200),
)


def functor_of(line: str) -> str:
    command = parse_line(line)
    return getattr(command, "functor", getattr(command, "name", ""))


@settings(max_examples=200, deadline=None)
@given(noise, st.lists(st.integers(0, 400), max_size=6), st.booleans())
def test_noise_from_the_waiting_player_is_answered_by_err_only_and_changes_nothing(
    data: bytes, cuts: list[int], close_line: bool
) -> None:
    h = JackHarness()
    jack, det = h.pair()
    before = snapshot(h)
    payload = data + (b"\n" if close_line else b"")
    points = sorted({min(c, len(payload)) for c in cuts})
    for a, b in zip([0, *points], [*points, len(payload)], strict=True):
        jack.send_raw(payload[a:b])
    replies = jack.take()
    assert {functor_of(line) for line in replies} <= {"err", "ison", "chat"}, replies
    assert det.take() == []
    assert snapshot(h) == before
    det.send("aktiv(gelb).")
    assert det.take() == ["ok('Farbe ist aktiv: gelb')."]


@settings(max_examples=200, deadline=None)
@given(noise)
def test_noise_from_the_active_player_never_breaks_the_dialogue(data: bytes) -> None:
    h = JackHarness()
    jack, det = h.pair()
    det.send_raw(data + b"\n", bytewise=True)
    for line in det.take() + jack.take():
        parse_line(line)  # every line the server wrote is one readable term
    if h.games():
        game = h.game()
        (seat,) = game.to_move().seats
        mover = jack if seat == 0 else det
        mover.take()
        mover.send(line_of(game.legal_actions(seat)[0]))
        assert not mover.take()[0].startswith("err(")


def test_quit_in_the_middle_of_noise_closes_cleanly() -> None:
    h = JackHarness()
    jack, det = h.pair()
    det.send_raw(b"aktiv(gelb\nquit.\naktiv(gelb).\n")
    assert det.take()[-1] == "ok('Auf Wiedersehen')."
    assert det.closed and det.wire.writes_after_close == 0
    assert jack.take()[0] == "ende(spiel,mrjack,lila)."


# ------------------------------------------------------------------------------ the secret


def random_game_through_the_wire(seed: int, config: dict[str, object]) -> tuple[str, dict[str, list[str]]]:
    """A random-legal game (accusations and escapes included) through the dialogue, watched by
    a spectator from the start; returns Mr. Jack's colour and every connection's lines."""
    h = JackHarness(setup=None, seed=seed, **config)
    jack = h.login("jack", "mrjack")
    watcher = h.login("watcher", "zuschauer")
    det = h.login("det", "detektiv")
    clients: dict[int, TermClient] = {0: jack, 1: det}
    game = h.game()
    rng = random.Random(seed)
    while h.games():
        timers = game.pending_timers()
        if timers and rng.random() < 0.01:
            h.advance(timers[0].seconds)
            continue
        (seat,) = game.to_move().seats
        clients[seat].send(line_of(rng.choice(game.legal_actions(seat))))
    return str(game.alibis.jack), {"jack": jack.lines(), "det": det.lines(), "watcher": watcher.lines()}


def check_secret(jack_colour: str, lines: dict[str, list[str]]) -> None:
    assert f"jack({jack_colour})." in lines["jack"]
    for who in ("det", "watcher"):
        seen = lines[who]
        assert not [line for line in seen if line.startswith("jack(")], who
        assert not [line for line in seen if line.startswith(f"update_Alibi({jack_colour})")], who
        ends = [i for i, line in enumerate(seen) if line.startswith("ende(spiel,")]
        assert len(ends) == 1, who
        assert all(not line.startswith(("beginn(", "update_", "auswahl(")) for line in seen[ends[0] :]), who
    assert not [line for line in lines["watcher"] if line.startswith(("ok(Farbe", "moeglichkeiten(", "err("))]


@pytest.mark.parametrize("seed", range(100))
def test_the_detective_and_spectators_never_learn_jack_before_the_end(seed: int) -> None:
    check_secret(*random_game_through_the_wire(seed, dict(CONFIGS[seed % len(CONFIGS)])))


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(1000, 2000))
def test_the_secret_holds_over_a_thousand_games(seed: int) -> None:
    check_secret(*random_game_through_the_wire(seed, dict(CONFIGS[seed % len(CONFIGS)])))
