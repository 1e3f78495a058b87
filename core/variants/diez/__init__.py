"""Diez: the game (``game.py``), its cards and tokens (``cards.py``) and its bots (``bots.py``)."""

from . import bots, words  # noqa: F401  (register its strategies and its log words)
from .game import DiezGame

__all__ = ["DiezGame"]
