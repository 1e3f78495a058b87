"""The sealed table's links: the project's handshake (:mod:`net.secure`), then sealed frames.

Each link is encrypted and authenticated as the table's links are (an X25519 exchange signed
by both identities; ChaCha20-Poly1305 frames with counters), so the host's identity is proven
to the client (its fingerprint, as ``uno://host:port#FINGERPRINT``) and the client's identity
to the host. Nothing of a card's privacy rests on the link (every private key travels in a
sealed box to its recipient), but an eavesdropper sees only sizes, and a frame altered,
replayed or reordered ends the link.
"""

from __future__ import annotations

import asyncio
from typing import Any

from .. import framing
from ..identity import Identity, fingerprint
from ..secure import OVERHEAD, Channel, ChannelError, ClientHandshake, HandshakeError, host_answer

SEALED_VERSION = 1
"""The sealed table's protocol version, in its handshake (another version is refused)."""

MAX_FRAME = 1 << 20
"""The largest frame body either side reads (a lock pass of 170 cards is under 12 KB)."""

TIMEOUT = 10.0
"""Seconds the handshake's frames, and any frame once begun, may take."""


class Link:
    """One sealed link: whole msgpack maps in, whole msgpack maps out."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, channel: Channel) -> None:
        self.reader, self.writer, self.channel = reader, writer, channel

    def send(self, msg: dict[str, Any]) -> None:
        self.send_packed(framing.pack(msg))

    def send_packed(self, body: bytes) -> None:
        """Send a body packed once (the host packs a log entry once for every link)."""
        if not self.writer.is_closing():
            sealed = self.channel.seal(body)
            self.writer.write(framing.HEADER.pack(len(sealed)) + sealed)

    async def recv(self) -> dict[str, Any]:
        body = await framing.read_body(self.reader, max_size=MAX_FRAME + OVERHEAD, idle_timeout=None,
                                       body_timeout=TIMEOUT)
        try:
            plain = self.channel.open(body)
        except ChannelError as e:
            raise framing.FrameError(str(e)) from None
        return framing.decode(plain, MAX_FRAME)

    def close(self) -> None:
        self.writer.close()


async def _plain(reader: asyncio.StreamReader) -> bytes:
    return await framing.read_body(reader, max_size=4096, idle_timeout=TIMEOUT, body_timeout=TIMEOUT)


async def connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, identity: Identity,
                  expect: str | None = None) -> tuple[Link, bytes]:
    """The client's handshake; ``expect``: the start of the host's fingerprint (refused otherwise).
    Returns the link and the host's identity key."""
    hs = ClientHandshake(identity, SEALED_VERSION)
    writer.write(framing.HEADER.pack(len(hs.hs1)) + hs.hs1)
    hs2 = framing.decode(await _plain(reader), 4096)
    if hs2.get("v") != SEALED_VERSION:
        raise HandshakeError("version", "this host does not speak the sealed table's protocol")
    host_id, channel, _body, auth = hs.finish(hs2)
    if expect is not None and not fingerprint(host_id).startswith(expect.lower()):
        raise HandshakeError("fingerprint", "the host's key does not match the fingerprint in the address")
    link = Link(reader, writer, channel)
    link.send_packed(auth)
    return link, host_id


async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, identity: Identity) -> tuple[Link, bytes]:
    """The host's handshake. Returns the link and the client's identity key (proven by it)."""
    hs1_bytes = await _plain(reader)
    hs1 = framing.decode(hs1_bytes, 4096)
    if hs1.get("type") != "hs1" or hs1.get("v") != SEALED_VERSION or not isinstance(hs1.get("id"), bytes) \
            or not isinstance(hs1.get("eph"), bytes):
        raise HandshakeError("version", "not a sealed table's handshake")
    hs2, hh = host_answer(identity, hs1_bytes, hs1, SEALED_VERSION, None)
    body = framing.pack(hs2)
    writer.write(framing.HEADER.pack(len(body)) + body)
    link = Link(reader, writer, hh.channel)
    hh.check_auth(await asyncio.wait_for(link.recv(), TIMEOUT))
    return link, hh.client_id
