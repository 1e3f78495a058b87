"""Classic UNO: the official 108-card rules and the common house rules (``game.py``), with its
draw penalties, stacking and challenges (``penalties.py``), which No Mercy shares."""

from .game import STACKING, ClassicGame
from .penalties import Penalties

__all__ = ["STACKING", "ClassicGame", "Penalties"]
