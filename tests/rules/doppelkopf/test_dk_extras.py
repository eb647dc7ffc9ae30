"""Every special-point option, played out on small rigged deals (note §6.5 step 5)."""

from __future__ import annotations

import pytest
from dk_helpers import all_healthy, find, full_table, play_tricks, random_game, rig

from gamehall.rules.doppelkopf.events import RoundEnded

SMALL = {
    "doppelkopf": (
        [["cq", "ca"], ["c10", "s9"], ["cq", "ca"], ["c10", "sk"]],
        [["cq", "s9", "cq", "sk"], ["ca", "c10", "ca", "c10"]],
    ),
    "fox": (
        [["cq", "c9"], ["da", "s9"], ["cq", "h9"], ["ck", "sk"]],
        [["cq", "da", "cq", "ck"], ["c9", "s9", "h9", "sk"]],
    ),
    "charlie": (
        [["cq", "cj"], ["c9", "s9"], ["cq", "h9"], ["ck", "sk"]],
        [["cq", "c9", "cq", "ck"], ["cj", "s9", "h9", "sk"]],
    ),
    "fox_lasttrick": (
        [["cq", "da"], ["c9", "s9"], ["cq", "h9"], ["ck", "sk"]],
        [["cq", "c9", "cq", "ck"], ["da", "s9", "h9", "sk"]],
    ),
    "charlie_broken": (
        [["cq", "dq"], ["d9", "cj"], ["cq", "h9"], ["ck", "sk"]],
        [["cq", "d9", "cq", "ck"], ["dq", "cj", "h9", "sk"]],
    ),
    "heart_trick": (
        [["cq", "ha"], ["c9", "hk"], ["cq", "h9"], ["ck", "h9"]],
        [["cq", "c9", "cq", "ck"], ["ha", "hk", "h9", "h9"]],
    ),
    "sec_black_trick": (
        [["cq", "sa", "sa"], ["c9", "s10", "s10"], ["cq", "sk", "sk"], ["ck", "s9", "s9"]],
        [["cq", "c9", "cq", "ck"], ["sa", "s10", "sk", "s9"], ["sa", "s10", "sk", "s9"]],
    ),
    "hobgoblin": (
        [["cq", "sq"], ["c9", "sk"], ["cq", "h9"], ["ck", "s9"]],
        [["cq", "c9", "cq", "ck"], ["sq", "sk", "h9", "s9"]],
    ),
}
RULE_FOR = {
    "charlie_broken": {"charlie_broken": True},
    "heart_trick": {"heart_trick": True},
    "sec_black_trick": {"sec_black_trick": True},
    "hobgoblin": {"hobgoblin": True},
    "fox_lasttrick": {"fox_lasttrick": True},
}


def play_small(config: dict[str, object], hands: list[list[str]], tricks: list[list[str]]) -> RoundEnded:
    table, _ = full_table(config)
    rig(table, hands)
    all_healthy(table)
    assert table.round.re_seats == [0, 2]
    return find(play_tricks(table, tricks), RoundEnded)[0]


@pytest.mark.parametrize("extra", sorted(SMALL))
def test_extra_goes_to_the_collecting_party(extra: str) -> None:
    hands, tricks = SMALL[extra]
    end = play_small(RULE_FOR.get(extra, {}), hands, tricks)
    assert end.extras == ((extra,), ())
    assert f"p_{extra}" in end.game_summary


@pytest.mark.parametrize(
    "extra",
    [
        "doppelkopf",
        "fox",
        "charlie",
        "charlie_broken",
        "heart_trick",
        "sec_black_trick",
        "hobgoblin",
        "fox_lasttrick",
    ],
)
def test_extra_needs_its_rule(extra: str) -> None:
    hands, tricks = SMALL[extra]
    off = {"doppelkopf": {"doppelkopf": False}, "fox": {"fox": False}, "charlie": {"charlie": False}}
    end = play_small(off.get(extra, {}), hands, tricks)
    assert end.extras == ((), ())


def test_jane_is_a_charlie_caught_by_the_diamond_queen() -> None:
    hands, tricks = SMALL["charlie_broken"]
    end = play_small({"jane": True}, hands, tricks)
    assert end.extras == (("jane",), ())


def test_charlie_only_when_the_club_jack_wins_the_last_trick() -> None:
    hands = [["cq", "s9"], ["cj", "c9"], ["cq", "h9"], ["ck", "sk"]]
    table, _ = full_table()
    rig(table, hands)
    all_healthy(table)
    play_tricks(table, [["cq", "cj", "cq", "ck"]])
    # the ♣J went in trick 1; the last trick goes to the ♠K
    end = find(play_tricks(table, [["s9", "c9", "h9", "sk"]]), RoundEnded)[0]
    assert end.extras == ((), ())


def test_no_extras_in_a_silent_wedding() -> None:
    table, _ = full_table()
    rig(table, [["cq", "cq"], ["da", "s9"], ["c9", "h9"], ["ck", "sk"]])
    all_healthy(table)
    assert table.round.game_type == "silent_wedding"
    end = find(play_tricks(table, [["cq", "da", "c9", "ck"], ["cq", "s9", "h9", "sk"]]), RoundEnded)[0]
    assert end.game_type == "normal" and end.extras == ((), ())


def test_against_the_queens_when_kontra_wins_a_normal_game() -> None:
    found = 0
    for seed in range(40):
        table = random_game(seed, max_rounds=1)
        row = table.s.summaries[0]
        if row["game_type"] == "normal" and row["winner"] == "kontra":
            assert "p_against_cqs" in row["extras"]
            found += 1
        elif row["winner"] == "re":
            assert not any("against_cqs" in code for code in row["extras"])
    assert found > 0
