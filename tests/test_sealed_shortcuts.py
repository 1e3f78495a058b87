"""The sealed deal's shortcuts keep every check: the codec's cached sum, a peer's own mask pass,
pass keys derived once, and the sealed game's quick copy."""

from __future__ import annotations

import random

import pytest
from sealed_support import SimRound
from sealed_table import Table
from test_sealed_group import T8

import core
from core.state import copy
from net.sealed import Epoch, Fault, Pass
from net.sealed import group as g
from net.sealed.masking import PassKeys, mask_context
from net.sealed.proofs import prove_dleq


def test_the_codec_sum_is_the_sum_of_its_cards_points() -> None:
    r = SimRound(3, 40)
    assert r.codec.total == g.total(list(r.codec.points))
    part = r.codec.restrict(range(5, 25))
    assert part.total == g.total([r.codec.points[i] for i in range(5, 25)])


def _epoch(r: SimRound, values: list[bytes]) -> Epoch:
    ep = Epoch(r.keys, len(r.epochs), values, r.pids, r.codec)
    r.epochs.append(ep)
    for p in r.parts:
        p.add_epoch(ep)
    return ep


def test_an_epoch_starts_from_the_cached_sum_only_for_exactly_its_cards() -> None:
    r = SimRound(3, 40)
    cards = list(r.codec.points)
    random.Random(1).shuffle(cards)
    assert _epoch(r, cards).deck_sum() == r.codec.total  # any order
    twice = cards[:-1] + [cards[0]]  # a card copied over another: same size, not the codec's cards
    assert _epoch(r, twice).deck_sum() == g.total(twice) != r.codec.total
    marked = [g.add(cards[0], T8)] + cards[1:]  # a torsion mark is no card: added up, not looked up
    assert _epoch(r, marked).deck_sum() == g.total(marked) != r.codec.total


def test_a_hostile_pass_is_checked_whatever_the_caller_calls_it() -> None:
    """``own`` trusts only the sum its own participant computed; a pass read from the wire has none."""
    r = SimRound(3, 30)
    ep = _epoch(r, [r.codec.encode(i) for i in r.codec.ids])
    p0 = r.parts[0].shuffle(ep.number)
    assert p0.out_sum is not None and Pass.from_wire(p0.to_wire(), ep.n).out_sum is None
    wire = p0.to_wire()
    swapped = list(p0.deck)
    swapped[0] = g.base(g.random_scalar())  # a card replaced: the sum proof fails
    wire["deck"] = b"".join(swapped)
    with pytest.raises(Fault) as caught:
        ep.add_pass(Pass.from_wire(wire, ep.n), own=True)
    assert caught.value.code == "pass" and caught.value.culprit == 0
    # A double that makes its own proof over the substituted deck, claiming a sum: caught all the same.
    keys = PassKeys(r.secrets[0].pass_seed(ep.number, ep.attempt))
    forged_sum = g.total(swapped)
    proof = prove_dleq(mask_context(ep.ctx, 0, 0), keys.e, None, g.base(keys.e), ep.deck_sum(), forged_sum)
    with pytest.raises(Fault) as caught:
        ep.add_pass(Pass("mask", 0, swapped, g.base(keys.e), proof))
    assert caught.value.code == "pass"
    ep.add_pass(p0, own=True)
    assert ep.running_sum == g.total(p0.deck)


def test_a_peers_own_passes_leave_the_sums_the_others_check_against() -> None:
    """One replica takes each participant's own passes unchecked, another checks them all: the
    running sums agree at every step, and a cheat after an own pass is still caught."""
    r = SimRound(4, 40)
    values = [r.codec.encode(i) for i in r.codec.ids]
    mine = _epoch(r, values)
    theirs = Epoch(r.keys, mine.number, values, r.pids, r.codec)
    while not mine.done:
        p = r.parts[mine.next_author].shuffle(mine.number)
        mine.add_pass(p, own=True)
        theirs.add_pass(Pass.from_wire(p.to_wire(), theirs.n))
        assert mine.running_sum == theirs.running_sum
    assert mine.final == theirs.final


def test_pass_keys_derive_each_key_once_and_the_same() -> None:
    r = SimRound(2, 20)
    ep = _epoch(r, [r.codec.encode(i) for i in r.codec.ids])
    fresh = PassKeys(r.secrets[1].pass_seed(ep.number, 0))
    assert r.parts[1].key(ep.number, 3) == fresh.k(3)
    assert r.parts[1]._keys(ep.number) is r.parts[1]._keys(ep.number)
    assert (fresh.e, fresh.rho) == (PassKeys(fresh.seed).e, PassKeys(fresh.seed).rho)


def test_a_sealed_games_quick_copy_is_its_save_and_its_own() -> None:
    table = Table("classic", 3, 4, {"draw_until_playable": True})
    for _ in range(20):
        table.step(*table.pick())
    for game in (table.truth, *table.games().values()):
        twin = copy(game, core.BlindSource())
        assert twin.to_dict() == game.to_dict()
        assert twin.inconsistencies() == []
        hidden = [c for c in twin.all_cards() if core.is_sealed(c)]
        if hidden:  # the copy learns a face: the original does not
            face = table.truth.cards[hidden[0].id].face
            twin.learn(hidden[0].id, face)
            assert core.is_sealed(game.cards[hidden[0].id])
            assert twin.to_dict() != game.to_dict()


def test_a_batch_over_threads_keeps_its_order_and_its_first_error() -> None:
    k = g.random_scalar()
    values = [g.base(g.random_scalar()) for _ in range(g.PARALLEL_MIN * 3)]
    assert g.each(lambda v: g.mul(k, v), values) == [g.mul(k, v) for v in values]
    marked = list(values)
    marked[-1] = g.add(values[-1], T8)  # in the last chunk, another thread's
    with pytest.raises(g.BadPoint):
        g.each(lambda v: g.mul(k, v), marked)
    assert g.each(lambda v: g.mul(k, v), values[:3]) == [g.mul(k, v) for v in values[:3]]
