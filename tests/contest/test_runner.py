"""The runner against a stand-in hall side: files, live snapshots, progress, parallel games."""

from __future__ import annotations

import io
import json
from pathlib import Path

from fake_contest_hall import FakeContestHall

from gamehall.contest.entrants import Entrant, EntrantsFile
from gamehall.contest.launch import RunOptions, expected_order_holds, plan_contest
from gamehall.contest.progress import Progress, ProgressLine
from gamehall.contest.records import read_reports
from gamehall.contest.runner import ContestRunner
from gamehall.rules._core import ForfeitReason

STRENGTH = {"strong": 3.0, "middle": 2.0, "weak": 1.0, "sleeper": 0.0}


def contest(
    tmp_path: Path,
    game: str,
    names: list[str],
    *,
    fmt: str = "round-robin",
    parallel: int = 1,
    **hall: object,
) -> tuple[ContestRunner, FakeContestHall, io.StringIO]:
    entrants = EntrantsFile(tuple(Entrant(n, int(STRENGTH.get(n, 0))) for n in names))
    plan, contest_format = plan_contest(
        RunOptions(
            game=game, format_name=fmt, entrants=entrants, out_dir=tmp_path, seed=11, parallel=parallel
        )
    )
    tmp_path.mkdir(parents=True, exist_ok=True)
    fake = FakeContestHall(tmp_path / "contest.db", STRENGTH, **hall)  # type: ignore[arg-type]
    out = io.StringIO()
    runner = ContestRunner(
        plan, contest_format, fake, host="127.0.0.1", port=1, progress=ProgressLine(out, tty=False)
    )
    return runner, fake, out


async def test_a_round_robin_writes_every_game_and_the_standings(tmp_path: Path) -> None:
    runner, fake, out = contest(
        tmp_path,
        "mrjack",
        ["strong", "middle", "weak", "sleeper"],
        misbehaving={"sleeper": ForfeitReason.TIMEOUT},
    )
    result = await runner.run()
    assert len(result.reports) == 12  # 6 pairings, both roles
    assert [r.order.number for r in read_reports(tmp_path / "games.jsonl")] == list(range(1, 13))
    standings = json.loads((tmp_path / "standings.json").read_text())["standings"]
    assert [row["name"] for row in standings] == ["strong", "middle", "weak", "sleeper"]
    assert standings[-1]["forfeits"]["timeout"] == 6
    assert expected_order_holds(result.standings)
    assert fake.forfeits == []  # the hall typed the timeouts; the runner reports processes only
    assert (tmp_path / "standings.csv").read_text().startswith("place,name,grade,games,points")
    assert result.failures == 6
    lines = out.getvalue().splitlines()
    assert len(lines) == 12 and lines[-1].startswith("[####################] 12/12 games  leader strong 6")


async def test_every_game_is_published_and_the_contest_closed_with_its_final_snapshot(tmp_path: Path) -> None:
    runner, fake, _ = contest(tmp_path, "mrjack", ["strong", "weak"])
    await runner.run()
    assert fake.opened[0][2] == "mrjack"
    assert [s["played"] for s in fake.published] == [1, 2]
    final = fake.closed[0]
    assert final["state"] == "finished" and final["total"] == 2 and final["failures"] == 0
    assert [g["state"] for g in final["games"]] == ["finished", "finished"]  # type: ignore[index,union-attr]
    assert final["standings"][0]["name"] == "strong"  # type: ignore[index]
    assert set(final["ratings"]) == {"strong", "weak"}  # type: ignore[arg-type]
    assert final["crosstable"] == {"strong": {"weak": 2.0}, "weak": {"strong": 0.0}}


async def test_orders_carry_seats_by_login_seeds_settings_and_deadlines(tmp_path: Path) -> None:
    runner, fake, _ = contest(tmp_path, "ursuppe", ["strong", "middle", "weak"])
    await runner.run()
    assert len(fake.orders) == 3  # one table of three, every entrant once in every seat
    for order in fake.orders:
        assert order.protocol == "urserver" and order.config["players"] == 3
        assert order.deadlines.soft_s == 2.0 and order.deadlines.hard_s == 10.0
        assert set(order.entrants.values()) == {"strong", "middle", "weak"}
    assert {order.seats[0] for order in fake.orders} == {"strong", "middle", "weak"}


async def test_parallel_games_never_put_a_self_connecting_entrant_in_two_games(tmp_path: Path) -> None:
    runner, fake, _ = contest(
        tmp_path, "mrjack", ["strong", "middle", "weak", "sleeper"], parallel=3, delay=0.02
    )
    result = await runner.run()
    assert len(result.reports) == 12
    assert fake.overlaps == []
    assert fake.max_running == 2  # four entrants that connect on their own: two games at once at most


async def test_the_organiser_can_stop_a_contest_between_games(tmp_path: Path) -> None:
    runner, fake, _ = contest(tmp_path, "mrjack", ["strong", "middle", "weak"], stop_after=2)
    result = await runner.run()
    assert result.stopped and len(result.reports) == 2
    assert fake.closed[0]["state"] == "stopped"


async def test_swiss_and_knockout_run_round_after_round(tmp_path: Path) -> None:
    runner, _, _ = contest(tmp_path / "swiss", "mrjack", ["strong", "middle", "weak", "sleeper"], fmt="swiss")
    swiss = await runner.run()
    assert {r.order.round for r in swiss.reports} == {1, 2}
    runner, _, _ = contest(tmp_path / "ko", "mrjack", ["strong", "middle", "weak", "sleeper"], fmt="knockout")
    knockout = await runner.run()
    assert {r.order.round for r in knockout.reports} == {1, 2}
    final = [r for r in knockout.reports if r.order.round == 2]
    assert set(final[0].order.entrants.values()) == {"strong", "middle"}


def test_the_progress_line_is_redrawn_on_a_terminal() -> None:
    out = io.StringIO()
    line = ProgressLine(out, tty=True)
    line.show(Progress(1, 4, "ann", 1.0, 0))
    line.show(Progress(2, 4, "ann", 1.5, 1))
    line.finish()
    text = out.getvalue()
    assert text.count("\r\x1b[2K") == 2 and text.endswith("2/4 games  leader ann 1.5  failures 1\n")


CONNECTS = (
    "import os, socket\n"
    "env = os.environ\n"
    "s = socket.create_connection((env['GAMEHALL_HOST'], int(env['GAMEHALL_PORT'])))\n"
    "print('connected to', s.getpeername()[1], 'as', env['GAMEHALL_NAME'], 'seat', env['GAMEHALL_SEAT'])\n"
)


async def test_run_contest_starts_its_own_server_and_entrants_reach_its_game_port(tmp_path: Path) -> None:
    import sys

    from gamehall.contest.launch import run_contest

    command = (sys.executable, "-c", CONNECTS)
    entrants = EntrantsFile((Entrant("ann", None, command), Entrant("bob", None, command)))
    options = RunOptions("mrjack", "round-robin", entrants, tmp_path, seed=1, games_per_pairing=1)
    plan, contest_format = plan_contest(options)
    halls: list[FakeContestHall] = []

    def factory(hall: object) -> FakeContestHall:
        assert getattr(hall, "tournament", None) is True  # no bot takes a dropped seat over
        halls.append(FakeContestHall(tmp_path / "fake.db", STRENGTH, delay=1.0))
        return halls[0]

    out = io.StringIO()
    result = await run_contest(plan, contest_format, port_base=0, hall_factory=factory, out=out, tty=False)
    assert len(result.reports) == 1 and (tmp_path / "contest.db").exists()
    assert out.getvalue().startswith(f"contest {plan.contest_id}: http://127.0.0.1:")
    ann = (tmp_path / "logs" / "0001-ann.txt").read_text().splitlines()[-1]
    assert ann.startswith("connected to ") and ann.endswith(" as ann seat 0")
    assert int(ann.split()[2]) != 4712  # --port-base 0: a free port, not the game's usual one
    accounts = halls[0].accounts  # started entrants log in with the contest's password
    assert [(protocol, login) for protocol, login, _ in accounts] == [("mrjack", "ann"), ("mrjack", "bob")]
    assert len({password for _, _, password in accounts}) == 1
