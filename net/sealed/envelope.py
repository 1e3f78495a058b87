"""Shares sent to one participant: signed by the sender, sealed to the recipient's round box key.

The host relays an :class:`Envelope` (inside the sender's signed message,
which goes into the log byte for byte) and cannot read it: it is a libsodium
sealed box (X25519, XSalsa20-Poly1305) to the recipient's box key for the
round. Inside is msgpack ``{g, r, from, to, s: [[epoch, slot, author, ...],
...]}`` (the rest of each item is the scheme's share: a slot key for the
masking scheme) and the sender's Ed25519 signature over it. The signature
is what lets a recipient who finds a bad share prove it at once
(:func:`verify_accusation`): it publishes the opened body and signature,
and everyone checks that the sender signed it and that a share in it fails
its proof. Opening the body of a bad envelope reveals nothing that matters:
one participant's shares alone open no card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence

import msgpack
import nacl.bindings as _s
import nacl.exceptions as _e

from .faults import Fault
from .keys import RoundKeys

TAG_ENVELOPE = b"uno-tui/sealed/envelope/v1\0"


class Signer(Protocol):
    """What signs: :class:`net.identity.Identity` is one."""

    public: bytes

    def sign(self, tag: bytes, data: bytes) -> bytes: ...


def signed_by(public: bytes, sig: bytes, tag: bytes, data: bytes) -> bool:
    try:
        _s.crypto_sign_open(sig + tag + data, public)
        return True
    except (_e.BadSignatureError, _e.ValueError, _e.TypeError, ValueError, TypeError):
        return False


@dataclass(frozen=True)
class Envelope:
    sender: int
    to: int
    box: bytes

    def to_wire(self) -> list[Any]:
        return [self.sender, self.to, self.box]

    @classmethod
    def from_wire(cls, w: object) -> "Envelope":
        if not (isinstance(w, (list, tuple)) and len(w) == 3 and isinstance(w[0], int) and isinstance(w[1], int)
                and isinstance(w[2], bytes)):
            raise Fault("protocol", "a malformed envelope")
        return cls(w[0], w[1], w[2])


Item = list[Any]
"""One share in an envelope, as on the wire: ``[epoch, slot, author, ...]``."""


def seal(signer: Signer, keys: RoundKeys, sender: int, to: int, items: Sequence[Item]) -> Envelope:
    """Sign ``items`` as ``sender`` and seal them to ``to``."""
    body = msgpack.packb({"g": keys.game, "r": keys.round, "from": sender, "to": to, "s": list(items)},
                         use_bin_type=True)
    sig = signer.sign(TAG_ENVELOPE, body)
    return Envelope(sender, to, _s.crypto_box_seal(sig + body, keys.box[to]))


def unseal(keys: RoundKeys, box_public: bytes, box_secret: bytes, env: Envelope, *,
           check: bool = True) -> tuple[bytes, bytes]:
    """Open ``env`` with the recipient's box keys: ``(body, signature)``, the signature checked
    (unless ``check`` is false: the recipient of keys that open its card needs no proof of who
    sent them; it checks the signature when it must show others a bad key).

    Raises ``envelope`` naming the sender when the box does not open, is not
    signed by the sender's identity, or is addressed to another game, round
    or recipient.
    """
    try:
        plain = _s.crypto_box_seal_open(env.box, box_public, box_secret)
    except (_e.CryptoError, _e.ValueError, _e.TypeError, ValueError, TypeError):
        raise Fault("envelope", f"an envelope from {env.sender} does not open", env.sender) from None
    sig, body = plain[:64], plain[64:]
    identity = keys.identity.get(env.sender)
    if identity is None or (check and not signed_by(identity, sig, TAG_ENVELOPE, body)):
        raise Fault("envelope", f"an envelope that is not signed by its sender {env.sender}", env.sender)
    _header(keys, env.sender, env.to, body)
    return body, sig


def _header(keys: RoundKeys, sender: int, to: int | None, body: bytes) -> dict[str, Any]:
    """The body's fields, checked against the sender, the recipient (unless None), the game and round."""
    try:
        d = msgpack.unpackb(body, raw=False, strict_map_key=False)
    except Exception:
        raise Fault("envelope", "a signed envelope body that is not msgpack", sender) from None
    if not isinstance(d, dict) or d.get("g") != keys.game or d.get("r") != keys.round or d.get("from") != sender \
            or (to is not None and d.get("to") != to) or not isinstance(d.get("to"), int) \
            or not isinstance(d.get("s"), list):
        raise Fault("envelope", f"an envelope from {sender} meant for another game, round or recipient", sender)
    return d


def items_of(body: bytes, sender: int, keys: RoundKeys) -> list[Item]:
    """The items of a signed body, each ``[epoch, slot, author, ...]`` with int epoch, slot and author."""
    out = []
    for w in _header(keys, sender, None, body)["s"]:
        if not isinstance(w, list) or len(w) < 4 or not all(isinstance(x, int) and not isinstance(x, bool)
                                                             for x in w[:3]):
            raise Fault("envelope", "a malformed share in an envelope", sender)
        out.append(w)
    return out


def verify_accusation(keys: RoundKeys, sender: int, body: bytes, sig: bytes,
                      bad: Callable[[Item], bool]) -> Fault | None:
    """Check a recipient's accusation: the opened body of ``sender``'s envelope and its signature.

    ``bad(item)`` is the scheme's check of one share. Returns the
    :class:`Fault` that names ``sender`` when the sender signed the body and
    a share in it is bad (or malformed), else None (the accusation is false,
    and the accuser is the one to blame).
    """
    identity = keys.identity.get(sender)
    if identity is None or not signed_by(identity, sig, TAG_ENVELOPE, body):
        return None
    try:
        for item in items_of(body, sender, keys):
            if bad(item):
                return Fault("share", f"a bad share for slot {item[1]} of epoch {item[0]}", sender)
    except Fault as f:
        return Fault(f.code, f.reason, sender)
    return None
