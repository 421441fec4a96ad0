"""RU values: every ruleset keima can build is written so that it reads back as the same ruleset."""

from __future__ import annotations

import dataclasses
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from keima.record.rulenames import RU_NAMES, parse_ru, ru_value
from keima.rules.ruleset import (
    PRESETS,
    DeadStones,
    HandicapBonus,
    KoRule,
    Placement,
    ResumeFirst,
    RulesError,
    Ruleset,
    ScoringRule,
    SuicideRule,
)

FIELDS_COMPARED = [f.name for f in dataclasses.fields(Ruleset) if f.name not in ("name", "description")]


def same_rules(a: Ruleset, b: Ruleset) -> bool:
    return all(getattr(a, f) == getattr(b, f) for f in FIELDS_COMPARED)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_use_their_usual_names(name: str) -> None:
    assert ru_value(PRESETS[name]) == RU_NAMES[name]
    assert parse_ru(RU_NAMES[name]) == PRESETS[name]


rulesets = st.builds(
    lambda base, **changes: PRESETS[base].replace(**changes),
    st.sampled_from(sorted(PRESETS)),
    ko=st.sampled_from(get_args(KoRule)),
    suicide=st.sampled_from(get_args(SuicideRule)),
    scoring=st.sampled_from(get_args(ScoringRule)),
    seki_eyes_count=st.booleans(),
    pass_stones=st.booleans(),
    white_passes_last=st.booleans(),
    handicap_bonus=st.sampled_from(get_args(HandicapBonus)),
    handicap_placement=st.sampled_from(get_args(Placement)),
    default_komi=st.integers(-20, 20).map(lambda k: k / 2),
    handicap_komi=st.one_of(st.none(), st.integers(-4, 4).map(lambda k: k / 2)),
    dead_stones=st.sampled_from(get_args(DeadStones)),
    resume_first=st.sampled_from(get_args(ResumeFirst)),
    cycle_no_result=st.booleans(),
)


@given(rulesets)
def test_any_ruleset_round_trips(rules: Ruleset) -> None:
    assert same_rules(parse_ru(ru_value(rules)), rules)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "martian",
        "keima:french,ko=sideways",
        "keima:french,speed=9",
        "keima:french,pass_stones=maybe",
        "{not json",
        "[1, 2]",
        '{"ko": "WEIRD", "scoring": "AREA"}',
        "keima:nowhere",
    ],
)
def test_bad_names_raise_rules_error(text: str) -> None:
    with pytest.raises(RulesError):
        parse_ru(text)


def test_katago_json_form() -> None:
    rules = parse_ru(
        '{"ko":"POSITIONAL","scoring":"AREA","tax":"NONE","suicide":true,"whiteHandicapBonus":"N-1"}'
    )
    assert rules == PRESETS["egc2011"]
