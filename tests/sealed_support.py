"""A whole round of the sealed deal in one process: the harness the sealed tests and benchmark share.

:class:`SimRound` plays the relay's part (it moves every pass, envelope and
public share between the participants, as the host would) and keeps the
public record the audit needs. Participants are :class:`net.sealed.Participant`
(or, with ``elgamal=True``, the measured alternative's) or a cheating
subclass given per participant id.
"""

from __future__ import annotations

import secrets
from typing import Any, Iterable, Sequence

from net import sealed
from net.identity import Identity
from net.sealed import CardCodec, Envelope, Reveal, RoundKeys, RoundSecret
from net.sealed import elgamal as eg
from net.sealed.audit import AuditResult

Slot = tuple[int, int]


class SimRound:
    def __init__(self, players: int, cards: int, *, cheats: dict[int, type] | None = None,
                 deck_tag: bytes = b"test", elgamal: bool = False) -> None:
        self.elgamal = elgamal
        self.game = secrets.token_bytes(16)
        self.identities = [Identity.generate() for _ in range(players)]
        self.secrets = [RoundSecret.fresh(self.game, 0, p, self.identities[p].public) for p in range(players)]
        self.keys = RoundKeys(self.game, 0, [s.announce() for s in self.secrets])
        self.codec = CardCodec(cards, deck_tag, edwards=elgamal)
        base = eg.Participant if elgamal else sealed.Participant
        cheats = cheats or {}
        self.parts: list[Any] = [cheats.get(p, base)(self.secrets[p], self.keys, self.identities[p])
                                 for p in range(players)]
        self.epochs: list[Any] = []
        self.envelopes: list[Envelope] = []
        self.public: dict[Slot, int] = {}
        self.next_slot: dict[int, int] = {}

    @property
    def pids(self) -> list[int]:
        return self.keys.pids

    # -- epochs ---------------------------------------------------------------------------------
    def epoch(self, ids: Sequence[int] | None = None, *, points: bool = True, sealed_in: Sequence[Slot] = ()) -> Any:
        """Run a whole epoch of the known cards ``ids`` (all by default) and the sealed slots ``sealed_in``
        (put back into a pile): every pass in turn, each checked as it arrives."""
        codec = self.codec if ids is None or sealed_in else self.codec.restrict(ids)
        number = len(self.epochs)
        known = list(codec.ids) if ids is None else list(ids)
        if self.elgamal:
            cts = [self.epochs[e].ct(s) for e, s in sealed_in]
            ep = eg.Epoch(self.keys, number, eg.Deck(cts + eg.Deck.open(self.codec, known).cts), self.pids, codec)
        else:
            values = [self.epochs[e].final[s] for e, s in sealed_in] + [self.codec.encode(i) for i in known]
            ep = sealed.Epoch(self.keys, number, values, self.pids, codec,
                              sealed={i: s for i, s in enumerate(sealed_in)})
        self.epochs.append(ep)
        for p in self.parts:
            p.add_epoch(ep)
        self.next_slot[ep.number] = 0
        while not ep.done:
            ep.add_pass(self.parts[ep.next_author].shuffle(ep.number), points=points)
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
        hands: dict[int, list[Slot]] = {p: [] for p in self.pids}
        for _ in range(hand):
            for p in self.pids:
                hands[p] += self.take(e)
        for p in self.pids:
            self.deal(p, hands[p])
        return hands

    def open_public(self, slot: Slot, shares: list[Any]) -> int:
        if self.elgamal:
            return eg.open_public(self.epochs[slot[0]], slot[1], [s for _, s in shares])
        return sealed.open_public(self.epochs[slot[0]], slot[1], shares)

    def turn_up(self, slot: Slot) -> int:
        """A card from the pile shown to everyone: every participant publishes its share."""
        card = self.open_public(slot, [s for p in self.parts for s in p.public_shares([slot])])
        self._seen(slot, card)
        return card

    def show(self, holder: int, slot: Slot) -> int:
        """A card its holder plays: the holder publishes every share of it, alone."""
        card = self.open_public(slot, self.parts[holder].show([slot]))
        self._seen(slot, card)
        return card

    def _seen(self, slot: Slot, card: int) -> None:
        self.public[slot] = card
        for p in self.parts:
            p.saw_public(slot, card)

    def move(self, frm: int, to: int, slot: Slot) -> int:
        """A card passing from ``frm``'s hand to ``to``'s, with only the old holder's help."""
        return dict(self.send(self.parts[frm].hand_over(to, [slot])))[slot]

    # -- the end of the round -----------------------------------------------------------------
    def reveals(self) -> list[Reveal]:
        return [s.reveal() for s in self.secrets]

    def audit(self, reveals: Sequence[Reveal] | None = None) -> AuditResult:
        audit = eg.audit_round if self.elgamal else sealed.audit_round
        return audit(self.keys, self.epochs, self.reveals() if reveals is None else reveals,
                     self.envelopes)  # type: ignore[return-value]


def play_round(r: SimRound, hand: int = 7) -> None:
    """Deal, turn up, draw, play, move, reshuffle, draw again; check what everyone saw as it goes."""
    n_players = len(r.pids)
    ep = r.epoch()
    hands = r.deal_round(ep.number, hand)
    for p, slots in hands.items():
        assert all(s in r.parts[p].cards for s in slots)
        for q in r.pids:  # nobody else opened them
            if q != p:
                assert not any(s in r.parts[q].cards for s in slots)
    dealt = [r.parts[p].cards[s] for p in r.pids for s in hands[p]]
    assert len(set(dealt)) == len(dealt)
    first = r.turn_up(r.take(0)[0])
    assert first not in dealt
    drawn = r.take(0)[0]
    got = r.deal(1 % n_players, [drawn]) if n_players > 1 else {drawn: r.turn_up(drawn)}
    assert got[drawn] not in dealt + [first]
    played = hands[0][0]
    assert r.show(0, played) == r.parts[0].cards[played]
    if n_players > 1:  # player 0's second card passes to player 1 (No Mercy's 7...): only player 0 helps
        moving = hands[0][1]
        assert r.move(0, 1, moving) == r.parts[0].cards[moving]
    # The discards are reshuffled into a new pile (their faces are public).
    discards = [first, r.public[played]]
    ep1 = r.epoch(ids=discards)
    again = r.take(ep1.number)[0]
    assert r.deal(n_players - 1, [again])[again] in discards if n_players > 1 else True
    result = r.audit()
    for p in r.parts:
        for (e, s), c in p.cards.items():
            assert result.cards[e][s] == c
    assert sorted(result.cards[0]) == list(range(r.codec.n))
    assert sorted(result.cards[1]) == sorted(discards)
