"""``game_summary`` per flavor (note §6.5 step 6): vanilla connections get the reference's list,
gamehall connections the full list; ``game.start`` rows likewise."""

from __future__ import annotations

from gamehall.protocols.cg.game_out import GameTranslator, summaries
from gamehall.rules.doppelkopf.events import RoundEnded
from gamehall.rules.doppelkopf.scoring import RoundFacts, score_round


def _ended() -> RoundEnded:
    score = score_round(
        RoundFacts("normal", 205, 35, ("re", "no90", "no60"), ("kontra", "no90"), (), ("fox",))
    )
    return RoundEnded(
        round=1,
        game_type="normal",
        winner=score.winner,
        eyes=(205, 35),
        modifiers={"re": ["re", "no90", "no60"], "kontra": ["kontra", "no90"]},
        extras=((), ("fox",)),
        game_summary=score.summary,
        point_change=(9, -9, 9, -9),
        re_seats=(0, 2),
        reference_summary=score.reference_summary,
    )


def _codes(translator: GameTranslator) -> list[str]:
    (packet,) = translator.packets(_ended())
    codes = packet.body["game_summary"]
    assert isinstance(codes, list)
    return codes


def test_vanilla_gets_the_reference_list_and_gamehall_the_full_one() -> None:
    vanilla = _codes(GameTranslator(0, lambda s: f"{s:032x}", vanilla=True))
    full = _codes(GameTranslator(0, lambda s: f"{s:032x}"))
    assert vanilla == ["re_win", "re", "kontra", "no60", "c_no60", "fc_no90", "120vs_no90", "n_fox"]
    assert full == [
        "re_win",
        "re",
        "kontra",
        "no90",
        "no60",
        "c_no90",
        "c_no60",
        "fc_no90",
        "120vs_no90",
        "n_fox",
    ]


def test_game_start_rows_per_flavor() -> None:
    row = {"round_num": 1, "extras": ["no_win", "re", "no90"], "reference_extras": ["no_win", "no90"]}
    view = {"summaries": [row, {"round_num": 2, "extras": ["re_win"]}]}
    assert [r["extras"] for r in summaries(view, vanilla=True)] == [["no_win", "no90"], ["re_win"]]
    assert [r["extras"] for r in summaries(view)] == [["no_win", "re", "no90"], ["re_win"]]
    assert all(
        set(r) == {"round_num", "winner", "game_type", "eyes", "extras", "point_change", "points"}
        for r in summaries(view, vanilla=True)
    )
