"""``uno-tui serve``: the time from ``ssh`` connect to the menu drawn, and memory per connected session.

    python benchmarks/serve.py [--runs N] [--sessions 1,8,32] [--compare DIR] [--no-alternatives]

Starts ``uno-tui serve --ssh 0`` on loopback as its own process, then, for
each count N, measures the time from the start of a client's connection
(asyncssh, an 80x24 pty) to the moment its menu is fully drawn, two ways:

* *burst*: N clients connect at the same instant (the median and the
  slowest of them): the worst case, every session drawing its first screen
  at once on a machine of 2 cores;
* *one more*: N sessions are already connected and sitting at their menus,
  and one more client connects (the median of a few such arrivals): the
  ordinary case.

With the N sessions at the menu it sums the memory of the server's whole
process tree (the server, the fork server, the sessions) from
``/proc/PID/smaps_rollup``: PSS (shared pages divided among the processes
sharing them) is the honest figure for "what one more session costs"; RSS
counts shared pages once per process. Every figure is the median over
``--runs`` runs.

``--compare DIR`` starts a second server from another checkout of uno-tui
(for example ``git worktree add /tmp/before main``) and measures both in
turn, run by run, so that a change is judged against the code before it
under the same load.

Two alternatives are measured beside it, for the design's choice:

* *cold*: a fresh interpreter per session (what starting ``python -m ...`` per
  connection would cost): the time from exec to the menu drawn on a pty, and
  that process's PSS;
* *in-process*: many menus as Textual apps inside one process (what running
  every session's app in the server's own event loop would cost): the memory
  per extra app (headless, so without any terminal I/O).

Target: the menu in under 1 s. The clients run on the same machine and take
some of its CPU. These machines are shared and busy: quote medians, and
compare figures taken in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import asyncssh

ROOT = Path(__file__).resolve().parents[1]
DRAWN = ("Play against bots", "could see your hand")
"""The menu's first line and its last: both on screen means the menu is drawn."""


# -- memory ------------------------------------------------------------------------------------
def smaps(pid: int) -> dict[str, int]:
    """PSS, RSS and USS of one process, in KiB."""
    out = {"pss": 0, "rss": 0, "uss": 0}
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return out
    for line in text.splitlines():
        key, _, rest = line.partition(":")
        value = int(rest.split()[0]) if rest.strip() else 0
        if key == "Pss":
            out["pss"] = value
        elif key == "Rss":
            out["rss"] = value
        elif key in ("Private_Clean", "Private_Dirty"):
            out["uss"] += value
    return out


def tree(root: int) -> list[int]:
    """``root`` and all its descendants (the sessions are the fork server's children)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def memory(root: int) -> dict[str, int]:
    """The whole tree's PSS and RSS, and ``session_uss``: the pages only the sessions' own processes
    hold (the fork server's children; the fork server and the server left out)."""
    total = {"pss": 0, "rss": 0, "session_uss": 0, "processes": 0}
    pids = tree(root)
    for pid in pids:
        mem = smaps(pid)
        total["pss"] += mem["pss"]
        total["rss"] += mem["rss"]
        total["processes"] += 1
    zygotes = [pid for pid in pids if b"uno_tui.serve.zygote" in _cmdline(pid)]
    for zygote in zygotes:
        for pid in tree(zygote)[1:]:
            total["session_uss"] += smaps(pid)["uss"]
    return total


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


# -- SSH clients -------------------------------------------------------------------------------
ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


class Screen(asyncssh.SSHClientSession):  # type: ignore[misc]
    """Waits for the menu's words in the stream (each is drawn as one run of text): cheaper than a
    terminal emulator, which would take the CPU the server is being measured on."""

    def __init__(self) -> None:
        self.data = b""
        self.drawn = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.drawn.done():
            return
        self.data += data
        text = ANSI.sub(b"", self.data)
        if all(words.encode() in text for words in DRAWN):
            self.drawn.set_result(time.perf_counter())


async def one_session(port: int, name: str) -> tuple[float, asyncssh.SSHClientConnection]:
    start = time.perf_counter()
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None, client_keys=[],
                                  password="", agent_path=None)
    _chan, session = await conn.create_session(Screen, term_type="xterm-256color", term_size=(80, 24),
                                               encoding=None)
    drawn = await asyncio.wait_for(session.drawn, 120)
    return drawn - start, conn


async def connect_all(port: int, n: int, prefix: str) -> tuple[list[float], list[asyncssh.SSHClientConnection]]:
    """``n`` clients connecting at the same instant: each one's time to its menu, and the connections."""
    results = await asyncio.gather(*(one_session(port, f"{prefix}{i}") for i in range(n)))
    return [t for t, _ in results], [conn for _, conn in results]


async def leave(conns: list[asyncssh.SSHClientConnection]) -> None:
    for conn in conns:
        conn.close()
    for conn in conns:
        await conn.wait_closed()


async def settle(server_pid: int, processes: int, timeout: float = 30.0) -> dict[str, int]:
    """The server's memory once its sessions are gone (back to ``processes`` processes)."""
    end = time.monotonic() + timeout
    while True:
        mem = memory(server_pid)
        if mem["processes"] <= processes or time.monotonic() > end:
            return mem
        await asyncio.sleep(0.1)


def busy(server_pid: int) -> int:
    """CPU time (ns) the server's whole process tree has used so far (the sessions alive now)."""
    total = 0
    for pid in tree(server_pid):
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            pass
    return total


async def quiet(server_pid: int, timeout: float = 10.0) -> None:
    """Wait until the sessions have drawn and settled (the tree uses under a fifth of a core)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        before = busy(server_pid)
        await asyncio.sleep(0.5)
        if busy(server_pid) - before < 0.1e9:
            return


# -- the alternatives --------------------------------------------------------------------------
COLD = (
    "from uno_tui.serve.control import ControlClient\n"
    "from uno_tui.serve.menu import MenuApp, Visit\n"
    "MenuApp(Visit(name='cold', control=ControlClient('/nonexistent', 'k'),"
    " info={'fairness': 'Whoever runs this server could see your hand'})).run()\n"
)


def cold_start() -> tuple[float, dict[str, int]]:
    """A fresh interpreter drawing the menu on a pty: seconds to the menu, and its memory then."""
    import pty

    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-c", COLD])
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    data = b""
    try:
        while True:
            try:
                data += os.read(fd, 65536)
            except OSError:
                raise RuntimeError("the cold menu ended before it was drawn") from None
            text = ANSI.sub(b"", data)
            if all(words.encode() in text for words in DRAWN):
                took = time.perf_counter() - start
                return took, smaps(pid)
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


async def in_process(apps: int) -> float:
    """KiB of RSS per extra menu app run headless inside one process."""
    from uno_tui.serve.control import ControlClient
    from uno_tui.serve.menu import MenuApp, Visit

    def rss() -> int:
        return smaps(os.getpid())["rss"]

    async def one(started: asyncio.Event, stop: asyncio.Event) -> None:
        app = MenuApp(Visit(name="x", control=ControlClient("/nonexistent", "k")))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.1)
            started.set()
            await stop.wait()

    stop = asyncio.Event()
    first = asyncio.Event()
    tasks = [asyncio.ensure_future(one(first, stop))]
    await first.wait()
    base = rss()
    events = [asyncio.Event() for _ in range(apps)]
    tasks += [asyncio.ensure_future(one(e, stop)) for e in events]
    for e in events:
        await e.wait()
    grown = rss() - base
    stop.set()
    await asyncio.gather(*tasks)
    return grown / apps


# -- main --------------------------------------------------------------------------------------
class Server:
    """One ``uno-tui serve`` under test, run from the code in ``root``; its figures, run by run."""

    def __init__(self, label: str, root: Path) -> None:
        self.label = label
        self.root = root
        self.proc: asyncio.subprocess.Process | None = None
        self.port = 0
        self.figures: dict[tuple[str, int], list[float]] = {}

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def add(self, what: str, n: int, values: list[float]) -> None:
        self.figures.setdefault((what, n), []).extend(values)

    async def start(self, home: Path) -> None:
        env = dict(os.environ, UNO_TUI_CONFIG_DIR=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
                   PYTHONUNBUFFERED="1", PYTHONPATH=str(self.root))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "uno_tui", "serve", "--ssh", "0", "--bind", "127.0.0.1", "--max-sessions", "80",
            cwd=self.root, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        assert self.proc.stdout is not None
        while not self.port:
            line = (await asyncio.wait_for(self.proc.stdout.readline(), 120)).decode()
            if not line:
                raise RuntimeError(f"uno-tui serve from {self.root} did not start")
            if m := re.search(r"SSH on 127\.0\.0\.1:(\d+)", line):
                self.port = int(m.group(1))
        asyncio.ensure_future(self.proc.stdout.read())
        _, conn = await one_session(self.port, "warm")  # the first session's page faults, once
        await leave([conn])
        await settle(self.pid, 2)

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGINT)
            await self.proc.wait()

    async def burst(self, n: int) -> None:
        """N clients at the same instant; with them at their menus, the memory each costs."""
        base = await settle(self.pid, 2)
        before = busy(self.pid)
        times, conns = await connect_all(self.port, n, "b")
        self.add("cpu", n, [(busy(self.pid) - before) / n / 1e9])
        await quiet(self.pid)
        mem = memory(self.pid)
        await leave(conns)
        self.add("burst", n, times)
        self.add("burst-max", n, [max(times)])
        for kind in ("pss", "rss"):
            self.add(kind, n, [(mem[kind] - base[kind]) / n])
        self.add("uss", n, [mem["session_uss"] / n])

    async def one_more(self, n: int, arrivals: int) -> None:
        """One client arriving while N sessions sit at their menus (``arrivals`` times)."""
        await settle(self.pid, 2)
        _, conns = await connect_all(self.port, n, "s") if n else ([], [])
        await quiet(self.pid)
        idle_before = busy(self.pid)
        await asyncio.sleep(2.0)
        self.add("idle-cpu", n, [(busy(self.pid) - idle_before) / 2.0 / 1e9 / max(n, 1)])
        times = []
        for _ in range(arrivals):
            took, conn = await one_session(self.port, "late")
            times.append(took)
            await leave([conn])
            await settle(self.pid, 2 + n)
            await quiet(self.pid)
        await leave(conns)
        self.add("one-more", n, times)

    def median(self, what: str, n: int) -> float:
        return statistics.median(self.figures[(what, n)])


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


async def run(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.sessions.split(",")]
    servers = [Server("this code", ROOT)]
    if args.compare:
        servers.insert(0, Server(f"before ({args.compare})", Path(args.compare).resolve()))
    print(f"uno-tui serve benchmark · {os.cpu_count()} cores · load average {os.getloadavg()[0]:.2f} "
          f"(a busy machine slows every figure; compare within one run)")
    with tempfile.TemporaryDirectory() as home:
        try:
            for i, server in enumerate(servers):
                await server.start(Path(home) / str(i))
                idle = memory(server.pid)
                print(f"[{server.label}] idle server (server + fork server): PSS {mib(idle['pss'])}, "
                      f"RSS {mib(idle['rss'])}")
            for r in range(args.runs):
                for n in counts:
                    order = servers if r % 2 == 0 else servers[::-1]  # neither always goes first
                    for server in order:
                        await server.burst(n)
                    for server in order:
                        await server.one_more(n - 1 if n > 1 else 0, args.arrivals)
                print(f"  run {r + 1} of {args.runs} done · load average {os.getloadavg()[0]:.2f}", flush=True)
        finally:
            for server in servers:
                await server.stop()
    print("connect to menu drawn, medians of all runs:")
    for n in counts:
        already = n - 1 if n > 1 else 0
        for server in servers:
            print(f"  [{server.label}] {n:>2} at once: median {ms(server.median('burst', n))}, slowest "
                  f"{ms(server.median('burst-max', n))} · one more with {already:>2} connected: "
                  f"{ms(server.median('one-more', already))}")
    for n in counts:
        for server in servers:
            median = server.median("burst", n)
            print(f"  [{server.label}] target, every menu's median under 1 s with {n} at once: "
                  f"{'met' if median < 1.0 else 'NOT met'} ({ms(median)}; on this machine's load now)")
    print("CPU time per session to its menu drawn (the server, the fork server and the session together; "
          "with 2 cores a burst of N takes at least N times this, halved), medians:")
    for n in counts:
        for server in servers:
            print(f"  [{server.label}] {n:>2} at once: {ms(server.median('cpu', n))}")
    print("memory per connected session (at the menu), medians:")
    for n in counts:
        for server in servers:
            already = n - 1 if n > 1 else 0
            idle = (f" · each of {already} sitting at the menu uses {server.median('idle-cpu', already) * 100:.2f} % "
                    "of a core" if already else "")
            print(f"  [{server.label}] {n:>2} sessions: PSS {mib(server.median('pss', n))} (its own pages "
                  f"{mib(server.median('uss', n))}, RSS {mib(server.median('rss', n))}){idle}")
    if args.alternatives:
        colds = [cold_start() for _ in range(args.runs)]
        print(f"cold interpreter per session: exec to menu drawn median {ms(statistics.median(t for t, _ in colds))}"
              f" · PSS {statistics.median(m['pss'] for _, m in colds) / 1024:.1f} MiB "
              f"(RSS {statistics.median(m['rss'] for _, m in colds) / 1024:.1f})")
        per_app = await in_process(8)
        print(f"every menu in one process (headless, no terminal I/O): RSS {per_app / 1024:.1f} MiB per extra app")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sessions", default="1,8,32", help="session counts, comma-separated (default 1,8,32)")
    parser.add_argument("--arrivals", type=int, default=3,
                        help="clients that arrive one by one beside the N-1 connected, per run (default 3)")
    parser.add_argument("--compare", metavar="DIR",
                        help="another checkout of uno-tui to measure in turn with this one (e.g. the code before)")
    parser.add_argument("--no-alternatives", dest="alternatives", action="store_false",
                        help="skip the cold-start and in-process figures")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
