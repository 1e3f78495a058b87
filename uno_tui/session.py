"""Sessions: what the table talks to.

The app never touches :class:`core.Game` directly. It reads observation
dicts, shows redacted :class:`core.Event` lists and sends :class:`core.Action`
intents, all through the :class:`Session` protocol. :class:`LocalSession`
implements it with an in-process game and bots; a network client will
implement the same protocol later, so nothing in the UI may depend on more.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence

import core
from core import Action, Event
from core.bots import make_bot, tell_bots

Observation = dict[str, Any]

BOT_NAMES: tuple[str, ...] = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo")


class Session(Protocol):
    """One player's seat at a table: observations in, intents out."""

    names: list[str]
    """Seat names, one per player (the human's own name included)."""
    me: int
    """The human's seat."""
    labels: list[str]
    """Short descriptions of the seats for the screen ("normal bot", "you", ...)."""

    def observation(self) -> Observation:
        """The human's current view (``core.Game.observation`` format)."""

    def opening_events(self) -> list[Event]:
        """What happened at the deal of the current round, as the human saw it."""

    def send(self, action: Action) -> list[Event]:
        """Carry out the human's intent; raises :class:`core.IllegalAction` with a reason."""

    def bot_step(self) -> list[Event] | None:
        """Let one other player act; ``None`` when nobody else wants to act now."""

    deals: bool
    """Whether this seat deals the next round (a network joiner waits for the host)."""

    def next_round(self) -> list[Event]:
        """Deal the next round of the match."""

    def rematch(self) -> list[Event]:
        """Start a fresh match with the same seats."""


@dataclass
class TableConfig:
    """How to set up a local table (built by the command line)."""

    players: int = 4
    bots: str = "normal"
    variant: str = "classic"
    seed: int | str | None = None
    name: str = "You"
    options: dict[str, Any] = field(default_factory=dict)
    think: float | None = None
    """Seconds a ``hard`` bot thinks per decision (``None``: the default, 0.3 s)."""
    think_processes: int = 1
    """Processes the ``hard`` bots search in (the command line gives one per core)."""
    setup: dict[str, Any] | None = None
    """A scripted first position (``core.new_game``'s ``setup``: hands, discard, current, ...);
    the next rounds and rematches are dealt as usual. For tests, screenshots and tutorials."""


class LocalSession:
    """A local game: the human in seat 0, bots in the others."""

    me = 0
    deals = True

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        n = config.players
        me = config.name or "You"
        self.names = [me] + [b for b in BOT_NAMES if b != me][: n - 1]
        self.labels = ["you"] + [f"{config.bots} bot"] * (n - 1)
        self._match = 0
        self._new_match()

    def _new_match(self) -> None:
        cfg = self.config
        # A rematch gets its own deck order, still reproducible from the seed.
        seed = cfg.seed if self._match == 0 or cfg.seed is None else f"{cfg.seed}:match{self._match}"
        setup = cfg.setup if self._match == 0 else None
        self.game = core.new_game(cfg.variant, self.names, seed=seed, options=cfg.options, setup=setup)
        # A seeded table replays exactly, bots' choices included; an unseeded one does not.
        settings: dict[str, Any] = {}
        if cfg.bots == "hard":
            from net.thinking import bot_settings  # the clock for the search (the core has none)

            settings = bot_settings(cfg.think, processes=cfg.think_processes)
        self.bots = {p: make_bot(cfg.bots, seed=None if cfg.seed is None else f"{cfg.seed}:{self._match}:{p}",
                                 **settings)
                     for p in range(len(self.names)) if p != self.me}
        self._tell(self.game.deal_events)

    # -- Session --------------------------------------------------------------
    def observation(self) -> Observation:
        return self.game.observation(self.me)

    def opening_events(self) -> list[Event]:
        return self._redact(self.game.deal_events)

    def send(self, action: Action) -> list[Event]:
        return self._redact(self._tell(self.game.apply(self.me, action)))

    def bot_step(self) -> list[Event] | None:
        game = self.game
        cur, n = game.current, game.num_players
        # Seat order from the player whose turn it is, but out-of-turn players
        # first: a catch is shouted before the next card lands (as core.bots.simulate does).
        order = sorted((p for p in game.to_act() if p != self.me), key=lambda p: (p - cur) % n)
        order = [p for p in order if p != cur] + [p for p in order if p == cur]
        for p in order:
            action = self.bots[p].choose(game.observation(p))
            if action is not None:
                return self._redact(self._tell(game.apply(p, action)))
        return None

    def next_round(self) -> list[Event]:
        return self._redact(self._tell(self.game.next_round()))

    def rematch(self) -> list[Event]:
        self._match += 1
        self._new_match()
        return self.opening_events()

    # -- helpers ----------------------------------------------------------------
    def _tell(self, events: list[Event]) -> list[Event]:
        """Show every bot what its seat saw (the hard bots remember it)."""
        tell_bots(self.bots, events)
        return events

    def _redact(self, events: Sequence[Event]) -> list[Event]:
        return [e.view(self.me) for e in events]
