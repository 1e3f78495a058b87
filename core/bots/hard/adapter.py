"""The rollout interface over the full engine, for variants without a fast path.

The search plays simulated games through a small interface (``moves``,
``step``, ``actor``, ``action``, ``over``, ``winner``, ``points``, ``copy``)
that the fast self-play path (``core.rollout``) implements with cards as
small integers. :class:`GameRollout` implements the same interface on a
:class:`core.Game`, so the search runs on every variant today and on the fast
path wherever :func:`rollout_for` finds one.

A move is an index into the list :meth:`GameRollout.moves` returned last: the
legal actions of every player who may act now, player by player in seat
order, each player's in the engine's order.
"""

from __future__ import annotations

from typing import Any, Protocol

from ... import rollout as _rollout
from ...actions import Action
from ...game import Game
from ...source import SeededSource, seed_bytes


class Rollout(Protocol):
    """What the search needs of a simulated game."""

    over: bool
    winner: int | None

    def moves(self) -> list[int]: ...
    def step(self, index: int) -> None: ...
    def actor(self, index: int) -> int: ...
    def action(self, index: int) -> Action: ...
    def points(self) -> list[int]: ...
    def copy(self, seed: Any = None) -> "Rollout": ...


class GameRollout:
    """:class:`Rollout` over a :class:`core.Game` that it owns."""

    __slots__ = ("game", "_moves", "_version", "_start")

    def __init__(self, game: Game, *, _start: list[int] | None = None) -> None:
        self.game = game
        self._moves: list[tuple[int, Action]] = []
        self._version = -1
        self._start = list(game.scores) if _start is None else _start

    @classmethod
    def from_game(cls, game: Game, seed: Any = None) -> "GameRollout":
        """An independent copy of ``game``; reshuffles follow ``seed`` (the search's own chance)."""
        return cls(cls._own(game, seed))

    @staticmethod
    def _own(game: Game, seed: Any) -> Game:
        d = game.to_dict()
        if seed is not None:
            d["seed"] = seed_bytes(seed)
        return type(game).from_dict(d, source=SeededSource(d["seed"]))

    def moves(self) -> list[int]:
        """Indices ``0..k-1`` (one per legal move; the fast path's are move ints instead: callers
        pass ``step``, ``actor`` and ``action`` the position in the list, never the item)."""
        g = self.game
        if self._version != g.version:
            self._moves = [(p, a) for p in g.to_act() for a in g._legal(p)]
            self._version = g.version
        return list(range(len(self._moves)))

    # ``actor``, ``action`` and ``step`` index the list ``moves`` made for this state.
    def actor(self, index: int) -> int:
        return self._moves[index][0]

    def action(self, index: int) -> Action:
        return self._moves[index][1]

    def step(self, index: int) -> None:
        p, a = self._moves[index]
        self.game.apply(p, a)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def winner(self) -> int | None:
        return self.game.winner if self.game.over else None

    def points(self) -> list[int]:
        """Points each player scored since this rollout began."""
        return [now - before for now, before in zip(self.game.scores, self._start)]

    # -- beyond the interface: what a policy that reads hands needs (see .policy) --------------
    @property
    def current(self) -> int:
        """The player the game waits for."""
        g = self.game
        return g.actor if hasattr(g, "actor") else g.current

    def hand(self, player: int) -> list[Any]:
        return self.game.hands[player]

    def card(self, card_id: int) -> Any:
        return self.game.cards[card_id]

    def cards_of(self, player: int) -> int:
        return len(self.game.hands[player])

    def hand_sizes(self) -> list[int | None]:
        """Cards in each hand; ``None`` for a player out of the round."""
        g = self.game
        return [None if g.out[p] else len(h) for p, h in enumerate(g.hands)]

    def next_cards(self) -> int:
        """Cards held by the player after the one to move."""
        g = self.game
        return len(g.hands[g._next(g.current)])

    def fewest_rival_cards(self) -> int:
        """The smallest hand of the players still in, other than the one to move."""
        g = self.game
        me = self.current
        return min((len(h) for q, h in enumerate(g.hands) if q != me and not g.out[q]), default=99)

    @property
    def color(self) -> str | None:
        """The colour in play."""
        return self.game.color

    def stacking(self) -> bool:
        return self.game.phase == "stack"

    def copy(self, seed: Any = None) -> "GameRollout":
        """An independent copy; reshuffles follow ``seed`` if given (else this game's seed)."""
        return GameRollout(self._own(self.game, seed), _start=list(self._start))


def fast_path(variant: str) -> bool:
    """Whether the search plays ``variant``'s deals on the fast path (``core.rollout``)."""
    return _rollout.supports(variant)


def rollout_for(variant: str, game: Game, seed: Any) -> Rollout:
    """The fast path's copy of ``game`` when it supports ``variant``, else :class:`GameRollout`
    (taking ``game`` over); the simulated chance follows ``seed``."""
    if _rollout.supports(variant):
        return _rollout.from_game(game, seed=seed)  # type: ignore[return-value]
    # The determinization was built for this rollout alone: no need to copy it.
    game.source = SeededSource(seed_bytes(seed))
    return GameRollout(game)
