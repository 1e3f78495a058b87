"""Diez as a rollout, in the engine's shape (``core/variants/diez/``): the table (``game.py``),
the turn's plain steps and the shared vocabulary (``steps.py``), the decisions (``decisions.py``),
drawing (``draws.py``), card effects (``effects.py``), jumping in (``jumps.py``) and token rules
(``tokens.py``)."""

from .game import DiezRollout
from .steps import KINDS

__all__ = ["DiezRollout", "KINDS"]
