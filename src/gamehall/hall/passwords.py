"""Room passwords: a salted scrypt hash, computed off the event loop when the server can.

Room passwords are chosen by people, so they are kept only as scrypt hashes (``hash_secret``).
scrypt costs milliseconds by design, and the hall is plain synchronous code run on the event
loop: a storm of wrong passwords would stall every table (issue 10). So the slow part can be
done *before* the hall call, elsewhere:

1. on the loop, the dialogue asks the hall for the work a password will need
   (:meth:`~gamehall.hall.hall.Hall.password_work`): a closure over the room's stored hash and
   the password, touching no hall state;
2. the dialogue hands the closure to its wire (``Wire.offload``): the server runs it in a
   worker thread, where it computes scrypt and leaves the answer in this :class:`PasswordCache`;
3. when the answer is back on the loop, the dialogue makes its usual hall call (create, join,
   spectate), which finds the answer in the cache and spends microseconds.

A hall call whose answer is not cached (sans-I/O tests, in-process callers) computes scrypt
itself, as before: the cache is an optimisation of *where* the work runs, never a second rule.
Answers are used once and the cache is bounded.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable

SCRYPT_N = 2**12
MAX_ENTRIES = 1024


def hash_secret(secret: str, salt: bytes | None = None) -> str:
    """A salted scrypt hash, as ``salt_hex$hash_hex``: room passwords, which people choose."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, n=SCRYPT_N, r=8, p=1, dklen=32)
    return f"{salt.hex()}${digest.hex()}"


def secret_matches(secret: str, stored: str) -> bool:
    salt_hex, _, _ = stored.partition("$")
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    return hmac.compare_digest(hash_secret(secret, salt), stored)


def _key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class PasswordCache:
    """Answers computed in worker threads, waiting for the hall call that needs them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._entries: OrderedDict[str, str | bool] = OrderedDict()

    def _put(self, key: str, value: str | bool) -> None:
        with self._lock:
            self._entries[key] = value
            while len(self._entries) > MAX_ENTRIES:
                self._entries.popitem(last=False)

    def _take(self, key: str) -> str | bool | None:
        with self._lock:
            return self._entries.pop(key, None)

    def work_for_new(self, password: str) -> Callable[[], None]:
        """The hashing a new room with ``password`` will need (run it anywhere)."""
        return lambda: self._put(_key("new", password), hash_secret(password))

    def work_for_check(self, stored: str, password: str) -> Callable[[], None]:
        """The check of ``password`` against a room's ``stored`` hash (run it anywhere)."""
        return lambda: self._put(_key("check", stored, password), secret_matches(password, stored))

    def new_hash(self, password: str) -> str:
        """A hash of ``password`` for a new room: the precomputed one, else computed now. The
        creator's own check against it is answered too (it cannot fail), so creating and
        joining a protected room costs one scrypt, not two."""
        found = self._take(_key("new", password))
        stored = found if isinstance(found, str) else hash_secret(password)
        self._put(_key("check", stored, password), True)
        return stored

    def matches(self, password: str, stored: str) -> bool:
        """Whether ``password`` opens a room with ``stored``: the precomputed answer, else now."""
        found = self._take(_key("check", stored, password))
        return found if isinstance(found, bool) else secret_matches(password, stored)
