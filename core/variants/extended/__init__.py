"""UNO 扩展规则 5.2.3 (``extended``): the game (``game.py``), its effect machinery
(``effects.py``), the card table (``cards.py``) and its bots (``bots.py``)."""

from . import bots, words  # noqa: F401  (register its strategies and its log words)
from .game import ExtendedGame

__all__ = ["ExtendedGame"]
