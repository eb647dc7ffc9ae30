"""One cg connection: peng3dnet's connection setup, then the cg states over the hall (note §2-§5).

The server makes one :class:`CgDialogue` for every accepted TCP connection of the ``cg`` listener
(:mod:`.spec`).

L1 (peng3dnet, §2.1-§2.2)::

    accept -> hello -> WAIT_TYPE --settype classic--> handshake -> WAIT_ACCEPT --accept--> L2
                                 --settype ping-----> PING (64 -> 65, no handshake)
                                 --other conntype---> closeconn unknownconntype

L2 (cg, §3), never sent on the wire: ``versioncheck -> auth -> active <-> lobby <-> game_dk``,
an enum with its transition table in :mod:`.states`; :meth:`CgDialogue.move` is the only way
a connection's state changes.

A packet outside its states, or with a key outside its set, is dropped and logged (§3); a
refusal is a ``cg:status.message``. Bad bytes (bad length, AES flag, bad zlib, not msgpack, not a
map) end the connection with ``closeconn{reason:"protocolerror"}``; an unknown packet id is only
dropped. Lobby packets are handled in :mod:`.lobby_commands`, table packets in
:mod:`.game_commands`; events of the table become packets in :mod:`.game_out`.

Accounts: protocols stay sans-I/O, so the account store is given. It is part of the server's
:class:`~.lobbies.CgServices` (with the lobby directory), which every dialogue of that server
gets; tests build their own.
"""

from __future__ import annotations

import contextlib
import enum
import logging
import time
from collections.abc import Callable
from typing import Any, Final

from gamehall.protocols._core import (
    NEED_DATA,
    UNLIMITED,
    Cancellable,
    CloseReason,
    Delivery,
    HallError,
    HallPort,
    ProtocolError,
    Session,
    Wire,
)
from gamehall.protocols.cg import browser_tables, game_commands, lobby_commands, members, registry
from gamehall.protocols.cg.accounts import (
    PROFILE_IMG_MAX,
    Account,
    login_keys,
    valid_password,
    valid_username,
)
from gamehall.protocols.cg.codec import CgCodec, Packet, check_serverbound, filter_for_vanilla, parse_uuid
from gamehall.protocols.cg.game_out import GameTranslator
from gamehall.protocols.cg.lobbies import CgServices, Directory
from gamehall.protocols.cg.pacing import Pacer, Pacing
from gamehall.protocols.cg.states import ACCEPTED_IN, CgState, Transition, after
from gamehall.rules._core import Event

log = logging.getLogger(__name__)

PENG3DNET_VERSION: Final = "0.1.3a0"
PENG3DNET_RELEASE: Final = "0.1.3"
PENG3DNET_PROTOVERSION: Final = 2
CG_PROTOVERSION: Final = 1
SERVER_SEMVER: Final = "0.3.2"
PREAUTH_TIMEOUT_S: Final = 30.0
IDLE_TIMEOUT_S: Final = 0.0
"""No heartbeat exists at any layer (§2.5): the server's idle cut-off is off for cg; the
pre-auth timeout and TCP keepalive find dead or stuck peers."""


class L1(enum.Enum):
    WAIT_TYPE = "wait_type"
    WAIT_ACCEPT = "wait_accept"
    ACTIVE = "active"
    PING = "ping"
    CLOSED = "closed"


class CgDialogue:
    """The cg protocol for one TCP connection (see the module docstring)."""

    def __init__(
        self,
        services: CgServices,
        wire: Wire,
        *,
        preauth_timeout_s: float = PREAUTH_TIMEOUT_S,
        wall_time: Callable[[], float] = time.time,
    ) -> None:
        self.services = services
        self.hall: HallPort = services.hall
        self.wire = wire
        self.clock = services.clock
        self.accounts = services.accounts
        self.directory: Directory = services.directory
        self.wall_time = wall_time
        self.codec = CgCodec()
        self.l1 = L1.WAIT_TYPE
        self._state = CgState.VERSIONCHECK
        self._flavor = "vanilla"
        self.account: Account | None = None
        self._session: Session | None = None
        self.room_id: str | None = None
        self.translator: GameTranslator | None = None
        self.resynced: tuple[str, int] | None = None
        """(room, seq): a rejoin's resync already showed that room's events up to seq."""
        self.pacer = Pacer(self.clock, self.send_packet)
        self.pacing: Pacing | None = None
        self.chat_times: list[float] = []
        self.waiting = False
        """A password check runs off the loop: input waits (see :meth:`handle_buffered`)."""
        self._preauth: Cancellable | None = self.clock.call_later(preauth_timeout_s, self._preauth_expired)
        self._raw_send(registry.HELLO, {"version": PENG3DNET_VERSION, "protoversion": PENG3DNET_PROTOVERSION})

    # ------------------------------------------------------------------ Peer (lobbies)

    @property
    def account_uuid(self) -> str:
        return "" if self.account is None else self.account.uuid

    @property
    def username(self) -> str:
        return "" if self.account is None else self.account.username

    @property
    def flavor(self) -> str:
        return self._flavor

    @property
    def session(self) -> Session | None:
        return self._session

    @property
    def state(self) -> CgState:
        return self._state

    def in_state(self) -> CgState:
        return self._state

    def move(self, transition: Transition) -> None:
        """Take ``transition`` (:data:`.states.TRANSITIONS`). One the table does not allow from
        the current state is a bug: logged, and the state is kept."""
        target = after(self._state, transition)
        if target is None:
            log.error(
                "cg %s: %s from state %s is not in the table: ignored",
                self.wire.peer,
                transition,
                self._state,
            )
            return
        self._state = target

    def send_packet(self, packet: Packet) -> None:
        """Send an L2 packet, filtered for this connection's flavor (§3 rule 3)."""
        if self.l1 is not L1.ACTIVE:
            return
        if self._flavor == "vanilla":
            if packet.name.startswith("gamehall:") or packet.name == "cg:game.save":
                return
            if packet.name == "cg:status.message" and str(packet.body.get("message", "")).startswith(
                "gamehall:"
            ):
                return
            if packet.name == "cg:game.dk.complaint" and "verdict" in packet.body:
                packet = Packet(packet.name, {k: packet.body[k] for k in ("accused", "type")})
            filtered = filter_for_vanilla(packet)
            if filtered is None:
                return
            packet = filtered
        self.wire.send(self.codec.encode(packet))

    def status(self, message: str, data: dict[str, Any] | None = None, *, kind: str = "warn") -> None:
        """A ``cg:status.message`` (refusals are ``warn``, information ``notice``)."""
        self.send_packet(Packet("cg:status.message", {"type": kind, "message": message, "data": data or {}}))

    def _raw_send(self, name: str, body: dict[str, Any]) -> None:
        self.wire.send(self.codec.encode(Packet(name, body)))

    # ------------------------------------------------------------------ closing

    def close(self, reason: str | None) -> None:
        """closeconn with ``reason``, then close after the flush; input is discarded after."""
        if self.l1 is L1.CLOSED:
            return
        self._raw_send(registry.CLOSECONN, {"reason": reason})
        self.l1 = L1.CLOSED
        self._cancel_preauth()
        self.wire.close()

    def _preauth_expired(self) -> None:
        self._preauth = None
        if self._state in (CgState.VERSIONCHECK, CgState.AUTH) and self.l1 is not L1.CLOSED:
            self.close("timeout")

    def _cancel_preauth(self) -> None:
        if self._preauth is not None:
            self._preauth.cancel()
            self._preauth = None

    # ------------------------------------------------------------------ Dialogue: input

    @property
    def closed(self) -> bool:
        return self.l1 is L1.CLOSED

    def data_received(self, data: bytes) -> None:
        self.receive_data(data)
        self.handle_buffered(UNLIMITED)

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes; the server calls :meth:`handle_buffered` to pace the handling."""
        if not self.closed:
            self.codec.receive_data(data)

    def handle_buffered(self, limit: int) -> int:
        """Handle up to ``limit`` buffered packets (or framing errors); returns how many.
        Stops early while a password check runs off the loop (:meth:`Wire.offload`)."""
        handled = 0
        while handled < limit and not self.closed and not self.waiting:
            try:
                packet = self.codec.next_message()
            except ProtocolError as exc:
                handled += 1
                if exc.code == "unknown_packet":
                    log.info("cg %s: dropped: %s", self.wire.peer, exc.reason)
                    continue
                log.info("cg %s: protocol error: %s", self.wire.peer, exc.reason)
                self.close("protocolerror")
                break
            if packet is NEED_DATA:
                break
            handled += 1
            self._handle(packet)
        return handled

    def connection_lost(self) -> None:
        self.l1 = L1.CLOSED
        self._cancel_preauth()
        self.pacer.drain()
        self._leave_hall(dropped=True)

    def _leave_hall(self, *, dropped: bool) -> None:
        session, self._session = self._session, None
        if self.account is not None and self.directory.online.get(self.account.uuid) is self:
            del self.directory.online[self.account.uuid]
        if session is None:
            return
        in_game = self._state is CgState.GAME_DK
        if not in_game:
            lobby_commands.drop_from_lobby(self)
        with contextlib.suppress(HallError):
            session.logout(dropped=dropped and in_game)

    def _handle(self, packet: Packet) -> None:
        if packet.name == registry.CLOSECONN:
            self.l1 = L1.CLOSED
            self._cancel_preauth()
            self.pacer.drain()
            self.wire.close()
            self._leave_hall(dropped=True)
            return
        if self.l1 is L1.WAIT_TYPE:
            self._settype(packet)
        elif self.l1 is L1.WAIT_ACCEPT:
            if packet.name == registry.HANDSHAKE_ACCEPT:
                self.l1 = L1.ACTIVE
            else:
                log.info("cg %s: %s before the handshake was accepted: dropped", self.wire.peer, packet.name)
        elif self.l1 is L1.PING:
            if packet.name == "ping":
                self._raw_send("pong", self._pong(packet.body))
        elif self.l1 is L1.ACTIVE:
            self._handle_l2(packet)

    def _settype(self, packet: Packet) -> None:
        if packet.name != registry.SETTYPE:
            log.info("cg %s: %s before settype: dropped", self.wire.peer, packet.name)
            return
        conntype = packet.body.get("conntype", "classic")
        if conntype == "classic":
            self._raw_send(
                registry.HANDSHAKE,
                {
                    "version": PENG3DNET_VERSION,
                    "protoversion": PENG3DNET_PROTOVERSION,
                    "registry": dict(registry.REGISTRY),
                },
            )
            self.l1 = L1.WAIT_ACCEPT
        elif conntype == "ping":
            self.codec.use_ids({registry.PING_ID: "ping", registry.PONG_ID: "pong", 16: registry.CLOSECONN})
            self.l1 = L1.PING
        else:
            self.close("unknownconntype")

    def _pong(self, request: dict[str, Any]) -> dict[str, Any]:
        players = sorted(peer.username for peer in self.directory.online.values())
        return {
            "oldmsg": request,
            **self.services.ping_info,
            "playercount": len(players),
            "playerlist": players,
            "canlogon": True,
            "version": CG_PROTOVERSION,
            "flavor": "vanilla",
            "flavors": list(registry.FLAVORS),
            "timestamp": self.wall_time(),
            "peng3dnet": {
                "version": PENG3DNET_VERSION,
                "release": PENG3DNET_RELEASE,
                "protoversion": PENG3DNET_PROTOVERSION,
            },
        }

    def _handle_l2(self, packet: Packet) -> None:
        states = ACCEPTED_IN.get(packet.name)
        if states is None or self._state not in states:
            log.info("cg %s: %s in state %s: dropped", self.wire.peer, packet.name, self._state)
            return
        problem = check_serverbound(packet)
        if problem is not None:
            log.info("cg %s: dropped: %s", self.wire.peer, problem)
            return
        try:
            self._dispatch(packet)
        except HallError as exc:
            log.info("cg %s: %s refused by the hall: %s", self.wire.peer, packet.name, exc.reason)

    def _dispatch(self, packet: Packet) -> None:
        name, body = packet.name, packet.body
        if name == "cg:version.check":
            self._version_check(body)
        elif name == "cg:auth.precheck":
            self._precheck(body)
        elif name == "cg:auth":
            self._auth(body)
        elif name == "cg:status.user":
            self._status_user(body)
        elif name.startswith("cg:lobby.") or name == "cg:game.load":
            lobby_commands.handle(self, name, body)
        elif name == registry.CHAT:
            lobby_commands.chat(self, body)
        else:
            game_commands.handle(self, name, body)

    # ------------------------------------------------------------------ version and auth

    def _version_check(self, body: dict[str, Any]) -> None:
        flavor = body["flavor"]
        compatible = body["protoversion"] == CG_PROTOVERSION and flavor in registry.FLAVORS
        reply: dict[str, Any] = {
            "protoversion": CG_PROTOVERSION,
            "semver": SERVER_SEMVER,
            "flavor": flavor if compatible else "vanilla",
            "compatible": compatible,
        }
        if not compatible:
            self._raw_send("cg:version.check", reply)
            self.close("versionmismatch")
            return
        if flavor == "gamehall":
            reply["extensions"] = dict(registry.EXTENSIONS)
            self.codec.use_ids(registry.ids_for("gamehall"))
        self._flavor = flavor
        self._raw_send("cg:version.check", reply)
        self.move(Transition.VERSION_AGREED)

    def _precheck(self, body: dict[str, Any]) -> None:
        username = body["username"]
        name = username if isinstance(username, str) else ""
        self.send_packet(
            Packet(
                "cg:auth.precheck",
                {
                    "username": name,
                    "valid": valid_username(name),
                    "exists": bool(name) and self.accounts.find(name) is not None,
                    "key": "",
                },
            )
        )

    def _auth_reply(self, **body: Any) -> None:
        self.send_packet(Packet("cg:auth", body))

    def _auth(self, body: dict[str, Any]) -> None:
        """``cg:auth``: register and/or log in. The password hash (scrypt) runs off the loop
        through :meth:`Wire.offload`; input of this connection waits for its answer. Wrong
        passwords are limited per account and per address (:class:`LoginThrottle`): past the
        free attempts, each attempt waits for a growing delay first (throttled, never cut)."""
        username, password = body["username"], body["pwd"]
        if not isinstance(username, str) or not isinstance(password, str):
            self._auth_reply(status="wrong_credentials")
            return
        create = body.get("create") is True
        if create:
            if not self.accounts.allow_new:
                self._auth_reply(status="register_disabled", username=username)
                return
            if not valid_username(username) or not valid_password(password):
                self._auth_reply(status="wrong_credentials")
                return
        keys = login_keys(username, self.wire.peer)
        wait = self.directory.logins.reserve(keys, self.clock.now())
        accounts = self.accounts

        def check() -> tuple[str, Account | None]:  # runs in a worker thread
            if create and accounts.create(username, password) is None:
                return "user_exists", None
            return "checked", accounts.verify(username, password)

        def done(result: tuple[str, Account | None]) -> None:
            self.waiting = False
            if self.closed:
                return
            self._auth_checked(username, keys, *result)

        def start() -> None:
            if self.closed:
                self.waiting = False
                return
            self.wire.offload(check, done)

        self.waiting = True
        if wait > 0:
            log.info("cg %s: login for %r throttled %.1f s after failures", self.wire.peer, username, wait)
            self.clock.call_later(wait, start)
        else:
            start()

    def _auth_checked(
        self, username: str, keys: tuple[str, str], outcome: str, account: Account | None
    ) -> None:
        if outcome == "user_exists":
            self._auth_reply(status="user_exists", username=username)
            return
        if account is None:
            self.directory.logins.failed(keys, self.clock.now())
            self._auth_reply(status="wrong_credentials")
            return
        self.directory.logins.succeeded(keys[0])
        if account.blocked:
            self._auth_reply(status="blocked", username=account.username)
            return
        self._log_in(account)

    def _log_in(self, account: Account) -> None:
        older = self.directory.online.get(account.uuid)
        if older is not None and isinstance(older, CgDialogue):
            older.replaced()
        try:
            session = self.hall.login(account.username, self, protocol="cg", resume_without_token=True)
        except HallError as exc:
            log.info("cg %s: hall login of %s refused: %s", self.wire.peer, account.username, exc.reason)
            self._auth_reply(status="wrong_credentials")
            return
        self.account, self._session = account, session
        self.directory.online[account.uuid] = self
        self.directory.seat_uuids[account.username.lower()] = account.uuid
        self._cancel_preauth()
        self.send_packet(members.user_status(self, account))
        self._auth_reply(
            status="logged_in",
            username=account.username,
            uuid=account.uuid,
            pwd="",
            serverid=self.accounts.server_id(),
        )
        self.move(Transition.LOGGED_IN)
        game_commands.rejoin(self)
        browser_tables.offer_open_table(self)  # cg has no table list: a waiting browser table invites

    def replaced(self) -> None:
        """A newer login of the same account: close this one (``otherlogin``), keep any seat."""
        self.close("otherlogin")
        if self.account is not None and self.directory.online.get(self.account.uuid) is self:
            del self.directory.online[self.account.uuid]
        session, self._session = self._session, None
        if session is not None and self._state is not CgState.GAME_DK:
            lobby_commands.drop_from_lobby(self)
        if session is not None:
            with contextlib.suppress(HallError):
                session.logout(dropped=True)

    # ------------------------------------------------------------------ status.user

    def _status_user(self, body: dict[str, Any]) -> None:
        if self.account is None:
            return
        wanted = parse_uuid(body.get("uuid"))
        if wanted is not None and wanted == self.account.uuid and set(body) - {"uuid", "status"}:
            self._update_self(body)
            return
        found: Account | None = None
        if wanted is not None:
            found = self.accounts.get(wanted)
        elif isinstance(body.get("username"), str):
            found = self.accounts.find(body["username"])
        if found is not None:
            self.send_packet(members.user_status(self, found))
            return
        bot = lobby_commands.bot_status(self, wanted)
        if bot is not None:
            self.send_packet(bot)
        elif self._flavor == "gamehall":
            asked = {"uuid": wanted} if wanted is not None else {"username": body.get("username")}
            self.send_packet(Packet("cg:status.user", {**asked, "status": "notexist"}))

    def _update_self(self, body: dict[str, Any]) -> None:
        assert self.account is not None
        me = self.account.uuid
        if "username" in body:
            name = body["username"]
            if not isinstance(name, str) or not valid_username(name) or not self.accounts.rename(me, name):
                self.status("cg:msg.status.user.username_not_available")
                return
        if "profile_img" in body:
            img = body["profile_img"]
            if not isinstance(img, str) or not img:
                self.status("cg:msg.status.user.empty_img")
                return
            if len(img) > PROFILE_IMG_MAX:
                self.status("cg:msg.status.user.img_name_long")
                return
            self.accounts.set_profile_img(me, img)
        if "pwd" in body:
            pair = body["pwd"]
            if not (
                isinstance(pair, list)
                and len(pair) == 2
                and all(isinstance(p, str) for p in pair)
                and valid_password(pair[1])
            ):
                self.status("cg:msg.status.user.wrong_pwd")
                return
            old, new = pair
            accounts = self.accounts

            def done(changed: bool) -> None:
                self.waiting = False
                if self.closed:
                    return
                if not changed:
                    self.status("cg:msg.status.user.wrong_pwd")
                    return
                self._send_own_status(me)

            self.waiting = True  # scrypt (check the old, hash the new) runs off the loop
            self.wire.offload(lambda: accounts.change_password(me, old, new), done)
            return
        self._send_own_status(me)

    def _send_own_status(self, me: str) -> None:
        updated = self.accounts.get(me)
        if updated is not None:
            self.account = updated
            self.send_packet(members.user_status(self, updated))

    # ------------------------------------------------------------------ Listener (hall)

    def deliver(self, room_id: str, delivery: Delivery) -> None:
        """A table event, translated for this connection alone.

        Encode once: cg opts out of the shared render cache
        (:meth:`~gamehall.protocols._core.Delivery.rendered`) on purpose. Its packets come
        from this connection's :class:`~.game_out.GameTranslator`, a state machine of what the
        connection has been shown (where each card lies, which values it has seen, its own
        buttons), and leave through its own pacer and flavor filter with its negotiated packet
        ids. Two connections' packets for one event are equal only if their whole histories
        are, which no small key can say, and a Doppelkopf table has four seats, most events
        differing per seat anyway (docs/architecture.md, "Encode once").
        """
        if room_id != self.room_id:
            return
        if self.resynced is not None and self.resynced[0] == room_id and delivery.seq <= self.resynced[1]:
            return
        game_commands.deliver(self, delivery.event)

    def hall_event(self, event: Event) -> None:
        return None  # cg has no hall-wide chat or notices on the wire

    def invited(self, room_id: str, inviter: str) -> bool:
        """Invitable: a browser player invites this cg user to a browser table."""
        return browser_tables.invite(self, room_id, inviter)

    def ended(self, room_id: str, reason: CloseReason, text: str) -> None:
        if room_id == self.room_id:  # after what the pacer still holds of that game
            self.pacer.push(lambda: game_commands.game_over(self, None))

    def disconnect(self, reason: CloseReason, text: str) -> None:
        self._session = None
        if reason is CloseReason.REPLACED:
            self.close("otherlogin")
        elif reason is CloseReason.SHUTDOWN:
            self.close("servershutdown")
        else:
            self.close(None)
