"""The hard bot's playouts: shedding-policy playouts a second, move by move and fused.

    python benchmarks/playouts.py [--runs R] [--deals N] [--players 2,4]

Classic deals (random points of random games, as a search meets them) are played out to the end
with :func:`core.bots.hard.policy.fast_shedding_policy`, each from a copy, two ways in the same
run: the move-by-move loop (``moves()``, the policy, ``step``) and the fused loop of
``core/bots/hard/fastplay.py`` that the search uses in plain classic. They make the same moves
(``tests/test_rollout_fused.py``), so only the time differs. Each figure is the median of R runs
of CPU time (``time.process_time``), which a busy machine disturbs less than wall time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import core  # noqa: E402
import core.rollout as rollout  # noqa: E402
from core.bots.hard.fastplay import shedding_playout  # noqa: E402
from core.bots.hard.policy import fast_shedding_policy  # noqa: E402

clock = time.process_time


def deals(players: int, n: int, seed: int) -> list[rollout.Rollout]:
    """``n`` classic rollouts some random moves into a round."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        r = rollout.from_game(core.new_game("classic", players, seed=f"{seed}:{len(out)}"), seed=len(out))
        for _ in range(rng.randrange(0, 30)):
            ms = r.moves()
            if r.over or not ms:
                break
            r.step(rng.randrange(len(ms)))
        if not r.over:
            out.append(r)
    return out


def move_by_move(r: rollout.Rollout, rng: random.Random) -> None:
    while not r.over:
        ms = r.moves()
        if not ms:
            break
        r.step(fast_shedding_policy(r, ms, rng))


def fused(r: rollout.Rollout, rng: random.Random) -> None:
    shedding_playout(r, rng, 3000)  # type: ignore[arg-type]


def rate(play, starts: list[rollout.Rollout]) -> float:
    copies = [r.copy(i) for i, r in enumerate(starts)]
    t = clock()
    for i, r in enumerate(copies):
        play(r, random.Random(i))
    return len(copies) / (clock() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    ap.add_argument("--deals", type=int, default=2000, help="deals played out per run (default 2000)")
    ap.add_argument("--players", default="2,4", help="table sizes (default 2,4)")
    args = ap.parse_args()
    if args.runs < 1 or args.deals < 1:
        ap.error("--runs and --deals must be at least 1")
    try:
        sizes = [int(x) for x in args.players.split(",")]
    except ValueError:
        ap.error(f"--players: whole numbers separated by commas, not {args.players!r}")
    if any(not 2 <= n <= 10 for n in sizes):
        ap.error("--players: classic is for 2 to 10 players")
    print(f"classic playouts with the shedding policy, median of {args.runs} runs of {args.deals} deals (CPU time)")
    print(f"{'players':>7}  {'move by move':>14}  {'fused':>14}  speed-up")
    for n in sizes:
        starts = deals(n, args.deals, 17)
        slow, fast = [], []
        for _ in range(args.runs):  # interleaved, so a change in the machine's load hits both
            slow.append(rate(move_by_move, starts))
            fast.append(rate(fused, starts))
        a, b = statistics.median(slow), statistics.median(fast)
        print(f"{n:>7}  {a:>11,.0f}/s  {b:>11,.0f}/s  {b / a:.2f}x", flush=True)


if __name__ == "__main__":
    main()
