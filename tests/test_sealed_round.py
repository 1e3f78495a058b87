"""Whole rounds of the sealed deal (the masking scheme) in one process, honest and with cheating participants.

Each round: a first deal, a card turned up, draws mid-round, a card played
(shown by its holder alone), a card moving between hands, a reshuffle of the
discards, the round-end opening of secrets and the audit. The doubles are
subclasses of :class:`net.sealed.Participant`; each cheat is caught, at once
or at the audit, and its author named.
"""

from __future__ import annotations

import secrets

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sealed_support import SimRound, play_round
from test_sealed_group import T8

from net.identity import Identity
from net.sealed import (Envelope, Epoch, Fault, KeyAnnouncement, Participant, Pass, Reveal, RoundKeys, RoundSecret,
                        audit_round, open_public, verify_accusation)
from net.sealed import group as g
from net.sealed.envelope import seal, unseal
from net.sealed.epoch import share_item
from net.sealed.masking import PassKeys
from net.sealed.xline import P as FIELD, u_of, xmul


@pytest.mark.parametrize("players,cards", [(2, 108), (4, 108), (4, 168), (10, 108), (10, 170)])
def test_a_whole_round_deals_opens_moves_reshuffles_and_audits(players: int, cards: int) -> None:
    play_round(SimRound(players, cards))


def test_the_relay_cannot_read_what_it_carries() -> None:
    r = SimRound(3, 30)
    ep = r.epoch()
    env = r.parts[1].share_with(0, [(ep.number, 0)])
    with pytest.raises(Fault) as caught:  # participant 2's box key (or the host's) does not open it
        unseal(r.keys, r.secrets[2].box_public, r.secrets[2].box_secret, env)
    assert caught.value.code == "envelope"
    body, _sig = unseal(r.keys, r.secrets[0].box_public, r.secrets[0].box_secret, env)
    assert msgpack.unpackb(body)["to"] == 0
    # A card needs every participant's key: two of three open nothing.
    with pytest.raises(Fault, match="lacks the keys"):
        open_public(ep, 5, [it for p in r.parts[:2] for it in p.public_shares([(0, 5)])])


def test_an_envelope_for_someone_else_or_altered_on_the_way_is_refused() -> None:
    r = SimRound(3, 30)
    ep = r.epoch()
    env = r.parts[1].share_with(0, [(ep.number, 0)])
    with pytest.raises(Fault) as caught:
        r.parts[2].receive(Envelope(env.sender, 2, env.box))
    assert caught.value.code == "envelope"
    with pytest.raises(Fault) as caught:
        r.parts[0].receive(Envelope(1, 0, env.box[:-1] + bytes([env.box[-1] ^ 1])))
    assert caught.value.code == "envelope" and caught.value.culprit == 1
    with pytest.raises(Fault) as caught:  # sealed by 1, claimed to come from 2: the signature inside is 1's
        r.parts[0].receive(Envelope(2, 0, env.box))
    assert caught.value.code == "envelope"


def test_a_participant_restarts_from_its_saved_secret_and_the_log() -> None:
    r = SimRound(4, 40)
    ep = r.epoch()
    hands = r.deal_round(ep.number, 3)
    saved = r.secrets[2].to_bytes()
    before = dict(r.parts[2].cards)
    # The process dies; a new one loads the secret and reads the log again.
    reborn = Participant(RoundSecret.from_bytes(saved), r.keys, r.identities[2])
    reborn.add_epoch(Epoch.from_wire(r.keys, r.codec, msgpack.unpackb(msgpack.packb(ep.to_wire()))))
    for env in r.envelopes:
        if env.to == 2:
            reborn.receive(env)
    assert reborn.cards == before and set(before) == set(hands[2])
    # It goes on: its keys still open cards for the others, and it opens new ones.
    r.parts[2] = reborn
    reborn.add_epoch(r.epochs[0])
    slot = r.take(0)[0]
    assert r.deal(0, [slot])[slot] == r.deal(2, [slot])[slot]
    r.audit()


def test_a_saved_secret_is_checked_when_loaded() -> None:
    with pytest.raises(ValueError):
        RoundSecret.from_bytes(b"\xc1")
    with pytest.raises(ValueError):
        RoundSecret.from_bytes(msgpack.packb({"v": 99}))


def test_a_participant_never_shuffles_one_epoch_twice_over_different_decks() -> None:
    r = SimRound(2, 12)
    ep = Epoch.of_cards(r.keys, 0, r.codec, r.pids)
    r.parts[0].add_epoch(ep)
    first = r.parts[0].shuffle(0)
    assert r.parts[0].shuffle(0).deck == first.deck  # the same deck again: the same pass (a restart)
    saved = RoundSecret.from_bytes(r.secrets[0].to_bytes())
    assert saved.passes == r.secrets[0].passes
    # A relay shows the restarted participant another history for the same epoch: it refuses.
    other = Epoch(r.keys, 0, list(reversed(ep.input)), r.pids, r.codec)
    again = Participant(saved, r.keys, r.identities[0])
    again.add_epoch(other)
    with pytest.raises(Fault, match="already shuffled"):
        again.shuffle(0)


def test_the_wire_forms_round_trip() -> None:
    r = SimRound(2, 12)
    ep = r.epoch()
    for p in ep.passes:
        assert Pass.from_wire(msgpack.unpackb(msgpack.packb(p.to_wire())), ep.n) == p
    a = r.secrets[0].announce()
    assert KeyAnnouncement.from_wire(msgpack.unpackb(msgpack.packb(a.to_wire()))) == a
    env = r.parts[0].share_with(1, [(0, 3)])
    assert Envelope.from_wire(msgpack.unpackb(msgpack.packb(env.to_wire()))) == env
    rv = r.secrets[1].reveal()
    assert Reveal.from_wire(msgpack.unpackb(msgpack.packb(rv.to_wire()))) == rv
    assert Epoch.from_wire(r.keys, r.codec, msgpack.unpackb(msgpack.packb(ep.to_wire()))).final == ep.final
    with pytest.raises(Fault):
        Pass.from_wire({"kind": "mask", "by": 0, "deck": b"x" * 63}, ep.n)
    with pytest.raises(Fault):
        Pass.from_wire({"kind": "lock", "by": 0, "deck": b"x" * 32 * ep.n}, ep.n)
    with pytest.raises(Fault):
        Epoch.from_wire(r.keys, r.codec, {"e": 0})
    with pytest.raises(Fault):
        open_public(ep, 0, [[0, 0, 1]])


def test_sealed_cards_put_back_into_a_pile_are_re_keyed_and_shuffled_with_public_ones() -> None:
    r = SimRound(3, 30)
    ep = r.epoch()
    held = r.deal(0, r.take(0, 2))
    start = r.turn_up(r.take(0)[0])
    # The starting card may not start: it goes back, and the rest of the pile (sealed) is shuffled with it;
    # player 0 also lays its two cards face down into the pile (a Mulligan).
    rest = [(0, s) for s in range(r.next_slot[0], ep.n)] + list(held)
    ep1 = r.epoch(ids=[start], sealed_in=rest)
    assert ep1.kinds == ["rekey", "mask", "lock"]
    slot = r.take(ep1.number)[0]
    card = r.deal(1, [slot])[slot]
    result = r.audit()
    assert result.cards[1][slot[1]] == card
    assert sorted(result.cards[1]) == sorted([result.cards[0][s] for s in range(3, 30)] + list(held.values())
                                             + [start])


def test_a_share_is_bound_to_its_slot_and_epoch() -> None:
    r = SimRound(2, 20)
    r.epoch()
    r.epoch()
    k = r.parts[1].key(0, 2)
    with pytest.raises(Fault) as caught:  # slot 2's key passed off as slot 3's, or as epoch 1's slot 2
        open_public(r.epochs[0], 3, [share_item(0, 3, 1, k)] + r.parts[0].public_shares([(0, 3)]))
    assert caught.value.code == "share" and caught.value.culprit == 1
    with pytest.raises(Fault) as caught:
        open_public(r.epochs[1], 2, [share_item(1, 2, 1, k)] + r.parts[0].public_shares([(1, 2)]))
    assert caught.value.code == "share"


def test_a_public_opening_tries_the_keys_together_and_names_a_bad_one_when_they_fail() -> None:
    """The keys of a card shown are tried together first: keys with the right product open it to its
    own card (never to another: that needs a logarithm nobody knows); keys that open it to no card
    are then checked one by one, and the bad one's author is named."""
    r = SimRound(3, 20)
    ep = r.epoch()
    shares = [it for p in r.parts for it in p.public_shares([(0, 4)])]
    card = open_public(ep, 4, shares)
    c = g.random_scalar()
    moved = [share_item(0, 4, 0, g.smul(shares[0][3], c)), share_item(0, 4, 1, g.smul(shares[1][3], g.sinv(c))),
             shares[2]]
    assert open_public(ep, 4, moved) == card  # the same product: the same card
    bad = [shares[0], share_item(0, 4, 1, g.smul(shares[1][3], c)), shares[2]]
    with pytest.raises(Fault) as caught:
        open_public(ep, 4, bad)
    assert caught.value.code == "share" and caught.value.culprit == 1
    with pytest.raises(Fault) as caught:  # a zero key: no product to try, the same answer
        open_public(ep, 4, [shares[0], share_item(0, 4, 1, bytes(32)), shares[2]])
    assert caught.value.code == "share" and caught.value.culprit == 1


# -- cheating doubles ---------------------------------------------------------------------------
def test_a_rogue_key_without_its_logarithm_is_refused_at_once() -> None:
    game = secrets.token_bytes(16)
    ids = [Identity.generate() for _ in range(3)]
    secs = [RoundSecret.fresh(game, 0, p, ids[p].public) for p in range(3)]
    honest = [s.announce() for s in secs[:2]]
    rogue_X = g.sub(g.sub(g.base(g.random_scalar()), honest[0].X), honest[1].X)
    a = secs[2].announce()
    with pytest.raises(Fault) as caught:
        RoundKeys(game, 0, honest + [KeyAnnouncement(2, a.identity, rogue_X, a.box, a.proof, a.pub)])
    assert caught.value.code == "key" and caught.value.culprit == 2
    with pytest.raises(Fault) as caught:  # a key with a torsion mark is refused as a point
        RoundKeys(game, 0, honest + [KeyAnnouncement(2, a.identity, g.add(a.X, T8), a.box, a.proof, a.pub)])
    assert caught.value.code == "point" and caught.value.culprit == 2


def _mask_keys(p: Participant, e: int) -> PassKeys:
    return PassKeys(p.secret.pass_seed(e, p.epochs[e].attempt))


def twin(u: bytes) -> bytes:
    """The value ``u`` with a torsion mark: the u-coordinate of ``Q + T8`` for the point ``Q`` of ``u``."""
    x = int.from_bytes(u, "little")
    y = (x - 1) * pow(x + 1, -1, FIELD) % FIELD  # an Ed25519 point of u (its sign does not matter)
    return u_of(g.add(y.to_bytes(32, "little"), T8))


class MaskCheat(Participant):
    """A participant whose mask passes publish :meth:`alter` of the values it made."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        raise NotImplementedError

    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        return Pass("mask", p.author, self.alter(e, list(p.deck))) if p.kind == "mask" else p


class Swapper(MaskCheat):
    """Masks one value as card 0 instead (another copy of card 0 in the deck)."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        deck[0] = xmul(_mask_keys(self, e).e, self.epochs[e].codec.encode(0))
        return deck


class OrderFixer(MaskCheat):
    """Tries ElGamal's weakness: throws the deck away and masks every card afresh in the order it wants.
    Without the earlier participants' keys its values are no masked cards: none opens to a card."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        ek = _mask_keys(self, e).e
        return [xmul(ek, self.epochs[e].codec.encode(i)) for i in self.epochs[e].codec.ids]


class QuietSwapper(MaskCheat):
    """Spoils the first and the last value of its mask pass (each multiplied by a scalar of its own)."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        deck[0], deck[-1] = xmul(g.random_scalar(), deck[0]), xmul(g.random_scalar(), deck[-1])
        return deck


class KnowingSwapper(MaskCheat):
    """The first to mask a reshuffle sees the open cards: it turns the epoch's second card into card 0
    (a card of the deck, held elsewhere)."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        ep = self.epochs[e]
        keys = _mask_keys(self, e)
        pi = keys.pi(ep.n)
        where = {ep.codec.ids[pi[k]]: k for k in range(ep.n)}
        deck[where[ep.codec.ids[1]]] = xmul(keys.e, ep.codec.points[0])
        return deck


class LockCopier(Participant):
    """The first to lock puts slot 1's value, under slot 0's key, into slot 0, so slot 0 opens to slot 1's
    card (a later locker could not: the earlier lockers' keys differ from slot to slot). A lock pass has no
    proof (a key per slot), so only the audit, or seeing one card twice, tells."""

    copied: tuple[int, ...] = ()
    """The epochs it copied a card in (as their first locker)."""

    def shuffle(self, e: int) -> Pass:
        first = not any(q.kind == "lock" for q in self._epoch(e).passes)
        p = super().shuffle(e)
        if p.kind != "lock" or not first:  # later, the copy would open to no card (LockSpoiler's case)
            return p
        self.copied += (e,)
        keys = _mask_keys(self, e)
        deck = list(p.deck)
        deck[0] = xmul(g.smul(keys.k(0), g.sinv(keys.k(1))), deck[1])
        return Pass("lock", p.author, deck, K=p.K)


class Marker(MaskCheat):
    """Puts a torsion mark on one value of its mask pass (the same card, another value)."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        deck[3] = twin(deck[3])
        return deck


class TwinMaker(MaskCheat):
    """Copies a card as its torsion-marked twin, a value unlike the original, to pass the check for
    repeated values."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        deck[4] = twin(deck[3])
        return deck


class SmallOrder(MaskCheat):
    """Puts a value of small order (u = 0, a point of order 2) in its mask pass."""

    def alter(self, e: int, deck: list[bytes]) -> list[bytes]:
        return [bytes(32)] + deck[1:]


@pytest.mark.parametrize("cheat", [1, 3])
def test_a_substituted_card_opens_to_no_card_and_the_audit_names_it(cheat: int) -> None:
    # No pass carries a proof: the table takes the pass; the slot it spoilt opens to no card (its value
    # lacks the masks of the participants before the cheat), and the audit names the pass.
    r = SimRound(4, 40, cheats={cheat: Swapper})
    ep = r.epoch()
    assert ep.done
    opened, spoilt = [], []
    for s in range(ep.n):
        try:
            opened.append(r.turn_up((ep.number, s)))
        except Fault as f:
            spoilt.append(f.code)
    assert spoilt == ["card"] and len(set(opened)) == 39  # one slot opens to no card, the rest to the others
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == cheat
    assert "added a non-card; lost card " in caught.value.reason


def test_a_deck_masked_afresh_in_a_chosen_order_opens_to_no_card_and_is_named() -> None:
    # The privacy ElGamal loses to this double: here its author knows an order of values that are
    # no cards, and the first card dealt from them shows it.
    r = SimRound(3, 30, cheats={2: OrderFixer})
    ep = r.epoch()
    with pytest.raises(Fault) as caught:
        r.deal(0, r.take(ep.number))
    assert caught.value.code == "card"
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 2


def test_a_spoilt_value_is_caught_at_the_audit_and_named() -> None:
    r = SimRound(4, 40, cheats={2: QuietSwapper})
    assert r.epoch().done  # every check at the table passed
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 2
    assert "added a non-card x2" in caught.value.reason


def test_a_copy_of_a_card_in_the_deck_is_caught_at_once() -> None:
    # Masking is deterministic: the first masker's copy of card 0 is the very value card 0 masks to.
    r = SimRound(3, 30, cheats={0: KnowingSwapper})
    with pytest.raises(Fault, match="the same value twice") as caught:
        r.epoch()
    assert caught.value.code == "pass" and caught.value.culprit == 0


def test_a_chosen_card_slipped_into_a_reshuffle_is_named_at_the_audit() -> None:
    r = SimRound(3, 30, cheats={0: KnowingSwapper})
    r.parts[0].__class__ = Participant  # honest for the deal
    r.epoch()
    r.parts[0].__class__ = KnowingSwapper
    r.epoch(ids=list(range(5, 15)))  # the discards; card 0 is elsewhere
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 0
    assert caught.value.reason.endswith("added card 0; lost card 6")


def test_a_spoilt_slot_is_caught_when_it_is_opened() -> None:
    r = SimRound(2, 20, cheats={1: QuietSwapper})
    ep = r.epoch()
    # Nobody masks after participant 1, so its spoilt values sit in final slots 0 and n-1.
    with pytest.raises(Fault) as caught:
        r.turn_up((ep.number, ep.n - 1))
    assert caught.value.code == "card"
    with pytest.raises(Fault) as caught:
        r.deal(0, [(ep.number, 0)])
    assert caught.value.code == "card"


def test_a_card_copied_in_a_lock_pass_is_named_at_the_audit() -> None:
    r = SimRound(3, 30, cheats={0: LockCopier})
    ep = r.epoch()
    a, b = r.turn_up((ep.number, 0)), r.turn_up((ep.number, 1))
    assert a == b  # the copy opens; a card seen twice is noticed by whoever sees both
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 0
    assert f"added card {a}; lost card " in caught.value.reason


class RekeyCopier(Participant):
    """Copies the first value of its re-key pass over the second (the last to re-key: the first masker
    receives the copy as it is)."""

    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        return Pass("rekey", p.author, [p.deck[0], p.deck[0], *p.deck[2:]]) if p.kind == "rekey" else p


@pytest.mark.parametrize("cheat, copier", [(0, LockCopier), (2, RekeyCopier)])
def test_one_card_twice_in_a_deck_to_shuffle_voids_the_round_and_the_audit_names_who_copied(
        cheat: int, copier: type) -> None:
    # Two sealed slots holding one card come back into a pile: after the re-key round they are one
    # value, and the first masker would publish a pass holding it twice. It says so instead, naming
    # nobody (it cannot tell an earlier lock pass's copy from a re-keyer's), and the passes made
    # again, those of the epoch still being shuffled included, name the copier.
    r = SimRound(3, 30, cheats={cheat: copier})
    ep = r.epoch()
    if cheat == 0:
        assert r.turn_up((ep.number, 0)) == r.turn_up((ep.number, 1))  # the lock pass's copy opens
    with pytest.raises(Fault) as caught:
        r.epoch(ids=list(range(10, 20)), sealed_in=[(ep.number, 2), (ep.number, 3)] if cheat else
                [(ep.number, 0), (ep.number, 1)])
    assert caught.value.code == "card" and caught.value.culprit is None
    with pytest.raises(Fault) as caught:
        audit_round(r.keys, r.epochs, r.reveals(), r.envelopes, unfinished=True)
    assert (caught.value.code, caught.value.culprit) == ("substitution", cheat), caught.value
    if cheat == 2:  # the copy is in the epoch still being shuffled: a round end's audit would not reach it
        with pytest.raises(Fault, match="never finished"):
            r.audit()


def test_a_torsion_mark_cannot_be_followed_and_is_named_at_the_audit() -> None:
    r = SimRound(4, 40, cheats={1: Marker})
    ep = r.epoch(points=False)
    # The next multiplication (by a multiple of 8) clears the mark: the honest passes' values are
    # those of an honest round, and every slot opens to its card.
    assert sorted(r.turn_up((ep.number, s)) for s in range(ep.n)) == list(range(40))
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 1
    assert "it kept the cards" in caught.value.reason


def test_a_card_copied_as_its_marked_twin_is_named_by_the_next_masker() -> None:
    # The twin passes the check for repeated values; the next masker's own pass would hold the card
    # twice, so it names the pass it worked on rather than publish it.
    r = SimRound(4, 40, cheats={1: TwinMaker})
    with pytest.raises(Fault) as caught:
        r.epoch(points=False)
    assert caught.value.code == "pass" and caught.value.culprit == 1


def test_a_value_of_small_order_is_refused_by_the_next_pass_and_named() -> None:
    r = SimRound(4, 40, cheats={1: SmallOrder})
    with pytest.raises(Fault) as caught:
        r.epoch(points=False)
    assert caught.value.code == "point" and caught.value.culprit == 1
    r2 = SimRound(4, 40, cheats={1: SmallOrder})
    with pytest.raises(Fault) as caught:  # checked as it arrives, when asked
        r2.epoch()
    assert caught.value.code == "point" and caught.value.culprit == 1


def test_a_pass_out_of_turn_of_the_wrong_kind_or_size_is_refused() -> None:
    r = SimRound(3, 20)
    ep = Epoch.of_cards(r.keys, 0, r.codec, r.pids)
    for p in r.parts:
        p.add_epoch(ep)
    p0 = r.parts[0].shuffle(0)
    for bad in (Pass("mask", 1, p0.deck), Pass("lock", 0, p0.deck, K=p0.deck), Pass("mask", 0, p0.deck[:-1]),
                Pass("mask", 0, p0.deck[:-1] + p0.deck[:1])):
        with pytest.raises(Fault) as caught:
            ep.add_pass(bad)
        assert caught.value.code == "pass"
    wire = p0.to_wire()
    wire["deck"] = wire["deck"][:-32] + FIELD.to_bytes(32, "little")  # 0 spelt as p: not canonical
    with pytest.raises(Fault) as caught:
        Pass.from_wire(wire, ep.n)
    assert caught.value.code == "point" and caught.value.culprit == 0
    ep.add_pass(p0)


class BadSharer(Participant):
    """Sends a slot key that is not its own."""

    def key(self, e: int, slot: int) -> bytes:
        return g.random_scalar()


class Forwarder(Participant):
    """Hands a card over with a key it made up for another participant."""

    def hand_over(self, to: int, slots):  # type: ignore[no-untyped-def]
        items = [share_item(e, s, self.pid, self.key(e, s)) for e, s in slots]
        items += [share_item(e, s, a, g.random_scalar()) for e, s in slots for a in self.received[(e, s)] if a != to]
        return seal(self.signer, self.keys, self.pid, to, items)


def _bad(r: SimRound):  # type: ignore[no-untyped-def]
    return lambda it: not r.epochs[it[0]].check_share(it[1], it[2], it[3])


def test_a_bad_share_is_caught_at_once_and_the_accusation_is_checked_by_everyone() -> None:
    """Caught as the card opens (every key in: tried together first, then each against its
    commitment), naming the sender of the bad one, whichever envelope came last."""
    r = SimRound(4, 40, cheats={3: BadSharer})
    ep = r.epoch()
    env = r.parts[3].share_with(0, [(ep.number, 0)])
    assert r.parts[0].receive(env) == []  # one key of three: nothing opens yet
    assert r.parts[0].receive(r.parts[1].share_with(0, [(ep.number, 0)])) == []
    with pytest.raises(Fault) as caught:
        r.parts[0].receive(r.parts[2].share_with(0, [(ep.number, 0)]))
    assert caught.value.code == "share" and caught.value.culprit == 3
    assert r.parts[0].bad_envelope == env  # the envelope to show everyone
    # Player 0 publishes the opened body and signature; anyone checks them.
    body, sig = unseal(r.keys, r.secrets[0].box_public, r.secrets[0].box_secret, env)
    fault = verify_accusation(r.keys, 3, body, sig, _bad(r))
    assert fault is not None and fault.culprit == 3
    good = r.parts[1].share_with(0, [(ep.number, 0)])
    body, sig = unseal(r.keys, r.secrets[0].box_public, r.secrets[0].box_secret, good)
    assert verify_accusation(r.keys, 1, body, sig, _bad(r)) is None  # nothing to show against an honest one
    with pytest.raises(Fault) as caught:
        open_public(ep, 1, [it for p in r.parts for it in p.public_shares([(0, 1)])])
    assert caught.value.code == "share" and caught.value.culprit == 3


def test_a_card_handed_over_with_a_forged_key_is_caught_and_the_giver_named() -> None:
    r = SimRound(3, 30, cheats={0: Forwarder})
    ep = r.epoch()
    slot = r.take(ep.number)[0]
    r.deal(0, [slot])
    with pytest.raises(Fault) as caught:
        r.move(0, 1, slot)
    assert caught.value.code == "share" and caught.value.culprit == 0


def test_a_bad_envelope_unnoticed_at_the_table_is_named_at_the_audit() -> None:
    r = SimRound(3, 30, cheats={2: BadSharer})
    ep = r.epoch()
    r.envelopes.append(r.parts[2].share_with(0, [(ep.number, 4)]))  # relayed, never opened at the table
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "share" and caught.value.culprit == 2


def test_a_withheld_or_false_secret_at_round_end_is_named() -> None:
    r = SimRound(4, 40)
    r.epoch()
    reveals = r.reveals()
    with pytest.raises(Fault) as caught:
        r.audit([x for x in reveals if x.pid != 2])
    assert caught.value.code == "withheld" and caught.value.culprit == 2
    with pytest.raises(Fault) as caught:
        r.audit([x if x.pid != 1 else Reveal(1, secrets.token_bytes(32)) for x in reveals])
    assert caught.value.code == "reveal" and caught.value.culprit == 1
    r.audit(reveals)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(min_value=1, max_value=4), cards=st.integers(min_value=2, max_value=14),
       data=st.data())
def test_any_sequence_of_openings_gives_each_card_once(players: int, cards: int, data: st.DataObject) -> None:
    r = SimRound(players, cards)
    ep = r.epoch()
    seen: dict[int, int] = {}
    for s in range(ep.n):
        if players > 1 and data.draw(st.booleans()):
            seen[s] = r.deal(data.draw(st.sampled_from(r.pids)), [(0, s)])[(0, s)]
        else:
            seen[s] = r.turn_up((0, s))
    assert sorted(seen.values()) == list(range(cards))
    assert r.audit().cards[0] == [seen[s] for s in range(ep.n)]
