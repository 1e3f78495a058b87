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


def make(hands, draw=(), discard=("R5",), *, sealed=True, tokens=None):
    setup = {"hands": [list(h) for h in hands], "draw": list(draw), "discard": list(discard), "current": 0}
    if tokens is not None:
        setup["tokens"] = tokens
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


def go_on(g):
    """Carry a sealed forced draw through honestly, never stopping at a Needle (the truth sees
    every card, so what is legal is what is true)."""
    while g.phase == "forced_draw":
        acts = [a for a in g.legal_actions(g.decision.player) if a.kind != "stop"]
        assert len(acts) == 1, acts
        g.apply(g.decision.player, acts[0])


def draw_color(sealed, draw, tokens=None, challenge=False):
    g = make([["WDC", "G1"], ["Y1"], ["B1"]], draw, sealed=sealed, tokens=tokens)
    g.apply(0, Action("play", card(g, 0, "WDC")))
    g.apply(0, Action("color", color="green"))
    g.apply(1, Action("challenge" if challenge else "draw"))
    return g


def test_a_draw_until_a_colour_sealed_is_the_drawers_word_card_by_card():
    draw = ["R1", "Y2", "G7", "B9"]
    g = draw_color(True, draw)
    assert g.phase == "forced_draw" and g.decision.player == 1 and kinds(g, 1) == ["draw"]
    g.apply(1, Action("draw"))
    g.apply(1, Action("draw"))
    assert kinds(g, 1) == ["found"]
    g.apply(1, Action("found"))
    full = draw_color(False, draw)
    assert hand(g, 1) == hand(full, 1) == ["G7", "R1", "Y1", "Y2"] and g.decision.player == full.decision.player == 2
    assert [c.words for c in g.claims] == ["the card drawn is not green"] * 2 + ["the card drawn is green"]


@pytest.mark.parametrize("tokens", [None, [[], ["hex"], []], [[], ["double"], []]])
def test_a_lost_draw_color_challenge_sealed_draws_what_the_full_game_draws(tokens):
    draw = ["G7", "B2", "B3", "B4", "B5", "B6", "B7", "B8"]
    g = make([["WDC", "G1"], ["Y1"], ["B1"]], draw, tokens=tokens)
    g.apply(0, Action("play", card(g, 0, "WDC")))
    g.apply(0, Action("color", color="green"))
    g.apply(1, Action("challenge"))  # innocent: until green, then 2 more (Hex, Double on top)
    g.apply(1, Action("innocent"))  # the challenger was shown G1
    go_on(g)
    full = make([["WDC", "G1"], ["Y1"], ["B1"]], draw, sealed=False, tokens=tokens)
    full.apply(0, Action("play", card(full, 0, "WDC")))
    full.apply(0, Action("color", color="green"))
    full.apply(1, Action("challenge"))
    assert hand(g, 1) == hand(full, 1) and g.decision.player == full.decision.player


def test_a_needle_stops_a_sealed_forced_draw():
    g = make([["R+2", "R1"], ["G1", "G2"], ["Y1"]], ["BN", "G3", "G4"])
    g.apply(0, Action("play", card(g, 0, "R+2")))
    g.apply(1, Action("draw"))
    assert g.phase == "forced_draw" and set(kinds(g, 1)) == {"draw", "stop"}
    g.apply(1, Action("stop"))
    assert hand(g, 1) == ["BN", "G1", "G2"] and g.decision.player == 2
    assert g.claims[-1].words == "drew a Needle"


def test_a_false_colour_claim_is_refused_by_the_truth_and_recorded_when_followed():
    g = draw_color(True, ["G7", "B2"])
    replica = g.blind_copy([2])
    assert set(kinds(replica, 1)) >= {"draw", "found"}  # seat 2 cannot tell
    with pytest.raises(core.FalseClaim):
        g.apply(1, Action("draw"))  # "not green": it is G7
    replica.apply(1, Action("draw"))
    g.follow(1, Action("draw"))
    assert [(f.seat, f.words) for f in g.false_claims] == [(1, "the card drawn is not green")]


def settle(g):
    """Make every decision left with one answer (a ruling, a forced draw's next card), as a
    local table does."""
    while (move := g.forced_move()) is not None:
        g.apply(*move)


PLENTY = ["B2", "B3", "B4", "B6", "Y3", "Y4", "Y6", "Y7", "B7", "B8", "Y9", "B9", "G7"]

CHALLENGES = {
    "dagger guilty": ([["RDG", "R1"], ["Y1"], ["B1"]], [(0, "play", "RDG"), (1, "challenge")], "guilty"),
    "dagger innocent": ([["RDG", "G1"], ["Y1"], ["B1"]], [(0, "play", "RDG"), (1, "challenge")], "innocent"),
    "draw color guilty": ([["WDC", "R1"], ["Y1"], ["B1"]],
                          [(0, "play", "WDC"), (0, "color", "green"), (1, "challenge")], "guilty"),
    "draw color innocent": ([["WDC", "G1"], ["Y1"], ["B1"]],
                            [(0, "play", "WDC"), (0, "color", "green"), (1, "challenge")], "innocent"),
    "draw 4 guilty": ([["W+4", "R1"], ["Y1", "Y2"], ["B1"]],
                      [(0, "play", "W+4"), (0, "color", "blue"), (1, "challenge")], "guilty"),
    "draw 4 innocent": ([["W+4", "G1"], ["Y1", "Y2"], ["B1"]],
                        [(0, "play", "W+4"), (0, "color", "blue"), (1, "challenge")], "innocent"),
    "choice guilty": ([["WC", "R1"], ["Y1"], ["B1"]],
                      [(0, "play", "WC"), (0, "color", "green"), (0, "effect", "S"), (1, "challenge")], "guilty"),
    "choice innocent": ([["WC", "G1"], ["Y1"], ["B1"]],
                        [(0, "play", "WC"), (0, "color", "green"), (0, "effect", "S"), (1, "challenge")], "innocent"),
}


def run_moves(g, moves):
    for p, kind, *arg in moves:
        if kind == "play":
            g.apply(p, Action("play", card(g, p, arg[0])))
        elif arg:
            g.apply(p, Action(kind, color=arg[0]))
        else:
            g.apply(p, Action(kind))


@pytest.mark.parametrize("name", list(CHALLENGES))
def test_a_challenge_sealed_shows_the_hand_to_the_challenger_who_rules_as_the_full_game_does(name):
    hands, moves, ruling = CHALLENGES[name]
    g = make(hands, PLENTY)
    run_moves(g, moves[:-1])
    p, kind = moves[-1][:2]
    events = g.apply(p, Action(kind))
    shown = [e for e in events if e.kind == "show_hand"]
    assert len(shown) == 1 and shown[0].visible_to == (1, 0)
    assert sorted(str(c) for c in shown[0].cards) == sorted(hands[0][1:])  # the hand it was played from
    assert g.phase == "rule" and g.decision.player == 1 and kinds(g, 1) == [ruling]
    assert "challenge" not in [e.kind for e in events]  # ruled by the challenger, next
    events = g.apply(1, Action(ruling))
    assert [e.reason for e in events if e.kind == "challenge"] == [ruling]
    settle(g)
    full = make(hands, PLENTY, sealed=False)
    run_moves(full, moves)
    assert [hand(g, q) for q in range(3)] == [hand(full, q) for q in range(3)]
    assert (g.phase, g.decision.player) == (full.phase, full.decision.player)
    assert [c.decision for c in g.claims if c.action.kind == ruling] == ["rule"]


def test_a_false_ruling_is_refused_by_the_truth_and_named_when_followed():
    hands, moves, ruling = CHALLENGES["dagger innocent"]
    g = make(hands, PLENTY)
    run_moves(g, moves)
    spectator = g.blind_copy([2])
    assert set(kinds(spectator, 1)) == {"guilty", "innocent"}  # seat 2 did not see the hand
    with pytest.raises(core.FalseClaim):
        g.apply(1, Action("guilty"))
    spectator.apply(1, Action("guilty"))
    g.follow(1, Action("guilty"))
    [found] = g.false_claims
    assert found.seat == 1 and found.words.endswith("hand held red card")


def test_a_replica_offers_jump_ins_from_the_cards_it_sees_only():
    g = make([["R7", "G1"], ["B1", "B2"], ["R7", "Y1"]], PLENTY, discard=("R5",))
    play = Action("play", card(g, 0, "R7"))
    for c in g.shows(0, play):  # as a table does: the card played is shown to everyone
        g.reveal(c.id, c.face)
    g.apply(0, play)
    jump = Action("play", card(g, 2, "R7"), None, g._pt(0))  # seat 1's turn: seat 2 jumps in
    assert g.blind_copy([2]).legal_actions(2) == [jump]
    assert g.blind_copy([1]).legal_actions(2) == []  # sealed there: the jump-in is shown with it


def test_a_reveal_token_holders_hand_is_a_need_then_public():
    g = make([["R1", "G1"], ["Y1", "B2"], ["G3"]], PLENTY, tokens=[[], ["reveal"], []])
    mine = g.blind_copy([0])
    play = Action("play", card(g, 0, "R1"))
    need = mine.need_for(0, play)
    assert isinstance(need, core.Reveal) and sorted(need.handles) == sorted(c.id for c in g.hand(1))
    mine.settle(need, [g.cards[h].face for h in need.handles])
    assert mine.need_for(0, play) is None
    mine.apply(0, play)
    g.apply(0, play)
    assert {c.id for c in g.hand(1)} <= g._slots.public
    seen = mine.observation(0)["players"][1]
    assert seen["revealed"] and sorted(core.Card.from_dict(c).face for c in seen["hand"]) == \
        sorted(c.face for c in g.hand(1))


def test_an_ace_opens_the_draw_pile_to_the_searcher_alone_and_the_rest_is_shuffled_again():
    g = make([["R+2", "R1"], ["G1"], ["Y1"]], ["B1", "B2", "G5", "Y3"], tokens=[[], ["ace"], []])
    g.apply(0, Action("play", card(g, 0, "R+2")))
    events = g.apply(1, Action("draw"))
    [search] = [e for e in events if e.kind == "search"]
    n = len(g.draw_pile)
    assert search.visible_to == (1,) and [c.id for c in search.cards] == [c.id for c in g.draw_pile]
    assert set(g.deliveries(events)[1]) >= {c.id for c in search.cards} and len(g.deliveries(events)[0]) == 1
    other = g.blind_copy([2])
    assert len([a for a in other.legal_actions(1) if a.kind == "take"]) == n  # sealed there: any slot
    take = Action("take", card=card_in(g.draw_pile[::-1], "G5"))  # the first from the top
    assert take in g.legal_actions(1)
    before = {c.id for c in g.draw_pile}
    events = g.apply(1, take)
    assert "reshuffle" in [e.kind for e in events] and "G5" in hand(g, 1)
    assert not before & {c.id for c in g.draw_pile}  # fresh handles: the order it saw says nothing


def card_in(cards, text):
    face = core.parse_card(text)
    return next(c.id for c in cards if c.face == face)
