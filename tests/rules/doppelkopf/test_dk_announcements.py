"""Re/kontra and the denials with their deadlines (note §6.4, checklist §11.10)."""

from __future__ import annotations

import pytest
from dk_helpers import all_healthy, find, full_table, hands_with, rig

from gamehall.rules._core import IllegalAction
from gamehall.rules.doppelkopf.actions import Announce, PlayCard
from gamehall.rules.doppelkopf.announcements import AnnouncementContext, next_label, refusal
from gamehall.rules.doppelkopf.engine import DoppelkopfTable
from gamehall.rules.doppelkopf.events import Announced, ButtonsChanged


def ctx(
    party: str | None = "re",
    own: tuple[str, ...] = (),
    other: tuple[str, ...] = (),
    cards: int = 12,
    total: int = 12,
    w: int = 1,
    null: bool = False,
) -> AnnouncementContext:
    return AnnouncementContext(
        party=party,
        own=own,
        other=other,
        cards_in_hand=cards,
        tricks_total=total,
        clarification_trick=w,
        null_game=null,
    )


@pytest.mark.parametrize(
    ("kind", "own", "other", "cards", "expected"),
    [
        ("re", (), (), 12, None),
        ("re", (), (), 11, None),
        ("re", (), (), 10, "re_too_late"),
        ("re", (), ("kontra",), 10, None),  # a reply: r = 1
        ("re", (), ("kontra",), 9, "re_too_late"),
        ("re", (), ("kontra", "no90"), 9, None),  # r = 2 after one denial of the other party
        ("kontra", (), (), 12, "re_no_party"),  # wrong party
        ("no90", ("re",), (), 10, None),
        ("no90", ("re",), (), 9, "re_too_late"),
        ("no90", (), (), 12, "re_no_party"),  # needs re first
        ("no60", ("re", "no90"), (), 9, None),
        ("no60", ("re", "no90"), (), 8, "re_too_late"),
        ("no60", ("re",), (), 11, "re_no_party"),  # needs no90 first
        ("no30", ("re", "no90", "no60"), (), 8, None),
        ("no30", ("re", "no90", "no60"), (), 7, "re_too_late"),
        ("black", ("re", "no90", "no60", "no30"), (), 7, None),
        ("black", ("re", "no90", "no60", "no30"), (), 6, "re_too_late"),
        ("re", ("re",), (), 12, "re_no_party"),  # only once
    ],
)
def test_deadline_table(
    kind: str, own: tuple[str, ...], other: tuple[str, ...], cards: int, expected: str | None
) -> None:
    assert refusal(kind, ctx(own=own, other=other, cards=cards)) == expected


def test_wedding_shifts_the_deadlines() -> None:
    assert refusal("re", ctx(cards=10, w=2)) is None
    assert refusal("re", ctx(cards=9, w=2)) == "re_too_late"
    assert refusal("no90", ctx(own=("re",), cards=9, w=2)) is None


def test_unknown_parties_and_null_games() -> None:
    assert refusal("re", ctx(party=None)) == "re_no_party"
    assert refusal("re", ctx(null=True)) is None
    assert refusal("no90", ctx(own=("re",), null=True)) == "re_no_party"


def test_button_label() -> None:
    assert next_label(ctx()) == "re"
    assert next_label(ctx(own=("re",))) == "no90"
    assert next_label(ctx(own=("re",), cards=9)) == "none"
    assert next_label(ctx(party=None)) == "none"


def normal_table() -> DoppelkopfTable:
    table, _ = full_table()
    rig(table, hands_with({0: ["cq"], 2: ["cq"]}))
    all_healthy(table)
    return table


def play_one(table: DoppelkopfTable) -> None:
    seat = next(iter(table.to_move().seats))
    table.apply(seat, next(a for a in table.legal_actions(seat) if isinstance(a, PlayCard)))


def test_re_at_eleven_cards_and_too_late_at_ten() -> None:
    table = normal_table()
    for _ in range(4):
        play_one(table)  # trick 1: everyone has 11
    events = table.apply(2, Announce("re"))
    assert find(events, Announced)[0].party == "re"
    assert {e.seat: e.rebtn_lbl for e in find(events, ButtonsChanged)}[1] == "kontra"
    table2 = normal_table()
    for _ in range(8):
        play_one(table2)
    with pytest.raises(IllegalAction) as late:
        table2.apply(0, Announce("re"))
    assert late.value.code == "re_too_late"


def test_kontra_reply_at_ten_cards() -> None:
    table = normal_table()
    for _ in range(4):
        play_one(table)
    table.apply(0, Announce("re"))
    for _ in range(4):
        play_one(table)
    table.apply(1, Announce("kontra"))
    assert [a.kind for a in table.round.announcements] == ["re", "kontra"]


def test_denial_without_own_re_and_wrong_party() -> None:
    table = normal_table()
    with pytest.raises(IllegalAction) as no_party:
        table.apply(0, Announce("no90"))
    assert no_party.value.code == "re_no_party"
    with pytest.raises(IllegalAction):
        table.apply(1, Announce("re"))
    table.apply(1, Announce("kontra"))
    table.apply(3, Announce("no90"))  # the partner's kontra counts for the party
    assert [(a.seat, a.kind, a.party) for a in table.round.announcements] == [
        (1, "kontra", "kontra"),
        (3, "no90", "kontra"),
    ]


def test_announcements_are_refused_before_play() -> None:
    table, _ = full_table()
    with pytest.raises(Exception) as refused:
        table.apply(0, Announce("re"))
    assert refused.value.code == "pc_wrong_phase"  # type: ignore[attr-defined]
