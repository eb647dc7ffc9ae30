"""Protocol services belong to one server: two servers in one process share no protocol state
(docs/architecture.md, "Protocol specs and services")."""

from __future__ import annotations

from typing import Any

from cg_support import FakeWire

from gamehall.config import DEFAULT_PORTS, ServerConfig
from gamehall.games import GAMES, WEB
from gamehall.protocols._core import NEED_DATA
from gamehall.protocols.cg import registry
from gamehall.protocols.cg.codec import CgCodec, Packet
from gamehall.protocols.cg.dialogue import CgDialogue
from gamehall.protocols.cg.framing import encode_frame
from gamehall.protocols.cg.lobbies import CgServices
from gamehall.protocols.jduplicate.lobby import JdServices
from gamehall.protocols.mrjack.seating import MrJackServices
from gamehall.protocols.urserver.lobby import UrServices
from gamehall.server.app import Server, running_server
from gamehall.store.memory import MemoryStore

TCP = {entry.protocol: 0 for entry in GAMES}


def local_config() -> ServerConfig:
    return ServerConfig(bind="127.0.0.1", db=":memory:")


class CgUser:
    """A cg client on a server's own cg services, sans-I/O (what its listener would make)."""

    def __init__(self, server: Server, name: str) -> None:
        self.wire = FakeWire(f"test:{name}")
        self.dialogue = server.hosted["cg"].connect(self.wire)
        assert isinstance(self.dialogue, CgDialogue)
        self.name = name

    def send(self, name: str, **body: Any) -> None:
        self.dialogue.data_received(encode_frame(registry.names_for(self.dialogue.flavor)[name], body))

    def packets(self) -> list[Packet]:
        codec, out = CgCodec(), []
        for data in self.wire.writes:
            codec.receive_data(data)
            while (packet := codec.next_message()) is not NEED_DATA:
                out.append(packet)
        return out

    def handshake(self) -> None:
        self.send(registry.SETTYPE, conntype="classic")
        self.send(registry.HANDSHAKE_ACCEPT, success=True)
        self.send("cg:version.check", protoversion=1, semver="0.3.2", flavor="vanilla")

    def exists(self, username: str) -> bool:
        self.send("cg:auth.precheck", username=username)
        return bool([p for p in self.packets() if p.name == "cg:auth.precheck"][-1].body["exists"])


async def test_each_server_builds_its_own_services_for_every_protocol() -> None:
    async with (
        running_server(local_config(), listen={**TCP, "web": 0}, store=MemoryStore()) as one,
        running_server(local_config(), listen={**TCP, "web": 0}, store=MemoryStore()) as two,
    ):
        assert set(one.hosted) == set(two.hosted) == {*TCP, "web"}
        for name in one.hosted:
            assert one.hosted[name].services is not two.hosted[name].services, name
        cg_one, cg_two = one.hosted["cg"].services, two.hosted["cg"].services
        assert isinstance(cg_one, CgServices) and isinstance(cg_two, CgServices)
        assert cg_one.hall is one.hall and cg_two.hall is two.hall
        assert cg_one.accounts is not cg_two.accounts and cg_one.directory is not cg_two.directory
        for name, kind in (("urserver", UrServices), ("jduplicate", JdServices)):
            first, second = one.hosted[name].services, two.hosted[name].services
            assert isinstance(first, kind) and isinstance(second, kind)
            assert first.lobby is not second.lobby
        jack_one, jack_two = one.hosted["mrjack"].services, two.hosted["mrjack"].services
        assert isinstance(jack_one, MrJackServices) and isinstance(jack_two, MrJackServices)
        assert jack_one.roster is not jack_two.roster


async def test_a_cg_account_and_login_on_one_server_are_unknown_to_the_other() -> None:
    async with (
        running_server(local_config(), listen={"cg": 0}, store=MemoryStore()) as one,
        running_server(local_config(), listen={"cg": 0}, store=MemoryStore()) as two,
    ):
        alice = CgUser(one, "alice")
        alice.handshake()
        alice.send("cg:auth", username="alice", pwd="secret", create=True)
        assert [p.body["status"] for p in alice.packets() if p.name == "cg:auth"] == ["logged_in"]

        same_server, other_server = CgUser(one, "probe1"), CgUser(two, "probe2")
        same_server.handshake()
        other_server.handshake()
        assert same_server.exists("alice") and not other_server.exists("alice")
        online_one = one.hosted["cg"].services.directory.online
        online_two = two.hosted["cg"].services.directory.online
        assert [peer.username for peer in online_one.values()] == ["alice"] and online_two == {}


def test_every_spec_names_its_listener_and_default_port_as_the_configuration_does() -> None:
    specs = [entry.spec for entry in GAMES] + [WEB]
    assert {spec.name: spec.default_port for spec in specs} == dict(DEFAULT_PORTS)
    assert all(entry.spec.game == entry.game_id for entry in GAMES)
