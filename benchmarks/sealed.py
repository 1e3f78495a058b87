"""The sealed deal's cryptography, timed per participant: first deals, one card opened, a round's audit.

    python benchmarks/sealed.py [--runs K] [--quick]

Both schemes are timed on the same decks, run by run interleaved: the
chosen one, commutative masking with a key per slot (``net.sealed``), and
the measured alternative, ElGamal under a joint key (``net.sealed.elgamal``).

Everything runs in this one process, one participant after another, so the
script times each participant's work on its own and adds it up the way a
real table runs it:

* **ahead**: what a participant can do before its turn, with nothing but its
  own secret and the round's keys (masking: its slot-key commitments;
  ElGamal: its re-randomisers);
* **sequential**: the passes (each participant works on the deck the previous
  one published: masking 2N of them, ElGamal N);
* **parallel**: what every participant does at the same time on its own
  machine: checking each pass as it arrives (only the last pass's check is on
  the critical path; the others overlap the next pass), making the shares of
  the deal, opening its own hand.

``critical`` = the passes + the check of the last pass + one participant's
shares + one participant's opening (the median participant: they all do the
same work, and on a busy machine the slowest is whichever one was
preempted). ``serial`` is everybody's work on one core. Neither counts the
network (a relay hop per pass, about a millisecond on a LAN: 2N hops for
masking, N for ElGamal) nor the round keys, announced in the pause before the
round.

Work per participant and card: masking, a mask pass and a lock pass (one
checked scalar multiplication each) and, ahead, a base-point multiplication
per slot key; ElGamal, two additions per pass and, ahead, a base-point and a
checked multiplication. Checking a pass as it arrives: masking, the sum proof of a mask
pass (a lock pass has none; its values are checked by the next
multiplication, which libsodium refuses for a point outside the group);
ElGamal, a subgroup check per point (additions check nothing) and the sum
proof.
Opening a card: masking, a base-point multiplication per share and one
checked multiplication; ElGamal, a Chaum-Pedersen check per share (a base
and three checked multiplications).

Figures are medians of K runs (default 5). The project's machine has 2 cores
shared with other work: the first line says what one checked scalar
multiplication costs now (96 us on the idle machine); scale by that.

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
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from net import sealed  # noqa: E402
from net.identity import Identity  # noqa: E402
from net.sealed import CardCodec, RoundKeys, RoundSecret  # noqa: E402
from net.sealed import elgamal as eg  # noqa: E402
from net.sealed import group as g  # noqa: E402

HAND = 7
SCHEMES = ("masking", "elgamal")


def clock(f: Callable[[], object]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    out = f()
    return (time.perf_counter() - t0) * 1000, out


class Table:
    """N participants of one scheme with their keys, for one round."""

    def __init__(self, scheme: str, players: int, cards: int) -> None:
        self.scheme = scheme
        game = secrets.token_bytes(16)
        ids = [Identity.generate() for _ in range(players)]
        self.secrets = [RoundSecret.fresh(game, 0, p, ids[p].public) for p in range(players)]
        self.keys = RoundKeys(game, 0, [s.announce() for s in self.secrets])
        self.codec = CardCodec(cards, b"bench", edwards=scheme == "elgamal")
        cls = sealed.Participant if scheme == "masking" else eg.Participant
        self.parts = [cls(self.secrets[p], self.keys, ids[p]) for p in range(players)]
        self.envelopes: list = []

    def epoch(self, number: int, ids: list[int] | None = None) -> tuple[Any, float, list[float], list[float]]:
        """Run an epoch: what each participant makes ahead, each pass (sequential), one peer's check of each."""
        codec = self.codec if ids is None else self.codec.restrict(ids)
        if self.scheme == "masking":
            ep = sealed.Epoch.of_cards(self.keys, number, codec, self.keys.pids)
        else:
            ep = eg.Epoch(self.keys, number, eg.Deck.open(codec), self.keys.pids, codec)
        for p in self.parts:
            p.add_epoch(ep)
        ahead = statistics.median(clock(lambda: p.prepare(number, ep.n))[0] for p in self.parts)
        passes, checks = [], []
        while not ep.done:
            ms, pas = clock(lambda: self.parts[ep.next_author].shuffle(number))
            passes.append(ms)
            ms, _ = clock(lambda: ep.add_pass(pas, points=self.scheme == "elgamal"))
            checks.append(ms)
        return ep, ahead, passes, checks

    def shares(self, j: int, to: int, slots: list[tuple[int, int]]) -> Any:
        return self.parts[j].share_with(to, slots)

    def deal(self, ep: Any) -> tuple[list[float], list[float]]:
        """Deal HAND cards to each: each participant's share-making time, then each one's opening time."""
        n = len(self.parts)
        hands = {p: [(ep.number, k * n + p) for k in range(HAND)] for p in range(n)}
        inbox: dict[int, list] = {p: [] for p in range(n)}
        make, opening = [], []
        for j in range(n):
            t0 = time.perf_counter()
            for p in range(n):
                if p != j:
                    inbox[p].append(self.parts[j].share_with(p, hands[p]))
            make.append((time.perf_counter() - t0) * 1000)
        for p in range(n):
            t0 = time.perf_counter()
            for env in inbox[p]:
                self.parts[p].receive(env)
            opening.append((time.perf_counter() - t0) * 1000)
            self.envelopes += inbox[p]
        return make, opening

    def audit(self, epochs: list[Any], envelopes: bool) -> float:
        audit = sealed.audit_round if self.scheme == "masking" else eg.audit_round
        reveals = [s.reveal() for s in self.secrets]
        return clock(lambda: audit(self.keys, epochs, reveals, self.envelopes if envelopes else ()))[0]


def first_deal(scheme: str, players: int, cards: int) -> dict[str, float]:
    t = Table(scheme, players, cards)
    ep, ahead, passes, checks = t.epoch(0)
    make, opening = t.deal(ep)
    mk, op = statistics.median(make), statistics.median(opening)
    return {"ahead": ahead, "passes": sum(passes), "check": checks[-1], "make": mk, "open": op,
            "critical": sum(passes) + checks[-1] + mk + op,
            "serial": players * ahead + sum(passes) + players * sum(checks) + sum(make) + sum(opening)}


def one_card(scheme: str, players: int, trials: int) -> float:
    """A card drawn mid-round: the others make their shares (in parallel), the drawer checks and opens them."""
    t = Table(scheme, players, 108)
    t.epoch(0)
    out = []
    for slot in range(trials):
        per, envs = [], []
        for j in range(1, players):
            ms, env = clock(lambda: t.parts[j].share_with(0, [(0, slot)]))
            per.append(ms)
            envs.append(env)
        ms, _ = clock(lambda: [t.parts[0].receive(env) for env in envs])
        out.append(statistics.median(per) + ms)
    return statistics.median(out)


def round_audit(scheme: str, players: int, cards: int) -> dict[str, float]:
    """A played round: the deal, 30 draws, a reshuffle of 40 discards; then the whole audit."""
    t = Table(scheme, players, cards)
    ep, _, _, _ = t.epoch(0)
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
    ep1, _, _, _ = t.epoch(1, list(range(40)))
    return {"all": t.audit([ep, ep1], True), "bare": t.audit([ep, ep1], False), "envelopes": len(t.envelopes)}


def calibrate() -> float:
    """The median time of one checked scalar multiplication now (96 us on the project's idle machine)."""
    k, P = g.random_scalar(), g.base(g.random_scalar())
    runs = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(200):
            g.mul(k, P)
        runs.append((time.perf_counter() - t0) / 200 * 1e6)
    return statistics.median(runs)


def med(rows: list[dict[str, float]], key: str) -> float:
    return statistics.median(r[key] for r in rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per figure (the median is shown)")
    ap.add_argument("--quick", action="store_true", help="one run of two small cases (a smoke test)")
    args = ap.parse_args()
    if args.runs < 1:
        ap.error("--runs must be at least 1")
    runs = 1 if args.quick else args.runs
    cases = [(4, 108), (10, 108)] if args.quick else [(2, 108), (4, 108), (10, 108), (4, 168), (10, 168), (10, 170)]
    print(f"sealed deal, per-participant work, medians of {runs} run(s); load {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} cores; one checked scalar multiplication {calibrate():.0f} us now "
          "(96 us on the idle machine: scale by that)")
    print("\nfirst deal (ms):")
    print("('idle' scales 'critical' by 96 us over a multiplication timed around that case's runs)")
    print(f"{'scheme':>8} {'peers':>5} {'cards':>5} | {'ahead':>6} {'passes':>7} {'check':>6} {'shares':>6} "
          f"{'open':>6} | {'critical':>8} {'serial':>8} | {'idle':>6}")
    for n, c in cases:
        rows: dict[str, list[dict[str, float]]] = {s: [] for s in SCHEMES}
        mult = [calibrate()]
        for _ in range(runs):  # interleaved, so both schemes see the same load
            for s in SCHEMES:
                rows[s].append(first_deal(s, n, c))
            mult.append(calibrate())
        scale = 96 / statistics.median(mult)
        for s in SCHEMES:
            r = rows[s]
            print(f"{s:>8} {n:>5} {c:>5} | {med(r, 'ahead'):>6.1f} {med(r, 'passes'):>7.1f} {med(r, 'check'):>6.1f} "
                  f"{med(r, 'make'):>6.1f} {med(r, 'open'):>6.1f} | {med(r, 'critical'):>8.1f} "
                  f"{med(r, 'serial'):>8.1f} | {med(r, 'critical') * scale:>6.1f}")
    print("\none card in its holder's hand, 10 peers (ms, p50; shares made in parallel, then checked and opened):")
    mult = calibrate()
    cards = {s: statistics.median(one_card(s, 10, 5 if args.quick else 21) for _ in range(runs)) for s in SCHEMES}
    scale = 96 / statistics.median([mult, calibrate()])
    print("  " + ", ".join(f"{s} {v:.2f} (idle {v * scale:.2f})" for s, v in cards.items()))
    print("\na round's audit, 10 peers (ms; one peer's work; deal + 30 draws + a 40-card reshuffle):")
    for c in ([108] if args.quick else [108, 168]):
        for s in SCHEMES:
            mult = calibrate()
            rows_a = [round_audit(s, 10, c) for _ in range(runs)]
            scale = 96 / statistics.median([mult, calibrate()])
            print(f"  {c} cards, {s}: {med(rows_a, 'all'):.1f} (idle {med(rows_a, 'all') * scale:.1f}) opening all "
                  f"{int(med(rows_a, 'envelopes'))} envelopes, {med(rows_a, 'bare'):.1f} without (only disputed "
                  "ones need opening)")


if __name__ == "__main__":
    main()
