"""A whole game over the wire (note §5.1, §10.2-3, §10.5, §11.6-7): one vanilla human against
three ``dk_dumb`` bots, recorded as a golden transcript (``data/golden_game_vanilla.txt``),
whole and byte by byte; every packet passes the reference key tables, every id is 32 hex, no
map key on the wire is an int.

Set ``CG_RECORD=1`` to rewrite the fixture after a reviewed change.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import msgpack
import pytest

from gamehall.protocols.cg.codec import check_clientbound, is_wire_uuid
from gamehall.protocols.cg.framing import FrameDecoder, decode_body

from .cg_support import CgClient, CgHarness, ScriptedPlayer, play_until_end, start_vs_bots

GOLDEN = Path(__file__).parent / "data" / "golden_game_vanilla.txt"
UUID_KEYS = (
    "uuid",
    "lobby",
    "player",
    "announcer",
    "current_player",
    "target",
    "accused",
    "card_id",
    "solist",
)


def play_one_game(*, bytewise: bool = False) -> CgClient:
    harness = CgHarness(seed=11, bytewise=bytewise)
    client = start_vs_bots(harness)
    play_until_end(harness, ScriptedPlayer(client))
    return client


def transcript(client: CgClient) -> list[str]:
    """Every packet as ``name json``, account/lobby/game/bot uuids replaced by stable names."""
    names: dict[str, str] = {client.uuid: "<Alice>"}
    for packet in client.all():
        body = packet.body
        if packet.name == "cg:lobby.join":
            names[body["lobby"]] = "<lobby>"
        elif packet.name == "cg:status.user" and body["username"].startswith("bot_"):
            names[body["uuid"]] = f"<{body['username']}>"
        elif packet.name == "cg:game.start":
            names[body["game_id"]] = "<game>"
    pattern = re.compile("|".join(map(re.escape, names)))
    lines = []
    for packet in client.all():
        text = json.dumps(packet.body, sort_keys=False, separators=(",", ":"))
        lines.append(f"{packet.name} {pattern.sub(lambda m: names[m.group(0)], text)}")
    return lines


@pytest.fixture(scope="module")
def recorded() -> CgClient:
    return play_one_game()


def test_the_game_matches_the_golden_transcript(recorded: CgClient) -> None:
    lines = transcript(recorded)
    if os.environ.get("CG_RECORD"):
        GOLDEN.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert lines == GOLDEN.read_text(encoding="utf-8").splitlines()


def test_byte_by_byte_input_gives_the_same_transcript(recorded: CgClient) -> None:
    assert transcript(play_one_game(bytewise=True)) == transcript(recorded)


def test_the_round_follows_the_note_order(recorded: CgClient) -> None:
    names = [p.name for p in recorded.all()]
    start = names.index("cg:game.start")
    packets = recorded.all()[start:]
    assert set(packets[0].body) == {"game_type", "game_id", "player_list", "game_summaries", "gamerules"}
    assert packets[1].body["round"] == 1 and packets[1].body["phase"] == "loading"
    creations = [p for p in packets if p.name == "cg:game.dk.card.transfer" and p.body["from_slot"] is None]
    assert len(creations) == 48 and all(p.body["card_value"] == "" for p in creations)
    assert names[start + 2 : start + 50] == ["cg:game.dk.card.transfer"] * 48
    deals = [p for p in packets if p.name == "cg:game.dk.card.transfer" and p.body["from_slot"] == "stack"]
    assert len(deals) == 48
    mine = [p for p in deals if p.body["to_slot"] == "hand0"]
    assert len(mine) == 12 and all(p.body["card_value"] for p in mine)
    assert all(p.body["card_value"] == "" for p in deals if p.body["to_slot"] != "hand0")
    phases = [p.body["phase"] for p in packets if p.name == "cg:game.dk.round.change" and "phase" in p.body]
    assert phases == ["loading", "dealing", "w_for_ready", "reservations", "tricks", "end"]
    points = [p for p in packets if p.name == "cg:game.dk.scoreboard" and "points" in p.body]
    assert len(points) == 4 and sum(p.body["point_change"] for p in points) == 0
    assert names[-2:] == ["cg:game.end", "cg:lobby.change"]


def test_every_packet_passes_the_reference_key_tables(recorded: CgClient) -> None:
    for packet in recorded.all():
        if packet.name.startswith("peng3dnet:"):
            continue
        assert check_clientbound(packet) == [], packet


def test_every_id_on_the_wire_is_32_lowercase_hex(recorded: CgClient) -> None:
    for packet in recorded.all():
        for key in UUID_KEYS:
            if key in packet.body and packet.body[key] is not None:
                assert is_wire_uuid(packet.body[key]), (packet.name, key, packet.body[key])
        for uid in packet.body.get("player_list", []):
            assert is_wire_uuid(uid)


def test_no_map_key_on_the_wire_is_an_int(recorded: CgClient) -> None:
    decoder = FrameDecoder()
    decoder.receive_data(b"".join(recorded.wire.writes))
    count = 0
    while decoder.buffered:
        header = decoder._buffer[:10]
        length = int.from_bytes(header[:4], "big")
        payload = bytes(decoder._buffer[10 : 4 + length])
        flags = int.from_bytes(header[8:10], "big")
        decode_body(payload, flags)
        if not flags:
            msgpack.unpackb(payload, raw=False, strict_map_key=True)  # a reference peer's decoder
        del decoder._buffer[: 4 + length]
        count += 1
    assert count == len(recorded.all())


def test_the_lobby_change_carries_33_validators_and_pigs_defaults_to_the_string_none(
    recorded: CgClient,
) -> None:
    change = next(
        p for p in recorded.all() if p.name == "cg:lobby.change" and "gamerule_validators" in p.body
    )
    validators = change.body["gamerule_validators"]
    assert len(validators) == 33 and "dk.misplay" not in validators
    assert validators["dk.pigs"]["default"] == "None"
    assert change.body["supported_bots"] == ["dk_dumb"]
    game_start = next(p for p in recorded.all() if p.name == "cg:game.start")
    assert len(game_start.body["gamerules"]) == 33
