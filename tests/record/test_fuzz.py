"""Fuzzing the SGF reader: whatever the input, the only exception that escapes is SgfError, whatever it
accepts can be written and read back, and hostile inputs cost memory in proportion to their size."""

from __future__ import annotations

import random
import tracemalloc

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


# ---------------------------------------------------------------------------------------------------- hostile input


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_any_text_is_a_record_or_an_sgf_error(text: str) -> None:
    # NUL characters, lone surrogates, file-name-like strings: a str is SGF text, and only SgfError comes out.
    check(text)
    check("(;" + text)


# Pieces of hostile records, each repeated many times by the strategy below.
HOSTILE_PIECES = [
    b"AB[aa:ss]",
    b"[aa:ss]",
    b"[aa:ii]",
    b";B[];W[]",
    b";B[ee]",
    b"(;W[dd])",
    b"(;",
    b")",
    b";C[x]",
    b"\\]",
    b"[",
    b"TB[aa:ee]",
    b";AE[aa:ss]",
    b";AB[aa];AE[aa]",
    b";AB[aa:sr];AE[aa:sr]",
    b"PL[W]",
    b"\xb0\xa1",
    b"xx",
]


@st.composite
def hostile(draw: st.DrawFn) -> bytes:
    head = draw(st.sampled_from([b"(;GM[1]FF[4]SZ[19]", b"(;SZ[9]KM[7.5]", b"(;SZ[5]HA[2]", b"(;", b""]))
    parts = [head]
    for _ in range(draw(st.integers(1, 3))):
        parts.append(draw(st.sampled_from(HOSTILE_PIECES)) * draw(st.integers(1, 3000)))
    parts.append(draw(st.sampled_from([b")", b"", b"))", b"])"])))
    return b"".join(parts)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(hostile())
def test_hostile_records_cost_memory_in_proportion_to_their_size(data: bytes) -> None:
    # Repeated rectangles, passes, nesting, variations, setup floods, escapes: the reading stays within 20
    # bytes of memory per input byte (plus the fixed cost of a game), and fails only with SgfError.
    tracemalloc.start()
    try:
        load_record(data)
    except SgfError:
        pass
    finally:
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    assert peak <= 20 * len(data) + 2_000_000, (len(data), peak, data[:80])


def test_seeded_mutations_of_the_corpus() -> None:
    # A fixed-seed mutation run over the records of the corpus (2,000 inputs), beside Hypothesis's own.
    rng = random.Random(20261123)
    pieces = [b"[", b"]", b"(", b")", b";", b"\\", b"B[aa]", b"AB[aa:ss]", b"HA[9]", b"SZ[26]", b"KM[1e999]", b"\x00"]
    for _ in range(2000):
        data = bytearray(rng.choice(CORPUS_BYTES))
        for _ in range(rng.randint(1, 6)):
            pos = rng.randrange(len(data) + 1)
            op = rng.randrange(4)
            if op == 0:
                del data[pos : pos + rng.randint(1, 30)]
            elif op == 1:
                data[pos:pos] = rng.choice(pieces) * rng.randint(1, 3)
            elif op == 2 and pos < len(data):
                data[pos] = rng.randrange(256)
            else:
                data[pos:pos] = data[rng.randrange(len(data) + 1) :][: rng.randint(1, 200)]
        check(bytes(data))


def test_a_record_stopping_between_free_handicap_stones_is_consistent() -> None:
    # Found by test_mutated_corpus: two of three free handicap stones, the game still in its handicap phase.
    check(b"(;GM[1]FF[4]CA[UTF-8]SZ[13]HA[3]KM[0.5]RU[Chinese]PB[ite];B[dj];B[jd])")
