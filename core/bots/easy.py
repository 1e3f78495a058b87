"""``easy``: random legal moves, and only sometimes alert out of turn."""

from __future__ import annotations


from ..actions import Action
from .base import Bot, level
from ..observation import Observation


@level("easy")
class EasyBot(Bot):
    def choose(self, obs: Observation) -> Action | None:
        legal = self.legal(obs)
        if not legal:
            return None
        if obs["current"] != obs["me"]:
            # Out of turn (a catch, a late UNO): notice it a third of the time.
            return self.rng.choice(legal) if self.rng.random() < 1 / 3 else None
        return self.rng.choice(legal)
