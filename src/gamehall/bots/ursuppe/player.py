"""A sans-I/O Ursuppe player for the UrServer wire: server lines in, client lines out.

The wire tells a player only the request (``ZUG_BEWEGEN 3``) and the broadcasts, so before
deciding the player asks for the STATUS and SPIELFELD blocks and rebuilds a table state from
them (:func:`mirror`); the decisions then use the same judgement as the in-hall bots.

Every request gets a list of candidate answers, best first, ending in one the rules always
accept. A ``FEHLER`` to an answer makes the player send the next candidate, so a wrong guess
about what the blocks do not show (a gene bought this round, say) costs one line, never the
game. ``FEHLER 29`` (timeout: the server played the default) drops the request.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from gamehall.bots.ursuppe.judgement import best_meal, choose_division, choose_purchase, food_at
from gamehall.protocols.urserver.commands import client_lines
from gamehall.rules.ursuppe import new_game
from gamehall.rules.ursuppe.board import STAY
from gamehall.rules.ursuppe.combat import struggle_targets
from gamehall.rules.ursuppe.environment import EnvironmentCard
from gamehall.rules.ursuppe.feeding import Meal, patterns_for, vectors
from gamehall.rules.ursuppe.genes import Gene, mutation_points
from gamehall.rules.ursuppe.genetics import default_payment
from gamehall.rules.ursuppe.state import CUBES_PER_COLOUR, Amoeba, Player, TableState

Answer = list[str]


@dataclass(slots=True)
class Blocks:
    """The STATUS and SPIELFELD blocks as last received."""

    status: list[str] = field(default_factory=list)
    board: list[str] = field(default_factory=list)


def mirror(blocks: Blocks, own: int, gene_rounds: dict[int, int], round_number: int) -> TableState:
    """A table state with what the two blocks say. Genes of colour ``own`` carry the round
    they were bought in (``gene_rounds``); other genes count as old."""
    players = 3
    card = (2, 10)
    seats: dict[int, Player] = {}
    current: Player | None = None
    for line in blocks.status:
        words = line.split()
        key, values = words[0], words[1:]
        if key == "ANZAHL_SPIELERINNEN":
            players = int(values[1])
        elif key == "UMWELTKARTE":
            card = (int(values[0]), int(values[1]))
        elif key == "SPIELERIN":
            current = Player(int(values[0]), "")
        elif key == "NAME" and current is not None:
            current.name = values[0]
            seats[current.farbe] = current
        elif key == "PUNKTE" and current is not None:
            current.position = int(values[0])
        elif key == "BIOPUNKTE" and current is not None:
            current.bp = int(values[0])
        elif key == "GEN" and current is not None:
            gene = int(values[0])
            current.genes[Gene(gene)] = gene_rounds.get(gene, 0) if current.farbe == own else 0
    g = new_game({"players": players, "shuffle_deck": False}, 0).state
    g.seats = seats
    g.card = EnvironmentCard(*card)
    g.round = round_number
    g.amoebas = {}
    damage = _damage(blocks.status)
    for line in blocks.board:
        words = line.split()
        if words[0] != "FELDCHEN" or words[3] == "UNGUELTIG":
            continue
        feld = (int(words[1]), int(words[2]))
        cubes = []
        for colour, entry in enumerate(words[3:]):
            numbers, _, count = entry.partition(":")
            cubes.append(int(count))
            if numbers != "-":
                for number in numbers.split(","):
                    amoeba = Amoeba(colour, int(number), feld, damage.get((colour, int(number)), 0))
                    g.amoebas[amoeba.ident] = amoeba
        g.cubes[feld] = cubes
    g.supply = [CUBES_PER_COLOUR - sum(c[colour] for c in g.cubes.values()) for colour in range(players)]
    return g


def _damage(status: list[str]) -> dict[tuple[int, int], int]:
    found: dict[tuple[int, int], int] = {}
    colour = -1
    for line in status:
        words = line.split()
        if words[0] == "SPIELERIN":
            colour = int(words[1])
        elif words[0] == "AMOEBE":
            found[(colour, int(words[1]))] = int(words[2])
    return found


_BLOCK_ENDS = {
    "STATUS": "STATUS_ENDE",
    "SPIELFELD": "SPIELFELD_ENDE",
    "SPIELFELD2": "SPIELFELD_ENDE",
    "TELNET_STATUS": "TELNET_STATUS_ENDE",
}
"""Blocks the player did not ask for are skipped to their end line."""


class WirePlayer:
    """One seat's decisions on the wire (see the module docstring)."""

    def __init__(self, policy: str = "random", rng: random.Random | None = None) -> None:
        self.heuristic = policy == "heuristic"
        self.rng = rng or random.Random()
        self.colour: int | None = None
        self.round = 0
        self.finished = False
        self.scores: dict[int, int] = {}
        self.errors: list[str] = []
        self.gene_rounds: dict[int, int] = {}
        self._request: list[str] | None = None
        self._candidates: list[Answer] = []
        self._collecting: str | None = None
        self._blocks = Blocks()
        self._waiting_blocks = 0
        self._rolling: int | None = None
        self._rolled_step_of: int | None = None
        self._g: TableState | None = None
        self._buying: list[int] = []
        self._skipping: str | None = None

    # -- input -------------------------------------------------------------------------------

    def feed(self, line: str) -> list[str]:
        """One server line; returns the lines to send now."""
        words = line.split()
        if not words:
            return []
        key = words[0]
        if self._skipping is not None:
            if key == self._skipping:
                self._skipping = None
            return []
        if self._collecting is not None:
            target = self._blocks.status if self._collecting == "STATUS" else self._blocks.board
            target.append(line)
            if key in ("STATUS_ENDE", "SPIELFELD_ENDE"):
                self._collecting = None
                self._waiting_blocks -= 1
                if self._waiting_blocks == 0 and self._request is not None:
                    return self._decide()
            return []
        if key == "STATUS" and self._waiting_blocks:
            self._collecting, self._blocks.status = "STATUS", [line]
        elif key == "SPIELFELD" and self._waiting_blocks:
            self._collecting, self._blocks.board = "SPIELFELD", [line]
        elif key in _BLOCK_ENDS:
            self._skipping = _BLOCK_ENDS[key]
        elif key == "SPIELERIN_AKZEPTIERT":
            self.colour = int(words[1])
        elif key == "RUNDE":
            self.round = int(words[1])
        elif key == "GEN_KAUFEN_ENDE" and len(words) == 2 and int(words[1]) == self.colour:
            self.bought(self._buying)
        elif key == "PUNKTE" and len(words) == 3:
            self.scores[int(words[1])] = int(words[2])
        elif key == "SPIEL_BEENDET":
            self.finished = True
            self._request = None
        elif key == "FEHLER":
            return self._refused(line)
        elif key == "WUERFEL" and int(words[1]) == self.colour and self._rolling is not None:
            return self._after_roll(int(words[2]), int(words[3]))
        elif key.startswith("ZUG_"):
            return self._new_request(words)
        return []

    def bought(self, genes: list[int]) -> None:
        for gene in genes:
            self.gene_rounds[gene] = self.round

    # -- requests ----------------------------------------------------------------------------

    def _new_request(self, words: list[str]) -> list[str]:
        self._request = words
        self._candidates = []
        key = words[0]
        if key == "ZUG_BEREIT":
            return self._offer([["BEREIT"]])
        if key == "ZUG_POSITION":
            free = [i for i, bit in enumerate(words[1]) if bit == "0"]
            order = sorted(free, reverse=True) if self.heuristic else self.rng.sample(free, len(free))
            return self._offer([[f"POSITION {p}"] for p in order])
        if key == "ZUG_KLAMMERN":
            return self._offer([[f"NICHT_KLAMMERN {words[1]} {words[2]} {words[3]}"]])
        if key == "ZUG_AGGRESSION":
            return self._offer([["KEINE_AGGRESSION"]])
        if key == "ZUG_ABWEHR":
            n = words[1]
            options = [[f"VERTEIDIGUNG {n}"]] if words[4] in ("1", "2") else []
            return self._offer([*options, [f"KEINE_FLUCHT {n}"], [f"KEINE_VERTEIDIGUNG {n}"]])
        self._waiting_blocks = 2
        return ["STATUS", "SPIELFELD"]

    def _offer(self, candidates: list[Answer]) -> list[str]:
        self._candidates = candidates
        return self._next_candidate()

    def _next_candidate(self) -> list[str]:
        if not self._candidates:
            self._request = None
            return []
        answer = self._candidates.pop(0)
        if answer == ["WUERFELN"]:
            assert self._request is not None
            self._rolling = int(self._request[1]) if len(self._request) > 1 else -1
        if answer and answer[0] == "GEN_KAUFEN":
            self._buying = [int(line.split()[1]) for line in answer if line.startswith("GEN ")]
        return answer

    def _refused(self, line: str) -> list[str]:
        self.errors.append(line)
        if self._request is None:
            return []
        if line.startswith("FEHLER 29"):
            self._request = None
            self._candidates = []
            self._rolling = None
            return []
        self._rolling = None
        return self._next_candidate()

    def _decide(self) -> list[str]:
        assert self._request is not None and self.colour is not None
        g = mirror(self._blocks, self.colour, self.gene_rounds, self.round)
        self._g = g
        me = self.colour
        key = self._request[0]
        if key == "ZUG_BEWEGEN":
            return self._offer(self._moves(g, me, int(self._request[1])))
        if key == "ZUG_FRESSEN":
            return self._offer(self._meals(g, me, int(self._request[1])))
        if key == "ZUG_GEN_KAUFEN":
            purchase = choose_purchase(g, me, self.rng, heuristic=self.heuristic)
            return self._offer([client_lines(purchase), ["GEN_KAUFEN", "GEN_KAUFEN_ENDE"]])
        if key == "ZUG_GENDEFEKTE":
            d = max(0, mutation_points(g.seats[me].genes) - g.card.ozonschichtdicke)
            pay = " ".join(str(n) for n in default_payment(g, me, d))
            everything = " ".join(str(int(n)) for n in sorted(g.seats[me].genes))
            return self._offer(
                [
                    [f"DEFEKT_AUSGLEICHEN {pay}".strip()],
                    ["DEFEKT_AUSGLEICHEN"],
                    [f"DEFEKT_AUSGLEICHEN {everything}".strip()],
                ]
            )
        if key == "ZUG_AMOEBE_SETZEN":
            if self.round == 0:
                return self._offer(self._first_amoebas(g, me))
            division = choose_division(g, me, self.rng, heuristic=self.heuristic)
            return self._offer([client_lines(division), ["AMOEBE_SETZEN_ENDE"]])
        return []

    def _moves(self, g: TableState, me: int, number: int) -> list[Answer]:
        amoeba = g.amoebas.get((me, number))
        second = self._rolled_step_of == number
        self._rolled_step_of = None
        every = [[f"BEWEGEN {number} {d}"] for d in range(1, 6)]
        if amoeba is None:
            return [*every, [f"KEINE_ZWEITE_BEWEGUNG {number}"]]
        if second:
            return [[f"KEINE_ZWEITE_BEWEGUNG {number}"], *every]
        drift = int(g.board.effective(amoeba.feld, g.card.stroemungsrichtung))
        target = g.board.target(amoeba.feld, drift) or amoeba.feld
        poor = food_at(g, me, target) < 20
        wants_roll = (self.heuristic and poor and g.seats[me].bp >= 3) or (
            not self.heuristic and self.rng.random() < 0.3 and g.seats[me].bp >= 2
        )
        drift_answers = [[f"BEWEGEN {number} {drift}"], [f"BEWEGEN {number} {int(STAY)}"], *every]
        return [["WUERFELN"], *drift_answers] if wants_roll else drift_answers

    def _after_roll(self, w1: int, w2: int) -> list[str]:
        number, self._rolling = self._rolling, None
        g = self._g
        if g is None or number is None or self.colour is None:
            return []
        amoeba = g.amoebas.get((self.colour, number))
        allowed = {w1}
        if g.owns(self.colour, Gene.BEWEGUNG1):
            allowed.add(w2)
        if 6 in allowed or g.owns(self.colour, Gene.BEWEGUNG2):
            allowed = {1, 2, 3, 4, 5}
        if amoeba is None:
            directions = sorted(allowed)
        else:
            effective = {int(g.board.effective(amoeba.feld, d)) for d in allowed}
            directions = sorted(
                effective,
                key=lambda d: -food_at(g, self.colour or 0, g.board.target(amoeba.feld, d) or amoeba.feld),
            )
            if not self.heuristic:
                self.rng.shuffle(directions)
        self._rolled_step_of = number
        rest = [d for d in range(1, 6) if d not in directions]
        self._candidates = [[f"BEWEGEN {number} {d}"] for d in [*directions, *rest]]
        return self._next_candidate()

    def _meals(self, g: TableState, me: int, number: int) -> list[Answer]:
        amoeba = g.amoebas.get((me, number))
        zero = ":".join("0" for _ in range(g.players))
        starve = [[f"FRESSEN {number} {zero}"]]
        if amoeba is None:
            return starve
        options = sorted(vectors(g, amoeba, patterns_for(g, Meal(amoeba))))
        if options:
            first = best_meal(g, amoeba, options) if self.heuristic else self.rng.choice(options)
            ordered = [first, *(v for v in options if v != first)]
            return [[f"FRESSEN {number} {':'.join(str(n) for n in v)}"] for v in ordered] + starve
        attacks: list[Answer] = []
        if g.seats[me].bp >= 1 and (g.owns(me, Gene.UEBERLEBENSKAMPF)):
            attacks = [
                [f"UEBERLEBENSKAMPF {number} {v.farbe} {v.nummer}"] for v in struggle_targets(g, amoeba)
            ]
        return [*attacks[:1], *starve]

    def _first_amoebas(self, g: TableState, me: int) -> list[Answer]:
        used = {a.nummer for a in g.amoebas_of(me)}
        number = min(set(range(7)) - used)
        empty = [f for f in g.board.fields() if not any(a.feld == f for a in g.amoebas.values())]
        if self.heuristic:
            empty.sort(key=lambda f: -food_at(g, me, f))
        else:
            self.rng.shuffle(empty)
        return [[f"AMOEBE_SETZEN {number} {x} {y}"] for x, y in empty]
