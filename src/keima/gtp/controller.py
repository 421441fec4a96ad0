"""Driving GTP engines: external programs as subprocesses with timeouts, or keima's engine in-process.

Both kinds offer the same small interface (:class:`EngineLink`): ``request(command, timeout)`` sends one
command and returns the parsed :class:`~keima.gtp.protocol.Response`; ``send`` does the same but raises
:class:`EngineFailure` on a ``?`` reply. Every way an engine can misbehave is an exception of its own, so
the referee can tell a crash from a timeout from a protocol error:

* :class:`EngineTimeout`: no complete reply within the time limit;
* :class:`EngineDied`: the process exited or closed its output (the exit code and the end of its
  standard error are in the message);
* :class:`EngineProtocolError`: the reply does not follow GTP framing;
* :class:`EngineFailure`: a well-formed ``?`` reply.
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Sequence
from typing import IO, Protocol

from keima.gtp.protocol import GtpError, Response, parse_response


class EngineError(Exception):
    """Something went wrong talking to an engine."""


class EngineTimeout(EngineError):
    """The engine did not answer in time."""


class EngineDied(EngineError):
    """The engine process exited, or closed its standard output."""


class EngineProtocolError(EngineError):
    """The engine's output is not a GTP reply."""


class EngineFailure(EngineError):
    """The engine answered ``?``; ``message`` is its error text."""

    def __init__(self, command: str, message: str) -> None:
        super().__init__(f"{command.split()[0] if command.split() else command}: {message}")
        self.command = command
        self.message = message


class EngineLink(Protocol):
    """What the referee needs from an engine, wherever it runs."""

    label: str

    def request(self, command: str, timeout: float | None = None) -> Response:
        """Send one command; return its reply. Raises EngineTimeout, EngineDied, EngineProtocolError."""
        ...

    def send(self, command: str, timeout: float | None = None) -> str:
        """Like :meth:`request`, but returns the text of a ``=`` reply and raises EngineFailure on ``?``."""
        ...

    def known(self, command: str, timeout: float | None = None) -> bool:
        """True when the engine says ``known_command`` is true for ``command`` (False on any failure)."""
        ...

    def close(self) -> None:
        """Ask the engine to quit and release it; never raises."""
        ...


class _LinkBase:
    label = "engine"

    def request(self, command: str, timeout: float | None = None) -> Response:
        raise NotImplementedError

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send ``command``; return the text of the ``=`` reply. Raises EngineFailure on a ``?`` reply,
        and EngineTimeout / EngineDied / EngineProtocolError as :meth:`request` does."""
        response = self.request(command, timeout)
        if not response.ok:
            raise EngineFailure(command, response.text)
        return response.text

    def known(self, command: str, timeout: float | None = None) -> bool:
        """True when ``known_command command`` answers ``true``; False on any failure but a dead engine."""
        try:
            return self.send(f"known_command {command}", timeout).strip().lower() == "true"
        except (EngineFailure, EngineProtocolError):
            return False


class SubprocessEngine(_LinkBase):
    """An external GTP engine run as a child process.

    ``argv`` is the command line (a string is split like a shell would, without running a shell).
    Raises :class:`EngineDied` when the program cannot be started (not found, not executable).
    Its standard error is kept (last 40 lines) for crash reports, never mixed with the GTP stream.
    """

    def __init__(self, argv: Sequence[str] | str, *, label: str | None = None, cwd: str | None = None) -> None:
        args = shlex.split(argv) if isinstance(argv, str) else list(argv)
        if not args:
            raise EngineDied("empty engine command")
        self.argv = args
        self.label = label or os.path.basename(args[0])
        self._next_id = 1
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=40)
        self._dead = False
        try:
            self.proc = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
                bufsize=0,
            )
        except OSError as exc:
            raise EngineDied(f"cannot start {args[0]!r}: {exc.strerror or exc}") from None
        assert self.proc.stdout is not None and self.proc.stderr is not None
        self._readers = [
            threading.Thread(target=self._pump, args=(self.proc.stdout, self._lines), daemon=True),
            threading.Thread(target=self._drain, args=(self.proc.stderr,), daemon=True),
        ]
        for thread in self._readers:
            thread.start()

    # Each pipe is closed by the thread that reads it, never by another thread: closing a file descriptor
    # under a reader lets the next engine's pipe reuse that number, and the old reader would steal its bytes.

    @staticmethod
    def _pump(stream: IO[bytes], lines: queue.Queue[str | None]) -> None:
        # One reader thread per engine turns the blocking pipe into a queue that can be read with a timeout.
        try:
            for raw in iter(stream.readline, b""):
                lines.put(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        finally:
            stream.close()
            lines.put(None)

    def _drain(self, stream: IO[bytes]) -> None:
        try:
            for raw in iter(stream.readline, b""):
                self._stderr.append(raw.decode("utf-8", errors="replace").rstrip())
        except (OSError, ValueError):
            pass
        finally:
            stream.close()

    def stderr_tail(self, lines: int = 5) -> str:
        """The last ``lines`` lines the engine wrote to its standard error, joined by `` | ``."""
        return " | ".join(list(self._stderr)[-lines:])

    def _died(self, what: str) -> EngineDied:
        self._dead = True
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        # The process is gone, but its last words may still be in the pipe: let the reader reach the end (it does
        # at once unless a child of the engine holds the pipe open) so the message names the cause.
        self._readers[1].join(timeout=1.0)
        detail = f"exit code {code}" if code is not None else "output closed"
        tail = self.stderr_tail()
        return EngineDied(f"{self.label} {what} ({detail}){': ' + tail if tail else ''}")

    def request(self, command: str, timeout: float | None = None) -> Response:
        """Send ``command`` with a fresh id and wait up to ``timeout`` seconds (None: no limit) for the reply.

        Raises EngineTimeout, EngineDied or EngineProtocolError; the reply's id must match.
        """
        if self._dead or self.proc.poll() is not None:
            raise self._died("is not running")
        cmd_id = self._next_id
        self._next_id += 1
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(f"{cmd_id} {command}\n".encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise self._died(f"exited before {command.split()[0]!r}") from None
        deadline = None if timeout is None else time.monotonic() + timeout
        reply: list[str] = []
        while True:
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self._lines.get(timeout=wait)
            except queue.Empty:
                raise EngineTimeout(f"{self.label} gave no reply to {command!r} within {timeout:g} s") from None
            if line is None:
                raise self._died(f"exited during {command.split()[0]!r}")
            if not reply:
                if not line.strip():
                    continue  # blank lines between replies are harmless
                if line[0] not in "=?":
                    self._dead = True  # the stream is out of step: nothing it says later can be trusted
                    raise EngineProtocolError(f"{self.label}: answered {command!r} with {line[:60]!r}, not a GTP reply")
                reply.append(line)
            elif line.strip():
                reply.append(line)
            else:
                break
        try:
            response = parse_response(reply)
        except GtpError as exc:
            raise EngineProtocolError(f"{self.label}: {exc}") from None
        if response.id is not None and response.id != cmd_id:
            raise EngineProtocolError(f"{self.label}: reply id {response.id} to command id {cmd_id} ({command!r})")
        return response

    def close(self) -> None:
        """Send ``quit``, then terminate (and kill) the process if it lingers. Never raises."""
        if self.proc.poll() is None and not self._dead:
            try:
                self.request("quit", timeout=2.0)
                self.proc.wait(timeout=2.0)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=2.0)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        # The process is gone, so its pipes reach end of file and the reader threads close them.
        for thread in self._readers:
            thread.join(timeout=2.0)
        self._dead = True


class LineHandler(Protocol):
    """What :class:`InProcessEngine` needs: :meth:`keima.gtp_engine.GtpEngine.handle_line`."""

    def handle_line(self, line: str) -> tuple[str | None, bool]:
        """Answer one GTP line: (reply text or None, quit)."""
        ...


class InProcessEngine(_LinkBase):
    """keima's own :class:`~keima.gtp_engine.GtpEngine` driven in-process, through the same GTP text.

    A time limit cannot interrupt Python code, so it is checked after the fact: a reply that took longer
    than ``timeout`` raises :class:`EngineTimeout` all the same, as a process's link would.
    """

    def __init__(self, engine: LineHandler, label: str = "keima") -> None:
        # Any object with GtpEngine's handle_line will do: the protocol's package knows no front end (the GTP
        # engine stands two layers above it, on the seat).
        self.engine = engine
        self.label = label
        self._next_id = 1
        self.closed = False

    def request(self, command: str, timeout: float | None = None) -> Response:
        """Answer ``command`` through the engine's dispatcher. Raises EngineTimeout or EngineDied (after close)."""
        if self.closed:
            raise EngineDied(f"{self.label} was closed")
        cmd_id = self._next_id
        self._next_id += 1
        start = time.monotonic()
        reply, _quit = self.engine.handle_line(f"{cmd_id} {command}")
        elapsed = time.monotonic() - start
        if reply is None:
            raise EngineProtocolError(f"{self.label}: no reply to {command!r}")
        if timeout is not None and elapsed > timeout:
            raise EngineTimeout(f"{self.label} took {elapsed:.1f} s on {command!r}, limit {timeout:g} s")
        try:
            return parse_response(reply.rstrip("\n").split("\n"))
        except GtpError as exc:
            raise EngineProtocolError(f"{self.label}: {exc}") from None

    def close(self) -> None:
        """Mark the link closed; later requests raise EngineDied."""
        self.closed = True
