"""Saved games of the cg service (note §4.3 ``game.save`` / ``game.load``, §8, §9.6).

When an ``adjourn`` vote passes, the table's whole state (the engine's ``to_json``) is kept in
the store under the game id, and every **gamehall** seat gets ``cg:game.save{game_id, data}``
with a token: a JWT (HS256, key = the server secret) whose payload is
``{data:{id, type:"dk", version, creation_time, players, bots}, iss:<serverid hex>, iat}``.

The token carries no game state: a JWT payload is readable by whoever holds it, and the state
holds every hand and the seed. **Decision (ours):** the state stays in the store, keyed by
``data.id``; ``players`` are the four wire uuids in seat order and ``bots`` the seats a bot
held. Bots are interchangeable: on load, any bot of the lobby may take a saved bot seat.

``game.load`` (lobby admins) checks the signature, ``iss``, ``type``, the version and the
player set, then preloads the game: the next start continues it at a new table (see
:mod:`gamehall.rules.doppelkopf.resume`). The JWT code is ours (stdlib ``hmac``); no other
algorithm than HS256 is ever accepted.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any, Final, Protocol

SAVE_VERSION: Final = 1
"""The version of a saved game; a token of another version is refused."""

_HEADER: Final = {"alg": "HS256", "typ": "JWT"}


class SavedGames(Protocol):
    """Where adjourned games are kept (``gamehall.store.saved_games``)."""

    def secret(self) -> bytes:
        """The server secret (the token key), made on first use and then kept."""
        ...

    def put(self, game_id: str, state: dict[str, Any], saved_at: float) -> None:
        """Keep (or replace) the saved state of ``game_id``."""
        ...

    def get(self, game_id: str) -> dict[str, Any] | None:
        """The saved state of ``game_id``, or ``None``."""
        ...


@dataclass(frozen=True, slots=True)
class SaveToken:
    """What a valid token says."""

    game_id: str
    players: tuple[str, ...]
    bots: tuple[int, ...]
    creation_time: float


class BadToken(Exception):
    """The token is not one of ours (bad form, signature, issuer, type or version)."""


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise BadToken("bad base64") from None


def _json(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), sort_keys=True).encode("utf-8")


def make_token(secret: bytes, server_id: str, save: SaveToken, *, issued_at: float) -> str:
    """The signed token for ``save`` (HS256)."""
    payload = {
        "data": {
            "id": save.game_id,
            "type": "dk",
            "version": SAVE_VERSION,
            "creation_time": save.creation_time,
            "players": list(save.players),
            "bots": list(save.bots),
        },
        "iss": server_id,
        "iat": int(issued_at),
    }
    signing_input = f"{_b64(_json(_HEADER))}.{_b64(_json(payload))}"
    signature = hmac.new(secret, signing_input.encode("ascii"), hashlib.sha256).digest()
    return f"{signing_input}.{_b64(signature)}"


def read_token(secret: bytes, server_id: str, token: object) -> SaveToken:
    """The save a token names, after every check of §4.3.

    Raises:
        BadToken: not three parts, not HS256, a wrong signature, another issuer, not a
            Doppelkopf save, another version, or a malformed player list.
    """
    if not isinstance(token, str) or token.count(".") != 2:
        raise BadToken("not a JWT")
    header_b64, payload_b64, signature_b64 = token.split(".")
    expected = hmac.new(secret, f"{header_b64}.{payload_b64}".encode("ascii"), hashlib.sha256).digest()
    if not hmac.compare_digest(expected, _unb64(signature_b64)):
        raise BadToken("bad signature")
    try:
        header = json.loads(_unb64(header_b64))
        payload = json.loads(_unb64(payload_b64))
    except ValueError:
        raise BadToken("not JSON") from None
    if not isinstance(header, dict) or header.get("alg") != "HS256":
        raise BadToken("not HS256")
    if not isinstance(payload, dict) or payload.get("iss") != server_id:
        raise BadToken("another server's token")
    data = payload.get("data")
    if not isinstance(data, dict) or data.get("type") != "dk" or data.get("version") != SAVE_VERSION:
        raise BadToken("not a Doppelkopf save of this version")
    game_id, players, bots = data.get("id"), data.get("players"), data.get("bots", [])
    created = data.get("creation_time", 0)
    if not isinstance(game_id, str) or not isinstance(players, list) or len(players) != 4:
        raise BadToken("bad id or players")
    if not all(isinstance(p, str) for p in players) or not isinstance(bots, list):
        raise BadToken("bad players")
    if not all(isinstance(b, int) and 0 <= b < 4 for b in bots) or not isinstance(created, (int, float)):
        raise BadToken("bad bot seats")
    return SaveToken(game_id, tuple(players), tuple(sorted(set(bots))), float(created))
