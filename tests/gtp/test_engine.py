"""The GTP engine as a pure dispatcher: a scripted session, every command, and every kind of bad input."""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable

import pytest

from keima.ai.standin import PolicyPlayer
from keima.gtp_engine import GtpEngine
from keima.record.rulenames import KGS_RULES
from keima.rules import coords
from keima.rules.board import BLACK, WHITE
from keima.rules.game import Game
from keima.rules.ruleset import PRESETS

SESSION = """\
1 protocol_version
2 name
boardsize 7
clear_board
komi 6.5
3 play black D4
4 play white D4
5 play w c3
# a comment line gets no reply

7 frobnicate 3
8 play b
showboard
9 undo
10 final_score
11 final_status_list alive
12 quit
13 name
"""

TRANSCRIPT = """\
=1 2

=2 keima

=

=

=

=3

?4 illegal move

=5

?7 unknown command: frobnicate

?8 play: expected 2 arguments (color vertex), got 1

=
   A B C D E F G
 7 . . . . . . . 7     WHITE (O) has captured 0 stones
 6 . . . . . . . 6     BLACK (X) has captured 0 stones
 5 . . + . + . . 5     komi 6.5, rules french, black to move
 4 . . . X . . . 4
 3 . . O . + . . 3
 2 . . . . . . . 2
 1 . . . . . . . 1
   A B C D E F G

=9

=10 B+42.5

=11 D4

=12

"""


def reply(engine: GtpEngine, line: str) -> str:
    """The reply to one line, without its framing blank line."""
    text, _quit = engine.handle_line(line)
    assert text is not None and text.endswith("\n\n")
    return text[:-2]


def test_scripted_session_transcript(engine: GtpEngine) -> None:
    assert engine.run_script(SESSION) == TRANSCRIPT


def test_required_administrative_commands(engine: GtpEngine) -> None:
    assert reply(engine, "protocol_version") == "= 2"
    assert reply(engine, "name") == "= keima"
    assert reply(engine, "version").startswith("= ")
    assert reply(engine, "known_command genmove") == "= true"
    assert reply(engine, "known_command kgs-genmove_cleanup") == "= true"
    assert reply(engine, "known_command frobnicate") == "= false"
    listed = reply(engine, "list_commands")[2:].split("\n")
    required = {"protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
                "clear_board", "komi", "play", "genmove"}
    extra = {"fixed_handicap", "place_free_handicap", "set_free_handicap", "undo", "final_score",
             "final_status_list", "loadsgf", "printsgf", "showboard", "time_settings", "time_left",
             "kgs-time_settings", "kgs-rules", "keima-set-rules", "keima-get-rules", "kgs-genmove_cleanup"}
    assert required | extra <= set(listed)
    assert all(reply(engine, f"known_command {name}") == "= true" for name in listed)
    text, quit_ = engine.handle_line("5 quit")
    assert (text, quit_) == ("=5\n\n", True)


def test_ignored_lines_get_no_reply(engine: GtpEngine) -> None:
    for line in ("", "   ", "# just a comment", "\t\r"):
        assert engine.handle_line(line) == (None, False)


def test_boardsize_clear_board_and_komi(engine: GtpEngine) -> None:
    assert reply(engine, "boardsize 13") == "="
    assert engine.game.size == 13
    assert reply(engine, "boardsize thirteen") == "? boardsize not an integer: 'thirteen'"
    assert reply(engine, "boardsize 1") == "? unacceptable size 1 (boardsize takes 2 to 25)"
    assert reply(engine, "boardsize 26").startswith("? unacceptable size 26")
    assert reply(engine, "boardsize") == "? boardsize: expected 1 argument (size), got 0"
    assert engine.game.size == 13
    assert reply(engine, "komi 0.5") == "="
    assert engine.game.komi == 0.5
    assert reply(engine, "komi lots") == "? komi: komi must be a number, got 'lots'"
    assert reply(engine, "komi nan") == "? komi: komi must be a number, got 'nan'"
    assert engine.game.komi == 0.5
    reply(engine, "play b d4")
    # komi survives clear_board, and a komi change keeps the moves already played.
    assert reply(engine, "komi 5") == "=" and len(engine.game.moves) == 1 and engine.game.komi == 5
    assert reply(engine, "clear_board") == "="
    assert engine.game.komi == 5 and not engine.game.moves and engine.game.size == 13


def _ko_position(engine: GtpEngine) -> None:
    # Black C4 B3 C2, White D4 E3 D2: White takes at C3, Black captures at D3; C3 is then a ko.
    for line in ("boardsize 5", "play b c4", "play w d4", "play b b3", "play w e3", "play b c2", "play w d2",
                 "play b a5", "play w c3", "play b d3"):
        assert reply(engine, line) == "=", line


@pytest.mark.parametrize(
    "line",
    ["play w c3", "play b d4", "play w z9", "play w c33"],
)
def test_illegal_play_changes_nothing(engine: GtpEngine, line: str) -> None:
    _ko_position(engine)
    before = list(engine.game.events)
    answer = reply(engine, line)
    if "33" in line or "z9" in line:
        assert answer.startswith("? play: invalid coordinate")
    else:
        assert answer == "? illegal move"
    assert engine.game.events == before
    engine.game.check_consistency()


def test_play_syntax_errors_name_the_command(engine: GtpEngine) -> None:
    assert reply(engine, "play purple d4") == "? play: invalid color 'purple' (black, white, b or w)"
    assert reply(engine, "play b i5") == "? play: invalid coordinate 'i5' on a 9x9 board"
    assert reply(engine, "play b d4 extra") == "? play: expected 2 arguments (color vertex), got 3"
    assert reply(engine, "genmove") == "? genmove: expected 1 argument (color), got 0"
    assert reply(engine, "genmove up") == "? genmove: invalid color 'up' (black, white, b or w)"
    assert not engine.game.events


def test_genmove_plays_a_legal_move_and_records_it(engine: GtpEngine) -> None:
    answer = reply(engine, "genmove b")
    vertex = answer[2:]
    point = coords.from_gtp(vertex, 9)
    assert point is not None and engine.game.board.get(point) == BLACK
    assert engine.game.moves[-1].point == point
    # Out of turn is allowed in GTP: Black may be asked again.
    second = coords.from_gtp(reply(engine, "genmove black")[2:], 9)
    assert second is not None and engine.game.board.get(second) == BLACK


def test_reg_genmove_does_not_play(engine: GtpEngine) -> None:
    answer = reply(engine, "reg_genmove w")
    assert answer.startswith("= ") and coords.from_gtp(answer[2:], 9) is not None
    assert not engine.game.moves


class ScriptedPlayer:
    """A player that answers from a list (then passes) and records the seconds it was given."""

    def __init__(self, answers: list[object]) -> None:
        self.answers = answers
        self.seconds: list[float] = []

    def genmove(self, game: Game, color: int, seconds: float) -> object:
        self.seconds.append(seconds)
        answer = self.answers.pop(0) if self.answers else None
        if isinstance(answer, Exception):
            raise answer
        return answer


def test_illegal_or_failing_player_answers_are_replaced_by_a_legal_move(make_engine: Callable[..., GtpEngine]) -> None:
    occupied = coords.from_gtp("D4", 9)
    player = ScriptedPlayer([occupied, -5, "D5", RuntimeError("bot bug"), True])
    engine = make_engine(size=9, player=player)
    reply(engine, "play w d4")
    for _ in range(5):
        answer = reply(engine, "genmove b")
        point = coords.from_gtp(answer[2:], 9)
        assert point is not None and engine.game.board.get(point) == BLACK
    assert len(engine.game.moves) == 6
    engine.game.check_consistency()


def test_player_pass_and_resign(make_engine: Callable[..., GtpEngine]) -> None:
    engine = make_engine(size=9, player=ScriptedPlayer([None, "resign"]))
    assert reply(engine, "genmove b") == "= pass"
    assert reply(engine, "genmove w") == "= resign"
    assert engine.game.result == "B+R"
    # A finished game stays finished: genmove passes, play is refused.
    assert reply(engine, "genmove b") == "= pass"
    assert reply(engine, "play b e5") == "? illegal move"


@pytest.mark.parametrize("rules", sorted(PRESETS))
def test_genmove_never_plays_an_illegal_move(make_engine: Callable[..., GtpEngine], rules: str) -> None:
    engine = make_engine(size=5, rules=rules, player=PolicyPlayer(hash(rules) % 1000))
    shadow = Game(size=5, rules=rules)
    color = BLACK
    for _ in range(80):
        if shadow.phase != "play":
            break
        answer = reply(engine, f"genmove {'b' if color == BLACK else 'w'}")[2:]
        move = coords.from_gtp(answer, 5)
        assert shadow.legality(move, color) is None, (rules, answer)
        shadow.play(move, color)
        color = WHITE if color == BLACK else BLACK
    assert [m.point for m in engine.game.moves] == [m.point for m in shadow.moves]
    engine.game.check_consistency()


def test_undo(engine: GtpEngine) -> None:
    assert reply(engine, "undo") == "? cannot undo"
    reply(engine, "play b e5")
    reply(engine, "play w c3")
    assert reply(engine, "undo") == "="
    assert [m.point for m in engine.game.moves] == [coords.from_gtp("E5", 9)]
    assert engine.game.board.get(coords.from_gtp("C3", 9) or 0) == 0
    assert reply(engine, "undo") == "="
    assert reply(engine, "undo") == "? cannot undo"


def test_fixed_handicap(engine: GtpEngine) -> None:
    assert reply(engine, "fixed_handicap 2") == "= C3 G7"
    assert engine.game.handicap_stones == (coords.from_gtp("C3", 9), coords.from_gtp("G7", 9))
    assert engine.game.to_move == WHITE
    assert reply(engine, "fixed_handicap 3") == "? board not empty (fixed_handicap needs a cleared board)"
    reply(engine, "clear_board")
    assert reply(engine, "fixed_handicap 10") == "? invalid number of stones 10 (fixed_handicap takes 2 to 9)"
    assert reply(engine, "fixed_handicap two") == "? fixed_handicap: the number of stones must be an integer, got 'two'"
    assert reply(engine, "fixed_handicap 9").count(" ") == 9
    reply(engine, "boardsize 5")
    assert reply(engine, "fixed_handicap 2").startswith("? invalid number of stones: fixed handicap needs")


def test_fixed_handicap_under_free_placement_rules(make_engine: Callable[..., GtpEngine]) -> None:
    engine = make_engine(size=9, rules="chinese")
    assert reply(engine, "fixed_handicap 4") == "= C3 G7 C7 G3"
    assert len(engine.game.handicap_stones) == 4 and engine.game.phase == "play"


def test_free_handicap(engine: GtpEngine) -> None:
    answer = reply(engine, "place_free_handicap 3")
    points = [coords.from_gtp(v, 9) for v in answer[2:].split()]
    assert len(points) == 3 and set(engine.game.handicap_stones) == set(points)
    reply(engine, "clear_board")
    assert reply(engine, "set_free_handicap a1 b2 j9") == "="
    assert set(engine.game.handicap_stones) == {coords.from_gtp(v, 9) for v in ("A1", "B2", "J9")}
    assert engine.game.komi == 0.5  # the French handicap komi
    assert reply(engine, "set_free_handicap c3 d4") == "? board not empty (set_free_handicap needs a cleared board)"
    reply(engine, "clear_board")
    assert reply(engine, "set_free_handicap a1 a1").startswith("? bad vertex list")
    assert reply(engine, "set_free_handicap a1").startswith("? bad vertex list")
    assert reply(engine, "set_free_handicap a1 pass").startswith("? bad vertex list")
    assert reply(engine, "set_free_handicap a1 z1").startswith("? set_free_handicap: invalid coordinate")
    assert not engine.game.handicap_stones


def _walls(engine: GtpEngine) -> None:
    # 5x5: Black holds columns A-C, White D-E, with a white stone dead in Black's area at A5.
    reply(engine, "boardsize 5")
    for row in range(1, 6):
        reply(engine, f"play b c{row}")
        reply(engine, f"play w d{row}")
    reply(engine, "play w a5")


def test_final_score_and_status_lists(make_engine: Callable[..., GtpEngine]) -> None:
    a5 = coords.from_gtp("A5", 5)
    assert a5 is not None
    engine = make_engine(size=5, dead_estimator=lambda game: frozenset({a5}) if game.board.get(a5) else frozenset())
    _walls(engine)
    # Area: Black 15 (A5 dead), White 10, komi 7.5.
    assert reply(engine, "final_score") == "= W+2.5"
    assert reply(engine, "final_status_list dead") == "= A5"
    alive = reply(engine, "final_status_list alive")[2:].split("\n")
    assert sorted(alive) == ["C5 C4 C3 C2 C1", "D5 D4 D3 D2 D1"]
    assert reply(engine, "final_status_list seki") == "="
    assert reply(engine, "final_status_list undead").startswith("? final_status_list: unknown status 'undead'")
    assert reply(engine, "final_status_list").startswith("? final_status_list: expected 1 argument")


def test_all_alive_without_an_estimator(make_engine: Callable[..., GtpEngine]) -> None:
    engine = make_engine(size=5)
    _walls(engine)
    # A5 alive: Black 14 (A5 and its neighbours are no territory? A4/B5 border White's A5), White 11.
    expected = engine.game.score(dead=()).result
    assert reply(engine, "final_score") == f"= {expected}"
    assert reply(engine, "final_status_list dead") == "="


def test_failing_estimator_is_an_internal_error_and_the_engine_keeps_running(
    make_engine: Callable[..., GtpEngine],
) -> None:
    def broken(game: Game) -> frozenset[int]:
        raise RuntimeError("estimator exploded")

    engine = make_engine(size=9, dead_estimator=broken)
    assert reply(engine, "final_score") == "? internal error in final_score: RuntimeError: estimator exploded"
    assert reply(engine, "name") == "= keima"


def test_showboard_shows_stones_and_captures(engine: GtpEngine) -> None:
    _ko_position(engine)
    board = reply(engine, "showboard")
    lines = board.split("\n")
    assert lines[0] == "="
    assert lines[1].split() == ["A", "B", "C", "D", "E"]
    assert lines[2].startswith(" 5 X . . . . 5")
    assert lines[4].startswith(" 3 . X . X O 3")
    assert "BLACK (X) has captured 1 stones" in board


def test_after_two_passes_a_pass_changes_nothing_and_a_move_resumes(make_engine: Callable[..., GtpEngine]) -> None:
    c3 = coords.from_gtp("C3", 9)
    engine = make_engine(size=9, player=ScriptedPlayer([None, c3]))
    for line in ("play b e5", "play w pass", "play b pass"):
        reply(engine, line)
    assert engine.game.phase == "scoring"
    events = list(engine.game.events)
    assert reply(engine, "genmove w") == "= pass"
    assert engine.game.events == events and engine.game.phase == "scoring"
    assert reply(engine, "genmove w") == "= C3"
    assert engine.game.phase == "play" and engine.game.board.get(c3 or 0) == WHITE
    assert reply(engine, "play b pass") == "=" and reply(engine, "play w pass") == "="
    assert engine.game.phase == "scoring"


def test_play_after_two_passes_resumes(engine: GtpEngine) -> None:
    for line in ("play b e5", "play w pass", "play b pass"):
        reply(engine, line)
    assert reply(engine, "play w c3") == "="
    assert engine.game.phase == "play" and engine.game.board.get(coords.from_gtp("C3", 9) or 0) == WHITE


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_keima_set_rules_for_every_preset(engine: GtpEngine, name: str) -> None:
    assert reply(engine, f"keima-set-rules {name}") == "="
    assert reply(engine, "keima-get-rules") == f"= {name}"
    assert engine.game.rules.name == name


@pytest.mark.parametrize("kgs", sorted(KGS_RULES))
def test_kgs_rules(engine: GtpEngine, kgs: str) -> None:
    assert reply(engine, f"kgs-rules {kgs}") == "="
    assert reply(engine, "keima-get-rules") == f"= {KGS_RULES[kgs]}"


def test_rules_errors(engine: GtpEngine) -> None:
    assert reply(engine, "kgs-rules ing").startswith("? kgs-rules: unknown rules 'ing'")
    assert reply(engine, "keima-set-rules calvinball").startswith("? keima-set-rules: unknown ruleset 'calvinball'")
    assert reply(engine, "keima-set-rules") == "? keima-set-rules: expected 1 argument (ruleset name), got 0"
    assert reply(engine, "keima-get-rules") == "= french"
    # A game that cannot be replayed under the new rules keeps its rules: fixed handicap under New Zealand.
    reply(engine, "fixed_handicap 2")
    assert reply(engine, "keima-set-rules new-zealand").startswith("? keima-set-rules: the game so far cannot")
    assert reply(engine, "keima-get-rules") == "= french"


def test_rules_change_keeps_the_moves(engine: GtpEngine) -> None:
    reply(engine, "play b e5")
    reply(engine, "play w c3")
    assert reply(engine, "kgs-rules japanese") == "="
    assert len(engine.game.moves) == 2 and engine.game.komi == 6.5


def test_time_commands_set_the_thinking_budget(make_engine: Callable[..., GtpEngine]) -> None:
    player = ScriptedPlayer([])
    engine = make_engine(size=9, player=player, seconds=2.0)
    reply(engine, "genmove b")
    assert player.seconds[-1] == 2.0
    assert reply(engine, "time_settings 0 10 5") == "="
    assert reply(engine, "time_left b 10 5") == "="
    reply(engine, "genmove b")
    assert player.seconds[-1] == pytest.approx(10 / 5 * 0.8 - 0.1)
    assert reply(engine, "kgs-time_settings byoyomi 60 10 3") == "="
    assert reply(engine, "time_left w 8 2") == "="
    reply(engine, "genmove w")
    assert player.seconds[-1] == pytest.approx(8 * 0.8 - 0.1)
    assert reply(engine, "kgs-time_settings none") == "="
    reply(engine, "genmove b")
    assert player.seconds[-1] == 2.0
    assert reply(engine, "kgs-time_settings absolute 300") == "="
    reply(engine, "genmove w")
    assert 0.05 <= player.seconds[-1] < 300 / 12


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("time_settings 1 2", "? time_settings: expected 3 arguments (main_time byo_yomi_time byo_yomi_stones), got 2"),
        ("time_settings a 2 3", "? time_settings: main time must be a number, got 'a'"),
        ("time_settings 1 2 -3", "? time_settings: byo-yomi stones must be 0 to 1000, got -3"),
        ("time_left x 10 0", "? time_left: invalid color 'x' (black, white, b or w)"),
        ("time_left b 10 1.5", "? time_left: stones must be an integer, got '1.5'"),
        ("kgs-time_settings", "? kgs-time_settings: expected a system (none, absolute, byoyomi or canadian)"),
        ("kgs-time_settings hourglass 5", "? kgs-time_settings: unknown time system 'hourglass' (none, absolute, byoyomi or canadian)"),
        ("kgs-time_settings canadian 60 30", "? kgs-time_settings: canadian takes 3 values, got 2"),
    ],
)
def test_time_command_errors(engine: GtpEngine, line: str, message: str) -> None:
    assert reply(engine, line) == message
    assert engine.clock.kind == "none"


def test_printsgf_and_loadsgf_round_trip(engine: GtpEngine, tmp_path: object) -> None:
    for line in ("play b e5", "play w c3", "play b g7", "play w pass"):
        reply(engine, line)
    text = reply(engine, "printsgf")[2:]
    assert text.startswith("(;") and "B[ee]" in text and "W[cg]" in text
    path = f"{tmp_path}/game.sgf"
    assert reply(engine, f"printsgf {path}") == "="
    fresh = GtpEngine(PolicyPlayer(1), dead_estimator=lambda game: frozenset())
    assert reply(fresh, f"loadsgf {path}") == "="
    assert [m.point for m in fresh.game.moves] == [m.point for m in engine.game.moves]
    assert fresh.game.size == 9
    assert reply(fresh, f"loadsgf {path} 3") == "="
    assert [coords.to_gtp(m.point, 9) for m in fresh.game.moves] == ["E5", "C3"]
    # After loading, play continues from the loaded position.
    assert reply(fresh, "play b c3") == "? illegal move"
    assert reply(fresh, "play b d3") == "="


def test_printsgf_writes_a_loaded_record_back_over_its_tree(engine: GtpEngine, tmp_path: object) -> None:
    path = f"{tmp_path}/commented.sgf"
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("(;GM[1]SZ[9]PB[Alice]C[root comment];B[ee]C[first move];W[cc](;B[gg])(;B[gc]C[other]))")
    assert reply(engine, f"loadsgf {path}") == "="
    assert reply(engine, "play w d3") == "="  # the same game goes on: the file's tree is kept around it
    text = reply(engine, "printsgf")[2:]
    assert "PB[Alice]" in text and "C[first move]" in text and "C[other]" in text and "W[dg]" in text
    assert reply(engine, "undo") == "="  # undo builds a new game: it is written as a new record
    text = reply(engine, "printsgf")[2:]
    assert "C[first move]" not in text and "PB[Alice]" not in text
    assert "B[ee]" in text and "W[cc]" in text


def test_version_is_the_package_version(engine: GtpEngine) -> None:
    assert reply(engine, "version") == f"= {importlib.metadata.version('keima')}"
    assert f"AP[keima:{importlib.metadata.version('keima')}]" in reply(engine, "printsgf")


def test_loadsgf_errors_keep_the_game(engine: GtpEngine, tmp_path: object) -> None:
    reply(engine, "play b e5")
    before = list(engine.game.events)
    assert reply(engine, f"loadsgf {tmp_path}/missing.sgf").startswith("? cannot load file")
    bad = f"{tmp_path}/bad.sgf"
    with open(bad, "w", encoding="utf-8") as fh:
        fh.write("(;SZ[9];B[ee];W[ee])")
    assert reply(engine, f"loadsgf {bad}").startswith(f"? cannot load file '{bad}'")
    assert reply(engine, "loadsgf") == "? loadsgf: expected 1 or 2 arguments (file [move_number]), got 0"
    assert reply(engine, f"loadsgf {bad} x").startswith("? loadsgf: the move number must be an integer")
    assert reply(engine, f"loadsgf {bad} 0") == "? loadsgf: the move number must be 1 to 1000000, got 0"
    assert engine.game.events == before


def test_final_status_list_seki(engine: GtpEngine) -> None:
    # A seki like the EGC 2011 explanations' example 6: each side has one eye and they share two liberties.
    #   . X O O .
    #   X X O O O
    #   X X . O O
    #   X X X . O
    #   X X X O O
    reply(engine, "boardsize 5")
    reply(engine, "komi 0")
    for v in ["B5", "A4", "B4", "A3", "B3", "A2", "B2", "C2", "A1", "B1", "C1"]:
        assert reply(engine, f"play b {v}") == "="
    for v in ["C5", "D5", "C4", "D4", "E4", "D3", "E3", "E2", "D1", "E1"]:
        assert reply(engine, f"play w {v}") == "="
    seki = reply(engine, "final_status_list seki")[2:].split("\n")
    assert len(seki) == 2 and {len(line.split()) for line in seki} == {10, 11}
    assert reply(engine, "final_status_list alive") == "="
    assert reply(engine, "final_status_list dead") == "="
    assert reply(engine, "final_score") == "= B+1"


def test_loadsgf_honours_the_record_charset(engine: GtpEngine, tmp_path: object) -> None:
    path = f"{tmp_path}/latin1.sgf"
    with open(path, "wb") as fh:
        fh.write("(;FF[4]CA[ISO-8859-1]SZ[9]PB[Stéphane];B[ee];W[cc])".encode("latin-1"))
    assert reply(engine, f"loadsgf {path}") == "="
    assert [coords.to_gtp(m.point, 9) for m in engine.game.moves] == ["E5", "C7"]
    assert "PB[Stéphane]" in reply(engine, "printsgf")
