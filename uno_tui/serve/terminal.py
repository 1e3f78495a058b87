"""One person's terminal, whichever way it came (an SSH channel or a browser's websocket).

A :class:`TerminalSession` sits between a *transport* (bytes out, a close)
and a session process drawing on a pseudo-terminal of its own. It:

* turns away what cannot be served, in words: a full server, an SSH
  session without a pty, a command instead of a shell, a terminal type
  that is not an ANSI terminal, a window too small (it waits, saying so,
  until the window is resized);
* copies the pty's output to the transport and the person's keys to the
  pty, and passes window changes on (the pty's size; the kernel tells the
  process with ``SIGWINCH``);
* stops reading the pty while the transport is backed up (a slow client
  then slows only its own process, whose writes block) and drops keys that
  pile up past :data:`MAX_PENDING_INPUT` while its process does not read;
* closes the session after ``idle_timeout`` seconds without a key, and
  hangs up the process when the person goes away.

Nothing here waits on another session: each does its I/O through the
event loop's readiness callbacks, and the drawing happens in the processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import re
import secrets
import struct
import termios
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .access import Admission
    from .config import ServeConfig
    from .people import People, Person
    from .spawn import Child

log = logging.getLogger("uno_tui.serve")

READ_CHUNK = 64 * 1024
MAX_PENDING_INPUT = 64 * 1024
"""Keys waiting for a process that does not read them; past this, more are dropped."""
MAX_SIZE = 1000
"""A window wider or taller than this is taken as this (a hostile size must not cost memory)."""

ANSI_TERMINALS = (
    "xterm", "screen", "tmux", "rxvt", "linux", "vt100", "vt102", "vt220", "vt320", "ansi", "alacritty",
    "kitty", "foot", "wezterm", "st", "putty", "konsole", "gnome", "iterm", "cygwin", "contour", "ms-terminal",
    "mintty", "eterm", "terminator", "mlterm", "nsterm", "hterm", "ghostty", "rio", "zellij", "vscode",
)
"""Terminal type names (the part before the first ``-``, ``.`` or ``+``) of terminals that understand ANSI escapes."""

CLEAR = b"\x1b[0m\x1b[H\x1b[2J"
RESTORE = (b"\x1b[<u\x1b[?1049l\x1b[?25h\x1b[?7h\x1b[?1000l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1016l"
           b"\x1b[?1004l\x1b[?2004l\x1b[?2048l\x1b[?2026l\x1b[0m")
"""The person's terminal as it was (no Kitty keyboard protocol, main screen, cursor shown, lines that
wrap, no mouse, focus, paste or size reports), whatever state a process that was stopped, or crashed,
left it in."""
MIN_SIZE = (60, 18)
"""The tables' smallest window (``uno_tui.screens.table.MIN_SIZE``, which a test holds this to;
not imported, so that the server does not load Textual)."""


def duration_words(seconds: float) -> str:
    """``1800`` -> "30 minutes", ``90`` -> "90 seconds", ``60`` -> "1 minute"."""
    if seconds >= 60 and seconds % 60 == 0:
        n, unit = int(seconds // 60), "minute"
    else:
        n, unit = round(seconds), "second"
    return f"{n} {unit}{'s' if n != 1 else ''}"


def terminal_known(term: str) -> bool:
    """Whether ``term`` (``$TERM``) names an ANSI terminal Textual can draw on."""
    family = re.split(r"[-.+]", term.strip().lower(), maxsplit=1)[0]
    return family in ANSI_TERMINALS


def fit_size(width: int, height: int) -> tuple[int, int]:
    return max(1, min(int(width), MAX_SIZE)), max(1, min(int(height), MAX_SIZE))


class Hub(Protocol):
    """What a session, and the SSH and web fronts that start one, ask of the server that runs them
    (:class:`~.server.ServeServer` is one; naming it here would make the modules import each other)."""

    config: ServeConfig
    admission: Admission
    people: People
    host_key: Any
    ssh_port: int | None
    web_port: int | None
    public_host: str

    def admit(self, session: TerminalSession) -> bool:
        """Whether there is room for one more session (the server counts it if so)."""

    def release(self, session: TerminalSession) -> None:
        """The session has ended: its room is free."""

    async def spawn(self, session: TerminalSession, tty: str) -> Child:
        """Start the session's process on ``tty``."""


class Transport(Protocol):
    """Where a session's bytes go: an SSH channel or a websocket."""

    def write(self, data: bytes) -> None: ...

    def close(self, status: int) -> None: ...


class TerminalSession:
    """A person's terminal and the session process drawing on it."""

    def __init__(self, server: Hub, transport: Transport, *, kind: str, person: "Person | None",
                 term: str | None, size: tuple[int, int] | None, env: dict[str, str] | None = None,
                 command: str | None = None) -> None:
        self.server = server
        self.transport = transport
        self.kind = kind
        """``"ssh"`` or ``"web"``."""
        self.person = person
        """Who this is; None for a browser until its login."""
        self.term = term
        self.size = fit_size(*size) if size else None
        self.env = dict(env or {})
        self.command = command
        """An SSH command given instead of a shell (refused)."""
        self.key = secrets.token_urlsafe(24)
        """This session's key on the control socket."""
        self.child: "Child | None" = None
        self._master: int | None = None
        self._slave: int | None = None
        self._pending = bytearray()
        self._paused = False
        self._gone = asyncio.Event()
        self._farewell = ""
        self._size_ok = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        self.last_input = self._loop.time()

    # -- from the transport ---------------------------------------------------------------
    def feed(self, data: bytes) -> None:
        """Keys from the person."""
        self.last_input = self._loop.time()
        if self._master is None:
            if self.size is not None and not self._size_ok.is_set() and data[:1] in (b"q", b"\x03", b"\x04", b"\x11"):
                self.hangup()  # q, ctrl+c, ctrl+d or ctrl+q while waiting for a larger window
            return
        if len(self._pending) + len(data) > MAX_PENDING_INPUT:
            return
        self._pending += data
        self._flush_input()

    def resize(self, width: int, height: int) -> None:
        self.size = fit_size(width, height)
        if self._master is not None:
            self._set_pty_size()
        elif not self._too_small():
            self._size_ok.set()

    def pause_output(self) -> None:
        """The transport is backed up: stop reading the pty (its process blocks in its own writes)."""
        if not self._paused and self._master is not None:
            self._loop.remove_reader(self._master)
        self._paused = True

    def resume_output(self) -> None:
        if self._paused and self._master is not None:
            self._loop.add_reader(self._master, self._readable)
        self._paused = False

    def hangup(self, farewell: str = "") -> None:
        """The person has gone (closed the connection, or asked to), or is sent away with ``farewell``."""
        self._farewell = self._farewell or farewell
        self._gone.set()

    # -- the session's life ---------------------------------------------------------------
    async def run(self) -> None:
        """Serve the terminal until the person leaves or is sent away; closes the transport."""
        status = 1
        try:
            refusal = self._refusal()
            if refusal:
                self.say(refusal)
                return
            if not self.server.admit(self):
                limit = self.server.config.max_sessions
                self.say(f"This uno-tui server is full ({limit} players at once). Try again in a while.")
                return
            try:
                if await self._wait_for_size():
                    status = await self._serve()
            finally:
                self.server.release(self)
        except Exception:
            log.exception("a %s session failed", self.kind)
            self._farewell = "uno-tui: this session failed on the server. Connect again to go on."
        finally:
            await self._close()
            if self.child is not None:  # whatever the process left the terminal in, the person's comes back
                self.transport.write(RESTORE)
            if self._farewell:
                self.say(self._farewell)
            self.transport.close(status)

    def _refusal(self) -> str:
        if self.command is not None:
            return ("This server runs uno-tui, not commands: connect without one, "
                    f"e.g. ssh -p {self.server.ssh_port} NAME@{self.server.public_host}")
        if self.kind == "ssh" and (self.term is None or self.size is None):
            return ("uno-tui needs a terminal, and this session has none. Connect with ssh -t "
                    f"(e.g. ssh -t -p {self.server.ssh_port} NAME@{self.server.public_host}).")
        if self.term is not None and not terminal_known(self.term):
            return (f"uno-tui draws with ANSI escape codes, and your terminal says it is {self.term!r}, "
                    "which is not one that understands them. If it does, tell ssh: "
                    f"TERM=xterm-256color ssh -p {self.server.ssh_port} NAME@{self.server.public_host}")
        return ""

    def _too_small(self) -> bool:
        return self.size is not None and (self.size[0] < MIN_SIZE[0] or self.size[1] < MIN_SIZE[1])

    async def _wait_for_size(self) -> bool:
        """True once the window is large enough; False if the person left (or idled) first."""
        if not self._too_small():
            return True
        assert self.size is not None
        self.say(f"This window is {self.size[0]}×{self.size[1]}. uno-tui needs at least {MIN_SIZE[0]}×{MIN_SIZE[1]} "
                 "(80×24 is best): make it larger and the game starts. q leaves.")
        waits = [asyncio.ensure_future(self._size_ok.wait()), asyncio.ensure_future(self._gone.wait())]
        try:
            await asyncio.wait(waits, timeout=self.server.config.idle_timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waits:
                w.cancel()
        if self._size_ok.is_set() and not self._gone.is_set():
            self.transport.write(CLEAR)
            return True
        return False

    async def _serve(self) -> int:
        self._master, self._slave = os.openpty()
        os.set_blocking(self._master, False)
        self._set_pty_size()
        self.child = await self.server.spawn(self, os.ttyname(self._slave))
        if not self._paused:
            self._loop.add_reader(self._master, self._readable)
        idle = self.server.config.idle_timeout
        ended = asyncio.ensure_future(self.child.wait())
        gone = asyncio.ensure_future(self._gone.wait())
        try:
            while True:
                left = self.last_input + idle - self._loop.time()
                if left <= 0:
                    self._farewell = (f"Closed after {duration_words(idle)} without a key press. "
                                      "Connect again to play on: your seat waits for you.")
                    return 0
                await asyncio.wait([ended, gone], timeout=left, return_when=asyncio.FIRST_COMPLETED)
                if ended.done() or gone.done():
                    return 0
        finally:
            ended.cancel()
            gone.cancel()

    # -- the pty ------------------------------------------------------------------------------
    def _set_pty_size(self) -> None:
        assert self._master is not None and self.size is not None
        cols, rows = self.size
        with contextlib.suppress(OSError):
            fcntl.ioctl(self._master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def _readable(self) -> None:
        assert self._master is not None
        try:
            data = os.read(self._master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as e:  # EIO: the process has closed the terminal
            if e.errno == errno.EIO:
                self._loop.remove_reader(self._master)
                return
            raise
        if data:
            self.transport.write(data)

    def _drain(self) -> None:
        """What the process wrote just before it ended (its last frame, a message)."""
        if self._master is None or self._paused:
            return
        for _ in range(64):
            try:
                data = os.read(self._master, READ_CHUNK)
            except OSError:
                return
            if not data:
                return
            self.transport.write(data)

    def _flush_input(self) -> None:
        master = self._master
        if master is None or not self._pending:
            return
        try:
            n = os.write(master, self._pending)
        except BlockingIOError:
            n = 0
        except OSError:
            self._pending.clear()
            return
        del self._pending[:n]
        with contextlib.suppress(Exception):
            self._loop.remove_writer(master)
        if self._pending:
            self._loop.add_writer(master, self._flush_input)

    async def _close(self) -> None:
        """Stop the process, pass on what it wrote last, close the pty."""
        if self.child is not None:
            await self.child.stop()
            self._drain()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(Exception):
                    self._loop.remove_reader(fd)
                with contextlib.suppress(Exception):
                    self._loop.remove_writer(fd)
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None

    # -- words to the person ----------------------------------------------------------------
    def say(self, text: str) -> None:
        """A plain message on the terminal (before or after the process draws)."""
        self.transport.write(b"\x1b[0m\r\n" + text.encode("utf-8").replace(b"\n", b"\r\n") + b"\r\n")
