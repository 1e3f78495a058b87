"""``uno-tui serve``: one process serving the game over SSH and, optionally, to browsers.

:class:`ServeServer` puts the parts together:

* the door (:mod:`.access`): the host key and who may come in;
* the fronts: SSH (:mod:`.ssh`, asyncssh) and the web (:mod:`.web`, the
  page and terminal of ``textual-serve``), each turning a connection into a
  :class:`~.terminal.TerminalSession`;
* the session processes (:mod:`.spawn`, :mod:`.child`), one per terminal,
  on a pseudo-terminal of their own;
* the tables (:mod:`.tables`) and the control socket through which the
  session processes list, open and run them (:mod:`.control`);
* the people (:mod:`.people`): a directory of uno-tui files per SSH key, or
  per name for the server's life.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import os
import shutil
import socket
import tempfile
from pathlib import Path
from typing import Any, TextIO

from net import discovery

from .access import Admission, load_host_key
from .child import ChildSpec
from .config import ServeConfig
from .control import ControlServer, Handler
from .people import People, clean_name
from .spawn import Child, Spawner
from .tables import TableRoom
from .terminal import TerminalSession, duration_words

log = logging.getLogger("uno_tui.serve")

FAIRNESS = "Whoever runs this server could see your hand (your own uno-tui seals it)."
"""The menu's one-line notice: a game played here runs on this machine (docs/playing-together.md says more)."""

WILDCARDS = ("0.0.0.0", "", "::")
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TMPDIR", "PYTHONPATH",
            "VIRTUAL_ENV")
"""What a session's process keeps of the server's environment (not its terminal, agent or secrets)."""
LOGIN_TRIES = 5
"""Wrong passwords a browser may type before its session is closed."""


def default_state_dir() -> Path:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "uno-tui" / "serve"


class ServeServer:
    """The running server. ``await start()``, then ``await wait_closed()`` (or ``close()``)."""

    def __init__(self, config: ServeConfig, admission: Admission | None = None, *,
                 spawner: Spawner | None = None) -> None:
        """``spawner``: a fork server to share (tests start one for many servers); by default, its own."""
        self.config = config
        self.admission = admission or Admission.from_options(config.authorized_keys, config.password)
        self.sessions: set[TerminalSession] = set()
        self.ssh_port = config.ssh_port
        self.web_port = config.web_port
        self.public_host = discovery.local_ip() if config.bind in WILDCARDS else config.bind
        self._by_key: dict[str, TerminalSession] = {}
        self._closed = asyncio.Event()
        self._runtime: Path | None = None
        self.host_key: Any = None
        self.room: TableRoom | None = None
        self.control: ControlServer | None = None
        self.ssh: Any = None
        self.web: Any = None
        self.spawner = spawner
        self._own_spawner = spawner is None

    # -- life cycle --------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen (OSError when a port is taken; ValueError for an unusable host key)."""
        cfg = self.config
        self.host_key = load_host_key(cfg.host_key)
        self._runtime = Path(tempfile.mkdtemp(prefix="uno-tui-serve-"))  # mode 0700: the control socket's home
        state = Path(cfg.state_dir) if cfg.state_dir else default_state_dir()
        self.crash_log = state / "crashes.log"
        self.people = People(state / "people", self._runtime / "people")
        if self.spawner is None:
            self.spawner = Spawner()
        await self.spawner.warm()
        self.control = ControlServer(str(self._runtime / "control.sock"), self._handler_for)
        await self.control.start()
        keys_only = self.admission.authorized is not None and self.admission.password is None
        # With keys only, outsiders have no key to show a table: its port stays on this machine.
        tables_bind = "127.0.0.1" if keys_only else cfg.bind
        local = "127.0.0.1" if tables_bind in ("0.0.0.0", "") else "::1" if tables_bind == "::" else tables_bind
        self.room = TableRoom(people=self.people, runtime=self._runtime, bind=tables_bind, local=local,
                              outside_host=None if keys_only else self.public_host, password=cfg.password,
                              bot_delay=cfg.bot_delay, max_tables=cfg.max_sessions)
        self.room.start()
        if cfg.ssh_port is not None:
            from .ssh import SSHFront

            self.ssh = SSHFront(self)
            self.ssh_port = await self.ssh.start(cfg.bind, cfg.ssh_port)
        if cfg.web_port is not None:
            from .web import WebFront

            self.web = WebFront(self)
            self.web_port = await self.web.start(cfg.bind, cfg.web_port)

    async def wait_closed(self) -> None:
        await self._closed.wait()

    async def close(self) -> None:
        """Send everyone away, close the tables and the listeners."""
        for session in list(self.sessions):
            session.hangup("The uno-tui server is closing. Thanks for playing!")
        if self.ssh is not None:
            self.ssh.close()
        if self.web is not None:
            await self.web.close()
        for _ in range(100):  # the sessions hang up their processes (each within its grace)
            if not self.sessions:
                break
            await asyncio.sleep(0.05)
        if self.room is not None:
            await self.room.close()
        if self.control is not None:
            await self.control.close()
        if self.spawner is not None and self._own_spawner:
            self.spawner.close()
        if self._runtime is not None:
            shutil.rmtree(self._runtime, ignore_errors=True)
        self._closed.set()

    def banner(self) -> list[str]:
        """What ``uno-tui serve`` prints when it is ready."""
        host = self.public_host
        port_flag = "" if self.ssh_port == 22 else f"-p {self.ssh_port} "
        fp = self.host_key.get_fingerprint() if self.host_key is not None else "?"
        lines = []
        if self.ssh_port is not None:
            lines += [f"uno-tui serve: SSH on {self.config.bind or '*'}:{self.ssh_port} (host key {fp})",
                      f"  friends play with:  ssh {port_flag}NAME@{host}"]
        else:
            lines.append(f"uno-tui serve: the web on {self.config.bind or '*'}:{self.web_port}")
        if self.web_port is not None:
            lines.append(f"  in a browser:       http://{host}:{self.web_port}/")
        lines.append(f"  who may come in:    {self.admission.describe()}")
        lines.append(f"  at most {self.config.max_sessions} sessions at once; a session idle for "
                     f"{duration_words(self.config.idle_timeout)} is closed. ctrl+c stops the server.")
        return lines

    # -- sessions ----------------------------------------------------------------------------
    def admit(self, session: TerminalSession) -> bool:
        """Count a session in, unless the server is full."""
        if len(self.sessions) >= self.config.max_sessions:
            return False
        self.sessions.add(session)
        self._by_key[session.key] = session
        log.info("%s came in (%s, %d session%s)", session.person.name if session.person else "someone on the web",
                 session.kind, len(self.sessions), "s" if len(self.sessions) != 1 else "")
        return True

    def release(self, session: TerminalSession) -> None:
        self.sessions.discard(session)
        self._by_key.pop(session.key, None)
        log.info("%s left (%d session%s)", session.person.name if session.person else "someone on the web",
                 len(self.sessions), "s" if len(self.sessions) != 1 else "")

    async def spawn(self, session: TerminalSession, tty: str) -> Child:
        """The session's process, on the terminal ``tty``."""
        assert self._runtime is not None and self.control is not None
        env = {k: os.environ[k] for k in KEPT_ENV if k in os.environ}  # (not a walk through all of it)
        env["TERM"] = session.term or "xterm-256color"
        env.update(session.env)
        # Until a browser's login names the person, nobody's files: a directory of its own, thrown away.
        nobody = self._runtime / "nobody" / session.key
        env.update(UNO_TUI_CONFIG_DIR=str(nobody / "config"), XDG_STATE_HOME=str(nobody / "state"))
        if session.person is not None:
            env.update(session.person.env)
        spec = ChildSpec(
            tty=tty, env=env, control=self.control.path, key=session.key,
            name=session.person.name if session.person is not None else None,
            ask_password=self.admission.password is not None, table_password=self.config.password,
            info={"server": socket.gethostname(), "fairness": FAIRNESS, "join_host": self.public_host},
            pacing=self.config.pacing, crash_log=str(self.crash_log))
        assert self.spawner is not None
        return await self.spawner.start(spec)

    # -- the control socket --------------------------------------------------------------------
    def _handler_for(self, key: str) -> Handler | None:
        session = self._by_key.get(key)
        if session is None:
            return None
        tries = [0]

        async def handle(op: str, request: dict[str, Any]) -> dict[str, Any]:
            assert self.room is not None
            person = session.person
            if op == "tables":
                return {"tables": self.room.listing(person)}
            if op == "login":
                return await self._login(session, request, tries)
            if person is None:
                raise ValueError("log in first")
            if op == "open":
                table = await self.room.open(person, request)
                return {"table": table.id, "address": table.address, "outside": table.outside}
            if op == "owner":
                self.room.act(person, str(request.get("table", "")), str(request.get("action", "")))
                return {}
            raise ValueError(f"unknown request {op!r}")

        return handle

    async def _login(self, session: TerminalSession, request: dict[str, Any], tries: list[int]) -> dict[str, Any]:
        """A browser's name (and password): the person it plays as from now on."""
        if session.person is not None:
            raise ValueError(f"already here as {session.person.name}")
        if self.admission.password is not None:
            if not self.admission.password_ok(str(request.get("password") or "")):
                tries[0] += 1
                await asyncio.sleep(1.0)  # slows guessing down
                if tries[0] >= LOGIN_TRIES:
                    session.hangup()
                raise ValueError("that is not this server's password")
        elif not self.admission.open:
            raise ValueError("this server admits only listed SSH keys")
        person = self.people.by_name(clean_name(str(request.get("name") or "")))
        session.person = person
        log.info("%s came in on the web", person.name)
        return {"name": person.name, "env": person.env}


async def serve(config: ServeConfig, admission: Admission, out: TextIO, err: TextIO) -> int:
    """Run the server until cancelled; the exit status."""
    server = ServeServer(config, admission)
    try:
        await server.start()
    except OSError as e:
        if e.errno == errno.EADDRINUSE:
            ports = " and ".join(f"{flag} {port}" for flag, port in (("--ssh", config.ssh_port), ("--web", config.web_port))
                                 if port is not None)
            print(f"uno-tui serve: a port is already in use on {config.bind or 'all addresses'} ({ports}): "
                  "choose another, or 0 for any free one", file=err)
        else:
            print(f"uno-tui serve: cannot listen on {config.bind}: {e.strerror or e}", file=err)
        await server.close()
        return 1
    except ValueError as e:
        print(f"uno-tui serve: {e}", file=err)
        await server.close()
        return 2
    for line in server.banner():
        print(line, file=out, flush=True)
    try:
        await server.wait_closed()
    finally:
        with contextlib.suppress(Exception):
            await asyncio.shield(server.close())
    return 0
