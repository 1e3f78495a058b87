"""One participant's private side of a round: its passes, the slot keys it gives and those it opens.

A :class:`Participant` holds a :class:`~net.sealed.keys.RoundSecret` and a
replica of the round's epochs. It is pure: it returns what to send and takes
what arrived, and the caller (the net layer) moves the bytes. Everything it
knows besides its secret comes from the log, so after a crash a new one built
from the saved secret and fed the same log (:meth:`Participant.receive` on
each envelope addressed to it) knows the same cards; its passes derive from
the seed, so making one again gives the same values.
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterable

from .codec import NotACard
from .envelope import Envelope, Item, Signer, items_of, seal, unseal
from .epoch import Epoch, Slot, share_item
from .faults import Fault
from .group import BadScalar
from .keys import RoundKeys, RoundSecret
from .masking import Pass, PassKeys, lock_pass, mask_pass, open_value, rekey_pass, slot_commitments


class BaseParticipant:
    """What a participant of either scheme is: its secret, the round's keys, its replica of the epochs,
    the cards it has opened."""

    def __init__(self, secret: RoundSecret, keys: RoundKeys, signer: Signer) -> None:
        if keys.X.get(secret.pid) != secret.X:
            raise ValueError("this secret is not the one announced for its participant")
        if signer.public != secret.identity:
            raise ValueError("the signer is not the identity the secret was announced with")
        self.secret = secret
        self.keys = keys
        self.signer = signer
        self.pid = secret.pid
        self.epochs: dict[int, Any] = {}
        self.cards: dict[Slot, int] = {}
        """The card of every slot this participant has opened (its own and the public ones it saw)."""

    def add_epoch(self, epoch: Any) -> None:
        self.epochs[epoch.number] = epoch

    def _epoch(self, e: int) -> Any:
        ep = self.epochs.get(e)
        if ep is None:
            raise Fault("protocol", f"no epoch {e} in this round")
        return ep

    def _unseal(self, env: Envelope, check: bool = True) -> bytes:
        """The signed body of an envelope addressed to this participant (see :func:`~net.sealed.envelope.unseal`)."""
        if env.to != self.pid:
            raise Fault("envelope", f"an envelope for {env.to} reached {self.pid}")
        return unseal(self.keys, self.secret.box_public, self.secret.box_secret, env, check=check)[0]

    def saw_public(self, key: Slot, card: int) -> None:
        """Note a card opened publicly (checked with the scheme's ``open_public``)."""
        self.cards[key] = card


class Participant(BaseParticipant):
    """A participant of one round: shuffles, gives slot keys, opens the cards dealt to it."""

    epochs: dict[int, Epoch]

    def __init__(self, secret: RoundSecret, keys: RoundKeys, signer: Signer) -> None:
        super().__init__(secret, keys, signer)
        self.received: dict[Slot, dict[int, bytes]] = {}
        """Slot keys from others, by slot and author: those of an open slot opened it (:meth:`receive`)."""
        self._came_in: dict[Slot, dict[int, Envelope]] = {}
        self.bad_envelope: Envelope | None = None
        """The envelope that brought the bad key :meth:`receive` last found."""
        self.commitments: dict[tuple[int, int], list[bytes]] = {}
        """Slot-key commitments made ahead (:meth:`prepare`), by (epoch, attempt)."""
        self._pass_keys: dict[tuple[int, int], PassKeys] = {}

    def _keys(self, e: int) -> PassKeys:
        return self._keys_of(e, self._epoch(e).attempt)

    def _keys_of(self, e: int, attempt: int) -> PassKeys:
        """This participant's pass keys of ``(e, attempt)``, derived once (each slot key once too)."""
        keys = self._pass_keys.get((e, attempt))
        if keys is None:
            keys = self._pass_keys[(e, attempt)] = PassKeys(self.secret.pass_seed(e, attempt))
        return keys

    def key(self, e: int, slot: int) -> bytes:
        """This participant's key for ``slot`` of epoch ``e``: its share for opening it."""
        return self._keys(e).k(self._epoch(e).check_slot(slot))

    # -- shuffling ---------------------------------------------------------------------------
    def prepare(self, epoch: int, count: int, attempt: int = 0) -> None:
        """Make the slot-key commitments of this participant's lock pass in ``(epoch, attempt)`` now, in idle
        time (they depend on nothing but its secret)."""
        have = self.commitments.get((epoch, attempt), [])
        if len(have) < count:
            self.commitments[(epoch, attempt)] = slot_commitments(self._keys_of(epoch, attempt), count)

    def shuffle(self, e: int) -> Pass:
        """This participant's next pass over epoch ``e`` (re-key, mask or lock, whichever is due).

        The pass derives from the round seed, so making it again gives the same
        values. A mask pass is recorded in :attr:`RoundSecret.passes`: **save the
        secret before publishing it**; asked to mask the same epoch over another
        deck (a relay showing a restarted participant another history) it
        refuses. A value outside the group in the deck it works on stops it,
        naming the pass that made the value.
        """
        ep = self._epoch(e)
        if ep.next_author != self.pid:
            raise Fault("protocol", f"it is not participant {self.pid}'s turn in epoch {e}")
        keys = self._keys(e)
        kind = ep.next_kind
        if kind == "rekey":
            old = {s: self._keys(oe).k(os) for s, (oe, os) in ep.sealed.items()}
            return rekey_pass(ep.current, old, keys, self.pid, ep.last_author)
        if kind == "mask":
            key = (e, ep.attempt)
            digest = hashlib.sha256(b"".join(ep.current)).digest()
            if self.secret.passes.get(key, digest) != digest:
                raise Fault("protocol", f"participant {self.pid} already shuffled epoch {e} (attempt "
                                        f"{ep.attempt}) over another deck; it will not shuffle it again")
            self.secret.passes[key] = digest
            return mask_pass(ep.current, keys, self.pid, ep.last_author)
        self.prepare(e, ep.n, ep.attempt)
        return lock_pass(ep.current, keys, self.pid, ep.rekeyed, self.commitments.pop((e, ep.attempt)),
                         ep.last_author)

    # -- shares ------------------------------------------------------------------------------
    def share_with(self, to: int, slots: Iterable[Slot]) -> Envelope:
        """This participant's keys of ``slots`` for ``to``, sealed: cards dealt to ``to``."""
        if to == self.pid or to not in self.keys.box:
            raise ValueError(f"cannot send shares to {to}")
        return seal(self.signer, self.keys, self.pid, to, [share_item(e, s, self.pid, self.key(e, s))
                                                           for e, s in slots])

    def _all_keys(self, slots: Iterable[Slot], skip: int | None) -> list[Item]:
        out: list[Item] = []
        for e, s in slots:
            if (e, s) not in self.cards:
                raise ValueError(f"slot {s} of epoch {e} is not open to participant {self.pid}")
            out.append(share_item(e, s, self.pid, self.key(e, s)))
            out += [share_item(e, s, a, k) for a, k in self.received.get((e, s), {}).items() if a != skip]
        return out

    def hand_over(self, to: int, slots: Iterable[Slot]) -> Envelope:
        """Every key ``to`` needs for ``slots`` (its own and those it was given), sealed: cards moving from
        this hand to ``to``'s, with no one else's help."""
        return seal(self.signer, self.keys, self.pid, to, self._all_keys(slots, to))

    def public_shares(self, slots: Iterable[Slot]) -> list[Item]:
        """This participant's keys of ``slots``, for everyone (a card turned up from the pile)."""
        return [share_item(e, s, self.pid, self.key(e, s)) for e, s in slots]

    def show(self, slots: Iterable[Slot]) -> list[Item]:
        """Every key of ``slots`` (which this participant holds): it shows its cards alone."""
        return self._all_keys(slots, None)

    # -- receiving ---------------------------------------------------------------------------
    def receive(self, env: Envelope) -> list[tuple[Slot, int]]:
        """Open an envelope addressed to this participant; returns the slots it opened, with their cards.

        A slot opens once every other participant's key of it is in. The keys are first tried
        together (as :func:`~net.sealed.epoch.open_public` does): if they open the slot to a card of
        the epoch, that is the card, and neither each key's commitment nor the signature inside
        each envelope needs checking (keys with the same product open it to the same card; the
        round's audit checks every key of every envelope all the same). Only when they do not is
        each key checked, to name whose is bad.

        Raises ``envelope`` naming the sender (a box that does not open, or a body for another
        game, round or recipient), ``share`` naming the sender of a bad key
        (:attr:`bad_envelope` is the envelope it came in: its signed body, shown to everyone, is
        the proof: :func:`~net.sealed.envelope.verify_accusation`), or ``card`` when every key is
        good and the slot opens to no card.
        """
        body = self._unseal(env, check=False)
        touched = []
        for e, s, author, k in (it[:4] for it in items_of(body, env.sender, self.keys)):
            ep = self.epochs.get(e)
            if ep is None or author == self.pid or not 0 <= s < ep.n:
                raise Fault("envelope", "a key for an unknown epoch, slot or author", env.sender)
            if not isinstance(k, bytes) or len(k) != 32:
                self.bad_envelope = env
                raise Fault("share", f"a key for slot {s} of epoch {e} is not a scalar", env.sender)
            self.received.setdefault((e, s), {})[author] = k
            self._came_in.setdefault((e, s), {})[author] = env
            touched.append((e, s))
        opened = []
        for key in dict.fromkeys(touched):
            if key not in self.cards and len(self.received[key]) == len(self.keys.pids) - 1:
                opened.append((key, self._open(key)))
        return opened

    def open_alone(self, slots: Iterable[Slot]) -> list[tuple[Slot, int]]:
        """Open ``slots`` with this participant's keys alone: at a table whose only participant it is
        (a host playing with its own bots), no key is ever sent to it, and none is needed."""
        if len(self.keys.pids) != 1:
            raise ValueError("other participants' keys are needed to open a card")
        opened = []
        for key in slots:
            self.received.setdefault(key, {})
            opened.append((key, self.cards[key] if key in self.cards else self._open(key)))
        return opened

    def _open(self, key: Slot) -> int:
        e, slot = key
        ep = self.epochs[e]
        keys = list(self.received[key].values()) + [self.key(e, slot)]
        try:
            card = ep.codec.decode(open_value(ep.final[slot], keys, ep.last_author))
        except (NotACard, BadScalar, Fault):
            for author, k in self.received[key].items():
                if not ep.check_share(slot, author, k):
                    self.bad_envelope = env = self._came_in[key][author]
                    raise Fault("share", f"a key for slot {slot} of epoch {e} does not match its commitment",
                                env.sender) from None
            try:
                card = ep.codec.decode(open_value(ep.final[slot], keys, ep.last_author))
            except NotACard as ex:
                raise Fault("card", f"slot {slot} of epoch {e} opens to no card: {ex}") from None
        self.cards[key] = card
        return card
