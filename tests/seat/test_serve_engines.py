"""``keima serve --engine NAME=COMMAND``: the engines offered as opponents, and the errors for bad specs."""

from __future__ import annotations

import sys

import pytest

from keima.cli import UsageError
from keima.cli.serve import parse_engines


def test_engines_are_read_by_name() -> None:
    spec = f"Fake engine={sys.executable} -c pass"
    assert parse_engines([spec, f"other={sys.executable}"]) == {
        "Fake engine": f"{sys.executable} -c pass", "other": sys.executable}
    assert parse_engines([]) == {}


@pytest.mark.parametrize(("spec", "message"), [
    ("gnugo", "expected NAME=COMMAND"),
    ("=gnugo", "expected NAME=COMMAND"),
    ("GNU Go=", "expected NAME=COMMAND"),
    ("x=/no/such/program --mode gtp", "program not found: /no/such/program"),
    ("x='unclosed", "cannot read the command"),
])
def test_bad_engine_specs_are_named(spec: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_engines([spec])


def test_a_name_given_twice_is_refused() -> None:
    with pytest.raises(UsageError, match="given twice"):
        parse_engines([f"a={sys.executable}", f"a={sys.executable}"])
