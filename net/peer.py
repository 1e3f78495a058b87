"""The host's side of one connection: sending, violation counting, rate limits.

Messages sent to a peer while the host handles one event (an intent: the log
entry, a delivery, the update) are queued, then sealed as one frame and written
in one ``write`` (one ``send`` system call, one wake-up of the peer) when the
host flushes them or, at the latest, on the event loop's next turn: on
loopback each ``send`` that wakes a peer costs far more than its bytes.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from typing import Any, Callable

from . import framing, messages

MAX_WRITE_BUFFER = 1024 * 1024
"""A peer that lets this much pile up unread is dropped, so it cannot make the host hoard memory."""

RATE = 1000.0
"""Frames a second a peer may send, sustained, before the host slows its reading (honest bot
clients at a fast table send 200-280 a second: measured in open-host matches of three)."""
BURST = 1000.0
"""Frames a peer may send at once before it is slowed; as many more in a row over the rate are a flood."""

_ids = itertools.count(1)


class Peer:
    """One client connection as the host sees it."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 max_violations: int, rate: float = RATE, burst: float = BURST) -> None:
        self.id = next(_ids)
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.addr = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) >= 2 else str(peer)
        self.ip = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)
        """The peer's address without the port: what password attempts are counted by."""
        self.name = ""
        self.role: str | None = None  # None until the handshake: "player" or "spectator"
        self.seat: int | None = None
        self.channel: Any = None
        """The sealed link (:class:`net.secure.Channel`) once the handshake has begun."""
        self.handshake: Any = None
        """Between ``hs2`` and a good ``auth``: what checks the client's signature."""
        self.identity: bytes | None = None
        """The client's Ed25519 public key, proven in the handshake."""
        self.log_have = 0
        self.violations = 0
        self.max_violations = max_violations
        self.closed = False
        self.close_reason = ""
        # A token bucket: frames over the rate are slowed (see :meth:`admit`), a flood is a violation.
        self._rate, self._burst = rate, burst
        self._tokens = burst
        self._stamp = time.monotonic()
        self._drained = 0
        """Frames taken since the bucket was last half full."""
        self._out: list[bytes | memoryview] = []
        """Frame bodies not yet sealed and handed to the transport (see :meth:`flush`)."""
        self.before_flush: Callable[[], None] | None = None
        """Called before queued frames leave (the gateway makes it the table's save, so every log
        entry a peer hears is on disk first: a host killed and resumed never forks the log a peer
        holds, which would be a false alarm)."""
        self._out_size = 0
        self.sent_view: tuple[dict[str, Any], dict[str, Any]] | None = None
        """The view last sent on this link, as (public part, this peer's part): what patches build on."""

    def __repr__(self) -> str:
        return f"<Peer #{self.id} {self.addr} {self.name!r} seat={self.seat}>"

    # -- sending ---------------------------------------------------------------------
    def send(self, message: dict[str, Any]) -> None:
        self._send_body(framing.pack(message))

    def send_plain(self, message: dict[str, Any]) -> None:
        """A frame outside the sealed link (the handshake, and a refusal the peer could not decrypt)."""
        self.send_raw(framing.encode(message))

    def send_raw(self, data: bytes) -> None:
        """Bytes as they are, after every frame queued before them."""
        self.flush()
        if not self.closed and not self.writer.transport.is_closing():
            self.writer.write(data)

    def send_packed(self, body: bytes) -> None:
        """Queue a message packed already (:func:`framing.pack`: one body for many links), sealed for
        this link when it is flushed; never waits, so one slow peer cannot stall the table."""
        self._send_body(body)

    def _send_body(self, body: bytes | memoryview) -> None:
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing():
            self.closed = True
            return
        if transport.get_write_buffer_size() + self._out_size > MAX_WRITE_BUFFER:
            self.close("too far behind: it does not read what the host sends")
            return
        if not self._out:
            try:  # written on the loop's next turn at the latest, if the host does not flush first
                asyncio.get_running_loop().call_soon(self.flush)
            except RuntimeError:  # no loop: nothing to batch with
                self._out.append(body)
                self.flush()
                return
        self._out.append(body)
        self._out_size += len(body)

    def flush(self) -> None:
        """Seal the queued messages and hand them to the transport in one write.

        On a sealed link they go as few frames as they fit in (a frame of
        several messages back to back, up to :data:`framing.MAX_BUNDLE`): the
        peer then opens, reads and checks one frame per move instead of one
        per message. Sealing waits until here so that a host sending to many
        peers in turn spends nothing on the later peers' frames before the
        first is on its way. Before the handshake each message is a frame.
        """
        if not self._out:
            return
        if self.before_flush is not None:
            self.before_flush()
        bodies = self._out
        self._out = []
        self._out_size = 0
        channel = self.channel
        if channel is None:
            data = b"".join(framing.HEADER.pack(len(body)) + body for body in bodies)
        else:
            bundles: list[list[bytes | memoryview]] = [[]]
            size = 0
            for body in bodies:
                if bundles[-1] and size + len(body) > framing.MAX_BUNDLE:
                    bundles.append([])
                    size = 0
                bundles[-1].append(body)
                size += len(body)
            frames = []
            for bundle in bundles:
                sealed = channel.seal(b"".join(bundle))
                frames += (framing.HEADER.pack(len(sealed)), sealed)
            data = b"".join(frames)
        if not self.writer.transport.is_closing():
            self.writer.write(data)

    def close(self, reason: str = "", *, notice: dict[str, Any] | None = None) -> None:
        if self.closed:
            return
        if notice is not None:
            try:
                self.send_packed(framing.pack(notice))
            except Exception:
                pass
        self.closed = True
        self.close_reason = reason
        try:
            self.flush()  # what was queued (and the notice) goes before the connection closes
            self.writer.close()
        except Exception:
            pass

    # -- policing --------------------------------------------------------------------
    def violation(self, code: str, reason: str) -> bool:
        """Tell the peer what it did wrong; True when it has now been dropped for it."""
        self.violations += 1
        if self.violations >= self.max_violations:
            self.close(f"dropped after {self.violations} protocol violations ({reason})",
                       notice=messages.error(code, f"{reason}; disconnected after {self.violations} violations",
                                             fatal=True))
            return True
        self.send(messages.error(code, reason))
        return False

    def admit(self) -> tuple[float, bool]:
        """Take a token for the frame just read: ``(seconds to wait before handling it, a flood)``.

        A frame over the rate is slowed, never dropped: an honest client can outrun the bucket
        (bots answer every update at once), and a frame it signed that vanished would leave its
        move neither made nor refused, the table waiting on it for ever. Waiting before the next
        read pushes back on the sender through TCP. A flood (``True``) is every ``burst`` frames
        taken while the bucket stays under half full: a client that answers the host lets it fill.
        """
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._stamp) * self._rate)
        self._stamp = now
        self._drained = 0 if self._tokens >= self._burst / 2 else self._drained + 1
        self._tokens -= 1
        return max(0.0, -self._tokens / self._rate), self._drained > 0 and self._drained % int(self._burst) == 0
