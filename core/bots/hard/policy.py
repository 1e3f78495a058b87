"""Default policies: how the simulated players play once a search leaves its tree.

:func:`random_policy` needs only the rollout interface: a random playable
card, drawing or passing only when nothing else is legal (RLCard's
baseline). :func:`shedding_policy` plays as the ``normal`` bots do (keep wilds
for when they are needed, shed high cards, stay in the colour you hold most
of, name that colour, hit a player close to going out with a draw card); it
needs to see the hand of the player to move, which :class:`~.adapter.GameRollout`
offers as ``hand(player)``. With a rollout that does not, it plays
:func:`random_policy`. Simulated opponents that play like real ones make the
search's estimates closer to the table's.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from .adapter import Rollout

Policy = Callable[[Rollout, list[int], random.Random], int]

_AUTO = ("uno", "catch")
_NOT_PLAYS = frozenset({"draw", "pass", "uno", "catch"})
_DRAW_VALUE = {"+2": 2, "+4": 4, "W+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}
_ACTIONS = frozenset({"S", "R", "+2", "+4", "SA", "DA"})
_COLORS = ("red", "yellow", "green", "blue")
CHALLENGE = 0.1
"""How often a simulated player challenges a Wild Draw Four (simulated players never bluff)."""
NOISE = 0.1
"""How often the shedding policy plays a random playable card instead of its favourite."""


def random_policy(r: Rollout, moves: list[int], rng: random.Random) -> int:
    """A random playable card (a random colour for a wild), drawing or passing only when nothing
    else is legal."""
    if len(moves) == 1:
        return moves[0]
    best: list[int] = []
    fallback: int | None = None
    for m in moves:
        kind = r.action(m).kind
        if kind in _AUTO:
            return m
        if kind in _NOT_PLAYS:
            if fallback is None or kind == "draw":
                fallback = m
        else:
            best.append(m)
    if best:
        return rng.choice(best)
    return fallback if fallback is not None else rng.choice(moves)


def _points(rank: str) -> int:
    return int(rank) if rank.isdigit() else 20


def habit_score(color: str | None, rank: str, named: str | None, counts: dict[str, int], favourite: str,
                few: bool, close: bool, danger: bool, holds_in_play: bool) -> float | None:
    """How much the ``normal`` bots like playing a card (``None``: they never would, as a wild
    naming another colour than the one they hold most of, or a Wild Draw Four bluff)."""
    if color is None:
        if named is not None and named != favourite:
            return None
        if rank == "W+4" and holds_in_play:
            return None
        s = 5.0 if few or close else -30.0
        if rank in _DRAW_VALUE:
            s += _DRAW_VALUE[rank] * (3 if danger else 1)
        return s
    s = float(_points(rank) + 3 * counts.get(color, 0))
    if rank in _ACTIONS and danger:
        s += 15
    return s


def habitual_play(hand: list[tuple], color: str | None, top_rank: str | None, *, danger: bool,
                  close: bool) -> tuple | None:
    """The play (face, named colour) the ``normal`` bots make from ``hand`` (faces) on a pile
    with ``color`` in play and ``top_rank`` on top, or ``None`` when they would draw."""
    counts = {c: 0 for c in _COLORS}
    for col, _ in hand:
        if col in counts:
            counts[col] += 1
    favourite = max(_COLORS, key=counts.__getitem__)
    few = len(hand) <= 2
    holds_in_play = counts.get(color, 0) > 0
    best, best_s = None, -1e9
    for col, rank in set(hand):
        if not (col is None or col == color or rank == top_rank):
            continue
        named = favourite if col is None else None
        s = habit_score(col, rank, named, counts, favourite, few, close, danger, holds_in_play)
        if s is not None and s > best_s:
            best, best_s = ((col, rank), named), s
    if best is None or best_s < -10 and len(hand) > 4:
        return None
    return best


def shedding_policy(r: Any, moves: list[int], rng: random.Random) -> int:
    """The ``normal`` bots' habits, for classic and No Mercy rollouts (see the module's notes)."""
    if len(moves) == 1:
        return moves[0]
    hand_of = getattr(r, "hand", None)
    if hand_of is None:
        return random_policy(r, moves, rng)
    action, actor = r.action, r.actor
    p = r.current
    plays: list[tuple[int, Any]] = []
    other: dict[str, int] = {}
    for m in moves:
        a = action(m)
        kind = a.kind
        if kind in _AUTO:
            return m
        if actor(m) != p:
            continue  # jump-ins are left to the player whose turn it is
        if kind == "play":
            plays.append((m, a))
        else:
            other.setdefault(kind, m)
    if "choose" in other:  # No Mercy's Color Roulette: any colour is as good a guess
        return rng.choice([m for m in moves if action(m).kind == "choose"])
    if not plays:
        if "challenge" in other and rng.random() < CHALLENGE:
            return other["challenge"]
        for kind in ("draw", "pass"):
            if kind in other:
                return other[kind]
        return rng.choice(moves)
    if len(plays) > 1 and rng.random() < NOISE:
        return rng.choice(plays)[0]
    hand = hand_of(p)
    counts = {c: 0 for c in _COLORS}
    for c in hand:
        if c.color in counts:
            counts[c.color] += 1
    favourite = max(_COLORS, key=counts.__getitem__)
    few = len(hand) <= 2
    danger = r.next_cards() <= 2
    close = danger or r.fewest_rival_cards() <= 2
    stacking = r.stacking()
    in_play = r.color
    holds_in_play = counts.get(in_play, 0) > 0
    best_m, best_s = plays[0][0], -1e9
    cards = r.card
    for m, a in plays:
        card = cards(a.card)
        rank = card.rank
        if stacking:
            s = 100.0 - _DRAW_VALUE.get(rank, 0)
        else:
            score = habit_score(card.color, rank, a.color, counts, favourite, few, close, danger, holds_in_play)
            if score is None:
                continue
            s = score
        if a.target is not None:
            s -= 4 * r.cards_of(a.target)
        if s > best_s:
            best_m, best_s = m, s
    if best_s == -1e9:  # nothing it is willing to play
        return other.get("draw", other.get("pass", best_m))
    if best_s < -10 and len(hand) > 4 and "draw" in other:
        return other["draw"]  # keep the wild: draw instead, as the normal bot does
    return best_m
