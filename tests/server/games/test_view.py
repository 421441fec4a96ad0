"""The state sent to clients is the schemas' models serialized (keima.server.games.view), and the storage mapping
and the first migration agree with the live tables."""

from __future__ import annotations

import json
import time

import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi.testclient import TestClient

from keima.server.games.answers import GameState, WsState
from keima.server.games.view import game_state, ws_state_json
from keima.server.storage.store import make_engine, metadata, migrate
from server.helpers import act, new_game


def _session(client: TestClient, gid: str):  # type: ignore[no-untyped-def]
    return client.app.state.hub.cache.sessions[gid]  # type: ignore[attr-defined]


def test_the_sent_state_is_the_models_serialization(fast_client: TestClient) -> None:
    """The JSON made once per change (kept move fragments, ``you`` appended) is byte for byte what pydantic
    writes for the whole ``GameState``, in every phase and for every kind of viewer."""
    g = new_game(fast_client, size=5, opponent="local",
                 clock={"type": "byoyomi", "main": 5, "period": 5, "periods": 2})
    gid, tok = g["game"]["id"], g["seat"]["token"]
    s = _session(fast_client, gid)
    checked = 0
    for action in [{"type": "play", "move": p} for p in (1, 3, 6, 8, 11, 13, 16, 18, 21, 23)] + [
        {"type": "undo_request"}, {"type": "play", "move": 23}, {"type": "pass"}, {"type": "pass"}
    ]:
        act(fast_client, gid, tok, action)
        now = time.monotonic()
        for seats in (frozenset(), frozenset({1}), frozenset({2}), frozenset({1, 2})):
            # After the two passes the estimator's proposal may land (a new version) between the two reads:
            # read both again until they are of one version.
            while True:
                version = s.version
                text = s.state_json(now, seats)
                expected = game_state(s, now, seats)
                if s.version == version:
                    break
            # The clock is as of the change (first serialization); compare the rest, then the clock's shape.
            sent = GameState.model_validate_json(text)
            assert sent.model_dump(exclude={"clock"}) == expected.model_dump(exclude={"clock"})
            assert sent.model_dump_json() == text
            assert WsState.model_validate_json(ws_state_json(text)).game == sent
            checked += 1
    assert checked == 56 and json.loads(s.state_json(time.monotonic()))["score"] is not None


def test_the_migrated_database_matches_the_live_tables(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == []
        assert set(sa.inspect(conn).get_table_names()) == {
            "games", "game_log", "alembic_version", "players", "player_sessions", "game_players", "server_settings",
            "game_outbox", "event_progress", "player_records", "scheduled_jobs", "ratings", "rating_history",
            "automatch", "rating_changes", "analyses",
            "tournaments", "tournament_directors", "tournament_accounts", "tournament_games", "tournament_log",
            "player_settings", "notifications", "emails", "chat_mutes", "conditional_moves",
            # -- clubs (issue 46)
            "clubs", "club_members", "club_challenges", "club_announcements", "club_imports", "club_games",
            # -- moderation (issue 47)
            "blocks", "player_standing", "moderators", "reports", "moderation_log", "abandonments",
            "annulled_games"}
    engine.dispose()


def test_security_headers_and_quoted_input(fast_client: TestClient) -> None:
    for path in ("/", "/api/info", "/api/games/nosuchgame", "/assets/none.js"):
        r = fast_client.get(path)
        assert r.headers["x-content-type-options"] == "nosniff"
        csp = r.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
        assert "'unsafe-inline'" not in csp and "'unsafe-eval'" not in csp
    # The API explorer keeps working (FastAPI's page has an inline script and CDN files).
    docs = fast_client.get("/docs").headers["content-security-policy"]
    assert "frame-ancestors 'none'" in docs and "cdn.jsdelivr.net" in docs
    # A path echoed in an error is escaped and cut short.
    r = fast_client.get("/assets/" + "<script>" * 100)
    msg = r.json()["error"]["message"]
    assert r.status_code == 404 and len(msg) < 120 and msg.endswith("...")
    r = fast_client.get("/assets/%E2%80%AEevil%09.js")
    assert "\\u202e" in r.json()["error"]["message"] and "\t" not in r.json()["error"]["message"]
