"""Keys dealt to a card's holder (``sdeal``), as every peer takes them: wherever they come in the log.

After a deal or a move, every other participant seals its keys of each card a seat is to see to
the seat's owner (:meth:`Dealing._deliver`). Only that owner waits for them: it cannot see its
card without them. Every other peer follows the next move at once and files each ``sdeal`` as
the log brings it (:meth:`Dealing._absorb`), before or after later moves: the boxes are opaque to
it and change nothing in its game (who holds which card is public). So a card drawn costs the
table one wait, the drawer's, and the relay may hand the others their copies together, a moment
later (:class:`~net.sealing.relay.SealedHost`). Each ``sdeal`` names its deal (``d``: the deals of
the round, counted alike by every peer), so a peer that is behind keeps those of deals it has
not reached yet until it does.

Every peer still holds every box before the round's audit: a participant's keys precede its own
later messages in the log, so once every participant has opened its seed, every box is in; a
participant that opened its seed and never sent keys it owed is named (``withheld``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import core

from ..sealed import Envelope, Fault
from ..sealed.envelope import unseal
from ..sealed.epoch import Slot
from .peerstate import PeerState
from .signed import Alarm


class Dealing(PeerState):
    """A peer's deliveries: the keys it seals to others, and those it files (a base of
    :class:`~net.sealing.SealedPeer`, whose state it reads)."""

    EARLY_MAX = 4096
    """``sdeal`` entries of deals this peer has not reached that it keeps at most (a flood is a fault)."""
    AHEAD_MAX = 1000
    """How many deals ahead of this peer's walk an ``sdeal`` may be."""

    seen_envelopes: int
    known: dict[int, set[int]]
    owners: list[int]
    slot: dict[int, Slot]
    card_of: dict[int, int]
    _waiting: set[int]
    _unread: list[tuple[int, dict[str, Any]]]

    if TYPE_CHECKING:  # the peer's (see net.sealing.lockstep)
        from ..sealed import Participant

        part: Participant | None
        pub: core.Game

        async def _read(self) -> tuple[int, dict[str, Any]]: ...

    def _reset_deals(self) -> None:
        """A new round: no deal made yet, none owed."""
        self._deals = 0
        self._owed: dict[int, set[int]] = {}
        """Deal -> the participants whose keys for it the log has yet to bring."""
        self._early: dict[int, list[tuple[int, dict[str, Any]]]] = {}
        self._early_count = 0

    @property
    def waiting_on(self) -> set[int]:
        """The participants the table waits on now (the host's watchdog reads it): first those whose
        keys the earliest deal still lacks (a drawer waiting for them sends nothing else, its keys
        of later deals included, so a withholder would otherwise hide behind it), else those the
        walk waits on."""
        return set(self._owed[min(self._owed)]) if self._owed else self._waiting

    @waiting_on.setter
    def waiting_on(self, who: set[int]) -> None:
        self._waiting = who

    async def _deliver(self, events: list[core.Event]) -> None:
        """Open to each seat's owner the cards it is to see and lacks: every other participant's keys.
        This peer waits only for the keys sealed to itself."""
        g = self.game
        assert g is not None
        await self._await_keys(self._send_keys(g.deliveries(events)))

    def _send_keys(self, deliveries: dict[int, list[int]]) -> tuple[int, bool] | None:
        """Seal this peer's keys of the cards each seat is to see and lacks (``deliveries``, from
        :meth:`core.Game.deliveries`) to the seat's owner; the deal's number and whether this peer
        is a recipient, or None if there is no deal. Who is to see which card is public, so a move's deliveries can be read from the public
        game: its keys leave before this peer's own game has followed the move (the drawer waits
        on the last of them)."""
        want: dict[int, list[int]] = {}
        for q, hs in deliveries.items():
            o = self.owners[q]
            for h in hs:
                if h >= self._size() and h not in self.pub._slots.public and h not in self.known[o]:  # type: ignore
                    want.setdefault(o, []).append(h)
        if not want:
            return None
        senders = [j for j in self.pids if any(o != j for o in want)]
        self._deals += 1
        d = self._deals
        if self.part is not None and self.pid in senders:
            envs = [self.part.share_with(o, [self.slot[h] for h in hs]) for o, hs in want.items() if o != self.pid]
            self.send({"k": "sdeal", "r": self.round, "d": d, "envs": [e.to_wire() for e in envs]})
        for o, hs in want.items():
            self.known[o].update(hs)
        self._owed[d] = set(senders)
        return d, self.pid in want

    async def _await_keys(self, deal: tuple[int, bool] | None) -> None:
        """File the keys of the deal (as :meth:`_send_keys` returned it) that came early; if this
        peer is a recipient, wait for the rest."""
        if deal is None:
            return
        d, recipient = deal
        for author, body in self._early.pop(d, []):
            self._early_count -= 1
            self._file(d, author, body)
        if recipient and self.part is not None:
            # Entries of later moves that come meanwhile are read again after (in the log's order).
            held, self._unread = self._unread, []
            while d in self._owed:
                author, body = await self._read()
                if body.get("k") == "sdeal":
                    self._absorb(author, body)
                else:
                    held.append((author, body))
            self._unread = held

    def _absorb(self, author: int, body: dict[str, Any]) -> None:
        """File an ``sdeal`` entry wherever the log brings it (:meth:`_entry` passes them all here)."""
        d = body.get("d")
        if body.get("r") != self.round or not isinstance(d, int) or isinstance(d, bool):
            raise Alarm(Fault("protocol", "an 'sdeal' message for no deal of this round", author))
        if d in self._owed:
            self._file(d, author, body)
        elif self._deals < d <= self._deals + self.AHEAD_MAX and self._early_count < self.EARLY_MAX:
            self._early.setdefault(d, []).append((author, body))  # a deal this peer's walk has yet to reach
            self._early_count += 1
        else:
            raise Alarm(Fault("protocol", f"an 'sdeal' message where none was due (deal {d})", author))

    def _file(self, d: int, author: int, body: dict[str, Any]) -> None:
        owed = self._owed[d]
        if author not in owed:
            raise Alarm(Fault("protocol", f"an 'sdeal' message where none was due (deal {d})", author))
        owed.discard(author)
        if not owed:
            del self._owed[d]
        g = self.game
        assert g is not None
        for w in body.get("envs") or []:
            env = Envelope.from_wire(w)
            if env.sender != author:
                raise Alarm(Fault("envelope", "an envelope sent in another's name", author))
            self.envelopes.append(env)
            self.seen_envelopes += 1
            if env.to == self.pid and self.part is not None:
                for s, card in self._receive(env):
                    h = self.handle_of[s]
                    self.card_of[h] = card
                    g.learn(h, self.deck[card])

    def _check_dealt(self) -> None:
        """At the round's end, every participant's seed open: every deal's keys must be in."""
        if self._owed:
            d = min(self._owed)
            late = sorted(self._owed[d])
            raise Alarm(Fault("withheld", f"participants {late} never sent their keys of a card dealt (deal {d})",
                              late[0]))

    def _receive(self, env: Envelope) -> list[tuple[Slot, int]]:
        """Open an envelope sent to this participant; a bad key in it is proven to everyone by
        publishing the sender's signed body (``saccuse``), which every peer checks."""
        assert self.part is not None and self.secret is not None
        try:
            return self.part.receive(env)
        except Fault as f:
            if f.code != "share":
                raise
            bad = self.part.bad_envelope or env  # the key found bad may have come in an earlier envelope
            opened, sig = unseal(self.keys, self.secret.box_public, self.secret.box_secret, bad)
            self.send({"k": "saccuse", "r": self.round, "from": bad.sender, "body": opened, "sig": sig})
            raise Alarm(f, told=True) from None


__all__ = ["Dealing"]
