"""The Mr. Jack wire player (the bots' sans-I/O brain) against the real dialogue in process:
whole games in both wire styles without a single ``err``, its board kept in step with the
engine's from the updates alone, the detective-mode round end, and several games in a row."""

from __future__ import annotations

import random
from typing import Any

import pytest
from mrjack_wire_support import JackHarness, TermClient

from gamehall.bots.mrjack import MrJackPolicy
from gamehall.bots.mrjack.player import WirePlayer
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.mrjack.codec import Received, TermCodec
from gamehall.protocols.mrjack.terms import Style, print_line


def play(
    h: JackHarness, players: list[WirePlayer], check: Any = None, limit: int = 20_000
) -> dict[str, TermClient]:
    """Connect one client per player and let them talk until nobody has anything to send."""
    clients = {p.nick: h.connect(p.nick) for p in players}
    codecs = {p.nick: TermCodec(h.style) for p in players}
    read = dict.fromkeys(clients, 0)
    for _ in range(limit):
        sent = False
        for player in players:
            client = clients[player.nick]
            for data in client.wire.writes[read[player.nick] :]:
                read[player.nick] += 1
                codecs[player.nick].receive_data(data)
                while (message := codecs[player.nick].next_message()) is not NEED_DATA:
                    assert isinstance(message, Received)
                    for command in player.receive(message.command):
                        client.send(print_line(command, h.style))
                        sent = True
                    if check is not None:
                        check(player)
        if not sent:
            return clients
    raise AssertionError("the players did not finish")


@pytest.mark.parametrize("style", list(Style), ids=[s.value for s in Style])
@pytest.mark.parametrize("seed", range(4))
def test_two_wire_players_finish_a_game_without_an_err(style: Style, seed: int) -> None:
    h = JackHarness(setup=None, seed=seed, style=style)
    players = [
        WirePlayer("jacky", "mrjack", MrJackPolicy("heuristic"), random.Random(seed)),
        WirePlayer("sherlock", "detektiv", MrJackPolicy("random"), random.Random(seed)),
    ]
    clients = play(h, players)
    assert [p.errors for p in players] == [[], []]
    assert players[0].winners == players[1].winners and len(players[0].winners) == 1
    assert all(client.closed for client in clients.values())  # both quit after their game


def test_the_players_board_follows_the_engines_board_from_the_updates_alone() -> None:
    compared = 0
    for seed in range(3, 8):
        h = JackHarness(setup=None, seed=seed)
        players = [
            WirePlayer("jacky", "mrjack", MrJackPolicy("heuristic"), random.Random(seed)),
            WirePlayer("sherlock", "detektiv", rng=random.Random(seed + 1)),
        ]

        def check(player: WirePlayer, h: JackHarness = h) -> None:
            nonlocal compared
            if not h.games() or player.view.get("phase") not in ("aktiv", "aktion"):
                return  # between Teilzüge every update of the last one has arrived
            board = h.game().view(None)["board"]
            mine = player.view["board"]
            assert mine["figures"] == board["figures"]
            assert mine["tiles"] == board["tiles"]
            assert sorted(mine["steamers"]) == sorted(board["steamers"])
            assert sorted(map(sorted, mine["investigation"])) == sorted(map(sorted, board["investigation"]))
            assert mine["supply"] == board["supply"]
            compared += 1

        play(h, players, check)
    assert compared > 30


def test_detective_mode_the_detective_says_fertig_after_each_witness_call() -> None:
    h = JackHarness(setup=None, seed=2, round_end_mode="detective")
    players = [
        WirePlayer("jacky", "mrjack", rng=random.Random(1), detective_marks=True),
        WirePlayer("sherlock", "detektiv", rng=random.Random(2), detective_marks=True),
    ]
    clients = play(h, players)
    assert [p.errors for p in players] == [[], []]
    sent = [line for line in clients["sherlock"].lines() if line == "ende(runde)."]
    assert sent and len(players[0].winners) == 1


def test_a_player_plays_several_games_in_a_row() -> None:
    h = JackHarness(setup=None, seed=4)
    players = [
        WirePlayer("jacky", "mrjack", rng=random.Random(5), games=3),
        WirePlayer("sherlock", "detektiv", rng=random.Random(6), games=3),
    ]
    play(h, players)
    assert [len(p.winners) for p in players] == [3, 3]
    assert [p.errors for p in players] == [[], []]


def test_with_other_rule_options_a_refused_aktion_is_followed_by_another_choice() -> None:
    h = JackHarness(setup=None, seed=6, min_move=0, monk_own_move=True, ability_skip="always")
    players = [
        WirePlayer("jacky", "mrjack", MrJackPolicy("random"), random.Random(1)),
        WirePlayer("sherlock", "detektiv", MrJackPolicy("random"), random.Random(2)),
    ]
    play(h, players)
    assert len(players[0].winners) == 1
    assert all(e.startswith("Aktion ist ungültig") for p in players for e in p.errors)
