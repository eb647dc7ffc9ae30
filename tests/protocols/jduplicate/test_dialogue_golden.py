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
from jduplicate_dialogue_support import V02, V10, JdClient, JdHarness, frame

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


def _bodies(client: JdClient, start: int) -> list[str]:
    texts = []
    for data in client.wire.writes[start:]:
        texts.append(mutf8.decode_modified_utf8(data[2:]))
    return texts


def run_script(script: list[tuple[str, str]], *, bytewise: bool) -> list[str]:
    """The session's transcript lines (see the module docstring)."""
    harness = JdHarness(bags=["BIS?RTU"], bytewise=bytewise)
    clients = {"ams": harness.connect("ams", V02), "jim": harness.connect("jim", V10)}
    seen = dict.fromkeys(clients, 0)
    lines: list[str] = []
    for who, text in script:
        if who == "@":
            harness.advance(float(text))
            lines.append(f"@ {text}")
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


@pytest.mark.parametrize("bytewise", [False, True])
def test_the_duplicate_session_replays_byte_for_byte(bytewise: bool) -> None:
    path = DATA / "golden_duplicate.txt"
    lines = run_script(DUPLICATE_SCRIPT, bytewise=bytewise)
    if os.environ.get("JDUP_RECORD") and not bytewise:
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines == path.read_text(encoding="utf-8").splitlines()
