"""The x-line: the masking scheme's values as Curve25519 u-coordinates, multiplied with X25519.

Why: libsodium's checked Ed25519 multiplication (:func:`net.sealed.group.mul`) first checks that
its point is in the prime-order subgroup, a multiplication by ``L`` in itself, and it is the only
Ed25519 multiplication PyNaCl exposes. Its X25519 (``crypto_scalarmult``) works on the
same group, seen through the Montgomery u-coordinate, with a ladder and no such check: about a
quarter of the cost (46 against 190 µs on the project's slower machine). A masking pass is
nothing but multiplications, one after another on the deal's critical path, so the scheme's
deck values live here; the round keys and their proofs stay on Ed25519.

What changes with the coordinate:

* **A u-coordinate names a point up to sign** (``P`` and ``-P`` share it). Multiplication is
  well defined on it (``u(k*P) = u(k*(-P))``), which is all masking needs; a card is the
  u-coordinate of its Ed25519 point (:mod:`net.sealed.codec`), and no card is another's negative.
  Nothing adds values: there is no sum to prove, so a mask pass carries no proof.
* **X25519 takes a clamped scalar** (bit 254 set, bits 0-2 and 255 clear) and multiplies by it as
  it is: on the prime-order subgroup that is multiplying by it mod ``L``. A scalar ``k`` has
  exactly one candidate, the ``k + t*L`` that is a multiple of 8, and it is clamped for about half
  of all ``k`` (:func:`clamped`). Any other ``k`` is multiplied in two steps, ``h`` and then
  ``k/h``, with ``h`` one of a fixed list of clamped helpers: the value is the same either way.
* **What is checked.** An encoding must be canonical (``u < 2^255 - 19``): two spellings of one
  value would slip past a pass's check for repeated values. A value of small order makes X25519's
  result zero, which libsodium refuses (:class:`~net.sealed.group.BadPoint`, as the Ed25519
  multiplication refuses one). A value on the curve's twist is multiplied without complaint:
  X25519 is built to be safe there (a clamped scalar is a multiple of 8, which clears the twist's
  small factor, and the rest has prime order, so nothing of a key leaks), and such a value is no
  card: its slot opens to none, and the round's audit names the pass that made it.
  :func:`on_curve` tells, at the cost of an exponentiation in Python, where a caller wants it.
* **A torsion component cannot be followed**: the next multiplication (by a multiple of 8)
  clears it. But a value and its marked twin become one value there, so a participant checks its
  own mask pass for repeated values before it publishes it, and names the pass it worked on.
"""

from __future__ import annotations

from typing import Callable, Sequence

from nacl._sodium import ffi as _ffi, lib as _lib

from .group import L, BadPoint, BadScalar

P = 2**255 - 19
"""The field's prime."""
A = 486662
"""Curve25519's Montgomery coefficient: ``v^2 = u^3 + A*u^2 + u``."""
_LOW = 2**254
_L_INV_8 = pow(L, -1, 8)


def u_of(point: bytes) -> bytes:
    """The u-coordinate of an Ed25519 point's encoding: ``(1 + y) / (1 - y)``."""
    y = int.from_bytes(point, "little") & (2**255 - 1)
    if y % P == 1:
        raise BadPoint("the identity has no u-coordinate")
    return ((1 + y) * pow(1 - y, -1, P) % P).to_bytes(32, "little")


def us_of(points: Sequence[bytes]) -> list[bytes]:
    """:func:`u_of` of each point, with one inversion for them all (Montgomery's trick: a deck's
    table is made once per process, at the first deal, and an inversion in Python costs as much as
    a hundred multiplications)."""
    ys = [int.from_bytes(p, "little") & (2**255 - 1) for p in points]
    if any(y % P == 1 for y in ys):
        raise BadPoint("the identity has no u-coordinate")
    prefix = [1]
    for y in ys:
        prefix.append(prefix[-1] * (1 - y) % P)
    inv = pow(prefix[-1], -1, P)  # 1 / prod(1 - y)
    out = [b""] * len(ys)
    for i in range(len(ys) - 1, -1, -1):
        out[i] = ((1 + ys[i]) * inv * prefix[i] % P).to_bytes(32, "little")  # (1 + y_i) / (1 - y_i)
        inv = inv * (1 - ys[i]) % P
    return out


def is_canonical(u: object) -> bool:
    """Whether ``u`` is 32 bytes spelling a field element the one way (``< 2^255 - 19``)."""
    # The top byte alone settles all but 1 in 128 values (a deck is checked value by value).
    return type(u) is bytes and len(u) == 32 and (u[31] < 0x7F or int.from_bytes(u, "little") < P)


def on_curve(u: bytes) -> bool:
    """Whether canonical ``u`` is the u-coordinate of a point of Curve25519 other than its
    small-order ones at ``u = 0`` (not of its twist): ``u^3 + A*u^2 + u`` is a non-zero square."""
    x = int.from_bytes(u, "little")
    return x != 0 and pow((x * x * x + A * x * x + x) % P, (P - 1) // 2, P) == 1


def clamped(k: int) -> bytes | None:
    """The clamped scalar X25519 multiplies by ``k mod L`` with, if ``k`` has one (about half do)."""
    c = k % L
    c += (-c * _L_INV_8 % 8) * L  # the one candidate that is a multiple of 8
    return c.to_bytes(32, "little") if _LOW <= c < 2 * _LOW else None


def _helpers() -> list[tuple[bytes, int]]:
    out = []
    h = 1
    while len(out) < 64:
        h += 1
        c = clamped(h)
        if c is not None:
            out.append((c, pow(h, -1, L)))
    return out


_HELPERS = _helpers()
"""Clamped scalars (and their inverses mod ``L``) to split a scalar that has no clamped form: one of
64 leaves a clamped rest unless about 2^-64 bad luck, in which case :func:`times` says so."""
_x25519 = _lib.crypto_scalarmult  # libsodium's default primitive: X25519


def _raw(c: bytes, u: bytes) -> bytes:
    if not is_canonical(u):
        raise BadPoint("cannot multiply: a value that is not a canonical u-coordinate")
    out = _ffi.new("unsigned char[32]")
    if _x25519(out, c, u) != 0:  # libsodium refuses an all-zero result: ``u`` of small order
        raise BadPoint("cannot multiply: a value of small order")
    return _ffi.buffer(out)[:]


def times(k: bytes | int) -> Callable[[bytes], bytes]:
    """Multiplication of a u-coordinate by the scalar ``k`` (32 bytes or an int), ready to apply to
    many values (a pass multiplies a whole deck by one scalar)."""
    v = int.from_bytes(k, "little") if isinstance(k, bytes) else k
    if v % L == 0:
        raise BadScalar("cannot multiply by zero")
    c = clamped(v)
    if c is not None:
        return lambda u: _raw(c, u)
    for h, h_inv in _HELPERS:
        rest = clamped(v * h_inv)
        if rest is not None:
            return lambda u: _raw(rest, _raw(h, u))
    raise BadScalar("a scalar no helper splits")  # pragma: no cover - about 2^-64


def xmul(k: bytes | int, u: bytes) -> bytes:
    """``u(k * Q)`` for the point ``Q`` whose u-coordinate is ``u``."""
    return times(k)(u)
