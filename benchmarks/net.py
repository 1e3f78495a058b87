"""Network speed on loopback: intent-to-update latency, games per second, host memory.

    python benchmarks/net.py [--intents N] [--rounds R] [--runs K]

The host runs as its own process (``python -m net host --headless``, saving
after every action as it always does); the clients run in this process.

* latency: from the moment a client sends an intent to the moment *every*
  client (4, then 10) holds the update it caused; p50 and p99 over N
  intents. All clients share one event loop here, so the figure includes
  the time this process takes to read N updates one after another: an upper
  bound on what separate machines would see.
* games per second: R rounds among 4 bot clients (``net.BotClient``).
* host memory: the host process's peak resident set (VmHWM).

Each figure is the median of K runs. Targets: p99 under 5 ms with 10
clients; the host under 100 MB.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.bots import make_bot  # noqa: E402
from net import BotClient, Client  # noqa: E402
from net.testing import HostProcess  # noqa: E402


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_host(seats: int, rounds: int, tmp: str) -> tuple[HostProcess, int]:
    host = HostProcess("--port", "0", "--bind", "127.0.0.1", "--seats", str(seats), "--bots", "0",
                       "--rounds", str(rounds), "--round-pause", "0", "--bot-delay", "0", "--no-mdns",
                       "--option", "target_score=1000000", "--save", str(Path(tmp) / "bench.save"))
    return host, host.wait_port()


async def latency(n: int, intents: int, tmp: str) -> tuple[float, float, float]:
    """p50 and p99 in ms of intent -> all n clients updated; and the host's peak RSS in MB."""
    host, port = start_host(n, 10_000, tmp)
    samples: list[float] = []
    state: dict[str, Any] = {"v": None, "t0": 0.0, "got": set()}
    all_in = asyncio.Event()

    def listener(i: int) -> Any:
        def on_message(msg: dict[str, Any]) -> None:
            if msg["type"] == "reject":  # not expected; counted, and the next intent goes on
                state["rejects"] = state.get("rejects", 0) + 1
                all_in.set()
            elif msg["type"] == "update" and state["v"] is not None and msg["version"] > state["v"]:
                got = state["got"]
                if i not in got:
                    got.add(i)
                    if len(got) == n:
                        samples.append(time.perf_counter() - state["t0"])
                        all_in.set()
        return on_message

    clients = [Client(("127.0.0.1", port), f"C{i}", on_message=listener(i)) for i in range(n)]
    try:
        for c in clients:
            await c.connect()
            await c.ready()
        by_seat = {c.seat: c for c in clients}
        bots = {c.seat: make_bot("normal", seed=i) for i, c in enumerate(clients)}
        while len(samples) < intents:
            # Wait until every client holds the same, newest state.
            while True:
                versions = {c.version for c in clients}
                if len(versions) == 1 and None not in versions:
                    break
                await asyncio.sleep(0.0005)
            obs0 = clients[0].observation
            assert obs0 is not None
            if obs0["over"]:
                await asyncio.sleep(0.001)  # the host deals the next round by itself
                continue
            cur = obs0["current"]
            # Out-of-turn calls first, as the host's own bots do.
            order = [q for q in obs0["to_act"] if q != cur] + [q for q in obs0["to_act"] if q == cur]
            for p in order:
                obs = by_seat[p].observation
                action = bots[p].choose(obs) if obs is not None else None
                if action is not None:
                    break
            else:
                await asyncio.sleep(0.001)
                continue
            all_in.clear()
            state.update(v=obs["version"], got=set(), t0=time.perf_counter())
            await by_seat[p].send_intent(action, version=obs["version"])
            await asyncio.wait_for(all_in.wait(), 5)
            state["v"] = None
            for c in clients:  # nobody reads the queues here; keep them from growing
                while not c.messages.empty():
                    c.messages.get_nowait()
        rss = peak_rss_mb(host.proc.pid)
    finally:
        for c in clients:
            await c.close()
        host.kill()
    if state.get("rejects"):
        print(f"  ({state['rejects']} intents were rejected)", file=sys.stderr)
    ms = sorted(s * 1000 for s in samples)
    return ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))], rss


async def games_per_second(rounds: int, tmp: str) -> tuple[float, float]:
    host, port = start_host(4, rounds, tmp)
    try:
        bots = [BotClient(("127.0.0.1", port), f"B{i}", seed=i) for i in range(4)]
        start = time.perf_counter()
        rcs = await asyncio.gather(*(b.run() for b in bots))
        elapsed = time.perf_counter() - start
        rss = peak_rss_mb(host.proc.pid)
        assert rcs == [0, 0, 0, 0], rcs
        host.finish(30)
    finally:
        if host.proc.poll() is None:
            host.kill()
    return rounds / elapsed, rss


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--intents", type=int, default=1000, help="intents timed per run (default 1000)")
    ap.add_argument("--rounds", type=int, default=40, help="rounds per games-per-second run (default 40)")
    ap.add_argument("--runs", type=int, default=3, help="runs per figure; the median is shown (default 3)")
    args = ap.parse_args()
    rss_all: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in (4, 10):
            runs = [asyncio.run(latency(n, args.intents, tmp)) for _ in range(args.runs)]
            p50 = statistics.median(r[0] for r in runs)
            p99 = statistics.median(r[1] for r in runs)
            rss_all += [r[2] for r in runs]
            print(f"intent -> all {n:2d} clients updated: p50 {p50:.2f} ms, p99 {p99:.2f} ms "
                  f"(median of {args.runs} runs of {args.intents} intents)", flush=True)
        gps = [asyncio.run(games_per_second(args.rounds, tmp)) for _ in range(args.runs)]
        rss_all += [g[1] for g in gps]
        print(f"games per second, 4 bot clients: {statistics.median(g[0] for g in gps):.1f} "
              f"(median of {args.runs} runs of {args.rounds} rounds)")
    print(f"host peak memory: {max(rss_all):.1f} MB (largest of all runs)")


if __name__ == "__main__":
    main()
