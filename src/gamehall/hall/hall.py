"""The hall: users, the room directory, chat, and the sessions protocols talk to.

The hall is game-agnostic and has no sockets. Protocol dialogues see it only through
:class:`gamehall.protocols._core.HallPort` (before login) and
:class:`gamehall.protocols._core.Session` (after), both implemented here.

The hall never calls a connection back from inside a call: store writes and listener calls go
to its :class:`~gamehall.hall.outbox.Outbox` (:attr:`Hall.outbox`), committed and then made
when the loop's turn is over.
"""

from __future__ import annotations

import hashlib
import heapq
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from functools import partial

from gamehall.hall.chat_memory import ChatMemory
from gamehall.hall.contests import ContestBoard
from gamehall.hall.cross_node import CrossNodePlay, NodePort
from gamehall.hall.directory import LocalDirectory, RoomDirectory, RoomRule
from gamehall.hall.invites import invite_to_room, offer_remote_invitation
from gamehall.hall.lobby_feed import LobbyFeed
from gamehall.hall.outbox import Outbox, Waiter
from gamehall.hall.ownership import Ownership
from gamehall.hall.passwords import PasswordCache
from gamehall.hall.presence import Holder, Invitation, Presence, PresenceEvents
from gamehall.hall.recovery import BotSeat, held_seats, restore_rooms, retake_seat
from gamehall.hall.room import Room
from gamehall.hall.shared_rooms import RemoteRooms, SharedRooms
from gamehall.protocols._core import (
    ChatSaid,
    Clock,
    CloseReason,
    HallError,
    HeldSeat,
    Listener,
    LobbyWatcher,
    Notice,
    Retaken,
    RoomInfo,
)
from gamehall.protocols._text import check_name, check_title, clean_chat
from gamehall.rules._core import JSON, Action, ConfigError, GameType, Seat
from gamehall.store.base import MetaUpdate, NewRoom, RoomRecord, Store

log = logging.getLogger(__name__)

CHAT_BURST = 5
CHAT_WINDOW_S = 10.0


LEASE_LOST_TEXT = "This game moved to another server; reconnect to continue."
"""What the players of a room hear when this node lost the room's lease."""

NAME_TAKEN_TEXT = "That name is in use: someone logged in with it on another server at the same moment."
"""What a user hears who lost the race for a name to a login on another node."""


def hash_token(token: str) -> str:
    """A resume token's digest. Tokens are 144 random bits, so a plain SHA-256 is as safe as a
    slow hash here, and it keeps a login (one per legacy JOIN) at microseconds instead of the
    ~6 ms of scrypt, which the benchmark showed stalling every table while bots joined."""
    return "sha256$" + hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, stored: str) -> bool:
    return hmac.compare_digest(hash_token(token), stored)


HELD_TEXT = (
    "That name is in use: its seat is being held for a player who lost the connection. "
    "If it is yours, come back the way you played (the same browser keeps your session) to "
    "take the seat back, or wait until the seat is released."
)
"""Why a name whose seats wait for their player is refused to a login that cannot take them."""


def held_name_error(user: User) -> HallError:
    """``name_in_use`` for a name whose connection is gone but whose seats are held: say so,
    so that whoever closed the browser knows the seat is waiting for them (``held`` detail)."""
    return HallError("name_in_use", HELD_TEXT, held=True, rooms=sorted(user.rooms))


def elsewhere_name_error(holder: Holder) -> HallError:
    """``name_in_use`` for a name another node has (several nodes): online there, or holding
    seats there for a player who lost the connection and who may come back through any node
    the way they played (``held`` detail, as for seats held here)."""
    if holder.online:
        return HallError("name_in_use", "That name is in use.")
    return HallError("name_in_use", HELD_TEXT, held=True)


RESTORED = "restored"
"""The protocol of a user rebuilt from a room log written before owners' protocols were
recorded: such a seat may be retaken over any protocol."""

BOT_TAKEOVER = "bot_takeover"
"""The hall's own room setting, accepted by every game's create (and kept in the room's meta,
not its game config): whether an in-hall bot takes over a seat whose player did not come back
within the grace. Default: the hall's ``bot_takeover`` (on, except in tournament mode)."""

BotDriverHook = Callable[["Hall", BotSeat, str], Listener]
"""Builds the in-hall bot that plays a held seat through a :class:`BotSeat` with a policy
(``gamehall.bots.hall_bots.drive_seat``); raises HallError for an unknown policy."""


def seat_owner_proven(
    token: str | None,
    token_hash: str,
    owner_protocol: str,
    protocol: str,
    resume_without_token: bool,
    *,
    held: Callable[[], HallError],
) -> bool:
    """The crash-recovery rule for a login to a name whose seats wait for their player
    (docs/recovery.md, "Seats belong to their owner"): the resume token proves the owner; a
    protocol without authentication (``resume_without_token``) may retake them only over the
    owner's own protocol. Returns whether the token proved it.

    Raises:
        HallError: ``held()`` when neither may retake them; ``name_in_use`` for another
            protocol.
    """
    token_ok = token is not None and bool(token_hash) and token_matches(token, token_hash)
    if not (token_ok or resume_without_token):
        raise held()
    if not token_ok and owner_protocol not in (protocol, RESTORED):
        raise HallError("name_in_use", "That name is in use.")
    return token_ok


@dataclass(slots=True)
class User:
    """A person known to the hall by name. ``listener`` is their live connection, if any;
    ``protocol`` the protocol they play over, which alone may retake their held seats
    without a token (docs/recovery.md, "Seats belong to their owner")."""

    name: str
    token_hash: str
    protocol: str
    listener: Listener | None = None
    rooms: tuple[str, ...] = ()
    """The rooms where the user has a seat or a chair. A tuple, changed only through
    :meth:`enter` and :meth:`forget_room`: a user is in one room or a few, and a tuple of
    strings is 48 bytes the collector stops tracking, where a set is 216 bytes it walks in
    every full collection (issue 12 item 4)."""
    chat_times: deque[float] | None = None
    """When the last chat lines were sent (rate limit); made on the first line, since an
    empty deque costs 600 bytes and most seats never chat."""

    def enter(self, room_id: str) -> None:
        """Count ``room_id`` among the user's rooms (once)."""
        if room_id not in self.rooms:
            self.rooms = (*self.rooms, room_id)

    def forget_room(self, room_id: str) -> None:
        """The user is no longer in ``room_id`` (nothing happens if they were not)."""
        if room_id in self.rooms:
            self.rooms = tuple(r for r in self.rooms if r != room_id)


class Hall:
    """The whole hall of one process. See the module docstring."""

    def __init__(
        self,
        *,
        games: Mapping[str, GameType],
        store: Store,
        clock: Clock,
        defaults: Mapping[str, Mapping[str, JSON]] | None = None,
        tournament: bool = False,
        directory: RoomDirectory | None = None,
        seed_source: Callable[[], int] | None = None,
        wall_time: Callable[[], float] = time.time,
        bot_seater: Callable[[Hall, str, int, str], list[str]] | None = None,
        bot_driver: BotDriverHook | None = None,
        bot_takeover: bool | None = None,
        commit_waiter: Waiter | None = None,
        contests: ContestBoard | None = None,
        ownership: Ownership | None = None,
        remote: NodePort | None = None,
        presence: Presence | None = None,
        shared_rooms: SharedRooms | None = None,
    ) -> None:
        """``bot_seater`` seats new in-hall bots; ``bot_driver`` puts a bot on a held seat
        (a restored bot's, or one a bot takes over). ``bot_takeover`` is every new room's
        default for taking over seats whose player did not come back (default: on, except
        in tournament mode). ``commit_waiter`` waits for a store that commits in the
        background (see :mod:`gamehall.hall.outbox`); embedded stores need none. ``contests``
        is the board of the contests this hall shows (the server's, which its HTTP side reads;
        a new one by default). ``ownership`` is given on a node of several: it holds the
        lease of every room living here, and only rooms it admits are written
        (:mod:`gamehall.hall.ownership`); without it every room is this process's.
        ``presence`` is given on a node of several too: the names and hall chat of the other
        nodes (:mod:`gamehall.hall.presence`); without it this hall's users are all there is.
        ``shared_rooms`` (on a node of several) publishes this node's rooms and lists the
        other nodes' (:mod:`gamehall.hall.shared_rooms`): every lobby shows the whole hall."""
        self.game_types: dict[str, GameType] = dict(games)
        self.store = store
        self.clock = clock
        self.outbox = Outbox(store, clock, waiter=commit_waiter)
        """This hall's writes and listener calls, committed and made after each loop turn."""
        self.outbox.on_commit_failed = self._commit_failed
        self.ownership = ownership
        if ownership is not None:
            self.outbox.ownership = ownership
            self.outbox.on_refused = self.leases_lost
        self._just_closed: dict[str, Room] = {}
        self.tournament = tournament
        self.directory: RoomDirectory = directory if directory is not None else LocalDirectory()
        self.passwords = PasswordCache()
        """Room-password answers computed off the loop (see :mod:`gamehall.hall.passwords`)."""
        self._defaults = {g: dict((defaults or {}).get(g, {})) for g in self.game_types}
        self._seed_source = seed_source or (lambda: secrets.randbits(64))
        self._wall_time = wall_time
        self._users: dict[str, User] = {}
        self.presence = presence
        if presence is not None:
            presence.attach(
                PresenceEvents(
                    self.name_lost, self.remote_hall_event, self.remote_invitation, self.remote_user_notice
                )
            )
        self._room_counter = 0
        self._bot_seater = bot_seater
        self.lobby = LobbyFeed(self.outbox.poke)
        self.outbox.on_settled = self.lobby.flush  # the lobby push reads committed state only
        self.shared = shared_rooms
        self.remote: RemoteRooms | None = None
        """The rooms other nodes own (a node of several), as their lobby views."""
        self._live_seqs: set[int] = set()  # a node's rooms' created_seq (kept unique)
        self._last_seq = 0
        if shared_rooms is not None:
            self.remote = shared_rooms.remote
            self.remote.local = self._is_local
            self.remote.local_rooms = partial(self.rooms_here, None)
            self.remote.on_change = self.lobby.remote_changed
            self.lobby.publish = shared_rooms.publish
        self.chat_memory = ChatMemory()
        self._bot_driver = bot_driver
        self.bot_takeover = (not tournament) if bot_takeover is None else bot_takeover
        self.contests = contests if contests is not None else ContestBoard()
        """The contests this hall shows (lobby, ``/contest/ID``): see :mod:`gamehall.hall.contests`."""
        self.cross_node = CrossNodePlay(self, remote, self.outbox) if remote is not None else None
        """Cross-node play (:mod:`gamehall.hall.cross_node`), on a node of several."""

    # ---------------------------------------------------------------- HallPort

    def login(
        self,
        name: str,
        listener: Listener,
        *,
        protocol: str,
        token: str | None = None,
        resume_without_token: bool = False,
    ) -> Session:
        check_name(name)
        holder = self.presence.holder(name) if self.presence is not None else None
        if holder is not None:
            return self._come_back_from_elsewhere(holder, listener, protocol, token, resume_without_token)
        user = self._users.get(name.lower())
        if user is not None:
            if user.listener is None:
                token_ok = seat_owner_proven(
                    token, user.token_hash, user.protocol, protocol, resume_without_token,
                    held=partial(held_name_error, user),
                )  # fmt: skip
            else:
                token_ok = token is not None and token_matches(token, user.token_hash)
                if not token_ok:
                    raise HallError("name_in_use", "That name is in use.")
            if user.listener is not None and user.listener is not listener:
                old = user.listener
                user.listener = None
                self.tell(old.disconnect, CloseReason.REPLACED, "Logged in from another connection.")
            user.listener = listener
            user.protocol = protocol
            new_token = token if token_ok and token is not None else secrets.token_urlsafe(18)
            user.token_hash = hash_token(new_token)
            self._claim(user)
            return Session(self, user, new_token, listener)
        if self._seated_on_a_lost_node(name):
            raise HallError("name_in_use", HELD_TEXT, held=True)
        new_token = secrets.token_urlsafe(18)
        user = User(name, hash_token(new_token), protocol, listener)
        self._users[name.lower()] = user
        self._claim(user)
        return Session(self, user, new_token, listener)

    def _seated_on_a_lost_node(self, name: str) -> bool:
        """Whether ``name``, which no node holds, still sits at a running room of another node
        (several nodes): that room's node died, its names went with it, and the node that
        adopts the room will hold the name for its player in a moment. Letting a stranger
        have the name meanwhile would seat the returning player anew instead."""
        if self.remote is None:
            return False
        return self.remote.orphan_seats(name) or any(not info.finished for info in self.remote.seated(name))

    def _come_back_from_elsewhere(
        self,
        holder: Holder,
        listener: Listener,
        protocol: str,
        token: str | None,
        resume_without_token: bool,
    ) -> Session:
        """A login for a name another node has (several nodes). Online there: refused.
        Holding seats there for a player who lost the connection: the player may come back
        through this node, by the same rules as to the node holding the seats (their resume
        token, or their own protocol where it has no authentication: docs/recovery.md). The
        name is taken over hall-wide and the rooms holding their seats become theirs here;
        their dialogue retakes the seats as after a restart, through cross-node play.

        Raises:
            HallError: ``name_in_use`` (with ``held`` when the seats wait for someone else).
        """
        if holder.online:
            raise elsewhere_name_error(holder)
        token_ok = seat_owner_proven(
            token, holder.token_hash, holder.protocol, protocol, resume_without_token,
            held=partial(elsewhere_name_error, holder),
        )  # fmt: skip
        user = self._users.get(holder.display.lower())
        new_token = token if token_ok and token is not None else secrets.token_urlsafe(18)
        if user is None:
            user = User(holder.display, hash_token(new_token), protocol, listener)
            self._users[user.name.lower()] = user
        else:  # seats held here too (rare): the same person
            user.listener, user.protocol, user.token_hash = listener, protocol, hash_token(new_token)
        for info in self.seats_of(user.name):
            if not info.finished:
                user.enter(info.room_id)
        self._claim(user, take_over=True)
        return Session(self, user, new_token, listener)

    def rooms(self, game: str | None = None) -> list[RoomInfo]:
        """The rooms of ``game`` (or all), first created first: on a node of several, the
        other nodes' rooms too (their last published view)."""
        local = [room.info() for room in self.directory.rooms(game)]
        if self.remote is None:
            return local
        return sorted([*local, *self.remote.rooms(game)], key=_creation)

    def rooms_matching(self, game: str, rule: RoomRule) -> Iterator[RoomInfo]:
        """The rooms of ``game`` that satisfy ``rule``, first created first, from the
        directory's index (no scan of every room). Lazy: each room's info is built when
        reached, and a room that stopped matching meanwhile (the caller joined it) is skipped.
        On a node of several the other nodes' matching rooms are merged in by creation."""
        local = self._local_matching(game, rule)
        if self.remote is None:
            return local
        return heapq.merge(local, self._remote_matching(self.remote, game, rule), key=_creation)

    def _local_matching(self, game: str, rule: RoomRule) -> Iterator[RoomInfo]:
        for room in self.directory.matching(game, rule):
            info = room.info()
            if not room.closed and rule(info):
                yield info

    @staticmethod
    def _remote_matching(remote: RemoteRooms, game: str, rule: RoomRule) -> Iterator[RoomInfo]:
        for info in remote.matching(game, rule):
            if rule(info):  # the index is re-evaluated on each change: this is a cheap guard
                yield info

    def seats_of(self, name: str) -> list[RoomInfo]:
        """The rooms where ``name`` (ignoring case) holds a seat, from the directory's index
        (and, on a node of several, the other nodes' rooms)."""
        local = [room.info() for room in self.directory.seated(name)]
        if self.remote is None:
            return local
        return sorted([*local, *self.remote.seated(name)], key=_creation)

    def room_count(self, game: str | None = None) -> int:
        count = self.directory.count(game)
        return count if self.remote is None else count + self.remote.count(game)

    def room_info(self, room_id: str) -> RoomInfo | None:
        """A listed room's lobby view: a room of this node, or another node's as last
        published (:mod:`gamehall.hall.shared_rooms`)."""
        room = self.directory.get(room_id)
        if room is not None:
            return None if room.closed else room.info()
        return None if self.remote is None else self.remote.get(room_id)

    def rooms_here(self, game: str | None = None) -> list[RoomInfo]:
        """The rooms living on this node (on one node: :meth:`rooms`)."""
        return [room.info() for room in self.directory.rooms(game) if not room.closed]

    def _is_local(self, room_id: str) -> bool:
        return self.directory.get(room_id) is not None

    def game_defaults(self, game: str) -> Mapping[str, JSON]:
        game_type = self._game_type(game)
        return game_type.schema.validate(self._defaults.get(game, {}))

    def stats(self) -> dict[str, int]:
        rooms = self.directory.rooms(None)
        seats = sum(len(r.state.seat_names()) for r in rooms)
        spectators = sum(len(r.spectator_names()) for r in rooms)
        online = sum(1 for u in self._users.values() if u.listener is not None)
        return {
            "users": online,
            "known_users": len(self._users),
            "rooms": len(rooms),
            "seats": seats,
            "spectators": spectators,
        }

    def rooms_by_game(self) -> dict[str, int]:
        counts = dict.fromkeys(self.game_types, 0)
        for room in self.directory.rooms(None):
            counts[room.game_type.game_id] = counts.get(room.game_type.game_id, 0) + 1
        return counts

    def add_bots(self, room_id: str, count: int, policy: str = "random") -> list[str]:
        """Seat ``count`` in-process bots in ``room_id``. The bots hang off the side of the hall,
        so the server hands their seating function in (``gamehall.bots.hall_bots.add_bots``).

        Raises:
            HallError: ``no_bots`` when this hall was built without bots, or the seating fails.
        """
        if self._bot_seater is None:
            raise HallError("no_bots", "This server has no bots.")
        names = self._bot_seater(self, room_id, count, policy)
        room = self.directory.get(room_id)
        if room is not None and not room.closed:
            for name in names:
                member = room.member(name)
                if member is not None and member.seat is not None:
                    room.note_bot(member.seat, name, policy)
        return names

    def drive_seat(self, room: Room, name: str, policy: str) -> bool:
        """Put an in-hall bot on ``name``'s held seat in ``room`` (the room's BotDriver).
        The seat stops being its user's: they cannot retake it."""
        if self._bot_driver is None:
            return False
        try:
            listener = self._bot_driver(self, BotSeat(self, room.room_id, name), policy)
            room.drive(name, listener, policy)
        except HallError as exc:
            log.warning("room %s: no bot for %s's seat: %s", room.room_id, name, exc.reason)
            return False
        user = self._users.get(name.lower())
        if user is not None:
            user.forget_room(room.room_id)
        self._forget_idle_users()
        return True

    def name_free(self, name: str) -> bool:
        """Whether nobody goes by ``name``: no user (online or holding seats) and no seat a
        bot plays under that name (after a restart such bots have no user of their own).

        The seats come from the directory's name index (the rooms where the name holds a
        seat), not a scan of every room. Spectators need no look-up: a spectator is a user,
        and a user is kept while it is in any room."""
        if name.lower() in self._users:
            return False
        if self.presence is not None and self.presence.holder(name) is not None:
            return False  # a user of another node
        return all(room.member(name) is None for room in self.directory.seated(name))

    def watch_lobby(self, watcher: LobbyWatcher) -> Callable[[], None]:
        return self.lobby.watch(watcher)

    def recent_chat(self, room_id: str | None) -> list[dict[str, JSON]]:
        return self.chat_memory.recent(room_id)

    def preparing(self) -> Mapping[str, JSON] | None:
        return self.lobby.preparing

    def invite(self, room_id: str, inviter: str, name: str) -> None:
        invite_to_room(self, room_id, inviter, name)

    def user(self, name: str) -> User | None:
        """A known user (online, or holding seats), by name in any case."""
        return self._users.get(name.lower())

    def forget_idle_users(self) -> None:
        self._forget_idle_users()

    def wall_time(self) -> float:
        return self._wall_time()

    def user_online(self, name: str) -> bool:
        """Whether ``name`` has a connection, here or (several nodes) on another node."""
        user = self._users.get(name.lower())
        if user is not None:
            return user.listener is not None
        holder = self.presence.holder(name) if self.presence is not None else None
        return holder is not None and holder.online

    # ---------------------------------------------------------------- rooms

    def create_room(
        self,
        game: str,
        settings: Mapping[str, JSON] | None,
        *,
        operator: str | None,
        password: str | None = None,
        title: str | None = None,
        extra: Mapping[str, JSON] | None = None,
        seed: int | None = None,
    ) -> Room:
        """A new room of ``game``. ``seed`` fixes its randomness (a contest game is ordered
        with its seed, so it can be played again); otherwise the hall's seed source draws one."""
        game_type = self._game_type(game)
        title = check_title(title) if title is not None and title.strip() else None  # blank: the game's
        settings = dict(settings or {})
        bot_takeover = settings.pop(BOT_TAKEOVER, self.bot_takeover)
        if not isinstance(bot_takeover, bool):
            raise HallError("config", f"{BOT_TAKEOVER} must be true or false")
        try:
            config = game_type.schema.validate(settings, base=self.game_defaults(game))
            seed = self._seed_source() if seed is None else seed
            meta: dict[str, JSON] = {
                "title": title or _default_title(game_type, config),
                "operator": operator,
                "password_hash": self.passwords.new_hash(password) if password else None,
                "extra": dict(extra or {}),
                "tokens": {},
                "owners": {},
                BOT_TAKEOVER: bot_takeover,
            }
            room_id = self._new_room_id(game)
            room = self._new_room(room_id, game_type, config, seed, meta, self._created_seq())
        except ConfigError as exc:
            raise HallError("config", str(exc)) from None
        if self.ownership is not None:
            self.ownership.claim(room_id)
        self.outbox.write(NewRoom(room_id, game, config, seed, dict(meta), self._wall_time()))
        self._listed(room)
        self.lobby.added(room)
        return room

    def _new_room_id(self, game: str) -> str:
        """``game-xxxxxxxx`` (random); on a node of several ``game-NODE-xxxxxxxx``, so two
        nodes never make the same id."""
        if self.shared is None:
            return f"{game}-{secrets.token_hex(4)}"
        return f"{game}-{self.shared.node_id}-{secrets.token_hex(4)}"

    def _created_seq(self, created_at: float | None = None) -> int:
        """The next room's place in creation order. One node: the hall's counter. A node of
        several: the creation time in microseconds (``created_at`` for a room rebuilt from
        its log), so every node's rooms merge into one order; kept strictly increasing for
        new rooms and unique among this node's rooms (the directory's indexes rely on it)."""
        self._room_counter += 1
        if self.shared is None:
            return self._room_counter
        if created_at is None:
            seq = self._last_seq = max(int(self._wall_time() * 1_000_000), self._last_seq + 1)
        else:
            seq = int(created_at * 1_000_000)
        while seq in self._live_seqs:
            seq += 1
        return seq

    def _listed(self, room: Room) -> None:
        """Put a new or rebuilt room in the directory (on a node, it is no longer another
        node's: an adopted room leaves the remote copy, without a "closed" for the watchers,
        who hear it "created" here next)."""
        self.directory.add(room)
        if self.remote is not None:
            self._live_seqs.add(room.created_seq)
            self.remote.remove(room.room_id, quietly=True)

    def _new_room(
        self,
        room_id: str,
        game_type: GameType,
        config: Mapping[str, JSON],
        seed: int,
        meta: Mapping[str, JSON],
        created_seq: int,
    ) -> Room:
        room = Room(
            room_id=room_id,
            game_type=game_type,
            config=config,
            seed=seed,
            meta=meta,
            outbox=self.outbox,
            clock=self.clock,
            wall_time=self._wall_time,
            on_closed=self._room_closed,
            on_changed=self.directory.changed,
            created_seq=created_seq,
            bot_driver=self.drive_seat,
        )
        room.on_change = self.lobby.touched
        return room

    def password_work(self, password: str | None, room_id: str | None = None) -> Callable[[], None] | None:
        """The slow part (scrypt) of a later ``create_room`` (``room_id`` None) or join/spectate
        of ``room_id`` with ``password``, as a closure a worker thread may run; ``None`` when
        there is nothing slow to do (no password, no such room, a room without password).
        See :mod:`gamehall.hall.passwords`."""
        if not password:
            return None
        if room_id is None:
            return self.passwords.work_for_new(password)
        room = self.directory.get(room_id)
        stored = room.meta.get("password_hash") if room is not None else None
        if not isinstance(stored, str) or not stored:
            return None
        return self.passwords.work_for_check(stored, password)

    def room(self, room_id: str) -> Room:
        """A listed room, or one closed in this turn whose last deliveries are still queued
        (a connection rendering them may look at the room as it was left).

        Raises:
            HallError: ``no_such_room``.
        """
        room = self.directory.get(room_id) or self._just_closed.get(room_id)
        if room is None and self.cross_node is not None:
            room = self.cross_node.replica(room_id)
        if room is None:
            raise HallError("no_such_room", f"There is no room {room_id}.")
        return room

    def room_if_any(self, room_id: str) -> Room | None:
        """:meth:`room`, or ``None`` instead of ``no_such_room`` (builds a replica if needed)."""
        try:
            return self.room(room_id)
        except HallError:
            return None

    def live_room(self, room_id: str) -> Room | None:
        """A room this hall serves now: one it owns, or the replica of one owned by another
        node that a connection here already uses. Never builds a replica."""
        room = self.directory.get(room_id)
        if room is None and self.cross_node is not None:
            room = self.cross_node.replica(room_id, build=False)
        return room

    def _room_closed(self, room: Room) -> None:
        self._just_closed[room.room_id] = room
        self.tell(partial(self._forget_closed, room.room_id))
        self.directory.remove(room.room_id)
        self._live_seqs.discard(room.created_seq)
        self.lobby.removed(room)
        self.chat_memory.forget_room(room.room_id)
        for user in self._users.values():
            user.forget_room(room.room_id)
        self._forget_idle_users()

    def _forget_closed(self, room_id: str) -> None:
        """Called after the commit of the closed room's last writes (so its lease, if any,
        is given up only once they are in the store)."""
        self._just_closed.pop(room_id, None)
        if self.ownership is not None:
            self.ownership.release(room_id)

    def _forget_idle_users(self) -> None:
        for key in [k for k, u in self._users.items() if u.listener is None and not u.rooms]:
            del self._users[key]
            if self.presence is not None:
                self.presence.release(key)

    def _claim(self, user: User, *, take_over: bool = False) -> None:
        """On a node of several: tell the other nodes this node has ``user`` (online or
        holding seats), so their logins refuse the name, or let its owner come back through
        them (:mod:`gamehall.hall.presence`; ``take_over``: see :meth:`Presence.claim`)."""
        if self.presence is not None:
            self.presence.claim(
                user.name,
                online=user.listener is not None,
                protocol=user.protocol,
                token_hash=user.token_hash,
                take_over=take_over,
            )

    def name_lost(self, name: str) -> None:
        """Another node let ``name`` in first (both nodes accepted a login at the same
        moment; the later claim loses): this node's user is disconnected as if replaced by
        another login and leaves its rooms. A user without a connection (seats rebuilt here
        after a crash) keeps its seats; the name is claimed again once the other node frees
        it (:class:`gamehall.hall.presence.Presence`)."""
        user = self._users.get(name.lower())
        if user is None or user.listener is None:
            return
        self.tell(user.listener.disconnect, CloseReason.REPLACED, NAME_TAKEN_TEXT)
        self.logout(user, dropped=False)

    def remote_hall_event(self, event: ChatSaid | Notice) -> None:
        """A shout, notice or whisper from another node (:mod:`gamehall.hall.presence`):
        delivered to this node's users like one said here."""
        if isinstance(event, ChatSaid) and event.scope == "private":
            target = self._users.get((event.to or "").lower())
            if target is not None and target.listener is not None:
                self.tell(target.listener.hall_event, event)
            return
        sender = event.sender if isinstance(event, ChatSaid) else None
        self.chat_memory.hall_said(sender, event.text, self._wall_time())
        self._tell_everyone(event)

    def remote_invitation(self, invitation: Invitation) -> None:
        """An invitation made on another node for a user of this one
        (:mod:`gamehall.hall.invites`): offered at once, as a local invitation is offered
        within the inviter's request (this comes from the network, no hall call is on the
        stack)."""
        offer_remote_invitation(self, invitation)

    def remote_user_notice(self, name: str, notice: Notice) -> None:
        """A server line from another node for one user of this node (an invitation they
        made could not be shown there); dropped if they left meanwhile."""
        user = self._users.get(name.lower())
        if user is not None and user.listener is not None:
            self.tell(user.listener.hall_event, notice)

    def _game_type(self, game: str) -> GameType:
        game_type = self.game_types.get(game)
        if game_type is None:
            raise HallError("no_such_game", f"This hall has no game {game!r}.")
        return game_type

    def restore(self) -> int:
        """Rebuild every unfinished room from its log (crash recovery): seats held, bots
        seated again, timers re-armed (:func:`gamehall.hall.recovery.restore_rooms`).
        Returns how many rooms came back."""
        return restore_rooms(self)

    def add_restored_room(self, record: RoomRecord) -> Room:
        """A room rebuilt from ``record``'s log and listed in the directory; its seats are
        not resumed yet (see :mod:`gamehall.hall.recovery`)."""
        room = self._new_room(
            record.room_id,
            self.game_types[record.game],
            record.config,
            record.seed,
            record.meta,
            self._created_seq(record.created_at),
        )
        room.replay(record.entries, created_at=record.created_at)
        if self.ownership is not None:
            self.ownership.claim(record.room_id)
            # an empty write, stamped with the new lease's fencing number: a fencing store
            # refuses every earlier owner's writes from this commit on
            self.outbox.write(MetaUpdate(record.room_id, {}))
        self._listed(room)
        self.lobby.added(room, restored=True)
        return room

    def restored_owner(self, name: str, room_id: str, token_hash: str | None, protocol: str | None) -> None:
        """After a restart: ``name`` owns a held seat in ``room_id`` (token digest and protocol
        from the room's meta), so only they can retake it."""
        user = self._users.get(name.lower())
        if user is None:
            user = User(name, token_hash or hash_token(secrets.token_urlsafe(18)), protocol or RESTORED)
            self._users[name.lower()] = user
            self._claim(user)
        user.enter(room_id)

    def room_closed(self, room: Room) -> None:
        self._room_closed(room)

    def tell(self, call: Callable[..., None], *args: object) -> None:
        """Queue a hall-wide listener call (chat, a disconnect): made after this turn's commit,
        in order with every room's deliveries (:mod:`gamehall.hall.outbox`)."""
        self.outbox.send(None, partial(call, *args))

    def flush(self) -> None:
        """Commit this turn's writes and make its listener calls now (at start and shutdown;
        tests on a fake clock; connections use :meth:`write_barrier`). See :class:`Outbox`."""
        self.outbox.flush()

    def write_barrier(self, resume: Callable[[], None]) -> bool:
        """A connection's barrier before it writes to its socket: flush, and ``True`` if every
        write queued so far is committed; else ``resume`` is called once it is
        (:meth:`Outbox.barrier`)."""
        return self.outbox.barrier(resume)

    def _commit_failed(self, room_ids: frozenset[str]) -> None:
        """A commit lost these rooms' latest writes: their state ran ahead of their log, so
        they close now (without finishing in the store) and the next start rebuilds them from
        what was committed."""
        for room_id in sorted(room_ids):
            room = self.directory.get(room_id)
            if room is not None:
                room.close(
                    CloseReason.SHUTDOWN, "The server could not save this game; it resumes after a restart."
                )

    def leases_lost(self, room_ids: frozenset[str]) -> None:
        """This node lost these rooms' leases: another node may own them now, so they close
        here without a result and their players are told to reconnect (the owner has them).
        What they queued is dropped first: it can never be committed."""
        self.outbox.forget(room_ids)
        for room_id in sorted(room_ids):
            room = self.directory.get(room_id)
            if room is not None:
                room.close(CloseReason.SHUTDOWN, LEASE_LOST_TEXT)

    def shutdown(self, text: str) -> None:
        """Close every room and every connection (server stopping). Room logs stay unfinished
        in the store, so a restart rebuilds them."""
        for room in list(self.directory.rooms(None)):
            room.close(CloseReason.SHUTDOWN, text)
        for user in list(self._users.values()):
            if user.listener is not None:
                listener, user.listener = user.listener, None
                self.tell(listener.disconnect, CloseReason.SHUTDOWN, text)

    # ---------------------------------------------------------------- chat

    def check_chat(self, user: User, text: str) -> str:
        """The chat line as the hall forwards it (the text rule, :mod:`gamehall.protocols._text`),
        after the per-user rate limit.

        Raises:
            HallError: ``chat_invalid`` or ``rate_limited``.
        """
        text = clean_chat(text)
        now = self.clock.now()
        times = user.chat_times
        if times is None:
            times = user.chat_times = deque(maxlen=CHAT_BURST)
        if len(times) == CHAT_BURST and now - times[0] < CHAT_WINDOW_S:
            raise HallError("rate_limited", "Chat rate limit reached.")
        times.append(now)
        return text

    def whisper(self, sender: User, to: str, text: str) -> None:
        """A private line to ``to``, online here or (several nodes) on another node, where
        the line is carried to them; the sender hears it back here.

        Raises:
            HallError: ``no_such_user`` when ``to`` is online nowhere; as :meth:`check_chat`.
        """
        target = self._users.get(to.lower())
        if target is None and self.presence is not None:
            holder = self.presence.holder(to)
            if holder is not None and holder.online:
                event = ChatSaid(
                    sender=sender.name, text=self.check_chat(sender, text), scope="private", to=holder.display
                )
                self.presence.whisper(holder.node, event)
                if sender.listener is not None:
                    self.tell(sender.listener.hall_event, event)
                return
        if target is None or target.listener is None:
            raise HallError("no_such_user", f"{to} is not online.")
        text = self.check_chat(sender, text)
        event = ChatSaid(sender=sender.name, text=text, scope="private", to=target.name)
        self.tell(target.listener.hall_event, event)
        if sender.listener is not None and sender is not target:
            self.tell(sender.listener.hall_event, event)

    def shout(self, sender: User | None, text: str) -> None:
        if sender is not None:
            text = self.check_chat(sender, text)
            event: ChatSaid | Notice = ChatSaid(sender=sender.name, text=text, scope="broadcast")
        else:
            event = Notice(text=text)
        self.chat_memory.hall_said(None if sender is None else sender.name, text, self._wall_time())
        self._tell_everyone(event)
        if self.presence is not None:
            self.presence.shout(event)  # the users of the other nodes, in this sender's order

    def _tell_everyone(self, event: ChatSaid | Notice) -> None:
        for user in self._users.values():
            if user.listener is not None:
                self.tell(user.listener.hall_event, event)

    # ---------------------------------------------------------------- sessions

    def logout(self, user: User, *, dropped: bool) -> None:
        if self._users.get(user.name.lower()) is not user:
            return
        user.listener = None
        for room_id in list(user.rooms):
            room = self.live_room(room_id)
            if room is None or room.member(user.name) is None:  # closed, or the game let them go
                user.forget_room(room_id)
                continue
            if dropped:
                room.drop(user.name)
            else:
                room.leave(user.name)
            if room.member(user.name) is None:
                user.forget_room(room_id)
        self._forget_idle_users()
        if user.rooms:
            self._claim(user)  # still holding seats, offline: other nodes keep the name taken

    def remember_token(self, room: Room, user: User) -> None:
        """Keep the seat owner's token digest and protocol in the room's meta, so that after a
        restart the seat is still theirs alone (docs/recovery.md)."""
        tokens = room.meta.setdefault("tokens", {})
        owners = room.meta.setdefault("owners", {})
        if not isinstance(tokens, dict) or not isinstance(owners, dict):
            return
        key = user.name.lower()
        if tokens.get(key) != user.token_hash or owners.get(key) != user.protocol:
            tokens[key] = user.token_hash
            owners[key] = user.protocol
            room.write_meta({"tokens": dict(tokens), "owners": dict(owners)})


class Session:
    """One logged-in user's handle (implements :class:`gamehall.protocols._core.Session`).
    One per connection, hence ``__slots__``."""

    __slots__ = ("_active", "_hall", "_listener", "_token", "_user")

    def __init__(self, hall: Hall, user: User, token: str, listener: Listener) -> None:
        self._hall = hall
        self._user = user
        self._token = token
        self._listener = listener
        self._active = True

    @property
    def name(self) -> str:
        return self._user.name

    @property
    def token(self) -> str:
        return self._token

    @property
    def user(self) -> User:
        return self._user

    def _check(self) -> None:
        if not self._active or self._user.listener is not self._listener:
            raise HallError("not_logged_in", "This session has ended.")

    def rooms(self, game: str | None = None) -> list[RoomInfo]:
        return self._hall.rooms(game)

    def create_room(
        self,
        game: str,
        settings: Mapping[str, JSON] | None = None,
        *,
        password: str | None = None,
        title: str | None = None,
        extra: Mapping[str, JSON] | None = None,
    ) -> RoomInfo:
        self._check()
        room = self._hall.create_room(
            game, settings, operator=self._user.name, password=password, title=title, extra=extra
        )
        return room.info()

    def join(self, room_id: str, password: str | None = None, *, invited: bool = False) -> Seat:
        """Take a seat (see the protocol). ``invited`` skips the password: the hall's own bots,
        seated at the request of someone already in the room."""
        self._check()
        room = self._hall.room(room_id)
        member = room.member(self._user.name)
        if (member is None or member.seat is None) and not invited:
            self._check_password(room, password)
        seat = room.join(self._user.name, self._user.listener)
        self._user.enter(room_id)
        if not room.closed:
            self._hall.remember_token(room, self._user)
        return seat

    def after_deliveries(self, call: Callable[[], None]) -> None:
        """See :meth:`gamehall.protocols._core.Session.after_deliveries`. Behind an input
        forwarded to another node, it waits for that input's events (hall/cross_node_follower.py)."""
        cross_node = self._hall.cross_node
        if cross_node is not None and cross_node.after_inputs(self._user.name, call):
            return
        self._hall.tell(call)

    def spectate(self, room_id: str, password: str | None = None) -> None:
        self._check()
        room = self._hall.room(room_id)
        self._check_password(room, password)
        room.spectate(self._user.name, self._user.listener)
        self._user.enter(room_id)

    def _check_password(self, room: Room, password: str | None) -> None:
        stored = room.meta.get("password_hash")
        if not isinstance(stored, str) or not stored:
            return
        if not (password and self._hall.passwords.matches(password, stored)):
            raise HallError("wrong_password", "Wrong password for this room.")

    def leave(self, room_id: str) -> None:
        self._check()
        room = self._hall.room(room_id)
        room.leave(self._user.name)
        self._user.forget_room(room_id)

    def _operator_room(self, room_id: str, what: str) -> Room:
        """The room, when this user is its operator: start, kick, settings and bots are the
        operator's alone, on every protocol (issue 10 item 6; the one place that checks it).

        Raises:
            HallError: ``no_such_room``; ``not_operator`` naming ``what`` was refused.
        """
        room = self._hall.room(room_id)
        if not room.is_operator(self._user.name):
            raise HallError("not_operator", f"Only the room's operator can {what}.")
        return room

    def start(self, room_id: str) -> None:
        self._check()
        room = self._operator_room(room_id, "start the game")
        if room.member(self._user.name) is None:
            raise HallError("not_in_room", "You are not in this room.")
        room.start()

    def add_bots(self, room_id: str, count: int, policy: str = "random") -> list[str]:
        """Seat ``count`` of the hall's bots in the room: the operator's decision.

        Raises:
            HallError: ``not_operator``, or as :meth:`Hall.add_bots`.
        """
        self._check()
        self._operator_room(room_id, "add bots")
        return self._hall.add_bots(room_id, count, policy)

    def act(self, room_id: str, action: Action, *, seq: int | None = None) -> None:
        self._check()
        self._hall.room(room_id).act(self._user.name, action, seq=seq)

    def refused(self, room_id: str, code: str) -> None:
        """See :meth:`gamehall.protocols._core.Session.refused`."""
        room = self._hall.live_room(room_id)
        if room is not None:
            room.refused(self._user.name, code)

    def rename(self, room_id: str, new_name: str) -> None:
        self._check()
        check_name(new_name)
        hall_users = self._hall._users
        other = hall_users.get(new_name.lower())
        presence = self._hall.presence
        if (other is not None and other is not self._user) or (presence and presence.holder(new_name)):
            raise HallError("name_in_use", "That name is in use.")
        room = self._hall.room(room_id)
        room.rename(self._user.name, new_name)
        del hall_users[self._user.name.lower()]
        if presence is not None and new_name.lower() != self._user.name.lower():
            presence.release(self._user.name)
        self._user.name = new_name
        hall_users[new_name.lower()] = self._user
        self._hall._claim(self._user)

    def kick(self, room_id: str, seat: Seat) -> None:
        self._check()
        room = self._operator_room(room_id, "kick")
        name = room.state.seat_names().get(seat)
        if name is None:
            raise HallError("no_such_seat", f"Seat {seat} is empty.")
        room.leave(name, reason=CloseReason.KICKED, text="Kicked by an administrator.")
        kicked = self._hall._users.get(name.lower())
        if kicked is not None:
            kicked.forget_room(room_id)

    def chat(self, room_id: str, text: str) -> None:
        self._check()
        room = self._hall.room(room_id)
        if room.member(self._user.name) is None:
            raise HallError("not_in_room", "You are not in this room.")
        if room.config.get("chat_enabled") is False:
            raise HallError("chat_disabled", "Chat is disabled on this server.")
        text = self._hall.check_chat(self._user, text)
        room.chat(self._user.name, text)
        if self._hall._is_local(room_id):  # a replica's lines are remembered as they come back
            self._hall.chat_memory.room_said(room_id, self._user.name, text, self._hall.wall_time())

    def whisper(self, to: str, text: str) -> None:
        self._check()
        self._hall.whisper(self._user, to, text)

    def shout(self, text: str) -> None:
        self._check()
        self._hall.shout(self._user, text)

    def room(self, room_id: str) -> Room:
        return self._hall.room(room_id)

    def seat_in(self, room_id: str) -> Seat | None:
        room = self._hall.live_room(room_id)
        member = room.member(self._user.name) if room is not None else None
        return member.seat if member is not None else None

    def my_rooms(self) -> list[str]:
        return sorted(self._user.rooms)

    def held_seats(self, game: str | None = None) -> list[HeldSeat]:
        """See :meth:`gamehall.protocols._core.Session.held_seats` (docs/recovery.md)."""
        return held_seats(self._hall, self._user, game)

    def retake(self, room_id: str) -> Retaken:
        """See :meth:`gamehall.protocols._core.Session.retake` (docs/recovery.md)."""
        self._check()
        room = retake_seat(self._hall, self._user, room_id)
        since = room.last_seq
        seat = room.join(self._user.name, self._user.listener)
        self._hall.remember_token(room, self._user)
        return Retaken(room=room, seat=seat, since=since)

    def logout(self, *, dropped: bool) -> None:
        if not self._active:
            return
        self._active = False
        if self._user.listener is not self._listener:
            return  # replaced by a newer login of the same user: that one owns the seats now
        self._hall.logout(self._user, dropped=dropped)


def _creation(info: RoomInfo) -> int:
    return info.created_seq


def _default_title(game_type: GameType, config: Mapping[str, JSON]) -> str:
    """A room's title when its creator gave none: the game's own default for this config."""
    if game_type.default_title is None:
        return game_type.title
    return game_type.default_title(config)
