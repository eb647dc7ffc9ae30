"""The lobby side of the dialogue (note 4.1, 5, 12, acceptance 1-6, 22, 24, 25): nick, init,
seating into several games, spectators, chat, ison, quit and drops."""

from __future__ import annotations

from mrjack_wire_support import JackHarness

from gamehall.protocols.mrjack import seating
from gamehall.protocols.mrjack.terms import Style

ASK = "ok('Bitte einen Nick eingeben mit nick(Nick)')."
HINT = "ok('Du kannst dich mit init(mrjack) oder init(detektiv) an einem Spiel beteiligen')."
START_CC = [
    "beginn(runde).",
    "beginn(spielzug).",
    "auswahl([[gelb,ja],[rot,ja],[weiss,ja],[schwarz,ja]]).",
]


def test_the_server_speaks_first_in_either_style() -> None:
    assert JackHarness().connect("a").take() == [ASK]
    assert JackHarness(style=Style.PLAIN).connect("a").take() == [
        "ok(Bitte einen Nick eingeben mit nick(Nick))"
    ]


def test_nick_then_the_init_hint_and_a_taken_nick_ignoring_case() -> None:
    h = JackHarness()
    max_ = h.connect("max")
    max_.send("nick(Max).")
    assert max_.take() == [ASK, "ok('Du heißt jetzt: Max').", HINT]
    other = h.connect("other")
    other.send("nick(max).")
    assert other.take() == [ASK, "err('Nick ist schon vergeben: max')."]
    other.send("nick(max2)")
    assert other.take() == ["ok('Du heißt jetzt: max2').", HINT]


def test_invalid_nicks_and_a_second_nick() -> None:
    h = JackHarness()
    client = h.connect("c")
    client.take()
    client.send("nick('Max Mustermann').", "nick(a_very_long_nickname_x).", "nick([a]).", "nick(ok)")
    assert client.take() == [
        "err('Nick ist ungültig: Max Mustermann').",
        "err('Nick ist ungültig: a_very_long_nickname_x').",
        "err('Nick ist ungültig: [a]').",
        "ok('Du heißt jetzt: ok').",
        HINT,
    ]
    client.send("nick(again).")
    assert client.take() == ["err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: nick(again)')."]


def test_before_nick_only_nick_ison_and_quit_work() -> None:
    h = JackHarness()
    client = h.connect("c")
    client.take()
    client.send("aktiv(gelb).", "init(mrjack).", "chat(hallo).", "foo(bar).", "ison.")
    assert client.take() == [
        "err('Bitte einen Nick eingeben mit nick(Nick)').",
        "err('Bitte einen Nick eingeben mit nick(Nick)').",
        "err('Bitte einen Nick eingeben mit nick(Nick)').",
        "err('Bitte einen Nick eingeben mit nick(Nick)').",
        "ison([]).",
    ]
    client.send("quit.")
    assert client.take() == ["ok('Auf Wiedersehen')."]
    assert client.closed


def test_init_errors_of_the_seed() -> None:
    h = JackHarness()
    client = h.login("a")
    client.take()
    client.send("init(foo).", "init(mrjack).", "init(detektiv).", "init(MRJACK).")
    assert client.take() == [
        "err('Spieler ist unbekannt: foo').",
        "ok('Du bist mrjack').",
        "err('Sie sind schon identifiziert als: mrjack').",
        "err('Sie sind schon identifiziert als: mrjack').",
    ]


def test_four_players_fill_two_games_and_each_game_starts_in_the_seed_order() -> None:
    h = JackHarness()
    a, b, c, d = (h.login(n) for n in "ABCD")
    for client in (a, b, c, d):
        client.take()
    a.send("init(mrjack).")
    b.send("init(detektiv).")
    c.send("init(mrjack).")
    d.send("init(detektiv).")
    assert h.games() == 2
    assert a.take() == ["ok('Du bist mrjack').", "beginn(spiel,mrjack).", "jack(lila).", *START_CC]
    assert b.take() == [
        "ok('Du bist detektiv').",
        "beginn(spiel,detektiv).",
        *START_CC,
        "spielzugerlaubnis(ja).",
    ]
    assert c.take() == ["ok('Du bist mrjack').", "beginn(spiel,mrjack).", "jack(lila).", *START_CC]
    assert d.take() == [
        "ok('Du bist detektiv').",
        "beginn(spiel,detektiv).",
        *START_CC,
        "spielzugerlaubnis(ja).",
    ]
    assert [h.game(i).seat_names() for i in range(2)] == [{0: "A", 1: "B"}, {0: "C", 1: "D"}]


def test_a_detective_first_waits_and_the_next_mrjack_joins_that_game() -> None:
    h = JackHarness()
    d, j = h.login("D", "detektiv"), h.login("J")
    assert d.take()[-1] == "ok('Du bist detektiv')."
    j.take()
    j.send("init(mrjack).")
    assert h.games() == 1
    assert j.take()[:3] == ["ok('Du bist mrjack').", "beginn(spiel,mrjack).", "jack(lila)."]
    assert d.take() == ["beginn(spiel,detektiv).", *START_CC, "spielzugerlaubnis(ja)."]


def test_max_games_reached_refuses_with_spieler_schon_vergeben() -> None:
    h = JackHarness(max_games=1)
    h.pair()
    late = h.login("late")
    late.take()
    late.send("init(mrjack).")
    assert late.take() == [
        "err('Spieler schon vergeben: mrjack').",
    ]
    late.send("init(detektiv).")
    assert late.take() == [
        "err('Spieler schon vergeben: detektiv').",
    ]


def test_max_games_is_50_unless_the_hall_defaults_name_it() -> None:
    assert seating.max_games(JackHarness().hall) == 50


def test_ison_lists_every_logged_in_nick_in_login_order() -> None:
    h = JackHarness()
    h.login("Max")
    anna = h.login("anna")
    h.connect("nobody")
    anna.take()
    anna.send("ison")
    assert anna.take() == ["ison(['Max',anna])."]
    plain = JackHarness(style=Style.PLAIN)
    plain.login("Max")
    second = plain.login("anna")
    second.take()
    second.send("ison.")
    assert second.take() == ["ison([Max,anna])"]


def test_quit_frees_the_nick() -> None:
    h = JackHarness()
    first = h.login("Max")
    first.send("quit")
    assert first.take()[-1] == "ok('Auf Wiedersehen')."
    assert first.closed
    again = h.login("max")
    assert again.take()[1] == "ok('Du heißt jetzt: max')."
    again.send("ison")
    assert again.take() == ["ison([max])."]


def test_a_waiting_game_that_loses_its_only_player_is_deleted() -> None:
    h = JackHarness()
    lone = h.login("lone", "mrjack")
    assert h.games() == 1
    lone.hang_up()
    assert h.games() == 0


def test_chat_goes_to_the_opponent_only_raw_in_plain_style() -> None:
    for style, relayed in (
        (Style.PROLOG, "chat('Hallo, Welt (test).')."),
        (Style.PLAIN, "chat(Hallo, Welt (test).)"),
    ):
        h = JackHarness(style=style)
        jack, det = h.pair()
        watcher = h.login("watcher", "zuschauer")
        watcher.take()
        jack.send("chat(Hallo, Welt (test).)")
        assert det.take() == [relayed]
        assert jack.take() == []
        assert watcher.take() == []


def test_chat_errors() -> None:
    h = JackHarness()
    alone = h.login("alone")
    alone.take()
    alone.send("chat(hallo)")
    assert alone.take() == ["err('Kein Mitspieler verbunden')."]
    alone.send("init(mrjack).")
    alone.take()
    alone.send("chat(hallo)")
    assert alone.take() == ["err('Kein Mitspieler verbunden')."]
    jack, det = JackHarness().pair()
    det.send("chat(" + "x" * 1001 + ")")
    assert det.take() == ["err('Text zu lang')."]
    assert jack.take() == []


def test_spectators_see_the_oldest_game_and_may_not_chat() -> None:
    h = JackHarness()
    nobody = h.login("early")
    nobody.take()
    nobody.send("init(zuschauer).")
    assert nobody.take() == ["err('Kein Spiel vorhanden')."]
    jack = h.login("jack", "mrjack")
    watcher = h.login("watcher", "zuschauer")
    assert watcher.take()[-1] == "ok('Du bist zuschauer')."
    det = h.login("det", "detektiv")
    assert watcher.take() == START_CC
    watcher.send("chat(hallo)", "aktiv(gelb)", "init(mrjack)")
    assert watcher.take() == [
        "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: chat(hallo)').",
        "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: aktiv(gelb)').",
        "err('Sie sind schon identifiziert als: zuschauer').",
    ]
    assert jack.take()[-1].startswith("auswahl(") and det.take()[-1] == "spielzugerlaubnis(ja)."


def test_unknown_commands_and_wrong_arity() -> None:
    jack, det = JackHarness().pair()
    det.send("foo(bar).", "aktiv(gelb, rot)", "fertig(x)", "ok(fine)", "aktiv([gelb])")
    assert det.take() == [
        "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: foo(bar)').",
        "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: aktiv(gelb, rot)').",
        "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: fertig(x)').",
        "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: ok(fine)').",
        "err('Unbekannter Befehl oder Befehl zur Zeit nicht möglich: aktiv([gelb])').",
    ]
    assert jack.take() == []


def test_the_hall_chat_rate_limit_has_its_own_err() -> None:
    jack, det = JackHarness().pair()
    for n in range(5):
        jack.send(f"chat(line {n})")
    jack.send("chat(one too many)")
    assert jack.take() == ["err('Zu viele Nachrichten, bitte warten')."]
    assert len(det.take()) == 5
