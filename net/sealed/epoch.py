"""One epoch of the sealed deal, as everybody sees it: the input, the passes, the final deck, public openings.

An *epoch* is one shuffle the engine asks for. Its input is the cards'
points for known cards (a first deal, a reshuffle of the discards) and, where
the rules put sealed cards back into a pile, those cards' final values from
their earlier epochs (``sealed`` says which: they need a re-key round, see
:mod:`net.sealed.masking`). The passes come in the table's order, kind by kind
(re-key, mask, lock); :meth:`Epoch.add_pass` checks each as it arrives. Slot
``k`` of the final deck is the ``k``-th card the epoch gives out.
"""

from __future__ import annotations

from typing import Any, Sequence

from .codec import CardCodec, NotACard
from .faults import Fault
from .keys import RoundKeys
from .group import BadScalar
from .masking import Pass, check_mask, check_points, commitment, open_value

Slot = tuple[int, int]
"""(epoch number, slot)."""
Item = list[Any]
"""A share as on the wire: ``[epoch, slot, author, k]``."""


class Epoch:
    """The public record of one epoch and the checks run on it (every peer keeps one)."""

    def __init__(self, keys: RoundKeys, number: int, deck: Sequence[bytes], order: Sequence[int],
                 codec: CardCodec, attempt: int = 0, sealed: dict[int, Slot] | None = None) -> None:
        if sorted(order) != keys.pids:
            raise ValueError("every participant of the round passes once of each kind in an epoch")
        self.keys = keys
        self.number = number
        self.attempt = attempt
        self.input: list[bytes] = list(deck)
        self.sealed: dict[int, Slot] = dict(sealed or {})
        """Input position -> the earlier (epoch, slot) of a sealed card put back into a pile."""
        self.order: list[int] = list(order)
        self.codec = codec
        """The cards a slot of this epoch may open to."""
        self.kinds: list[str] = (["rekey"] if self.sealed else []) + ["mask", "lock"]
        self.passes: list[Pass] = []
        self.checked: list[bool] = []

    @classmethod
    def of_cards(cls, keys: RoundKeys, number: int, codec: CardCodec, order: Sequence[int],
                 attempt: int = 0) -> "Epoch":
        """An epoch of known cards (the codec's, in id order): a first deal, a reshuffle of the discards."""
        return cls(keys, number, [codec.encode(i) for i in codec.ids], order, codec, attempt)

    @property
    def n(self) -> int:
        return len(self.input)

    @property
    def rekeyed(self) -> bool:
        return bool(self.sealed)

    def _due(self) -> tuple[str, int] | None:
        i = len(self.passes)
        if i >= len(self.kinds) * len(self.order):
            return None
        return self.kinds[i // len(self.order)], self.order[i % len(self.order)]

    @property
    def next_author(self) -> int | None:
        due = self._due()
        return None if due is None else due[1]

    @property
    def next_kind(self) -> str | None:
        due = self._due()
        return None if due is None else due[0]

    @property
    def current(self) -> list[bytes]:
        """The values the next pass works on (the final deck once every pass is in)."""
        return self.passes[-1].deck if self.passes else self.input

    @property
    def last_author(self) -> int | None:
        return self.passes[-1].author if self.passes else None

    @property
    def done(self) -> bool:
        return self._due() is None

    @property
    def final(self) -> list[bytes]:
        if not self.done:
            raise Fault("protocol", f"epoch {self.number} is still being shuffled")
        return self.passes[-1].deck

    def lock_of(self, author: int) -> Pass:
        """``author``'s lock pass (its slot-key commitments)."""
        i = (len(self.kinds) - 1) * len(self.order) + self.order.index(author)
        if i >= len(self.passes):
            raise Fault("protocol", f"epoch {self.number} is not locked yet")
        return self.passes[i]

    def check_slot(self, slot: object) -> int:
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < self.n:
            raise Fault("protocol", f"epoch {self.number} has no slot {slot!r}")
        return slot

    def check_share(self, slot: int, author: int, k: object) -> bool:
        """Whether ``k`` is ``author``'s key for ``slot`` (against the commitment of its lock pass)."""
        if not isinstance(k, bytes) or len(k) != 32 or author not in self.keys.X:
            return False
        try:
            return commitment(slot, k) == self.lock_of(author).K[slot]  # type: ignore[index]
        except IndexError:  # a slot out of range
            return False

    def add_pass(self, p: Pass, *, points: bool = False) -> None:
        """Take the next pass, checking its kind, author and shape and (mask passes) that no value
        repeats (a copied card). Nothing else can be checked as it arrives (no pass carries a
        proof): a substituted card is caught when its slot opens to no card, and named by the
        round's audit.

        Its values are checked to be of the curve (not its twist) only with ``points``, an
        exponentiation in Python each: a value of small order is refused by the next
        multiplication, naming the pass that made it, and a twisted one opens to no card (see
        :mod:`net.sealed.xline`).
        """
        due = self._due()
        index = len(self.passes)
        if due is None:
            raise Fault("pass", f"epoch {self.number} is already final", p.author)
        kind, author = due
        if p.author != author or p.kind != kind:
            raise Fault("pass", f"pass {index} of epoch {self.number} is participant {author}'s {kind} pass, "
                                f"not {p.author}'s {p.kind}", p.author)
        if len(p.deck) != self.n or (kind == "lock" and len(p.K or []) != self.n):
            raise Fault("pass", f"a pass of the wrong size over a deck of {self.n}", p.author)
        if points:
            check_points(p.deck, p.author)
        if kind == "mask":
            check_mask(p)
        self.passes.append(p)
        self.checked.append(points)

    def check_points(self, index: int | None = None) -> None:
        """Check the values of pass ``index`` (every unchecked one by default): else ``point``, naming it."""
        for i in (range(len(self.passes)) if index is None else [index]):
            if not self.checked[i]:
                check_points(self.passes[i].deck, self.passes[i].author)
                self.checked[i] = True

    def to_wire(self) -> dict[str, Any]:
        return {"e": self.number, "a": self.attempt, "order": self.order, "ids": list(self.codec.ids),
                "input": b"".join(self.input), "sealed": [[s, e, o] for s, (e, o) in sorted(self.sealed.items())],
                "passes": [p.to_wire() for p in self.passes]}

    @classmethod
    def from_wire(cls, keys: RoundKeys, codec: CardCodec, d: dict[str, Any]) -> "Epoch":
        """Rebuild an epoch from its record, checking every pass again."""
        try:
            data = d["input"]
            deck = [data[i:i + 32] for i in range(0, len(data), 32)]
            ep = cls(keys, d["e"], deck, d["order"], codec.restrict(d["ids"]), d["a"],
                     {s: (e, o) for s, e, o in d["sealed"]})
            passes = list(d["passes"])
        except (KeyError, TypeError, ValueError) as ex:
            raise Fault("protocol", f"a malformed epoch record: {ex!r}") from None
        for w in passes:
            ep.add_pass(Pass.from_wire(w, ep.n))
        return ep


def share_item(epoch: int, slot: int, author: int, k: bytes) -> Item:
    return [epoch, slot, author, k]


def open_public(epoch: Epoch, slot: int, items: Sequence[Item]) -> int:
    """Check a public opening of ``slot`` (every participant's slot key) and return its card.

    Raises ``share`` naming the author of a key that does not match its
    commitment, and ``card`` when every key is good but the slot opens to no
    card of the epoch (a pass was bad: the audit names it).

    The keys are first tried together: if they open the slot to a card of the
    epoch, that is the card (other keys with the same product open it to the
    same card, and to open it to another one a sender would need the discrete
    logarithm between two cards' points, which nobody knows). Only when they
    do not is each checked against its commitment, to name whose is bad: a
    card shown costs one multiplication instead of one for every participant.
    """
    slot = epoch.check_slot(slot)
    by: dict[int, bytes] = {}
    for it in items:
        if not isinstance(it, (list, tuple)) or len(it) != 4:
            raise Fault("protocol", f"a malformed share in a public opening of slot {slot}")
        e, s, author, k = it
        if e != epoch.number or s != slot or author not in epoch.keys.X or author in by:
            raise Fault("protocol", f"a public opening of slot {slot} with a stray or repeated share", author)
        if not isinstance(k, bytes) or len(k) != 32:
            raise Fault("share", f"a key for slot {slot} of epoch {epoch.number} is not a scalar", author)
        by[author] = k
    missing = [p for p in epoch.keys.pids if p not in by]
    if missing:
        raise Fault("protocol", f"a public opening of slot {slot} lacks the keys of {missing}")
    keys = [by[p] for p in epoch.keys.pids]
    try:
        return epoch.codec.decode(open_value(epoch.final[slot], keys, epoch.last_author))
    except (NotACard, BadScalar, Fault):
        pass  # a bad key, or a bad pass: which one is said below
    for author, k in by.items():
        if not epoch.check_share(slot, author, k):
            raise Fault("share", f"a key for slot {slot} of epoch {epoch.number} does not match its commitment",
                        author)
    try:
        return epoch.codec.decode(open_value(epoch.final[slot], keys, epoch.last_author))
    except NotACard as ex:
        raise Fault("card", f"slot {slot} of epoch {epoch.number}: {ex}") from None
