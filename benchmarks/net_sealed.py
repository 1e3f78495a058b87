"""The sealed table's intent-to-all-clients latency on loopback (run by ``benchmarks/net.py``, beside the open host's).

    python benchmarks/net_sealed.py [--clients N] [--rounds R] [--runs K] [--gap SECONDS]

A sealed table (:mod:`net.sealing`) of ``N`` bot clients, **each in a process of its own**, and the
host (a participant with no seat: it relays, masks and gives keys like any other) in this process.
Classic, R rounds per run. A move's latency: from the moment its client sends its ``smove`` to the
moment the *last* client has followed it (the move checked and applied, every card it shows opened
and checked, every card it deals opened to its holder: the other participants' keys in and checked),
all stamped with ``CLOCK_MONOTONIC``, one clock for every process of the machine. A bot waits
``--gap`` seconds before it sends each move, so that, as in ``net.py``'s open-host figure, one move
is timed at a time rather than a queue of them. Moves that opened a deck epoch (a reshuffle: every
participant's passes in turn) are shown apart, as the open host's are; so, among the others, are
the moves that dealt a card (a draw: every other participant seals its key of the card to the
drawer, and the move is done when the drawer has opened it). A round's first move is shown apart
too: its sender sends it as soon as its own deal is done, while the others may still be dealing
(the open host's figure has the deal apart in the same way); so is a round's last move, after
which every hand is shown to everyone and each peer checks every participant's key of every card.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.runtime import tune_gc  # noqa: E402
from net.sealing import SealedClient, SealedHost, SealedPeer  # noqa: E402


class StampPeer(SealedPeer):
    """A sealed peer that notes when it sent each move and when it had followed each (figures only)."""

    gap = 0.05
    sent: dict[int, list[Any]] = {}
    """The game version a move was sent at -> [when it left, whether it was its round's first move]."""
    done: dict[int, list[Any]] = {}
    """The version a move was sent at -> [when this peer had followed it, whether it opened an epoch,
    whether it dealt a card (boxes of keys sealed to its holder), whether it ended the round]."""

    def _send_move(self, p: int, action: Any) -> None:
        g = self.game
        assert g is not None
        v = g.version
        self._moved = v  # the turn timer's guard, as the real send sets it

        def later() -> None:
            if self.game is g and g.version == v and self.alarm is None:
                type(self).sent[v] = [time.monotonic(), not self.moves]
                SealedPeer._send_move(self, p, action)

        asyncio.get_running_loop().call_later(self.gap, later)

    async def _move(self, author: int, body: dict[str, Any]) -> None:
        g = self.game
        assert g is not None
        before, epochs, boxes = g.version, len(self.epochs), self.seen_envelopes
        await super()._move(author, body)
        if body.get("v") == before and g.version != before:
            type(self).done[before] = [time.monotonic(), len(self.epochs) != epochs, self.seen_envelopes != boxes,
                                       g.phase == "over"]


async def _client(port: int, gap: float) -> None:
    tune_gc()  # as the sealed bot does (net.sealing.serve.run_sealed_bot)
    StampPeer.gap = gap
    await SealedClient(peer_class=StampPeer).run("127.0.0.1", port)
    print(json.dumps({"sent": StampPeer.sent, "done": StampPeer.done}))


async def latency(n: int, rounds: int, gap: float) -> dict[str, list[float]]:
    """One run: every move's latency to the last of ``n`` client processes, ms: ``ordinary`` (and, of
    those, ``dealt``: the moves that dealt a card), ``epoch``."""
    host = SealedHost(variant="classic", seats=n, people=n, rounds=rounds, options={"target_score": 1000000})
    port = await host.start()
    cmd = [sys.executable, __file__, "--peer", str(port), "--gap", str(gap)]
    procs = [await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE) for _ in range(n)]
    try:
        outs = await asyncio.wait_for(asyncio.gather(host.run(), *(p.communicate() for p in procs)), 900)
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
        await host.close()
    reports = [json.loads(out[0]) for out in outs[1:]]
    sent = {int(v): t for r in reports for v, t in r["sent"].items()}
    first: list[float] = []
    last: list[float] = []
    ordinary: list[float] = []
    dealt: list[float] = []
    epoch: list[float] = []
    for v, (t0, opening) in sent.items():
        ends = [r["done"].get(str(v)) for r in reports]
        if any(e is None for e in ends):
            continue  # a move not every client followed (the match's last, as the table closed)
        ms = (max(e[0] for e in ends) - t0) * 1000
        if opening:  # sent as soon as its sender was dealt: the others may still be dealing
            first.append(ms)
            continue
        if any(e[3] for e in ends):  # every hand shown to everyone, every key of it checked
            last.append(ms)
            continue
        (epoch if any(e[1] for e in ends) else ordinary).append(ms)
        if not any(e[1] for e in ends) and any(e[2] for e in ends):
            dealt.append(ms)
    return {"ordinary": ordinary, "dealt": dealt, "epoch": epoch, "first": first, "last": last}


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * q))] if xs else float("nan")


def line(label: str, runs: list[list[float]]) -> str:
    good = [r for r in runs if r]
    if not good:
        return f"{label}: none in these runs"
    p50 = statistics.median(pct(r, 0.50) for r in good)
    p99 = statistics.median(pct(r, 0.99) for r in good)
    return f"{label}: p50 {p50:.2f} ms, p99 {p99:.2f} ms ({'/'.join(str(len(r)) for r in runs)} per run)"


def report(n: int, rounds: int, runs: int, gap: float) -> None:
    tune_gc()  # this process holds the host, as the sealed host's does (net.sealing.serve.run_sealed_host)
    got = [asyncio.run(latency(n, rounds, gap)) for _ in range(runs)]
    print(f"{n} clients at a sealed table (one process each, the host a seatless participant), classic, median "
          f"of {runs} runs of {rounds} rounds, a move every {gap * 1000:.0f} ms at most:", flush=True)
    print("  " + line("move -> all clients followed it", [r["ordinary"] for r in got]))
    print("  " + line("  of which a move that dealt a card (every other participant's keys to its holder)",
                      [r["dealt"] for r in got]))
    print("  " + line("move that opened a deck epoch (reshuffle)", [r["epoch"] for r in got]))
    print("  " + line("a round's first move (sent as its sender was dealt; the others may still be dealing)",
                      [r["first"] for r in got]))
    print("  " + line("a round's last move (every hand shown to everyone: each peer checks every key of it)",
                      [r["last"] for r in got]), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--clients", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2, help="rounds per run (default 2)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--gap", type=float, default=0.05, help="seconds a bot waits before each move (default 0.05)")
    ap.add_argument("--peer", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.peer is not None:
        asyncio.run(_client(args.peer, args.gap))
        return
    report(args.clients, args.rounds, args.runs, args.gap)


if __name__ == "__main__":
    main()
