"""The table's rounds: a match dealt, each round dealt after the last one's verdicts, closed, ended.

A part of :class:`net.table.Table` (its base): the state it reads is the table's.
Every shuffle a deal needs is settled with the players first (:mod:`net.dealer`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Callable

import core

from .outbox import Update
from .record import Record

if TYPE_CHECKING:
    from core import Event

    from .autoplay import Autoplay
    from .dealer import Dealer
    from .tablelog import TableLog
    from .outbox import Outbox
    from .persistence import Store
    from .seats import HostConfig, Seat

log = logging.getLogger("net.rounds")

SELF_AUDIT_DELAY = 0.05
"""Seconds the host's audit of a round waits after the round's closing entries (see :meth:`Rounds.close_round`)."""
SourceFactory = Callable[[bytes], core.DeckSource]


class Rounds:
    """Dealing, closing and ending rounds and matches."""

    config: HostConfig
    outbox: Outbox
    options: dict[str, Any]
    source_factory: SourceFactory | None
    game: core.Game | None
    record: Record | None
    dealer: Dealer | None
    phase: str
    dealing: bool
    rounds_played: int
    match: int
    end_reason: str | None
    ended: dict[str, Any] | None
    told_end: set[int]
    round_events: list[Event]
    finished: asyncio.Event
    autoplay: Autoplay
    store: Store
    _close_due: bool
    _close_handle: asyncio.TimerHandle | None
    _round_handle: asyncio.TimerHandle | None
    _ending: asyncio.Task[Any] | None
    _rematch_due: bool

    if TYPE_CHECKING:  # the table's (see net.lobby and net.table)
        @property
        def seats(self) -> list[Seat]: ...

        def emit(self, kind: str, data: dict[str, Any]) -> None: ...

        def broadcast_lobby(self) -> None: ...

        def lobby_message(self) -> dict[str, Any]: ...

        def can_start(self) -> bool: ...

        def arm_timer(self) -> None: ...

        def _spawn(self, coro: Any) -> asyncio.Task[Any]: ...

        def _make_dealer(self, *, game_id: bytes | None = None, log: TableLog | None = None) -> Dealer: ...

    def start_game(self) -> None:
        """Deal the first round. Every seat must be taken (by a person or a bot).

        The deal needs the players' seeds, so it completes a few round trips
        later (``phase`` turns ``"playing"`` then); this returns at once.
        """
        if not self.can_start():
            raise ValueError("every seat needs a player or a bot before the game starts")
        self._new_match()

    def next_round(self) -> None:
        """Deal the match's next round (after a round is over); completes as :meth:`start_game` does."""
        if self.phase != "round_over" or self.game is None or self.dealing:
            raise ValueError("the next round can be dealt only once a round is over")
        self._round_handle = None
        self.dealing = True
        self._spawn(self._deal(first=False))

    def rematch(self) -> None:
        """A fresh match with the same seats (after a round or the match is over)."""
        if self.phase not in ("round_over", "finished") or self.game is None or self.dealing:
            raise ValueError("a rematch can start only after a round")
        if self._ending is not None and not self._ending.done():
            # The last round's verdicts are still coming in: the rematch begins once they are
            # in (a host who presses "r" at once need not press it again).
            if not self._rematch_due:
                self._rematch_due = True
                self._ending.add_done_callback(lambda _task: self._rematch_when_ended())
            return
        self.match += 1
        self.rounds_played = 0
        self.end_reason = None
        self.finished.clear()
        self._new_match()

    def _rematch_when_ended(self) -> None:
        self._rematch_due = False
        if self.phase in ("round_over", "finished") and self.game is not None and not self.dealing:
            self.rematch()

    def _new_match(self) -> None:
        self.ended = None
        self.told_end = set()
        self.dealing = True
        self._spawn(self._deal(first=True))

    async def _deal(self, first: bool) -> None:
        try:
            await self._deal_inner(first)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("dealing failed")
        finally:
            self.dealing = False

    async def _deal_inner(self, first: bool) -> None:
        self.close_round()  # the last round's closing entries come before anything of the next
        self.store.save_if_due()  # the round as it ended, before the deal changes the game
        if not first and self.dealer is not None and self.game is not None:
            await self.dealer.collect_verdicts(self.game.round)  # every person's word on the last round first
        if first:
            self.store.run_self_audit()  # before a new match's dealer takes over the log
        # Otherwise the host's audit of the last round keeps its time (see close_round): the
        # players commit to the new deck only after their own audits, so the host is idle then.
        cfg = self.config
        names = [s.name for s in self.seats]
        if first:
            seed = cfg.seed if self.match == 0 or cfg.seed is None else f"{cfg.seed}:match{self.match}"
            seed_b = core.source.seed_bytes(seed)
            for seat in self.seats:  # a new match: nobody is struck; whoever is not here is away from the start
                if seat.kind == "human":
                    seat.benched = False
                    seat.stand_in = seat.peer is None
            if self.source_factory is None:
                old = self.dealer
                self.dealer = self._make_dealer(log=old.log if old is not None else None)
                if old is None:
                    self.store.attach_log_writers(self.dealer)
                else:
                    self.dealer.listeners = old.listeners
                self.dealer.start_match(cfg.variant, self.options, self.dealer.clocks(cfg))
                source: core.DeckSource = self.dealer.source
            else:
                self.dealer = None
                source = self.source_factory(seed_b)
        dealer = self.dealer
        if dealer is not None:
            dealer.start_round(self.game.round + 1 if not first and self.game is not None else 0)
        # Every shuffle the deal needs is settled with the players first (see net.dealer).
        if first:
            settled: list[tuple[core.Chance, list[Any]]] = []
            if dealer is not None:
                while (c := core.chance_for_new_game(cfg.variant, names, options=self.options,
                                                     settled=settled)) is not None:
                    settled.append((c, await dealer.settle(c)))
            game = core.new_game(cfg.variant, names, seed=seed_b, options=self.options, source=source,
                                 settled=settled)
            events = game.deal_events
        else:
            game = self.game
            assert game is not None
            if dealer is not None:
                while (c := game.chance_for_next_round()) is not None:
                    game.settle(c, await dealer.settle(c))
            events = game.next_round()
        if first:
            self.game = game
            self.record = Record(cfg.variant, names, game.options, seed_b)
            self.autoplay.new_match(f"{seed_b.hex()}:{self.match}")
        assert self.record is not None
        self.record.start_round(game.round)
        self._record_orders()
        self.phase = "playing"
        self.autoplay.tell(events)
        public = [e.view(None).to_dict() for e in events]
        if self.dealer is not None:
            self.dealer.record_step(game, None, None, False, None, events, None, public)
        self.store.save_soon()  # as after a move: saved before it is sent (see Store.save_soon)
        self.broadcast_lobby()
        self._tell(Update(events, public))
        if first:
            self.emit("start", {"names": names})
        self.arm_timer()
        self.autoplay.kick()

    def _tell(self, update: Update) -> None:
        """Send everyone ``update`` (the round's events so far grow by its events)."""
        if any(e.kind == "deal" for e in update.events):
            self.round_events = []
        self.round_events.extend(update.events)
        self.outbox.update(update)

    def _record_orders(self) -> None:
        if self.dealer is not None and self.record is not None:
            for e, sec in self.dealer.secrets.items():
                if e not in self.record.orders and sec.order:
                    self.record.orders[e] = list(self.dealer.order_for(sec))

    def _schedule_next_round(self) -> None:
        loop = asyncio.get_running_loop()
        self._round_handle = loop.call_later(self.config.round_pause, self._auto_next_round)

    def _auto_next_round(self) -> None:
        if self.phase == "round_over":
            self.next_round()

    def close_round(self) -> None:
        """The closing log entries of the round just over, if still due: its scores and every slot of its decks opened.

        They are a few KB for every peer, and every peer takes them in; sent
        right behind the round's last update they competed with it on a
        machine running several players. So they follow it by
        :data:`net.table.CLOSE_DELAY` (at once when the match is over). Nothing of the
        next round enters the log before them: the next deal (or closing the
        host) runs this first. Then the host's own audit of the round (tens of
        ms) waits :data:`SELF_AUDIT_DELAY` more; it reads the log only up to
        the round's end, so the next round may begin meanwhile.
        """
        if self._close_handle is not None:
            self._close_handle.cancel()
            self._close_handle = None
        if not self._close_due:
            return
        self._close_due = False
        game, dealer = self.game, self.dealer
        if game is None or dealer is None:
            return
        dealer.close_round(game)
        self.store.save_soon()
        self.store.audit_later(game.round, dealer, SELF_AUDIT_DELAY if self.phase != "finished" else None)

    def _round_over(self, lobby: dict[str, Any]) -> None:
        """What follows a round's last move (``lobby``: the lobby message already sent for it)."""
        game = self.game
        assert game is not None
        self.autoplay.cancel_timer()
        if self.dealer is not None and self.phase == "finished":
            self.store.run_self_audit()  # the round was closed at once (see applied)
        self.emit("round_over", {"round": game.round, "winner": game.winner, "points": game.last_points,
                                 "scores": list(game.scores), "names": list(game.names)})
        self.emit("lobby", lobby)
        if self.phase == "finished":
            if self.dealer is not None:  # the last round's verdicts reach the table before the end
                self._ending = self._spawn(self._end_after_verdicts(game.round))
            else:
                self._end()
        elif self.config.auto_next:
            self._schedule_next_round()

    async def _end_after_verdicts(self, r: int) -> None:
        try:
            assert self.dealer is not None
            await self.dealer.collect_verdicts(r)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("collecting the last verdicts failed")
        self._end()

    def _end(self) -> None:
        """Tell everyone the match is over (the host closes after it)."""
        game = self.game
        assert game is not None
        self.ended = {"type": "end", "reason": self.end_reason or "match_over",
                      "scores": list(game.scores), "winner": game.match_winner}
        self.told_end |= {s.index for s in self.seats if s.peer is not None}
        self.outbox.broadcast(self.ended)
        self.emit("end", {"reason": self.end_reason, "scores": list(game.scores),
                          "winner": game.match_winner, "names": list(game.names)})
        self.finished.set()

