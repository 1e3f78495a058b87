"""``uno-tui serve``: memory per connected SSH session, and the time from ``ssh`` connect to the menu drawn.

    python benchmarks/serve.py [--runs N] [--sessions 1,8,32]

Starts ``uno-tui serve --ssh 0`` on loopback as its own process, then, for
each count N, connects N SSH clients at once (asyncssh, each with an 80x24
pty) and times each one from
the start of its connection to the moment its menu is fully drawn. With the
N sessions at the menu it sums the memory of the server's whole process
tree (the server, the fork server, the sessions) from
``/proc/PID/smaps_rollup``: PSS (shared pages divided among the processes
sharing them) is the honest figure for "what one more session costs"; RSS
counts shared pages once per process. Then the clients leave and the next
count starts. Every figure is the median over ``--runs`` runs.

Two alternatives are measured beside it, for the design's choice:

* *cold*: a fresh interpreter per session (what starting ``python -m ...`` per
  connection would cost): the time from exec to the menu drawn on a pty, and
  that process's PSS;
* *in-process*: many menus as Textual apps inside one process (what running
  every session's app in the server's own event loop would cost): the memory
  per extra app (headless, so without any terminal I/O).

Target: the menu in under 1 s. These machines are shared and busy: quote
medians, and compare figures taken in the same run.
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
    total = {"pss": 0, "rss": 0, "uss": 0, "processes": 0}
    for pid in tree(root):
        for k, v in smaps(pid).items():
            total[k] += v
        total["processes"] += 1
    return total


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


async def sessions_run(port: int, server_pid: int, n: int) -> tuple[list[float], dict[str, int]]:
    results = await asyncio.gather(*(one_session(port, f"p{i}") for i in range(n)))
    mem = memory(server_pid)
    for _, conn in results:
        conn.close()
    for _, conn in results:
        await conn.wait_closed()
    return [t for t, _ in results], mem


async def settle(server_pid: int, processes: int, timeout: float = 30.0) -> dict[str, int]:
    """The server's memory once its sessions are gone (back to ``processes`` processes)."""
    end = time.monotonic() + timeout
    while True:
        mem = memory(server_pid)
        if mem["processes"] <= processes or time.monotonic() > end:
            return mem
        await asyncio.sleep(0.1)


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
async def start_server(home: Path) -> tuple[asyncio.subprocess.Process, int]:
    env = dict(os.environ, UNO_TUI_CONFIG_DIR=str(home / "config"), XDG_STATE_HOME=str(home / "state"),
               PYTHONUNBUFFERED="1")
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "uno_tui", "serve", "--ssh", "0", "--bind", "127.0.0.1", "--max-sessions", "64",
        cwd=ROOT, env=env, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    assert proc.stdout is not None
    port = None
    while port is None:
        line = (await asyncio.wait_for(proc.stdout.readline(), 120)).decode()
        if not line:
            raise RuntimeError("uno-tui serve did not start")
        if m := re.search(r"SSH on 127\.0\.0\.1:(\d+)", line):
            port = int(m.group(1))
    asyncio.ensure_future(proc.stdout.read())
    return proc, port


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


async def run(args: argparse.Namespace) -> None:
    counts = [int(x) for x in args.sessions.split(",")]
    print(f"uno-tui serve benchmark · {os.cpu_count()} cores · load average {os.getloadavg()[0]:.2f} "
          f"(a busy machine slows every figure; compare within one run)")
    with tempfile.TemporaryDirectory() as home:
        proc, port = await start_server(Path(home))
        try:
            await one_session(port, "warm")  # the first session's page faults, once
            await asyncio.sleep(0.5)
            idle = await settle(proc.pid, 2)
            print(f"idle server (server + fork server): PSS {idle['pss'] / 1024:.1f} MiB, "
                  f"RSS {idle['rss'] / 1024:.1f} MiB")
            for n in counts:
                times: list[float] = []
                per_pss: list[float] = []
                per_rss: list[float] = []
                per_uss: list[float] = []
                for _ in range(args.runs):
                    base = await settle(proc.pid, 2)
                    took, mem = await sessions_run(port, proc.pid, n)
                    times += took
                    per_pss.append((mem["pss"] - base["pss"]) / n)
                    per_rss.append((mem["rss"] - base["rss"]) / n)
                    per_uss.append((mem["uss"] - base["uss"]) / n)
                print(f"{n:>3} at once: connect to menu drawn median {ms(statistics.median(times))}, "
                      f"max {ms(max(times))} · per session PSS {statistics.median(per_pss) / 1024:.1f} MiB "
                      f"(USS {statistics.median(per_uss) / 1024:.1f}, RSS {statistics.median(per_rss) / 1024:.1f})")
        finally:
            proc.send_signal(signal.SIGINT)
            await proc.wait()
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
    parser.add_argument("--no-alternatives", dest="alternatives", action="store_false",
                        help="skip the cold-start and in-process figures")
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
