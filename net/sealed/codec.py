"""Cards as values of the group: each card of a deck is a point, and a value that is no card is caught.

Card ``i`` of a deck (its id in ``core``'s deck, ``0 <= i < n``) is
``hash_to_point(TAG, deck_tag, i)``: points nobody knows the logarithm of,
to the base or to each other. That matters: were cards ``i*G``, a party
could test which masked card is which by comparing multiples. Each id gets
its own point (not each face) so a copy of a card cannot pass for its twin.
The masking scheme holds a card as its point's u-coordinate (:mod:`net.sealed.xline`; no card's
point is another's negative, so the u-coordinate names one card); the ElGamal alternative, which
adds points, as the Ed25519 encoding (``edwards=True``).

A :class:`CardCodec` holds one deck's table; :meth:`CardCodec.restrict`
gives the codec of one epoch (a reshuffle holds only the discards), and
decoding a point that is not one of its cards raises :class:`NotACard`.
"""

from __future__ import annotations

import threading
from functools import lru_cache
from typing import Iterable, Sequence

from .group import hash_to_point
from .xline import us_of

TAG_CARD = b"uno-tui/sealed/card/v1"


class NotACard(ValueError):
    """A point that is not a card of the epoch's deck."""


@lru_cache(maxsize=8)
def _made(deck_tag: bytes, n: int, edwards: bool) -> tuple[bytes, ...]:
    points = [hash_to_point(TAG_CARD, deck_tag, i.to_bytes(4, "big")) for i in range(n)]
    return tuple(points if edwards else us_of(points))


_making = threading.Lock()


def _table(deck_tag: bytes, n: int, edwards: bool) -> tuple[bytes, ...]:
    """A deck's table, made once per process: peers in one process (a test's table) ask for it from
    several threads at once (:mod:`net.sealing` makes it in a thread while the keys are announced)."""
    with _making:
        return _made(deck_tag, n, edwards)


_asked: set[tuple[bytes, int, bool]] = set()


def make_ahead(n: int, deck_tag: bytes = b"", *, edwards: bool = False) -> threading.Thread | None:
    """Make a deck's table now, in a thread of its own (once a process; the thread, or None if it
    was asked for before): a table waiting for its players makes its deck's meanwhile (a few
    milliseconds a process, which every peer's first deal would otherwise spend at once, on the
    same cores). :class:`CardCodec` then finds it made, or waits for it."""
    key = (deck_tag, n, edwards)
    if key in _asked:
        return None
    _asked.add(key)
    t = threading.Thread(target=_table, args=key, name="sealed-deck", daemon=True)
    t.start()
    return t


@lru_cache(maxsize=8)
def _index(deck_tag: bytes, n: int, edwards: bool) -> dict[bytes, int]:
    return {p: i for i, p in enumerate(_table(deck_tag, n, edwards))}


class CardCodec:
    """The points of a deck's cards, by id, and the way back.

    ``deck_tag`` separates decks (the variant's name and options, say) so a
    table built for one deck never decodes another's points; ``ids`` are the
    cards this codec accepts (all ``range(n)`` by default); ``edwards``, the cards as Ed25519
    encodings rather than u-coordinates.
    """

    def __init__(self, n: int, deck_tag: bytes = b"", ids: Iterable[int] | None = None, *,
                 edwards: bool = False) -> None:
        if n < 1:
            raise ValueError("a deck has at least one card")
        self.n = n
        self.deck_tag = deck_tag
        self.edwards = edwards
        self.points: tuple[bytes, ...] = _table(deck_tag, n, edwards)
        """The value of card ``i`` at index ``i``, for every card of the deck."""
        self.ids: tuple[int, ...] = tuple(sorted(set(range(n) if ids is None else ids)))
        """The cards this codec accepts, in increasing order."""
        if self.ids and not 0 <= self.ids[0] <= self.ids[-1] < n:
            raise ValueError(f"card ids must be in range({n})")
        self._by_point = {self.points[i]: i for i in self.ids}
        self._accepted = frozenset(self.ids)
        self._any = _index(deck_tag, n, edwards)

    def restrict(self, ids: Iterable[int]) -> "CardCodec":
        """The codec of the same deck accepting only ``ids``."""
        return CardCodec(self.n, self.deck_tag, ids, edwards=self.edwards)

    def encode(self, card_id: int) -> bytes:
        if card_id not in self._accepted:
            raise NotACard(f"card id {card_id} is not in this deck")
        return self.points[card_id]

    def decode(self, point: bytes) -> int:
        """The id of the card ``point`` encodes; :class:`NotACard` if it encodes none of this codec's."""
        cid = self._by_point.get(point)
        if cid is None:
            other = self._any.get(point)
            if other is not None:
                raise NotACard(f"card id {other} is not one of the cards of this epoch")
            raise NotACard("the point is no card of the deck")
        return cid

    def is_all(self, values: Sequence[bytes]) -> bool:
        """Whether ``values`` are exactly this codec's cards' points, each once, in any order."""
        return len(values) == len(self.ids) and set(values) == self._by_point.keys()

    def any_card(self, point: bytes) -> int | None:
        """The id of the deck's card ``point`` encodes, whether or not this codec accepts it; else None."""
        return self._any.get(point)

    def __contains__(self, point: object) -> bool:
        return point in self._by_point

    def __len__(self) -> int:
        return len(self.ids)
