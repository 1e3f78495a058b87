"""Default policies: how the simulated players play once a search leaves its tree.

:func:`random_policy` needs only the rollout interface: a random playable
card, drawing or passing only when nothing else is legal (RLCard's
baseline). :func:`shedding_policy` plays as the ``normal`` bots do (keep wilds
for when they are needed, shed high cards, stay in the colour you hold most
of, name that colour, hit a player close to going out with a draw card,
challenge a Wild Draw Four that is likely a bluff); it
needs to see the hand of the player to move, which :class:`~.adapter.GameRollout`
offers as ``hand(player)``. With a rollout that does not, it plays
:func:`random_policy`. Simulated opponents that play like real ones make the
search's estimates closer to the table's.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from ..normal import NormalBot, bluff_chance
from .adapter import Rollout

Policy = Callable[[Any, Sequence[int], random.Random], int]
"""``policy(rollout, rollout.moves(), rng)``: the position in the list of the move to make."""

_AUTO = ("uno", "catch")
_NOT_PLAYS = frozenset({"draw", "pass", "uno", "catch"})
_DRAW_VALUE = {"+2": 2, "+4": 4, "W+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}
_ACTIONS = frozenset({"S", "R", "+2", "+4", "SA", "DA"})
_COLORS = ("red", "yellow", "green", "blue")
NOISE = 0.1
"""How often the shedding policy plays a random playable card instead of its favourite."""


def random_policy(r: Rollout, ms: Sequence[int], rng: random.Random) -> int:
    """A random playable card (a random colour for a wild), drawing or passing only when nothing
    else is legal. Returns the position in ``ms`` (``r.moves()``) of the move to make."""
    if len(ms) == 1:
        return 0
    best: list[int] = []
    fallback: int | None = None
    for i in range(len(ms)):
        kind = r.action(i).kind
        if kind in _AUTO:
            return i
        if kind in _NOT_PLAYS:
            if fallback is None or kind == "draw":
                fallback = i
        else:
            best.append(i)
    if best:
        return rng.choice(best)
    return fallback if fallback is not None else rng.randrange(len(ms))


# -- the same habits on the fast path's move ints (``core.rollout``) ---------------------------
_KIND_SHIFT = 22
_CODES: dict[type, dict[str, int]] = {}


def _codes(cls: type) -> dict[str, int]:
    """Move kind name -> code for a rollout class (its ``KINDS``), -1 for kinds it lacks."""
    codes = _CODES.get(cls)
    if codes is None:
        codes = _CODES[cls] = {k: i for i, k in enumerate(cls.KINDS)}  # type: ignore[attr-defined]
    return codes


def fast_random_policy(r: Any, ms: Sequence[int], rng: random.Random) -> int:
    """:func:`random_policy` reading the fast path's move ints (no ``Action`` built)."""
    n = len(ms)
    if n == 1:
        return 0
    codes = _codes(type(r))
    auto = {codes[k] for k in _AUTO if k in codes}
    quiet = {codes[k] for k in _NOT_PLAYS if k in codes}
    draw = codes.get("draw", -1)
    plays: list[int] = []
    fallback = -1
    for i, m in enumerate(ms):
        k = m >> _KIND_SHIFT
        if k in auto:
            return i
        if k in quiet:
            if fallback < 0 or k == draw:
                fallback = i
        else:
            plays.append(i)
    if plays:
        return plays[int(rng.random() * len(plays))]
    return fallback if fallback >= 0 else int(rng.random() * n)


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


def _face_order(face: tuple) -> tuple:
    return (face[0] or "", face[1])


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
    # In a fixed order: a set of str tuples iterates by hash, which differs between processes, and
    # ties would then fall differently from run to run (the same seed must decide alike).
    for col, rank in sorted(set(hand), key=_face_order):
        if not (col is None or col == color or rank == top_rank):
            continue
        named = favourite if col is None else None
        s = habit_score(col, rank, named, counts, favourite, few, close, danger, holds_in_play)
        if s is not None and s > best_s:
            best, best_s = ((col, rank), named), s
    if best is None or best_s < -10 and len(hand) > 4:
        return None
    return best


def _doubts(r: Any, p: int) -> bool:
    """Whether player ``p`` challenges the Wild Draw Four waiting for it, as the ``normal`` bots
    do: when what it can see (its hand, the discards, the player's hand size) makes a bluff
    likely. Simulated players never bluff, but a challenge from a big hand is what a Wild Draw
    Four meets at the table (and what a bluff at the root would meet)."""
    g = r.game
    pending = g.pending or {}
    color, by = pending.get("color_before"), pending.get("by")
    if color is None or by is None:
        return False
    hand = r.hand(p)
    seen = sum(1 for c in hand if c.color == color) + sum(1 for c in g.discard if c.color == color)
    in_deck = sum(1 for c in g.cards if c.color == color)
    unseen = g.deck_size - len(hand) - len(g.discard)
    return bluff_chance(in_deck - seen, unseen, r.cards_of(by) + 1) > NormalBot.challenge_above


def shedding_policy(r: Any, ms: Sequence[int], rng: random.Random) -> int:
    """The ``normal`` bots' habits, for classic and No Mercy rollouts on the engine (see the
    module's notes; :func:`fast_shedding_policy` is the same on the fast path)."""
    if len(ms) == 1:
        return 0
    hand_of = getattr(r, "hand", None)
    if hand_of is None:
        return random_policy(r, ms, rng)
    action, actor = r.action, r.actor
    p = r.current
    plays: list[tuple[int, Any]] = []
    other: dict[str, int] = {}
    for m in range(len(ms)):
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
        return rng.choice([m for m in range(len(ms)) if action(m).kind == "choose"])
    if "challenge" in other and _doubts(r, p):
        return other["challenge"]
    if not plays:
        for kind in ("draw", "pass"):
            if kind in other:
                return other[kind]
        return rng.randrange(len(ms))
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


class _Cards:
    """Per-card facts :func:`fast_shedding_policy` reads, built once per rollout table."""

    __slots__ = ("col", "black", "rank", "points", "dv", "action", "in_deck")

    def __init__(self, T: Any) -> None:
        self.col = T.col
        self.black = T.black
        self.in_deck = [T.col.count(k) for k in range(T.black)]
        """Cards of each colour in the deck."""
        self.rank = [T.ranks[k] for k in T.rk]
        self.points = [_points(rk) for rk in self.rank]
        self.dv = [_DRAW_VALUE.get(rk, 0) for rk in self.rank]
        self.action = [rk in _ACTIONS for rk in self.rank]


_TABLE_CARDS: dict[int, tuple[Any, _Cards]] = {}


def _cards(T: Any) -> _Cards:
    got = _TABLE_CARDS.get(id(T))
    if got is None or got[0] is not T:
        got = _TABLE_CARDS[id(T)] = (T, _Cards(T))
    return got[1]


_STACK = 2
"""The classic rollout's phase code for "stack" (No Mercy shares the codes)."""


def _fast_doubts(r: Any, p: int) -> bool:
    """:func:`_doubts` on the fast path's classic rollout."""
    pend = r.pending
    if pend is None or pend[0] != "draw" or pend[7] is None:
        return False
    color = pend[7]
    C = _cards(r.T)
    col = C.col
    hand, discard = r.hands[p], r.discard
    seen = sum(1 for c in hand if col[c] == color) + sum(1 for c in discard if col[c] == color)
    unseen = len(col) - len(hand) - len(discard)
    return bluff_chance(C.in_deck[color] - seen, unseen, len(r.hands[pend[4]]) + 1) > NormalBot.challenge_above


def fast_shedding_policy(r: Any, ms: Sequence[int], rng: random.Random) -> int:
    """:func:`shedding_policy` on the fast path's classic and No Mercy rollouts (move ints,
    card ids, colour codes: no ``Action`` or ``Card`` built)."""
    n = len(ms)
    if n == 1:
        return 0
    codes = _codes(type(r))
    k_play, k_uno, k_catch = codes["play"], codes["uno"], codes["catch"]
    p = r.current
    plays: list[int] = []
    other: dict[int, int] = {}
    for i, m in enumerate(ms):
        k = m >> _KIND_SHIFT
        if k == k_uno or k == k_catch:
            return i
        if m & 15 != p:
            continue  # jump-ins are left to the player whose turn it is
        if k == k_play:
            plays.append(i)
        elif k not in other:
            other[k] = i
    k_choose = codes.get("choose", -1)
    if k_choose in other:  # No Mercy's Color Roulette: any colour is as good a guess
        return rng.choice([i for i, m in enumerate(ms) if m >> _KIND_SHIFT == k_choose])
    k_draw, k_pass = codes["draw"], codes["pass"]
    k_ch = codes.get("challenge", -1)
    if k_ch in other and _fast_doubts(r, p):
        return other[k_ch]
    if not plays:
        for k in (k_draw, k_pass):
            if k in other:
                return other[k]
        return int(rng.random() * n)
    if len(plays) > 1 and rng.random() < NOISE:
        return plays[int(rng.random() * len(plays))]
    C = _cards(r.T)
    col, black = C.col, C.black
    hand = r.hands[p]
    counts = [0] * (black + 1)
    for c in hand:
        counts[col[c]] += 1
    favourite = max(range(4), key=counts.__getitem__)
    few = len(hand) <= 2
    hands, out = r.hands, r.out
    danger = len(hands[r._next(p)]) <= 2
    close = danger or min((len(h) for q, h in enumerate(hands) if q != p and not out[q]), default=99) <= 2
    stacking = r.phase == _STACK
    in_play = r.color
    holds_in_play = in_play < black and counts[in_play] > 0
    best_i, best_s = plays[0], -1e9
    points, dv, action = C.points, C.dv, C.action
    for i in plays:
        m = ms[i]
        c = (m >> 14) & 255
        if stacking:
            s = 100.0 - dv[c]
        elif col[c] == black:
            arg = (m >> 8) & 63
            if arg and arg - 1 != favourite:
                continue
            if C.rank[c] == "W+4" and holds_in_play:
                continue
            s = 5.0 if few or close else -30.0
            if dv[c]:
                s += dv[c] * (3 if danger else 1)
        else:
            s = points[c] + 3.0 * counts[col[c]]
            if danger and action[c]:
                s += 15
        target = (m >> 4) & 15
        if target != 15:
            s -= 4 * len(hands[target])
        if s > best_s:
            best_i, best_s = i, s
    if best_s == -1e9:  # nothing it is willing to play
        return other.get(k_draw, other.get(k_pass, best_i))
    if best_s < -10 and len(hand) > 4 and k_draw in other:
        return other[k_draw]  # keep the wild: draw instead, as the normal bot does
    return best_i
