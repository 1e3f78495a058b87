"""UNO 扩展规则 5.2.3 (``extended``): the game (``game.py``), its effect machinery
(``effects.py``), the card table (``cards.py``) and its bots (``bots.py``)."""

from . import bots  # noqa: F401  (registers its strategies)
from .game import ExtendedGame

__all__ = ["ExtendedGame"]
