"""The bot interface and the registry of levels.

A level (``"easy"``, ``"normal"``) may have a strategy per variant; the bot
that :func:`make_bot` returns picks the strategy for the variant named in
each observation, so one bot object can sit at any table.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from ..actions import Action
from ..events import Event
from ..observation import Observation

ANY = "*"
"""The variant key of a strategy that plays every variant."""


class Bot:
    """A player that decides from an observation alone."""

    level: str = ""
    settings: tuple[str, ...] = ()
    """The keyword settings of :func:`make_bot` this strategy takes (``think``, ``searcher``)."""

    def __init__(self, seed: int | str | bytes | None = None) -> None:
        # Bots keep their own generator: the engine's randomness stays in the deck.
        self.rng = random.Random(seed)

    def choose(self, obs: Observation) -> Action | None:
        """The action to take now for ``obs["me"]``, or ``None`` to let a chance go."""
        raise NotImplementedError

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        """Events the table showed seat ``seat`` (the bot's own), in order; the deal included.

        The caller may pass the events unredacted: a bot that reads them must
        look only at ``event.view(seat)``. Bots that decide from the
        observation alone ignore them.
        """

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

    def __init__(self, level_name: str, seed: int | str | bytes | None = None, **config: Any) -> None:
        super().__init__(seed)
        self.level = level_name
        self._seed = seed
        self._config = config
        self._by_variant: dict[str, Bot] = {}
        self._told: list[tuple[int, Sequence[Event]]] = []  # this round's events, for a strategy made later

    def strategy(self, variant: str) -> Bot:
        bot = self._by_variant.get(variant)
        if bot is None:
            table = LEVELS[self.level]
            cls = table.get(variant) or table.get(ANY) or LEVELS["easy"][ANY]
            config = {k: v for k, v in self._config.items() if k in cls.settings}
            bot = self._by_variant[variant] = cls(self._seed, **config)
            for seat, events in self._told:
                bot.observe(seat, events)
        return bot

    def choose(self, obs: Observation) -> Action | None:
        return self.strategy(obs["variant"]).choose(obs)

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        if any(e.kind == "deal" for e in events):
            self._told = []
        self._told.append((seat, list(events)))
        for bot in self._by_variant.values():
            bot.observe(seat, events)


def _load() -> None:
    from . import baseline, easy, hard, normal  # noqa: F401  (register the generic and classic levels)
    from .. import variants  # noqa: F401  (variants register their own strategies)


def make_bot(name: str, seed: int | str | bytes | None = None, **settings: Any) -> Bot:
    """A bot of level ``name`` (see :data:`LEVELS`) for any variant.

    ``settings`` go to the strategies that take them (see :attr:`Bot.settings`):
    ``think``, the ``hard`` bot's budget per decision, and ``searcher``, how it
    runs its search (several processes, say). Other levels ignore them.
    """
    _load()
    if name not in LEVELS:
        raise ValueError(f"unknown bot level {name!r} (known: {', '.join(sorted(LEVELS))})")
    known = {s for table in LEVELS.values() for cls in table.values() for s in cls.settings}
    unknown = set(settings) - known
    if unknown:
        raise ValueError(f"unknown bot setting(s): {', '.join(sorted(unknown))}")
    return TableBot(name, seed, **{k: v for k, v in settings.items() if v is not None})
