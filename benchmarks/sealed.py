"""The sealed deal's cryptography, timed per participant: first deals, one card opened, a round's audit.

    python benchmarks/sealed.py [--runs K] [--quick]

Everything runs in this one process, one participant after another, so the
script times each participant's work on its own and adds it up the way a
real table runs it:

* **sequential**: the shuffle passes (each participant works on the deck the
  previous one published);
* **parallel**: what every participant does at the same time on its own
  machine: checking each pass as it arrives (points and sum proof; only the
  last pass's check is on the critical path, the others overlap the next
  pass), making the shares of the deal and opening its own hand.

``critical`` = sum of the passes + the check of the last pass + one
participant's shares + one participant's opening (the median participant:
they all do the same work, and on a busy machine the slowest is whichever
one was preempted). ``serial`` is the
whole thing done on one core (the sum of everybody's work). Neither counts
the network (a relay hop per pass on a LAN, about a millisecond) nor the
round keys, which are announced in the pause before the round.

The SRA scheme (masking and per-slot locks) is timed beside it on the same
decks, interleaved run by run, to back the choice of ElGamal.

Figures are medians of K runs (default 5). The project's machine has 2 cores
shared with other work: expect the figures to vary by a factor of 2-3 when
it is busy; compare schemes within one run of the script.

Targets (issue 16): a first deal under 300 ms for 10 peers and 108 cards,
under 500 ms for 168/170 cards, under 100 ms for 4 peers; one card in its
holder's hand under 10 ms p50 with 10 peers (this is the crypto part); a
round's audit under 1 s with 10 peers.
"""

from __future__ import annotations

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net.identity import Identity  # noqa: E402
from net.sealed import (CardCodec, Deck, Epoch, Participant, RoundKeys, RoundSecret, audit_round,  # noqa: E402
                        open_public)
from net.sealed import sra  # noqa: E402
from net.sealed.elgamal import check_pass  # noqa: E402

HAND = 7


def clock(f: Callable[[], object]) -> tuple[float, object]:
    t0 = time.perf_counter()
    out = f()
    return (time.perf_counter() - t0) * 1000, out


class Table:
    """N participants with their keys, for one round."""

    def __init__(self, players: int, cards: int) -> None:
        self.game = secrets.token_bytes(16)
        ids = [Identity.generate() for _ in range(players)]
        self.secrets = [RoundSecret.fresh(self.game, 0, p, ids[p].public) for p in range(players)]
        self.keys = RoundKeys(self.game, 0, [s.announce() for s in self.secrets])
        self.codec = CardCodec(cards, b"bench")
        self.parts = [Participant(self.secrets[p], self.keys, ids[p]) for p in range(players)]
        self.envelopes: list = []

    def epoch(self, number: int, deck: Deck, codec: CardCodec) -> tuple[Epoch, list[float], list[float]]:
        """Run an epoch: each pass timed (sequential) and one peer's check of each pass (parallel)."""
        ep = Epoch(self.keys, number, deck, self.keys.pids, codec)
        for p in self.parts:
            p.add_epoch(ep)
        passes, checks = [], []
        self.prepare = statistics.median(clock(lambda: p.prepare(number, ep.n))[0] for p in self.parts)
        for pid in ep.order:
            ms, pas = clock(lambda: self.parts[pid].shuffle(number))
            passes.append(ms)
            before = ep.current.sums()
            index = len(ep.passes)
            ms, _ = clock(lambda: (pas.deck.check_points(pid), check_pass(ep.ctx, self.keys.joint, before, pas, index)))
            checks.append(ms)
            ep.add_pass(pas, points=False)  # checked just above (timed apart)
            ep.checked[-1] = True
        return ep, passes, checks

    def deal(self, ep: Epoch) -> tuple[list[float], list[float]]:
        """Deal HAND cards to each: each participant's share-making time, then each one's opening time."""
        n = len(self.parts)
        hands = {p: [(ep.number, k * n + p) for k in range(HAND)] for p in range(n)}
        make, opening = [], []
        inbox: dict[int, list] = {p: [] for p in range(n)}
        for j in range(n):
            t0 = time.perf_counter()
            for p in range(n):
                if p != j:
                    env = self.parts[j].share_with(p, hands[p])
                    inbox[p].append(env)
            make.append((time.perf_counter() - t0) * 1000)
        for p in range(n):
            t0 = time.perf_counter()
            for env in inbox[p]:
                self.parts[p].receive(env)
            opening.append((time.perf_counter() - t0) * 1000)
            self.envelopes += inbox[p]
        return make, opening


def first_deal(players: int, cards: int) -> dict[str, float]:
    t = Table(players, cards)
    ep, passes, checks = t.epoch(0, Deck.open(t.codec), t.codec)
    make, opening = t.deal(ep)
    # The parallel parts are the same work for every participant: the median participant stands for
    # them all (the slowest is mostly whichever one the busy machine preempted).
    mk, op = statistics.median(make), statistics.median(opening)
    return {"prep": t.prepare, "passes": sum(passes), "pass": statistics.median(passes), "check": checks[-1],
            "checks_per_peer": sum(checks), "make": mk, "open": op,
            "critical": sum(passes) + checks[-1] + mk + op,
            "serial": sum(passes) + players * sum(checks) + sum(make) + sum(opening)}


def sra_first_deal(players: int, cards: int) -> dict[str, float]:
    codec = CardCodec(cards, b"bench")
    secs = [sra.SraSecret() for _ in range(players)]
    deck = list(codec.points)
    masks, locks, checks = [], [], []
    for j in range(players):
        ms, p = clock(lambda: sra.mask_pass(b"ctx", deck, secs[j], j))
        masks.append(ms)
        ms, _ = clock(lambda: sra.check_mask(b"ctx", deck, p))
        checks.append(ms)
        deck = p.deck
    lps = []
    for j in range(players):
        ms, lp = clock(lambda: sra.lock_pass(deck, secs[j], j))
        locks.append(ms)
        lps.append(lp)
        deck = lp.deck
    # The deal: each share is a slot key (no work to make); each holder checks and opens HAND cards.
    t0 = time.perf_counter()
    for k in range(HAND):
        s = k * players
        sra.open_slot(codec, deck[s], {j: secs[j].k(s) for j in range(players)}, {j: lps[j].K[s] for j in range(players)})
    opening = (time.perf_counter() - t0) * 1000
    return {"passes": sum(masks) + sum(locks), "check": checks[-1], "open": opening,
            "critical": sum(masks) + sum(locks) + checks[-1] + opening}


def one_card(players: int, trials: int) -> dict[str, float]:
    """A card drawn mid-round: every other participant makes its share and seals it; the holder opens."""
    t = Table(players, 108)
    ep, _, _ = t.epoch(0, Deck.open(t.codec), t.codec)
    make, opening = [], []
    for slot in range(trials):
        envs = []
        per = []
        for j in range(1, players):
            ms, env = clock(lambda: t.parts[j].share_with(0, [(0, slot)]))
            per.append(ms)
            envs.append(env)
        make.append(statistics.median(per))
        t0 = time.perf_counter()
        for env in envs:
            t.parts[0].receive(env)
        opening.append((time.perf_counter() - t0) * 1000)
    both = sorted(m + o for m, o in zip(make, opening))
    return {"make": statistics.median(make), "open": statistics.median(opening), "p50": both[len(both) // 2]}


def sra_one_card(players: int, trials: int) -> float:
    codec = CardCodec(108, b"bench")
    secs = [sra.SraSecret() for _ in range(players)]
    deck = list(codec.points)
    for j in range(players):
        deck = sra.mask_pass(b"ctx", deck, secs[j], j).deck
    lps = []
    for j in range(players):
        lp = sra.lock_pass(deck, secs[j], j)
        lps.append(lp)
        deck = lp.deck
    out = []
    for s in range(trials):
        ms, _ = clock(lambda: sra.open_slot(codec, deck[s], {j: secs[j].k(s) for j in range(players)},
                                            {j: lps[j].K[s] for j in range(players)}))
        out.append(ms)
    return statistics.median(out)


def calibrate() -> float:
    """The median time of one checked scalar multiplication now (96 us on the project's idle machine)."""
    from net.sealed import group as g
    k, P = g.random_scalar(), g.base(g.random_scalar())
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(200):
            g.mul(k, P)
        runs.append((time.perf_counter() - t0) / 200 * 1e6)
    return statistics.median(runs)


def round_audit(players: int, cards: int) -> dict[str, float]:
    """A played round: the deal, 30 draws, 20 cards played (shown), one reshuffle of 40 discards; then the audit."""
    t = Table(players, cards)
    ep, _, _ = t.epoch(0, Deck.open(t.codec), t.codec)
    t.deal(ep)
    nxt = HAND * players
    for k in range(30):
        to = k % players
        for j in range(players):
            if j != to:
                env = t.parts[j].share_with(to, [(0, nxt)])
                t.parts[to].receive(env)
                t.envelopes.append(env)
        nxt += 1
    discards = list(range(40))
    sub = t.codec.restrict(discards)
    ep1, _, _ = t.epoch(1, Deck.open(sub), sub)
    for s in range(3):
        shares = [sh for p in t.parts for _, sh in p.public_shares([(1, s)])]
        open_public(ep1, s, shares)
    reveals = [s.reveal() for s in t.secrets]
    ms, _ = clock(lambda: audit_round(t.keys, [ep, ep1], reveals, t.envelopes))
    bare, _ = clock(lambda: audit_round(t.keys, [ep, ep1], reveals))
    return {"audit": ms, "bare": bare, "envelopes": len(t.envelopes)}


def sra_audit(players: int, cards: int) -> float:
    """What SRA's audit must redo: every masking and locking pass of the deal epoch (a multiplication per card)."""
    codec = CardCodec(cards, b"bench")
    secs = [sra.SraSecret() for _ in range(players)]
    deck = list(codec.points)
    t0 = time.perf_counter()
    for j in range(players):
        deck = sra.mask_pass(b"ctx", deck, secs[j], j).deck
    for j in range(players):
        deck = sra.lock_pass(deck, secs[j], j).deck
    return (time.perf_counter() - t0) * 1000


def med(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per figure (the median is shown)")
    ap.add_argument("--quick", action="store_true", help="one run of the smallest cases (a smoke test)")
    args = ap.parse_args()
    runs = 1 if args.quick else args.runs
    cases = [(4, 108), (10, 108)] if args.quick else [(2, 108), (4, 108), (10, 108), (4, 168), (10, 168), (10, 170)]
    print(f"sealed deal, per-participant work, medians of {runs} run(s); load {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores; one checked scalar multiplication {calibrate():.0f} us "
          "(96 us on the idle machine: scale by that)")
    print("\nfirst deal (ElGamal, the chosen scheme; ms; 'ahead': one participant's re-randomisers, made "
          "before its turn):")
    print(f"{'peers':>5} {'cards':>5} | {'ahead':>6} {'passes':>7} {'1 pass':>6} {'check':>6} {'shares':>6} "
          f"{'open':>6} | "
          f"{'critical':>8} {'serial':>7} | {'SRA passes':>10} {'SRA crit':>8}")
    for n, c in cases:
        eg, sr = [], []
        for _ in range(runs):  # interleaved, so both schemes see the same load
            eg.append(first_deal(n, c))
            sr.append(sra_first_deal(n, c))
        print(f"{n:>5} {c:>5} | {med(eg, 'prep'):>6.1f} {med(eg, 'passes'):>7.1f} {med(eg, 'pass'):>6.1f} {med(eg, 'check'):>6.1f} "
              f"{med(eg, 'make'):>6.1f} {med(eg, 'open'):>6.1f} | {med(eg, 'critical'):>8.1f} "
              f"{med(eg, 'serial'):>7.1f} | {med(sr, 'passes'):>10.1f} {med(sr, 'critical'):>8.1f}")
    print("\none card opened to its holder, 10 peers (ms; 9 shares made in parallel, then checked and opened):")
    rows = [one_card(10, 5 if args.quick else 21) for _ in range(runs)]
    sra_rows = [sra_one_card(10, 21) for _ in range(runs)]
    print(f"  ElGamal: a share made and sealed {med(rows, 'make'):.2f}, nine opened and checked "
          f"{med(rows, 'open'):.2f}, card in hand p50 {med(rows, 'p50'):.2f}; SRA {statistics.median(sra_rows):.2f}")
    print("\na round's audit, 10 peers (ms; one peer's work; deal + 30 draws + 3 turned up + a 40-card reshuffle):")
    for c in ([108] if args.quick else [108, 168]):
        rows = [round_audit(10, c) for _ in range(runs)]
        sra_ms = [sra_audit(10, c) for _ in range(runs)]
        print(f"  {c} cards: ElGamal {med(rows, 'audit'):.1f} with all {int(med(rows, 'envelopes'))} envelopes "
              f"opened, {med(rows, 'bare'):.1f} with none (only disputed ones need it); "
              f"SRA deal epoch alone {statistics.median(sra_ms):.1f}")


if __name__ == "__main__":
    main()
