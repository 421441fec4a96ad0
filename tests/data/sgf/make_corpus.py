"""Write the SGF test corpus: records in the header styles of several programs, and broken ones.

Run ``python tests/data/sgf/make_corpus.py`` from the repository root to regenerate the files beside this
script (they are committed; the tests only read them). The games are played by keima's referee from a seeded
random generator, so every move is legal; the headers, line layout, property order, encodings and extra
properties imitate what Sabaki, OGS, KGS/CGoban, GNU Go, Fox and Pandanet-style clients write.
``bad/expected.json`` lists, for each broken record, what the error must say.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from keima import Game, dump_sgf
from keima.rules.board import BLACK, WHITE, color_name
from keima.rules.coords import from_gtp, to_sgf

HERE = Path(__file__).resolve().parent


def random_moves(game: Game, count: int, seed: int) -> list[tuple[int, int | None]]:
    """Play ``count`` random legal moves that do not fill a player's own eye; return (colour, point)."""
    rng = random.Random(seed)
    out: list[tuple[int, int | None]] = []
    for _ in range(count):
        color = game.to_move
        legal = [
            p
            for p in game.legal_moves(color)
            if not all(game.board.get(q) == color for q in game.board.nbrs[p])
        ]
        p = rng.choice(legal) if legal else None
        game.play(p, color)
        out.append((color, p))
    return out


def node_text(color: int, p: int | None, size: int, extra: str = "") -> str:
    return f";{color_name(color)}[{to_sgf(p, size)}]{extra}"


def territory(game: Game) -> str:
    """TB/TW of a game finished by counting (keima's count, dead stones included)."""
    score = game.score()
    tb = set(score.territory[BLACK]) | {p for p in game.dead if game.board.get(p) == WHITE}
    tw = set(score.territory[WHITE]) | {p for p in game.dead if game.board.get(p) == BLACK}
    out = ""
    if tb:
        out += "TB" + "".join(f"[{to_sgf(p, game.size)}]" for p in sorted(tb))
    if tw:
        out += "TW" + "".join(f"[{to_sgf(p, game.size)}]" for p in sorted(tw))
    return out


def wall_game() -> Game:
    """9x9: Black walls off the left, White the right; a White stone dies inside Black's area."""
    g = Game(size=9, rules="french")
    for row in (5, 3, 7, 1, 9, 2, 4, 6, 8):
        g.play(f"E{row}")
        g.play(f"F{row}")
    g.play("pass")
    g.play("C5")
    g.play("pass")
    g.play("pass")
    return g


def write(name: str, data: str | bytes) -> None:
    path = HERE / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode("utf-8"))


def keima_counted() -> None:
    g = wall_game()
    g.set_dead(["C5"], BLACK)
    g.accept(BLACK)
    g.accept(WHITE)
    write("keima_9x9_counted.sgf", dump_sgf(g))
    # The same game under Japanese rules, with the dead stone left for the counter to find (no TB/TW).
    j = Game(size=9, rules="japanese")
    for ev in wall_game().events:
        j.play(ev.point, ev.color)
    text = dump_sgf(j)
    write("keima_9x9_japanese_uncounted.sgf", text)


def sabaki_variations() -> None:
    g = Game(size=19, komi=6.5, rules="japanese")
    moves = random_moves(g, 40, seed=1)
    size = 19
    body = ""
    for i, (c, p) in enumerate(moves[:20]):
        body += node_text(c, p, size, "SBKV[48.2]" if i == 3 else "")
    alt = Game(size=19, komi=6.5, rules="japanese")
    for c, p in moves[:20]:
        alt.play(p, c)
    variation = random_moves(alt, 6, seed=99)
    var_text = "".join(node_text(c, p, size) for c, p in variation)
    main_rest = "".join(
        node_text(c, p, size, "C[Main line \\] continues.]" if i == 0 else "")
        for i, (c, p) in enumerate(moves[20:])
    )
    sgf = (
        "(;GM[1]FF[4]CA[UTF-8]AP[Sabaki:0.52.2]KM[6.5]SZ[19]DT[2026-11-02]RU[Japanese]"
        "PB[Black Player]PW[White Player]GN[Review]MULTIGOGM[1]ZZ[custom value]"
        + body
        + "("
        + main_rest
        + ")("
        + var_text
        + "C[A variation from Sabaki])"
        + ")\n"
    )
    write("sabaki_19x19_variations.sgf", sgf)


def ogs_resign() -> None:
    g = Game(size=19, komi=6.5, rules="japanese")
    moves = random_moves(g, 61, seed=2)
    lines = [
        "(;FF[4]",
        "CA[UTF-8]",
        "GM[1]",
        "DT[2025-03-09]",
        "PC[OGS: https://online-go.com/game/51234567]",
        "GN[Friendly Match]",
        "PB[alice]",
        "PW[bob]",
        "BR[3k]",
        "WR[2k]",
        "TM[600]OT[5x30 byo-yomi]",
        "RE[W+R]",
        "SZ[19]",
        "KM[6.5]",
        "RU[Japanese]",
        "",
    ]
    body = "\n".join(node_text(c, p, 19) for c, p in moves)
    write("ogs_19x19_resign.sgf", "\n".join(lines) + body + "\n)\n")


def kgs_handicap() -> None:
    size = 19
    g = Game(size=size, rules="japanese", handicap=4, komi=0.5)
    moves = random_moves(g, 120, seed=3)
    g.play("pass")
    g.play("pass")
    g.accept(BLACK)
    g.accept(WHITE)
    ab = "".join(f"[{to_sgf(p, size)}]" for p in g.handicap_stones)
    head = (
        "(;GM[1]FF[4]CA[UTF-8]AP[CGoban:3]ST[2]\n"
        f"RU[Japanese]SZ[19]HA[4]KM[0.50]TM[1800]OT[5x30 byo-yomi]\n"
        "PW[shusaku]PB[genan]WR[4d]BR[3d]DT[2023-01-05]PC[The KGS Go Server at http://www.gokgs.com/]"
        f"KGSDE[]RE[{g.result}]AB{ab}\n"
    )
    body = ""
    clock = 1800.0
    for c, p in moves:
        clock -= 7.3
        tag = "BL" if c == BLACK else "WL"
        body += node_text(c, p, size, f"{tag}[{clock:.3f}]")
    body += ";B[]BL[1000.000];W[]WL[990.000]" + territory(g) + "\n"
    write("kgs_19x19_handicap4.sgf", head + body + ")\n")


def gnugo_counted() -> None:
    g = Game(size=9, komi=5.5, rules="japanese")
    moves = random_moves(g, 50, seed=4)
    g.play("pass")
    g.play("pass")
    g.accept(BLACK)
    g.accept(WHITE)
    head = (
        "(;GM[1]FF[4]\nSZ[9]\nGN[GNU Go 3.8 Random Seed 1765432]\nDT[2026-11-20]\n"
        f"KM[5.5]HA[0]RU[Japanese]AP[GNU Go:3.8]RE[{g.result}]\n"
    )
    body = "".join(
        node_text(c, p, 9, "C[load 0.52]" if i == 0 else "") + ("\n" if i % 8 == 7 else "")
        for i, (c, p) in enumerate(moves)
    )
    write("gnugo_9x9_counted.sgf", head + body + ";B[];W[])\n")


def fox_gb18030() -> None:
    g = Game(size=19, rules="chinese")
    moves = random_moves(g, 80, seed=5)
    text = (
        "(;GM[1]FF[4]\r\nSZ[19]\r\nGN[棋谱]\r\nDT[2024-08-15]\r\nPB[柯洁]\r\nPW[朴廷桓]\r\nBR[九段]\r\nWR[九段]\r\n"
        "KM[7.5]HA[0]RU[Chinese]AP[foxwq]RE[B+R]TM[3600]TC[5]TT[60]\r\n"
        + "".join(
            node_text(c, p, 19, "C[黑棋在这里很好，白棋需要小心。]" if i == 30 else "")
            for i, (c, p) in enumerate(moves)
        )
        + ")\r\n"
    )
    write("fox_19x19_gb18030_noca.sgf", text.encode("gb18030"))


def pandanet_sjis() -> None:
    g = Game(size=19, rules="japanese", komi=6.5)
    moves = random_moves(g, 70, seed=6)
    text = (
        "(;GM[1]FF[3]SZ[19]PB[本因坊秀策]BR[四段]PW[井上幻庵因碩]WR[八段]KM[6.5]RU[Japanese]"
        "EV[御城碁]DT[1846-09-11]RE[W+R]PC[大阪]\n"
        + "".join(
            node_text(c, p, 19, "C[耳赤の一手。ソフトの評価は白優勢です。]" if i == 20 else "")
            for i, (c, p) in enumerate(moves)
        )
        + ")\n"
    )
    write("pandanet_19x19_sjis_noca.sgf", text.encode("shift_jis"))


def setup_problem() -> None:
    # A corner life-and-death problem: White to play and live (not a legal game position: setup only).
    text = (
        "(;GM[1]FF[4]CA[UTF-8]AP[Sabaki:0.52.2]SZ[19]KM[0]GN[Problem 12]\n"
        "AB[ra][qb][pb][ob][nc][nd][od][pe][qe][re][se]\n"
        "AW[rb][qc][pc][oc][pd][qd][rd]PL[W]C[White to play and live.]\n"
        "(;W[sb];B[sc];W[sa]C[Correct: two eyes.])\n"
        "(;W[sc];B[sb]C[Wrong: White dies.]))\n"
    )
    write("setup_problem.sgf", text)


def free_handicap_moves() -> None:
    size = 13
    g = Game(size=size, rules="chinese", handicap=3, placement="free")
    placed = [from_gtp(v, size) for v in ("D4", "K10", "D10")]
    body = ""
    for p in placed:
        g.play(p, BLACK)
        body += node_text(BLACK, p, size)
    for c, p in random_moves(g, 30, seed=7):
        body += node_text(c, p, size)
    text = "(;GM[1]FF[4]CA[UTF-8]SZ[13]HA[3]KM[0.5]RU[Chinese]PB[igs-black]PW[igs-white]" + body + ")\n"
    write("igs_13x13_free_handicap_moves.sgf", text)


def katago_rules() -> None:
    g = Game(size=9, rules="egc2011")
    moves = random_moves(g, 30, seed=8)
    text = (
        "(;FF[4]GM[1]SZ[9]PB[katago]PW[katago]HA[0]KM[7]RU[koPOSITIONALscoreAREAtaxNONEsui1whbN-1fpok1]"
        "RE[B+T]" + "".join(node_text(c, p, 9) for c, p in moves) + ")\n"
    )
    write("katago_9x9_rules_string.sgf", text)


def tt_passes() -> None:
    g = Game(size=9, rules="japanese", komi=5.5)
    moves = random_moves(g, 24, seed=9)
    body = "".join(node_text(c, p, 9) for c, p in moves)
    text = "(;GM[1]FF[3]SZ[9]KM[5.5]RU[Japanese]" + body + ";B[tt];W[tt]C[Both passed (FF[3\\] style).])\n"
    write("ff3_9x9_tt_passes.sgf", text)


def latin1() -> None:
    g = Game(size=13, rules="french")
    moves = random_moves(g, 40, seed=10)
    text = (
        "(;GM[1]FF[4]CA[ISO-8859-1]SZ[13]KM[7.5]RU[French]PB[Jérôme Hübner]PW[Françoise Lê]"
        "EV[Tournoi de Paris]RE[W+R]"
        + "".join(node_text(c, p, 13) for c, p in moves)
        + "C[Abandon: noir a perdu le coin.])\n"
    )
    write("ffg_13x13_latin1.sgf", text.encode("latin-1"))


def resumed() -> None:
    g = wall_game()
    g.resume(WHITE)  # a dispute: the stone at C5 is not dead yet, says White
    g.play("D5")  # Black answers inside his area
    g.play("pass")
    g.play("pass")
    g.set_dead(["C5"], WHITE)
    g.accept(WHITE)
    g.accept(BLACK)
    write("keima_9x9_resumed.sgf", dump_sgf(g))


def nz_void() -> None:
    g = Game(size=7, rules="new-zealand")
    moves = random_moves(g, 12, seed=11)
    text = (
        "(;GM[1]FF[4]CA[UTF-8]SZ[7]KM[7]RU[NZ]RE[Void]"
        + "".join(node_text(c, p, 7) for c, p in moves)
        + ")\n"
    )
    write("nz_7x7_void.sgf", text)


def bad_records() -> None:
    expected: dict[str, dict[str, object]] = {}

    def bad(name: str, data: str | bytes, **want: object) -> None:
        write(f"bad/{name}", data)
        expected[name] = want

    bad(
        "illegal_ko.sgf",
        "(;GM[1]FF[4]SZ[9]KM[7.5]RU[French]\n;B[ab];W[ca];B[ba];W[cc];B[bc];W[db];B[gg];W[bb];B[cb]\n;W[bb])\n",
        line=3,
        column=1,
        move_number=10,
        color="W",
        point="B8",
        rule="ko",
    )
    bad(
        "illegal_suicide.sgf",
        "(;GM[1]FF[4]SZ[9]RU[Japanese]KM[6.5];B[ee];W[ba];B[ff];W[ab];B[aa])",
        line=1,
        column=61,
        move_number=5,
        color="B",
        point="A9",
        rule="suicide",
    )
    bad(
        "illegal_occupied.sgf",
        "(;GM[1]FF[4]SZ[13]\n;B[dd]\n;W[jj]\n;B[jj])\n",
        line=4,
        column=1,
        move_number=3,
        color="B",
        point="K4",
        rule="occupied",
    )
    bad(
        "truncated.sgf",
        "(;GM[1]FF[4]SZ[19]KM[6.5]PB[cut off]\n;B[pd];W[dp];B[pq];W[d",
        line=2,
        column=21,
        contains="never closed",
    )
    bad("unclosed_tree.sgf", "(;GM[1]FF[4]SZ[19]\n;B[pd];W[dp]\n", line=3, column=1, contains="truncated")
    bad(
        "bad_komi.sgf",
        "(;GM[1]FF[4]SZ[19]KM[six and a half];B[pd])",
        line=1,
        column=2,
        contains="KM[six and a half]",
    )
    bad("bad_handicap.sgf", "(;GM[1]FF[4]SZ[19]HA[3]AB[dd][pp];W[pd])", line=1, column=2, contains="HA[3]")
    bad("bad_size.sgf", "(;GM[1]FF[4]SZ[31];B[aa])", line=1, column=2, contains="size")
    bad(
        "bad_setup_no_liberty.sgf",
        "(;GM[1]FF[4]SZ[9]AB[aa]AW[ba][ab])",
        line=1,
        column=2,
        contains="no liberty",
    )
    bad("bad_setup_twice.sgf", "(;GM[1]FF[4]SZ[9]AB[cc]AW[cc])", line=1, column=2, contains="twice")
    bad(
        "off_board.sgf",
        "(;GM[1]FF[4]SZ[9]\n;B[ee]\n;W[kk])",
        line=3,
        column=1,
        move_number=2,
        contains="off the 9x9",
    )
    bad(
        "two_moves_in_node.sgf",
        "(;GM[1]FF[4]SZ[9];B[ee]W[ff])",
        line=1,
        column=18,
        contains="both a B and a W",
    )
    bad("not_go.sgf", "(;GM[3]FF[4]SZ[8];B[ee])", line=1, column=2, contains="GM[3]")
    bad("no_sgf.sgf", "This is not a game record.\n", line=1, column=1, contains="no SGF game")
    bad(
        "stray_text.sgf",
        "(;GM[1]FF[4]SZ[9];B[ee] % W[ff])",
        line=1,
        column=25,
        contains="unexpected character",
    )
    write("bad/expected.json", json.dumps(expected, indent=1, sort_keys=True) + "\n")


def main() -> None:
    keima_counted()
    sabaki_variations()
    ogs_resign()
    kgs_handicap()
    gnugo_counted()
    fox_gb18030()
    pandanet_sjis()
    setup_problem()
    free_handicap_moves()
    katago_rules()
    tt_passes()
    latin1()
    resumed()
    nz_void()
    bad_records()


if __name__ == "__main__":
    main()
