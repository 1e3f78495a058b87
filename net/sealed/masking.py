"""The chosen scheme: commutative masking (SRA-style) over the group, with a key per slot to open it.

A card is a point ``M`` (see :mod:`net.sealed.codec`). An epoch runs three
kinds of pass, each participant once per kind, in the table's order:

* **re-key** (only when sealed cards from earlier epochs come back into a
  pile): each participant multiplies every input by a fresh ``rho_j``, and a
  sealed card also by the inverse of its old slot key, so that every card
  ends up under the same key ``prod rho_j``. No permutation, no proof: the
  audit checks it.
* **mask**: multiply every card by a secret ``e_j`` and permute. A pass comes
  with ``E_j = e_j*G`` and a Chaum-Pedersen proof that the sum of its output is
  ``e_j`` times the sum of its input, so a card substituted, duplicated or
  dropped is caught as the pass arrives (unless the change keeps the sum,
  which spoils another slot: that slot opens to no card). Two equal values
  in a deck are refused at once too (a copied card).
* **lock**: once the order is final, multiply slot ``s`` by
  ``k_js / (e_j * rho_j)``: each participant swaps its epoch-wide keys for a key
  per slot, and publishes ``K_js = k_js*G``. Slot ``s`` then holds
  ``(prod_j k_js) * M``.

A participant's **share** for opening slot ``s`` is its slot key ``k_js``, a
scalar: the recipient checks it against ``K_js`` (one base-point
multiplication) and, with every participant's, computes
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
seeds and makes every pass again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Sequence

from core.source import permutation

from .faults import Fault
from .group import L, BadPoint, BadScalar, base, each, hash_scalar, is_point, mul, pid_bytes, sinv, smul, total
from .proofs import check_dleq, prove_dleq

TAG_E = b"uno-tui/sealed/mask-e/v1"
TAG_RHO = b"uno-tui/sealed/mask-rho/v1"
TAG_PI = b"uno-tui/sealed/mask-pi/v1"
TAG_K = b"uno-tui/sealed/slot-k/v1"
TAG_MASK_CTX = b"uno-tui/sealed/mask/v1"
KINDS = ("rekey", "mask", "lock")


class PassKeys:
    """What one pass secret gives: the epoch keys ``e`` and ``rho``, the permutation, the slot keys."""

    def __init__(self, pass_seed: bytes) -> None:
        self.seed = pass_seed
        self._k: dict[int, bytes] = {}

    # Derived when first asked (a share or an audit's check of one needs only ``k``).
    @cached_property
    def e(self) -> bytes:
        return hash_scalar(TAG_E, self.seed)

    @cached_property
    def rho(self) -> bytes:
        return hash_scalar(TAG_RHO, self.seed)

    def pi(self, n: int) -> list[int]:
        """Output slot ``k`` of the mask pass takes input slot ``pi[k]``."""
        return permutation(hash_scalar(TAG_PI, self.seed), n)

    def k(self, slot: int) -> bytes:
        key = self._k.get(slot)
        if key is None:
            key = self._k[slot] = hash_scalar(TAG_K, self.seed, slot.to_bytes(4, "big"))
        return key

    def unlock(self, rekeyed: bool) -> bytes:
        """``1 / (e * rho)`` (or ``1 / e`` in an epoch without a re-key round)."""
        return sinv(smul(self.e, self.rho) if rekeyed else self.e)


@dataclass(frozen=True)
class Pass:
    """One participant's pass of one kind over an epoch's deck, as published."""

    kind: str
    """``rekey``, ``mask`` or ``lock``."""
    author: int
    deck: list[bytes]
    """The output values, slot by slot."""
    E: bytes = b""
    """Mask passes: ``e*G``."""
    proof: bytes = b""
    """Mask passes: the proof that the output's sum is ``e`` times the input's."""
    K: list[bytes] | None = None
    """Lock passes: ``k_s*G`` for every slot, what each share is checked against."""
    out_sum: bytes | None = field(default=None, compare=False, repr=False)
    """A mask pass made here, never one read from the wire: the sum of its output, ``e`` times the
    input's, which its author knows without adding (:meth:`net.sealed.Epoch.add_pass` with
    ``own``)."""

    def to_wire(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "by": self.author, "deck": b"".join(self.deck)}
        if self.kind == "mask":
            d["E"], d["proof"] = self.E, self.proof
        if self.kind == "lock":
            d["K"] = b"".join(self.K or [])
        return d

    @classmethod
    def from_wire(cls, d: object, n: int) -> "Pass":
        if not isinstance(d, dict) or d.get("kind") not in KINDS or not isinstance(d.get("by"), int) \
                or isinstance(d.get("by"), bool):
            raise Fault("protocol", "a malformed pass")
        kind, by = d["kind"], d["by"]
        want = {"kind", "by", "deck"} | ({"E", "proof"} if kind == "mask" else set()) | \
            ({"K"} if kind == "lock" else set())
        if set(d) != want:
            raise Fault("pass", "a pass with missing or unknown fields", by)
        deck = _points(d["deck"], n, by)
        if kind == "mask":
            if not isinstance(d["E"], bytes) or len(d["E"]) != 32 or not isinstance(d["proof"], bytes) \
                    or len(d["proof"]) != 64:
                raise Fault("pass", "a mask pass without its key or proof", by)
            return cls(kind, by, deck, d["E"], d["proof"])
        if kind == "lock":
            return cls(kind, by, deck, K=_points(d["K"], n, by))
        return cls(kind, by, deck)


def _points(data: object, n: int, by: int) -> list[bytes]:
    if not isinstance(data, bytes) or len(data) != 32 * n:
        raise Fault("pass", f"a pass must hold {n} points", by)
    return [data[i:i + 32] for i in range(0, len(data), 32)]


def mask_context(ctx: bytes, index: int, author: int) -> bytes:
    return ctx + TAG_MASK_CTX + index.to_bytes(2, "big") + pid_bytes(author)


def _times(c: bytes, values: Sequence[bytes], author: int | None) -> list[bytes]:
    try:
        return each(lambda v: mul(c, v), values)
    except BadPoint:
        # libsodium refuses a point outside the group: the pass that produced it is to blame.
        raise Fault("point", "a deck holds a value that is not a point of the group", author) from None


def rekey_pass(deck: Sequence[bytes], old: dict[int, bytes], keys: PassKeys, author: int,
               blame: int | None = None) -> Pass:
    """Multiply by ``rho`` (and a sealed input ``s`` also by ``1/old[s]``, its old slot key)."""
    scal = [keys.rho if s not in old else smul(keys.rho, sinv(old[s])) for s in range(len(deck))]
    try:
        out = each(lambda cv: mul(*cv), list(zip(scal, deck)))
    except BadPoint:
        raise Fault("point", "a deck holds a value that is not a point of the group", blame) from None
    return Pass("rekey", author, out)


def masked(deck: Sequence[bytes], keys: PassKeys, blame: int | None = None) -> list[bytes]:
    """What a mask pass makes of ``deck``: every value times ``e``, permuted."""
    out = _times(keys.e, deck, blame)
    return [out[i] for i in keys.pi(len(deck))]


def mask_pass(ctx: bytes, index: int, deck: Sequence[bytes], keys: PassKeys, author: int,
              blame: int | None = None, sum_in: bytes | None = None) -> Pass:
    """Multiply every value by ``e`` and permute; with ``e*G`` and the sum proof.

    ``sum_in``, the sum of ``deck`` if the caller has it (every peer keeps the
    running sum as it checks the passes): the output's sum is then one
    multiplication, ``e * sum_in``, rather than a hundred additions.
    """
    out = masked(deck, keys, blame)
    sum_in = sum_in if sum_in is not None else total(list(deck))
    E, sum_out = base(keys.e), mul(keys.e, sum_in)
    proof = prove_dleq(mask_context(ctx, index, author), keys.e, None, E, sum_in, sum_out)
    return Pass("mask", author, out, E, proof, out_sum=sum_out)


def lock_pass(deck: Sequence[bytes], keys: PassKeys, author: int, rekeyed: bool, commitments: list[bytes] | None,
              blame: int | None = None) -> Pass:
    """Swap the epoch keys for a key per slot; ``commitments`` (``k_s*G``) may be made ahead."""
    unlock = keys.unlock(rekeyed)
    try:
        out = each(lambda sv: mul(smul(keys.k(sv[0]), unlock), sv[1]), list(enumerate(deck)))
    except BadPoint:
        raise Fault("point", "a deck holds a value that is not a point of the group", blame) from None
    K = commitments if commitments is not None else slot_commitments(keys, len(deck))
    return Pass("lock", author, out, K=K[:len(deck)])


def slot_commitments(keys: PassKeys, n: int) -> list[bytes]:
    return each(lambda s: base(keys.k(s)), range(n))


def check_mask(ctx: bytes, index: int, before: Sequence[bytes], sum_before: bytes, p: Pass) -> bytes:
    """Check a mask pass's proof (and that no value repeats); returns the sum of its output."""
    if len(set(p.deck)) != len(p.deck):
        raise Fault("pass", "a mask pass holds the same value twice (a copied card)", p.author)
    try:
        after = total(p.deck)
    except BadPoint:
        raise Fault("point", "a pass holds bytes that are not points", p.author) from None
    # ``E`` needs no separate subgroup check: the proof's check multiplies it by the challenge, and
    # libsodium refuses to multiply a point outside the group (or the identity), failing the check.
    if not check_dleq(mask_context(ctx, index, p.author), None, p.E, sum_before, after, p.proof):
        raise Fault("pass", f"mask pass {index} does not keep the deck's cards (its sum proof fails)", p.author)
    return after


def check_points(values: Sequence[bytes], author: int) -> None:
    for slot, v in enumerate(values):
        if not is_point(v):
            raise Fault("point", f"slot {slot} of a pass is not a point of the group", author)


def open_value(value: bytes, keys: Sequence[bytes], blame: int | None = None) -> bytes:
    """``(prod keys)^-1 * value``: the card, once every participant's slot key is in.

    A final value outside the group (libsodium refuses to multiply it) is
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
        return mul(pow(prod, -1, L).to_bytes(32, "little"), value)
    except BadPoint:
        raise Fault("point", "a final value is not a point of the group", blame) from None
