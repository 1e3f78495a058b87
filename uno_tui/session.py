"""Sessions: what the table talks to.

The app never touches :class:`core.Game` directly. It reads observation
dicts, shows redacted :class:`core.Event` lists and sends :class:`core.Action`
intents, all through the :class:`Session` protocol. :class:`LocalSession`
implements it with an in-process game and bots; a network client will
implement the same protocol later, so nothing in the UI may depend on more.
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, Sequence

import msgpack

import core
from core import Action, Event
from core.bots import make_bot

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
        """What happened in the current round so far, as the human saw it: the deal, and the moves
        since when the table opens on a round under way (a resumed game, a rejoined seat)."""

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
        return {p: make_bot(cfg.bots, seed=None if cfg.seed is None else f"{cfg.seed}:{self._match}:{p}")
                for p in range(len(self.names)) if p != self.me}

    # -- Session --------------------------------------------------------------
    def observation(self) -> Observation:
        return self.game.observation(self.me)

    def opening_events(self) -> list[Event]:
        return self._redact(self.game.deal_events) + self.round_events

    def send(self, action: Action) -> list[Event]:
        return self._moved(self.game.apply(self.me, action))

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
                return self._moved(game.apply(p, action))
        return None

    def next_round(self) -> list[Event]:
        events = self._redact(self.game.next_round())
        self.round_events = []
        self.save()
        return events

    def rematch(self) -> list[Event]:
        self._match += 1
        self._new_match()
        self.round_events = []
        self.save()
        return self.opening_events()

    # -- the save ---------------------------------------------------------------------
    def _moved(self, events: Sequence[Event]) -> list[Event]:
        shown = self._redact(events)
        self.round_events.extend(shown)
        self.save()
        return shown

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
        session.names = list(game.names)
        session.labels = ["you"] + [f"{config.bots} bot"] * (len(game.names) - 1)
        session._match = int(data["match"])
        session.round_events = events
        session.game = game
        session.bots = session._make_bots()
        return session

    # -- helpers ----------------------------------------------------------------
    def _redact(self, events: Sequence[Event]) -> list[Event]:
        return [e.view(self.me) for e in events]
