"""The extended rules as a rollout, in the engine's shape (``core/variants/extended/``): the table
(``game.py``), the decisions of each phase (``decisions.py``), the cards in play (``plays.py``),
and the move vocabulary and card tables (``tables.py``)."""

from .game import ExtendedRollout
from .tables import KINDS

__all__ = ["ExtendedRollout", "KINDS"]
