"""Diez with sealed cards (issue 16): the mechanisms that used to decide from hidden cards by
themselves, as the drawer's decisions and claims; the White token and its Proc searching the
draw pile card by card; a Revive taking a card nobody else sees. The random sealed table for
Diez (every replica in lockstep, every audit clean) is in ``test_sealed_engine.py``."""

from __future__ import annotations

import random

import pytest

import core
from core import Action


def make(hands, draw=(), discard=("R5",), *, sealed=True, tokens=None, piles=None):
    setup = {"hands": [list(h) for h in hands], "draw": list(draw), "discard": list(discard), "current": 0}
    if tokens is not None:
        setup["tokens"] = tokens
    if piles is not None:
        setup["piles"] = piles
    options = {"uno_calls": False}
    return core.new_game("diez", len(hands), seed=0, setup=setup, options=options, sealed=sealed)


def hand(g, p):
    return sorted(str(c) for c in g.hand(p))


def kinds(g, p):
    return [a.kind for a in g.legal_actions(p)]


def card(g, p, text):
    face = core.parse_card(text)
    return next(c.id for c in g.hand(p) if c.face == face)


def test_diez_is_sealable():
    g = core.new_game("diez", 3, seed=0, sealed=True)
    assert g.sealed and all(core.is_sealed(c) for c in g.blind_copy([0]).hands[1])


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
    g = make([["RDG", "G1"], ["Y1", "B2"], ["G3"]], PLENTY, tokens=[[], ["reveal"], []])
    mine = g.blind_copy([0])
    # A scripted Reveal holder plays with its hand face up from the start.
    assert {c.id for c in g.hand(1)} <= g._slots.public
    assert sorted(c.face for c in mine.hand(1)) == sorted(c.face for c in g.hand(1))
    dagger = Action("play", card(g, 0, "RDG"))
    for c in g.shows(0, dagger):
        mine.reveal(c.id, c.face)
    mine.apply(0, dagger)
    g.apply(0, dagger)
    take = Action("draw")  # seat 1 takes the Dagger's card: its hand is open, so the card is shown
    need = mine.need_for(1, take)
    drawn = g.draw_pile[-1]
    assert isinstance(need, core.Reveal) and list(need.handles) == [drawn.id]
    mine.settle(need, [drawn.face])
    assert mine.need_for(1, take) is None
    mine.apply(1, take)
    g.apply(1, take)
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


# -- the White token and its Proc: the draw pile shown to the searcher card by card -----------------

from sealed_table import Liar, Table  # noqa: E402  (the sealed table harness, beside these tests)


def white_table(draw, tokens, hands=(("R+2", "R1"), ("G1", "G2"), ("Y1",)), discard=("R5",), seats=None):
    setup = {"hands": [list(h) for h in hands], "discard": list(discard), "current": 0, "draw": list(draw),
             "tokens": tokens}
    return Table("diez", len(hands), 0, {"uno_calls": False}, setup=setup, seats=seats)


def test_the_white_token_sealed_shows_the_drawer_the_pile_from_the_top_down_to_the_first_white():
    table = white_table(["B3", "Y4", "WH2", "G5", "G6"], [[], ["white"], []])
    t = table.truth
    ids = {str(c): c.id for c in t.draw_pile if str(c) in ("B3", "Y4", "WH2")}
    table.step(0, Action("play", card(t, 0, "R+2")))
    table.step(1, Action("draw"))  # a forced draw of 2, and seat 1 holds the White token
    for face in ("B3", "Y4"):
        assert t.phase == "white" and t.decision.player == 1 and t.queue[0]["card"] == ids[face]
        assert table.legal(1) == [Action("pass")]  # its own game saw the card: not white
        assert {a.kind for a in table.replicas[2].legal_actions(1)} == {"take", "pass"}  # seat 2 cannot tell
        assert t.forced_move() == (1, Action("pass"))
        table.step(1, Action("pass"))
    assert table.legal(1) == [Action("take", card=ids["WH2"])]
    # A crash mid-search is ordinary: the searcher's and the host's games reload and carry on.
    table.replicas[1] = type(t).from_dict(table.replicas[1].to_dict(), source=core.BlindSource())
    table.host = type(t).from_dict(table.host.to_dict(), source=core.BlindSource())
    table.check()
    table.step(1, Action("take", card=ids["WH2"]))
    assert "WH2" in hand(t, 1) and len(t.hand(1)) == 4 and "white" not in t.tokens[1]  # one more card drawn
    assert t.current == 2 and t.phase == "play"
    # Only the searcher saw the cards it turned up; those it left were shuffled again (fresh slots).
    for h in ids.values():
        assert not core.is_sealed(table.replicas[1].cards[h])
        assert all(core.is_sealed(g.cards[h]) for g in (table.replicas[0], table.replicas[2], table.spectator))
    assert not set(ids.values()) & {c.id for c in t.draw_pile}
    assert [c.words for c in t.claims if c.decision == "white"] == \
        ["the card turned up is not white"] * 2 + ["the card turned up is the first white one"]
    assert table.audit().false_claims == []
    # The full-information game gives the same White card, and draws the rest from the top.
    full = make([["R+2", "R1"], ["G1", "G2"], ["Y1"]], ["B3", "Y4", "WH2", "G5"], tokens=[[], ["white"], []],
                sealed=False)
    full.apply(0, Action("play", card(full, 0, "R+2")))
    full.apply(1, Action("draw"))
    assert hand(full, 1) == ["B3", "G1", "G2", "WH2"] and "white" not in full.tokens[1]


def test_the_white_token_sealed_with_no_white_card_in_the_pile_stays_and_the_pile_is_shuffled():
    whites = ["WH0", "WH1", "WH2", "WH3", "WH4"]
    g = make([["R+2", "R1"], ["G1", "G2"], whites], tokens=[[], ["white"], []])
    before = {c.id for c in g.draw_pile}
    g.apply(0, Action("play", card(g, 0, "R+2")))
    g.apply(1, Action("draw"))
    looked = 0
    while g.phase == "white":  # every card turned up, none white: the searcher looks on each time
        assert g.forced_move() == (1, Action("pass"))
        g.apply(1, Action("pass"))
        looked += 1
    assert looked == len(before) and g.tokens[1] == ["white"]  # "has no effect and is not removed"
    settle(g)  # the two cards, one at a time
    assert len(g.hand(1)) == 4 and not before & {c.id for c in g.draw_pile}  # seen whole: shuffled
    assert g.current == 2


def test_the_white_proc_sealed_shows_the_next_player_the_pile_and_the_token_stays():
    table = white_table(["G3", "WH1", "B2"], [[], [], ["white"]], hands=(("YPR", "R1"), ("G1",), ("Y1",)),
                        discard=("Y5",))
    t = table.truth
    table.step(0, Action("play", card(t, 0, "YPR")))
    assert Action("proc", color="white") in table.legal(0)
    table.step(0, Action("proc", color="white"))
    assert t.phase == "white" and t.decision.player == 1 and table.legal(1) == [Action("pass")]  # G3
    table.step(1, Action("pass"))
    wh1 = t.queue[0]["card"]
    assert str(t.cards[wh1]) == "WH1" and table.legal(1) == [Action("take", card=wh1)]
    table.step(1, Action("take", card=wh1))
    assert hand(t, 1) == ["G1", "WH1"] and t.tokens[2] == ["white"]  # "Trap tokens do not get removed"
    assert t.current == 1 and core.is_sealed(table.replicas[2].cards[wh1])
    assert table.audit().false_claims == []


def test_a_catch_during_the_white_search_takes_the_card_turned_up_and_the_search_goes_on_below():
    setup = {"hands": [["YPR", "R1"], ["G1"], ["Y1"]], "discard": ["Y5"], "current": 0,
             "draw": ["G3", "WH1", "B2", "B4"], "tokens": [[], [], ["white"]]}
    table = Table("diez", 3, 0, {"uno_calls": True}, setup=setup)
    t = table.truth
    table.step(0, Action("play", card(t, 0, "YPR")))  # one card left, UNO not called
    table.step(0, Action("proc", color="white"))
    g3 = t.queue[0]["card"]
    assert t.phase == "white" and str(t.cards[g3]) == "G3" and t.exposed == 0
    table.step(2, Action("catch", target=0))  # seat 0 draws G3 and WH1, off the top, one at a time
    assert t.phase == "forced_draw" and table.legal(0) == [Action("draw")]
    table.step(0, Action("draw"))
    assert hand(t, 0) == ["G3", "R1", "WH1"]
    b2 = t.queue[0]["card"]
    assert t.phase == "white" and str(t.cards[b2]) == "B2" and table.legal(1) == [Action("pass")]
    table.play_round(until=lambda: t.phase != "white")  # on down to a white card further down
    assert "white" in {c.color for c in t.hand(1)} and len(t.hand(1)) == 2
    assert table.audit().false_claims == []


@pytest.mark.parametrize("lie", ["white:take", "white:pass"])
def test_a_false_white_claim_is_named_by_the_audit(lie):
    liar = Liar(random.Random(0), lie)
    table = white_table(["B3", "WH2", "G5", "G6"], [[], ["white"], []], seats={1: liar})
    t = table.truth
    table.step(0, Action("play", card(t, 0, "R+2")))
    table.step(1, Action("draw"))
    table.step(1, liar.choose(table, 1, table.legal(1)))  # takes B3 as white, or passes over... B3
    if lie == "white:pass":  # B3 is not white: passing is true; the lie comes at WH2
        table.step(1, liar.choose(table, 1, table.legal(1)))
    table.play_round(until=lambda: t.phase != "white")
    assert liar.lied and {f.seat for f in t.false_claims} == {1} and len(t.false_claims) == len(liar.lied)
    assert len(table.replicas[1].false_claims) == len(liar.lied)  # its own game knew (each white passed over)
    assert table.replicas[0].false_claims == [] and table.spectator.false_claims == []
    assert table.audit().culprits == [1]


# -- Revive: the pile mixed face down, shown to the searcher alone ------------------------------------

def test_a_sealed_revive_mixes_the_pile_face_down_and_nobody_else_learns_the_card_taken():
    setup = {"hands": [["GRV", "R1"], ["G1"], ["Y1"]], "discard": ["R7", "W", "Y3", "G2", "G5"], "current": 0,
             "draw": ["B1", "B2", "B3"]}
    table = Table("diez", 3, 0, {"uno_calls": False}, setup=setup)
    t = table.truth
    before = {str(c): c.id for c in t.discard}
    table.step(0, Action("play", card(t, 0, "GRV")))
    assert t.phase == "search" and t.decision.player == 0
    slots = t.queue[0]["slots"]
    assert len(slots) == 4 and not set(slots) & set(before.values())  # R7, Y3, G2, G5 in fresh slots
    assert sorted(str(t.cards[h]) for h in slots) == ["G2", "G5", "R7", "Y3"]
    assert t.discard[0].id == before["W"] and len(t.discard) == 6  # the Wild stays, face up; the Revive on top
    # The searcher's game knows the slots (and offers one per face); nobody else's does (any slot).
    assert {a.card for a in table.legal(0) if a.kind == "take"} == set(slots)
    for name in ("1", "2", "host", "spectator"):
        g = table.games()[name]
        assert all(core.is_sealed(g.cards[h]) for h in slots), name
        if name in ("1", "2"):
            assert len([a for a in g.legal_actions(0) if a.kind == "take"]) == 4
    table.replicas[0] = type(t).from_dict(table.replicas[0].to_dict(), source=core.BlindSource())  # reloaded
    table.check()
    y3 = next(h for h in slots if str(t.cards[h]) == "Y3")
    table.step(0, Action("take", card=y3))
    assert hand(t, 0) == ["R1", "Y3"] and len(t.discard) == 5 and t.current == 1
    assert all(core.is_sealed(g.cards[y3]) for g in (table.replicas[1], table.replicas[2], table.spectator))
    assert table.spectator.public_observation() == t.public_observation()
    assert table.audit().false_claims == []
    # The full-information game takes the same card, in the open.
    full = make([["GRV", "R1"], ["G1"], ["Y1"]], ["B1"], discard=("R7", "W", "Y3", "G2", "G5"), sealed=False)
    full.apply(0, Action("play", card(full, 0, "GRV")))
    assert {str(full.cards[a.card]) for a in full.legal_actions(0) if a.kind == "take"} == {"R7", "Y3", "G2", "G5"}


def test_a_sealed_revive_with_only_wild_cards_under_the_top_does_nothing():
    setup = {"hands": [["GRV", "R1"], ["G1"], ["Y1"]], "discard": ["W", "W+4"], "color": "green", "current": 0}
    for sealed in (True, False):
        g = core.new_game("diez", 3, seed=0, setup=setup, sealed=sealed)
        g.apply(0, Action("play", card(g, 0, "GRV")))
        assert g.phase == "play" and g.current == 1 and len(g.discard) == 3


def test_the_hosts_bots_play_a_card_they_drew_and_their_rounds_end() -> None:
    """A sealed turn draw asks its drawer card by card (``drawing``): the normal bot plays a
    drawn card it may play, as it does in the open game. It used to keep every card it drew,
    and these deals (with the host's bots at every seat) ran past 3,000 moves without an end."""
    from sealed_table import Table

    met = 0
    for seed in (14, 27, 38):
        table = Table("diez", 2, seed, bots=(0, 1))
        for _ in range(1500):
            if table.truth.over:
                break
            p, action = table.pick()
            if table.truth.phase == "drawing" and p == table.truth.decision.player:
                if any(a.kind == "play" for a in table.legal(p)):
                    assert action.kind in ("play", "uno"), action
                    met += 1
            table.step(p, action)
        assert table.truth.over, f"seed {seed}: the round did not end in 1,500 moves"
    assert met
