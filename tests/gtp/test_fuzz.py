"""Hypothesis fuzzing of the GTP dispatcher: no input makes a traceback escape, every reply is well framed,
a failed command never changes the game, no number breaks a later genmove, and loadsgf of a damaged record
only refuses it."""

from __future__ import annotations

import random
import re
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from keima.ai.standin import PolicyPlayer
from keima.gtp_engine import GtpEngine

CORPUS = Path(__file__).resolve().parent.parent / "data" / "sgf"

REPLY = re.compile(r"[=?](\d+)?( [^\n]*)?(\n[^\n]+)*\n\n")

NAMES = sorted(GtpEngine(PolicyPlayer(0), dead_estimator=lambda game: frozenset()).commands) + [
    "frobnicate", "PLAY", "Genmove", "", "é", "kgs-", "12"
]
WORDS = st.one_of(
    st.sampled_from(["b", "w", "black", "white", "B", "x", "pass", "PASS", "resign", "alive", "dead", "seki",
                     "none", "absolute", "byoyomi", "canadian", "chinese", "aga", "japanese", "new_zealand",
                     "french", "tromp-taylor", "nz", "egc2011", "-1", "0", "1", "2", "3", "5", "9", "10", "26",
                     "7.5", "nan", "inf", "1e400", "#", "i9", "Z25", "t19"]),
    st.builds(lambda c, r: f"{c}{r}", st.sampled_from("ABCDEFGHJKabcdefghjz"), st.integers(-1, 12)),
    st.text(min_size=1, max_size=6).filter(lambda t: not t.isspace()),
)


@st.composite
def command_lines(draw: st.DrawFn) -> str:
    name = draw(st.sampled_from(NAMES))
    args = draw(st.lists(WORDS, max_size=4))
    if name == "printsgf":
        args = []  # printsgf FILE writes a file: keep the fuzzer from littering the working directory
    cmd_id = draw(st.one_of(st.none(), st.integers(0, 10**6)))
    parts = ([str(cmd_id)] if cmd_id is not None else []) + [name, *args]
    sep = draw(st.sampled_from([" ", "\t", "  "]))
    return sep.join(parts)


def check_reply(line: str, reply: str | None) -> None:
    if reply is None:
        return
    assert REPLY.fullmatch(reply), (line, reply)
    # With a sound player and estimator an internal error would be a bug of the engine.
    assert "internal error" not in reply, (line, reply)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=80))
def test_arbitrary_text_never_escapes(line: str) -> None:
    engine = GtpEngine(PolicyPlayer(0), size=9, dead_estimator=lambda game: frozenset())
    reply, _quit = engine.handle_line(line)
    check_reply(line, reply)
    assert engine.handle_line("name")[0] == "= keima\n\n"


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(command_lines(), min_size=1, max_size=25), st.integers(0, 1000))
def test_command_sequences_keep_the_engine_and_game_sound(lines: list[str], seed: int) -> None:
    engine = GtpEngine(PolicyPlayer(seed), size=7, dead_estimator=lambda game: frozenset())
    for line in lines:
        before = engine.game
        events = list(before.events)
        reply, _quit = engine.handle_line(line)
        check_reply(line, reply)
        if reply is not None and reply.startswith("?"):
            # A failed command loses nothing: same game object, same history.
            assert engine.game is before and engine.game.events == events, (line, reply)
        engine.game.check_consistency()
    assert engine.handle_line("protocol_version")[0] == "= 2\n\n"


# Numbers as a hostile controller could send them: huge, tiny, negative, exponents, specials, odd spellings.
NUMBERS = st.one_of(
    st.integers(-(10**12), 10**12).map(str),
    st.sampled_from(["9" * 400, "-" + "9" * 5000, "1e308", "1e309", "-1e400", "nan", "-inf", "+7.5", "7.", ".5",
                     "1_0", "0x10", "١٠", "1e-400", "00000000000000000000000000009", "0.0000001"]),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
)
NUMERIC_COMMANDS = [
    ("time_settings", 3), ("time_left b", 2), ("time_left w", 2), ("kgs-time_settings absolute", 1),
    ("kgs-time_settings byoyomi", 3), ("kgs-time_settings canadian", 3), ("komi", 1), ("boardsize", 1),
    ("fixed_handicap", 1), ("place_free_handicap", 1), ("loadsgf missing.sgf", 1),
]


@st.composite
def numeric_lines(draw: st.DrawFn) -> str:
    name, count = draw(st.sampled_from(NUMERIC_COMMANDS))
    return " ".join([name, *(draw(NUMBERS) for _ in range(count))])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(numeric_lines(), min_size=1, max_size=6))
def test_numbers_never_break_a_later_genmove(lines: list[str]) -> None:
    # Whatever numbers were accepted or refused, the engine still chooses a move (before the bounds, a
    # 400-digit stone count was accepted and every genmove then failed with an OverflowError).
    engine = GtpEngine(PolicyPlayer(0), size=9, dead_estimator=lambda game: frozenset())
    for line in lines:
        reply, _quit = engine.handle_line(line)
        check_reply(line, reply)
    for color in ("b", "w"):
        reply, _quit = engine.handle_line(f"genmove {color}")
        check_reply("genmove", reply)
        assert reply is not None and reply.startswith("= "), reply
    engine.game.check_consistency()


def test_loadsgf_of_mutated_records(tmp_path: Path) -> None:
    # 300 mutated corpus records through GTP loadsgf: each is loaded or refused with "? cannot load file".
    rng = random.Random(14)
    corpus = [p.read_bytes() for p in sorted(CORPUS.glob("*.sgf"))] + [p.read_bytes() for p in sorted(CORPUS.glob("bad/*.sgf"))]
    path = tmp_path / "fuzz.sgf"
    engine = GtpEngine(PolicyPlayer(0), size=9, dead_estimator=lambda game: frozenset())
    for _ in range(300):
        data = bytearray(rng.choice(corpus))
        for _ in range(rng.randint(0, 4)):
            pos = rng.randrange(len(data) + 1)
            if rng.random() < 0.5:
                del data[pos : pos + rng.randint(1, 20)]
            else:
                data[pos:pos] = rng.choice([b"[", b"]", b"(", b";", b"B[aa]", b"AB[aa:ss]", b"\x00", b"KM[1e999]"])
        path.write_bytes(bytes(data))
        line = f"loadsgf {path}" + (f" {rng.randint(1, 400)}" if rng.random() < 0.3 else "")
        reply, _quit = engine.handle_line(line)
        check_reply(line, reply)
        assert reply is not None and (reply == "=\n\n" or reply.startswith("? cannot load file")), reply
        engine.game.check_consistency()
