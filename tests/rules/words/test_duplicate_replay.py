"""Seeded whole duplicate games replay exactly (JDuplicate note checklist 18): the same racks, the
same tops, the same end and totals as the recorded fixtures in ``data/``.

One game runs on full ENABLE (``english``, loaded through the disk cache), one on a slice of it.
The fixtures were recorded by :func:`words_modes_support.play_duplicate`; a change to the rack
draw, the tie-break or the move generator shows up here as a different top.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from words_modes_support import enable_slice, fire, play_duplicate, table

from gamehall.rules._core import Event
from gamehall.rules.words.settings import shared_lexicon

DATA = Path(__file__).parent / "data"


def recorded(name: str) -> dict[str, object]:
    loaded = json.loads((DATA / name).read_text())
    assert isinstance(loaded, dict)
    return loaded


def test_a_seeded_enable_game_replays_its_racks_and_tops() -> None:
    record = recorded("duplicate_enable_seed2026.json")
    assert play_duplicate({"preset": "DupEN"}, 2026, shared_lexicon("english")) == record
    assert record["tops"][0] == "H5 PFUI 18"  # type: ignore[index]


def test_a_seeded_small_lexicon_game_replays_its_racks_and_tops() -> None:
    record = recorded("duplicate_slice_seed7.json")
    assert play_duplicate({"preset": "DupEN"}, 7, enable_slice()) == record
    assert "rejected=1" in " ".join(record["racks"])  # type: ignore[arg-type]


def test_the_shared_lexicon_is_loaded_once_per_process() -> None:
    assert shared_lexicon("english") is shared_lexicon("english")


def test_the_same_seed_and_inputs_give_the_same_events_and_another_seed_does_not() -> None:
    def run(seed: int) -> list[Event]:
        game, events = table({"preset": "DupEN"}, ("ams",), seed=seed, lexicon=enable_slice())
        for _ in range(6):
            if game.finished:
                break
            events += fire(game)
        return events

    assert run(11) == run(11)
    assert run(11) != run(12)


@pytest.mark.soak
@pytest.mark.parametrize("seed", range(20))
def test_soak_enable_games_are_deterministic(seed: int) -> None:
    lexicon = shared_lexicon("english")
    assert play_duplicate({"preset": "DupEN"}, seed, lexicon) == play_duplicate(
        {"preset": "DupEN"}, seed, lexicon
    )


@pytest.mark.soak
def test_soak_a_french_game_plays_to_its_end() -> None:
    record = play_duplicate({"preset": "fr"}, 3, shared_lexicon("francais"))
    assert record["end"] in ("bag", "nomove") and record["tops"]
