"""``keima serve``'s command line: bad input gets one clear line and an exit code, before any server starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from keima.cli import main
from keima.cli.serve import normalise_url, served_address


def test_bad_port_and_url_are_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-open", "--port", "70000"]) == 2
    assert "--port must be 0..65535" in capsys.readouterr().err
    assert main(["serve", "--no-open", "--db", "not a url"]) == 2
    assert "not a database URL" in capsys.readouterr().err


def test_unreachable_database_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--no-open", "--port", "0", "--db", f"sqlite:///{tmp_path}/missing/dir/k.db"]) == 2
    err = capsys.readouterr().err
    assert "cannot open the database" in err and "unable to open database file" in err
    assert main(["serve", "--no-open", "--port", "0", "--db", "postgresql://nobody:secret@127.0.0.1:1/x"]) == 2
    err = capsys.readouterr().err
    assert "cannot open the database postgresql+psycopg://nobody:***@127.0.0.1:1/x" in err
    assert "secret" not in err


def test_postgres_urls_use_psycopg3() -> None:
    assert normalise_url("postgres://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("postgresql://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("postgresql+psycopg://u@h/d") == "postgresql+psycopg://u@h/d"
    assert normalise_url("sqlite:///x.db") == "sqlite:///x.db"


def test_serve_called_from_a_program_never_restarts_its_process(monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    # `keima serve` starts itself again on jemalloc (keima.cli.allocator), but only as a process's own command
    # line: main() called with arguments (a program embedding keima, this test) would have replaced the caller.
    restarts: list[object] = []
    monkeypatch.setattr("os.execve", lambda *a: restarts.append(a))
    monkeypatch.setattr("keima.cli.allocator.jemalloc_library", lambda: "libjemalloc.so.2")
    assert main(["serve", "--no-open", "--port", "70000"]) == 2
    assert restarts == []
    assert main(["serve", "--no-open", "--port", "0", "--allocator", "jemalloc", "--db", "not a url"]) == 2
    assert restarts == [] and "not a database URL" in capsys.readouterr().err


def test_the_printed_address_is_the_one_listened_on() -> None:
    # `keima serve --host 127.0.0.1` printed "serving on http://localhost:...": localhost may be ::1 first, where
    # nothing listens. The given address is printed; every address of the machine reads as localhost.
    assert served_address("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert served_address("::1", 8000) == "http://[::1]:8000/"
    assert served_address("192.168.1.5", 80) == "http://192.168.1.5:80/"
    assert served_address("0.0.0.0", 8000) == "http://localhost:8000/"
    assert served_address("::", 8000) == "http://localhost:8000/"
