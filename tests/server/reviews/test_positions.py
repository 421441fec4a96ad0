"""``POST /api/positions/count``, ``POST /api/positions/sgf`` and ``GET /api/games/{id}/count``.

The counts are checked by hand, point by point, following the public texts (docs/rules.md, « Public sources »):
area counting (FFG « Fin de la partie », EGC 2011 example 1 with dame), the FFG quick count, territory with pass
stones and White passing last (EGC 2011 example 2, AGA rule 7), Japanese 1989 art. 8 (seki eyes count for
nobody).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from ..helpers import act, new_game, state

BK, WH, EM = 1, 2, 0  # the board values of GameState


def board(text: str) -> list[int]:
    """A diagram (X black, O white, . empty; spaces ignored, top row first) as the API's board list."""
    return [{"X": BK, "O": WH, ".": EM}[ch] for ch in text.replace(" ", "").replace("\n", "")]


# Black owns the two left columns (10 points), White the right column (5 points).
WALL = board("""
. . X O .
. . X O .
. . X O .
. . X O .
. . X O .
""")

# All stones in seki (the shape of the EGC 2011 explanations' example 6): one eye each in the top corners (A5 for
# Black, E5 for White), two shared liberties (C3, D2) that are dame.
SEKI = board("""
. X O O .
X X O O O
X X . O O
X X X . O
X X X O O
""")

# A 9x9 handicap game's end: a column of dame (E) between the walls, 27 points of territory each.
DAME = board("\n".join(". . . X . O . . ." for _ in range(9)))

# A dead white stone at B8 in Black's area; a dead two-stone black chain G2-G1 in White's.
DEAD = board("""
. . . X O . . . .
. O . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . . . .
. . . X O . X . .
. . . X O . X . .
""")


def count(c: TestClient, status: int = 200, **body: Any) -> dict[str, Any]:
    r = c.post("/api/positions/count", json=body)
    assert r.status_code == status, r.text
    data: dict[str, Any] = r.json()
    return data


def totals(score: dict[str, Any], method: str) -> tuple[float, float]:
    m = score["methods"][method]
    return m["black"], m["white"]


def last_step(score: dict[str, Any], method: str) -> tuple[float, float]:
    t = score["steps"][method][-1]["totals"]
    return t["B"], t["W"]


def test_seki_counts_by_hand(fast_client: TestClient) -> None:
    score = count(fast_client, size=5, rules="french", komi=0, board=SEKI)["score"]
    # Area: Black 11 stones + 1 eye, White 10 stones + 1 eye; C3 and D2 count for nobody.
    assert totals(score, "area") == (12, 11)
    assert score["result"] == "B+1" and score["method"] == "area"
    assert score["neutral"] == [12, 18]
    # Japanese: the eyes of chains in seki are nobody's territory: 0 to 0.
    assert totals(score, "japanese") == (0, 0)
    jp = {s["kind"]: s for s in score["steps"]["japanese"]}
    assert sorted(p for p, _ in jp["jp-seki"]["counted"]) == [0, 4]
    for method in score["methods"]:
        assert last_step(score, method) == totals(score, method)
    # Under the Japanese preset the headline is the Japanese count.
    jscore = count(fast_client, size=5, rules="japanese", komi=0, board=SEKI)["score"]
    assert jscore["method"] == "japanese" and jscore["result"] == "0"


def test_dame_and_handicap_by_hand(fast_client: TestClient) -> None:
    score = count(fast_client, size=9, rules="french", handicap=2, board=DAME)["score"]
    # Komi defaults to the French half point of a handicap game; White gets n-1 = 1 point by area counting.
    assert totals(score, "area") == (9 + 27, 9 + 27 + 0.5 + 1)
    assert len(score["neutral"]) == 9
    assert score["methods"]["area"]["breakdown"]["W"]["handicap_bonus"] == 1
    assert totals(score, "quick-count") == (27, 27.5)
    assert totals(score, "territory") == (27, 27.5)
    area = {s["kind"]: s for s in score["steps"]["area"]}
    assert area["area-neutral"]["values"] == {"N": 9}
    assert area["area-handicap"]["values"]["W"] == 1
    assert area["area-handicap"]["rule"] == {"source": "ffg", "article": "« Partie à handicap »"}
    # Chinese rules give n points.
    chinese = count(fast_client, size=9, rules="chinese", handicap=2, board=DAME)["score"]
    assert totals(chinese, "area") == (36, 9 + 27 + 0.5 + 2)


def test_pass_stones_and_black_last_by_hand(fast_client: TestClient) -> None:
    # Black captured 2 and holds 2 pass stones (White passed twice); White captured 1 and holds 1; Black moved
    # last, so White hands one more stone.
    score = count(fast_client, size=5, rules="egc2011", komi=0.5, board=WALL, prisoners={"B": 2, "W": 1},
                  pass_stones={"B": 2, "W": 1}, last_mover="B")["score"]
    # Quick count: Black's 5 white stones fill White's 5 points, White's 2 black stones fill 2 of Black's 10.
    assert totals(score, "quick-count") == (8, 0.5)
    # Territory + captures + pass stones + the extra stone: 10+2+2+1 against 5+1+1+0.5.
    assert totals(score, "territory") == (15, 7.5)
    assert totals(score, "area") == (15, 10.5)
    assert totals(score, "japanese") == (12, 6.5)
    tb = score["methods"]["territory"]["breakdown"]
    assert (tb["B"]["pass_stones"], tb["W"]["pass_stones"], tb["B"]["extra_pass_stone"]) == (2, 1, 1)
    qc = score["steps"]["quick-count"]
    assert [s["kind"] for s in qc] == ["qc-prisoners", "qc-pass-stones", "qc-black-last", "qc-dead", "qc-fill",
                                       "qc-fill", "qc-count", "qc-komi"]
    assert qc[2]["held"] == {"B": 5, "W": 2}
    assert sorted(p for p, _ in qc[4]["placed"]) == [4, 9, 14, 19, 24]
    for method in score["methods"]:
        assert last_step(score, method) == totals(score, method)


def test_dead_stones_given_as_vertices_take_their_whole_chain(fast_client: TestClient) -> None:
    # B8 is the white stone; G1 names one stone of the two-stone black chain G1-G2.
    score = count(fast_client, size=9, rules="french", komi=7.5, board=DEAD, dead=["B8", "G1"])["score"]
    g1, g2, b8 = 8 * 9 + 6, 7 * 9 + 6, 1 * 9 + 1
    assert score["dead"] == sorted([b8, g1, g2])
    # Area: Black 9 stones + 27 points; White 9 stones + 36 points + komi.
    assert totals(score, "area") == (36, 9 + 36 + 7.5)
    # Japanese: territory + dead stones taken: Black 27 + 1, White 36 + 2 + 7.5.
    assert totals(score, "japanese") == (28, 45.5)
    removed = score["steps"]["area"][0]["removed"]
    assert sorted(removed) == sorted([b8, g1, g2])


def test_estimator_marks_the_hopeless_stones(fast_client: TestClient) -> None:
    lone = list(DEAD)
    lone[7 * 9 + 6] = lone[8 * 9 + 6] = EM  # only the white stone at B8 is left inside the other's area
    score = count(fast_client, size=9, rules="french", komi=7.5, board=lone, estimate_dead=True)["score"]
    assert score["dead"] == [1 * 9 + 1]
    assert totals(score, "area") == (36, 45 + 7.5)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"size": 5, "board": [0] * 24}, "board"),
        ({"size": 5, "board": [0] * 24 + [3]}, "board.24"),
        ({"size": 5, "board": [0] * 24 + ["B"]}, "board.24"),
        ({"size": 30, "board": [0] * 900}, "size"),
        ({"board": [0] * 25}, "size"),
        ({"size": 5, "board": WALL, "rules": "klingon"}, "rules"),
        ({"size": 5, "board": WALL, "dead": ["Z9"]}, "dead.0"),
        ({"size": 5, "board": WALL, "dead": ["A1"]}, "dead.0"),
        ({"size": 5, "board": WALL, "dead": ["C1"], "estimate_dead": True}, "dead"),
        ({"size": 5, "board": WALL, "prisoners": {"B": -1}}, "prisoners.B"),
        ({"size": 5, "board": WALL, "pass_stones": {"X": 1}}, "pass_stones.X"),
        ({"size": 5, "board": WALL, "last_mover": "Z"}, "last_mover"),
        ({"size": 5, "board": WALL, "estimate_dead": "yes"}, "estimate_dead"),
        ({"size": 5, "board": WALL, "handicap": 12}, "handicap"),
        ({"size": 5, "board": WALL, "komi": 6.3}, "komi"),
        # A black chain without a liberty: no game reaches it.
        ({"size": 2, "board": [BK, WH, WH, WH]}, "board"),
    ],
)
def test_bad_input_names_the_field(fast_client: TestClient, body: dict[str, Any], field: str) -> None:
    err = count(fast_client, 422, **body)["error"]
    assert err["field"] == field, err
    assert err["code"] == "invalid-request"


SGF = "(;GM[1]FF[4]SZ[5]KM[0.5]RU[French];B[cc];W[bc];B[ab];W[ca];B[ac];W[bb];B[ba];W[cb];B[aa];W[])"


def test_position_from_sgf(fast_client: TestClient) -> None:
    r = fast_client.post("/api/positions/sgf", json={"sgf": SGF})
    assert r.status_code == 200, r.text
    pos = r.json()
    assert (pos["size"], pos["komi"], pos["moves"], pos["move"]) == (5, 0.5, 10, 10)
    assert pos["pass_stones"] == {"B": 1, "W": 0} and pos["last_mover"] == "W"
    r = fast_client.post("/api/positions/sgf", json={"sgf": SGF, "move": 2})
    early = r.json()
    assert early["move"] == 2 and sum(1 for v in early["board"] if v) == 2
    assert early["board"][2 * 5 + 2] == BK and early["board"][2 * 5 + 1] == WH
    # The position goes straight into the count.
    body = {k: pos[k] for k in ("size", "rules", "komi", "handicap", "board", "prisoners", "pass_stones",
                                "last_mover")}
    assert count(fast_client, **body)["score"]["result"]
    bad = fast_client.post("/api/positions/sgf", json={"sgf": SGF, "move": 11})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "move"
    bad = fast_client.post("/api/positions/sgf", json={"sgf": "(;SZ[5];B[zz"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "sgf"
    # A text without a record is never taken for a file name.
    bad = fast_client.post("/api/positions/sgf", json={"sgf": "/etc/passwd"})
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "sgf"


def test_a_finished_game_count_step_by_step(client: TestClient) -> None:
    g = new_game(client, size=5, opponent="local", komi=0.5)
    gid, tok = g["game"]["id"], g["seat"]["token"]
    r = client.get(f"/api/games/{gid}/count")
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong-phase"
    for p in (2, 3, 7, 8, 12, 13, 17, 18, 22, 23):
        act(client, gid, tok, {"type": "play", "move": p})
    act(client, gid, tok, {"type": "pass"})
    act(client, gid, tok, {"type": "pass"})
    s = state(client, gid)
    assert s["phase"] == "scoring"
    r = client.get(f"/api/games/{gid}/count")
    assert r.status_code == 200, r.text
    score = r.json()["score"]
    steps = score.pop("steps")
    assert score == s["score"]
    assert totals(score, "area") == (15, 10.5)
    for method in score["methods"]:
        t = steps[method][-1]["totals"]
        assert (t["B"], t["W"]) == totals(score, method)
    assert client.get("/api/games/nope/count").status_code == 404


def test_position_page_is_the_app(fast_client: TestClient) -> None:
    r = fast_client.get("/position")
    assert r.status_code == 200
    assert "html" in r.headers["content-type"]


def test_every_step_kind_has_a_sentence_in_the_ui(fast_client: TestClient) -> None:
    """The UI words each step from its kind (web/src/i18n/en.js and fr.js, group ``count.steps``; the build
    checks that both languages have the same keys): every kind the server sends must be there."""
    from pathlib import Path

    tables = Path(__file__).resolve().parents[3] / "web" / "src" / "i18n"
    text = "".join((tables / f"{code}.js").read_text(encoding="utf-8") for code in ("en", "fr"))
    kinds: set[str] = set()
    for body in (
        {"size": 5, "komi": 0, "board": SEKI},
        {"size": 9, "handicap": 2, "board": DAME},
        {"size": 5, "board": WALL, "prisoners": {"B": 9, "W": 0}, "pass_stones": {"B": 2}, "last_mover": "B"},
        {"size": 9, "board": DEAD, "dead": ["B8", "G1"]},
    ):
        score = count(fast_client, **body)["score"]
        kinds |= {s["kind"] for steps in score["steps"].values() for s in steps}
    assert len(kinds) >= 25
    for kind in sorted(kinds):
        assert text.count(f'"{kind}": (') == 2, f"{kind} needs one sentence in English and one in French"


@pytest.mark.parametrize("record", ["keima_9x9_counted.sgf", "kgs_19x19_handicap4.sgf", "gnugo_9x9_counted.sgf"])
def test_totals_are_those_keima_score_prints(fast_client: TestClient, record: str) -> None:
    """A record's last position, read by the position tool and counted with the dead stones ``keima score``
    chose, has the totals ``keima score`` prints, and the last step of each method has them too."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "data" / "sgf" / record
    out = subprocess.run([sys.executable, "-m", "keima", "score", str(path), "--json"], capture_output=True,
                         text=True, check=True, timeout=120)
    printed = json.loads(out.stdout)
    r = fast_client.post("/api/positions/sgf", json={"sgf": path.read_bytes().decode("latin-1")})
    assert r.status_code == 200, r.text
    pos = r.json()
    body = {k: pos[k] for k in ("size", "rules", "komi", "handicap", "board", "prisoners", "pass_stones",
                                "last_mover")}
    score = count(fast_client, **body, dead=printed["dead"])["score"]
    assert score["result"] == printed["result"]
    for method, m in printed["methods"].items():
        assert totals(score, method) == (m["black"], m["white"]), method
        assert last_step(score, method) == (m["black"], m["white"]), method
