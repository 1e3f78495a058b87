"""One participant's private side of a round: its passes, the shares it gives and those it opens.

A :class:`Participant` holds a :class:`~net.sealed.keys.RoundSecret` and a
replica of the round's epochs. It is pure: it returns what to send and takes
what arrived, and the caller (the net layer) moves the bytes. Everything it
knows besides its secret comes from the log, so after a crash a new one built
from the saved secret and fed the same log (:meth:`Participant.receive` on
each envelope addressed to it) knows the same cards.
"""

from __future__ import annotations

import hashlib
from typing import Iterable

from ..codec import NotACard
from ..envelope import Envelope, Signer, items_of, seal
from ..faults import Fault
from ..group import mul, sub
from ..keys import RoundKeys, RoundSecret
from ..participant import BaseParticipant
from .epoch import Epoch
from .scheme import Pad, Pass, Share, check_share, decrypt, make_pads, make_share, shuffle

Slot = tuple[int, int]
"""(epoch number, slot)."""


def wire_shares(body: bytes, sender: int, keys: RoundKeys) -> list[tuple[int, Share]]:
    """The ``(epoch, share)`` pairs of an envelope's body."""
    out = []
    for w in items_of(body, sender, keys):
        try:
            out.append((w[0], Share.from_wire(w[1:])))
        except Fault:
            raise Fault("envelope", "a malformed share in an envelope", sender) from None
    return out


class Participant(BaseParticipant):
    """A participant of one round: shuffles, gives shares, opens the cards dealt to it."""

    epochs: dict[int, Epoch]

    def __init__(self, secret: RoundSecret, keys: RoundKeys, signer: Signer) -> None:
        super().__init__(secret, keys, signer)
        self.received: dict[Slot, dict[int, Share]] = {}
        """Proven shares from others, by slot and author."""
        self.pads: dict[tuple[int, int], list[Pad]] = {}
        """Re-randomisers made ahead (:meth:`prepare`), by (epoch, attempt)."""

    def prepare(self, epoch: int, count: int, attempt: int = 0) -> None:
        """Make the re-randomisers of this participant's pass in ``(epoch, attempt)`` for ``count`` cards
        now, in idle time, so that the pass itself only adds."""
        have = self.pads.setdefault((epoch, attempt), [])
        if len(have) < count:
            seed = self.secret.pass_seed(epoch, attempt)
            have += make_pads(self.keys.joint, seed, len(have), count - len(have))

    # -- shuffling ---------------------------------------------------------------------------
    def shuffle(self, e: int) -> Pass:
        """This participant's pass over epoch ``e``'s current deck.

        The pass derives from the round seed, so making it again gives the same
        deck. It is recorded in :attr:`RoundSecret.passes`: **save the secret
        before publishing the pass**. Asked to shuffle the same epoch over
        another deck (a relay that shows a restarted participant another
        history), it refuses: the two passes side by side would give away its
        permutation. The points of the deck it works on are checked by
        :meth:`Epoch.add_pass` (or later, :meth:`Epoch.check_points`) before
        the epoch is trusted.
        """
        ep = self._epoch(e)
        if ep.next_author != self.pid:
            raise Fault("protocol", f"it is not participant {self.pid}'s turn to shuffle epoch {e}")
        key = (e, ep.attempt)
        digest = hashlib.sha256(ep.current.to_bytes()).digest()
        if self.secret.passes.get(key, digest) != digest:
            raise Fault("protocol", f"participant {self.pid} already shuffled epoch {e} (attempt {ep.attempt}) "
                                    "over another deck; it will not shuffle it again")
        self.prepare(e, ep.n, ep.attempt)
        pads = self.pads.pop(key)[:ep.n]
        self.secret.passes[key] = digest
        return shuffle(ep.ctx, self.keys.joint, ep.current, len(ep.passes), self.pid,
                       self.secret.pass_seed(e, ep.attempt), pads)

    # -- shares ------------------------------------------------------------------------------
    def own_share(self, e: int, slot: int) -> Share:
        ep = self._epoch(e)
        return make_share(ep.ctx, self.secret.x, self.secret.X, slot, ep.ct(slot), self.pid)

    def share_with(self, to: int, slots: Iterable[Slot]) -> Envelope:
        """This participant's shares of ``slots`` for ``to``, sealed: a card dealt to ``to``."""
        if to == self.pid or to not in self.keys.box:
            raise ValueError(f"cannot send shares to {to}")
        return seal(self.signer, self.keys, self.pid, to, [[e, *self.own_share(e, s).to_wire()] for e, s in slots])

    def hand_over(self, to: int, slots: Iterable[Slot]) -> Envelope:
        """Every share ``to`` needs for ``slots`` this participant holds (its own and the ones it was
        given), sealed: a card moving from this hand to ``to``'s, with no one else's help."""
        out: list[tuple[int, Share]] = []
        for e, s in slots:
            if (e, s) not in self.cards:
                raise ValueError(f"slot {s} of epoch {e} is not open to participant {self.pid}")
            out.append((e, self.own_share(e, s)))
            out += [(e, sh) for a, sh in self.received.get((e, s), {}).items() if a != to]
        return seal(self.signer, self.keys, self.pid, to, [[e, *sh.to_wire()] for e, sh in out])

    def public_shares(self, slots: Iterable[Slot]) -> list[tuple[int, Share]]:
        """This participant's shares of ``slots``, for everyone (a card turned up from the pile)."""
        return [(e, self.own_share(e, s)) for e, s in slots]

    def show(self, slots: Iterable[Slot]) -> list[tuple[int, Share]]:
        """Every share of ``slots`` (which this participant holds): it shows its cards alone."""
        out: list[tuple[int, Share]] = []
        for e, s in slots:
            if (e, s) not in self.cards:
                raise ValueError(f"slot {s} of epoch {e} is not open to participant {self.pid}")
            out.append((e, self.own_share(e, s)))
            out += [(e, sh) for sh in self.received[(e, s)].values()]
        return out

    # -- receiving ---------------------------------------------------------------------------
    def receive(self, env: Envelope) -> list[tuple[Slot, int]]:
        """Open an envelope addressed to this participant; returns the slots it opened, with their cards.

        Raises ``envelope`` or ``share`` naming the sender (the sender signed
        what it sent: :func:`~net.sealed.envelope.verify_accusation` lets
        everyone check), or ``card`` when proven shares open to no card.
        """
        body = self._unseal(env)
        opened = []
        touched = []
        for e, s in wire_shares(body, env.sender, self.keys):
            ep = self.epochs.get(e)
            X = self.keys.X.get(s.author)
            if ep is None or X is None or s.author == self.pid:
                raise Fault("envelope", "a share for an unknown epoch or author", env.sender)
            if not check_share(ep.ctx, X, ep.ct(s.slot), s):
                raise Fault("share", f"a share for slot {s.slot} of epoch {e} fails its proof", env.sender)
            self.received.setdefault((e, s.slot), {})[s.author] = s
            touched.append((e, s.slot))
        for key in dict.fromkeys(touched):
            if key not in self.cards and len(self.received[key]) == len(self.keys.pids) - 1:
                opened.append((key, self._open(key)))
        return opened

    def _open(self, key: Slot) -> int:
        e, slot = key
        ep = self.epochs[e]
        ct = ep.ct(slot)
        point = sub(decrypt(ct, [s.D for s in self.received[key].values()]), mul(self.secret.x, ct[0]))
        try:
            card = ep.codec.decode(point)
        except NotACard as ex:
            raise Fault("card", f"slot {slot} of epoch {e} opens to no card: {ex}") from None
        self.cards[key] = card
        return card
