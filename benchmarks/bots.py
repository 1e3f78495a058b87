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

Yardsticks, not targets (run only when named): ``classic4-seer`` and ``classic2-seer`` put
in ``hard``'s seat a *seer*, the same search shown every other hand (not the draw pile): what a
perfect reading of the hidden hands would be worth. It lives here, not among the levels, as no
table may seat it.

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
from core.bots.belief import Belief  # noqa: E402
from core.bots.hard import iterations  # noqa: E402
from core.bots.hard.bot import HardBot  # noqa: E402
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
YARDSTICKS = {f.name: f for f in [
    Figure("classic4-seer", "classic", 4, "seer", "normal", 0.40, "classic 4p: hard seeing every hand vs 3 normal"),
    Figure("classic2-seer", "classic", 2, "seer", "normal", 0.65, "classic 2p: hard seeing every hand vs normal"),
]}
ALL = {**FIGURES, **YARDSTICKS}


class Seer(HardBot):
    """``hard`` shown every other hand of its game (the draw pile stays unknown): each opponent's
    hand is what its belief knows, so every determinization deals the true hands. A cheating
    double for a yardstick, never seated at a table."""

    game: core.Game | None = None

    def _fits(self, obs: dict[str, Any], belief: Belief, seed: int) -> bool:
        assert self.game is not None
        for q, hand in enumerate(self.game.hands):
            if q != obs["me"]:
                belief.hands[q].known = {c.id for c in hand}
                belief.hands[q].cohorts.clear()
                belief.hands[q].lean.clear()
        belief.habits.clear()
        return super()._fits(obs, belief, seed)

    def strategy(self, variant: str) -> "Seer":
        return self


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
    playouts: int = 0

    def add(self, other: "Tally") -> None:
        self.games += other.games
        self.wins += other.wins
        self.times += other.times
        self.searches += other.searches
        self.fallbacks += other.fallbacks
        self.playouts += other.playouts


class Timed:
    """Wraps a hard bot; records the wall time of each decision in which it searched (the
    others, a forced move or an UNO call, take no time worth the name)."""

    def __init__(self, bot: Any, variant: str, times: list[float]) -> None:
        self.bot, self.variant, self.times = bot, variant, times

    def observe(self, seat: int, events: Any) -> None:
        self.bot.observe(seat, events)

    def choose(self, obs: dict[str, Any]) -> Any:
        strategy = self.bot.strategy(self.variant)
        before = getattr(strategy, "searches", 0)
        start = time.perf_counter()
        a = self.bot.choose(obs)
        if getattr(strategy, "searches", 0) > before:
            self.times.append(time.perf_counter() - start)
        return a


_SEARCHERS: dict[int, Any] = {}


def _settings(budget: tuple[str, float], search_procs: int = 1) -> dict[str, Any]:
    kind, value = budget
    if kind == "iterations":
        return {"think": iterations(int(value))}
    from net.thinking import ProcessSearcher, seconds

    out: dict[str, Any] = {"think": seconds(value)}
    if search_procs > 1:
        searcher = _SEARCHERS.get(search_procs)
        if searcher is None:
            searcher = _SEARCHERS[search_procs] = ProcessSearcher(search_procs)
            searcher.warm_up()  # a table starts its pool at the deal; don't time the start-up
        out["searcher"] = searcher
    return out


def play(fig_name: str, games: range, seed: int, budget: tuple[str, float], search_procs: int = 1) -> Tally:
    fig = ALL[fig_name]
    n = fig.players
    tally = Tally()
    settings = _settings(budget, search_procs)
    for g in games:
        seat = g % n
        times: list[float] = []
        bots: list[Any] = []
        for q in range(n):
            level = fig.tested if q == seat else fig.others
            if level == "seer":
                bot: Any = Seer(f"{seed}:{g}:{q}", **settings)
            else:
                bot = make_bot(level, seed=f"{seed}:{g}:{q}", **settings)
            bots.append(Timed(bot, fig.variant, times) if q == seat and level in ("hard", "seer") else bot)
        game = core.new_game(fig.variant, n, seed=f"{seed}:{g}")
        if fig.tested == "seer":
            bots[seat].bot.game = game
        play_round(game, bots)
        if fig.variant == "extended":
            won = 1.0 if game.winner == seat else 0.0
        else:
            winners = game.round_winners
            won = 1.0 / len(winners) if seat in winners else 0.0
        tally.games += 1
        tally.wins += won
        if fig.tested in ("hard", "seer"):
            tally.times += times
            strategy = bots[seat].bot.strategy(fig.variant)
            tally.searches += strategy.searches
            tally.fallbacks += strategy.fallbacks
            tally.playouts += strategy.playouts
    return tally


def _job(args: tuple[str, int, int, int, tuple[str, float], int]) -> Tally:
    name, start, stop, seed, budget, search_procs = args
    return play(name, range(start, stop), seed, budget, search_procs)


def run(name: str, games: int, seed: int, budget: tuple[str, float], procs: int, search_procs: int = 1,
        progress: bool = False) -> Tally:
    chunk = max(1, min(10, games // max(1, procs * 4) or 1))
    jobs = [(name, a, min(games, a + chunk), seed, budget, search_procs) for a in range(0, games, chunk)]
    total = Tally()

    def add(t: Tally) -> None:
        total.add(t)
        if progress:  # a long run can be read (or stopped) at any point
            lo, hi = wilson(total.wins, total.games)
            print(f"  {name}: {total.games} games, {total.wins / total.games:.1%} [{lo:.1%}, {hi:.1%}]",
                  file=sys.stderr, flush=True)

    if procs <= 1:
        for j in jobs:
            add(_job(j))
        return total
    with multiprocessing.get_context("spawn").Pool(procs) as pool:
        for t in pool.imap_unordered(_job, jobs):
            add(t)
    return total


def describe(budget: tuple[str, float]) -> str:
    kind, value = budget
    return f"{int(value)} iterations/decision" if kind == "iterations" else f"{value:g} s/decision"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figures", nargs="*",
                    help=f"figures to run (default: all but the yardsticks), each optionally NAME:GAMES: "
                         f"{', '.join(ALL)}, time")
    ap.add_argument("--games", type=int, default=2000, help="games per figure (default 2000)")
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--iterations", type=int, default=None, help="hard's budget: iterations per decision")
    group.add_argument("--think", type=float, default=None, help="hard's budget: seconds per decision")
    ap.add_argument("--procs", type=int, default=1, help="processes playing games at once (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the games (default 0)")
    ap.add_argument("--time-games", type=int, default=40, help="games of the 'time' figure (default 40)")
    ap.add_argument("--progress", action="store_true", help="print the running share after every few games")
    ap.add_argument("--search-procs", default="1,2", metavar="P,Q",
                    help="the 'time' figure searches in each of these numbers of processes (default 1,2)")
    args = ap.parse_args()
    wanted: list[tuple[str, int]] = []
    for item in args.figures or [*FIGURES, "time"]:
        name, _, count = item.partition(":")
        if name not in ALL and name != "time":
            ap.error(f"unknown figure {name!r} (known: {', '.join(ALL)}, time)")
        if count and not count.isdigit():
            ap.error(f"{item}: the number of games must be a whole number")
        wanted.append((name, int(count) if count else args.games))
    if args.think is not None:
        budget: tuple[str, float] = ("seconds", args.think)
    else:
        budget = ("iterations", args.iterations or 300)
    print(f"hard's budget: {describe(budget)}; seed {args.seed}; {args.procs} process(es)")
    print(f"{'figure':<17}{'games':>6}{'share':>8}   {'95% interval':<16}{'target':>7}  verdict")
    for name, games in wanted:
        if name == "time":
            continue
        fig = ALL[name]
        start = time.perf_counter()
        t = run(name, games, args.seed, budget, args.procs, progress=args.progress)
        share = t.wins / t.games
        lo, hi = wilson(t.wins, t.games)
        verdict = "meets" if lo >= fig.target else "below" if hi < fig.target else "unclear"
        extra = ""
        if fig.tested in ("hard", "seer"):
            per = t.searches / t.games
            extra = (f"  {per:.1f} searches/game, {t.playouts / max(1, t.searches):.0f} playouts each; "
                     f"2000 games at 0.3 s: {2000 * per * 0.3 / 3600:.1f} h of searching")
            if t.fallbacks:
                extra += f"; {t.fallbacks} of {t.searches + t.fallbacks} decisions left to normal"
        print(f"{name:<17}{t.games:>6}{share:>8.1%}   [{lo:.1%}, {hi:.1%}]{'':<2}{fig.target:>7.1%}  {verdict}"
              f"  {time.perf_counter() - start:.0f}s{extra}", flush=True)
    for name, games in wanted:
        if name != "time":
            continue
        think = args.think if args.think is not None else 0.3
        for sp in [int(x) for x in args.search_procs.split(",")]:
            t = run("classic4-hard", args.time_games, args.seed, ("seconds", think), 1, sp)
            if not t.times:
                continue
            ts = sorted(t.times)
            over = sum(1 for x in ts if x > 2 * think)
            print(f"time: classic 4p, {think:g} s budget, search in {sp} process(es): {len(ts)} decisions, median "
                  f"{statistics.median(ts) * 1000:.0f} ms, 99th percentile {ts[int(0.99 * (len(ts) - 1))] * 1000:.0f} ms,"
                  f" max {ts[-1] * 1000:.0f} ms, {over} over {2 * think:g} s; "
                  f"{t.playouts / max(1, t.searches):.0f} playouts a decision", flush=True)
    for searcher in _SEARCHERS.values():
        searcher.close()


if __name__ == "__main__":
    main()
