"""The chosen scheme: commutative masking (SRA-style) over the group, with a key per slot to open it.

A card is a value ``M``, the u-coordinate of a point of the group (see :mod:`net.sealed.codec`
and, for why the u-coordinate, :mod:`net.sealed.xline`). An epoch runs three kinds of pass, each
participant once per kind, in the table's order:

* **re-key** (only when sealed cards from earlier epochs come back into a
  pile): each participant multiplies every input by a fresh ``rho_j``, and a
  sealed card also by the inverse of its old slot key, so that every card
  ends up under the same key ``prod rho_j``. No permutation.
* **mask**: multiply every card by a secret ``e_j`` and permute. Two equal
  values in a mask pass are refused at once (a copied card: masking is
  deterministic, so a copy is the very value its original masks to).
* **lock**: once the order is final, multiply slot ``s`` by
  ``k_js / (e_j * rho_j)``: each participant swaps its epoch-wide keys for a key
  per slot, and publishes a commitment to each, ``K_js = SHA-256(tag, s, k_js)``. Slot ``s``
  then holds ``(prod_j k_js) * M``.

No pass carries a proof: without zero-knowledge shuffle proofs, a card substituted in a pass is
caught when its slot opens to no card (or to a card seen elsewhere), and the round's audit, which
makes every pass again from its author's opened seed, names the pass (``docs/sealed-design.md``,
section 3, says what is caught when, and why the mask passes' sum proofs were given up).

A participant's **share** for opening slot ``s`` is its slot key ``k_js``, a
scalar: the recipient checks it against ``K_js`` (a hash) and, with every participant's, computes
``M = (prod_j k_js)^-1 * F_s``. Shares are independent, so they are given in
parallel, and the holder of a card holds every key of it: it can show the card
to everyone, or hand it to another player, alone.

Why this and not ElGamal (:mod:`net.sealed.elgamal`): nobody can make a masked
card of their choosing without every other participant's keys, so no pass can
replace the deck with one in an order its author knows; privacy against a
participant who cheats in its pass does not wait for the audit. The costs and
the rest of the comparison are in ``docs/sealed-design.md``.

Every value of a pass derives from the participant's *pass secret* (see
:meth:`net.sealed.keys.RoundSecret.pass_seed`): the round's audit opens the
seeds and makes every pass again. The keys a pass multiplies a whole deck by (``e``, ``rho``,
and in an epoch without a re-key round each slot's ``k_s / e``) are drawn among the scalars X25519
multiplies by in one step (:func:`net.sealed.xline.clamped`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Sequence

from core.source import permutation

from .faults import Fault
from .group import L, BadPoint, BadScalar, each, hash_scalar, sinv, smul
from .xline import clamped, is_canonical, on_curve, times

TAG_E = b"uno-tui/sealed/mask-e/v2"
TAG_RHO = b"uno-tui/sealed/mask-rho/v2"
TAG_PI = b"uno-tui/sealed/mask-pi/v1"
TAG_K = b"uno-tui/sealed/slot-m/v2"
TAG_COMMIT = b"uno-tui/sealed/slot-commit/v1\0"
KINDS = ("rekey", "mask", "lock")


def _clamped_scalar(tag: bytes, *parts: bytes) -> bytes:
    """A secret scalar X25519 multiplies by in one step: ``hash_scalar(tag, *parts)``, or the first
    scalar after it that is one (about half are: two tries on average, each a few integer
    operations, where hashing again would cost a hash each)."""
    v = int.from_bytes(hash_scalar(tag, *parts), "little")
    while v == 0 or clamped(v) is None:
        v = (v + 1) % L
    return v.to_bytes(32, "little")


class PassKeys:
    """What one pass secret gives: the epoch keys ``e`` and ``rho``, the permutation, the slot keys."""

    def __init__(self, pass_seed: bytes) -> None:
        self.seed = pass_seed
        self._k: dict[int, bytes] = {}
        self._m: dict[int, bytes] = {}

    # Derived when first asked.
    @cached_property
    def e(self) -> bytes:
        return _clamped_scalar(TAG_E, self.seed)

    @cached_property
    def rho(self) -> bytes:
        return _clamped_scalar(TAG_RHO, self.seed)

    def pi(self, n: int) -> list[int]:
        """Output slot ``k`` of the mask pass takes input slot ``pi[k]``."""
        return permutation(hash_scalar(TAG_PI, self.seed), n)

    def m(self, slot: int) -> bytes:
        """``k_s / e``: what the lock pass multiplies slot ``s`` by in an epoch without a re-key round,
        drawn so that it takes X25519 one step."""
        key = self._m.get(slot)
        if key is None:
            key = self._m[slot] = _clamped_scalar(TAG_K, self.seed, slot.to_bytes(4, "big"))
        return key

    def k(self, slot: int) -> bytes:
        """The slot key ``k_s = m_s * e``: this participant's share for opening slot ``s``."""
        key = self._k.get(slot)
        if key is None:
            key = self._k[slot] = smul(self.m(slot), self.e)
        return key

    @cached_property
    def _rho_inv(self) -> bytes:
        return sinv(self.rho)

    def lock_factor(self, slot: int, rekeyed: bool) -> bytes:
        """``k_s / (e * rho)`` (or ``k_s / e = m_s`` in an epoch without a re-key round)."""
        return smul(self.m(slot), self._rho_inv) if rekeyed else self.m(slot)


@dataclass(frozen=True)
class Pass:
    """One participant's pass of one kind over an epoch's deck, as published."""

    kind: str
    """``rekey``, ``mask`` or ``lock``."""
    author: int
    deck: list[bytes]
    """The output values, slot by slot (u-coordinates)."""
    K: list[bytes] | None = None
    """Lock passes: every slot key's commitment (:func:`commitment`), what each share is checked against."""

    def to_wire(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "by": self.author, "deck": b"".join(self.deck)}
        if self.kind == "lock":
            d["K"] = b"".join(self.K or [])
        return d

    @classmethod
    def from_wire(cls, d: object, n: int) -> "Pass":
        if not isinstance(d, dict) or d.get("kind") not in KINDS or not isinstance(d.get("by"), int) \
                or isinstance(d.get("by"), bool):
            raise Fault("protocol", "a malformed pass")
        kind, by = d["kind"], d["by"]
        want = {"kind", "by", "deck"} | ({"K"} if kind == "lock" else set())
        if set(d) != want:
            raise Fault("pass", "a pass with missing or unknown fields", by)
        deck = _values(d["deck"], n, by)
        if kind == "lock":
            return cls(kind, by, deck, K=_chunks(d["K"], n, by))
        return cls(kind, by, deck)


def _chunks(data: object, n: int, by: int) -> list[bytes]:
    if not isinstance(data, bytes) or len(data) != 32 * n:
        raise Fault("pass", f"a pass must hold {n} values", by)
    return [data[i:i + 32] for i in range(0, len(data), 32)]


def _values(data: object, n: int, by: int) -> list[bytes]:
    """A deck from the wire: ``n`` canonical u-coordinates (two spellings of one value would slip past
    the check for repeated values)."""
    out = _chunks(data, n, by)
    assert isinstance(data, bytes)
    if max(data[31::32], default=0) >= 0x7F:  # every top byte under 0x7f settles it at once
        for slot, v in enumerate(out):
            if not is_canonical(v):
                raise Fault("point", f"slot {slot} of a pass is not a canonical value", by)
    return out


def _times(c: bytes, values: Sequence[bytes], author: int | None) -> list[bytes]:
    f = times(c)
    try:
        return each(f, values)
    except BadPoint:
        # libsodium refuses a value of small order: the pass that produced it is to blame.
        raise Fault("point", "a deck holds a value of small order or no value at all", author) from None


def rekey_pass(deck: Sequence[bytes], old: dict[int, bytes], keys: PassKeys, author: int,
               blame: int | None = None) -> Pass:
    """Multiply by ``rho`` (and a sealed input ``s`` also by ``1/old[s]``, its old slot key)."""
    rho = times(keys.rho)
    fs = [rho if s not in old else times(smul(keys.rho, sinv(old[s]))) for s in range(len(deck))]
    try:
        out = each(lambda fv: fv[0](fv[1]), list(zip(fs, deck)))
    except BadPoint:
        raise Fault("point", "a deck holds a value of small order or no value at all", blame) from None
    return Pass("rekey", author, out)


def masked(deck: Sequence[bytes], keys: PassKeys, blame: int | None = None) -> list[bytes]:
    """What a mask pass makes of ``deck``: every value times ``e``, permuted."""
    out = _times(keys.e, deck, blame)
    return [out[i] for i in keys.pi(len(deck))]


def mask_pass(deck: Sequence[bytes], keys: PassKeys, author: int, blame: int | None = None) -> Pass:
    """Multiply every value by ``e`` and permute.

    Two values equal after the multiplication were equal before it, or equal up to a torsion
    component (``e`` is a multiple of 8 as X25519 uses it, which clears one). Either way the deck
    it works on holds a copied card, and its author says so rather than publish a pass that would
    look like its own copy: twins made by the pass before it (``blame``) are that pass's doing;
    equal values after a re-key round are a copy made in an earlier epoch (only its first locker
    can make one that opens) or by a re-keyer, which only the passes made again can tell apart
    (``card``, with no culprit: the table opens its secrets and the audit names the pass)."""
    out = masked(deck, keys, blame)
    if len(set(out)) != len(out):
        if len(set(deck)) != len(deck):
            raise Fault("card", "two slots of a deck being shuffled hold one card (a copy made in an earlier pass)")
        raise Fault("pass", "a deck holds one card twice, the same up to a torsion mark (a copied card)", blame)
    return Pass("mask", author, out)


def lock_pass(deck: Sequence[bytes], keys: PassKeys, author: int, rekeyed: bool, commitments: list[bytes] | None,
              blame: int | None = None) -> Pass:
    """Swap the epoch keys for a key per slot; ``commitments`` (:func:`slot_commitments`) may be made ahead."""
    try:
        out = each(lambda sv: times(keys.lock_factor(sv[0], rekeyed))(sv[1]), list(enumerate(deck)))
    except BadPoint:
        raise Fault("point", "a deck holds a value of small order or no value at all", blame) from None
    K = commitments if commitments is not None else slot_commitments(keys, len(deck))
    return Pass("lock", author, out, K=K[:len(deck)])


def commitment(slot: int, k: bytes) -> bytes:
    """What a lock pass publishes of its key ``k`` for ``slot``: a hash, which binds the key (a share is
    checked against it) and hides it (a slot key is a secret scalar of about 251 bits). It was
    ``k*G`` until the x-line: a base-point multiplication a slot to make, and another to check."""
    return hashlib.sha256(TAG_COMMIT + slot.to_bytes(4, "big") + k).digest()


def slot_commitments(keys: PassKeys, n: int) -> list[bytes]:
    return [commitment(s, keys.k(s)) for s in range(n)]


def check_mask(p: Pass) -> None:
    """Check a mask pass as it arrives: no value twice (a copied card)."""
    if len(set(p.deck)) != len(p.deck):
        raise Fault("pass", "a mask pass holds the same value twice (a copied card)", p.author)


def check_points(values: Sequence[bytes], author: int) -> None:
    """Every value a canonical u-coordinate of a point of the curve, not of its twist (an exponentiation
    in Python each: a check for tests and tools; a twisted value is otherwise found when its slot
    opens to no card, and the audit names its pass)."""
    for slot, v in enumerate(values):
        if not (is_canonical(v) and on_curve(v)):
            raise Fault("point", f"slot {slot} of a pass is not a value of the group", author)


def open_value(value: bytes, keys: Sequence[bytes], blame: int | None = None) -> bytes:
    """``(prod keys)^-1 * value``: the card, once every participant's slot key is in.

    A final value of small order (libsodium refuses to multiply it) is
    ``point``, blamed on ``blame`` (the last participant to lock)."""
    # The product and its inverse in Python's integers: a third of the cost of libsodium's calls
    # through cffi for a table of ten (the same canonical scalars: tests/test_sealed_group.py).
    prod = 1
    for k in keys:
        if type(k) is not bytes or len(k) != 32:
            raise BadScalar("a scalar is 32 bytes")
        prod = prod * int.from_bytes(k, "little") % L
    if prod == 0:
        raise BadScalar("zero has no inverse")
    try:
        return times(pow(prod, -1, L))(value)
    except BadPoint:
        raise Fault("point", "a final value is of small order or no value at all", blame) from None
