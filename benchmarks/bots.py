"""Bot strength: win shares with Wilson 95% intervals, and the ``hard`` bot's thinking time.

    python benchmarks/bots.py [FIGURE ...] [--games N] [--iterations K | --think S] [--procs P] [--seed S]

Figures (targets from issue 17; 2,000 games each by default):

* ``classic4-hard``: classic, 4 players, ``hard`` against three ``normal``: at least 40%.
* ``classic4-normal``: classic, 4 players, ``normal`` against three ``random``: at least 45%.
* ``classic2-hard``: heads-up classic, ``hard`` against ``normal``: at least 65%.
* ``nomercy-hard``, ``wildrawz-hard``, ``diez-hard``, ``extended-hard``: 4 players, ``hard``
  against three ``normal``: at least 1.5x the chance share (37.5%).
* ``time``: ``hard``'s decision times under a clock budget (``--think``, default 0.3 s):
  the median within the budget, none over twice it.

The tested bot changes seat every game (seat ``g mod n`` in game ``g``), so
no seat's advantage (who starts, who deals) counts for or against it. A win
is a round won (a tie shares it); in ``extended``, where everyone who goes
out scores, a win is going out first (the round's ``winner``). Games are
seeded ``S:g``: the same command gives the same deals.

The budget is printed with every figure: ``--iterations K`` searches K
iterations per decision (deterministic, and what to use on a busy machine),
``--think S`` S seconds of wall clock. ``--procs P`` plays the games in P
processes (one search process each).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import core  # noqa: E402
from core.bots import make_bot  # noqa: E402
from core.bots.hard import iterations  # noqa: E402
from core.bots.simulate import play_round  # noqa: E402


@dataclass(frozen=True)
class Figure:
    name: str
    variant: str
    players: int
    tested: str
    others: str
    target: float
    what: str


FIGURES = {f.name: f for f in [
    Figure("classic4-hard", "classic", 4, "hard", "normal", 0.40, "classic 4p: hard vs 3 normal"),
    Figure("classic4-normal", "classic", 4, "normal", "random", 0.45, "classic 4p: normal vs 3 random"),
    Figure("classic2-hard", "classic", 2, "hard", "normal", 0.65, "classic 2p: hard vs normal"),
    Figure("nomercy-hard", "nomercy", 4, "hard", "normal", 1.5 / 4, "nomercy 4p: hard vs 3 normal"),
    Figure("wildrawz-hard", "wildrawz", 4, "hard", "normal", 1.5 / 4, "wildrawz 4p: hard vs 3 normal"),
    Figure("diez-hard", "diez", 4, "hard", "normal", 1.5 / 4, "diez 4p: hard vs 3 normal"),
    Figure("extended-hard", "extended", 4, "hard", "normal", 1.5 / 4,
           "extended 4p: hard vs 3 normal (first out)"),
]}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, mid - half), min(1.0, mid + half)


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    times: list[float] = field(default_factory=list)
    searches: int = 0
    fallbacks: int = 0

    def add(self, other: "Tally") -> None:
        self.games += other.games
        self.wins += other.wins
        self.times += other.times
        self.searches += other.searches
        self.fallbacks += other.fallbacks


class Timed:
    """Wraps a bot; records the time of each decision it makes on its move."""

    def __init__(self, bot: Any, times: list[float]) -> None:
        self.bot, self.times = bot, times

    def observe(self, seat: int, events: Any) -> None:
        self.bot.observe(seat, events)

    def choose(self, obs: dict[str, Any]) -> Any:
        start = time.perf_counter()
        a = self.bot.choose(obs)
        if obs.get("actor", obs["current"]) == obs["me"]:
            self.times.append(time.perf_counter() - start)
        return a


def _settings(budget: tuple[str, float]) -> dict[str, Any]:
    kind, value = budget
    if kind == "iterations":
        return {"think": iterations(int(value))}
    from net.thinking import seconds

    return {"think": seconds(value)}


def play(fig_name: str, games: range, seed: int, budget: tuple[str, float]) -> Tally:
    fig = FIGURES[fig_name]
    n = fig.players
    tally = Tally()
    settings = _settings(budget)
    for g in games:
        seat = g % n
        times: list[float] = []
        bots: list[Any] = []
        for q in range(n):
            level = fig.tested if q == seat else fig.others
            bot = make_bot(level, seed=f"{seed}:{g}:{q}", **settings)
            bots.append(Timed(bot, times) if q == seat else bot)
        game = core.new_game(fig.variant, n, seed=f"{seed}:{g}")
        play_round(game, bots)
        if fig.variant == "extended":
            won = 1.0 if game.winner == seat else 0.0
        else:
            winners = game.round_winners
            won = 1.0 / len(winners) if seat in winners else 0.0
        tally.games += 1
        tally.wins += won
        if fig.tested == "hard":
            tally.times += times
            strategy = bots[seat].bot.strategy(fig.variant)
            tally.searches += strategy.searches
            tally.fallbacks += strategy.fallbacks
    return tally


def _job(args: tuple[str, int, int, int, tuple[str, float]]) -> Tally:
    name, start, stop, seed, budget = args
    return play(name, range(start, stop), seed, budget)


def run(name: str, games: int, seed: int, budget: tuple[str, float], procs: int) -> Tally:
    chunk = max(1, min(50, games // max(1, procs * 4) or 1))
    jobs = [(name, a, min(games, a + chunk), seed, budget) for a in range(0, games, chunk)]
    total = Tally()
    if procs <= 1:
        for j in jobs:
            total.add(_job(j))
        return total
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        for t in pool.imap_unordered(_job, jobs):
            total.add(t)
    return total


def describe(budget: tuple[str, float]) -> str:
    kind, value = budget
    return f"{int(value)} iterations/decision" if kind == "iterations" else f"{value:g} s/decision"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figures", nargs="*", help=f"figures to run (default: all): {', '.join(FIGURES)}, time")
    ap.add_argument("--games", type=int, default=2000, help="games per figure (default 2000)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--iterations", type=int, default=None, help="hard's budget: iterations per decision")
    group.add_argument("--think", type=float, default=None, help="hard's budget: seconds per decision")
    ap.add_argument("--procs", type=int, default=1, help="processes playing games at once (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    ap.add_argument("--time-games", type=int, default=40, help="games of the 'time' figure (default 40)")
    args = ap.parse_args()
    names = args.figures or [*FIGURES, "time"]
    unknown = [n for n in names if n not in FIGURES and n != "time"]
    if unknown:
        ap.error(f"unknown figure {unknown[0]!r} (known: {', '.join(FIGURES)}, time)")
    if args.think is not None:
        budget: tuple[str, float] = ("seconds", args.think)
    else:
        budget = ("iterations", args.iterations or 300)
    print(f"hard's budget: {describe(budget)}; seed {args.seed}; {args.procs} process(es)")
    print(f"{'figure':<17}{'games':>6}{'share':>8}   {'95% interval':<16}{'target':>7}  verdict")
    for name in names:
        if name == "time":
            continue
        fig = FIGURES[name]
        start = time.perf_counter()
        t = run(name, args.games, args.seed, budget, args.procs)
        share = t.wins / t.games
        lo, hi = wilson(t.wins, t.games)
        verdict = "meets" if lo >= fig.target else "below" if hi < fig.target else "unclear"
        extra = f"  ({t.fallbacks} of {t.searches + t.fallbacks} decisions left to normal)" if t.fallbacks else ""
        print(f"{name:<17}{t.games:>6}{share:>8.1%}   [{lo:.1%}, {hi:.1%}]{'':<2}{fig.target:>7.1%}  {verdict}"
              f"  {time.perf_counter() - start:.0f}s{extra}", flush=True)
    if "time" in names:
        think = args.think if args.think is not None else 0.3
        t = run("classic4-hard", args.time_games, args.seed, ("seconds", think), args.procs)
        if t.times:
            med = statistics.median(t.times)
            worst = max(t.times)
            over = sum(1 for x in t.times if x > 2 * think)
            print(f"time: {len(t.times)} decisions of hard (classic 4p, {think:g} s budget, {args.procs} "
                  f"process(es)): median {med * 1000:.0f} ms, 99th percentile "
                  f"{sorted(t.times)[int(0.99 * (len(t.times) - 1))] * 1000:.0f} ms, max {worst * 1000:.0f} ms; "
                  f"{over} over {2 * think:g} s")


if __name__ == "__main__":
    main()
