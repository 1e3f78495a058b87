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
client takes part in the fair deal by itself (:mod:`net.fair`): it commits
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
import secrets
import time
from pathlib import Path
from typing import Any, Callable

from core import Action

from . import framing, messages, patch, secure
from .address import parse_address, split_fingerprint
from .fair import HOST_PID, Ledger, Unfair, entry_hash, peer_message, seed_commitment, unpack
from .watch import SeatWatch
from .framing import MAX_FRAME_FROM_HOST
from .identity import FP_ADDRESS, Identity, KnownHosts
from .messages import HOST_SCHEMAS, PROTOCOL_VERSION, MessageError
from .runtime import collect_when_idle
from .transcript import TranscriptWriter, default_transcript_dir

log = logging.getLogger("net.client")

QUIET = 0.05
"""Seconds without a frame from the host after which the work kept off the path of the moves is done:
the round's audit, and the host's signatures on the log entries taken so far."""
SIG_CHECK_BATCH = 64
"""Signatures checked in one go (about 4 ms) before frames that arrived meanwhile are handled."""


class Refused(Exception):
    """The host would not seat us; ``code`` says why (``version``, ``password``, ``full``, ...)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class ProtocolVersionError(Refused):
    """The two sides speak different protocol versions."""


class HostKeyChanged(Refused):
    """A host seen before presents another key: someone may be in the middle. Refused loudly."""


class NotConnected(Exception):
    """An intent or chat line was sent while the link is down."""


class Client:
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
            for body in (auth, framing.encode(hello)[framing.HEADER.size:]):
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
        if kind == "update":
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
        sealed = self._channel.seal(framing.encode(msg)[framing.HEADER.size:])
        self._writer.write(framing.HEADER.pack(len(sealed)) + sealed)

    # -- the fair deal ------------------------------------------------------------------
    def _unfair(self, u: Unfair) -> None:
        """Note a failed check; the first one is what this client reports (and keeps reporting)."""
        if self.fairness is None:
            self.fairness = {"code": u.code, "reason": u.reason}
            log.warning("fairness check failed: %s: %s", u.code, u.reason)
            self._emit({"type": "fairness", "ok": False, "code": u.code, "reason": u.reason})

    def _record(self, kind: str, msg: dict[str, Any]) -> None:
        if self.transcript_dir is False:
            return
        if self._transcript is None:
            try:
                directory = Path(self.transcript_dir) if self.transcript_dir else default_transcript_dir()
                who = f"seat{self.seat}" if self.seat is not None else "spectator"
                host_fp = (self.host_key or b"").hex()[:12]
                # n0: every message this client signs from now on has a larger counter (the audit
                # asks a `sent` record of those, not of an earlier session's).
                self._transcript = TranscriptWriter.create(directory, f"{host_fp}-{who}", signer=self.identity,
                                                           seat=self.seat, host=self.host_key, batched=True,
                                                           n0=self._n)
                self.transcript_path = self._transcript.path
            except OSError as e:
                log.error("cannot write the transcript: %s", e)
                self.transcript_dir = False
                return
        if kind == "log":
            self._transcript.log(msg["e"], msg["sig"])
        elif kind == "sync":
            self._transcript.sync(msg["len"], msg["head"])
        else:
            self._transcript.private(kind, msg["m"], msg["sig"])
        self._flush_transcript_soon()

    def _flush_transcript_soon(self) -> None:
        """The transcript's new records go to disk on the loop's next turn: one write for a frame's worth."""
        if self._transcript is None or self._transcript_flush:
            return
        try:
            asyncio.get_running_loop().call_soon(self._flush_transcript)
            self._transcript_flush = True
        except RuntimeError:  # no loop (a test feeding messages by hand): at once
            self._transcript.flush()

    def _flush_transcript(self) -> None:
        self._transcript_flush = False
        if self._transcript is not None:
            self._transcript.flush()

    def _fair_message(self, msg: dict[str, Any]) -> None:
        self._run_due_audit()  # the round's audit sees the ledger as the round left it
        kind = msg["type"]
        ledger = self.ledger
        if ledger is None:
            return
        if kind == "sync":
            length = msg["len"]
            self._catch_up = length
            self._held = []
            self._record(kind, msg)  # every (re)connection: the deliveries resent after it are no duplicates
            if length < len(ledger.entries):
                if length and entry_hash(ledger.entries[length - 1][0]) != msg["head"]:
                    self._unfair(Unfair("chain", "the host's log forks from the one this client holds"))
                    return
                if self.fairness is None:
                    before = ledger.redraws()
                    try:
                        self.ledger = ledger.rebuilt(length)
                    except Unfair as u:
                        self._unfair(u)
                        if u.code == "rewind":
                            self._stop(u.reason)
                        return
                    self._emit({"type": "security", "level": "warning",
                                "reason": f"the host restarted and went back {len(ledger.entries) - length} "
                                          "log entries"})
                    if self.ledger.redraws() > before:
                        self._emit({"type": "security", "level": "warning",
                                    "reason": "the host went back past a revealed shuffle: it may deal those "
                                              "cards again. A crash may do that once in a match; a second "
                                              "time, this client stops playing"})
            if length <= len(self.ledger.entries):
                self._flush_held()  # nothing to catch up: what is owed is owed now
            return
        self._record(kind, msg)
        try:
            if kind == "log":
                try:
                    d = unpack(msg["e"])
                except Exception:
                    d = None  # the ledger says what is wrong with it
                if ledger.entries and isinstance(d, dict) and d.get("i", -1) < len(ledger.entries):
                    return  # resent after a reconnect: already held
                index = len(ledger.entries)
                acts = ledger.add_entry(msg["e"], msg["sig"], d)
                if ledger.unchecked and self._quiet is None:
                    self._when_quiet_in(QUIET)
                live = index >= self._catch_up  # made while this link was up (not history resent on it)
                if not live:
                    for act in acts:
                        if act[0] == "audit":
                            self._audit(act[1], quiet=True)
                        elif act[0] in ("seed", "ack", "reveal"):
                            self._held.append(act)
                        elif act[0] == "warn":
                            self._fair_act(act)
                    if len(ledger.entries) == self._catch_up:
                        self._flush_held()
                else:
                    for act in acts:
                        self._fair_act(act)
                if self.seat is not None and isinstance(d, dict):
                    self._watch_entry(d, index, live)
            elif kind == "deliver":
                items = ledger.add_delivery(msg["m"], msg["sig"])
                if items and self.seat is not None:
                    self._fair_send("rcpt", cards=items, x=entry_hash(msg["m"]))
            elif kind == "ruling":
                ledger.add_ruling(msg["m"], msg["sig"])
        except Unfair as u:
            self._unfair(u)
        except Exception as e:  # a malformed message from the host is a failed check too
            self._unfair(Unfair("protocol", f"a {kind} message could not be read ({type(e).__name__}: {e})"))

    def _when_quiet_in(self, delay: float) -> None:
        try:
            self._quiet = asyncio.get_running_loop().call_later(delay, self._when_quiet)
        except RuntimeError:  # no loop (a test feeding messages by hand): the audit does it all
            self._quiet = None
            self._run_due_audit()

    def _when_quiet(self) -> None:
        """Once the host has been silent for :data:`QUIET` seconds: the round's audit, then signatures.

        Neither holds up a move: an update is in the player's hands without
        waiting for them (on a machine with several players, nor for the others'),
        and they run at the latest before the next log entry is taken (the
        audit) or within the audit (the signatures).
        """
        self._quiet = None
        ledger = self.ledger
        if ledger is None or self._closing or not (self._audit_due or ledger.unchecked):
            return
        quiet = asyncio.get_running_loop().time() - self._last_frame
        if quiet < QUIET:
            self._when_quiet_in(QUIET - quiet)
            return
        if self._audit_due:
            self._run_due_audit()  # checks every signature left, too
            collect_when_idle()  # an audit leaves a replayed round behind
            return
        try:
            more = ledger.check_signatures(limit=SIG_CHECK_BATCH)
        except Unfair as u:
            self._unfair(u)
            return
        if more:  # a long backlog (a reconnect's catch-up): in slices, frames go first in between
            self._when_quiet_in(0)
        else:
            collect_when_idle()

    def _flush_held(self) -> None:
        """After catching up: answer only the steps of the deal still waiting for us, and a verdict owed."""
        ledger = self.ledger
        assert ledger is not None
        held, self._held = self._held, []
        gid = ledger.game_id or b""
        for act in held:
            ep = ledger.epochs.get((act[1], act[2]))
            if ep is None or ep.aborted or ep.pi is not None:
                continue
            what = act[0]
            mine = self._my_commit.get((gid, ep.e, ep.a))
            if what == "seed" and ep.set_hash is None:
                self._fair_act(act)
            elif what in ("ack", "reveal") and mine is not None and mine[0] == ep.root:
                if what == "ack" and ep.acks:
                    continue
                self._fair_act(act)
        # The round just closed, audited quietly on the way: the host still waits for our word on it.
        r = ledger.verdict_owed(self.seat) if self.seat is not None else None
        done = next((a for a in reversed(self.audits) if a["round"] == r), None)
        if r is not None and done is not None:
            self._send_verdict(r, done)

    def _watch_entry(self, d: dict[str, Any], index: int, live: bool) -> None:
        """What this seat alone can judge of a log entry (see :mod:`net.watch`)."""
        ledger = self.ledger
        assert ledger is not None and self.seat is not None
        host = self._host_words
        notes, evidence, failed = self._watch.entry(d, index, live, time.monotonic(), ledger, self.seat, host,
                                                    self.lobby)
        for i, m, sig in evidence:
            if self._transcript is not None:
                self._transcript.evidence(i, m, sig)
                self._flush_transcript_soon()
        for note in notes:
            self._emit(note)
        if failed is not None:
            self._unfair(failed)

    def _stop(self, reason: str) -> None:
        """Stop taking part: leave the table and do not come back (the host is not to be played with)."""
        self._stop_reason = f"this client stopped playing: {reason}"
        self.reconnect = False

    def _fair_act(self, act: tuple[Any, ...]) -> None:
        ledger = self.ledger
        assert ledger is not None
        what = act[0]
        gid = ledger.game_id or b""
        now = time.monotonic()
        if what == "seed":
            _, e, a, root = act
            # A fresh seed for every commitment: a host that re-runs an epoch (a new root) after seeing
            # our seed gets a new one, never the old one to grind its order against.
            r = self._seeds.setdefault((gid, e, a, root), secrets.token_bytes(32))
            d = seed_commitment(root, self.identity.public, r)
            self._my_commit[(gid, e, a)] = (root, d)
            self._watch.asked(("seed", e, a), now)
            self._fair_send("seed", e=e, a=a, root=root, d=d)
        elif what == "ack":
            _, e, a, set_h = act
            ep = ledger.epochs[(e, a)]
            mine = self._my_commit.get((gid, e, a))
            if mine is None or mine[0] != ep.root:
                return  # we never committed to this one (another client of ours did)
            if ep.seeds.get(self.seat if self.seat is not None else HOST_PID) != mine[1]:
                raise Unfair("equivocation", f"epoch {e}: the host showed this seat's seed commitment altered")
            self._watch.asked(("ack", e, a), now)
            self._fair_send("ack", e=e, a=a, set=set_h)
        elif what == "reveal":
            _, e, a = act
            ep = ledger.epochs.get((e, a))
            r = self._seeds.get((gid, e, a, ep.root)) if ep is not None else None
            if r is not None:
                self._watch.asked(("reveal", e, a), now)
                self._fair_send("reveal", e=e, a=a, r=r)
        elif what == "audit":
            # Audited once the link is quiet (the update of the round's last move handled, here
            # and at the other players' screens), and at the latest before the next log entry
            # is fed: the audit checks exactly the same ledger, and no move is held up by it.
            self._audit_due.append(act[1])
            if self._quiet is not None:
                self._quiet.cancel()
            self._when_quiet_in(QUIET)
        elif what == "verdict":
            _, seat, ok, code, why, r = act
            name = ledger.names[seat] if 0 <= seat < len(ledger.names) else f"seat {seat}"
            self._emit({"type": "verdict", "seat": seat, "name": name, "round": r, "ok": ok, "code": code,
                        "reason": why})
        elif what == "warn":
            self._emit({"type": "security", "level": "warning", "reason": act[1]})

    def _run_due_audit(self) -> None:
        while self._audit_due:
            r = self._audit_due.pop(0)
            try:
                self._audit(r)
            except Exception as e:  # as for any other check: a failure, never a crash
                self._unfair(Unfair("protocol", f"the audit of round {r} failed ({type(e).__name__}: {e})"))

    def _audit(self, r: int, quiet: bool = False) -> None:
        ledger = self.ledger
        assert ledger is not None
        try:
            ledger.audit_round()
            if self.fairness is not None:
                raise Unfair(self.fairness["code"], self.fairness["reason"])
            verdict = {"type": "audit", "round": r, "ok": True, "code": "", "reason": "verified"}
        except Unfair as u:
            verdict = {"type": "audit", "round": r, "ok": False, "code": u.code, "reason": u.reason}
            if quiet:
                self.audits.append(verdict)
                return
            self._unfair(u)
        self.audits.append(verdict)
        if quiet:
            return
        self._emit(verdict)
        if self.seat is not None and self.seat not in ledger.verdicts.get(r, ()):
            self._send_verdict(r, verdict)

    def _send_verdict(self, r: int, verdict: dict[str, Any]) -> None:
        """This seat's signed verdict on round ``r``: the host logs it for the table, and waits for it."""
        self._watch.asked(("verdict", r), time.monotonic())
        self._fair_send("verdict", r=r, ok=verdict["ok"], code=verdict["code"][:messages.MAX_WORD],
                        why=messages.clean_text(verdict["reason"], messages.MAX_WHY))

    def _check_last_verdicts(self) -> None:
        """At the end of the match, every person's verdict on the last round is in the log (or a strike)."""
        ledger = self.ledger
        if ledger is None or ledger.game_id is None:
            return
        self._run_due_audit()
        try:
            ledger.check_end()
        except Unfair as u:
            self._unfair(u)

    def _check_hand(self, obs: dict[str, Any]) -> None:
        """The hand shown: counted as the public list counts it, made of cards delivered to us, and
        remembered for the audit (which compares it with the hand the rules give us)."""
        ledger = self.ledger
        if ledger is None or ledger.game_id is None or obs.get("me") is None or self.seat is None:
            return
        try:
            self._watch.update(obs, self.seat, time.monotonic())
            hand = obs.get("hand", [])
            ledger.note_hand(obs["version"], [c.get("id") for c in hand])
            if self.fairness is None and not obs.get("over") and ledger.close is None:
                ledger.check_hand(hand)
        except Unfair as u:
            self._unfair(u)

    def _fair_send(self, kind: str, **fields: Any) -> None:
        """Sign and send one message of the fair deal (test doubles override this to misbehave)."""
        self._send_signed(kind, **fields)

    def _send_signed(self, kind: str, **fields: Any) -> tuple[bytes, bytes]:
        ledger = self.ledger
        gid = ledger.game_id if ledger is not None and ledger.game_id else b""
        head = ledger.head if ledger is not None else bytes(32)
        self._n += 1
        m, sig = peer_message(self.identity, kind, gid, self.seat, self._n, head, **fields)
        self._watch.sent({"k": kind, **fields}, m, sig, time.monotonic())
        if self._transcript is not None:
            self._transcript.private("sent", m, sig)
            self._flush_transcript_soon()
        with contextlib.suppress(NotConnected):
            self._write({"type": "signed", "m": m, "sig": sig})
        return m, sig

    async def _send(self, msg: dict[str, Any]) -> None:
        self._write(msg)
        assert self._writer is not None
        with contextlib.suppress(ConnectionError):
            await self._writer.drain()

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
