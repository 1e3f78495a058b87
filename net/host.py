"""The host: a table (:mod:`net.table`) and its gateway (:mod:`net.gateway`), started and closed together.

Peers send signed intents; the table checks each against ``legal_actions``
(through :meth:`core.Game.apply`), applies it, saves (:mod:`net.persistence`),
and every peer is sent its own observation and the events as that peer may
see them (:mod:`net.views`). Where things live:

* the game, seats, dealer, record, bots, timers and rounds: :class:`net.table.Table`;
* sockets, the handshake, hello, heartbeats, away and back: :class:`net.gateway.Gateway`,
  the table's :class:`~net.outbox.Outbox` (the one place the host sends a frame);
* the save, the log's files, the transcript and the host's own audit: :class:`net.persistence.Store`;
* the fair deal and the table's log: :class:`net.dealer.Dealer`.

The host's defaults are spelt once, in :class:`net.seats.HostConfig`.
"""

from __future__ import annotations

from typing import Any

import core

from .dealer import Dealer
from .gateway import Gateway, Listener
from .identity import FP_ADDRESS, Identity
from .peer import Peer
from .record import Record
from .save import Parts, read_save
from .seats import HostConfig, Seat
from .table import SourceFactory, Table
from .throttle import PasswordThrottle

__all__ = ["Host", "HostConfig", "Listener"]


class Host:
    """The authoritative table. Create, ``await start()``, then ``await wait_finished()``.

    Every deck order comes from the commit-reveal protocol run with the
    connected players (:mod:`net.dealer`); ``source_factory`` (turning the
    game's seed into a deck source) replaces it with an unchecked source and
    is for tools only. ``identity`` is the host's Ed25519 key (default: the
    user's, see :mod:`net.identity`).
    """

    table_class: type[Table] = Table
    """The table: the fairness tests' dishonest hosts name a subclass here."""
    gateway_class: type[Gateway] = Gateway
    """The gateway: the protocol tests' misbehaving hosts name a subclass here."""
    dealer_class: type[Dealer] = Dealer
    """The dealer each match gets: the fairness tests' dishonest dealers name a subclass here."""

    def __init__(self, config: HostConfig, *, source_factory: SourceFactory | None = None,
                 identity: Identity | None = None) -> None:
        identity = identity or Identity.load()
        self.identity = identity
        self.gateway = self.gateway_class(config, identity)
        self.table = self.table_class(config, self.gateway, identity=identity, source_factory=source_factory,
                                      dealer_class=self.dealer_class)
        self.gateway.table = self.table

    @classmethod
    def resume(cls, save_path: str, *, source_factory: SourceFactory | None = None, **overrides: Any) -> "Host":
        """A host continuing the game saved at ``save_path``.

        ``overrides`` change run-time settings (``heartbeat``, ``grace``,
        ``turn_timer``, ``bot_delay``, ...); the table itself comes from the save.
        """
        data = read_save(save_path)
        if data.get("phase") == "finished":
            raise ValueError(f"the game saved at {save_path} is already over")
        settings = dict(data["config"])
        settings.update(overrides)
        settings["save_path"] = str(save_path)
        host = cls(HostConfig(**settings), source_factory=source_factory)
        host.table.load(data)
        return host

    async def start(self, bind: str = "0.0.0.0", port: int = 7777) -> tuple[str, int]:
        """Listen on ``bind:port`` (port 0 picks a free one); returns the address bound."""
        self.table.port = await self.gateway.start(bind, port)
        if self.table.game is not None:  # resumed: everyone is away until they reconnect
            self.gateway.everyone_away()
            self.table.resumed()
        return bind, self.table.port

    async def wait_finished(self) -> str | None:
        """Wait until the match (or the set number of rounds) is over; returns why."""
        await self.table.finished.wait()
        return self.table.end_reason

    async def close(self, reason: str = "the host is closing") -> None:
        """Close the table: every peer is told it is closed for good (``bye{closed: true}``) and let go."""
        self.table.close()
        await self.gateway.close(reason)

    # -- what the host's screen, the headless command and the server ask ---------------------------
    @property
    def config(self) -> HostConfig:
        return self.table.config

    @property
    def options(self) -> dict[str, Any]:
        return self.table.options

    @property
    def seats(self) -> list[Seat]:
        return self.table.seats

    @property
    def game(self) -> core.Game | None:
        return self.table.game

    @property
    def record(self) -> Record | None:
        return self.table.record

    @property
    def dealer(self) -> Dealer | None:
        return self.table.dealer

    @property
    def phase(self) -> str:
        return self.table.phase

    @property
    def rounds_played(self) -> int:
        return self.table.rounds_played

    @property
    def match(self) -> int:
        """Matches played before this one at this table (rematches)."""
        return self.table.match

    @property
    def end_reason(self) -> str | None:
        return self.table.end_reason

    @property
    def finished(self) -> bool:
        return self.table.phase == "finished"

    @property
    def audits(self) -> list[dict[str, Any]]:
        """The host's own audit of each round: ``{"round", "ok", "code", "reason"}``."""
        return self.table.store.audits

    @property
    def transcript_path(self) -> str | None:
        return self.table.store.transcript_path

    @property
    def saved_port(self) -> int | None:
        """The port of the host whose save was resumed (clients reconnect to it)."""
        return self.table.saved_port

    @property
    def peers(self) -> set[Peer]:
        return self.gateway.peers

    @property
    def listeners(self) -> list[Listener]:
        """``f(kind, data)`` for the host's news: lobby, join, leave, update, round_over, end, audit, ..."""
        return self.gateway.listeners

    @property
    def password_throttle(self) -> PasswordThrottle:
        """Slows down whoever guesses the password wrong, per address (see :mod:`net.throttle`)."""
        return self.gateway.password_throttle

    @password_throttle.setter
    def password_throttle(self, throttle: PasswordThrottle) -> None:
        self.gateway.password_throttle = throttle

    @property
    def port(self) -> int | None:
        return self.gateway.port

    @property
    def bind(self) -> str | None:
        return self.gateway.bind

    @property
    def serving(self) -> bool:
        """Whether the host still takes connections."""
        server = self.gateway._server
        return server is not None and server.is_serving()

    @property
    def fingerprint(self) -> str:
        """The host identity's fingerprint (64 hex characters)."""
        return self.identity.fingerprint

    def address(self, where: str | None = None) -> str:
        """``uno://HOST:PORT#FP``: what players type to join, the host's key fingerprint included."""
        bind = self.bind
        host = where or (bind if bind not in (None, "0.0.0.0", "::", "") else "127.0.0.1")
        if ":" in str(host) and not str(host).startswith("["):
            host = f"[{host}]"
        return f"uno://{host}:{self.port}#{self.identity.fingerprint[:FP_ADDRESS]}"

    def lobby_message(self) -> dict[str, Any]:
        return self.table.lobby_message()

    def snapshot(self) -> Parts:
        return self.table.snapshot()

    # -- the lobby and the rounds, driven by the host's own player or the headless command ---------
    def reserve_seat(self, name: str) -> str:
        """Hold the first open seat for the interactive host's own player.

        Returns the seat's resume token: the host's own client joins with it
        (over loopback, like everyone else) and so can always take it back.
        """
        return self.table.reserve_seat(name)

    def set_bot(self, index: int, level: str | None = None) -> None:
        """Give an open seat to a bot (in the lobby)."""
        self.table.set_bot(index, level)

    def fill_with_bots(self) -> None:
        self.table.fill_with_bots()

    def can_start(self) -> bool:
        return self.table.can_start()

    def start_game(self) -> None:
        """Deal the first round (see :meth:`net.table.Table.start_game`)."""
        self.table.start_game()

    def next_round(self) -> None:
        self.table.next_round()

    def rematch(self) -> None:
        self.table.rematch()

    def say(self, text: str, *, sender: str | None = None, seat: int | None = None) -> None:
        """Send a chat line to everyone (the interactive host's own lines go through here too)."""
        self.table.say(text, sender=sender, seat=seat)

