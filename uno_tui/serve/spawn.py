"""Each session's process, forked from a warm fork server.

A session runs in a process of its own, on a pseudo-terminal of its own:
its own terminal size (``SIGWINCH`` when it changes), its own event loop, and
a crash or a hang in one cannot touch another. Starting a fresh interpreter
per session costs about 0.6 s of importing Textual and the tables (more on a
busy machine), so the processes are forked from a fork server
(:mod:`.zygote`) that imports those modules once (:data:`.zygote.PRELOAD`): a
session's process is ready in milliseconds and shares those pages with its
siblings (``benchmarks/serve.py`` has the figures).

The fork server is our own small one rather than ``multiprocessing``'s:
that one re-runs the parent's main script in every child and keeps exit
codes to itself; this one does neither.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import signal
import socket
import subprocess
import sys
import threading
from typing import Any

class Child:
    """A running session process, watched through its lifeline (readable once it is gone)."""

    def __init__(self, pid: int, lifeline: int) -> None:
        self.pid = pid
        self._lifeline = lifeline
        self._loop = asyncio.get_running_loop()
        self._done = self._loop.create_future()
        self._loop.add_reader(lifeline, self._exited)

    def _exited(self) -> None:
        self._loop.remove_reader(self._lifeline)
        os.close(self._lifeline)
        if not self._done.done():
            self._done.set_result(None)

    @property
    def running(self) -> bool:
        return not self._done.done()

    async def wait(self) -> None:
        await asyncio.shield(self._done)

    def signal(self, sig: int) -> None:
        if self.running:  # (not after its lifeline closed: the pid may be someone else's by then)
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    async def stop(self, grace: float = 2.0) -> None:
        """Hang up (as a closed terminal does), then kill if it is still there after ``grace``."""
        if not self.running:
            return
        self.signal(signal.SIGHUP)
        try:
            await asyncio.wait_for(self.wait(), grace)
        except asyncio.TimeoutError:
            self.signal(signal.SIGKILL)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wait(), grace)


class Spawner:
    """Starts session processes from the fork server (started, and restarted, as needed)."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._lock = threading.Lock()

    def _start_server(self) -> None:
        """Start the fork server and wait until it has imported what the sessions draw."""
        from .zygote import READY

        ours, theirs = socket.socketpair()
        self._process = subprocess.Popen(
            [sys.executable, "-m", "uno_tui.serve.zygote", str(theirs.fileno())], pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL, start_new_session=True)
        theirs.close()
        self._sock = ours
        if ours.recv(len(READY)) != READY:
            self._stop_server()
            raise OSError("the fork server failed to start")

    def _fork(self, spec: Any) -> tuple[int, int]:
        from .zygote import ANSWER, HEADER

        data = pickle.dumps(spec)
        with self._lock:
            for attempt in (1, 2):
                if self._sock is None:
                    self._start_server()
                assert self._sock is not None
                try:
                    self._sock.sendall(HEADER.pack(len(data)) + data)
                    msg, fds, _flags, _addr = socket.recv_fds(self._sock, ANSWER.size, 1)
                    if len(msg) != ANSWER.size or len(fds) != 1:
                        raise OSError("the fork server did not answer")
                    return ANSWER.unpack(msg)[0], fds[0]
                except OSError:
                    self._stop_server()  # it died: start another and ask again
                    if attempt == 2:
                        raise
        raise AssertionError("unreachable")

    async def warm(self) -> None:
        """Start the fork server now, so the first player does not wait for it to import."""
        def start() -> None:
            with self._lock:
                if self._sock is None:
                    self._start_server()

        await asyncio.get_running_loop().run_in_executor(None, start)

    async def start(self, spec: Any) -> Child:
        """A new process running :func:`uno_tui.serve.child.main` with ``spec``."""
        # A blocking round trip to the fork server (it forks in a few ms; the first waits for its imports).
        pid, lifeline = await asyncio.get_running_loop().run_in_executor(None, self._fork, spec)
        return Child(pid, lifeline)

    def _stop_server(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        if self._process is not None:
            with contextlib.suppress(Exception):
                self._process.terminate()
                self._process.wait(2)
            self._process = None

    def close(self) -> None:
        with self._lock:
            self._stop_server()
