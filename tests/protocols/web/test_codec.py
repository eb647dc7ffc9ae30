"""The web codec: one JSON object per text frame, typed client messages, errors that name the
problem (docs/web-protocol.md, "Framing" and "Errors")."""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamehall.protocols._core import ProtocolError
from gamehall.protocols.web import codec
from gamehall.protocols.web.codec import (
    MAX_FRAME_BYTES,
    Act,
    AddBots,
    Bye,
    Chat,
    Create,
    Hello,
    Join,
    Kick,
    ListRooms,
    Ping,
    Resume,
    decode,
    encode,
    encode_client,
    message_id,
)


def test_hello_with_and_without_token() -> None:
    assert decode('{"t":"hello","v":1,"name":"ann"}') == Hello(v=1, name="ann")
    assert decode('{"t":"hello","v":1,"name":"ann","token":"x","id":7}') == Hello(
        v=1, name="ann", token="x", id=7
    )


def test_defaults_fill_optional_fields() -> None:
    assert decode('{"t":"rooms"}') == ListRooms()
    assert decode('{"t":"create","game":"aah"}') == Create(game="aah", settings={})
    assert decode('{"t":"bots","room":"r1"}') == AddBots(room="r1", count=1, policy="random")
    assert decode('{"t":"bye"}') == Bye()


def test_act_carries_the_action_object_untouched() -> None:
    msg = decode('{"t":"act","room":"r1","action":{"type":"Pick","card_ids":[3,4]},"id":"a"}')
    assert msg == Act(room="r1", action={"type": "Pick", "card_ids": [3, 4]}, id="a")


def test_ping_data_may_be_any_json() -> None:
    assert decode('{"t":"ping","data":[1,{"x":null}]}') == Ping(data=[1, {"x": None}])


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ("{not json", "bad_json", "Malformed JSON"),
        ("[1,2]", "bad_message", "JSON object"),
        ('{"v":1}', "bad_message", '"t"'),
        ('{"t":5}', "bad_message", '"t"'),
        ('{"t":"dance"}', "unknown_type", "'dance'"),
        ('{"t":"join"}', "bad_message", "'room' is missing"),
        ('{"t":"join","room":3}', "bad_message", "'room' in 'join' must be a string"),
        ('{"t":"kick","room":"r","seat":true}', "bad_message", "'seat' in 'kick' must be an integer"),
        ('{"t":"kick","room":"r","seat":1.5}', "bad_message", "must be an integer"),
        ('{"t":"join","room":"r","colour":"red"}', "bad_message", "['colour']"),
        ('{"t":"act","room":"r","action":[1]}', "bad_message", "'action' in 'act' must be an object"),
        ('{"t":"hello","v":1,"name":"a","token":7}', "bad_message", "a string or null"),
    ],
)
def test_malformed_frames_name_the_problem(text: str, code: str, words: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        decode(text)
    assert caught.value.code == code
    assert words in caught.value.reason
    assert caught.value.recoverable


def test_oversized_frame_is_refused_before_parsing() -> None:
    text = '{"t":"chat","room":"r","text":"' + "x" * MAX_FRAME_BYTES + '"}'
    with pytest.raises(ProtocolError) as caught:
        decode(text)
    assert caught.value.code == "too_large"


def test_message_id_is_recovered_from_a_bad_message_for_the_error_ref() -> None:
    assert message_id('{"t":"join","id":12}') == 12
    assert message_id('{"t":"join","id":"q"}') == "q"
    assert message_id('{"t":"join","id":true}') is None
    assert message_id("{broken") is None


def test_encode_writes_compact_json_and_refuses_oversize() -> None:
    assert encode({"t": "pong", "data": None}) == '{"t":"pong","data":null}'
    assert orjson.loads(encode({"t": "x", "m": {1: "a"}})) == {"t": "x", "m": {"1": "a"}}
    with pytest.raises(ValueError):
        encode({"t": "x", "blob": "y" * MAX_FRAME_BYTES})


ROUND_TRIP = [
    Hello(v=1, name="bob", token="tok", id=1),
    Create(game="aah", settings={"timeout": 20}, password="pw", title="Friday"),
    Join(room="r9", password=None),
    Kick(room="r9", seat=2),
    Chat(room="r9", text="hi ✓"),
    Resume(room="r9", since=0),
]


@pytest.mark.parametrize("message", ROUND_TRIP)
def test_client_messages_round_trip(message: codec.ClientMessage) -> None:
    assert decode(encode_client(message)) == message


# --------------------------------------------------------------------------------------------
# Fuzz: any text gives a message or a ProtocolError, nothing else.
# --------------------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)

field_names = st.sampled_from(
    [
        "t",
        "id",
        "v",
        "name",
        "token",
        "room",
        "game",
        "settings",
        "password",
        "title",
        "seat",
        "count",
        "policy",
        "action",
        "text",
        "to",
        "since",
        "data",
        "zzz",
    ]
)

message_like = st.dictionaries(field_names, json_values, max_size=6).flatmap(
    lambda d: st.sampled_from(sorted(codec.CLIENT_MESSAGES)).map(lambda t: {**d, "t": t})
)


def _decodes_or_refuses(text: str | bytes) -> None:
    try:
        message = decode(text)
    except ProtocolError as exc:
        assert exc.recoverable
        assert exc.reason
    else:
        assert isinstance(message, codec.ClientMessage)
        assert decode(encode_client(message)) == message


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_fuzz_any_text(text: str) -> None:
    _decodes_or_refuses(text)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_any_bytes(data: bytes) -> None:
    _decodes_or_refuses(data)


@settings(max_examples=300, deadline=None)
@given(message_like)
def test_fuzz_message_shaped_objects(obj: dict[str, object]) -> None:
    _decodes_or_refuses(orjson.dumps(obj))
