"""``hard``: information-set search over what its seat has seen.

The bot is given two things and nothing else: the observations of its seat
(:meth:`HardBot.choose`) and the events its seat was shown
(:meth:`HardBot.observe`, which passes each event through
:meth:`core.Event.view` for the seat itself, so even a careless caller cannot
show it a hidden card). It never holds a :class:`core.Game` of the table.

On its move it builds a :class:`SearchRoot` (the observation, its
:class:`~.belief.Belief`, a seed) and hands it to a *searcher*: by default
:func:`search` in this process; the table may pass one that runs the same
function in several processes and adds up their root statistics. How long it
thinks is the caller's :data:`Budget` (the core has no clock): an iteration
count by default, so a seeded bot decides the same way on any machine.
In the middle of a turn's steps (a colour to name after a black card, a
card to give, a target), which the observation does not lay out, it deals
the position the turn started from, when it could be laid out and only this
seat has moved since, and replays its own moves on each deal
(:class:`Anchor`). Out of turn (a jump-in chance) and wherever neither
reproduces the observation, it plays the variant's ``normal`` move.
"""

from __future__ import annotations

import copy
import math
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ...actions import Action
from ...errors import IllegalAction
from ...events import Event
from ...game import Game
from ...source import SeededSource, seed_bytes
from ..base import ANY, LEVELS, Bot, level
from ..baseline import my_move
from .adapter import Rollout, fast_path, rollout_for
from ..belief import Belief, Memory
from .determinize import REDEALS, Dealer, check, determinize, faces, layout_for
from .policy import Policy, fast_random_policy, fast_shedding_policy, random_policy, shedding_policy
from .search import SWITCH_Z, Key, Stats, best, flat, ismcts, move_key
from ..normal import NormalBot

Budget = Callable[[], Callable[[int], bool]]
"""Called as a decision starts; returns ``more(iterations_done) -> bool``, asked before each iteration."""

DEFAULT_ITERATIONS = 300
"""The budget when the caller gives none: deterministic, about 0.3 s in classic on a 2020s core."""


def iterations(n: int) -> Budget:
    """A budget of ``n`` search iterations per decision (deterministic)."""
    if n < 1:
        raise ValueError("a search needs at least one iteration")
    return lambda: (lambda done: done < n)


@dataclass
class SearchRoot:
    """Everything one search needs, and nothing the seat may not know (picklable, for worker processes)."""

    obs: dict[str, Any]
    belief: Belief
    seed: int
    algorithm: str = "flat"
    """``"flat"`` (determinized Monte Carlo with common random numbers) or ``"ismcts"``."""
    keep: Any = None
    """The key of the move the search measures the others against (``normal``'s): never dropped."""
    only: frozenset | None = None
    """The root moves worth searching (``None``: all): a wild names only the colour ``normal`` would."""
    start: dict[str, Any] | None = None
    """Where ``obs`` cannot be laid out (a turn's steps under way): the observation the turn's
    deals are made from, an earlier one of this seat's that could be; ``belief`` is as it was then."""
    replay: tuple[Action, ...] = ()
    """This seat's moves since ``start``, made again on each deal to reach ``obs``."""
    start_seed: int = 0
    """A deal of ``start`` that was checked to reach ``obs`` (used when others keep failing)."""


@dataclass
class Anchor:
    """The last position this seat could lay out, and its own moves since (nobody else's)."""

    obs: dict[str, Any]
    belief: Belief
    """A copy, as it was at ``obs``."""
    seed: int
    """A deal of ``obs`` checked to be faithful; once this seat has moved, one whose replay reaches
    the step it is at (:meth:`HardBot._replay_root`)."""
    moves: list[Action] = field(default_factory=list)
    version: int = -1
    """The game's version at which this seat decides next if nobody else moved."""


def _variant_rules(obs: dict[str, Any]) -> dict[str, bool]:
    variant = obs["variant"]
    plain = variant == "classic" and obs["options"].get("stacking", "none") == "none" \
        and not obs["options"].get("seven_o")
    return {"voids_on_draw": variant in ("classic", "nomercy"), "follow_suit": variant == "wildrawz",
            "habits": plain, "honest_draw_four": variant == "classic"}


STEEPNESS = 0.45
"""How fast an unfinished round's estimated chances fall with each card held."""
HORIZONS = {"diez": 60, "extended": 60}
"""Moves after which a playout stops and the position is estimated (long rounds; the others
play out to the end)."""


def rewards_for(variant: str, players: int) -> Callable[[Rollout], list[float]]:
    """How a simulated round is scored per player, in [0, 1], once its playout stops.

    A finished round scores its result: the winner (a tie shares), or in
    ``extended``, where everyone who goes out scores, each player's points. A
    round stopped early is estimated from the hands (a rollout that shows them,
    see :class:`~.adapter.GameRollout`): fewer cards, better chances.
    """
    top = max(1, players - 1)
    exp = math.exp

    def sizes(r: Any) -> list[int | None] | None:
        f = getattr(r, "hand_sizes", None)
        if f is not None:
            return f()
        out = getattr(r, "out", None)  # the fast path: hands of card ids, who is out
        if out is None:
            return None
        return [None if out[q] else len(h) for q, h in enumerate(r.hands)]

    if variant == "extended":
        def extended(r: Rollout) -> list[float]:
            pts = r.points()
            out = [max(0.0, min(1.0, p / top)) for p in pts]
            if not r.over:
                h = sizes(r)
                if h is not None:
                    left = [q for q, c in enumerate(h) if c is not None]
                    for q in left:
                        ahead = sum(1 / (1 + exp(STEEPNESS * (h[q] - h[j]))) for j in left if j != q)
                        out[q] = min(1.0, (pts[q] + ahead) / top)
            return out
        return extended

    def one_winner(r: Rollout) -> list[float]:
        out = [0.0] * players
        if not r.over:
            h = sizes(r)
            if h is None:
                return [1.0 / players] * players
            weights = [0.0 if c is None else exp(-STEEPNESS * c) for c in h]
            total = sum(weights) or 1.0
            return [w / total for w in weights]
        w = r.winner
        if w is not None:
            out[w] = 1.0
            return out
        pts = r.points()
        hi = max(pts)
        tied = [q for q, p in enumerate(pts) if p == hi]
        for q in tied:
            out[q] = 1.0 / len(tied)
        return out

    return one_winner


def policy_for(variant: str) -> Policy:
    """The playout policy: the ``normal`` bots' habits in classic and No Mercy, a random playable
    card elsewhere; on the fast path when :func:`~.adapter.rollout_for` uses it for ``variant``."""
    fast = fast_path(variant)
    if variant in ("classic", "nomercy"):
        return fast_shedding_policy if fast else shedding_policy
    own = layout_for(variant).playout_policy
    if fast and own is not None:
        return own
    return fast_random_policy if fast else random_policy


def search(root: SearchRoot, more: Callable[[int], bool]) -> Stats:
    """One search from ``root`` (the unit a worker process runs): root move key -> (visits, reward sum)."""
    obs = root.obs
    rng = random.Random(root.seed)
    fc = faces(obs)
    variant = obs["variant"]

    dealer = Dealer(root.start if root.start is not None else obs, root.belief)

    def deal(rng: random.Random) -> Rollout:
        if not root.replay:
            return rollout_for(variant, dealer.deal(rng), rng.getrandbits(64))
        for _ in range(REDEALS):
            game = replayed(dealer.deal(rng), obs, root.replay, rng.getrandbits(64))
            if game is not None:
                break
        else:  # the deal checked before the search began
            again = random.Random(root.start_seed)
            game = replayed(dealer.deal(again), obs, root.replay, again.getrandbits(64))
            assert game is not None
        return rollout_for(variant, game, rng.getrandbits(64))

    algo = ismcts if root.algorithm == "ismcts" else flat
    policy = policy_for(variant)
    n = len(obs["players"])
    extra = {"keep": root.keep, "only": root.only} if algo is flat else {}
    return algo(deal, obs["me"], fc, rewards_for(variant, n), more, rng, policy=policy,
                horizon=HORIZONS.get(variant), neutral=1.0 / n, **extra)


def replayed(game: Game, obs: dict[str, Any], moves: Sequence[Action], chance: int) -> Game | None:
    """``game`` (a deal of an earlier position) after this seat's ``moves``, if each is legal
    there and the seat then sees ``obs`` (a token drawn meanwhile, say, is the one it drew);
    else None. The chance the moves meet follows ``chance``: a deal that drew another token is
    redealt with other chance, not the same again."""
    game.source = SeededSource(seed_bytes(chance))
    try:
        for a in moves:
            game.apply(obs["me"], a)
    except IllegalAction:
        return None
    layout_for(obs["variant"]).align(game, obs)
    return game if game.to_act() == obs["to_act"] and not check(game, obs) else None


Searcher = Callable[[SearchRoot, Callable[[int], bool]], Stats]
"""Runs :func:`search` for a root while ``more`` allows (in this process, or in several)."""


def local_searcher(root: SearchRoot, more: Callable[[int], bool]) -> Stats:
    """Search in this process."""
    return search(root, more)


@level("hard")
class HardBot(Bot):
    settings = ("think", "searcher", "algorithm")

    def __init__(self, seed: int | str | bytes | None = None, *, think: Budget | None = None,
                 searcher: Searcher | None = None, algorithm: str = "flat") -> None:
        super().__init__(seed)
        if algorithm not in ("flat", "ismcts"):
            raise ValueError(f"unknown search algorithm {algorithm!r} (have: flat, ismcts)")
        self.algorithm = algorithm
        self.think = think or iterations(DEFAULT_ITERATIONS)
        self.searcher = searcher or local_searcher
        self._seed = seed
        self._normal: dict[str, Bot] = {}
        self._memory = Memory()
        self._anchor: Anchor | None = None
        self.fallbacks = 0
        """Decisions it left to ``normal`` because its determinization did not fit the position."""
        self.searches = 0
        """Decisions it searched."""
        self.playouts = 0
        """Simulated rounds played in its searches, all processes together."""

    # -- what the seat is shown ---------------------------------------------------------------
    def observe(self, seat: int, events: Sequence[Event]) -> None:
        self._memory.observe(seat, events)
        if self._normal:
            seen = [e.view(seat) for e in events]
            for bot in self._normal.values():
                bot.observe(seat, seen)

    @staticmethod
    def _fits(obs: dict[str, Any], belief: Belief, seed: int) -> bool:
        """Whether this position can be determinized faithfully (one deal is built and checked)."""
        lay = layout_for(obs["variant"])
        if not lay.supports(obs):
            return False
        belief.sync(obs, lay.visible(obs, belief))
        try:
            probe = determinize(obs, belief, random.Random(seed))
        except (KeyError, IndexError, ValueError, TypeError):
            return False  # a layout that no longer matches the engine: play safe, not crash
        return not check(probe, obs)

    # -- deciding ---------------------------------------------------------------------------------
    def _worth_searching(self, obs: dict[str, Any], keys: dict[Key, Action], prior: Key | None) -> frozenset | None:
        """The root moves to search: where the ``normal`` bot names a wild's colour (classic, No
        Mercy), a wild names only that colour, the colour held most, rather than four branches
        that split the playouts (a colour held least is rarely the one to name). A Wild Draw
        Four bluff is searched like any play: the simulated players challenge one when what they
        see makes a bluff likely, as the ``normal`` bots and people do."""
        if obs["variant"] not in ("classic", "nomercy") or self.algorithm != "flat":
            return None
        hand = {c["id"]: c for c in obs["hand"]}
        only = set()
        for key, a in keys.items():
            card = hand.get(a.card) if a.card is not None else None
            if (a.kind == "play" and card is not None and card["color"] is None and a.color is not None
                    and key != prior and a.color != NormalBot._wild_color(hand, a.card)):
                continue
            only.add(key)
        return frozenset(only) if len(only) < len(keys) else None

    def normal(self, variant: str) -> Bot:
        bot = self._normal.get(variant)
        if bot is None:
            table = LEVELS["normal"]
            cls = table.get(variant) or table.get(ANY) or LEVELS["easy"][ANY]
            bot = self._normal[variant] = cls(self._seed)
        return bot

    def choose(self, obs: dict[str, Any]) -> Action | None:
        action = self._choose(obs)
        an = self._anchor
        if an is not None:
            if action is not None and obs["version"] == an.version:
                an.moves.append(action)
                an.version = obs["version"] + 1
            else:
                self._anchor = None  # someone else moved (or it let a chance go): start again
        return action

    def _anchor_at(self, obs: dict[str, Any], belief: Belief) -> None:
        """Before a move it did not search (forced, or a jump-in): unless it is one of this turn's
        moves already, this position is the one to deal the steps it may start from."""
        an = self._anchor
        if an is not None and obs["version"] == an.version:
            return
        self._anchor = self._laid_out(obs, belief, self.rng.getrandbits(64))

    def _laid_out(self, obs: dict[str, Any], belief: Belief, seed: int) -> Anchor | None:
        """An anchor at ``obs`` if it can be laid out (its deal ``seed`` checked), else None."""
        return Anchor(obs, copy.deepcopy(belief), seed, version=obs["version"]) \
            if self._fits(obs, belief, seed) else None

    def _replay_root(self, obs: dict[str, Any]) -> Anchor | None:
        """Where ``obs`` cannot be laid out: the anchor to deal from, if only this seat moved
        since and its moves, made again on a deal of it, reproduce ``obs``."""
        an = self._anchor
        if an is None or not an.moves or obs["version"] != an.version:
            return None
        moves = tuple(an.moves)
        dealer = Dealer(an.obs, an.belief)
        for seed in [an.seed] + [self.rng.getrandbits(64) for _ in range(REDEALS)]:
            try:
                again = random.Random(seed)
                if replayed(dealer.deal(again), obs, moves, again.getrandbits(64)) is not None:
                    an.seed = seed  # a deal the search may fall back on
                    return an
            except (KeyError, IndexError, ValueError, TypeError):
                return None  # a layout that no longer matches the engine: play safe, not crash
        return None

    def _choose(self, obs: dict[str, Any]) -> Action | None:
        legal = self.legal(obs)
        if not legal:
            return None
        call = self.call_or_catch(legal)
        if call is not None:
            return call
        if not my_move(obs):
            belief = self._memory.belief(obs, faces(obs), **_variant_rules(obs))  # keep up with the events
            jump = self.normal(obs["variant"]).choose(obs)
            if jump is not None:
                self._anchor_at(obs, belief)  # a jump-in may start a turn's steps
            return jump
        more = self.think()  # the clock (if any) starts with the decision
        belief = self._memory.belief(obs, faces(obs), **_variant_rules(obs))
        fc = faces(obs)
        me = obs["me"]
        keys: dict[Key, Action] = {}
        for a in legal:
            keys.setdefault(move_key(a, me, fc), a)
        if len(keys) == 1:
            self._anchor_at(obs, belief)  # a forced move may start a turn's steps
            return legal[0]
        seed = self.rng.getrandbits(64)
        start: dict[str, Any] | None = None
        replay: tuple[Action, ...] = ()
        start_seed = 0
        here = self._laid_out(obs, belief, seed)
        if here is not None:
            self._anchor = here
        else:
            an = self._replay_root(obs)
            if an is None:
                self.fallbacks += 1
                return self.normal(obs["variant"]).choose(obs)
            start, belief, replay, start_seed = an.obs, an.belief, tuple(an.moves), an.seed
        heuristic = self.normal(obs["variant"]).choose(obs)
        prior = move_key(heuristic, me, fc) if heuristic is not None else None
        prior = prior if prior in keys else None
        only = self._worth_searching(obs, keys, prior)
        self.searches += 1
        stats = self.searcher(SearchRoot(obs, belief, seed, self.algorithm, prior, only, start, replay,
                                                start_seed), more)
        self.playouts += sum(m.visits for m in stats.values())
        stats = {k: v for k, v in stats.items() if k in keys}
        choice = best(stats, prior, SWITCH_Z.get(obs["variant"]))
        if choice is None:
            return heuristic if heuristic is not None else legal[0]
        return keys[choice]
