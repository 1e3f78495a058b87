"""The fair deal's cost on loopback: time to a verified first deal, and time to audit a round.

    python benchmarks/fairness.py [--runs K]

* verified first deal: from ``host.start_game()`` to the moment *every*
  client holds its dealt hand with every card checked against its
  commitment (the whole seed exchange - commit, seeds, acks, reveals - and
  the deliveries included). All clients share this process's event loop,
  so each peer's checks run one after another: an upper bound on what
  separate machines would see. Classic (108 cards) with 2, 4 and 10 peers;
  No Mercy (168 cards) with 2, 4 and 6 peers (its most); Diez (170 cards)
  with 10 peers, the whole verified deal of a deck that size at a full
  table. The seed exchange alone of a 168-card epoch at a 10-seat table is
  timed too (until every peer holds the agreed permutation).
* audit: ``uno-tui audit`` of one player's transcript of a whole round
  (parsing, every signature, every commitment, the engine replay).

* ``--sealed``: the sealed deal (:mod:`net.sealing`) instead, timed from the host starting the
  table (every peer connected) with the system-wide ``CLOCK_MONOTONIC``: a first deal in every
  hand (classic, 108 cards, 4 and 10 peers; Diez, 170 cards, 10 peers, the deal alone), a drawn
  card's whole move at its drawer (the move followed, every other peer's keys in, checked, the
  card opened) at p50, and one peer's audit of the round in CPU time (every pass made again,
  every box opened). Twice: every peer in this one process (each peer's checks one after another on one
  core: an upper bound), then each client in a process of its own on loopback with the host in
  this one (as at a real table; on a 2-core machine 10 processes still queue for 2 cores).
  Targets (issue 16): a 10-peer deal under 300 ms (108 cards) and 500 ms (168/170), 4 peers
  under 100 ms, a drawn card under 10 ms p50 with 10 peers, a round's audit under 1 s.

Each figure is the median of K runs. Targets: a verified first deal under
100 ms for 10 peers and 168 cards; an audit under 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import core  # noqa: E402
from net import BotClient, Client  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.testing import start_host  # noqa: E402
from net.sealing import SealedClient, SealedHost, SealedPeer  # noqa: E402
from net.transcript import audit_file  # noqa: E402


async def first_deal(variant: str, n: int, tmp: str) -> tuple[float, float | None]:
    host = await start_host(variant=variant, seats=n, bots=0, auto_start=False, transcript_dir=tmp)
    clients = [Client(("127.0.0.1", host.port), f"P{i}", identity=Identity.generate(), transcript_dir=tmp)
               for i in range(n)]
    try:
        for c in clients:
            await c.connect()
        done = asyncio.Event()

        def check() -> None:
            if all(c.observation is not None and c.ledger is not None and c.ledger.mine for c in clients):
                done.set()

        for c in clients:
            c.on_message = lambda m: check()
        t0 = time.perf_counter()
        host.start_game()
        await asyncio.wait_for(done.wait(), 30)
        deal = time.perf_counter() - t0
        assert all(c.fairness is None for c in clients), [c.fairness for c in clients]
        extra = None
        if n == 10 and variant == "classic":
            # A 168-card epoch at this 10-seat table: the seed exchange alone.
            items = core.deck("nomercy", num_players=6)
            assert host.dealer is not None
            t0 = time.perf_counter()
            task = asyncio.ensure_future(host.dealer.run_epoch(10_000, items))
            while not all(c.ledger is not None and 10_000 in c.ledger.final for c in clients):
                await asyncio.sleep(0)
            extra = time.perf_counter() - t0
            await task
        return deal, extra
    finally:
        for c in clients:
            await c.close()
        await host.close()


async def audit_round(variant: str, n: int, tmp: str) -> float:
    host = await start_host(variant=variant, seats=n, bots=1, rounds=1, transcript_dir=tmp)
    bots = [BotClient(("127.0.0.1", host.port), f"B{i}", seed=i, identity=Identity.generate(),
                      transcript_dir=tmp) for i in range(n - 1)]
    try:
        await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), 60)
    finally:
        await host.close()
    path = bots[0].client.transcript_path
    assert path is not None
    t0 = time.perf_counter()
    ok, text = audit_file(path)
    took = time.perf_counter() - t0
    assert ok, text
    return took


class _TimedPeer(SealedPeer):
    """A sealed peer that notes when its first deal is done, each single card opened to it, and
    its own audit of the round (figures only: the production peer keeps no clock).

    Times are ``time.monotonic()``: ``CLOCK_MONOTONIC``, one clock for every process of the machine,
    so a deal's end in a client's process is compared with the start in the host's."""

    born: list[float] = []
    dealt: list[float] = []
    cpu: list[float] = []
    """Process CPU time at this process's first peer's birth, then at each first deal's end."""
    cards: list[float] = []
    audits: list[float] = []
    deal_only = False
    """Stop after the first deal (a figure of the deal alone: no round played)."""
    epochs: list[int] = []
    """The epochs (shuffles of cards) each first deal took, as the host's peer counted them: a Diez
    deal whose turned card is no number puts it back and shuffles the pile again (55% of deals)."""

    @classmethod
    def reset(cls) -> None:
        cls.born, cls.dealt, cls.cards, cls.audits, cls.cpu, cls.epochs = [], [], [], [], [], []

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        if self.pid == 0:  # the host's peer is made as the host starts the table
            type(self).born.append(time.monotonic())
        if not type(self).cpu:
            type(self).cpu.append(time.process_time())

    async def _run(self) -> None:
        if not self.deal_only:
            await super()._run()
            return
        self.round = 0
        await self._deal(first=True)

    async def _deal(self, first: bool) -> None:
        await super()._deal(first)
        if first:
            type(self).dealt.append(time.monotonic())
            type(self).cpu.append(time.process_time())
            if self.pid == 0:
                type(self).epochs.append(len(self.epochs))

    async def _move(self, author: int, body: dict[str, Any]) -> None:
        t = time.monotonic()
        before = len(self.known.get(self.pid, ())) if self.pid is not None else 0
        await super()._move(author, body)
        if self.pid is not None and len(self.known[self.pid]) == before + 1:
            type(self).cards.append(time.monotonic() - t)

    async def _end_round(self) -> None:
        import net.sealing.roundend as ls

        real = ls.audit_round

        def timed(*a: Any, **kw: Any) -> Any:
            # CPU time: every peer audits at once, and 10 processes on 2 cores would each count
            # the others' audits too (this process's: the audit's own threads included, and no
            # other peer runs while it holds the event loop).
            t = time.process_time()
            out = real(*a, **kw)
            type(self).audits.append(time.process_time() - t)
            return out

        ls.audit_round = timed
        try:
            await super()._end_round()
        finally:
            ls.audit_round = real


def _times() -> dict[str, Any]:
    cpu = _TimedPeer.cpu
    return {"dealt": _TimedPeer.dealt, "cards": _TimedPeer.cards, "audits": _TimedPeer.audits,
            "cpu": max(cpu[1:]) - cpu[0] if len(cpu) > 1 else 0.0}


async def sealed_round(variant: str, n: int, processes: bool) -> dict[str, Any]:
    """One sealed round of ``variant``: the host (a bot's seat) and ``n - 1`` bot clients, each client
    in this process or (``processes``) in a process of its own; every peer's times."""
    _TimedPeer.reset()
    host = SealedHost(variant=variant, seats=n, people=n - 1, peer_class=_TimedPeer)
    port = await host.start()
    procs: list[asyncio.subprocess.Process] = []
    try:
        if processes:
            cmd = [sys.executable, __file__, "--sealed-peer", str(port)] + (["--deal-only"] if _TimedPeer.deal_only
                                                                              else [])
            procs = [await asyncio.create_subprocess_exec(*cmd, stdout=asyncio.subprocess.PIPE) for _ in range(n - 1)]
            outs = await asyncio.wait_for(asyncio.gather(host.run(), *(p.communicate() for p in procs)), 600)
            times = [json.loads(out[0]) for out in outs[1:]] + [_times()]
        else:
            clients = [SealedClient(peer_class=_TimedPeer) for _ in range(n - 1)]
            await asyncio.wait_for(asyncio.gather(host.run(), *(c.run("127.0.0.1", port) for c in clients)), 600)
            times = [_times()]
    finally:
        for p in procs:
            if p.returncode is None:
                p.kill()
        await host.close()
    merged: dict[str, Any] = {k: [x for t in times for x in t[k]] for k in ("dealt", "cards", "audits")}
    merged["deal"] = max(merged["dealt"]) - _TimedPeer.born[0]
    merged["epochs"] = _TimedPeer.epochs[0]
    merged["cpu"] = sum(t["cpu"] for t in times)  # every process's CPU time until its deal was done
    return merged


async def _sealed_peer(port: int) -> None:
    """A client of :func:`sealed_round` in a process of its own: plays, then prints its times."""
    _TimedPeer.reset()
    await SealedClient(peer_class=_TimedPeer).run("127.0.0.1", port)
    print(json.dumps(_times()))


SEALED_CASES = (("classic", 4, False), ("classic", 10, False), ("diez", 10, True))
"""(variant, peers, the deal alone): Diez is the 170-card deck at a full table of 10."""


def _mul_us() -> float:
    """What one checked scalar multiplication costs now, in µs (about 96 on the project's idle machine)."""
    from net.sealed import group as g

    k, p = g.random_scalar(), g.base(g.random_scalar())
    runs = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(100):
            g.mul(k, p)
        runs.append((time.perf_counter() - t) * 1e4)
    return statistics.median(runs)


def sealed_figures(runs: int) -> None:
    print(f"sealed deal (net.sealing), median of {runs} runs; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores; a checked scalar multiplication {_mul_us():.0f} µs now (96 on the idle machine)")
    print("first deal: from the host starting the table (every peer connected) to the last peer holding its "
          "checked hand;\na drawn card: its whole move at its drawer (the move followed, every other peer's "
          "keys in and checked, the card opened), p50 over every draw;\na round's audit: one peer's "
          "in CPU time (every pass made again, every box opened), the median peer;\n"
          "CPU: the CPU time every process of the table spent until its first deal was done, added up")
    modes = ((False, "one process: every peer in one event loop, its work one after another (an upper bound; a "
                     "pass's multiplications spread over the cores)"),
             (True, f"a process per peer on loopback: N processes share this machine's {os.cpu_count()} cores, "
                    "so every peer's checks queue for them (on machines of their own they would overlap)"))
    for processes, label in modes:
        print(f"\n{label}")
        for variant, n, deal_only in SEALED_CASES:
            _TimedPeer.deal_only = deal_only
            deals: list[float] = []
            by_epochs: dict[int, list[float]] = {}
            cpus: list[float] = []
            cards: list[float] = []
            audits: list[float] = []
            for _ in range(runs):
                got = asyncio.run(sealed_round(variant, n, processes))
                deals.append(got["deal"])
                by_epochs.setdefault(got["epochs"], []).append(got["deal"])
                cpus.append(got["cpu"])
                cards += got["cards"]
                if got["audits"]:
                    audits.append(statistics.median(got["audits"]))
            cards_n = len(core.deck(variant, num_players=n))
            line = f"  {variant:<8}{cards_n:>4} cards {n:>3} peers: first deal {statistics.median(deals) * 1000:7.1f} ms " \
                f"(CPU {statistics.median(cpus) * 1000:6.1f} ms)"
            if cards:
                line += f"; drawn card p50 {statistics.median(cards) * 1000:6.1f} ms ({len(cards)} cards)"
            if audits:
                line += f"; round's audit {statistics.median(audits) * 1000:6.1f} ms"
            if set(by_epochs) != {1}:
                line += "; by epochs in the deal: " + ", ".join(
                    f"{e}: {statistics.median(ds) * 1000:.0f} ms ({len(ds)})" for e, ds in sorted(by_epochs.items()))
            print(line, flush=True)
    _TimedPeer.deal_only = False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sealed", action="store_true", help="the sealed deal's figures only")
    parser.add_argument("--sealed-peer", type=int, help=argparse.SUPPRESS)  # a client process of --sealed
    parser.add_argument("--deal-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.sealed_peer is not None:
        _TimedPeer.deal_only = args.deal_only
        asyncio.run(_sealed_peer(args.sealed_peer))
        return
    if args.sealed:
        sealed_figures(args.runs)
        return
    tmp = tempfile.mkdtemp(prefix="uno-fair-bench-")
    os.environ.setdefault("UNO_TUI_CONFIG_DIR", str(Path(tmp) / "config"))
    print(f"verified first deal, median of {args.runs} runs (all peers in one process)")
    print(f"{'variant':<10}{'cards':>6}{'peers':>6}{'deal ms':>10}")
    big: list[float] = []
    # Diez deals 170 cards to as many as 10 players: the full 10-peer case for a deck of 168+.
    for variant, peers in (("classic", (2, 4, 10)), ("nomercy", (2, 4, 6)), ("diez", (10,))):
        cards = len(core.deck(variant, num_players=2))
        for n in peers:
            times = []
            for _ in range(args.runs):
                deal, extra = asyncio.run(first_deal(variant, n, tmp))
                times.append(deal)
                if extra is not None:
                    big.append(extra)
            print(f"{variant:<10}{cards:>6}{n:>6}{statistics.median(times) * 1000:>10.1f}")
    if big:
        print(f"seed exchange of a 168-card epoch with 10 peers: {statistics.median(big) * 1000:.1f} ms")
    print(f"\naudit of a whole round (uno-tui audit of one player's transcript), median of {args.runs}")
    for variant, n in (("classic", 4), ("nomercy", 4)):
        times = [asyncio.run(audit_round(variant, n, tmp)) for _ in range(args.runs)]
        print(f"{variant:<10} {n} players: {statistics.median(times) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
