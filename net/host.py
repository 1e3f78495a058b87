"""The host: one authoritative :class:`core.Game`, its seats, the lobby and every link.

Peers send intents; the host checks each against ``legal_actions`` (through
:meth:`core.Game.apply`), applies it, saves, and sends every peer its own
observation and the events as that peer may see them
(:meth:`core.Event.view`). Everything runs on one asyncio loop and applying
an intent never awaits, so intents take effect in the order they arrive:
that settles races for out-of-turn actions such as catching a missed UNO.

Seats are open, a person's, or a bot's. A person who drops is *away*: their
seat and hand wait for them (their client quotes the seat's resume token),
and after the grace period a bot plays for them until they return. An
optional turn timer lets a bot play one turn for a person who does not act.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import math
from pathlib import Path

import msgpack
import logging
import secrets
import time
from typing import Any, Callable

import core
from core import Action, Event, IllegalAction
from core.bots import Bot, make_bot, tell_bots

from . import framing, messages, patch, secure
from .dealer import Dealer, NeedEpoch
from .fair import unpack
from .framing import MAX_FRAME_FROM_PEER
from .identity import FP_ADDRESS, Identity
from .messages import CLIENT_SCHEMAS, PROTOCOL_VERSION, MessageError
from .peer import Peer
from .record import Record
from .runtime import collect_when_idle
from .save import Parts, SaveWriter, read_save
from .seats import BOT_NAMES, HostConfig, Seat, unique_name
from .thinking import bot_settings
from .throttle import PasswordThrottle, Throttled
from .transcript import TranscriptWriter, default_transcript_dir

log = logging.getLogger("net.host")

Listener = Callable[[str, dict[str, Any]], None]

IDLE_DELAY = 0.005
"""Seconds without a move after which the host counts as idle (a moment for the garbage collector)."""
CLOSE_DELAY = 0.02
"""Seconds from a round's last update to its closing log entries (see ``Host._close_round``)."""
SELF_AUDIT_DELAY = 0.05
"""Seconds the host's audit of a round waits after the round's closing entries (see ``Host._close_round``)."""
HISTORY = 150
"""The round's latest events told to a peer joining mid-round (a frame from the host stays under 64 KiB)."""
SourceFactory = Callable[[bytes], core.DeckSource]


class Host:
    """The authoritative table. Create, ``await start()``, then ``await wait_finished()``.

    Every deck order comes from the commit-reveal protocol run with the
    connected players (:mod:`net.dealer`); ``source_factory`` (turning the
    game's seed into a deck source) replaces it with an unchecked source and
    is for tests and tools only. ``identity`` is the host's Ed25519 key
    (default: the user's, see :mod:`net.identity`).
    """

    def __init__(self, config: HostConfig, *, source_factory: SourceFactory | None = None,
                 identity: Identity | None = None) -> None:
        cls = core.variant_class(config.variant)  # ValueError names the known variants
        if not cls.min_players <= config.seats <= min(cls.max_players, messages.MAX_SEATS):
            raise ValueError(f"{config.variant} is for {cls.min_players} to {cls.max_players} players")
        if not 0 <= config.bots <= config.seats:
            raise ValueError("--bots must be between 0 and the number of seats")
        self.options = cls.check_options(dict(config.options))
        make_bot(config.bot_level)  # fail now, not mid-game, on an unknown level
        self.config = config
        self.source_factory = source_factory
        self.identity = identity or Identity.load()
        self.password_throttle = PasswordThrottle()
        """Slows down whoever guesses the password wrong, per address (see :mod:`net.throttle`)."""
        self.dealer: Dealer | None = None
        self.audits: list[dict[str, Any]] = []
        """The host's own audit of each round: ``{"round", "ok", "code", "reason"}``."""
        self._stalled = False
        self._backlog: list[Callable[[], None]] = []
        self._dealing = False
        self._transcript: TranscriptWriter | None = None
        self._log_file: Any = None
        self.seats = [Seat(i, level=config.bot_level) for i in range(config.seats)]
        for k, seat in enumerate(self.seats[config.seats - config.bots:]):
            seat.kind, seat.name, seat.ready = "bot", BOT_NAMES[k % len(BOT_NAMES)], True
        self.peers: set[Peer] = set()
        self.game: core.Game | None = None
        self.record: Record | None = None
        self.phase = "lobby"
        self.rounds_played = 0
        self.match = 0
        self.end_reason: str | None = None
        self.listeners: list[Listener] = []
        self.port: int | None = None
        self.bind: str | None = None
        self._bots: dict[int, Bot] = {}
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._driver: asyncio.Task[None] | None = None
        self._turn_handle: asyncio.TimerHandle | None = None
        self._turn_for: int | None = None
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._round_handle: asyncio.TimerHandle | None = None
        self._finished: asyncio.Event | None = None
        self._config_cache: tuple[str, dict[str, Any]] | None = None
        self._saver: SaveWriter | None = None
        self._audit_due: tuple[int, int] | None = None
        """(round, log length at its close) of the host's own audit still to run."""
        self._audit_handle: asyncio.TimerHandle | None = None
        self._save_due = False
        """A move was made and is not saved yet (see :meth:`_save_soon`)."""
        self._save_handle: asyncio.Handle | None = None
        self._log_queue: list[tuple[Callable[[bytes, bytes], None], bytes, bytes]] = []
        """Log entries to write to the save's side file and the transcript (see :meth:`_soon`)."""
        self._close_due = False
        """A round is over and its closing log entries are still to come (see :meth:`_close_round`)."""
        self._close_handle: asyncio.TimerHandle | None = None
        self._idle_handle: asyncio.TimerHandle | None = None
        self._last_public: dict[str, Any] | None = None
        """The public part of the last update broadcast (see :meth:`_view`)."""
        self.round_events: list[Event] = []
        """The current round's events so far, the deal first (a peer joining mid-round is told them)."""
        self._undo: tuple[int, dict[str, Any]] | None = None
        """(version, ``game.to_dict()``) taken by the last save: the next move's undo point."""
        self._people: asyncio.Event | None = None
        """Set when a person comes or goes (see :meth:`wait_for_people`)."""
        self._ending: asyncio.Task[Any] | None = None
        self._ended: bytes | None = None
        """The ``end`` frame once the match is over (a seat that was away then gets it when it comes back)."""
        self._told_end: set[int] = set()

    # -- life cycle ------------------------------------------------------------------
    @classmethod
    def resume(cls, save_path: str, *, source_factory: SourceFactory | None = None,
               **overrides: Any) -> "Host":
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
        host.seats = [Seat.from_save(i, s) for i, s in enumerate(data["seats"])]
        seed = bytes(data["game"]["seed"])
        source = source_factory(seed) if source_factory else None
        fair = data.get("fair")
        if fair is not None and source is None:
            host._restore_dealer(fair, str(save_path))
            assert host.dealer is not None
            source = host.dealer.source
        host.game = core.Game.from_dict(data["game"], source=source)
        host.record = Record.from_dict(data["record"])
        host.phase = data["phase"]
        if host.dealer is not None and host.phase == "round_over" and host.dealer.closed != host.game.round:
            host._close_due = True  # saved between the round's last move and its closing entries
        host.rounds_played = data["rounds_played"]
        host.match = data.get("match", 0)
        host.saved_port = data.get("port")
        return host

    saved_port: int | None = None
    """The port of the host whose save was resumed (clients reconnect to it)."""

    dealer_class: type[Dealer] = Dealer
    """The dealer each match gets: the dishonest hosts of the fairness tests name a subclass here."""

    @property
    def fingerprint(self) -> str:
        """The host identity's fingerprint (64 hex characters)."""
        return self.identity.fingerprint

    def address(self, where: str | None = None) -> str:
        """``uno://HOST:PORT#FP``: what players type to join, the host's key fingerprint included."""
        host = where or (self.bind if self.bind not in (None, "0.0.0.0", "::", "") else "127.0.0.1")
        if ":" in str(host) and not str(host).startswith("["):
            host = f"[{host}]"
        return f"uno://{host}:{self.port}#{self.identity.fingerprint[:FP_ADDRESS]}"

    def _restore_dealer(self, fair: dict[str, Any], save_path: str) -> None:
        dealer = self.dealer_class(self, self.identity, bytes(fair["g"]))
        entries = _read_log_file(save_path + ".log", int(fair["log_len"]))
        from .fair import TableLog

        dealer.log = TableLog(self.identity, entries)
        dealer.restore(fair)
        self.dealer = dealer
        self._attach_log_writers(truncate=True)

    def _resumed_log(self) -> None:
        """What a resumed host logs first: the attempt at an epoch its crash cut short is called off,
        and clocks other than the match's are stated (the log's rules read them)."""
        dealer = self.dealer
        if dealer is None:
            return
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

    async def start(self, bind: str = "0.0.0.0", port: int = 7777) -> tuple[str, int]:
        """Listen on ``bind:port`` (port 0 picks a free one); returns the address bound."""
        self._finished = asyncio.Event()
        self._server = await asyncio.start_server(self._on_connect, host=bind, port=port)
        sock = self._server.sockets[0].getsockname()
        self.bind, self.port = bind, sock[1]
        self._spawn(self._heartbeat_loop())
        if self.game is not None:  # resumed: everyone is away until they reconnect
            self._resumed_log()
            for seat in self.seats:
                if seat.kind == "human" and seat.peer is None and not seat.stand_in:
                    self._mark_away(seat)
            if self.phase == "playing":
                self._arm_turn_timer()
                self._kick()
            elif self.phase == "round_over":
                if self._close_due:
                    self._close_handle = asyncio.get_running_loop().call_later(CLOSE_DELAY, self._close_round)
                if self.config.auto_next:
                    self._schedule_next_round()
        return bind, self.port

    async def wait_finished(self) -> str | None:
        """Wait until the match (or the set number of rounds) is over; returns why."""
        assert self._finished is not None, "start() first"
        await self._finished.wait()
        return self.end_reason

    @property
    def finished(self) -> bool:
        return self.phase == "finished"

    async def close(self, reason: str = "the host is closing") -> None:
        """Close the table: every peer is told it is closed for good (``bye{closed: true}``) and let go."""
        self._close_round()
        self._run_self_audit()
        self._save_if_due()
        for handle in [self._turn_handle, self._round_handle, *self._grace.values()]:
            if handle is not None:
                handle.cancel()
        if self._server is not None:
            self._server.close()
        bye = framing.encode({"type": "bye", "reason": reason, "closed": True})
        for peer in list(self.peers):
            peer.send_frame(bye)
            peer.close(reason)
        for task in list(self._tasks) + ([self._driver] if self._driver else []):
            task.cancel()
        if self._server is not None:
            try:
                await asyncio.wait_for(self._server.wait_closed(), 2)
            except (asyncio.TimeoutError, Exception):
                pass
        if self._finished is not None:
            self._finished.set()
        self._write_logs()
        for f in (self._transcript, self._log_file, self._saver):
            if f is not None:
                with contextlib.suppress(Exception):
                    f.close()
        self._transcript = self._log_file = self._saver = None

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- the lobby, driven by the host's own player or the headless command -------------
    def reserve_seat(self, name: str) -> str:
        """Hold the first open seat for the interactive host's own player.

        Returns the seat's resume token: the host's own client joins with it
        (over loopback, like everyone else) and so can always take it back.
        """
        for seat in self.seats:
            if seat.kind == "open":
                seat.kind, seat.reserved = "human", True
                seat.name = unique_name(messages.clean_text(name, messages.MAX_NAME) or "Host", self._names())
                seat.token = secrets.token_urlsafe(24)
                seat.identity = self.identity.public
                self._broadcast_lobby()
                return seat.token
        raise ValueError("no open seat to reserve")

    def set_bot(self, index: int, level: str | None = None) -> None:
        """Give an open seat to a bot (in the lobby)."""
        seat = self.seats[index]
        if self.phase != "lobby" or seat.kind != "open":
            raise ValueError("only an open seat in the lobby can be given to a bot")
        used = {s.name for s in self.seats}
        seat.kind, seat.ready, seat.level = "bot", True, level or self.config.bot_level
        seat.name = next((n for n in BOT_NAMES if n not in used), unique_name("Bot", self._names()))
        self._broadcast_lobby()
        self._maybe_autostart()

    def fill_with_bots(self) -> None:
        for seat in self.seats:
            if seat.kind == "open":
                self.set_bot(seat.index)

    def can_start(self) -> bool:
        return self.phase == "lobby" and not self._dealing and all(s.kind != "open" for s in self.seats)

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
        if self.phase != "round_over" or self.game is None or self._dealing:
            raise ValueError("the next round can be dealt only once a round is over")
        self._round_handle = None
        self._dealing = True
        self._spawn(self._deal(first=False))

    def rematch(self) -> None:
        """A fresh match with the same seats (after a round or the match is over)."""
        if self.phase not in ("round_over", "finished") or self.game is None or self._dealing:
            raise ValueError("a rematch can start only after a round")
        if self._ending is not None and not self._ending.done():
            raise ValueError("the last round's verdicts are still coming in; a moment")
        self.match += 1
        self.rounds_played = 0
        self.end_reason = None
        if self._finished is not None:
            self._finished.clear()
        self._new_match()

    def _new_match(self) -> None:
        self._ended = None
        self._told_end = set()
        self._dealing = True
        self._spawn(self._deal(first=True))

    async def _deal(self, first: bool) -> None:
        try:
            await self._deal_inner(first)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("dealing failed")
        finally:
            self._dealing = False

    async def _deal_inner(self, first: bool) -> None:
        self._close_round()  # the last round's closing entries come before anything of the next
        self._save_if_due()  # the round as it ended, before the deal changes the game
        if not first and self.dealer is not None and self.game is not None:
            await self.dealer.collect_verdicts(self.game.round)  # every person's word on the last round first
        if first:
            self._run_self_audit()  # before a new match's dealer takes over the log
        # Otherwise the host's audit of the last round keeps its time (see _close_round): the
        # players commit to the new deck only after their own audits, so the host is idle then.
        cfg = self.config
        names = [s.name for s in self.seats]
        fair = self.source_factory is None
        if first:
            seed = cfg.seed if self.match == 0 or cfg.seed is None else f"{cfg.seed}:match{self.match}"
            seed_b = core.source.seed_bytes(seed)
            for seat in self.seats:  # a new match: nobody is struck; whoever is not here is away from the start
                if seat.kind == "human":
                    seat.benched = False
                    seat.stand_in = seat.peer is None
                    handle = self._grace.pop(seat.index, None)
                    if handle is not None:
                        handle.cancel()
            if fair:
                old = self.dealer
                self.dealer = self.dealer_class(self, self.identity, log=old.log if old is not None else None)
                if old is None:
                    self._attach_log_writers(truncate=True)
                else:
                    self.dealer.listeners = old.listeners
                self.dealer.start_match(self)
                source: core.DeckSource = self.dealer.source
            else:
                self.dealer = None
                source = self.source_factory(seed_b)  # type: ignore[misc]
        if self.dealer is not None:
            self.dealer.start_round(self.game.round + 1 if not first and self.game is not None else 0)
        while True:
            try:
                if first:
                    game = core.new_game(cfg.variant, names, seed=seed_b, options=self.options, source=source)
                    events = game.deal_events
                else:
                    assert self.game is not None
                    snap = self.game.to_dict()
                    events = self.game.next_round()
                    game = self.game
                break
            except NeedEpoch as need:
                if not first:
                    self._restore(snap)
                assert self.dealer is not None
                await self.dealer.run_epoch(need.epoch, need.items)
        if first:
            self.game = game
            self.record = Record(cfg.variant, names, game.options, seed_b)
            self._bots.clear()
        assert self.record is not None
        self.record.start_round(game.round)
        self._record_orders()
        self.phase = "playing"
        tell_bots(self._bots, events)
        public = [e.view(None).to_dict() for e in events]
        if self.dealer is not None:
            self.dealer.record_step(game, None, None, False, None, events, None, public)
        self._broadcast_lobby()
        self._broadcast_update(events, actor=None, auto=False, public=public)
        self._save_soon()  # as after a move: out first, saved before anything else changes the game
        if first:
            self._emit("start", {"names": names})
        self._arm_turn_timer()
        self._kick()

    def _restore(self, snap: dict[str, Any]) -> None:
        """Put the game back as it was before a call that needed an unsettled epoch."""
        game = self.game
        assert game is not None
        fresh = type(game).from_dict(snap, source=game.source)
        game.__dict__.clear()
        game.__dict__.update(fresh.__dict__)

    def _record_orders(self) -> None:
        if self.dealer is not None and self.record is not None:
            for e, sec in self.dealer.secrets.items():
                if e not in self.record.orders and sec.order:
                    self.record.orders[e] = list(self.dealer.order_for(sec))

    _pre_color: str | None = None

    def _try_apply(self, p: int, action: Action, retry: Callable[[], None]) -> list[Event] | None:
        """Apply; if the engine needs an epoch not settled yet, undo, settle it, then call ``retry``."""
        game = self.game
        assert game is not None
        self._save_if_due()  # the move before this one is on disk before this one is made
        # The colour a challengeable play is judged against, asked before it is applied (and only
        # of a legal action: the rules see nothing they would refuse).
        self._pre_color = game.judged_color(p, action) if action in game.legal_actions(p) else None
        if self.dealer is None:
            return game.apply(p, action)
        # The undo point, if an epoch must be settled first: the save after the last move took it.
        undo, self._undo = self._undo, None
        snap = undo[1] if undo is not None and undo[0] == game.version else game.to_dict()
        try:
            return game.apply(p, action)
        except NeedEpoch as need:
            self._restore(snap)
            self._stall(need, retry)
            return None
        except IllegalAction:
            raise
        except Exception as e:  # a bug the action found in the rules: the game as it was, the action refused
            log.exception("the rules failed on seat %d's %s", p, action)
            self._restore(snap)
            raise IllegalAction(f"the rules could not take this action ({type(e).__name__})") from None

    def _stall(self, need: NeedEpoch, retry: Callable[[], None]) -> None:
        self._stalled = True
        self._backlog.insert(0, retry)
        self._spawn(self._settle(need))

    async def _settle(self, need: NeedEpoch) -> None:
        assert self.dealer is not None
        try:
            await self.dealer.run_epoch(need.epoch, need.items)
        finally:
            self._stalled = False
            while self._backlog and not self._stalled:
                call = self._backlog.pop(0)
                try:
                    call()
                except Exception:
                    log.exception("a held-back action failed")
            if not self._stalled:
                self._arm_turn_timer()
                self._kick()

    def _maybe_autostart(self) -> None:
        if not (self.config.auto_start and self.can_start()):
            return
        if all(s.kind == "bot" or (s.peer is not None and s.ready) for s in self.seats):
            self.start_game()

    def _schedule_next_round(self) -> None:
        loop = asyncio.get_running_loop()
        self._round_handle = loop.call_later(self.config.round_pause, self._auto_next_round)

    def _auto_next_round(self) -> None:
        if self.phase == "round_over":
            self.next_round()

    # -- connections --------------------------------------------------------------------
    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = Peer(reader, writer, max_violations=self.config.max_violations)
        self.peers.add(peer)
        try:
            await self._serve(peer)
        except Exception:  # nothing a peer sends may take the host down
            log.exception("connection %s failed", peer)
        finally:
            if peer.handshake is not None:  # gone in the middle of a password exchange: a failed attempt
                peer.handshake.done(False)
            try:
                self._drop(peer)
            except Exception:
                log.exception("dropping %s failed", peer)

    async def _serve(self, peer: Peer) -> None:
        cfg = self.config
        while not peer.closed:
            idle = cfg.hello_timeout if peer.role is None else 3 * cfg.heartbeat
            try:
                body = await framing.read_body(peer.reader, max_size=MAX_FRAME_FROM_PEER + secure.OVERHEAD,
                                               idle_timeout=idle, body_timeout=cfg.frame_timeout)
                if peer.channel is not None:
                    try:
                        body = peer.channel.open(body)
                    except secure.ChannelError as e:
                        if peer.handshake is not None:  # the first sealed frame: other keys
                            peer.channel = None
                            if peer.handshake.pake:
                                self._wrong_password(peer)
                            else:
                                self._refuse(peer, "handshake", "the secure handshake failed")
                        else:
                            peer.close(str(e))
                        return
                msg = framing.decode(body, MAX_FRAME_FROM_PEER)
            except framing.LooksLikeHTTP:
                peer.send_raw(framing.HTTP_REFUSAL)
                peer.close("sent an HTTP request")
                return
            except framing.ConnectionClosed:
                peer.close("closed")
                return
            except framing.BadPayload as e:  # the stream is still in sync: warn, count, go on
                if peer.violation(e.code, str(e)):
                    return
                continue
            except framing.FrameError as e:  # out of sync or silent: nothing to do but hang up
                peer.close(str(e), notice=messages.error(e.code, str(e), fatal=True))
                return
            if not peer.take_token():
                if peer.violation("rate", "too many messages; slow down"):
                    return
                continue
            try:
                messages.validate(msg, CLIENT_SCHEMAS)
            except MessageError as e:
                log.info("%s: %s", peer, e.reason)
                if peer.violation(e.code, e.reason):
                    return
                continue
            if peer.channel is None:
                await self._plain(peer, msg, body)
            elif peer.handshake is not None:
                peer.handshake.done(True)  # the frame opened: the client knows the password (if one is set)
                try:
                    peer.handshake.check_auth(msg)
                except secure.HandshakeError as e:
                    self._refuse(peer, e.code, e.reason)
                    return
                peer.identity = peer.handshake.client_id
                peer.handshake = None
            else:
                self._dispatch(peer, msg)

    async def _plain(self, peer: Peer, msg: dict[str, Any], body: bytes) -> None:
        """Before the link is sealed only the handshake is spoken (and versions told apart)."""
        kind = msg["type"]
        if kind in ("hs1", "hello"):
            if msg["v"] != PROTOCOL_VERSION:
                self._refuse(peer, "version",
                             f"this host speaks uno-tui protocol {PROTOCOL_VERSION} and your client speaks "
                             f"{msg['v']}: use the same uno-tui version as the host")
                return
            if kind == "hello":
                self._refuse(peer, "handshake", f"protocol {PROTOCOL_VERSION} begins with the secure handshake")
                return
            password = self.config.password
            attempt = None
            if password is not None and "pake" in msg:  # one password attempt per address at a time, slowed
                try:
                    attempt = await self.password_throttle.enter(peer.ip)
                except Throttled as t:
                    self._refuse(peer, "throttled", "too many wrong passwords from your address: try again in "
                                                    f"{math.ceil(t.seconds)} s")
                    return
            try:
                if attempt is not None:  # the password exchange is ~15 ms of pure Python: off the loop
                    answer, hs = await asyncio.to_thread(secure.host_answer, self.identity, body, msg,
                                                         PROTOCOL_VERSION, password)
                else:
                    answer, hs = secure.host_answer(self.identity, body, msg, PROTOCOL_VERSION, password)
            except secure.HandshakeError as e:
                if attempt is not None:
                    attempt.done(False)
                self._refuse(peer, e.code, e.reason)
                return
            except BaseException:  # cancelled (the host closing): the address's turn is not kept
                if attempt is not None:
                    attempt.done(False)
                raise
            hs.attempt = attempt
            if peer.closed:  # gone while it waited
                hs.done(False)
                return
            peer.send_plain(answer)
            peer.channel, peer.handshake = hs.channel, hs
            return
        peer.violation("hello_first", "begin with the secure handshake (hs1)")

    def _dispatch(self, peer: Peer, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if peer.role is None:
            if kind != "hello":
                peer.violation("hello_first", "say hello first")
                return
            self._hello(peer, msg)
        elif kind == "ping":
            peer.send({"type": "pong", **({"t": msg["t"]} if "t" in msg else {})})
        elif kind == "pong":
            pass  # any frame proves the peer alive; the read timeout does the rest
        elif kind == "intent":
            self._intent(peer, msg)
        elif kind == "signed":
            self._signed(peer, msg)
        elif kind == "chat":
            self._chat(peer, msg["text"])
        elif kind == "ready":
            self._ready(peer, msg["ready"])
        elif kind == "bye":
            peer.close("left")
        elif kind == "hello":
            peer.violation("repeated_hello", "hello was already said on this connection")
        elif kind in ("hs1", "auth"):
            peer.violation("repeated_hello", "the handshake is over on this connection")

    def _wrong_password(self, peer: Peer) -> None:
        """The first sealed frame after a password exchange did not open: refused, and its address slowed."""
        assert peer.handshake is not None
        wait = peer.handshake.done(False)
        failures = self.password_throttle.failures(peer.ip)
        self._emit("password", {"addr": peer.ip, "failures": failures, "wait": wait})
        reason = "wrong password for this table"
        if wait >= 1:
            reason += f"; the next try from your address must wait {math.ceil(wait)} s"
        self._refuse(peer, "password", reason)

    def _refuse(self, peer: Peer, code: str, reason: str) -> None:
        log.info("refusing %s: %s", peer, reason)
        if peer.handshake is not None:
            peer.channel = None  # the peer may not hold our keys: refuse in the clear
        peer.close(reason, notice=messages.refuse(code, reason))

    def _hello(self, peer: Peer, msg: dict[str, Any]) -> None:
        cfg = self.config
        if msg["v"] != PROTOCOL_VERSION:
            self._refuse(peer, "version",
                         f"this host speaks uno-tui protocol {PROTOCOL_VERSION} and your client speaks "
                         f"{msg['v']}: use the same uno-tui version as the host")
            return
        # The password was checked by the handshake: without it the link's keys do not match.
        peer.log_have = int(msg.get("log_have", 0))
        name = messages.clean_text(msg["name"], messages.MAX_NAME) or "Player"
        if msg.get("role") == "spectator":
            if sum(1 for p in self.peers if p.role == "spectator") >= cfg.max_spectators:
                self._refuse(peer, "full", "this table has all the spectators it takes")
                return
            peer.role, peer.name = "spectator", name
            peer.send(self._welcome(peer, None))
            self._after_join(peer)
            return
        seat = self._seat_for_token(msg.get("token"))
        if seat is not None and seat.identity is not None and peer.identity != seat.identity:
            self._refuse(peer, "identity", "that seat belongs to another identity key than this client's")
            return
        if seat is not None:
            old = seat.peer
            if old is not None and old is not peer:
                old.close("replaced", notice=messages.error(
                    "replaced", "this seat was taken over by a newer connection with its token", fatal=True))
            self._attach(seat, peer)
            peer.name = seat.name
        elif self.phase != "lobby":
            if "token" in msg:
                self._refuse(peer, "token", "that resume token does not match any seat at this table")
            else:
                self._refuse(peer, "started", "the game has started; you can still watch with --spectate")
            return
        else:
            seat = next((s for s in self.seats if s.kind == "open"), None)
            if seat is None:
                self._refuse(peer, "full", "every seat is taken; you can watch with --spectate")
                return
            seat.kind, seat.ready = "human", False
            seat.identity = peer.identity
            seat.name = unique_name(name, self._names())
            seat.token = secrets.token_urlsafe(24)
            peer.name = seat.name
            self._attach(seat, peer)
        peer.send(self._welcome(peer, seat))
        self._after_join(peer)

    def _welcome(self, peer: Peer, seat: Seat | None) -> dict[str, Any]:
        return {"type": "welcome", "v": PROTOCOL_VERSION, "seat": None if seat is None else seat.index,
                "token": None if seat is None else seat.token, "role": peer.role or "spectator",
                "name": peer.name, "host": self.config.name, "heartbeat": self.config.heartbeat,
                "fp": self.identity.fingerprint}

    def _after_join(self, peer: Peer) -> None:
        self._emit("join", {"name": peer.name, "seat": peer.seat, "role": peer.role})
        self._broadcast_lobby()
        if self.dealer is not None:
            self.dealer.resend(peer, peer.log_have)
        if self.game is not None:
            # The round so far, so a rejoined seat's log (or a spectator's) starts where the round did.
            self._send_update(peer, [], actor=None, auto=False, history=self.round_events[-HISTORY:])
        if self._ended is not None and self.phase == "finished" and peer.seat is not None \
                and peer.seat not in self._told_end:
            self._told_end.add(peer.seat)
            peer.send_frame(self._ended)  # it was away when the match ended (one told stays for a rematch)
        self._maybe_autostart()

    def _seat_for_token(self, token: Any) -> Seat | None:
        if not isinstance(token, str):
            return None
        for seat in self.seats:
            if seat.kind == "human" and seat.token and hmac.compare_digest(seat.token.encode(), token.encode()):
                return seat
        return None

    def _attach(self, seat: Seat, peer: Peer) -> None:
        seat.peer, seat.away_since = peer, None
        peer.seat, peer.role = seat.index, "player"
        handle = self._grace.pop(seat.index, None)
        if handle is not None:
            handle.cancel()
        if seat.stand_in and not seat.benched:
            seat.stand_in = False
            if self.in_match:
                self.dealer.append("back", seat=seat.index)  # in the seed exchange again, played by its person
            self._arm_turn_timer()
        self.people_changed()

    def _drop(self, peer: Peer) -> None:
        peer.close(peer.close_reason or "dropped")
        self.peers.discard(peer)
        if peer.role is None:
            return
        self._emit("leave", {"name": peer.name, "seat": peer.seat, "reason": peer.close_reason})
        if peer.seat is not None:
            seat = self.seats[peer.seat]
            if seat.peer is peer:
                seat.peer = None
                if self.phase == "lobby" and not seat.reserved and not self._dealing:
                    seat.kind, seat.name, seat.token, seat.ready = "open", "", None, False
                elif self.in_match:  # (not once the match is over: nothing is waiting for them then)
                    self._mark_away(seat)
        self._broadcast_lobby()

    def _mark_away(self, seat: Seat) -> None:
        seat.away_since = time.monotonic()
        old = self._grace.pop(seat.index, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._grace[seat.index] = loop.call_later(self.config.grace, self._grace_over, seat.index)

    def _grace_over(self, index: int) -> None:
        self._grace.pop(index, None)
        seat = self.seats[index]
        if seat.kind == "human" and seat.peer is None and self.in_match and not seat.stand_in:
            seat.stand_in = True
            if self.in_match:
                # The log shows it: the seat leaves the seed exchange and a bot's moves for it are 'away'.
                self.dealer.append("away", seat=index)
            self._emit("stand_in", {"seat": index, "name": seat.name})
            self._broadcast_lobby()
            self.people_changed()
            self._kick()

    # -- waiting for the people ------------------------------------------------------------------
    @property
    def in_match(self) -> bool:
        """A match's log is open: from its first deal on (seats are fixed then) until ``end`` is sent
        (after the last round's verdicts)."""
        return self.dealer is not None and (self.phase in ("playing", "round_over") or self._dealing
                                            or self.phase == "finished" and self._ended is None)

    def people_changed(self) -> None:
        """A person came, went away past the grace period, or was benched: waiters look again, and
        the host's bots, who may now play a seat (or no longer)."""
        if self._people is not None:
            self._people.set()
        if self.phase == "playing":
            with contextlib.suppress(RuntimeError):  # no loop: nothing is being played
                self._arm_turn_timer()
                self._kick()

    def missing_people(self) -> list[int]:
        """Seated people who take part (not benched, not away past the grace period) but are not connected."""
        return [s.index for s in self.seats if s.kind == "human" and s.peer is None and not s.stand_in
                and not s.benched]

    async def wait_for_people(self) -> None:
        """Until every seated person is connected or away past the grace period (as the log then shows).

        The seed exchange and the verdicts are between the host and all of them:
        a host that has just resumed, or a table where someone's link dropped,
        waits for them rather than dealing without them.
        """
        while self.missing_people():
            if self._people is None:
                self._people = asyncio.Event()
            self._people.clear()
            await self._people.wait()

    def logged(self) -> None:
        """A log entry was appended: the save that follows counts it (see :meth:`_save_soon`)."""
        if self.game is not None:
            with contextlib.suppress(RuntimeError):  # no loop: nothing is saved outside a running table
                self._save_soon()

    async def _heartbeat_loop(self) -> None:
        ping = framing.encode({"type": "ping"})
        while True:
            await asyncio.sleep(self.config.heartbeat)
            for peer in list(self.peers):
                if peer.role is not None:
                    peer.send_frame(ping)

    # -- chat and ready ---------------------------------------------------------------------
    def _chat(self, peer: Peer, text: str) -> None:
        text = messages.clean_text(text, messages.MAX_CHAT)
        if text:
            self.say(text, sender=peer.name, seat=peer.seat)

    def say(self, text: str, *, sender: str | None = None, seat: int | None = None) -> None:
        """Send a chat line to everyone (the interactive host's own lines go through here too)."""
        msg = {"type": "chat", "from": sender if sender is not None else self.config.name, "seat": seat,
               "text": messages.clean_text(text, messages.MAX_CHAT)}
        frame = framing.encode(msg)
        for p in list(self.peers):
            if p.role is not None:
                p.send_frame(frame)
        self._emit("chat", msg)

    def _ready(self, peer: Peer, ready: bool) -> None:
        if peer.seat is None:
            peer.send(messages.error("no_seat", "spectators have no seat to be ready in"))
            return
        self.seats[peer.seat].ready = ready
        self._broadcast_lobby()
        self._maybe_autostart()

    # -- intents and the game ------------------------------------------------------------------
    def _signed(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A message signed by the peer's identity: an intent, or a step of the fair deal.

        Its content is checked against :data:`messages.SIGNED_SCHEMAS` first: every
        field bounded, none too many, so nothing a player signs can make a log
        entry the host builds from it outgrow a frame.
        """
        dealer = self.dealer
        if dealer is None:
            peer.violation("not_playing", "there is no game to sign messages for")
            return
        m, sig = msg["m"], msg["sig"]
        try:
            d = messages.validate_signed(unpack(m))
        except MessageError as e:
            peer.violation(e.code, e.reason)
            return
        except Exception:
            peer.violation("bad_payload", "the signed message is not msgpack")
            return
        if d["k"] != "intent":
            dealer.on_signed(peer, m, sig, d)
            return
        intent = {"type": "intent", "seq": d["seq"], "version": d["v"], "seat": d["seat"], "action": d["act"]}
        failure = dealer.check_signed(peer, m, sig, d)
        if failure is not None:
            code, reason = failure
            if code == "head":  # built on a log this host never had (a restart raced it): decide again
                code = "stale"
            peer.send({"type": "reject", "seq": intent["seq"], "version": self.game.version if self.game else 0,
                       "code": code, "reason": reason})
            if code != "stale":
                peer.violation(code, reason)
            elif self.game is not None:
                self._send_update(peer, [], actor=None, auto=False)
            return
        self._intent(peer, intent, (m, sig))

    def _intent(self, peer: Peer, msg: dict[str, Any], signed: tuple[bytes, bytes] | None = None) -> None:
        if self._stalled:  # the deal protocol is settling an epoch: in arrival order, after it
            self._backlog.append(lambda: self._intent(peer, msg, signed))
            return
        seq, game = msg["seq"], self.game

        def reject(code: str, reason: str) -> None:
            peer.send({"type": "reject", "seq": seq, "version": game.version if game else 0,
                       "code": code, "reason": reason})

        if peer.seat is None:
            reject("spectator", "spectators cannot act")
            peer.violation("spectator", "spectators cannot act")
            return
        if msg["seat"] != peer.seat:
            reject("impersonation", f"this connection holds seat {peer.seat}, not seat {msg['seat']}")
            peer.violation("impersonation", "an intent for another player's seat")
            return
        if game is None or self.phase != "playing":
            reject("not_playing", "no round is being played now")
            return
        if msg["version"] > game.version:
            reject("bad_version", f"state version {msg['version']} does not exist yet (now {game.version})")
            peer.violation("bad_version", "an intent quoting a state version from the future")
            return
        if self.dealer is not None and signed is None:
            reject("unsigned", f"protocol {PROTOCOL_VERSION} takes only intents signed by the player's identity")
            return
        if self.seats[peer.seat].benched:
            reject("benched", "this seat was given to a bot after two missed deadlines of the deal")
            return
        action = Action.from_dict(msg["action"])  # validated already; cannot raise here
        try:
            messages.check_action(action, cards=len(game.cards))
        except ValueError as e:
            reject("illegal", str(e))
            peer.violation("bad_action", str(e))
            return
        try:
            events = self._try_apply(peer.seat, action, lambda: self._intent(peer, msg, signed))
        except IllegalAction as e:
            # A stale intent still legal went through above; this one is not.
            reject("stale" if msg["version"] < game.version else "illegal", str(e))
            self._send_update(peer, [], actor=None, auto=False)
            return
        if events is None:
            return
        self._applied(peer.seat, action, events, auto=False, cause=peer, seq=seq, intent=signed)

    def _applied(self, p: int, action: Action, events: list[Event], *, auto: bool,
                 cause: Peer | None = None, seq: int | None = None,
                 intent: tuple[bytes, bytes] | None = None, why: str | None = None) -> None:
        """``why``: the reason of a move the host made for a person (``timer``, ``away``, ``bench``)."""
        game, record = self.game, self.record
        assert game is not None and record is not None
        record.add(p, action, auto)
        tell_bots(self._bots, events)
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
        # Sent first, saved right after (see _save_soon).
        lobby: dict[str, Any] | None = None
        if game.over:  # the lobby's new phase goes in the same write as the round's last update
            lobby = self.lobby_message()
        self._broadcast_update(events, actor=p, auto=auto, cause=cause, seq=seq, public=public,
                               then=framing.encode(lobby) if lobby is not None else None)
        if lobby is not None and self.dealer is not None:
            self._close_due = True
            if self.phase == "finished":
                self._close_round()  # the end of the match follows at once
            else:
                self._close_handle = asyncio.get_running_loop().call_later(CLOSE_DELAY, self._close_round)
        self._save_soon()
        if lobby is not None:
            self._round_over(lobby)
        else:
            self._arm_turn_timer()
            self._kick()

    def _close_round(self) -> None:
        """The closing log entries of the round just over, if still due: its scores and every slot of its decks opened.

        They are a few KB for every peer, and every peer takes them in; sent
        right behind the round's last update they competed with it on a
        machine running several players. So they follow it by
        :data:`CLOSE_DELAY` (at once when the match is over). Nothing of the
        next round enters the log before them: the next deal (or closing the
        host) runs this first. Then the host's
        own audit of the round (tens of ms) waits :data:`SELF_AUDIT_DELAY`
        more; it reads the log only up to the round's end, so the next round
        may begin meanwhile.
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
        self._save_soon()
        self._run_self_audit()  # an earlier one still waiting (rounds in quick succession)
        self._audit_due = (game.round, len(dealer.log.entries))
        if self.phase != "finished":
            self._audit_handle = asyncio.get_running_loop().call_later(SELF_AUDIT_DELAY, self._run_self_audit)

    def _round_over(self, lobby: dict[str, Any]) -> None:
        """What follows a round's last move (``lobby``: the lobby message already sent for it)."""
        game = self.game
        assert game is not None
        self._cancel_turn_timer()
        if self.dealer is not None and self.phase == "finished":
            self._run_self_audit()  # the round was closed at once (see _applied)
        self._emit("round_over", {"round": game.round, "winner": game.winner, "points": game.last_points,
                                  "scores": list(game.scores), "names": list(game.names)})
        self._emit("lobby", lobby)
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
        end = self._ended = framing.encode({"type": "end", "reason": self.end_reason or "match_over",
                                            "scores": list(game.scores), "winner": game.match_winner})
        for peer in list(self.peers):
            if peer.role is not None:
                peer.send_frame(end)
                if peer.seat is not None:
                    self._told_end.add(peer.seat)
        self._emit("end", {"reason": self.end_reason, "scores": list(game.scores),
                           "winner": game.match_winner, "names": list(game.names)})
        if self._finished is not None:
            self._finished.set()

    def _bot(self, p: int) -> Bot:
        bot = self._bots.get(p)
        if bot is None:
            seed = self.record.seed.hex() if self.record else ""
            level = self.seats[p].level
            settings = bot_settings(self.config.bot_think, processes=self.config.bot_processes) \
                if level == "hard" else {}
            bot = self._bots[p] = make_bot(level, seed=f"{seed}:{self.match}:{p}", **settings)
        return bot

    def _kick(self) -> None:
        """Make sure the bot driver runs if a bot may want to act."""
        if self.phase == "playing" and (self._driver is None or self._driver.done()):
            self._driver = asyncio.ensure_future(self._drive())

    async def _drive(self) -> None:
        """Let bots (and stand-ins) act, one move at a time, until only people may act."""
        try:
            while True:
                # Yield even with no delay: intents that arrived meanwhile go first.
                await asyncio.sleep(self.config.bot_delay)
                game = self.game
                if self.phase != "playing" or game is None or game.over or self._stalled:
                    return
                cur, n = game.current, game.num_players
                order = sorted(game.to_act(), key=lambda q: (q - cur) % n)
                # Out-of-turn players first, as a person shouts "UNO!" before the next card lands.
                order = [q for q in order if q != cur] + [q for q in order if q == cur]
                for p in order:
                    if not self.seats[p].bot_plays:
                        continue
                    bot = self._bot(p)
                    if bot.level == "hard":
                        # A search takes a while: think off the loop, and drop the thought if the
                        # table moved on meanwhile (the next pass decides again).
                        version = game.version
                        action = await asyncio.to_thread(bot.choose, game.observation(p))
                        if self.game is not game or game.version != version or self.phase != "playing":
                            break
                    else:
                        action = bot.choose(game.observation(p))
                    if action is None:
                        continue
                    seat = self.seats[p]
                    auto = seat.kind != "bot"
                    why = ("bench" if seat.benched else "away") if auto else None
                    events = self._try_apply(p, action, lambda p=p, a=action, w=why: self._retry(p, a, w))
                    if events is None:
                        return
                    self._applied(p, action, events, auto=auto, why=why)
                    break
                else:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot driver failed")

    def _retry(self, p: int, action: Action, why: str | None) -> None:
        """A host-made move held back by an epoch: made now if it is still legal (``why`` None: a bot's seat)."""
        game = self.game
        if self.phase != "playing" or game is None or action not in game.legal_actions(p):
            return
        if why == "away" and not self.seats[p].stand_in:
            return  # its person came back meanwhile
        events = self._try_apply(p, action, lambda: self._retry(p, action, why))
        if events is not None:
            self._applied(p, action, events, auto=why is not None, why=why)

    def _cancel_turn_timer(self) -> None:
        if self._turn_handle is not None:
            self._turn_handle.cancel()
        self._turn_handle, self._turn_for = None, None

    def _arm_turn_timer(self) -> None:
        game, limit = self.game, self.config.turn_timer
        if not limit or game is None or self.phase != "playing" or game.over:
            self._cancel_turn_timer()
            return
        p = game.current
        if self.seats[p].bot_plays:
            self._cancel_turn_timer()
            return
        if self._turn_for == p and self._turn_handle is not None:
            return  # the same turn goes on (an out-of-turn call does not reset the clock)
        self._cancel_turn_timer()
        self._turn_for = p
        self._turn_handle = asyncio.get_running_loop().call_later(limit, self._turn_timeout, p)

    def _turn_timeout(self, p: int) -> None:
        self._turn_handle, self._turn_for = None, None
        game = self.game
        if self.phase != "playing" or game is None or game.over or game.current != p or self.seats[p].bot_plays \
                or self._stalled:
            return
        action = self._bot(p).choose(game.observation(p))
        if action is None or action.kind == "catch":
            legal = game.legal_actions(p)
            action = next((a for a in legal if a.kind in ("draw", "pass")), legal[0] if legal else None)
        if action is None:
            return
        self._emit("timeout", {"seat": p, "name": self.seats[p].name})
        events = self._try_apply(p, action, lambda: self._retry(p, action, "timer"))
        if events is not None:
            self._applied(p, action, events, auto=True, why="timer")

    # -- sending -----------------------------------------------------------------------------
    def public_view(self) -> dict[str, Any]:
        """The table as everyone sees it now (:meth:`core.Game.public_observation`; a test double lies here)."""
        assert self.game is not None
        return self.game.public_observation()

    def private_view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` alone sees now: its hand and choices (:meth:`core.Game.private_observation`)."""
        assert self.game is not None
        return self.game.private_observation(seat)

    def _view(self, peer: Peer, public: dict[str, Any],
              shared: tuple[dict[str, Any], dict[str, Any]] | None = None) -> tuple[str, dict[str, Any]]:
        """``peer``'s view of the game now: ``("obs", view)``, or ``("patch", what changed)`` (see :mod:`net.patch`).

        ``public``: :meth:`core.Game.public_observation` of this state. ``shared``:
        the previous public part and the patch from it to ``public``, made once for
        every peer that holds it.
        """
        game = self.game
        assert game is not None
        private = self.private_view(peer.seat)
        sent, peer.sent_view = peer.sent_view, (public, private)
        if sent is None:
            return "obs", {**public, **private}
        old_public, old_private = sent
        base = old_public["version"]
        if shared is not None and shared[0] is old_public:
            public_patch = shared[1]
        else:
            public_patch = patch.diff(old_public, public, base)
        return "patch", patch.merge(public_patch, patch.diff(old_private, private, base))

    def _send_update(self, peer: Peer, events: list[Event], *, actor: int | None, auto: bool,
                     seq: int | None = None, public_events: list[dict[str, Any]] | None = None,
                     public: dict[str, Any] | None = None,
                     shared: tuple[dict[str, Any], dict[str, Any]] | None = None,
                     history: list[Event] | None = None) -> None:
        """``public_events``: the events' dicts as everyone sees them, when already built;
        ``public``, ``shared``: see :meth:`_view`; ``history``: earlier events of the round, as this peer
        may see them (for a peer that joins mid-round)."""
        game = self.game
        assert game is not None
        p = peer.seat
        if public_events is None:
            shown = [e.view(p).to_dict() for e in events]
        else:  # only events with hidden cards differ from one peer to the next
            shown = [d if e.visible_to is None else e.view(p).to_dict() for e, d in zip(events, public_events)]
        key, view = self._view(peer, self.public_view() if public is None else public, shared)
        msg: dict[str, Any] = {"type": "update", "version": game.version, key: view,
                               "events": shown, "actor": actor, "auto": auto}
        if seq is not None:
            msg["seq"] = seq
        if history:
            msg["history"] = [e.view(p).to_dict() for e in history]
        peer.send(msg)

    def _broadcast_update(self, events: list[Event], *, actor: int | None, auto: bool,
                          cause: Peer | None = None, seq: int | None = None, then: bytes | None = None,
                          public: list[dict[str, Any]] | None = None) -> None:
        """Each peer's update, followed by the frame ``then`` if given (the same for everyone).

        ``public``: the events as everyone sees them, if built already.
        """
        game = self.game
        assert game is not None
        if any(e.kind == "deal" for e in events):
            self.round_events = []
        self.round_events.extend(events)
        if public is None:
            public = [e.view(None).to_dict() for e in events]
        # The table as everyone sees it is built once, and so is the patch to it
        # from the last one sent; each peer adds its own part.
        view = self.public_view()
        last, self._last_public = self._last_public, view
        shared = (last, patch.diff(last, view, last["version"])) if last is not None else None
        spectator_frames: dict[int, tuple[bytes, Any]] = {}
        # The peer whose intent this was hears first: its round trip is the one a person feels.
        peers = sorted(self.peers, key=lambda q: q is not cause)
        for peer in peers:
            if peer.role is None or peer.closed:
                continue
            if peer.seat is None:
                # Spectators holding the same view get the same frame: encode it once.
                held = id(peer.sent_view[0]) if peer.sent_view is not None else 0
                built = spectator_frames.get(held)
                if built is None:
                    key, obs = self._view(peer, view, shared)
                    built = spectator_frames[held] = (framing.encode({
                        "type": "update", "version": game.version, key: obs,
                        "events": public, "actor": actor, "auto": auto}), peer.sent_view)
                peer.send_frame(built[0])
                peer.sent_view = built[1]  # what the frame leaves it holding, as for the first
            else:
                self._send_update(peer, events, actor=actor, auto=auto, seq=seq if peer is cause else None,
                                  public_events=public, public=view, shared=shared)
            if then is not None:
                peer.send_frame(then)
            # Out now, this peer's log entry, delivery and update in one write: it gets to work
            # on them while the host builds the next peer's.
            peer.flush()
        self._emit("update", {"version": game.version, "events": events, "actor": actor, "auto": auto})

    def lobby_message(self) -> dict[str, Any]:
        cfg = self.config
        return {
            "type": "lobby", "phase": self.phase, "host": cfg.name, "variant": cfg.variant,
            "options": dict(self.game.options if self.game else self.options),
            "seats": [s.public() for s in self.seats],
            "spectators": sum(1 for p in self.peers if p.role == "spectator"),
            "rounds": cfg.rounds, "rounds_played": self.rounds_played,
            "turn_timer": cfg.turn_timer, "grace": cfg.grace, "password": cfg.password is not None,
            "fp": self.identity.fingerprint[:FP_ADDRESS],
        }

    def _broadcast_lobby(self) -> None:
        msg = self.lobby_message()
        frame = framing.encode(msg)
        for peer in list(self.peers):
            if peer.role is not None:
                peer.send_frame(frame)
        self._emit("lobby", msg)

    def broadcast_lobby(self) -> None:
        self._broadcast_lobby()

    def broadcast_log(self, e: bytes, sig: bytes) -> None:
        """Send a new log entry to every peer (each sealed for its own link)."""
        frame = framing.encode({"type": "log", "e": e, "sig": sig})
        for peer in list(self.peers):
            if peer.role is not None:
                peer.send_frame(frame)

    def send_private(self, seat: int, msg: dict[str, Any]) -> None:
        """A message for the person in ``seat`` alone (dropped if they are away: resent on return)."""
        peer = self.seats[seat].peer if 0 <= seat < len(self.seats) else None
        if peer is not None and not peer.closed:
            peer.send(msg)

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        self._emit(kind, data)

    def _emit(self, kind: str, data: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, data)
            except Exception:
                log.exception("a host listener failed on %s", kind)

    def _run_self_audit(self) -> None:
        """The round's audit by the host, if one is due (see :meth:`_round_over`)."""
        if self._audit_handle is not None:
            self._audit_handle.cancel()
            self._audit_handle = None
        due, self._audit_due = self._audit_due, None
        if due is not None and self.dealer is not None:
            try:
                self._self_audit(*due)
            except Exception:  # a check, never a crash
                log.exception("the host's audit of round %d failed", due[0])

    def _self_audit(self, r: int, upto: int) -> None:
        """The host checks its own log as every peer does (a bug would show here first).

        ``upto``: the log's length when round ``r`` closed (entries after it belong to later rounds).
        """
        from .fair import Ledger, Unfair

        assert self.dealer is not None
        ledger = getattr(self, "_ledger", None)
        if ledger is None or ledger.game_id != self.dealer.game_id:
            ledger = self._ledger = Ledger(self.identity.public)
            self._ledger_fed = 0
        entries = self.dealer.log.entries[:upto]
        try:
            while self._ledger_fed < len(entries):
                e, sig = entries[self._ledger_fed]
                self._ledger_fed += 1
                for act in ledger.add_entry(e, sig):
                    if act[0] == "audit" and act[1] != r:  # a round before (a resumed host catching up):
                        ledger.audit_round()                 # its replay carries into the next round
            ledger.audit_round()
            verdict = {"round": r, "ok": True, "code": "", "reason": "verified"}
        except Unfair as u:
            self._ledger_fed = len(entries) + 10**9  # stop feeding a broken ledger
            verdict = {"round": r, "ok": False, "code": u.code, "reason": u.reason}
        self.audits.append(verdict)
        self._emit("audit", verdict)

    def _attach_log_writers(self, *, truncate: bool) -> None:
        """The save's side file of log entries (for ``--resume``) and the host's transcript."""
        assert self.dealer is not None
        self._write_logs()  # what is queued for the files about to close
        for f in (self._transcript, self._log_file):
            if f is not None:
                with contextlib.suppress(Exception):
                    f.close()
        self._transcript = self._log_file = None
        self.dealer.listeners.clear()
        existing = list(self.dealer.log.entries)
        path = self.config.save_path
        if path is not None:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
                f = open(path + ".log", "wb")
                for e, sig in existing:
                    f.write(msgpack.packb([e, sig], use_bin_type=True))
                f.flush()
                self._log_file = f

                def to_file(e: bytes, sig: bytes) -> None:
                    f.write(msgpack.packb([e, sig], use_bin_type=True))
                    f.flush()

                self.dealer.listeners.append(self._soon(to_file))
            except OSError as ex:
                log.error("cannot write the log beside the save: %s", ex)
        try:
            directory = Path(self.config.transcript_dir) if self.config.transcript_dir else default_transcript_dir()
            name = f"{self.dealer.game_id.hex()[:12]}-host" + ("-resumed" if existing else "")
            writer = TranscriptWriter.create(directory, name, signer=self.identity, seat=None,
                                             host=self.identity.public)
            for e, sig in existing:
                writer.log(e, sig)
            self._transcript = writer
            self.dealer.listeners.append(self._soon(writer.log))
        except OSError as ex:
            log.error("cannot write the transcript: %s", ex)

    def _soon(self, write: Callable[[bytes, bytes], None]) -> Callable[[bytes, bytes], None]:
        """``write`` for a new log entry, on the loop's next turn (:meth:`_write_logs`).

        A move's entry is then on disk after its updates are on their way, not
        before, and always before the save that counts it (see :meth:`_save`).
        """
        def later(e: bytes, sig: bytes) -> None:
            if not self._log_queue:
                try:
                    asyncio.get_running_loop().call_soon(self._write_logs)
                except RuntimeError:  # no loop: nothing to wait for
                    write(e, sig)
                    return
            self._log_queue.append((write, e, sig))
        return later

    def _write_logs(self) -> None:
        queue, self._log_queue = self._log_queue, []
        for write, e, sig in queue:
            try:
                write(e, sig)
            except (OSError, ValueError) as ex:  # a full disk, a file closed: the table goes on
                log.error("could not write a log entry: %s", ex)

    @property
    def transcript_path(self) -> str | None:
        return str(self._transcript.path) if self._transcript is not None else None

    def _names(self) -> list[str]:
        return [s.name for s in self.seats if s.kind != "open"]

    # -- saving --------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The save's content (see :mod:`net.save`); parts that cannot change any more come packed already."""
        assert self.game is not None and self.record is not None
        fair = self.dealer.to_save() if self.dealer is not None else None
        return Parts({
            "config": self._config_dict(), "seats": [s.to_save() for s in self.seats],
            "game": self.game.to_dict(), "record": self.record.to_save(), "phase": self.phase,
            "rounds_played": self.rounds_played, "match": self.match, "port": self.port,
            "fair": Parts(fair) if fair is not None else None,
        })

    def _config_dict(self) -> dict[str, Any]:
        # asdict() is slow and the settings rarely change: rebuild only when they have.
        key = repr(self.config)
        if self._config_cache is None or self._config_cache[0] != key:
            self._config_cache = (key, self.config.to_dict())
        return self._config_cache[1]

    def _save_soon(self) -> None:
        """Save on the loop's next turn: after this step's updates are written, before anything else.

        The updates go out first, so the save (the largest cost of a move) is not
        part of the latency a player feels; and it runs before the loop takes the
        next message, so every move is on disk before the next one is made and a
        crash of the host process loses at most the last move.
        """
        self._save_due = True
        if self._save_handle is None:
            self._save_handle = asyncio.get_running_loop().call_soon(self._save_if_due)
        if self._idle_handle is not None:
            self._idle_handle.cancel()
        self._idle_handle = asyncio.get_running_loop().call_later(IDLE_DELAY, self._idle)

    def _save_if_due(self) -> None:
        if self._save_due:
            self._save()

    def _idle(self) -> None:
        """:data:`IDLE_DELAY` after the last move: the collector's pass, if one is near, runs now."""
        self._idle_handle = None
        collect_when_idle()

    def _save(self) -> None:
        if self._save_handle is not None:
            self._save_handle.cancel()
            self._save_handle = None
        self._save_due = False
        self._write_logs()  # the entries the save counts are on disk before it
        path = self.config.save_path
        if path is None or self.game is None:
            return
        try:
            saver = self._saver
            if saver is None or str(saver.path) != str(path):
                if saver is not None:
                    saver.close()
                saver = self._saver = SaveWriter(path)
            snap = self.snapshot()
            saver.write(snap)  # packed now: the game may change the dicts it shares with it later
            self._undo = (self.game.version, snap["game"])
        except OSError as e:  # a full disk must not stop the table; the game goes on unsaved
            log.error("could not save the game to %s: %s", path, e)


def _read_log_file(path: str, length: int) -> list[tuple[bytes, bytes]]:
    out: list[tuple[bytes, bytes]] = []
    try:
        with open(path, "rb") as f:
            for item in msgpack.Unpacker(f, raw=False):
                if len(out) >= length:
                    break
                out.append((bytes(item[0]), bytes(item[1])))
    except FileNotFoundError:
        pass
    if len(out) < length:
        raise ValueError(f"{path} holds {len(out)} log entries, the save needs {length}")
    return out
