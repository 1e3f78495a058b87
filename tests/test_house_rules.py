"""Classic UNO's house rules (docs/rules/house-rules.md): one scenario test per option and per
combination ruling, then random self-play with the options on and off in several mixes.

Positions are built with ``setup`` (named hands, discard and draw cards), as in
``test_classic_rules.py``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
import support
from support import (
    assert_conserved,
    assert_sound,
    assert_illegal,
    cid,
    hand,
    play,
    random_unlisted,
    round_trip_continue,
    seen_cards,
)

import core
from core import Action, IllegalAction

# -- helpers ------------------------------------------------------------------------


def make(n, hands, discard, draw=(), **kw):
    return support.make("classic", n, hands, discard, draw, **kw)


def plays(g, p) -> set:
    return {(str(g.card(a.card)), a.color, a.target) for a in g.legal_actions(p) if a.kind == "play"}


def kinds(g, p) -> set:
    return {a.kind for a in g.legal_actions(p)}


def wilds(card) -> set:
    return {(card, c, None) for c in core.COLORS}


PAD = ["Y1", "Y2", "Y3"]
PAD2 = ["Y4", "Y6", "Y7"]
PAD3 = ["Y8", "Y9", "Y0"]
SAME = {"stacking": "same"}
PROG = {"stacking": "progressive"}
SEVEN_O = {"seven_o": True}
JUMP = {"jump_in": True}

# -- the options ----------------------------------------------------------------------------


def test_house_rules_are_off_by_default():
    g = core.new_game("classic", 3, seed=1)
    assert {k: g.options[k] for k in ("stacking", "seven_o", "jump_in", "force_play", "no_bluff",
                                      "uno_penalty")} == {
        "stacking": "none", "seven_o": False, "jump_in": False, "force_play": False, "no_bluff": False,
        "uno_penalty": 2}


@pytest.mark.parametrize("bad, name", [
    ({"stacking": "all"}, "stacking"), ({"stacking": True}, "stacking"), ({"seven_o": "yes"}, "seven_o"),
    ({"jump_in": 1}, "jump_in"), ({"force_play": None}, "force_play"), ({"no_bluff": "no"}, "no_bluff"),
    ({"uno_penalty": 11}, "uno_penalty"), ({"uno_penalty": -1}, "uno_penalty"), ({"jumpin": True}, "jumpin"),
])
def test_bad_option_values_are_refused_by_name(bad, name):
    with pytest.raises(ValueError, match=name):
        core.new_game("classic", 3, seed=1, options=bad)


def test_stacking_none_applies_a_draw_two_at_once():
    g = make(3, [["R+2", "B1", "B2"], ["B+2", "Y3"], PAD2], ["R5"], ["G1", "G2"], options={"stacking": "none"})
    play(g, 0, "R+2")
    assert hand(g, 1) == ["B+2", "Y3", "G1", "G2"] and g.current == 2 and g.phase == "play"


# -- stacking: same -------------------------------------------------------------------------


def test_same_stacking_draw_two_on_draw_two():
    g = make(3, [["R+2", "B1", "B2"], ["B+2", "W+4", "Y3"], PAD2], ["R5"],
             ["G1", "G2", "G3", "G4", "G5"], options=SAME)
    play(g, 0, "R+2")
    assert (g.phase, g.current, g.pending["total"]) == ("stack", 1, 2)
    assert g.observation(2)["pending"]["total"] == 2
    assert plays(g, 1) == {("B+2", None, None)}  # not the Wild Draw Four
    assert kinds(g, 1) == {"play", "draw"}  # no challenge on a Draw Two
    assert_illegal(g, 1, Action("play", cid(g, 1, "W+4"), "red"), "like the last one")
    assert_illegal(g, 1, Action("play", cid(g, 1, "Y3")), "coming")
    assert_illegal(g, 1, Action("challenge"))
    play(g, 1, "B+2")
    assert (g.current, g.color, g.pending["total"]) == (2, "blue", 4)
    g.apply(2, Action("draw"))
    assert hand(g, 2) == PAD2 + ["G1", "G2", "G3", "G4"]
    assert g.current == 0 and g.phase == "play" and g.pending is None
    assert_conserved(g)


def test_same_stacking_wild_draw_four_on_wild_draw_four():
    g = make(3, [["W+4", "B1", "B2"], ["W+4", "G+2", "Y3"], PAD2], ["R5"], options=SAME)
    play(g, 0, "W+4", "green")
    assert g.phase == "stack" and g.pending["challengeable"]
    assert plays(g, 1) == wilds("W+4")
    assert kinds(g, 1) == {"play", "challenge", "draw"}
    assert_illegal(g, 1, Action("play", cid(g, 1, "G+2")), "like the last one")
    play(g, 1, "W+4", "red")
    assert (g.current, g.color, g.pending["total"], g.pending["by"]) == (2, "red", 8, 1)
    assert kinds(g, 2) == {"challenge", "draw"}
    g.apply(2, Action("draw"))
    assert len(g.hand(2)) == 11 and g.current == 0


# -- stacking: progressive ------------------------------------------------------------------


def test_progressive_wild_draw_four_on_draw_two():
    g = make(3, [["R+2", "B1", "B2"], ["W+4", "G+2", "Y3"], PAD2], ["R5"], options=PROG)
    play(g, 0, "R+2")
    assert plays(g, 1) == {("G+2", None, None)} | wilds("W+4")
    play(g, 1, "W+4", "blue")
    assert (g.current, g.color, g.pending["total"], g.pending["last"]) == (2, "blue", 6, 4)
    assert kinds(g, 2) == {"challenge", "draw"}
    g.apply(2, Action("draw"))
    assert len(g.hand(2)) == 9 and g.current == 0


def test_progressive_draw_two_on_wild_draw_four_is_illegal():
    g = make(3, [["W+4", "B1", "B2"], ["R+2", "Y3", "Y5"], PAD2], ["R5"], options=PROG)
    play(g, 0, "W+4", "red")
    assert plays(g, 1) == set()
    assert kinds(g, 1) == {"challenge", "draw"}
    assert_illegal(g, 1, Action("play", cid(g, 1, "R+2")), "as big as the last one")


def test_progressive_chain_passes_the_total_on():
    g = make(4, [["R+2", "B1", "B2"], ["G+2", "B3", "B4"], ["W+4", "B5", "B6"], ["W+4", "G7", "B8"]],
             ["R5"], options=PROG)
    play(g, 0, "R+2")
    play(g, 1, "G+2")
    play(g, 2, "W+4", "yellow")
    play(g, 3, "W+4", "blue")
    assert (g.current, g.pending["total"], g.pending["by"], g.color) == (0, 12, 3, "blue")
    g.apply(0, Action("draw"))
    assert len(g.hand(0)) == 14 and g.current == 1
    assert_conserved(g)


def test_two_players_stack_back_and_forth():
    g = make(2, [["R+2", "G+2", "B1"], ["B+2", "Y3", "Y4"]], ["R5"], options=PROG)
    play(g, 0, "R+2")
    play(g, 1, "B+2")
    assert (g.current, g.pending["total"]) == (0, 4)
    play(g, 0, "G+2")
    assert (g.current, g.pending["total"]) == (1, 6)
    g.apply(1, Action("draw"))
    assert len(g.hand(1)) == 8 and g.current == 0


def test_starting_draw_two_cannot_be_stacked():
    for seed in range(3000):
        g = core.new_game("classic", 3, seed=seed, options=PROG)
        if g.top.rank == "+2":
            break
    else:
        raise AssertionError("no seed starts on a Draw Two")
    assert [len(g.hand(p)) for p in range(3)] == [9, 7, 7]
    assert g.current == 1 and g.phase == "play" and g.pending is None


def test_uno_may_be_called_before_stacking_the_second_to_last_card():
    g = make(3, [["R+2", "B1", "B2"], ["B+2", "Y3"], PAD2], ["R5"], options=SAME)
    play(g, 0, "R+2")
    assert set(g.legal_actions(1)) == {Action("play", cid(g, 1, "B+2")), Action("uno"), Action("draw")}
    g.apply(1, Action("uno"))
    play(g, 1, "B+2")
    assert g.exposed is None and g.to_act() == [2]


def test_last_card_on_a_stack_wins_and_the_next_player_draws_the_total():
    g = make(3, [["R+2", "B1", "B2"], ["B+2"], ["Y1"]], ["R5"], ["G1", "G2", "G3", "G4", "G5"], options=SAME)
    play(g, 0, "R+2")
    play(g, 1, "B+2")
    assert g.over and g.winner == 1
    assert hand(g, 2) == ["Y1", "G1", "G2", "G3", "G4"]
    assert g.scores == [0, 1 + 2 + 1 + 1 + 2 + 3 + 4, 0]


# -- stacked Wild Draw Four challenges --------------------------------------------------------


def test_stacked_wild_draw_four_guilty_the_bluffer_draws_the_whole_total():
    # Player 0's W+4 is honest (no red); player 1 holds G7 while green is in play: a bluff.
    g = make(3, [["W+4", "B1", "B2"], ["W+4", "G7", "Y3"], PAD2], ["R5"], options=SAME)
    play(g, 0, "W+4", "green")
    play(g, 1, "W+4", "blue")
    assert g.pending["total"] == 8 and "bluff" not in g.observation(2)["pending"]
    events = g.apply(2, Action("challenge"))
    ch = [e for e in events if e.kind == "challenge"]
    assert len(ch) == 1 and ch[0].player == 2 and ch[0].target == 1 and ch[0].reason == "guilty"
    show = [e for e in events if e.kind == "show_hand"][0]
    assert show.player == 1 and show.view(2).cards and show.view(0).cards == ()
    assert len(g.hand(1)) == 2 + 8 and hand(g, 2) == PAD2 and hand(g, 0) == ["B1", "B2"]
    assert (g.current, g.phase, g.color, g.pending) == (2, "play", "blue", None)
    assert "draw" in kinds(g, 2) and "challenge" not in kinds(g, 2)
    assert_conserved(g)


def test_stacked_wild_draw_four_innocent_the_challenger_draws_total_plus_two():
    g = make(3, [["W+4", "B1", "B2"], ["W+4", "Y7", "Y3"], PAD2], ["R5"], options=SAME)
    play(g, 0, "W+4", "green")
    play(g, 1, "W+4", "blue")
    events = g.apply(2, Action("challenge"))
    assert [e.reason for e in events if e.kind == "challenge"] == ["innocent"]
    assert len(g.hand(2)) == 3 + 10 and len(g.hand(1)) == 2
    assert g.current == 0 and g.phase == "play" and g.color == "blue"


def test_only_the_last_wild_draw_four_can_be_challenged():
    # Player 0 bluffed (held R1 on red), but player 1 stacked instead of challenging:
    # player 2 can challenge only player 1's card, which was honest.
    g = make(3, [["W+4", "R1", "B2"], ["W+4", "Y7", "Y3"], PAD2], ["R5"], options=PROG)
    play(g, 0, "W+4", "green")
    play(g, 1, "W+4", "blue")
    assert g.pending["by"] == 1
    assert_illegal(g, 0, Action("challenge"), "turn")
    assert_illegal(g, 1, Action("challenge"), "turn")
    events = g.apply(2, Action("challenge"))
    assert [(e.target, e.reason) for e in events if e.kind == "challenge"] == [(1, "innocent")]
    assert len(g.hand(0)) == 2 and len(g.hand(2)) == 13


def test_wild_draw_four_stacked_on_a_draw_two_can_be_challenged():
    g = make(3, [["R+2", "B1", "B2"], ["W+4", "R7", "Y3"], PAD2], ["R5"], options=PROG)
    play(g, 0, "R+2")
    assert "challenge" not in kinds(g, 1)  # a Draw Two cannot be challenged
    play(g, 1, "W+4", "green")  # holding R7 while red is in play
    g.apply(2, Action("challenge"))
    assert len(g.hand(1)) == 2 + 6 and g.current == 2 and g.phase == "play"


# -- 7-0 -----------------------------------------------------------------------------------------


def test_seven_swaps_with_a_chosen_player():
    g = make(3, [["R7", "R1", "B2"], ["Y1"], ["G1", "G2", "G3"]], ["R5"], options=SEVEN_O)
    assert plays(g, 0) == {("R7", None, 1), ("R7", None, 2), ("R1", None, None)}
    assert_illegal(g, 0, Action("play", cid(g, 0, "R7")), "choose the player")
    assert_illegal(g, 0, Action("play", cid(g, 0, "R7"), None, 0), "another player")
    assert_illegal(g, 0, Action("play", cid(g, 0, "R1"), None, 1), "target")
    events = play(g, 0, "R7", target=2)
    assert hand(g, 0) == ["G1", "G2", "G3"] and hand(g, 2) == ["R1", "B2"] and hand(g, 1) == ["Y1"]
    assert g.current == 1 and g.direction == 1 and g.color == "red"
    assert [(e.kind, e.player, e.target) for e in events if e.kind == "swap"] == [("swap", 0, 2)]


def test_seven_swap_with_two_players():
    g = make(2, [["R7", "B1", "B2"], ["Y1", "Y2", "Y3", "Y4"]], ["R5"], options=SEVEN_O)
    assert plays(g, 0) == {("R7", None, 1)}
    play(g, 0, "R7", target=1)
    assert hand(g, 0) == ["Y1", "Y2", "Y3", "Y4"] and hand(g, 1) == ["B1", "B2"] and g.current == 1


def test_zero_rotates_every_hand_in_the_direction_of_play():
    g = make(4, [["R0", "B1", "B2"], ["Y1"], ["G1", "G2"], ["Y5", "Y6", "Y7", "Y8"]], ["R5"], options=SEVEN_O)
    play(g, 0, "R0")
    assert [hand(g, p) for p in range(4)] == [["Y5", "Y6", "Y7", "Y8"], ["B1", "B2"], ["Y1"], ["G1", "G2"]]
    assert g.current == 1
    g = make(4, [["R0", "B1", "B2"], ["Y1"], ["G1", "G2"], ["Y5", "Y6", "Y7", "Y8"]], ["R5"], options=SEVEN_O,
             direction=-1)
    play(g, 0, "R0")
    assert [hand(g, p) for p in range(4)] == [["Y1"], ["G1", "G2"], ["Y5", "Y6", "Y7", "Y8"], ["B1", "B2"]]
    assert g.current == 3


def test_without_seven_o_seven_and_zero_are_plain_numbers():
    g = make(3, [["R7", "R0", "B2"], ["Y1", "Y5"], PAD2], ["R5"])
    assert plays(g, 0) == {("R7", None, None), ("R0", None, None)}
    assert_illegal(g, 0, Action("play", cid(g, 0, "R7"), None, 1), "target")
    play(g, 0, "R0")
    assert hand(g, 0) == ["R7", "B2"] and hand(g, 1) == ["Y1", "Y5"]


def test_after_a_swap_nobody_can_be_caught_and_a_single_card_received_counts_as_called():
    g = make(3, [["R7", "R1"], ["Y1", "Y2"], PAD2], ["R5"], options=SEVEN_O)
    play(g, 0, "R7", target=1)  # down to one card without calling, then hands change owners
    assert hand(g, 1) == ["R1"] and hand(g, 0) == ["Y1", "Y2"]
    assert g.exposed is None and g.to_act() == [1]
    assert g.observation(2)["players"][1]["uno"] is True
    assert_illegal(g, 2, Action("catch", target=1), "nobody")
    play(g, 1, "R1")
    assert g.over and g.winner == 1


def test_after_a_rotation_nobody_can_be_caught():
    g = make(3, [["R0", "B1"], ["Y1", "Y2"], ["G5", "G6"]], ["R5"], options=SEVEN_O)
    play(g, 0, "R0")
    assert hand(g, 1) == ["B1"] and g.exposed is None and g.to_act() == [1]
    assert g.observation(0)["players"][1]["uno"] is True
    assert all(a.kind != "catch" for q in range(3) for a in g.legal_actions(q))


def test_a_single_card_received_stops_counting_as_called_once_it_grows():
    g = make(3, [["R0", "B1"], ["Y1", "Y2"], ["G5", "G6"]], ["R5"], ["G9", "Y4"], options=SEVEN_O)
    play(g, 0, "R0")
    g.apply(1, Action("draw"))  # G9 does not match red 0
    assert hand(g, 1) == ["B1", "G9"] and g.current == 2
    assert g.observation(0)["players"][1]["uno"] is False


@pytest.mark.parametrize("card", ["R7", "R0"])
def test_seven_or_zero_as_the_last_card_just_wins(card):
    g = make(3, [[card], ["Y1", "Y2"], ["G5"]], ["R5"], options=SEVEN_O)
    assert plays(g, 0) == {(card, None, None)}
    events = play(g, 0, card)
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["Y1", "Y2"] and hand(g, 2) == ["G5"]
    assert not any(e.kind in ("swap", "rotate") for e in events)
    assert g.scores == [8, 0, 0]


# -- jump-in -------------------------------------------------------------------------------------


def test_jump_in_with_an_identical_card_play_continues_from_the_jumper():
    g = make(4, [["R3", "B1", "B2"], PAD, ["R5", "G7", "G8"], PAD3], ["R5"], options=JUMP)
    assert g.to_act() == [0, 2]
    assert g.legal_actions(2) == [Action("play", cid(g, 2, "R5"))]
    assert g.legal_actions(1) == [] and g.legal_actions(3) == []
    events = play(g, 2, "R5")
    assert [e.kind for e in events][:2] == ["jump_in", "play"]
    assert "jumps in" in core.describe(events[0], g.names, g.variant)
    assert (g.current, g.direction, g.color) == (3, 1, "red")
    assert hand(g, 2) == ["G7", "G8"] and hand(g, 0) == ["R3", "B1", "B2"]
    assert_conserved(g)


def test_only_an_identical_card_can_jump_in():
    g = make(4, [["R3", "B1", "B2"], ["R6", "G5", "Y5"], PAD2, PAD3], ["R5"], options=JUMP)
    assert g.legal_actions(1) == [] and g.to_act() == [0]
    assert_illegal(g, 1, Action("play", cid(g, 1, "R6")), "identical")
    assert_illegal(g, 1, Action("play", cid(g, 1, "G5")), "identical")


def test_wild_cards_cannot_jump_in():
    g = make(3, [["R3", "B1"], ["W", "Y5"], ["W+4", "Y6"]], ["R5", "W"], color="red", options=JUMP)
    assert g.to_act() == [0] and g.legal_actions(1) == []
    assert_illegal(g, 1, Action("play", cid(g, 1, "W"), "blue"), "turn")
    g = make(3, [["R3", "B1"], ["W", "Y5"], ["W+4", "Y6"]], ["R5", "W+4"], color="red", options=JUMP)
    assert g.to_act() == [0] and g.legal_actions(2) == []


def test_without_jump_in_nobody_plays_out_of_turn():
    g = make(4, [["R3", "B1", "B2"], PAD, ["R5", "G7", "G8"], PAD3], ["R5"])
    assert g.to_act() == [0] and g.legal_actions(2) == []
    assert_illegal(g, 2, Action("play", cid(g, 2, "R5")), "turn")


def test_jump_in_with_a_skip_or_a_reverse_acts_from_the_jumper():
    g = make(4, [["R3", "B1"], PAD, ["RS", "G7", "G8"], PAD3], ["G1", "RS"], options=JUMP)
    play(g, 2, "RS")
    assert g.current == 0  # player 3 is skipped
    g = make(4, [["R3", "B1"], PAD, ["RR", "G7", "G8"], PAD3], ["G1", "RR"], options=JUMP)
    play(g, 2, "RR")
    assert (g.direction, g.current) == (-1, 1)


def test_a_player_may_jump_in_on_their_own_card():
    g = make(3, [["R5", "R5", "B1"], PAD, PAD2], ["R1"], options=JUMP)
    play(g, 0, "R5")
    assert g.current == 1 and g.to_act() == [0, 1]
    play(g, 0, "R5")
    assert g.current == 1 and hand(g, 0) == ["B1"]


def test_jump_in_race_first_arrival_wins_the_second_is_illegal():
    # The jump-in arrives first: the current player's move is now out of turn.
    g = make(4, [["R3", "B1", "B2"], PAD, ["R5", "G7", "G8"], PAD3], ["R5"], options=JUMP)
    r3 = Action("play", cid(g, 0, "R3"))
    play(g, 2, "R5")
    assert_illegal(g, 0, r3, "turn")
    # The current player's play arrives first: the jump-in no longer matches the top card.
    g = make(4, [["R3", "B1", "B2"], PAD, ["R5", "G7", "G8"], PAD3], ["R5"], options=JUMP)
    r5 = Action("play", cid(g, 2, "R5"))
    play(g, 0, "R3")
    assert_illegal(g, 2, r5, "identical")


def test_jump_in_after_a_playable_draw_ends_the_drawers_chance_and_their_call():
    g = make(3, [["G7"], ["R9", "Y1", "Y2"], PAD2], ["R9"], ["R2"], options=JUMP)
    g.apply(0, Action("draw"))
    assert g.phase == "drawn"
    g.apply(0, Action("uno"))
    assert g.to_act() == [0, 1]
    play(g, 1, "R9")
    assert (g.current, g.phase, g.drawn) == (2, "play", None)
    assert hand(g, 0) == ["G7", "R2"]
    # The call announced a play that never happened: it does not carry over.
    assert g.observation(2)["players"][0]["uno"] is False
    g.apply(2, Action("draw"))
    if g.phase == "drawn":
        g.apply(2, Action("pass"))
    assert g.current == 0
    assert Action("uno") in g.legal_actions(0)


def test_jump_in_closes_the_uno_catch_window():
    g = make(4, [["R3", "G7"], PAD, ["R3", "G8", "G9"], PAD3], ["R1"], options=JUMP)
    play(g, 0, "R3")  # one card left, no call
    assert Action("catch", target=0) in g.legal_actions(3)
    play(g, 2, "R3")
    assert g.exposed is None
    assert_illegal(g, 3, Action("catch", target=0), "nobody")


def test_jump_in_with_the_last_card_wins():
    g = make(3, [["R3", "B1"], ["R5"], PAD2], ["R5"], options=JUMP)
    play(g, 1, "R5")
    assert g.over and g.winner == 1 and g.scores == [0, 3 + 1 + 4 + 6 + 7, 0]


# -- force_play ----------------------------------------------------------------------------


def test_force_play_a_drawn_playable_card_must_be_played():
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["R3"], options={"force_play": True})
    g.apply(0, Action("draw"))
    assert g.phase == "drawn" and set(g.legal_actions(0)) == {Action("play", cid(g, 0, "R3"))}
    assert_illegal(g, 0, Action("pass"), "must")
    play(g, 0, "R3")
    assert g.current == 1


def test_force_play_a_drawn_wild_in_any_colour():
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["W"], options={"force_play": True})
    g.apply(0, Action("draw"))
    assert plays(g, 0) == wilds("W") and kinds(g, 0) == {"play"}


def test_force_play_an_unplayable_draw_ends_the_turn():
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["G3"], options={"force_play": True})
    g.apply(0, Action("draw"))
    assert g.current == 1 and hand(g, 0) == ["B1", "B2", "G3"]


def test_without_force_play_a_drawn_card_may_be_kept():
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["R3"])
    g.apply(0, Action("draw"))
    assert Action("pass") in g.legal_actions(0)


# -- no_bluff -------------------------------------------------------------------------------


def test_no_bluff_wild_draw_four_only_without_the_colour_in_play():
    nb = {"no_bluff": True}
    g = make(3, [["W+4", "R1", "B2"], PAD, PAD2], ["R5"], options=nb)
    assert plays(g, 0) == {("R1", None, None)}
    assert_illegal(g, 0, Action("play", cid(g, 0, "W+4"), "blue"), "no bluffing")
    g = make(3, [["W+4", "B5", "W"], PAD, PAD2], ["R5"], options=nb)  # a number match or a wild is fine
    assert wilds("W+4") <= plays(g, 0)


def test_no_bluff_wild_draw_four_lands_at_once_without_a_challenge():
    g = make(3, [["W+4", "B1", "B2"], PAD, PAD2], ["R5"], ["G1", "G2", "G3", "G4"], options={"no_bluff": True})
    events = play(g, 0, "W+4", "green")
    assert hand(g, 1) == PAD + ["G1", "G2", "G3", "G4"]
    assert g.current == 2 and g.phase == "play" and g.color == "green"
    assert any(e.kind == "skip" and e.player == 1 for e in events)
    assert_illegal(g, 1, Action("challenge"))
    assert_illegal(g, 2, Action("challenge"), "challenge")


def test_no_bluff_a_drawn_wild_draw_four_that_would_bluff_cannot_be_played():
    for opts in ({"no_bluff": True}, {"no_bluff": True, "force_play": True}):
        g = make(3, [["R1", "B2"], PAD, PAD2], ["G5", "R5"], ["W+4"], options=opts)
        g.apply(0, Action("draw"))
        assert hand(g, 0) == ["R1", "B2", "W+4"] and g.current == 1 and g.phase == "play"


def test_uno_penalty_option_sets_the_cards_drawn_when_caught():
    for penalty in (0, 5):
        g = make(3, [["R3", "G7"], PAD, PAD2], ["R5"], ["B1", "B2", "B3", "B4", "B5", "B6"],
                 options={"uno_penalty": penalty})
        play(g, 0, "R3")
        g.apply(2, Action("catch", target=0))
        assert len(g.hand(0)) == 1 + penalty and g.current == 1


# -- combinations ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["same", "progressive"])
def test_stacking_with_jump_in_an_identical_draw_card_adds_and_passes_on_from_the_jumper(mode):
    g = make(4, [["R+2", "B1", "B2"], ["B3", "B4"], PAD2, ["R+2", "G8", "B+2"]], ["R5"],
             options={"stacking": mode, "jump_in": True})
    play(g, 0, "R+2")
    assert g.current == 1 and g.to_act() == [1, 3]
    assert g.legal_actions(3) == [Action("play", cid(g, 3, "R+2"))]  # not the B+2: not identical
    assert_illegal(g, 3, Action("play", cid(g, 3, "B+2")), "identical")
    events = play(g, 3, "R+2")
    assert events[0].kind == "jump_in"
    assert (g.phase, g.current, g.pending["total"], g.pending["by"]) == ("stack", 0, 4, 3)
    assert hand(g, 1) == ["B3", "B4"]  # the first victim got away
    g.apply(0, Action("draw"))
    assert len(g.hand(0)) == 6 and g.current == 1


def test_stacking_with_jump_in_the_victim_may_still_stack_and_is_not_out_of_turn():
    g = make(3, [["R+2", "B1", "B2"], ["R+2", "Y3", "Y5"], PAD2], ["R5"], options={**SAME, **JUMP})
    play(g, 0, "R+2")
    assert g.to_act() == [1]  # the victim stacks in turn; nobody else holds an R+2
    play(g, 1, "R+2")
    assert (g.current, g.pending["total"]) == (2, 4)


def test_stacking_with_jump_in_a_last_card_jump_in_wins_and_passes_the_total():
    g = make(4, [["R+2", "B1", "B2"], ["B3", "B4"], PAD2, ["R+2"]], ["R5"], ["G1", "G2", "G3", "G4"],
             options={**PROG, **JUMP})
    play(g, 0, "R+2")
    play(g, 3, "R+2")
    assert g.over and g.winner == 3
    assert hand(g, 0) == ["B1", "B2", "G1", "G2", "G3", "G4"]
    assert g.scores == [0, 0, 0, 1 + 2 + 1 + 2 + 3 + 4 + 3 + 4 + 4 + 6 + 7]


def test_jump_in_without_stacking_an_identical_draw_two_hits_the_next_player():
    g = make(4, [["R+2", "B1", "B2"], PAD, ["R+2", "G7", "G8"], PAD3], ["R5"], ["B5", "B6", "B7", "B8"],
             options=JUMP)
    play(g, 0, "R+2")
    assert hand(g, 1) == PAD + ["B5", "B6"] and g.current == 2
    play(g, 2, "R+2")  # identical to the top: jumps in (here it is also their turn)
    assert hand(g, 3) == PAD3 + ["B7", "B8"] and g.current == 0


def test_seven_o_with_jump_in_a_jumped_in_seven_swaps_and_a_last_one_wins():
    opts = {**SEVEN_O, **JUMP}
    g = make(3, [["R3", "B1", "B2"], ["R7", "G1"], ["Y4", "Y6", "Y7"]], ["R7"], options=opts)
    assert plays(g, 1) == {("R7", None, 0), ("R7", None, 2)}
    play(g, 1, "R7", target=0)
    assert hand(g, 1) == ["R3", "B1", "B2"] and hand(g, 0) == ["G1"] and g.current == 2
    g = make(3, [["R3", "B1", "B2"], ["R7"], ["Y4", "Y6", "Y7"]], ["R7"], options=opts)
    assert plays(g, 1) == {("R7", None, None)}
    play(g, 1, "R7")
    assert g.over and g.winner == 1 and hand(g, 0) == ["R3", "B1", "B2"]


def test_force_play_with_draw_until_playable_the_found_card_must_be_played():
    opts = {"force_play": True, "draw_until_playable": True}
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["G2", "B4", "R3", "G1"], options=opts)
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "G2", "B4", "R3"]
    assert set(g.legal_actions(0)) == {Action("play", cid(g, 0, "R3"))}
    assert_illegal(g, 0, Action("pass"), "must")


def test_force_play_with_draw_until_playable_nothing_playable_left_ends_the_turn():
    opts = {"force_play": True, "draw_until_playable": True}
    rest = [str(c) for c in core.deck("classic")]
    for t in ["B1", "B2", "R5", "G2", "G3"] + PAD2:
        rest.remove(t)
    g = make(3, [["B1", "B2"], rest, PAD2], ["R5"], ["G2", "G3"], options=opts)
    assert g.draw_count == 2 and len(g.discard) == 1
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "G2", "G3"]
    assert g.current == 1 and g.phase == "play"


def test_draw_until_playable_with_no_bluff_goes_past_a_wild_draw_four_it_may_not_play():
    opts = {"draw_until_playable": True, "no_bluff": True}
    g = make(3, [["R1", "B2"], PAD, PAD2], ["R5"], ["G2", "W+4", "B3", "R9"], options=opts)
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["R1", "B2", "G2", "W+4", "B3", "R9"]
    assert g.phase == "drawn" and plays(g, 0) == {("R9", None, None)}
    # Without the colour in play the Wild Draw Four is honest and stops the drawing.
    g = make(3, [["G1", "B2"], PAD, PAD2], ["R5"], ["G2", "W+4", "B3", "R9"], options=opts)
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["G1", "B2", "G2", "W+4"] and plays(g, 0) == wilds("W+4")


def test_no_bluff_with_stacking_a_wild_draw_four_stacks_only_without_the_colour_in_play():
    opts = {**PROG, "no_bluff": True}
    g = make(3, [["R+2", "B1", "B2"], ["W+4", "R7", "Y3"], PAD2], ["R5"], options=opts)
    play(g, 0, "R+2")
    assert g.legal_actions(1) == [Action("draw")]  # holds R7 while red is in play
    assert_illegal(g, 1, Action("play", cid(g, 1, "W+4"), "blue"), "coming")
    g = make(3, [["R+2", "B1", "B2"], ["W+4", "Y7", "Y3"], PAD2], ["R5"], ["G1"] * 0, options=opts)
    play(g, 0, "R+2")
    assert plays(g, 1) == wilds("W+4")
    play(g, 1, "W+4", "yellow")
    assert g.pending["total"] == 6 and not g.pending["challengeable"]
    assert kinds(g, 2) == {"draw"}  # no challenge with no_bluff
    assert_illegal(g, 2, Action("challenge"))
    g.apply(2, Action("draw"))
    assert len(g.hand(2)) == 9 and g.current == 0


def test_no_bluff_with_stacking_the_first_wild_draw_four_waits_for_a_stack_not_a_challenge():
    g = make(3, [["W+4", "B1", "B2"], ["W+4", "Y7", "Y3"], PAD2], ["R5"], options={**SAME, "no_bluff": True})
    play(g, 0, "W+4", "green")
    assert g.phase == "stack" and kinds(g, 1) == {"play", "draw"}


# -- random self-play with the options on and off ------------------------------------------------

MIXES = [
    {},
    {"stacking": "progressive", "seven_o": True, "jump_in": True, "force_play": True, "no_bluff": True,
     "draw_until_playable": True, "uno_penalty": 4},
    {"stacking": "same", "jump_in": True},
    {"stacking": "progressive", "seven_o": True, "force_play": True},
    {"stacking": "progressive", "draw_until_playable": True},
    {"seven_o": True, "jump_in": True, "no_bluff": True, "uno_penalty": 0},
]


def check_state(g) -> dict:
    d = g.to_dict()
    ids = [i for h in d["hands"] for i in h] + d["draw_pile"] + d["discard"] + d["set_aside"]
    assert len(ids) == 108 and set(ids) == set(range(108)), "cards not conserved"
    assert_sound(g)
    assert d["set_aside"] == [] and g.out == [False] * g.num_players
    if g.phase == "stack":
        assert g.options["stacking"] != "none" and g.pending["total"] >= 2
    if g.phase == "challenge":
        assert g.options["stacking"] == "none" and not g.options["no_bluff"]
    return d


def check_observation(g, p, d):
    obs, _ = seen_cards(g, p, d)
    if obs.get("pending"):
        assert "bluff" not in obs["pending"]


@pytest.mark.parametrize("mix", range(len(MIXES)))
@pytest.mark.parametrize("n", [2, 4, 7])
def test_random_selfplay_with_house_rules(mix, n):
    options = {**MIXES[mix], "target_score": 300}
    rng = random.Random(mix * 100 + n)
    g = core.new_game("classic", n, seed=rng.getrandbits(32), options=options)
    stats = Counter()
    moves = 0
    while stats["rounds"] < 4:
        in_round = 0
        bias = rng.choice((0.0, 0.7, 0.9))
        while not g.over:
            assert in_round < 20000, "a round did not end"
            if in_round == 600:
                bias = 0.95
            d = check_state(g)
            if moves % 3 == 0:
                check_observation(g, g.current, d)
                check_observation(g, rng.randrange(n), d)
                check_observation(g, None, d)
                p, a = random_unlisted(g, rng)
                with pytest.raises(IllegalAction):
                    g.apply(p, a)
                assert g.to_dict() == d
            if moves % 89 == 40:
                batches = round_trip_continue(g, rng)
            else:
                p = rng.choice(g.to_act())
                legal = g.legal_actions(p)
                assert legal and len(legal) == len(set(legal))
                plays_ = [a for a in legal if a.kind == "play"]
                a = rng.choice(plays_) if plays_ and rng.random() < bias else rng.choice(legal)
                batches = [g.apply(p, a)]
            for events in batches:
                for e in events:
                    stats[e.kind] += 1
                    if e.kind == "draw":
                        assert e.visible_to == (e.player,)
                moves += 1
                in_round += 1
        d = check_state(g)
        assert g.winner is not None and g.hand(g.winner) == []
        for q in [None, *range(n)]:
            check_observation(g, q, d)
        stats["rounds"] += 1
        if g.match_over:
            g = core.new_game("classic", n, seed=rng.getrandbits(32), options=options)
        else:
            g.next_round()
    opts = MIXES[mix]
    if n > 2 and opts.get("jump_in"):
        assert stats["jump_in"] > 0
    if opts.get("seven_o"):
        assert stats["swap"] + stats["rotate"] > 0
    if opts.get("no_bluff"):
        assert stats["challenge"] == 0
