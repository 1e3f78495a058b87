"""The host's gateway: its sockets, the secure handshake, hello and welcome, heartbeats, away and back.

It reads every frame a peer sends, opens it, checks it against its schema
(:mod:`net.messages`), and hands what it means to the table
(:mod:`net.table`); it is the table's :class:`~net.outbox.Outbox`, so
everything the table says leaves through here, each peer's view built by
:mod:`net.views`. A person who drops is *away*: their seat and hand wait for
them (their client quotes the seat's resume token), and after the grace
period the table has a bot play for them until they return.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import math
import time
from typing import TYPE_CHECKING, Any, Callable

from . import framing, messages, secure, views
from .framing import MAX_FRAME_FROM_PEER
from .identity import Identity
from .messages import CLIENT_SCHEMAS, PROTOCOL_VERSION, MessageError
from .outbox import Update
from .peer import Peer
from .seats import HostConfig, Seat
from .throttle import PasswordThrottle, Throttled

if TYPE_CHECKING:
    from .table import Table

log = logging.getLogger("net.gateway")

Listener = Callable[[str, dict[str, Any]], None]


class Gateway:
    """Every link of one table: the :class:`~net.outbox.Outbox` its table speaks through."""

    def __init__(self, config: HostConfig, identity: Identity) -> None:
        self.config = config
        self.identity = identity
        self.table: Table = None  # type: ignore[assignment]  # set by the host, right after
        self.peers: set[Peer] = set()
        self.listeners: list[Listener] = []
        """``f(kind, data)`` for the host's news (its screen, the headless printer)."""
        self.password_throttle = PasswordThrottle()
        """Slows down whoever guesses the password wrong, per address (see :mod:`net.throttle`)."""
        self.port: int | None = None
        self.bind: str | None = None
        self._server: asyncio.AbstractServer | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._grace: dict[int, asyncio.TimerHandle] = {}
        self._last_public: dict[str, Any] | None = None
        """The public part of the last update broadcast (see :meth:`_broadcast_update`)."""

    # -- life cycle ------------------------------------------------------------------------------
    async def start(self, bind: str, port: int) -> int:
        """Listen on ``bind:port`` (port 0 picks a free one); returns the port bound."""
        self._server = await asyncio.start_server(self._on_connect, host=bind, port=port)
        self.bind, self.port = bind, self._server.sockets[0].getsockname()[1]
        self._spawn(self._heartbeat_loop())
        return self.port

    def everyone_away(self) -> None:
        """A resumed table: every person is away until they reconnect."""
        for seat in self.table.seats:
            if seat.kind == "human" and seat.peer is None and not seat.stand_in:
                self._mark_away(seat)

    async def close(self, reason: str) -> None:
        """Every peer is told the table is closed for good (``bye{closed: true}``) and let go."""
        for handle in self._grace.values():
            handle.cancel()
        if self._server is not None:
            self._server.close()
        bye = framing.pack({"type": "bye", "reason": reason, "closed": True})
        for peer in list(self.peers):
            peer.send_packed(bye)
            peer.close(reason)
        for task in list(self._tasks):
            task.cancel()
        if self._server is not None:
            try:
                await asyncio.wait_for(self._server.wait_closed(), 2)
            except (asyncio.TimeoutError, Exception):
                pass

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _heartbeat_loop(self) -> None:
        ping = framing.pack({"type": "ping"})
        while True:
            await asyncio.sleep(self.config.heartbeat)
            for peer in list(self.peers):
                if peer.role is not None:
                    peer.send_packed(ping)

    # -- the Outbox --------------------------------------------------------------------------------
    def _peer_of(self, seat: int) -> Peer | None:
        seats = self.table.seats
        peer = seats[seat].peer if 0 <= seat < len(seats) else None
        return peer if peer is not None and not peer.closed else None

    def send(self, seat: int, msg: dict[str, Any]) -> None:
        peer = self._peer_of(seat)
        if peer is not None:
            peer.send(msg)

    def broadcast(self, msg: dict[str, Any]) -> None:
        frame = framing.pack(msg)  # packed once, sealed for each link
        for peer in list(self.peers):
            if peer.role is not None:
                peer.send_packed(frame)

    def fault(self, seat: int, code: str, reason: str) -> None:
        peer = self._peer_of(seat)
        if peer is not None:
            peer.violation(code, reason)

    def emit(self, kind: str, data: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, data)
            except Exception:
                log.exception("a host listener failed on %s", kind)

    def update(self, update: Update) -> None:
        if update.only is not None:
            peer = self._peer_of(update.only)
            if peer is not None:
                self._send_update(peer, Update())
            return
        self._broadcast_update(update)

    # -- each peer's view --------------------------------------------------------------------------
    def _view(self, peer: Peer, public: dict[str, Any],
              shared: tuple[dict[str, Any], dict[str, Any]] | None = None) -> tuple[str, dict[str, Any]]:
        """``peer``'s view of the game now: ``("obs", view)``, or ``("patch", what changed)`` (see :mod:`net.views`)."""
        private = self.table.private_view(peer.seat)
        sent, peer.sent_view = peer.sent_view, (public, private)
        return views.view_for(sent, public, private, shared)

    def _send_update(self, peer: Peer, update: Update, *, public: dict[str, Any] | None = None,
                     shared: tuple[dict[str, Any], dict[str, Any]] | None = None) -> None:
        """``public``, ``shared``: the table as everyone sees it and the patch to it (see :func:`views.view_for`)."""
        table = self.table
        assert table.game is not None
        p = peer.seat
        key, view = self._view(peer, table.public_view() if public is None else public, shared)
        peer.send(views.update_message(
            table.game.version, key, view, views.events_for(p, update.events, update.public),
            actor=update.actor, auto=update.auto, seq=update.seq if update.cause == p and p is not None else None))

    def _broadcast_update(self, update: Update) -> None:
        """Each peer's update, followed by ``update.then`` if given (the same for everyone)."""
        table = self.table
        game = table.game
        assert game is not None
        if update.public is None:
            update.public = [e.view(None).to_dict() for e in update.events]
        # The table as everyone sees it is built once, and so is the patch to it
        # from the last one sent; each peer adds its own part.
        public = table.public_view()
        last, self._last_public = self._last_public, public
        shared = views.shared_patch(last, public)
        then = framing.pack(update.then) if update.then is not None else None
        spectator_frames: dict[int, tuple[bytes, Any]] = {}
        # The peer whose intent this was hears first: its round trip is the one a person feels.
        cause = update.cause
        peers = sorted(self.peers, key=lambda q: cause is None or q.seat != cause)
        for peer in peers:
            if peer.role is None or peer.closed:
                continue
            if peer.seat is None:
                # Spectators holding the same view get the same frame: encode it once.
                held = id(peer.sent_view[0]) if peer.sent_view is not None else 0
                built = spectator_frames.get(held)
                if built is None:
                    key, obs = self._view(peer, public, shared)
                    built = spectator_frames[held] = (framing.pack(views.update_message(
                        game.version, key, obs, update.public, actor=update.actor, auto=update.auto)),
                        peer.sent_view)
                peer.send_packed(built[0])
                peer.sent_view = built[1]  # what the frame leaves it holding, as for the first
            else:
                self._send_update(peer, update, public=public, shared=shared)
            if then is not None:
                peer.send_packed(then)
            # Out now, this peer's log entry, delivery and update in one write: it gets to work
            # on them while the host builds the next peer's.
            peer.flush()
        self.emit("update", {"version": game.version, "events": update.events, "actor": update.actor,
                             "auto": update.auto})

    def _save_first(self) -> None:
        """Write-ahead: what a peer is about to hear is saved first (see :attr:`Peer.before_flush`)."""
        self.table.store.save_if_due()

    # -- connections -----------------------------------------------------------------------------
    async def _on_connect(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = Peer(reader, writer, max_violations=self.config.max_violations)
        peer.before_flush = self._save_first
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
            wait, flood = peer.admit()
            if flood and peer.violation("rate", "too many messages; slow down"):
                return
            if wait:
                await asyncio.sleep(wait)  # slowed, not dropped (Peer.admit says why)
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
                self._refuse_version(peer, msg["v"])
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
        elif kind == "signed":
            self._signed(peer, msg)
        elif kind == "chat":
            text = messages.clean_text(msg["text"], messages.MAX_CHAT)
            if text:
                self.table.say(text, sender=peer.name, seat=peer.seat)
        elif kind == "ready":
            if peer.seat is None:
                peer.send(messages.error("no_seat", "spectators have no seat to be ready in"))
            else:
                self.table.ready(peer.seat, msg["ready"])
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
        self.emit("password", {"addr": peer.ip, "failures": failures, "wait": wait})
        reason = "wrong password for this table"
        if wait >= 1:
            reason += f"; the next try from your address must wait {math.ceil(wait)} s"
        self._refuse(peer, "password", reason)

    def _refuse(self, peer: Peer, code: str, reason: str) -> None:
        log.info("refusing %s: %s", peer, reason)
        if peer.handshake is not None:
            peer.channel = None  # the peer may not hold our keys: refuse in the clear
        peer.close(reason, notice=messages.refuse(code, reason))

    def _refuse_version(self, peer: Peer, v: int) -> None:
        self._refuse(peer, "version", f"this host speaks uno-tui protocol {PROTOCOL_VERSION} and your client "
                                      f"speaks {v}: use the same uno-tui version as the host")

    # -- hello and welcome -------------------------------------------------------------------------
    def _hello(self, peer: Peer, msg: dict[str, Any]) -> None:
        table = self.table
        if msg["v"] != PROTOCOL_VERSION:
            self._refuse_version(peer, msg["v"])
            return
        # The password was checked by the handshake: without it the link's keys do not match.
        peer.log_have = int(msg.get("log_have", 0))
        name = messages.clean_text(msg["name"], messages.MAX_NAME) or "Player"
        if msg.get("role") == "spectator":
            if sum(1 for p in self.peers if p.role == "spectator") >= self.config.max_spectators:
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
        elif table.phase != "lobby":
            if "token" in msg:
                self._refuse(peer, "token", "that resume token does not match any seat at this table")
            else:
                self._refuse(peer, "started", "the game has started; you can still watch with --spectate")
            return
        else:
            seat = table.sit(name, peer.identity)
            if seat is None:
                self._refuse(peer, "full", "every seat is taken; you can watch with --spectate")
                return
            peer.name = seat.name
            self._attach(seat, peer)
        peer.send(self._welcome(peer, seat))
        self._after_join(peer)
        # Only now, after its welcome and catch-up: the log entry this may append ("back") goes to
        # every peer, and a client reads nothing before its welcome.
        self.table.back(seat)

    def _welcome(self, peer: Peer, seat: Seat | None) -> dict[str, Any]:
        return {"type": "welcome", "v": PROTOCOL_VERSION, "seat": None if seat is None else seat.index,
                "token": None if seat is None else seat.token, "role": peer.role or "spectator",
                "name": peer.name, "host": self.config.name, "heartbeat": self.config.heartbeat,
                "fp": self.identity.fingerprint}

    def _after_join(self, peer: Peer) -> None:
        table = self.table
        self.emit("join", {"name": peer.name, "seat": peer.seat, "role": peer.role})
        self._count_spectators()
        table.broadcast_lobby()
        if table.dealer is not None:
            for msg in table.dealer.catch_up(peer.log_have, peer.seat):
                peer.send(msg)
        if table.game is not None:
            # The whole round so far, so a rejoined seat's log (or a spectator's) starts where the round did.
            for msg in views.history_messages(views.events_for(peer.seat, table.round_events)):
                peer.send(msg)
            self._send_update(peer, Update())
        if table.ended is not None and table.phase == "finished" and peer.seat is not None \
                and peer.seat not in table.told_end:
            table.told_end.add(peer.seat)
            peer.send(table.ended)  # it was away when the match ended (one told stays for a rematch)
        table.maybe_autostart()

    def _count_spectators(self) -> None:
        self.table.spectators = sum(1 for p in self.peers if p.role == "spectator")

    def _seat_for_token(self, token: Any) -> Seat | None:
        if not isinstance(token, str):
            return None
        for seat in self.table.seats:
            if seat.kind == "human" and seat.token and hmac.compare_digest(seat.token.encode(), token.encode()):
                return seat
        return None

    # -- away and back -----------------------------------------------------------------------------
    def _attach(self, seat: Seat, peer: Peer) -> None:
        seat.peer, seat.away_since = peer, None
        peer.seat, peer.role = seat.index, "player"
        handle = self._grace.pop(seat.index, None)
        if handle is not None:
            handle.cancel()

    def _drop(self, peer: Peer) -> None:
        peer.close(peer.close_reason or "dropped")
        self.peers.discard(peer)
        if peer.role is None:
            return
        self.emit("leave", {"name": peer.name, "seat": peer.seat, "reason": peer.close_reason})
        if peer.seat is not None:
            seat = self.table.seats[peer.seat]
            if seat.peer is peer:
                seat.peer = None
                if self.table.left(seat):
                    self._mark_away(seat)
        self._count_spectators()
        self.table.broadcast_lobby()

    def _mark_away(self, seat: Seat) -> None:
        seat.away_since = time.monotonic()
        old = self._grace.pop(seat.index, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._grace[seat.index] = loop.call_later(self.config.grace, self._grace_over, seat.index)

    def _grace_over(self, index: int) -> None:
        self._grace.pop(index, None)
        self.table.stand_in(index)

    # -- what seated players sign --------------------------------------------------------------------
    def _signed(self, peer: Peer, msg: dict[str, Any]) -> None:
        """A message signed by the peer's identity: an intent, or a step of the fair deal.

        Its content is checked against :data:`messages.SIGNED_SCHEMAS` first: every
        field bounded, none too many, so nothing a player signs can make a log
        entry the host builds from it outgrow a frame.
        """
        if self.table.dealer is None:
            peer.violation("not_playing", "there is no game to sign messages for")
            return
        m, sig = msg["m"], msg["sig"]
        try:
            d, action = messages.parse_signed(m)
        except MessageError as e:
            peer.violation(e.code, e.reason)
            return
        if peer.seat is None or peer.identity is None:
            if action is not None:
                self._reject(peer, d["seq"], "spectator", "only seated players sign messages")
            peer.violation("spectator", "only seated players sign messages")
            return
        self.table.signed(peer.seat, peer.identity, m, sig, d, action)

    def _reject(self, peer: Peer, seq: int, code: str, reason: str) -> None:
        game = self.table.game
        peer.send({"type": "reject", "seq": seq, "version": game.version if game else 0, "code": code,
                   "reason": reason})
