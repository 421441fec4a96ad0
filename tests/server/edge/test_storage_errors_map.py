"""Which database errors ``keima.server.edge.unreachable`` answers 503 (the database out of reach) and which it
leaves to the application's last-resort 500 (a fault of the server: a constraint broken, a bad query)."""

from __future__ import annotations

import logging

import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import exc as sa_exc

from keima.server.edge.unreachable import install, storage_unreachable


def engine_on_a_closed_port() -> sa.Engine:
    # Port 1 on the loopback: nothing listens there, the connection is refused at once.
    return sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none", connect_args={"connect_timeout": 2})


def test_a_refused_connection_is_unreachable_and_a_broken_constraint_is_not() -> None:
    engine = engine_on_a_closed_port()
    with pytest.raises(sa_exc.OperationalError) as refused:
        engine.connect()
    assert storage_unreachable(refused.value)
    broken = sa_exc.IntegrityError("INSERT ...", {}, Exception("UNIQUE constraint failed"))
    assert not storage_unreachable(broken)
    assert not storage_unreachable(sa_exc.ProgrammingError("SELECT ...", {}, Exception("no such table")))


def test_the_app_answers_503_for_an_outage_and_500_for_a_fault(caplog: pytest.LogCaptureFixture) -> None:
    app = FastAPI()
    install(app)

    @app.exception_handler(Exception)
    async def _last_resort(_request: object, _exc: Exception) -> object:
        from fastapi.responses import JSONResponse

        return JSONResponse({"error": {"code": "internal-error"}}, status_code=500)

    @app.get("/down")
    def down() -> None:
        engine_on_a_closed_port().connect()

    @app.get("/fault")
    def fault() -> None:
        raise sa_exc.IntegrityError("INSERT ...", {}, Exception("UNIQUE constraint failed"))

    with caplog.at_level(logging.WARNING), TestClient(app, raise_server_exceptions=False) as c:
        r = c.get("/down")
        assert r.status_code == 503 and r.json()["error"]["code"] == "storage-error"
        warnings = [rec for rec in caplog.records if rec.name == "keima.server.storage"]
        assert len(warnings) == 1 and "GET /down" in warnings[0].getMessage() and not warnings[0].exc_info
        r = c.get("/fault")
        assert r.status_code == 500 and r.json()["error"]["code"] == "internal-error"
