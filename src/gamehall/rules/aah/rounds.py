"""The game itself, step by step as sections 5.4-5.10 and 6.2 of the note tell it.

Each function changes the :class:`TableState` and appends the events of what happened to
``out``, in wire order. Inputs are already checked (see :mod:`.checks`): nothing here refuses.
"""

from __future__ import annotations

from gamehall.rules._core import Event, Seat, SeatAway, SeatBack, SeatLeft, only
from gamehall.rules.aah import notices
from gamehall.rules.aah.cards import WhiteCard
from gamehall.rules.aah.dealing import choose_black, choose_czar, deal, draw_plan, top_up_amount
from gamehall.rules.aah.events import (
    CardPlayed,
    CzarAndBlack,
    CzarTimedOut,
    GameStarted,
    GameWon,
    PickTimedOut,
    Points,
    Revealed,
    RoundStarted,
    RoundVoid,
    RoundWon,
    SeatKicked,
    WhiteDealt,
)
from gamehall.rules.aah.state import (
    HAND_SIZE,
    LastRound,
    Phase,
    RoundState,
    SeatRecord,
    TableState,
    TimerKind,
)

# --------------------------------------------------------------------------------------------
# Start and round setup (5.4, 5.5, 5.6)
# --------------------------------------------------------------------------------------------


def start_game(table: TableState, out: list[Event]) -> None:
    """``GSTR``, everyone's (zero) points, 10 cards to each seat, then the first round."""
    table.clear_timer()
    table.phase = Phase.GAP  # between "not started" and the first round
    out.append(GameStarted())
    emit_points(table, out)
    for rec in table.present():
        deal(table, rec, HAND_SIZE, "deal", out)
    begin_round(table, out)


def begin_round(table: TableState, out: list[Event]) -> None:
    """Set up and announce a round, or wait when too few players are here (6.2)."""
    if len(table.taken()) < table.min_players:
        abort(table, out)
        return
    if len(table.present()) < table.min_players:
        table.phase = Phase.WAITING
        table.clear_timer()
        out.append(notices.waiting_for_players())
        return
    table.round_number += 1
    czar = choose_czar(table)
    legacy_skipped = table.skip_next_legacy_draw
    black = choose_black(table, czar, legacy_skipped)
    rnd = RoundState(table.round_number, czar, black, legacy_draw_skipped=legacy_skipped)
    table.round = rnd
    table.previous_czar = czar
    table.skip_next_legacy_draw = False
    for rec, count in draw_plan(table, czar, black, legacy_skipped):
        deal(table, rec, count, "draw", out)
    for rec in table.present():
        rec.drawn_round = rnd.number
    out.append(RoundStarted(round=rnd.number))
    out.append(CzarAndBlack(round=rnd.number, czar=czar, czar_name=table.seats[czar].name, black=black))
    table.phase = Phase.PICK
    table.set_timer(TimerKind.PICK, table.setting("timeout"))


# --------------------------------------------------------------------------------------------
# Pick phase (5.7)
# --------------------------------------------------------------------------------------------


def awaited_pickers(table: TableState) -> list[SeatRecord]:
    """Present non-czar seats whose submission is not complete yet."""
    rnd = table.round
    assert rnd is not None
    return [rec for rec in table.present() if rec.seat != rnd.czar and not rnd.is_complete(rec.seat)]


def awaited_picker_seats(table: TableState) -> frozenset[Seat]:
    """The seats of :func:`awaited_pickers`, in one pass: the room asks ``to_move()`` twice
    per input (stale-action marks), so this stays a single loop over the seats."""
    rnd = table.round
    assert rnd is not None
    czar, pick, submissions = rnd.czar, rnd.black.pick, rnd.submissions
    return frozenset(
        rec.seat
        for rec in table.seats.values()
        if rec.present and not rec.released and rec.seat != czar and len(submissions.get(rec.seat, ())) < pick
    )


def play_cards(table: TableState, rec: SeatRecord, cards: list[WhiteCard], out: list[Event]) -> None:
    """Move checked cards from the hand to the submission, one ``BLNK`` each to the others."""
    rnd = table.round
    assert rnd is not None
    submission = rnd.submissions.setdefault(rec.seat, [])
    for card in cards:
        rec.hand.remove(card)
        submission.append(card)
        out.append(CardPlayed(seat=rec.seat))
    if rnd.is_complete(rec.seat):
        rec.skips = 0
    check_pick_complete(table, out)


def check_pick_complete(table: TableState, out: list[Event]) -> None:
    """End the pick phase as soon as no present non-czar seat is still picking."""
    if table.phase is Phase.PICK and not awaited_pickers(table):
        end_pick_phase(table, out)


def end_pick_phase(table: TableState, out: list[Event]) -> None:
    """Skip whoever is still picking (timer fired), give partial submissions back, then
    reveal the complete ones or void the round (5.7, 5.8)."""
    rnd = table.round
    assert rnd is not None
    table.clear_timer()
    for rec in awaited_pickers(table):
        out.append(PickTimedOut(seat=rec.seat, audience=only(rec.seat)))
        out.append(notices.pick_timeout(rec.name))
        _return_cards(rec, rnd.submissions.pop(rec.seat, []), out)
        rec.skips += 1
        if _kick_due(table, rec) and kick(table, rec, out):
            return
    for seat in [seat for seat in rnd.submissions if not rnd.is_complete(seat)]:
        _return_cards(table.seats[seat], rnd.submissions.pop(seat), out)  # held seats: silently
    need = max(1, table.min_players - 1)
    if len(rnd.submissions) < need:
        void_round(table, notices.void_too_few(), out)
        return
    rnd.reveal_order = sorted(rnd.submissions)
    table.rng.shuffle(rnd.reveal_order)
    for seat in rnd.reveal_order:
        out.append(Revealed(cards=tuple(rnd.submissions[seat])))
    table.phase = Phase.JUDGE
    table.set_timer(TimerKind.JUDGE, 2 * table.setting("timeout"))


def _return_cards(rec: SeatRecord, cards: list[WhiteCard], out: list[Event]) -> None:
    """Played cards go back to their owner's hand; a present owner sees each (``WHTE``)."""
    for card in cards:
        rec.hand.append(card)
        if rec.present:
            out.append(WhiteDealt(seat=rec.seat, card=card, reason="return", audience=only(rec.seat)))


# --------------------------------------------------------------------------------------------
# Judging and the end of a round (5.8, 5.9, 5.10)
# --------------------------------------------------------------------------------------------


def owner_of_revealed(table: TableState, card_id: int) -> Seat | None:
    """The seat whose revealed, still valid submission holds ``card_id``."""
    rnd = table.round
    if rnd is None:
        return None
    for seat in rnd.reveal_order:
        if any(card.card_id == card_id for card in rnd.submissions[seat]):
            return seat
    return None


def judge(table: TableState, winner: Seat, card_id: int, out: list[Event]) -> None:
    """The czar chose ``winner``'s submission: a point, ``RWIN``, cards to the discards."""
    rnd = table.round
    assert rnd is not None
    table.seats[rnd.czar].skips = 0
    rec = table.seats[winner]
    rec.points += 1
    cards = tuple(rnd.submissions[winner])
    out.append(RoundWon(seat=winner, name=rec.name, card_id=card_id, cards=cards))
    table.round_winners.append((table.round_number, winner, rec.name))
    table.last_round = LastRound(
        winner,
        rec.name,
        card_id,
        tuple((seat, tuple(rnd.submissions[seat])) for seat in rnd.reveal_order),
    )
    for submission in rnd.submissions.values():
        table.whites.discard(submission)
    rnd.submissions.clear()
    rnd.reveal_order.clear()
    table.blacks.discard([rnd.black])
    rnd.settled = True
    table.previous_winner = winner
    finish_round(table, out)


def czar_timed_out(table: TableState, out: list[Event]) -> None:
    """``CZTO`` to the czar, void the round; it counts as a skip for the czar."""
    rnd = table.round
    assert rnd is not None
    czar = table.seats[rnd.czar]
    out.append(CzarTimedOut(seat=czar.seat, audience=only(czar.seat)))
    czar.skips += 1
    void_round(table, notices.void_czar_timeout(czar.name), out)
    if _kick_due(table, czar):
        kick(table, czar, out)


def void_round(table: TableState, void: RoundVoid, out: list[Event]) -> None:
    """End the round without a winner (5.9): notice and empty ``RWIN``, every played card
    back to its owner (in seat order), the black card discarded, then the normal round end."""
    rnd = table.round
    assert rnd is not None
    table.clear_timer()
    out.append(void)
    for seat in sorted(rnd.submissions):
        _return_cards(table.seats[seat], rnd.submissions[seat], out)
    rnd.submissions.clear()
    rnd.reveal_order.clear()
    table.blacks.discard([rnd.black])
    rnd.settled = True
    table.round_winners.append((table.round_number, None, None))
    table.last_round = LastRound(None, None, None)
    table.previous_winner = None
    table.skip_next_legacy_draw = True
    finish_round(table, out)


def finish_round(table: TableState, out: list[Event]) -> None:
    """Everyone's points, then game over or the gap before the next round."""
    emit_points(table, out)
    leader = max(table.taken(), key=lambda rec: rec.points, default=None)
    if leader is not None and leader.points >= table.setting("aplimit"):
        table.phase = Phase.OVER
        table.clear_timer()
        table.winner = leader.seat
        out.append(GameWon(seat=leader.seat, name=leader.name))
        out.append(notices.table_closed("won"))
        return
    gap = table.seconds("round_gap")
    out.append(notices.next_round(gap))
    table.phase = Phase.GAP
    table.set_timer(TimerKind.GAP, gap)


def emit_points(table: TableState, out: list[Event], audience: frozenset[Seat] | None = None) -> None:
    """``PNTS`` for every seat (present and held), in seat order."""
    for rec in table.taken():
        out.append(Points(seat=rec.seat, name=rec.name, points=rec.points, audience=audience))


def abort(table: TableState, out: list[Event]) -> None:
    """Too few seats to go on (5.10): notice, then the table closes."""
    table.phase = Phase.ABORTED
    table.clear_timer()
    out.append(notices.not_enough_players())
    out.append(notices.table_closed("aborted"))


# --------------------------------------------------------------------------------------------
# Leaving, drops and coming back (6.2, 6.3)
# --------------------------------------------------------------------------------------------


def in_round(table: TableState) -> bool:
    return table.phase in (Phase.PICK, Phase.JUDGE)


def release(table: TableState, rec: SeatRecord, out: list[Event]) -> None:
    """Free the seat for good (``CLEX``): its hand and played cards go to the discard pile,
    a revealed submission of it is withdrawn. No other consequence: see :func:`seat_released`."""
    rec.released = True
    rec.present = False
    out.append(SeatLeft(seat=rec.seat, name=rec.name))
    table.whites.discard(rec.hand)
    rec.hand = []
    rnd = table.round
    if rnd is not None and rec.seat in rnd.submissions:
        table.whites.discard(rnd.submissions.pop(rec.seat))
        if rec.seat in rnd.reveal_order:
            rnd.reveal_order.remove(rec.seat)


def seat_released(table: TableState, rec: SeatRecord, out: list[Event]) -> None:
    """A seat leaves a started game: release it, then abort, void or carry on (6.2)."""
    was_czar = in_round(table) and table.current_czar() == rec.seat
    release(table, rec, out)
    if table.phase in (Phase.OVER, Phase.ABORTED):
        return
    if len(table.taken()) < table.min_players:
        abort(table, out)
    elif was_czar:
        void_round(table, notices.void_czar_left(rec.name), out)
    elif table.phase is Phase.PICK:
        check_pick_complete(table, out)
    elif table.phase is Phase.JUDGE and table.round is not None and not table.round.reveal_order:
        void_round(table, notices.void_none_left(), out)


def kick(table: TableState, rec: SeatRecord, out: list[Event]) -> bool:
    """Release a seat that timed out too often (``DISC`` to it, ``CLEX`` to the others).
    Returns whether the table had to abort for it."""
    out.append(SeatKicked(seat=rec.seat, name=rec.name, audience=only(rec.seat)))
    release(table, rec, out)
    if len(table.taken()) < table.min_players:
        abort(table, out)
        return True
    return False


def _kick_due(table: TableState, rec: SeatRecord) -> bool:
    limit = table.setting("kick_after_skips")
    return limit > 0 and rec.skips >= limit and not rec.released


def seat_went_away(table: TableState, rec: SeatRecord, out: list[Event]) -> None:
    """A started game's seat dropped: hold it; a czar's round is void, a picker is no longer
    awaited (6.2)."""
    rec.present = False
    out.append(SeatAway(seat=rec.seat, name=rec.name))
    if table.phase in (Phase.OVER, Phase.ABORTED):
        return
    out.append(notices.seat_held(rec.name, table.setting("rejoin_grace")))
    if in_round(table) and table.current_czar() == rec.seat:
        void_round(table, notices.void_czar_left(rec.name), out)
    else:
        check_pick_complete(table, out)


def seat_came_back(table: TableState, rec: SeatRecord, out: list[Event]) -> None:
    """A held seat's player is back: replay the table to it (6.3), tell the others, and
    resume a table that was waiting for it."""
    rec.present = True
    out.append(SeatBack(seat=rec.seat, name=rec.name))
    if table.phase in (Phase.OVER, Phase.ABORTED):
        return
    rnd = table.round
    if in_round(table) and rnd is not None and rec.drawn_round != rnd.number:
        rec.drawn_round = rnd.number
        _draw_silently(table, rec, top_up_amount(table, rec))
    replay(table, rec, out)
    out.append(notices.seat_back(rec.name, table.present_seats() - {rec.seat}))
    if table.phase is Phase.WAITING and len(table.present()) >= table.min_players:
        gap = table.seconds("round_gap")
        out.append(notices.next_round(gap))
        table.phase = Phase.GAP
        table.set_timer(TimerKind.GAP, gap)


def replay(table: TableState, rec: SeatRecord, out: list[Event]) -> None:
    """The state replay of 6.3 for ``rec`` alone: ``GSTR``, everyone's points, the whole
    hand, and the round in play (with its reveals when judging). Changes nothing."""
    if table.phase in (Phase.LOBBY, Phase.OVER, Phase.ABORTED):
        return
    me = only(rec.seat)
    out.append(GameStarted(audience=me))
    emit_points(table, out, audience=me)
    for card in rec.hand:
        out.append(WhiteDealt(seat=rec.seat, card=card, reason="restore", audience=me))
    rnd = table.round
    if in_round(table) and rnd is not None:
        out.append(RoundStarted(round=rnd.number, audience=me))
        czar_name = table.seats[rnd.czar].name
        out.append(
            CzarAndBlack(round=rnd.number, czar=rnd.czar, czar_name=czar_name, black=rnd.black, audience=me)
        )
        if table.phase is Phase.JUDGE:
            for seat in rnd.reveal_order:
                out.append(Revealed(cards=tuple(rnd.submissions[seat]), audience=me))


def _draw_silently(table: TableState, rec: SeatRecord, count: int) -> None:
    """Top up a returning hand; the cards reach the client with the whole hand right after."""
    for _ in range(count):
        card = table.whites.draw(table.rng)
        if card is None:
            return
        rec.hand.append(card)
