"""Every server message of note §6, written in both syntaxes exactly as the note's examples
(where an example elides items with '…' the elided items are filled in), and read back on
the client side. Plus the exact lines the acceptance checklist (§14) quotes."""

from __future__ import annotations

import datetime

import pytest

from gamehall.protocols.jduplicate import messages as m
from gamehall.protocols.jduplicate import v02, v10
from gamehall.protocols.jduplicate.schema import SERVER_BY_TOKEN, SERVER_LAYOUTS

DECL = '<?xml version="1.0" encoding="UTF-8"?>'

STANDARD_ROWS = (
    "T..d...T...d..T",
    ".D...t...t...D.",
    "..D...d.d...D..",
    "d..D...d...D..d",
    "....D.....D....",
    ".t...t...t...t.",
    "..d...d.d...d..",
    "T..d...D...d..T",
    "..d...d.d...d..",
    ".t...t...t...t.",
    "....D.....D....",
    "d..D...d...D..d",
    "..D...d.d...D..",
    ".D...t...t...D.",
    "T..d...T...d..T",
)

B5, I6, S7, E8 = (
    m.Tile(5, "H", "B"),
    m.Tile(6, "H", "I"),
    m.Tile(7, "H", "S"),
    m.Tile(8, "H", "E", blank=True),
)
BISE_TILES = (B5, I6, S7, E8)
BISE_XML = (
    '<letter x="5" y="H">B</letter><letter x="6" y="H">I</letter><letter x="7" y="H">S</letter>'
    '<letter x="8" y="H" blank="E">*</letter>'
)
GAME = "ams's game"
RESULTS = (
    m.TurnResult("ams", "H8", "BISe", 10, m.ResultStatus.OK),
    m.TurnResult("jim", "-", "-", 0, m.ResultStatus.NONE),
)


def game_infos(players: tuple[str, ...]) -> m.GameInfos:
    return m.GameInfos(
        GAME,
        "ams",
        120,
        97,
        m.Rules.DUPLICATE,
        "No word stealing please",
        8,
        m.GameState.INGAME,
        7,
        "francais",
        players,
    )


V02: list[tuple[object, str]] = [
    (m.ServerType("JDuplicate", "0.5", "0.2"), "SERVERTYPE|JDuplicate#0.5#0.2"),
    (m.ServerInfo("Tukif Server", datetime.date(2004, 5, 17)), "SERVERINFO|Tukif Server#17/05/2004"),
    (
        m.WelcomeMessage("Welcome to our JDuplicate server!"),
        "WELCOMEMESSAGE|Welcome to our JDuplicate server!",
    ),
    (
        m.ServerUserList(("Ahmad", "Jim", "Judge Hedd", "O-Dog", "Solal")),
        "SERVERUSERLIST|Ahmad#Jim#Judge Hedd#O-Dog#Solal#",
    ),
    (m.HallUserList(("Ahmad", "Jim")), "HALLUSERLIST|Ahmad#Jim#"),
    (
        game_infos(("ams", "jim", "judge hedd")),
        "GAMEINFOS|ams's game#ams#120#97#duplicate#No word stealing please#8#INGAME#7#francais#"
        "ams&jim&judge hedd&",
    ),
    (m.ServerGameList((GAME, "Luc's game")), "SERVERGAMELIST|ams's game#Luc's game#"),
    (
        m.PredefGames(
            (
                m.PredefGame("fr", m.Rules.DUPLICATE, "francais", "FR", "standard", "Duplicate - francais"),
                m.PredefGame("BogEN", m.Rules.BOGGLE, "english-lp", "EN", "boggle4", "Boggle 4x4 - English"),
            )
        ),
        "PREDEFGAMES|fr&duplicate&francais&FR&standard&Duplicate - francais#"
        "BogEN&boggle&english-lp&EN&boggle4&Boggle 4x4 - English#",
    ),
    (m.UserConnected("Jim"), "USERCONNECTED|Jim"),
    (m.UserDisconnected("Jim", "Good bye everyone!"), "USERDISCONNECTED|Jim#Good bye everyone!"),
    (m.GameCreated(GAME), "GAMECREATED|ams's game"),
    (m.GameEnded(GAME), "GAMEENDED|ams's game"),
    (m.Chat("ams", "Hello there"), "CHAT|ams#Hello there"),
    (m.Whisper("ams", "O-Dog", "it's getting tough!"), "WHISPER|ams#O-Dog#it's getting tough!"),
    (m.ChatAction("ams", "believes JDuplicate is great!"), "CHATACTION|ams#believes JDuplicate is great!"),
    (m.StartGame(GAME), "STARTGAME|ams's game"),
    (m.PlayerJoined("jim"), "PLAYERJOINED|jim"),
    (m.HnPlayerJoined("jim", GAME), "HNPLAYERJOINED|jim#ams's game"),
    (m.PlayerLeft("jim", "I'm too bad to play with you"), "PLAYERLEFT|jim#I'm too bad to play with you"),
    (m.HnPlayerLeft("jim", GAME), "HNPLAYERLEFT|jim#ams's game"),
    (
        m.LetterSet(
            (
                m.LetterInfo("A", 9, 1, m.LetterClass.VOWEL),
                m.LetterInfo("B", 2, 3, m.LetterClass.CONSONANT),
                m.LetterInfo("*", 2, 0, m.LetterClass.BOTH),
            )
        ),
        "LETTERSET|A&9&1&V#B&2&3&C#*&2&0&VC#",
    ),
    (
        m.BoardType("standard", 15, 15, m.Square(8, "H"), STANDARD_ROWS),
        "BOARDTYPE|standard#15#15#8#H#" + "".join(row + "&" for row in STANDARD_ROWS),
    ),
    (m.BoardType("boggle4", 4, 4, None, ("....",) * 4), "BOARDTYPE|boggle4#4#4#0#-#....&....&....&....&"),
    (m.BoardType("none", 0, 0, None, ()), "BOARDTYPE|none#0#0#0#-#"),
    (m.Hand(2, 3, 0, ("R", "T", "U", "E", "A", "N", "*")), "HAND|2#3#0#R&T&U&E&A&N&*&"),
    (m.Board(BISE_TILES), "BOARD|5&H&B#6&H&I#7&H&S#8&H&e#"),
    (m.Board(()), "BOARD|"),
    (m.MovesRequest(7, 5), "MOVESREQUEST|7#5"),
    (
        m.EndOfTurn(1, "H5", "BISe", 10, BISE_TILES, RESULTS),
        "ENDOFTURN|1#H5#BISe#10#5~H~B&6~H~I&7~H~S&8~H~e&#ams~H8~BISe~10~ok&jim~-~-~0~none&",
    ),
    (
        m.EndOfTurn(3, "-", "-", 0, (), (m.TurnResult("jim", "-", "-", 0, m.ResultStatus.PASS),)),
        "ENDOFTURN|3#-#-#0##jim~-~-~0~pass&",
    ),
    (m.StartOfTurn(2, 120, ""), "STARTOFTURN|2#120#"),
    (m.StartOfTurn(5, 120, "jim"), "STARTOFTURN|5#120#jim"),
    (
        m.Scores(1, 10, (m.PlayerScore("ams", 10, 10), m.PlayerScore("jim", 0, 0))),
        "SCORES|1#10#ams~10~10&jim~0~0&",
    ),
    (m.Kick("Ahmadeus", "ams", "Because i want to :)"), "KICK|Ahmadeus#ams#Because i want to :)"),
    (
        m.EndOfGame(GAME, m.EndReason.BAG, 1520, (m.PlayerTotal("ams", 1412), m.PlayerTotal("jim", 1297))),
        "ENDOFGAME|ams's game#bag#1520#ams~1412&jim~1297&",
    ),
    (m.Error(30102, GAME), "ERROR|30102#ams's game"),
    (m.Error(30101), "ERROR|30101#"),
    (m.ServiceMessage("Server restarts in 5 minutes"), "SERVICEMESSAGE|Server restarts in 5 minutes"),
    (m.WaitingForStartTurn(2), "WAITINGFORSTARTTURN|2"),
    (
        m.WordResults(
            1, "ams", (m.WordResult("QUITE", 2, m.WordStatus.OK), m.WordResult("CATS", 0, m.WordStatus.DUP))
        ),
        "WORDRESULTS|1#ams#QUITE~2~ok&CATS~0~dup&",
    ),
    # lines quoted by the acceptance checklist (§14)
    (m.ServerType("JDuplicate", "0.6", "0.2"), "SERVERTYPE|JDuplicate#0.6#0.2"),
    (m.ServerUserList(("ams",)), "SERVERUSERLIST|ams#"),
    (
        m.GameInfos(
            GAME,
            "ams",
            120,
            0,
            m.Rules.DUPLICATE,
            "No word stealing please",
            8,
            m.GameState.WAITING,
            0,
            "francais",
            ("ams",),
        ),
        "GAMEINFOS|ams's game#ams#120#0#duplicate#No word stealing please#8#WAITING#0#francais#ams&",
    ),
    (m.StartOfTurn(1, 120, ""), "STARTOFTURN|1#120#"),
    (m.MovesRequest(1, 5), "MOVESREQUEST|1#5"),
    (m.UserDisconnected("ams", ""), "USERDISCONNECTED|ams#"),
    (m.Error(99003), "ERROR|99003#"),
    (m.Error(10103, "~"), "ERROR|10103#~"),
    (m.Error(99002, "FOO"), "ERROR|99002#FOO"),
    (m.Error(30108, "zz"), "ERROR|30108#zz"),
    (m.Error(60103, "Q"), "ERROR|60103#Q"),
    (m.Error(99999, "message too long"), "ERROR|99999#message too long"),
]

V10: list[tuple[object, str]] = [
    (
        m.ServerType("JDuplicate", "0.6", "1.0"),
        "<servertype><type>JDuplicate</type><version>0.6</version><protocolversion>1.0</protocolversion></servertype>",
    ),
    (
        m.ServerInfo("Tukif Server", datetime.date(2004, 5, 17)),
        "<serverinfo><name>Tukif Server</name><creationdate>17/05/2004</creationdate></serverinfo>",
    ),
    (
        m.WelcomeMessage("Welcome to our JDuplicate server!"),
        "<welcomemessage>Welcome to our JDuplicate server!</welcomemessage>",
    ),
    (
        m.ServerUserList(("Ahmad", "Jim")),
        "<serveruserlist><user>Ahmad</user><user>Jim</user></serveruserlist>",
    ),
    (m.HallUserList(("Ahmad",)), "<halluserlist><user>Ahmad</user></halluserlist>"),
    (
        game_infos(("ams", "jim")),
        "<gameinfos><name>ams's game</name><operator>ams</operator><timeperturn>120</timeperturn>"
        "<timeleft>97</timeleft><rules>duplicate</rules><description>No word stealing please</description>"
        "<maxplayers>8</maxplayers><state>INGAME</state><turn>7</turn><dictionary>francais</dictionary>"
        "<players><player>ams</player><player>jim</player></players></gameinfos>",
    ),
    (
        m.ServerGameList((GAME, "Luc's game")),
        "<servergamelist><game>ams's game</game><game>Luc's game</game></servergamelist>",
    ),
    (
        m.PredefGames(
            (m.PredefGame("fr", m.Rules.DUPLICATE, "francais", "FR", "standard", "Duplicate - francais"),)
        ),
        '<predefgames><predefgame rules="duplicate" dictionary="francais" letterset="FR" board="standard" '
        'description="Duplicate - francais">fr</predefgame></predefgames>',
    ),
    (m.UserConnected("Jim"), "<userconnected>Jim</userconnected>"),
    (
        m.UserDisconnected("Jim", "Good bye everyone!"),
        "<userdisconnected><name>Jim</name><reason>Good bye everyone!</reason></userdisconnected>",
    ),
    (m.GameCreated(GAME), "<gamecreated>ams's game</gamecreated>"),
    (m.GameEnded(GAME), "<gameended>ams's game</gameended>"),
    (m.Chat("ams", "Hello there"), "<chat><from>ams</from><text>Hello there</text></chat>"),
    (
        m.Whisper("ams", "O-Dog", "it's getting tough!"),
        "<whisper><from>ams</from><to>O-Dog</to><text>it's getting tough!</text></whisper>",
    ),
    (
        m.ChatAction("ams", "believes JDuplicate is great!"),
        "<chataction><from>ams</from><action>believes JDuplicate is great!</action></chataction>",
    ),
    (m.StartGame(GAME), "<startgame>ams's game</startgame>"),
    (m.PlayerJoined("jim"), "<playerjoined>jim</playerjoined>"),
    (
        m.HnPlayerJoined("jim", GAME),
        "<hnplayerjoined><name>jim</name><game>ams's game</game></hnplayerjoined>",
    ),
    (
        m.PlayerLeft("jim", "I'm too bad to play with you"),
        "<playerleft><name>jim</name><reason>I'm too bad to play with you</reason></playerleft>",
    ),
    (m.HnPlayerLeft("jim", GAME), "<hnplayerleft><name>jim</name><game>ams's game</game></hnplayerleft>"),
    (
        m.LetterSet(
            (m.LetterInfo("A", 9, 1, m.LetterClass.VOWEL), m.LetterInfo("*", 2, 0, m.LetterClass.BOTH))
        ),
        '<letterset><letter occurrences="9" value="1" class="V">A</letter>'
        '<letter occurrences="2" value="0" class="VC">*</letter></letterset>',
    ),
    (
        m.BoardType("standard", 15, 15, m.Square(8, "H"), STANDARD_ROWS),
        '<boardtype><name>standard</name><width>15</width><height>15</height><start x="8" y="H"/>'
        + "".join(f"<row>{row}</row>" for row in STANDARD_ROWS)
        + "</boardtype>",
    ),
    (
        m.BoardType("boggle4", 4, 4, None, ("....",) * 4),
        "<boardtype><name>boggle4</name><width>4</width><height>4</height>"
        "<row>....</row><row>....</row><row>....</row><row>....</row></boardtype>",
    ),
    (
        m.Hand(2, 3, 0, ("R", "T", "U", "E", "A", "N", "*")),
        "<hand><turn>2</turn><kept>3</kept><rejected>0</rejected><letter>R</letter><letter>T</letter>"
        "<letter>U</letter><letter>E</letter><letter>A</letter><letter>N</letter><letter>*</letter></hand>",
    ),
    (m.Board(BISE_TILES), f"<board>{BISE_XML}</board>"),
    (m.Board(()), "<board/>"),
    (m.MovesRequest(7, 5), "<movesrequest><turn>7</turn><grace>5</grace></movesrequest>"),
    (
        m.EndOfTurn(1, "H5", "BISe", 10, BISE_TILES, RESULTS),
        f"<endofturn><turn>1</turn><ref>H5</ref><word>BISe</word><score>10</score>{BISE_XML}"
        '<result ref="H8" word="BISe" score="10" status="ok">ams</result>'
        '<result ref="-" word="-" score="0" status="none">jim</result></endofturn>',
    ),
    (
        m.StartOfTurn(5, 120, "jim"),
        "<startofturn><turn>5</turn><time>120</time><player>jim</player></startofturn>",
    ),
    (m.StartOfTurn(2, 120, ""), "<startofturn><turn>2</turn><time>120</time></startofturn>"),
    (
        m.Scores(1, 10, (m.PlayerScore("ams", 10, 10), m.PlayerScore("jim", 0, 0))),
        '<scores><turn>1</turn><toptotal>10</toptotal><player total="10" last="10">ams</player>'
        '<player total="0" last="0">jim</player></scores>',
    ),
    (
        m.Kick("Ahmadeus", "ams", "Because i want to :)"),
        "<kick><kicked>Ahmadeus</kicked><kicker>ams</kicker><reason>Because i want to :)</reason></kick>",
    ),
    (
        m.EndOfGame(GAME, m.EndReason.BAG, 1520, (m.PlayerTotal("ams", 1412), m.PlayerTotal("jim", 1297))),
        "<endofgame><game>ams's game</game><reason>bag</reason><toptotal>1520</toptotal>"
        '<player total="1412">ams</player><player total="1297">jim</player></endofgame>',
    ),
    (m.Error(30102, GAME), "<error><code>30102</code><parameter>ams's game</parameter></error>"),
    (m.Error(30101), "<error><code>30101</code></error>"),
    (
        m.ServiceMessage("Server restarts in 5 minutes"),
        "<servicemessage>Server restarts in 5 minutes</servicemessage>",
    ),
    (m.WaitingForStartTurn(2), "<waitingforstartturn>2</waitingforstartturn>"),
    (
        m.WordResults(1, "ams", (m.WordResult("QUITE", 2, m.WordStatus.OK),)),
        "<wordresults><turn>1</turn><player>ams</player>"
        '<word points="2" status="ok">QUITE</word></wordresults>',
    ),
]


def test_the_examples_cover_every_server_message_in_both_syntaxes() -> None:
    every = {layout.cls for layout in SERVER_LAYOUTS}
    assert {type(message) for message, _ in V02} == every
    assert {type(message) for message, _ in V10} == every


@pytest.mark.parametrize(("message", "line"), V02, ids=[line[:40] for _, line in V02])
def test_written_in_0_2(message: object, line: str) -> None:
    assert v02.render(message) == line


@pytest.mark.parametrize(("message", "line"), V02, ids=[line[:40] for _, line in V02])
def test_read_in_0_2(message: object, line: str) -> None:
    assert v02.parse(line, SERVER_BY_TOKEN) == message


@pytest.mark.parametrize(("message", "document"), V10, ids=[doc[:40] for _, doc in V10])
def test_written_in_1_0(message: object, document: str) -> None:
    assert v10.render(message) == DECL + document


@pytest.mark.parametrize(("message", "document"), V10, ids=[doc[:40] for _, doc in V10])
def test_read_in_1_0(message: object, document: str) -> None:
    assert v10.parse(DECL + document, SERVER_BY_TOKEN) == message


# -- escaping and what 0.2 cannot carry -------------------------------------------------------------


def test_xml_escaping_in_text_and_attributes() -> None:
    assert v10.render(m.Chat("a<b", 'x & y > "z"\r')) == (
        DECL + '<chat><from>a&lt;b</from><text>x &amp; y &gt; "z"&#13;</text></chat>'
    )
    record = m.PredefGame("c", m.Rules.BOGGLE, "d", "L", "b", 'say "hi"\t& <go>\nnow')
    assert v10.render(m.PredefGames((record,))) == (
        DECL + '<predefgames><predefgame rules="boggle" dictionary="d" letterset="L" board="b" '
        'description="say &quot;hi&quot;&#9;&amp; &lt;go&gt;&#10;now">c</predefgame></predefgames>'
    )
    assert v10.parse(v10.render(m.PredefGames((record,))), SERVER_BY_TOKEN) == m.PredefGames((record,))


def test_characters_xml_cannot_carry_become_replacement_characters() -> None:
    assert (
        v10.render(m.Chat("ams", "a\uffffb\x01"))
        == DECL + "<chat><from>ams</from><text>a\ufffdb\ufffd</text></chat>"
    )


@pytest.mark.parametrize(
    "message",
    [
        m.GameInfos("a#b", "ams", 1, 0, m.Rules.DUPLICATE, "", 8, m.GameState.WAITING, 0, "francais", ()),
        m.GameInfos("g", "ams", 1, 0, m.Rules.DUPLICATE, "", 8, m.GameState.WAITING, 0, "francais", ("a&b",)),
        m.ServerUserList(("a#b",)),
        m.ServerUserList(("",)),
        m.Scores(1, 0, (m.PlayerScore("a~b", 0, 0),)),
        m.Board((m.Tile(8, "H", "*"),)),
        m.Board((m.Tile(8, "H", "b"),)),
        m.Board((m.Tile(8, "h", "B"),)),
        m.MovesRequest(1_000_000_000, 5),
    ],
)
def test_fields_0_2_cannot_carry_are_refused(message: object) -> None:
    with pytest.raises(ValueError):
        v02.render(message)


def test_free_text_carries_the_separators_in_0_2() -> None:
    line = v02.render(m.Error(60000, "8&H&B"))
    assert line == "ERROR|60000#8&H&B"
    assert v02.parse(line, SERVER_BY_TOKEN) == m.Error(60000, "8&H&B")
    assert v02.render(m.Kick("jim", "ams", "a#b|c")) == "KICK|jim#ams#a#b|c"
