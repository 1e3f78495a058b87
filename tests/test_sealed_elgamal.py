"""The scheme measured and not chosen, ElGamal under a joint key: it works, and where it falls short.

A whole round plays and audits; its checks catch what they can at once; and
the double that decided the choice: the last participant to shuffle can throw
the deck away and encrypt every card afresh in an order it knows, and every
check at the table passes (only the round's audit catches it).
"""

from __future__ import annotations

import pytest
from sealed_support import SimRound, play_round
from test_sealed_group import T8

from net.sealed import Fault, RoundSecret, verify_accusation
from net.sealed import group as g
from net.sealed.elgamal import Deck, Epoch, Participant, Pass, Share
from net.sealed.elgamal.participant import wire_shares
from net.sealed.elgamal.scheme import check_share, pass_context, pass_permutation
from net.sealed.envelope import unseal
from net.sealed.proofs import prove_dleq


def test_a_whole_round_plays_and_audits() -> None:
    play_round(SimRound(4, 108, elgamal=True))


def test_re_randomisers_made_ahead_are_the_pass_and_the_pass_is_remade_the_same() -> None:
    r = SimRound(2, 20, elgamal=True)
    for p in r.parts:
        p.prepare(0, 20)
    made = dict(r.parts[0].pads)
    ep = r.epoch()
    assert all(p.pads == {} for p in r.parts)
    pi = pass_permutation(r.secrets[0].pass_seed(0, 0), 20)
    assert ep.passes[0].deck[7][0] == g.add(ep.input[pi[7]][0], made[(0, 0)][7][0])
    saved = RoundSecret.from_bytes(r.secrets[0].to_bytes())
    assert saved.passes == r.secrets[0].passes
    other = Epoch(r.keys, 0, Deck(list(reversed(ep.input.cts))), r.pids, r.codec)
    again = Participant(saved, r.keys, r.identities[0])
    again.add_epoch(other)
    with pytest.raises(Fault, match="already shuffled"):
        again.shuffle(0)


class Swapper(Participant):
    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        ep = self.epochs[e]
        r = g.random_scalar()
        forged = (g.base(r), g.add(ep.codec.encode(ep.codec.ids[0]), g.mul(r, self.keys.joint)))
        return Pass(p.author, Deck([forged] + p.deck.cts[1:]), p.proof)


class QuietSwapper(Participant):
    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        delta = g.base(g.random_scalar())
        cts = list(p.deck.cts)
        cts[0], cts[-1] = (cts[0][0], g.add(cts[0][1], delta)), (cts[-1][0], g.sub(cts[-1][1], delta))
        return Pass(p.author, Deck(cts), p.proof)


class Marker(Participant):
    def shuffle(self, e: int) -> Pass:
        p = super().shuffle(e)
        cts = list(p.deck.cts)
        cts[3], cts[4] = (cts[3][0], g.add(cts[3][1], T8)), (cts[4][0], g.sub(cts[4][1], T8))
        return Pass(p.author, Deck(cts), p.proof)


class OrderFixer(Participant):
    """Encrypts every card afresh in id order and fixes the last ciphertext so that the sums match."""

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
        proof = prove_dleq(pass_context(ep.ctx, len(ep.passes), self.pid), R, None, g.base(R), Y, g.mul(R, Y))
        return Pass(self.pid, Deck(cts + [(lastA, lastB)]), proof)


class BadSharer(Participant):
    def own_share(self, e: int, slot: int) -> Share:
        s = super().own_share(e, slot)
        return Share(s.slot, s.author, g.add(s.D, g.G), s.proof)


def test_the_last_shuffler_can_fix_the_order_and_pass_every_check_but_the_audit() -> None:
    r = SimRound(3, 30, cheats={2: OrderFixer}, elgamal=True)
    r.epoch()  # accepted: sums, points, sizes all good
    assert [r.turn_up((0, s)) for s in range(5)] == [0, 1, 2, 3, 4]  # the order it chose
    with pytest.raises(Fault) as caught:
        r.audit()
    assert caught.value.code == "substitution" and caught.value.culprit == 2
    assert "chose the order" in caught.value.reason


def test_what_its_checks_catch_at_once_and_at_the_audit() -> None:
    with pytest.raises(Fault) as caught:
        SimRound(4, 40, cheats={1: Swapper}, elgamal=True).epoch()
    assert (caught.value.code, caught.value.culprit) == ("pass", 1)
    with pytest.raises(Fault) as caught:
        SimRound(4, 40, cheats={1: Marker}, elgamal=True).epoch()
    assert (caught.value.code, caught.value.culprit) == ("point", 1)
    r = SimRound(4, 40, cheats={2: QuietSwapper}, elgamal=True)
    r.epoch()
    with pytest.raises(Fault) as caught:
        r.audit()
    assert (caught.value.code, caught.value.culprit) == ("substitution", 2)


def test_a_bad_share_fails_its_proof_at_once_and_the_accusation_holds() -> None:
    r = SimRound(3, 30, cheats={2: BadSharer}, elgamal=True)
    ep = r.epoch()
    env = r.parts[2].share_with(0, [(ep.number, 0)])
    with pytest.raises(Fault) as caught:
        r.parts[0].receive(env)
    assert (caught.value.code, caught.value.culprit) == ("share", 2)
    body, sig = unseal(r.keys, r.secrets[0].box_public, r.secrets[0].box_secret, env)

    def bad(item: list) -> bool:  # type: ignore[type-arg]
        s = Share.from_wire(item[1:])
        return not check_share(ep.ctx, r.keys.X[s.author], ep.ct(s.slot), s)

    fault = verify_accusation(r.keys, 2, body, sig, bad)
    assert fault is not None and fault.culprit == 2
    assert len(wire_shares(body, 2, r.keys)) == 1
    r.envelopes.append(env)
    with pytest.raises(Fault) as caught:
        r.audit()
    assert (caught.value.code, caught.value.culprit) == ("share", 2)
