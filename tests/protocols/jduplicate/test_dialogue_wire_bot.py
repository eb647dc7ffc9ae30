"""The JDuplicate wire bots' mind (``gamehall.bots.words.wire.WordsWirePlayer``) against the
real dialogue, in process: one bot in 0.2 creates and starts the game, one in 1.0 joins, both
play to the end without a single ERROR (the over-TCP games are in ``tests/e2e``)."""

from __future__ import annotations

import random

from jduplicate_dialogue_support import V02, V10, JdClient, JdHarness

from gamehall.bots.words.wire import GameSpec, WordsWirePlayer
from gamehall.rules.words.lexicon import Lexicon

EVERY_WORD = Lexicon.from_words(["BISE", "BISES", "ASK", "BIT", "BITS", "RUT", "RUTS", "TUB", "TUBS", "SUB"])


def play(harness: JdHarness, bots: list[tuple[JdClient, WordsWirePlayer]], *, max_steps: int = 400) -> None:
    """Pass messages both ways until both bots are done, moving the clock when all is quiet."""
    for client, player in bots:
        client.send(*player.hello())
    for _ in range(max_steps):
        if all(player.done for _, player in bots):
            return
        quiet = True
        for client, player in bots:
            for message in client.take_messages():
                answers = player.receive(message)
                if answers and not client.closed:
                    quiet = False
                    client.send(*answers)
        if quiet:
            harness.advance(1)
    raise AssertionError("the bots did not finish")


def test_two_wire_bots_play_a_duplicate_game_with_the_dialogue() -> None:
    harness = JdHarness(bags=["BIS?RTU"], lexicon=EVERY_WORD)
    spec = GameSpec("bots", "DupEN", 30, 2, players=2)
    creator = WordsWirePlayer("b1", V02, create=spec, lexicon=EVERY_WORD, rng=random.Random(1))
    joiner = WordsWirePlayer("b2", V10, join="bots", lexicon=EVERY_WORD, rng=random.Random(2))
    # b1 reads its login first, so the game exists when b2 asks to join it
    play(harness, [(harness.connect("b1", V02), creator), (harness.connect("b2", V10), joiner)])
    assert creator.result.errors == [] and joiner.result.errors == []
    assert creator.result.end_reason == "bag"
    top = creator.result.top_total
    assert top > 0 and creator.result.ranking == (("b1", top), ("b2", top))
    assert joiner.result.ranking == creator.result.ranking
