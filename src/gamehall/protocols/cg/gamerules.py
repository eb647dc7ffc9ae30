"""The lobby's ``gamerules`` and ``gamerule_validators`` (note §6.6, §6.7), built from the
engine's rule list so the two can never disagree.

On the wire a rule is named ``dk.<setting>`` and a validator is
``{type, default, requirements:{rule:[allowed...]}, options?, min/max/step?}``. The 33 reference
rules go to every connection; the 4 of ours (misplay, penalties) only to gamehall connections
(§3 rule 3). A serverbound value its validator refuses is replaced by the default (Ref).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from gamehall.rules.doppelkopf.settings import RULES, Rule

VARIANTS: Final[dict[str, dict[str, Any]]] = {
    "c": {},
    "s": {},
    "m": {
        "dk.heart10_prio": "second",
        "dk.pigs": "two_reservation",
        "dk.superpigs": "reservation",
        "dk.poverty": "circulate",
        "dk.poverty_consequence": "redeal",
        "dk.throw": "reservation",
        "dk.throw_cases": ["5_9", "5_k", "7full"],
        "dk.charlie_broken": True,
        "dk.buck_round": "succession",
        "dk.buck_cause": ["draw", "re_kontra_lost", "solo_lost"],
    },
}
"""Lobby variants: custom, tournament (both the defaults) and "extra rules"."""

REFERENCE_OPTION_ORDER: Final[dict[str, tuple[str, ...]]] = {
    "dk.solos": (
        "solo_queen",
        "solo_jack",
        "solo_clubs",
        "solo_spades",
        "solo_hearts",
        "solo_diamonds",
        "solo_fleshless",
        "solo_aces",
        "solo_10s",
        "solo_king",
        "solo_9s",
        "solo_picture",
        "solo_noble_brothel",
        "solo_monastery",
        "solo_brothel",
        "solo_pure_clubs",
        "solo_pure_spades",
        "solo_pure_hearts",
        "solo_pure_diamonds",
        "solo_null",
        "solo_boneless",
    ),
}
"""The order in which the reference server lists an ``active`` rule's options (its client shows
them in that order): for ``dk.solos`` the defaults first, then the rest, not the priority order
SOLO_ORDER of §6.2 that the engine keeps. **Decision (ours)**, docs/protocols/cg.md."""

_TYPES: Final = {"bool": "bool", "choice": "select", "list": "active", "int": "number", "float": "number"}


def wire_key(rule: Rule) -> str:
    return f"dk.{rule.setting.name}"


RULES_BY_KEY: Final[dict[str, Rule]] = {wire_key(rule): rule for rule in RULES}


def validator(rule: Rule) -> dict[str, Any]:
    setting = rule.setting
    entry: dict[str, Any] = {
        "type": _TYPES[setting.kind],
        "default": list(setting.default) if isinstance(setting.default, list) else setting.default,
        "requirements": {f"dk.{name}": list(allowed) for name, allowed in rule.requires.items()},
    }
    if setting.kind == "choice":
        entry["options"] = list(setting.choices)
    elif setting.kind == "list":
        ordered = REFERENCE_OPTION_ORDER.get(wire_key(rule), rule.options)
        assert sorted(ordered) == sorted(rule.options), f"{wire_key(rule)}: other options on the wire"
        entry["options"] = list(ordered)
    elif setting.kind in ("int", "float"):
        entry["min"], entry["max"], entry["step"] = setting.low, setting.high, 1
    return entry


def validators(flavor: str) -> dict[str, dict[str, Any]]:
    """Every validator a connection of ``flavor`` may see (33 vanilla, 37 gamehall)."""
    return {wire_key(r): validator(r) for r in RULES if flavor == "gamehall" or not r.ours}


def defaults(variant: str = "c") -> dict[str, Any]:
    """The initial ``gamerules`` of a lobby of ``variant``."""
    values: dict[str, Any] = {
        wire_key(r): list(r.setting.default) if isinstance(r.setting.default, list) else r.setting.default
        for r in RULES
    }
    values.update(VARIANTS.get(variant, {}))
    return values


def for_flavor(rules: Mapping[str, Any], flavor: str) -> dict[str, Any]:
    """``rules`` without our 4 extension keys for a vanilla connection."""
    return {k: v for k, v in rules.items() if flavor == "gamehall" or not _is_ours(k)}


def _is_ours(key: str) -> bool:
    rule = RULES_BY_KEY.get(key)
    return rule is not None and rule.ours


def accepts(rule: Rule, value: Any) -> bool:
    """Whether ``value`` passes the rule's validator."""
    setting = rule.setting
    if setting.kind == "bool":
        return isinstance(value, bool)
    if setting.kind == "choice":
        return isinstance(value, str) and value in setting.choices
    if setting.kind == "list":
        return isinstance(value, list) and all(isinstance(v, str) and v in rule.options for v in value)
    if setting.kind in ("int", "float"):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        low = setting.low if setting.low is not None else value
        high = setting.high if setting.high is not None else value
        return low <= value <= high and float(value).is_integer()
    return False


def checked(key: str, value: Any) -> Any | None:
    """The value to store for ``key`` (the default when refused), or ``None`` for unknown keys."""
    rule = RULES_BY_KEY.get(key)
    if rule is None:
        return None
    if accepts(rule, value):
        return int(value) if rule.setting.kind == "int" else value
    default = rule.setting.default
    return list(default) if isinstance(default, list) else default


def engine_settings(rules: Mapping[str, Any]) -> dict[str, Any]:
    """The table settings (``heart10``...) for the hall room, from the lobby's ``gamerules``."""
    return {RULES_BY_KEY[key].setting.name: value for key, value in rules.items() if key in RULES_BY_KEY}


def wire_rules(engine_rules: Mapping[str, Any]) -> dict[str, Any]:
    """The game's effective rules by their wire names (``game.start.gamerules``)."""
    return {wire_key(r): engine_rules[r.setting.name] for r in RULES if r.setting.name in engine_rules}
