"""Who is Card Czar and which cards are dealt: sections 5.4 (draw step) and 5.5 (czar).

Everything random here draws from the table's own :class:`Rng`, so a replay deals the same.
"""

from __future__ import annotations

from gamehall.rules._core import Event, Seat, only
from gamehall.rules.aah.cards import BlackCard
from gamehall.rules.aah.events import DealReason, WhiteDealt
from gamehall.rules.aah.state import HAND_SIZE, SeatRecord, TableState

MAX_BLACK_TRIES = 10
"""Black cards tried for one that every hand can answer, before only pick-1 cards are taken."""

EXTRA_DRAW = 2
"""What "Draw 2" gives each non-czar seat on top of the refill."""


def deal(table: TableState, rec: SeatRecord, count: int, reason: DealReason, out: list[Event]) -> None:
    """Draw up to ``count`` white cards into ``rec``'s hand; a present seat sees each one.

    Fewer cards arrive when both white piles are empty (5.3): the game goes on regardless.
    """
    for _ in range(count):
        card = table.whites.draw(table.rng)
        if card is None:
            return
        rec.hand.append(card)
        if rec.present:
            out.append(WhiteDealt(seat=rec.seat, card=card, reason=reason, audience=only(rec.seat)))


# --------------------------------------------------------------------------------------------
# Card Czar (5.5)
# --------------------------------------------------------------------------------------------


def choose_czar(table: TableState) -> Seat:
    """This round's czar among the present seats (there is at least one).

    First round: a random present seat. Then by ``czar_mode``: ``sequential`` takes the next
    present seat after the previous czar by seat number, wrapping (so seats released since
    do not shift the order); ``random`` any present seat; ``winner`` the previous round's
    winner if present, else sequential. Held seats are never chosen.
    """
    present = [rec.seat for rec in table.present()]
    previous = table.previous_czar
    mode = table.config["czar_mode"]
    if previous is None or mode == "random":
        return int(table.rng.choice(present))
    if mode == "winner" and table.previous_winner in present:
        return table.previous_winner
    later = [seat for seat in present if seat > previous]
    return later[0] if later else present[0]


# --------------------------------------------------------------------------------------------
# Draw step (5.4)
# --------------------------------------------------------------------------------------------


def draw_plan(
    table: TableState, czar: Seat, black: BlackCard, legacy_skipped: bool
) -> list[tuple[SeatRecord, int]]:
    """The draw step as ``(seat, cards)`` in dealing order, limited to the cards that exist.

    ``refill``: every present seat, czar included, is topped up to 10; then each present
    non-czar seat gets 2 more when the black card says "Draw 2". ``legacy``: every present
    seat gets ``black.draw`` cards, none in the round right after a void round.
    """
    present = table.present()
    wanted: list[tuple[SeatRecord, int]]
    if table.config["draw_mode"] == "legacy":
        wanted = [] if legacy_skipped else [(rec, black.draw) for rec in present]
    else:
        wanted = [(rec, max(0, HAND_SIZE - len(rec.hand))) for rec in present]
        if black.draw == 2:
            wanted += [(rec, EXTRA_DRAW) for rec in present if rec.seat != czar]
    left = table.whites.available()
    plan: list[tuple[SeatRecord, int]] = []
    for rec, count in wanted:
        given = min(count, left)
        left -= given
        plan.append((rec, given))
    return plan


def top_up_amount(table: TableState, rec: SeatRecord) -> int:
    """What a seat coming back owes itself from the current round's draw step (6.3)."""
    assert table.round is not None
    black = table.round.black
    if table.config["draw_mode"] == "legacy":
        return 0 if table.round.legacy_draw_skipped else black.draw
    extra = EXTRA_DRAW if black.draw == 2 and rec.seat != table.round.czar else 0
    return max(0, HAND_SIZE - len(rec.hand)) + extra


def _answerable(table: TableState, czar: Seat, black: BlackCard, legacy_skipped: bool) -> bool:
    """Whether every present non-czar seat holds at least ``pick`` cards after the draw step."""
    after = {rec.seat: len(rec.hand) for rec in table.present()}
    for rec, count in draw_plan(table, czar, black, legacy_skipped):
        after[rec.seat] += count
    return all(count >= black.pick for seat, count in after.items() if seat != czar)


def choose_black(table: TableState, czar: Seat, legacy_skipped: bool) -> BlackCard:
    """This round's black card: the top of the black pile, unless some hand could not answer
    it; then it is discarded and the next one tried (10 tries, then only pick-1 cards).

    The deck always holds a black card and none is in play between rounds, so a draw
    cannot come up empty.
    """
    for _ in range(MAX_BLACK_TRIES):
        black = _draw_black(table)
        if _answerable(table, czar, black, legacy_skipped):
            return black
        table.blacks.discard([black])
    for _ in range(table.deck_blacks):
        black = _draw_black(table)
        if black.pick == 1:
            return black
        table.blacks.discard([black])
    return _draw_black(table)


def _draw_black(table: TableState) -> BlackCard:
    black = table.blacks.draw(table.rng)
    if black is None:
        raise RuntimeError("the black piles are empty although no black card is in play")
    return black
