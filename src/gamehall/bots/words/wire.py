"""JDuplicate wire bots: players of duplicate, scrabble and boggle over TCP, in 0.2 or 1.0.

Two layers, as the other wire bots:

- :class:`WordsWirePlayer` is sans-I/O: it reads server messages (:mod:`gamehall.protocols.
  jduplicate.messages`) and answers with the client messages to send, keeping what a client
  must know (the board, its rack, the grid, the game's state). Moves come from the shared
  chooser (:func:`~gamehall.bots.words.choose.choose_move`): ``strength`` 1.0 plays the top,
  lower picks among the best few. Boggle words come from :func:`~.grid.grid_words`.
- :class:`WordsWireBot` runs one player over a socket (``writeUTF`` frames through
  :class:`~gamehall.protocols.jduplicate.codec.JDuplicateCodec`), pacing its writes under the
  server's flood limit (50 frames per 10 s). :func:`run_bots` runs a table of them: the first
  creates the game, the others join it, the creator starts once everybody is seated.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from gamehall.bots.reconnect import play_reconnecting
from gamehall.bots.words.choose import choose_move, move_tiles
from gamehall.bots.words.grid import best_first, grid_words
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate.codec import JDuplicateCodec, Side
from gamehall.protocols.jduplicate.errors import ErrorCode
from gamehall.protocols.jduplicate.outbound import engine_tile, wire_tile
from gamehall.rules.words.board import Board
from gamehall.rules.words.letters import LETTER_SETS
from gamehall.rules.words.letters import Tile as BoardTile
from gamehall.rules.words.lexicon import Lexicon
from gamehall.rules.words.settings import PRESETS, shared_lexicon

log = logging.getLogger(__name__)

CLIENT_NAME: Final = "gamehall words bot"
CLIENT_VERSION: Final = "1.0"
WRITE_INTERVAL_S: Final = 0.25
"""At most 40 frames per 10 s: under the server's flood limit of 50."""
BOGGLE_WORDS_PER_ROUND: Final = 12
REFUSED_RETRY_S: Final = 0.5
"""The pause before trying again after the server refused a login back into the game."""


def strength_of(policy: str) -> float:
    """``heuristic`` (or ``top``) plays the top; ``random`` picks among the best few."""
    return 1.0 if policy in ("heuristic", "top") else 0.5


@dataclass(slots=True)
class GameSpec:
    """The game a creating bot asks for (CREATEGAMEREQUEST)."""

    name: str
    code: str = "DupEN"
    time_per_turn: int = 30
    max_players: int = 4
    players: int = 1
    """Seated players the creator waits for before STARTGAMEREQUEST."""


@dataclass(slots=True)
class BotResult:
    """What one bot saw of its game."""

    name: str
    turns: int = 0
    moves_sent: int = 0
    errors: list[str] = field(default_factory=list)
    end_reason: str = ""
    ranking: tuple[tuple[str, int], ...] = ()
    top_total: int = 0


class WordsWirePlayer:
    """One JDuplicate client's mind (see the module docstring)."""

    def __init__(
        self,
        name: str,
        version: m.Version,
        *,
        create: GameSpec | None = None,
        join: str | None = None,
        strength: float = 1.0,
        rng: random.Random | None = None,
        lexicon: Lexicon | None = None,
    ) -> None:
        self.name = name
        self.version = version
        self.create = create
        self.join = join
        self.strength = strength
        self.rng = rng or random.Random(0)
        self._lexicon = lexicon
        self.result = BotResult(name)
        self.board = Board.empty()
        self.rack: tuple[str, ...] = ()
        self.grid: tuple[str, ...] = ()
        self.rules = ""
        self.dictionary = ""
        self.letters = LETTER_SETS["EN"]
        self.operator = ""
        self.players: tuple[str, ...] = ()
        self.in_game = False
        self.started = False
        self.finished = False
        self.turn_open = False
        self.done = False
        self.rejoining = False
        """Logging in again after a lost connection while seated: the server puts the player
        back into its game by itself (docs/recovery.md), so no create or join is sent."""
        self.refused: int | None = None
        """The error code that refused this connection's login back into the game: the
        connection is given up and tried again, as a player would. On a hall of several nodes
        a name stays in use for up to a lease ttl after its node died, until the hall knows
        that node is gone (docs/scale-out.md, "Failover and drain"); JDuplicate keeps such a
        connection open, unnamed, so the bot must close it itself."""

    def connection_lost(self) -> None:
        """The connection went away before the game's end: the next login is a rejoin when
        the player had a seat (else it creates or joins afresh)."""
        self.rejoining = self.in_game
        self.turn_open = False
        self.refused = None

    def hello(self) -> list[m.ClientMessage]:
        return [m.PlayerName(self.name), m.ClientType(CLIENT_NAME, CLIENT_VERSION, self.version.value)]

    @property
    def lexicon(self) -> Lexicon:
        if self._lexicon is None:
            self._lexicon = shared_lexicon(self.dictionary or "english")
        return self._lexicon

    def receive(self, message: m.ServerMessage) -> list[m.ClientMessage]:
        """The messages to send in answer to ``message`` (often none)."""
        if isinstance(message, m.PredefGames):
            return self._logged_in()
        if isinstance(message, m.GameInfos):
            return self._game_infos(message)
        if isinstance(message, m.Error):
            if self.rejoining and message.code == ErrorCode.NAME_IN_USE:
                self.refused = message.code  # not back yet: see ``refused``
                return []
            self.result.errors.append(f"{message.code}#{message.parameter}")
            if self.rules == "scrabble" and self.turn_open and message.code >= 60100:
                return [m.Moves(())]  # our move was refused: pass instead
            return []
        if isinstance(message, m.Board):
            if self.rules == "boggle":
                return self._boggle_round(message)
            self.board = Board.empty().with_tiles(
                ((r, c), BoardTile(g.upper(), blank=g.islower()))
                for r, c, g in (engine_tile(t) for t in message.tiles)
            )
            return []
        if isinstance(message, m.Hand):
            self.rack = tuple("?" if letter == "*" else letter for letter in message.letters)
            return self._duplicate_move() if self.rules == "duplicate" and self.turn_open else []
        if isinstance(message, m.StartOfTurn):
            self.turn_open = True
            self.result.turns += 1
            if self.rules == "scrabble" and message.player == self.name:
                return self._scrabble_move()
            return []
        if isinstance(message, m.EndOfTurn):
            self.turn_open = False
            if self.rules != "boggle":
                placed = [engine_tile(t) for t in message.tiles]
                self.board = self.board.with_tiles(
                    ((r, c), BoardTile(g.upper(), blank=g.islower()))
                    for r, c, g in placed
                    if self.board[r, c] is None
                )
            return []
        if isinstance(message, m.WaitingForStartTurn):
            return [m.StartTurnRequest()] if self.operator == self.name else []
        if isinstance(message, m.EndOfGame):
            self.finished = True
            self.result.end_reason = message.reason.value
            self.result.top_total = message.toptotal
            self.result.ranking = tuple((p.player, p.total) for p in message.ranking)
            self.done = True
            return [m.LeaveGameRequest("good game"), m.Disconnect("bye")]
        return []

    # ------------------------------------------------------------------ the hall

    def _logged_in(self) -> list[m.ClientMessage]:
        if self.rejoining:
            self.rejoining = False
            return []
        spec = self.create
        if spec is not None:
            return [m.CreateGameRequest(spec.name, spec.time_per_turn, spec.code, spec.max_players, "bots")]
        return [m.JoinGameRequest(self.join)] if self.join else []

    def _game_infos(self, infos: m.GameInfos) -> list[m.ClientMessage]:
        wanted = self.create.name if self.create is not None else self.join
        if infos.name != wanted:
            return []
        self.rules = infos.rules.value
        self.dictionary = infos.dictionary
        self.operator = infos.operator
        self.players = infos.players
        self.in_game = self.name in infos.players
        preset = PRESETS.get(self.create.code if self.create else "")
        if preset is not None:
            self.letters = LETTER_SETS[preset.letters]
        elif infos.dictionary == "francais":
            self.letters = LETTER_SETS["FR"]
        spec = self.create
        if (
            spec is not None
            and not self.started
            and infos.state is m.GameState.WAITING
            and len(infos.players) >= spec.players
        ):
            self.started = True
            return [m.StartGameRequest()]
        return []

    # ------------------------------------------------------------------ moves

    def _chosen(self) -> m.Moves | None:
        move = choose_move(self.board, self.rack, self.lexicon, self.rng, self.strength, self.letters)
        if move is None:
            return None
        self.result.moves_sent += 1
        return m.Moves(tuple(wire_tile(*t) for t in move_tiles(move)))

    def _duplicate_move(self) -> list[m.ClientMessage]:
        move = self._chosen()
        return [move] if move is not None else []

    def _scrabble_move(self) -> list[m.ClientMessage]:
        move = self._chosen()
        return [move if move is not None else m.Moves(())]

    def _boggle_round(self, board: m.Board) -> list[m.ClientMessage]:
        if not board.tiles:
            return []
        width = max(t.x for t in board.tiles)
        height = max(ord(t.y) - ord("A") + 1 for t in board.tiles)
        cells = [["."] * width for _ in range(height)]
        for tile in board.tiles:
            cells[ord(tile.y) - ord("A")][tile.x - 1] = tile.glyph
        self.grid = tuple("".join(row) for row in cells)
        words = grid_words(self.grid, self.lexicon)
        ranked = best_first(words)
        if self.strength < 1.0:
            self.rng.shuffle(ranked)
        chosen = ranked[:BOGGLE_WORDS_PER_ROUND]
        self.result.moves_sent += len(chosen)
        return [m.Moves(tuple(wire_tile(*cell) for cell in words[word])) for word in chosen]


class WordsWireBot:
    """One :class:`WordsWirePlayer` over TCP (see the module docstring)."""

    def __init__(
        self,
        host: str,
        port: int,
        player: WordsWirePlayer,
        *,
        write_interval_s: float = WRITE_INTERVAL_S,
        reconnect_s: float = 60.0,
    ) -> None:
        self.host = host
        self.port = port
        self.player = player
        self.reconnect_s = reconnect_s
        """How long a bot whose connection was lost keeps trying to get back (the server's
        default grace is 60 s)."""
        self.reconnects = 0
        self.codec = JDuplicateCodec(player.version, side=Side.CLIENT)
        self._write_interval_s = write_interval_s
        self.received: list[m.ServerMessage] = []

    async def run(self) -> BotResult:
        """Log in, play until the game ends, leave. Returns what the bot saw. A connection
        lost before the end (the server restarted, the network broke) is not the end: the bot
        logs in again under its name and the server puts it back into its game (docs/
        recovery.md), for up to ``reconnect_s`` seconds.

        Raises:
            OSError: the server cannot be reached at the start.
        """
        self.reconnects += await play_reconnecting(
            self.host,
            self.port,
            self._connection,
            finished=lambda: self.player.done,
            lost=self.player.connection_lost,
            reconnect_s=self.reconnect_s,
        )
        return self.player.result

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """One connection, until the game is done, the connection closes or the login back
        into the game is refused. Returns whether the server said anything (a relay in front
        of a server that is not back yet accepts and closes at once) and did not refuse the
        login (:attr:`WordsWirePlayer.refused`)."""
        self.codec = JDuplicateCodec(self.player.version, side=Side.CLIENT)
        heard = len(self.received)
        outbox: asyncio.Queue[m.ClientMessage | None] = asyncio.Queue()
        sender = asyncio.create_task(self._send_loop(writer, outbox))
        try:
            for greeting in self.player.hello():
                outbox.put_nowait(greeting)
            while not self.player.done and self.player.refused is None:
                try:
                    data = await reader.read(65536)
                except ConnectionError:
                    break
                if not data:
                    break
                self.codec.receive_data(data)
                while True:
                    decoded = self.codec.next_message()
                    if decoded is NEED_DATA:
                        break
                    incoming: m.ServerMessage = decoded  # type: ignore[assignment]
                    self.received.append(incoming)
                    for answer in self.player.receive(incoming):
                        outbox.put_nowait(answer)
            if self.player.done:
                outbox.put_nowait(None)
                with contextlib.suppress(ConnectionError):
                    await sender
        finally:
            sender.cancel()
            writer.close()
            try:
                await writer.wait_closed()
            except OSError:
                log.debug("words bot %s: close failed", self.player.name)
        if self.player.refused is not None:
            await asyncio.sleep(REFUSED_RETRY_S)
            return False  # not back yet: the reconnect window keeps running
        return len(self.received) > heard

    async def _send_loop(
        self, writer: asyncio.StreamWriter, outbox: asyncio.Queue[m.ClientMessage | None]
    ) -> None:
        while True:
            message = await outbox.get()
            if message is None:
                return
            writer.write(self.codec.encode(message))
            try:
                await writer.drain()
            except ConnectionError:
                return  # the reading side sees the loss and reconnects
            await asyncio.sleep(self._write_interval_s)


async def run_bots(
    host: str,
    port: int,
    count: int,
    *,
    names_prefix: str = "bot",
    policy: str | Sequence[str] = "heuristic",
    code: str = "DupEN",
    time_per_turn: int = 30,
    versions: Sequence[m.Version] = (m.Version.V02, m.Version.V10),
    seed: int | None = None,
    write_interval_s: float = WRITE_INTERVAL_S,
) -> list[BotResult]:
    """``count`` bots play one game of ``code`` together: bot 1 creates it (named after it) and
    starts it once all are seated; the others join. Versions alternate over ``versions``, and
    policies over ``policy`` when it is a list (``heuristic``: the top; ``random``: a pick
    among the best few)."""
    policies = [policy] if isinstance(policy, str) else list(policy)
    master = random.Random(seed)
    game_name = f"{names_prefix}1's game"
    spec = GameSpec(game_name, code, time_per_turn, max(count, 1), count)
    bots = []
    for number in range(1, count + 1):
        player = WordsWirePlayer(
            f"{names_prefix}{number}",
            versions[(number - 1) % len(versions)],
            create=spec if number == 1 else None,
            join=None if number == 1 else game_name,
            strength=strength_of(policies[(number - 1) % len(policies)]),
            rng=random.Random(master.random()),
        )
        bots.append(WordsWireBot(host, port, player, write_interval_s=write_interval_s))
    first = asyncio.create_task(bots[0].run())
    await asyncio.sleep(0.5)  # the game exists before the others ask to join it
    rest = [asyncio.create_task(bot.run()) for bot in bots[1:]]
    return list(await asyncio.gather(first, *rest))
