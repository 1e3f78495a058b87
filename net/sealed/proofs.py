"""Zero-knowledge proofs of the sealed deal: Schnorr's proof of a key, Chaum-Pedersen's of equal logs.

Both are made non-interactive with Fiat-Shamir: the challenge is a hash of
a context (the game, round and epoch, and the purpose), the statement and
the prover's commitments, so a proof made for one slot, epoch or game is
worth nothing in another. A proof is 64 bytes: the challenge ``c`` and the
response ``s``. Nonces are *hedged*: hashed from the secret, the statement
and fresh randomness, so neither a weak random source nor a repeated
statement can leak the secret.

* :func:`prove_key` / :func:`check_key`: "I know ``x`` with ``X = x*G``". A
  participant's round key comes with one, so nobody can announce a key
  chosen to cancel the others' (the rogue-key attack on a joint key).
* :func:`prove_dleq` / :func:`check_dleq`: "``X = x*G1`` and ``Y = x*G2`` for
  one ``x``". A decryption share ``D = x_j*A`` proves it against the
  participant's key ``X_j = x_j*G``; a shuffle pass proves that the sums of its
  output minus its input are an encryption of nothing.
"""

from __future__ import annotations

import secrets

from .group import BadPoint, BadScalar, base, check_scalar, hash_scalar, mul, sadd, smul, sub

TAG_KEY = b"uno-tui/sealed/key/v1"
TAG_DLEQ = b"uno-tui/sealed/dleq/v1"
TAG_NONCE = b"uno-tui/sealed/nonce/v1"


def _nonce(x: bytes, *statement: bytes) -> bytes:
    return hash_scalar(TAG_NONCE, x, secrets.token_bytes(32), *statement)


def _proof(c: bytes, w: bytes, x: bytes) -> bytes:
    """The 64-byte proof: the challenge and the response ``w + c*x``."""
    return c + sadd(w, smul(c, x))


def prove_key(ctx: bytes, x: bytes, X: bytes) -> bytes:
    """A proof of knowledge of ``x`` with ``X = x*G``, bound to ``ctx``."""
    w = _nonce(x, ctx, X)
    T = base(w)
    return _proof(hash_scalar(TAG_KEY, ctx, X, T), w, x)


def check_key(ctx: bytes, X: bytes, proof: object) -> bool:
    """Whether ``proof`` shows knowledge of the logarithm of ``X`` (a checked point) in ``ctx``."""
    if not isinstance(proof, bytes) or len(proof) != 64:
        return False
    c, s = proof[:32], proof[32:]
    try:
        check_scalar(c, zero=True)
        check_scalar(s)
        T = sub(base(s), mul(c, X))
    except (BadPoint, BadScalar):
        return False
    return hash_scalar(TAG_KEY, ctx, X, T) == c


def prove_dleq(ctx: bytes, x: bytes, G1: bytes | None, X: bytes, G2: bytes, Y: bytes) -> bytes:
    """A proof that ``X = x*G1`` and ``Y = x*G2`` (``G1`` None: the base point), bound to ``ctx``."""
    w = _nonce(x, ctx, X, G2, Y)
    T1 = base(w) if G1 is None else mul(w, G1)
    T2 = mul(w, G2)
    return _proof(hash_scalar(TAG_DLEQ, ctx, G1 or b"", X, G2, Y, T1, T2), w, x)


def check_dleq(ctx: bytes, G1: bytes | None, X: bytes, G2: bytes, Y: bytes, proof: object) -> bool:
    """Whether ``proof`` shows ``log_G1 X == log_G2 Y`` in ``ctx``.

    Any point that is not in the prime-order group makes the check fail
    (libsodium refuses to multiply it), so ``X``, ``G2`` and ``Y`` need no
    separate validation here.
    """
    if not isinstance(proof, bytes) or len(proof) != 64:
        return False
    c, s = proof[:32], proof[32:]
    try:
        check_scalar(c, zero=True)
        check_scalar(s)
        T1 = sub(base(s) if G1 is None else mul(s, G1), mul(c, X))
        T2 = sub(mul(s, G2), mul(c, Y))
    except (BadPoint, BadScalar):
        return False
    return hash_scalar(TAG_DLEQ, ctx, G1 or b"", X, G2, Y, T1, T2) == c
