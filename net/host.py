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
import hmac
import logging
import secrets
import time
from typing import Any, Callable

import core
from core import Action, Event, IllegalAction
from core.bots import Bot, make_bot

from . import framing, messages
from .framing import MAX_FRAME_FROM_PEER
from .messages import CLIENT_SCHEMAS, PROTOCOL_VERSION, MessageError
from .peer import Peer
from .record import Record
from .save import read_save, write_save
from .seats import BOT_NAMES, HostConfig, Seat, unique_name

log = logging.getLogger("net.host")

Listener = Callable[[str, dict[str, Any]], None]
SourceFactory = Callable[[bytes], core.DeckSource]


class Host:
    """The authoritative table. Create, ``await start()``, then ``await wait_finished()``.

    ``source_factory`` turns the game's seed into the engine's deck source;
    the fair deal of the next protocol version plugs in here.
    """

    def __init__(self, config: HostConfig, *, source_factory: SourceFactory | None = None) -> None:
        cls = core.variant_class(config.variant)  # ValueError names the known variants
        if not cls.min_players <= config.seats <= min(cls.max_players, messages.MAX_SEATS):
            raise ValueError(f"{config.variant} is for {cls.min_players} to {cls.max_players} players")
        if not 0 <= config.bots <= config.seats:
            raise ValueError("--bots must be between 0 and the number of seats")
        self.options = cls.check_options(dict(config.options))
        make_bot(config.bot_level)  # fail now, not mid-game, on an unknown level
        self.config = config
        self.source_factory = source_factory
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
        host.game = core.Game.from_dict(data["game"], source=source)
        host.record = Record.from_dict(data["record"])
        host.phase = data["phase"]
        host.rounds_played = data["rounds_played"]
        host.match = data.get("match", 0)
        host.saved_port = data.get("port")
        return host

    saved_port: int | None = None
    """The port of the host whose save was resumed (clients reconnect to it)."""

    async def start(self, bind: str = "0.0.0.0", port: int = 7777) -> tuple[str, int]:
        """Listen on ``bind:port`` (port 0 picks a free one); returns the address bound."""
        self._finished = asyncio.Event()
        self._server = await asyncio.start_server(self._on_connect, host=bind, port=port)
        sock = self._server.sockets[0].getsockname()
        self.bind, self.port = bind, sock[1]
        self._spawn(self._heartbeat_loop())
        if self.game is not None:  # resumed: everyone is away until they reconnect
            for seat in self.seats:
                if seat.kind == "human" and seat.peer is None:
                    self._mark_away(seat)
            if self.phase == "playing":
                self._arm_turn_timer()
                self._kick()
            elif self.phase == "round_over" and self.config.auto_next:
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
        for handle in [self._turn_handle, self._round_handle, *self._grace.values()]:
            if handle is not None:
                handle.cancel()
        if self._server is not None:
            self._server.close()
        bye = framing.encode({"type": "bye", "reason": reason})
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
        return self.phase == "lobby" and all(s.kind != "open" for s in self.seats)

    def start_game(self) -> None:
        """Deal the first round. Every seat must be taken (by a person or a bot)."""
        if not self.can_start():
            raise ValueError("every seat needs a player or a bot before the game starts")
        self._new_match()

    def next_round(self) -> None:
        """Deal the match's next round (after a round is over)."""
        if self.phase != "round_over" or self.game is None:
            raise ValueError("the next round can be dealt only once a round is over")
        self._round_handle = None
        events = self.game.next_round()
        assert self.record is not None
        self.record.start_round(self.game.round)
        self.phase = "playing"
        self._save()
        self._broadcast_lobby()
        self._broadcast_update(events, actor=None, auto=False)
        self._arm_turn_timer()
        self._kick()

    def rematch(self) -> None:
        """A fresh match with the same seats (after a round or the match is over)."""
        if self.phase not in ("round_over", "finished") or self.game is None:
            raise ValueError("a rematch can start only after a round")
        self.match += 1
        self.rounds_played = 0
        self.end_reason = None
        if self._finished is not None:
            self._finished.clear()
        self._new_match()

    def _new_match(self) -> None:
        cfg = self.config
        names = [s.name for s in self.seats]
        seed = cfg.seed if self.match == 0 or cfg.seed is None else f"{cfg.seed}:match{self.match}"
        seed_b = core.source.seed_bytes(seed)
        source = self.source_factory(seed_b) if self.source_factory else None
        self.game = core.new_game(cfg.variant, names, seed=seed_b, options=self.options, source=source)
        self.record = Record(cfg.variant, names, self.game.options, seed_b)
        self.record.start_round(self.game.round)
        self._bots.clear()
        self.phase = "playing"
        self._save()
        self._broadcast_lobby()
        self._broadcast_update(self.game.deal_events, actor=None, auto=False)
        self._emit("start", {"names": names})
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
            try:
                self._drop(peer)
            except Exception:
                log.exception("dropping %s failed", peer)

    async def _serve(self, peer: Peer) -> None:
        cfg = self.config
        while not peer.closed:
            idle = cfg.hello_timeout if peer.role is None else 3 * cfg.heartbeat
            try:
                body = await framing.read_body(peer.reader, max_size=MAX_FRAME_FROM_PEER,
                                               idle_timeout=idle, body_timeout=cfg.frame_timeout)
                msg = framing.decode(body, MAX_FRAME_FROM_PEER)
            except framing.LooksLikeHTTP:
                peer.writer.write(framing.HTTP_REFUSAL)
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
            self._dispatch(peer, msg)

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
        elif kind == "chat":
            self._chat(peer, msg["text"])
        elif kind == "ready":
            self._ready(peer, msg["ready"])
        elif kind == "bye":
            peer.close("left")
        elif kind == "hello":
            peer.violation("repeated_hello", "hello was already said on this connection")

    def _refuse(self, peer: Peer, code: str, reason: str) -> None:
        log.info("refusing %s: %s", peer, reason)
        peer.close(reason, notice=messages.refuse(code, reason))

    def _hello(self, peer: Peer, msg: dict[str, Any]) -> None:
        cfg = self.config
        if msg["v"] != PROTOCOL_VERSION:
            self._refuse(peer, "version",
                         f"this host speaks uno-tui protocol {PROTOCOL_VERSION} and your client speaks "
                         f"{msg['v']}: use the same uno-tui version as the host")
            return
        if cfg.password is not None and not hmac.compare_digest(
                str(msg.get("password", "")).encode(), cfg.password.encode()):
            self._refuse(peer, "password", "wrong password for this table")
            return
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
            seat.name = unique_name(name, self._names())
            seat.token = secrets.token_urlsafe(24)
            peer.name = seat.name
            self._attach(seat, peer)
        peer.send(self._welcome(peer, seat))
        self._after_join(peer)

    def _welcome(self, peer: Peer, seat: Seat | None) -> dict[str, Any]:
        return {"type": "welcome", "v": PROTOCOL_VERSION, "seat": None if seat is None else seat.index,
                "token": None if seat is None else seat.token, "role": peer.role or "spectator",
                "name": peer.name, "host": self.config.name, "heartbeat": self.config.heartbeat}

    def _after_join(self, peer: Peer) -> None:
        self._emit("join", {"name": peer.name, "seat": peer.seat, "role": peer.role})
        self._broadcast_lobby()
        if self.game is not None:
            self._send_update(peer, [], actor=None, auto=False)
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
        if seat.stand_in:
            seat.stand_in = False
            self._arm_turn_timer()

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
                if self.phase == "lobby" and not seat.reserved:
                    seat.kind, seat.name, seat.token, seat.ready = "open", "", None, False
                elif self.phase != "finished":
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
        if seat.kind == "human" and seat.peer is None and self.phase != "finished":
            seat.stand_in = True
            self._emit("stand_in", {"seat": index, "name": seat.name})
            self._broadcast_lobby()
            self._kick()

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
    def _intent(self, peer: Peer, msg: dict[str, Any]) -> None:
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
        action = Action.from_dict(msg["action"])  # validated already; cannot raise here
        try:
            events = game.apply(peer.seat, action)
        except IllegalAction as e:
            # A stale intent still legal went through above; this one is not.
            reject("stale" if msg["version"] < game.version else "illegal", str(e))
            self._send_update(peer, [], actor=None, auto=False)
            return
        self._applied(peer.seat, action, events, auto=False, cause=peer, seq=seq)

    def _applied(self, p: int, action: Action, events: list[Event], *, auto: bool,
                 cause: Peer | None = None, seq: int | None = None) -> None:
        game, record = self.game, self.record
        assert game is not None and record is not None
        record.add(p, action, auto)
        if game.over:
            self.phase = "round_over"
            self.rounds_played += 1
            record.end_round(game.winner, game.last_points)
            rounds = self.config.rounds
            if game.match_over or (rounds is not None and self.rounds_played >= rounds):
                self.phase = "finished"
                self.end_reason = "match_over" if game.match_over else "rounds_done"
        # Sent first, saved right after, before anything else can happen: the
        # save costs more than everything else an action does, and sending first
        # keeps it out of the latency every player feels. A crash in between
        # loses only this last move (the clients go back one state on resume).
        self._broadcast_update(events, actor=p, auto=auto, cause=cause, seq=seq)
        self._save()
        if game.over:
            self._round_over()
        else:
            self._arm_turn_timer()
            self._kick()

    def _round_over(self) -> None:
        game = self.game
        assert game is not None
        self._cancel_turn_timer()
        self._emit("round_over", {"round": game.round, "winner": game.winner, "points": game.last_points,
                                  "scores": list(game.scores), "names": list(game.names)})
        self._broadcast_lobby()
        if self.phase == "finished":
            end = framing.encode({"type": "end", "reason": self.end_reason or "match_over",
                                  "scores": list(game.scores), "winner": game.match_winner})
            for peer in list(self.peers):
                if peer.role is not None:
                    peer.send_frame(end)
            self._emit("end", {"reason": self.end_reason, "scores": list(game.scores),
                               "winner": game.match_winner, "names": list(game.names)})
            if self._finished is not None:
                self._finished.set()
        elif self.config.auto_next:
            self._schedule_next_round()

    def _bot(self, p: int) -> Bot:
        bot = self._bots.get(p)
        if bot is None:
            seed = self.record.seed.hex() if self.record else ""
            bot = self._bots[p] = make_bot(self.seats[p].level, seed=f"{seed}:{self.match}:{p}")
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
                if self.phase != "playing" or game is None or game.over:
                    return
                cur, n = game.current, game.num_players
                order = sorted(game.to_act(), key=lambda q: (q - cur) % n)
                # Out-of-turn players first, as a person shouts "UNO!" before the next card lands.
                order = [q for q in order if q != cur] + [q for q in order if q == cur]
                for p in order:
                    if not self.seats[p].bot_plays:
                        continue
                    action = self._bot(p).choose(game.observation(p))
                    if action is None:
                        continue
                    events = game.apply(p, action)
                    self._applied(p, action, events, auto=self.seats[p].kind != "bot")
                    break
                else:
                    return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the bot driver failed")

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
        if self.phase != "playing" or game is None or game.over or game.current != p or self.seats[p].bot_plays:
            return
        action = self._bot(p).choose(game.observation(p))
        if action is None or action.kind == "catch":
            legal = game.legal_actions(p)
            action = next((a for a in legal if a.kind in ("draw", "pass")), legal[0] if legal else None)
        if action is None:
            return
        self._emit("timeout", {"seat": p, "name": self.seats[p].name})
        self._applied(p, action, game.apply(p, action), auto=True)

    # -- sending -----------------------------------------------------------------------------
    def _send_update(self, peer: Peer, events: list[Event], *, actor: int | None, auto: bool,
                     seq: int | None = None, public: list[dict[str, Any]] | None = None) -> None:
        """``public``: the events' dicts as everyone sees them, when already built."""
        game = self.game
        assert game is not None
        p = peer.seat
        if public is None:
            shown = [e.view(p).to_dict() for e in events]
        else:  # only events with hidden cards differ from one peer to the next
            shown = [d if e.visible_to is None else e.view(p).to_dict() for e, d in zip(events, public)]
        msg: dict[str, Any] = {"type": "update", "version": game.version, "obs": game.observation(p),
                               "events": shown, "actor": actor, "auto": auto}
        if seq is not None:
            msg["seq"] = seq
        peer.send(msg)

    def _broadcast_update(self, events: list[Event], *, actor: int | None, auto: bool,
                          cause: Peer | None = None, seq: int | None = None) -> None:
        game = self.game
        assert game is not None
        public = [e.view(None).to_dict() for e in events]
        spectator_frame: bytes | None = None
        # The peer whose intent this was hears first: its round trip is the one a person feels.
        peers = sorted(self.peers, key=lambda q: q is not cause)
        for peer in peers:
            if peer.role is None or peer.closed:
                continue
            if peer.seat is None:  # all spectators see the same public table: encode it once
                if spectator_frame is None:
                    spectator_frame = framing.encode({
                        "type": "update", "version": game.version, "obs": game.observation(None),
                        "events": public, "actor": actor, "auto": auto})
                peer.send_frame(spectator_frame)
            else:
                self._send_update(peer, events, actor=actor, auto=auto, seq=seq if peer is cause else None,
                                  public=public)
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
        }

    def _broadcast_lobby(self) -> None:
        msg = self.lobby_message()
        frame = framing.encode(msg)
        for peer in list(self.peers):
            if peer.role is not None:
                peer.send_frame(frame)
        self._emit("lobby", msg)

    def _emit(self, kind: str, data: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, data)
            except Exception:
                log.exception("a host listener failed on %s", kind)

    def _names(self) -> list[str]:
        return [s.name for s in self.seats if s.kind != "open"]

    # -- saving --------------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        assert self.game is not None and self.record is not None
        return {
            "config": self._config_dict(), "seats": [s.to_save() for s in self.seats],
            "game": self.game.to_dict(), "record": self.record.to_dict(), "phase": self.phase,
            "rounds_played": self.rounds_played, "match": self.match, "port": self.port,
        }

    def _config_dict(self) -> dict[str, Any]:
        # asdict() is slow and the settings rarely change: rebuild only when they have.
        key = repr(self.config)
        if self._config_cache is None or self._config_cache[0] != key:
            self._config_cache = (key, self.config.to_dict())
        return self._config_cache[1]

    def _save(self) -> None:
        path = self.config.save_path
        if path is None or self.game is None:
            return
        try:
            write_save(path, self.snapshot())
        except OSError as e:  # a full disk must not stop the table; the game goes on unsaved
            log.error("could not save the game to %s: %s", path, e)
