"""cg accounts as the dialogue sees them (note §4.1): the :class:`Accounts` contract and the
username/password policy.

Accounts are the cg service's own (the hall has users, not passwords). The store implements the
contract (``gamehall.store.accounts``: SQLite in the hall's database file, or in memory for
tests); this package stays sans-I/O and only calls it. Passwords are stored as a KDF hash only and
never leave the store: no method here returns one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Protocol

from gamehall.protocols.cg.saves import SavedGames

USERNAME: Final = re.compile(r"^[A-Za-z][A-Za-z0-9_]{2,15}$")
PASSWORD_MAX: Final = 127
PROFILE_IMG_MAX: Final = 64


def valid_username(name: str) -> bool:
    """The one policy for registration, renames and ``precheck.valid``: a letter, then 2..15
    letters, digits or ``_``, not starting with ``bot`` (any case: those are our bots)."""
    return bool(USERNAME.match(name)) and not name.lower().startswith("bot")


def valid_password(password: str) -> bool:
    return 1 <= len(password) <= PASSWORD_MAX


@dataclass(frozen=True, slots=True)
class Account:
    """One account, without its password hash."""

    uuid: str  # 32 lowercase hex
    username: str  # the display form (case kept)
    profile_img: str = "default"
    blocked: bool = False


class Accounts(Protocol):
    """Where cg accounts live. Names are unique case-insensitively."""

    @property
    def allow_new(self) -> bool:
        """Whether registration is open (``allow_new_accounts``)."""
        ...

    def server_id(self) -> str:
        """The persistent server uuid (32 hex), created on first use."""
        ...

    def find(self, username: str) -> Account | None:
        """The account of ``username``, looked up case-insensitively."""
        ...

    def get(self, account_uuid: str) -> Account | None: ...

    def create(self, username: str, password: str) -> Account | None:
        """A new account (the password hashed), or ``None`` when the name is taken."""
        ...

    def verify(self, username: str, password: str) -> Account | None:
        """The account if the password matches, else ``None``."""
        ...

    def change_password(self, account_uuid: str, old: str, new: str) -> bool:
        """Store a hash of ``new`` if ``old`` verifies."""
        ...

    def rename(self, account_uuid: str, username: str) -> bool:
        """False when another account has that name (case-insensitively)."""
        ...

    def set_profile_img(self, account_uuid: str, profile_img: str) -> None: ...

    def saved_games(self) -> SavedGames:
        """The adjourned games of this cg service (kept beside its accounts)."""
        ...


# ----------------------------------------------------------------------------- failed logins

FREE_FAILURES: Final = 3
"""Wrong passwords per account (or per address) before attempts are spaced out."""

FIRST_DELAY_S: Final = 1.0
MAX_DELAY_S: Final = 30.0
FORGET_AFTER_S: Final = 900.0
"""A key with no failure for this long starts again from zero."""

_MAX_KEYS: Final = 50_000


@dataclass(slots=True)
class _Failures:
    count: int = 0
    last_failure: float = 0.0
    next_slot: float = 0.0


class LoginThrottle:
    """Failed logins limited per account and per address with growing delays (issue 10).

    Throttle, never cut: after :data:`FREE_FAILURES` wrong passwords for an account name or
    from an address, each further attempt involving that key waits for a slot; slots are
    spaced ``FIRST_DELAY_S * 2**(failures - FREE_FAILURES)`` apart (1 s, 2 s, 4 s, ...), at
    most :data:`MAX_DELAY_S`, the first one that long after the last failure. Slots are
    *reserved* (:meth:`reserve`), so many connections from one address cannot fire their
    attempts together when a delay ends. A success clears the
    account's count (not the address's: one known password must not unlock guessing others).
    Keys unused for :data:`FORGET_AFTER_S` are forgotten. Time is the caller's clock (sans-I/O).
    """

    def __init__(self) -> None:
        self._keys: dict[str, _Failures] = {}

    def _spacing(self, entry: _Failures) -> float:
        over = entry.count - FREE_FAILURES
        return 0.0 if over < 0 else min(MAX_DELAY_S, FIRST_DELAY_S * 2 ** min(over, 16))

    def reserve(self, keys: tuple[str, ...], now: float) -> float:
        """Seconds this attempt must wait (0 for a key in good standing); the slot is taken."""
        wait = 0.0
        for key in keys:
            entry = self._keys.get(key)
            if entry is None:
                continue
            if now - entry.last_failure > FORGET_AFTER_S:
                del self._keys[key]
                continue
            spacing = self._spacing(entry)
            if spacing <= 0:
                continue
            slot = max(now, entry.next_slot)
            entry.next_slot = slot + spacing
            wait = max(wait, slot - now)
        return wait

    def failed(self, keys: tuple[str, ...], now: float) -> None:
        if len(self._keys) > _MAX_KEYS:
            self._forget_old(now)
        for key in keys:
            entry = self._keys.setdefault(key, _Failures())
            entry.count += 1
            entry.last_failure = now
            entry.next_slot = max(entry.next_slot, now + self._spacing(entry))

    def succeeded(self, account_key: str) -> None:
        self._keys.pop(account_key, None)

    def failures(self, key: str) -> int:
        entry = self._keys.get(key)
        return 0 if entry is None else entry.count

    def _forget_old(self, now: float) -> None:
        for key in [k for k, e in self._keys.items() if now - e.last_failure > FORGET_AFTER_S]:
            del self._keys[key]
        while len(self._keys) > _MAX_KEYS:  # still full: drop the oldest failures
            oldest = min(self._keys, key=lambda k: self._keys[k].last_failure)
            del self._keys[oldest]


def login_keys(username: str, peer: str) -> tuple[str, str]:
    """The throttle keys of one attempt: the account name (case-insensitive) and the address
    (``peer`` without its port)."""
    host = peer.rpartition(":")[0] or peer
    return f"account:{username.lower()}", f"address:{host}"
