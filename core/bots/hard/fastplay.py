"""A whole playout of :func:`~.policy.fast_shedding_policy` in one loop, for plain classic.

The search spends most of its time in playouts, and most of a playout's moves are a turn in
phase "play" or a decision on a card just drawn. There, :func:`shedding_playout` works out the
policy's choice from the hand itself and carries it out through the rollout's own methods,
without the list of moves, the policy's decoding of each move int, or :meth:`step`'s dispatch.
Every other position (a challenge, a catch, a stack) takes the usual path, one
``moves()``/policy/``step`` at a time. The choices, the random numbers drawn for them and the
states reached are the same as the usual loop's, move for move (``tests/test_rollout_fused.py``
plays thousands of deals both ways), only about twice as fast.
"""

from __future__ import annotations

import random
from typing import Any

from ...rollout.classic import DRAWN, PLAY, ClassicRollout
from . import policy as _policy
from .policy import _cards, fast_shedding_policy


def fits(r: Any) -> bool:
    """Whether :func:`shedding_playout` can play ``r``: plain classic (no jump-ins, no 7-0 swaps,
    not the honest-only Wild Draw Four), where a turn's moves are one list of matching cards."""
    return type(r) is ClassicRollout and r.plain and not r.T.swaps


def shedding_playout(r: ClassicRollout, rng: random.Random, cap: int) -> int:
    """Play ``r`` on with the shedding policy until the round ends, no move is legal or ``cap``
    moves have been made; returns the moves made. ``r`` must :func:`fits`."""
    T = r.T
    C = _cards(T)
    col, black, points, dv, action, rank = C.col, C.black, C.points, C.dv, C.action, C.rank
    play_moves = T.play
    forced = T.forced_play
    noise = _policy.NOISE  # read now, as fast_shedding_policy reads it at each call
    hands, out = r.hands, r.out
    steps = 0
    while not r.over and steps < cap:
        ph = r.phase
        if r.exposed is not None or r._ms is not None or (ph != PLAY and ph != DRAWN) or r.hands is not hands:
            ms = r.moves()
            if not ms:
                break
            r.step(fast_shedding_policy(r, ms, rng))
            steps += 1
            hands, out = r.hands, r.out
            continue
        p = r.current
        hand = hands[p]
        m_row = r.m
        pm = play_moves[p]
        plays: list[int] = []
        if ph == PLAY:
            for c in hand:
                if m_row[c]:
                    plays += pm[c]
            quiet_draw = bool(r.draw or len(r.discard) > 1 or r.set_aside)  # else a pass
        else:
            c = r.drawn
            if c in hand and m_row[c]:
                plays += pm[c]
            quiet_draw = False  # after a draw: pass (unless forced to play)
        declared = r.declared
        if (plays or ph == DRAWN) and len(hand) == 2 and not declared[p]:
            declared[p] = True  # the UNO call: the policy makes it first
            r.version += 1
            steps += 1
            continue
        if not plays:
            _quiet(r, p, ph == PLAY and quiet_draw)
            steps += 1
            continue
        if len(plays) > 1 and rng.random() < noise:
            _play(r, p, plays[int(rng.random() * len(plays))])
            steps += 1
            continue
        # fast_shedding_policy's scores (see there), on the same candidates in the same order.
        counts = [0] * (black + 1)
        for c in hand:
            counts[col[c]] += 1
        favourite = max(range(4), key=counts.__getitem__)
        few = len(hand) <= 2
        danger = len(hands[r._next(p)]) <= 2
        close = danger or min((len(h) for q, h in enumerate(hands) if q != p and not out[q]), default=99) <= 2
        in_play = r.color
        holds_in_play = in_play < black and counts[in_play] > 0
        best_m, best_s = plays[0], -1e9
        for m in plays:
            c = (m >> 14) & 255
            if col[c] == black:
                arg = (m >> 8) & 63
                if arg and arg - 1 != favourite:
                    continue
                if rank[c] == "W+4" and holds_in_play:
                    continue
                s = 5.0 if few or close else -30.0
                if dv[c]:
                    s += dv[c] * (3 if danger else 1)
            else:
                s = points[c] + 3.0 * counts[col[c]]
                if danger and action[c]:
                    s += 15
            if s > best_s:
                best_m, best_s = m, s
        has_draw = ph == PLAY and quiet_draw
        if best_s == -1e9:  # nothing it is willing to play: draw, or pass
            if ph == PLAY or not forced:
                _quiet(r, p, has_draw)
            else:
                _play(r, p, best_m)
        elif best_s < -10 and len(hand) > 4 and has_draw:
            _quiet(r, p, True)  # keep the wild: draw instead
        else:
            _play(r, p, best_m)
        steps += 1
    return steps


def _play(r: ClassicRollout, p: int, m: int) -> None:
    """:meth:`ClassicRollout.step` for a play by the player to move, no one exposed."""
    r._ms = None
    r.version += 1
    r._play(p, (m >> 14) & 255, m)


def _quiet(r: ClassicRollout, p: int, draw: bool) -> None:
    """:meth:`ClassicRollout.step` for the turn's draw (``draw``) or a pass."""
    r._ms = None
    r.version += 1
    if draw:
        r._turn_draw(p) if r.phase == PLAY else r._take_penalty(p)
    else:
        r._end_turn(p)


FUSED = {fast_shedding_policy: (fits, shedding_playout)}
"""Policy -> (whether a rollout suits it, the whole playout in one loop): what
:func:`~.search.playout` runs instead of the move-by-move loop where it can."""
