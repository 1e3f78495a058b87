"""The fused playout (``core/bots/hard/fastplay.py``) against the move-by-move loop it replaces.

Both play the same classic deals on with :func:`fast_shedding_policy` from the same generator
state: they must make the same number of moves, reach the same state and leave the generator in
the same state (the same random numbers drawn for the same choices). Deals start from random
points of a game (a hand just drawn, a Wild Draw Four to challenge, a player one card from
out) and cover the house rules the fused loop plays (stacking, forced play, drawing until
playable, no bluffing, other UNO penalties); the rules it leaves to the usual loop (7-0 swaps,
jump-ins) are checked to be refused.
"""

from __future__ import annotations

import random

import pytest

import core
import core.rollout as rollout
from core.bots.hard.fastplay import fits, shedding_playout
from core.bots.hard.policy import fast_shedding_policy

OPTIONS = [
    {},
    {"stacking": "progressive"},
    {"stacking": "same", "force_play": True},
    {"draw_until_playable": True},
    {"force_play": True, "uno_penalty": 4},
    {"no_bluff": True},
]


def move_by_move(r: rollout.Rollout, rng: random.Random, cap: int) -> int:
    steps = 0
    while not r.over and steps < cap:
        ms = r.moves()
        if not ms:
            break
        r.step(fast_shedding_policy(r, ms, rng))
        steps += 1
    return steps


def start(opts: dict, n: int, seed: int) -> rollout.Rollout:
    """A classic rollout some random moves into a round."""
    rng = random.Random(seed)
    r = rollout.from_game(core.new_game("classic", n, seed=seed, options=opts), seed=seed)
    for _ in range(rng.randrange(0, 40)):
        ms = r.moves()
        if r.over or not ms:
            break
        r.step(rng.randrange(len(ms)))
    return r


@pytest.mark.parametrize("opts", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "plain")
def test_fused_playout_plays_the_same_moves(opts: dict) -> None:
    checked = 0
    for seed in range(250):
        n = 2 + seed % 4
        r = start(opts, n, seed)
        if not fits(r):
            assert opts.get("no_bluff")  # honest-only Wild Draw Fours: the usual loop
            continue
        cap = 3000 if seed % 5 else 7  # a cap can stop both mid-round, at the same move
        a, b = r.copy(seed), r.copy(seed)
        ra, rb = random.Random(seed), random.Random(seed)
        sa = move_by_move(a, ra, cap)
        sb = shedding_playout(b, rb, cap)
        assert sb == sa, f"seed {seed}: {sb} moves fused, {sa} move by move"
        assert b.to_state() == a.to_state(), f"seed {seed}: the states differ"
        assert rb.getstate() == ra.getstate(), f"seed {seed}: different random numbers drawn"
        checked += 1
    assert checked >= (0 if opts.get("no_bluff") else 240)


@pytest.mark.parametrize("opts", [{"seven_o": True}, {"jump_in": True}, {"no_bluff": True}])
def test_fused_playout_leaves_other_rules_to_the_usual_loop(opts: dict) -> None:
    r = rollout.from_game(core.new_game("classic", 3, seed=1, options=opts), seed=1)
    assert not fits(r)
    nm = rollout.from_game(core.new_game("nomercy", 3, seed=1), seed=1)
    assert not fits(nm)


def test_the_search_uses_the_fused_playout() -> None:
    import importlib

    fastplay = importlib.import_module("core.bots.hard.fastplay")
    search = importlib.import_module("core.bots.hard.search")

    calls = []
    fits_, play_ = fastplay.FUSED[fast_shedding_policy]
    fastplay.FUSED[fast_shedding_policy] = (fits_, lambda r, rng, cap: calls.append(1) or play_(r, rng, cap))
    try:
        r = rollout.from_game(core.new_game("classic", 2, seed=3), seed=3)
        assert search.playout(r, fast_shedding_policy, random.Random(1))
    finally:
        fastplay.FUSED[fast_shedding_policy] = (fits_, play_)
    assert calls == [1] and r.over
