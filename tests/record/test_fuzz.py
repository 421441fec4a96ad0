"""Fuzzing the SGF reader: whatever the input, the only exception that escapes is SgfError, and whatever it
accepts can be written and read back."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keima.record import SgfError, dump_sgf, load_record

from .helpers import GOOD

CORPUS_BYTES = [p.read_bytes() for p in GOOD]

# Characters that make up SGF, so that random text often gets past the parser into the property mapping.
SGF_ALPHABET = "();[]\\:\n BWABAWAEHAKMSZPLRETBTWCMARUGMFF abcdefghst019+-.R"


def check(source: bytes | str) -> None:
    try:
        record = load_record(source)
    except SgfError as exc:
        assert str(exc)  # a message, with the position when there is one
        return
    record.game.check_consistency()
    text = dump_sgf(record)
    again = load_record(text)
    assert [m.point for m in again.game.moves] == [m.point for m in record.game.moves]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    check(data)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet=SGF_ALPHABET, max_size=200).map(lambda s: "(;" + s))
def test_sgf_like_text(text: str) -> None:
    check(text)


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(CORPUS_BYTES)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["delete", "insert", "replace", "truncate"]))
        pos = draw(st.integers(0, len(data)))
        if kind == "delete":
            del data[pos : pos + draw(st.integers(1, 20))]
        elif kind == "insert":
            piece = draw(
                st.one_of(
                    st.binary(min_size=1, max_size=8),
                    st.sampled_from(
                        [
                            b"[",
                            b"]",
                            b"(",
                            b")",
                            b";",
                            b"\\",
                            b"B[aa]",
                            b"AB[cc]",
                            b"HA[2]",
                            b"KM[x]",
                            b"W[zz]",
                        ]
                    ),
                )
            )
            data[pos:pos] = piece
        elif kind == "replace" and pos < len(data):
            data[pos] = draw(st.integers(0, 255))
        else:
            del data[pos:]
    return bytes(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_corpus(data: bytes) -> None:
    check(data)
