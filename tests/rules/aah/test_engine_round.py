"""Sections 5.4, 5.6, 5.7 and 5.8: the game start, a round in wire order, every PICK and CZPK
rule case, pick-2 and pick-3 rounds, and the draw step in both draw modes."""

from __future__ import annotations

import pytest
from aah_engine_support import (
    assert_census,
    czar,
    fire,
    hand_ids,
    kinds,
    lobby,
    of_type,
    pickers,
    play_all,
    started,
    tiny_deck,
)

from gamehall.rules._core import Action, RuleError
from gamehall.rules.aah.actions import Judge, Pick
from gamehall.rules.aah.cards import WhiteCard
from gamehall.rules.aah.events import (
    CardPlayed,
    CzarAndBlack,
    GameStarted,
    Points,
    Revealed,
    RoundStarted,
    RoundWon,
    WhiteDealt,
)


def refused(table: object, seat: int, action: Action) -> RuleError:
    """Apply ``action``, which must be refused without any change to the table."""
    before = [table.view(s) for s in (None, 0, 1, 2)]  # type: ignore[attr-defined]
    with pytest.raises(RuleError) as caught:
        table.apply(seat, action)  # type: ignore[attr-defined]
    assert [table.view(s) for s in (None, 0, 1, 2)] == before  # type: ignore[attr-defined]
    return caught.value


# -- game start and the first round (5.4, 5.6, 10.1) ---------------------------------------


def test_start_sends_gstr_points_hands_then_the_first_round() -> None:
    table, events = started(3)
    assert events[0] == GameStarted()
    assert events[1:4] == [Points(seat=s, name=n, points=0) for s, n in enumerate(("alice", "bob", "carol"))]
    deals = events[4:34]
    assert all(isinstance(e, WhiteDealt) and e.reason == "deal" for e in deals)
    assert [e.seat for e in deals] == [0] * 10 + [1] * 10 + [2] * 10
    assert all(e.audience == frozenset({e.seat}) for e in deals)
    # all hands are full, so round 1 has no draw frames
    assert events[34] == RoundStarted(round=1)
    czar_and_black = events[35]
    assert isinstance(czar_and_black, CzarAndBlack)
    assert czar_and_black.czar == czar(table) and czar_and_black.czar_name == table.seat_names()[czar(table)]
    assert len(events) == 36
    assert table.to_move().kind == "pick"
    assert pickers(table) == sorted({0, 1, 2} - {czar(table)})
    assert table.pending_timers()[0].seconds == 30


def test_a_pick_one_round_from_picks_to_winner() -> None:
    table, _ = started(3, seed=5)
    the_czar = czar(table)
    first, second = pickers(table)
    card = hand_ids(table, first)[0]
    events = table.apply(first, Pick((card,)))
    assert events == [CardPlayed(seat=first)]  # public: that a card was played, never which
    assert table.view(first)["my_submission"] == [card]
    assert table.view(second)["my_submission"] == []
    assert [s["done"] for s in table.view(None)["seats"]] == [s == first for s in range(3)]
    events = table.apply(second, Pick((hand_ids(table, second)[3],)))
    assert kinds(events) == ["CardPlayed", "Revealed", "Revealed"]
    assert table.pending_timers()[0].seconds == 60
    assert table.to_move().seats == frozenset({the_czar})
    revealed = of_type(events, Revealed)
    assert all(e.audience is None for e in revealed)
    winner_card = revealed[1].cards[0].card_id
    owner = first if winner_card == card else second
    events = table.apply(the_czar, Judge(winner_card))
    assert events[0] == RoundWon(
        seat=owner, name=table.seat_names()[owner], card_id=winner_card, cards=revealed[1].cards
    )
    assert [(e.seat, e.points) for e in of_type(events, Points)] == [(s, int(s == owner)) for s in range(3)]
    assert events[-1].text == "The next round will begin in 5 seconds."
    view = table.view(None)
    assert view["phase"] == "gap"
    assert view["last_round"]["winner"] == owner
    assert {s["owner"] for s in view["last_round"]["submissions"]} == {first, second}
    assert view["rounds"] == [{"round": 1, "winner": owner, "winner_name": table.seat_names()[owner]}]
    assert_census(table)
    assert table.card_census().white_discard == 2 and table.card_census().black_discard == 1


# -- PICK rule cases (5.7), each leaving the table unchanged ----------------------------------


def test_pick_without_ids() -> None:
    table, _ = started(3)
    error = refused(table, pickers(table)[0], Pick(()))
    assert error.code == "pick_no_arguments"
    assert error.reason == "PICK received without arguments; invalid."


@pytest.mark.parametrize("bad_id", [0, -4, 2**31])
def test_pick_with_an_impossible_id(bad_id: int) -> None:
    table, _ = started(3)
    error = refused(table, pickers(table)[0], Pick((bad_id,)))
    assert (error.code, error.detail["card_id"]) == ("invalid_card_id", bad_id)
    assert error.reason == f"Invalid card identifier sent ({bad_id})."


def test_pick_of_a_card_not_in_hand() -> None:
    table, _ = started(3)
    me, other = pickers(table)
    theirs = hand_ids(table, other)[0]
    error = refused(table, me, Pick((theirs,)))
    assert (error.code, error.reason) == ("not_in_hand", f"You do not have the card {theirs}.")
    assert "restore" not in error.detail


def test_pick_outside_the_pick_phase_restores_the_card() -> None:
    table, _ = started(3)
    play_all(table)  # now judging
    me = next(s for s in range(3) if s != czar(table))
    card_id = hand_ids(table, me)[0]
    error = refused(table, me, Pick((card_id,)))
    assert error.code == "picks_not_accepted"
    assert error.reason == "PICK commands are not being accepted at this time."
    assert error.detail["restore"] == WhiteCard(card_id, f"White card {card_id}.")


def test_pick_in_the_lobby_of_an_unknown_card_is_not_in_hand() -> None:
    table = lobby(3)
    assert refused(table, 0, Pick((1,))).code == "not_in_hand"


def test_czar_may_not_pick_and_gets_the_card_back() -> None:
    table, _ = started(3)
    the_czar = czar(table)
    card_id = hand_ids(table, the_czar)[0]
    error = refused(table, the_czar, Pick((card_id,)))
    assert error.code == "czar_does_not_pick"
    assert error.reason == "The Card Czar does not play this round."
    assert error.detail["restore"].card_id == card_id


def test_no_more_cards_than_the_black_card_asks() -> None:
    table, _ = started(3)
    me = pickers(table)[0]
    first, extra = hand_ids(table, me)[:2]
    table.apply(me, Pick((first,)))
    error = refused(table, me, Pick((extra,)))
    assert error.code == "submission_complete"
    assert error.reason == "Gambling is disabled on this server."
    assert error.detail["restore"].card_id == extra


def test_a_pick_of_several_ids_is_taken_whole_or_not_at_all() -> None:
    table, _ = started(3)
    me = pickers(table)[0]
    a, b = hand_ids(table, me)[:2]
    error = refused(table, me, Pick((a, b)))  # pick 1: the second id would be one too many
    assert (error.code, error.detail["index"], error.detail["card_id"]) == ("submission_complete", 1, b)


def test_the_same_id_twice_in_one_pick() -> None:
    table, _ = started(3, deck=tiny_deck(blacks=((2, 1),) * 20))
    me = pickers(table)[0]
    a = hand_ids(table, me)[0]
    error = refused(table, me, Pick((a, a)))
    assert (error.code, error.detail["index"]) == ("not_in_hand", 1)


def test_actions_from_unknown_or_away_seats_are_refused() -> None:
    table, _ = started(4)
    assert refused(table, 9, Pick((1,))).code == "not_seated"
    away = pickers(table)[0]
    table.seat_away(away)
    assert refused(table, away, Pick((hand_ids(table, away)[0],))).code == "seat_away"


def test_unknown_action_is_malformed() -> None:
    class Shout(Action):
        pass

    table, _ = started(3)
    assert refused(table, 0, Shout()).code == "unknown_action"


# -- CZPK rule cases (5.8) -------------------------------------------------------------------


def judging(seed: int = 1, **kwargs: object) -> tuple[object, list[Revealed]]:
    table, _ = started(3, seed=seed, **kwargs)
    return table, of_type(play_all(table), Revealed)


def test_judge_by_a_non_czar() -> None:
    table, revealed = judging()
    other = next(s for s in range(3) if s != czar(table))
    error = refused(table, other, Judge(revealed[0].cards[0].card_id))
    assert (error.code, error.reason) == ("not_czar", "You are not the Card Czar.")
    with pytest.raises(RuleError, match="not the Card Czar"):
        table.check_may_judge(other)


def test_judge_during_the_pick_phase() -> None:
    table, _ = started(3)
    error = refused(table, czar(table), Judge(1))
    assert (error.code, error.reason) == (
        "judging_not_accepted",
        "CZPK commands are not being accepted at this time.",
    )
    with pytest.raises(RuleError) as caught:
        table.check_may_judge(czar(table))
    assert caught.value.code == "judging_not_accepted"


def test_judge_in_the_lobby_is_not_the_czar() -> None:
    assert refused(lobby(3), 0, Judge(1)).code == "not_czar"


def test_judge_with_an_impossible_id() -> None:
    table, _ = judging()
    error = refused(table, czar(table), Judge(2**31))
    assert (error.code, error.reason) == ("invalid_card_id", f"Invalid card identifier sent ({2**31}).")


def test_judge_of_a_card_not_revealed() -> None:
    table, _ = judging()
    own = hand_ids(table, czar(table))[0]
    error = refused(table, czar(table), Judge(own))
    assert (error.code, error.reason, error.detail["card_id"]) == (
        "card_not_played",
        f"Card has not been played ({own}).",
        own,
    )
    table.check_may_judge(czar(table))  # judging is open: nothing to refuse before the id


def test_judge_by_the_second_card_of_a_pair() -> None:
    table, revealed = judging(deck=tiny_deck(blacks=((2, 1),) * 20))
    assert all(len(e.cards) == 2 for e in revealed)
    second_id = revealed[0].cards[1].card_id
    events = table.apply(czar(table), Judge(second_id))
    won = events[0]
    assert isinstance(won, RoundWon) and won.card_id == second_id and won.cards == revealed[0].cards


# -- pick-2 and pick-3 (10.2) ---------------------------------------------------------------


def test_pick_two_keeps_play_order_and_one_reveal_order_for_all() -> None:
    table, _ = started(3, deck=tiny_deck(blacks=((2, 1),) * 20))
    first, second = pickers(table)
    a, b = hand_ids(table, first)[4], hand_ids(table, first)[1]
    events = table.apply(first, Pick((a, b)))  # one frame with two ids
    assert kinds(events) == ["CardPlayed", "CardPlayed"]
    c, d = hand_ids(table, second)[:2]
    table.apply(second, Pick((d,)))  # two frames
    events = table.apply(second, Pick((c,)))
    revealed = of_type(events, Revealed)
    assert {tuple(card.card_id for card in e.cards) for e in revealed} == {(a, b), (d, c)}
    assert all(e.audience is None for e in revealed)
    assert [len(hand_ids(table, s)) for s in (first, second)] == [8, 8]


def test_pick_three_round_draws_two_extra_cards_for_non_czars_only() -> None:
    table, _ = started(3, deck=tiny_deck(blacks=((1, 1), (3, 2)) + ((1, 1),) * 18))
    play_all(table)
    first_czar = czar(table)
    table.apply(first_czar, Judge(table.view(first_czar)["submissions"][0]["cards"][0]["id"]))
    events = fire(table, "gap")
    round_czar = czar(table)
    assert round_czar == (first_czar + 1) % 3
    draws = of_type(events, WhiteDealt)
    assert all(e.reason == "draw" and e.audience == frozenset({e.seat}) for e in draws)
    refills = sorted(s for s in range(3) if s != first_czar)
    extras = sorted(s for s in range(3) if s != round_czar)
    assert [e.seat for e in draws] == refills + [s for s in extras for _ in range(2)]
    assert kinds(events)[len(draws) :] == ["RoundStarted", "CzarAndBlack"]
    sizes = {s: len(hand_ids(table, s)) for s in range(3)}
    assert sizes == {s: 10 if s == round_czar else 12 for s in range(3)}
    play_all(table)
    assert {s: len(hand_ids(table, s)) for s in range(3) if s != round_czar} == dict.fromkeys(extras, 9)
    assert_census(table)


# -- the draw step (5.4) --------------------------------------------------------------------


def test_refill_tops_every_present_seat_up_to_ten() -> None:
    table, _ = started(3)
    for _ in range(3):
        play_all(table)
        table.apply(czar(table), Judge(table.view(None)["submissions"][0]["cards"][0]["id"]))
        fire(table, "gap")
        assert [len(hand_ids(table, s)) for s in range(3)] == [10, 10, 10]


def test_legacy_draw_gives_draw_cards_to_everyone_and_skips_after_a_void_round() -> None:
    table, events = started(3, draw_mode="legacy")
    round_one = events[34:]
    assert [e.seat for e in of_type(round_one, WhiteDealt)] == [0, 1, 2]  # czar included
    assert [len(hand_ids(table, s)) for s in range(3)] == [11, 11, 11]
    fire(table, "pick")  # nobody played: void round
    assert table.view(None)["last_round"]["winner"] is None
    events = fire(table, "gap")
    assert of_type(events, WhiteDealt) == []  # no draw right after a void round
    assert [len(hand_ids(table, s)) for s in range(3)] == [11, 11, 11]
    play_all(table)
    table.apply(czar(table), Judge(table.view(None)["submissions"][0]["cards"][0]["id"]))
    events = fire(table, "gap")
    assert len(of_type(events, WhiteDealt)) == 3


def test_a_black_card_some_hand_cannot_answer_is_put_aside() -> None:
    blacks = ((2, 1), (2, 1), (1, 1)) + ((1, 1),) * 17
    for seed in range(50):
        table = lobby(3, seed=seed, deck=tiny_deck(whites=21, blacks=blacks))
        table.start()
        if czar(table) != 2:  # seat 2 holds one card and must answer
            break
    assert table.view(None)["black"]["pick"] == 1
    assert table.card_census().black_discard == 2
    assert_census(table)


def test_after_ten_tries_only_pick_one_cards_are_taken() -> None:
    blacks = ((2, 1),) * 12 + ((1, 1),) * 8
    for seed in range(50):
        table = lobby(3, seed=seed, deck=tiny_deck(whites=21, blacks=blacks))
        table.start()
        if czar(table) != 2:
            break
    assert table.view(None)["black"]["pick"] == 1
    assert table.card_census().black_discard == 12


def test_an_unanswerable_table_still_plays() -> None:
    table, _ = started(3, deck=tiny_deck(whites=20, blacks=((1, 1),) * 20))
    assert table.view(None)["phase"] == "pick"  # a seat without cards is simply skipped later
    fire(table, "pick")
    assert_census(table)
