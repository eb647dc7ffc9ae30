"""cg lobbies: the shared, in-memory part of the cg service (note §4.2), one directory per server.

A cg *lobby* gathers up to four users (humans and ``dk_dumb`` bots) who set the rules and get
ready; only when all four are ready does a hall room of game ``doppelkopf`` exist: the lobby
creates it and seats everybody in ``user_order`` (humans join with their own session, bots are
the hall's in-process bots). **Decision (ours):** the room is made at game start, not at lobby
creation, because the table starts itself when its fourth seat is taken and the cg protocol
wants the ``ready`` step first. When the game ends the room is gone and the lobby stays.

The directory also knows every logged-in cg connection by account uuid (invites, ``status.user``
online/offline, a second login closing the first) and the uuid of every seat name (bots get a
fresh uuid). Nothing here does I/O: connections are reached through :class:`Peer`.

:class:`CgServices` is what every cg connection of one server shares: the hall, the clock, the
account store and the directory. The server builds it once (``gamehall.protocols.cg.spec``)
and hands it to each dialogue, so two servers in one process share nothing.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from gamehall.protocols._core import Clock, HallPort, Session
from gamehall.protocols._spec import ServerResources
from gamehall.protocols.cg import gamerules
from gamehall.protocols.cg.accounts import Accounts, LoginThrottle
from gamehall.protocols.cg.codec import Packet
from gamehall.protocols.cg.states import CgState, Transition

ROLE_REMOVED: Final = -1
ROLE_PLAYER: Final = 10
ROLE_ADMIN: Final = 50
ROLE_CREATOR: Final = 100
MAX_USERS: Final = 4
BOT_TYPES: Final = ("dk_dumb",)
BOT_POLICY: Final = {"dk_dumb": "random"}
"""cg bot type -> the hall bot policy that plays it."""

_NAME_SPACE: Final = uuid.UUID("6f1d4a52-0c55-4a43-9d51-3b1e8f0b7c21")


class Peer(Protocol):
    """A logged-in cg connection, as lobbies reach it (the dialogue implements it)."""

    @property
    def account_uuid(self) -> str: ...

    @property
    def username(self) -> str: ...

    @property
    def flavor(self) -> str: ...

    @property
    def session(self) -> Session | None: ...

    @property
    def closed(self) -> bool:
        """The connection is gone (its member is dropped when the game ends)."""
        ...

    def send_packet(self, packet: Packet) -> None: ...

    def in_state(self) -> CgState:
        """``ACTIVE``, ``LOBBY`` or ``GAME_DK``."""
        ...

    def move(self, transition: Transition) -> None:
        """Change the connection's state along :data:`.states.TRANSITIONS` (a kick: left the lobby)."""
        ...


@dataclass
class Member:
    uuid: str
    name: str
    role: int
    peer: Peer | None
    """The member's connection: ``None`` for a bot, and for a human whose lobby was rebuilt
    after a restart until that account logs in again."""
    ready: bool = False
    bot_type: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.bot_type is not None


@dataclass(frozen=True, slots=True)
class Preload:
    """A loaded game waiting for the lobby's next start."""

    resume: str
    """The carry-over (JSON text) for the new table's ``resume`` setting."""
    seats: tuple[str | None, ...]
    """The human uuid of each seat in the saved order; ``None`` = a bot's seat."""


@dataclass
class Lobby:
    lobby_id: str
    rules: dict[str, Any]
    members: dict[str, Member] = field(default_factory=dict)
    order: list[str] = field(default_factory=list)
    game: str = "doppelkopf"
    room_id: str | None = None
    invited: dict[str, str] = field(default_factory=dict)  # invitee uuid -> inviter uuid
    preload: Preload | None = None
    """A saved game the next start continues (``game.load``, :mod:`.save_load`)."""
    bridge_room: str | None = None
    """The browser table this lobby shows to cg clients (:mod:`.browser_tables`), if any."""

    def humans(self) -> list[Member]:
        return [m for m in self.members.values() if not m.is_bot]

    def peers(self) -> Iterator[Peer]:
        for member in self.members.values():
            if member.peer is not None:
                yield member.peer

    def broadcast(self, packet: Packet, *, skip: str | None = None) -> None:
        for member in list(self.members.values()):
            if member.peer is not None and member.uuid != skip:
                member.peer.send_packet(packet)

    def user_entry(self, member: Member) -> dict[str, Any]:
        return {"ready": member.ready, "role": member.role, "index": self.order.index(member.uuid)}

    def full_change(self, flavor: str) -> Packet:
        """The full ``lobby.change`` a member gets on entering."""
        return Packet(
            "cg:lobby.change",
            {
                "users": {uid: self.user_entry(m) for uid, m in self.members.items()},
                "user_order": list(self.order),
                "game": self.game,
                "gamerules": gamerules.for_flavor(self.rules, flavor),
                "gamerule_validators": gamerules.validators(flavor),
                "supported_bots": list(BOT_TYPES),
            },
        )

    def users_delta(self, uid: str, **entry: Any) -> Packet:
        return Packet("cg:lobby.change", {"users": {uid: entry}})

    @property
    def full(self) -> bool:
        return len(self.members) >= MAX_USERS

    def all_ready(self) -> bool:
        return len(self.members) == MAX_USERS and all(m.ready for m in self.members.values())


class Directory:
    """Every cg connection and lobby of one hall."""

    def __init__(self) -> None:
        self.online: dict[str, Peer] = {}
        self.lobbies: dict[str, Lobby] = {}
        self.lobby_of: dict[str, str] = {}  # member uuid -> lobby id
        self.seat_uuids: dict[str, str] = {}  # lower-cased hall name -> uuid
        self.logins = LoginThrottle()  # failed logins per account and address, hall-wide
        self._bot_numbers = itertools.count(1)

    def uuid_for_name(self, name: str) -> str:
        """The wire uuid of a seat name: the account's, a bot's, else one derived from the name."""
        return self.seat_uuids.get(name.lower()) or uuid.uuid5(_NAME_SPACE, name.lower()).hex

    def new_lobby(self, variant: str) -> Lobby:
        lobby = Lobby(uuid.uuid4().hex, gamerules.defaults(variant))
        self.lobbies[lobby.lobby_id] = lobby
        return lobby

    def lobby_for(self, member_uuid: str) -> Lobby | None:
        lobby_id = self.lobby_of.get(member_uuid)
        return None if lobby_id is None else self.lobbies.get(lobby_id)

    def add_member(self, lobby: Lobby, member: Member) -> None:
        lobby.members[member.uuid] = member
        lobby.order.append(member.uuid)
        self.lobby_of[member.uuid] = lobby.lobby_id

    def remove_member(self, lobby: Lobby, member_uuid: str) -> None:
        lobby.members.pop(member_uuid, None)
        if member_uuid in lobby.order:
            lobby.order.remove(member_uuid)
        self.lobby_of.pop(member_uuid, None)
        if not lobby.humans():
            for uid in list(lobby.members):
                self.lobby_of.pop(uid, None)
            self.lobbies.pop(lobby.lobby_id, None)

    def new_bot(self, bot_type: str) -> Member:
        number = next(self._bot_numbers)
        return Member(uuid.uuid4().hex, f"bot_{bot_type}_{number}", ROLE_PLAYER, None, True, bot_type)


DEFAULT_PING_INFO: Final[dict[str, Any]] = {
    "name": "gamehall",
    "visiblename": "gamehall",
    "slogan": "",
    "maxplayers": 0,
}
"""The operator's ping-reply texts (§2.2, §8) unless a server gives its own."""


@dataclass(frozen=True, slots=True)
class CgServices:
    """Everything the cg connections of one server share (see the module docstring).

    ``accounts`` is the server's account store (``gamehall.store.accounts``: SQLite in the
    hall's database file, in memory for tests); ``ping_info`` the texts of a ping reply.
    """

    hall: HallPort
    clock: Clock
    accounts: Accounts
    directory: Directory = field(default_factory=Directory)
    ping_info: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_PING_INFO))

    @classmethod
    def of(cls, resources: ServerResources) -> CgServices:
        """The services of one server: its hall, clock and account store, a fresh directory."""
        return cls(resources.hall, resources.clock, resources.accounts())


# -- after a restart (note §5.2; docs/recovery.md) ----------------------------------------------

LOBBY_EXTRA: Final = "cg_lobby"
"""The key of a cg room's ``extra`` (stored with the room) that lets its lobby be rebuilt."""


def lobby_record(lobby: Lobby) -> dict[str, Any]:
    """What a restart needs of ``lobby`` to rebuild it around its running room: its id and
    rules, and per seat (the room seats ``order`` in that order) the member's uuid, role and
    bot type. Kept in the room's ``extra`` when the room is made."""
    return {
        "lobby_id": lobby.lobby_id,
        "rules": dict(lobby.rules),
        "game": lobby.game,
        "order": list(lobby.order),
        "roles": {uid: m.role for uid, m in lobby.members.items()},
        "bots": {uid: m.bot_type for uid, m in lobby.members.items() if m.bot_type is not None},
    }


def rebuild_lobbies(directory: Directory, rooms: list[Any]) -> None:
    """Rebuild the lobby of every running cg room this process has no lobby for (the
    directory lived in memory; a restart emptied it), from the record in the room's
    ``extra``: the members are the room's present seats, humans offline until their account
    logs in again (:func:`gamehall.protocols.cg.game_commands.rejoin`). ``rooms`` are the
    hall's :class:`~gamehall.protocols._core.RoomInfo` of game ``doppelkopf``."""
    for info in rooms:
        record = info.extra.get(LOBBY_EXTRA)
        if info.finished or not isinstance(record, dict):
            continue
        lobby_id, order = record.get("lobby_id"), record.get("order")
        if not isinstance(lobby_id, str) or lobby_id in directory.lobbies or not isinstance(order, list):
            continue
        roles, bots = record.get("roles") or {}, record.get("bots") or {}
        lobby = Lobby(lobby_id, dict(record.get("rules") or {}), game=str(record.get("game", "doppelkopf")))
        lobby.room_id = info.room_id
        for seat, name in sorted(info.seats.items()):
            if not 0 <= seat < len(order):
                continue
            uid = str(order[seat])
            bot_type = bots.get(uid)
            member = Member(uid, name, int(roles.get(uid, ROLE_PLAYER)), None, True, bot_type)
            directory.add_member(lobby, member)
            directory.seat_uuids[name.lower()] = uid
        if lobby.humans():
            directory.lobbies[lobby_id] = lobby
        else:
            for uid in lobby.members:
                directory.lobby_of.pop(uid, None)
