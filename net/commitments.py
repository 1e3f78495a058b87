"""The fair deal's primitives: signing tags, msgpack, and every hash and commitment both sides compute.

The host's dealer (:mod:`net.dealer`), its secrets and log (:mod:`net.tablelog`)
and every peer's checks (:mod:`net.ledger`) build on these; the protocol they
serve is told in :mod:`net.fair`.
"""

from __future__ import annotations

import hashlib
from typing import Any, Sequence

import msgpack

from .errors import NetError
from .identity import H, Identity

TAG_LOG = b"uno-tui/log/v2\0"
TAG_PEER = b"uno-tui/peer/v2\0"
TAG_DELIVER = b"uno-tui/deliver/v2\0"
TAG_RULING = b"uno-tui/ruling/v2\0"
HOST_PID = -1
"""The host's participant id in the seed exchange (people use their seat numbers)."""
ZERO = bytes(32)
MAX_REDRAWS = 1
"""Times in one match a client lets the host go back past a revealed shuffle: a crash may do it once."""


class Unfair(NetError):
    """A check failed: ``code`` names the kind of cheating or damage, ``reason`` says it in words."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(code, reason, message=f"{code}: {reason}")


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def entry_hash(e: bytes) -> bytes:
    return hashlib.sha256(b"uno-tui/entry/v2\0" + e).digest()


def slot_hash(game: bytes, e: int, a: int, slot: int, salt: bytes, card_id: int, notation: str) -> bytes:
    return H(b"uno-tui/slot/v2", game, e.to_bytes(4, "big"), a.to_bytes(4, "big"), slot.to_bytes(4, "big"),
             salt, card_id.to_bytes(4, "big"), notation.encode())


def item_hash(game: bytes, e: int, a: int, slot: int, item: str) -> bytes:
    """The commitment to slot ``slot`` of a public epoch: its item in the canonical order."""
    return H(b"uno-tui/item/v2", game, e.to_bytes(4, "big"), a.to_bytes(4, "big"), slot.to_bytes(4, "big"),
             item.encode())


def public_commits(game: bytes, e: int, a: int, items: Sequence[str]) -> bytes:
    return b"".join(item_hash(game, e, a, s, x) for s, x in enumerate(items))


def public_items(items: Sequence[Any]) -> list[str] | None:
    """The canonical list of a shuffle of public tokens (strings), or None for a shuffle of cards.

    A source is given either cards or strings (see :mod:`core.source`); a mix is a bug in the engine.
    """
    if not items or not isinstance(items[0], str):
        if any(isinstance(x, str) for x in items):
            raise TypeError("a shuffle of cards and public tokens mixed")
        return None
    if not all(isinstance(x, str) for x in items):
        raise TypeError("a shuffle of public tokens and something else mixed")
    return sorted(items)


def canonical(items: Sequence[Any]) -> list[Any]:
    """What an epoch commits to, comparable across hosts and replays: sorted card ids or sorted tokens."""
    public = public_items(items)
    return public if public is not None else sorted(c.id for c in items)


def deck_root(game: bytes, e: int, a: int, n: int, commits: bytes) -> bytes:
    return H(b"uno-tui/root/v2", game, e.to_bytes(4, "big"), a.to_bytes(4, "big"), n.to_bytes(4, "big"), commits)


def seed_commitment(root: bytes, public: bytes, r: bytes) -> bytes:
    return H(b"uno-tui/seed/v2", root, public, r)


def set_hash(root: bytes, items: Sequence[Sequence[Any]]) -> bytes:
    return H(b"uno-tui/set/v2", root, *[pack(list(x)) for x in items])


def combined_key(root: bytes, reveals: dict[int, bytes]) -> bytes:
    parts = [pid.to_bytes(4, "big", signed=True) + r for pid, r in sorted(reveals.items())]
    return H(b"uno-tui/combine/v2", root, *parts)


def engine_order(sigma: Sequence[int], pi: Sequence[int]) -> list[int]:
    """The engine's list for an epoch: it pops from the end, so draw ``k`` sits at ``n - 1 - k``."""
    n = len(sigma)
    return [sigma[pi[n - 1 - j]] for j in range(n)]


def inverse(pi: Sequence[int]) -> list[int]:
    inv = [0] * len(pi)
    for k, s in enumerate(pi):
        inv[s] = k
    return inv


def peer_message(identity: Identity, kind: str, game: bytes, seat: int | None, n: int, head: bytes,
                 **fields: Any) -> tuple[bytes, bytes]:
    m = pack({"k": kind, "g": game, "seat": seat, "n": n, "h": head, **fields})
    return m, identity.sign(TAG_PEER, m)
