"""Whole games from NEU to SPIEL_BEENDET, replayed against the recorded transcripts in
``data/`` (3 and 4 players, a spectator, chat, queries, refused lines), with the client
lines fed whole and byte by byte. Re-record with ``python golden_support.py`` after a
deliberate change, and read the diff."""

from __future__ import annotations

import pytest
from golden_support import SEEDS, fixture_path, record, replay


@pytest.mark.parametrize("bytewise", [False, True], ids=["whole", "bytewise"])
@pytest.mark.parametrize("players", [3, 4])
def test_a_whole_game_replays_its_transcript(players: int, bytewise: bool) -> None:
    lines = fixture_path(players).read_text().splitlines()
    replay(lines, seed=SEEDS[players], bytewise=bytewise)


@pytest.mark.parametrize("players", [3, 4])
def test_the_transcript_is_what_the_recorder_produces_now(players: int) -> None:
    assert record(players, SEEDS[players]) == fixture_path(players).read_text().splitlines()


@pytest.mark.parametrize("players", [3, 4])
def test_the_transcript_reads_like_the_seed(players: int) -> None:
    lines = fixture_path(players).read_text().splitlines()
    received = [line.split(": ", 1)[1] for line in lines if line.startswith("< anna: ")]
    assert received[0] == "SPIELERIN_AKZEPTIERT 0 anna"
    start = received.index("SPIEL_BEGINNT")
    assert received[start + 1] == "SPIELFELD 5 5" and received[start + 27] == "SPIELFELD_ENDE"
    assert received[start + 28] == "STATUS soup1"
    assert received.count("SPIEL_BEENDET") == 1
    rounds = [line for line in received if line.startswith("RUNDE ")]
    assert rounds == [f"RUNDE {n}" for n in range(1, len(rounds) + 1)]
    final = [line for line in received if line.startswith("PUNKTE ")][-players:]
    assert [line.split()[1] for line in final] == [str(c) for c in range(players)]
    for index, line in enumerate(received):
        if line.startswith("BEWEGUNG "):
            _, colour, amoeba, _ = line.split()
            end = received.index(f"BEWEGUNG_ENDE {colour} {amoeba}", index)
            assert all(not x.startswith("ZUG_") for x in received[index:end])
    if players == 4:
        first = received.index("AMOEBE_SETZEN_ENDE 0")
        assert received[first + 1] == "AMOEBE_SCHADEN 0 0"
