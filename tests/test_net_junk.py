"""Junk from a raw socket: the sender gets an error or is dropped, and the game ends as it should."""

from __future__ import annotations

import asyncio
import random
import struct
from typing import Any, Awaitable, Callable

import msgpack
import pytest

from net import BotClient, framing
from net.fair import peer_message
from net.identity import Identity
from net.peer import BURST
from net.testing import RawPeer, conserved, frames_in, start_host

Junk = Callable[[int], Awaitable[None]]


async def random_bytes(port: int) -> None:
    raw = await RawPeer.open(port)
    data = random.Random(7).randbytes(300)
    assert struct.unpack(">I", data[:4])[0] > framing.MAX_FRAME_FROM_PEER  # so the reply is known
    await raw.send_bytes(data)
    reply = frames_in(await raw.read_until_closed())
    assert reply and reply[0]["type"] == "error" and reply[0]["code"] == "too_large" and reply[0]["fatal"]


async def oversize_length(port: int) -> None:
    raw = await RawPeer.open(port)
    await raw.send_bytes(struct.pack(">I", 50 * 1024 * 1024) + b"\0" * 100)
    reply = frames_in(await raw.read_until_closed())
    assert [m["code"] for m in reply if m["type"] == "error"] == ["too_large"]


async def bad_msgpack_repeated(port: int) -> None:
    raw = await RawPeer.open(port)
    for _ in range(3):
        await raw.send_bytes(struct.pack(">I", 3) + b"\xc1\xc1\xc1")
    reply = frames_in(await raw.read_until_closed())
    errors = [m for m in reply if m["type"] == "error"]
    # Two warnings, then the third violation drops the peer.
    assert [m["code"] for m in errors] == ["bad_payload"] * 3
    assert [m["fatal"] for m in errors] == [False, False, True]


async def unknown_type(port: int) -> None:
    raw = await RawPeer.open(port)
    await raw.send({"type": "launch_missiles", "at": "everyone"})
    reply = await raw.recv()
    assert reply["type"] == "error" and reply["code"] == "unknown_type" and not reply["fatal"]
    # Still in sync: a spectator's hello works on the same connection afterwards.
    welcome = await raw.hello("watcher", role="spectator")
    assert welcome["type"] == "welcome"
    raw.close()


async def wrong_field_types(port: int) -> None:
    raw = await RawPeer.open(port)
    await raw.send({"type": "hello", "v": "1", "name": ["x"]})
    reply = await raw.recv()
    assert reply["type"] == "error" and reply["code"] == "bad_field"
    assert (await raw.hello("w", role="spectator"))["type"] == "welcome"  # after the secure handshake
    for bad in ({"type": "chat", "text": 12}, {"type": "signed", "m": "not bytes", "sig": bytes(64)}):
        await raw.send(bad)
    reply = await raw.messages_until_closed()
    errors = [m for m in reply if m["type"] == "error"]
    assert [m["code"] for m in errors] == ["bad_field", "bad_field"] and errors[-1]["fatal"]


async def http_request(port: int) -> None:
    raw = await RawPeer.open(port)
    await raw.send_bytes(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
    reply = await raw.read_until_closed()
    assert reply.startswith(b"HTTP/1.0 400") and b"uno-tui" in reply


async def half_a_frame(port: int) -> None:
    raw = await RawPeer.open(port)
    body = msgpack.packb({"type": "hello", "v": 1, "name": "slow"})
    await raw.send_bytes(struct.pack(">I", len(body)) + body[:5])
    reply = frames_in(await raw.read_until_closed(3))  # frame_timeout is 0.5 s in tests
    assert [m["code"] for m in reply if m["type"] == "error"] == ["timeout"]


async def silence_before_hello(port: int) -> None:
    raw = await RawPeer.open(port)
    reply = frames_in(await raw.read_until_closed(4))  # hello_timeout is 2 s in tests
    assert [m["code"] for m in reply if m["type"] == "error"] == ["timeout"]


async def hostile_after_hello(port: int) -> None:
    raw = await RawPeer.open(port)
    assert (await raw.hello("sneaky", role="spectator"))["type"] == "welcome"
    await raw.send(_signed_intent(1, {"kind": "draw", "x": 1}))
    await raw.send({"type": "hello", "v": 1, "name": "again"})
    await raw.send(_signed_intent(2, {"kind": "draw"}))
    reply = await raw.messages_until_closed()
    codes = [m["code"] for m in reply if m["type"] in ("error", "reject")]
    assert codes[:2] == ["bad_action", "repeated_hello"] and "spectator" in codes


def _signed_intent(seq: int, act: dict[str, Any]) -> dict[str, Any]:
    """A signed intent for seat 0 (signed by a key of its own: the host refuses it before asking whose)."""
    m, sig = peer_message(Identity.generate(), "intent", bytes(16), 0, seq, bytes(32), seq=seq, v=0, act=act)
    return {"type": "signed", "m": m, "sig": sig}


async def message_before_hello(port: int) -> None:
    raw = await RawPeer.open(port)
    await raw.send(_signed_intent(1, {"kind": "draw"}))
    reply = await raw.recv()
    assert reply["type"] == "error" and reply["code"] == "hello_first"
    raw.close()


JUNK: list[Junk] = [random_bytes, oversize_length, bad_msgpack_repeated, unknown_type, wrong_field_types,
                    http_request, half_a_frame, silence_before_hello, hostile_after_hello, message_before_hello]


@pytest.mark.parametrize("junk", JUNK, ids=[j.__name__ for j in JUNK])
async def test_junk_is_refused_and_the_game_goes_on(junk: Junk) -> None:
    host = await start_host(seats=3, bots=1, rounds=1, seed=5)
    try:
        bots = [BotClient(("127.0.0.1", host.port), f"B{i}", seed=i, delay=0.005) for i in range(2)]
        game = asyncio.gather(*(b.run() for b in bots))
        while host.phase != "playing":  # junk arrives mid-game
            await asyncio.sleep(0.01)
        await asyncio.wait_for(junk(host.port), 8)
        assert await asyncio.wait_for(game, 20) == [0, 0]
        assert host.phase == "finished" and host.game is not None and conserved(host.game)
        assert len(host.peers) <= 2  # the junk sender is gone (or about to be, for a polite spectator)
    finally:
        await host.close()


async def test_a_flood_of_valid_frames_is_throttled() -> None:
    """Frames beyond the burst are slowed; every burst's worth more in a row is a violation, the
    third drops the link. (Pongs: the host answers nothing, so only its errors come back.)"""
    host = await start_host(seats=2, bots=1, auto_start=False)
    try:
        raw = await RawPeer.open(host.port)
        assert (await raw.hello("flood", role="spectator"))["type"] == "welcome"
        flood = int(BURST) * (1 + host.config.max_violations) + 10
        await raw.send_bytes(b"".join(raw.seal({"type": "pong"}) for _ in range(flood)))
        reply = await raw.messages_until_closed(60)  # bounds a hang only: the flood takes about 3 s
        errors = [m for m in reply if m["type"] == "error"]
        assert [m["code"] for m in errors] == ["rate"] * host.config.max_violations and errors[-1]["fatal"]
    finally:
        await host.close()


async def test_frames_over_the_rate_are_slowed_not_lost() -> None:
    """A client that outruns the bucket (bots answer every update at once) loses nothing: a frame
    dropped there was a signed move neither made nor refused, and a table that waited for ever."""
    host = await start_host(seats=2, bots=1, auto_start=False)
    try:
        raw = await RawPeer.open(host.port)
        assert (await raw.hello("quick", role="spectator"))["type"] == "welcome"
        many = int(BURST) + 300
        await raw.send_bytes(b"".join(raw.seal({"type": "ping", "t": i}) for i in range(many)))
        got: list[dict[str, Any]] = []
        while len([m for m in got if m["type"] == "pong"]) < many:
            got.append(await raw.recv(10))
        assert [m["t"] for m in got if m["type"] == "pong"] == list(range(many))  # every ping answered, in order
        assert not [m for m in got if m["type"] == "error"]
    finally:
        await host.close()
