"""Who is seen, the witness call and exoneration (note 9.6).

A character is seen iff it stands on a street hex that is not a park (with ``park_hides``)
and some geometric neighbour holds a lit gas-lamp tile or any character (a character on a quay
counts). Characters on quays, Liberty Island or parks are unseen. At the end of each round the
witness reports whether Mr. Jack is seen; the characters on the other side of that line are
innocent.
"""

from __future__ import annotations

from gamehall.rules.mrjack.board import neighbours
from gamehall.rules.mrjack.characters import COLOURS
from gamehall.rules.mrjack.state import BoardState, is_street


def is_seen(board: BoardState, colour: str, *, park_hides: bool = True) -> bool:
    """Whether the character ``colour`` is seen where it stands now."""
    where = board.figures[colour]
    if not is_street(where) or (park_hides and board.is_park(where)):
        return False
    occupied = board.occupied()
    return any(board.is_lamp(n) or n in occupied for n in neighbours(where))


def seen_colours(board: BoardState, *, park_hides: bool = True) -> frozenset[str]:
    """Every colour that is seen now."""
    return frozenset(c for c in COLOURS if is_seen(board, c, park_hides=park_hides))


def innocents(board: BoardState, jack: str, *, park_hides: bool = True) -> tuple[bool, frozenset[str]]:
    """The witness call: whether Mr. Jack is seen, and the characters it clears (9.6).

    Jack seen: every unseen character is innocent. Jack unseen: every seen one is.
    """
    seen = seen_colours(board, park_hides=park_hides)
    jack_seen = jack in seen
    cleared = frozenset(c for c in COLOURS if (c in seen) != jack_seen)
    return jack_seen, cleared
