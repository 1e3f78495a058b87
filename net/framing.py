"""Frames on an asyncio stream: a 4-byte big-endian length, then a msgpack body.

The length is checked against a limit *before* the body is read, so a peer
cannot make us buffer more than the limit. The body is read under a timeout,
so half a frame followed by silence ends the connection instead of holding a
task forever. Decoding is separate from reading: a well-framed body that is
not valid msgpack leaves the stream in sync, and the caller may decide to
answer with an error and go on.
"""

from __future__ import annotations

import asyncio
import struct
from typing import Any

import msgpack

from .errors import NetError

HEADER = struct.Struct(">I")

MAX_FRAME_FROM_PEER = 16 * 1024
"""What the host accepts from a client: intents and chat lines are tiny."""
MAX_FRAME_FROM_HOST = 64 * 1024
"""What a client accepts from the host: an observation at round end with every
hand shown is about 8 KiB for 10 players; the rest is headroom."""
MAX_BUNDLE = 32 * 1024
"""The most the host puts in one sealed frame of several messages (see ``Peer.flush``)."""

# The first four bytes of an HTTP request read as an absurd length; recognising
# them lets us answer a browser in its own language instead of in msgpack.
_HTTP_STARTS = (b"GET ", b"POST", b"HEAD", b"PUT ", b"DELE", b"OPTI", b"PATC", b"CONN", b"TRAC", b"PRI ")

HTTP_REFUSAL = (
    b"HTTP/1.0 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n"
    b"This is an uno-tui game port, not a web server. Use: uno-tui join HOST[:PORT]\r\n"
)


class FrameError(NetError):
    """A frame could not be read or decoded (``code``: the class's, as the ``error`` message names it)."""

    fatal = True
    """Whether the stream is out of sync (or the peer is gone) and must be closed."""
    code = "frame"

    def __init__(self, reason: str) -> None:
        super().__init__(type(self).code, reason)


class ConnectionClosed(FrameError):
    code = "closed"


class FrameTooLarge(FrameError):
    code = "too_large"


class FrameTimeout(FrameError):
    code = "timeout"


class LooksLikeHTTP(FrameError):
    code = "http"


class BadPayload(FrameError):
    """The frame arrived whole but its body is not a msgpack map we can read."""

    fatal = False
    code = "bad_payload"


def pack(message: dict[str, Any]) -> bytes:
    """A frame's body for ``message``."""
    return msgpack.packb(message, use_bin_type=True)


def encode(message: dict[str, Any]) -> bytes:
    """A whole frame (header and body) for ``message``."""
    body = msgpack.packb(message, use_bin_type=True)
    return HEADER.pack(len(body)) + body


def decode(body: bytes, max_size: int) -> dict[str, Any]:
    """Unpack a frame body; raises :class:`BadPayload` for anything but one msgpack map."""
    try:
        # Every container and string is bounded by the frame size; nesting is
        # bounded by msgpack's own stack limit (StackError, a ValueError).
        obj = msgpack.unpackb(
            body,
            raw=False,
            strict_map_key=True,
            max_str_len=max_size,
            max_bin_len=max_size,
            max_array_len=max_size,
            max_map_len=max_size,
            max_ext_len=max_size,
        )
    except Exception as e:  # msgpack raises several unrelated types for junk
        raise BadPayload(f"the frame is not valid msgpack ({type(e).__name__})") from None
    if not isinstance(obj, dict):
        raise BadPayload("a message must be a msgpack map")
    return obj


def decode_many(body: bytes, max_size: int) -> list[dict[str, Any]]:
    """Unpack a frame body holding one or more msgpack maps back to back (the host's bundles).

    Raises :class:`BadPayload` unless the whole body is maps, with the limits of :func:`decode`.
    """
    unpacker = msgpack.Unpacker(
        raw=False,
        strict_map_key=True,
        max_buffer_size=max(max_size, len(body)),
        max_str_len=max_size,
        max_bin_len=max_size,
        max_array_len=max_size,
        max_map_len=max_size,
        max_ext_len=max_size,
    )
    unpacker.feed(body)
    out: list[Any] = []
    end = 0  # where the last whole message ended
    while end < len(body):
        try:
            out.append(unpacker.unpack())
        except msgpack.OutOfData:
            raise BadPayload("the frame ends in the middle of a message") from None
        except Exception as e:  # msgpack raises several unrelated types for junk
            raise BadPayload(f"the frame is not valid msgpack ({type(e).__name__})") from None
        end = unpacker.tell()
    if not out:
        raise BadPayload("an empty frame")
    if not all(isinstance(obj, dict) for obj in out):
        raise BadPayload("a message must be a msgpack map")
    return out


def _buffered(reader: asyncio.StreamReader) -> int:
    """Bytes ``reader`` holds already, so reading them cannot wait (0 when unknown: then it may).

    StreamReader keeps them in ``_buffer`` (every Python 3 so far); were that to
    change, every read would simply go through its timeout as before.
    """
    buf = getattr(reader, "_buffer", None)
    return len(buf) if isinstance(buf, (bytes, bytearray)) else 0


async def read_body(
    reader: asyncio.StreamReader,
    *,
    max_size: int,
    idle_timeout: float | None,
    body_timeout: float,
) -> bytes:
    """Read one frame's body.

    ``idle_timeout`` bounds the wait for a frame to begin (heartbeats keep a
    live link busier than that); ``body_timeout`` bounds the rest of the frame
    once its header has arrived.
    """
    # asyncio.timeout rather than wait_for: it wraps no new task around the read,
    # which is a good part of the per-frame cost. And no timeout at all around bytes
    # already received: arming and cancelling one costs more than the read itself, and
    # the frames of one update (log entry, update) usually arrive together.
    try:
        if _buffered(reader) >= HEADER.size:
            header = await reader.readexactly(HEADER.size)
        else:
            async with asyncio.timeout(idle_timeout):
                header = await reader.readexactly(HEADER.size)
    except asyncio.IncompleteReadError as e:
        if e.partial:
            raise FrameTimeout("the connection closed in the middle of a frame header") from None
        raise ConnectionClosed("the peer closed the connection") from None
    except asyncio.TimeoutError:
        raise FrameTimeout(f"nothing received for {idle_timeout:g} s") from None
    except (ConnectionError, OSError) as e:
        raise ConnectionClosed(str(e) or type(e).__name__) from None
    if header in _HTTP_STARTS:
        raise LooksLikeHTTP("an HTTP request arrived on the game port")
    (size,) = HEADER.unpack(header)
    if size > max_size:
        raise FrameTooLarge(f"a frame of {size} bytes is over the {max_size}-byte limit")
    if size == 0:
        raise BadPayload("an empty frame")
    try:
        if _buffered(reader) >= size:
            return await reader.readexactly(size)
        async with asyncio.timeout(body_timeout):
            return await reader.readexactly(size)
    except asyncio.IncompleteReadError:
        raise ConnectionClosed("the connection closed in the middle of a frame") from None
    except asyncio.TimeoutError:
        raise FrameTimeout(f"a frame was not completed within {body_timeout:g} s") from None
    except (ConnectionError, OSError) as e:
        raise ConnectionClosed(str(e) or type(e).__name__) from None


async def read_frame(
    reader: asyncio.StreamReader,
    *,
    max_size: int,
    idle_timeout: float | None,
    body_timeout: float,
) -> dict[str, Any]:
    """Read and decode one frame (see :func:`read_body` and :func:`decode`)."""
    body = await read_body(reader, max_size=max_size, idle_timeout=idle_timeout, body_timeout=body_timeout)
    return decode(body, max_size)
