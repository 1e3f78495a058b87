"""The room password: a PAKE (SPAKE2) in the handshake, and a delay per wrong guess per address.

A fake host, answering at an address given without a fingerprint, runs the
password exchange with a guess of its own and keeps everything the honest
client sends. Offline it can then tell whether that one guess was right,
and nothing more: no other guess, the true password included, opens the
client's first sealed frame. Online guessing at the real host is slowed per
address without holding up anyone else.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from spake2.parameters.ed25519 import ParamsEd25519
from spake2.spake2 import finalize_SPAKE2

from net import PROTOCOL_VERSION, Client, Refused
from net import framing, secure
from net.identity import H, Identity
from net.testing import RawPeer, start_host
from net.throttle import PasswordThrottle, Throttled, address_key

PASSWORD = "correct horse"
GUESSES = ["123456", "password", "hunter2", "s3cret", PASSWORD, "correct horse ", "Correct horse"]


# -- the fake host -------------------------------------------------------------------------------
class FakeHost:
    """A hostile peer posing as the host at an address: it answers the handshake with its own key and a
    password exchange for ``guess``, keeps what the client sends, and then tries guesses offline."""

    def __init__(self, guess: str) -> None:
        self.guess = guess
        self.identity = Identity.generate()
        self.heard = asyncio.Event()
        self.server: asyncio.AbstractServer | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        group = ParamsEd25519.group
        self.hs1_bytes = await framing.read_body(reader, max_size=4096, idle_timeout=5, body_timeout=5)
        self.hs1 = framing.decode(self.hs1_bytes, 4096)
        # Side B of SPAKE2 for its guess, with a scalar it keeps for the offline work.
        self.y = group.random_scalar(os.urandom)
        point = group.Base.scalarmult(self.y).add(ParamsEd25519.N.scalarmult(group.password_to_scalar(
            self.guess.encode())))
        self.y_msg = point.to_bytes()
        eph = X25519PrivateKey.generate()
        body = secure.pack({"id": self.identity.public, "eph": eph.public_key().public_bytes_raw(),
                            "nonce": secrets.token_bytes(32), "pw": True, "pake": b"B" + self.y_msg})
        self.th = H(secure.TAG_TH, self.hs1_bytes, body)
        writer.write(framing.encode({"type": "hs2", "v": PROTOCOL_VERSION, "body": body,
                                     "sig": self.identity.sign(secure.TAG_HOST, self.th)}))
        self.shared = eph.exchange(X25519PublicKey.from_public_bytes(self.hs1["eph"]))
        self.sealed = await framing.read_body(reader, max_size=4096, idle_timeout=5, body_timeout=5)
        self.heard.set()
        writer.close()

    def keys_for(self, g: str | None) -> tuple[bytes, bytes]:
        """The link keys as this fake host can compute them for guess ``g`` (None: as if no password)."""
        if g is None:
            return secure.derive_keys(self.shared, None, self.th)
        group = ParamsEd25519.group
        x_msg = self.hs1["pake"][1:]
        # What side B computes: y * (X* - g*M). It equals the client's K only if g is the password
        # the client used *and* the guess this host put in its own message.
        k = group.bytes_to_element(x_msg).add(ParamsEd25519.M.scalarmult(-group.password_to_scalar(g.encode())))
        key = finalize_SPAKE2(secure.PAKE_IDS["idA"], secure.PAKE_IDS["idB"], x_msg, self.y_msg,
                              k.scalarmult(self.y).to_bytes(), g.encode())
        return secure.derive_keys(self.shared, key, self.th)

    def offline_check(self, g: str | None) -> bool:
        """Does guess ``g`` open the client's first sealed frame (its ``auth``)?"""
        c2s, s2c = self.keys_for(g)
        try:
            secure.Channel(s2c, c2s).open(self.sealed)
            return True
        except secure.ChannelError:
            return False

    def close(self) -> None:
        if self.server is not None:
            self.server.close()


async def _fooled(guess: str) -> FakeHost:
    fake = FakeHost(guess)
    await fake.start()
    try:
        client = Client(("127.0.0.1", fake.port), "Ann", password=PASSWORD, identity=Identity.generate(),
                        reconnect=False, transcript_dir=False)
        with pytest.raises(Exception):  # the fake host cannot answer under the link's keys
            await client.connect()
        await asyncio.wait_for(fake.heard.wait(), 5)
    finally:
        fake.close()
    assert "pake" in fake.hs1 and len(fake.hs1["pake"]) == secure.PAKE_SIZE
    assert PASSWORD.encode() not in fake.hs1_bytes + fake.sealed
    return fake


async def test_a_fake_host_cannot_test_password_guesses_offline() -> None:
    fake = await _fooled("hunter2")
    # The attack that recovered passwords before (300 guesses in 21 s): try each guess's keys on the
    # client's first sealed frame. Now none opens it, the true password included.
    assert not any(fake.offline_check(g) for g in GUESSES + [fake.guess, None])


async def test_the_fake_hosts_one_online_guess_is_all_it_learns() -> None:
    # The same computation does open the frame when the fake host's own guess was the password:
    # so the check above is the real one, and each connection tests exactly one guess.
    fake = await _fooled(PASSWORD)
    assert [g for g in GUESSES if fake.offline_check(g)] == [PASSWORD]


# -- the real host: right, wrong and missing passwords ------------------------------------------------
async def test_the_right_password_joins_and_the_wrong_one_is_told_apart() -> None:
    host = await start_host(seats=3, bots=1, password=PASSWORD, auto_start=False)
    try:
        ok = Client(("127.0.0.1", host.port), "Ann", password=PASSWORD, identity=Identity.generate())
        assert (await ok.connect())["type"] == "welcome"
        await ok.close()
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "Bob", password="hunter2", identity=Identity.generate(),
                         reconnect=False).connect()
        assert info.value.code == "password" and "wrong password" in info.value.reason
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "Bob", identity=Identity.generate()).connect()
        assert info.value.code == "password" and "needs a password" in info.value.reason
        # A malformed exchange is not a wrong password.
        raw = await RawPeer.open(host.port)
        hs = secure.ClientHandshake(Identity.generate(), PROTOCOL_VERSION, "x")
        hs.hs1_msg["pake"] = b"A" + b"\xff" * 32  # not a point
        hs.hs1 = secure.pack(hs.hs1_msg)
        await raw.send_bytes(framing.HEADER.pack(len(hs.hs1)) + hs.hs1)
        got = await raw.recv()
        assert got["type"] == "refuse" and got["code"] == "handshake", got
    finally:
        await host.close()


async def test_a_password_given_to_a_table_without_one_is_refused_by_the_client() -> None:
    host = await start_host(seats=3, bots=1, auto_start=False)
    try:
        with pytest.raises(Refused) as info:
            await Client(("127.0.0.1", host.port), "Ann", password=PASSWORD, identity=Identity.generate()).connect()
        assert info.value.code == "no_password" and "does not ask for one" in info.value.reason
        assert all(s.kind != "human" for s in host.seats)
    finally:
        await host.close()


# -- the delay ------------------------------------------------------------------------------------
async def _attempt(port: int, source: str, password: str) -> dict[str, Any]:
    """One join attempt from ``source`` (a loopback address); the host's last word: welcome or refuse."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    raw = RawPeer(reader, writer)
    try:
        hs = secure.ClientHandshake(Identity.generate(), PROTOCOL_VERSION, password)
        await raw.send_bytes(framing.HEADER.pack(len(hs.hs1)) + hs.hs1)
        reply = await raw.recv(timeout=10)
        if reply["type"] != "hs2":
            return reply
        _key, raw.channel, _body, auth = hs.finish(reply)
        await raw.send_bytes(framing.HEADER.pack(len(auth) + secure.OVERHEAD) + raw.channel.seal(auth))
        await raw.send({"type": "hello", "v": PROTOCOL_VERSION, "name": "guess"})
        body = await framing.read_body(reader, max_size=framing.MAX_FRAME_FROM_HOST + secure.OVERHEAD,
                                       idle_timeout=5, body_timeout=5)
        try:
            return framing.decode_many(raw.channel.open(body), framing.MAX_FRAME_FROM_HOST)[0]
        except secure.ChannelError:
            return framing.decode(body, framing.MAX_FRAME_FROM_HOST)  # a refusal in the clear
    finally:
        raw.close()


class Clock:
    """The throttle's time, moved on by the test: nothing here waits on the wall clock."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.holding = asyncio.Event()
        self.release = asyncio.Event()

    async def sleep(self, seconds: float) -> None:
        self.holding.set()
        await self.release.wait()
        self.now += seconds


async def test_each_wrong_guess_slows_its_address_and_nobody_else() -> None:
    host = await start_host(seats=4, bots=1, password=PASSWORD, auto_start=False)
    clock = Clock()
    host.password_throttle = PasswordThrottle(base=1.0, cap=8.0, hold=2.0, clock=lambda: clock.now,
                                              sleep=clock.sleep)
    events: list[dict[str, Any]] = []
    host.listeners.append(lambda kind, data: events.append(data) if kind == "password" else None)
    try:
        # Wrong guesses from one address: each refusal names the growing wait (1, 2, 4, 8, 8 s).
        waits = []
        for _ in range(5):
            got = await _attempt(host.port, "127.0.0.3", "hunter2")
            assert got["type"] == "refuse" and got["code"] == "password", got
            waits.append(int(got["reason"].rsplit("wait ", 1)[1].split()[0]))
            clock.now += waits[-1]  # the wait is over
        assert waits == [1, 2, 4, 8, 8]
        assert [e["failures"] for e in events] == [1, 2, 3, 4, 5] and events[0]["addr"] == "127.0.0.3"
        got = await _attempt(host.port, "127.0.0.3", "hunter2")  # the sixth: bounded at 8 s
        assert got["code"] == "password" and got["reason"].endswith("wait 8 s"), got
        # Too soon, and the wait is long: refused at once, in words, with no password work done
        # (even with the right password: the attempt is not made).
        got = await _attempt(host.port, "127.0.0.3", PASSWORD)
        assert got["type"] == "refuse" and got["code"] == "throttled" and "try again in 8 s" in got["reason"], got
        assert host.password_throttle.failures("127.0.0.3") == 6
        # Another address is not slowed at all.
        got = await _attempt(host.port, "127.0.0.2", PASSWORD)
        assert got["type"] == "welcome", got
        # A short wait is held rather than refused: the attempt waits in its own task...
        clock.now += 7
        held = asyncio.ensure_future(_attempt(host.port, "127.0.0.3", PASSWORD))
        await asyncio.wait_for(clock.holding.wait(), 5)
        assert host.password_throttle.waiting("127.0.0.3") == 1
        # ...while everyone else goes on.
        got = await _attempt(host.port, "127.0.0.4", PASSWORD)
        assert got["type"] == "welcome", got
        assert not held.done()
        clock.release.set()  # its wait is over: the right password gets in, and the count is cleared
        got = await asyncio.wait_for(held, 10)
        assert got["type"] == "welcome", got
        assert host.password_throttle.failures("127.0.0.3") == 0
    finally:
        await host.close()


async def test_the_throttle_bounds_its_waits_and_its_queue() -> None:
    clock = Clock()
    t = PasswordThrottle(base=0.5, cap=30.0, hold=2.0, max_waiting=2, clock=lambda: clock.now, sleep=clock.sleep)
    assert [t.delay(f) for f in range(1, 10)] == [0.5, 1, 2, 4, 8, 16, 30, 30, 30]
    assert t.delay(10_000) == 30
    first = await t.enter("10.0.0.1")
    waiters = [asyncio.ensure_future(t.enter("10.0.0.1")) for _ in range(2)]
    await asyncio.sleep(0)
    assert t.waiting("10.0.0.1") == 2
    with pytest.raises(Throttled):
        await t.enter("10.0.0.1")  # a third in the queue: refused at once
    other = await t.enter("10.0.0.2")  # another address: no wait
    other.done(True)
    assert first.done(False) == 0.5
    clock.release.set()
    second = await asyncio.wait_for(waiters[0], 5)
    assert second.done(True) == 0 and t.failures("10.0.0.1") == 0
    third = await asyncio.wait_for(waiters[1], 5)
    third.done(True)
    # An IPv6 address is counted by its /64, a v4-mapped one as IPv4.
    assert address_key("2001:db8::1") == address_key("2001:db8::ffff:2") == "2001:db8::/64"
    assert address_key("::ffff:192.0.2.7") == "192.0.2.7"
    # A long-quiet address is forgiven: its count starts again.
    assert (await t.enter("10.0.0.9")).done(False) == 0.5
    clock.now += 60
    assert (await t.enter("10.0.0.9")).done(False) == 1.0
    clock.now += 601
    assert (await t.enter("10.0.0.9")).done(False) == 0.5
