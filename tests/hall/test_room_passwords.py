"""Room passwords off the loop (issue 10): the scrypt work of a create/join/spectate is handed
out as a closure (run by the server in a worker thread), and the hall call then spends no
scrypt at all; without that step the hall computes the hash itself, with the same answer."""

from __future__ import annotations

import threading

import pytest
from recording_listener import RecordingListener
from toy_game import TOY
from turns import turn_by_turn_hall

import gamehall.hall.passwords as passwords
from gamehall.hall import FakeClock
from gamehall.protocols._core import HallError
from gamehall.store.memory import MemoryStore


@pytest.fixture
def scrypt_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The threads scrypt ran in."""
    calls: list[str] = []
    real = passwords.hashlib.scrypt

    def counting(*args: object, **kwargs: object) -> bytes:
        calls.append(threading.current_thread().name)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(passwords.hashlib, "scrypt", counting)
    return calls


def in_worker(work: object) -> None:
    assert callable(work)
    thread = threading.Thread(target=work, name="worker")
    thread.start()
    thread.join()


def test_prepared_passwords_cost_the_hall_no_scrypt(scrypt_calls: list[str]) -> None:
    hall = turn_by_turn_hall(games={"toy": TOY}, store=MemoryStore(), clock=FakeClock(), defaults={"toy": {}})
    alice = hall.login("alice", RecordingListener(), protocol="test")
    bob = hall.login("bob", RecordingListener(), protocol="test")
    in_worker(hall.password_work("sesame"))
    room = alice.create_room("toy", {}, password="sesame")
    in_worker(hall.password_work("wrong", room.room_id))
    with pytest.raises(HallError) as refused:
        bob.join(room.room_id, "wrong")
    assert refused.value.code == "wrong_password"
    in_worker(hall.password_work("sesame", room.room_id))
    bob.spectate(room.room_id, "sesame")
    assert scrypt_calls == ["worker", "worker", "worker"]  # none on the hall's thread
    assert hall.password_work(None) is None


def test_without_preparation_the_hall_checks_itself(scrypt_calls: list[str]) -> None:
    hall = turn_by_turn_hall(games={"toy": TOY}, store=MemoryStore(), clock=FakeClock(), defaults={"toy": {}})
    alice = hall.login("alice", RecordingListener(), protocol="test")
    bob = hall.login("bob", RecordingListener(), protocol="test")
    room = alice.create_room("toy", {}, password="sesame")
    with pytest.raises(HallError):
        bob.join(room.room_id, "wrong")
    bob.join(room.room_id, "sesame")  # the creation already proved this password: no scrypt
    assert len(scrypt_calls) == 2 and set(scrypt_calls) == {threading.current_thread().name}
