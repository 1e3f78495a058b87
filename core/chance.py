"""Chance asked before it is used: :class:`ChanceNodes`, the part of :class:`core.Game` that tells
a caller which shuffle a move or a deal needs, and takes the order the caller settled for it.

A local game never needs this: its deck source answers at once. A caller that must settle an
order first (the network host runs the fair deal's round trips) asks, settles, then plays the
move, which uses exactly that order; nothing is rolled back (OpenSpiel's chance nodes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

from .source import Chance, ChanceStop, StopAtChance, check_order
from .state import copy

if TYPE_CHECKING:
    from .actions import Action
    from .game import Game


class ChanceNodes:
    """A base of :class:`core.Game`: the chance API (see ``docs/engine.md``)."""

    epoch: int
    _settled: dict[int, tuple[tuple[Any, ...], list[Any]]]

    def chance_for(self, p: int, action: Action | dict[str, Any]) -> Chance | None:
        """The first shuffle that ``apply(p, action)`` would need and nobody has settled yet.

        ``None``: the move needs no order beyond those already given (:meth:`settle`); applying
        it then never asks the deck source. Otherwise settle the :class:`~core.Chance` and ask
        again: a move can need several (a reshuffle, then a token drawn from the bag). An illegal
        action raises :class:`IllegalAction`, as :meth:`apply` would. The game is not changed.
        """
        return self._first_chance(lambda probe: probe.apply(p, action))

    def chance_for_next_round(self) -> Chance | None:
        """As :meth:`chance_for`, for :meth:`next_round`'s deal."""
        return self._first_chance(lambda probe: probe.next_round())

    def settle(self, chance: Chance, order: Sequence[Any]) -> None:
        """Give the outcome of a chance node: ``order`` is ``chance.items`` in their new order.

        The next move or deal that reaches epoch ``chance.epoch`` with these items uses it as
        it is. A ``ValueError`` if ``order`` is not a permutation of the items or the epoch has
        passed. Settled orders are the caller's input to the next move, not game state: they
        are not saved by :meth:`to_dict`.
        """
        if chance.epoch < self.epoch:
            raise ValueError(f"epoch {chance.epoch} has passed (the game is at epoch {self.epoch})")
        # A new map, not the class's empty one: a game that is never given an order has one
        # attribute fewer, which keeps CPython's quick attribute access (at most 30 keys).
        self._settled = {**self._settled, chance.epoch: (tuple(chance.items), check_order(chance, order))}

    def _first_chance(self, move: Callable[[Game], object]) -> Chance | None:
        """Make ``move`` on a copy whose source answers nothing: the first order it lacks."""
        probe = copy(self, StopAtChance())  # type: ignore[arg-type]
        probe._settled = dict(self._settled)
        try:
            move(probe)
        except ChanceStop as stop:
            return stop.chance
        return None
