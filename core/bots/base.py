"""The bot interface and the registry of levels.

A level (``"easy"``, ``"normal"``) may have a strategy per variant; the bot
that :func:`make_bot` returns picks the strategy for the variant named in
each observation, so one bot object can sit at any table.
"""

from __future__ import annotations

import random
from typing import Callable

from ..actions import Action
from ..observation import Observation

ANY = "*"
"""The variant key of a strategy that plays every variant."""


class Bot:
    """A player that decides from an observation alone."""

    level: str = ""

    def __init__(self, seed: int | str | bytes | None = None) -> None:
        # Bots keep their own generator: the engine's randomness stays in the deck.
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action | None:
        """The action to take now for ``obs["me"]``, or ``None`` to let a chance go."""
        raise NotImplementedError

    @staticmethod
    def legal(obs: Observation) -> list[Action]:
        return [Action.from_dict(a) for a in obs.get("legal", ())]

    @staticmethod
    def call_or_catch(legal: list[Action]) -> Action | None:
        """Call UNO when it may, else catch whoever forgot to: never worth passing up."""
        for a in legal:
            if a.kind == "uno":
                return a
        return next((a for a in legal if a.kind == "catch"), None)


LEVELS: dict[str, dict[str, type[Bot]]] = {}
"""level -> variant (or ``ANY``) -> strategy class."""


def level(name: str, variant: str = ANY) -> Callable[[type[Bot]], type[Bot]]:
    """Class decorator: register a strategy for a level (and a variant)."""

    def deco(cls: type[Bot]) -> type[Bot]:
        cls.level = name
        LEVELS.setdefault(name, {})[variant] = cls
        return cls

    return deco


class TableBot(Bot):
    """A bot of one level that plays whichever variant its observation names."""

    def __init__(self, level_name: str, seed: int | str | bytes | None = None) -> None:
        super().__init__(seed)
        self.level = level_name
        self._seed = seed
        self._by_variant: dict[str, Bot] = {}

    def strategy(self, variant: str) -> Bot:
        bot = self._by_variant.get(variant)
        if bot is None:
            table = LEVELS[self.level]
            cls = table.get(variant) or table.get(ANY) or LEVELS["easy"][ANY]
            bot = self._by_variant[variant] = cls(self._seed)
        return bot

    def choose(self, obs: Observation) -> Action | None:
        return self.strategy(obs["variant"]).choose(obs)


def _load() -> None:
    from . import easy, normal  # noqa: F401  (register the generic and classic levels)
    from .. import variants  # noqa: F401  (variants register their own strategies)


def make_bot(name: str, seed: int | str | bytes | None = None) -> Bot:
    """A bot of level ``name`` (see :data:`LEVELS`) for any variant."""
    _load()
    if name not in LEVELS:
        raise ValueError(f"unknown bot level {name!r} (known: {', '.join(sorted(LEVELS))})")
    return TableBot(name, seed)
