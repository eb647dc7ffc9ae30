"""Phase 1, first half: moving an amoeba (note 6.3 and 7.3).

A step is answered by ``BEWEGEN``; before it the player may send ``TENTAKEL`` (carry cubes)
and ``WUERFELN`` (roll both dice, 1 BP unless STROMLINIENFORM). Without a roll the amoeba
drifts with the face-up card (or, with KLAMMERN, holds on and stays); with a roll it goes where
a die says (BEWEGUNG1: either die; BEWEGUNG2: anywhere; a 6: anywhere). At an obstacle the
only effective direction is "stay" (5). Speed (GESCHWINDIGKEIT, also in GEN_AUSDAUER) grants a
second, rolled and free step after a rolled first one. When an amoeba leaves its field, every
other amoeba there whose owner has KLAMMERN is asked whether it rides along.

Flights (combat) use the same step rules with ``flight=True``: always rolled, no tentacles.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from gamehall.rules._core import Action, Seat
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import (
    Bewegen,
    KeineZweiteBewegung,
    Klammern,
    NichtKlammern,
    Tentakel,
    Wuerfeln,
)
from gamehall.rules.ursuppe.board import DIRECTIONS, STAY
from gamehall.rules.ursuppe.errors import fehler
from gamehall.rules.ursuppe.flow import Flow, Request
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.state import Amoeba, TableState


@dataclass(slots=True)
class Step:
    """One movement step of one amoeba: the second step of Speed and flights roll for free
    where the rules say so (``free_roll``)."""

    amoeba: Amoeba
    number: int = 1
    flight: bool = False
    free_roll: bool = False
    dice: tuple[int, int] | None = None
    tentacle: tuple[int, ...] | None = None

    @property
    def rolled(self) -> bool:
        return self.dice is not None


# -- the rules of one step ---------------------------------------------------------------------


def allowed_directions(g: TableState, step: Step) -> set[int]:
    """The effective directions eff(A) a ``BEWEGEN``/``FLUCHT`` may name now (7.3)."""
    amoeba = step.amoeba
    owner = amoeba.farbe
    if step.dice is None:
        if step.number == 2 or step.flight:
            return set()
        raw = {g.card.stroemungsrichtung}
        if g.owns(owner, Gene.KLAMMERN):
            raw.add(STAY)
    elif g.owns(owner, Gene.BEWEGUNG2):
        raw = set(DIRECTIONS)
    else:
        faces = [step.dice[0], step.dice[1]] if g.owns(owner, Gene.BEWEGUNG1) else [step.dice[0]]
        raw = set()
        for face in faces:
            raw |= set(DIRECTIONS) if face == 6 else {face}
    return {int(g.board.effective(amoeba.feld, d)) for d in raw}


def roll_cost(g: TableState, step: Step) -> int:
    if step.free_roll or g.owns(step.amoeba.farbe, Gene.STROMLINIENFORM):
        return 0
    return 1


def tentacle_capacity(g: TableState) -> int:
    return 3 if g.players == 4 else 2


def check_roll(g: TableState, step: Step) -> None:
    if step.rolled:
        raise fehler(24, "The dice were already rolled for this step.")
    if g.seats[step.amoeba.farbe].bp < roll_cost(g, step):
        raise fehler(18, "Rolling costs 1 BP.")


def check_direction(g: TableState, step: Step, amoebe: int, richtung: int) -> None:
    """The checks of 7.3 for ``BEWEGEN``/``FLUCHT amoebe richtung``."""
    if amoebe != step.amoeba.nummer:
        raise fehler(1, f"Amoeba {amoebe} is not the one to move.")
    if not 1 <= richtung <= 5:
        raise fehler(22, "A direction is 1..5.")
    allowed = allowed_directions(g, step)
    if richtung in allowed:
        return
    if step.rolled:
        raise fehler(32, "The dice do not allow this direction.")
    drift = g.card.stroemungsrichtung
    if not step.flight and step.number == 1 and richtung == drift:
        raise fehler(32, "The drift is blocked here: stay (5).")
    raise fehler(20, "A real move needs a roll first.")


def check_tentacle(g: TableState, step: Step, action: Tentakel) -> None:
    amoeba = step.amoeba
    if not g.owns(amoeba.farbe, Gene.TENTAKEL):
        raise fehler(10, "TENTAKEL is not yours.")
    if action.amoebe != amoeba.nummer:
        raise fehler(1, f"Amoeba {action.amoebe} is not the one to move.")
    if step.tentacle is not None:
        raise fehler(36, "The tentacle load is already chosen.")
    vector = action.naehrstoffe
    if len(vector) != g.players or min(vector) < 0 or sum(vector) == 0:
        raise fehler(22, "A tentacle load is one non-negative count per colour, at least one cube.")
    if sum(vector) > tentacle_capacity(g):
        raise fehler(35, "Too many cubes for the tentacle.")
    if any(want > have for want, have in zip(vector, g.cubes[amoeba.feld], strict=True)):
        raise fehler(19, "These cubes are not on the field.")


def tentacle_loads(g: TableState, step: Step) -> list[tuple[int, ...]]:
    """Every tentacle vector the step may still declare."""
    if step.tentacle is not None or step.flight or not g.owns(step.amoeba.farbe, Gene.TENTAKEL):
        return []
    here = g.cubes[step.amoeba.feld]
    ranges = [range(min(have, tentacle_capacity(g)) + 1) for have in here]
    return [v for v in itertools.product(*ranges) if 0 < sum(v) <= tentacle_capacity(g)]


def roll(g: TableState, step: Step) -> None:
    """``WUERFELN``: both dice are rolled and announced, then the step is paid."""
    step.dice = (g.rng.between(1, 6), g.rng.between(1, 6))
    g.out.append(ev.Wuerfel(farbe=step.amoeba.farbe, wuerfel1=step.dice[0], wuerfel2=step.dice[1]))
    g.change_bp(step.amoeba.farbe, -roll_cost(g, step))


def default_direction(g: TableState, step: Step) -> int:
    """Note 9: unrolled, drift; rolled, the first die (a 6 gives 5), made effective."""
    if step.dice is None:
        return int(g.board.effective(step.amoeba.feld, g.card.stroemungsrichtung))
    face = step.dice[0]
    return int(g.board.effective(step.amoeba.feld, STAY if face == 6 else face))


# -- the request -------------------------------------------------------------------------------


def move_request(g: TableState, step: Step) -> Request:
    """``ZUG_BEWEGEN``: pre-commands TENTAKEL and WUERFELN, answer BEWEGEN (or, on the
    second step, KEINE_ZWEITE_BEWEGUNG)."""
    amoeba = step.amoeba

    def check(seat: Seat, action: Action) -> None:
        if isinstance(action, Tentakel):
            check_tentacle(g, step, action)
        elif isinstance(action, Wuerfeln):
            check_roll(g, step)
        elif isinstance(action, Bewegen):
            check_direction(g, step, action.amoebe, action.richtung)
        elif isinstance(action, KeineZweiteBewegung):
            if step.number == 1:
                raise fehler(30, "KEINE_ZWEITE_BEWEGUNG only answers the second prompt.")
            if action.amoebe != amoeba.nummer:
                raise fehler(1, f"Amoeba {action.amoebe} is not the one to move.")
            if step.rolled:
                raise fehler(34, "After rolling the amoeba must move.")

    def default(seat: Seat) -> Action:
        if step.number == 2 and not step.rolled:
            return KeineZweiteBewegung(amoeba.nummer)
        return Bewegen(amoeba.nummer, default_direction(g, step))

    def legal(seat: Seat) -> list[Action]:
        actions: list[Action] = [Tentakel(amoeba.nummer, v) for v in tentacle_loads(g, step)]
        if not step.rolled and g.seats[amoeba.farbe].bp >= roll_cost(g, step):
            actions.append(Wuerfeln())
        actions += [Bewegen(amoeba.nummer, d) for d in sorted(allowed_directions(g, step))]
        if step.number == 2 and not step.rolled:
            actions.append(KeineZweiteBewegung(amoeba.nummer))
        return actions

    return Request(
        kind="ZUG_BEWEGEN",
        seats={amoeba.farbe},
        prompt=lambda seat: ev.ZugBewegen(
            amoebe=amoeba.nummer, schritt=step.number, audience=frozenset({seat})
        ),
        accepts=(Tentakel, Wuerfeln, Bewegen, KeineZweiteBewegung),
        check=check,
        default=default,
        legal=legal,
    )


def movement_step(g: TableState, step: Step) -> Flow[bool]:
    """One ``ZUG_BEWEGEN`` from prompt to movement block; returns whether it was rolled
    (only a rolled first step unlocks the Speed step)."""
    request = move_request(g, step)
    while True:
        _, action = yield request
        if isinstance(action, Tentakel):
            step.tentacle = action.naehrstoffe
        elif isinstance(action, Wuerfeln):
            roll(g, step)
        elif isinstance(action, KeineZweiteBewegung):
            return False
        elif isinstance(action, Bewegen):
            yield from execute_move(g, step, action.richtung)
            return step.rolled


def move_amoeba(g: TableState, amoeba: Amoeba) -> Flow[None]:
    """Steps 1-6 of note 6.3: the move, and the Speed step if the first one was rolled."""
    rolled = yield from movement_step(g, Step(amoeba))
    if rolled and g.alive(amoeba) and g.owns(amoeba.farbe, Gene.GESCHWINDIGKEIT):
        yield from movement_step(g, Step(amoeba, number=2, free_roll=True))


# -- carrying out a step: riders, cubes, the movement block ------------------------------------


def execute_move(g: TableState, step: Step, richtung: int, *, exclude: Amoeba | None = None) -> Flow[None]:
    """Move ``step.amoeba`` (with riders and tentacle cubes) and announce the block.

    ``exclude`` is an amoeba that may not ride along (the attacker of a fleeing victim).
    """
    amoeba = step.amoeba
    start = amoeba.feld
    target = g.board.target(start, richtung) if richtung != STAY else None
    riders: list[Amoeba] = []
    if target is not None:
        load = step.tentacle or (0,) * g.players
        rank = {colour: i for i, colour in enumerate(g.descending())}
        candidates = [
            other
            for other in g.amoebas_at(start)
            if other is not amoeba and other is not exclude and g.owns(other.farbe, Gene.KLAMMERN)
        ]
        candidates.sort(key=lambda other: (rank[other.farbe], other.nummer))
        for other in candidates:
            _, answer = yield holding_request(g, other, amoeba, richtung, load)
            if isinstance(answer, Klammern):
                riders.append(other)
        amoeba.feld = target
        for rider in riders:
            rider.feld = target
        if step.tentacle is not None:
            for colour, count in enumerate(step.tentacle):
                g.cubes[start][colour] -= count
                g.cubes[target][colour] += count
    g.out.append(
        ev.Bewegung(
            farbe=amoeba.farbe,
            amoebe=amoeba.nummer,
            richtung=richtung,
            flucht=step.flight,
            tentakel=step.tentacle,
            klammern=tuple(rider.ident for rider in riders),
        )
    )


def holding_request(
    g: TableState, rider: Amoeba, mover: Amoeba, richtung: int, load: tuple[int, ...]
) -> Request:
    """``ZUG_KLAMMERN``: may ``rider`` hold on to ``mover`` as it leaves?"""

    def check(seat: Seat, action: Action) -> None:
        assert isinstance(action, (Klammern, NichtKlammern))
        if action.amoebe != rider.nummer:
            raise fehler(1, f"Amoeba {action.amoebe} is not the one asked.")
        if (action.mitfahr_farbe, action.mitfahr_amoebe) != mover.ident:
            raise fehler(22, "That is not the leaving amoeba.")

    return Request(
        kind="ZUG_KLAMMERN",
        seats={rider.farbe},
        prompt=lambda seat: ev.ZugKlammern(
            amoebe=rider.nummer,
            mitfahr_farbe=mover.farbe,
            mitfahr_amoebe=mover.nummer,
            richtung=richtung,
            naehrstoffe=load,
            audience=frozenset({seat}),
        ),
        accepts=(Klammern, NichtKlammern),
        check=check,
        default=lambda seat: NichtKlammern(rider.nummer, *mover.ident),
        legal=lambda seat: [Klammern(rider.nummer, *mover.ident), NichtKlammern(rider.nummer, *mover.ident)],
    )
