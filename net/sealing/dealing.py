"""Keys dealt to a card's holder (``sdeal``), as every peer takes them: wherever they come in the log.

After a deal or a move, every other participant seals its keys of each card a seat is to see to
the seat's owner (:meth:`Dealing._send_keys`; :meth:`Dealing._await_keys` then waits for its
own). Only that owner waits for them: it cannot see its card without them. Every other peer
follows the next move at once and files each ``sdeal`` as the log brings it
(:meth:`Dealing._absorb`), before or after later moves: the boxes are opaque to it and change
nothing in its game (who holds which card is public). So a card drawn costs the table one wait,
the drawer's, and the relay may hand the others their copies together, a moment later
(:class:`~net.sealing.relay.SealedHost`). Each ``sdeal`` names its deal (``d``: the deals of
the round, counted alike by every peer), so a peer that is behind keeps those of deals it has
not reached yet until it does.

While idle (:data:`Dealing.SEAL_AHEAD_AFTER` after each deal or move, :meth:`Dealing._when_idle`)
every participant seals its keys of the cards the likely next deal would give: a draw by each
seat to act (worked out on a copy of the public game, :meth:`core.Game.deliveries_if`), and the
pile's top two and four cards for the next seat (a Draw Two, a Wild Draw Four; the player's hand
is sealed, so that one is a guess). The boxes stay in memory. A move that deals exactly those
cards to that owner sends the box made ahead, after the move is followed, as any keys are sent;
anything else seals its keys then, and the boxes made for nothing are dropped. The drawer then
waits on no sender's sealing.

Every peer still holds every box before the round's audit: a participant's keys precede its own
later messages in the log, so once every participant has opened its seed, every box is in; a
participant that opened its seed and never sent keys it owed is named (``withheld``).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import core

from ..sealed import Envelope, Fault, Participant
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
    SEAL_AHEAD_AFTER = 0.02
    """Seconds after a deal or a move that this peer does its work ahead of the next (:meth:`_when_idle`):
    by then the table's processes have done with the move, and the next one is seldom sooner."""
    AHEAD_CARDS = 8
    """The most cards a draw's keys are sealed ahead for (a draw that would deal more is rare)."""

    seen_envelopes: int
    known: dict[int, set[int]]
    owners: list[int]
    slot: dict[int, Slot]
    card_of: dict[int, int]
    _waiting: set[int]
    _unread: list[tuple[int, dict[str, Any]]]

    if TYPE_CHECKING:  # the peer's (see net.sealing.lockstep)
        part: Participant | None
        pub: core.Game

        async def _read(self) -> tuple[int, dict[str, Any]]: ...

        def _ahead(self, h: int) -> Slot: ...

    def _reset_deals(self) -> None:
        """A new round: no deal made yet, none owed."""
        self._sealed_ahead: dict[tuple[int, tuple[Slot, ...]], tuple[Participant, Envelope]] = {}
        """(owner, slots) -> this participant's keys of those slots sealed to the owner ahead of need
        (:meth:`_seal_ahead`), kept here and sent only when a move followed deals them."""
        self._deals = 0
        self._owed: dict[int, set[int]] = {}
        """Deal -> the participants whose keys for it the log has yet to bring (this peer's own keys are
        counted in as they leave: :attr:`_echo`)."""
        self._echo: set[int] = set()
        """Deals whose ``sdeal`` entry from this peer the log has yet to bring back (the relay may
        keep it a moment, as it keeps others' keys: nobody waits on it)."""
        self._early: dict[int, list[tuple[int, dict[str, Any]]]] = {}
        self._early_count = 0
        self._alone: dict[int, list[int]] = {}
        """Deal -> this peer's cards in it, when no other participant's keys are needed to open them."""

    @property
    def waiting_on(self) -> set[int]:
        """The participants the table waits on now (the host's watchdog reads it): first those whose
        keys the earliest deal still lacks (a drawer waiting for them sends nothing else, its keys
        of later deals included, so a withholder would otherwise hide behind it), else those the
        walk waits on. Keys that come before the game holding their cards is made are counted in
        only when it is (a round's first hands, sent with the turned card): until then, the walk's."""
        return set(self._owed[min(self._owed)]) if self._owed and self.game is not None else self._waiting

    @waiting_on.setter
    def waiting_on(self, who: set[int]) -> None:
        self._waiting = who

    def _send_keys(self, deliveries: dict[int, list[int]]) -> tuple[int, bool] | None:
        """Seal this peer's keys of the cards each seat is to see and lacks (``deliveries``, from
        :meth:`core.Game.deliveries`) to the seat's owner; the deal's number and whether this peer
        is a recipient, or None if there is no deal. Who is to see which card is public, so a move's
        deliveries can be read from the public game: its keys leave before this peer's own game
        has followed the move (the drawer waits on the last of them)."""
        want = self._wanted(deliveries)
        if not want:
            return None
        senders = [j for j in self.pids if any(o != j for o in want)]
        self._deals += 1
        d = self._deals
        owed = set(senders)
        if self.part is not None and self.pid in senders:
            envs = [self._sealed_keys(o, hs) for o, hs in want.items() if o != self.pid]
            self.send({"k": "sdeal", "r": self.round, "d": d, "envs": [e.to_wire() for e in envs]})
            owed.discard(self.pid)  # its own keys are in hand: a recipient of this deal does not wait for them
            self._echo.add(d)
        for o, hs in want.items():
            self.known[o].update(hs)
        if owed:
            self._owed[d] = owed
        elif self.pid in want and self.part is not None:
            self._alone[d] = want[self.pid]  # nobody else's keys to wait for: opened by its own
        return d, self.pid in want

    def _wanted(self, deliveries: dict[int, list[int]]) -> dict[int, list[int]]:
        """Owner -> the sealed cards of ``deliveries`` it is to see and has not been opened yet."""
        want: dict[int, list[int]] = {}
        # (a round's first hands are sent before its game is made: nothing of them is public yet)
        public = self.pub._slots.public if self.game is not None else frozenset()  # type: ignore[union-attr]
        size = self._size()
        for q, hs in deliveries.items():
            o = self.owners[q]
            known = self.known[o]
            for h in hs:
                if h >= size and h not in public and h not in known:
                    want.setdefault(o, []).append(h)
        return want

    def _sealed_keys(self, o: int, hs: list[int]) -> Envelope:
        """This participant's keys of cards ``hs`` sealed to ``o``: those sealed ahead if they are
        exactly these (the box is the same either way but for its randomness)."""
        assert self.part is not None
        slots = tuple(self._ahead(h) for h in hs)
        ahead = self._sealed_ahead.pop((o, slots), None)
        if ahead is not None and ahead[0] is self.part:
            return ahead[1]
        return self.part.share_with(o, slots)

    def _idle_soon(self) -> None:
        """After a deal or a move: :meth:`_when_idle` a moment later, once the table is quiet."""
        self._not_idle()
        self._idle_handle = asyncio.get_running_loop().call_later(self.SEAL_AHEAD_AFTER, self._when_idle)

    def _not_idle(self) -> None:
        """A move came: its own work goes first."""
        handle = getattr(self, "_idle_handle", None)
        if handle is not None:
            handle.cancel()
            self._idle_handle = None

    def _when_idle(self) -> None:
        """The work a peer does ahead of the next move (the peer adds its own)."""
        self._seal_ahead()

    def _seal_ahead(self) -> None:
        """While idle: seal, ahead of need, this participant's keys of the cards a draw by each seat
        to act would deal (worked out on a copy of the public game), so that when such a move
        comes its keys leave at once (the drawer waits on the last sender's). Kept in memory and
        sent only as :meth:`_send_keys` sends any keys: after the move is followed. The seat's
        owner may never draw them: a box made for nothing is dropped at the next move."""
        g, part = self.game, self.part
        if g is None or part is None or g.over:
            return
        pub = self.pub
        guesses: list[dict[int, list[int]]] = []
        for q in pub.to_act()[:2]:
            if self.owners[q] != self.pid:  # (this peer's own draw: nothing to send)
                guesses.append(pub.deliveries_if(q, core.Action("draw")) or {})
        # A card that makes the next seat draw (a Draw Two, a Wild Draw Four): the pile's top cards,
        # in the order they are drawn. The player's hand is sealed, so this is a guess, and kept
        # only if a move deals exactly these.
        if isinstance(pub.current, int) and pub.direction in (1, -1):
            top = [c.id for c in reversed(pub.draw_pile[-4:])]
            nxt = (pub.current + pub.direction) % len(pub.hands)
            guesses += [{nxt: top[:k]} for k in (2, 4) if len(top) >= k]
        ahead: dict[tuple[int, tuple[Slot, ...]], tuple[Participant, Envelope]] = {}
        for guess in guesses:
            for o, hs in self._wanted(guess).items():
                slots = tuple(self.slot[h] for h in hs)
                if o != self.pid and len(slots) <= self.AHEAD_CARDS:
                    key, have = (o, slots), self._sealed_ahead.get((o, slots))
                    ahead[key] = have if have is not None and have[0] is part else (part, part.share_with(o, slots))
        self._sealed_ahead = ahead

    async def _await_keys(self, deal: tuple[int, bool] | None) -> None:
        """File the keys of the deal (as :meth:`_send_keys` returned it) that came early; if this
        peer is a recipient, wait for the rest."""
        if deal is None:
            return
        d, recipient = deal
        for author, body in self._early.pop(d, []):
            self._early_count -= 1
            self._file(d, author, body)
        if d in self._alone:
            self._open_alone(self._alone.pop(d))
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
        due = d in self._owed or (author == self.pid and d in self._echo)
        if due and self.game is not None:
            self._file(d, author, body)
        elif (due or self._deals < d <= self._deals + self.AHEAD_MAX) and self._early_count < self.EARLY_MAX:
            # A deal this peer's walk has yet to reach, or the first hands, sent before the game that
            # holds them is made (lockstep.py): filed when it is (:meth:`_await_keys`).
            self._early.setdefault(d, []).append((author, body))
            self._early_count += 1
        else:
            raise Alarm(Fault("protocol", f"an 'sdeal' message where none was due (deal {d})", author))

    def _file(self, d: int, author: int, body: dict[str, Any]) -> None:
        """Count an ``sdeal`` entry in, keep every box of it (the round's audit checks them all), and
        open those for this peer."""
        if author == self.pid and d in self._echo:  # this peer's own keys, back from the log
            self._echo.discard(d)
        else:
            owed = self._owed.get(d)
            if owed is None or author not in owed:
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

    def _open_alone(self, hs: list[int]) -> None:
        """Open this participant's cards ``hs`` with its own keys: it is the table's only participant."""
        assert self.part is not None and self.game is not None
        for s, card in self.part.open_alone([self._ahead(h) for h in hs]):
            h = self.handle_of[s]
            self.card_of[h] = card
            self.game.learn(h, self.deck[card])

    def _check_dealt(self) -> None:
        """At the round's end, every participant's seed open: every deal's keys must be in (this
        peer's own too: the others find them missing from the log as it does)."""
        if self._owed or self._echo:
            d = min([*self._owed, *self._echo])
            late = sorted(self._owed.get(d, set()) | ({self.pid} if d in self._echo else set()))
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
