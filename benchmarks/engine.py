"""Engine speed: random-legal self-play moves per second, the full engine and the rollout path.

    python benchmarks/engine.py [--runs R] [--scale S] [--variants classic,diez,...]

Two tables, each figure the median of R runs (5 by default), all in one run on one machine:

1. **Full engine and RLCard, classic** (2, 4 and 10 players): ``core.new_game`` and ``apply``
   with a random legal action of a random player who may act, games set up inside the timing;
   RLCard's UNO game loop (``pip install -e .[bench]``) with the same random-legal policy.
2. **Rollout path** (``core.rollout``) beside the full engine, per variant: both play the same
   deals with the same policy, a uniformly random move among every legal move of every player
   who may act (the rollout's ``moves()``, the engine's legal actions in the same act order),
   and only the moves are timed (deals are made before). The rollout draws its reshuffles from
   its own generator, so the two play different games after the first reshuffle, of the same
   kind. ``from_game`` and ``copy`` costs are printed too.

Targets (issue #17): the rollout at least 5x RLCard's UNO moves/s and at least 3x the full
engine, for every variant. Times are CPU time (``time.process_time``), so other processes on
a busy machine disturb the figures less; still, quote medians and re-measure on a quiet one.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import core  # noqa: E402
import core.rollout as rollout  # noqa: E402

clock = time.process_time

GAMES = {"classic": 60, "nomercy": 600, "wildrawz": 600, "diez": 30, "extended": 25}
"""Deals per run and variant (at --scale 1): about a second of the full engine's time each."""
PLAYERS = {"classic": (2, 4, 10), "nomercy": (4,), "wildrawz": (4,), "diez": (4,), "extended": (4,)}


# -- table 1: the full engine and RLCard ------------------------------------------------------------


def ours(players: int, games: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    moves = 0
    start = clock()
    for g in range(games):
        game = core.new_game("classic", players, seed=seed * 100_000 + g)
        while not game.over:
            acting = game.to_act()
            # The same random-legal policy; a draw among actors only when there is a choice.
            p = acting[0] if len(acting) == 1 else rng.choice(acting)
            game.apply(p, rng.choice(game.legal_actions(p)))
            moves += 1
    dt = clock() - start
    return moves / dt, games / dt


def rlcard_loop(players: int, games: int, seed: int) -> tuple[float, float] | None:
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    rng = random.Random(seed)
    moves = 0
    start = clock()
    for g in range(games):
        game = UnoGame(num_players=players)
        game.np_random = np.random.RandomState(seed * 100_000 + g)
        _, pid = game.init_game()
        while not game.is_over():
            game.step(rng.choice(game.get_legal_actions()))
            moves += 1
    dt = clock() - start
    return moves / dt, games / dt


# -- table 2: the rollout path beside the full engine ---------------------------------------------------


def deals(variant: str, players: int, games: int, seed: int) -> list[core.Game]:
    return [core.new_game(variant, players, seed=f"bench:{seed}:{g}") for g in range(games)]


def engine_moves_per_s(games: list[core.Game], seed: int) -> float:
    rng = random.Random(seed)
    moves = 0
    start = clock()
    for g in games:
        while not g.over:
            legal = [(p, a) for p in g.acting_order() for a in g.legal_actions(p)]
            g.apply(*legal[int(rng.random() * len(legal))])
            moves += 1
    return moves / (clock() - start)


def rollout_moves_per_s(rollouts: list[Any], seed: int) -> float:
    rr = random.Random(seed).random
    moves = 0
    start = clock()
    for r in rollouts:
        while not r.over:
            ms = r.moves()
            r.step(int(rr() * len(ms)))
            moves += 1
    return moves / (clock() - start)


def setup_costs(games: list[core.Game]) -> tuple[float, float]:
    """Microseconds per ``from_game`` and per ``copy`` of a fresh deal."""
    start = clock()
    rs = [rollout.from_game(g) for g in games for _ in range(5)]
    t_from = (clock() - start) / len(rs)
    start = clock()
    for r in rs:
        r.copy()
    t_copy = (clock() - start) / len(rs)
    return t_from * 1e6, t_copy * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=300, help="classic games per run in table 1 (default 300)")
    ap.add_argument("--runs", type=int, default=5, help="runs per figure; the median is printed (default 5)")
    ap.add_argument("--scale", type=float, default=1.0, help="scale table 2's deals per run (default 1)")
    ap.add_argument("--variants", default=",".join(GAMES), help="variants for table 2 (comma-separated)")
    args = ap.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    unknown = [v for v in variants if v not in GAMES]
    if unknown or args.runs < 1 or args.scale <= 0 or args.games < 1:
        ap.error(f"unknown variant(s): {', '.join(unknown)}" if unknown else "runs, games and scale must be positive")

    print(f"{'engine':<10}{'players':>8}{'moves/s':>12}{'games/s':>10}   (median of {args.runs} runs, CPU time)")
    theirs: dict[int, float] = {}
    for players in (2, 4, 10):
        rows = {"uno-tui": [ours(players, args.games, r) for r in range(args.runs)]}
        rl = [rlcard_loop(players, args.games, r) for r in range(args.runs)]
        if all(t is not None for t in rl):
            rows["rlcard"] = rl  # type: ignore[assignment]
            theirs[players] = statistics.median(r[0] for r in rl)  # type: ignore[index]
        for name, runs in rows.items():
            mps = statistics.median(r[0] for r in runs)
            gps = statistics.median(r[1] for r in runs)
            print(f"{name:<10}{players:>8}{mps:>12,.0f}{gps:>10,.1f}")
        if "rlcard" in rows:
            ratio = statistics.median(r[0] for r in rows["uno-tui"]) / theirs[players]
            print(f"{'':<10}{'':>8}  ratio {ratio:.2f}x RLCard's moves/s")
    if not theirs:
        print("(RLCard not installed: pip install -e '.[bench]' to compare)")

    print()
    print("rollout path (core.rollout) beside the full engine: moves/s timed over the moves only")
    print(f"{'variant':<10}{'players':>8}{'engine':>12}{'rollout':>12}{'x engine':>10}{'x RLCard':>10}"
          f"{'from_game':>11}{'copy':>8}")
    for variant in variants:
        for players in PLAYERS[variant]:
            games = max(1, round(GAMES[variant] * args.scale))
            eng, rol, costs = [], [], []
            for r in range(args.runs):
                # Interleaved, so that a busy spell hurts both alike.
                eng.append(engine_moves_per_s(deals(variant, players, games, r), r))
                starts = [rollout.from_game(g, seed=i) for i, g in enumerate(deals(variant, players, games, r))]
                rol.append(rollout_moves_per_s(starts, r))
                costs.append(setup_costs(deals(variant, players, min(games, 20), r)))
            e, o = statistics.median(eng), statistics.median(rol)
            yard = theirs.get(players, theirs.get(4))
            vs_rl = f"{o / yard:>9.1f}x" if yard else f"{'-':>10}"
            t_from = statistics.median(c[0] for c in costs)
            t_copy = statistics.median(c[1] for c in costs)
            print(f"{variant:<10}{players:>8}{e:>12,.0f}{o:>12,.0f}{o / e:>9.1f}x{vs_rl}"
                  f"{t_from:>9.1f}us{t_copy:>6.1f}us")
    print("(x RLCard: against RLCard's UNO at the same table size, or 4 players for the other games)")


if __name__ == "__main__":
    main()
