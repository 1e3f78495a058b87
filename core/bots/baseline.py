"""``random``: the yardstick of the literature (RLCard's random agent).

On its move it picks uniformly among its legal moves other than drawing,
passing and the UNO calls (a random playable card, a random colour for a
wild, a random answer to whatever the variant asks); it draws only when it
must, and passes only when it can do nothing else. It calls UNO whenever it
may (RLCard has no UNO calls, so neither side gains by forgetting them) and
otherwise lets every out-of-turn chance go: it never catches and never jumps
in.

A wild is one move per colour it may name, as in RLCard's action space, so a
wild is picked more often than a plain card: that is the baseline the figures
in ``benchmarks/bots.py`` are measured against.
"""

from __future__ import annotations

from typing import Any

from ..actions import Action
from .base import Bot, level

_FALLBACK = ("draw", "pass")
"""What it does when nothing else is legal, in this order."""
_NOT_A_CHOICE = frozenset({"draw", "pass", "uno", "catch"})


def my_move(obs: dict[str, Any]) -> bool:
    """Whether ``obs["me"]`` is the player the game waits for (not merely one who may act).

    The observation's ``decision`` names that player (a card may ask someone out of turn);
    a view without one falls back on extended's ``actor``, then ``current``.
    """
    decision = obs.get("decision")
    if decision is not None:
        return decision["player"] == obs["me"]
    return obs.get("actor", obs["current"]) == obs["me"]


@level("random")
class RandomBot(Bot):
    def choose(self, obs: dict[str, Any]) -> Action | None:
        legal = self.legal(obs)
        if not legal:
            return None
        for a in legal:
            if a.kind == "uno":
                return a
        if not my_move(obs):
            return None
        choices = [a for a in legal if a.kind not in _NOT_A_CHOICE]
        if choices:
            return self.rng.choice(choices)
        for kind in _FALLBACK:
            for a in legal:
                if a.kind == kind:
                    return a
        return self.rng.choice([a for a in legal if a.kind != "catch"] or legal)
