"""The contract between the server and a protocol package: one :class:`ProtocolSpec` each.

Every protocol package exports one spec (``gamehall.protocols.<name>.spec.PROTOCOL``) that
says everything the server needs to host it: the listener's name (``--<name>-port``, the
``[ports]`` key, the metrics label), its default port, the game whose ``[games.<game>]``
section holds the protocol's own host options, its idle timeout and write cap, and two
factories:

1. ``services(resources)`` builds the protocol's **services**: the one object that holds what
   the protocol's connections share (the cg accounts and lobby directory, the UrServer and
   JDuplicate lobbies, the Mr. Jack roster). The server calls it once, at start, with the
   :class:`ServerResources` it lends every protocol;
2. ``dialogues(services)`` returns the factory the listener calls for every accepted
   connection; each dialogue it makes gets that same services object.

Why an object rather than module globals: a module global is shared by every server of the
process (tests run several) and must be set before use by whoever knows to set it. A services
object is built by the server that owns it, is handed to exactly its own connections, and goes
away with it. The server imports each spec by name (:mod:`gamehall.games`); nothing is looked
up by attribute name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

from gamehall.protocols._core import Clock, Dialogue, HallPort, Wire
from gamehall.protocols.cg.accounts import Accounts

S = TypeVar("S")
"""A protocol's services type."""
F = TypeVar("F")
"""What a listener calls per accepted connection (:data:`DialogueFactory` for TCP)."""

DialogueFactory = Callable[[Wire], Dialogue]
"""A TCP listener's factory: one dialogue per accepted connection."""


def _no_accounts() -> Accounts:
    raise RuntimeError("this server lends no protocol accounts")


@dataclass(frozen=True, slots=True)
class ServerResources:
    """What one server lends the services of every protocol it hosts.

    ``accounts`` opens the protocol account store (cg) on first call; the server owns it and
    closes it at stop, so a server that hosts no cg listener never opens it.
    """

    hall: HallPort
    clock: Clock
    accounts: Callable[[], Accounts] = _no_accounts


@dataclass(frozen=True, slots=True)
class HallServices:
    """The services of a protocol whose connections share nothing but the hall (AAH, web)."""

    hall: HallPort
    clock: Clock

    @classmethod
    def of(cls, resources: ServerResources) -> HallServices:
        return cls(resources.hall, resources.clock)


@dataclass(frozen=True, slots=True, kw_only=True)
class ProtocolSpec(Generic[S, F]):
    """One protocol as the server hosts it (see the module docstring).

    ``idle_timeout_s`` is the protocol's own idle cut-off (0 = off, for protocols whose note
    words its own timeouts), or ``None`` for the server's configured one. ``max_flush_bytes``
    caps one write (0 = no cap). ``game`` is the game the protocol serves (``None``: every game,
    the web); ``options`` names the host options the protocol reads from that game's
    ``[games.<game>]`` section (``--set <game>.KEY=VALUE``), where they are validated.
    """

    name: str
    game: str | None
    default_port: int
    services: Callable[[ServerResources], S]
    dialogues: Callable[[S], F]
    idle_timeout_s: float | None = None
    max_flush_bytes: int = 0
    options: tuple[str, ...] = ()

    def open(self, resources: ServerResources) -> Hosted[S, F]:
        """Build this protocol's services for one server, and its connection factory."""
        services = self.services(resources)
        return Hosted(self, services, self.dialogues(services))


@dataclass(frozen=True, slots=True)
class Hosted(Generic[S, F]):
    """A protocol one server hosts: its spec, its services, its connection factory."""

    spec: ProtocolSpec[S, F]
    services: S
    connect: F


TcpProtocol = ProtocolSpec[S, DialogueFactory]
"""The spec of a protocol served on a TCP listener."""

__all__ = [
    "DialogueFactory",
    "HallServices",
    "Hosted",
    "ProtocolSpec",
    "ServerResources",
    "TcpProtocol",
]
