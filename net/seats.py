"""Seats at the host's table, the people in them, and the host's settings."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import asdict, dataclass, field, fields
from typing import TYPE_CHECKING, Any, Callable

from .identity import short_fp

if TYPE_CHECKING:
    from .peer import Peer

log = logging.getLogger("net.seats")

BOT_NAMES: tuple[str, ...] = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jo")


@dataclass
class HostConfig:
    """Everything the host is told on its command line (and the knobs tests turn)."""

    variant: str = "classic"
    seats: int = 4
    """Every player, the host's own seat included when the host plays."""
    bots: int = 0
    """How many of the seats (the last ones) bots take from the start."""
    name: str = "Host"
    password: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    bot_level: str = "normal"
    bot_think: float | None = None
    """Seconds a ``hard`` bot thinks per decision (``None``: :data:`net.thinking.DEFAULT_THINK`)."""
    bot_processes: int | None = None
    """Processes a ``hard`` bot's search runs in (2 or more: a pool started on its first move;
    ``None``: one per core, up to 4)."""
    seed: int | str | bytes | None = None
    rounds: int | None = None
    """Stop after this many rounds; ``None`` plays the whole match."""
    auto_start: bool = False
    """Start as soon as every seat is filled and every person is ready (headless)."""
    auto_next: bool = False
    """Deal the next round by itself after ``round_pause`` seconds (headless)."""
    round_pause: float = 2.0
    bot_delay: float = 0.5
    """Pause before a bot run by the host moves, so people can follow the play."""
    turn_timer: float | None = None
    """Seconds a person has for a turn before a bot plays it for them."""
    grace: float = 30.0
    """Seconds an away player keeps their turn before a bot stands in."""
    heartbeat: float = 5.0
    """The host pings every peer this often; three silent periods drop it."""
    hello_timeout: float = 10.0
    frame_timeout: float = 10.0
    """Once a frame has begun, the rest of it must arrive within this."""
    max_violations: int = 3
    max_spectators: int = 16
    save_path: str | None = None
    fair_timeout: float = 10.0
    """Seconds each participant has for each step of the seed exchange (commit, ack, reveal)."""
    transcript_dir: str | None = None
    """Where the host writes its signed transcript (default: the state directory's ``transcripts``)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_options(cls, opts: dict[str, Any], **fixed: Any) -> "HostConfig":
        """The settings among a command's options (``save`` is ``save_path``), the rest as defaulted here.

        An option given as None keeps the default (a command line that did not
        name it); ``fixed`` settings win over both.
        """
        return cls(**{**cls.given(opts), **fixed})

    @classmethod
    def given(cls, opts: dict[str, Any], names: tuple[str, ...] | None = None) -> dict[str, Any]:
        """The settings ``opts`` gives (of ``names`` only, if given): ``save`` read as ``save_path``,
        None dropped where the default is not None."""
        out: dict[str, Any] = {}
        opts = {**opts, "save_path": opts.get("save_path") or opts.get("save")}
        for f in fields(cls):
            if f.name not in opts or (names is not None and f.name not in names):
                continue
            value = opts[f.name]
            if value is None and f.default is not None:  # (a default_factory's default is MISSING)
                continue
            out[f.name] = value
        return out


RUNTIME_SETTINGS = ("grace", "turn_timer", "bot_delay", "heartbeat", "round_pause", "bot_think", "bot_processes")
"""The settings a resumed host takes from its command line; the rest come from its save."""
DEFAULTS = HostConfig()
"""The host's defaults, for the command line's help (spelt once, in :class:`HostConfig`)."""


@dataclass
class Seat:
    """One seat: open, a person's, or a bot's."""

    index: int
    kind: str = "open"
    """``"open"``, ``"human"`` or ``"bot"``."""
    name: str = ""
    token: str | None = None
    """The secret a person's client quotes to take the seat back after a drop."""
    ready: bool = False
    reserved: bool = False
    """Held for the interactive host's own player: kept even while nobody is connected."""
    level: str = "normal"
    peer: "Peer | None" = None
    away_since: float | None = None
    stand_in: bool = False
    """A bot plays for this person while they are away (after the grace period)."""
    identity: bytes | None = None
    """The person's Ed25519 public key, fixed from the first hello (reconnects must present it)."""
    benched: bool = False
    """Struck twice in the seed exchange: a bot plays the seat for the rest of the match."""

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.stand_in

    def public(self) -> dict[str, Any]:
        """What every peer may know about the seat (never the token)."""
        return {
            "seat": self.index,
            "name": self.name,
            "kind": self.kind,
            "ready": self.ready or self.kind == "bot",
            "connected": self.kind == "bot" or self.peer is not None,
            "away": self.kind == "human" and self.peer is None,
            "bot_plays": self.bot_plays,
            "fp": short_fp(self.identity) if self.kind == "human" else "",
        }

    def to_save(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "token": self.token, "reserved": self.reserved,
                "level": self.level, "stand_in": self.stand_in, "identity": self.identity,
                "benched": self.benched}

    @classmethod
    def from_save(cls, index: int, d: dict[str, Any]) -> "Seat":
        return cls(index, kind=d["kind"], name=d["name"], token=d["token"], ready=True,
                   reserved=d.get("reserved", False), level=d.get("level", "normal"),
                   stand_in=d.get("stand_in", False), identity=d.get("identity"),
                   benched=d.get("benched", False))


def unique_name(wanted: str, taken: list[str]) -> str:
    """``wanted``, or ``wanted (2)``, ... so that two seats never share a name."""
    if wanted not in taken:
        return wanted
    n = 2
    while f"{wanted} ({n})" in taken:
        n += 1
    return f"{wanted} ({n})"


class Roster:
    """A table's seats, and its people: who takes part in the deal, and waiting until they are all here.

    The seed exchange and the verdicts are between the host and every seated
    person who takes part; the dealer waits on :meth:`wait` before each, and the
    table and its gateway call :meth:`changed` whenever a person comes, goes
    away past the grace period, or is benched.
    """

    def __init__(self, seats: list[Seat]) -> None:
        self.seats = seats
        self.listeners: list[Callable[[], None]] = []
        """Called on every :meth:`changed` (the table: its lobby, its bots and timer look again)."""
        self._event: asyncio.Event | None = None

    def missing(self) -> list[int]:
        """Seated people who take part (not benched, not away past the grace period) but are not connected."""
        return [s.index for s in self.seats if s.kind == "human" and s.peer is None and not s.stand_in
                and not s.benched]

    def changed(self) -> None:
        if self._event is not None:
            self._event.set()
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:
                log.exception("a roster listener failed")

    async def wait(self) -> None:
        """Until every seated person is connected or away past the grace period (as the log then shows).

        A host that has just resumed, or a table where someone's link dropped,
        waits for them rather than dealing without them.
        """
        while self.missing():
            if self._event is None:
                self._event = asyncio.Event()
            self._event.clear()
            await self._event.wait()
