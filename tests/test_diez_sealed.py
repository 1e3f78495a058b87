"""Diez with sealed cards (issue 16): the mechanisms that used to decide from hidden cards by
themselves, as the drawer's decisions and claims. Diez is not sealable yet (``sealable`` stays
False until every mechanism is); these tests build a sealed Diez through a test-only subclass."""

from __future__ import annotations

import pytest

import core
from core import Action
from core.variants.diez.game import DiezGame


class SealableDiez(DiezGame):
    """Diez with the sealed mode's gate lifted, for scenarios that use only the mechanisms built."""

    sealable = True


def make(hands, draw=(), discard=("R5",), *, sealed=True):
    setup = {"hands": [list(h) for h in hands], "draw": list(draw), "discard": list(discard), "current": 0}
    options = {"uno_calls": False}
    if sealed:
        return SealableDiez(len(hands), seed=0, setup=setup, options=options, sealed=True)
    return core.new_game("diez", len(hands), seed=0, setup=setup, options=options)


def hand(g, p):
    return sorted(str(c) for c in g.hand(p))


def kinds(g, p):
    return [a.kind for a in g.legal_actions(p)]


def card(g, p, text):
    face = core.parse_card(text)
    return next(c.id for c in g.hand(p) if c.face == face)


def test_diez_is_still_refused_sealed():
    with pytest.raises(ValueError, match="cannot be played sealed"):
        core.new_game("diez", 3, seed=0, sealed=True)


def test_a_natural_draw_sealed_goes_card_by_card_each_draw_on_a_claim():
    draw = ["B3", "Y8", "R9", "G2"]
    g = make([["G1"], ["Y1"]], draw)
    g.apply(0, Action("draw"))
    assert g.phase == "drawing" and kinds(g, 0) == ["draw"]  # B3: nothing playable, draw on
    assert g.forced_move() == (0, Action("draw"))
    g.apply(0, Action("draw"))
    assert kinds(g, 0) == ["draw"]
    g.apply(0, Action("draw"))  # R9 comes: play it or keep it
    assert set(kinds(g, 0)) == {"play", "pass"} and g.forced_move() is None
    assert [c.words for c in g.claims] == ["holds nothing playable"] * 2
    assert all(c.seat == 0 and c.decision == "drawing" for c in g.claims)
    g.apply(0, Action("play", card(g, 0, "R9")))
    full = make([["G1"], ["Y1"]], draw, sealed=False)
    full.apply(0, Action("draw"))
    full.apply(0, Action("play", card(full, 0, "R9")))
    assert hand(g, 0) == hand(full, 0) and g.current == full.current == 1


def test_a_bomb_drawn_naturally_is_called_then_three_cards_one_at_a_time():
    draw = ["B3", "WB", "G4", "G5", "G6", "G7"]
    g = make([["G1"], ["Y1"]], draw)
    g.apply(0, Action("draw"))
    g.apply(0, Action("draw"))
    assert kinds(g, 0) == ["bomb"]  # neither played nor kept before its three cards
    events = g.apply(0, Action("bomb"))
    assert "bomb" in [e.kind for e in events] and g.phase == "drawing"
    assert g.forced_move() == (0, Action("draw"))
    g.apply(0, Action("draw"))
    g.apply(0, Action("draw"))
    assert g.phase == "drawn" and g.drawn == card(g, 0, "WB")
    assert g.claims[-1].words == "drew a Bomb naturally, holding nothing playable"
    full = make([["G1"], ["Y1"]], draw, sealed=False)
    full.apply(0, Action("draw"))
    assert hand(g, 0) == hand(full, 0) == ["B3", "G1", "G4", "G5", "G6", "WB"] and full.phase == "drawn"


def test_a_bomb_drawn_by_choice_is_an_ordinary_card():
    g = make([["R1"], ["Y1"]], ["WB", "G4"])
    g.apply(0, Action("draw"))
    assert "bomb" not in kinds(g, 0) and "pass" in kinds(g, 0) and "play" in kinds(g, 0)


def test_a_needle_drawn_naturally_may_stop_the_draw():
    g = make([["G1"], ["Y1"]], ["BN", "B3", "R2"])
    g.apply(0, Action("draw"))
    assert set(kinds(g, 0)) == {"draw", "stop"}
    events = g.apply(0, Action("stop"))
    assert "needle" in [e.kind for e in events] and g.current == 1 and hand(g, 0) == ["BN", "G1"]
    assert g.claims[-1].words == "drew a Needle"


def test_a_needle_among_a_bombs_three_may_stop_them():
    g = make([["G1"], ["Y1"]], ["WB", "BN", "G5", "G6"])
    g.apply(0, Action("draw"))
    g.apply(0, Action("bomb"))
    assert set(kinds(g, 0)) == {"draw", "stop"}
    g.apply(0, Action("stop"))
    assert g.phase == "drawn" and hand(g, 0) == ["BN", "G1", "WB"]


def test_a_blind_replica_accepts_a_draw_on_as_a_claim_and_the_truth_names_a_false_one():
    g = make([["R1", "G1"], ["Y1"]], ["G4", "B3", "R2"])  # seat 0 holds R1: playable on R5
    g.apply(0, Action("draw"))
    replica = g.blind_copy([1])
    assert "draw" in kinds(replica, 0)  # seat 1 cannot tell: seat 0 may hold nothing playable
    assert "draw" not in kinds(g, 0)
    with pytest.raises(core.FalseClaim):
        g.apply(0, Action("draw"))
    replica.apply(0, Action("draw"))
    g.follow(0, Action("draw"))
    assert [(f.seat, f.words) for f in g.false_claims] == [(0, "holds nothing playable")]
    assert replica.claims[-1].words == "holds nothing playable"
