"""Start-up time: from running the command to the first drawn table.

    python benchmarks/startup.py [--runs N] [-- extra uno-tui play arguments]

Starts ``uno-tui play`` in a pseudo-terminal (100x32), reads its output until
the table's hand panel has been drawn, then stops it. Prints each run and the
median. Target: under 1 second.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import sys
import termios
import time

MARKER = "Your hand"
"""Text the table draws once it is up (the title of the hand panel)."""
ANSI = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>]")


def one_run(cmd: list[str], timeout: float = 10.0) -> float:
    start = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: become the command
        os.environ["TERM"] = "xterm-256color"
        os.environ["COLUMNS"], os.environ["LINES"] = "100", "32"
        os.execvp(cmd[0], cmd)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 32, 100, 0, 0))
    seen = b""
    try:
        while time.perf_counter() - start < timeout:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            seen += chunk
            # Cursor moves split the text into pieces; joining the plain text finds it anyway.
            if MARKER.encode() in ANSI.sub(b"", seen):
                return time.perf_counter() - start
        raise RuntimeError(f"the table did not appear within {timeout} s; last output: {seen[-300:]!r}")
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7, help="how many starts (default 7)")
    ap.add_argument("extra", nargs="*", help="more arguments for `uno-tui play`")
    args = ap.parse_args()
    exe = shutil.which("uno-tui") or os.path.join(os.path.dirname(sys.executable), "uno-tui")
    cmd = [exe, "play", "--quick", "--seed", "1", "--fast", *args.extra]  # --quick: no new-game screen
    times = []
    for i in range(args.runs):
        t = one_run(cmd)
        times.append(t)
        print(f"run {i + 1}: {t * 1000:.0f} ms")
    print(f"median of {len(times)}: {statistics.median(times) * 1000:.0f} ms  (target: under 1000 ms)")


if __name__ == "__main__":
    main()
