"""uno-tui's rules engine: pure Python, no I/O, no clock, no global randomness.

The whole public API::

    import core
    game = core.new_game("classic", 4, seed=7)
    p = game.to_act()[0]
    events = game.apply(p, game.legal_actions(p)[0])
    view = game.observation(p)          # what p may see, msgpack-able
    state = game.to_dict(); core.Game.from_dict(state)
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from . import variants as _variants  # noqa: F401  (registers the variants)
from .actions import Action
from .cards import COLORS, Card, notation, parse_card
from .errors import IllegalAction, InvalidCard
from .events import Event, describe
from .decisions import Decision
from .game import Game
from .observation import (
    ActionDict, CardDict, DiezObservation, ExtendedObservation, Observation, PlayerView, PrivateObservation,
    PublicObservation, WildRawzObservation,
)
from .options import Option
from .registry import register, variant_class, variant_names
from .source import Chance, ChanceStop, DeckSource, SeededSource, StopAtChance, permutation

VARIANTS: tuple[str, ...] = variant_names()
"""The registered variant names."""


def deck(variant: str, **kwargs: Any) -> list[Card]:
    """The variant's full deck as a list of :class:`Card` (ids in deck order).

    ``num_players`` may be given for variants whose deck depends on it.
    """
    cls = variant_class(variant)
    n = kwargs.pop("num_players", cls.min_players)
    options = cls.check_options(kwargs.pop("options", {}))
    if kwargs:
        raise ValueError(f"unknown argument(s) to deck(): {', '.join(kwargs)}")
    return [Card(i, c, r) for i, (c, r) in enumerate(cls.build_deck(n, options))]


def new_game(
    variant: str,
    players: int | Sequence[str],
    *,
    seed: int | bytes | str | None = None,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    source: DeckSource | None = None,
    settled: Iterable[tuple[Chance, Sequence[Any]]] = (),
) -> Game:
    """Start a game of ``variant``.

    ``players`` is a count or a list of names. The same ``seed`` gives the
    same game. ``options`` are the variant's rule options (an unknown key or a
    bad value raises :class:`ValueError` naming it). ``setup`` scripts a
    mid-round position: ``hands`` (one list of notations per player),
    ``discard`` (the last is the top), ``draw`` (the first is drawn next),
    ``current``, ``direction`` and ``color``; unnamed cards go below the named
    draw cards in a seed-determined order. ``source`` replaces the seeded
    deck source (the network host's fair deal). ``settled`` gives the deal's
    chance nodes already resolved (see :func:`chance_for_new_game`): pairs of a
    :class:`Chance` and its order, used instead of asking the source.
    """
    return variant_class(variant)(players, seed=seed, options=options, setup=setup, source=source,
                                  settled=settled)


def chance_for_new_game(
    variant: str,
    players: int | Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    settled: Iterable[tuple[Chance, Sequence[Any]]] = (),
) -> Chance | None:
    """The first chance node of :func:`new_game`'s deal that ``settled`` does not resolve.

    A caller that settles every shuffle before it is used (a network host running the fair
    deal) asks this until it returns ``None``, adding each order to ``settled``, then calls
    :func:`new_game` with the same arguments and ``settled``: the deal uses exactly those orders.
    """
    try:
        variant_class(variant)(players, seed=b"", options=options, setup=setup, source=StopAtChance(),
                               settled=settled)
    except ChanceStop as stop:
        return stop.chance
    return None


__all__ = [
    "VARIANTS", "COLORS", "Action", "ActionDict", "Card", "CardDict", "Chance", "DeckSource", "Decision",
    "DiezObservation", "Event", "ExtendedObservation", "Game", "IllegalAction", "InvalidCard", "Observation",
    "Option", "PlayerView", "PrivateObservation", "PublicObservation", "SeededSource", "WildRawzObservation",
    "chance_for_new_game", "deck", "describe", "new_game", "notation", "parse_card", "permutation", "register",
    "variant_class",
]
