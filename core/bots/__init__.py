"""Bots: players that see only their observation.

``make_bot(level, seed=...)`` gives an object whose ``choose(obs)`` returns an
:class:`~core.Action` for the player ``obs["me"]``, or ``None`` when the bot
has nothing it wants to do now (an out-of-turn chance it lets go). It never
returns an action outside ``obs["legal"]``.
"""

from __future__ import annotations

from . import easy, normal  # noqa: F401  (register the levels)
from .base import LEVELS, Bot, make_bot
from .simulate import SimulationResult, simulate

__all__ = ["Bot", "LEVELS", "make_bot", "simulate", "SimulationResult"]
