"""The scheme not chosen, kept to measure it: SRA-style commutative masking with per-slot locking keys.

Each participant ``j`` masks every card with one secret scalar ``e_j`` and
permutes (:func:`mask_pass`; the masks commute, so after everyone slot ``s``
holds ``(prod e_j) * M``), then, once the order is final, replaces its
``e_j`` by a key of each slot's own, ``k_js`` (:func:`lock_pass`: each slot
is multiplied by ``k_js / e_j``), publishing ``K_js = k_js*G``. Slot ``s`` then
holds ``(prod_j k_js) * M``, and ``j``'s share for opening it is the scalar
``k_js`` itself, checked against ``K_js`` (:func:`open_slot`): the shares
are independent, so they can be given in parallel.

Why :mod:`net.sealed.elgamal` was chosen instead (figures in
``docs/sealed-design.md``): every SRA pass is a scalar multiplication per
card, and libsodium checks the subgroup on each (its only point
operation here), so a pass costs two checked multiplications per card and an
epoch ``2N`` sequential hops against ElGamal's one (``N`` hops); a masking pass can
carry a sum proof, but a locking pass, with a key per slot, cannot, so a
substitution there waits for the audit; and a participant keeps a secret
per epoch rather than one per round. Its one advantage, a cheaper
opening (a share is checked with one base-point multiplication), does not
outweigh those.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from core.source import permutation

from .codec import CardCodec, NotACard
from .faults import Fault
from .group import base, hash_scalar, mul, sinv, smul, total
from .proofs import check_dleq, prove_dleq

TAG_E = b"uno-tui/sealed/sra-e/v1"
TAG_K = b"uno-tui/sealed/sra-k/v1"
TAG_PI = b"uno-tui/sealed/sra-pi/v1"
TAG_SUM = b"uno-tui/sealed/sra-sum/v1"


@dataclass(frozen=True)
class MaskPass:
    author: int
    deck: list[bytes]
    E: bytes
    """``e*G``: the sum proof shows the output's sum is ``e`` times the input's."""
    proof: bytes


@dataclass(frozen=True)
class LockPass:
    author: int
    deck: list[bytes]
    K: list[bytes]
    """``k_s*G`` for each slot: what each share is checked against."""


class SraSecret:
    """A participant's secrets for one SRA epoch, all derived from one seed."""

    def __init__(self, seed: bytes | None = None) -> None:
        self.seed = seed if seed is not None else secrets.token_bytes(32)
        self.e = hash_scalar(TAG_E, self.seed)

    def k(self, slot: int) -> bytes:
        return hash_scalar(TAG_K, self.seed, slot.to_bytes(4, "big"))


def mask_pass(ctx: bytes, deck: list[bytes], sec: SraSecret, author: int) -> MaskPass:
    """Mask every card with ``e`` and permute. A point outside the group stops it (libsodium checks)."""
    pi = permutation(hash_scalar(TAG_PI, sec.seed), len(deck))
    try:
        out = [mul(sec.e, deck[pi[k]]) for k in range(len(deck))]
    except ValueError:
        raise Fault("point", "the deck holds a point outside the group") from None
    E = base(sec.e)
    proof = prove_dleq(ctx + TAG_SUM, sec.e, None, E, total(deck), total(out))
    return MaskPass(author, out, E, proof)


def check_mask(ctx: bytes, before: list[bytes], p: MaskPass) -> None:
    if len(p.deck) != len(before) or not check_dleq(ctx + TAG_SUM, None, p.E, total(before), total(p.deck), p.proof):
        raise Fault("pass", "a masking pass that does not keep the deck's cards", p.author)


def lock_pass(deck: list[bytes], sec: SraSecret, author: int) -> LockPass:
    """Swap ``e`` for a key per slot; publish each slot key's commitment."""
    e_inv = sinv(sec.e)
    ks = [sec.k(s) for s in range(len(deck))]
    try:
        out = [mul(smul(k, e_inv), x) for k, x in zip(ks, deck)]
    except ValueError:
        raise Fault("point", "the deck holds a point outside the group") from None
    return LockPass(author, out, [base(k) for k in ks])


def open_slot(codec: CardCodec, x: bytes, shares: dict[int, bytes], commitments: dict[int, bytes]) -> int:
    """Open final value ``x`` with every participant's slot key (each checked against its commitment)."""
    prod = None
    for pid, k in shares.items():
        if base(k) != commitments[pid]:
            raise Fault("share", "a slot key that does not match its commitment", pid)
        prod = k if prod is None else smul(prod, k)
    assert prod is not None
    try:
        return codec.decode(mul(sinv(prod), x))
    except NotACard as ex:
        raise Fault("card", str(ex)) from None
