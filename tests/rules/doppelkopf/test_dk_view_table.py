"""What the view gives a table to draw (issue 11): the hand sorted as a player holds it, by the
game type's trump order once that is public; who took the last trick; the parties once the
round is scored."""

from __future__ import annotations

from dk_helpers import all_healthy, all_ready, full_table, hands_with, rig

from gamehall.rules.doppelkopf.actions import Answer, AnswerSolo, PlayCard
from gamehall.rules.doppelkopf.engine import DoppelkopfTable

HAND = ["d9", "ca", "h10", "sk", "dj", "cq", "ha", "s10", "da", "c9", "hq", "sj"]


def values(table: DoppelkopfTable, seat: int) -> list[str]:
    return [card["value"] for card in table.view(seat)["round"]["hand"]]


def test_a_normal_game_hand_comes_trumps_first_then_clubs_spades_hearts() -> None:
    table, _ = full_table()
    rig(table, hands_with({1: HAND}))
    all_healthy(table)
    assert values(table, 1) == ["h10", "cq", "hq", "sj", "dj", "da", "d9", "ca", "c9", "s10", "sk", "ha"]
    trumps = [card["trump"] for card in table.view(1)["round"]["hand"]]
    assert trumps == [True] * 7 + [False] * 5


def test_a_solo_reorders_hands_only_once_play_starts() -> None:
    table, _ = full_table()
    rig(table, hands_with({0: ["cq", "sq", "hq", "dq"], 2: HAND}))
    all_ready(table)
    normal = ["h10", "cq", "hq", "sj", "dj", "da", "d9", "ca", "c9", "s10", "sk", "ha"]
    for seat in range(4):
        table.apply(seat, Answer("reservation", seat == 0))
        # While the reservations run, a hand is in the normal order whatever anyone chose.
        assert values(table, 2) == normal
    table.apply(0, AnswerSolo("solo_queen"))
    assert table.round.phase == "tricks"
    # A queen solo: queens are the only trumps; ♥10, jacks and diamonds are plain cards.
    assert values(table, 2) == ["cq", "hq", "ca", "c9", "s10", "sk", "sj", "ha", "h10", "da", "dj", "d9"]
    assert [c["trump"] for c in table.view(2)["round"]["hand"]][:3] == [True, True, False]


def test_the_view_names_who_took_the_last_trick_and_the_parties_only_after_scoring() -> None:
    table, _ = full_table()
    all_healthy(table)
    view = table.view(None)["round"]
    assert view["last_trick_winner"] is None and view["re_seats"] is None
    while table.round.phase == "tricks":
        seat = next(iter(table.to_move().seats))
        table.apply(seat, next(a for a in table.legal_actions(seat) if isinstance(a, PlayCard)))
        shown = table.view(None)["round"]
        if table.round.tricks and table.round.phase == "tricks":
            assert shown["last_trick_winner"] == table.round.tricks[-1].winner
            assert shown["last_trick_leader"] == table.round.tricks[-1].leader
            assert shown["re_seats"] is None  # parties stay unknown to spectators during play
    assert table.round.phase == "end"
    assert table.view(None)["round"]["re_seats"] == sorted(table.round.re_seats)
    assert table.view(3)["round"]["party"] in ("re", "kontra")
