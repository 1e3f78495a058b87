"""How long the ``hard`` bots think: the clock and the worker processes the pure core leaves out.

:mod:`core.bots.hard` searches for as long as a *budget* says (an iteration
count in tests). A table gives it :func:`seconds`, a wall-clock budget per
decision, and may give it a :class:`ProcessSearcher`, which runs the same
search in worker processes (root parallelism: independent trees over the
same information set, their root statistics added up), so a decision uses
every core the machine offers within the same time.

It lives in ``net`` because both the network host and the app (which
imports ``net``) seat bots; it has nothing to do with the network.
"""

from __future__ import annotations

import atexit
import multiprocessing
import os
import sys
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import replace
from multiprocessing import resource_tracker
from typing import Any, Callable

from core.bots.hard import Budget, SearchRoot, search
from core.bots.hard.search import Stats, merge

DEFAULT_THINK = 0.3
"""Seconds per decision when the command line names none."""
MIN_ITERATIONS = 16
"""Iterations a decision gets even on a machine too busy to run them in time."""


class Deadline:
    """``more(done)`` for one decision: true while another iteration, at the pace of those done so
    far, would end before ``end`` (``time.monotonic``), and for a few iterations at least.
    ``end`` is the same instant in every process of the machine."""

    __slots__ = ("end", "minimum", "start")

    def __init__(self, end: float, minimum: int = MIN_ITERATIONS) -> None:
        self.end = end
        self.minimum = minimum
        self.start = time.monotonic()

    def __call__(self, done: int) -> bool:
        if done < self.minimum:
            return True
        now = time.monotonic()
        return now + (now - self.start) / done < self.end

    def __reduce__(self) -> tuple[Any, ...]:  # a worker process starts its own pace
        return (Deadline, (self.end, self.minimum))


AIM = 0.9
"""Share of the budget the search aims to end by: the rest is room for the work around it (the
belief, the check of a deal, the choice) and for a busy machine's scheduler."""


def seconds(think: float, *, minimum: int = MIN_ITERATIONS) -> Budget:
    """A budget of ``think`` seconds per decision, counted from the moment the bot starts deciding."""
    if not think > 0:
        raise ValueError(f"thinking time must be more than 0 seconds, not {think}")
    return lambda: Deadline(time.monotonic() + AIM * think, minimum)


def _ready() -> int:
    """A worker's first task: importing this module loads the engine and the search."""
    return os.getpid()


def _worker_search(root: SearchRoot, end: float, minimum: int) -> Stats:
    return search(root, Deadline(end, minimum))


class ProcessSearcher:
    """Runs each search in ``workers`` processes at once (this one and ``workers - 1`` in a pool)
    and adds up their results.

    The processes are started once, on first use, and kept; ``spawn`` is used
    so that a parent with threads (the Textual app) is never forked. A budget
    that is not a :class:`Deadline` (an iteration count) is searched here, in
    this process, so seeded runs stay reproducible.
    """

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, min(os.cpu_count() or 1, 4))
        self._pool: Executor | None = None
        self._started: list[Future[int]] = []

    def _executor(self) -> Executor:
        if self._pool is None:
            _start_resource_tracker()
            self._pool = ProcessPoolExecutor(self.workers - 1, mp_context=multiprocessing.get_context("spawn"))
            self._started = [self._pool.submit(_ready) for _ in range(self.workers - 1)]
            atexit.register(self.close)
        return self._pool

    def start(self) -> None:
        """Start the worker processes now, without waiting for them (they import the engine)."""
        if self.workers >= 2:
            self._executor()

    def __call__(self, root: SearchRoot, more: Callable[[int], bool]) -> Stats:
        if not isinstance(more, Deadline) or self.workers < 2:
            return search(root, more)
        pool = self._executor()
        if not all(f.done() for f in self._started):
            return search(root, more)  # the workers are still starting: do not wait for them
        # This process searches too (seed + 0) while the pool's processes search the others.
        futures = [pool.submit(_worker_search, replace(root, seed=root.seed + k), more.end, more.minimum)
                   for k in range(1, self.workers)]
        here = search(root, more)
        return merge([here] + [f.result() for f in futures])

    def warm_up(self) -> None:
        """Start the worker processes and wait until they are ready."""
        if self.workers >= 2:
            self._executor()
            for f in self._started:
                f.result()

    def close(self) -> None:
        """Stop the worker processes (waiting for them: one left behind would outlive us)."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self._started = []


def _has_descriptor(stream: Any) -> bool:
    try:
        return stream is not None and stream.fileno() >= 0
    except (AttributeError, OSError, ValueError):
        return False


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with an ``sys.stderr`` it can hand on.

    The pool's first lock starts the tracker, which passes ``sys.stderr``'s descriptor to its
    process. Inside the Textual app ``sys.stderr`` is a capture whose ``fileno()`` is -1, and the
    spawn fails ("bad value(s) in fds_to_keep"): a game with hard bots chosen on the new-game
    screen died as it was dealt. The tracker is started here with the process's own stderr.
    """
    if _has_descriptor(sys.stderr) or not _has_descriptor(sys.__stderr__):
        resource_tracker.ensure_running()
        return
    captured, sys.stderr = sys.stderr, sys.__stderr__
    try:
        resource_tracker.ensure_running()
    finally:
        sys.stderr = captured


def bot_settings(think: float | None, *, processes: int | None = 1) -> dict[str, Any]:
    """``make_bot`` settings for a table: ``think`` seconds per decision (``None``: the default),
    searched in ``processes`` processes (``None``: one per core)."""
    out: dict[str, Any] = {"think": seconds(DEFAULT_THINK if think is None else think)}
    if processes is None or processes > 1:
        searcher = ProcessSearcher(processes)
        searcher.start()
        out["searcher"] = searcher
    return out
