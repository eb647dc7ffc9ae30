"""Doppelkopf table events -> the cg packets one connection receives (note §4.4, §5.1, §7.3).

One :class:`GameTranslator` per connection and game. It knows the connection's seat, turns seats
into wire uuids, and keeps the little state the packets need and the events do not carry: where
each card lies (slots ``stack``, ``handN``, ``poverty``, ``table``, ``tricksN``, N = index in the
round's ``player_list``), the card values this seat has seen, and its own button labels.

Dealing is regrouped as the reference deals: 16 bursts of up to 3 cards in ``player_list`` order,
each card's value shown to its receiver only (everyone with ``dk.open_cards``). Flavor filtering
(vanilla keys only) is the dialogue's job; this module writes the gamehall form.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

from gamehall.protocols.cg.codec import Packet
from gamehall.rules._core import Event, Seat
from gamehall.rules.doppelkopf import events as ev

DENIALS: Final = ("no90", "no60", "no30", "black")
LISTED_KINDS: Final = ("wrong_card", "wrong_announcement")


def _p(name: str, **body: Any) -> Packet:
    return Packet(name, body)


def _round_change(**body: Any) -> Packet:
    return Packet("cg:game.dk.round.change", body)


class GameTranslator:
    """Events of one game, as one connection (seat ``seat``, ``None`` = watching) receives them."""

    def __init__(self, seat: Seat | None, uuid_of: Callable[[Seat], str], *, vanilla: bool = False) -> None:
        self.seat = seat
        self.uuid_of = uuid_of
        self.vanilla = vanilla
        self.player_list: list[Seat] = [0, 1, 2, 3]
        self.where: dict[str, str] = {}
        self.values: dict[str, str] = {}
        self.rebtn_lbl = "none"
        self.pigbtn_lbl = "none"
        self._dealt: dict[Seat, list[str]] = {}
        self._pending_pass: list[ev.CardsPassed] = []

    # ------------------------------------------------------------------ helpers

    def slot(self, kind: str, seat: Seat) -> str:
        return f"{kind}{self.player_list.index(seat)}"

    def transfer(self, card: str, to_slot: str, *, shown: bool) -> Packet:
        from_slot = self.where.get(card)
        self.where[card] = to_slot
        value = self.values.get(card, "") if shown else ""
        return _p(
            "cg:game.dk.card.transfer", card_id=card, card_value=value, from_slot=from_slot, to_slot=to_slot
        )

    def _flush_passes(self) -> list[Packet]:
        packets: list[Packet] = []
        for passed in self._pending_pass:
            to_slot = "poverty" if passed.receiver is None else self.slot("hand", passed.receiver)
            concerned = self.seat in (passed.giver, passed.receiver)
            packets += [self.transfer(c, to_slot, shown=concerned) for c in passed.cards]
        self._pending_pass = []
        return packets

    def _deal(self) -> list[Packet]:
        """The dealt hands in 16 bursts (3, 3, 3, the rest per player)."""
        packets: list[Packet] = []
        hands = {seat: list(cards) for seat, cards in self._dealt.items()}
        for size in (3, 3, 3, 3):
            for seat in self.player_list:
                burst, hands[seat] = hands.get(seat, [])[:size], hands.get(seat, [])[size:]
                packets += [self.transfer(c, self.slot("hand", seat), shown=True) for c in burst]
        self._dealt = {}
        return packets

    def buttons_state(self, current: Seat) -> dict[str, str]:
        if self.seat is None:
            return {}
        re_state = "enabled" if self.rebtn_lbl != "none" else "disabled"
        pig_state = "enabled" if self.pigbtn_lbl != "none" and current == self.seat else "disabled"
        return {"rebtn_state": re_state, "pigbtn_state": pig_state}

    # ------------------------------------------------------------------ events

    def packets(self, event: Event) -> list[Packet]:
        """The packets ``event`` becomes for this connection (often none)."""
        if isinstance(event, ev.CardsRevealed):
            self.values.update(dict(event.cards))
            return self._flush_passes()
        if isinstance(event, ev.CardsPassed):
            self._pending_pass.append(event)
            return []
        return self._flush_passes() + self._translate(event)

    def _translate(self, event: Event) -> list[Packet]:
        if isinstance(event, ev.RoundStarted):
            self.player_list = list(event.player_list)
            self.where, self.values, self._dealt = {}, {}, {}
            self.rebtn_lbl = self.pigbtn_lbl = "none"
            packets = [
                _round_change(
                    round=event.round,
                    phase="loading",
                    player_list=[self.uuid_of(s) for s in event.player_list],
                )
            ]
            packets += [self.transfer(card, "stack", shown=False) for card in event.stack]
            if self.seat is not None:
                packets.append(_round_change(pigbtn_lbl="none"))
            packets.append(_round_change(phase="dealing"))
            return packets
        if isinstance(event, ev.HandDealt):
            self._dealt[event.seat] = list(event.cards)
            return []
        if isinstance(event, ev.HandShown):
            self.values.update(dict(event.cards))
            if self._dealt:
                return []
            # a resync: show the hand again from wherever the cards are
            return [
                _p(
                    "cg:game.dk.card.transfer",
                    card_id=c,
                    card_value=v,
                    from_slot=self.where.get(c),
                    to_slot=self.slot("hand", event.seat),
                )
                for c, v in event.cards
            ]
        if isinstance(event, ev.PhaseChanged):
            return self._phase(event)
        if isinstance(event, ev.ButtonsChanged):
            if event.seat != self.seat:
                return []
            if (event.rebtn_lbl, event.pigbtn_lbl) == (self.rebtn_lbl, self.pigbtn_lbl):
                return []
            self.rebtn_lbl, self.pigbtn_lbl = event.rebtn_lbl, event.pigbtn_lbl
            return [_round_change(rebtn_lbl=event.rebtn_lbl, pigbtn_lbl=event.pigbtn_lbl)]
        if isinstance(event, ev.Asked):
            return [_p("cg:game.dk.question", type=event.kind, target=self.uuid_of(event.target))]
        if isinstance(event, ev.Answered):
            body: dict[str, Any] = {"announcer": self.uuid_of(event.seat), "type": event.kind}
            if event.data is not None:
                body["data"] = dict(event.data)
            return [Packet("cg:game.dk.announce", body)]
        if isinstance(event, ev.Announced):
            body = {"announcer": self.uuid_of(event.seat), "type": event.kind}
            if event.kind in DENIALS:
                body["data"] = {"party": event.party}
            return [Packet("cg:game.dk.announce", body)]
        if isinstance(event, ev.PigsCalled):
            return [_p("cg:game.dk.announce", announcer=self.uuid_of(event.seat), type=event.kind)]
        if isinstance(event, ev.VoteCast):
            answer = f"{event.kind}_{'yes' if event.yes else 'no'}"
            return [_p("cg:game.dk.announce", announcer=self.uuid_of(event.seat), type=answer)]
        if isinstance(event, ev.Turn):
            return [
                Packet(
                    "cg:game.dk.turn",
                    {
                        "current_trick": event.current_trick,
                        "total_tricks": event.total_tricks,
                        "current_player": self.uuid_of(event.current_player),
                        **self.buttons_state(event.current_player),
                    },
                )
            ]
        if isinstance(event, ev.CardPlayed):
            self.values[event.card] = event.value
            return [self.transfer(event.card, "table", shown=True)]
        if isinstance(event, ev.TrickTaken):
            to_slot = self.slot("tricks", event.winner)
            packets = [self.transfer(card, to_slot, shown=False) for card in event.cards]
            packets.append(
                _p(
                    "cg:game.dk.scoreboard",
                    player=self.uuid_of(event.winner),
                    pips=event.winner_eyes,
                    pip_change=event.eyes,
                )
            )
            return packets
        if isinstance(event, ev.ScoreChanged):
            return [
                _p(
                    "cg:game.dk.scoreboard",
                    player=self.uuid_of(event.seat),
                    points=event.points,
                    point_change=event.change,
                )
            ]
        if isinstance(event, ev.RoundEnded):
            return [
                _round_change(
                    phase="end",
                    game_type=event.game_type,
                    winner=event.winner,
                    eyes=list(event.eyes),
                    modifiers={k: list(v) for k, v in event.modifiers.items()},
                    extras=[list(event.extras[0]), list(event.extras[1])],
                    round=event.round,
                    game_summary=list(self._summary_codes(event)),
                )
            ]
        if isinstance(event, ev.GameTypeChanged):
            body = {"game_type": event.game_type}
            if event.soloist is not None:
                body["solist"] = self.uuid_of(event.soloist)
            return [Packet("cg:game.dk.round.change", body)]
        if isinstance(event, ev.WeddingTrickDecided):
            return [_round_change(wedding_trick_num=event.trick)]
        return self._complaint(event)

    def _summary_codes(self, event: ev.RoundEnded) -> tuple[str, ...]:
        """Vanilla clients get the reference's list exactly (note §6.5 step 6); gamehall
        clients get the full list, every code that counted."""
        if self.vanilla and event.reference_summary is not None:
            return event.reference_summary
        return event.game_summary

    def _phase(self, event: ev.PhaseChanged) -> list[Packet]:
        if event.phase == "w_for_ready":
            return [*self._deal(), _round_change(phase="w_for_ready")]
        if event.phase == "tricks":
            body: dict[str, Any] = {"phase": "tricks", "game_type": event.game_type}
            if event.soloist is not None:
                body["solist"] = self.uuid_of(event.soloist)
            return [Packet("cg:game.dk.round.change", body)]
        if event.phase == "reservations":
            return [_round_change(phase="reservations")]
        return []  # "end" travels with RoundEnded; "counting" is never sent

    def _complaint(self, event: Event) -> list[Packet]:
        if isinstance(event, ev.Accused):
            if event.accuser == self.seat and event.kind in LISTED_KINDS:
                return []  # the accuser gets the move list instead
            return [
                _p(
                    "cg:game.dk.complaint",
                    accused=self.uuid_of(event.accused),
                    type=event.kind,
                    accuser=self.uuid_of(event.accuser),
                )
            ]
        if isinstance(event, ev.MovesListed):
            moves = {str(move_id): {"type": kind, "data": data} for move_id, kind, data in event.moves}
            return [
                _p("cg:game.dk.complaint", accused=self.uuid_of(event.accused), type=event.kind, moves=moves)
            ]
        if isinstance(event, ev.Verdict):
            body: dict[str, Any] = {
                "accused": self.uuid_of(event.accused),
                "type": event.kind,
                "accuser": self.uuid_of(event.accuser),
                "verdict": event.verdict,
                "punished": self.uuid_of(event.punished),
            }
            if event.move is not None:
                move_id, kind, data = event.move
                body["move"] = {str(move_id): {"type": kind, "data": data}}
            return [Packet("cg:game.dk.complaint", body)]
        return []


def summaries(view: Mapping[str, Any], *, vanilla: bool = False) -> list[dict[str, Any]]:
    """``game_summaries`` of ``game.start``: exactly the 7 keys per row; a vanilla connection's
    ``extras`` are the reference's codes (rows from before that record fall back to the full
    list)."""
    keys = ("round_num", "winner", "game_type", "eyes", "extras", "point_change", "points")
    rows = []
    for row in view.get("summaries", []):
        shown = {key: row.get(key) for key in keys}
        if vanilla and "reference_extras" in row:
            shown["extras"] = row["reference_extras"]
        rows.append(shown)
    return rows
