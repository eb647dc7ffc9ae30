"""The packet registry: names <-> numeric ids (note §2.1, §2.3, §2.4).

Both flavors share the same 30 names and ids, the reference's registration order: a peng3dnet
client closes with ``packetregmismatch`` unless the *set of names* in the handshake equals its
own, so this list is never extended. The ``gamehall`` flavor adds extension packets on ids
>= 128, announced in the ``cg:version.check`` reply (``extensions``), never in the handshake.
"""

from __future__ import annotations

from typing import Final

HELLO: Final = "peng3dnet:internal.hello"
SETTYPE: Final = "peng3dnet:internal.settype"
HANDSHAKE: Final = "peng3dnet:internal.handshake"
HANDSHAKE_ACCEPT: Final = "peng3dnet:internal.handshake.accept"
CLOSECONN: Final = "peng3dnet:internal.closeconn"

INTERNAL: Final[dict[str, int]] = {
    HELLO: 1,
    SETTYPE: 2,
    HANDSHAKE: 3,
    HANDSHAKE_ACCEPT: 4,
    CLOSECONN: 16,
}
"""peng3dnet's own packets (ids below 64 are reserved and fixed)."""

CG_NAMES: Final[tuple[str, ...]] = (
    "cg:version.check",
    "cg:auth.precheck",
    "cg:auth",
    "cg:status.user",
    "cg:status.message",
    "cg:lobby.create",
    "cg:lobby.join",
    "cg:lobby.change",
    "cg:lobby.ready",
    "cg:lobby.invite",
    "cg:lobby.invite.accept",
    "cg:lobby.kick",
    "cg:lobby.leave",
    "cg:game.start",
    "cg:game.end",
    "cg:game.load",
    "cg:game.save",
    "cg:game.dk.question",
    "cg:game.dk.announce",
    "cg:game.dk.card.intent",
    "cg:game.dk.card.transfer",
    "cg:game.dk.complaint",
    "cg:game.dk.turn",
    "cg:game.dk.scoreboard",
    "cg:game.dk.round.change",
)
"""The 25 cg packet names in the reference's registration order (ids 64..88)."""

FIRST_CG_ID: Final = 64

REGISTRY: Final[dict[str, int]] = {
    **INTERNAL,
    **{name: FIRST_CG_ID + index for index, name in enumerate(CG_NAMES)},
}
"""Exactly the 30 names of the handshake, for both flavors."""

CHAT: Final = "gamehall:chat"
EXTENSIONS: Final[dict[str, int]] = {CHAT: 128}
"""gamehall-flavor extension packets (sent in the ``cg:version.check`` reply)."""

PING_ID: Final = 64
PONG_ID: Final = 65
"""On a ``ping`` connection ids 64/65 are the ping request and its answer (no registry)."""

FLAVORS: Final = ("vanilla", "gamehall")

VANILLA_IDS: Final[dict[int, str]] = {packet_id: name for name, packet_id in REGISTRY.items()}
GAMEHALL_IDS: Final[dict[int, str]] = {
    **VANILLA_IDS,
    **{packet_id: name for name, packet_id in EXTENSIONS.items()},
}


def ids_for(flavor: str) -> dict[int, str]:
    """Id -> name for a connection of ``flavor`` (before the version check: vanilla)."""
    return GAMEHALL_IDS if flavor == "gamehall" else VANILLA_IDS


def names_for(flavor: str) -> dict[str, int]:
    return {name: packet_id for packet_id, name in ids_for(flavor).items()}
