"""A player's game commands: answers and pre-commands to the pending request (note 5.6, 8).

Precedence (note 8): an unknown keyword or a spectator's game command is FEHLER 30; then 26
(the game is not running) or 17 (no request pending for this player); then 30 for a keyword
that does not answer the pending request; then the line's syntax (21, 14, 22); then the
engine's own checks, whose RuleError carries the seed's number. Exactly one FEHLER per line,
and a refused line changes nothing.

Multi-line client blocks (``GEN_KAUFEN ... GEN_KAUFEN_ENDE``, and the phase-4 ``AMOEBE_SETZEN
... AMOEBE_SETZEN_ENDE``) are collected here and sent to the engine whole at their ``_ENDE``
line; a syntax error discards the block at the bad line, a rule error is reported at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from gamehall.protocols._core import HallError
from gamehall.protocols.urserver.commands import (
    ANSWERS,
    GAME_KEYWORDS,
    DivisionBlock,
    Fehler,
    GeneBlock,
    action_for,
    parse_game_line,
)
from gamehall.rules._core import Action, RuleError
from gamehall.rules.ursuppe import actions as act
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.errors import error_number

if TYPE_CHECKING:
    from gamehall.protocols.urserver.dialogue import UrDialogue

GENE_BLOCK_KEYWORDS: Final = frozenset({"GEN", "GEN_KAUFEN_ENDE"})
DIVISION_BLOCK_KEYWORDS: Final = frozenset({"AMOEBE_SETZEN", "AMOEBE_SETZEN_ENDE"})


class GameInput:
    """The game commands of one connection (see the module docstring)."""

    def __init__(self, dialogue: UrDialogue) -> None:
        self.d = dialogue
        self.block: GeneBlock | DivisionBlock | None = None
        self._setup_placed = False
        self.prompted: str | None = None
        """The kind of the last request this player was sent."""
        self.timed_out: str | None = None
        """The kind of the last request of this player that timed out (a late answer to it
        gets FEHLER 17, note 9)."""
        self._engine_refused = False
        """Whether the current line's FEHLER came from the engine (the room counted it)."""

    def block_open(self) -> bool:
        return self.block is not None

    def block_keywords(self) -> frozenset[str]:
        return GENE_BLOCK_KEYWORDS if isinstance(self.block, GeneBlock) else DIVISION_BLOCK_KEYWORDS

    def discard_block(self) -> None:
        self.block = None

    def line(self, keyword: str, params: list[str]) -> None:
        """One line that is not an "always" command, in a game. A FEHLER the engine did not
        give is told to the hall as a refused input (contests count them, docs/contest.md)."""
        self._engine_refused = False
        try:
            self._line(keyword, params)
        except Fehler as exc:
            d = self.d
            if not self._engine_refused and d.session is not None and d.game is not None and d.game.room_id:
                d.session.refused(d.game.room_id, f"fehler_{exc.number}")
            raise

    def _line(self, keyword: str, params: list[str]) -> None:
        d = self.d
        just_placed, self._setup_placed = self._setup_placed, False
        if keyword not in GAME_KEYWORDS or d.colour is None:
            raise Fehler(30)
        game = d.game
        assert game is not None
        if self.block is not None:
            self._block_line(keyword, params, game.players)
            return
        if keyword == "AMOEBE_SETZEN_ENDE" and just_placed and not params:
            return  # the stray end line after a setup placement (note 5.6)
        table = game.table
        if not table.started or table.finished:
            raise Fehler(26)
        to_move = table.to_move()
        if d.colour not in to_move.seats:
            raise Fehler(17)
        kind = str(to_move.kind)
        if keyword not in ANSWERS.get(kind, frozenset()):
            late = self.timed_out is not None and keyword in ANSWERS.get(self.timed_out, frozenset())
            raise Fehler(17 if late else 30)
        line = parse_game_line(keyword, params, game.players)
        if kind == "ZUG_GEN_KAUFEN":
            self.block = GeneBlock()
            return
        if kind == "ZUG_AMOEBE_SETZEN":
            if not self._setup_request():
                if keyword == "AMOEBE_SETZEN":
                    block = DivisionBlock()
                    block.add(line)
                    self.block = block
                else:
                    self._act(act.AmoebenSetzen())
                return
            if keyword == "AMOEBE_SETZEN_ENDE":
                raise Fehler(30)
        self._act(action_for(line))
        self._setup_placed = keyword == "AMOEBE_SETZEN"

    def _setup_request(self) -> bool:
        game, seat = self.d.game, self.d.colour
        assert game is not None and seat is not None
        prompts = game.table.resync(seat)
        return bool(prompts) and isinstance(prompts[0], ev.ZugAmoebeSetzen) and prompts[0].aufbau

    def _block_line(self, keyword: str, params: list[str], players: int) -> None:
        block = self.block
        line = parse_game_line(keyword, params, players)
        if keyword in ("GEN", "AMOEBE_SETZEN"):
            assert block is not None
            block.add(line)
            return
        assert block is not None
        self.block = None
        self._act(block.action())

    def _act(self, action: Action) -> None:
        d = self.d
        assert d.session is not None and d.game is not None and d.game.room_id is not None
        self.timed_out = None
        try:
            d.session.act(d.game.room_id, action)
        except RuleError as exc:
            self._engine_refused = True  # the room counted it already
            raise Fehler(error_number(exc) or 22, exc.reason) from None
        except HallError as exc:
            raise Fehler(26, exc.reason) from None
