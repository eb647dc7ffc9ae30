"""Phase 4 (cell division) and the first amoebas of the setup (note 6.1 and 7.8).

In phase 4 every player first earns 10 BP, then, in descending order, places new amoebas in
one block: each costs 6 BP (4 with TEILUNGSRATE) and goes on a playable field without an own
amoeba, next to an own amoeba (the ones placed earlier in the block count). A player with at
most one amoeba may place anywhere; a player with none places the first one for free; SPOREN
allows any field without an own amoeba. Numbers 0..6 not on the board, so at most seven.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator

from gamehall.rules._core import Action, Seat
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import AmoebenSetzen, AmoebeSetzen
from gamehall.rules.ursuppe.board import Field
from gamehall.rules.ursuppe.errors import fehler
from gamehall.rules.ursuppe.flow import Flow, Request
from gamehall.rules.ursuppe.genes import Gene
from gamehall.rules.ursuppe.state import AMOEBAS_PER_COLOUR, TableState

INCOME = 10
DIVISION_COST = 6
DIVISION_COST_WITH_RATE = 4

Placement = tuple[int, int, int]
"""``(amoebe, x, y)``."""


def division_cost(g: TableState, farbe: int) -> int:
    return DIVISION_COST_WITH_RATE if g.owns(farbe, Gene.TEILUNGSRATE) else DIVISION_COST


def check_number_and_field(g: TableState, numbers: set[int], amoebe: int, feld: Field) -> None:
    if not 0 <= amoebe < AMOEBAS_PER_COLOUR:
        raise fehler(22, f"Amoeba numbers are 0..{AMOEBAS_PER_COLOUR - 1}.")
    if amoebe in numbers:
        raise fehler(3, f"Amoeba {amoebe} is already on the board.")
    if not g.board.playable(feld):
        raise fehler(25, f"Field {feld} is not playable.")


# -- phase 4 -------------------------------------------------------------------------------------


def field_allowed(g: TableState, own: Collection[Field], feld: Field, *, spores: bool) -> bool:
    """Whether a new amoeba may go on ``feld`` given the own fields so far (7.8)."""
    if feld in own:
        return False
    if len(own) <= 1 or spores:
        return True
    return g.board.adjacent_to_any(feld, own)


def check_division(g: TableState, farbe: int, setzungen: tuple[tuple[int, ...], ...]) -> int:
    """Check a phase-4 block line by line; returns its price.

    Raises:
        RuleError: 21 malformed line, 22 bad number, 3 number on the board, 25 field not
            allowed, 18 BP.
    """
    if any(len(placement) != 3 for placement in setzungen):
        raise fehler(21, "A placement is AMOEBE_SETZEN amoebe x y.")
    own = [a.feld for a in g.amoebas_of(farbe)]
    numbers = {a.nummer for a in g.amoebas_of(farbe)}
    free_first = not own
    price = 0
    for i, (amoebe, x, y) in enumerate(setzungen):
        feld = (x, y)
        check_number_and_field(g, numbers, amoebe, feld)
        if not field_allowed(g, own, feld, spores=g.owns(farbe, Gene.SPOREN)):
            raise fehler(25, f"Field {feld} holds an own amoeba or is not next to one.")
        price += 0 if free_first and i == 0 else division_cost(g, farbe)
        own.append(feld)
        numbers.add(amoebe)
    if price > g.seats[farbe].bp:
        raise fehler(18, "The BP do not pay for these amoebas.")
    return price


def legal_divisions(g: TableState, farbe: int) -> Iterator[AmoebenSetzen]:
    """Every accepted block up to order and numbering: one block per set of fields, with
    the lowest free numbers in placement order."""
    seen: set[frozenset[Field]] = set()
    start = g.amoebas_of(farbe)
    budget = g.seats[farbe].bp
    cost = division_cost(g, farbe)
    spores = g.owns(farbe, Gene.SPOREN)

    def extend(block: tuple[Placement, ...], own: list[Field], spent: int) -> Iterator[AmoebenSetzen]:
        yield AmoebenSetzen(block)
        taken = {a.nummer for a in start} | {p[0] for p in block}
        if len(taken) >= AMOEBAS_PER_COLOUR:
            return
        number = min(set(range(AMOEBAS_PER_COLOUR)) - taken)
        price = 0 if not start and not block else cost
        if spent + price > budget:
            return
        for feld in g.board.fields():
            key = frozenset([*(p[1:] for p in block), feld])
            if key in seen or not field_allowed(g, own, feld, spores=spores):
                continue
            seen.add(key)
            yield from extend((*block, (number, *feld)), [*own, feld], spent + price)

    yield from extend((), [a.feld for a in start], 0)


def division_request(g: TableState, farbe: int) -> Request:
    def check(seat: Seat, action: Action) -> None:
        assert isinstance(action, AmoebenSetzen)
        check_division(g, farbe, action.setzungen)

    return Request(
        kind="ZUG_AMOEBE_SETZEN",
        seats={farbe},
        prompt=lambda seat: ev.ZugAmoebeSetzen(aufbau=False, audience=frozenset({seat})),
        accepts=(AmoebenSetzen,),
        check=check,
        default=lambda seat: AmoebenSetzen(),
        legal=lambda seat: list(legal_divisions(g, farbe)),
    )


def cell_division(g: TableState) -> Flow[None]:
    """Phase 4: income for everyone, then each player's block, both in descending order."""
    g.phase = "zellteilung"
    order = g.descending()
    for farbe in order:
        g.change_bp(farbe, INCOME)
    for farbe in order:
        _, action = yield division_request(g, farbe)
        assert isinstance(action, AmoebenSetzen)
        price = check_division(g, farbe, action.setzungen)
        placed = tuple((amoebe, x, y) for amoebe, x, y in action.setzungen)
        for amoebe, x, y in placed:
            g.put_amoeba(farbe, amoebe, (x, y))
        g.out.append(ev.AmoebenGesetzt(farbe=farbe, setzungen=placed))
        g.change_bp(farbe, -price)


# -- setup: the first two amoebas ----------------------------------------------------------------


def check_first_amoeba(g: TableState, farbe: int, action: AmoebeSetzen) -> None:
    feld = (action.x, action.y)
    numbers = {a.nummer for a in g.amoebas_of(farbe)}
    check_number_and_field(g, numbers, action.amoebe, feld)
    if g.amoebas_at(feld):
        raise fehler(25, f"Field {feld} already holds an amoeba.")


def first_amoeba_request(g: TableState, farbe: int) -> Request:
    def check(seat: Seat, action: Action) -> None:
        assert isinstance(action, AmoebeSetzen)
        check_first_amoeba(g, farbe, action)

    def empty_fields() -> list[Field]:
        return [feld for feld in g.board.fields() if not g.amoebas_at(feld)]

    def free_numbers() -> list[int]:
        taken = {a.nummer for a in g.amoebas_of(farbe)}
        return [n for n in range(AMOEBAS_PER_COLOUR) if n not in taken]

    def default(seat: Seat) -> Action:
        x, y = empty_fields()[0]
        return AmoebeSetzen(free_numbers()[0], x, y)

    return Request(
        kind="ZUG_AMOEBE_SETZEN",
        seats={farbe},
        prompt=lambda seat: ev.ZugAmoebeSetzen(aufbau=True, audience=frozenset({seat})),
        accepts=(AmoebeSetzen,),
        check=check,
        default=default,
        legal=lambda seat: [AmoebeSetzen(n, x, y) for n in free_numbers() for x, y in empty_fields()],
    )


def place_first_amoebas(g: TableState) -> Flow[None]:
    """Setup steps 5-6: one amoeba each in ascending order (1 DP with 4 players), then one
    each in descending order."""
    for round_of_placing, order in enumerate((g.ascending(), g.descending())):
        for farbe in order:
            _, action = yield first_amoeba_request(g, farbe)
            assert isinstance(action, AmoebeSetzen)
            amoeba = g.put_amoeba(farbe, action.amoebe, (action.x, action.y))
            g.out.append(ev.AmoebenGesetzt(farbe=farbe, setzungen=((action.amoebe, action.x, action.y),)))
            if round_of_placing == 0 and g.players == 4:
                g.damage(amoeba)
