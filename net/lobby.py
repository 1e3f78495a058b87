"""The table's lobby and its people: seats taken and given to bots, ready, chat, coming and going.

A part of :class:`net.table.Table` (its base): the state it reads is the table's.
"""

from __future__ import annotations

import contextlib
import secrets
from typing import TYPE_CHECKING, Any

from . import messages
from .identity import FP_ADDRESS
from .seats import BOT_NAMES, Seat, unique_name

if TYPE_CHECKING:
    import core

    from .autoplay import Autoplay
    from .dealer import Dealer
    from .identity import Identity
    from .outbox import Outbox
    from .persistence import Store
    from .seats import HostConfig, Roster


class Lobby:
    """Who sits where, and who is here: the table's seats before and during a match."""

    config: HostConfig
    identity: Identity
    outbox: Outbox
    roster: Roster
    options: dict[str, Any]
    game: core.Game | None
    dealer: Dealer | None
    phase: str
    dealing: bool
    rounds_played: int
    spectators: int
    ended: dict[str, Any] | None
    autoplay: Autoplay
    store: Store

    @property
    def seats(self) -> list[Seat]:
        return self.roster.seats

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        self.outbox.emit(kind, data)

    if TYPE_CHECKING:  # the table's (see net.rounds and net.table)
        def start_game(self) -> None: ...

        def arm_timer(self) -> None: ...

    def lobby_message(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "type": "lobby", "phase": self.phase, "host": cfg.name, "variant": cfg.variant,
            "options": dict(self.game.options if self.game else self.options),
            "seats": [s.public() for s in self.seats],
            "spectators": self.spectators,
            "rounds": cfg.rounds, "rounds_played": self.rounds_played,
            "turn_timer": cfg.turn_timer, "grace": cfg.grace, "password": cfg.password is not None,
            "fp": self.identity.fingerprint[:FP_ADDRESS],
        }

    def broadcast_lobby(self) -> None:
        msg = self.lobby_message()
        self.outbox.broadcast(msg)
        self.outbox.emit("lobby", msg)

    def names(self) -> list[str]:
        return [s.name for s in self.seats if s.kind != "open"]

    def reserve_seat(self, name: str) -> str:
        """Hold the first open seat for the interactive host's own player; returns its resume token."""
        for seat in self.seats:
            if seat.kind == "open":
                seat.kind, seat.reserved = "human", True
                seat.name = unique_name(messages.clean_text(name, messages.MAX_NAME) or "Host", self.names())
                seat.token = secrets.token_urlsafe(24)
                seat.identity = self.identity.public
                self.broadcast_lobby()
                return seat.token
        raise ValueError("no open seat to reserve")

    def set_bot(self, index: int, level: str | None = None) -> None:
        """Give an open seat to a bot (in the lobby)."""
        seat = self.seats[index]
        if self.phase != "lobby" or seat.kind != "open":
            raise ValueError("only an open seat in the lobby can be given to a bot")
        used = {s.name for s in self.seats}
        seat.kind, seat.ready, seat.level = "bot", True, level or self.config.bot_level
        seat.name = next((n for n in BOT_NAMES if n not in used), unique_name("Bot", self.names()))
        self.broadcast_lobby()
        self.maybe_autostart()

    def fill_with_bots(self) -> None:
        for seat in self.seats:
            if seat.kind == "open":
                self.set_bot(seat.index)

    def sit(self, name: str, identity: bytes | None) -> Seat | None:
        """A newcomer takes the first open seat in the lobby (None: none is open)."""
        seat = next((s for s in self.seats if s.kind == "open"), None)
        if seat is None:
            return None
        seat.kind, seat.ready = "human", False
        seat.identity = identity
        seat.name = unique_name(name, self.names())
        seat.token = secrets.token_urlsafe(24)
        return seat

    def ready(self, seat: int, ready: bool) -> None:
        self.seats[seat].ready = ready
        self.broadcast_lobby()
        self.maybe_autostart()

    def say(self, text: str, *, sender: str | None = None, seat: int | None = None) -> None:
        """Send a chat line to everyone (the interactive host's own lines go through here too)."""
        msg = {"type": "chat", "from": sender if sender is not None else self.config.name, "seat": seat,
               "text": messages.clean_text(text, messages.MAX_CHAT)}
        self.outbox.broadcast(msg)
        self.outbox.emit("chat", msg)

    def can_start(self) -> bool:
        return self.phase == "lobby" and not self.dealing and all(s.kind != "open" for s in self.seats)

    def maybe_autostart(self) -> None:
        if not (self.config.auto_start and self.can_start()):
            return
        if all(s.kind == "bot" or (s.peer is not None and s.ready) for s in self.seats):
            self.start_game()

    # -- people coming and going -------------------------------------------------------------------
    @property
    def in_match(self) -> bool:
        """A match's log is open: from its first deal on (seats are fixed then) until ``end`` is sent
        (after the last round's verdicts)."""
        return self.dealer is not None and (self.phase in ("playing", "round_over") or self.dealing
                                            or self.phase == "finished" and self.ended is None)

    def back(self, seat: Seat) -> None:
        """The person of ``seat`` is connected (again): a bot standing in for them steps aside."""
        if seat.stand_in and not seat.benched:
            seat.stand_in = False
            if self.in_match:
                assert self.dealer is not None
                self.dealer.append("back", seat=seat.index)  # in the seed exchange again, played by its person
            self.arm_timer()
        self.roster.changed()

    def left(self, seat: Seat) -> bool:
        """The person of ``seat`` dropped: their seat opens again in the lobby; True if it waits for them."""
        if self.phase == "lobby" and not seat.reserved and not self.dealing:
            seat.kind, seat.name, seat.token, seat.ready = "open", "", None, False
            return False
        return self.in_match  # (not once the match is over: nothing is waiting for them then)

    def stand_in(self, index: int) -> None:
        """The grace period of an away person ran out: a bot plays for them until they return."""
        seat = self.seats[index]
        if seat.kind == "human" and seat.peer is None and self.in_match and not seat.stand_in:
            seat.stand_in = True
            assert self.dealer is not None
            # The log shows it: the seat leaves the seed exchange and a bot's moves for it are 'away'.
            self.dealer.append("away", seat=index)
            self.emit("stand_in", {"seat": index, "name": seat.name})
            self.broadcast_lobby()
            self.roster.changed()

    def _benched(self, seat: int) -> None:
        self.broadcast_lobby()
        self.roster.changed()

    def _people_changed(self) -> None:
        """A person came, went away past the grace period, or was benched: the bots may now play a seat
        (or no longer)."""
        if self.phase == "playing":
            with contextlib.suppress(RuntimeError):  # no loop: nothing is being played
                self.arm_timer()
                self.autoplay.kick()

    def _logged(self, e: bytes, sig: bytes) -> None:
        """A log entry was appended: the save that follows counts it."""
        if self.game is not None:
            with contextlib.suppress(RuntimeError):  # no loop: nothing is saved outside a running table
                self.store.save_soon()

