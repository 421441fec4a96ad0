"""The SGF ``RU`` property: reading the names programs write, and writing keima's rulesets back.

Reading accepts the preset spellings of :func:`keima.rules.ruleset.get_ruleset` ("French", "NZ", "AGA",
"Japanese", "Tromp-Taylor"...), a few longer forms seen in files ("Chinese rules", "Japanese (1989)"),
KataGo's compact strings (``koPOSITIONALscoreAREAtaxNONEsui1whbN-1fpok1``) and its JSON form, and the
``keima:`` form written by :func:`ru_value` for rulesets that are not a preset.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields
from typing import Any

from keima.rules.ruleset import PRESETS, RulesError, Ruleset, get_ruleset, normalise_name

#: What keima writes in RU for each preset (the spellings other programs use where there is one).
RU_NAMES: dict[str, str] = {
    "french": "French",
    "egc2011": "EGC2011",
    "aga": "AGA",
    "chinese": "Chinese",
    "japanese": "Japanese",
    "new-zealand": "NZ",
    "tromp-taylor": "Tromp-Taylor",
}

#: The rules names of GTP ``kgs-rules`` (KGS's own command) and the keima preset each selects.
KGS_RULES: dict[str, str] = {
    "chinese": "chinese",
    "aga": "aga",
    "japanese": "japanese",
    "new_zealand": "new-zealand",
}

#: The ``kgs-rules`` name of each keima preset that KGS knows.
KGS_NAMES: dict[str, str] = {preset: kgs for kgs, preset in KGS_RULES.items()}

_KATAGO_RE = re.compile(
    r"^ko(?P<ko>SIMPLE|POSITIONAL|SITUATIONAL|SPIGHT)"
    r"score(?P<score>AREA|TERRITORY)"
    r"(?:tax(?P<tax>NONE|SEKI|ALL))?"
    r"(?:sui(?P<sui>[01]))?"
    r"(?:button(?P<button>[01]))?"
    r"(?:whb(?P<whb>0|N|N-1))?"
    r"(?:fpok(?P<fpok>[01]))?"
    r"(?:komi(?P<komi>-?[0-9.]+))?$",
    re.IGNORECASE,
)

# The fields a KataGo rule string determines; the rest come from the closest preset.
_KATAGO_FIELDS = ("ko", "scoring", "seki_eyes_count", "suicide", "handicap_bonus")
_KO = {"simple": "simple", "positional": "positional", "situational": "situational", "spight": "simple"}
_WHB = {"0": "none", "n": "n", "n-1": "n-1"}

# Words that decorate a rules name without changing it ("Chinese rules", "Japanese (1989)").
_NOISE_RE = re.compile(r"\b(rules?|règles?|regle|\d{4})\b|[()]", re.IGNORECASE)

_EXTRA_NAMES = {
    "ogs-chinese": "chinese",
    "chinese-ogs": "chinese",
    "chinese-kgs": "chinese",
    "stone-scoring": "tromp-taylor",
    "tromp-taylor-rules": "tromp-taylor",
    "japanese-korean": "japanese",
    "aga-button": "aga",
    "french-ffg": "french",
    "ffg-french": "french",
}


def _from_katago(ko: str, score: str, tax: str | None, sui: str | None, whb: str | None) -> Ruleset:
    wanted: dict[str, Any] = {
        "ko": _KO[ko.lower()],
        "scoring": score.lower(),
        "seki_eyes_count": (tax or "NONE").upper() == "NONE",
        "suicide": "multi-stone" if sui == "1" else "forbidden",
        "handicap_bonus": _WHB[(whb or "0").lower()],
    }
    for preset in PRESETS.values():
        if all(getattr(preset, f) == wanted[f] for f in _KATAGO_FIELDS):
            return preset
    base = PRESETS["chinese" if wanted["scoring"] == "area" else "japanese"]
    return base.replace(name=f"{base.name}-variant", **wanted)


def _from_katago_json(data: dict[str, Any]) -> Ruleset:
    ko = str(data.get("ko", "POSITIONAL"))
    score = str(data.get("scoring", data.get("score", "AREA")))
    tax = str(data.get("tax", "NONE"))
    sui = "1" if data.get("suicide", data.get("multiStoneSuicideLegal", False)) else "0"
    whb = str(data.get("whiteHandicapBonus", "0"))
    if ko.upper() not in {"SIMPLE", "POSITIONAL", "SITUATIONAL", "SPIGHT"} or score.upper() not in {
        "AREA",
        "TERRITORY",
    }:
        raise RulesError(f"KataGo rules with ko {ko!r} and scoring {score!r} are not understood")
    if whb.lower() not in _WHB:
        raise RulesError(f"KataGo whiteHandicapBonus {whb!r} is not understood")
    return _from_katago(ko, score, tax, sui, whb)


def _from_keima(text: str) -> Ruleset:
    """Read ``keima:BASE,field=value,...`` (written by :func:`ru_value`)."""
    base_name, *pairs = text.split(",")
    changes: dict[str, Any] = {}
    types = {f.name: f.type for f in fields(Ruleset)}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or key not in types:
            raise RulesError(f"bad ruleset parameter {pair!r}")
        kind = str(types[key])
        value: Any = raw.strip()
        if kind == "bool":
            if value not in ("true", "false"):
                raise RulesError(f"ruleset parameter {key} must be true or false, not {value!r}")
            value = value == "true"
        elif "float" in kind:
            value = None if value == "none" else float(value)
        changes[key] = value
    base = get_ruleset(base_name.strip())
    return base.replace(**changes) if changes else base


def parse_ru(text: str) -> Ruleset:
    """Return the ruleset an SGF ``RU`` value names.

    Raises ``RulesError`` (a ``ValueError``) when the name is not understood.
    """
    raw = text.strip()
    if not raw:
        raise RulesError("empty RU property")
    if raw.lower().startswith("keima:"):
        try:
            return _from_keima(raw[len("keima:") :])
        except ValueError as exc:
            raise RulesError(f"RU[{raw}]: {exc}") from None
    if raw.startswith("{"):
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise RulesError(f"RU[{raw}] is not valid JSON: {exc.msg}") from None
        if not isinstance(data, dict):
            raise RulesError(f"RU[{raw}] is not a KataGo rules object")
        return _from_katago_json(data)
    match = _KATAGO_RE.match(raw)
    if match:
        return _from_katago(match["ko"], match["score"], match["tax"], match["sui"], match["whb"])
    for candidate in (raw, _NOISE_RE.sub(" ", raw)):
        key = normalise_name(candidate)
        key = _EXTRA_NAMES.get(key, key)
        if key in PRESETS:
            return PRESETS[key]
    raise RulesError(f"unknown rules RU[{raw}] (known: {', '.join(RU_NAMES.values())}, KataGo rule strings)")


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def ru_value(ruleset: Ruleset) -> str:
    """Return the ``RU`` value keima writes for ``ruleset``.

    A preset gets its usual name (``French``, ``AGA``, ``NZ``...); any other ruleset is written as
    ``keima:PRESET,field=value,...`` listing the fields that differ from the closest preset, which
    :func:`parse_ru` reads back exactly.
    """
    preset = PRESETS.get(ruleset.name)
    if preset is not None and preset == ruleset:
        return RU_NAMES[ruleset.name]
    compared = [f.name for f in fields(Ruleset) if f.name not in ("name", "description")]

    def distance(p: Ruleset) -> int:
        return sum(getattr(p, f) != getattr(ruleset, f) for f in compared)

    best = min(PRESETS.values(), key=distance)
    if distance(best) == 0:
        return RU_NAMES[best.name]
    diffs = [
        f"{f}={_format_value(getattr(ruleset, f))}"
        for f in compared
        if getattr(best, f) != getattr(ruleset, f)
    ]
    return "keima:" + ",".join([best.name, *diffs])
