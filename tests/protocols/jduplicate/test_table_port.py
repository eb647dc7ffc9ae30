"""JDuplicate reads its game through a typed, read-only port (protocols/jduplicate/table.py), as
cg does (cg/table.py): BOARD comes from ``WordsPort.board_glyphs`` and ``grid_rows``, never from
the engine's attributes."""

from __future__ import annotations

import pytest
from recording_listener import RecordingListener
from toy_game import TOY
from words_modes_support import enable_slice, fire, table

from gamehall.hall import FakeClock, Hall
from gamehall.protocols._core import HallError
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.outbound import board, wire_tile
from gamehall.protocols.jduplicate.table import WordsPort, words
from gamehall.rules.words import GAME_TYPE as WORDS
from gamehall.store.memory import MemoryStore


def test_board_shows_the_tiles_the_tops_left_on_a_duplicate_table() -> None:
    game, _ = table({"preset": "DupEN"}, lexicon=enable_slice())
    port: WordsPort = game
    assert board(port) == m.Board(())
    for _ in range(6):
        if port.board_glyphs():
            break
        fire(game)
    glyphs = port.board_glyphs()
    assert glyphs
    assert board(port) == m.Board(tuple(wire_tile(r, c, glyph) for (r, c), glyph in glyphs))
    assert port.board_glyphs() == glyphs  # reading changes nothing


def test_board_shows_the_boggle_grid_only_while_a_round_runs() -> None:
    waiting, _ = table({"preset": "BogEN"}, start=False)
    assert waiting.grid_rows() == () and board(waiting) == m.Board(())
    game, _ = table({"preset": "BogEN"})
    rows = game.grid_rows()
    assert rows and len(board(game).tiles) == sum(len(row) for row in rows)
    for _ in range(2):  # the turn's time, then the grace: the round closes
        fire(game)
    assert game.grid_rows() == () and board(game) == m.Board(())


def test_a_room_that_is_not_a_words_table_is_not_jduplicates() -> None:
    hall = Hall(games={"toy": TOY, "words": WORDS}, store=MemoryStore(), clock=FakeClock())
    alice = hall.login("alice", RecordingListener(), protocol="test")
    room_id = alice.create_room("toy").room_id
    with pytest.raises(HallError) as refused:
        words(hall.room(room_id))
    assert refused.value.code == "no_such_room"
