"""Word-game bots (duplicate, scrabble, boggle): the in-hall policy and the shared chooser."""

from gamehall.bots.words.choose import choose_move, move_tiles
from gamehall.bots.words.policy import STYLES, WordsPolicy

__all__ = ["STYLES", "WordsPolicy", "choose_move", "move_tiles"]
