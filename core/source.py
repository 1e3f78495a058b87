"""Deck sources: the one place chance enters a game.

The engine never shuffles by itself. Whenever it needs a fresh order (the
deal, a reshuffle of the discards) it asks its :class:`DeckSource` for one,
numbering these requests as *epochs*. A local game uses
:class:`SeededSource`, a pure function of the seed, so the same seed replays
the same game; the network host plugs in a source fed by the commit-reveal
protocol instead.

What ``shuffle`` may be given, so any source (the fair deal included) can
serve it: either **cards** of the game's deck (``Card`` objects, told apart
by ``id``), or **public tokens**: plain strings naming things every player
can see and count (Diez's token bag), never a mix. The engine passes them in
a canonical order (cards by id, tokens in their fixed order) and takes what
it needs from the returned list. The network host deals cards from secret,
committed slots and permutes public tokens openly (sorted, with the same
joint seeds), so anything that is neither must not go through a source.
"""

from __future__ import annotations

import hashlib
from typing import Protocol, Sequence, TypeVar

T = TypeVar("T")


class DeckSource(Protocol):
    def shuffle(self, items: Sequence[T], epoch: int) -> list[T]:
        """Return ``items`` in a new order; ``epoch`` counts the requests of a game.

        ``items`` are all cards or all public tokens (strings); see the module's notes.
        """
        ...


def permutation(key: bytes, n: int) -> list[int]:
    """An unbiased permutation of ``range(n)`` drawn from SHAKE-256 of ``key``.

    Fisher-Yates with rejection sampling: each index is read from 4 bytes of
    the stream and values that would bias the modulo are discarded. Anyone
    holding the key recomputes the same order (the fair deal relies on this).
    """
    out = list(range(n))
    if n < 2:
        return out
    stream = hashlib.shake_256(key)
    # A generous first helping; more is read if rejections eat it up.
    size = 8 * n + 64
    buf = stream.digest(size)
    pos = 0
    for i in range(n - 1, 0, -1):
        bound = i + 1
        limit = (1 << 32) - ((1 << 32) % bound)
        while True:
            if pos + 4 > len(buf):
                size *= 2
                buf = stream.digest(size)
            r = int.from_bytes(buf[pos : pos + 4], "big")
            pos += 4
            if r < limit:
                break
        j = r % bound
        out[i], out[j] = out[j], out[i]
    return out


class SeededSource:
    """A deterministic deck source: epoch ``k`` of seed ``s`` is always the same order."""

    def __init__(self, seed: bytes) -> None:
        self.seed = seed

    def shuffle(self, items: Sequence[T], epoch: int) -> list[T]:
        key = b"uno-tui/deck/v1|" + self.seed + b"|" + epoch.to_bytes(8, "big")
        return [items[i] for i in permutation(key, len(items))]


def seed_bytes(seed: int | bytes | str | None) -> bytes:
    """Normalise a user's seed. ``None`` takes fresh entropy, which the game records."""
    if seed is None:
        import secrets  # entropy only when no seed is given; it is stored in the state

        return secrets.token_bytes(16)
    if isinstance(seed, bool):
        raise ValueError("seed must be an int, bytes or str, not a bool")
    if isinstance(seed, int):
        return b"int:" + str(seed).encode()
    if isinstance(seed, bytes):
        return seed
    if isinstance(seed, str):
        return b"str:" + seed.encode()
    raise ValueError(f"seed must be an int, bytes or str, not {type(seed).__name__}")
