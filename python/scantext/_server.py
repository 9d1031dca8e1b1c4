"""The `scantext` binary and one long-running `scantext query` process."""

import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
import weakref
from pathlib import Path
from typing import Any, Dict, List, Optional

__all__ = ["QueryError", "ServerError", "find_binary", "run", "run_process", "failure", "Server"]


class QueryError(Exception):
    """A request the server refused: its answer was ``{"error": ...}``.

    ``str(error)`` is the server's message (``"there is no page 5 (the
    document has 1)"``); ``request`` is the request that got it. The session
    goes on: the next request is answered as usual.
    """

    def __init__(self, message: str, request: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.request = request


class ServerError(QueryError):
    """The `scantext` process is gone, did not answer in time, or could not
    run: the message says which (its exit status or signal, its last error
    output). A document whose server failed raises this on every later
    request; open it again to start a new one."""


def find_binary() -> str:
    """The `scantext` executable to run.

    ``SCANTEXT`` when it is set, then ``scantext`` on ``PATH``, then the
    checkout's ``.build/release/scantext`` and ``.build/debug/scantext``
    (the package's source folder is ``python/`` in a ScanText checkout).

    Raises:
        ServerError: when none of them is an executable file.
    """
    named = os.environ.get("SCANTEXT")
    if named:
        if os.path.isfile(named) and os.access(named, os.X_OK):
            return named
        raise ServerError(f"SCANTEXT={named} is not an executable file")
    on_path = shutil.which("scantext")
    if on_path:
        return on_path
    checkout = Path(__file__).resolve().parent.parent.parent
    for configuration in ("release", "debug"):
        candidate = checkout / ".build" / configuration / "scantext"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    raise ServerError(
        "cannot find the scantext binary: set SCANTEXT, put scantext on PATH, "
        f"or build it in {checkout} (swift build)"
    )


def run(arguments: List[str], timeout: Optional[float] = None) -> bytes:
    """Runs ``scantext ARGUMENTS`` and returns its standard output.

    Raises:
        ServerError: when it exits non-zero (with its error output), or runs
            longer than ``timeout`` seconds (it is killed).
    """
    done = run_process(arguments, timeout)
    if done.returncode != 0:
        raise ServerError(failure(arguments, done))
    return done.stdout


def run_process(arguments: List[Any], timeout: Optional[float]) -> "subprocess.CompletedProcess[bytes]":
    """Runs ``scantext ARGUMENTS`` to its end, whatever its exit status.

    Raises:
        ServerError: when it runs longer than ``timeout`` seconds (it is
            killed).
    """
    command = [find_binary()] + [str(a) for a in arguments]
    try:
        return subprocess.run(
            command, stdin=subprocess.DEVNULL, capture_output=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        raise ServerError(f"scantext {arguments[0]} ran longer than {timeout} s") from None


def failure(arguments: List[Any], done: "subprocess.CompletedProcess[bytes]") -> str:
    """What a failed run says: the command, its exit status, its errors."""
    message = done.stderr.decode("utf-8", "replace").strip()
    return (f"scantext {' '.join(str(a) for a in arguments)} failed "
            f"(exit {done.returncode}): {message}")


class Server:
    """One `scantext query MODEL` process: one JSON request per line in, one
    answer per line out, in order.

    The process starts with the object and ends with :meth:`close` (or when
    the object is collected). Answers are read with a deadline, so a server
    that dies or hangs raises :class:`ServerError` instead of blocking.

    The deadline is kept by a watchdog thread that kills a server which has
    not answered in time (the blocked read then ends), not by a ``select``
    before each read: a plain buffered ``readline`` costs a request no more
    than a hand-written client (``Tools/bench/python-bench``, docs/python.md).
    """

    #: How often the watchdog looks at the deadline, in seconds: the
    #: precision of ``timeout``.
    watch_interval = 0.1

    def __init__(self, model: str, timeout: float = 60.0):
        self.model = model
        self.timeout = timeout
        self._failure: Optional[str] = None
        self._deadline: Optional[float] = None
        self._timed_out = False
        # One request at a time: answers come back in order, so threads
        # sharing a document take turns.
        self._lock = threading.Lock()
        # Error output goes to a file, not a pipe: a pipe nobody reads could
        # fill and block the server.
        self._stderr = tempfile.TemporaryFile()
        try:
            self.process: Optional[subprocess.Popen] = subprocess.Popen(
                [find_binary(), "query", "--", model],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
            )
        except OSError as error:
            self._stderr.close()
            self.process = None
            raise ServerError(f"cannot start scantext query {model}: {error}") from None
        # The thread holds the server weakly, so that it never keeps a
        # document alive; it ends when the server is closed or collected.
        threading.Thread(
            target=Server._watch, args=(weakref.ref(self),), daemon=True,
            name=f"scantext query watchdog {self.process.pid}",
        ).start()

    @staticmethod
    def _watch(reference: "weakref.ref[Server]") -> None:
        while True:
            server = reference()
            if server is None or server.process is None:
                return
            deadline, process = server._deadline, server.process
            if deadline is not None and time.monotonic() > deadline:
                server._timed_out = True
                process.kill()
                return
            del server, process
            time.sleep(Server.watch_interval)

    @property
    def pid(self) -> Optional[int]:
        """The process id of the server (``None`` once closed)."""
        return self.process.pid if self.process else None

    def request(self, request: Dict[str, Any]) -> Dict[str, Any]:
        """Sends one request and returns its answer.

        Raises:
            QueryError: the server's ``{"error": ...}`` answer.
            ServerError: the server is gone or did not answer within
                ``timeout`` seconds.
        """
        with self._lock:
            return self._request(request)

    def _request(self, request: Dict[str, Any]) -> Dict[str, Any]:
        if self._failure is not None:
            raise ServerError(self._failure)
        if self.process is None:
            raise ServerError(f"the query server for {self.model} is closed")
        # A request JSON cannot carry (NaN, infinity) or UTF-8 cannot (a
        # lone surrogate) is the caller's error, raised before it is sent:
        # the server stays as it was.
        try:
            line = json.dumps(request, separators=(",", ":"), ensure_ascii=False,
                              allow_nan=False).encode("utf-8")
        except ValueError as error:  # UnicodeEncodeError is a ValueError
            raise QueryError(f"the request cannot be sent as JSON: {error}", request) from None
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line + b"\n")
            self.process.stdin.flush()
        except OSError:
            self._fail("stopped before a request could be sent")
        answer = json.loads(self._read_line(request))
        if isinstance(answer, dict) and "error" in answer:
            raise QueryError(str(answer["error"]), request)
        return answer

    def _read_line(self, request: Dict[str, Any]) -> bytes:
        assert self.process is not None and self.process.stdout is not None
        self._deadline = time.monotonic() + self.timeout
        try:
            line = self.process.stdout.readline()
        finally:
            self._deadline = None
        if self._timed_out:
            self._fail(f"did not answer {request.get('op')!r} within {self.timeout} s (killed)")
        if not line.endswith(b"\n"):
            self._fail(f"stopped while answering {request.get('op')!r}")
        return line

    def _fail(self, what: str) -> None:
        process = self.process
        assert process is not None
        if process.poll() is None:
            process.kill()
        status = process.wait()
        if status < 0:
            how = f"killed by signal {-status}"
        else:
            how = f"exit {status}"
        self._stderr.seek(0)
        output = self._stderr.read().decode("utf-8", "replace").strip()
        message = f"scantext query {self.model} {what} ({how})"
        if output:
            message += ": " + output.splitlines()[-1]
        self._failure = message
        self.close()
        raise ServerError(message)

    def close(self) -> None:
        """Ends the server: closes its input (it exits at end of input), then
        kills it if it has not exited within 5 s. Safe to call twice."""
        process, self.process = self.process, None
        if process is None:
            return
        try:
            if process.stdin:
                process.stdin.close()
        except OSError:
            pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout:
            process.stdout.close()
        self._stderr.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
