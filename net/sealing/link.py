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
import math
from typing import Any


from .. import framing
from ..identity import Identity, fingerprint
from ..messages import clean_text
from ..secure import OVERHEAD, Channel, ChannelError, ClientHandshake, HandshakeError, host_answer
from ..throttle import PasswordThrottle, Throttled

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
        self.send_many([body])

    def send_many(self, bodies: list[bytes]) -> None:
        """Send several bodies in one write (one wake-up for the reader, not one each)."""
        if not self.writer.is_closing():
            sealed = [self.channel.seal(body) for body in bodies]
            self.writer.write(b"".join(framing.HEADER.pack(len(s)) + s for s in sealed))

    async def recv(self) -> dict[str, Any]:
        body = await framing.read_body(self.reader, max_size=MAX_FRAME + OVERHEAD, idle_timeout=None,
                                       body_timeout=TIMEOUT)
        try:
            plain = self.channel.open(body)
        except ChannelError as e:
            refused = _refusal(body)
            if refused is not None:
                raise refused from None
            raise framing.FrameError(str(e)) from None
        return framing.decode(plain, MAX_FRAME)

    def close(self) -> None:
        self.writer.close()


def _refusal(body: bytes) -> HandshakeError | None:
    """A host's refusal in the clear (``refuse{code, reason}``: it cannot seal to a peer whose keys it
    does not share, as after a wrong password), as the error it names; None for anything else. Anyone
    on the wire could forge one, but all it does is end a link they could cut anyway."""
    try:
        msg = framing.decode(body, 4096)
    except framing.FrameError:
        return None
    if msg.get("k") != "refuse" or not isinstance(msg.get("code"), str):
        return None
    return HandshakeError(msg["code"][:32], clean_text(str(msg.get("reason") or ""), 200) or "refused by the host")


def refuse(writer: asyncio.StreamWriter, code: str, reason: str) -> None:
    """Tell a peer in the clear why it is refused, and close."""
    body = framing.pack({"k": "refuse", "code": code, "reason": reason})
    writer.write(framing.HEADER.pack(len(body)) + body)
    writer.close()


async def _plain(reader: asyncio.StreamReader) -> bytes:
    return await framing.read_body(reader, max_size=4096, idle_timeout=TIMEOUT, body_timeout=TIMEOUT)


async def connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, identity: Identity,
                  expect: str | None = None, password: str | None = None) -> tuple[Link, bytes]:
    """The client's handshake; ``expect``: the start of the host's fingerprint (refused otherwise);
    ``password``: the table's (SPAKE2, as :mod:`net.secure` runs it). Returns the link and the host's
    identity key."""
    hs = ClientHandshake(identity, SEALED_VERSION, password)
    writer.write(framing.HEADER.pack(len(hs.hs1)) + hs.hs1)
    hs2 = framing.decode(await _plain(reader), 4096)
    if hs2.get("k") == "refuse":
        raise _refusal(framing.pack(hs2)) or HandshakeError("handshake", "refused by the host")
    if hs2.get("v") != SEALED_VERSION:
        raise HandshakeError("version", "this host is not a sealed table: it may be an open host, which sees "
                                        "every hand (join it with --trusted-host if you accept that)")
    host_id, channel, _body, auth = hs.finish(hs2)
    if expect is not None and not fingerprint(host_id).startswith(expect.lower()):
        raise HandshakeError("fingerprint", "the host's key does not match the fingerprint in the address")
    link = Link(reader, writer, channel)
    link.send_packed(auth)
    return link, host_id


async def accept(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, identity: Identity,
                 password: str | None = None, throttle: PasswordThrottle | None = None) -> tuple[Link, bytes]:
    """The host's handshake (``password``: the table's, a wrong one refused in the clear and its address
    slowed by ``throttle``, as the open host does). Returns the link and the client's identity key."""
    hs1_bytes = await _plain(reader)
    hs1 = framing.decode(hs1_bytes, 4096)
    if hs1.get("type") != "hs1" or hs1.get("v") != SEALED_VERSION or not isinstance(hs1.get("id"), bytes) \
            or not isinstance(hs1.get("eph"), bytes):
        raise HandshakeError("version", "not a sealed table's handshake")
    attempt = None
    if password is not None and "pake" in hs1 and throttle is not None:
        ip = str((writer.get_extra_info("peername") or ("?",))[0])
        try:
            attempt = await throttle.enter(ip)
        except Throttled as t:
            refuse(writer, "throttled", f"too many wrong passwords from your address: try again in "
                                        f"{math.ceil(t.seconds)} s")
            raise HandshakeError("throttled", "too many wrong passwords") from None
    try:
        if attempt is not None:  # the password exchange is ~15 ms of pure Python: off the loop
            hs2, hh = await asyncio.to_thread(host_answer, identity, hs1_bytes, hs1, SEALED_VERSION, password)
        else:
            hs2, hh = host_answer(identity, hs1_bytes, hs1, SEALED_VERSION, password)
    except BaseException:
        if attempt is not None:
            attempt.done(False)
        raise
    hh.attempt = attempt
    body = framing.pack(hs2)
    writer.write(framing.HEADER.pack(len(body)) + body)
    link = Link(reader, writer, hh.channel)
    try:
        first = await asyncio.wait_for(link.recv(), TIMEOUT)
    except framing.FrameError:
        if not hh.pake:
            raise
        wait = hh.done(False)  # its first sealed frame did not open: not the table's password
        refuse(writer, "password", "wrong password for this table"
               + (f"; the next try from your address must wait {math.ceil(wait)} s" if wait >= 1 else ""))
        raise HandshakeError("password", "a wrong password") from None
    except BaseException:
        hh.done(False)
        raise
    hh.done(True)
    hh.check_auth(first)
    return link, hh.client_id
