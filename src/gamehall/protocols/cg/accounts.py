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
