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
from typing import Any, NamedTuple, Protocol, Sequence, TypeVar

T = TypeVar("T")


class Chance(NamedTuple):
    """A chance node: the engine needs epoch ``epoch``'s order of ``items`` before it can go on.

    :meth:`core.Game.chance_for` (and its siblings) tell a caller this *before* a move, so the
    caller can settle the order (a network host: the fair deal's round trips) and hand it over
    with :meth:`core.Game.settle`; the move then uses exactly that order and never has to be
    rolled back (OpenSpiel's chance nodes, resolved by the caller).
    """

    epoch: int
    """The number of this request within the game (the deck source's ``epoch``)."""
    items: tuple[Any, ...]
    """What is to be shuffled, in canonical order: cards by id, or public token names in their
    fixed order (see the module's notes)."""


class ChanceStop(Exception):
    """Raised inside a probe of the engine at the first chance node nobody has settled."""

    def __init__(self, chance: Chance) -> None:
        super().__init__(f"epoch {chance.epoch} is not settled")
        self.chance = chance


class StopAtChance:
    """The deck source of a probe: it answers nothing, it reports what was asked."""

    def shuffle(self, items: Sequence[T], epoch: int) -> list[T]:
        raise ChanceStop(Chance(epoch, tuple(items)))


def check_order(chance: Chance, order: Sequence[Any]) -> list[Any]:
    """``order`` as a list, if it is ``chance.items`` permuted; a ``ValueError`` otherwise."""
    order = list(order)
    key = (lambda x: (0, x.id) if hasattr(x, "id") else (1, str(x)))
    if len(order) != len(chance.items) or sorted(order, key=key) != sorted(chance.items, key=key):
        raise ValueError(f"the order for epoch {chance.epoch} is not a permutation of its items")
    return order


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
