"""Whole rounds of the sealed deal in one process, honest and with cheating participants.

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

from net.identity import Identity
from net.sealed import (Deck, Envelope, Epoch, Fault, KeyAnnouncement, Participant, Pass, Reveal, RoundKeys,
                        RoundSecret, Share, open_public, verify_accusation)
from net.sealed import group as g
from net.sealed.elgamal import make_share, pass_permutation
from net.sealed.envelope import unseal
from net.sealed.keys import round_context

from sealed_support import SimRound
from test_sealed_group import T8


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
    top = r.take(0)[0]
    first = r.turn_up(top)
    assert first not in dealt
    drawn = r.take(0)[0]
    got = r.deal(1, [drawn])
    assert got[drawn] not in dealt + [first]
    played = hands[0][0]
    assert r.show(0, played) == r.parts[0].cards[played]
    # Player 0's second card passes to player 1 (No Mercy's 7, Diez's Trade...): only player 0 helps.
    moving = hands[0][1]
    assert r.move(0, 1 % n_players if n_players > 1 else 0, moving) == r.parts[0].cards[moving]
    # The discards are reshuffled into a new pile (their faces are public).
    discards = [first, r.public[played]]
    ep1 = r.epoch(ids=discards)
    again = r.take(ep1.number)[0]
    assert r.deal(n_players - 1, [again])[again] in discards
    result = r.audit()
    for p in r.parts:
        for (e, s), c in p.cards.items():
            assert result.cards[e][s] == c
    assert sorted(result.cards[0]) == list(range(r.codec.n))
    assert sorted(result.cards[1]) == sorted(discards)


@pytest.mark.parametrize("players,cards", [(2, 108), (4, 108), (4, 168), (10, 108), (10, 170)])
def test_a_whole_round_deals_opens_moves_reshuffles_and_audits(players: int, cards: int) -> None:
    play_round(SimRound(players, cards))


def test_the_relay_cannot_read_what_it_carries() -> None:
    r = SimRound(3, 30)
    ep = r.epoch()
    env = r.parts[1].share_with(0, [(ep.number, 0)])
    # Only participant 0's box key opens it; participant 2's (or the host's) does not.
    with pytest.raises(Fault) as caught:
        unseal(r.keys, r.secrets[2].box_public, r.secrets[2].box_secret, env)
    assert caught.value.code == "envelope"
    body, _sig = unseal(r.keys, r.secrets[0].box_public, r.secrets[0].box_secret, env)
    assert msgpack.unpackb(body)["to"] == 0
    # A card needs every participant's share: two of three open nothing.
    shares = [s for p in r.parts[:2] for _, s in p.public_shares([(0, 5)])]
    with pytest.raises(Fault, match="lacks the shares"):
        open_public(ep, 5, shares)


def test_an_envelope_for_someone_else_or_altered_on_the_way_is_refused() -> None:
    r = SimRound(3, 30)
    ep = r.epoch()
    env = r.parts[1].share_with(0, [(ep.number, 0)])
    with pytest.raises(Fault) as caught:
        r.parts[2].receive(Envelope(env.sender, 2, env.box))
    assert caught.value.code == "envelope"
    flipped = env.box[:-1] + bytes([env.box[-1] ^ 1])
    with pytest.raises(Fault) as caught:
        r.parts[0].receive(Envelope(1, 0, flipped))
    assert caught.value.code == "envelope" and caught.value.culprit == 1
    # Sealed by 1 but claimed to come from 2: the signature inside is 1's, not 2's.
    with pytest.raises(Fault) as caught:
        r.parts[0].receive(Envelope(2, 0, env.box))
    assert caught.value.code == "envelope"


def test_a_participant_restarts_from_its_saved_secret_and_the_log() -> None:
    r = SimRound(4, 40)
    ep = r.epoch()
    hands = r.deal_round(ep.number, 3)
    saved = r.secrets[2].to_bytes()
    before = dict(r.parts[2].cards)
    # The process dies; a new one loads the secret and reads the log again.
    secret = RoundSecret.from_bytes(saved)
    reborn = Participant(secret, r.keys, r.identities[2])
    reborn.add_epoch(Epoch.from_wire(r.keys, r.codec, ep.to_wire()))
    for env in r.envelopes:
        if env.to == 2:
            reborn.receive(env)
    assert reborn.cards == before and set(before) == set(hands[2])
    # It goes on: its shares still open cards for the others, and it opens new ones.
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


def test_the_wire_forms_round_trip() -> None:
    r = SimRound(2, 12)
    ep = r.epoch()
    p = ep.passes[0]
    assert Pass.from_wire(msgpack.unpackb(msgpack.packb(p.to_wire())), ep.n) == p
    a = r.secrets[0].announce()
    assert KeyAnnouncement.from_wire(msgpack.unpackb(msgpack.packb(a.to_wire()))) == a
    s = r.parts[0].own_share(0, 3)
    assert Share.from_wire(msgpack.unpackb(msgpack.packb(s.to_wire()))) == s
    env = r.parts[0].share_with(1, [(0, 3)])
    assert Envelope.from_wire(msgpack.unpackb(msgpack.packb(env.to_wire()))) == env
    rv = r.secrets[1].reveal()
    assert Reveal.from_wire(msgpack.unpackb(msgpack.packb(rv.to_wire()))) == rv
    again = Epoch.from_wire(r.keys, r.codec, msgpack.unpackb(msgpack.packb(ep.to_wire())))
    assert again.final == ep.final
    with pytest.raises(Fault):
        Pass.from_wire({"by": 0, "deck": b"x" * 63, "proof": bytes(64)}, ep.n)
    with pytest.raises(Fault):
        Deck.from_bytes(b"x" * 64, 2)


# -- cheating doubles ---------------------------------------------------------------------------
class RogueKey(Participant):
    """Announces ``Z - sum(others)`` so that it alone would know the joint key's secret."""


def test_a_rogue_key_without_its_logarithm_is_refused_at_once() -> None:
    game = secrets.token_bytes(16)
    ids = [Identity.generate() for _ in range(3)]
    secs = [RoundSecret.fresh(game, 0, p, ids[p].public) for p in range(3)]
    honest = [s.announce() for s in secs[:2]]
    z = g.random_scalar()
    rogue_X = g.sub(g.sub(g.base(z), honest[0].X), honest[1].X)
    a = secs[2].announce()
    forged = KeyAnnouncement(2, a.identity, rogue_X, a.box, a.proof)
    with pytest.raises(Fault) as caught:
        RoundKeys(game, 0, honest + [forged])
    assert caught.value.code == "key" and caught.value.culprit == 2
    # A key with a torsion mark is refused as a point.
    marked = KeyAnnouncement(2, a.identity, g.add(a.X, T8), a.box, a.proof)
    with pytest.raises(Fault) as caught:
        RoundKeys(game, 0, honest + [marked])
    assert caught.value.code == "point" and caught.value.culprit == 2


class BlatantSwapper(Participant):
    """Replaces one ciphertext of its pass with a fresh encryption of card 0 (a second copy of it)."""

    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        ep = self.epochs[e]
        r = g.random_scalar()
        forged = (g.base(r), g.add(ep.codec.encode(ep.codec.ids[0]), g.mul(r, self.keys.joint)))
        return Pass(p.author, Deck([forged] + p.deck.cts[1:]), p.proof)


class QuietSwapper(Participant):
    """Turns one slot's card into card 0 and pushes the difference into another slot, so the deck's
    sum (all the pass proof shows) is kept: only the audit, or opening the spoilt slot, finds it."""

    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        ep = self.epochs[e]
        delta = g.sub(ep.codec.encode(ep.codec.ids[0]), ep.codec.encode(ep.codec.ids[1]))
        cts = list(p.deck.cts)
        cts[0] = (cts[0][0], g.add(cts[0][1], delta))
        cts[-1] = (cts[-1][0], g.sub(cts[-1][1], delta))
        return Pass(p.author, Deck(cts), p.proof)


class Marker(Participant):
    """Adds a torsion point to a ciphertext, to follow it through the next honest pass."""

    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        cts = list(p.deck.cts)
        cts[3] = (cts[3][0], g.add(cts[3][1], T8))
        cts[4] = (cts[4][0], g.sub(cts[4][1], T8))  # the marks cancel in the sum: the sum proof holds
        return Pass(p.author, Deck(cts), p.proof)


@pytest.mark.parametrize("cheat", [1, 3])
def test_a_blatant_substitution_is_caught_at_its_pass_and_named(cheat: int) -> None:
    r = SimRound(4, 40, cheats={cheat: BlatantSwapper})
    with pytest.raises(Fault) as caught:
        r.epoch()
    assert caught.value.code == "pass" and caught.value.culprit == cheat


def test_a_sum_keeping_substitution_is_caught_at_the_audit_and_named() -> None:
    r = SimRound(4, 40, cheats={2: QuietSwapper})
    ep = r.epoch()  # every pass proof holds: the two spoilt slots were shuffled on, nobody knows where
    assert ep.done
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 2
    assert "added a non-card x2" in caught.value.reason and "lost" in caught.value.reason


class KnowingSwapper(Participant):
    """The first to shuffle a deal sees the open cards, so it can turn card 1 into a second card 0;
    keeping the sum spoils the slot holding card 2."""

    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        ep = self.epochs[e]
        pi = pass_permutation(self.secret.pass_seed(e, ep.attempt), ep.n)
        where = {ep.codec.ids[pi[k]]: k for k in range(ep.n)}  # the card in each output slot
        delta = g.sub(ep.codec.encode(0), ep.codec.encode(1))
        cts = list(p.deck.cts)
        a, b = where[1], where[2]
        cts[a] = (cts[a][0], g.add(cts[a][1], delta))
        cts[b] = (cts[b][0], g.sub(cts[b][1], delta))
        return Pass(p.author, Deck(cts), p.proof)


def test_a_chosen_card_slipped_in_by_the_first_shuffler_is_named_at_the_audit() -> None:
    r = SimRound(3, 30, cheats={0: KnowingSwapper})
    r.epoch()
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 0
    assert caught.value.reason.endswith("added a non-card, card 0; lost card 1, card 2")


def test_a_spoilt_slot_is_caught_when_it_is_opened() -> None:
    r = SimRound(3, 30, cheats={2: QuietSwapper})
    ep = r.epoch()
    # The last participant's tampering sits in final slots 0 and n-1: slot n-1 holds no card.
    with pytest.raises(Fault) as caught:
        r.turn_up((ep.number, ep.n - 1))
    assert caught.value.code == "card"
    with pytest.raises(Fault) as caught:
        r.deal(0, [(ep.number, ep.n - 1)])
    assert caught.value.code == "card"


def test_a_torsion_mark_is_caught_before_the_epoch_is_trusted() -> None:
    r = SimRound(4, 40, cheats={1: Marker})
    with pytest.raises(Fault) as caught:
        r.epoch()
    assert caught.value.code == "point" and caught.value.culprit == 1
    # Published first and checked later (the pipelined order): caught by the check, named the same.
    r2 = SimRound(4, 40, cheats={1: Marker})
    ep = r2.epoch(points=False)
    with pytest.raises(Fault) as caught:
        ep.check_points()
    assert caught.value.code == "point" and caught.value.culprit == 1


def test_re_randomisers_made_ahead_are_used_once() -> None:
    r = SimRound(2, 20)
    for p in r.parts:
        p.prepare(0, 20)
        p.prepare(1, 5)
    made = dict(r.parts[0].pads)
    ep = r.epoch()
    assert all(set(p.pads) == {(1, 0)} for p in r.parts)
    r.epoch()  # makes the 15 it lacks
    assert all(p.pads == {} for p in r.parts)
    # The pass is the one the pads describe: slot k of the output is slot pi[k] of the input plus pad k.
    pi = pass_permutation(r.secrets[0].pass_seed(0, 0), 20)
    assert ep.passes[0].deck[7][0] == g.add(ep.input[pi[7]][0], made[(0, 0)][7][0])
    r.audit()


def test_a_participant_never_shuffles_one_epoch_twice_over_different_decks() -> None:
    r = SimRound(2, 12)
    ep = Epoch(r.keys, 0, Deck.open(r.codec), r.pids, r.codec)
    r.parts[0].add_epoch(ep)
    first = r.parts[0].shuffle(0)
    assert r.parts[0].shuffle(0).deck == first.deck  # the same deck again: the same pass (a restart)
    saved = RoundSecret.from_bytes(r.secrets[0].to_bytes())
    assert saved.passes == r.secrets[0].passes
    # A relay shows the restarted participant another history for the same epoch: it refuses.
    other = Epoch(r.keys, 0, Deck(list(reversed(Deck.open(r.codec).cts))), r.pids, r.codec)
    again = Participant(saved, r.keys, r.identities[0])
    again.add_epoch(other)
    with pytest.raises(Fault, match="already shuffled"):
        again.shuffle(0)


class OrderFixer(Participant):
    """The last to shuffle throws the deck away and encrypts every card afresh in the order it wants
    (card ids ascending), fixing the last slot so that the sums match: every card is there, the sum
    proof holds, every point is good. Only the audit, making the pass again, can tell."""

    def shuffle(self, e: int) -> Pass:
        ep = self.epochs[e]
        Y = self.keys.joint
        sA, sB = ep.current.sums()
        cts = []
        for cid in ep.codec.ids[:-1]:
            r = g.random_scalar()
            cts.append((g.base(r), g.add(ep.codec.encode(cid), g.mul(r, Y))))
        R = g.random_scalar()
        lastA, lastB = g.add(sA, g.base(R)), g.add(sB, g.mul(R, Y))
        for a, b in cts:
            lastA, lastB = g.sub(lastA, a), g.sub(lastB, b)
        cts.append((lastA, lastB))
        from net.sealed.elgamal import pass_context
        from net.sealed.proofs import prove_dleq
        proof = prove_dleq(pass_context(ep.ctx, len(ep.passes), self.pid), R, None, g.base(R), Y, g.mul(R, Y))
        return Pass(self.pid, Deck(cts), proof)


def test_a_last_shuffler_who_fixes_the_order_passes_every_check_but_the_audit() -> None:
    r = SimRound(3, 30, cheats={2: OrderFixer})
    ep = r.epoch()  # accepted: sums, points, sizes all good
    seen = [r.turn_up((0, s)) for s in range(5)]
    assert seen == [0, 1, 2, 3, 4]  # the order it chose
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 2
    assert "chose the order" in caught.value.reason
    assert ep.done


def test_a_pass_out_of_turn_or_of_the_wrong_size_is_refused() -> None:
    r = SimRound(3, 20)
    ep = Epoch(r.keys, 0, Deck.open(r.codec), r.pids, r.codec)
    for p in r.parts:
        p.add_epoch(ep)
    p1 = r.parts[0].shuffle(0)
    with pytest.raises(Fault) as caught:
        ep.add_pass(Pass(1, p1.deck, p1.proof))
    assert caught.value.code == "pass" and caught.value.culprit == 1
    with pytest.raises(Fault) as caught:
        ep.add_pass(Pass(0, Deck(p1.deck.cts[:-1]), p1.proof))
    assert caught.value.code == "pass"
    ep.add_pass(p1)
    # A pass replayed from another epoch (or position) fails its proof: it is bound to both.
    with pytest.raises(Fault) as caught:
        ep.add_pass(Pass(1, p1.deck, p1.proof))
    assert caught.value.code == "pass"


class BadSharer(Participant):
    """Sends a share that is off by a point, with the proof of the true one."""

    def own_share(self, e: int, slot: int) -> Share:
        s = super().own_share(e, slot)
        return Share(s.slot, s.author, g.add(s.D, g.G), s.proof)


class Forwarder(Participant):
    """Hands a card over with a share it made up for another participant (no valid proof possible)."""

    def hand_over(self, to: int, slots):  # type: ignore[no-untyped-def]
        from net.sealed.envelope import seal
        out = []
        for e, s in slots:
            out.append((e, self.own_share(e, s)))
            for a, sh in self.received[(e, s)].items():
                if a != to:
                    out.append((e, Share(sh.slot, sh.author, g.add(sh.D, g.G), sh.proof)))
        return seal(self.signer, self.keys, self.pid, to, out)


def test_a_bad_share_is_caught_at_once_and_the_accusation_is_checked_by_everyone() -> None:
    r = SimRound(4, 40, cheats={3: BadSharer})
    ep = r.epoch()
    env = r.parts[3].share_with(0, [(ep.number, 0)])
    with pytest.raises(Fault) as caught:
        r.parts[0].receive(env)
    assert caught.value.code == "share" and caught.value.culprit == 3
    # Player 0 publishes the opened body and signature; anyone checks them.
    body, sig = unseal(r.keys, r.secrets[0].box_public, r.secrets[0].box_secret, env)
    fault = verify_accusation(r.keys, {ep.number: ep}, 3, body, sig)
    assert fault is not None and fault.culprit == 3
    # An honest envelope gives an accuser nothing to show.
    good = r.parts[1].share_with(0, [(ep.number, 0)])
    body, sig = unseal(r.keys, r.secrets[0].box_public, r.secrets[0].box_secret, good)
    assert verify_accusation(r.keys, {ep.number: ep}, 1, body, sig) is None
    # A public share of the cheat fails in everyone's hands.
    shares = [s for p in r.parts for _, s in p.public_shares([(0, 1)])]
    with pytest.raises(Fault) as caught:
        open_public(ep, 1, shares)
    assert caught.value.code == "share" and caught.value.culprit == 3


def test_a_card_handed_over_with_a_forged_share_is_caught_and_the_giver_named() -> None:
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


def test_a_share_is_bound_to_its_slot_and_epoch() -> None:
    r = SimRound(2, 20)
    ep0 = r.epoch()
    ep1 = r.epoch()
    x, X = r.secrets[1].x, r.secrets[1].X
    # A good share for slot 2, passed off as slot 3's, or as epoch 1's slot 2: both fail.
    s = make_share(ep0.ctx, x, X, 2, ep0.ct(2), 1)
    moved = Share(3, 1, s.D, s.proof)
    with pytest.raises(Fault) as caught:
        open_public(ep0, 3, [moved] + [sh for _, sh in r.parts[0].public_shares([(0, 3)])])
    assert caught.value.code == "share"
    with pytest.raises(Fault) as caught:
        open_public(ep1, 2, [s] + [sh for _, sh in r.parts[0].public_shares([(1, 2)])])
    assert caught.value.code == "share"
    assert round_context(r.game, 0) != round_context(r.game, 1)


def test_sealed_cards_put_back_into_a_pile_are_shuffled_with_public_ones() -> None:
    r = SimRound(3, 30)
    ep = r.epoch()
    r.take(0, 5)
    top = r.take(0)[0]
    start = r.turn_up(top)
    # The starting card may not start: it goes back, and the rest of the pile is shuffled with it.
    rest = [ep.ct(s) for s in range(r.next_slot[0], ep.n)]
    deck = Deck(rest + [(g.IDENTITY, r.codec.encode(start))])
    ep1 = r.epoch(deck)
    slot = r.take(ep1.number)[0]
    card = r.deal(1, [slot])[slot]
    result = r.audit()
    assert result.cards[1][slot[1]] == card
    assert sorted(result.cards[1]) == sorted([result.cards[0][s] for s in range(6, 30)] + [start])


@settings(max_examples=12, deadline=None)
@given(players=st.integers(min_value=1, max_value=4), cards=st.integers(min_value=2, max_value=14),
       data=st.data())
def test_any_sequence_of_openings_gives_each_card_once(players: int, cards: int, data: st.DataObject) -> None:
    r = SimRound(players, cards)
    ep = r.epoch()
    seen: dict[int, int] = {}
    for s in range(ep.n):
        how = data.draw(st.sampled_from(["deal", "public"] if players > 1 else ["public"]))
        if how == "public":
            seen[s] = r.turn_up((0, s))
        else:
            to = data.draw(st.sampled_from(r.pids))
            seen[s] = r.deal(to, [(0, s)])[(0, s)]
    assert sorted(seen.values()) == list(range(cards))
    assert r.audit().cards[0] == [seen[s] for s in range(ep.n)]
