"""Typed exceptions of the rules engine.

:class:`IllegalAction`, :class:`InvalidCard` and :class:`UnmetNeed` subclass :class:`ValueError`,
so callers that only care that an input was bad can catch that, while the UI and the network
layer can tell a bad card notation from a move the rules do not allow. :class:`SealedFace` is
different: it is a bug in the engine, never a player's fault.
"""

from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """An action that is not legal for that player now.

    Raised by :meth:`core.Game.apply`; the game state is left exactly as it was.
    The message is meant for a person ("you can't play B7 on R5 (colour red)").
    """

    seat: int | None = None
    """The seat whose action was refused (set by :meth:`core.Game.apply`)."""


class FalseClaim(IllegalAction):
    """A move that the players who cannot see the cards accepted as its player's claim (see
    :class:`core.Claim`), refused by a game that sees them: the claim was false.

    The round's audit replays the table with every card open; this names the claimant.
    """


class InvalidCard(ValueError):
    """A card notation that does not name a card of the variant's deck."""


class UnmetNeed(ValueError):
    """A move or deal that needs a shuffle settled or a card shown first (see
    :meth:`core.Game.need_for`). The game is left exactly as it was."""

    def __init__(self, need: Any) -> None:
        super().__init__(f"settle {need!r} first (Game.need_for names what a move needs)")
        self.need = need


class SealedFace(RuntimeError):
    """The engine read the face of a card this game does not know (a sealed card) outside the
    hand queries that treat such cards explicitly: a bug in the engine, raised loudly."""
