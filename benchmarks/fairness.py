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

* ``--sealed``: the sealed deal (:mod:`net.sealing`) instead: a first deal in every hand (4 and
  10 peers), a drawn card's whole move (its keys from every other peer, opened) at p50, and one
  peer's audit of the round (every pass made again, every box opened).

Each figure is the median of K runs. Targets: a verified first deal under
100 ms for 10 peers and 168 cards; an audit under 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
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
    its own audit of the round (figures only: the production peer keeps no clock)."""

    t0 = 0.0
    dealt: list[float] = []
    cards: list[float] = []
    audits: list[float] = []

    async def _deal(self, first: bool) -> None:
        await super()._deal(first)
        if first:
            type(self).dealt.append(time.perf_counter() - type(self).t0)

    async def _move(self, author: int, body: dict[str, Any]) -> None:
        t = time.perf_counter()
        before = len(self.known.get(self.pid, ())) if self.pid is not None else 0
        await super()._move(author, body)
        if self.pid is not None and len(self.known[self.pid]) == before + 1:
            type(self).cards.append(time.perf_counter() - t)

    async def _end_round(self) -> None:
        import net.sealing.roundend as ls

        real = ls.audit_round

        def timed(*a: Any, **kw: Any) -> Any:
            t = time.perf_counter()
            out = real(*a, **kw)
            type(self).audits.append(time.perf_counter() - t)
            return out

        ls.audit_round = timed
        try:
            await super()._end_round()
        finally:
            ls.audit_round = real


async def sealed_round(n: int) -> None:
    """One sealed round of classic: the host (a bot's seat) and ``n - 1`` bot clients, one process."""
    host = SealedHost(variant="classic", seats=n, people=n - 1, peer_class=_TimedPeer)
    port = await host.start()
    clients = [SealedClient(peer_class=_TimedPeer) for _ in range(n - 1)]
    _TimedPeer.t0 = time.perf_counter()
    try:
        await asyncio.wait_for(asyncio.gather(host.run(), *(c.run("127.0.0.1", port) for c in clients)), 600)
    finally:
        await host.close()


def sealed_figures(runs: int) -> None:
    print(f"sealed deal (net.sealing), classic 108 cards, median of {runs} runs, every peer in one process")
    print("(the passes run in turn; every peer's checks share this one core: an upper bound)")
    for n in (4, 10):
        deals, cards, audits = [], [], []
        for _ in range(runs):
            _TimedPeer.dealt, _TimedPeer.cards, _TimedPeer.audits = [], [], []
            asyncio.run(sealed_round(n))
            deals.append(max(_TimedPeer.dealt))
            cards += _TimedPeer.cards
            audits.append(statistics.median(_TimedPeer.audits))
        print(f"{n:>3} peers: first deal in every hand {statistics.median(deals) * 1000:8.1f} ms; "
              f"a drawn card's move, p50 {statistics.median(cards) * 1000:6.1f} ms ({len(cards)} cards); "
              f"a round's audit (one peer) {statistics.median(audits) * 1000:7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sealed", action="store_true", help="the sealed deal's figures only")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
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
