"""Sessions: what the table talks to.

The app never touches :class:`core.Game` directly. It reads observation dicts, shows redacted
:class:`core.Event` lists and sends :class:`core.Action` intents, all through the
:class:`Session` protocol. :class:`LocalSession` implements it with an in-process game and bots;
:class:`uno_tui.netplay.session.NetSession` with a seat at a remote table.

One push path: whatever changes the table (your intent, a bot's move, the next deal, the host's
update) reaches the table screen as a :class:`SessionChanged` message the session posts to it.
Sending only sends; it returns nothing.
"""

from __future__ import annotations

import asyncio
import os
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, Sequence

import msgpack
from textual.message import Message
from textual.timer import Timer

import core
from core import Action, Event
from core.bots import make_bot, tell_bots

Observation = dict[str, Any]

BOT_NAMES: tuple[str, ...] = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo")

MIN_TIMER = 0.005
"""Fast mode still goes through a timer (a zero interval is not allowed), so keys stay responsive."""


def with_match_length(obs: Observation, rounds: int | None) -> Observation:
    """``obs`` with a host's ``--rounds R`` as a match of R rounds (``rounds_in_match``), shown as the
    rules' own fixed matches are (Wild Rawz's). The rules' own count stands where it is the shorter
    (the host stops after R rounds: Wild Rawz at ``--rounds 1`` is a match of one round, not six)."""
    own = obs.get("rounds_in_match")
    if rounds and (not own or rounds < own):
        return {**obs, "rounds_in_match": rounds}
    return obs


class SessionChanged(Message, bubble=False):
    """The table changed: ``events`` are what happened, as this seat may see them (the observation
    is read afresh from the session)."""

    def __init__(self, events: list[Event]) -> None:
        super().__init__()
        self.events = events


class Watcher(Protocol):
    """The table screen a session tells of every change (and on whose clock its bots move)."""

    def post_message(self, message: Message) -> bool: ...

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Timer: ...

    @property
    def watching(self) -> bool:
        """The human can see the table now (it is on top, big enough, and has told the deal)."""


class Session(Protocol):
    """One player's seat (or a spectator's chair) at a table: observations in, intents out."""

    names: list[str]
    """Seat names, one per player (the human's own name included)."""
    labels: list[str]
    """Short descriptions of the seats for the screen ("normal bot", "you", ...)."""

    @property
    def me(self) -> int | None:
        """The human's seat; ``None`` for a spectator."""

    @property
    def deals(self) -> bool | None:
        """Whether this seat deals the next round (a network joiner waits for the host); None: nobody
        does, the table deals it by itself (a sealed table, once every audit is in)."""

    def observation(self) -> Observation:
        """The human's current view (``core.Game.observation`` format)."""

    def opening_events(self) -> list[Event]:
        """What happened in the current round so far, as the human saw it: the deal, and the moves
        since when the table opens on a round under way (a resumed game, a rejoined seat)."""

    def attach(self, watcher: Watcher | None, *, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        """Post :class:`SessionChanged` to ``watcher`` from now on (``None``: to nobody). ``pacing``:
        the pause before each move of the others, in seconds (low, high); a remote host keeps its own."""

    def wake(self) -> None:
        """The watcher can be watched again (it was covered, or too small): the others may move on."""

    def send(self, action: Action) -> None:
        """Carry out (or send) the human's intent; raises :class:`core.IllegalAction` with a reason
        when it can be refused at once. What it changes arrives as a :class:`SessionChanged`."""

    def next_round(self) -> None:
        """Deal the next round of the match (raises :class:`core.IllegalAction` when this seat cannot)."""

    def rematch(self) -> None:
        """Start a fresh match with the same seats (raises :class:`core.IllegalAction` when this seat cannot)."""


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
    english: bool = False
    """The extended rules' cards named in English on the chips and in the log (not in Chinese)."""
    save_path: str | None = None
    """Where the match is saved after every move (``uno-tui play --resume`` goes on with it); None: nowhere."""


SAVE_FORMAT = "uno-tui local save"
SAVE_VERSION = 1


def default_save_path() -> Path:
    """``$XDG_STATE_HOME/uno-tui/local.save`` (``~/.local/state/...`` by default)."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(os.path.expanduser("~"), ".local", "state")
    return Path(base) / "uno-tui" / "local.save"


class SaveError(ValueError):
    """A local save that is missing or cannot be read."""


class LocalSession:
    """A local game: the human in seat 0, bots in the others.

    The bots move on the watching table's clock, one move after each pause, while the human can
    see the table (:meth:`attach`, :meth:`wake`); :meth:`bot_step` makes one move at once.
    """

    me = 0
    deals = True

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self._unwatched()
        n = config.players
        me = config.name or "You"
        self.names = [me] + [b for b in BOT_NAMES if b != me][: n - 1]
        self.labels = ["you"] + [f"{config.bots} bot"] * (n - 1)
        self._match = 0
        self.round_events: list[Event] = []
        """What the human saw since the round's deal (kept for a save, told again on resuming)."""
        self._new_match()
        self.save()

    def _new_match(self) -> None:
        cfg = self.config
        # A rematch gets its own deck order, still reproducible from the seed.
        seed = cfg.seed if self._match == 0 or cfg.seed is None else f"{cfg.seed}:match{self._match}"
        setup = cfg.setup if self._match == 0 else None
        self.game = core.new_game(cfg.variant, self.names, seed=seed, options=cfg.options, setup=setup)
        self.bots = self._make_bots()

    def _make_bots(self) -> dict[int, Any]:
        cfg = self.config
        # A seeded table replays exactly, bots' choices included; an unseeded one does not.
        bots = {p: make_bot(cfg.bots, seed=None if cfg.seed is None else f"{cfg.seed}:{self._match}:{p}",
                            **self._bot_settings())
                for p in range(len(self.names)) if p != self.me}
        tell_bots(bots, self.game.deal_events)
        return bots

    def _bot_settings(self) -> dict[str, Any]:
        """The hard bots' clock and worker processes (made once a session: a rematch keeps the pool)."""
        if self.config.bots != "hard":
            return {}
        settings = getattr(self, "_settings", None)
        if settings is None:
            from net.thinking import bot_settings  # the clock for the search (the core has none)

            settings = self._settings = bot_settings(self.config.think, processes=self.config.think_processes)
        return settings

    # -- Session --------------------------------------------------------------
    def observation(self) -> Observation:
        return self.game.observation(self.me)

    def opening_events(self) -> list[Event]:
        return self._redact(self.game.deal_events) + self.round_events

    def attach(self, watcher: Watcher | None, *, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        self._stop()
        self._watcher = watcher
        self.pacing = pacing
        self._schedule()

    def wake(self) -> None:
        self._schedule()

    def send(self, action: Action) -> None:
        self._moved(self._tell(self.game.apply(self.me, action)))

    def bot_step(self) -> list[Event] | None:
        """Let one bot act now (and tell the watcher); ``None`` when no bot wants to act."""
        game = self.game
        for p in self._bot_order():
            action = self.bots[p].choose(game.observation(p))
            if action is not None:
                return self._moved(self._tell(game.apply(p, action)))
        return None

    def _bot_order(self) -> list[int]:
        """The bots who may act now, out-of-turn players first: a catch is shouted before the next
        card lands (the game's acting order, as core.bots.simulate asks them)."""
        return [p for p in self.game.acting_order() if p != self.me]

    async def _think_step(self) -> None:
        """:meth:`bot_step` for searching bots: each thinks in a thread, so the screen keeps
        drawing and taking keys; a thought is dropped if the table moved on meanwhile (your
        move, which wakes the bots again)."""
        if self._thinking:
            return  # one thought at a time; the one under way schedules the next
        self._thinking = True
        try:
            game, version = self.game, self.game.version
            for p in self._bot_order():
                action = await asyncio.to_thread(self.bots[p].choose, game.observation(p))
                if self.game is not game or game.version != version:
                    self._schedule()
                    return
                if action is not None:
                    self._moved(self._tell(game.apply(p, action)))
                    return
        finally:
            self._thinking = False

    def move_for(self, seat: int, action: Action) -> list[Event]:
        """Make ``action`` for ``seat`` as its bot would (a scripted move, for tests and screenshots);
        the watcher is told as of any move."""
        return self._moved(self._tell(self.game.apply(seat, action)))

    def next_round(self) -> None:
        events = self._redact(self._tell(self.game.next_round()))
        self.round_events = []
        self.save()
        self._changed(events)

    def rematch(self) -> None:
        self._match += 1
        self._new_match()
        self.round_events = []
        self.save()
        self._changed(self.opening_events())

    # -- telling the watcher, and the bots' pace ------------------------------------------
    def _unwatched(self) -> None:
        self._watcher: Watcher | None = None
        self.pacing: tuple[float, float] = (0.6, 0.9)
        """The pause before each bot's move, in seconds (low, high); (0, 0) moves at once."""
        self._rng = random.Random()  # pacing jitter only; the game's randomness is in core
        self._timer: Timer | None = None
        self._thinking = False

    def _moved(self, events: Sequence[Event]) -> list[Event]:
        shown = self._redact(events)
        self.round_events.extend(shown)
        self.save()
        self._changed(shown)
        return shown

    def _changed(self, events: list[Event]) -> None:
        if self._watcher is not None:
            self._watcher.post_message(SessionChanged(events))
        self._schedule()

    def _schedule(self) -> None:
        """(Re)start the pause before the bots' next move; none once the round is over."""
        self._stop()
        if self._watcher is None or self.game.over:
            return
        low, high = self.pacing
        delay = self._rng.uniform(low, high) if high > 0 else MIN_TIMER
        self._timer = self._watcher.set_timer(delay, self._tick)

    def _stop(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> Any:
        self._timer = None
        if self._watcher is None or not self._watcher.watching:
            return None  # the watcher wakes the bots when the table can be seen again
        if self.config.bots == "hard":
            return self._think_step()  # the timer awaits it
        self.bot_step()
        # None: nobody else wants to act; the next change (your move) wakes the bots.
        return None

    # -- the save ---------------------------------------------------------------------

    @property
    def in_progress(self) -> bool:
        """A round is being played (leaving now would leave it unfinished)."""
        return not self.game.over

    def save(self) -> None:
        """Write the match to ``config.save_path`` (one file, replaced whole); a finished match is
        removed, so ``--resume`` finds only a game to go on with. A full disk loses the save, not the game."""
        path = self.config.save_path
        if path is None:
            return
        try:
            if self.game.match_over:
                Path(path).unlink(missing_ok=True)
                return
            config = asdict(self.config)
            config.pop("setup"), config.pop("save_path")
            data = {"format": SAVE_FORMAT, "v": SAVE_VERSION, "config": config, "match": self._match,
                    "game": self.game.to_dict(), "events": [e.to_dict() for e in self.round_events]}
            target = Path(path)
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".tmp")
            tmp.write_bytes(msgpack.packb(data, use_bin_type=True))
            os.replace(tmp, target)
        except OSError:
            pass

    @classmethod
    def resume(cls, path: str | os.PathLike[str]) -> "LocalSession":
        """The match saved at ``path``, at the move it was left; raises :class:`SaveError` in words."""
        try:
            raw = Path(path).read_bytes()
        except FileNotFoundError:
            raise SaveError(f"no saved game at {path}: start one with `uno-tui play`") from None
        except OSError as e:
            raise SaveError(f"cannot read {path}: {e.strerror or e}") from None
        try:
            data = msgpack.unpackb(raw, raw=False, strict_map_key=False)
            if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
                raise ValueError("not a uno-tui save")
            if data.get("v") != SAVE_VERSION:
                raise ValueError(f"a save of version {data.get('v')}, this uno-tui reads version {SAVE_VERSION}")
            config = TableConfig(**data["config"], save_path=str(path))
            game = core.Game.from_dict(data["game"])
            events = [Event.from_dict(e) for e in data["events"]]
        except (ValueError, TypeError, KeyError, msgpack.UnpackException) as e:
            raise SaveError(f"{path} cannot be resumed: {e}") from None
        session = cls.__new__(cls)
        session.config = config
        session._unwatched()
        session.names = list(game.names)
        session.labels = ["you"] + [f"{config.bots} bot"] * (len(game.names) - 1)
        session._match = int(data["match"])
        session.round_events = events
        session.game = game
        session.bots = session._make_bots()
        return session

    # -- helpers ----------------------------------------------------------------
    def _tell(self, events: list[Event]) -> list[Event]:
        """Show every bot what its seat saw (the hard bots remember it)."""
        tell_bots(self.bots, events)
        return events

    def _redact(self, events: Sequence[Event]) -> list[Event]:
        return [e.view(self.me) for e in events]
