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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Any, Callable

from core import Action

from . import framing, messages
from .address import parse_address
from .framing import MAX_FRAME_FROM_HOST
from .messages import HOST_SCHEMAS, PROTOCOL_VERSION, MessageError

log = logging.getLogger("net.client")


class Refused(Exception):
    """The host would not seat us; ``code`` says why (``version``, ``password``, ``full``, ...)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class ProtocolVersionError(Refused):
    """The two sides speak different protocol versions."""


class NotConnected(Exception):
    """An intent or chat line was sent while the link is down."""


class Client:
    """An async client of the uno-tui host.

    ``observation`` is the latest observation dict (``None`` before the game
    starts), ``lobby`` the latest lobby message, ``seat`` and ``token`` what
    the host gave us. Incoming messages go to the queue ``messages`` and to
    ``on_message`` if given.
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
    ) -> None:
        self.host, self.port = parse_address(address) if isinstance(address, str) else address
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

    async def _open(self) -> dict[str, Any]:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(self.host, self.port), self.connect_timeout)
        try:
            writer.write(framing.encode(messages.hello(
                self.name, token=self.token, password=self.password, spectate=self.spectate,
                version=self.protocol_version)))
            await writer.drain()
            reply = await framing.read_frame(reader, max_size=MAX_FRAME_FROM_HOST,
                                             idle_timeout=self.connect_timeout, body_timeout=self.connect_timeout)
            kind = reply.get("type")
            their_v = reply.get("v")
            if kind in ("welcome", "refuse") and their_v != self.protocol_version and isinstance(their_v, int):
                raise ProtocolVersionError(
                    "version", f"the host speaks uno-tui protocol {their_v} and this client speaks "
                    f"{self.protocol_version}: use the same uno-tui version as the host"
                    + (f" ({reply['reason']})" if isinstance(reply.get("reason"), str) else ""))
            messages.validate(reply, HOST_SCHEMAS)
            if kind == "refuse":
                cls = ProtocolVersionError if reply["code"] == "version" else Refused
                raise cls(reply["code"], reply["reason"])
            if kind != "welcome":
                raise Refused("protocol", f"the host answered hello with {kind!r}")
        except BaseException:
            writer.close()
            raise
        self._reader, self._writer = reader, writer
        self.seat, self.role = reply["seat"], reply["role"]
        self.token = reply["token"] if reply["token"] is not None else self.token
        self.host_name, self.heartbeat = reply["host"], float(reply["heartbeat"])
        self._connected.set()
        return reply

    async def _run(self) -> None:
        try:
            while not self._closing:
                reason = await self._receive()
                self._connected.clear()
                if self._closing or self.ended is not None:
                    break
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
        while True:
            try:
                msg = await framing.read_frame(reader, max_size=MAX_FRAME_FROM_HOST,
                                               idle_timeout=3 * self.heartbeat + 1, body_timeout=10)
                messages.validate(msg, HOST_SCHEMAS)
            except (framing.FrameError, MessageError) as e:
                self._drop_link()
                return str(e)
            except (OSError, asyncio.IncompleteReadError) as e:
                self._drop_link()
                return str(e) or type(e).__name__
            kind = msg["type"]
            if kind == "ping":
                self._write({"type": "pong", **({"t": msg["t"]} if "t" in msg else {})})
                continue
            if kind == "pong":
                continue
            if kind == "update":
                self.observation = msg["obs"]
            elif kind == "lobby":
                self.lobby = msg
            elif kind == "end":
                self.ended = msg
            self._emit(msg)
            if kind == "end":
                self._drop_link()
                return "the game is over"
            if kind == "bye" or (kind == "error" and msg["fatal"]):
                self._drop_link()
                reason = msg.get("reason", "the host closed the connection")
                if kind == "error" and msg["code"] == "replaced":
                    self.reconnect = False  # another client holds our seat now: do not fight it
                return reason

    def _drop_link(self) -> None:
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        self._writer = None
        self._connected.clear()

    def _emit(self, msg: dict[str, Any]) -> None:
        self.messages.put_nowait(msg)
        if self.on_message is not None:
            try:
                self.on_message(msg)
            except Exception:
                log.exception("on_message failed")

    def _write(self, msg: dict[str, Any]) -> None:
        if self._writer is None or not self._connected.is_set():
            raise NotConnected("not connected to the host")
        self._writer.write(framing.encode(msg))

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
        v = version if version is not None else (self.version or 0)
        self._seq += 1
        await self._send(messages.intent(self._seq, v, self.seat, action))
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
        if self._writer is not None and self._connected.is_set():
            with contextlib.suppress(Exception):
                self._writer.write(framing.encode({"type": "bye"}))
                await asyncio.wait_for(self._writer.drain(), 1)
        self._drop_link()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        self._done.set()

    def kill_link(self) -> None:
        """Cut the connection without a goodbye, as a crash or a pulled cable would (tests use it)."""
        if self._writer is not None:
            self._writer.transport.abort()
