"""The fork server: a process that has imported everything a session draws, and forks sessions.

Run as ``python -m uno_tui.serve.zygote FD`` by the server (:mod:`.spawn`),
with ``FD`` one end of a socket pair. It imports :data:`PRELOAD`
once, says so (:data:`READY`), then serves requests, one at a time: a 4-byte length and a pickled
:class:`~.child.ChildSpec` in; it forks, and answers with the child's pid
and, passed as a file descriptor, the read end of a *lifeline* pipe whose
write end only the child holds (it reads as closed the moment the child is
gone). Children are reaped by the kernel (``SIGCHLD`` ignored).

It has never run an event loop or a thread, so forking it is safe; and the
pickle comes only from the server that started it, over a private socket.
"""

from __future__ import annotations

import gc
import importlib
import os
import pickle
import signal
import socket
import struct
import sys
from typing import Any

HEADER = struct.Struct(">I")
ANSWER = struct.Struct(">q")
READY = b"R"
"""Sent once the imports are done."""
MAX_REQUEST = 1 << 20

PRELOAD = [
    "uno_tui.serve.child",
    "uno_tui.serve.menu",
    "uno_tui.serve.netapp",
    "uno_tui.app",
    "uno_tui.netplay.app",
    # Every game's table (uno_tui/faces/<variant>/table.py; No Mercy is drawn on classic's).
    "uno_tui.faces.classic.table",
    "uno_tui.faces.wildrawz.table",
    "uno_tui.faces.diez.table",
    "uno_tui.faces.extended.table",
]
"""Imported once by the fork server: everything a session draws."""


def _read_exactly(sock: socket.socket, n: int) -> bytes:
    data = bytearray()
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return bytes(data)


def serve(sock: socket.socket) -> None:
    """Fork a session for each request until the server hangs up."""
    from .child import main

    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # the kernel reaps the children: no zombies
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ctrl+c in the server's terminal is the server's to handle
    while True:
        try:
            size = HEADER.unpack(_read_exactly(sock, HEADER.size))[0]
            if size > MAX_REQUEST:
                return
            spec = pickle.loads(_read_exactly(sock, size))
        except (EOFError, OSError):
            return
        life_r, life_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the session: keep only the lifeline's write end (main puts the signals back)
            try:
                sock.close()
                os.close(life_r)
                main(spec)
            finally:
                os._exit(1)
        os.close(life_w)
        try:
            socket.send_fds(sock, [ANSWER.pack(pid)], [life_r])
        except OSError:
            return
        finally:
            os.close(life_r)


def warm() -> None:
    """Draw the first screens once, headless: Textual's caches (parsed CSS, styles, rendered text)
    then start full in every session instead of being filled again by each."""
    import asyncio
    import threading

    from uno_tui.session import TableConfig

    from .control import ControlClient
    from .menu import MenuApp, Visit
    from .window import ServedUnoApp

    async def draw(app: Any) -> None:
        # With the notices' rack and the tooltip, as every session's screens have them (a test's
        # screens have neither): their styles are parsed here too, not in each session.
        async with app.run_test(size=(80, 24), tooltips=True, notifications=True) as pilot:
            await pilot.pause(0)

    nowhere = ControlClient(os.devnull, "")  # the menu's look at the tables fails at once, and says so
    try:
        asyncio.run(draw(MenuApp(Visit(name=None, control=nowhere))))  # a browser's login
        asyncio.run(draw(MenuApp(Visit(name="warm", control=nowhere))))  # the menu
        asyncio.run(draw(ServedUnoApp(config=TableConfig())))  # the new-game screen, and the tables' stylesheet
    except Exception:  # a warm-up only: sessions start without it, a little slower
        pass
    for thread in threading.enumerate():  # the menu's worker, done or about to be
        if thread is not threading.current_thread():
            thread.join(5)
    if threading.active_count() != 1:  # forking beside another thread could leave a lock held in the child
        raise RuntimeError("a thread outlived the fork server's warm-up")


def run(fd: int) -> None:
    for name in PRELOAD:
        importlib.import_module(name)
    warm()
    # What is loaded now is shared by every session: keep the collector off it, so that a session's
    # collections do not write to those pages (and copy them).
    gc.collect()
    gc.freeze()
    sock = socket.socket(fileno=fd)
    sock.sendall(READY)
    serve(sock)


if __name__ == "__main__":
    run(int(sys.argv[1]))
