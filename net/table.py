"""The host's table: one authoritative :class:`core.Game`, its seats, dealer, record, bots and rounds.

It knows nothing of sockets. It is told what people do (an intent, a chat line,
ready, coming and going: by the gateway, :mod:`net.gateway`) and says what
happens through the :class:`~net.outbox.Outbox` it is given: to a seat, to
everyone, an update of the state, a fault, news for the host's listeners.
Applying an intent never awaits, so intents take effect in the order they
arrive: that settles races for out-of-turn actions such as catching a
missed UNO. A move that needs a shuffle waits until the dealer
(:mod:`net.dealer`) has settled it with the players; what arrives meanwhile
follows it in arrival order.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Callable

import core
from core import Action, Event, IllegalAction
from core.bots import make_bot

from . import messages
from .autoplay import Autoplay
from .dealer import Dealer
from .commitments import unpack
from .tablelog import TableLog
from .identity import Identity
from .lobby import Lobby
from .outbox import Outbox, Update
from .persistence import Store, read_log_file
from .record import Record
from .save import Parts
from .rounds import Rounds, SourceFactory
from .seats import BOT_NAMES, HostConfig, Roster, Seat

log = logging.getLogger("net.table")

CLOSE_DELAY = 0.02
"""Seconds from a round's last update to its closing log entries (see :meth:`Rounds.close_round`)."""


@dataclass(frozen=True)
class Intent:
    """A seated player's move, as signed: decoded, checked and made an :class:`Action` once, on arrival."""

    seat: int
    seq: int
    version: int
    action: Action
    signed: tuple[bytes, bytes]
    """The signed message ``(m, sig)`` (the log keeps it as the move's evidence)."""


class Table(Lobby, Rounds):
    """The table of one host: its game, seats, dealer, record, bots, timers and rounds.

    ``source_factory`` (turning the game's seed into a deck source) replaces
    the fair deal with an unchecked source (tools only); ``dealer_class`` names
    the dealer each match gets (the fairness tests' dishonest ones).
    """

    dealer_class: type[Dealer] = Dealer

    def __init__(self, config: HostConfig, outbox: Outbox, *, identity: Identity,
                 source_factory: SourceFactory | None = None, dealer_class: type[Dealer] | None = None) -> None:
        cls = core.variant_class(config.variant)  # ValueError names the known variants
        if not cls.min_players <= config.seats <= min(cls.max_players, messages.MAX_SEATS):
            raise ValueError(f"{config.variant} is for {cls.min_players} to {cls.max_players} players")
        if not 0 <= config.bots <= config.seats:
            raise ValueError("--bots must be between 0 and the number of seats")
        self.options = cls.check_options(dict(config.options))
        make_bot(config.bot_level)  # fail now, not mid-game, on an unknown level
        self.config = config
        self.outbox = outbox
        self.identity = identity
        self.source_factory = source_factory
        if dealer_class is not None:
            self.dealer_class = dealer_class
        seats = [Seat(i, level=config.bot_level) for i in range(config.seats)]
        for k, seat in enumerate(seats[config.seats - config.bots:]):
            seat.kind, seat.name, seat.ready = "bot", BOT_NAMES[k % len(BOT_NAMES)], True
        self.roster = Roster(seats)
        self.roster.listeners.append(self._people_changed)
        self.dealer: Dealer | None = None
        self.game: core.Game | None = None
        self.record: Record | None = None
        self.phase = "lobby"
        self.rounds_played = 0
        self.match = 0
        self.end_reason: str | None = None
        self.spectators = 0
        """Spectators watching (the gateway counts them; the lobby shows it)."""
        self.settling = False
        """An epoch of the fair deal is being settled: moves wait for it (see :meth:`try_apply`)."""
        self._backlog: list[Callable[[], None]] = []
        self.dealing = False
        self.round_events: list[Event] = []
        """The current round's events so far, the deal first (a peer joining mid-round is told them)."""
        self.ended: dict[str, Any] | None = None
        """The ``end`` message once the match is over (a seat that was away then gets it when it comes back)."""
        self.told_end: set[int] = set()
        self.store = Store(save_path=config.save_path, transcript_dir=config.transcript_dir, identity=identity,
                           snapshot=self.snapshot, emit=outbox.emit)
        self.autoplay = Autoplay(self)
        self.saved_port: int | None = None
        """The port of the host whose save was resumed (clients reconnect to it)."""
        self._pre_color: str | None = None
        self._close_due = False
        """A round is over and its closing log entries are still to come (see :meth:`close_round`)."""
        self._close_handle: asyncio.TimerHandle | None = None
        self._round_handle: asyncio.TimerHandle | None = None
        self._ending: asyncio.Task[Any] | None = None
        self._rematch_due = False
        """A rematch was asked for while the last round's verdicts were still coming in."""
        self._tasks: set[asyncio.Task[Any]] = set()
        self._config_cache: tuple[str, dict[str, Any]] | None = None
        self.finished = asyncio.Event()
        """Set when the match (or the set number of rounds) is over, or the table closes."""

    # -- resuming a save -------------------------------------------------------------------------
    def load(self, data: dict[str, Any]) -> None:
        """Take up the game saved as ``data`` (see :mod:`net.save`)."""
        save_path = self.config.save_path
        self.roster.seats = [Seat.from_save(i, s) for i, s in enumerate(data["seats"])]
        seed = bytes(data["game"]["seed"])
        source = self.source_factory(seed) if self.source_factory else None
        fair = data.get("fair")
        if fair is not None and source is None:
            assert save_path is not None
            dealer = self._make_dealer(game_id=bytes(fair["g"]))
            dealer.log = TableLog(self.identity, read_log_file(save_path + ".log", int(fair["log_len"])))
            dealer.restore(fair)
            self.dealer = dealer
            self.store.attach_log_writers(dealer)
            source = dealer.source
        self.game = core.Game.from_dict(data["game"], source=source)
        self.record = Record.from_dict(data["record"])
        self.phase = data["phase"]
        self.match = data.get("match", 0)
        self.autoplay.new_match(f"{self.record.seed.hex()}:{self.match}")
        if self.dealer is not None and self.phase == "round_over" and self.dealer.closed != self.game.round:
            self._close_due = True  # saved between the round's last move and its closing entries
        self.rounds_played = data["rounds_played"]
        self.saved_port = data.get("port")

    def resumed(self) -> None:
        """A resumed table begins again (everyone is away until they reconnect: the gateway marks them).

        Its log first calls off the attempt at an epoch the crash cut short, and
        states clocks other than the match's (the log's rules read them).
        """
        dealer = self.dealer
        if dealer is not None:
            dealer.call_off()
            clocks = dealer.clocks(self.config)
            last: dict[str, Any] | None = None
            for e, _sig in reversed(dealer.log.entries):
                d = unpack(e)
                if d.get("k") in ("match", "settings"):
                    last = {k: d.get(k) for k in clocks}
                    break
            if last is not None and last != clocks:
                dealer.append("settings", **clocks)
        if self.phase == "playing":
            self.arm_timer()
            self.autoplay.kick()
        elif self.phase == "round_over":
            if self._close_due:
                self._close_handle = asyncio.get_running_loop().call_later(CLOSE_DELAY, self.close_round)
            if self.config.auto_next:
                self._schedule_next_round()

    def _make_dealer(self, *, game_id: bytes | None = None, log: TableLog | None = None) -> Dealer:
        dealer = self.dealer_class(self.outbox, self.identity, self.roster, timeout=self.config.fair_timeout,
                                   game_id=game_id, log=log)
        dealer.on_bench = self._benched
        dealer.listeners.append(self._logged)
        return dealer

    def close(self) -> None:
        """Stop everything the table runs (the host is closing): the last round closed, saved, audited."""
        self.close_round()
        self.store.run_self_audit()
        self.store.save_if_due()
        for handle in (self._round_handle,):
            if handle is not None:
                handle.cancel()
        self.autoplay.close()
        for task in list(self._tasks):
            task.cancel()
        self.finished.set()
        self.store.close()

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- moves ---------------------------------------------------------------------------------
    def signed(self, seat: int, key: bytes | None, m: bytes, sig: bytes, d: dict[str, Any],
               action: Action | None) -> None:
        """A message the person in ``seat`` signed (``m`` decoded and checked as ``d``; ``action``: an
        intent's, made once): an intent, or a step of the fair deal, a receipt, a verdict."""
        dealer = self.dealer
        if dealer is None:
            self.outbox.fault(seat, "not_playing", "there is no game to sign messages for")
            return
        failure = dealer.check_signed(seat, key, m, sig, d)
        if action is None:
            if failure is None:
                dealer.on_signed(seat, m, sig, d)
            elif failure[0] == "head":
                dealer.refuse(seat, "head", failure[1], (m, sig))
            else:
                self.outbox.fault(seat, *failure)
            return
        if failure is not None:
            code, reason = failure
            if code == "head":  # built on a log this host never had (a restart raced it): decide again
                code = "stale"
            self._reject(seat, d["seq"], code, reason)
            if code != "stale":
                self.outbox.fault(seat, code, reason)
            elif self.game is not None:
                self.outbox.update(Update(only=seat))
            return
        self.intent(Intent(seat, d["seq"], d["v"], action, (m, sig)))

    def _reject(self, seat: int, seq: int, code: str, reason: str) -> None:
        self.outbox.send(seat, {"type": "reject", "seq": seq, "version": self.game.version if self.game else 0,
                                "code": code, "reason": reason})

    def intent(self, intent: Intent) -> None:
        """A person's move, signed and checked already (see :meth:`signed`): applied, or rejected."""
        if self.settling:  # the deal protocol is settling an epoch: in arrival order, after it
            self._backlog.append(lambda: self.intent(intent))
            return
        game, p = self.game, intent.seat
        if game is None or self.phase != "playing":
            self._reject(p, intent.seq, "not_playing", "no round is being played now")
            return
        if intent.version > game.version:
            self._reject(p, intent.seq, "bad_version",
                         f"state version {intent.version} does not exist yet (now {game.version})")
            self.outbox.fault(p, "bad_version", "an intent quoting a state version from the future")
            return
        if self.seats[p].benched:
            self._reject(p, intent.seq, "benched", "this seat was given to a bot after two missed deadlines of the deal")
            return
        try:
            messages.check_card(intent.action, len(game.cards))
        except ValueError as e:
            self._reject(p, intent.seq, "illegal", str(e))
            self.outbox.fault(p, "bad_action", str(e))
            return
        try:
            events = self.try_apply(p, intent.action, lambda: self.intent(intent))
        except IllegalAction as e:
            # A stale intent still legal went through above; this one is not.
            self._reject(p, intent.seq, "stale" if intent.version < game.version else "illegal", str(e))
            self.outbox.update(Update(only=p))
            return
        if events is None:
            return
        self.applied(p, intent.action, events, auto=False, cause=p, seq=intent.seq, intent=intent.signed)

    def try_apply(self, p: int, action: Action, retry: Callable[[], None]) -> list[Event] | None:
        """Apply; if the move needs a shuffle not settled yet, settle it first, then call ``retry``.

        The move is asked about first (:meth:`core.Game.chance_for`, on a copy of the
        game): an illegal one raises :class:`IllegalAction` there, and so does one the
        rules fail on (a bug), with the game untouched either way.
        """
        game = self.game
        assert game is not None
        self.store.save_if_due()  # the move before this one is on disk before this one is made
        # The colour a challengeable play is judged against, asked before it is applied (and only
        # of a legal action: the rules see nothing they would refuse).
        self._pre_color = game.judged_color(p, action) if action in game.legal_actions(p) else None
        if self.dealer is None:
            return game.apply(p, action)
        try:
            chance = game.chance_for(p, action)
        except IllegalAction:
            raise
        except Exception as e:  # a bug the action found in the rules: the game as it was, the action refused
            log.exception("the rules failed on seat %d's %s", p, action)
            raise IllegalAction(f"the rules could not take this action ({type(e).__name__})") from None
        if chance is not None:
            self._stall(chance, retry)
            return None
        return game.apply(p, action)

    def _stall(self, chance: core.Chance, retry: Callable[[], None]) -> None:
        """Hold play while ``chance`` is settled; ``retry`` (the move that needs it) goes first after it."""
        self.settling = True
        self._backlog.insert(0, retry)
        self._spawn(self._settle(chance))

    async def _settle(self, chance: core.Chance) -> None:
        assert self.dealer is not None and self.game is not None
        try:
            order = await self.dealer.settle(chance)
            self.game.settle(chance, order)
        except asyncio.CancelledError:
            self._backlog.clear()  # the host is closing
            raise
        finally:
            self.settling = False
        # What waited, in arrival order (a move may need another shuffle: it stalls again, first).
        while self._backlog and not self.settling:
            call = self._backlog.pop(0)
            try:
                call()
            except Exception:
                log.exception("a held-back action failed")
        if not self.settling:
            self.arm_timer()
            self.autoplay.kick()

    def arm_timer(self) -> None:
        """The turn timer runs for whoever the game now waits on (see :meth:`net.autoplay.Autoplay.arm_timer`)."""
        self.autoplay.arm_timer()

    def applied(self, p: int, action: Action, events: list[Event], *, auto: bool, cause: int | None = None,
                seq: int | None = None, intent: tuple[bytes, bytes] | None = None, why: str | None = None) -> None:
        """``why``: the reason of a move the host made for a person (``timer``, ``away``, ``bench``)."""
        game, record = self.game, self.record
        assert game is not None and record is not None
        record.add(p, action, auto)
        self.autoplay.tell(events)
        public = [e.view(None).to_dict() for e in events]  # the events as everyone sees them
        if self.dealer is not None:
            self._record_orders()
            self.dealer.record_step(game, p, action, auto, intent, events, self._pre_color, public, why)
        if game.over:
            self.phase = "round_over"
            self.rounds_played += 1
            record.end_round(game.winner, game.last_points)
            rounds = self.config.rounds
            if game.match_over or (rounds is not None and self.rounds_played >= rounds):
                self.phase = "finished"
                self.end_reason = "match_over" if game.match_over else "rounds_done"
        # Saved before it is sent (write-ahead: see Store.save_soon).
        lobby: dict[str, Any] | None = None
        if game.over:  # the lobby's new phase goes in the same write as the round's last update
            lobby = self.lobby_message()
        self.store.save_soon()
        self._tell(Update(events, public, actor=p, auto=auto, cause=cause, seq=seq, then=lobby))
        if lobby is not None and self.dealer is not None:
            self._close_due = True
            if self.phase == "finished":
                self.close_round()  # the end of the match follows at once
            else:
                self._close_handle = asyncio.get_running_loop().call_later(CLOSE_DELAY, self.close_round)
        self.store.save_soon()
        if lobby is not None:
            self._round_over(lobby)
        else:
            self.arm_timer()
            self.autoplay.kick()

    # -- views and the save ----------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """The table as everyone sees it now (:meth:`core.Game.public_observation`; a test double lies here)."""
        assert self.game is not None
        return self.game.public_observation()

    def private_view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` alone sees now: its hand and choices (:meth:`core.Game.private_observation`)."""
        assert self.game is not None
        return self.game.private_observation(seat)

    def snapshot(self) -> Parts:
        """The save's content (see :mod:`net.save`); parts that cannot change any more come packed already."""
        assert self.game is not None and self.record is not None
        fair = self.dealer.to_save() if self.dealer is not None else None
        return Parts({
            "config": self._config_dict(), "seats": [s.to_save() for s in self.seats],
            "game": self.game.to_dict(), "record": self.record.to_save(), "phase": self.phase,
            "rounds_played": self.rounds_played, "match": self.match, "port": self.port,
            "fair": Parts(fair) if fair is not None else None,
        })

    port: int | None = None
    """The port the table is reached on (the save keeps it, so a resumed host listens there again)."""

    def _config_dict(self) -> dict[str, Any]:
        # asdict() is slow and the settings rarely change: rebuild only when they have.
        key = repr(self.config)
        if self._config_cache is None or self._config_cache[0] != key:
            self._config_cache = (key, self.config.to_dict())
        return self._config_cache[1]
