"""The JSON API: creating, joining, playing, refusals in words, undo, the dead-stone phase, the end, SGF."""

from __future__ import annotations

from fastapi.testclient import TestClient

from keima.rules.game import Game
from keima.server.errors import ErrorBody
from keima.server.games.answers import Created, GameEnvelope, GameState, InfoOut, StatsOut
from server.helpers import act, new_game, state, two_players, wait_for


def test_info_lists_presets_levels_and_clock_types(fast_client: TestClient) -> None:
    info = fast_client.get("/api/info").json()
    assert info["default_ruleset"] == "french"
    assert info["rulesets"]["french"]["ko"] == "natural-situational"
    assert "tromp-taylor" in info["rulesets"]
    assert info["bot_levels"] == ["beginner", "intermediate", "strong", "25k", "20k", "15k", "12k"]
    assert info["clock_types"] == ["none", "absolute", "byoyomi", "canadian", "fischer", "simple"]
    assert info["clock_presets"]["simple-2d"] == {"type": "simple", "per_move": 172800, "weekend_pause": True}


def test_openapi_describes_the_endpoints(fast_client: TestClient) -> None:
    paths = fast_client.get("/openapi.json").json()["paths"]
    for p in ("/api/games", "/api/games/{game_id}", "/api/games/{game_id}/actions", "/api/games/{game_id}/join"):
        assert p in paths


def test_answers_match_their_openapi_models(client: TestClient) -> None:
    """The bodies the server writes by hand are exactly the documented models (no field missing or extra)."""
    r = client.post("/api/games", json={"size": 9, "opponent": "invite",
                                        "clock": {"type": "byoyomi", "main": 5, "period": 5, "periods": 2}})
    created = Created.model_validate(r.json())
    gid, tok = created.game.id, created.seat.token
    client.cookies.clear()
    assert created.invite is not None
    joined = client.post(f"/api/games/{gid}/join", json={"code": created.invite.code},
                         headers={"X-Keima-Seat": "none-yet"})
    Created.model_validate(joined.json())
    client.cookies.clear()
    if created.seat.colors == ["W"]:  # Black passes first
        tok = joined.json()["seat"]["token"]
    GameState.model_validate(state(client, gid, tok))
    GameEnvelope.model_validate(act(client, gid, tok, {"type": "pass"}))
    ErrorBody.model_validate(act(client, gid, tok, {"type": "pass"}, status=409))
    local = new_game(client, size=5, opponent="local")
    for p in [1, 3, 6, 8, 11, 13, 16, 18, 21, 23]:
        act(client, local["game"]["id"], local["seat"]["token"], {"type": "play", "move": p})
    act(client, local["game"]["id"], local["seat"]["token"], {"type": "pass"})
    s = act(client, local["game"]["id"], local["seat"]["token"], {"type": "pass"})["game"]
    assert GameState.model_validate(s).score is not None
    InfoOut.model_validate(client.get("/api/info").json())
    assert StatsOut.model_validate(client.get("/api/stats").json()).actions > 0
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    assert {"GameState", "ClockOut", "InfoOut", "StatsOut", "ErrorBody"} <= set(schemas)


def test_create_gives_a_seat_cookie_and_an_invitation(client: TestClient) -> None:
    r = client.post("/api/games", json={"size": 13, "rules": "japanese", "color": "W"})
    assert r.status_code == 201
    body = r.json()
    gid = body["game"]["id"]
    token = body["seat"]["token"]
    assert body["seat"]["colors"] == ["W"]
    assert body["game"]["you"] == ["W"]
    assert body["game"]["komi"] == 6.5 and body["game"]["rules"]["name"] == "japanese"
    assert body["invite"]["url"] == f"/g/{gid}?invite={body['invite']['code']}"
    assert r.cookies.get(f"keima_seat_{gid}") == token
    assert "httponly" in r.headers["set-cookie"].lower()
    # The cookie alone identifies the seat (as in a browser).
    assert client.get(f"/api/games/{gid}").json()["you"] == ["W"]
    client.cookies.clear()
    assert client.get(f"/api/games/{gid}").json()["you"] == []


def test_two_people_play_and_refusals_name_the_rule(client: TestClient) -> None:
    gid, black, white = two_players(client)
    # ko: Black takes at 11, White may not retake at 10 at once.
    for who, p in [(black, 1), (white, 2), (black, 19), (white, 20), (black, 9), (white, 12), (black, 80), (white, 10)]:
        act(client, gid, who, {"type": "play", "move": p})
    s = act(client, gid, black, {"type": "play", "move": 11})["game"]
    assert s["prisoners"]["B"] == 1 and s["moves"][-1]["captures"] == 1
    err = act(client, gid, white, {"type": "play", "move": 10}, status=409)["error"]
    assert err["code"] == "illegal-move" and err["reason"] == "ko" and "ko" in err["message"].lower()
    err = act(client, gid, white, {"type": "play", "move": "B8"}, status=409)["error"]  # B8 is point 10 too
    assert err["reason"] == "ko"
    err = act(client, gid, white, {"type": "play", "move": 11}, status=409)["error"]
    assert err["reason"] == "occupied"
    err = act(client, gid, black, {"type": "play", "move": 30}, status=409)["error"]
    assert err["reason"] == "wrong-turn"
    err = act(client, gid, white, {"type": "play", "move": 81}, status=409)["error"]
    assert err["reason"] == "off-board"
    after = state(client, gid)
    assert after["version"] == s["version"] and after["to_move"] == "W"  # refusals changed nothing
    act(client, gid, white, {"type": "play", "move": "A1"})
    assert state(client, gid)["moves"][-1]["vertex"] == "A1"


def test_suicide_is_refused(client: TestClient) -> None:
    gid, black, white = two_players(client)
    for who, p in [(black, 1), (white, 40), (black, 9)]:
        act(client, gid, who, {"type": "play", "move": p})
    err = act(client, gid, white, {"type": "play", "move": 0}, status=409)["error"]
    assert err["reason"] == "suicide"


def test_seats_only_their_holder_acts(client: TestClient) -> None:
    gid, black, white = two_players(client)
    err = act(client, gid, None, {"type": "play", "move": 40}, status=403)["error"]
    assert err["code"] == "not-your-seat"
    act(client, gid, "forged-token-0123456789", {"type": "play", "move": 40}, status=403)
    err = act(client, gid, white, {"type": "play", "move": 40, "color": "B"}, status=403)["error"]
    assert err["code"] == "not-your-seat"
    err = act(client, gid, white, {"type": "resign", "color": "B"}, status=403)["error"]
    assert state(client, gid)["version"] == 1 and state(client, gid)["result"] is None
    # A token of another game holds nothing here.
    other = new_game(client, size=9, opponent="local")
    act(client, gid, other["seat"]["token"], {"type": "play", "move": 40}, status=403)
    act(client, gid, black, {"type": "play", "move": 40})


def test_join_once_with_the_right_code(client: TestClient) -> None:
    g = new_game(client, size=9)
    gid, code = g["game"]["id"], g["invite"]["code"]
    assert state(client, gid)["invite_open"] is True
    # The creator opening their own link keeps their seat and is told to send the link.
    r = client.post(f"/api/games/{gid}/join", json={"code": code}, headers={"X-Keima-Seat": g["seat"]["token"]})
    assert r.status_code == 409 and r.json()["error"]["reason"] == "already-seated"
    assert state(client, gid, g["seat"]["token"])["you"] == ["B"]
    r = client.post(f"/api/games/{gid}/join", json={"code": "wrong-code"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad-invitation"
    r = client.post(f"/api/games/{gid}/join", json={"code": code})
    assert r.status_code == 200 and r.json()["seat"]["colors"] == ["W"]
    token = r.json()["seat"]["token"]
    # The same person joining again keeps the seat; anyone else is refused.
    r = client.post(f"/api/games/{gid}/join", json={"code": code}, headers={"X-Keima-Seat": token})
    assert r.status_code == 200 and r.json()["seat"]["token"] == token
    client.cookies.clear()
    r = client.post(f"/api/games/{gid}/join", json={"code": code})
    assert r.status_code == 403
    s = state(client, gid)
    assert s["invite_open"] is False and s["players"]["W"]["seated"] is True


def test_undo_request_accepted_and_declined(client: TestClient) -> None:
    gid, black, white = two_players(client)
    act(client, gid, black, {"type": "play", "move": 40})
    act(client, gid, white, {"type": "play", "move": 41})
    act(client, gid, black, {"type": "play", "move": 42})
    s = act(client, gid, black, {"type": "undo_request"})["game"]
    assert s["undo_request"] == {"by": "B"} and len(s["moves"]) == 3
    act(client, gid, black, {"type": "undo_answer", "accept": True}, status=409)  # not the requester's to answer
    s = act(client, gid, white, {"type": "undo_answer", "accept": True})["game"]
    assert len(s["moves"]) == 2 and s["to_move"] == "B" and s["undo_request"] is None and s["board"][42] == 0
    # White asks to take back 41; Black declines; the position stays.
    act(client, gid, white, {"type": "undo_request"})
    s = act(client, gid, black, {"type": "undo_answer", "accept": False})["game"]
    assert len(s["moves"]) == 2 and s["undo_request"] is None
    # Black's request after White replied takes back both moves.
    act(client, gid, black, {"type": "play", "move": 50})
    act(client, gid, white, {"type": "play", "move": 51})
    act(client, gid, black, {"type": "undo_request"})
    s = act(client, gid, white, {"type": "undo_answer", "accept": True})["game"]
    assert [m["point"] for m in s["moves"]] == [40, 41] and s["to_move"] == "B"
    err = act(client, gid, white, {"type": "undo_answer", "accept": True}, status=409)["error"]
    assert err["code"] == "wrong-phase"


def _fill_5x5(client: TestClient, gid: str, black: str, white: str) -> None:
    # Black walls column 1, White column 3; a white stone at 5 (row 1, col 0) is dead inside Black's area.
    moves = [(black, 1), (white, 3), (black, 6), (white, 8), (black, 11), (white, 13), (black, 16), (white, 18),
             (black, 21), (white, 23), (black, 10), (white, 5)]
    for who, p in moves:
        act(client, gid, who, {"type": "play", "move": p})


def test_dead_stone_phase_to_the_final_count(client: TestClient) -> None:
    gid, black, white = two_players(client, size=5)
    _fill_5x5(client, gid, black, white)
    act(client, gid, black, {"type": "pass"})
    s = act(client, gid, white, {"type": "pass"})["game"]
    assert s["phase"] == "scoring" and s["score"] is not None
    # Generous: on a fresh machine the estimator's first call compiles the playouts (numba, tens of seconds
    # on a loaded CI core).
    wait_for(lambda: state(client, gid)["proposal"] is not None, timeout=120)
    s = state(client, gid)
    assert s["dead"] == s["proposal"]
    # Make the marking exactly {5} whatever the estimator said, by toggling.
    for p in set(s["dead"]):
        if p in s["dead"]:
            s = act(client, gid, black, {"type": "toggle_dead", "point": p})["game"]
    if 5 not in s["dead"]:
        s = act(client, gid, white, {"type": "toggle_dead", "point": 5})["game"]
    assert s["dead"] == [5] and s["accepted"] == []
    act(client, gid, black, {"type": "accept"})
    err = act(client, gid, None, {"type": "accept"}, status=403)["error"]
    assert err["code"] == "not-your-seat"
    s = act(client, gid, white, {"type": "accept"})["game"]
    assert s["phase"] == "finished" and s["end_reason"] == "score"
    score = s["score"]
    assert set(score["methods"]) >= {"area", "territory", "quick-count", "japanese"}
    # The count agrees with the referee's own count of the same game.
    g = Game(5)
    for p in [1, 3, 6, 8, 11, 13, 16, 18, 21, 23, 10, 5]:
        g.play(p)
    assert s["result"] == g.score(dead=[5]).result == score["result"]
    assert 5 not in score["territory"]["W"]
    act(client, gid, black, {"type": "play", "move": 0}, status=409)


def test_resume_after_a_disputed_marking(client: TestClient) -> None:
    gid, black, white = two_players(client, size=5)
    _fill_5x5(client, gid, black, white)
    act(client, gid, black, {"type": "pass"})
    act(client, gid, white, {"type": "pass"})
    s = act(client, gid, white, {"type": "resume"})["game"]
    assert s["phase"] == "play" and s["proposal"] is None and s["dead"] == []
    tok = black if s["to_move"] == "B" else white
    act(client, gid, tok, {"type": "play", "move": 0 if s["to_move"] == "B" else 24})


def test_resign_ends_the_game(client: TestClient) -> None:
    gid, black, white = two_players(client)
    act(client, gid, black, {"type": "play", "move": 40})
    s = act(client, gid, black, {"type": "resign"})["game"]
    assert s["result"] == "W+R" and s["phase"] == "finished" and s["score"] is None
    err = act(client, gid, white, {"type": "play", "move": 41}, status=409)["error"]
    assert err["code"] == "wrong-phase"


def test_local_game_holds_both_seats(client: TestClient) -> None:
    g = new_game(client, size=5, opponent="local")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    assert g["seat"]["colors"] == ["B", "W"]
    for p in [1, 3, 6, 8, 11, 13, 16, 18, 21, 23]:
        act(client, gid, tok, {"type": "play", "move": p})
    act(client, gid, tok, {"type": "pass"})
    act(client, gid, tok, {"type": "pass"})
    wait_for(lambda: state(client, gid)["proposal"] is not None)
    s = act(client, gid, tok, {"type": "accept"})["game"]  # one click accepts for both sides on one screen
    assert s["phase"] == "finished" and s["result"] is not None
    # An undo on one screen needs nobody's answer.
    g2 = new_game(client, size=9, opponent="local")
    act(client, g2["game"]["id"], g2["seat"]["token"], {"type": "play", "move": 40})
    s = act(client, g2["game"]["id"], g2["seat"]["token"], {"type": "undo_request"})["game"]
    assert s["moves"] == [] and s["undo_request"] is None


def test_free_handicap_placement(client: TestClient) -> None:
    g = new_game(client, size=9, opponent="local", handicap=3, placement="free")
    gid, tok = g["game"]["id"], g["seat"]["token"]
    assert g["game"]["phase"] == "handicap" and g["game"]["handicap_left"] == 3
    err = act(client, gid, tok, {"type": "place_handicap", "points": [0, 1]}, status=409)["error"]
    assert err["code"] == "wrong-phase"
    s = act(client, gid, tok, {"type": "place_handicap", "points": [0, 1, "J9"]})["game"]
    assert s["phase"] == "play" and s["to_move"] == "W" and sorted(s["handicap_stones"]) == [0, 1, 8]
    assert s["komi"] == 0.5


def test_fixed_handicap_and_komi(client: TestClient) -> None:
    g = new_game(client, size=19, opponent="local", handicap=4)
    s = g["game"]
    assert s["phase"] == "play" and s["to_move"] == "W" and len(s["handicap_stones"]) == 4
    assert all(s["board"][p] == 1 for p in s["handicap_stones"])


def test_sgf_download(client: TestClient) -> None:
    gid, black, white = two_players(client)
    act(client, gid, black, {"type": "play", "move": "E5"})
    act(client, gid, white, {"type": "pass"})
    r = client.get(f"/api/games/{gid}/sgf")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/x-go-sgf")
    assert f"keima-{gid}.sgf" in r.headers["content-disposition"]
    assert "SZ[9]" in r.text and ";B[ee]" in r.text and ";W[]" in r.text


def test_bot_answers_each_move(client: TestClient) -> None:
    g = new_game(client, size=9, opponent="bot", bot_level="beginner", color="B",
                 clock={"type": "absolute", "main": 30})
    gid, tok = g["game"]["id"], g["seat"]["token"]
    assert g["game"]["players"]["W"] == {"kind": "bot", "level": "beginner", "seated": True,
                                         "name": "keima (beginner)", "rank": None, "provisional": False}
    act(client, gid, tok, {"type": "play", "move": 40})
    wait_for(lambda: len(state(client, gid)["moves"]) == 2)
    s = state(client, gid)
    assert s["moves"][1]["color"] == "W" and s["to_move"] == "B"
    # The bot agrees to take back: Black's move and the bot's reply go.
    s = act(client, gid, tok, {"type": "undo_request"})["game"]
    assert s["moves"] == [] and s["to_move"] == "B"


def test_the_default_bot_level_is_the_one_the_form_preselects(client: TestClient) -> None:
    # docs/web-api.md said the middle level while the page's form preselects the first: both say beginner now.
    g = new_game(client, size=9, opponent="bot", color="B")
    assert g["game"]["players"]["W"]["level"] == "beginner"


def test_bot_plays_first_as_black(client: TestClient) -> None:
    # The person takes White in an even game: the bot, Black, opens without being asked.
    g = new_game(client, size=9, opponent="bot", bot_level="beginner", color="W",
                 clock={"type": "absolute", "main": 30})
    gid = g["game"]["id"]
    assert g["game"]["players"]["B"]["kind"] == "bot"
    wait_for(lambda: len(state(client, gid)["moves"]) == 1)
    s = state(client, gid)
    assert s["moves"][0]["color"] == "B" and s["moves"][0]["point"] is not None and s["to_move"] == "W"


def test_bot_as_black_with_fixed_handicap_answers_whites_first_move(client: TestClient) -> None:
    # With fixed handicap stones Black's first turn is the placement itself: White (the person) moves first, and
    # the bot answers on a point that is not one of its handicap stones.
    g = new_game(client, size=9, opponent="bot", bot_level="beginner", color="W", handicap=2,
                 clock={"type": "absolute", "main": 30})
    gid = g["game"]["id"]
    assert g["game"]["placement"] == "fixed" and g["game"]["to_move"] == "W"
    assert len(g["game"]["handicap_stones"]) == 2 and g["game"]["moves"] == []
    act(client, gid, g["seat"]["token"], {"type": "play", "move": 40})
    wait_for(lambda: len(state(client, gid)["moves"]) == 2)
    s = state(client, gid)
    reply = s["moves"][1]
    assert [m["color"] for m in s["moves"]] == ["W", "B"] and s["to_move"] == "W"
    assert reply["point"] is not None and reply["point"] not in (40, *s["handicap_stones"])


def test_bot_game_to_the_count(fast_client: TestClient) -> None:
    """On a tiny board the human only passes: the bot plays until it passes too, then it accepts the
    estimator's marking, and the human's acceptance ends the game with a count."""
    c = fast_client
    g = new_game(c, size=3, opponent="bot", bot_level="beginner", color="W", clock={"type": "absolute", "main": 20})
    gid, tok = g["game"]["id"], g["seat"]["token"]
    for _ in range(30):
        wait_for(lambda: state(c, gid)["to_move"] == "W" or state(c, gid)["phase"] != "play")
        s = state(c, gid)
        if s["phase"] != "play":
            break
        act(c, gid, tok, {"type": "pass"})
    wait_for(lambda: state(c, gid)["accepted"] == ["B"])
    s = state(c, gid)
    assert s["phase"] == "scoring" and s["dead"] == s["proposal"]
    s = act(c, gid, tok, {"type": "accept"})["game"]
    assert s["phase"] == "finished" and s["end_reason"] == "score" and s["score"]["result"] == s["result"]
