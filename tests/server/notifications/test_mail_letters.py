"""Emails worth opening (issue 43, item 7): the subject says what happened to the reader ("You won against bernard by
5.5 points", "Your turn against alice: 23 h left") in their language, the body shows the board as a PNG picture with
the last move marked, the last move in words and the time left; ``List-Unsubscribe`` goes out as plain
``<http...>`` (it was RFC 2047-encoded, and mail programs missed the one-click link)."""

from __future__ import annotations

import email
import email.policy
import io
from email.message import EmailMessage
from typing import Any

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from keima.rules.board import BLACK, WHITE
from keima.rules.coords import from_gtp
from keima.server.notifications import mail_words, notify
from keima.server.notifications.board_png import SIDE, board_png, geometry, point_center
from keima.server.notifications.letters import GameFacts, Letter

from ..accounts.test_players import Browser
from .test_notifications import (
    Inbox,
    client,
    corr_game,
    deliver,
    inbox,
    moved,
    play,
    players,
    send_mail,
)

__all__ = ["client", "inbox", "moved", "players"]  # the fixtures of the emails received by a real SMTP server

H = 3600.0
NB = "\u00a0"


def item(kind: str, **data: Any) -> dict[str, Any]:
    return {"kind": kind, "game": "g1", "data": {"opponent": "alice", **data}}


@pytest.mark.parametrize(("it", "left", "en", "fr"), [
    (item("your-turn", color="B"), 23 * H + 30, "Your turn against alice: 23 h left",
     f"À vous de jouer contre alice{NB}: il reste 23 h"),
    (item("your-turn", color="B"), 2 * 86400 + 5 * H, "Your turn against alice: 2 d 5 h left",
     f"À vous de jouer contre alice{NB}: il reste 2 j 5 h"),
    (item("your-turn"), None, "Your turn against alice", "À vous de jouer contre alice"),
    (item("challenge-accepted", color="B"), None, "alice accepted your game: you play Black",
     f"alice a accepté votre partie{NB}: vous avez les Noirs"),
    (item("undo-request", color="W"), None, "alice asks to take back a move", "alice demande à reprendre un coup"),
    (item("chat", color="W", text="hello"), None, "alice wrote: hello", f"alice a écrit{NB}: hello"),
    (item("game-finished", result="W+5.5", color="W"), None, "You won against alice by 5.5 points",
     f"Vous avez gagné contre alice de 5,5{NB}points"),
    (item("game-finished", result="W+5.5", color="B"), None, "You lost against alice by 5.5 points",
     f"Vous avez perdu contre alice de 5,5{NB}points"),
    (item("game-finished", result="B+1.5", color="W"), None, "You lost against alice by 1.5 points",
     f"Vous avez perdu contre alice de 1,5{NB}point"),
    (item("game-finished", result="B+R", color="B"), None, "You won against alice by resignation",
     "Vous avez gagné contre alice par abandon"),
    (item("game-finished", result="B+R", color="W"), None, "You resigned against alice",
     "Vous avez abandonné contre alice"),
    (item("game-finished", result="W+T", color="W"), None, "You won against alice on time",
     "Vous avez gagné au temps contre alice"),
    (item("game-finished", result="W+Time", color="B"), None, "You lost on time against alice",
     "Vous avez perdu au temps contre alice"),
    (item("game-finished", result="B+F", color="W"), None, "You lost against alice by forfeit",
     "Vous avez perdu par forfait contre alice"),
    (item("game-finished", result="0", color="W"), None, "Draw against alice (jigo)",
     "Partie nulle contre alice (jigo)"),
    (item("game-finished", result="Void", color="W"), None, "Your game against alice ended without a result",
     "Votre partie contre alice s’est terminée sans résultat"),
    # A notification made before it carried the reader's colour: the result as it stands.
    (item("game-finished", result="W+R"), None, "Game over against alice: White wins by resignation",
     f"Partie terminée contre alice{NB}: Blanc gagne par abandon"),
    (item("clock-low", color="B", left=22 * H), None, "Your clock against alice is running low: 22 h left",
     f"Votre pendule contre alice s’épuise{NB}: il reste 22 h"),
    (item("automatch", color="W"), None, "Automatch found your game against alice: you play White",
     f"L’appariement automatique a trouvé votre partie contre alice{NB}: vous avez les Blancs"),
    ({"kind": "tournament-round", "game": None,
      "data": {"tournament": "t", "name": "Cup", "round": 2, "action": "paired"}}, None,
     "Cup: round 2 is paired", f"Cup{NB}: la ronde 2 est appariée"),
])
def test_the_subject_says_what_happened_to_the_reader(it: dict[str, Any], left: float | None, en: str,
                                                      fr: str) -> None:
    assert mail_words.subject(it, "en", left) == en
    assert mail_words.subject(it, "fr", left) == fr


def test_a_digest_subject_counts_what_came() -> None:
    items = [item("your-turn"), {**item("your-turn"), "game": "g2"}, {**item("your-turn"), "game": "g2"},
             item("chat", text="a"), item("chat", text="b"), item("chat", text="c"),
             item("game-finished", result="B+R", color="B")]
    assert mail_words.digest_subject(items, "en") == \
        "Your day on keima: your turn in 2 games, 3 messages, 1 game over"
    assert mail_words.digest_subject(items, "fr") == \
        f"Votre journée sur keima{NB}: à vous de jouer dans 2 parties, 3 messages, 1 partie terminée"
    # A digest of one item still reads as the day's digest, not as an instant email.
    assert mail_words.digest_subject([item("your-turn")], "en") == "Your day on keima: your turn in 1 game"
    assert mail_words.digest_subject([item("chat", text="a")], "fr") == f"Votre journée sur keima{NB}: 1 message"


def position(size: int, moves: list[str]) -> tuple[int, ...]:
    colors = [0] * (size * size)
    for i, m in enumerate(moves):
        p = from_gtp(m, size)
        assert p is not None
        colors[p] = BLACK if i % 2 == 0 else WHITE
    return tuple(colors)


def facts(size: int = 9, moves: tuple[str, ...] = ("E5", "C3", "D4"), reader: int = WHITE,
          left: float | None = 23 * H, to_move: int | None = WHITE, over: bool = False) -> GameFacts:
    last = from_gtp(moves[-1], size) if moves else None
    return GameFacts(size, position(size, list(moves)), len(moves), last, BLACK if len(moves) % 2 else WHITE,
                     {BLACK: "alice", WHITE: "bernard"}, reader, left, frozenset(), to_move, over)


def letter(game: GameFacts | None) -> Letter:
    return Letter("http://keima.test", "keima@keima.test", lambda p: f"http://keima.test/api/unsubscribe?p={p}&t=x",
                  lambda p, a: f"http://keima.test/api/verify?p={p}", lambda gid, player: game)


def text_of(msg: EmailMessage, kind: str) -> str:
    part = msg.get_body(preferencelist=(kind,))
    assert part is not None
    content: str = part.get_content()
    return content


@pytest.mark.parametrize(("kind", "data", "lang", "lines"), [
    ("your-turn", {"color": "W"}, "en",
     ["Your turn against alice", "9×9 game, you play White", "alice played D4 (move 3)", "Your clock: 23 h left"]),
    ("your-turn", {"color": "W"}, "fr",
     ["À vous de jouer contre alice", "Partie en 9×9, vous avez les Blancs", "alice a joué D4 (coup 3)",
      f"Votre pendule{NB}: il reste 23 h"]),
    ("clock-low", {"color": "W", "left": 23 * H}, "en",
     ["Your clock against alice is running low", "alice played D4 (move 3)", "Your clock: 23 h left"]),
    ("clock-low", {"color": "W", "left": 23 * H}, "fr",
     ["Votre pendule contre alice s’épuise", "alice a joué D4 (coup 3)", f"Votre pendule{NB}: il reste 23 h"]),
    ("challenge-accepted", {"color": "W"}, "en", ["alice accepted your game: you play White", "alice played D4"]),
    ("challenge-accepted", {"color": "W"}, "fr",
     [f"alice a accepté votre partie{NB}: vous avez les Blancs", "alice a joué D4"]),
    ("undo-request", {"color": "W"}, "en", ["alice asks to take back a move", "alice played D4 (move 3)"]),
    ("undo-request", {"color": "W"}, "fr", ["alice demande à reprendre un coup", "alice a joué D4 (coup 3)"]),
    ("chat", {"color": "W", "text": "<b>gg</b>"}, "en", ["alice wrote: <b>gg</b>", "alice played D4"]),
    ("chat", {"color": "W", "text": "<b>gg</b>"}, "fr", [f"alice a écrit{NB}: <b>gg</b>", "alice a joué D4"]),
    ("game-finished", {"color": "W", "result": "B+R"}, "en",
     ["You resigned against alice", "9×9 game, you played White", "alice played D4 (move 3)"]),
    ("game-finished", {"color": "W", "result": "B+R"}, "fr",
     ["Vous avez abandonné contre alice", "Partie en 9×9, vous aviez les Blancs", "alice a joué D4 (coup 3)"]),
    ("automatch", {}, "en", ["Automatch found your game against alice: you play White"]),
    ("automatch", {}, "fr", [f"L’appariement automatique a trouvé votre partie contre alice{NB}: vous avez les "
                             "Blancs"]),
])
def test_the_body_shows_the_game_the_last_move_and_the_time_left(kind: str, data: dict[str, Any], lang: str,
                                                                  lines: list[str]) -> None:
    over = kind == "game-finished"
    timed = kind in ("your-turn", "clock-low")
    game = facts(left=23 * H if timed else None, over=over, to_move=None if over else WHITE)
    msg = letter(game).message("m1", {"to": "b@example.org", "lang": lang, "player": "p2",
                                      "items": [{"kind": kind, "game": "g1", "data": {"opponent": "alice", **data}}]})
    text, html = text_of(msg, "plain"), text_of(msg, "html")
    for line in lines:
        assert line in text, (line, text)
        assert line.replace("<", "&lt;").replace(">", "&gt;") in html, (line, html)
    assert "<b>gg" not in html  # a chat message is text
    if not timed:
        assert "23 h" not in text
    open_words = "Ouvrir la partie" if lang == "fr" else "Open the game"
    assert f"{open_words}{NB if lang == 'fr' else ''}: http://keima.test/g/g1" in text
    assert 'href="http://keima.test/g/g1"' in html and "cid:" in html
    assert msg["Content-Language"] == lang


def test_the_message_is_text_and_html_with_the_board_inline() -> None:
    msg = letter(facts()).message("m1", {"to": "b@example.org", "lang": "en", "player": "p2",
                                         "items": [item("your-turn", color="W")]})
    raw = bytes(msg)
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(parsed, EmailMessage)
    assert parsed.get_content_type() == "multipart/alternative"
    plain, related = parsed.iter_parts()
    assert plain.get_content_type() == "text/plain" and related.get_content_type() == "multipart/related"
    html, image = related.iter_parts()
    assert html.get_content_type() == "text/html" and image.get_content_type() == "image/png"
    cid = image["Content-ID"].strip("<>")
    assert f'src="cid:{cid}"' in html.get_content()
    picture = Image.open(io.BytesIO(image.get_payload(decode=True)))
    assert picture.format == "PNG" and picture.size == (SIDE, SIDE)


def test_a_message_without_a_readable_game_still_goes() -> None:
    msg = letter(None).message("m1", {"to": "b@example.org", "lang": "fr", "player": "p2",
                                      "items": [item("game-finished", color="B", result="B+3.5")]})
    assert msg["Subject"] == f"Vous avez gagné contre alice de 3,5{NB}points"
    assert "cid:" not in text_of(msg, "html") and not any(p.get_content_maintype() == "image" for p in msg.walk())


def test_a_digest_shows_each_game_once_and_no_turn_already_played() -> None:
    played = facts(reader=WHITE, to_move=BLACK, left=None)  # bernard has answered since: alice's turn
    msg = letter(played).message("d1", {"to": "b@example.org", "lang": "en", "player": "p2", "digest": True,
                                        "items": [item("your-turn"), item("chat", text="hi"), item("your-turn")]})
    text = text_of(msg, "plain")
    assert "Your turn" not in text and "Your turn" not in msg["Subject"]
    assert msg["Subject"] == "Your day on keima: 1 message" and text.count("alice played D4") == 1
    assert sum(1 for p in msg.walk() if p.get_content_type() == "image/png") == 1


def pixel(png: bytes, p: int, size: int) -> tuple[int, int, int]:
    x, y = point_center(p, size)
    rgb = Image.open(io.BytesIO(png)).convert("RGB").getpixel((round(x), round(y)))
    assert isinstance(rgb, tuple)
    return rgb[0], rgb[1], rgb[2]


@pytest.mark.parametrize("size", [9, 13, 19])
def test_the_board_picture_has_the_stones_where_they_are(size: int) -> None:
    moves = ["C3", "D4", "E5"] if size == 9 else ["D4", "K10", "G7"]
    colors = position(size, moves)
    last = from_gtp(moves[-1], size)
    png = board_png(colors, size, last)
    assert Image.open(io.BytesIO(png)).size == (SIDE, SIDE)
    for move, stone in zip(moves, (BLACK, WHITE, BLACK), strict=True):
        p = from_gtp(move, size)
        assert p is not None
        shade = sum(pixel(png, p, size)) / 3
        assert shade < 60 if stone == BLACK else shade > 200, (move, pixel(png, p, size))
    empty = from_gtp("B2", size)
    assert empty is not None
    x, y = point_center(empty, size)
    step = geometry(size)[2]
    wood = Image.open(io.BytesIO(png)).convert("RGB").getpixel((round(x + step / 2), round(y - step / 2)))
    assert isinstance(wood, tuple) and wood[0] > wood[1] > wood[2] and 150 < wood[0] < 240  # the wooden ground


def test_the_last_move_is_marked_with_a_ring() -> None:
    colors = position(9, ["E5"])
    p = from_gtp("E5", 9)
    assert p is not None
    marked, plain = board_png(colors, 9, p), board_png(colors, 9, None)
    x, y = point_center(p, 9)
    _left, _top, step = geometry(9)
    ring = (round(x + step * 0.24 - 1.5), round(y))  # inside the ring's outer edge
    img_m = Image.open(io.BytesIO(marked)).convert("RGB")
    img_p = Image.open(io.BytesIO(plain)).convert("RGB")
    m_px, p_px = img_m.getpixel(ring), img_p.getpixel(ring)
    assert isinstance(m_px, tuple) and isinstance(p_px, tuple)
    assert sum(m_px) / 3 > 180 and sum(p_px) / 3 < 60  # a light ring on the black stone


# ---------------------------------------------------------------------------------------------- a real server
def raw_to(inbox: Inbox, address: str) -> list[bytes]:
    return [r for r in inbox.raw if f"To: {address}".encode() in r]


def test_a_turn_by_email_shows_the_board_and_a_plain_one_click_unsubscribe(client: TestClient, inbox: Inbox,
                                                                           players: tuple[Browser, Browser]) -> None:
    alice, bob = players
    inbox.raw.clear()  # the confirmation links
    alice.req("PATCH", "/api/me", 200, json={"notify": {"game-finished": "now"}})
    bob.req("PATCH", "/api/me", 200, json={"notify": {"game-finished": "now"}})
    gid = corr_game(alice, bob)
    play(alice, gid, "E5")
    deliver(client)
    send_mail(client)
    [raw] = raw_to(inbox, "bob@example.org")
    head = raw.split(b"\r\n\r\n", 1)[0]
    assert b"=?utf-8?" not in head.split(b"List-Unsubscribe:", 1)[1].split(b"\r\n", 1)[0]
    assert b"\r\nList-Unsubscribe: <http://keima.test/api/unsubscribe?p=" in head
    assert b"\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n" in head
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    text = text_of(msg, "plain")
    assert "alice a joué E5 (coup 1)" in text and f"Votre pendule{NB}: il reste" in text
    [png] = [p.get_payload(decode=True) for p in msg.walk() if p.get_content_type() == "image/png"]
    e5 = from_gtp("E5", 9)
    assert e5 is not None and sum(pixel(png, e5, 9)) / 3 < 60  # alice's black stone, where she played
    # The game ends: each is told from their side, in their language.
    bob.req("POST", f"/api/games/{gid}/actions", 200, json={"type": "resign"})
    deliver(client)
    send_mail(client)
    assert inbox.to("alice@example.org")[-1]["Subject"] == "You won against bob by resignation"
    assert inbox.to("bob@example.org")[-1]["Subject"] == "Vous avez abandonné contre alice"


def test_each_player_is_told_their_colour() -> None:
    people = {"B": {"id": "pa", "name": "alice"}, "W": {"id": "pb", "name": "bob"}}
    finished = notify._targets({"people": people, "kind": "finished", "data": {"result": "W+5.5", "reason": "score"}})
    assert {(p, d["color"], d["opponent"]) for p, _k, d in finished} == {("pa", "B", "bob"), ("pb", "W", "alice")}
    [(who, kind, data)] = notify._targets({"people": people, "kind": "moved",
                                           "data": {"move": {"color": "B", "vertex": "D4"}, "phase": "play"}})
    assert (who, kind, data["color"]) == ("pb", "your-turn", "W")
    assert mail_words.subject({"kind": "game-finished", "game": "g", "data": finished[1][2]}, "en") == \
        "You won against alice by 5.5 points"
