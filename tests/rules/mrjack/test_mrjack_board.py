"""The board data (note 10): counts, symmetric neighbours, the coordinate rule, ferry links and
the starting layout."""

from __future__ import annotations

from collections import Counter

from gamehall.rules.mrjack.board import (
    BOARD,
    FERRY_LINKS,
    LAND_EXIT,
    PORTS,
    PRINTED_BUILDINGS,
    PRINTED_METRO,
    Kind,
    doubled_row,
    geometric_neighbours,
    label_at,
    sort_key,
    sorted_labels,
)
from gamehall.rules.mrjack.characters import COLOURS, Cast
from gamehall.rules.mrjack.state import BoardState

SUPPLY = {"metro": 7, "laterne": 6, "haus": 4}


def test_84_nodes_with_the_kind_counts_of_the_note() -> None:
    counts = Counter(h.kind for h in BOARD.values())
    assert len(BOARD) == 84
    assert counts == {
        Kind.STREET: 73,
        Kind.QUAY_EMBARK: 2,
        Kind.QUAY_LAND: 2,
        Kind.PORT: 5,
        Kind.LAND_EXIT: 1,
        Kind.LIBERTY: 1,
    }


def test_adjacency_is_symmetric() -> None:
    for label, node in BOARD.items():
        for other in node.neighbours:
            assert label in BOARD[other].neighbours, (label, other)


def test_stored_neighbours_equal_the_coordinate_rule() -> None:
    for label, node in BOARD.items():
        assert sorted(node.neighbours) == sorted(geometric_neighbours(label)), label


def test_doubled_coordinates_round_trip() -> None:
    for label, node in BOARD.items():
        assert label_at(node.column, node.row) == label
    assert doubled_row("f5") == 8 and doubled_row("e5") == 9


def test_exactly_the_four_ferry_links() -> None:
    assert sorted(FERRY_LINKS) == [("a1", "f9"), ("a1", "h2"), ("b5", "a1"), ("d4", "a1")]
    assert BOARD["a1"].neighbours == ()


def test_places_of_the_note() -> None:
    assert PORTS == ("c7", "f2", "h9", "l9", "m1")
    assert LAND_EXIT == "o6" and BOARD["o6"].neighbours == ("n6", "n7")
    assert {"e5", "e6", "k3", "k6", "l4", "l6"} == PRINTED_BUILDINGS
    assert {"h5"} == PRINTED_METRO


def test_starting_layout_counts() -> None:
    board = BoardState.starting(Cast(), SUPPLY)
    assert board.metro_entrances() == {"h5", "c5", "l3", "m7"}
    assert sorted(h for h, art in board.tiles.items() if art == "laterne") == ["d6", "n7"]
    assert board.investigation == [("f3", "g2"), ("l8", "m8")]
    assert board.steamers == ["f2", "l9"]
    assert board.informant == "a1" and board.informant_talkative
    assert board.supply == {"metro": 4, "laterne": 4, "haus": 4}
    assert board.figures == {
        "gelb": "f5",
        "braun": "f6",
        "rot": "g5",
        "schwarz": "i3",
        "lila": "i6",
        "beige": "j5",
        "gruen": "k4",
        "weiss": "k5",
    }
    assert set(board.figures) == set(COLOURS)


def test_both_starting_steamer_ports_touch_only_investigation_hexes() -> None:
    board = BoardState.starting(Cast(), SUPPLY)
    for port in board.steamers:
        assert set(BOARD[port].neighbours) <= board.investigation_hexes()


def test_the_49_empty_street_hexes_at_start() -> None:
    board = BoardState.starting(Cast(), SUPPLY)
    expected = [
        "b6",
        "c4",
        "c6",
        "d5",
        "d7",
        "d8",
        "e3",
        "e4",
        "e7",
        "e8",
        "f4",
        "f7",
        "f8",
        "g3",
        "g4",
        "g6",
        "g7",
        "g8",
        "h3",
        "h4",
        "h6",
        "h7",
        "h8",
        "i2",
        "i4",
        "i5",
        "i7",
        "j2",
        "j3",
        "j4",
        "j6",
        "j7",
        "k2",
        "k7",
        "l2",
        "l5",
        "l7",
        "m2",
        "m3",
        "m4",
        "m5",
        "m6",
        "n2",
        "n3",
        "n4",
        "n5",
        "n6",
        "n8",
        "n9",
    ]
    assert list(board.empty_streets()) == expected


def test_coordinate_lists_sort_by_column_then_row_number() -> None:
    assert sorted_labels(["d4", "c5", "c4", "c10"]) == ("c4", "c5", "c10", "d4")
    assert sort_key("c10") > sort_key("c9")
