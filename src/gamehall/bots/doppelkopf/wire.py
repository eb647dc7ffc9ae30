"""A Doppelkopf player over the cg protocol: a sans-I/O :class:`CgPlayer` (packets in, packets
out) and :class:`CgWireBot`, its asyncio TCP client; :func:`run_bots` runs many.

The player only knows what it receives, as a real client does: its hand (transfers into its own
``handN`` slot with values), the cards on the table, the game type. It plays a card of the led
class when it holds one (the engine's own ranking classifies cards), chosen at random or by the
heuristic of :mod:`.policy`; if the server still refuses the card (pigs and other rules it does
not model) it tries the next one. It answers "no" to every question, readies at once, and after
``rounds`` rounds votes ``end_yes``. Each bot registers (or logs in), opens a lobby of its own,
invites three ``bot_dk_dumb`` and plays one game per lobby. Like the reference client, it says
``game.start{}`` ("cards created") after each round's creation transfers.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from gamehall.bots.doppelkopf.policy import choose_card, ranking_of
from gamehall.bots.reconnect import play_reconnecting
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.cg import registry
from gamehall.protocols.cg.codec import CgCodec, Packet

log = logging.getLogger(__name__)


FOLLOWED = ("cancel_yes", "adjourn_yes", "end_yes")
"""Votes a bot backs as soon as another seat casts them."""
ANSWERS = {"solo": "solo_no", "poverty_accept": "poverty_decline", "accusation_vote": "accusation_no"}


REFUSED_RETRY_S = 0.5
"""The pause before trying again after the server refused a login back into the game."""
INVITATION_WAIT_S = 0.3
"""How long a bot waits after its login for a browser table's invitation before it opens a
table of its own."""


@dataclass
class BotStats:
    games_finished: int = 0
    rounds: int = 0
    refusals: list[str] = field(default_factory=list)
    closed_reason: str | None = None


class CgPlayer:
    """The sans-I/O part: feed it every packet, send what it returns."""

    def __init__(
        self,
        name: str,
        password: str,
        *,
        policy: str = "random",
        rounds: int = 1,
        flavor: str = "vanilla",
        seed: int | None = None,
        guests: Sequence[str] = (),
        wait_for_invite: bool = False,
        wait_for_invitation: bool = False,
    ) -> None:
        self.name = name
        self.guests = tuple(guests)
        """Accounts to invite to this bot's lobby (the other seats get ``bot_dk_dumb``)."""
        self.wait_for_invite = wait_for_invite
        """Open no lobby, ever: accept the first invitation instead (a guest of another bot's
        lobby). Unlike ``wait_for_invitation``, which opens a table of its own when no
        invitation comes right after the login."""
        self.in_game = False
        """Between ``game.start`` and ``game.end``: a login after a lost connection is then a
        rejoin, which the server makes by itself (note §5.2)."""
        self.password = password
        self.policy = policy
        self.rounds = rounds
        self.flavor = flavor
        self.rng = random.Random(seed)
        self.uuid = ""
        self.my_slot = ""
        self.hand: dict[str, str] = {}
        self.table: list[str] = []
        self.game_type = "normal"
        self.rules: dict[str, Any] = {}
        self.tried: set[str] = set()
        self.stats = BotStats()
        self.done = False
        self.registered = False
        self.voted: set[str] = set()
        self.in_end = False
        self.loading = False
        """Between a round's ``loading`` and the end of its creation transfers."""
        self.wait_for_invitation = wait_for_invitation
        """After the login, first take a browser table's invitation if one comes (the wire bot,
        :class:`CgWireBot`); else open a table of our own at once."""
        self.pending_create = False
        """Logged in, not yet in a lobby: a browser table's invitation may still come (the server
        sends it right after the login); :meth:`create_own_table` when none does."""
        self.joining_table = False
        """Accepted an invitation to a browser table: a player there, not the lobby's host."""
        self.refused: str | None = None
        """The ``cg:auth`` status that refused this connection's login back into the game: the
        connection is then given up and tried again, as a player would. On a hall of several
        nodes a name stays in use for up to a lease ttl after its node died (until the hall
        knows that node is gone; docs/scale-out.md, "Failover and drain"), and cg answers a
        refused hall login as ``wrong_credentials``; a first login refused still ends the bot."""

    def on_packet(self, packet: Packet) -> list[Packet]:
        body = packet.body
        name = packet.name
        if name == registry.HELLO:
            return [Packet(registry.SETTYPE, {"conntype": "classic"})]
        if name == registry.HANDSHAKE:
            return [
                Packet(registry.HANDSHAKE_ACCEPT, {"success": True}),
                Packet("cg:version.check", {"protoversion": 1, "semver": "0.3.2-dev", "flavor": self.flavor}),
            ]
        if name == "cg:version.check":
            return [Packet("cg:auth", {"username": self.name, "pwd": self.password, "create": True})]
        if name == "cg:auth":
            status = body.get("status")
            if status == "user_exists" and not self.registered:
                self.registered = True
                return [Packet("cg:auth", {"username": self.name, "pwd": self.password})]
            if status == "logged_in":
                self.uuid = body["uuid"]
                if self.in_game or self.wait_for_invite:
                    return []
                if not self.wait_for_invitation:
                    return [self._create()]
                self.pending_create = True
                return []
            if self.in_game:  # a login back into the game: try again (see ``refused``)
                self.refused = str(status)
                return []
            self.stats.closed_reason = str(status)
            self.done = True
            return []
        if name == "cg:lobby.invite" and self.wait_for_invite and not self.in_game:
            reply = {"lobby_id": body["lobby_id"], "inviter": body["inviter"], "accepted": True}
            return [Packet("cg:lobby.invite.accept", reply)]
        if name == "cg:lobby.invite" and self.pending_create:  # a browser table with a free seat
            self.pending_create = False
            self.joining_table = True
            accept = {"accepted": True, "lobby_id": body["lobby_id"], "inviter": body["inviter"]}
            return [Packet("cg:lobby.invite.accept", accept)]
        if (
            name == "cg:status.message"
            and self.joining_table
            and str(body.get("message", "")).startswith("cg:msg.lobby.invite.accept.")
        ):
            self.joining_table = False  # the table filled up or started meanwhile: a table of our own
            return [self._create()]
        if name == "cg:lobby.join":
            if self.in_game:
                return []  # a rejoin: the game follows
            if self.wait_for_invite or self.joining_table:  # someone else's table: ready to play
                return [Packet("cg:lobby.ready", {"ready": True})]
            names = [*self.guests, *["bot_dk_dumb"] * (3 - len(self.guests))]
            invites = [Packet("cg:lobby.invite", {"username": guest}) for guest in names]
            return [*invites, Packet("cg:lobby.ready", {"ready": True})]
        if name == "cg:game.start":
            self.in_game = True
            self.rules = {k.removeprefix("dk."): v for k, v in body.get("gamerules", {}).items()}
            return []
        created: list[Packet] = []
        if self.loading and not (name == "cg:game.dk.card.transfer" and body.get("from_slot") is None):
            self.loading = False  # the round's creation transfers are over: "cards created"
            created = [Packet("cg:game.start", {})]
        return created + self._table_packet(name, body)

    def create_own_table(self) -> list[Packet]:
        """No invitation came after the login: open a lobby of our own (with server bots)."""
        if not self.pending_create:
            return []
        self.pending_create = False
        return [self._create()]

    @staticmethod
    def _create() -> Packet:
        return Packet("cg:lobby.create", {"game": "doppelkopf", "variant": "c"})

    def _table_packet(self, name: str, body: dict[str, Any]) -> list[Packet]:
        if name == "cg:game.dk.round.change":
            return self._round_change(body)
        if name == "cg:game.dk.card.transfer":
            self._transfer(body)
            return []
        if name == "cg:game.dk.question" and body["target"] == self.uuid:
            answer = ANSWERS.get(body["type"], body["type"] + "_no")
            return [Packet("cg:game.dk.announce", {"type": answer})]
        if name == "cg:game.dk.announce":
            return self._follow_vote(body)
        if name == "cg:game.dk.turn":
            self.tried = set()
            if body["current_player"] == self.uuid:
                return self._play()
            return []
        if name == "cg:status.message":
            self.stats.refusals.append(str(body.get("message")))
            if body.get("message") == "cg:msg.game.dk.pc_wrong_card":
                return self._play()
            return []
        if name == "cg:game.end":
            self.stats.games_finished += 1
            self.in_game = False
            self.done = True
            return []
        if name == registry.CLOSECONN:
            self.stats.closed_reason = body.get("reason")
            self.done = True
        return []

    def connection_lost(self) -> None:
        """The connection went away before the end: the next connection logs in afresh (and,
        in a game, is put back into it by the server)."""
        self.registered = False
        self.refused = None
        self.loading = False
        self.pending_create = False  # the next login asks again; no lobby.create before it
        self.joining_table = False

    def _round_change(self, body: dict[str, Any]) -> list[Packet]:
        if body.get("phase") == "loading":
            self.loading = True
        if "player_list" in body:
            self.my_slot = f"hand{body['player_list'].index(self.uuid)}"
            self.hand, self.table = {}, []
            self.voted, self.in_end = set(), False
        if "game_type" in body and body.get("phase") != "end":
            self.game_type = str(body["game_type"])
        phase = body.get("phase")
        if phase == "w_for_ready":
            return [Packet("cg:game.dk.announce", {"type": "ready"})]
        if phase == "end":
            self.stats.rounds += 1
            self.in_end = True
            vote = "end_yes" if self.stats.rounds >= self.rounds else "continue_yes"
            self.voted.add(vote)
            return [Packet("cg:game.dk.announce", {"type": vote})]
        return []

    def _follow_vote(self, body: dict[str, Any]) -> list[Packet]:
        """Another seat voted yes on cancel, adjourn or end: say yes too (as the lobby bots do),
        once per vote and round."""
        kind = str(body.get("type", ""))
        if body.get("announcer") == self.uuid or kind not in FOLLOWED:
            return []
        if kind in self.voted or (kind != "cancel_yes" and not self.in_end):
            return []
        self.voted.add(kind)
        return [Packet("cg:game.dk.announce", {"type": kind})]

    def _transfer(self, body: dict[str, Any]) -> None:
        card, to_slot = body["card_id"], body["to_slot"]
        if to_slot == self.my_slot:
            self.hand[card] = body["card_value"]
        elif body["from_slot"] == self.my_slot:
            self.hand.pop(card, None)
        if to_slot == "table":
            self.table.append(body["card_value"])
        elif str(to_slot).startswith("tricks"):
            self.table = []

    def _play(self) -> list[Packet]:
        candidates = [c for c in self.hand if c not in self.tried]
        if not candidates:
            return []
        view = {"rules": self.rules}
        ranking = ranking_of(view, {"game_type": self.game_type})
        if self.table:
            led = ranking.classify(self.table[0])
            following = [c for c in candidates if ranking.classify(self.hand[c]) == led]
            candidates = following or candidates
        if self.policy == "heuristic":
            trick = {"cards": [{"value": v} for v in self.table]}
            card = choose_card(candidates, self.hand, trick, ranking)
        else:
            card = self.rng.choice(candidates)
        self.tried.add(card)
        return [Packet("cg:game.dk.card.intent", {"intent": "play", "card": card})]


class CgWireBot:
    """One :class:`CgPlayer` over TCP. A connection lost before the game's end (the server
    restarted, the network broke) is not the end: the bot connects again and logs in, and the
    server gives its seat back with the round's state (note §5.2), for up to ``reconnect_s``
    seconds."""

    def __init__(
        self, host: str, port: int, name: str, password: str = "botpass", *, reconnect_s: float = 60.0,
        **player: Any,
    ) -> None:  # fmt: skip
        self.host, self.port = host, port
        self.player = CgPlayer(name, password, **{"wait_for_invitation": True, **player})
        self.codec = CgCodec()
        self.received: list[Packet] = []
        self.reconnect_s = reconnect_s
        self.reconnects = 0

    async def run(self) -> BotStats:
        """Play until the game ends; returns the bot's statistics.

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
        return self.player.stats

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """One connection, until the player is done or it closes. Returns whether the server
        said anything (a relay in front of a server that is not back yet closes at once) and
        did not refuse the login back into the game (:attr:`CgPlayer.refused`)."""
        self.codec = CgCodec()
        heard = len(self.received)
        try:
            while not self.player.done and self.player.refused is None:
                if self.player.pending_create:
                    try:  # the server invites right after the login, or not at all
                        data = await asyncio.wait_for(reader.read(65536), INVITATION_WAIT_S)
                    except TimeoutError:
                        for reply in self.player.create_own_table():
                            writer.write(self.codec.encode(reply))
                        await writer.drain()
                        continue
                else:
                    data = await reader.read(65536)
                if not data:
                    break
                self.codec.receive_data(data)
                while (packet := self.codec.next_message()) is not NEED_DATA:
                    assert isinstance(packet, Packet)
                    self.received.append(packet)
                    if packet.name == registry.HANDSHAKE:
                        ids = {int(i): str(n) for n, i in packet.body["registry"].items()}
                        self.codec.use_ids(ids)
                    if packet.name == "cg:version.check" and "extensions" in packet.body:
                        extra = {int(i): str(n) for n, i in packet.body["extensions"].items()}
                        self.codec.use_ids({**self.codec.ids, **extra})
                    for reply in self.player.on_packet(packet):
                        writer.write(self.codec.encode(reply))
                await writer.drain()
            if self.player.done and not writer.is_closing():
                writer.write(self.codec.encode(Packet(registry.CLOSECONN, {"reason": None})))
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            try:
                await writer.wait_closed()
            except ConnectionError:
                log.debug("connection already gone")
        if self.player.refused is not None:
            await asyncio.sleep(REFUSED_RETRY_S)
            return False  # not back yet: the reconnect window keeps running
        return len(self.received) > heard


async def run_bots(
    host: str, port: int, count: int, *, names_prefix: str = "dkbot", policy: str = "random", games: int = 1
) -> list[BotStats]:
    """``count`` wire bots, each playing ``games`` games (0: forever) at a table of its own,
    with three ``dk_dumb`` server bots. cg names may not start with ``bot`` (those are the
    server's), so such a prefix gets ``dk`` in front."""
    if names_prefix.lower().startswith("bot"):
        names_prefix = "dk" + names_prefix
    stats: list[BotStats] = []
    game = 0
    while games == 0 or game < games:
        bots = [
            CgWireBot(host, port, f"{names_prefix}{i}", policy=policy, seed=game * 1000 + i)
            for i in range(1, count + 1)
        ]
        stats += await asyncio.gather(*(bot.run() for bot in bots))
        game += 1
    return stats
