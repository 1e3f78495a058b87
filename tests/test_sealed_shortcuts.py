"""The sealed deal's shortcuts keep every check: pass keys derived once, and the sealed game's quick copy."""

from __future__ import annotations

import pytest
from sealed_support import SimRound
from sealed_table import Table
from test_sealed_group import T8

import core
from core.state import copy
from net.sealed import Epoch
from net.sealed import group as g
from net.sealed.masking import PassKeys
from net.sealed.xline import clamped


def _epoch(r: SimRound, values: list[bytes]) -> Epoch:
    ep = Epoch(r.keys, len(r.epochs), values, r.pids, r.codec)
    r.epochs.append(ep)
    for p in r.parts:
        p.add_epoch(ep)
    return ep


def test_pass_keys_derive_each_key_once_and_the_same() -> None:
    r = SimRound(2, 20)
    ep = _epoch(r, [r.codec.encode(i) for i in r.codec.ids])
    fresh = PassKeys(r.secrets[1].pass_seed(ep.number, 0))
    assert r.parts[1].key(ep.number, 3) == fresh.k(3)
    assert r.parts[1]._keys(ep.number) is r.parts[1]._keys(ep.number)
    assert (fresh.e, fresh.rho) == (PassKeys(fresh.seed).e, PassKeys(fresh.seed).rho)
    # What a pass multiplies a whole deck by takes X25519 one step: e, rho, and each slot's k / e.
    for s in (fresh.e, fresh.rho, *(fresh.m(i) for i in range(20))):
        assert clamped(int.from_bytes(s, "little")) is not None
    assert all(fresh.k(i) == g.smul(fresh.m(i), fresh.e) == fresh.k(i) for i in range(20))
    assert fresh.lock_factor(3, False) == fresh.m(3)
    assert g.smul(fresh.lock_factor(3, True), g.smul(fresh.e, fresh.rho)) == fresh.k(3)


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
