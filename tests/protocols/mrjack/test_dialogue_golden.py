"""Golden transcripts (``data/golden_game_*.txt``, see :mod:`mrjack_golden`): a whole seeded game
with a spectator, in both wire styles, must come out line for line the same when its client
lines are sent again, whole or one byte per read; and the bots must still play exactly that
game."""

from __future__ import annotations

import pytest
from mrjack_golden import fixture_path, record, replay

from gamehall.protocols.mrjack.terms import Style

SPECTATOR_NEVER = ("jack(", "spielzugerlaubnis(", "moeglichkeiten(", "update_Alibi(", "ok(", "err(", "chat(")


def golden(style: Style) -> list[str]:
    return fixture_path(style).read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("style", list(Style), ids=[s.value for s in Style])
@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
def test_the_golden_game_replays_line_for_line(style: Style, bytewise: bool) -> None:
    expected = golden(style)
    assert replay(style, expected, bytewise=bytewise) == expected


@pytest.mark.parametrize("style", list(Style), ids=[s.value for s in Style])
def test_the_bots_still_play_the_golden_game(style: Style) -> None:
    assert record(style) == golden(style)


@pytest.mark.parametrize("style", list(Style), ids=[s.value for s in Style])
def test_the_golden_game_is_a_whole_game_and_the_spectator_gets_only_cc_lines(style: Style) -> None:
    lines = golden(style)
    dot = "." if style is Style.PROLOG else ""
    to_watson = [line.removeprefix("S>C watson: ") for line in lines if line.startswith("S>C watson: ")]
    watching = {Style.PROLOG: "ok('Du bist zuschauer').", Style.PLAIN: "ok(Du bist zuschauer)"}[style]
    game_lines = to_watson[to_watson.index(watching) + 1 :]
    game_lines = [line for line in game_lines if not line.startswith(("err(", "ison("))]  # own commands
    assert not [line for line in game_lines if line.startswith(SPECTATOR_NEVER)]
    to_sherlock = [line.removeprefix("S>C sherlock: ") for line in lines if line.startswith("S>C sherlock: ")]
    cc_to_sherlock = [
        line
        for line in to_sherlock[to_sherlock.index(f"beginn(runde){dot}") :]
        if not line.startswith(SPECTATOR_NEVER)
    ]
    assert game_lines == cc_to_sherlock
    assert game_lines[-1].startswith("ende(spiel,")
    assert not [line for line in to_sherlock if line.startswith("jack(")]
