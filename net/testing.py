"""Helpers for the network tests and the benchmark: fast hosts, raw sockets, checks.

Nothing here is mocked: hosts listen on real loopback sockets and raw peers
speak bytes over them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
from typing import Any, Iterator

import core

from . import framing, secure
from .dealer import Dealer
from .gateway import Gateway
from .host import Host
from .identity import Identity
from .messages import PROTOCOL_VERSION
from .seats import HostConfig
from .table import Table

FAST: dict[str, Any] = {
    "auto_start": True, "auto_next": True, "round_pause": 0.0, "bot_delay": 0.0,
    "heartbeat": 1.0, "hello_timeout": 2.0, "frame_timeout": 0.5, "fair_timeout": 2.0,
    "bot_processes": 1,  # a hard bot searches in the test's own process
}
"""Host settings that make a test table quick: no pauses, short timeouts. (The heartbeat is a
second: a link is dropped after three silent ones, and a Textual test sharing its loop with the
host may stall a second and more while the machine's other core is busy.)"""


async def start_host(*, host_class: type[Host] = Host, dealer_class: type[Dealer] | None = None,
                     table_class: type[Table] | None = None, gateway_class: type[Gateway] | None = None,
                     identity: Identity | None = None, **settings: Any) -> Host:
    """A host on 127.0.0.1 with a free port and :data:`FAST` settings (overridable).

    ``dealer_class``, ``table_class``, ``gateway_class``: the host's parts are these (the tests'
    dishonest dealers and tables, and misbehaving gateways).
    """
    parts = {name: cls for name, cls in (("dealer_class", dealer_class), ("table_class", table_class),
                                         ("gateway_class", gateway_class)) if cls is not None}
    if parts:
        host_class = type(f"{next(iter(parts.values())).__name__}Host", (host_class,), parts)
    host = host_class(HostConfig(**{**FAST, **settings}), identity=identity)
    await host.start("127.0.0.1", 0)
    return host


class RawPeer:
    """A connection that sends whatever bytes it is told to: the junk-sending client.

    Before :meth:`handshake` (or :meth:`hello`, which does it) frames go in
    the clear; after it, :meth:`send` and :meth:`recv` seal and open them.
    """

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer
        self._pending: list[dict[str, Any]] = []
        self.channel: secure.Channel | None = None
        self.host_key: bytes | None = None

    @classmethod
    async def open(cls, port: int, host: str = "127.0.0.1") -> "RawPeer":
        reader, writer = await asyncio.open_connection(host, port)
        return cls(reader, writer)

    async def send_bytes(self, data: bytes) -> None:
        self.writer.write(data)
        await self.writer.drain()

    def seal(self, msg: Any) -> bytes:
        """A whole frame for ``msg``, sealed when the link is."""
        if self.channel is None:
            return framing.encode(msg)
        body = self.channel.seal(framing.pack(msg))
        return framing.HEADER.pack(len(body)) + body

    async def send(self, msg: Any) -> None:
        await self.send_bytes(self.seal(msg))

    async def handshake(self, identity: Identity | None = None, password: str | None = None) -> None:
        hs = secure.ClientHandshake(identity or Identity.generate(), PROTOCOL_VERSION, password)
        await self.send_bytes(framing.HEADER.pack(len(hs.hs1)) + hs.hs1)
        reply = await self.recv()
        assert reply.get("type") == "hs2", reply
        self.host_key, channel, _body, auth = hs.finish(reply)
        self.channel = channel
        await self.send_bytes(framing.HEADER.pack(len(auth) + secure.OVERHEAD) + channel.seal(auth))

    async def hello(self, name: str = "raw", **extra: Any) -> dict[str, Any]:
        if self.channel is None:
            await self.handshake()
        await self.send({"type": "hello", "v": PROTOCOL_VERSION, "name": name, **extra})
        return await self.recv()

    async def recv(self, timeout: float = 3.0) -> dict[str, Any]:
        """The next message (a sealed frame from the host may hold several)."""
        if self._pending:
            return self._pending.pop(0)
        body = await framing.read_body(self.reader, max_size=framing.MAX_FRAME_FROM_HOST + secure.OVERHEAD,
                                       idle_timeout=timeout, body_timeout=timeout)
        if self.channel is None:
            return framing.decode(body, framing.MAX_FRAME_FROM_HOST)
        first, *self._pending = framing.decode_many(self.channel.open(body), framing.MAX_FRAME_FROM_HOST)
        return first

    async def messages_until_closed(self, timeout: float = 5.0) -> list[dict[str, Any]]:
        """Every message the host sends until it hangs up, opened if the link is sealed."""
        data = await self.read_until_closed(timeout)
        if self.channel is None:
            return frames_in(data)
        out, pos = [], 0
        while pos + 4 <= len(data):
            (size,) = framing.HEADER.unpack(data[pos: pos + 4])
            if pos + 4 + size > len(data):
                break
            body = data[pos + 4: pos + 4 + size]
            try:
                out += framing.decode_many(self.channel.open(body), framing.MAX_FRAME_FROM_HOST)
            except secure.ChannelError:
                out.append(framing.decode(body, framing.MAX_FRAME_FROM_HOST))
            pos += 4 + size
        return out

    async def recv_type(self, kind: str, timeout: float = 3.0) -> dict[str, Any]:
        """The next message of type ``kind``, skipping others (lobby, ping, ...)."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.recv(timeout)
                if msg.get("type") == kind:
                    return msg

    async def read_until_closed(self, timeout: float = 5.0) -> bytes:
        """Everything the host sends until it hangs up (raises TimeoutError if it never does)."""
        chunks = []
        async with asyncio.timeout(timeout):
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return b"".join(chunks)
                chunks.append(data)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.writer.close()


def frames_in(data: bytes) -> list[dict[str, Any]]:
    """Split raw bytes received from the host into decoded messages (a trailing part is ignored)."""
    out, pos = [], 0
    while pos + 4 <= len(data):
        (size,) = framing.HEADER.unpack(data[pos : pos + 4])
        if pos + 4 + size > len(data):
            break
        out.append(framing.decode(data[pos + 4 : pos + 4 + size], framing.MAX_FRAME_FROM_HOST))
        pos += 4 + size
    return out


def conserved(game: core.Game) -> bool:
    """Every card of the deck is in exactly one place: a hand, the discards or the draw pile.

    For variants that keep their cards only there (classic); others have more zones.
    """
    ids = [c.id for h in game.hands for c in h] + [c.id for c in game.discard] + [c.id for c in game.draw_pile]
    return sorted(ids) == list(range(len(game.cards)))


def card_ids(value: Any) -> Iterator[int]:
    """Every card id anywhere in a decoded message (maps with id, color and rank)."""
    if isinstance(value, dict):
        if {"id", "color", "rank"} <= value.keys() and isinstance(value["id"], int):
            yield value["id"]
        for v in value.values():
            yield from card_ids(v)
    elif isinstance(value, list):
        for v in value:
            yield from card_ids(v)


class HostProcess:
    """``python -m net host --headless ...`` in a subprocess (for crash-and-resume tests)."""

    def __init__(self, *args: str, cwd: str | None = None, sealed: bool = False) -> None:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        deal = [] if sealed else ["--trusted-host"]
        self.proc = subprocess.Popen([sys.executable, "-m", "net", "host", "--headless", *deal, *args],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=cwd, env=env)
        self.lines: list[str] = []
        self._rest = b""

    def wait_port(self, timeout: float = 15.0) -> int:
        """Read stdout until the 'listening on ADDR:PORT' line; returns the port."""
        import select

        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = _now() + timeout
        while _now() < deadline:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - _now()))
            if not ready:
                break
            chunk = os.read(fd, 65536)  # unbuffered: nothing is left behind for finish()
            if not chunk:
                break
            *lines, self._rest = (self._rest + chunk).split(b"\n")
            for raw in lines:
                line = raw.decode(errors="replace")
                self.lines.append(line)
                m = re.search(r"listening on \S*:(\d+)(?::|$)", line.strip())  # a sealed table's goes on
                if m:
                    port = int(m.group(1))
                    # Keep any later lines already read.
                    for later in lines[lines.index(raw) + 1 :]:
                        self.lines.append(later.decode(errors="replace"))
                    return port
        raise RuntimeError("the host did not start:\n" + "\n".join(self.lines))

    def finish(self, timeout: float = 30.0) -> int:
        out, _ = self.proc.communicate(timeout=timeout)
        self.lines += (self._rest + out).decode(errors="replace").splitlines()
        self._rest = b""
        return self.proc.returncode

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(5)


def _now() -> float:
    import time

    return time.monotonic()
