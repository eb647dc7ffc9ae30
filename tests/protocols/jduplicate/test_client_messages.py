"""Every client message of the seed (note §5), read on the server side in both syntaxes, from
the seed's own examples: the 0.2 line and its 1.0 twin, with the seed's indentation and
declaration (note §13 item 3). Then the variants §3.5 allows and the field errors."""

from __future__ import annotations

import pytest

from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate import v02, v10
from gamehall.protocols.jduplicate.errors import WireError
from gamehall.protocols.jduplicate.schema import CLIENT_BY_TOKEN, CLIENT_LAYOUTS

BISE = m.Moves(
    (m.Tile(8, "H", "B"), m.Tile(9, "H", "I"), m.Tile(10, "H", "S"), m.Tile(11, "H", "E", blank=True))
)

SEED: list[tuple[str, str | None, str, object, object]] = [
    # (title, 0.2 example, 1.0 example as the seed indents it, 0.2 message, 1.0 message)
    (
        "Player Name",
        "PLAYERNAME|Judge Hedd",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <playername>Judge Hedd</playername>""",
        m.PlayerName("Judge Hedd"),
        m.PlayerName("Judge Hedd"),
    ),
    (
        "Client Type",
        "CLIENTTYPE|JDuplicate Swing Client#0.12#0.2",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <clienttype>
   <name>JDuplicate Swing Client</name>
   <version>0.12</version>
   <protocolversion>1.0</protocolversion>
 </clienttype>""",
        m.ClientType("JDuplicate Swing Client", "0.12", "0.2"),
        m.ClientType("JDuplicate Swing Client", "0.12", "1.0"),
    ),
    (
        "Chatting",
        "CHATREQUEST|Hello there",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <chatrequest>Hello there</chatrequest>""",
        m.ChatRequest("Hello there"),
        m.ChatRequest("Hello there"),
    ),
    (
        "Whispering",
        "WHISPERREQUEST|O-Dog#it's getting tough!",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <whisperrequest>
   <to>O-Dog</to>
   <text>it's getting tough!</text>
 </whisperrequest>""",
        m.WhisperRequest("O-Dog", "it's getting tough!"),
        m.WhisperRequest("O-Dog", "it's getting tough!"),
    ),
    (
        "Chat Action",
        "CHATACTIONREQUEST|believes JDuplicate is great!",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <chatactionrequest>
   <action>believes JDuplicate is great!</action>
 </chatactionrequest>""",
        m.ChatActionRequest("believes JDuplicate is great!"),
        m.ChatActionRequest("believes JDuplicate is great!"),
    ),
    (
        "Disconnecting From Server",
        "DISCONNECT|Good bye everyone!",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <disconnect>Good bye everyone!</disconnect>""",
        m.Disconnect("Good bye everyone!"),
        m.Disconnect("Good bye everyone!"),
    ),
    (
        "Creating A Game",
        "CREATEGAMEREQUEST|ams's game#120#fr#8#No word stealing please",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <creategamerequest>
   <name>Ahmad's game</name>
   <timeperturn>120</timeperturn>
   <predefgame>fr</predefgame>
   <maxplayers>8</maxplayers>
   <description>No word stealing please</description>
 </creategamerequest>""",
        m.CreateGameRequest("ams's game", 120, "fr", 8, "No word stealing please"),
        m.CreateGameRequest("Ahmad's game", 120, "fr", 8, "No word stealing please"),
    ),
    (
        "Joining A Game",
        "JOINGAMEREQUEST|Luc's game",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <joingamerequest>Luc's game</joingamerequest>""",
        m.JoinGameRequest("Luc's game"),
        m.JoinGameRequest("Luc's game"),
    ),
    (
        "Starting A Game",
        "STARTGAMEREQUEST|",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <startgamerequest/>""",
        m.StartGameRequest(),
        m.StartGameRequest(),
    ),
    (
        "Change Letters",
        "CHANGELETTERS|Z#G#",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <changeletters>
   <letter>Z</letter>
   <letter>G</letter>
 </changeletters>""",
        m.ChangeLetters(("Z", "G")),
        m.ChangeLetters(("Z", "G")),
    ),
    (
        "Player's Moves",
        "MOVES|8&H&B#9&H&I#10&H&S#11&H&e#",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <moves>
   <letter x="8" y="H">B</letter>
   <letter x="9" y="H">I</letter>
   <letter x="10" y="H">S</letter>
   <letter x="11" y="H" blank="E">*</letter>
 </moves>""",
        BISE,
        BISE,
    ),
    (
        "Manually Starting a Turn (token ours: the seed repeats the MOVES example)",
        "STARTTURNREQUEST|",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <startturnrequest/>""",
        m.StartTurnRequest(),
        m.StartTurnRequest(),
    ),
    (
        "Board Type Request (0.2: 'Not used' in the seed, accepted as our extension)",
        "BOARDTYPEREQUEST|",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <boardtyperequest/>""",
        m.BoardTypeRequest(),
        m.BoardTypeRequest(),
    ),
    (
        "Kicking A Player",
        "KICKREQUEST|Ahmadeus#Because i want to :)",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <kickrequest>
   <kicked>Ahmadeus</kicked>
   <reason>Because i want to :)</reason>
 </kickrequest>""",
        m.KickRequest("Ahmadeus", "Because i want to :)"),
        m.KickRequest("Ahmadeus", "Because i want to :)"),
    ),
    (
        "Leaving The Game",
        "LEAVEGAMEREQUEST|I'm too bad to play with you",
        """
 <?xml version="1.0" encoding="UTF-8"?>
 <leavegamerequest>I'm too bad to play with you</leavegamerequest>""",
        m.LeaveGameRequest("I'm too bad to play with you"),
        m.LeaveGameRequest("I'm too bad to play with you"),
    ),
]

IDS = [row[0] for row in SEED]


def read02(line: str) -> object:
    return v02.parse(line, CLIENT_BY_TOKEN)


def read10(document: str) -> object:
    return v10.parse(document, CLIENT_BY_TOKEN)


def test_the_seed_table_covers_every_client_message() -> None:
    assert {type(row[3]) for row in SEED} == {layout.cls for layout in CLIENT_LAYOUTS}


@pytest.mark.parametrize(("title", "line", "document", "in02", "in10"), SEED, ids=IDS)
def test_seed_example_in_0_2(title: str, line: str, document: str, in02: object, in10: object) -> None:
    assert read02(line) == in02


@pytest.mark.parametrize(("title", "line", "document", "in02", "in10"), SEED, ids=IDS)
def test_seed_example_in_1_0(title: str, line: str, document: str, in02: object, in10: object) -> None:
    assert read10(document) == in10


@pytest.mark.parametrize(("title", "line", "document", "in02", "in10"), SEED, ids=IDS)
def test_our_own_output_matches_the_seed_line(
    title: str, line: str, document: str, in02: object, in10: object
) -> None:
    """What a bot sends in 0.2 is the seed's line; in 1.0 the seed's document, unindented."""
    assert v02.render(in02) == line
    compact = "".join(part.strip() for part in document.splitlines())
    assert v10.render(in10) == compact


# -- MOVES and CHANGELETTERS variants (note §3.5, §13 item 3) -------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "MOVES|8&H&B#9&H&I#10&H&S#11&H&e#",
        "MOVES|8&H&B#9&H&I#10&H&S#11&H&e",  # no trailing '#'
        "MOVES|8&h&B#9&h&I#10&h&S#11&h&e#",  # lower-case row
        "MOVES|#8&H&B##9&H&I#10&H&S#11&H&e##",  # empty items are dropped
    ],
)
def test_moves_variants_in_0_2(line: str) -> None:
    assert read02(line) == BISE


@pytest.mark.parametrize(
    "letter",
    [
        '<letter x="11" y="H" blank="E">*</letter>',
        '<letter x="11" y="H" blank="e">*</letter>',
        '<letter x="11" y="H">e</letter>',  # a lower-case letter without blank= is a blank too
        '<letter x="11" y="h">e</letter>',
        '<letter y="H" x=" 11 "> e </letter>',
    ],
)
def test_moves_variants_in_1_0(letter: str) -> None:
    document = (
        '<moves><letter x="8" y="H">B</letter><letter x="9" y="h">I</letter>'
        f'<letter x="10" y="H">S</letter>{letter}</moves>'
    )
    assert read10(document) == BISE


def test_an_empty_moves_is_a_pass() -> None:
    assert read02("MOVES|") == m.Moves(())
    assert read02("MOVES") == m.Moves(())
    assert read10("<moves/>") == m.Moves(())


@pytest.mark.parametrize("line", ["CHANGELETTERS|Z#G#", "CHANGELETTERS|Z#G", "CHANGELETTERS|Z##G#"])
def test_change_letters_with_and_without_the_final_separator(line: str) -> None:
    assert read02(line) == m.ChangeLetters(("Z", "G"))


def test_change_letters_keeps_the_blank_and_the_glyphs_as_sent() -> None:
    assert read02("CHANGELETTERS|*#q#") == m.ChangeLetters(("*", "q"))
    assert read10("<changeletters><letter>*</letter><letter/></changeletters>") == m.ChangeLetters(("*",))


@pytest.mark.parametrize(
    ("line", "code", "parameter"),
    [
        ("MOVES|8&H#", "60000", "8&H"),
        ("MOVES|8&H&B&C#", "60000", "8&H&B&C"),
        ("MOVES|x&H&B#", "60000", "x&H&B"),
        ("MOVES|+8&H&B#", "60000", "+8&H&B"),
        ("MOVES|8&HH&B#", "60000", "8&HH&B"),
        ("MOVES|8&1&B#", "60000", "8&1&B"),
        ("MOVES|8&H&BI#", "60000", "8&H&BI"),
        ("MOVES|8&H&#", "60000", "8&H&"),
        ("MOVES|8&H&*#", "60107", "8&H&*"),
    ],
)
def test_bad_tiles_in_0_2(line: str, code: str, parameter: str) -> None:
    with pytest.raises(WireError) as info:
        read02(line)
    assert (info.value.code, info.value.parameter, info.value.command) == (code, parameter, "MOVES")


@pytest.mark.parametrize(
    ("letter", "code", "parameter"),
    [
        ('<letter y="H">B</letter>', "60000", "&H&B"),
        ('<letter x="٨" y="H">B</letter>', "60000", "٨&H&B"),  # an Arabic-Indic digit is no number
        ('<letter x="8" y="H">*</letter>', "60107", "8&H&*"),
        ('<letter x="8" y="H" blank="E">B</letter>', "60107", "8&H&B"),
        ('<letter x="8" y="H" blank="">*</letter>', "60107", "8&H&*"),
        ('<letter x="8" y="H" blank="EE">*</letter>', "60107", "8&H&*"),
    ],
)
def test_bad_tiles_in_1_0(letter: str, code: str, parameter: str) -> None:
    with pytest.raises(WireError) as info:
        read10(f"<moves>{letter}</moves>")
    assert (info.value.code, info.value.parameter, info.value.command) == (code, parameter, "MOVES")


# -- CREATEGAMEREQUEST numbers (note §3.4, §14 item 6) ---------------------------------------------


def test_missing_numbers_read_as_none_for_the_dialogue_to_refuse() -> None:
    assert read02("CREATEGAMEREQUEST|g##fr") == m.CreateGameRequest("g", None, "fr", None, "")
    assert read10("<creategamerequest><name>g</name></creategamerequest>") == m.CreateGameRequest(
        "g", None, "", None, ""
    )


@pytest.mark.parametrize(
    ("line", "code", "parameter"),
    [
        ("CREATEGAMEREQUEST|g#12x#fr#8#", "30105", "12x"),
        ("CREATEGAMEREQUEST|g# 120#fr#8#", "30105", " 120"),
        ("CREATEGAMEREQUEST|g#+120#fr#8#", "30105", "+120"),
        ("CREATEGAMEREQUEST|g#1_20#fr#8#", "30105", "1_20"),
        ("CREATEGAMEREQUEST|g#1234567#fr#8#", "30105", "1234567"),
        ("CREATEGAMEREQUEST|g#120#fr#eight#", "30110", "eight"),
        ("CREATEGAMEREQUEST|g#120#fr#-1#", "30110", "-1"),
    ],
)
def test_numbers_that_are_not_numbers(line: str, code: str, parameter: str) -> None:
    with pytest.raises(WireError) as info:
        read02(line)
    assert (info.value.code, info.value.parameter, info.value.command) == (
        code,
        parameter,
        "CREATEGAMEREQUEST",
    )


def test_the_small_numbers_the_dialogue_refuses_still_read() -> None:
    """10 s (30106) and 0 players (30111) are the dialogue's refusals, not format errors."""
    assert read02("CREATEGAMEREQUEST|g#10#zz#0#") == m.CreateGameRequest("g", 10, "zz", 0, "")


def test_1_0_numbers_are_trimmed_then_checked() -> None:
    document = (
        "<creategamerequest><name> g </name><timeperturn> 120 </timeperturn>"
        "<maxplayers>8x</maxplayers></creategamerequest>"
    )
    with pytest.raises(WireError) as info:
        read10(document)
    assert (info.value.code, info.value.parameter) == ("30110", "8x")


# -- free text and leniency (note §3.1, §3.2) ------------------------------------------------------


def test_free_text_keeps_every_separator_in_0_2() -> None:
    assert read02("CHATREQUEST|a#b&c~d|e") == m.ChatRequest("a#b&c~d|e")
    assert read02("WHISPERREQUEST|O-Dog#one#two") == m.WhisperRequest("O-Dog", "one#two")
    assert read02("KICKREQUEST|jim#go & stay ~away~") == m.KickRequest("jim", "go & stay ~away~")


def test_free_text_is_verbatim_in_1_0_and_names_are_trimmed() -> None:
    assert read10("<chatrequest>  two  spaces\n</chatrequest>") == m.ChatRequest("  two  spaces\n")
    assert read10("<playername>\n  Judge Hedd  \n</playername>") == m.PlayerName("Judge Hedd")
    assert read10("<whisperrequest><to> O-Dog </to><text> hi </text></whisperrequest>") == m.WhisperRequest(
        "O-Dog", " hi "
    )


def test_missing_fields_read_as_empty() -> None:
    assert read02("CLIENTTYPE|JDCC") == m.ClientType("JDCC", "", "")
    assert read02("WHISPERREQUEST|O-Dog") == m.WhisperRequest("O-Dog", "")
    assert read02("PLAYERNAME") == m.PlayerName("")
    assert read10("<clienttype><version>0.5</version></clienttype>") == m.ClientType("", "0.5", "")


def test_a_payload_on_a_message_without_fields_is_ignored() -> None:
    assert read02("STARTGAMEREQUEST|now please") == m.StartGameRequest()
    assert read10("<startgamerequest>now<x/></startgamerequest>") == m.StartGameRequest()


def test_unknown_children_and_attributes_are_ignored_in_1_0() -> None:
    document = (
        '<kickrequest lang="fr"><why>x</why><kicked>jim</kicked><reason>bye</reason>'
        "<kicked>ams</kicked></kickrequest>"
    )
    assert read10(document) == m.KickRequest("jim", "bye")


def test_a_declaration_is_optional_and_a_byte_order_mark_is_skipped() -> None:
    assert read10("\ufeff<playername>ams</playername>") == m.PlayerName("ams")
    assert read10('\ufeff<?xml version="1.0"?>\n<playername>ams</playername>') == m.PlayerName("ams")


def test_escaped_text_reads_back() -> None:
    assert read10("<chatrequest>a &amp; b &lt;c&gt; &#233;&#13;</chatrequest>") == m.ChatRequest(
        "a & b <c> é\r"
    )
