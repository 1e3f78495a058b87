"""Framing, message schemas and addresses: the parts of the protocol that need no game."""

from __future__ import annotations

import asyncio
import struct

import msgpack
import pytest

from net import framing, messages
from net.address import parse_address
from net.messages import CLIENT_SCHEMAS, HOST_SCHEMAS, MessageError, validate


def reader_with(data: bytes, eof: bool = True) -> asyncio.StreamReader:
    r = asyncio.StreamReader()
    r.feed_data(data)
    if eof:
        r.feed_eof()
    return r


async def test_a_frame_round_trips() -> None:
    msg = {"type": "chat", "text": "hi", "sig": b"\x00" * 4}
    frame = framing.encode(msg)
    assert frame[:4] == struct.pack(">I", len(frame) - 4)
    got = await framing.read_frame(reader_with(frame), max_size=1024, idle_timeout=1, body_timeout=1)
    assert got == msg


async def test_an_oversize_length_is_refused_before_the_body_is_read() -> None:
    with pytest.raises(framing.FrameTooLarge):
        await framing.read_body(reader_with(struct.pack(">I", 10**9)), max_size=1024,
                                idle_timeout=1, body_timeout=1)


async def test_half_a_frame_times_out() -> None:
    r = reader_with(struct.pack(">I", 100) + b"x" * 10, eof=False)
    with pytest.raises(framing.FrameTimeout):
        await framing.read_body(r, max_size=1024, idle_timeout=1, body_timeout=0.05)


async def test_an_http_request_is_recognised() -> None:
    with pytest.raises(framing.LooksLikeHTTP):
        await framing.read_body(reader_with(b"GET / HTTP/1.1\r\n\r\n"), max_size=1024,
                                idle_timeout=1, body_timeout=1)


@pytest.mark.parametrize("body", [b"\xc1", b"\x92\x01", msgpack.packb([1, 2]), b"\x91" * 5000,
                                  msgpack.packb({1: 2}), b"\xdb\xff\xff\xff\xff"])
def test_bad_bodies_are_bad_payloads(body: bytes) -> None:
    with pytest.raises(framing.BadPayload):
        framing.decode(body, 16 * 1024)


def test_a_body_of_several_maps_decodes_to_each_of_them() -> None:
    msgs = [{"type": "log", "e": b"x" * 300, "sig": b"s" * 64}, {"type": "ping"}, {"type": "chat", "text": "hi"}]
    body = b"".join(msgpack.packb(m) for m in msgs)
    assert framing.decode_many(body, 16 * 1024) == msgs
    assert framing.decode_many(msgpack.packb(msgs[1]), 16 * 1024) == [msgs[1]]


@pytest.mark.parametrize("body", [b"", msgpack.packb({"type": "ping"}) + b"\x92\x01",
                                  msgpack.packb({"type": "ping"}) + msgpack.packb([1]),
                                  msgpack.packb({"type": "ping"}) + b"\xc1", msgpack.packb({"a": "x" * 100}),
                                  b"\xdb\xff\xff\xff\xff"])
def test_a_bundle_with_anything_but_whole_maps_is_a_bad_payload(body: bytes) -> None:
    with pytest.raises(framing.BadPayload):
        framing.decode_many(body, 64)


@pytest.mark.parametrize("msg, code", [
    ("nope", "bad_type"),
    ({"kind": "x"}, "bad_type"),
    ({"type": "launch"}, "unknown_type"),
    ({"type": "chat"}, "missing_field"),
    ({"type": "chat", "text": 5}, "bad_field"),
    ({"type": "chat", "text": "x" * 1000}, "bad_field"),
    ({"type": "chat", "text": "hi", "extra": 1}, "unknown_field"),
    ({"type": "ready", "ready": 1}, "bad_field"),
    ({"type": "hello", "v": True, "name": "a"}, "bad_field"),
    ({"type": "hello", "v": 1, "name": "a", "role": "god"}, "bad_field"),
    # The unsigned intent of protocols before 5 is no message: a move is a signed intent (below).
    ({"type": "intent", "seq": 1, "version": 0, "seat": 0, "action": {"kind": "draw"}}, "unknown_type"),
    ({"type": "signed", "m": "not bytes", "sig": b"s" * 64}, "bad_field"),
    ({"type": "signed", "m": b"m", "sig": b"short"}, "bad_field"),
    ({"type": "ping", "t": float("nan")}, "bad_field"),
    ({"type": "ping", "sig": "not bytes"}, "bad_field"),
])
def test_schema_violations_are_named(msg: object, code: str) -> None:
    with pytest.raises(MessageError) as info:
        validate(msg, CLIENT_SCHEMAS)
    assert info.value.code == code


SIGNED_INTENT = {"k": "intent", "g": bytes(16), "seat": 0, "n": 1, "h": bytes(32), "seq": 1, "v": 0,
                 "act": {"kind": "draw"}}


@pytest.mark.parametrize("change, code", [
    ({"v": -1}, "bad_field"),
    ({"seat": 99}, "bad_field"),
    ({"act": {"kind": 3}}, "bad_action"),
    ({"act": {"kind": "play", "card": "7"}}, "bad_action"),
    ({"act": {"kind": "draw", "x": 1}}, "bad_action"),
    ({"act": {"kind": "play", "card": 2**60}}, "bad_action"),
    ({"extra": 1}, "unknown_field"),
    ({"k": "launch"}, "unknown_type"),
])
def test_a_signed_intent_is_parsed_once_and_its_violations_are_named(change: dict, code: str) -> None:
    with pytest.raises(MessageError) as info:
        messages.parse_signed(msgpack.packb({**SIGNED_INTENT, **change}))
    assert info.value.code == code


def test_a_signed_message_that_is_not_msgpack_is_a_bad_payload() -> None:
    with pytest.raises(MessageError) as info:
        messages.parse_signed(b"\xc1")
    assert info.value.code == "bad_payload"


def test_good_messages_pass_and_may_carry_a_signature() -> None:
    from core import Action

    validate(messages.hello("Ann", token="t", password="p"), CLIENT_SCHEMAS)
    d, action = messages.parse_signed(msgpack.packb({**SIGNED_INTENT, "act": Action("play", 5, "red").to_dict()}))
    assert action == Action("play", 5, "red") and d["seq"] == 1
    validate({"type": "signed", "m": msgpack.packb(d), "sig": b"s" * 64}, CLIENT_SCHEMAS)
    validate(messages.refuse("version", "old"), HOST_SCHEMAS)
    validate(messages.error("x", "y"), HOST_SCHEMAS)


def test_clean_text_strips_escapes() -> None:
    assert messages.clean_text("  Bob\x1b[31m\n\tthe\u200bgreat  ", 24) == "Bob the great"
    assert messages.clean_text("x" * 50, 24) == "x" * 24


@pytest.mark.parametrize("text, want", [
    ("box", ("box", 7777)), ("box:9000", ("box", 9000)), ("[::1]:9000", ("::1", 9000)),
    ("::1", ("::1", 7777)), ("10.0.0.2", ("10.0.0.2", 7777)),
])
def test_addresses(text: str, want: tuple[str, int]) -> None:
    assert parse_address(text) == want


@pytest.mark.parametrize("text", ["", "box:", "box:http", "box:70000", "[::1", ":9000"])
def test_bad_addresses(text: str) -> None:
    with pytest.raises(ValueError):
        parse_address(text)


async def test_what_the_host_has_for_a_peer_from_one_move_comes_in_one_sealed_frame() -> None:
    from net import secure
    from net.testing import RawPeer, start_host

    # (The raw spectator answers no heartbeat: a long one, so a slow round does not drop it.)
    host = await start_host(seats=2, bots=2, rounds=1, seed=2, bot_delay=0.01, heartbeat=30.0)
    try:
        raw = await RawPeer.open(host.port)
        assert (await raw.hello("watcher", role="spectator"))["type"] == "welcome"
        bundles: list[list[str]] = []
        async with asyncio.timeout(10):
            while not any("end" in b for b in bundles):
                body = await framing.read_body(raw.reader, max_size=framing.MAX_FRAME_FROM_HOST + secure.OVERHEAD,
                                               idle_timeout=5, body_timeout=5)
                assert raw.channel is not None
                bundles.append([m["type"] for m in framing.decode_many(raw.channel.open(body),
                                                                       framing.MAX_FRAME_FROM_HOST)])
        moves = [b for b in bundles if "update" in b]
        assert len(moves) > 10
        # The move's log entry and its update, together; at the round's end the lobby too.
        assert all(b.count("update") == 1 and b.index("log") < b.index("update") for b in moves[1:])
        assert "lobby" in moves[-1]
        raw.close()
    finally:
        await host.close()
