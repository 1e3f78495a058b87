"""ElGamal under a joint key, Barnett-Smart style: the ciphertexts, shuffle passes and decryption shares.

A participant ``j`` holds a round secret ``x_j`` and announces ``X_j = x_j*G``;
the table's joint key is ``Y = sum X_j``, whose secret ``x = sum x_j`` nobody
holds. A card ``M`` (a point, see :mod:`net.sealed.codec`) is encrypted as
``(A, B) = (r*G, M + r*Y)``; the *open* encryption ``(O, M)`` (``r = 0``) is how
an epoch's known cards enter it.

* **A pass** (:func:`shuffle`) re-randomises every ciphertext (adds ``r_k*G``
  and ``r_k*Y``, made ahead of time: :func:`make_pads`) and permutes them.
  Its permutation and re-randomisers derive from a *pass secret*, itself
  derived from the participant's round seed, so opening the seed at the end
  of the round lets the audit make the pass again and compare
  (:func:`rerandomized`). It comes with a Chaum-Pedersen proof
  that the sum of its output minus the sum of its input is an encryption of
  nothing: the deck's *sum of cards* is kept, so a pass that substitutes,
  duplicates or drops a card is caught the moment its proof is checked,
  unless it also leaves a slot that opens to no card (which the first
  opening of that slot, or the round's audit, catches). This is not a full
  shuffle proof; the round's audit (:mod:`net.sealed.audit`) is.
* **A share** (:func:`make_share`) for opening a slot is ``D_j = x_j*A`` with a
  proof that ``log_G X_j == log_A D_j``: a wrong share is caught by whoever
  receives it, at once, and names its author. With every share, ``B - sum D_j``
  is the card.

Each point another participant sent must be checked with
:func:`net.sealed.group.check` before it is trusted (libsodium's addition
accepts points with a torsion component: see :mod:`net.sealed.group`);
:meth:`Deck.check_points` does a whole deck.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from core.source import permutation

from ..codec import CardCodec
from ..faults import Fault
from ..group import IDENTITY, BadPoint, add, base, hash_scalar, is_point, mul, pid_bytes, sadd, sub, total
from ..proofs import check_dleq, prove_dleq

TAG_PASS_PI = b"uno-tui/sealed/pass-pi/v1"
TAG_PASS_R = b"uno-tui/sealed/pass-r/v1"
TAG_PASS_CTX = b"uno-tui/sealed/pass/v1"
TAG_SHARE_CTX = b"uno-tui/sealed/share/v1"

Ciphertext = tuple[bytes, bytes]


class Deck:
    """An epoch's ciphertexts, slot by slot. On the wire: ``A || B`` for each slot, one ``bytes``."""

    __slots__ = ("cts",)

    def __init__(self, cts: Sequence[Ciphertext]) -> None:
        self.cts: list[Ciphertext] = list(cts)

    @classmethod
    def open(cls, codec: CardCodec, ids: Sequence[int] | None = None) -> "Deck":
        """The open encryptions ``(O, M_i)`` of ``ids`` (the codec's cards by default), in that order."""
        return cls([(IDENTITY, codec.encode(i)) for i in (codec.ids if ids is None else ids)])

    def __len__(self) -> int:
        return len(self.cts)

    def __getitem__(self, slot: int) -> Ciphertext:
        return self.cts[slot]

    def __iter__(self) -> Iterator[Ciphertext]:
        return iter(self.cts)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Deck) and self.cts == other.cts

    def to_bytes(self) -> bytes:
        return b"".join(a + b for a, b in self.cts)

    @classmethod
    def from_bytes(cls, data: object, n: int | None = None) -> "Deck":
        """Split wire bytes into ciphertexts (shape only: :meth:`check_points` validates them)."""
        if not isinstance(data, bytes) or len(data) % 64 or (n is not None and len(data) != 64 * n):
            raise Fault("protocol", f"a deck must be {'' if n is None else n} 64-byte ciphertexts")
        return cls([(data[i:i + 32], data[i + 32:i + 64]) for i in range(0, len(data), 64)])

    def sums(self) -> Ciphertext:
        """The sum of the first halves and of the second halves."""
        return total([a for a, _ in self.cts]), total([b for _, b in self.cts])

    def check_points(self, culprit: int | None = None) -> None:
        """Every point is in the prime-order group (no identity, no torsion mark): else ``point``."""
        for slot, (a, b) in enumerate(self.cts):
            if not (is_point(a) and is_point(b)):
                raise Fault("point", f"slot {slot} of the deck is not a pair of points of the group", culprit)


def pass_context(ctx: bytes, index: int, author: int) -> bytes:
    return ctx + TAG_PASS_CTX + index.to_bytes(2, "big") + pid_bytes(author)


def share_context(ctx: bytes, slot: int) -> bytes:
    return ctx + TAG_SHARE_CTX + slot.to_bytes(4, "big")


@dataclass(frozen=True)
class Pass:
    """One participant's shuffle of an epoch's deck, as published."""

    author: int
    """The participant who made it."""
    deck: Deck
    """Its output."""
    proof: bytes
    """The Chaum-Pedersen proof that the output's sum re-encrypts the input's (64 bytes)."""

    def to_wire(self) -> dict[str, Any]:
        return {"by": self.author, "deck": self.deck.to_bytes(), "proof": self.proof}

    @classmethod
    def from_wire(cls, d: object, n: int) -> "Pass":
        if not isinstance(d, dict) or set(d) != {"by", "deck", "proof"} or not isinstance(d["by"], int) \
                or isinstance(d["by"], bool) or not isinstance(d["proof"], bytes) or len(d["proof"]) != 64:
            raise Fault("protocol", "a malformed shuffle pass")
        try:
            deck = Deck.from_bytes(d["deck"], n)
        except Fault as f:
            raise Fault("pass", f.reason, d["by"]) from None
        return cls(d["by"], deck, d["proof"])


Pad = tuple[bytes, bytes]
"""A re-randomiser made ahead of time: ``(r*G, r*Y)``."""


def pass_scalar(pass_seed: bytes, k: int) -> bytes:
    """The re-randomiser ``r_k`` of slot ``k`` of the pass whose secret is ``pass_seed``."""
    return hash_scalar(TAG_PASS_R, pass_seed, k.to_bytes(4, "big"))


def pass_permutation(pass_seed: bytes, n: int) -> list[int]:
    """The pass's permutation: output slot ``k`` takes input slot ``pi[k]``."""
    return permutation(hash_scalar(TAG_PASS_PI, pass_seed), n)


def make_pads(Y: bytes, pass_seed: bytes, start: int, count: int) -> list[Pad]:
    """The re-randomisers of slots ``start`` to ``start + count - 1`` of a pass, under joint key ``Y``.

    They are the whole cost of a pass but for two additions per card, and
    they depend only on the joint key and the pass's secret: a participant
    makes them as soon as the round's keys are known (in the pause before
    the round, or while the others shuffle), so that its pass, on the
    table's critical path, is quick.
    """
    out = []
    for k in range(start, start + count):
        r = pass_scalar(pass_seed, k)
        out.append((base(r), mul(r, Y)))
    return out


def rerandomized(Y: bytes, deck: Deck, pass_seed: bytes, pads: list[Pad] | None = None) -> Deck:
    """What the pass with secret ``pass_seed`` makes of ``deck``: permuted, every card re-randomised.

    Deterministic: the audit calls it again with the opened secret and
    compares, which is what catches a pass that was anything else.
    """
    n = len(deck)
    pads = pads if pads is not None else make_pads(Y, pass_seed, 0, n)
    if len(pads) != n:
        raise ValueError(f"a pass over {n} cards needs {n} pads, not {len(pads)}")
    pi = pass_permutation(pass_seed, n)
    return Deck([(add(deck[pi[k]][0], pads[k][0]), add(deck[pi[k]][1], pads[k][1])) for k in range(n)])


def shuffle(ctx: bytes, Y: bytes, deck: Deck, index: int, author: int, pass_seed: bytes,
            pads: list[Pad] | None = None) -> Pass:
    """``author``'s pass number ``index`` over ``deck`` under joint key ``Y``, from its secret ``pass_seed``
    (its permutation and re-randomisers; ``pads`` if made ahead), with the proof over the sums."""
    out = rerandomized(Y, deck, pass_seed, pads)
    R = pass_scalar(pass_seed, 0)
    for k in range(1, len(deck)):
        R = sadd(R, pass_scalar(pass_seed, k))
    proof = prove_dleq(pass_context(ctx, index, author), R, None, base(R), Y, mul(R, Y))
    return Pass(author, out, proof)


def check_pass(ctx: bytes, Y: bytes, before: Ciphertext, p: Pass, index: int) -> Ciphertext:
    """Check pass ``index``'s proof given the sums of its input; returns the sums of its output.

    Raises ``pass`` (naming the author) when the proof fails: the output's
    cards do not sum to the input's.
    """
    try:
        after = p.deck.sums()
        dA, dB = sub(after[0], before[0]), sub(after[1], before[1])
    except BadPoint:
        raise Fault("point", f"pass {index} holds bytes that are not points", p.author) from None
    if not check_dleq(pass_context(ctx, index, p.author), None, dA, Y, dB, p.proof):
        raise Fault("pass", f"pass {index} does not keep the deck's cards (its sum proof fails)", p.author)
    return after


@dataclass(frozen=True)
class Share:
    """``author``'s decryption share of one slot: ``D = x_author * A`` with its proof."""

    slot: int
    author: int
    D: bytes
    proof: bytes

    def to_wire(self) -> list[Any]:
        return [self.slot, self.author, self.D, self.proof]

    @classmethod
    def from_wire(cls, w: object) -> "Share":
        if not (isinstance(w, (list, tuple)) and len(w) == 4 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                   for x in w[:2])
                and isinstance(w[2], bytes) and len(w[2]) == 32 and isinstance(w[3], bytes) and len(w[3]) == 64):
            raise Fault("protocol", "a malformed decryption share")
        return cls(w[0], w[1], w[2], w[3])


def make_share(ctx: bytes, x: bytes, X: bytes, slot: int, ct: Ciphertext, author: int) -> Share:
    D = mul(x, ct[0])
    return Share(slot, author, D, prove_dleq(share_context(ctx, slot), x, None, X, ct[0], D))


def check_share(ctx: bytes, X: bytes, ct: Ciphertext, share: Share) -> bool:
    return check_dleq(share_context(ctx, share.slot), None, X, ct[0], share.D, share.proof)


def decrypt(ct: Ciphertext, shares: Sequence[bytes]) -> bytes:
    """``B - sum(shares)``: the card's point once every participant's share is in."""
    out = ct[1]
    for d in shares:
        out = sub(out, d)
    return out


def decrypt_with(x: bytes, ct: Ciphertext) -> bytes:
    """``B - x*A`` with the whole secret (the audit's way; an open encryption is its own card)."""
    if ct[0] == IDENTITY:
        return ct[1]
    return sub(ct[1], mul(x, ct[0]))
