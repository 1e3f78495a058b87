"""The Diez rollout's token rules: who may be given a token, drawing one from the bag, losing
one, a Mirror turning a card back, the White token (mirrors ``core/variants/diez/tokens.py``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...variants.diez.cards import TOKEN_LIMIT
from .steps import BLOCK, MIRROR

if TYPE_CHECKING:
    from .game import DiezRollout


def held(r: DiezRollout, k: int) -> bool:
    for t in r.tokens:
        if k in t:
            return True
    return False


def kinds(r: DiezRollout, q: int) -> list[int]:
    return sorted(set(r.tokens[q]))


def recipients(r: DiezRollout, giver: int) -> list[int]:
    tokens = r.tokens
    others = [q for q in range(r.n) if not r.out[q] and q != giver and len(tokens[q]) < TOKEN_LIMIT
              and BLOCK not in tokens[q]]
    if others:
        return others
    return [giver] if len(tokens[giver]) < TOKEN_LIMIT else []


def draw_token(r: DiezRollout) -> int:
    kind = r._pick_last(r.bag)
    r.bag.remove(kind)
    return kind


def lose(r: DiezRollout, q: int, kind: int) -> None:
    r.tokens[q].remove(kind)
    r.bag.append(kind)


def mirror(r: DiezRollout, victim: int, p: int) -> bool:
    if victim == p:
        return False
    if r.armed[victim]:
        r.armed[victim] = False
        return True
    if MIRROR in r.tokens[victim]:
        lose(r, victim, MIRROR)
        return True
    return False


def white(r: DiezRollout, q: int) -> bool:
    """The topmost White card of the draw pile goes to ``q``; False if there is none."""
    draw, col, code = r.draw, r.T.col, r.T.white_code
    for j in range(len(draw) - 1, -1, -1):
        if col[draw[j]] == code:
            r._give(q, [draw.pop(j)])
            return True
    return False
