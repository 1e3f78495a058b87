"""Diez: the table (``game.py``), the turn's steps (``steps.py``) and the decisions among them
(``decisions.py``), drawing (``draws.py``), card effects (``effects.py``), jumping in
(``jumps.py``), token rules (``tokens.py``), the cards and tokens (``cards.py``), the log's words
(``words.py``) and the bots (``bots.py``)."""

from . import bots, words  # noqa: F401  (register its strategies and its log words)
from .game import DiezGame

__all__ = ["DiezGame"]
