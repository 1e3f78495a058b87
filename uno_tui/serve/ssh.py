"""The SSH front: ``ssh -p PORT NAME@HOST`` and uno-tui is in your terminal.

asyncssh does the protocol. Each connection is admitted by the rule of
:mod:`.access`; the name typed before ``@`` is the player's name, and an SSH
key, when one was used to come in, is the player's lasting identity
(:mod:`.people`). One session channel per connection, no forwarding of any
kind, no commands, no SFTP.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import asyncssh

from .terminal import Hub, TerminalSession


log = logging.getLogger("uno_tui.serve")

CLIENT_ENV = ("LANG", "LC_ALL", "LC_CTYPE", "COLORTERM")
"""What a client may tell a session about its terminal (with ``SendEnv``); nothing else is taken."""
LOGIN_TIMEOUT = 30.0
ENCRYPTION = ("aes256-gcm@openssh.com", "aes128-gcm@openssh.com", "aes256-ctr", "aes192-ctr", "aes128-ctr")
"""The ciphers offered. Not ChaCha20-Poly1305, the first choice of OpenSSH's client (and so of the
connection, when offered): asyncssh builds it from several calls per packet, 60 µs a packet on this
machine against 9 for AES-GCM, about 1.5 ms of the server's CPU on each session's way to its menu
(and as much of an asyncssh client's), and 50 µs more on every packet after. AES-GCM is as strong
and, unlike it, untouched by the Terrapin prefix truncation (CVE-2023-48795) against clients without
strict key exchange. The CTR modes are for clients without GCM (PuTTY before 0.76)."""
KEEPALIVE = 30.0
"""Seconds between keepalives; three unanswered close the connection (a vanished client)."""
WRONG_PASSWORD_DELAY = 1.0


class _Channel:
    """A :class:`~.terminal.Transport` over an SSH channel."""

    def __init__(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    def write(self, data: bytes) -> None:
        if not self.chan.is_closing():
            self.chan.write(data)

    def close(self, status: int) -> None:
        if not self.chan.is_closing():
            self.chan.exit(status)


class _Session(asyncssh.SSHServerSession):  # type: ignore[misc]
    """One SSH session channel: the pty's type and size, the keys, the resizes."""

    def __init__(self, connection: "_Connection") -> None:
        self.connection = connection
        self.chan: asyncssh.SSHServerChannel | None = None
        self.term: str | None = None
        self.size: tuple[int, int] | None = None
        self.command: str | None = None
        self.terminal: TerminalSession | None = None
        self._early: list[tuple[str, Any]] = []

    def connection_made(self, chan: asyncssh.SSHServerChannel) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term = term_type
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command  # answered with a sentence, then closed
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        front = self.connection.front
        env = {k: v for k, v in self.chan.get_environment().items() if k in CLIENT_ENV and len(v) < 100}
        self.terminal = TerminalSession(front.server, _Channel(self.chan), kind="ssh",
                                        person=self.connection.person(), term=self.term, size=self.size, env=env,
                                        command=self.command)
        for kind, value in self._early:
            self._apply(kind, value)
        front.track(asyncio.ensure_future(self.terminal.run()))

    def _apply(self, kind: str, value: Any) -> None:
        if self.terminal is None:
            self._early.append((kind, value))
        elif kind == "data":
            self.terminal.feed(value)
        elif kind == "size":
            self.terminal.resize(*value)
        elif kind == "eof":
            self.terminal.hangup()

    def data_received(self, data: bytes, datatype: Any) -> None:
        self._apply("data", data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        if self.terminal is None:
            self.size = (width or 80, height or 24)
        else:
            self.terminal.resize(width or 80, height or 24)

    def pause_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.pause_output()

    def resume_writing(self) -> None:
        if self.terminal is not None:
            self.terminal.resume_output()

    def eof_received(self) -> bool:
        # The person's input has ended (``ssh ... < /dev/null`` sends it at once, before the session
        # has started): their session ends, but the channel stays open for our last words and the
        # exit status, which the session sends as it closes.
        self._apply("eof", None)
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        if self.terminal is not None:
            self.terminal.hangup()


class _Connection(asyncssh.SSHServer):  # type: ignore[misc]
    """One client connection: how it comes in, and who it is."""

    def __init__(self, front: "SSHFront") -> None:
        self.front = front
        self.admission = front.server.admission
        self.username = ""
        self.peer = ("", "")
        self._candidate: asyncssh.SSHKey | None = None
        self._key: asyncssh.SSHKey | None = None
        self._sessions = 0

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername") or ("", 0)
        self.peer = (str(peer[0]), str(peer[0]))

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True  # always ask, so that a key, when the client has one, names its holder

    # A key: listed ones with --authorized-keys; any when the server is open.
    def public_key_auth_supported(self) -> bool:
        return self.admission.authorized is not None or self.admission.open

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        ok = self.admission.key_allowed(key, *self.peer)
        # asyncssh asks again with the signature before it lets the key in: the last key asked about
        # is the one that came in, unless another method succeeds after it (which clears it).
        self._candidate = key if ok else None
        return ok

    # A password (or keyboard-interactive): the password with --password; anything when open.
    def password_auth_supported(self) -> bool:
        return self.admission.password is not None or self.admission.open

    async def validate_password(self, username: str, password: str) -> bool:
        if self.admission.password_ok(password):
            self._candidate = None
            return True
        await asyncio.sleep(WRONG_PASSWORD_DELAY)
        return False

    def kbdint_auth_supported(self) -> bool:
        return self.password_auth_supported()

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> Any:
        if self.admission.open:
            self._candidate = None
            return True  # in without a question
        return "", "", "", [("uno-tui password: ", False)]

    async def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return len(responses) == 1 and await self.validate_password(username, responses[0])

    def auth_completed(self) -> None:
        self._key = self._candidate

    def person(self) -> Any:
        people = self.front.server.people
        if self._key is not None:
            return people.by_key(self._key.public_data, self.username)
        return people.by_name(self.username)

    def session_requested(self) -> Any:
        self._sessions += 1
        if self._sessions > 1:
            return False  # one game per connection
        return _Session(self)


class SSHFront:
    """The SSH listener."""

    def __init__(self, server: Hub) -> None:
        self.server = server
        self._acceptor: Any = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self, bind: str, port: int) -> int:
        """Listen; the port (as bound, for port 0)."""
        self._acceptor = await asyncssh.create_server(
            lambda: _Connection(self), bind or None, port, server_host_keys=[self.server.host_key],
            encoding=None, line_editor=False, login_timeout=LOGIN_TIMEOUT, keepalive_interval=KEEPALIVE,
            keepalive_count_max=3, encryption_algs=ENCRYPTION, agent_forwarding=False, x11_forwarding=False,
            allow_scp=False, server_version="uno-tui")
        return int(self._acceptor.sockets[0].getsockname()[1])

    def track(self, task: asyncio.Task[None]) -> None:
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def close(self) -> None:
        if self._acceptor is not None:
            self._acceptor.close()
