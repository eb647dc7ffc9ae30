"""The exact texts of the AAH server notices (section 11.3), as ready-made events.

One function per notice, so a text is written once and the rules read like the note:
``out.append(notices.next_round(gap))``.
"""

from __future__ import annotations

from gamehall.rules._core import Seat
from gamehall.rules.aah.events import (
    DISC_TEXTS,
    Broadcast,
    CloseCause,
    CountdownCancelled,
    CountdownStarted,
    GameAborted,
    RoundVoid,
    TableClosed,
)

TOO_FEW_TEXT = "Too few players made a choice; the round is void."


def countdown_started(seconds: int) -> CountdownStarted:
    return CountdownStarted(
        topic="countdown", text=f"The game will start in {seconds} seconds.", seconds=seconds
    )


def countdown_cancelled() -> CountdownCancelled:
    return CountdownCancelled(topic="countdown_cancelled", text="Start cancelled; waiting for players.")


def next_round(round_gap: float) -> Broadcast:
    return Broadcast(topic="next_round", text=f"The next round will begin in {round_gap:g} seconds.")


def pick_timeout(name: str) -> Broadcast:
    return Broadcast(
        topic="pick_timeout",
        text=f"Player {name} failed to make a choice within the time-limit and has been skipped.",
    )


def seat_held(name: str, grace: int) -> Broadcast:
    return Broadcast(topic="seat_held", text=f"{name} lost connection; the seat is held for {grace} seconds.")


def seat_back(name: str, audience: frozenset[Seat]) -> Broadcast:
    return Broadcast(topic="seat_back", text=f"{name} has reconnected.", audience=audience)


def waiting_for_players() -> Broadcast:
    return Broadcast(topic="waiting", text="Waiting for players to reconnect.")


def void_too_few() -> RoundVoid:
    return RoundVoid(cause="too_few", text=TOO_FEW_TEXT)


def void_none_left() -> RoundVoid:
    """Every revealed submission was withdrawn. The note has no text of its own for this
    cause; the general void text is the closest (Decision, ours)."""
    return RoundVoid(cause="none_left", text=TOO_FEW_TEXT)


def void_czar_timeout(name: str) -> RoundVoid:
    return RoundVoid(
        cause="czar_timeout",
        text=f"Card Czar {name} failed to pick winner within the time-limit and so the round has ended.",
    )


def void_czar_left(name: str) -> RoundVoid:
    return RoundVoid(cause="czar_left", text=f"Card Czar {name} left mid-round. Terminating round.")


def not_enough_players() -> GameAborted:
    return GameAborted(text="Not enough players to continue.")


def table_closed(cause: CloseCause) -> TableClosed:
    return TableClosed(cause=cause, text=DISC_TEXTS[cause])
