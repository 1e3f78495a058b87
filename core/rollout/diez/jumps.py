"""Jumping in (mirrors ``core/variants/diez/jumps.py``): a card identical to a pile's top, or a
Stop on a power card of its colour, played out of turn; play goes on from the jumper."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..base import with_target
from .steps import SILENCE

if TYPE_CHECKING:
    from .game import DiezRollout


def jump_ins(r: DiezRollout, cur: int) -> dict[int, list[int]]:
    """Every player's jump-ins (the engine's out-of-turn actions) while the game waits on
    ``cur``, by player; players with none are left out. Per player: piles in order, the
    identical card before the Stop."""
    T = r.T
    hands, n = r.hands, r.n
    out: dict[int, list[int]] = {}
    single = len(r.piles) == 1
    for i, pile in enumerate(r.piles):
        if not r.jump_ok[i]:
            continue
        top = pile[-1]
        skipped = r.skipped[i]
        found: dict[int, int] = {}
        for c in T.same[top]:
            for q in range(n):
                h = hands[q]
                if c in h:
                    if q != cur and q != skipped:
                        prev = found.get(q)
                        if prev is None or h.index(c) < h.index(prev):
                            found[q] = c
                    break
        stop = -1
        if T.power[top] and T.rk[top] != T.st_rank:
            for c in T.stops[T.col[top]]:
                for q in range(n):
                    if c in hands[q]:
                        if q != cur and q != skipped:
                            stop, holder = c, q
                        break
        if not found and stop < 0:
            continue
        for q in range(n):
            c = found.get(q, -1)
            if (c >= 0 or (stop >= 0 and holder == q)) and not r.out[q] and SILENCE not in r.tokens[q]:
                acts = out.setdefault(q, [])
                play = T.play[q]
                if c >= 0:
                    acts.append(play[c] if single else with_target(play[c], i))
                if stop >= 0 and holder == q:
                    acts.append(play[stop] if single else with_target(play[stop], i))
    return out


def jump_in(r: DiezRollout, p: int, card: int, i: int) -> None:
    if r.reversed[i]:
        r.direction = -r.direction
    d = r._decider()  # the interrupted player: their call announced a play they no longer make
    if len(r.hands[d]) != 1:
        r.declared[d] = False
    r.queue = []
    r.pending = None
    r.drawn = None
    r.current = p
    r.phase = "play"
    r._play(p, card, i, jump=True)
