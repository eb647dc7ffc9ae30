"""Save and load (note §4.3, §9.6, §11.21): an adjourn vote that passes gives every gamehall
seat a ``game.save`` token (HS256, the server secret) before ``game.end``; ``game.load`` with
that token preloads the game, and the next start continues the saved points and
``game_summaries``. A tampered token, another player set, or a vanilla seat get nothing."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

from gamehall.protocols.cg.codec import Packet
from gamehall.rules.doppelkopf import DoppelkopfTable

from .cg_support import CgClient, CgHarness, ScriptedPlayer, play_until_end, start_vs_bots


class Adjourner(ScriptedPlayer):
    """Plays like :class:`ScriptedPlayer` but votes ``adjourn_yes`` after the first round."""

    def on_packet(self, packet: Packet) -> None:
        if packet.name == "cg:game.dk.round.change" and packet.body.get("phase") == "end":
            self.round_ends += 1
            self.client.send("cg:game.dk.announce", type="adjourn_yes")
            return
        super().on_packet(packet)


def _b64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _adjourned(harness: CgHarness, flavor: str = "gamehall") -> tuple[CgClient, list[Packet]]:
    alice = start_vs_bots(harness, flavor=flavor)
    play_until_end(harness, Adjourner(alice))
    return alice, alice.all()


def test_an_adjourned_game_sends_a_signed_save_before_game_end_and_keeps_the_state() -> None:
    harness = CgHarness(seed=7)
    _alice, packets = _adjourned(harness)
    names = [p.name for p in packets]
    assert "cg:game.save" in names and names.index("cg:game.save") < names.index("cg:game.end")
    save = packets[names.index("cg:game.save")].body
    start = packets[names.index("cg:game.start")].body
    assert save["game_id"] == start["game_id"]
    header, payload, signature = save["data"].split(".")
    secret = harness.accounts.saved_games().secret()
    expected = hmac.new(secret, f"{header}.{payload}".encode(), hashlib.sha256).digest()
    assert hmac.compare_digest(_b64(signature), expected)
    assert json.loads(_b64(header))["alg"] == "HS256"
    claims = json.loads(_b64(payload))
    assert claims["iss"] == harness.accounts.server_id()
    data = claims["data"]
    assert data["id"] == save["game_id"] and data["type"] == "dk" and data["version"] == 1
    assert data["players"] == start["player_list"] and data["bots"] == [1, 2, 3]
    assert "hands" not in _b64(payload).decode() and "seed" not in data  # no hidden state
    kept = harness.accounts.saved_games().get(save["game_id"])
    assert kept is not None and DoppelkopfTable.from_json(kept).s.end_reason == "adjourn"


def test_a_vanilla_seat_never_receives_game_save() -> None:
    _alice, packets = _adjourned(CgHarness(seed=7), flavor="vanilla")
    names = [p.name for p in packets]
    assert "cg:game.end" in names and "cg:game.save" not in names


def save_players(save: dict[str, Any]) -> list[str]:
    players: list[str] = json.loads(_b64(save["data"].split(".")[1]))["data"]["players"]
    return players


def _load_and_start(alice: CgClient, token: str, game_id: str) -> list[Packet]:
    alice.take()
    alice.send("cg:game.load", game_id=game_id, data=token)
    answer = alice.take()
    alice.send("cg:lobby.ready", ready=True)
    return answer + alice.take()


def test_game_load_continues_the_saved_points_and_summaries_at_the_next_round() -> None:
    harness = CgHarness(seed=7)
    alice, packets = _adjourned(harness)
    save = next(p.body for p in packets if p.name == "cg:game.save")
    points = [p.body for p in packets if p.name == "cg:game.dk.scoreboard" and "points" in p.body]
    saved_round = next(p.body for p in packets if p.body.get("phase") == "end")
    replies = _load_and_start(alice, save["data"], save["game_id"])
    notices = [p.body["message"] for p in replies if p.name == "cg:status.message"]
    assert notices == ["gamehall:msg.game.load.preloaded"]
    start = next(p.body for p in replies if p.name == "cg:game.start")
    assert start["game_id"] != save["game_id"]
    (row,) = start["game_summaries"]
    by_player = {b["player"]: b["points"] for b in points[-4:]}
    assert row["round_num"] == 1 and start["player_list"] == save_players(save)
    assert row["points"] == [by_player[uid] for uid in start["player_list"]]
    assert any(row["points"])
    first = next(p.body for p in replies if p.name == "cg:game.dk.round.change" and "round" in p.body)
    assert first["round"] == saved_round["round"] + 1
    room_id = alice.dialogue.room_id
    assert room_id is not None
    view: dict[str, Any] = harness.hall.room(room_id).game.view(None)  # type: ignore[assignment]
    assert view["points"] == row["points"]


def test_a_tampered_token_or_another_player_set_is_refused() -> None:
    harness = CgHarness(seed=7)
    alice, packets = _adjourned(harness)
    save = next(p.body for p in packets if p.name == "cg:game.save")
    header, payload, signature = save["data"].split(".")
    claims = json.loads(_b64(payload))
    claims["data"]["players"][0] = "0" * 32
    forged = base64.urlsafe_b64encode(json.dumps(claims).encode()).rstrip(b"=").decode()
    alice.take()
    for token in (f"{header}.{forged}.{signature}", "not-a-token", save["data"][:-2]):
        alice.send("cg:game.load", game_id=save["game_id"], data=token)
        assert [p.body["message"] for p in alice.take()] == ["gamehall:msg.game.load.invalid_token"]
    alice.send("cg:game.load", game_id="f" * 32, data=save["data"])  # another game's id
    assert [p.body["message"] for p in alice.take()] == ["gamehall:msg.game.load.invalid_token"]


def test_a_lobby_without_the_saved_humans_cannot_load() -> None:
    harness = CgHarness(seed=7)
    _alice, packets = _adjourned(harness)
    save = next(p.body for p in packets if p.name == "cg:game.save")
    bob = harness.connect("Bobby")
    bob.register(flavor="gamehall")
    bob.send("cg:lobby.create", game="doppelkopf", variant="c")
    for _ in range(3):
        bob.send("cg:lobby.invite", username="bot_dk_dumb")
    bob.take()
    bob.send("cg:game.load", game_id=save["game_id"], data=save["data"])
    assert [p.body["message"] for p in bob.take()] == ["gamehall:msg.game.load.wrong_players"]


def test_lobby_bots_follow_a_cancel_vote_cast_while_another_seat_is_to_play() -> None:
    harness = CgHarness(seed=7)
    alice = start_vs_bots(harness)
    for _ in range(200):
        harness.run(0.5)
        turn = [p.body for p in alice.take() if p.name == "cg:game.dk.turn"]
        if turn and turn[-1]["current_player"] != alice.uuid:
            break
    alice.send("cg:game.dk.announce", type="cancel_yes")
    harness.run(2.0)
    packets = alice.take()
    votes = [p.body["type"] for p in packets if p.name == "cg:game.dk.announce"]
    assert votes.count("cancel_yes") == 4
    names = [p.name for p in packets]
    assert names[-2:] == ["cg:game.end", "cg:lobby.change"]
    assert any(p.body.get("message") == "cg:msg.game.cancel" for p in packets)


def test_a_wire_bot_backs_another_seats_cancel_adjourn_or_end_vote_once() -> None:
    from gamehall.bots.doppelkopf.wire import CgPlayer

    player = CgPlayer("bot", "pw")
    player.uuid = "a" * 32
    vote = Packet("cg:game.dk.announce", {"announcer": "b" * 32, "type": "cancel_yes"})
    assert [p.body for p in player.on_packet(vote)] == [{"type": "cancel_yes"}]
    assert player.on_packet(vote) == []  # once
    adjourn = Packet("cg:game.dk.announce", {"announcer": "b" * 32, "type": "adjourn_yes"})
    assert player.on_packet(adjourn) == []  # only in phase end
    player.on_packet(Packet("cg:game.dk.round.change", {"phase": "end"}))
    assert [p.body for p in player.on_packet(adjourn)] == [{"type": "adjourn_yes"}]
    mine = Packet("cg:game.dk.announce", {"announcer": "a" * 32, "type": "end_yes"})
    assert player.on_packet(mine) == []


def test_sqlite_saved_games_keep_the_state_and_the_secret_across_restarts(tmp_path: Any) -> None:
    from gamehall.store.accounts import SqliteAccounts

    path = tmp_path / "hall.db"
    accounts = SqliteAccounts(path)
    saves = accounts.saved_games()
    secret = saves.secret()
    saves.put("a" * 32, {"points": [1, 2, 3, -6]}, 1.0)
    accounts.close()
    again = SqliteAccounts(path).saved_games()
    assert again.secret() == secret and len(secret) == 32
    assert again.get("a" * 32) == {"points": [1, 2, 3, -6]} and again.get("b" * 32) is None
