"""The login sequences of the lobby: NEU (4 lines), TEILNEHMEN (3), ZUSCHAUEN (2) (note 5.1).

Each sequence checks its lines in order; the wrong next keyword is FEHLER 13, and any FEHLER
ends the sequence (the dialogue then returns to the lobby). Names and passwords are cut after
15 characters and then must use only ``a-z A-Z 0-9 _`` (13). The last line does the work:
NEU registers the game (its hall room is created at once, so STATUS has a table to show),
TEILNEHMEN takes a seat, ZUSCHAUEN starts watching.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from gamehall.protocols._core import HallError, HallPort, RoomInfo, Session, served_here
from gamehall.protocols.urserver import render
from gamehall.protocols.urserver.commands import Fehler
from gamehall.protocols.urserver.lobby import MAX_SPECTATORS, UrGame, max_games
from gamehall.protocols.urserver.table import ListedUrsuppe, UrsuppePort, ursuppe
from gamehall.rules._core import RuleError

if TYPE_CHECKING:
    from gamehall.protocols.urserver.dialogue import UrDialogue

NAME_LENGTH: Final = 15
TIMEOUT_MIN_MS: Final = 100
TIMEOUT_MAX_MS: Final = 3_600_000
GAME: Final = "ursuppe"

_INTEGER: Final = re.compile(r"-?[0-9]+")
_NAME: Final = re.compile(r"[A-Za-z0-9_]+")


def integer(token: str) -> int:
    """A decimal integer parameter (FEHLER 14 otherwise)."""
    if not _INTEGER.fullmatch(token):
        raise Fehler(14)
    return int(token)


def fixed_timeout(d: UrDialogue) -> int | None:
    """Tournament mode: the timeout the operator fixed for every game (``--set
    ursuppe.timeout_ms=...``), which replaces the NEU value (note 10); ``None`` when the
    operator left the default."""
    defaults = d.hall.game_defaults(GAME)
    schema_default = d.hall.game_types[GAME].schema.validate({})
    chosen = defaults.get("timeout_ms")
    if chosen == schema_default.get("timeout_ms") or not isinstance(chosen, int) or chosen <= 0:
        return None
    return chosen


def checked_name(params: list[str]) -> str:
    """A name or password parameter: exactly one token, cut after 15 characters, then only
    the seed's characters (13)."""
    if len(params) != 1:
        raise Fehler(21)
    name = params[0][:NAME_LENGTH]
    if not _NAME.fullmatch(name):
        raise Fehler(13)
    return name


def begin(d: UrDialogue, keyword: str, params: list[str]) -> None:
    """The first line of a sequence, in the lobby."""
    if len(params) != 1:
        raise Fehler(21)
    if keyword == "NEU":
        discover(d)  # the game count and the names include tables opened in the browser
        players = integer(params[0])
        if players not in (3, 4):
            raise Fehler(4)
        if len(d.lobby.games) >= max_games(d.hall):
            raise Fehler(15)
        sequence: Sequence = NewGame(players)
    else:
        game = named_game(d, params[0])
        if game is None:
            raise Fehler(27)
        if keyword == "TEILNEHMEN":
            if game.status == 2:
                raise Fehler(26)
            if (game.started or game.seated() >= game.players) and not held_seats(d, game):
                raise Fehler(28)
            sequence = Join(game)
        else:
            if game.status == 2:
                raise Fehler(26)
            if len(game.spectators) >= MAX_SPECTATORS:
                raise Fehler(28)
            sequence = Watch(game)
    d.begin_sequence(sequence)


def named_game(d: UrDialogue, name: str) -> UrGame | None:
    """The game a ``TEILNEHMEN`` or ``ZUSCHAUEN`` names. A game the lobby lists is checked on
    its own (its room looked up by id, and forgotten if :meth:`UrLobby.prune` would forget
    it); only a name the lobby does not list costs a look at every Ursuppe room (a table
    opened in the browser and not discovered yet), as ``LISTE`` does."""
    game = d.lobby.find(name)
    if game is not None and d.lobby.prune_one(game, room_live(d.hall, game.room_id)):
        game = None
    if game is None:
        discover(d)
        game = d.lobby.find(name)
    return game


class Sequence:
    """One sequence in progress: the keywords still expected."""

    expected: list[str]

    def line(self, d: UrDialogue, keyword: str, params: list[str]) -> None:
        if not self.expected or keyword != self.expected[0]:
            raise Fehler(13)
        self.expected.pop(0)
        self.take(d, keyword, params)

    def take(self, d: UrDialogue, keyword: str, params: list[str]) -> None:
        raise Fehler(13)


class NewGame(Sequence):
    """``NEU n``, ``NAME spielname``, ``PASSWORT [passwort]``, ``TIMEOUT ms``."""

    def __init__(self, players: int) -> None:
        self.expected = ["NAME", "PASSWORT", "TIMEOUT"]
        self.players = players
        self.name = ""
        self.password: str | None = None

    def take(self, d: UrDialogue, keyword: str, params: list[str]) -> None:
        if keyword == "NAME":
            self.name = checked_name(params)
            if d.lobby.find(self.name) is not None:
                raise Fehler(16)
        elif keyword == "PASSWORT":
            self.password = checked_name(params) if params else None
        else:
            if len(params) != 1:
                raise Fehler(21)
            timeout = integer(params[0])
            if not (timeout == 0 and not d.tournament) and not TIMEOUT_MIN_MS <= timeout <= TIMEOUT_MAX_MS:
                raise Fehler(22)
            fixed = fixed_timeout(d) if d.tournament else None
            self._create(d, timeout if fixed is None else fixed)

    def _create(self, d: UrDialogue, timeout: int) -> None:
        if d.lobby.find(self.name) is not None:
            raise Fehler(16)
        session = _login(d, f"urserver-{d.lobby.next_login_suffix()}")
        try:
            room_id, table = open_room(self.name, self.players, self.password, timeout, session)
        finally:
            session.logout(dropped=False)
        game = UrGame(self.name, self.players, self.password, timeout, table, room_id=room_id)
        d.lobby.add(game)
        d.end_sequence()
        d.send_lines([f"SPIEL_ANGEMELDET {self.name}"])


class Join(Sequence):
    """``TEILNEHMEN spielname``, ``PASSWORT passwort``, ``NAME spielerinName``."""

    def __init__(self, game: UrGame) -> None:
        self.expected = ["PASSWORT", "NAME"]
        self.game = game
        self.given_password: str | None = None

    def take(self, d: UrDialogue, keyword: str, params: list[str]) -> None:
        game = self.game
        if keyword == "PASSWORT":
            if len(params) > 1:
                raise Fehler(21)
            given = params[0][:NAME_LENGTH] if params else None
            if game.password is not None and given != game.password:
                raise Fehler(8)
            self.given_password = given
            return
        name = checked_name(params)
        if d.lobby.find(game.name) is not game:
            raise Fehler(27)
        if game.status == 2:
            raise Fehler(26)
        if game.elsewhere:
            raise Fehler(28)  # listed, but another node of the hall holds the game
        held = held_seats(d, game).get(name)
        if held is not None:
            rejoin(d, game, held, name)
            return
        if game.started or game.seated() >= game.players:
            raise Fehler(28)
        if game.name_taken(name):
            raise Fehler(16)
        password = game.password if not game.locked else self.given_password
        if d.after_password_work(password_work(d, game, password), lambda: self.take(d, keyword, params)):
            return
        session, hall_name = _login_as(d, name)
        d.end_sequence()
        d.enter(game, session, hall_name, name, spectator=False)
        try:
            ensure_room(d, game, session)
            session.join(str(game.room_id), game.password if not game.locked else self.given_password)
        except (HallError, RuleError) as exc:
            d.back_to_lobby()
            raise Fehler(8 if isinstance(exc, HallError) and exc.code == "wrong_password" else 28) from None
        d.set_spectators_seen(session.room(str(game.room_id)).info().spectators)


class Watch(Sequence):
    """``ZUSCHAUEN spielname``, ``NAME zuschauerinName``; then the STATUS and SPIELFELD blocks."""

    def __init__(self, game: UrGame) -> None:
        self.expected = ["NAME"]
        self.game = game

    def take(self, d: UrDialogue, keyword: str, params: list[str]) -> None:
        game = self.game
        name = checked_name(params)
        if d.lobby.find(game.name) is not game:
            raise Fehler(27)
        if game.status == 2:
            raise Fehler(26)
        if game.elsewhere or len(game.spectators) >= MAX_SPECTATORS:
            raise Fehler(28)
        if game.name_taken(name):
            raise Fehler(16)
        work = password_work(d, game, game.password)
        if d.after_password_work(work, lambda: self.take(d, keyword, params)):
            return
        session, hall_name = _login_as(d, name)
        d.end_sequence()
        d.enter(game, session, hall_name, name, spectator=True)
        try:
            ensure_room(d, game, session)
            session.spectate(str(game.room_id), game.password)
        except (HallError, RuleError) as exc:
            d.back_to_lobby()
            raise Fehler(8 if isinstance(exc, HallError) and exc.code == "wrong_password" else 28) from None
        view = game.table.view(None)
        d.send_lines([*d.status_block(game, view), *render.spielfeld_block(view)])


# -- rejoin (note 5.1, "Rejoin -- Decision (ours), 2026-12"; docs/recovery.md) ------------------


def held_seats(d: UrDialogue, game: UrGame) -> dict[str, tuple[int, str]]:
    """The seats of ``game`` the hall holds for a player who is gone (a dropped connection, or
    every seat after a restart), as wire name -> (colour, hall name). Only these can be
    retaken, and only under their own name: the name is the seat's owner on this protocol,
    which has no accounts."""
    if game.room_id is None or game.status == 2:
        return {}
    info = d.hall.room_info(game.room_id)
    if info is None:
        return {}
    return {
        game.wire_name_of(info.seats[seat]): (seat, info.seats[seat])
        for seat in info.away
        if seat in info.seats
    }


def rejoin(d: UrDialogue, game: UrGame, held: tuple[int, str], wire_name: str) -> None:
    """Retake the held seat ``held`` under ``wire_name``: ``SPIELERIN_AKZEPTIERT``, the STATUS
    and SPIELFELD blocks, then (from the hall's resync) the pending ``ZUG_*`` again; the
    others here get ``SPIELERIN_ANGEMELDET``.

    The hall login resumes the held user without a token (this protocol has no secret); a
    name held by another protocol's seat is not ours to take (the hall refuses it) and gets
    FEHLER 28 like a full game."""
    colour, hall_name = held
    assert game.room_id is not None
    try:
        session = d.hall.login(hall_name, d, protocol="urserver", resume_without_token=True)
    except HallError:
        raise Fehler(28) from None
    d.end_sequence()
    d.enter(game, session, hall_name, wire_name, spectator=False)
    d.seat = colour
    view = game.table.view(None)
    d.send_lines(
        [
            f"SPIELERIN_AKZEPTIERT {colour} {wire_name}",
            *d.status_block(game, view),
            *render.spielfeld_block(view),
        ]
    )
    try:
        session.join(game.room_id)
    except (HallError, RuleError):
        d.back_to_lobby()
        raise Fehler(28) from None
    d.set_spectators_seen(session.room(game.room_id).info().spectators)
    for member in game.everyone():
        if member is not d:
            member.seat_back(colour, wire_name)


# -- the hall side ------------------------------------------------------------------------------


def _login(d: UrDialogue, hall_name: str) -> Session:
    try:
        return d.hall.login(hall_name, d, protocol="urserver")
    except HallError:
        raise Fehler(13) from None


def password_work(d: UrDialogue, game: UrGame, password: str | None) -> Callable[[], None] | None:
    """The scrypt a join or watch of ``game`` with ``password`` will cost the hall: the check
    against its room, or the hash of the room this join will open (its creator's check is then
    free). Run off the loop by :meth:`UrDialogue.after_password_work`."""
    if game.room_id is not None:
        work = d.hall.password_work(password, str(game.room_id))
        if work is not None:
            return work
    if game.password is None:
        return None
    if not room_live(d.hall, game.room_id):
        return d.hall.password_work(game.password)
    return None


def _login_as(d: UrDialogue, wire_name: str) -> tuple[Session, str]:
    """A hall login for this connection: the wire name, or with a ``-n`` suffix when another
    game's player already uses it in this hall."""
    candidate = wire_name
    for _ in range(1000):
        try:
            return d.hall.login(candidate, d, protocol="urserver"), candidate
        except HallError as exc:
            if exc.code != "name_in_use":
                raise Fehler(13) from None
        candidate = f"{wire_name}-{d.lobby.next_login_suffix()}"
    raise Fehler(13)


def open_room(
    name: str, players: int, password: str | None, timeout_ms: int, session: Session
) -> tuple[str, UrsuppePort]:
    """A new hall room for the game ``name``: its id and its game, read only."""
    try:
        info = session.create_room(
            GAME,
            {"players": players, "timeout_ms": timeout_ms},
            password=password,
            title=name,
            extra={"urserver_name": name},
        )
        return info.room_id, ursuppe(session.room(info.room_id))
    except HallError:
        raise Fehler(22) from None


def room_live(hall: HallPort, room_id: str | None) -> bool:
    """Whether the hall still has the Ursuppe room ``room_id`` (one look-up by id)."""
    info = None if room_id is None else hall.room_info(room_id)
    return info is not None and info.game == GAME


def ensure_room(d: UrDialogue, game: UrGame, session: Session) -> None:
    """The hall closes a room whose seats all emptied before the start; the waiting game
    stays listed, so its next member opens a fresh room."""
    if not room_live(d.hall, game.room_id):
        if game.foreign:
            raise Fehler(27)
        game.room_id, game.table = open_room(game.name, game.players, game.password, game.timeout_ms, session)


def _table(hall: HallPort, session: Session, info: RoomInfo) -> UrsuppePort:
    """A discovered room's game: the room's own, or (another node holds the room) what the
    hall's directory shows of it (:class:`ListedUrsuppe`), enough for ``LISTE``."""
    if served_here(session, info.room_id):
        return ursuppe(session.room(info.room_id))
    return ListedUrsuppe(hall, info)


def _undiscovered(game: UrGame | None) -> bool:
    """Whether :func:`discover` has a room to look at: not listed yet, or listed from another
    node of the hall (the room may have moved here: adopted after its node died)."""
    return game is None or game.elsewhere


def discover(d: UrDialogue) -> None:
    """List the Ursuppe rooms opened by other protocols (the browser) as games here too, under
    their title when it is a valid, free UrServer name, else under their room id."""
    rooms = d.hall.rooms(GAME)
    d.lobby.prune({info.room_id for info in rooms})
    known = {game.room_id: game for game in d.lobby.games.values()}
    found = [info for info in rooms if _undiscovered(known.get(info.room_id)) and not info.finished]
    if not found:
        return
    session = _login(d, f"urserver-{d.lobby.next_login_suffix()}")
    try:
        for info in found:
            listed = known.get(info.room_id)
            if listed is not None:  # another node's game: its room may have come here since
                listed.table = _table(d.hall, session, info)
                continue
            title = info.title[:NAME_LENGTH]
            name = title if _NAME.fullmatch(title) and d.lobby.find(title) is None else info.room_id
            players = info.config.get("players", 3)
            timeout = info.config.get("timeout_ms", 0)
            game = UrGame(
                name,
                players if isinstance(players, int) else 3,
                None,
                timeout if isinstance(timeout, int) else 0,
                _table(d.hall, session, info),
                room_id=info.room_id,
                foreign=True,
                locked=info.has_password,
            )
            d.lobby.add(game)
    finally:
        session.logout(dropped=False)
