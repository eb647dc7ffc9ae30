"""A table waiting in the lobby holds no deck: its generator and piles are made when the game
first needs them (issue 12 item 4). The deal is still the generator's first use, so a seed
deals exactly what it dealt when tables dealt at creation, and stored games replay unchanged."""

from __future__ import annotations

from aah_engine_support import NAMES, next_round

from gamehall.rules._core import Rng
from gamehall.rules.aah import GAME_TYPE
from gamehall.rules.aah.deck import DeckLibrary
from gamehall.rules.aah.table import AahTable, new_game


def _config() -> dict[str, object]:
    return dict(GAME_TYPE.schema.validate({"playermax": 3, "min_players": 3, "autostart_delay": 0}))


def _seated(seed: int, *, deal_at_creation: bool) -> AahTable:
    table = new_game(_config(), seed, library=DeckLibrary.bundled())
    if deal_at_creation:
        assert table._t.rng is table._t.rng  # any use deals, as creation used to
    for name in NAMES[:3]:
        table.seat_join(name)
    return table


def test_a_waiting_table_has_no_generator_and_no_piles_until_its_game_starts() -> None:
    table = _seated(5, deal_at_creation=False)
    assert not table._t.deck.dealt
    table.start()
    assert table._t.deck.dealt


def test_the_deck_sizes_are_known_before_the_deal() -> None:
    table = _seated(5, deal_at_creation=False)
    sizes = table.deck_size
    assert not table._t.deck.dealt
    assert sizes == (table._t.whites.available(), table._t.blacks.available())


def test_a_seed_deals_the_same_game_whenever_the_deal_happens() -> None:
    for seed in (1, 7, 2**40 + 3):
        early = _seated(seed, deal_at_creation=True)
        late = _seated(seed, deal_at_creation=False)
        assert early.start() == late.start()
        for _ in range(5):
            assert next_round(early) == next_round(late)
        for seat in range(3):
            assert early.view(seat) == late.view(seat)


def test_the_first_cards_are_those_of_the_deal_order_of_the_seed() -> None:
    library = DeckLibrary.bundled()
    table = _seated(11, deal_at_creation=False)
    packs = _config()["packs"]
    assert isinstance(packs, list)
    ids, order, blacks = library.deal_order(library.shared_deck(packs, pick1_only=False), Rng(11))
    first = table._t.whites.draw(table._t.rng)
    assert first is not None and first.card_id == ids[order[0]]
    assert table._t.blacks.draw(table._t.rng) == blacks[0]
