"""The client: one seat (or a spectator's chair) at a remote table.

Usage from a UI or a bot::

    client = Client("192.168.1.20:7777", "Alice")
    welcome = await client.connect()        # raises Refused / ProtocolVersionError / OSError
    await client.ready()
    while True:
        msg = await client.messages.get()   # update, lobby, chat, reject, error, end, link
        if msg["type"] == "update":
            obs = client.observation        # the latest core observation dict
        ...
    await client.send_intent(action)        # quotes the state version it saw

Every message from the host is validated against :data:`messages.HOST_SCHEMAS`
before it is queued. When the link drops, the client reconnects by itself
with backoff, quoting its seat's resume token; it queues local ``link``
messages (``{"type": "link", "state": "lost" | "restored" | "gave_up"}``,
never sent on the wire) so a screen can say so.

The link is encrypted and authenticated (:mod:`net.secure`); the host's key
is checked against the address's fingerprint and ``known_hosts``. The
client takes part in the fair deal by itself (:mod:`net.player`): it commits
and reveals seeds, checks every card delivered to it and every card shown,
writes the signed transcript to disk, and audits each round when it ends.
What it finds is queued as local messages (never sent on the wire):

* ``{"type": "audit", "round": r, "ok": bool, "code": str, "reason": str}`` -
  this client's own audit of round ``r`` (``code`` is empty when verified);
* ``{"type": "fairness", "ok": False, "code": str, "reason": str}`` - a check
  failed the moment a message arrived (a card that does not open its
  commitment, a ruling the shown hand contradicts, ...);
* ``{"type": "verdict", "seat": n, "name": str, "round": r, "ok": bool, "code": str,
  "reason": str}`` - another player's audit, as relayed in the signed log;
* ``{"type": "security", "level": "warning", "reason": str}`` - e.g. a known
  host whose key changed (accepted only because the address named the new key),
  or a host that went back past a revealed shuffle (allowed once a match);
* ``{"type": "auto", "round": r, "why": str, "action": dict, "live": bool}`` -
  the host made a move for this seat (``why``: ``timer``, ``away``, ``bench``);
* ``{"type": "accused", "by": str, "stage": str, "evidence": bool, "reason": str}``
  - the host struck this seat for a deadline; ``evidence``: this client had
  sent the answer, and keeps it in its transcript (see :mod:`net.watch`).

Every text in what it queues is cleaned (:func:`net.messages.clean_text`):
names, chat, reasons, verdicts may come from a hostile peer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import time
from pathlib import Path
from typing import Any, Callable

from core import Action

from . import framing, messages, patch, secure
from .address import parse_address, split_fingerprint
from .errors import NotConnected, Refused
from .ledger import Ledger
from .player import FairPlayer
from .watch import SeatWatch
from .framing import MAX_FRAME_FROM_HOST
from .identity import FP_ADDRESS, Identity, KnownHosts
from .messages import HOST_SCHEMAS, PROTOCOL_VERSION, MessageError
from .transcript import TranscriptWriter

log = logging.getLogger("net.client")



class ProtocolVersionError(Refused):
    """The two sides speak different protocol versions."""


class HostKeyChanged(Refused):
    """A host seen before presents another key: someone may be in the middle. Refused loudly."""


class Client(FairPlayer):
    """An async client of the uno-tui host.

    ``observation`` is the latest observation dict (``None`` before the game
    starts), ``lobby`` the latest lobby message, ``seat`` and ``token`` what
    the host gave us. Incoming messages go to the queue ``messages`` and to
    ``on_message`` if given.

    ``identity`` is this player's key (default: the user's, made on first
    run); ``fingerprint`` the host key's expected fingerprint (also read from
    an ``uno://host:port#fp`` address); ``config_dir`` where the identity and
    ``known_hosts`` live; ``transcript_dir`` where the signed transcript is
    written (``False``: nowhere). ``audits`` lists this client's round
    audits, ``fairness`` holds the first failed check (or None).
    """

    def __init__(
        self,
        address: str | tuple[str, int],
        name: str,
        *,
        password: str | None = None,
        spectate: bool = False,
        token: str | None = None,
        reconnect: bool = True,
        reconnect_for: float = 120.0,
        max_backoff: float = 5.0,
        connect_timeout: float = 5.0,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        protocol_version: int = PROTOCOL_VERSION,
        identity: Identity | None = None,
        fingerprint: str | None = None,
        config_dir: str | os.PathLike[str] | None = None,
        transcript_dir: str | os.PathLike[str] | bool | None = None,
    ) -> None:
        if isinstance(address, str):
            _rest, fp = split_fingerprint(address)
            fingerprint = fingerprint or fp
            self.host, self.port = parse_address(address)
        else:
            self.host, self.port = address
        self.expected_fp = fingerprint.lower() if fingerprint else None
        self.identity = identity or Identity.load(config_dir)
        self.known_hosts = KnownHosts(config_dir)
        self.transcript_dir = transcript_dir
        self.host_key: bytes | None = None
        """The host's identity key, pinned at the first connection."""
        self.ledger: Ledger | None = None
        self.audits: list[dict[str, Any]] = []
        self.fairness: dict[str, Any] | None = None
        self.transcript_path: Path | None = None
        self._transcript: TranscriptWriter | None = None
        self._transcript_flush = False
        """A flush of the transcript is on its way (see :meth:`_flush_transcript_soon`)."""
        self._channel: secure.Channel | None = None
        self._pending: list[dict[str, Any]] = []
        self._history: list[dict[str, Any]] = []
        """The round so far, as the host tells a peer joining mid-round (``history``), until the update after it."""
        """Messages that came in the welcome's frame, for :meth:`_receive` to take first."""
        self._seeds: dict[tuple[bytes, int, int, bytes], bytes] = {}
        """(game, epoch, attempt, deck root) -> this seat's seed: a fresh one for every commitment."""
        self._my_commit: dict[tuple[bytes, int, int], tuple[bytes, bytes]] = {}
        """(game, epoch, attempt) -> (deck root, this seat's seed commitment to it)."""
        self._watch = SeatWatch()
        self._stop_reason: str | None = None
        """Set when this client stops taking part (a host drawing again too often): the link ends with it."""
        self._bad_host: tuple[str, int] | None = None
        self._bad_count = 0
        """Links in a row ended by a message from the host this client cannot accept, at the same place."""
        self._n = time.time_ns() // 1000
        self._catch_up = 0
        """Entries below this index are history resent on (re)connecting: not answered, audited quietly."""
        self._held: list[tuple[Any, ...]] = []
        self._audit_due: list[int] = []
        """Rounds closed in the log whose audit runs once the frames already received are handled."""
        self._quiet: asyncio.TimerHandle | None = None
        self._last_frame = 0.0
        """When the latest frame arrived (the event loop's clock): audits and log signatures wait for a quiet spell."""
        self.name = name
        self.password = password
        self.spectate = spectate
        self.token = token
        self.reconnect = reconnect
        self.reconnect_for = reconnect_for
        self.max_backoff = max_backoff
        self.connect_timeout = connect_timeout
        self.on_message = on_message
        self.protocol_version = protocol_version  # only tests speak another version
        self.messages: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.seat: int | None = None
        self.role: str | None = None
        self.host_name: str | None = None
        self.observation: dict[str, Any] | None = None
        self.lobby: dict[str, Any] | None = None
        self.ended: dict[str, Any] | None = None
        self.heartbeat = 5.0
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._task: asyncio.Task[None] | None = None
        self._seq = 0
        self._closing = False
        self._connected = asyncio.Event()
        self._done = asyncio.Event()

    # -- state ----------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    @property
    def version(self) -> int | None:
        """The state version of the latest observation."""
        return None if self.observation is None else self.observation["version"]

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    # -- connecting -----------------------------------------------------------------
    async def connect(self) -> dict[str, Any]:
        """Connect and handshake; returns the welcome and starts receiving in the background."""
        welcome = await self._open()
        self._task = asyncio.ensure_future(self._run())
        return welcome

    def _check_version(self, reply: dict[str, Any]) -> None:
        kind, their_v = reply.get("type"), reply.get("v")
        if kind in ("welcome", "refuse", "hs2") and their_v != self.protocol_version and isinstance(their_v, int):
            raise ProtocolVersionError(
                "version", f"the host speaks uno-tui protocol {their_v} and this client speaks "
                f"{self.protocol_version}: use the same uno-tui version as the host"
                + (f" ({reply['reason']})" if isinstance(reply.get("reason"), str) else ""))

    def _check_host_key(self, key: bytes) -> None:
        from .identity import fingerprint

        fp = fingerprint(key)
        where = f"{self.host}:{self.port}"
        if self.host_key is not None:
            if key != self.host_key:
                raise HostKeyChanged("host_key", f"the host at {where} came back with another identity key "
                                                 f"({fp[:FP_ADDRESS]}); refusing to go on with it")
            return
        if self.expected_fp is not None and not fp.startswith(self.expected_fp):
            raise Refused("fingerprint", f"the host at {where} has key fingerprint {fp[:FP_ADDRESS]}, not "
                                         f"{self.expected_fp} as the address says: it is not the table you "
                                         "were given (or someone is in between)")
        known = self.known_hosts.get(where)
        if known is not None and known != key:
            old = fingerprint(known)[:FP_ADDRESS]
            if self.expected_fp is None:
                raise HostKeyChanged(
                    "host_key", f"WARNING: THE HOST KEY AT {where} HAS CHANGED (was {old}, now "
                    f"{fp[:FP_ADDRESS]}). Someone may be impersonating the host. If the host really has a "
                    f"new key, join with its full address: uno://{where}#{fp[:FP_ADDRESS]}")
            self._emit({"type": "security", "level": "warning",
                        "reason": f"the host key at {where} changed from {old} to {fp[:FP_ADDRESS]}; accepted "
                                  "because the address names the new key"})
        if known != key:
            with contextlib.suppress(OSError):
                self.known_hosts.remember(where, key)
        self.host_key = key

    async def _open(self) -> dict[str, Any]:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), self.connect_timeout)
        try:
            hs = secure.ClientHandshake(self.identity, self.protocol_version, self.password)
            writer.write(framing.HEADER.pack(len(hs.hs1)) + hs.hs1)
            await writer.drain()
            reply = await framing.read_frame(reader, max_size=MAX_FRAME_FROM_HOST,
                                             idle_timeout=self.connect_timeout, body_timeout=self.connect_timeout)
            self._check_version(reply)
            messages.validate(reply, HOST_SCHEMAS)
            kind = reply["type"]
            if kind == "refuse":
                cls = ProtocolVersionError if reply["code"] == "version" else Refused
                raise cls(messages.clean_text(reply["code"], 32), messages.clean_text(reply["reason"]))
            if kind != "hs2":
                raise Refused("protocol", f"the host answered the handshake with {kind!r}")
            try:
                host_key, channel, _body, auth = hs.finish(reply)
            except secure.HandshakeError as e:
                raise Refused(e.code, e.reason) from None
            self._check_host_key(host_key)
            have = len(self.ledger.entries) if self.ledger is not None else 0
            hello = messages.hello(self.name, token=self.token, spectate=self.spectate,
                                   version=self.protocol_version)
            hello["log_have"] = have
            for body in (auth, framing.pack(hello)):
                sealed = channel.seal(body)
                writer.write(framing.HEADER.pack(len(sealed)) + sealed)
            await writer.drain()
            raw = await framing.read_body(reader, max_size=MAX_FRAME_FROM_HOST + secure.OVERHEAD,
                                          idle_timeout=self.connect_timeout, body_timeout=self.connect_timeout)
            rest: list[dict[str, Any]] = []
            try:
                reply, *rest = framing.decode_many(channel.open(raw), MAX_FRAME_FROM_HOST)
            except secure.ChannelError:
                # Not sealed under our keys: a refusal in the clear (a wrong password), or garbage.
                reply = framing.decode(raw, MAX_FRAME_FROM_HOST)
                if reply.get("type") != "refuse":
                    raise Refused("handshake", "the host's answer does not authenticate") from None
            self._check_version(reply)
            messages.validate(reply, HOST_SCHEMAS)
            for msg in rest:
                messages.validate(msg, HOST_SCHEMAS)
            kind = reply["type"]
            if kind == "refuse":
                cls = ProtocolVersionError if reply["code"] == "version" else Refused
                raise cls(messages.clean_text(reply["code"], 32), messages.clean_text(reply["reason"]))
            if kind != "welcome":
                raise Refused("protocol", f"the host answered hello with {kind!r}")
        except BaseException:
            writer.close()
            raise
        self._channel = channel
        self._pending = rest  # what came in the welcome's frame: taken first by _receive
        self._history = []
        if self.ledger is None:
            self.ledger = Ledger(host_key, seat=reply["seat"], me=self.identity.public, defer_signatures=True)
        self.ledger.seat = reply["seat"]
        self._reader, self._writer = reader, writer
        self.seat, self.role = reply["seat"], reply["role"]
        self.token = reply["token"] if reply["token"] is not None else self.token
        self.host_name, self.heartbeat = messages.clean_text(reply["host"], 64), float(reply["heartbeat"])
        self._host_words = f"the host ({self.host_name or 'unnamed'}, key {host_key.hex()[:FP_ADDRESS]})"
        """How this client names the host when it accuses it of something."""
        self._watch.link_up()
        self._connected.set()
        return reply

    async def _run(self) -> None:
        try:
            while not self._closing:
                reason = await self._receive()
                self._connected.clear()
                if self._closing or self.ended is not None:
                    break
                if self._stop_reason is not None:
                    reason = self._stop_reason
                if not self.reconnect or (self.token is None and not self.spectate):
                    self._emit({"type": "link", "state": "gave_up", "reason": reason})
                    break
                self._emit({"type": "link", "state": "lost", "reason": reason})
                if not await self._reconnect():
                    break
                self._emit({"type": "link", "state": "restored", "reason": ""})
        finally:
            self._connected.clear()
            self._done.set()

    async def _reconnect(self) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.reconnect_for
        delay = 0.1
        while not self._closing and loop.time() < deadline:
            # Jitter keeps a table of clients from knocking on a restarted host in lockstep.
            await asyncio.sleep(delay * (0.5 + random.random()))
            try:
                await self._open()
                return True
            except Refused as e:
                self._emit({"type": "link", "state": "gave_up", "reason": e.reason})
                return False
            except (OSError, asyncio.TimeoutError, framing.FrameError, MessageError) as e:
                log.debug("reconnect to %s failed: %s", self.address, e)
            delay = min(self.max_backoff, delay * 2)
        if not self._closing:
            self._emit({"type": "link", "state": "gave_up", "reason": "the host did not come back"})
        return False

    async def _receive(self) -> str:
        """Read frames until the link fails; returns why it did."""
        reader = self._reader
        assert reader is not None
        loop = asyncio.get_running_loop()
        pending, self._pending = self._pending, []  # what came with the welcome
        while True:
            for msg in pending:
                reason = self._take(msg)
                if reason is not None:
                    return reason
            try:
                body = await framing.read_body(reader, max_size=MAX_FRAME_FROM_HOST + secure.OVERHEAD,
                                               idle_timeout=3 * self.heartbeat + 1, body_timeout=10)
                self._last_frame = loop.time()
                assert self._channel is not None
                # A frame from the host may hold several messages: all it had for us at once.
                pending = framing.decode_many(self._channel.open(body), MAX_FRAME_FROM_HOST)
                for msg in pending:
                    messages.validate(msg, HOST_SCHEMAS)
            except secure.ChannelError as e:
                self._drop_link()
                return str(e)
            except (framing.FrameError, MessageError) as e:
                self._drop_link()
                return self._refused_from_host(str(e))
            except (OSError, asyncio.IncompleteReadError) as e:
                self._drop_link()
                return str(e) or type(e).__name__

    def _refused_from_host(self, reason: str) -> str:
        """The link ended on a message from the host this client cannot take; the third time at the
        same place (the host sends the same thing on every reconnection), it stops trying."""
        where = (reason, len(self.ledger.entries) if self.ledger is not None else 0)
        self._bad_count = self._bad_count + 1 if where == self._bad_host else 1
        self._bad_host = where
        if self._bad_count >= 3:
            self.reconnect = False
            return f"the host keeps sending what this client cannot accept ({reason})"
        return reason

    def _take(self, msg: dict[str, Any]) -> str | None:
        """Act on one message from the host (checked against its schema); returns why the link ends, if it does."""
        kind = msg["type"]
        if kind == "ping":
            self._write({"type": "pong", **({"t": msg["t"]} if "t" in msg else {})})
            return None
        if kind == "pong":
            return None
        if kind in ("log", "deliver", "ruling", "sync"):
            self._fair_message(msg)
            if self._stop_reason is not None:
                self._bye(self._stop_reason)
                return self._stop_reason
            return None
        if kind == "history":
            self._history.extend(msg["events"])
            del self._history[:-messages.MAX_HISTORY]  # (a host cannot make this client hoard)
            return None
        if kind == "update":
            if self._history:  # joined mid-round: the update says what came before it, whole
                msg["history"], self._history = self._history, []
            if "patch" in msg:  # what changed in the view this client holds (see net.patch)
                try:
                    if self.observation is None:
                        raise patch.PatchError("a patch came before any whole view")
                    msg["obs"] = patch.apply(self.observation, msg.pop("patch"))
                except patch.PatchError as e:
                    self._drop_link()  # reconnecting brings the whole view again
                    return self._refused_from_host(str(e))
            self.observation = msg["obs"]
            self._check_hand(msg["obs"])
        elif kind == "lobby":
            msg = _cleaned_lobby(msg)
            self.lobby = msg
        elif kind == "end":
            self.ended = msg
            self._check_last_verdicts()
        else:
            msg = _cleaned(msg)
        self._emit(msg)
        if kind == "end":
            self._run_due_audit()  # the last round's verdict goes out, and into the transcript, first
            if self._transcript is not None:
                self._transcript.seal("over")
            self._drop_link()
            return "the game is over"
        if kind == "bye" or (kind == "error" and msg["fatal"]):
            self._drop_link()
            reason = msg.get("reason") or "the host closed the connection"
            if kind == "error" and msg["code"] == "replaced":
                self.reconnect = False  # another client holds our seat now: do not fight it
            if kind == "bye" and msg.get("closed"):
                self.reconnect = False  # the table is closed for good: nothing to come back to
                reason = "the host closed the table" + (f" ({reason})" if msg.get("reason") else "")
            return reason
        return None

    def _bye(self, reason: str) -> None:
        """Leave the table on purpose (no reconnecting)."""
        self.reconnect = False
        with contextlib.suppress(Exception):
            self._write({"type": "bye", "reason": reason[:200]})
        self._drop_link()

    def _drop_link(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        self._writer = None
        self._connected.clear()

    def _emit(self, msg: dict[str, Any]) -> None:
        if msg["type"] in _LOCAL_TEXT:  # made here from what the host sent: clean every text in it
            msg = {k: messages.clean_text(v) if isinstance(v, str) else v for k, v in msg.items()}
        self.messages.put_nowait(msg)
        if self.on_message is not None:
            try:
                self.on_message(msg)
            except Exception:
                log.exception("on_message failed")

    def _write(self, msg: dict[str, Any]) -> None:
        if self._writer is None or not self._connected.is_set() or self._channel is None:
            raise NotConnected("not connected to the host")
        sealed = self._channel.seal(framing.pack(msg))
        self._writer.write(framing.HEADER.pack(len(sealed)) + sealed)

    # -- what a player does ------------------------------------------------------------
    async def send_intent(self, action: Action | dict[str, Any], *, version: int | None = None) -> int:
        """Send an intent quoting the state version it was built on; returns its sequence number.

        The host answers with an ``update`` carrying this ``seq`` when it was
        applied, or a ``reject`` with a reason when it was not.
        """
        if isinstance(action, dict):
            action = Action.from_dict(action)
        if self.seat is None:
            raise NotConnected("spectators cannot act")
        if self._stop_reason is not None:
            raise NotConnected(self._stop_reason)
        v = version if version is not None else (self.version or 0)
        self._seq += 1
        if not self._connected.is_set():
            raise NotConnected("not connected to the host")
        self._send_signed("intent", seq=self._seq, v=v, act=action.to_dict())
        if self._writer is not None:
            with contextlib.suppress(ConnectionError):
                await self._writer.drain()
        return self._seq

    async def chat(self, text: str) -> None:
        text = text.strip()[: messages.MAX_CHAT]
        if text:
            await self._send({"type": "chat", "text": text})

    async def ready(self, ready: bool = True) -> None:
        await self._send({"type": "ready", "ready": ready})

    async def send_raw(self, msg: dict[str, Any]) -> None:
        """Send any message as it is (for tests and tools; the host validates it)."""
        await self._send(msg)

    async def next_message(self, timeout: float | None = None) -> dict[str, Any]:
        return await asyncio.wait_for(self.messages.get(), timeout)

    async def wait_closed(self) -> None:
        await self._done.wait()

    async def close(self) -> None:
        """Say goodbye and stop (no reconnecting)."""
        self._closing = True
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None
        self._run_due_audit()
        if self._writer is not None and self._connected.is_set():
            with contextlib.suppress(Exception):
                self._write({"type": "bye"})
                await asyncio.wait_for(self._writer.drain(), 1)
        self._drop_link()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._transcript is not None:
            self._transcript.close("left")
        self._done.set()

    def kill_link(self) -> None:
        """Cut the connection without a goodbye, as a crash or a pulled cable would (tests use it)."""
        if self._writer is not None:
            self._writer.transport.abort()


_LOCAL_TEXT = frozenset({"fairness", "security", "audit", "verdict", "auto", "accused", "link"})
"""Messages this client makes from what the host (or a peer through it) said: their texts are cleaned."""


def _cleaned(msg: dict[str, Any]) -> dict[str, Any]:
    """A message from the host with every text in it cleaned (chat, reasons): fit for a terminal."""
    if not any(isinstance(v, str) for k, v in msg.items() if k != "type"):
        return msg
    return {k: messages.clean_text(v) if isinstance(v, str) and k != "type" else v for k, v in msg.items()}


def _cleaned_lobby(msg: dict[str, Any]) -> dict[str, Any]:
    """A lobby message with the table's and the seats' names cleaned."""
    seats = [{**s, "name": messages.clean_text(s.get("name", ""), messages.MAX_NAME)} if isinstance(s, dict) else s
             for s in msg["seats"]]
    return {**msg, "host": messages.clean_text(msg["host"], 64), "seats": seats}
