"""One epoch of the sealed deal, as everybody sees it: the input deck, the passes, and public openings.

An *epoch* is one shuffle the engine asks for. Its input is a deck of
ciphertexts: the open encryptions of known cards (a first deal, a reshuffle
of the discards) and, where the rules put sealed cards back into a pile,
those cards' ciphertexts from earlier epochs. Every participant, in the
order the table fixes, publishes a :class:`~net.sealed.elgamal.Pass`;
:meth:`Epoch.add_pass` checks each as it arrives (its author, its shape, its
points, its sum proof). The last pass's output is the epoch's *final deck*:
slot ``k`` of it is the ``k``-th card the epoch gives out.

:func:`open_public` checks a public opening: one proven share from every
participant for a slot, which everyone verifies and decodes.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..codec import CardCodec, NotACard
from .scheme import Ciphertext, Deck, Pass, Share, check_pass, check_share, decrypt
from ..faults import Fault
from ..keys import RoundKeys, epoch_context


class Epoch:
    """The public record of one epoch and the checks run on it (every peer keeps one)."""

    def __init__(self, keys: RoundKeys, number: int, deck: Deck, order: Sequence[int], codec: CardCodec,
                 attempt: int = 0) -> None:
        if sorted(order) != keys.pids:
            raise ValueError("every participant of the round passes once in an epoch")
        self.keys = keys
        self.number = number
        self.attempt = attempt
        self.ctx = epoch_context(keys.rctx, number, attempt)
        self.input = deck
        self.order: list[int] = list(order)
        """Who passes, in turn."""
        self.codec = codec
        """The cards a slot of this epoch may open to."""
        self.passes: list[Pass] = []
        self.checked: list[bool] = []
        """Whether each pass's points have been checked (see :meth:`check_points`)."""
        self._sums = deck.sums()

    @property
    def n(self) -> int:
        return len(self.input)

    @property
    def next_author(self) -> int | None:
        """Whose pass is due, or None when the deck is final."""
        return self.order[len(self.passes)] if len(self.passes) < len(self.order) else None

    @property
    def current(self) -> Deck:
        """The deck the next pass works on (the final deck once every pass is in)."""
        return self.passes[-1].deck if self.passes else self.input

    @property
    def done(self) -> bool:
        return len(self.passes) == len(self.order)

    @property
    def final(self) -> Deck:
        if not self.done:
            raise Fault("protocol", f"epoch {self.number} is still being shuffled")
        return self.passes[-1].deck

    def ct(self, slot: int) -> Ciphertext:
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < self.n:
            raise Fault("protocol", f"epoch {self.number} has no slot {slot!r}")
        return self.final[slot]

    def add_pass(self, p: Pass, *, points: bool = True) -> None:
        """Take the next pass, checking its author, shape and sum proof (and its points unless ``points``
        is False: then :meth:`check_points` must run before any slot of the epoch is trusted)."""
        index = len(self.passes)
        expected = self.next_author
        if expected is None:
            raise Fault("pass", f"epoch {self.number} is already final", p.author)
        if p.author != expected:
            raise Fault("pass", f"pass {index} of epoch {self.number} is participant {expected}'s", p.author)
        if len(p.deck) != self.n:
            raise Fault("pass", f"a pass of {len(p.deck)} ciphertexts over a deck of {self.n}", p.author)
        if points:
            p.deck.check_points(p.author)
        self._sums = check_pass(self.ctx, self.keys.joint, self._sums, p, index)
        self.passes.append(p)
        self.checked.append(points)

    def check_points(self, index: int | None = None) -> None:
        """Check the points of pass ``index`` (every unchecked one by default).

        A participant may publish its own pass before it has checked its
        input (the next participant starts sooner); it must check it before
        it acknowledges the epoch. A torsion mark found then aborts the
        epoch, so what the mark let a cheater follow is thrown away with it.
        """
        todo = range(len(self.passes)) if index is None else [index]
        for i in todo:
            if not self.checked[i]:
                self.passes[i].deck.check_points(self.passes[i].author)
                self.checked[i] = True

    def to_wire(self) -> dict[str, Any]:
        return {"e": self.number, "a": self.attempt, "order": self.order, "ids": list(self.codec.ids),
                "input": self.input.to_bytes(), "passes": [p.to_wire() for p in self.passes]}

    @classmethod
    def from_wire(cls, keys: RoundKeys, codec: CardCodec, d: dict[str, Any]) -> "Epoch":
        """Rebuild an epoch from its record, checking every pass again."""
        ep = cls(keys, d["e"], Deck.from_bytes(d["input"]), d["order"], codec.restrict(d["ids"]), d["a"])
        for w in d["passes"]:
            ep.add_pass(Pass.from_wire(w, ep.n))
        return ep


def open_public(epoch: Epoch, slot: int, shares: Sequence[Share]) -> int:
    """Check a public opening of ``slot`` (one proven share per participant) and return its card.

    Raises ``share`` naming the author of a share whose proof fails, and
    ``card`` when every share is good but the slot opens to no card of the
    epoch (a pass was bad: the audit names it).
    """
    ct = epoch.ct(slot)
    by: dict[int, Share] = {}
    for s in shares:
        if s.slot != slot or s.author not in epoch.keys.X or s.author in by:
            raise Fault("protocol", f"a public opening of slot {slot} with a stray or repeated share", s.author)
        if not check_share(epoch.ctx, epoch.keys.X[s.author], ct, s):
            raise Fault("share", f"a share for slot {slot} of epoch {epoch.number} fails its proof", s.author)
        by[s.author] = s
    missing = [p for p in epoch.keys.pids if p not in by]
    if missing:
        raise Fault("protocol", f"a public opening of slot {slot} lacks the shares of {missing}")
    try:
        return epoch.codec.decode(decrypt(ct, [by[p].D for p in epoch.keys.pids]))
    except NotACard as ex:
        raise Fault("card", f"slot {slot} of epoch {epoch.number}: {ex}") from None
