"""A whole round of the sealed deal in one process: the harness the sealed tests and benchmark share.

:class:`SimRound` plays the relay's part (it moves every pass, envelope and
public share between the participants, as the host would) and keeps the
public record the audit needs. Participants are :class:`net.sealed.Participant`
or a cheating subclass given per participant id.
"""

from __future__ import annotations

import secrets
from typing import Iterable, Sequence

from net.identity import Identity
from net.sealed import (CardCodec, Deck, Envelope, Epoch, Participant, Reveal, RoundKeys, RoundSecret,
                        audit_round, open_public)
from net.sealed.audit import AuditResult

Slot = tuple[int, int]


class SimRound:
    def __init__(self, players: int, cards: int, *, cheats: dict[int, type[Participant]] | None = None,
                 deck_tag: bytes = b"test") -> None:
        self.game = secrets.token_bytes(16)
        self.identities = [Identity.generate() for _ in range(players)]
        self.secrets = [RoundSecret.fresh(self.game, 0, p, self.identities[p].public) for p in range(players)]
        self.keys = RoundKeys(self.game, 0, [s.announce() for s in self.secrets])
        self.codec = CardCodec(cards, deck_tag)
        cheats = cheats or {}
        self.parts: list[Participant] = [cheats.get(p, Participant)(self.secrets[p], self.keys, self.identities[p])
                                         for p in range(players)]
        self.epochs: list[Epoch] = []
        self.envelopes: list[Envelope] = []
        self.public: dict[Slot, int] = {}
        self.next_slot: dict[int, int] = {}

    @property
    def pids(self) -> list[int]:
        return self.keys.pids

    # -- epochs ---------------------------------------------------------------------------------
    def epoch(self, deck: Deck | None = None, ids: Sequence[int] | None = None, *, points: bool = True) -> Epoch:
        """Run a whole epoch: every participant's pass in seat order, each checked as it arrives."""
        codec = self.codec if ids is None else self.codec.restrict(ids)
        deck = deck if deck is not None else Deck.open(codec)
        ep = Epoch(self.keys, len(self.epochs), deck, self.pids, codec)
        self.epochs.append(ep)
        for p in self.parts:
            p.add_epoch(ep)
        self.next_slot[ep.number] = 0
        for pid in ep.order:
            ep.add_pass(self.parts[pid].shuffle(ep.number), points=points)
        return ep

    def take(self, e: int, count: int = 1) -> list[Slot]:
        """The next ``count`` slots of epoch ``e`` (draws take slots in order)."""
        k = self.next_slot[e]
        self.next_slot[e] = k + count
        return [(e, s) for s in range(k, k + count)]

    # -- openings -------------------------------------------------------------------------------
    def send(self, env: Envelope) -> list[tuple[Slot, int]]:
        self.envelopes.append(env)
        return self.parts[env.to].receive(env)

    def deal(self, to: int, slots: Iterable[Slot]) -> dict[Slot, int]:
        """Open ``slots`` to ``to``: every other participant seals its shares to it."""
        slots = list(slots)
        got: dict[Slot, int] = {}
        for j in self.pids:
            if j != to:
                got.update(self.send(self.parts[j].share_with(to, slots)))
        return got

    def deal_round(self, e: int, hand: int) -> dict[int, list[Slot]]:
        """A first deal: ``hand`` cards to each participant, one envelope per sender and recipient."""
        hands = {p: [] for p in self.pids}
        for _ in range(hand):
            for p in self.pids:
                hands[p] += self.take(e)
        for p in self.pids:
            self.deal(p, hands[p])
        return hands

    def turn_up(self, slot: Slot) -> int:
        """A card from the pile shown to everyone: every participant publishes its share."""
        shares = [s for p in self.parts for _, s in p.public_shares([slot])]
        card = open_public(self.epochs[slot[0]], slot[1], shares)
        self._seen(slot, card)
        return card

    def show(self, holder: int, slot: Slot) -> int:
        """A card its holder plays: the holder publishes every share of it, alone."""
        shares = [s for _, s in self.parts[holder].show([slot])]
        card = open_public(self.epochs[slot[0]], slot[1], shares)
        self._seen(slot, card)
        return card

    def _seen(self, slot: Slot, card: int) -> None:
        self.public[slot] = card
        for p in self.parts:
            p.saw_public(slot, card)

    def move(self, frm: int, to: int, slot: Slot) -> int:
        """A card passing from ``frm``'s hand to ``to``'s, with only the old holder's help."""
        got = self.send(self.parts[frm].hand_over(to, [slot]))
        return dict(got)[slot]

    # -- the end of the round -----------------------------------------------------------------
    def reveals(self) -> list[Reveal]:
        return [s.reveal() for s in self.secrets]

    def audit(self, reveals: Sequence[Reveal] | None = None) -> AuditResult:
        return audit_round(self.keys, self.epochs, self.reveals() if reveals is None else reveals, self.envelopes)
