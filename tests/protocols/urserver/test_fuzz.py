"""Fuzzing the UrServer dialogue: any bytes, whole or split anywhere, in the lobby or from a
player in a running game, never crash the connection or the table. Every answer is a
well-formed server line, a refused line changes nothing, and the cubes are all still there.
"""

from __future__ import annotations

import itertools
import logging

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from urserver_support import Table, UrHarness

from gamehall.rules.ursuppe.state import CUBES_PER_COLOUR

KEYWORDS = [
    "NEU", "NAME", "PASSWORT", "TIMEOUT", "LISTE", "TEILNEHMEN", "ZUSCHAUEN", "STATUS", "PING",
    "VERSION", "NACHRICHT", "PRIVAT_NACHRICHT", "SPIELFELD", "SPIELFELD2", "TELNET_STATUS",
    "UMWELTKARTE", "GEN_ANZAHL", "BEREIT", "POSITION", "AMOEBE_SETZEN", "AMOEBE_SETZEN_ENDE",
    "TENTAKEL", "WUERFELN", "BEWEGEN", "KEINE_ZWEITE_BEWEGUNG", "KLAMMERN", "NICHT_KLAMMERN",
    "PARASITISMUS", "FRESSEN", "UEBERLEBENSKAMPF", "FLUCHT", "KEINE_FLUCHT", "VERTEIDIGUNG",
    "KEINE_VERTEIDIGUNG", "DEFEKT_AUSGLEICHEN", "GEN_KAUFEN", "GEN", "GEN_KAUFEN_ENDE",
    "AGGRESSION", "KEINE_AGGRESSION", "FOO", "soup1",
]  # fmt: skip
TOKENS = st.one_of(
    st.integers(min_value=-3, max_value=25).map(str),
    st.lists(st.integers(min_value=-1, max_value=4), min_size=1, max_size=5).map(
        lambda v: ":".join(map(str, v))
    ),
    st.sampled_from(["x", "", "soup1", "anna", "1:a:2", "99999999999999999999"]),
)
LINES = st.builds(
    lambda k, args: " ".join([k, *args]),
    st.sampled_from(KEYWORDS),
    st.lists(TOKENS, max_size=4),
)
STREAMS = st.lists(
    st.one_of(LINES.map(lambda line: (line + "\n").encode()), st.binary(max_size=40)), max_size=12
)
SERVER_KEYWORDS = {
    "FEHLER", "PONG", "VERSION", "SPIELE", "SPIEL", "SPIEL_ANGEMELDET", "STATUS", "TIMEOUT",
    "ANZAHL_SPIELERINNEN", "ANZAHL_NAEHRSTOFFE", "ANZAHL_AMOEBEN", "LAENGE_LAUFBAHN",
    "LAENGE_ZIELZONE", "UMWELTKARTE", "SPIELERIN", "NAME", "PUNKTE", "BIOPUNKTE", "AMOEBEN",
    "AMOEBE", "GENE", "GEN", "ZUSCHAUERIN", "STATUS_ENDE", "SPIELFELD", "FELDCHEN",
    "SPIELFELD_ENDE", "SPIELFELD2", "TELNET_STATUS", "TELNET_STATUS_ENDE", "GEN_ANZAHL",
    "SPIELERIN_AKZEPTIERT", "SPIELERIN_ANGEMELDET", "ZUSCHAUERIN_ANGEMELDET", "NACHRICHT",
    "PRIVAT_NACHRICHT",
}  # fmt: skip


def _chunks(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({0, len(data), *(c % (len(data) + 1) for c in cuts)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


@pytest.fixture(autouse=True)
def _no_internal_errors(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger="gamehall")


def _assert_no_internal_error(caplog: pytest.LogCaptureFixture) -> None:
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(stream=STREAMS, cuts=st.lists(st.integers(min_value=0, max_value=500), max_size=6))
def test_lobby_input_never_crashes(
    stream: list[bytes], cuts: list[int], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.clear()
    harness = UrHarness()
    harness.new_game()
    client = harness.connect("fuzz")
    for chunk in _chunks(b"".join(stream), cuts):
        client.send_raw(chunk)
    for line in client.lines():
        assert line.split()[0] in SERVER_KEYWORDS or line.startswith(("Runde", "Farbe")), line
    _assert_no_internal_error(caplog)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    stream=STREAMS,
    cuts=st.lists(st.integers(min_value=0, max_value=500), max_size=6),
    players=st.sampled_from([3, 4]),
)
def test_a_player_s_input_never_breaks_the_table(
    stream: list[bytes], cuts: list[int], players: int, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.clear()
    t = Table(players)
    mover = t.advance_to("ZUG_BEWEGEN", round_number=1)
    g = t.engine.state
    for chunk in _chunks(b"".join(stream), cuts):
        mover.send_raw(chunk)
        for colour in range(players):
            on_board = sum(cubes[colour] for cubes in g.cubes.values())
            assert on_board + g.supply[colour] == CUBES_PER_COLOUR
    _assert_no_internal_error(caplog)
    for line in mover.lines():
        assert line == line.strip() and line, line


@pytest.mark.soak
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    stream=STREAMS,
    cuts=st.lists(st.integers(min_value=0, max_value=500), max_size=6),
    players=st.sampled_from([3, 4]),
)
def test_a_player_s_input_never_breaks_the_table_soak(
    stream: list[bytes], cuts: list[int], players: int, caplog: pytest.LogCaptureFixture
) -> None:
    test_a_player_s_input_never_breaks_the_table.hypothesis.inner_test(stream, cuts, players, caplog)  # type: ignore[attr-defined]
