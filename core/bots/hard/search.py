"""Information-set Monte Carlo tree search (single-observer ISMCTS).

Each iteration deals one determinization (a full game consistent with what
the seat has seen), walks the tree from the root choosing moves by UCB among
those legal in this deal (a child's chance to be chosen counts only the
iterations in which it was available), adds one node, plays the rest of the
round with a fast default policy, and credits every move on the path with
the result for the player who made it. Nodes are keyed by what a move looks
like (player, kind, the card's face, colour, target), not by card ids, so
the deals share one tree although the hidden cards differ between them.

UNO calls and catches are made at once by whoever can, in the tree and out
of it (the ``normal`` bots never pass one up): the tree branches only on real
choices.

The search runs on the :class:`~.adapter.Rollout` interface, so it does not
care whether a deal is played on the full engine or on the fast path. It is
pure: its randomness comes from the generator it is given, and it stops when
the ``more`` callable the caller passes says so (an iteration count in tests,
a clock at the table).
"""

from __future__ import annotations

import math
import random
from statistics import NormalDist
from dataclasses import dataclass, field
from typing import Callable, Hashable, Sequence

from ...actions import Action
from .adapter import Rollout
from .fastplay import FUSED
from .policy import Policy, random_policy

default_policy = random_policy

Key = Hashable
Faces = Sequence[tuple]

EXPLORATION = 0.7
"""UCB's exploration constant for rewards in [0, 1]."""
ROLLOUT_CAP = 3000
"""Moves after which a simulated round is scored as a draw among the players (it has stalled)."""
_AUTO = ("uno", "catch")
_NOT_PLAYS = frozenset({"draw", "pass", "uno", "catch"})


@dataclass
class MoveStats:
    """What a search found out about one root move."""

    visits: int = 0
    total: float = 0.0
    """Sum of the seat's rewards."""
    deals: dict[int, float] = field(default_factory=dict)
    """Deal id -> reward, where every move is played on the same deals (:func:`flat`):
    moves are compared on the deals they share."""

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


Stats = dict[Key, MoveStats]


class Node:
    __slots__ = ("children", "visits", "value", "avail")

    def __init__(self) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.value = 0.0
        """Sum of the rewards of the player who made the move leading here."""
        self.avail = 0
        """Iterations in which the move leading here was legal (ISMCTS's parent count)."""


def move_key(action: Action, actor: int, faces: Faces) -> Key:
    """What a move looks like to every seat: card ids differ between deals, faces do not."""
    card = action.card
    return (actor, action.kind, None if card is None else faces[card], action.color, action.target)


def _auto(r: Rollout, moves: Sequence[int]) -> int | None:
    for kind in _AUTO:
        for m in moves:
            if r.action(m).kind == kind:
                return m
    return None


Sampler = Callable[[random.Random], Rollout]
Rewards = Callable[[Rollout], Sequence[float]]


def playout(r: Rollout, policy: Policy, rng: random.Random, horizon: int | None = None) -> bool:
    """Play ``r`` on with ``policy`` until the round ends or ``horizon`` moves have been made
    (the rewards then estimate the position). False if the simulated game broke down (a
    determinization a variant's layout could only approximate); its result is then not used."""
    steps = 0
    cap = ROLLOUT_CAP if horizon is None else horizon
    fused = FUSED.get(policy)
    try:
        if fused is not None and fused[0](r):
            fused[1](r, rng, cap)  # the same moves, in one loop (fastplay)
            return True
        while not r.over and steps < cap:
            ms = r.moves()
            if not ms:
                break
            r.step(policy(r, ms, rng))
            steps += 1
    except _BROKEN:
        return False
    return True


_BROKEN = (KeyError, IndexError, ValueError, TypeError, AssertionError, AttributeError)
"""What an approximate determinization may raise deep in the engine."""


def ismcts(deal: Sampler, me: int, faces: Faces, rewards: Rewards, more: Callable[[int], bool],
           rng: random.Random, *, exploration: float = EXPLORATION, policy: Policy = random_policy,
           horizon: int | None = None, neutral: float = 0.5) -> Stats:
    """Search from the seat ``me``'s information set; returns root move key -> (visits, reward sum).

    ``deal(rng)`` gives a fresh determinization as a :class:`Rollout` in which
    it is ``me``'s move; ``rewards(rollout)`` scores the round per player in
    [0, 1] once a playout stops (it may estimate, when ``horizon`` stopped the
    playout first); a playout that broke down scores ``neutral`` for everyone.
    The search runs while ``more(iterations_done)``.
    """
    root = Node()
    done = 0
    while more(done):
        done += 1
        r = deal(rng)
        path: list[tuple[Node, int]] = []  # (node, actor of the move into it)
        try:
            _descend(r, root, path, me, faces, rng, exploration)
            ok = playout(r, policy, rng, horizon)
        except _BROKEN:
            ok = False
        result = rewards(r) if ok else None
        for node, actor in path:
            node.visits += 1
            node.value += result[actor] if result is not None else neutral
    return {k: MoveStats(c.visits, c.value) for k, c in root.children.items()}


def _descend(r: Rollout, root: Node, path: list[tuple[Node, int]], me: int, faces: Faces,
             rng: random.Random, exploration: float) -> None:
    """Walk the tree from the root by UCB over the moves legal in this deal, adding one node."""
    log, sqrt = math.log, math.sqrt
    node = root
    first = True
    while not r.over:
        moves = range(len(r.moves()))
        if not first:
            auto = _auto(r, moves)
            if auto is not None:
                r.step(auto)
                continue
        keyed: list[tuple[Key, int, int]] = []
        for m in moves:
            a = r.action(m)
            actor = r.actor(m)
            if first and actor != me or a.kind in _AUTO and not first:
                continue
            keyed.append((move_key(a, actor, faces), m, actor))
        first = False
        if not keyed:
            return
        if len(keyed) == 1 and node is not root:
            r.step(keyed[0][1])  # a forced move is not a choice: no node for it
            continue
        children = node.children
        untried = [t for t in keyed if t[0] not in children]
        for t in keyed:
            child = children.get(t[0])
            if child is not None:
                child.avail += 1
        if untried:
            key, m, actor = untried[rng.randrange(len(untried))]
            child = children[key] = Node()
            child.avail = 1
            path.append((child, actor))
            r.step(m)
            return
        best_score = -1.0
        choice = keyed[0]
        for t in keyed:
            child = children[t[0]]
            score = child.value / child.visits + exploration * sqrt(log(child.avail) / child.visits)
            if score > best_score:
                best_score, choice = score, t
        key, m, actor = choice
        node = children[key]
        path.append((node, actor))
        r.step(m)


RACE_START = 16
"""Deals every root move is played on before any is dropped."""
RACE_EVERY = 8
"""Deals between two looks at the differences."""
RACE_Z = 2.0
"""How many standard errors behind the best a move must be to be dropped."""


def flat(deal: Sampler, me: int, faces: Faces, rewards: Rewards, more: Callable[[int], bool],
         rng: random.Random, *, policy: Policy = random_policy, horizon: int | None = None,
         neutral: float = 0.5, keep: Key | None = None, only: frozenset | None = None) -> Stats:
    """Determinized Monte Carlo over the root moves, with common random numbers and a race.

    Each deal is played out once after every root move still in the race, with
    the same seed, so the moves are compared on the same cards and the deal's
    luck cancels out of their differences. Every few deals, a move whose mean
    difference to the best is more than :data:`RACE_Z` standard errors behind
    is dropped; the search stops early once one move is left. The moves still
    in the race have the most visits. ``only``, when given, limits the root moves searched
    (a wild's colours other than the one a heuristic would name, say).
    """
    results: dict[Key, dict[int, float]] = {}
    alive: list[Key] | None = None
    done = 0
    deals = 0
    while more(done):
        seed = rng.getrandbits(64)
        base = deal(random.Random(seed))
        keyed: dict[Key, int] = {}
        for m in range(len(base.moves())):
            if base.actor(m) == me:
                k = move_key(base.action(m), me, faces)
                if only is None or k in only:
                    keyed.setdefault(k, m)
        if alive is None:
            alive = list(keyed)
            results = {k: {} for k in alive}
        if not keyed:
            break
        for key in alive:
            if done and not more(done):
                break  # the budget is spent: this deal's last moves go unplayed (unpaired)
            m = keyed.get(key)
            if m is None:
                results[key][seed] = neutral  # not legal in this deal (cannot happen at a faithful root)
                continue
            # Every move plays on a copy of the same deal, whose own chance (reshuffles) and the
            # policy's draws follow the same seed: common random numbers.
            r = base.copy(seed)
            r.moves()
            play_rng = random.Random(seed + 1)
            try:
                r.step(m)
                ok = playout(r, policy, play_rng, horizon)
            except _BROKEN:
                ok = False
            results[key][seed] = rewards(r)[me] if ok else neutral
            done += 1
        deals += 1
        if len(alive) > 1 and deals >= RACE_START and deals % RACE_EVERY == 0:
            alive = _race(alive, results, keep)
            if len(alive) == 1:
                break
    return {k: MoveStats(len(v), sum(v.values()), v) for k, v in results.items()}


def paired(a: dict[int, float], b: dict[int, float]) -> tuple[int, float, float]:
    """Deals shared by ``a`` and ``b``, the mean of a - b on them, and its standard error."""
    common = [d for d in a if d in b]
    n = len(common)
    if n < 2:
        return n, 0.0, math.inf
    diffs = [a[d] - b[d] for d in common]
    mean = sum(diffs) / n
    var = sum((x - mean) ** 2 for x in diffs) / (n - 1)
    return n, mean, math.sqrt(var / n)


def _race(alive: list[Key], results: dict[Key, dict[int, float]], kept: Key | None = None) -> list[Key]:
    """The moves still in the race: those not clearly behind the best on the same deals, and
    ``kept`` (the default move :func:`best` measures the others against: looking at the race
    every few deals would drop it by chance far more often than one test at the end)."""
    top = max(alive, key=lambda k: sum(results[k].values()))
    keep = []
    for k in alive:
        if k == top or k == kept:
            keep.append(k)
            continue
        _, mean, se = paired(results[top], results[k])
        if mean <= RACE_Z * se:
            keep.append(k)
    return keep


def merge(stats: Sequence[Stats]) -> Stats:
    """Root statistics of several independent searches (root parallelism) added up."""
    out: Stats = {}
    for st in stats:
        for k, m in st.items():
            o = out.setdefault(k, MoveStats())
            o.visits += m.visits
            o.total += m.total
            o.deals.update(m.deals)
    return out


SWITCH_ALPHA = 0.01
"""How often, when no move is better than the ``prior``, the search may still be let to leave it:
the best of k moves must beat the prior by the one-sided z of ``SWITCH_ALPHA / (k - 1)``
(Bonferroni: the best of several noisy means looks better than it is)."""


SWITCH_Z = {"classic": 1.0, "wildrawz": 0.0}
"""Variants whose search leaves the prior when the best beats it by this many standard errors,
whatever the number of moves, instead of :func:`switch_z`. Measured in classic (docs/bots.md):
with the playouts a decision gets, scoring each choice on positions whose moves were valued
with ten times as many playouts, z = 1 gained about 0.3 points of win chance a decision
against 0.2 for the Bonferroni z. In Wild Rawz, where the search outplays ``normal`` by far,
any lead will do: on the same 2,000 games the share went from 40.7% (Bonferroni) to 51.9%
(z = 1) and 54.5% (z = 0). No Mercy, Diez and the extended rules keep :func:`switch_z` (no
bar gained measurably there: No Mercy 42.8% -> 44.8% with z = 0 over 400 games, Diez and the
extended rules nothing with z = 1)."""


def switch_z(moves: int, alpha: float = SWITCH_ALPHA) -> float:
    """Standard errors by which the best of ``moves`` root moves must beat the prior."""
    return NormalDist().inv_cdf(1.0 - alpha / max(1, moves - 1))


def best(stats: Stats, prior: Key | None = None, z: float | None = None) -> Key | None:
    """The move to make: of the most visited (the race's survivors), the best mean; but the
    ``prior`` (the move a heuristic would make) unless the best is clearly better on the
    deals both were played on (:func:`switch_z`, unless ``z`` is given). Search noise then
    costs nothing where the moves are close."""
    if not stats:
        return None
    if z is None:
        z = switch_z(len(stats))
    top_visits = max(m.visits for m in stats.values())
    finalists = [k for k, m in stats.items() if m.visits == top_visits]
    choice = max(finalists, key=lambda k: stats[k].mean)
    if prior is None or prior == choice or prior not in stats:
        return choice
    p = stats[prior]
    if p.deals and stats[choice].deals:
        n, mean, se = paired(stats[choice].deals, p.deals)
        if n >= 2 and mean > z * se:
            return choice
        return prior if prior in finalists or mean <= 0 else choice
    return choice
