"""A Mr. Jack client's brain without the socket: server lines in, the client's lines out.

:class:`WirePlayer` follows one connection through the protocol (``nick``, ``init``, the
game) and keeps the board up to date from the seed's updates, starting from the fixed layout
(note 10.3), so it can build the same view keys the engine's ``view`` has and ask a
:class:`~gamehall.bots.mrjack.policy.MrJackPolicy`. It answers only messages that hand it the
move: ``spielzugerlaubnis(ja)`` (send ``aktiv``), ``ok(Farbe ist aktiv: F)`` and the end of
a Teilzug with a Teilzug still open (send ``aktion``), ``moeglichkeiten`` (send ``ziel``).

It is sans-I/O like the protocols, so tests drive it against the dialogue in process and
:mod:`.wire` drives it over TCP. Every ``err`` it receives is recorded in ``errors``: against a
correct server a bot with the default options never gets one, except after an ``aktion`` the
rule options of the room refuse, which it answers by trying the next choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from gamehall.bots.mrjack.policy import MrJackPolicy
from gamehall.protocols.mrjack.terms import Atom, Command, Compound, Term, TList
from gamehall.protocols.mrjack.texts import nick_taken
from gamehall.rules._core import Action
from gamehall.rules.mrjack.actions import BEWEGEN, FAEHIGKEIT, SKIP, Aktion, Aktiv, Fertig, Ziel
from gamehall.rules.mrjack.board import (
    START_INFORMANT,
    START_INVESTIGATION_TILES,
    START_STEAMERS,
    START_TILES,
)
from gamehall.rules.mrjack.characters import COLOURS, Ability, Cast

ME = 0
"""The seat number the player uses for itself in the views it builds."""

DEFAULT_SUPPLY = {"metro": 7, "laterne": 6, "haus": 4}


def text_of(term: Term) -> str:
    if isinstance(term, Atom):
        return term.name
    return str(term)


def _atoms(term: Term) -> list[str]:
    return [text_of(t) for t in term.items] if isinstance(term, TList) else []


UNKNOWN_PART = "?"
"""The Teilzug under way when a rejoin's catch-up shows only its ``moeglichkeiten``."""
NICK_TAKEN = nick_taken("")
"""The start of the server's ``err`` for a nick in use (the server's own text)."""


@dataclass(slots=True)
class WirePlayer:
    """One bot connection's game knowledge and decisions (see the module docstring).

    ``games``: how many games to play before ``quit`` (0: until the server closes);
    ``detective_marks``: the server runs
    ``round_end_mode=detective`` (the detective then sends ``fertig`` after ``sichtbar``).
    """

    nick: str
    role: str
    policy: MrJackPolicy = field(default_factory=MrJackPolicy)
    rng: random.Random = field(default_factory=random.Random)
    games: int = 1
    detective_marks: bool = False
    errors: list[str] = field(default_factory=list)
    received: list[Command] = field(default_factory=list)
    winners: list[str] = field(default_factory=list)
    jack: str | None = None
    named: bool = False
    seated: bool = False
    finished: bool = False
    refused: bool = False
    """The server refused this connection's ``nick`` as taken: the connection is given up
    and tried again, as a player would (:mod:`.wire`). On a hall of several nodes a nick stays
    in use for up to a lease ttl after its node died, until the hall knows that node is gone
    (docs/scale-out.md, "Failover and drain"); the server keeps such a connection open."""
    view: dict[str, Any] = field(default_factory=dict)
    _parts_left: int = 0
    _part: str | None = None
    _tried: list[str] = field(default_factory=list)
    _last_sent: Action | None = None
    _batching: bool = False
    _due: bool = False

    # ------------------------------------------------------------------ bursts

    def begin_batch(self) -> None:
        """Lines that arrive together are read together before deciding (:meth:`end_batch`):
        a rejoin's catch-up brings ``spielzugerlaubnis(ja)`` and ``ok('Farbe ist aktiv: F')``
        in one burst, and answering the first alone would pick a colour that is already
        active."""
        self._batching = True

    def end_batch(self) -> list[Command]:
        """The decision the burst called for, taken on the state after all of it."""
        self._batching = False
        if not self._due:
            return []
        self._due = False
        return self._decide()

    # ------------------------------------------------------------------ input

    def receive(self, command: Command) -> list[Command]:
        """Take one server line; return the lines to send now."""
        self.received.append(command)
        if isinstance(command, Atom):
            return []
        name, args = command.functor.lower(), command.args
        handler = getattr(self, f"_on_{name}", None)
        if handler is None:
            return []
        out: list[Command] = handler(args)
        return out

    # ------------------------------------------------------------------ lobby

    def _on_ok(self, args: tuple[Term, ...]) -> list[Command]:
        text = text_of(args[0])
        if text.startswith("Bitte einen Nick"):
            return [Compound("nick", (Atom(self.nick),))]
        if text.startswith("Du kannst dich mit init"):
            self.named = True
            if 0 < self.games <= len(self.winners):
                self.finished = True
                return [Atom("quit")]
            return [Compound("init", (Atom(self.role),))]
        if text.startswith("Du bist "):
            self.seated = True
            return []
        if text.startswith("Farbe ist aktiv: "):
            colour = text.removeprefix("Farbe ist aktiv: ")
            self._activate(colour)
            return self._decide()
        if text == "Aktion wurde akzeptiert":
            return []
        return []

    def _on_err(self, args: tuple[Term, ...]) -> list[Command]:
        if not self.named and text_of(args[0]).startswith(NICK_TAKEN):
            self.refused = True
            return []
        self.errors.append(text_of(args[0]))
        sent = self._last_sent
        if isinstance(sent, Aktion) and self.view.get("phase") == "wait_ok":
            self._part = None
            self._tried.append(sent.aktion)  # the room's options refuse it: try another
            self.view["phase"] = "aktion"
            return self._decide()
        return []

    # ------------------------------------------------------------------ game flow

    def _on_beginn(self, args: tuple[Term, ...]) -> list[Command]:
        what = text_of(args[0])
        if what == "spiel":
            self._new_game(text_of(args[1]))
        elif what == "runde":
            self.view["round"] += 1
            self.view["spielzug"] = 0
            self.view["board"]["informant"]["talkative"] = True
        elif what == "spielzug":
            self.view["spielzug"] += 1
        return []

    def _on_jack(self, args: tuple[Term, ...]) -> list[Command]:
        self.jack = text_of(args[0])
        self.view["jack"] = self.jack
        return []

    def _on_auswahl(self, args: tuple[Term, ...]) -> list[Command]:
        cards = args[0].items if isinstance(args[0], TList) else ()
        self.view["auswahl"] = [
            [text_of(c.items[0]), text_of(c.items[1]) == "ja"] for c in cards if isinstance(c, TList)
        ]
        return []

    def _on_spielzugerlaubnis(self, args: tuple[Term, ...]) -> list[Command]:
        if text_of(args[0]) == "ja":
            self.view.update(phase="aktiv", to_move=ME, active=None, open_parts=[], part=None)
            return self._decide()
        self.view.update(phase="wait", to_move=None, active=None, open_parts=[], part=None)
        self._part = None
        return []

    def _on_moeglichkeiten(self, args: tuple[Term, ...]) -> list[Command]:
        if self._part is None and self.view.get("active") is not None:
            # a rejoin's catch-up: a Teilzug is under way, which one the wire does not say;
            # its end still counts (an open part already done is refused and another tried)
            self._part = UNKNOWN_PART
        part = None if self._part == UNKNOWN_PART else self._part
        self.view.update(phase="ziel", to_move=ME, moeglichkeiten=_atoms(args[0]), part=part)
        return self._decide()

    def _on_update_alibi(self, args: tuple[Term, ...]) -> list[Command]:
        innocent = text_of(args[0])
        self.view["suspects"] = [c for c in self.view["suspects"] if c != innocent]
        return []

    def _on_update_spion(self, args: tuple[Term, ...]) -> list[Command]:
        self.view["board"]["informant"] = {"hex": text_of(args[0]), "talkative": False}
        return []

    def _on_update_figur(self, args: tuple[Term, ...]) -> list[Command]:
        self.view["board"]["figures"][text_of(args[1])] = text_of(args[0])
        return self._teilzug_end()

    def _on_update_art(self, args: tuple[Term, ...]) -> list[Command]:
        hex_label, art = text_of(args[0]), text_of(args[1])
        board = self.view["board"]
        if hex_label not in board["tiles"] and art in board["supply"]:
            board["supply"][art] -= 1
        board["tiles"][hex_label] = art
        return self._teilzug_end()

    def _on_update_schiff(self, args: tuple[Term, ...]) -> list[Command]:
        board = self.view["board"]
        board["steamers"] = sorted((set(board["steamers"]) - {text_of(args[0])}) | {text_of(args[1])})
        return self._teilzug_end()

    def _on_update_absp(self, args: tuple[Term, ...]) -> list[Command]:
        old, new = [text_of(a) for a in args[:2]], [text_of(a) for a in args[2:4]]
        board = self.view["board"]
        board["investigation"] = [
            new if sorted(pair) == sorted(old) else pair for pair in board["investigation"]
        ]
        return self._teilzug_end()

    def _on_sichtbar(self, args: tuple[Term, ...]) -> list[Command]:
        self.view["witness_seen"] = text_of(args[0]) == "ja"
        if self.detective_marks and self.role == "detektiv":
            return [Atom("fertig")]
        return []

    def _on_update_verdacht(self, args: tuple[Term, ...]) -> list[Command]:
        colour = text_of(args[0])
        suspects = self.view["suspects"]
        self.view["suspects"] = [c for c in COLOURS if (c in suspects) != (c == colour)]
        return []

    def _on_ende(self, args: tuple[Term, ...]) -> list[Command]:
        if text_of(args[0]) == "spiel":
            self.winners.append(text_of(args[1]))
            self.seated = False
            self.view["phase"] = "over"
        return []

    # ------------------------------------------------------------------ deciding

    def _new_game(self, role: str) -> None:
        self.role = role
        self.jack = None
        cast = Cast()
        self.view = {
            "phase": "wait",
            "you": role,
            "to_move": None,
            "round": 0,
            "spielzug": 0,
            "characters": cast.keys(),
            "auswahl": [],
            "active": None,
            "open_parts": [],
            "part": None,
            "moeglichkeiten": [],
            "jack": None,
            "witness_seen": True,
            "suspects": list(COLOURS),
            "board": {
                "figures": cast.start_positions(),
                "tiles": dict(START_TILES),
                "supply": {
                    art: count - sum(1 for side in START_TILES.values() if side == art)
                    for art, count in DEFAULT_SUPPLY.items()
                },
                "investigation": [list(pair) for pair in START_INVESTIGATION_TILES],
                "steamers": sorted(START_STEAMERS),
                "informant": {"hex": START_INFORMANT, "talkative": True},
            },
        }

    def _activate(self, colour: str) -> None:
        eastman = Cast().ability(colour) is Ability.MOVE_OTHER_CHARACTER
        self._parts_left = 1 if eastman else 2
        self._tried = []
        parts = [FAEHIGKEIT] if eastman else [BEWEGEN, FAEHIGKEIT]
        self.view.update(phase="aktion", to_move=ME, active=colour, open_parts=parts, part=None)

    def _teilzug_end(self) -> list[Command]:
        """A board update ended our open Teilzug: another ``aktion`` if one is still due."""
        part = self._part
        if part is None or self.view.get("active") is None:
            return []
        self._part = None
        self._parts_left -= 1
        self.view["open_parts"] = [p for p in self.view["open_parts"] if p != part]
        if self._parts_left <= 0 or not self.view["open_parts"]:
            self.view.update(phase="wait", to_move=None)
            return []
        self._tried = []
        self.view.update(phase="aktion", to_move=ME, part=None, moeglichkeiten=[])
        return self._decide()

    def _decide(self) -> list[Command]:
        if self._batching:
            self._due = True
            return []
        view = dict(self.view)
        if view.get("phase") == "aktion" and self._tried:
            view["open_parts"] = [p for p in view["open_parts"] if p not in self._tried]
        action = self.policy.decide(view, ME, self.rng)
        if action is None and view.get("phase") == "aktion":
            action = Aktion(SKIP) if SKIP not in self._tried else None
        self._last_sent = action
        if action is None:
            return []
        if isinstance(action, Aktiv):
            return [Compound("aktiv", (Atom(action.farbe),))]
        if isinstance(action, Aktion):
            if action.aktion != SKIP:
                self._part = action.aktion
            self.view["phase"] = "wait_ok"
            return [Compound("aktion", (Atom(action.aktion),))]
        if isinstance(action, Ziel):
            self.view["phase"] = "wait_ok"
            return [Compound("ziel", (Atom(action.koordinate),))]
        if isinstance(action, Fertig):
            return [Atom("fertig")]
        return []


__all__ = ["ME", "WirePlayer"]
