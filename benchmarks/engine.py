"""Engine speed: random-legal self-play moves and games per second.

    python benchmarks/engine.py [--games N] [--runs R]

Prints the median of R runs for 2, 4 and 10 players. When RLCard is
installed (``pip install -e .[bench]``) its UNO game loop is measured in the
same run on the same machine, with the same random-legal policy, so the two
figures can be compared directly. Target: at least 2x RLCard's moves/s.
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


def ours(players: int, games: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for g in range(games):
        game = core.new_game("classic", players, seed=seed * 100_000 + g)
        while not game.over:
            acting = game.to_act()
            # The same random-legal policy; a draw among actors only when there is a choice.
            p = acting[0] if len(acting) == 1 else rng.choice(acting)
            game.apply(p, rng.choice(game.legal_actions(p)))
            moves += 1
    dt = time.perf_counter() - start
    return moves / dt, games / dt


def rlcard_loop(players: int, games: int, seed: int) -> tuple[float, float] | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(seed)
    moves = 0
    start = time.perf_counter()
    for g in range(games):
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed * 100_000 + g)
        _, pid = game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            moves += 1
    dt = time.perf_counter() - start
    return moves / dt, games / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="games per run (default 300)")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    args = ap.parse_args()
    print(f"{'engine':<10}{'players':>8}{'moves/s':>12}{'games/s':>10}   (median of {args.runs} runs)")
    for players in (2, 4, 10):
        rows = {"uno-tui": [ours(players, args.games, r) for r in range(args.runs)]}
        theirs = [rlcard_loop(players, args.games, r) for r in range(args.runs)]
        if all(t is not None for t in theirs):
            rows["rlcard"] = theirs  # type: ignore[assignment]
        for name, runs in rows.items():
            mps = statistics.median(r[0] for r in runs)
            gps = statistics.median(r[1] for r in runs)
            print(f"{name:<10}{players:>8}{mps:>12,.0f}{gps:>10,.1f}")
        if "rlcard" in rows:
            ratio = statistics.median(r[0] for r in rows["uno-tui"]) / statistics.median(r[0] for r in rows["rlcard"])
            print(f"{'':<10}{'':>8}  ratio {ratio:.2f}x RLCard's moves/s")
    if "rlcard" not in rows:
        print("(RLCard not installed: pip install -e '.[bench]' to compare)")


if __name__ == "__main__":
    main()
