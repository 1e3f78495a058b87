"""Encrypted, authenticated links: the handshake and the sealed frames after it.

The handshake (plain frames, see ``docs/protocol.md``)::

    client -> host   hs1{v, id, eph, nonce}                    identity key, ephemeral X25519 key
    host -> client   hs2{v, body, sig}                         body = msgpack{id, eph, nonce, pw, salt}
                                                               sig  = host identity over H(hs1 bytes, body)
    client -> host   [sealed] auth{sig}                        client identity over the same transcript hash
    client -> host   [sealed] hello{...}                       the protocol proper, every frame sealed

Keys: ``HKDF-SHA256(ikm = X25519(eph_c, eph_h), salt = P, info = "uno-tui/keys/v2" || th)``
gives 64 bytes, the client-to-host key then the host-to-client key, where
``th`` hashes both handshake messages and ``P`` is
``scrypt(password, room salt, n=2^14, r=8, p=1)`` for a room with a password
(32 zero bytes otherwise). A peer without the password derives other keys:
its first sealed frame does not open, the host answers a plain
``refuse{code: "password"}`` and closes, and the peer has seen nothing but
the host's public key and the room's salt.

A sealed frame body is an 8-byte big-endian counter then the ChaCha20-Poly1305
ciphertext of the msgpack body under nonce ``0000 || counter``. Each
direction counts from 0 and never repeats; a frame whose counter is not the
next one (a replay, a reorder, a drop) ends the link.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Any

import msgpack
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from .identity import H, Identity, verify

TAG_HOST = b"uno-tui/hs-host/v2\0"
TAG_CLIENT = b"uno-tui/hs-client/v2\0"
AAD = b"uno-tui/v2"
OVERHEAD = 8 + 16
"""Bytes a sealed frame adds to its body."""

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1

_pw_cache: dict[tuple[bytes, bytes], bytes] = {}


class HandshakeError(Exception):
    """The handshake failed; ``code`` as in ``refuse`` (``handshake``, ``password``, ``fingerprint``...)."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason


class ChannelError(Exception):
    """A sealed frame did not open: tampered, replayed, reordered or under other keys."""


def password_key(password: str, salt: bytes) -> bytes:
    """scrypt of the room password under the room's salt (cached: it costs tens of ms)."""
    key = (password.encode(), salt)
    got = _pw_cache.get(key)
    if got is None:
        got = hashlib.scrypt(password.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                             maxmem=64 * 1024 * 1024, dklen=32)
        if len(_pw_cache) > 64:
            _pw_cache.clear()
        _pw_cache[key] = got
    return got


def _derive(shared: bytes, pw_key: bytes | None, th: bytes) -> tuple[bytes, bytes]:
    okm = HKDF(algorithm=hashes.SHA256(), length=64, salt=pw_key or bytes(32),
               info=b"uno-tui/keys/v2" + th).derive(shared)
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


# -- the client's side ------------------------------------------------------------------
class ClientHandshake:
    def __init__(self, identity: Identity, version: int) -> None:
        self.identity = identity
        self._eph = X25519PrivateKey.generate()
        self.hs1_msg = {"type": "hs1", "v": version, "id": identity.public,
                        "eph": self._eph.public_key().public_bytes_raw(), "nonce": secrets.token_bytes(32)}
        self.hs1 = pack(self.hs1_msg)

    def finish(self, hs2: dict[str, Any], password: str | None) -> tuple[bytes, Channel, dict[str, Any], bytes]:
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
        th = H(b"uno-tui/hs/v2", self.hs1, body_bytes)
        if not verify(host_id, hs2.get("sig", b""), TAG_HOST, th):
            raise HandshakeError("handshake", "the host's handshake signature does not verify")
        pw_key = None
        if body.get("pw"):
            if not password:
                raise HandshakeError("password", "this table needs a password (--password)")
            salt = body.get("salt")
            if not isinstance(salt, bytes) or not 8 <= len(salt) <= 64:
                raise HandshakeError("handshake", "the host's password salt is malformed")
            pw_key = password_key(password, salt)
        try:
            shared = self._eph.exchange(X25519PublicKey.from_public_bytes(body["eph"]))
        except ValueError:
            raise HandshakeError("handshake", "the host's ephemeral key is not a valid X25519 key") from None
        c2s, s2c = _derive(shared, pw_key, th)
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

    def check_auth(self, msg: dict[str, Any]) -> None:
        if msg.get("type") != "auth" or not verify(self.client_id, msg.get("sig", b""), TAG_CLIENT, self.th):
            raise HandshakeError("handshake", "the client's handshake signature does not verify")


def host_answer(identity: Identity, hs1_bytes: bytes, hs1: dict[str, Any], version: int,
                room_salt: bytes, pw_key: bytes | None) -> tuple[dict[str, Any], HostHandshake]:
    """The host's ``hs2`` for a client's ``hs1`` and the state to check the client's ``auth``."""
    if len(hs1["id"]) != 32 or len(hs1["eph"]) != 32:
        raise HandshakeError("handshake", "keys in hs1 must be 32 bytes")
    eph = X25519PrivateKey.generate()
    body = pack({"id": identity.public, "eph": eph.public_key().public_bytes_raw(),
                 "nonce": secrets.token_bytes(32), "pw": pw_key is not None, "salt": room_salt})
    th = H(b"uno-tui/hs/v2", hs1_bytes, body)
    try:
        shared = eph.exchange(X25519PublicKey.from_public_bytes(hs1["eph"]))
    except ValueError:
        raise HandshakeError("handshake", "the ephemeral key in hs1 is not a valid X25519 key") from None
    c2s, s2c = _derive(shared, pw_key, th)
    msg = {"type": "hs2", "v": version, "body": body, "sig": identity.sign(TAG_HOST, th)}
    return msg, HostHandshake(hs1["id"], Channel(s2c, c2s), th)
