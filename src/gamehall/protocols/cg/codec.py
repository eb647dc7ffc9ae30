"""The cg codec: peng3dnet frames <-> named packets, and the packets' key sets (note §1, §4).

:class:`CgCodec` follows the contract of :class:`~gamehall.protocols._core.Codec`: bytes in,
:class:`Packet` out (named with the connection's current id table), packets in, bytes out. The
dialogue switches the id table when the connection type (``ping``) or the flavor is known.

The key tables say, per packet, which keys a peer may send (:data:`SERVERBOUND`) and which keys
the reference client accepts (:data:`CLIENTBOUND`); :func:`filter_for_vanilla` drops anything
else before a packet reaches a vanilla connection (note §3 rule 3). UUID helpers live here too:
we emit 32 lowercase hex digits and accept the dashed form in any case (§1.3).
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, field
from typing import Any, Final

from gamehall.protocols._core import NEED_DATA, ProtocolError, _NeedData
from gamehall.protocols.cg.framing import MAX_FRAME_BYTES, FrameDecoder, encode_frame
from gamehall.protocols.cg.registry import VANILLA_IDS


@dataclass(frozen=True, slots=True)
class Packet:
    """One packet by name (``cg:auth``), with its body map."""

    name: str
    body: dict[str, Any] = field(default_factory=dict)


class CgCodec:
    """One connection's frames (either side: the id table is the same both ways)."""

    def __init__(self, *, max_frame_bytes: int = MAX_FRAME_BYTES) -> None:
        self._decoder = FrameDecoder(max_frame_bytes=max_frame_bytes)
        self.ids: dict[int, str] = dict(VANILLA_IDS)

    def use_ids(self, ids: dict[int, str]) -> None:
        """Switch the id table (ping connection, negotiated flavor)."""
        self.ids = dict(ids)

    def receive_data(self, data: bytes) -> None:
        self._decoder.receive_data(data)

    def next_message(self) -> Packet | _NeedData:
        """The next packet, or :data:`NEED_DATA`.

        Raises:
            ProtocolError: see :meth:`FrameDecoder.next_frame`; also ``unknown_packet``
                (recoverable: the frame was consumed) for an id outside the table.
        """
        frame = self._decoder.next_frame()
        if frame is NEED_DATA:
            return NEED_DATA
        name = self.ids.get(frame.packet_id)
        if name is None:
            raise ProtocolError(f"unknown packet id {frame.packet_id}", code="unknown_packet")
        return Packet(name, frame.body)

    def encode(self, message: Packet) -> bytes:
        for packet_id, name in self.ids.items():
            if name == message.name:
                return encode_frame(packet_id, message.body)
        raise KeyError(f"{message.name} is not registered on this connection")


# ----------------------------------------------------------------------------- identifiers

_HEX32 = re.compile(r"^[0-9a-f]{32}$")


def wire_uuid(value: uuid.UUID | str) -> str:
    """The form we emit: 32 lowercase hex digits."""
    return value.hex if isinstance(value, uuid.UUID) else uuid.UUID(value).hex


def parse_uuid(value: Any) -> str | None:
    """A peer's uuid (dashed or not, any case) as 32 lowercase hex, or ``None`` if it is none."""
    if not isinstance(value, str):
        return None
    try:
        return uuid.UUID(value.strip()).hex
    except ValueError:
        return None


def is_wire_uuid(value: Any) -> bool:
    return isinstance(value, str) and bool(_HEX32.match(value))


# ----------------------------------------------------------------------------- key tables


@dataclass(frozen=True, slots=True)
class Keys:
    allowed: frozenset[str]
    required: frozenset[str] = frozenset()


def _keys(allowed: str, required: str = "") -> Keys:
    return Keys(frozenset(allowed.split()), frozenset(required.split()))


LOBBY_CHANGE_KEYS: Final = "users user_order user_roles game gamerules gamerule_validators supported_bots"
ROUND_CHANGE_KEYS: Final = (
    "round phase player_list game_type solist modifiers winner eyes extras game_summary "
    "rebtn_lbl pigbtn_lbl wedding_trick_num"
)

SERVERBOUND: Final[dict[str, Keys]] = {
    "peng3dnet:internal.settype": _keys("conntype"),
    "peng3dnet:internal.handshake.accept": _keys("success"),
    "peng3dnet:internal.closeconn": _keys("reason"),
    "cg:version.check": _keys("protoversion semver flavor", "protoversion semver flavor"),
    "cg:auth.precheck": _keys("username", "username"),
    "cg:auth": _keys("pwd create username uuid status serverid", "username pwd"),
    "cg:status.user": _keys("username uuid status pwd profile_img"),
    "cg:lobby.create": _keys("game variant"),
    "cg:lobby.change": _keys(LOBBY_CHANGE_KEYS),
    "cg:lobby.ready": _keys("ready", "ready"),
    "cg:lobby.invite": _keys("username inviter lobby_id", "username"),
    "cg:lobby.invite.accept": _keys("accepted lobby_id inviter", "accepted lobby_id inviter"),
    "cg:lobby.kick": _keys("uuid reason", "uuid"),
    "cg:lobby.leave": _keys("lobby", "lobby"),
    "cg:game.start": _keys("game_type game_id player_list game_summaries gamerules"),
    "cg:game.load": _keys("game_id data", "game_id data"),
    "cg:game.dk.announce": _keys("type data announcer", "type"),
    "cg:game.dk.card.intent": _keys("intent card", "intent card"),
    "cg:game.dk.complaint": _keys("accused type moves move", "accused type"),
    "gamehall:chat": _keys("text", "text"),
}
"""Keys a client may send, per packet; a packet outside its set is dropped (note §3 rule 2)."""

CLIENTBOUND: Final[dict[str, Keys]] = {
    "peng3dnet:internal.hello": _keys("version protoversion"),
    "peng3dnet:internal.handshake": _keys("version protoversion registry"),
    "peng3dnet:internal.closeconn": _keys("reason"),
    "cg:version.check": _keys("protoversion semver flavor compatible"),
    "cg:auth.precheck": _keys("username valid exists key"),
    "cg:auth": _keys("pwd create username uuid status serverid", "status"),
    "cg:status.user": _keys("username uuid status pwd profile_img", "uuid"),
    "cg:status.message": _keys("type message data", "type message"),
    "cg:lobby.join": _keys("lobby", "lobby"),
    "cg:lobby.change": _keys(LOBBY_CHANGE_KEYS),
    "cg:lobby.invite": _keys("username inviter lobby_id"),
    "cg:lobby.leave": _keys("lobby", "lobby"),
    "cg:game.start": _keys(
        "game_type game_id player_list game_summaries gamerules",
        "game_type game_id player_list game_summaries gamerules",
    ),
    "cg:game.end": _keys("next_state", "next_state"),
    "cg:game.dk.round.change": _keys(ROUND_CHANGE_KEYS),
    "cg:game.dk.card.transfer": _keys(
        "card_id card_value from_slot to_slot", "card_id card_value from_slot to_slot"
    ),
    "cg:game.dk.turn": _keys(
        "current_trick total_tricks current_player rebtn_state pigbtn_state",
        "current_trick total_tricks current_player",
    ),
    "cg:game.dk.question": _keys("type target", "type target"),
    "cg:game.dk.announce": _keys("type data announcer", "type announcer"),
    "cg:game.dk.scoreboard": _keys("player pips pip_change points point_change", "player"),
    "cg:game.dk.complaint": _keys("accused type moves move", "accused type"),
}
"""Keys the reference client accepts, per packet (vanilla connections get no other key)."""


def check_serverbound(packet: Packet) -> str | None:
    """Why ``packet`` must be dropped (unknown key, missing key), or ``None`` if it is well formed."""
    keys = SERVERBOUND.get(packet.name)
    if keys is None:
        return f"{packet.name} is not sent by clients"
    extra = set(packet.body) - keys.allowed
    if extra:
        return f"{packet.name}: unknown key(s) {sorted(extra)}"
    missing = keys.required - set(packet.body)
    if missing:
        return f"{packet.name}: missing key(s) {sorted(missing)}"
    return None


VANILLA_AVATARS: Final = frozenset({"default"})
"""The ``profile_img`` names the reference client ships an image for. **Decision (ours):** a
vanilla connection gets ``default`` for any other name (a bot's ``bot``, a name a gamehall client
chose), since the reference client looks the name up among its own files."""


def filter_for_vanilla(packet: Packet) -> Packet | None:
    """``packet`` with only the reference's keys and values it can show, or ``None`` when
    nothing may be sent."""
    keys = CLIENTBOUND.get(packet.name)
    if keys is None:
        return None
    body = {key: value for key, value in packet.body.items() if key in keys.allowed}
    if not body and packet.body:
        return None
    if "profile_img" in body and body["profile_img"] not in VANILLA_AVATARS:
        body["profile_img"] = "default"
    return Packet(packet.name, body)


def check_clientbound(packet: Packet) -> list[str]:
    """What a vanilla peer would reject in ``packet`` (for the key-set lint of the tests)."""
    keys = CLIENTBOUND.get(packet.name)
    if keys is None:
        return [f"{packet.name} is not a reference packet"]
    problems = [f"unknown key {key}" for key in set(packet.body) - keys.allowed]
    problems += [f"missing key {key}" for key in keys.required - set(packet.body)]
    return problems
