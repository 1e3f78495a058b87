"""Encrypted, authenticated links: the handshake and the sealed frames after it.

The handshake (plain frames, see ``docs/protocol.md``)::

    client -> host   hs1{v, id, eph, nonce, pake?}             identity key, ephemeral X25519 key, and
                                                               with a password the client's SPAKE2 message
    host -> client   hs2{v, body, sig}                         body = msgpack{id, eph, nonce, pw, pake}
                                                               sig  = host identity over th = H(hs1 bytes, body)
    client -> host   [sealed] auth{sig}                        client identity over th
    client -> host   [sealed] hello{...}                       the protocol proper, every frame sealed

Keys: ``HKDF-SHA256(ikm = X25519(eph_c, eph_h) || K, info = "uno-tui/keys/v4" || th)``
gives 64 bytes, the client-to-host key then the host-to-client key. ``K`` is
the SPAKE2 key (the ``spake2`` package, Ed25519 group; the client is side A,
the host side B) when the room has a password, and empty otherwise; ``th``
hashes both handshake messages, the two SPAKE2 messages among them, so the
password exchange is bound to the identity keys and the X25519 exchange.

Why SPAKE2: the client's message ``X* = x*G + pw*M`` is a uniformly random
point whatever the password, and the keys depend on ``K``, which someone
who ran the exchange with guess ``g`` can compute only if ``g`` is the
password. So a fake host (one that answers at an address given without a
fingerprint) learns from a connection whether its *one* guess was right, and
nothing it can test other guesses against offline. A peer without the
password derives other keys: its first sealed frame does not open, the host
answers a plain ``refuse{code: "password"}`` and closes. Online guessing is
slowed per address by :mod:`net.throttle`.

A sealed frame body is an 8-byte big-endian counter then the ChaCha20-Poly1305
ciphertext of the msgpack body under nonce ``0000 || counter``. Each
direction counts from 0 and never repeats; a frame whose counter is not the
next one (a replay, a reorder, a drop) ends the link.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A, SPAKE2_B

from .identity import H, Identity, verify

TAG_HOST = b"uno-tui/hs-host/v4\0"
TAG_CLIENT = b"uno-tui/hs-client/v4\0"
TAG_TH = b"uno-tui/hs/v4"
AAD = b"uno-tui/v4"
OVERHEAD = 8 + 16
"""Bytes a sealed frame adds to its body."""
PAKE_SIZE = 33
"""A SPAKE2 message: a side byte and a point."""
PAKE_IDS = {"idA": b"uno-tui client", "idB": b"uno-tui host"}
"""The two roles, told apart in the SPAKE2 key (the identity keys are bound through ``th``)."""


class HandshakeError(Exception):
    """The handshake failed; ``code`` as in ``refuse`` (``handshake``, ``password``, ``no_password``, ...)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class ChannelError(Exception):
    """A sealed frame did not open: tampered, replayed, reordered or under other keys."""


def _password(password: str) -> bytes:
    return password.encode("utf-8")


def derive_keys(shared: bytes, pake_key: bytes | None, th: bytes) -> tuple[bytes, bytes]:
    """(client-to-host key, host-to-client key) from the X25519 secret, the SPAKE2 key and ``th``."""
    okm = HKDF(algorithm=hashes.SHA256(), length=64, salt=None,
               info=b"uno-tui/keys/v4" + th).derive(shared + (pake_key or b""))
    return okm[:32], okm[32:]


class Channel:
    """One direction pair of sealed frames."""

    def __init__(self, send_key: bytes, recv_key: bytes) -> None:
        self._send = ChaCha20Poly1305(send_key)
        self._recv = ChaCha20Poly1305(recv_key)
        self.sent = 0
        self.received = 0

    def seal(self, body: bytes) -> bytes:
        n = self.sent
        self.sent += 1
        ctr = n.to_bytes(8, "big")
        return ctr + self._send.encrypt(b"\0\0\0\0" + ctr, body, AAD)

    def open(self, sealed: bytes) -> bytes:
        if len(sealed) < OVERHEAD:
            raise ChannelError("a sealed frame too short to hold its counter and tag")
        ctr = int.from_bytes(sealed[:8], "big")
        if ctr != self.received:
            what = "replayed" if ctr < self.received else "out-of-order"
            raise ChannelError(f"a {what} frame (counter {ctr}, expected {self.received})")
        try:
            body = self._recv.decrypt(b"\0\0\0\0" + sealed[:8], sealed[8:], AAD)
        except InvalidTag:
            raise ChannelError("a frame that does not authenticate under this link's keys") from None
        self.received += 1
        return body


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


# -- the client's side ------------------------------------------------------------------
class ClientHandshake:
    """The client's half: ``hs1`` (with its SPAKE2 message when it has a password), then :meth:`finish`."""

    def __init__(self, identity: Identity, version: int, password: str | None = None) -> None:
        self.identity = identity
        self._eph = X25519PrivateKey.generate()
        self._pake = SPAKE2_A(_password(password), **PAKE_IDS) if password else None
        self.hs1_msg: dict[str, Any] = {"type": "hs1", "v": version, "id": identity.public,
                                        "eph": self._eph.public_key().public_bytes_raw(),
                                        "nonce": secrets.token_bytes(32)}
        if self._pake is not None:
            self.hs1_msg["pake"] = self._pake.start()
        self.hs1 = pack(self.hs1_msg)

    def finish(self, hs2: dict[str, Any]) -> tuple[bytes, Channel, dict[str, Any], bytes]:
        """Check the host's answer; returns (host key, channel, body, auth frame body)."""
        body_bytes = hs2.get("body")
        if not isinstance(body_bytes, bytes):
            raise HandshakeError("handshake", "the host's handshake has no body")
        try:
            body = msgpack.unpackb(body_bytes, raw=False)
        except Exception:
            raise HandshakeError("handshake", "the host's handshake body is not msgpack") from None
        if not isinstance(body, dict) or not all(isinstance(body.get(k), bytes) for k in ("id", "eph", "nonce")):
            raise HandshakeError("handshake", "the host's handshake body is malformed")
        host_id = body["id"]
        th = H(TAG_TH, self.hs1, body_bytes)
        if not verify(host_id, hs2.get("sig", b""), TAG_HOST, th):
            raise HandshakeError("handshake", "the host's handshake signature does not verify")
        pake_key = None
        if body.get("pw"):
            if self._pake is None:
                raise HandshakeError("password", "this table needs a password (--password)")
            theirs = body.get("pake")
            if not isinstance(theirs, bytes) or len(theirs) != PAKE_SIZE:
                raise HandshakeError("handshake", "the host asks for a password but sent no password exchange")
            try:
                pake_key = self._pake.finish(theirs)
            except Exception:  # spake2 raises its own errors, and ValueError for a point off the curve
                raise HandshakeError("handshake", "the host's password exchange is malformed") from None
        elif self._pake is not None:
            # With a password the exchange also proves that the host knows it: a host that does not
            # ask for one has proven nothing, and may be someone else at that address.
            raise HandshakeError("no_password", "you gave a password, but this host does not ask for one: it may "
                                                "not be the table you mean (join without --password if it is)")
        try:
            shared = self._eph.exchange(X25519PublicKey.from_public_bytes(body["eph"]))
        except ValueError:
            raise HandshakeError("handshake", "the host's ephemeral key is not a valid X25519 key") from None
        c2s, s2c = derive_keys(shared, pake_key, th)
        channel = Channel(c2s, s2c)
        auth = pack({"type": "auth", "sig": self.identity.sign(TAG_CLIENT, th)})
        return host_id, channel, body, auth


# -- the host's side --------------------------------------------------------------------
@dataclass
class HostHandshake:
    """What the host keeps between sending ``hs2`` and checking ``auth``."""

    client_id: bytes
    channel: Channel
    th: bytes
    pake: bool = False
    """Whether a password exchange was run (then ``auth`` opening proves the client knows the password)."""
    attempt: Any = None
    """The password attempt under way (:class:`net.throttle.Attempt`), told how it ends."""

    def check_auth(self, msg: dict[str, Any]) -> None:
        if msg.get("type") != "auth" or not verify(self.client_id, msg.get("sig", b""), TAG_CLIENT, self.th):
            raise HandshakeError("handshake", "the client's handshake signature does not verify")

    def done(self, ok: bool) -> float:
        """The end of the password attempt, if any; returns the delay its address now has to wait."""
        if self.attempt is None:
            return 0.0
        return float(self.attempt.done(ok))


def host_answer(identity: Identity, hs1_bytes: bytes, hs1: dict[str, Any], version: int,
                password: str | None) -> tuple[dict[str, Any], HostHandshake]:
    """The host's ``hs2`` for a client's ``hs1`` and the state to check the client's ``auth``.

    With a password and the client's SPAKE2 message this costs about 15 ms of
    pure-Python arithmetic: the host runs it off its event loop.
    """
    if len(hs1["id"]) != 32 or len(hs1["eph"]) != 32:
        raise HandshakeError("handshake", "keys in hs1 must be 32 bytes")
    try:
        peer_eph = X25519PublicKey.from_public_bytes(hs1["eph"])
    except ValueError:
        raise HandshakeError("handshake", "the ephemeral key in hs1 is not a valid X25519 key") from None
    pake_msg: bytes | None = None
    pake_key: bytes | None = None
    theirs = hs1.get("pake")
    if password is not None and theirs is not None:
        pake = SPAKE2_B(_password(password), **PAKE_IDS)
        pake_msg = pake.start()
        try:
            pake_key = pake.finish(theirs)
        except Exception:  # spake2 raises its own errors, and ValueError for a point off the curve
            raise HandshakeError("handshake", "the password exchange in hs1 is malformed") from None
    eph = X25519PrivateKey.generate()
    body = pack({"id": identity.public, "eph": eph.public_key().public_bytes_raw(),
                 "nonce": secrets.token_bytes(32), "pw": password is not None, "pake": pake_msg})
    th = H(TAG_TH, hs1_bytes, body)
    try:
        shared = eph.exchange(peer_eph)
    except ValueError:
        raise HandshakeError("handshake", "the ephemeral key in hs1 is not a valid X25519 key") from None
    c2s, s2c = derive_keys(shared, pake_key, th)
    msg = {"type": "hs2", "v": version, "body": body, "sig": identity.sign(TAG_HOST, th)}
    return msg, HostHandshake(hs1["id"], Channel(s2c, c2s), th, pake=pake_key is not None)
