"""The PyPI ``peng3dnet==0.1.3a0`` client as an independent peer (note §10.4): it reaches the
active state against our server with the vanilla registry and gets a ``cg:version.check`` answer;
with a 31st name in its own registry it closes with ``packetregmismatch``; and, driven by the
sans-I/O wire bot (:class:`gamehall.bots.doppelkopf.wire.CgPlayer`) for its decisions, it plays
a whole game (register, lobby, three ``dk_dumb``, a round, ``end`` vote, ``game.end``).

peng3dnet is blocking and thread-based, so it runs in a worker thread while the server runs on
the test's event loop. It imports ``peng3d`` (and so pyglet); the test is skipped when they are
not installed.
"""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from typing import Any

import pytest

os.environ.setdefault("PYGLET_SHADOW_WINDOW", "0")
os.environ.setdefault("PYGLET_HEADLESS", "1")
net = pytest.importorskip("peng3dnet.net")
packet_module = pytest.importorskip("peng3dnet.packet")

from gamehall.bots.doppelkopf.wire import CgPlayer  # noqa: E402
from gamehall.config import ServerConfig  # noqa: E402
from gamehall.protocols.cg.codec import Packet  # noqa: E402
from gamehall.protocols.cg.registry import CG_NAMES  # noqa: E402
from gamehall.server.app import running_server  # noqa: E402


class Recorder(packet_module.Packet):  # type: ignore[misc, name-defined]
    """Records every packet of its name the peer receives (and lets its player answer)."""

    def __init__(self, reg: Any, peer: Any, seen: list[tuple[str, Any]], name: str) -> None:
        super().__init__(reg, peer)
        self.seen, self.name, self.peer = seen, name, peer

    def receive(self, msg: Any, cid: Any = None) -> None:
        self.seen.append((self.name, msg))
        player = getattr(self.peer, "player", None)
        if player is not None:
            for reply in player.on_packet(Packet(self.name, msg)):
                self.peer.send_message(reply.name, reply.body)


class PeerClient(net.Client):  # type: ignore[misc, name-defined]
    def __init__(self, port: int, names: list[str]) -> None:
        super().__init__(addr=f"127.0.0.1:{port}", cfg={"net.events.enable": False})
        self.names = names
        self.seen: list[tuple[str, Any]] = []
        self.closed_with: list[Any] = []

    def _reg_packets_cg(self) -> None:
        for index, name in enumerate(self.names):
            self.register_packet(name, Recorder(self.registry, self, self.seen, name), 64 + index)

    def on_close(self, reason: Any = None) -> None:
        self.closed_with.append(reason)


def run_peer(port: int, names: list[str], result: dict[str, Any]) -> None:
    client = PeerClient(port, names)
    client.runAsync()
    client.process_async()
    result["client"] = client
    deadline = 50
    while client.remote_state != net.STATE_ACTIVE and not client.closed_with and deadline:
        threading.Event().wait(0.1)
        deadline -= 1
    result["state"] = client.remote_state
    if client.remote_state == net.STATE_ACTIVE:
        client.send_message(
            "cg:version.check", {"protoversion": 1, "semver": "0.3.2-dev", "flavor": "vanilla"}
        )
        for _ in range(50):
            if client.seen:
                break
            threading.Event().wait(0.1)
    else:
        threading.Event().wait(0.5)
    if client.remote_state == net.STATE_ACTIVE:
        client.close_connection(reason="done")
    client.stop()


async def _peer(tmp_path: Path, names: list[str]) -> dict[str, Any]:
    result: dict[str, Any] = {}
    async with running_server(ServerConfig(db=str(tmp_path / "hall.db")), listen={"cg": 0}) as server:
        thread = threading.Thread(target=run_peer, args=(server.ports["cg"], names, result), daemon=True)
        thread.start()
        await asyncio.get_running_loop().run_in_executor(None, thread.join, 15)
    return result


async def test_the_peng3dnet_client_reaches_active_and_gets_the_version_answer(tmp_path: Path) -> None:
    result = await _peer(tmp_path, list(CG_NAMES))
    assert result["state"] == net.STATE_ACTIVE
    client = result["client"]
    assert client.seen == [
        ("cg:version.check", {"protoversion": 1, "semver": "0.3.2", "flavor": "vanilla", "compatible": True})
    ]


async def test_a_31st_name_makes_the_peng3dnet_client_close_with_packetregmismatch(tmp_path: Path) -> None:
    result = await _peer(tmp_path, [*CG_NAMES, "cg:party.invite"])
    assert result["state"] != net.STATE_ACTIVE
    assert result["client"].seen == []
    assert result["client"]._close_reason == "packetregmismatch"


def run_player(port: int, result: dict[str, Any]) -> None:
    """peng3dnet's own client, with the wire bot's decisions, until ``game.end`` (or 40 s)."""
    client = PeerClient(port, list(CG_NAMES))
    client.player = CgPlayer("Pengu", "pengpass", seed=4)
    client.runAsync()
    client.process_async()
    result["client"] = client
    for _ in range(50):
        if client.remote_state == net.STATE_ACTIVE or client.closed_with:
            break
        threading.Event().wait(0.1)
    if client.remote_state == net.STATE_ACTIVE:
        client.send_message(
            "cg:version.check", {"protoversion": 1, "semver": "0.3.2-dev", "flavor": "vanilla"}
        )
        for _ in range(400):
            if client.player.done:
                break
            threading.Event().wait(0.1)
        client.close_connection(reason="done")
    client.stop()


async def test_the_peng3dnet_client_plays_a_whole_game(tmp_path: Path) -> None:
    result: dict[str, Any] = {}
    unpaced = {"doppelkopf": {"deal_interval_s": 0.0, "trick_close_delay_s": 0.0}}
    config = ServerConfig(db=str(tmp_path / "hall.db"), room_defaults=unpaced)
    async with running_server(config, listen={"cg": 0}) as server:
        thread = threading.Thread(target=run_player, args=(server.ports["cg"], result), daemon=True)
        thread.start()
        await asyncio.get_running_loop().run_in_executor(None, thread.join, 45)
        assert server.hall.rooms("doppelkopf") == []
    player = result["client"].player
    assert player.stats.games_finished == 1 and player.stats.rounds == 1
    names = [name for name, _ in result["client"].seen]
    assert names.count("cg:game.dk.card.transfer") >= 48 * 3  # created, dealt, played/taken
    assert names[-2:] == ["cg:game.end", "cg:lobby.change"]
