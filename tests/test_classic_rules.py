"""Classic UNO as the engine implements it: one scenario test per rule and ruling.

Positions are built with ``setup`` (named hands, discard and draw cards) so each
test knows exactly which cards move where; starting-card rules are tested on
fresh deals found by searching seeds.
"""

from __future__ import annotations

import msgpack
import pytest

import core
from core import Action
import support
from support import assert_conserved, assert_illegal, cid, hand, notes, play

# -- helpers ------------------------------------------------------------------------


def make(n, hands, discard, draw=(), **kw):
    return support.make("classic", n, hands, discard, draw, **kw)


def plays(g, p) -> set:
    return {(str(g.card(a.card)), a.color) for a in g.legal_actions(p) if a.kind == "play"}


def kinds(g, p) -> list[str]:
    return sorted(a.kind for a in g.legal_actions(p))


def seed_with_start(n, rank, *, want_return=False, limit=5000):
    """A fresh n-player game whose starting card has ``rank`` (None: any)."""
    for seed in range(limit):
        g = core.new_game("classic", n, seed=seed)
        if rank is not None and g.discard[0].rank != rank:
            continue
        if want_return and not any(e.kind == "return" for e in g.deal_events):
            continue
        return g
    raise AssertionError(f"no seed below {limit} starts {n} players on {rank}")


def finish_turn_without_playing(g, p):
    """p draws (and keeps the card if it was playable)."""
    g.apply(p, Action("draw"))
    if g.phase == "drawn":
        g.apply(p, Action("pass"))


# A few cards to pad hands so nobody goes out by accident.
PAD = ["Y1", "Y2", "Y3"]
PAD2 = ["Y4", "Y6", "Y7"]
PAD3 = ["Y8", "Y9", "Y0"]

# -- fresh games and the starting card ---------------------------------------------------


@pytest.mark.parametrize("n", range(2, 11))
def test_fresh_game_player_zero_starts_dealer_is_last(n):
    g = seed_with_start(n, "5")
    assert g.dealer == n - 1
    assert g.current == 0
    assert g.direction == 1
    assert g.to_act() == [0]
    assert [len(g.hand(p)) for p in range(n)] == [7] * n
    assert len(g.discard) == 1
    assert g.color == g.top.color
    assert g.draw_count == 108 - 7 * n - 1
    assert_conserved(g)
    kinds_ = [e.kind for e in g.deal_events]
    assert kinds_[0] == "deal" and g.deal_events[0].player == n - 1
    assert "start" in kinds_
    start = [e for e in g.deal_events if e.kind == "start"][0]
    assert start.cards == (g.top,)
    for p in range(1, n):
        assert g.legal_actions(p) == []


@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_starting_skip_skips_player_zero(n):
    g = seed_with_start(n, "S")
    assert g.current == 1
    assert g.direction == 1
    assert [len(g.hand(p)) for p in range(n)] == [7] * n
    assert any(e.kind == "skip" and e.player == 0 for e in g.deal_events)
    assert g.legal_actions(0) == []
    assert g.to_act() == [1]


@pytest.mark.parametrize("n", [3, 4, 6])
def test_starting_reverse_dealer_starts_and_play_goes_down(n):
    g = seed_with_start(n, "R")
    assert g.current == n - 1
    assert g.direction == -1
    assert [len(g.hand(p)) for p in range(n)] == [7] * n
    assert any(e.kind == "reverse" for e in g.deal_events)
    finish_turn_without_playing(g, n - 1)
    assert g.current == n - 2


def test_starting_reverse_two_players_dealer_starts():
    g = seed_with_start(2, "R")
    assert g.dealer == 1
    assert g.current == 1
    assert g.to_act() == [1]
    assert [len(g.hand(p)) for p in range(2)] == [7, 7]
    finish_turn_without_playing(g, 1)
    assert g.current == 0


@pytest.mark.parametrize("n", [2, 3, 5])
def test_starting_draw_two_player_zero_draws_two_and_is_skipped(n):
    g = seed_with_start(n, "+2")
    assert len(g.hand(0)) == 9
    assert [len(g.hand(p)) for p in range(1, n)] == [7] * (n - 1)
    assert g.current == 1
    assert g.draw_count == 108 - 7 * n - 1 - 2
    draws = [e for e in g.deal_events if e.kind == "draw" and e.player == 0 and e.reason != "deal"]
    assert len(draws) == 1 and draws[0].count == 2
    assert set(draws[0].cards) <= set(g.hand(0))
    assert any(e.kind == "skip" and e.player == 0 for e in g.deal_events)
    assert_conserved(g)


def test_wilds_are_never_the_starting_card():
    returned = []
    for seed in range(400):
        g = core.new_game("classic", 4, seed=seed)
        assert not g.top.is_wild
        assert len(g.discard) == 1
        assert g.color == g.top.color
        ret = [e for e in g.deal_events if e.kind == "return"]
        for e in ret:
            assert e.cards[0].is_wild
            # it went back into the pile, not into a hand or the discard
            assert e.cards[0].id in g.to_dict()["draw_pile"]
        returned += [str(e.cards[0]) for e in ret]
        assert_conserved(g)
    assert "W" in returned and "W+4" in returned


def test_returned_wild_then_start_card_recorded_in_deal_events():
    g = seed_with_start(4, None, want_return=True)
    evs = g.deal_events
    ks = [e.kind for e in evs]
    assert ks.index("return") < ks.index("start")
    assert [e for e in evs if e.kind == "start"][0].cards[0] == g.top


# -- matching ------------------------------------------------------------------------


def test_match_by_colour_number_or_wild_and_nothing_else():
    g = make(3, [["R9", "B5", "G7", "W", "W+4", "YS", "R+2"], PAD, PAD], ["G1", "R5"])
    assert plays(g, 0) == {
        ("R9", None), ("B5", None), ("R+2", None),
        *(("W", c) for c in core.COLORS), *(("W+4", c) for c in core.COLORS),
    }
    assert Action("draw") in g.legal_actions(0)
    assert Action("pass") not in g.legal_actions(0)
    assert Action("uno") not in g.legal_actions(0)
    assert len(g.legal_actions(0)) == 3 + 8 + 1


@pytest.mark.parametrize("top, match, nomatch", [
    ("GS", "YS", "YR"), ("YR", "BR", "B+2"), ("B+2", "R+2", "RS"), ("R0", "G0", "G1"),
])
def test_match_by_symbol(top, match, nomatch):
    g = make(2, [[match, nomatch], PAD], [top])
    assert plays(g, 0) == {(match, None)}


def test_legal_actions_list_each_card_once_per_copy():
    g = make(2, [["R3", "R3", "W", "W"], PAD], ["R5"])
    acts = g.legal_actions(0)
    assert len(acts) == len(set(acts))
    assert sum(1 for a in acts if a.kind == "play" and a.color is None) == 2  # both R3 copies
    assert sum(1 for a in acts if a.kind == "play" and a.color is not None) == 8


def test_number_play_moves_the_card_changes_colour_and_passes_turn():
    g = make(3, [["B5", "Y9"], PAD, PAD], ["R5"])
    events = play(g, 0, "B5")
    assert hand(g, 0) == ["Y9"]
    assert str(g.top) == "B5"
    assert notes(g.discard) == ["R5", "B5"]
    assert g.color == "blue"
    assert g.current == 1
    assert g.direction == 1
    assert [e.kind for e in events][0] == "play"
    assert_conserved(g)


@pytest.mark.parametrize("wild", ["W", "W+4"])
def test_wild_always_playable_and_names_colour(wild):
    g = make(3, [[wild, "B9", "B8"], ["G2", "G3"], PAD], ["R5"])
    ev = play(g, 0, wild, "green")
    assert g.color == "green"
    assert str(g.top) == wild
    assert ev[0].color == "green"
    if wild == "W":
        assert g.current == 1
        # only green cards (and wilds) match now
        assert plays(g, 1) == {("G2", None), ("G3", None)}


def test_wild_on_wild_and_colour_of_a_wild_top():
    g = make(2, [["W", "R1", "Y4", "B6"], PAD], ["B2", "W"], color="yellow")
    assert plays(g, 0) == {("Y4", None), *(("W", c) for c in core.COLORS)}
    play(g, 0, "W", "red")
    assert g.color == "red"


# -- drawing --------------------------------------------------------------------------


def test_draw_allowed_even_when_a_play_exists_and_unplayable_draw_ends_turn():
    g = make(3, [["R1", "B2"], PAD, PAD], ["R5"], ["G2"])
    assert plays(g, 0) == {("R1", None)}
    assert Action("draw") in g.legal_actions(0)
    n_draw = g.draw_count
    events = g.apply(0, Action("draw"))
    assert hand(g, 0) == ["R1", "B2", "G2"]
    assert g.draw_count == n_draw - 1
    assert g.current == 1
    assert g.phase == "play"
    assert g.color == "red"
    d = [e for e in events if e.kind == "draw"]
    assert len(d) == 1 and d[0].count == 1 and d[0].player == 0
    assert_conserved(g)


def test_playable_draw_may_be_played():
    g = make(3, [["B1", "B2"], PAD, PAD], ["R5"], ["R3", "G8"])
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "R3"]
    assert g.phase == "drawn"
    assert g.current == 0
    assert g.to_act() == [0]
    assert set(g.legal_actions(0)) == {Action("play", cid(g, 0, "R3")), Action("pass")}
    assert g.legal_actions(1) == []
    play(g, 0, "R3")
    assert str(g.top) == "R3"
    assert hand(g, 0) == ["B1", "B2"]
    assert g.current == 1
    assert g.phase == "play"


def test_playable_draw_may_be_kept_with_pass():
    g = make(3, [["R1", "B2"], PAD, PAD], ["R5"], ["R3", "G8"])
    g.apply(0, Action("draw"))
    assert g.phase == "drawn"
    # only the drawn card, not R1 which also matches
    assert plays(g, 0) == {("R3", None)}
    assert_illegal(g, 0, Action("play", cid(g, 0, "R1")), "drew", "only")
    assert_illegal(g, 0, Action("draw"), "already drawn")
    events = g.apply(0, Action("pass"))
    assert hand(g, 0) == ["R1", "B2", "R3"]
    assert str(g.top) == "R5"
    assert g.current == 1
    assert g.phase == "play"
    assert [e.kind for e in events] == ["pass"]


def test_drawn_wild_offered_in_every_colour():
    g = make(2, [["B1", "B2"], PAD], ["R5"], ["W+4"])
    g.apply(0, Action("draw"))
    assert plays(g, 0) == {("W+4", c) for c in core.COLORS}
    assert Action("pass") in g.legal_actions(0)


def test_draw_until_playable_keeps_drawing():
    opts = {"draw_until_playable": True}
    g = make(3, [["B1", "B2"], PAD, PAD], ["R5"], ["G2", "B4", "Y9", "R3", "G1"], options=opts)
    events = g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "G2", "B4", "Y9", "R3"]
    assert g.phase == "drawn"
    assert g.current == 0
    assert plays(g, 0) == {("R3", None)}
    assert sum(e.count for e in events if e.kind == "draw") == 4
    g.apply(0, Action("pass"))
    assert g.current == 1
    # the next card in the pile is the one after R3
    g.apply(1, Action("draw"))
    assert "G1" in hand(g, 1)


def test_draw_until_playable_stops_at_a_number_match():
    g = make(3, [["B1", "B2"], PAD, PAD], ["R5"], ["G2", "Y5", "R7"], options={"draw_until_playable": True})
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "G2", "Y5"]
    assert plays(g, 0) == {("Y5", None)}


def test_without_draw_until_playable_one_card_only():
    g = make(3, [["B1", "B2"], PAD, PAD], ["R5"], ["G2", "B4", "R3"])
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "G2"]
    assert g.current == 1


# -- action cards ---------------------------------------------------------------------


def test_skip_three_players():
    g = make(3, [["RS", "B1"], PAD, PAD], ["R5"])
    events = play(g, 0, "RS")
    assert g.current == 2
    assert g.direction == 1
    assert g.color == "red"
    assert any(e.kind == "skip" and e.player == 1 for e in events)
    assert [len(g.hand(p)) for p in range(3)] == [1, 3, 3]


def test_skip_against_the_direction():
    g = make(4, [PAD, ["GS", "B1"], PAD2, PAD3], ["G5"], current=1, direction=-1)
    play(g, 1, "GS")
    assert g.current == 3


def test_reverse_three_players():
    g = make(3, [["RR", "B1"], ["Y7", "Y8"], ["Y9", "R4"]], ["R5"])
    events = play(g, 0, "RR")
    assert g.direction == -1
    assert g.current == 2
    assert any(e.kind == "reverse" for e in events)
    play(g, 2, "R4")
    assert g.current == 1


def test_reverse_four_players_and_back():
    g = make(4, [["RR", "B1"], PAD, PAD, ["BR", "G1"]], ["R5"])
    play(g, 0, "RR")
    assert (g.current, g.direction) == (3, -1)
    play(g, 3, "BR")
    assert (g.current, g.direction) == (0, 1)


def test_draw_two_next_draws_two_and_loses_turn():
    g = make(3, [["R+2", "B1"], ["Y7", "Y8"], PAD], ["R5"], ["G1", "G2", "G3"])
    events = play(g, 0, "R+2")
    assert hand(g, 1) == ["Y7", "Y8", "G1", "G2"]
    assert g.current == 2
    assert g.color == "red"
    d = [e for e in events if e.kind == "draw"]
    assert len(d) == 1 and d[0].player == 1 and d[0].count == 2
    assert any(e.kind == "skip" and e.player == 1 for e in events)
    g.apply(2, Action("draw"))
    assert hand(g, 2) == PAD + ["G3"]
    assert_conserved(g)


def test_draw_two_cannot_be_stacked():
    g = make(3, [["R+2", "B1", "B2"], ["B+2", "G+2", "Y1"], PAD2], ["R5"], ["G1", "G2"])
    play(g, 0, "R+2")
    # Player 1 never gets to answer with their own +2: the draw is applied at once.
    assert hand(g, 1) == ["B+2", "G+2", "Y1", "G1", "G2"]
    assert g.current == 2
    assert g.legal_actions(1) == []
    assert g.to_act() == [2]
    assert_illegal(g, 1, Action("play", cid(g, 1, "G+2")), "turn")


def test_draw_two_against_the_direction():
    g = make(4, [PAD, ["B+2", "G9"], PAD2, PAD3], ["B5"], ["G1", "G2"], current=1, direction=-1)
    play(g, 1, "B+2")
    assert hand(g, 0) == PAD + ["G1", "G2"]
    assert g.current == 3


# -- Wild Draw Four -------------------------------------------------------------------


def test_wild_draw_four_always_offered_even_holding_the_colour():
    g = make(3, [["W+4", "R1", "R2"], PAD, PAD], ["R5"])
    assert {("W+4", c) for c in core.COLORS} <= plays(g, 0)


def test_wild_draw_four_victim_only_challenges_or_draws():
    g = make(3, [["W+4", "B1", "B2"], ["G7", "W", "Y5"], PAD], ["R5"])
    play(g, 0, "W+4", "green")
    assert g.color == "green"
    assert g.current == 1
    assert g.to_act() == [1]
    assert set(g.legal_actions(1)) == {Action("challenge"), Action("draw")}
    assert g.legal_actions(0) == [] and g.legal_actions(2) == []
    obs = g.observation(1)
    assert obs["pending"]["by"] == 0
    assert "bluff" not in obs["pending"]
    # the victim may not play, even a matching card or a wild
    assert_illegal(g, 1, Action("play", cid(g, 1, "G7")), "challenge")
    assert_illegal(g, 1, Action("play", cid(g, 1, "W"), "red"), "challenge")
    assert_illegal(g, 1, Action("pass"), "challenge")


def test_wild_draw_four_accepted():
    g = make(3, [["W+4", "B1", "B2"], ["G7"] + PAD, PAD], ["R5"], ["G1", "G2", "G3", "G4", "G5"])
    play(g, 0, "W+4", "blue")
    events = g.apply(1, Action("draw"))
    assert hand(g, 1) == ["G7"] + PAD + ["G1", "G2", "G3", "G4"]
    assert hand(g, 0) == ["B1", "B2"]
    assert g.current == 2
    assert g.color == "blue"
    assert g.phase == "play"
    assert sum(e.count for e in events if e.kind == "draw") == 4
    assert any(e.kind == "skip" and e.player == 1 for e in events)
    assert_conserved(g)


def test_wild_draw_four_challenge_bluff():
    # Player 0 held R1 (red was in play): a bluff.
    g = make(3, [["W+4", "R1", "B2"], ["G7"] + PAD, PAD], ["R5"], ["G1", "G2", "G3", "G4", "G5"])
    play(g, 0, "W+4", "blue")
    events = g.apply(1, Action("challenge"))
    assert hand(g, 0) == ["R1", "B2", "G1", "G2", "G3", "G4"]
    assert hand(g, 1) == ["G7"] + PAD
    assert g.current == 1
    assert g.phase == "play"
    assert g.color == "blue"  # the named colour stands
    assert str(g.top) == "W+4"
    ch = [e for e in events if e.kind == "challenge"]
    assert len(ch) == 1 and ch[0].player == 1 and ch[0].target == 0 and ch[0].reason == "guilty"
    # the challenger now plays a normal turn
    assert Action("draw") in g.legal_actions(1)
    assert Action("challenge") not in g.legal_actions(1)
    assert_conserved(g)


def test_wild_draw_four_challenge_bluff_with_colour_named_by_a_wild():
    # The colour in play came from a Wild (yellow); holding Y3 makes the W+4 a bluff.
    g = make(3, [["W+4", "Y3", "R5"], PAD2, PAD3], ["R9", "W"], ["G1", "G2", "G3", "G4"], color="yellow")
    play(g, 0, "W+4", "red")
    g.apply(1, Action("challenge"))
    assert len(g.hand(0)) == 6
    assert len(g.hand(1)) == 3
    assert g.current == 1


def test_wild_draw_four_challenge_legal_play():
    g = make(3, [["W+4", "B1", "G2"], ["G7"] + PAD, PAD], ["R5"],
             ["Y4", "Y5", "Y6", "Y7", "Y8", "Y9", "G0"])
    play(g, 0, "W+4", "green")
    events = g.apply(1, Action("challenge"))
    assert hand(g, 1) == ["G7"] + PAD + ["Y4", "Y5", "Y6", "Y7", "Y8", "Y9"]
    assert hand(g, 0) == ["B1", "G2"]
    assert g.current == 2
    assert g.color == "green"
    ch = [e for e in events if e.kind == "challenge"]
    assert ch[0].reason == "innocent"
    # The challenged hand is shown to the challenger only.
    show = [e for e in events if e.kind == "show_hand"]
    assert len(show) == 1
    assert set(show[0].view(1).cards) == set(g.hand(0))
    assert show[0].view(2).cards == () and show[0].view(2).count == 2
    assert show[0].view(None).cards == ()
    assert_conserved(g)


def test_matching_number_of_another_colour_is_not_a_bluff():
    # Red 5 in play; player 0 holds B5 (playable!) but no red card: the W+4 is legal.
    g = make(3, [["W+4", "B5", "G2"], PAD, PAD], ["R5"], ["Y4", "Y5", "Y6", "Y7", "Y8", "Y9"])
    assert ("B5", None) in plays(g, 0)
    play(g, 0, "W+4", "yellow")
    g.apply(1, Action("challenge"))
    assert len(g.hand(1)) == 3 + 6
    assert hand(g, 0) == ["B5", "G2"]
    assert g.current == 2


def test_wild_card_in_hand_does_not_make_a_bluff():
    g = make(3, [["W+4", "W", "G2"], PAD, PAD], ["R5"], ["Y4", "Y5", "Y6", "Y7", "Y8", "Y9"])
    play(g, 0, "W+4", "yellow")
    g.apply(1, Action("challenge"))
    assert len(g.hand(1)) == 9
    assert len(g.hand(0)) == 2


def test_only_the_next_player_may_challenge():
    g = make(4, [["W+4", "B1", "G2"], PAD, PAD2, PAD3], ["R5"])
    play(g, 0, "W+4", "green")
    assert_illegal(g, 2, Action("challenge"), "turn")
    assert_illegal(g, 3, Action("challenge"), "turn")
    assert_illegal(g, 0, Action("challenge"), "turn")
    assert_illegal(g, 2, Action("draw"), "turn")


def test_wild_draw_four_against_the_direction():
    g = make(4, [PAD, ["W+4", "B1", "B2"], PAD2, PAD3], ["R5"], ["G1", "G2", "G3", "G4"], current=1, direction=-1)
    play(g, 1, "W+4", "blue")
    assert g.current == 0
    assert set(g.legal_actions(0)) == {Action("challenge"), Action("draw")}
    g.apply(0, Action("draw"))
    assert len(g.hand(0)) == 7
    assert g.current == 3


# -- two players --------------------------------------------------------------------


@pytest.mark.parametrize("card", ["RS", "RR"])
def test_two_players_skip_and_reverse_play_again(card):
    g = make(2, [[card, "R1", "B2"], PAD], ["R5"])
    play(g, 0, card)
    assert g.current == 0
    assert g.to_act() == [0]
    assert len(g.hand(1)) == 3
    assert g.legal_actions(1) == []
    assert {a.kind for a in g.legal_actions(0)} >= {"play", "draw"}


def test_two_players_draw_two_turn_comes_back():
    g = make(2, [["R+2", "B1"], PAD], ["R5"], ["G1", "G2"])
    play(g, 0, "R+2")
    assert hand(g, 1) == PAD + ["G1", "G2"]
    assert g.current == 0


def test_two_players_wild_draw_four_accepted_turn_comes_back():
    g = make(2, [["W+4", "B1"], PAD], ["R5"], ["G1", "G2", "G3", "G4"])
    play(g, 0, "W+4", "blue")
    assert g.current == 1
    g.apply(1, Action("draw"))
    assert hand(g, 1) == PAD + ["G1", "G2", "G3", "G4"]
    assert g.current == 0


def test_two_players_failed_challenge_turn_comes_back():
    g = make(2, [["W+4", "B1"], PAD], ["R5"], ["G1", "G2", "G3", "G4", "G5", "G6"])
    play(g, 0, "W+4", "blue")
    g.apply(1, Action("challenge"))
    assert len(g.hand(1)) == 9
    assert g.current == 0


def test_two_players_successful_challenge_challenger_plays():
    g = make(2, [["W+4", "R1"], PAD], ["R5"], ["G1", "G2", "G3", "G4"])
    play(g, 0, "W+4", "blue")
    g.apply(1, Action("challenge"))
    assert hand(g, 0) == ["R1", "G1", "G2", "G3", "G4"]
    assert g.current == 1


# -- UNO ------------------------------------------------------------------------------


def test_uno_before_playing_second_to_last_card():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    assert Action("uno") in g.legal_actions(0)
    events = g.apply(0, Action("uno"))
    assert [e.kind for e in events] == ["uno"] and events[0].player == 0
    assert g.current == 0  # calling is not a turn
    assert Action("uno") not in g.legal_actions(0)
    play(g, 0, "R3")
    assert hand(g, 0) == ["G7"]
    # called properly: no catch offered to anyone
    assert g.to_act() == [1]
    assert all(a.kind != "catch" for q in range(3) for a in g.legal_actions(q))
    assert g.observation(2)["players"][0]["uno"] is True
    assert_illegal(g, 2, Action("catch", target=0), "nobody")


def test_uno_not_offered_without_a_play_or_with_other_hand_sizes():
    g = make(3, [["G7", "B8"], PAD, PAD], ["R5"])
    assert Action("uno") not in g.legal_actions(0)
    assert_illegal(g, 0, Action("uno"), "uno")
    g = make(3, [["R3", "G7", "B8"], PAD, PAD], ["R5"])
    assert Action("uno") not in g.legal_actions(0)
    assert_illegal(g, 0, Action("uno"))
    # not on someone else's turn either
    g = make(3, [PAD, ["R3", "G7"], PAD], ["R5"])
    assert Action("uno") not in g.legal_actions(1)
    assert_illegal(g, 1, Action("uno"))


def test_uno_after_drawing_a_playable_card():
    g = make(3, [["G7"], PAD, PAD], ["R5"], ["R9"])
    g.apply(0, Action("draw"))
    assert set(g.legal_actions(0)) == {Action("play", cid(g, 0, "R9")), Action("uno"), Action("pass")}
    g.apply(0, Action("uno"))
    play(g, 0, "R9")
    assert g.to_act() == [1]


def test_uno_call_is_for_the_play_it_announces():
    """A call covers the second-to-last card played with it. Calling after drawing and then
    keeping the card (pass) announces nothing: on a later turn, holding 2 cards with a play,
    UNO must be offered again, and playing down to one card without calling exposes you."""
    g = make(3, [["G7"], PAD, PAD2], ["R5"], ["R9", "B1", "B2"])
    g.apply(0, Action("draw"))
    g.apply(0, Action("uno"))
    g.apply(0, Action("pass"))  # keeps R9 instead of playing it
    g.apply(1, Action("draw"))  # B1: no match
    g.apply(2, Action("draw"))  # B2: no match
    assert g.current == 0 and hand(g, 0) == ["G7", "R9"] and str(g.top) == "R5"
    assert Action("uno") in g.legal_actions(0), "UNO not offered for the second-to-last card"
    play(g, 0, "R9")  # no call this time
    assert g.to_act() == [0, 1, 2]
    assert Action("catch", target=0) in g.legal_actions(2)


def test_missed_uno_exposes_the_player_to_everyone():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    play(g, 0, "R3")
    assert g.current == 1
    assert g.to_act() == [0, 1, 2]
    assert g.legal_actions(2) == [Action("catch", target=0)]
    assert Action("catch", target=0) in g.legal_actions(1)
    assert g.legal_actions(0) == [Action("uno")]
    assert g.observation(1)["players"][0]["exposed"] is True


def test_catch_makes_the_player_draw_the_penalty():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"], ["B1", "B2", "B3"])
    play(g, 0, "R3")
    events = g.apply(2, Action("catch", target=0))
    assert hand(g, 0) == ["G7", "B1", "B2"]
    assert g.current == 1  # catching is not a turn
    assert g.to_act() == [1]
    assert all(a.kind != "catch" for q in range(3) for a in g.legal_actions(q))
    c = [e for e in events if e.kind == "catch"]
    assert len(c) == 1 and c[0].player == 2 and c[0].target == 0
    d = [e for e in events if e.kind == "draw"]
    assert d[0].player == 0 and d[0].count == 2 and d[0].reason == "uno"
    assert_illegal(g, 1, Action("catch", target=0), "nobody")
    assert_conserved(g)


def test_the_current_player_may_catch_before_acting():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"], ["B1", "B2"])
    play(g, 0, "R3")
    g.apply(1, Action("catch", target=0))
    assert len(g.hand(0)) == 3
    assert g.current == 1
    assert Action("draw") in g.legal_actions(1)


@pytest.mark.parametrize("penalty", [0, 1, 4])
def test_uno_penalty_option(penalty):
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"], ["B1", "B2", "B3", "B4", "B5"],
             options={"uno_penalty": penalty})
    play(g, 0, "R3")
    g.apply(1, Action("catch", target=0))
    assert len(g.hand(0)) == 1 + penalty


def test_late_uno_call_closes_the_window():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    play(g, 0, "R3")
    g.apply(0, Action("uno"))
    assert g.to_act() == [1]
    assert hand(g, 0) == ["G7"]
    assert_illegal(g, 2, Action("catch", target=0), "nobody")
    assert_illegal(g, 0, Action("uno"))


@pytest.mark.parametrize("how", ["play", "draw"])
def test_window_closes_when_the_next_player_acts(how):
    g = make(3, [["R3", "G7"], ["R8", "B1", "B2"], PAD], ["R5"], ["B9", "B8"])
    play(g, 0, "R3")
    if how == "play":
        play(g, 1, "R8")
    else:
        g.apply(1, Action("draw"))
    assert 0 not in g.to_act()
    assert all(a.kind != "catch" for q in range(3) for a in g.legal_actions(q))
    assert_illegal(g, 2, Action("catch", target=0), "nobody")
    assert_illegal(g, 0, Action("uno"))
    assert hand(g, 0) == ["G7"]


def test_window_closes_when_the_victim_answers_a_wild_draw_four():
    g = make(3, [["W+4", "G7"], PAD, PAD], ["R5"], ["B9", "B8", "B7", "B6"])
    play(g, 0, "W+4", "green")
    assert g.to_act() == [0, 1, 2]
    assert Action("catch", target=0) in g.legal_actions(2)
    g.apply(1, Action("draw"))
    assert g.to_act() == [2]
    assert_illegal(g, 2, Action("catch", target=0), "nobody")


def test_catch_wrong_target_or_self():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    play(g, 0, "R3")
    assert_illegal(g, 2, Action("catch", target=1), "catch")
    assert_illegal(g, 0, Action("catch", target=0), "yourself")
    assert_illegal(g, 2, Action("catch"), "catch")


def test_catch_when_nobody_is_exposed():
    g = make(3, [["R3", "G7", "B4"], ["G1"], PAD], ["R5"])
    # player 1 holds a single card but got it some other way: no catch
    assert_illegal(g, 2, Action("catch", target=1), "nobody")
    assert_illegal(g, 0, Action("catch", target=1), "nobody")


def test_two_players_skip_down_to_one_card_can_be_caught():
    g = make(2, [["RS", "G7"], PAD], ["R5"], ["B1", "B2"])
    play(g, 0, "RS")
    assert g.current == 0
    assert g.to_act() == [0, 1]
    assert g.legal_actions(1) == [Action("catch", target=0)]
    g.apply(1, Action("catch", target=0))
    assert hand(g, 0) == ["G7", "B1", "B2"]
    assert g.current == 0


def test_exposed_by_draw_two_window_open_until_next_turn_player_acts():
    g = make(3, [["R+2", "G7"], PAD, ["R1", "B1"]], ["R5"], ["Y4", "Y5", "B2", "B3"])
    play(g, 0, "R+2")
    assert len(g.hand(1)) == 5  # the victim drew; that did not close the window
    assert g.current == 2
    assert Action("catch", target=0) in g.legal_actions(1)
    g.apply(1, Action("catch", target=0))
    assert hand(g, 0) == ["G7", "B2", "B3"]


# -- empty draw pile ---------------------------------------------------------------------


def _full_deck_notes() -> list[str]:
    return [str(c) for c in core.deck("classic")]


def test_reshuffle_discards_except_top_when_draw_pile_is_empty():
    rest = _full_deck_notes()
    h0 = ["G7", "B8"]
    h1 = ["Y1", "Y2"]
    for t in h0 + h1 + ["R5"]:
        rest.remove(t)
    discard = rest + ["R5"]  # everything else is in the discard pile, R5 on top
    g = make(2, [h0, h1], discard)
    assert g.draw_count == 0
    assert len(g.discard) == 104
    assert Action("draw") in g.legal_actions(0)
    events = g.apply(0, Action("draw"))
    assert notes(g.discard) == ["R5"]
    assert g.color == "red"
    assert len(g.hand(0)) == 3
    assert g.draw_count == 102
    r = [e for e in events if e.kind == "reshuffle"]
    assert len(r) == 1 and r[0].count == 103
    assert_conserved(g)


def test_reshuffle_in_the_middle_of_a_penalty():
    """One card left to draw, a Draw Two: the second card comes from the reshuffled discards."""
    rest = _full_deck_notes()
    h0 = ["R+2", "B8"]
    for t in h0 + ["G3", "R5", "Y9"]:
        rest.remove(t)
    # Player 1 holds everything else; the draw pile is just Y9; G3 and R5 lie below the top.
    g = make(2, [h0, rest], ["G3", "R5"], draw=["Y9"])
    assert g.draw_count == 1
    events = play(g, 0, "R+2")
    got = notes(g.hand(1)[len(rest):])
    assert len(got) == 2 and got[0] == "Y9" and got[1] in ("G3", "R5")
    assert notes(g.discard) == ["R+2"]
    assert g.draw_count == 1
    assert [e.count for e in events if e.kind == "reshuffle"] == [2]
    assert g.current == 0
    assert_conserved(g)


def _nothing_to_draw(h0):
    rest = _full_deck_notes()
    for t in h0 + ["R5"]:
        rest.remove(t)
    return make(2, [h0, rest], ["R5"])


def test_nothing_to_draw_replaces_draw_with_pass():
    g = _nothing_to_draw(["G7", "B8"])
    assert g.draw_count == 0 and len(g.discard) == 1
    assert g.legal_actions(0) == [Action("pass")]
    assert_illegal(g, 0, Action("draw"), "nothing")
    events = g.apply(0, Action("pass"))
    assert [e.kind for e in events] == ["pass"]
    assert g.current == 1
    assert hand(g, 0) == ["G7", "B8"]
    assert_conserved(g)


def test_nothing_to_draw_but_a_play_offers_play_or_pass():
    g = _nothing_to_draw(["R7", "B8"])
    assert set(g.legal_actions(0)) == {Action("play", cid(g, 0, "R7")), Action("uno"), Action("pass")}


def test_pass_not_allowed_when_a_card_can_be_drawn():
    g = make(3, [["R3", "G7", "B1"], PAD, PAD], ["R5"])
    assert_illegal(g, 0, Action("pass"), "pass")


# -- scoring and matches -------------------------------------------------------------------


def test_going_out_wins_and_scores_other_hands():
    g = make(3, [["R5"], ["Y7", "BS", "GR", "W"], ["R+2", "W+4", "B0", "G9"]], ["R1"],
             scores=[10, 20, 30])
    events = play(g, 0, "R5")
    assert g.over
    assert g.winner == 0
    expected = 7 + 20 + 20 + 50 + 20 + 50 + 0 + 9
    assert g.scores == [10 + expected, 20, 30]
    ro = [e for e in events if e.kind == "round_over"]
    assert len(ro) == 1 and ro[0].player == 0 and ro[0].points == expected
    assert g.to_act() == []
    assert all(g.legal_actions(p) == [] for p in range(3))
    assert not g.match_over and g.match_winner is None
    assert_illegal(g, 1, Action("draw"), "over")
    obs = g.observation(1)
    assert obs["over"] and obs["winner"] == 0
    assert [[c["id"] for c in h] for h in obs["hands"]] == [[c.id for c in g.hand(p)] for p in range(3)]


def test_going_out_on_a_card_scores_number_faces():
    g = make(2, [["R5"], ["R0", "G1", "B2", "Y3", "R4", "G5", "B6", "Y7", "R8", "G9"]], ["R1"])
    play(g, 0, "R5")
    assert g.scores == [45, 0]


def test_last_card_draw_two_still_hits_and_counts():
    g = make(3, [["R+2"], ["B9"], ["Y1"]], ["R5"], ["W", "B3", "G4"], direction=-1)
    play(g, 0, "R+2")
    assert g.over and g.winner == 0
    # direction -1: player 2 is next and draws W, B3
    assert hand(g, 2) == ["Y1", "W", "B3"]
    assert hand(g, 1) == ["B9"]
    assert g.scores == [9 + 1 + 50 + 3, 0, 0]


def test_last_card_wild_draw_four_still_hits_and_counts_without_challenge():
    g = make(3, [["W+4"], ["B9"], ["Y1"]], ["R5"], ["W", "B3", "G4", "RS"])
    play(g, 0, "W+4", "green")
    assert g.over and g.winner == 0
    assert g.phase == "over"
    assert hand(g, 1) == ["B9", "W", "B3", "G4", "RS"]
    assert g.scores == [9 + 50 + 3 + 4 + 20 + 1, 0, 0]
    assert g.to_act() == []


def test_reaching_target_score_ends_the_match():
    g = make(3, [["R5"], ["W", "W+4"], ["G9"]], ["R1"], scores=[400, 450, 0])
    assert not g.match_over
    events = play(g, 0, "R5")
    assert g.scores == [509, 450, 0]
    assert g.match_over
    assert g.match_winner == 0
    mo = [e for e in events if e.kind == "match_over"]
    assert len(mo) == 1 and mo[0].player == 0
    with pytest.raises(ValueError):
        g.next_round()
    assert g.scores == [509, 450, 0]


def test_target_score_option():
    g = make(2, [["R5"], ["G9"]], ["R1"], options={"target_score": 9})
    play(g, 0, "R5")
    assert g.match_over and g.match_winner == 0
    g = make(2, [["R5"], ["G9"]], ["R1"], options={"target_score": 10})
    play(g, 0, "R5")
    assert g.over and not g.match_over and g.match_winner is None


def test_next_round_moves_the_deal_and_keeps_scores():
    g = make(4, [["R5"], ["G9"], ["B1"], ["Y2"]], ["R1"], seed=21)
    with pytest.raises(ValueError):
        g.next_round()  # round still going
    play(g, 0, "R5")
    assert g.scores == [12, 0, 0, 0]
    events = g.next_round()
    assert not g.over and g.winner is None
    assert g.round == 1
    assert g.dealer == 0
    assert g.scores == [12, 0, 0, 0]
    assert events == g.deal_events
    assert events[0].kind == "deal" and events[0].player == 0
    assert sum(len(g.hand(p)) for p in range(4)) in (28, 30)
    assert_conserved(g)
    start = g.top.rank
    expected_current = {"S": 2, "R": 0, "+2": 2}.get(start, 1)
    assert g.current == expected_current


def test_next_round_start_effects_follow_the_dealer():
    """With dealer 0 (round 1), a starting Draw Two hits player 1 and player 2 starts."""
    for seed in range(3000):
        g = make(4, [["R5"], ["G9"], ["B1"], ["Y2"]], ["R1"], seed=seed)
        play(g, 0, "R5")
        g.next_round()
        if g.top.rank == "+2":
            break
    else:
        raise AssertionError("no seed gives a starting Draw Two in round 1")
    assert g.dealer == 0
    assert [len(g.hand(p)) for p in range(4)] == [7, 9, 7, 7]
    assert g.current == 2


def test_a_whole_match_by_random_play():
    import random

    rng = random.Random(5)
    g = core.new_game("classic", 3, seed=5, options={"target_score": 150})
    dealers = [g.dealer]
    totals = [0, 0, 0]
    rounds = 0
    while True:
        while not g.over:
            p = rng.choice(g.to_act())
            g.apply(p, rng.choice(g.legal_actions(p)))
        rounds += 1
        totals[g.winner] += g.observation(None)["points"]
        assert g.scores == totals
        if g.match_over:
            break
        assert max(g.scores) < 150
        g.next_round()
        dealers.append(g.dealer)
    assert g.match_winner == max(range(3), key=lambda p: g.scores[p])
    assert g.scores[g.match_winner] >= 150
    assert dealers == [(2 + i) % 3 for i in range(rounds)]
    with pytest.raises(ValueError):
        g.next_round()


# -- illegal actions ------------------------------------------------------------------------


def test_illegal_wrong_turn():
    g = make(3, [["R3", "G7"], ["R4", "B1"], PAD], ["R5"])
    assert_illegal(g, 1, Action("play", cid(g, 1, "R4")), "turn", "Player 1")
    assert_illegal(g, 2, Action("draw"), "turn")
    assert_illegal(g, 1, Action("pass"), "turn")


def test_illegal_card_not_held():
    g = make(3, [["R3", "G7"], ["R4", "B1"], PAD], ["R5"])
    assert_illegal(g, 0, Action("play", cid(g, 1, "R4")), "hold")
    assert_illegal(g, 0, Action("play", 9999), "hold")
    assert_illegal(g, 0, Action("play"), "hold")


def test_illegal_non_matching_card():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    msg = assert_illegal(g, 0, Action("play", cid(g, 0, "G7")), "G7")
    assert "R5" in msg or "red" in msg


def test_illegal_wild_without_colour_or_bad_colour():
    g = make(3, [["W", "W+4", "R3"], PAD, PAD], ["R5"])
    assert_illegal(g, 0, Action("play", cid(g, 0, "W")), "colour")
    assert_illegal(g, 0, Action("play", cid(g, 0, "W+4")), "colour")
    assert_illegal(g, 0, Action("play", cid(g, 0, "W"), "purple"), "colour")
    assert_illegal(g, 0, Action("play", cid(g, 0, "R3"), "blue"), "not a wild")


def test_illegal_challenge_when_no_wild_draw_four():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    assert_illegal(g, 0, Action("challenge"), "challenge")
    # a Wild Draw Four that was accepted can no longer be challenged
    g = make(3, [["W+4", "G7"], PAD, PAD], ["R5"])
    play(g, 0, "W+4", "blue")
    g.apply(1, Action("draw"))
    assert_illegal(g, 2, Action("challenge"), "challenge")
    assert_illegal(g, 1, Action("challenge"), "turn")


def test_illegal_unknown_kind_bad_player_and_junk():
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    assert_illegal(g, 0, Action("swap", target=1))
    assert_illegal(g, 3, Action("draw"), "player")
    assert_illegal(g, -1, Action("draw"), "player")
    assert_illegal(g, 0, {"kind": "play", "card": "R3"})
    assert_illegal(g, 0, {"kind": "draw", "extra": 1})
    assert_illegal(g, 0, {"card": 3})


def test_illegal_card_id_of_the_wrong_type_leaves_state_unchanged():
    """Card ids are ints: a float equal to a legal card's id must be refused like any junk,
    not half-applied (here the open UNO window would be closed before the crash)."""
    g = make(3, [["R3", "G7"], ["R4", "B1"], PAD], ["R5"])
    play(g, 0, "R3")  # player 0 is exposed (one card, no UNO)
    assert g.to_act() == [0, 1, 2]
    assert_illegal(g, 1, Action("play", float(cid(g, 1, "R4"))))
    assert_illegal(g, 2, Action("catch", target=0.0))


def test_apply_with_something_that_is_not_an_action():
    g = make(3, [["R3", "G7"], PAD, PAD2], ["R5"])
    assert_illegal(g, 0, "draw")
    assert_illegal(g, 0, None)


def test_apply_accepts_action_dicts():
    g = make(3, [["R3", "G7", "B1"], PAD, PAD], ["R5"])
    g.apply(0, {"kind": "play", "card": cid(g, 0, "R3")})
    assert str(g.top) == "R3" and g.current == 1


# -- actions and events ----------------------------------------------------------------------


@pytest.mark.parametrize("action", [
    Action("play", 5), Action("play", 100, "green"), Action("draw"), Action("pass"), Action("uno"),
    Action("catch", target=3), Action("challenge"),
])
def test_action_dict_round_trip(action):
    d = action.to_dict()
    assert d["kind"] == action.kind
    assert core.Action.from_dict(msgpack.unpackb(msgpack.packb(d))) == action
    assert Action.from_dict(d) == action


def test_action_to_dict_omits_empty_fields():
    assert Action("draw").to_dict() == {"kind": "draw"}
    assert Action("play", 3, "red").to_dict() == {"kind": "play", "card": 3, "color": "red"}
    assert Action("catch", target=2).to_dict() == {"kind": "catch", "target": 2}


@pytest.mark.parametrize("d", [
    {"card": 1}, {"kind": 3}, "draw", None, {"kind": "play", "card": "3"}, {"kind": "play", "card": True},
    {"kind": "play", "card": 1, "color": 2}, {"kind": "catch", "target": "1"}, {"kind": "draw", "who": 1},
])
def test_action_from_dict_rejects_junk(d):
    with pytest.raises(ValueError):
        Action.from_dict(d)


def test_draw_event_cards_visible_only_to_the_drawer():
    g = make(3, [["B1", "B2"], PAD, PAD], ["R5"], ["G2"])
    events = g.apply(0, Action("draw"))
    d = [e for e in events if e.kind == "draw"][0]
    assert notes(d.cards) == ["G2"]
    assert d.view(0) == d
    for who in (1, 2, None):
        v = d.view(who)
        assert v.cards == ()
        assert v.count == 1
        assert v.player == 0 and v.kind == "draw"
        assert "cards" not in v.to_dict()
    assert core.Event.from_dict(msgpack.unpackb(msgpack.packb(d.to_dict()))) == d


def test_deal_events_hide_other_hands():
    g = core.new_game("classic", 3, seed=8)
    deals = [e for e in g.deal_events if e.kind == "draw" and e.reason == "deal"]
    assert len(deals) == 3
    for e in deals:
        assert e.count == 7 and len(e.cards) == 7
        assert set(e.cards) <= set(g.hand(e.player))
        for q in range(3):
            if q != e.player:
                assert e.view(q).cards == () and e.view(q).count == 7
    start = [e for e in g.deal_events if e.kind == "start"][0]
    assert start.view(None).cards == (g.top,)  # public


def test_describe_in_words():
    names = ["Ann", "Bob", "Cid"]
    g = make(3, [["B1", "B2"], PAD, PAD], ["R5"], ["G2"])
    d = [e for e in g.apply(0, Action("draw")) if e.kind == "draw"][0]
    assert core.describe(d, names) == "Ann draws green 2."  # in words, as a play names its card
    assert core.describe(d.view(1), names) == "Ann draws 1 card."
    assert core.describe(d.view(1).to_dict(), names) == "Ann draws 1 card."
    # One card, one point: no "1 cards" or "1 points".
    assert core.describe(core.Event("reshuffle", count=1), names) == \
        "The discard pile is shuffled into a new draw pile (1 card)."
    assert core.describe(core.Event("reshuffle", count=40), names).endswith("(40 cards).")
    assert core.describe(core.Event("round_over", player=1, points=1), names) == \
        "Bob wins the round and scores 1 point."
    assert core.describe(core.Event("round_over", player=1, points=0), names).endswith("scores 0 points.")
    g = make(3, [["W", "B2"], PAD, PAD], ["R5"])
    e = play(g, 0, "W", "blue")[0]
    text = core.describe(e, names)
    assert "Ann" in text and "Wild" in text and "blue" in text
    g = make(3, [["R3", "G7"], PAD, PAD], ["R5"])
    play(g, 0, "R3")
    c = g.apply(2, Action("catch", target=0))
    text = core.describe(c[0], names)
    assert "Cid" in text and "Ann" in text and "catch" in text.lower()
    assert "2 cards" in core.describe(c[1].view(1), names)
    g = make(3, [["W+4", "R1"], PAD, PAD], ["R5"])
    play(g, 0, "W+4", "green")
    evs = g.apply(1, Action("challenge"))
    ch = core.describe([e for e in evs if e.kind == "challenge"][0], names)
    assert "Bob" in ch and "Ann" in ch and "bluff" in ch


# -- observation and serialisation of specific positions -------------------------------------


def test_observation_shows_own_hand_and_counts_only():
    g = make(3, [["R3", "G7"], ["B1", "B2", "B3"], PAD], ["Y9", "R5"])
    obs = g.observation(0)
    msgpack.packb(obs)
    assert [c["id"] for c in obs["hand"]] == [c.id for c in g.hand(0)]
    assert [p["cards"] for p in obs["players"]] == [2, 3, 3]
    assert obs["draw_count"] == g.draw_count
    assert obs["top"]["id"] == g.top.id
    assert [c["id"] for c in obs["discard"]] == [c.id for c in g.discard]
    assert {Action.from_dict(a) for a in obs["legal"]} == set(g.legal_actions(0))
    assert "hands" not in obs
    assert "draw_pile" not in obs
    spec = g.observation(None)
    msgpack.packb(spec)
    assert spec["me"] is None
    assert "hand" not in spec and "legal" not in spec and "hands" not in spec


def test_pending_challenge_survives_save_and_restore():
    g = make(3, [["W+4", "R1"], PAD, PAD], ["R5"], ["G1", "G2", "G3", "G4", "G5", "G6"])
    play(g, 0, "W+4", "green")  # a bluff, and player 0 is exposed
    d = msgpack.unpackb(msgpack.packb(g.to_dict()))
    h = core.Game.from_dict(d)
    assert h.to_dict() == g.to_dict()
    assert set(h.legal_actions(1)) == set(g.legal_actions(1))
    assert h.to_act() == g.to_act() == [0, 1, 2]
    for game in (g, h):
        game.apply(1, Action("challenge"))
    assert len(h.hand(0)) == 5
    assert h.to_dict() == g.to_dict()
