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
from .errors import FalseClaim, IllegalAction, InvalidCard, SealedFace, UnmetNeed
from .events import Event, describe
from .decisions import Decision
from .game import Game
from .needs import Need
from .sealed import BlindSource, Claim, FalseClaimFound, Reveal, RevealStop, Sealed, is_sealed
from .sealed_audit import Audit, replay
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
    settled: Iterable[tuple[Need, Any]] = (),
    sealed: bool = False,
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
    needs already resolved (see :func:`need_for_new_game`): pairs of a
    :class:`Chance` and its order, or of a :class:`Reveal` and its faces, used
    instead of asking the source.

    ``sealed``: a game of sealed cards (see :mod:`core.sealed`), whose card ids are
    the slots of each shuffle and which knows a face only once it is shown. Given
    the orders (a seeded source, or settled), it sees every card: the audit's
    replay; settled with ``None`` (or with :class:`BlindSource`), the dealt cards
    are sealed: a peer's replica, which then learns its own hand.
    """
    return variant_class(variant)(players, seed=seed, options=options, setup=setup, source=source,
                                  settled=settled, sealed=sealed)


def need_for_new_game(
    variant: str,
    players: int | Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    settled: Iterable[tuple[Need, Any]] = (),
    sealed: bool = False,
) -> Need | None:
    """The first need of :func:`new_game`'s deal that ``settled`` does not resolve: a shuffle
    (:class:`Chance`) or, in a sealed game, the starting card to show (:class:`Reveal`).

    A caller that settles everything before it is used (a network host running the fair
    deal) asks this until it returns ``None``, adding each answer to ``settled``, then calls
    :func:`new_game` with the same arguments and ``settled``: the deal uses exactly those.
    """
    return new_game_stop(variant, players, options=options, setup=setup, settled=settled, sealed=sealed)[0]


def new_game_stop(
    variant: str,
    players: int | Sequence[str],
    *,
    options: dict[str, Any] | None = None,
    setup: dict[str, Any] | None = None,
    settled: Iterable[tuple[Need, Any]] = (),
    sealed: bool = False,
) -> tuple[Need | None, tuple[tuple[int, ...], ...]]:
    """Where :func:`new_game`'s deal stops: the need :func:`need_for_new_game` returns, and the ids
    of the cards each seat holds at that moment (none at a shuffle).

    A card in a hand when the deal stops to show a card stays in that hand: every variant deals
    the hands before it turns a card that could send cards back into the pile, or turns its cards
    before it deals (``tests/test_sealed_engine.py`` checks each). So a network table sends each
    player the keys of its hand while it shows the turned card, not after.
    """
    try:
        variant_class(variant)(players, seed=b"", options=options, setup=setup, source=StopAtChance(),
                               settled=settled, sealed=sealed)
    except ChanceStop as stop:
        return stop.chance, ()
    except RevealStop as stop:
        g = stop.game
        return stop.need, (() if g is None else tuple(tuple(c.id for c in hand) for hand in g.hands))
    return None, ()


chance_for_new_game = need_for_new_game
"""The older name of :func:`need_for_new_game`."""


__all__ = [
    "VARIANTS", "COLORS", "Action", "Audit", "FalseClaimFound", "ActionDict", "BlindSource", "Card", "CardDict", "Chance", "Claim",
    "DeckSource", "Decision", "DiezObservation", "Event", "ExtendedObservation", "FalseClaim", "Game",
    "IllegalAction", "InvalidCard", "Need", "Observation", "Option", "PlayerView", "PrivateObservation",
    "PublicObservation", "Reveal", "Sealed", "SealedFace", "SeededSource", "UnmetNeed", "WildRawzObservation",
    "chance_for_new_game", "deck", "describe", "is_sealed", "need_for_new_game", "new_game", "new_game_stop",
    "notation",
    "parse_card", "permutation", "register", "replay", "variant_class",
]
