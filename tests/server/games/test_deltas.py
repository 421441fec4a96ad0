"""Moves on the wire: after the first whole state a watcher gets one delta per change, and the deltas applied in
order rebuild exactly the state the server holds (docs/web-api.md, *Deltas*).

``helpers.apply_delta`` is the contract written as a reference in Python (the web client's reducer in web/src/game is
tested against the same rules by node): every game here is played through the API while a spectator's socket
collects the deltas, and the reduced state must equal ``GET /api/games/{id}`` field by field.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from keima.rules.game import Game

from ..helpers import act, apply_delta, new_game, state, two_players, wait_for

# What the state says that a delta may change (clock readings are compared apart: they are read at each sending).
COMPARED = ("version", "phase", "to_move", "result", "end_reason", "board", "prisoners", "pass_count",
            "consecutive_passes", "dead", "accepted", "proposal", "score", "players", "invite_open", "undo_request",
            "bot_note", "handicap_stones", "handicap_left", "moves", "chat")
def watch(c: TestClient, gid: str) -> Any:
    return c.websocket_connect(f"/api/games/{gid}/ws")


def collect(ws: Any, until: int) -> list[dict[str, Any]]:
    """The messages of a socket up to the one of version ``until``."""
    out: list[dict[str, Any]] = []
    while True:
        msg = ws.receive_json()
        out.append(msg)
        version = msg["to"] if msg["type"] == "delta" else msg.get("game", {}).get("version", -1)
        if version >= until:
            return out


def same(reduced: dict[str, Any], truth: dict[str, Any]) -> None:
    for key in COMPARED:
        assert reduced[key] == truth[key], key


def settled(c: TestClient, gid: str) -> dict[str, Any]:
    """The state once nothing more comes by itself (in the marking phase the estimator's proposal comes after
    the second pass)."""
    wait_for(lambda: state(c, gid)["phase"] != "scoring" or state(c, gid)["proposal"] is not None)
    return state(c, gid)


def test_a_game_played_through_rebuilds_from_its_deltas(client: TestClient) -> None:
    gid, black, white = two_players(c := client, size=9,
                                    clock={"type": "byoyomi", "main": 600, "period": 30, "periods": 5})
    with watch(c, gid) as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["protocol"] == 2
        game = first["game"]
        script: list[tuple[str, dict[str, Any]]] = [
            (black, {"type": "play", "move": "E5"}), (white, {"type": "play", "move": "E6"}),
            (black, {"type": "play", "move": "D6"}), (white, {"type": "play", "move": "F6"}),
            (black, {"type": "play", "move": "E7"}), (white, {"type": "chat", "text": "nice <b>shape</b>"}),
            (white, {"type": "undo_request"}), (black, {"type": "undo_answer", "accept": True}),
            (white, {"type": "play", "move": "D5"}), (black, {"type": "play", "move": "F7"}),
            (white, {"type": "play", "move": "E4"}), (black, {"type": "pass"}), (white, {"type": "pass"}),
        ]
        kinds = []
        for token, action in script:
            after = act(c, gid, token, action)["game"]["version"]
            for msg in collect(ws, after):
                assert msg["type"] == "delta", msg
                kinds.append(msg["event"]["type"])
                game = apply_delta(game, msg)
        truth = settled(c, gid)
        for msg in collect(ws, truth["version"]) if truth["version"] > game["version"] else []:
            game = apply_delta(game, msg)
        same(game, truth)
        assert kinds[:8] == ["moved", "moved", "moved", "moved", "moved", "chatted", "undo_requested", "undone"]
        assert game["chat"][-1]["text"] == "nice <b>shape</b>"  # the text as written, for the page to show as text
        assert game["clock"]["B"]["main"] <= 600 and "at" in game["clock"]


def test_random_games_rebuild_from_their_deltas(client: TestClient) -> None:
    rng = random.Random(20261126)
    c = client
    for _game in range(3):
        gid, black, white = two_players(c, size=7)
        ref = Game(size=7, rules="french")
        with watch(c, gid) as ws:
            game = ws.receive_json()["game"]
            for _turn in range(60):
                if ref.phase != "play":
                    break
                token = black if ref.to_move == 1 else white
                legal = ref.legal_moves()
                roll = rng.random()
                if roll < 0.08 and ref.moves:
                    # The player who just moved asks to take it back; the one to move agrees.
                    other = white if token == black else black
                    act(c, gid, other, {"type": "undo_request"})
                    after = act(c, gid, token, {"type": "undo_answer", "accept": True})["game"]["version"]
                    ref.undo()
                elif roll < 0.15 or not legal:
                    ref.pass_move()
                    after = act(c, gid, token, {"type": "pass"})["game"]["version"]
                else:
                    p = rng.choice(legal)
                    ref.play(p)
                    after = act(c, gid, token, {"type": "play", "move": p})["game"]["version"]
                for msg in collect(ws, after):
                    game = apply_delta(game, msg)
            truth = settled(c, gid)
            for msg in collect(ws, truth["version"]) if truth["version"] > game["version"] else []:
                game = apply_delta(game, msg)
            same(game, truth)
            assert game["board"] == list(ref.board.colors)


def test_a_client_with_a_gap_asks_for_the_whole_state(client: TestClient) -> None:
    gid, black, white = two_players(client, size=9)
    with watch(client, gid) as ws:
        ws.receive_json()
        act(client, gid, black, {"type": "play", "move": "C3"})
        ws.receive_json()  # the delta
        ws.send_json({"type": "resync", "from": 0})
        whole = ws.receive_json()
        assert whole["type"] == "state" and whole["game"]["version"] == state(client, gid)["version"]
        assert whole["game"]["board"][whole["game"]["moves"][0]["point"]] == 1
        assert "protocol" not in whole  # only the first message of a socket names it


def test_an_action_sent_on_the_socket_gets_its_delta_before_its_ack(client: TestClient) -> None:
    g = new_game(client, size=9, opponent="local")
    gid, token = g["game"]["id"], g["seat"]["token"]
    with client.websocket_connect(f"/api/games/{gid}/ws", headers={"X-Keima-Seat": token}) as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "id": "m1", "action": {"type": "play", "move": "D4"}})
        first, second = ws.receive_json(), ws.receive_json()
        assert first["type"] == "delta" and first["event"]["move"]["vertex"] == "D4"
        assert second == {"type": "ack", "id": "m1"}


@pytest.mark.parametrize("clock", [None, {"type": "byoyomi", "main": 1800, "period": 30, "periods": 5}])
def test_a_move_at_move_250_of_19x19_costs_a_watcher_under_300_bytes(client: TestClient,
                                                                     clock: dict[str, Any] | None) -> None:
    body: dict[str, Any] = {"size": 19, "opponent": "local"}
    if clock:
        body["clock"] = clock
    g = new_game(client, **body)
    gid, token = g["game"]["id"], g["seat"]["token"]
    ref = Game(size=19, rules="french")
    rng = random.Random(7)
    with watch(client, gid) as ws:
        ws.receive_json()
        sizes = []
        while len(ref.moves) < 250:
            legal = ref.legal_moves()
            p = rng.choice(legal)
            ref.play(p)
            after = act(client, gid, token, {"type": "play", "move": p})["game"]["version"]
            for msg in collect(ws, after):
                assert msg["type"] == "delta"
            sizes.append(len(json.dumps(msg, separators=(",", ":"))))
        whole = len(json.dumps(state(client, gid), separators=(",", ":")))
    assert sizes[-1] <= 300, sizes[-1]
    assert whole > 20 * sizes[-1]  # what every watcher got for each move before


def test_the_pass_that_ends_the_play_stops_a_fischer_clock_at_its_cap(client: TestClient) -> None:
    # White's Fischer clock is at its cap: the pass's increment gives back what the pass used, so the side's
    # stored time does not change; the delta must still say that no clock runs any more (the page kept counting
    # White's clock down).
    clock = {"type": "fischer", "main": 600, "increment": 60, "max": 600}
    gid, black, white = two_players(c := client, size=9, clock=clock)
    with watch(c, gid) as ws:
        game = ws.receive_json()["game"]
        for token, action in ((black, {"type": "play", "move": "E5"}), (white, {"type": "pass"}),
                              (black, {"type": "pass"})):
            after = act(c, gid, token, action)["game"]["version"]
            for msg in collect(ws, after):
                game = apply_delta(game, msg)
                if "clock" in msg:
                    game["clock"] = {**game["clock"], **msg["clock"]}
        assert game["phase"] == "scoring"
        assert game["clock"]["running"] is None, game["clock"]
