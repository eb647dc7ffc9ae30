"""Tables built from the same packs share one immutable deck (5.3): each table owns only its
card ids and the order of its piles. Play never changes the shared deck, every table still
deals its own random ids, and a seed deals exactly the cards the per-table card lists dealt."""

from __future__ import annotations

from aah_engine_support import assert_census, fire, next_round

from gamehall.rules._core import Rng
from gamehall.rules.aah import GAME_TYPE
from gamehall.rules.aah.deck import DeckLibrary
from gamehall.rules.aah.table import AahTable, new_game

ORIGINAL = "gamehall Original"


def _config(**settings: object) -> dict[str, object]:
    return dict(
        GAME_TYPE.schema.validate(
            {"playermax": 3, "min_players": 3, "autostart_delay": 0, "aplimit": 100, **settings}
        )
    )


def _table(library: DeckLibrary, seed: int) -> AahTable:
    table = new_game(_config(), seed, library=library)
    for name in ("alice", "bob", "carol"):
        table.seat_join(name)
    table.start()
    return table


def test_tables_of_the_same_packs_share_one_deck_and_play_leaves_it_unchanged() -> None:
    library = DeckLibrary.bundled()
    shared = library.shared_deck([ORIGINAL], pick1_only=False)
    before = (list(shared.whites), list(shared.blacks))
    tables = [_table(library, seed) for seed in (1, 2)]
    assert library.shared_deck([ORIGINAL], pick1_only=False) is shared
    for table in tables:
        for _ in range(400):  # until the white discards were shuffled back
            next_round(table)
            assert_census(table)
            if table.reshuffles[0]:
                break
        assert table.reshuffles[0] == 1
    assert (list(shared.whites), list(shared.blacks)) == before
    assert isinstance(shared.whites, tuple) and isinstance(shared.blacks, tuple)
    hands = [{c.card_id for rec in t._t.seats.values() for c in rec.hand} for t in tables]
    assert hands[0].isdisjoint(hands[1])  # each table its own random ids (2**31 of them)


def test_a_seed_deals_what_the_per_table_card_list_of_build_game_deck_holds() -> None:
    library = DeckLibrary.bundled()
    whites, _blacks = library.build_game_deck([ORIGINAL], Rng(7), pick1_only=False)
    table = new_game(_config(), 7, library=library)
    drawn = [table._t.whites.draw(table._t.rng) for _ in range(len(whites))]
    assert drawn == whites


def test_the_pile_gives_back_every_card_after_a_reshuffle() -> None:
    library = DeckLibrary.bundled()
    table = _table(library, 3)
    deck_whites, _ = table.deck_size
    for _ in range(400):
        next_round(table)
        if table.reshuffles[0] == 2:
            break
    assert table.reshuffles[0] == 2
    assert_census(table)
    census = table.card_census()
    assert len(set(census.white_ids)) == deck_whites
    fire(table, "pick")  # the round goes on after reshuffles
    assert_census(table)
