"""A golden transcript: a three-player table from the last join to the start of round 2,
with the deck in its listed order, the start order 0, 1, 2 and named dice. Every line was
checked by hand against the note (6.1-6.3, 7.4, 7.7, 7.8, 7.10):

- the face-up card drifts north (2:10); colour 1 holds space 0 and moves first;
- 3 players eat {2,1}; colour 0's amoeba 0 finds only one other colour on (1,2) and starves;
- phase 6 (descending): colour 0 (3 amoebas, 1 space) moves from space 2 to 3; colour 2
  (4 amoebas, 2 spaces) counts space 2, skips the taken 3 and lands on 4; colour 1
  (2 amoebas) stays on 0.
"""

from __future__ import annotations

from ursuppe_support import KeepOrderRng, line

from gamehall.rules.ursuppe import new_game
from gamehall.rules.ursuppe.actions import (
    AmoebenSetzen,
    AmoebeSetzen,
    Bereit,
    Bewegen,
    Fressen,
    GenKaufen,
    Position,
    Wuerfeln,
)

SCRIPT = [
    (0, Bereit()), (1, Bereit()), (2, Bereit()),
    (0, Position(2)), (1, Position(0)), (2, Position(1)),
    (1, AmoebeSetzen(0, 1, 1)), (2, AmoebeSetzen(0, 3, 1)), (0, AmoebeSetzen(0, 1, 3)),
    (0, AmoebeSetzen(1, 3, 3)), (2, AmoebeSetzen(1, 4, 2)), (1, AmoebeSetzen(1, 0, 2)),
    (1, Bewegen(0, 2)), (1, Fressen(0, (2, 0, 1))),
    (1, Wuerfeln()), (1, Bewegen(1, 3)), (1, Fressen(1, (1, 0, 2))),
    (2, Bewegen(0, 2)), (2, Fressen(0, (2, 1, 0))),
    (2, Bewegen(1, 2)), (2, Fressen(1, (1, 2, 0))),
    (0, Wuerfeln()), (0, Bewegen(0, 2)), (0, Fressen(0, (0, 0, 0))),
    (0, Bewegen(1, 2)), (0, Fressen(1, (0, 1, 2))),
    (0, GenKaufen((0,))), (2, GenKaufen()), (1, GenKaufen((1,))),
    (0, AmoebenSetzen(((2, 1, 1),))), (2, AmoebenSetzen(((2, 4, 0), (3, 2, 0)))), (1, AmoebenSetzen()),
]  # fmt: skip

TRANSCRIPT = """
SeatJoined 2 c
SpielBeginnt 2 10
@0 ZugBereit
@1 ZugBereit
@2 ZugBereit
Bereit 0
Bereit 1
Bereit 2
@0 ZugPosition 0:0:0
Position 0 2
@1 ZugPosition 0:0:1
Position 1 0
@2 ZugPosition 1:0:1
Position 2 1
@1 ZugAmoebeSetzen True
AmoebenGesetzt 1 0,1,1
@2 ZugAmoebeSetzen True
AmoebenGesetzt 2 0,3,1
@0 ZugAmoebeSetzen True
AmoebenGesetzt 0 0,1,3
@0 ZugAmoebeSetzen True
AmoebenGesetzt 0 1,3,3
@2 ZugAmoebeSetzen True
AmoebenGesetzt 2 1,4,2
@1 ZugAmoebeSetzen True
AmoebenGesetzt 1 1,0,2
Runde 1
@1 ZugBewegen 0 1
Bewegung 1 0 2 False None -
@1 ZugFressen 0
Fressen 1 0 2:0:1
Naehrstoff 1 2 1 0
@1 ZugBewegen 1 1
Wuerfel 1 3 5
Biopunkte 1 -1
Bewegung 1 1 3 False None -
@1 ZugFressen 1
Fressen 1 1 1:0:2
Naehrstoff 1 2 1 2
@2 ZugBewegen 0 1
Bewegung 2 0 2 False None -
@2 ZugFressen 0
Fressen 2 0 2:1:0
Naehrstoff 2 2 3 0
@2 ZugBewegen 1 1
Bewegung 2 1 2 False None -
@2 ZugFressen 1
Fressen 2 1 1:2:0
Naehrstoff 2 2 4 1
@0 ZugBewegen 0 1
Wuerfel 0 2 6
Biopunkte 0 -1
Bewegung 0 0 2 False None -
@0 ZugFressen 0
Fressen 0 0 0:0:0
AmoebeSchaden 0 0
@0 ZugBewegen 1 1
Bewegung 0 1 2 False None -
@0 ZugFressen 1
Fressen 0 1 0:1:2
Naehrstoff 0 2 3 2
Umweltkarte 1 14
@0 ZugGenKaufen
GenKaufen 0 0 -
Biopunkte 0 -2
@2 ZugGenKaufen
GenKaufen 2 - -
@1 ZugGenKaufen
GenKaufen 1 1 -
Biopunkte 1 -3
Biopunkte 0 10
Biopunkte 2 10
Biopunkte 1 10
@0 ZugAmoebeSetzen False
AmoebenGesetzt 0 2,1,1
Biopunkte 0 -6
@2 ZugAmoebeSetzen False
AmoebenGesetzt 2 2,4,0:3,2,0
Biopunkte 2 -12
@1 ZugAmoebeSetzen False
AmoebenGesetzt 1 -
Punkte 0 3
Punkte 1 0
Punkte 2 4
Runde 2
@1 ZugBewegen 0 1
"""


def test_golden_transcript_of_setup_and_round_one() -> None:
    table = new_game({"players": 3, "shuffle_deck": False}, 1)
    table.seat_join("a")
    table.seat_join("b")
    table.state.rng = KeepOrderRng([3, 5, 2, 6])
    _, events = table.seat_join("c")
    for seat, action in SCRIPT:
        events += table.apply(seat, action)
    assert [line(e) for e in events] == TRANSCRIPT.strip().splitlines()
    g = table.state
    assert [g.seats[c].bp for c in range(3)] == [5, 10, 2]
    assert g.cubes[(1, 2)] == [1, 4, 0] and g.cubes[(1, 0)] == [0, 4, 1]
    assert g.card.text() == "1:14"
