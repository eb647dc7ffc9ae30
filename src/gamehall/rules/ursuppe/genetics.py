"""Phase 2 (gene defects) and phase 3 (buying genes), note 7.6 and 7.7.

Phase 2: from round 2 on, a player whose mutation points (MP) exceed the new card's ozone
thickness must cover the difference d by surrendering genes (each worth its MP, STRAHLENSCHUTZ
worth 4) and paying the rest in BP. Phase 3: each player buys any number of genes with free
copies in one block; an advanced gene needs its basic gene from an earlier round and takes it
back (PANZERUNG takes VERTEIDIGUNG or FLUCHT, the player's choice if both are owned).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from gamehall.rules._core import Action, RuleError, Seat
from gamehall.rules.ursuppe import events as ev
from gamehall.rules.ursuppe.actions import DefektAusgleichen, GenKaufen
from gamehall.rules.ursuppe.errors import fehler
from gamehall.rules.ursuppe.flow import Flow, Request
from gamehall.rules.ursuppe.genes import GENES, Gene, advanced_over, mutation_points
from gamehall.rules.ursuppe.state import TableState

# -- phase 2: gene defects -----------------------------------------------------------------------


def defect(g: TableState, farbe: int) -> int:
    """d = MP - ozone when positive, else 0."""
    return max(0, mutation_points(g.seats[farbe].genes) - g.card.ozonschichtdicke)


def check_payment(g: TableState, farbe: int, d: int, genes: tuple[int, ...]) -> int:
    """The BP still to pay after surrendering ``genes``.

    Raises:
        RuleError: 22 unknown gene, 5 named twice, 10 not owned, 18 BP do not cover the rest.
    """
    seen: set[int] = set()
    value = 0
    owned = g.seats[farbe].genes
    for number in genes:
        if not 0 <= number < len(Gene):
            raise fehler(22, f"There is no gene {number}.")
        if number in seen:
            raise fehler(5, f"Gene {number} is surrendered twice.")
        seen.add(number)
        if Gene(number) not in owned:
            raise fehler(10, f"Gene {number} is not yours.")
        value += GENES[Gene(number)].surrender_value
    rest = max(0, d - value)
    if rest > g.seats[farbe].bp:
        raise fehler(18, "The BP do not cover the defects.")
    return rest


def default_payment(g: TableState, farbe: int, d: int) -> tuple[int, ...]:
    """Note 9: BP first; for the rest, genes by ascending value (ties: lower number)."""
    missing = d - g.seats[farbe].bp
    chosen: list[int] = []
    by_value = sorted(g.seats[farbe].genes, key=lambda gene: (GENES[gene].surrender_value, gene))
    for gene in by_value:
        if missing <= 0:
            break
        chosen.append(int(gene))
        missing -= GENES[gene].surrender_value
    return tuple(sorted(chosen))


def legal_payments(g: TableState, farbe: int, d: int) -> list[tuple[int, ...]]:
    owned = sorted(int(gene) for gene in g.seats[farbe].genes)
    found = []
    for size in range(len(owned) + 1):
        for genes in itertools.combinations(owned, size):
            value = sum(GENES[Gene(n)].surrender_value for n in genes)
            if max(0, d - value) <= g.seats[farbe].bp:
                found.append(genes)
    return found


def pay_defects(g: TableState, farbe: int, d: int, genes: tuple[int, ...]) -> None:
    rest = check_payment(g, farbe, d, genes)
    for number in genes:
        del g.seats[farbe].genes[Gene(number)]
    g.out.append(ev.DefektAusgleichen(farbe=farbe, abgeben=genes))
    g.change_bp(farbe, -rest)


def defects_request(g: TableState, farbe: int, d: int) -> Request:
    def check(seat: Seat, action: Action) -> None:
        assert isinstance(action, DefektAusgleichen)
        check_payment(g, farbe, d, action.gene)

    return Request(
        kind="ZUG_GENDEFEKTE",
        seats={farbe},
        prompt=lambda seat: ev.ZugGendefekte(defekt=d, audience=frozenset({seat})),
        accepts=(DefektAusgleichen,),
        check=check,
        default=lambda seat: DefektAusgleichen(default_payment(g, farbe, d)),
        legal=lambda seat: [DefektAusgleichen(genes) for genes in legal_payments(g, farbe, d)],
    )


def environment_and_defects(g: TableState) -> Flow[None]:
    """Phase 2: reveal the next card (A4: in round 1 too), then, from round 2 on, every
    player over the ozone limit covers their defects, in descending order."""
    g.phase = "umwelt_und_gendefekte"
    g.card = g.deck.pop(0)
    g.last_card_revealed = not g.deck
    g.out.append(
        ev.Umweltkarte(stroemungsrichtung=g.card.stroemungsrichtung, ozonschichtdicke=g.card.ozonschichtdicke)
    )
    if g.round < 2:
        return
    due = {farbe: defect(g, farbe) for farbe in g.colours}
    for farbe in g.descending():
        if due[farbe] > 0:
            _, action = yield defects_request(g, farbe, due[farbe])
            assert isinstance(action, DefektAusgleichen)
            pay_defects(g, farbe, due[farbe], action.gene)


# -- phase 3: buying genes -----------------------------------------------------------------------

Purchase = list[tuple[Gene, Gene | None]]
"""Each bought gene with the basic gene it takes back."""


def _armor_basics(g: TableState, farbe: int) -> list[Gene]:
    owned = g.seats[farbe].genes
    return [b for b in GENES[Gene.PANZERUNG].replaces if b in owned and owned[b] < g.round]


def check_gene(g: TableState, farbe: int, number: int, armor_choice: int | None) -> Gene | None:
    """Check one gene of a purchase; returns the basic gene it takes back.

    Raises:
        RuleError: 22, 6, 11, 10 or 9 (note 7.7).
    """
    if not 0 <= number < len(Gene):
        raise fehler(22, f"There is no gene {number}.")
    gene = Gene(number)
    owned = g.seats[farbe].genes
    if gene in owned:
        raise fehler(6, f"Gene {number} is already yours.")
    if g.free_copies(gene) <= 0:
        raise fehler(11, f"Gene {number} is sold out.")
    if (
        gene is not Gene.VERTEIDIGUNG
        and gene is not Gene.FLUCHT
        and any(a in owned for a in advanced_over(gene))
    ):
        raise fehler(22, f"Gene {number} is part of an advanced gene you own.")
    info = GENES[gene]
    if gene is Gene.PANZERUNG:
        basics = _armor_basics(g, farbe)
        if armor_choice is not None:
            if armor_choice not in (Gene.VERTEIDIGUNG, Gene.FLUCHT):
                raise fehler(22, "PANZERUNG replaces gene 4 or 5.")
            if Gene(armor_choice) not in basics:
                raise fehler(10, f"Gene {armor_choice} is not yours (since an earlier round).")
            return Gene(armor_choice)
        if len(basics) == 2:
            raise fehler(9, "Name the gene PANZERUNG replaces: 4 or 5.")
        if not basics:
            raise fehler(10, "PANZERUNG needs VERTEIDIGUNG or FLUCHT from an earlier round.")
        return basics[0]
    if info.advanced:
        basic = info.replaces[0]
        if basic not in owned or owned[basic] >= g.round:
            raise fehler(10, f"Gene {number} needs gene {int(basic)} from an earlier round.")
        return basic
    return None


def check_purchase(g: TableState, farbe: int, action: GenKaufen) -> Purchase:
    if action.panzerung_abgeben is not None and Gene.PANZERUNG not in action.gene:
        raise fehler(21, "Only PANZERUNG takes a second parameter.")
    purchase: Purchase = []
    for number in action.gene:
        if number in [int(gene) for gene, _ in purchase]:
            raise fehler(6, f"Gene {number} is bought twice.")
        choice = action.panzerung_abgeben if number == Gene.PANZERUNG else None
        basic = check_gene(g, farbe, number, choice)
        purchase.append((Gene(number), basic))
    if sum(GENES[gene].price for gene, _ in purchase) > g.seats[farbe].bp:
        raise fehler(18, "The BP do not cover these genes.")
    return purchase


def buy(g: TableState, farbe: int, purchase: Purchase) -> None:
    player = g.seats[farbe]
    for gene, basic in purchase:
        if basic is not None:
            del player.genes[basic]
        player.genes[gene] = g.round
    g.out.append(
        ev.GenKaufen(
            farbe=farbe,
            gene=tuple(int(gene) for gene, _ in purchase),
            abgeben=tuple(int(basic) for _, basic in purchase if basic is not None),
        )
    )
    g.change_bp(farbe, -sum(GENES[gene].price for gene, _ in purchase))


def _options(g: TableState, farbe: int) -> list[tuple[int, int | None]]:
    """Single genes (with the Armor choice where needed) that could be bought on their own."""
    options: list[tuple[int, int | None]] = []
    for gene in Gene:
        choices: list[int | None] = [None]
        if gene is Gene.PANZERUNG and len(_armor_basics(g, farbe)) == 2:
            choices = [int(Gene.VERTEIDIGUNG), int(Gene.FLUCHT)]
        for choice in choices:
            try:
                check_gene(g, farbe, int(gene), choice)
            except RuleError:
                continue
            options.append((int(gene), choice))
    return options


def legal_purchases(g: TableState, farbe: int) -> Iterator[GenKaufen]:
    """Every accepted block, genes in ascending order."""
    options = _options(g, farbe)
    budget = g.seats[farbe].bp

    def extend(start: int, chosen: list[tuple[int, int | None]], spent: int) -> Iterator[GenKaufen]:
        armor = next((choice for gene, choice in chosen if gene == Gene.PANZERUNG), None)
        yield GenKaufen(tuple(gene for gene, _ in chosen), armor)
        for i in range(start, len(options)):
            gene, choice = options[i]
            price = GENES[Gene(gene)].price
            if spent + price <= budget and all(gene != other for other, _ in chosen):
                yield from extend(i + 1, [*chosen, (gene, choice)], spent + price)

    yield from extend(0, [], 0)


def purchase_request(g: TableState, farbe: int) -> Request:
    def check(seat: Seat, action: Action) -> None:
        assert isinstance(action, GenKaufen)
        check_purchase(g, farbe, action)

    return Request(
        kind="ZUG_GEN_KAUFEN",
        seats={farbe},
        prompt=lambda seat: ev.ZugGenKaufen(audience=frozenset({seat})),
        accepts=(GenKaufen,),
        check=check,
        default=lambda seat: GenKaufen(),
        legal=lambda seat: list(legal_purchases(g, farbe)),
    )


def buying(g: TableState) -> Flow[None]:
    """Phase 3: every player, in descending order, buys genes in one block."""
    g.phase = "gene_kaufen"
    for farbe in g.descending():
        _, action = yield purchase_request(g, farbe)
        assert isinstance(action, GenKaufen)
        buy(g, farbe, check_purchase(g, farbe, action))
