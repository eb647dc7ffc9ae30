"""Golden transcripts: whole JDuplicate sessions, byte for byte, in both syntaxes at once.

Each file in ``data/`` is one session: ``name> text`` is a frame a client sends, ``name< text``
a frame it receives (the body's text: a 0.2 line or a 1.0 document), ``@ seconds`` moves the
fake clock. The test replays the sends, whole and one byte per read, and checks every client
received exactly the recorded frames, in order, between two steps. ams speaks 0.2 and jim 1.0
at the same table. The files were recorded from this dialogue (``JDUP_RECORD=1``) and read
against the note's examples (§4.2, §6, §14): the login sequence, GAMECREATED..BOARD, STARTGAME,
GAMEINFOS, STARTOFTURN, HAND, MOVESREQUEST, ENDOFTURN (`H5 BISe 10`), SCORES, ENDOFGAME.
"""

from __future__ import annotations

import os
from pathlib import Path

import mutf8
import pytest
from jduplicate_dialogue_support import FIXTURE, V02, V10, JdClient, JdHarness, frame

from gamehall.rules.words.lexicon import Lexicon

DATA = Path(__file__).parent / "data"

DUPLICATE_SCRIPT: list[tuple[str, str]] = [
    ("ams", "PLAYERNAME|ams"),
    ("ams", "CLIENTTYPE|JDuplicate Swing Client#0.12#0.2"),
    (
        "jim",
        '<?xml version="1.0" encoding="UTF-8"?><clienttype><name>JDCC</name><version>0.5.10</version>'
        "<protocolversion>1.0</protocolversion></clienttype>",
    ),
    ("jim", "<playername>jim</playername>"),
    ("ams", "CREATEGAMEREQUEST|ams's game#120#DupEN#8#No word stealing please"),
    ("jim", "<joingamerequest>ams's game</joingamerequest>"),
    ("jim", "<chatrequest>Hello there &amp; welcome</chatrequest>"),
    ("ams", "STARTGAMEREQUEST|"),
    ("ams", "MOVES|8&H&B#9&H&I#10&H&S#11&H&e#"),
    ("jim", '<moves><letter x="8" y="h">B</letter><letter x="8" y="I">Z</letter></moves>'),
    ("@", "120"),
    ("@", "5"),
    ("@", "5"),
    ("jim", "<leavegamerequest>I'm too bad to play with you</leavegamerequest>"),
    ("ams", "LEAVEGAMEREQUEST|"),
    ("jim", "<disconnect>Good bye everyone!</disconnect>"),
]

BOGGLE_WORDS = Lexicon.from_words(["BAR", "BARD", "TAR", "MAT"])
"""Words of the boggle grid this session deals (rows IEMU / ABRD / MTAR / GADO)."""

BOGGLE_SCRIPT: list[tuple[str, str]] = [
    ("ams", "PLAYERNAME|ams"),
    ("ams", "CLIENTTYPE|JDuplicate Swing Client#0.12#0.2"),
    ("jim", "<playername>jim</playername>"),
    (
        "jim",
        "<clienttype><name>JDCC</name><version>0.5.10</version><protocolversion>1.0</protocolversion></clienttype>",
    ),
    ("ams", "CREATEGAMEREQUEST|Boggle night#60#BogEN#4#"),
    ("jim", "<joingamerequest>Boggle night</joingamerequest>"),
    ("ams", "STARTGAMEREQUEST|"),
    ("ams", "MOVES|2&B&B#3&C&A#4&C&R#3&D&D#"),
    ("ams", "MOVES|1&A&I#3&A&M#"),
    (
        "jim",
        '<moves><letter x="2" y="B">B</letter><letter x="3" y="C">A</letter><letter x="4" y="C">R</letter>'
        '<letter x="3" y="D">D</letter></moves>',
    ),
    (
        "jim",
        '<moves><letter x="2" y="C">T</letter><letter x="3" y="C">A</letter>'
        '<letter x="4" y="C">R</letter></moves>',
    ),
    (
        "jim",
        '<moves><letter x="1" y="C">M</letter><letter x="1" y="B">A</letter>'
        '<letter x="2" y="C">T</letter></moves>',
    ),
    ("jim", "<startturnrequest/>"),
    ("@", "60"),
    ("@", "5"),
    ("jim", "<startturnrequest/>"),
    ("ams", "STARTTURNREQUEST|"),
    ("luc", "CLIENTTYPE|JDCC#0.5.10#0.2"),
    ("luc", "PLAYERNAME|luc"),
    ("luc", "JOINGAMEREQUEST|Boggle night"),
    ("ams", "KICKREQUEST|luc#Because i want to :)"),
    ("luc", "JOINGAMEREQUEST|Boggle night"),
    ("jim", "EOF"),
    ("@", "60"),
]


def _bodies(client: JdClient, start: int) -> list[str]:
    texts = []
    for data in client.wire.writes[start:]:
        texts.append(mutf8.decode_modified_utf8(data[2:]))
    return texts


def run_script(script: list[tuple[str, str]], *, bytewise: bool, lexicon: Lexicon = FIXTURE) -> list[str]:
    """The session's transcript lines (see the module docstring). ``name> EOF`` is that
    client's socket going away without DISCONNECT."""
    harness = JdHarness(bags=["BIS?RTU"], bytewise=bytewise, lexicon=lexicon)
    versions = {"ams": V02, "jim": V10, "luc": V02}
    clients: dict[str, JdClient] = {}
    seen: dict[str, int] = {}
    lines: list[str] = []
    for who, text in script:
        if who != "@" and who not in clients:  # each connects just before its first frame
            clients[who] = harness.connect(who, versions[who])
            seen[who] = 0
        if who == "@":
            harness.advance(float(text))
            lines.append(f"@ {text}")
        elif text == "EOF":
            clients[who].hang_up()
            lines.append(f"{who}> EOF")
        else:
            clients[who].send_raw(frame(text))
            lines.append(f"{who}> {text}")
        for name, client in clients.items():
            for body in _bodies(client, seen[name]):
                lines.append(f"{name}< {body}")
            seen[name] = len(client.wire.writes)
    return lines


def test_the_duplicate_transcript_names_the_notes_examples() -> None:
    recorded = (DATA / "golden_duplicate.txt").read_text(encoding="utf-8").splitlines()
    assert "ams< SERVERTYPE|JDuplicate#0.6#0.2" in recorded
    assert "ams< GAMECREATED|ams's game" in recorded
    assert (
        "ams< ENDOFTURN|1#H5#BISe#10#5~H~B&6~H~I&7~H~S&8~H~e&#ams~H8~BISe~10~ok&jim~-~-~0~none&" in recorded
    )
    assert (
        "jim< " + '<?xml version="1.0" encoding="UTF-8"?><movesrequest><turn>1</turn><grace>5</grace>'
        "</movesrequest>" in recorded
    )
    assert (
        "jim< " + '<?xml version="1.0" encoding="UTF-8"?><error><code>60103</code><parameter>Z'
        "</parameter></error>" in recorded
    )


def test_the_boggle_transcript_names_the_notes_examples() -> None:
    recorded = (DATA / "golden_boggle.txt").read_text(encoding="utf-8").splitlines()
    assert "ams< ERROR|60301#3&A" in recorded
    assert "ams< WORDRESULTS|1#ams#BARD~0~dup&" in recorded
    assert "ams< WORDRESULTS|1#jim#TAR~1~ok&MAT~1~ok&BARD~0~dup&" in recorded
    assert "ams< WAITINGFORSTARTTURN|2" in recorded
    assert "luc< KICK|luc#ams#Because i want to :)" in recorded
    assert "luc< ERROR|40007#Boggle night" in recorded
    lost = recorded.index("jim> EOF")  # a dropped player's seat is held for the grace (60 s)
    assert recorded[lost + 1 : lost + 3] == ["ams< USERDISCONNECTED|jim#", "luc< USERDISCONNECTED|jim#"]
    grace_over = recorded.index("@ 60", lost)
    assert recorded[grace_over + 2 : grace_over + 4] == [
        "ams< PLAYERLEFT|jim#",
        "ams< GAMEINFOS|Boggle night#ams#60#5#boggle##4#INGAME#2#english-lp#ams&",
    ]


@pytest.mark.parametrize("bytewise", [False, True])
@pytest.mark.parametrize(
    ("name", "script", "lexicon"),
    [("duplicate", DUPLICATE_SCRIPT, FIXTURE), ("boggle", BOGGLE_SCRIPT, BOGGLE_WORDS)],
)
def test_the_session_replays_byte_for_byte(
    bytewise: bool, name: str, script: list[tuple[str, str]], lexicon: Lexicon
) -> None:
    path = DATA / f"golden_{name}.txt"
    lines = run_script(script, bytewise=bytewise, lexicon=lexicon)
    if os.environ.get("JDUP_RECORD") and not bytewise:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines == path.read_text(encoding="utf-8").splitlines()
