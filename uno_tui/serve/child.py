"""A session's own process: it takes its pseudo-terminal and runs the apps in turn.

The server forks this (see :mod:`.spawn`) with a :class:`ChildSpec`. The
process makes the pty its controlling terminal and its standard streams, so
Textual's ordinary Linux driver draws on it, reads its keys and follows its
size (``SIGWINCH``). Then it loops: the menu, then what the person chose
(a game against bots, or a table on this server), then the menu again,
until they leave. Each is an ordinary uno-tui app; only the window-size
guard (:mod:`.window`) and the table owner's keys (:mod:`.netapp`) are added.

This module imports nothing heavy at the top: the server imports it to build
the spec, and the fork server preloads the apps it runs.
"""

from __future__ import annotations

import logging
import os
import signal
import sys
import traceback
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("uno_tui.serve")


@dataclass
class ChildSpec:
    """Everything a session's process is told when it starts."""

    tty: str
    """The pty's slave side (``/dev/pts/N``)."""
    env: dict[str, str]
    """The whole environment: TERM, the person's directories (see :class:`.people.Person`), ..."""
    control: str
    """The server's control socket (see :mod:`.control`)."""
    key: str
    """This session's key on the control socket."""
    name: str | None
    """The player's name; None: ask first (a browser has no ``ssh NAME@``)."""
    ask_password: bool = False
    """The login asks for the server's password too (a browser, with ``--password``)."""
    table_password: str | None = None
    """What the tables on this server ask of a client (the server's ``--password``)."""
    info: dict[str, Any] = field(default_factory=dict)
    """Shown in the menu: ``server`` (its name), ``fairness`` (the notice), ``join_host``."""
    pacing: tuple[float, float] = (0.6, 0.9)
    """Pauses before the bots' moves in a game against bots."""
    crash_log: str | None = None
    """Where a session that fails writes its traceback (``crashes.log`` in the server's state directory)."""


def main(spec: ChildSpec) -> None:
    """The process's entry point (the fork server calls it)."""
    _take_terminal(spec.tty)
    os.environ.clear()
    os.environ.update(spec.env)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGWINCH, signal.SIGCHLD):
        signal.signal(sig, signal.SIG_DFL)
    try:
        run_session(spec)
    except Exception:
        _crashed(spec)
        os._exit(1)
    os._exit(0)  # not the interpreter's shut-down: what the fork server set up (atexit, its files) is not ours


def _take_terminal(tty: str) -> None:
    """Make ``tty`` this process's controlling terminal and its stdin, stdout and stderr."""
    if os.getsid(0) != os.getpid():
        os.setsid()
    fd = os.open(tty, os.O_RDWR)  # a session leader without a terminal acquires this one
    for target in (0, 1, 2):
        os.dup2(fd, target)
    if fd > 2:
        os.close(fd)
    # Fresh text streams over the terminal (the fork server's were made for its own stdio).
    sys.stdin = sys.__stdin__ = open(0, "r", encoding="utf-8", errors="replace", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", encoding="utf-8", errors="replace", closefd=False)
    sys.stderr = sys.__stderr__ = open(2, "w", encoding="utf-8", errors="replace", closefd=False)


def _crashed(spec: ChildSpec) -> None:
    text = traceback.format_exc()
    if spec.crash_log:
        try:
            os.makedirs(os.path.dirname(spec.crash_log), exist_ok=True)
            with open(spec.crash_log, "a", encoding="utf-8") as f:
                f.write(f"--- session of {spec.name or '(web)'} (pid {os.getpid()})\n{text}\n")
        except OSError:
            pass
    try:
        sys.stdout.write("\r\n\x1b[0muno-tui: this session failed (the server has logged why). "
                         "Connect again to go on.\r\n")
        sys.stdout.flush()
    except OSError:
        pass


def run_session(spec: ChildSpec) -> None:
    """The menu and the games chosen from it, until the person leaves."""
    from .control import ControlClient
    from .menu import MenuApp, Visit

    visit = Visit(name=spec.name, control=ControlClient(spec.control, spec.key), ask_password=spec.ask_password,
                  info=spec.info)
    while True:
        choice = MenuApp(visit).run()
        if choice is None:
            return
        if choice.kind == "bots":
            _play_bots(spec, visit)
        elif choice.kind == "table":
            _sit(spec, visit, choice)


def _play_bots(spec: ChildSpec, visit: Any) -> None:
    from uno_tui.session import TableConfig

    from .window import ServedUnoApp

    app = ServedUnoApp(config=TableConfig(name=visit.name, english=visit.english), pacing=spec.pacing)
    app.run()
    visit.english = app.english_cards  # as chosen in its new-game form: the tables joined next show the same


def _sit(spec: ChildSpec, visit: Any, choice: Any) -> None:
    from .netapp import OwnerControls, ServedNetApp

    controls = OwnerControls(visit.control, choice.table) if choice.owner else None
    ServedNetApp(address=choice.address, name=visit.name, password=spec.table_password, spectate=choice.spectate,
                 controls=controls, outside=choice.outside, english=visit.english).run()
