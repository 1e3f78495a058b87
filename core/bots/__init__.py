"""Bots: players that see only their observation.

``make_bot(level, seed=...)`` gives an object whose ``choose(obs)`` returns an
:class:`~core.Action` for the player ``obs["me"]``, or ``None`` when the bot
has nothing it wants to do now (an out-of-turn chance it lets go). It never
returns an action outside ``obs["legal"]``. ``observe(seat, events)`` shows it
what its seat was shown (:func:`tell_bots` does it for a table of bots); the
``hard`` bot remembers it, the others decide from the observation alone.

Levels: ``random`` (the yardstick: a random playable card), ``easy`` (any
legal move), ``normal`` (plays to win) and ``hard`` (information-set search).
"""

from __future__ import annotations

from . import baseline, easy, hard, normal  # noqa: F401  (register the levels)
from .base import LEVELS, Bot, make_bot
from .simulate import SimulationResult, simulate
from .simulate import tell as tell_bots

__all__ = ["Bot", "LEVELS", "make_bot", "simulate", "SimulationResult", "tell_bots"]
