"""Fuzzing the JDuplicate dialogue: whatever a client sends, the dialogue never raises, and the
client gets only ERROR answers or a clean close (plus what the requests it did get right earn).

Two sources of input: any bytes (split at random points), and sequences of well-framed,
plausible requests in either syntax, fired at a running duplicate table.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jduplicate_dialogue_support import V02, V10, JdClient, JdHarness, frame

from gamehall.protocols.jduplicate import messages as m

GAME = "g"

TOKENS = [
    "PLAYERNAME",
    "CLIENTTYPE",
    "CHATREQUEST",
    "WHISPERREQUEST",
    "CHATACTIONREQUEST",
    "CREATEGAMEREQUEST",
    "JOINGAMEREQUEST",
    "STARTGAMEREQUEST",
    "CHANGELETTERS",
    "MOVES",
    "STARTTURNREQUEST",
    "BOARDTYPEREQUEST",
    "KICKREQUEST",
    "LEAVEGAMEREQUEST",
    "FOO",
]
PAYLOAD = st.text(alphabet="AHBISe*#&~|<>0123456789 gjim", max_size=30)


def requests_02() -> st.SearchStrategy[bytes]:
    line = st.builds(lambda token, payload: f"{token}|{payload}", st.sampled_from(TOKENS), PAYLOAD)
    return line.map(frame)


def requests_10() -> st.SearchStrategy[bytes]:
    root = st.sampled_from([t.lower() for t in TOKENS])
    body = st.one_of(
        PAYLOAD.map(lambda text: text.replace("<", "").replace(">", "").replace("&", "")),
        st.just('<letter x="8" y="H">B</letter><letter x="9" y="H">I</letter>'),
        st.just("<to>jim</to><text>hi</text>"),
        st.just('<letter x="99" y="Q" blank="E">*</letter>'),
    )
    return st.builds(lambda r, b: frame(f"<{r}>{b}</{r}>"), root, body)


def table(version: m.Version) -> tuple[JdHarness, JdClient, JdClient]:
    harness = JdHarness(bags=["BIS?RTU"])
    ams = harness.user("ams", version)
    jim = harness.user("jim", version)
    ams.send(m.CreateGameRequest(GAME, 120, "DupEN", 8, ""))
    jim.send(m.JoinGameRequest(GAME))
    ams.send(m.StartGameRequest())
    harness.take_all()
    return harness, ams, jim


INTERNAL = "ERROR|99999#internal error"
"""What the dialogue answers when a handler raised: never expected."""


def only_errors_or_close(lines: list[str]) -> bool:
    allowed = ("ERROR|", "CHAT|", "WHISPER|", "CHATACTION|", "BOARDTYPE|")
    return all(line.startswith(allowed) for line in lines)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=6))
def test_any_bytes_before_login_only_get_errors_or_a_close(data: bytes, cuts: list[int]) -> None:
    harness = JdHarness()
    client = harness.connect("x")
    for start, end in zip([0, *sorted(cuts)], [*sorted(cuts), len(data)], strict=False):
        client.send_raw(data[start:end])
    lines = client.take()
    assert INTERNAL not in lines
    assert all(line.startswith(("ERROR|", "SERVERTYPE|")) for line in lines) or client.closed


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(requests_02(), max_size=12))
def test_plausible_0_2_requests_at_a_running_table(frames: list[bytes]) -> None:
    harness, ams, jim = table(V02)
    for data in frames:
        ams.send_raw(data)
    lines = ams.take()
    assert INTERNAL not in lines
    game_messages = ("PLAYERLEFT|", "HALLUSERLIST|", "GAMEINFOS|", "GAMEENDED|", "KICK|", "GAMECREATED|")
    joined = ("LETTERSET|", "BOARD|", "PLAYERJOINED|", "HNPLAYER", "SCORES|", "STARTOFTURN|", "HAND|")
    assert all(
        only_errors_or_close([line]) or line.startswith(game_messages + joined + ("STARTGAME|",))
        for line in lines
    )
    harness.advance(130)  # the table still runs its turn to the end
    assert INTERNAL not in jim.take()


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(requests_10(), max_size=12))
def test_plausible_1_0_requests_never_break_the_dialogue(frames: list[bytes]) -> None:
    harness, _ams, jim = table(V10)
    for data in frames:
        jim.send_raw(data)
    assert INTERNAL not in jim.take()  # decodes: every frame the server wrote is well formed
    harness.advance(130)
    if not jim.closed:
        jim.send(m.ChatRequest("still here"))
        assert jim.take()[-1] in ("CHAT|jim#still here", "ERROR|99999#chat rate limit")
