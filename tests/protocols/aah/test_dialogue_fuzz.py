"""Any byte string to the AAH port: only well-formed answers (UNRG, REFU, the handshake) or a
clean close, never an exception or a stuck game, and the other tables carry on.

Hypothesis feeds a mix of random bytes and plausible frames (real command names with random
arguments, so the fuzz reaches the dialogue's deeper states), whole or cut at random points.
"""

from __future__ import annotations

import itertools

from aah_dialogue_support import AahHarness, LegacyClient, assert_no_crash
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

COMMANDS = ["JOIN", "META", "NICK", "SMSG", "DISC", "PICK", "CZPK", "PING", "PONG", "ACKN", "RWIN", "ENDG"]
ANSWERS_TO_A_STRANGER = {
    *("UNRG", "REFU", "META", "PONG", "ACKN", "CLNF", "DISC"),
    *("BDCS", "CLJN", "CLEX", "RMSG", "NACC", "NDNY"),
}

argument = st.one_of(
    st.text(
        alphabet=st.characters(blacklist_characters="\x00\x03", blacklist_categories=("Cs",)), max_size=24
    ),
    st.integers(min_value=0, max_value=2**32).map(str),
)


def raw_frame(command: str, args: list[str]) -> bytes:
    """A frame as a client could write it, server-only and unknown names included."""
    return command.encode() + b"\x00".join(a.encode() for a in args) + b"\x03"


plausible_frame = st.builds(raw_frame, st.sampled_from(COMMANDS), st.lists(argument, max_size=3))
chunk = st.one_of(st.binary(max_size=40), plausible_frame, st.just(b"\x03"), st.just(b"\x00"))
stream = st.lists(chunk, max_size=25).map(b"".join)


def playing_table() -> tuple[AahHarness, list[LegacyClient]]:
    harness = AahHarness(autostart_delay=1, timeout=15, round_gap=1, aplimit=50)
    players = [harness.join(name) for name in ("alice", "bob", "carol")]
    harness.advance(1.1)  # autostart: the game is on
    for client in players:
        client.take()
    return harness, players


def feed(client: LegacyClient, data: bytes, cuts: list[int]) -> None:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    for start, end in itertools.pairwise(points):
        if client.wire.closed:
            return
        client.dialogue.data_received(data[start:end])
    client.harness.settle()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=stream, cuts=st.lists(st.integers(min_value=0, max_value=4096), max_size=8))
def test_a_strangers_bytes_get_only_answers_and_leave_other_tables_alone(
    data: bytes, cuts: list[int]
) -> None:
    harness, _players = playing_table()
    table = harness.table(0)
    before = [table.view(seat) for seat in range(3)]
    stranger = harness.connect("stranger")
    feed(stranger, data, cuts)
    got = {frame.command for frame in stranger.all_frames()}
    assert got <= ANSWERS_TO_A_STRANGER, got
    # the playing table saw nothing of it (a stranger never lands in a running game)...
    assert [table.view(seat) for seat in range(3)] == before
    # ...and goes on: the round ends by its timers and the next one starts
    round_before = table.view(None)["round"]
    harness.advance(15 * 3 + 2)
    assert table.view(None)["round"] > round_before
    assert_no_crash(harness)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=stream, cuts=st.lists(st.integers(min_value=0, max_value=4096), max_size=8), who=st.integers(0, 2)
)
def test_a_seated_players_garbage_never_breaks_the_game(data: bytes, cuts: list[int], who: int) -> None:
    harness, players = playing_table()
    table = harness.table(0)
    feed(players[who], data, cuts)
    census = table.card_census()
    whites, _ = table.deck_size  # every white card is in exactly one place
    assert census.white_draw + census.white_discard + census.in_hands + census.in_play == whites
    assert len(set(census.white_ids)) == whites
    harness.advance(15 * 3 + 2)  # whatever happened, timers move the table on: never stuck
    view = table.view(None)
    assert view["phase"] in {"pick", "judge", "gap", "waiting", "over", "aborted"}
    assert_no_crash(harness)
