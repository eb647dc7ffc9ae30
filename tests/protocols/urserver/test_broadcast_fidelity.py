"""Wire fidelity found by an independent client (issue 10 item 8, note §5.3): every STATUS block
lists every spectator, the asking one and browser spectators included, and every connection in a
game sees the same broadcast lines in the same order."""

from __future__ import annotations

from recording_listener import RecordingListener
from urserver_support import UrClient, UrHarness, answer_default, seat_of

ADDRESSED = ("ZUG_", "FEHLER", "SPIELERIN_AKZEPTIERT", "PRIVAT_NACHRICHT")
"""Lines for one connection only: requests, errors, one's own acceptance, private chat."""


def spectators_in(block: list[str]) -> list[str]:
    return [line.split(" ", 1)[1] for line in block if line.startswith("ZUSCHAUERIN ")]


def broadcasts(client: UrClient) -> list[str]:
    lines = client.lines()
    start = lines.index("SPIEL_BEGINNT")
    return [line for line in lines[start:] if not line.startswith(ADDRESSED)]


def test_every_status_block_lists_every_spectator_and_everyone_sees_the_same_broadcasts() -> None:
    harness = UrHarness()
    harness.new_game()
    eve = harness.connect("eve")
    eve.send("ZUSCHAUEN soup1", "NAME eve")
    anna = harness.join("anna")
    game = harness.services.lobby.find("soup1")
    assert game is not None and game.room_id is not None
    harness.hall.login("Web Watch", RecordingListener(), protocol="web").spectate(game.room_id)
    bert = harness.join("bert")
    tom = harness.connect("tom")
    tom.send("ZUSCHAUEN soup1", "NAME tom")
    everyone = ["Web_Watch", "eve", "tom"]
    for client in (eve, anna, bert, tom):
        assert spectators_in(client.ask("STATUS")) == everyone, client.name
    assert spectators_in(harness.connect("lobby").ask("STATUS soup1")) == everyone
    cleo = harness.join("cleo")
    players = [anna, bert, cleo]
    for step in range(80):
        assert answer_default(harness, players)
        if step % 20 == 5:
            players[step % 3].send(f"NACHRICHT hallo {step}")
    seen = {c.name: broadcasts(c) for c in (anna, bert, cleo, eve, tom)}
    assert spectators_in(seen["tom"]) == everyone  # the SPIEL_BEGINNT block
    reference = seen["eve"]
    assert len(reference) > 50
    for name, lines in seen.items():
        senders = {str(seat_of(c)) for c in players if c.name == name}
        expected = [
            line for line in reference if not (line.startswith("NACHRICHT ") and line.split()[1] in senders)
        ]
        assert lines == expected, name  # the sender alone misses its own chat (note §5.2)
