"""Typed exceptions of the rules engine.

Both subclass :class:`ValueError`, so callers that only care that an input
was bad can catch that, while the UI and the network layer can tell a bad
card notation from a move the rules do not allow.
"""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action that is not legal for that player now.

    Raised by :meth:`core.Game.apply`; the game state is left exactly as it was.
    The message is meant for a person ("you can't play B7 on R5 (colour red)").
    """


class InvalidCard(ValueError):
    """A card notation that does not name a card of the variant's deck."""
