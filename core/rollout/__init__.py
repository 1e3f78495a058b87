"""A fast self-play path for search: one round of any variant on small ints.

The full engine (:class:`core.Game`) checks every action, builds ``Action`` and ``Event``
objects and serves observations; a search bot needs none of that for the millions of
moves it simulates. A :class:`Rollout` is an exact, independent copy of a game's state
(cards as their engine ids, hands as lists of ids in the engine's order, colours and
phases as small codes) that plays the same rules with moves as ints::

    import core, core.rollout as rollout
    game = core.new_game("classic", 4, seed=7)
    r = rollout.from_game(game, seed=1)
    while not r.over:
        ms = r.moves()                  # every legal move now, as ints
        r.step(rng.randrange(len(ms)))  # apply moves()[i]
    r.points()                          # this round's points per player

``moves()`` lists exactly the engine's legal actions of every player who may act, in the
engine's act order (see :meth:`Rollout.moves`), so index ``i`` means the same move in
both; ``action(i)`` turns it back into the engine's :class:`~core.Action` and
``actor(i)`` names who makes it. ``tests/test_rollout.py`` plays thousands of random
games on both and compares every state after every move.

Chance inside a rollout (reshuffles, Diez's token draws, a random pick from a hand)
comes from a seeded generator the rollout owns: a rollout is a sample of the future, not
a replay of the game's deck source. ``from_game(game, source=game.source)`` makes it ask
that source instead, exactly as the engine does, so it follows a seeded game through
every shuffle (the equivalence test's mode).

A rollout copies everything, the draw pile's order and every hand included: a bot that
must not see hidden cards builds the game it passes from a sample of its own.
"""

from __future__ import annotations

from typing import Any

from ..source import DeckSource
from .base import Rollout
from .classic import ClassicRollout
from .diez import DiezRollout
from .extended import ExtendedRollout
from .nomercy import NoMercyRollout
from .wildrawz import WildRawzRollout

_CLASSES: dict[str, type[Any]] = {cls.variant: cls for cls in (ClassicRollout, NoMercyRollout, WildRawzRollout,
                                                                  DiezRollout, ExtendedRollout)}


def supports(variant: str) -> bool:
    """Whether :func:`from_game` can copy a game of ``variant``."""
    return variant in _CLASSES


def from_game(game: Any, seed: int | str | bytes | None = 0, *, source: DeckSource | None = None) -> Rollout:
    """An exact, independent copy of ``game``'s current round as a :class:`Rollout`.

    ``seed`` seeds the rollout's own generator for the chance it meets (reshuffles, ...);
    ``source``, if given, is asked instead, with the engine's items and epochs (pass
    ``game.source`` to follow a seeded game exactly). Raises :class:`ValueError` for a
    variant without a rollout (see :func:`supports`).
    """
    cls = _CLASSES.get(game.variant)
    if cls is None:
        raise ValueError(f"no rollout for variant {game.variant!r} (have: {', '.join(_CLASSES)})")
    return cls.from_game(game, seed, source)


__all__ = ["Rollout", "from_game", "supports"]
