"""The line between a session's process and the server: JSON requests over a Unix socket.

A session's process asks the server for what only the server knows or may
do: the tables open here, opening one, the table owner's moves (bots fill the
open seats, start, deal, rematch), and, for a browser, the login. Each
process gets the socket's path and a key of its own (``ChildSpec.key``); the
first line it sends is ``{"key": KEY}``, which ties the connection to its
session and so to one person. The socket sits in a directory only the
server's user can enter (mode 0700).

Every further line is a request ``{"id": N, "op": NAME, ...}`` and gets one
answer ``{"id": N, "ok": true, ...}`` or ``{"id": N, "ok": false, "error": TEXT}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import threading
from typing import Any, Awaitable, Callable

log = logging.getLogger("uno_tui.serve")

MAX_LINE = 256 * 1024
"""A longer request is refused and its connection closed."""
TIMEOUT = 10.0
"""Seconds a session's process waits for an answer."""


class ControlError(ValueError):
    """The server refused a request; the message is fit to show a person."""


Handler = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
"""``handler(op, request) -> answer fields``; raising :class:`ValueError` refuses with its message."""
Resolve = Callable[[str], "Handler | None"]
"""``resolve(key)`` -> the handler of that session, or None for a key nobody was given."""


class ControlServer:
    """The server's end: one connection per session process."""

    def __init__(self, path: str, resolve: Resolve) -> None:
        self.path = path
        self.resolve = resolve
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        self._server = await asyncio.start_unix_server(self._serve, path=self.path, limit=MAX_LINE)

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            first = json.loads(await asyncio.wait_for(reader.readline(), TIMEOUT))
            handler = self.resolve(str(first.get("key", ""))) if isinstance(first, dict) else None
            if handler is None:
                return
            while line := await reader.readline():
                request = json.loads(line)
                if not isinstance(request, dict):
                    return
                answer: dict[str, Any]
                try:
                    answer = {"ok": True, **await handler(str(request.get("op", "")), request)}
                except ValueError as e:
                    answer = {"ok": False, "error": str(e)}
                except Exception as e:  # a bug of ours: say so, keep serving the others
                    log.exception("control request %r failed", request.get("op"))
                    answer = {"ok": False, "error": f"the server failed: {type(e).__name__}"}
                answer["id"] = request.get("id")
                writer.write(json.dumps(answer).encode() + b"\n")
                await writer.drain()
        except (ValueError, asyncio.TimeoutError, asyncio.LimitOverrunError, ConnectionError,
                asyncio.IncompleteReadError):
            pass  # a garbled or silent connection: drop it
        finally:
            writer.close()


class ControlClient:
    """The session process's end: blocking calls, safe from any thread (workers call it)."""

    def __init__(self, path: str, key: str) -> None:
        self.path = path
        self.key = key
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._file: Any = None
        self._next = 0

    def _connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(TIMEOUT)
        sock.connect(self.path)
        sock.sendall(json.dumps({"key": self.key}).encode() + b"\n")
        self._sock, self._file = sock, sock.makefile("rb")

    def call(self, op: str, **fields: Any) -> dict[str, Any]:
        """Ask the server; the answer's fields, or :class:`ControlError` with its reason."""
        with self._lock:
            try:
                if self._sock is None:
                    self._connect()
                assert self._sock is not None
                self._next += 1
                self._sock.sendall(json.dumps({"id": self._next, "op": op, **fields}).encode() + b"\n")
                line = self._file.readline(MAX_LINE)
            except OSError as e:
                self.close()
                raise ControlError(f"the server did not answer ({e.strerror or e})") from None
            if not line:
                self.close()
                raise ControlError("the server has closed this session")
        answer = json.loads(line)
        if not answer.get("ok"):
            raise ControlError(str(answer.get("error") or "refused"))
        return answer

    def close(self) -> None:
        for thing in (self._file, self._sock):
            if thing is not None:
                with contextlib.suppress(OSError):
                    thing.close()
        self._sock = self._file = None
