"""Wild Rawz: the game (``game.py``) and its bots (``bots.py``)."""

from . import bots  # noqa: F401  (registers its strategies)
from .game import WildRawzGame

__all__ = ["WildRawzGame"]
