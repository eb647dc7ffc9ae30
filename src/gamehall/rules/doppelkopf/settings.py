"""The rule keys of a Doppelkopf table (note §6.6) and the table's timing settings (§8).

The note names rules ``dk.<name>``; a setting here is the part after ``dk.`` (``dk.heart10`` is
``heart10``), and :data:`RULE_KEYS` maps the dotted names both ways for the cg dialogue.
Values keep the note's spelling: ``"None"`` is the *string* None, ``dk.buck_amount`` is a string.

Two checks a single :class:`Setting` cannot express live here as well:

* ``"active"`` rules (lists) may only hold their listed options (:func:`check_config`);
* a rule whose *requirements* are unmet is played at its default (the note's "effective value",
  :func:`effective_rules`), whatever was stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from gamehall.rules._config import ConfigSchema, Setting
from gamehall.rules._core import JSON, ConfigError
from gamehall.rules.doppelkopf.cards import SOLO_ORDER
from gamehall.rules.doppelkopf.resume import parse_resume

NONE = "None"
"""The note's "no value" for select rules: a string, as on the wire."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One ``dk.*`` rule: its setting plus the note's requirements ``{rule: allowed values}``."""

    setting: Setting
    requires: Mapping[str, tuple[JSON, ...]] = field(default_factory=dict)
    options: tuple[str, ...] = ()
    ours: bool = False
    """True for the 4 gamehall rules (misplay and penalties), sent to gamehall clients only."""


def _select(name: str, default: str, options: tuple[str, ...], help_text: str, **kw: Any) -> Rule:
    return Rule(Setting(name, default, "choice", choices=options, help=help_text), **kw)


def _flag(name: str, default: bool, help_text: str, **kw: Any) -> Rule:
    return Rule(Setting(name, default, "bool", help=help_text), **kw)


def _active(name: str, default: list[str], options: tuple[str, ...], help_text: str, **kw: Any) -> Rule:
    # the options are the setting's choices too, so the browser's form offers them as boxes to tick
    return Rule(Setting(name, default, "list", choices=options, help=help_text), options=options, **kw)


HEART10_ON = {"heart10": (True,)}
PENALIZE = {"misplay": ("penalize",)}
BUCK_ON = {"buck_round": ("succession", "parallel")}
THROW_ON = {"throw": ("reservation", "throw")}

RULES: tuple[Rule, ...] = (
    _flag("heart10", True, "The ♥10 (Dulle) is the highest trump."),
    _select(
        "heart10_prio", "first", ("first", "second"), "Which of two ♥10 in a trick wins.", requires=HEART10_ON
    ),
    _select(
        "heart10_lasttrick",
        "first",
        ("first", "second"),
        "Which of two ♥10 wins the last trick.",
        requires=HEART10_ON,
    ),
    _flag("doppelkopf", True, "Extra point for a trick of 40 eyes or more.", requires={}),
    _flag("fox", True, "Extra point for catching an opponent's ♦A.", requires={}),
    _flag(
        "fox_lasttrick",
        False,
        "Extra point when a ♦A wins the last trick.",
        requires={"fox": (True,), "pigs": (NONE,)},
    ),
    _select(
        "pigs",
        NONE,
        (NONE, "one_first", "one_on_play", "one_on_fox", "two_reservation", "two_on_play"),
        "Both ♦A in one hand become the highest trumps.",
        requires={"fox": (True,), "fox_lasttrick": (False,)},
    ),
    _select(
        "superpigs",
        NONE,
        (NONE, "reservation", "on_pig", "on_play"),
        "Both trump 9s (or Ks) in one hand rank above the pigs.",
        requires={"fox": (True,), "pigs": ("two_reservation", "two_on_play"), "joker": (NONE,)},
    ),
    _flag("charlie", True, "Extra point when a ♣J wins the last trick.", requires={}),
    _flag(
        "charlie_broken",
        False,
        "Extra point for catching an opponent's ♣J in the last trick.",
        requires={"charlie": (True,), "jane": (False,)},
    ),
    _flag(
        "jane",
        False,
        "Extra point when a ♦Q catches an opponent's ♣J in the last trick.",
        requires={"charlie": (True,), "charlie_broken": (False,)},
    ),
    _select(
        "charlie_prio",
        "first",
        ("first", "second"),
        "Which of two ♣J wins the last trick.",
        requires={"charlie": (True,)},
    ),
    _select(
        "without9",
        "with_all",
        ("with_all", "with_four", "without"),
        "Play with 48, 44 or 40 cards.",
        requires={},
    ),
    _flag("heart_trick", False, "Extra point for a trick of four plain hearts.", requires={}),
    _flag(
        "sec_black_trick",
        False,
        "Extra point for the second trick of four plain ♠ (or ♣).",
        requires={"without9": ("with_all",)},
    ),
    _select(
        "joker",
        NONE,
        (NONE, "over_h10", "over_pigs"),
        "One ♦9 (♦K) becomes a joker trump.",
        requires={"superpigs": (NONE,)},
    ),
    _flag("hobgoblin", False, "Extra point when ♠Q wins a trick holding the ♠K.", requires={}),
    _select(
        "poverty",
        NONE,
        (NONE, "sell", "circulate", "circulate_duty"),
        "A hand with at most 3 trumps may give them away.",
        requires={},
    ),
    _select(
        "poverty_consequence",
        NONE,
        (NONE, "redeal", "black_sow", "ramsch"),
        "What happens when nobody takes a poverty.",
        requires={"poverty": ("sell", "circulate")},
    ),
    _select(
        "throw", NONE, (NONE, "reservation", "throw"), "When a bad hand may void the round.", requires={}
    ),
    _active(
        "throw_cases",
        [],
        ("5_9", "5_k", "4_9+4_k", "9_all_c", "k_all_c", "7full", "t<hj", "t<dj"),
        "The hands that may be thrown.",
        requires=THROW_ON,
    ),
    _select(
        "coward",
        NONE,
        (NONE, "210_no_re", "240_no_u90"),
        "Winning big without announcing loses.",
        requires={},
    ),
    _select(
        "wedding", "3_trick", (NONE, "3_trick", "wish_trick"), "How a wedding finds its partner.", requires={}
    ),
    _flag("repeat_game", False, "A round worth 0 or less is replayed.", requires={}),
    _select("re_kontra", "+2", ("+2", "*2", "*2_extra"), "What re and kontra add to the value.", requires={}),
    _select(
        "buck_round", NONE, (NONE, "succession", "parallel"), "Buck rounds double the points.", requires={}
    ),
    _active(
        "buck_cause",
        [],
        ("4hearts", "draw", "0points", "re_kontra_lost", "solo_lost"),
        "What starts buck rounds.",
        requires=BUCK_ON,
    ),
    _select("buck_amount", "4", ("1", "2", "3", "4"), "Buck rounds added per cause.", requires=BUCK_ON),
    _flag("solo_shift_h10", False, "In colour solos the ♥10 role moves to another 10.", requires=HEART10_ON),
    _flag("solist_begins", False, "The soloist leads the first trick.", requires={}),
    _select("solo_prio", "first", ("first", "prio"), "Which of several solos is played.", requires={}),
    _active(
        "solos",
        [
            "solo_queen",
            "solo_jack",
            "solo_clubs",
            "solo_spades",
            "solo_hearts",
            "solo_diamonds",
            "solo_fleshless",
        ],
        SOLO_ORDER,
        "The solos that may be announced.",
        requires={},
    ),
    _flag("open_cards", False, "Every card is shown to everyone.", requires={}),
    _select(
        "misplay",
        "refuse",
        ("refuse", "penalize"),
        "Refuse illegal moves, or accept and let them be denounced.",
        requires={},
        ours=True,
    ),
    Rule(
        Setting("penalty_points", 3, "int", 0, 30, help="Points the punished player loses."),
        requires=PENALIZE,
        ours=True,
    ),
    Rule(
        Setting("penalty_bonus", 1, "int", 0, 10, help="Points every other player gains on a penalty."),
        requires=PENALIZE,
        ours=True,
    ),
    _select(
        "penalty_abort",
        "none",
        ("none", "round", "game"),
        "What a guilty verdict aborts.",
        requires=PENALIZE,
        ours=True,
    ),
)

RULES_BY_NAME: dict[str, Rule] = {rule.setting.name: rule for rule in RULES}

RULE_KEYS: dict[str, str] = {f"dk.{rule.setting.name}": rule.setting.name for rule in RULES}
"""The note's dotted rule key -> our setting name (``"dk.heart10"`` -> ``"heart10"``)."""

RESUME_MAX = 1_000_000
"""A loaded game's carry-over (points and one summary row per played round) is set by the
server from a cg save, never typed by a player; still bounded, like every setting."""

TABLE_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "turn_timeout_s",
        60.0,
        "float",
        1,
        3600,
        help="Seconds a seat has for a card, a question or readiness before its default move.",
    ),
    Setting(
        "complaint_timeout_s",
        60.0,
        "float",
        1,
        3600,
        help="Seconds the accuser has to pick the illegal move (then cancelled).",
    ),
    Setting(
        "vote_timeout_s",
        60.0,
        "float",
        1,
        3600,
        help="Seconds for an accusation vote (no) and the end-of-round vote (continue).",
    ),
    Setting("rejoin_grace", 300, "int", 0, 3600, help="Seconds a dropped seat is held."),
    Setting(
        "deal_interval_s",
        1.0,
        "float",
        0,
        10,
        help="cg wire pacing: seconds between the 16 dealing bursts (not a rule; the engine ignores it).",
    ),
    Setting(
        "trick_close_delay_s",
        1.0,
        "float",
        0,
        10,
        help="cg wire pacing: seconds a full trick stays on the table before it is taken.",
    ),
    Setting(
        "loading_timeout_s",
        10.0,
        "float",
        0,
        120,
        help="cg: seconds to wait for a client's game.start{} (cards created) before dealing; 0 = no wait.",
    ),
    Setting(
        "resume",
        "",
        "str",
        high=RESUME_MAX,
        help="A loaded game's carried-over points and rows (set by cg game.load; empty = a new game).",
        internal=True,
    ),
)

SCHEMA = ConfigSchema("doppelkopf", [rule.setting for rule in RULES] + list(TABLE_SETTINGS))


def check_config(given: Mapping[str, Any]) -> dict[str, JSON]:
    """A complete, valid table config: defaults filled in, every value checked, list rules
    holding only their options.

    Raises:
        ConfigError: unknown key, bad value, or an unknown option in a list rule.
    """
    config = SCHEMA.validate(given)
    parse_resume(str(config["resume"]))
    for rule in RULES:
        if rule.options:
            value = config[rule.setting.name]
            assert isinstance(value, list)
            unknown = [item for item in value if item not in rule.options]
            if unknown:
                raise ConfigError(f"{rule.setting.name}: unknown option(s) {unknown}")
    return config


def effective_rules(config: Mapping[str, JSON]) -> dict[str, JSON]:
    """The values a game plays with: a rule whose requirement is unmet (judged on the stored
    values) is played at its default. Frozen at the start of the game."""
    if SCHEMA.settings.keys() <= config.keys():  # complete (check_config's output): no defaults
        effective = dict(config)
    else:
        effective = dict(SCHEMA.defaults())
        effective.update(config)
    for rule in RULES:
        for other, allowed in rule.requires.items():
            if config.get(other, RULES_BY_NAME[other].setting.default) not in allowed:
                effective[rule.setting.name] = RULES_BY_NAME[rule.setting.name].setting.default
                break
    return effective


SCHEMA.present(
    {
        "turn_timeout_s": (
            "Timing",
            "Seconds per move",
            "Time for a card, a question or readiness before the default move.",
        ),
        "complaint_timeout_s": (
            "Timing",
            "Seconds to name a misplay",
            "Time the accuser has to pick the illegal move.",
        ),
        "vote_timeout_s": (
            "Timing",
            "Seconds to vote",
            "Time for an accusation vote and the end-of-round vote.",
        ),
        "without9": ("Cards", "Nines in the deck", "Play with 48, 44 or 40 cards."),
        "heart10": ("Cards", "♥10 (Dulle) is the top trump", "The ♥10 ranks above every other trump."),
        "heart10_prio": ("Cards", "Two ♥10 in a trick", "Which of two ♥10 in one trick wins."),
        "heart10_lasttrick": ("Cards", "Two ♥10 in the last trick", "Which of two ♥10 wins the last trick."),
        "solo_shift_h10": (
            "Cards",
            "♥10 role moves in colour solos",
            "In a colour solo the role of the ♥10 moves to that suit's 10.",
        ),
        "pigs": ("Cards", "Pigs (Schweinchen)", "Both ♦A in one hand become the highest trumps."),
        "superpigs": ("Cards", "Super pigs", "Both trump 9s (or Ks) in one hand rank above the pigs."),
        "joker": ("Cards", "Joker", "One ♦9 (♦K) becomes a joker trump."),
        "doppelkopf": (
            "Extra points",
            "Doppelkopf (40 eyes)",
            "An extra point for a trick worth 40 eyes or more.",
        ),
        "fox": ("Extra points", "Fox (Fuchs)", "An extra point for catching an opponent's ♦A."),
        "fox_lasttrick": (
            "Extra points",
            "Fox wins the last trick",
            "An extra point when a ♦A wins the last trick.",
        ),
        "charlie": ("Extra points", "Charlie (Karlchen)", "An extra point when a ♣J wins the last trick."),
        "charlie_broken": (
            "Extra points",
            "Charlie caught",
            "An extra point for catching an opponent's ♣J in the last trick.",
        ),
        "jane": (
            "Extra points",
            "Jane",
            "An extra point when a ♦Q catches an opponent's ♣J in the last trick.",
        ),
        "charlie_prio": ("Extra points", "Two ♣J in the last trick", "Which of two ♣J wins the last trick."),
        "heart_trick": ("Extra points", "Heart trick", "An extra point for a trick of four plain hearts."),
        "sec_black_trick": (
            "Extra points",
            "Second black trick",
            "An extra point for the second trick of four plain ♠ (or ♣).",
        ),
        "hobgoblin": ("Extra points", "Hobgoblin", "An extra point when the ♠Q wins a trick holding the ♠K."),
        "wedding": ("Reservations", "Wedding", "How a player holding both ♣Q finds a partner."),
        "poverty": ("Reservations", "Poverty", "A hand with at most 3 trumps may give them away."),
        "poverty_consequence": (
            "Reservations",
            "Poverty nobody takes",
            "What happens when nobody takes a poverty.",
        ),
        "throw": ("Reservations", "Throwing a bad hand", "When a bad hand may void the round."),
        "throw_cases": (
            "Reservations",
            "Hands that may be thrown",
            "Which hands count as bad enough to throw.",
        ),
        "solos": ("Solos", "Solos allowed", "The solos that may be announced."),
        "solo_prio": ("Solos", "Several solos", "Which of several announced solos is played."),
        "solist_begins": ("Solos", "Soloist leads", "The soloist leads the first trick."),
        "re_kontra": ("Scoring", "Re and Kontra", "What announcing Re or Kontra does to the round's value."),
        "coward": ("Scoring", "Coward rule", "Winning big without announcing loses."),
        "repeat_game": (
            "Scoring",
            "Replay worthless rounds",
            "A round worth 0 points or less is dealt again.",
        ),
        "buck_round": ("Scoring", "Buck rounds (Bockrunden)", "Buck rounds double the points."),
        "buck_cause": ("Scoring", "What starts buck rounds", "The events that add buck rounds."),
        "buck_amount": ("Scoring", "Buck rounds per cause", "How many buck rounds each cause adds."),
        "open_cards": ("Scoring", "Open cards", "Every card is shown to everyone (for learning)."),
        "misplay": (
            "Misplays",
            "Illegal moves",
            "Refuse them, or accept them and let the others denounce them.",
        ),
        "penalty_points": ("Misplays", "Penalty", "Points the punished player loses."),
        "penalty_bonus": (
            "Misplays",
            "Bonus for the others",
            "Points every other player gains on a penalty.",
        ),
        "penalty_abort": ("Misplays", "A guilty verdict ends", "What a guilty verdict aborts."),
    },
    server=("rejoin_grace", "deal_interval_s", "trick_close_delay_s", "loading_timeout_s"),
    choice_labels={
        "heart10_prio": {"first": "The first played", "second": "The second played"},
        "heart10_lasttrick": {"first": "The first played", "second": "The second played"},
        "charlie_prio": {"first": "The first played", "second": "The second played"},
        "without9": {
            "with_all": "All nines (48 cards)",
            "with_four": "Four nines (44 cards)",
            "without": "No nines (40 cards)",
        },
        "pigs": {
            NONE: "Off",
            "one_first": "One pig, the first played",
            "one_on_play": "One pig, said when played",
            "one_on_fox": "One pig, on the fox",
            "two_reservation": "Both, as a reservation",
            "two_on_play": "Both, said when played",
        },
        "superpigs": {
            NONE: "Off",
            "reservation": "As a reservation",
            "on_pig": "On the pig",
            "on_play": "Said when played",
        },
        "joker": {NONE: "Off", "over_h10": "Above the ♥10", "over_pigs": "Above the pigs"},
        "poverty": {
            NONE: "Off",
            "sell": "Sold",
            "circulate": "Circulated",
            "circulate_duty": "Circulated, must be taken",
        },
        "poverty_consequence": {
            NONE: "Nothing",
            "redeal": "Redeal",
            "black_sow": "Black sow",
            "ramsch": "Ramsch",
        },
        "throw": {NONE: "Never", "reservation": "As a reservation", "throw": "Before the reservations"},
        "coward": {NONE: "Off", "210_no_re": "210 without Re", "240_no_u90": "240 without 'no 90'"},
        "wedding": {
            NONE: "Off",
            "3_trick": "Within the first three tricks",
            "wish_trick": "A trick of the bride's choice",
        },
        "re_kontra": {"+2": "Add 2", "*2": "Double", "*2_extra": "Double, extra points too"},
        "buck_round": {NONE: "Off", "succession": "One after another", "parallel": "Stacked"},
        "solo_prio": {"first": "The first announced", "prio": "The highest ranked"},
        "misplay": {"refuse": "Refused", "penalize": "Accepted, may be denounced"},
        "solos": {
            "solo_aces": "Aces solo",
            "solo_10s": "Tens solo",
            "solo_picture": "Picture solo (J, Q, K)",
            "solo_noble_brothel": "Noble brothel (Q, K)",
            "solo_monastery": "Monastery (J, K)",
            "solo_king": "Kings solo",
            "solo_brothel": "Brothel (J, Q)",
            "solo_queen": "Queens solo",
            "solo_jack": "Jacks solo",
            "solo_9s": "Nines solo",
            "solo_clubs": "Clubs solo ♣",
            "solo_spades": "Spades solo ♠",
            "solo_hearts": "Hearts solo ♥",
            "solo_diamonds": "Diamonds solo ♦",
            "solo_pure_clubs": "Pure clubs ♣",
            "solo_pure_spades": "Pure spades ♠",
            "solo_pure_hearts": "Pure hearts ♥",
            "solo_pure_diamonds": "Pure diamonds ♦",
            "solo_fleshless": "Fleshless (aces high, no trumps)",
            "solo_null": "Null (no tricks)",
            "solo_boneless": "Boneless",
        },
        "buck_cause": {
            "4hearts": "A heart trick of four",
            "draw": "A drawn round (120:120)",
            "0points": "A round worth 0",
            "re_kontra_lost": "Re or Kontra lost",
            "solo_lost": "A solo lost",
        },
        "throw_cases": {
            "5_9": "Five nines",
            "5_k": "Five kings",
            "4_9+4_k": "Four nines and four kings",
            "9_all_c": "Nines of all suits",
            "k_all_c": "Kings of all suits",
            "7full": "Seven full cards",
            "t<hj": "No trump above ♥J",
            "t<dj": "No trump above ♦J",
        },
        "penalty_abort": {"none": "Nothing", "round": "The round", "game": "The game"},
    },
)
