"""Rulesets as data: one frozen dataclass of every parameter that differs between rule texts, and the presets.

The parameters are what the public rule texts differ on (FFG, EGC 2011, AGA, Japanese 1989, Chinese, New Zealand,
Tromp-Taylor; KataGo's ``rules.h`` models rules the same way); docs/rules.md tabulates the presets and cites the
texts. Nothing else in keima tests a ruleset's name: behaviour follows the parameters, so any preset can be
changed field by field (``get_ruleset("french", ko="situational")``).

Choices made where the texts leave room (also in docs/rules.md):

- ``french`` uses natural-situational superko, the closest reading of the FFG rules' repetition section
  (« Répétition »: by placing a stone, a player may not give the board a state it already had after one of his
  own stones). (KataGo maps "french" to AGA's situational superko instead.)
- In handicap games (1 to 9 stones) komi becomes ``handicap_komi`` (0.5 under the presets that give one) unless
  the caller sets komi explicitly.
- ``cycle_no_result``: under Japanese rules a whole-board cycle ends the game without result. keima declares it
  when the same board with the same player to move occurs for the third time, so that each player has had a full
  cycle in which to deviate.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, get_args

KoRule = Literal["simple", "positional", "situational", "natural-situational"]
SuicideRule = Literal["forbidden", "multi-stone"]
ScoringRule = Literal["area", "territory"]
HandicapBonus = Literal["none", "n-1", "n"]
Placement = Literal["fixed", "free", "either"]
DeadStones = Literal["agreement", "none"]
ResumeFirst = Literal["last-passer-opponent", "requester-opponent"]


class RulesError(ValueError):
    """A ruleset, parameter or game setting that keima cannot accept (the message says which and why)."""


@dataclass(frozen=True, slots=True)
class Ruleset:
    """Every rule parameter keima plays by. Use ``PRESETS`` or ``get_ruleset``; ``replace`` makes variants."""

    name: str
    ko: KoRule
    suicide: SuicideRule
    scoring: ScoringRule
    seki_eyes_count: bool
    pass_stones: bool
    white_passes_last: bool
    handicap_bonus: HandicapBonus
    handicap_placement: Placement
    default_komi: float
    handicap_komi: float | None
    dead_stones: DeadStones
    resume_first: ResumeFirst
    cycle_no_result: bool
    description: str = ""

    def __post_init__(self) -> None:
        checks: list[tuple[str, object]] = [
            ("ko", KoRule),
            ("suicide", SuicideRule),
            ("scoring", ScoringRule),
            ("handicap_bonus", HandicapBonus),
            ("handicap_placement", Placement),
            ("dead_stones", DeadStones),
            ("resume_first", ResumeFirst),
        ]
        for fname, lit in checks:
            allowed = get_args(lit)
            value = getattr(self, fname)
            if value not in allowed:
                raise RulesError(f"ruleset field {fname!r} must be one of {', '.join(allowed)}, not {value!r}")
        for fname in ("seki_eyes_count", "pass_stones", "white_passes_last", "cycle_no_result"):
            if not isinstance(getattr(self, fname), bool):
                raise RulesError(f"ruleset field {fname!r} must be true or false")
        for fname in ("default_komi", "handicap_komi"):
            value = getattr(self, fname)
            if value is None and fname == "handicap_komi":
                continue
            if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
                raise RulesError(f"ruleset field {fname!r} must be a number, not {value!r}")
            if (value * 2) != int(value * 2):
                raise RulesError(f"ruleset field {fname!r} must be a multiple of 0.5, not {value!r}")

    @property
    def multi_stone_suicide(self) -> bool:
        """True when a play may remove its own chain of two or more stones."""
        return self.suicide == "multi-stone"

    def replace(self, **changes: Any) -> Ruleset:
        """Return a copy with the given fields changed; raise ``RulesError`` for an unknown field or value."""
        names = {f.name for f in dataclasses.fields(self)}
        unknown = sorted(set(changes) - names)
        if unknown:
            raise RulesError(f"unknown ruleset parameter(s): {', '.join(unknown)} (known: {', '.join(sorted(names))})")
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Return the parameters as a JSON-safe dict."""
        return dataclasses.asdict(self)


def _preset(name: str, **kw: Any) -> Ruleset:
    base: dict[str, Any] = dict(
        name=name,
        ko="positional",
        suicide="forbidden",
        scoring="area",
        seki_eyes_count=True,
        pass_stones=False,
        white_passes_last=False,
        handicap_bonus="none",
        handicap_placement="either",
        default_komi=7.5,
        handicap_komi=0.5,
        dead_stones="agreement",
        resume_first="last-passer-opponent",
        cycle_no_result=False,
    )
    base.update(kw)
    return Ruleset(**base)


PRESETS: dict[str, Ruleset] = {
    r.name: r
    for r in (
        _preset(
            "french",
            ko="natural-situational",
            handicap_bonus="n-1",
            description="Fédération Française de Go: area counting (the quick count gives the same result), "
            "natural-situational superko, suicide forbidden, komi 7.5, handicap komi 0.5 plus n-1 points.",
        ),
        _preset(
            "egc2011",
            ko="positional",
            suicide="multi-stone",
            pass_stones=True,
            white_passes_last=True,
            handicap_bonus="n-1",
            description="EGC 2011 (EGF area rules, R. Jasiek's explanations): area counting, equal to territory "
            "counting with pass stones and White passing last; positional superko; multi-stone suicide allowed.",
        ),
        _preset(
            "aga",
            ko="situational",
            pass_stones=True,
            white_passes_last=True,
            handicap_bonus="n-1",
            description="American Go Association: area counting, equal to territory counting with pass stones "
            "and White passing last; situational superko.",
        ),
        _preset(
            "chinese",
            ko="positional",
            handicap_bonus="n",
            handicap_placement="free",
            description="Chinese rules as written: area counting, positional superko, White receives n points "
            "in handicap games.",
        ),
        _preset(
            "japanese",
            ko="simple",
            scoring="territory",
            seki_eyes_count=False,
            handicap_placement="fixed",
            default_komi=6.5,
            resume_first="requester-opponent",
            cycle_no_result=True,
            description="Japanese style: territory minus prisoners, eyes in seki count for nobody, simple ko, "
            "a whole-board cycle ends the game without result.",
        ),
        _preset(
            "new-zealand",
            ko="situational",
            suicide="multi-stone",
            handicap_placement="free",
            default_komi=7.0,
            handicap_komi=None,
            description="New Zealand: area counting, situational superko, multi-stone suicide allowed.",
        ),
        _preset(
            "tromp-taylor",
            ko="positional",
            suicide="multi-stone",
            handicap_placement="free",
            handicap_komi=None,
            dead_stones="none",
            description="Tromp-Taylor: area counting of the final position, every stone alive, positional "
            "superko, multi-stone suicide allowed.",
        ),
    )
}

DEFAULT_RULESET = "french"

_ALIASES = {
    "ffg": "french",
    "france": "french",
    "fr": "french",
    "egc": "egc2011",
    "egc-2011": "egc2011",
    "egf": "egc2011",
    "ing-simplified": "egc2011",
    "american": "aga",
    "bga": "aga",
    "china": "chinese",
    "cn": "chinese",
    "japan": "japanese",
    "jp": "japanese",
    "korean": "japanese",
    "nz": "new-zealand",
    "newzealand": "new-zealand",
    "tt": "tromp-taylor",
    "tromptaylor": "tromp-taylor",
}


def normalise_name(name: str) -> str:
    """Return the preset name a user-written ruleset name refers to (the name itself if unknown)."""
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    if key in PRESETS:
        return key
    return _ALIASES.get(key, _ALIASES.get(key.replace("-", ""), key))


def get_ruleset(rules: str | Ruleset = DEFAULT_RULESET, **overrides: Any) -> Ruleset:
    """Return the preset named ``rules`` (common spellings accepted) or ``rules`` itself, with ``overrides``.

    Raises ``RulesError`` for an unknown name, field or value.
    """
    if isinstance(rules, Ruleset):
        base = rules
    elif isinstance(rules, str):
        key = normalise_name(rules)
        if key not in PRESETS:
            raise RulesError(f"unknown ruleset {rules!r} (known: {', '.join(PRESETS)})")
        base = PRESETS[key]
    else:
        raise RulesError(f"a ruleset is a preset name or a Ruleset, not {type(rules).__name__}")
    return base.replace(**overrides) if overrides else base
