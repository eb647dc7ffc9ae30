"""view(): the one place that decides what a seat or a spectator may know (hands, who played
what), in the JSON shape other layers code against."""

from __future__ import annotations

from aah_engine_support import czar, fire, hand_ids, lobby, pickers, play_all, started

from gamehall.rules.aah.actions import Judge, Pick

KEYS = {
    "game",
    "phase",
    "round",
    "czar",
    "black",
    "hand",
    "my_submission",
    "submissions",
    "seats",
    "last_round",
    "rounds",
    "points_limit",
    "timeout",
    "round_gap",
    "min_players",
    "playermax",
    "winner",
}


def test_lobby_view() -> None:
    view = lobby(2).view(0)
    assert set(view) == KEYS
    assert view["game"] == "aah" and view["phase"] == "lobby" and view["round"] == 0
    assert view["czar"] is None and view["black"] is None and view["hand"] == []
    assert view["seats"] == [
        {"seat": 0, "name": "alice", "present": True, "points": 0, "czar": False, "done": False},
        {"seat": 1, "name": "bob", "present": True, "points": 0, "czar": False, "done": False},
    ]
    assert (view["points_limit"], view["timeout"], view["round_gap"]) == (8, 30, 5)
    assert (view["min_players"], view["playermax"], view["winner"], view["last_round"]) == (2, 5, None, None)


def test_hands_and_submissions_are_shown_to_their_owner_only() -> None:
    table, _ = started(3, seed=2)
    me, other = pickers(table)
    played = hand_ids(table, me)[0]
    table.apply(me, Pick((played,)))
    assert table.view(me)["my_submission"] == [played]
    assert played not in hand_ids(table, me)
    assert table.view(other)["my_submission"] == []
    assert table.view(None)["hand"] == [] and table.view(None)["my_submission"] == []
    assert table.view(other)["hand"] != table.view(me)["hand"]
    assert table.view(None)["submissions"] == []  # nothing revealed while picking
    assert table.view(None)["black"] == {"text": "Prompt 0: _____", "pick": 1, "draw": 1}


def test_judging_shows_submissions_without_owners_then_the_winner_with_owners() -> None:
    table, _ = started(3, seed=2)
    play_all(table)
    view = table.view(None)
    assert view["phase"] == "judge"
    assert [set(sub) for sub in view["submissions"]] == [{"cards"}, {"cards"}]
    winning = view["submissions"][1]["cards"][0]["id"]
    table.apply(czar(table), Judge(winning))
    last = table.view(None)["last_round"]
    assert last["card_id"] == winning
    assert [sub["cards"] for sub in last["submissions"]] == [sub["cards"] for sub in view["submissions"]]
    assert last["submissions"][1]["owner"] == last["winner"]
    assert last["winner_name"] == table.seat_names()[last["winner"]]
    assert table.view(None)["submissions"] == []


def test_a_void_round_never_names_who_played_what() -> None:
    table, _ = started(3, seed=2)
    play_all(table)
    fire(table, "judge")  # czar timeout: the revealed cards go back to their hands
    assert table.view(None)["last_round"]["submissions"] == []


def test_seat_flags_follow_the_round() -> None:
    table, _ = started(4, seed=2)
    the_czar = czar(table)
    done = pickers(table)[0]
    table.apply(done, Pick((hand_ids(table, done)[0],)))
    away = pickers(table)[0]
    table.seat_away(away)
    seats = {s["seat"]: s for s in table.view(None)["seats"]}
    assert [s for s in seats if seats[s]["czar"]] == [the_czar]
    assert [s for s in seats if seats[s]["done"]] == [done]
    assert [s for s in seats if not seats[s]["present"]] == [away]
