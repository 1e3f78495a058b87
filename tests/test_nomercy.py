"""UNO Show 'Em No Mercy (``nomercy``) as the engine implements it (docs/rules/nomercy.md).

One scenario test per card, rule and ruling, built with ``setup`` (named hands, discard
and draw cards) so each test knows which cards move where; then random self-play for 2 to
6 players with invariant checks (cards conserved counting the set-aside hands, the Mercy
rule, hidden hands, public Color Roulette cards, msgpack round trips).
"""

from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest
import support
from support import (
    assert_conserved,
    assert_sound,
    assert_illegal,
    cid,
    hand,
    notes,
    play,
    random_unlisted,
    round_trip_continue,
    seen_cards,
)

import core
from core import Action, IllegalAction

DECK_SIZE = 168

# -- helpers ------------------------------------------------------------------------


def make(n, hands, discard, draw=(), **kw):
    return support.make("nomercy", n, hands, discard, draw, **kw)


def nums(letters: str, k: int) -> list[str]:
    """``k`` number cards of the given colour letters, two copies of each 0-9 per colour."""
    out = [f"{letter}{d}" for letter in letters for d in range(10) for _ in range(2)]
    assert k <= len(out)
    return out[:k]


def plays(g, p) -> set:
    return {(str(g.card(a.card)), a.color, a.target) for a in g.legal_actions(p) if a.kind == "play"}


def kinds(g, p) -> set:
    return {a.kind for a in g.legal_actions(p)}


def deck_notes() -> list[str]:
    return [str(c) for c in core.deck("nomercy")]


def rest_of_deck(*groups) -> list[str]:
    rest = deck_notes()
    for group in groups:
        for t in group:
            rest.remove(t)
    return rest


PAD = ["Y1", "Y2", "Y3"]
PAD2 = ["Y4", "Y6", "Y7"]
PAD3 = ["Y8", "Y9", "Y0"]
BIG23 = nums("G", 20) + ["B9", "B9", "B6"]
"""23 cards: two more and the Mercy rule knocks you out (no Y card, so the pads above fit)."""


# -- the deck, the deal and the starting card ------------------------------------------------


def test_deck_has_168_cards_as_the_seed_lists():
    deck = core.deck("nomercy")
    assert len(deck) == DECK_SIZE
    assert [c.id for c in deck] == list(range(DECK_SIZE))
    faces = Counter(str(c) for c in deck)
    for letter in "RYGB":
        for d in range(10):
            assert faces[f"{letter}{d}"] == 2
        assert faces[f"{letter}S"] == 3
        assert faces[f"{letter}SA"] == 2
        assert faces[f"{letter}R"] == 3
        assert faces[f"{letter}+2"] == 3
        assert faces[f"{letter}+4"] == 2
        assert faces[f"{letter}DA"] == 3
    assert faces["WR+4"] == 8 and faces["W+6"] == 4 and faces["W+10"] == 4 and faces["WCR"] == 8
    assert sum(faces.values()) == 4 * (20 + 3 + 2 + 3 + 3 + 2 + 3) + 24 == DECK_SIZE
    assert "W" not in faces and "W+4" not in faces  # classic's wilds are not in this deck


@pytest.mark.parametrize("n", [1, 7, 10])
def test_two_to_six_players(n):
    with pytest.raises(ValueError, match="2 to 6"):
        core.new_game("nomercy", n, seed=1)


def test_options_and_their_defaults():
    g = core.new_game("nomercy", 3, seed=1)
    assert g.options == {"target_score": 1000, "uno_penalty": 2}
    assert g.target_score == 1000
    # The house rules are not options here: No Mercy fixes them.
    for bad in ({"stacking": "none"}, {"seven_o": False}, {"jump_in": True}):
        with pytest.raises(ValueError, match="unknown option"):
            core.new_game("nomercy", 3, seed=1, options=bad)


@pytest.mark.parametrize("n", range(2, 7))
def test_fresh_deal_seven_cards_each_and_a_number_starts(n):
    for seed in range(40):
        g = core.new_game("nomercy", n, seed=seed)
        assert [len(g.hand(p)) for p in range(n)] == [7] * n
        assert g.top.is_number
        assert g.color == g.top.color
        assert g.current == 0 and g.direction == 1 and g.dealer == n - 1
        assert g.draw_count == DECK_SIZE - 7 * n - len(g.discard)
        assert g.set_aside == [] and g.out == [False] * n
        assert_conserved(g)


def test_action_cards_turned_at_the_start_are_set_aside_under_the_starting_card():
    found = 0
    for seed in range(300):
        g = core.new_game("nomercy", 4, seed=seed)
        returned = [e for e in g.deal_events if e.kind == "return"]
        assert len(returned) == len(g.discard) - 1
        if not returned:
            continue
        found += 1
        assert all(e.reason == "aside" for e in returned)
        assert [e.cards[0] for e in returned] == g.discard[:-1]  # in the order turned, under the top
        assert all(not c.is_number for c in g.discard[:-1])
        assert g.top.is_number and g.current == 0
        ks = [e.kind for e in g.deal_events]
        assert ks.index("return") < ks.index("start")
        assert "set aside" in core.describe(returned[0], g.names, g.variant)
        assert_conserved(g)
        if found >= 5:
            break
    assert found >= 5


# -- matching and drawing -----------------------------------------------------------------------


def test_match_by_colour_symbol_or_wild():
    g = make(3, [["R9", "BSA", "GDA", "Y+4", "B+4", "WCR", "W+6", "G3"], PAD, PAD2], ["R1", "RSA"])
    assert plays(g, 0) == {
        ("R9", None, None), ("BSA", None, None),
        *(("W+6", c, None) for c in core.COLORS), ("WCR", None, None),
    }
    g = make(3, [["Y+4", "B+2", "GDA", "G3"], PAD, PAD2], ["R+4"])
    assert plays(g, 0) == {("Y+4", None, None)}  # +4 on +4 by symbol (no stack is pending)


def test_draw_is_allowed_even_with_a_playable_card():
    g = make(3, [["R1", "B2"], PAD, PAD2], ["R5"], ["R3"])
    assert ("R1", None, None) in plays(g, 0)
    assert Action("draw") in g.legal_actions(0)
    assert Action("pass") not in g.legal_actions(0)


def test_draw_until_a_playable_card_then_it_must_be_played():
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["G2", "B4", "Y9", "R3", "G1"])
    events = g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "G2", "B4", "Y9", "R3"]
    assert g.phase == "drawn" and g.current == 0
    assert set(g.legal_actions(0)) == {Action("play", cid(g, 0, "R3"))}  # no pass, no other card
    assert sum(e.count for e in events if e.kind == "draw") == 4
    assert_illegal(g, 0, Action("pass"), "must")
    assert_illegal(g, 0, Action("draw"), "already drawn")
    play(g, 0, "R3")
    assert g.current == 1 and str(g.top) == "R3"
    assert_conserved(g)


def test_drawn_wild_is_played_naming_a_colour_and_a_drawn_roulette_without_one():
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["G2", "W+10"])
    g.apply(0, Action("draw"))
    assert plays(g, 0) == {("W+10", c, None) for c in core.COLORS}
    assert Action("pass") not in g.legal_actions(0)
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["WCR"])
    g.apply(0, Action("draw"))
    assert set(g.legal_actions(0)) == {Action("play", cid(g, 0, "WCR"))}


def test_drawn_seven_must_be_played_with_a_swap_target():
    g = make(3, [["B1", "B2"], PAD, PAD2], ["R5"], ["G2", "R7"])
    g.apply(0, Action("draw"))
    assert plays(g, 0) == {("R7", None, 1), ("R7", None, 2)}


def test_drawn_card_offers_uno_with_two_cards():
    g = make(3, [["B1"], PAD, PAD2], ["R5"], ["R3"])
    g.apply(0, Action("draw"))
    assert set(g.legal_actions(0)) == {Action("play", cid(g, 0, "R3")), Action("uno")}
    g.apply(0, Action("uno"))
    play(g, 0, "R3")
    assert g.to_act() == [1] and g.exposed is None


def test_nothing_left_to_draw_passes():
    h1 = rest_of_deck(["G7", "B8", "R5"])
    g = make(2, [["G7", "B8"], h1], ["R5"])
    assert g.draw_count == 0 and g.legal_actions(0) == [Action("pass")]
    g.apply(0, Action("pass"))
    assert g.current == 1 and hand(g, 0) == ["G7", "B8"]


# -- coloured action cards -------------------------------------------------------------------------


def test_skip_skips_the_next_player():
    g = make(3, [["RS", "B1"], PAD, PAD2], ["R5"])
    events = play(g, 0, "RS")
    assert g.current == 2 and g.color == "red"
    assert any(e.kind == "skip" and e.player == 1 for e in events)


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_skip_everyone_plays_again(n):
    hands = [["RSA", "B1", "B2"], PAD, PAD2, PAD3, ["G4", "G5", "G6"], ["G7", "G8", "G9"]][:n]
    g = make(n, hands, ["R5"], direction=-1)
    events = play(g, 0, "RSA")
    assert g.current == 0 and g.to_act() == [0]
    assert g.direction == -1 and g.color == "red"
    assert [e.kind for e in events] == ["play", "skip_all"]
    assert "plays again" in core.describe(events[-1], g.names, g.variant)
    assert [len(g.hand(p)) for p in range(n)] == [2] + [3] * (n - 1)


def test_reverse_changes_direction():
    g = make(4, [["RR", "B1"], PAD, PAD2, PAD3], ["R5"])
    play(g, 0, "RR")
    assert (g.current, g.direction) == (3, -1)


def test_reverse_with_two_players_plays_again():
    g = make(2, [["RR", "B1", "B2"], PAD], ["R5"])
    play(g, 0, "RR")
    assert (g.current, g.direction) == (0, -1)


def test_reverse_with_two_players_left_after_a_knockout_plays_again():
    g = make(3, [["R+2", "B1", "B2"], BIG23, ["RR", "Y4", "Y5"]], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))  # 25 cards: out
    assert g.out == [False, True, False] and g.current == 2
    play(g, 2, "RR")
    assert (g.current, g.direction) == (2, -1)


def test_draw_two_waits_for_a_stack_or_the_draw():
    g = make(3, [["R+2", "B1", "B2"], ["Y7", "Y8", "RS"], PAD], ["R5"], ["G1", "G2", "G3"])
    play(g, 0, "R+2")
    assert g.phase == "stack" and g.current == 1
    assert g.pending["total"] == 2 and g.pending["last"] == 2
    assert g.observation(2)["pending"]["total"] == 2
    assert g.legal_actions(1) == [Action("draw")]
    assert_illegal(g, 1, Action("play", cid(g, 1, "RS")), "coming")
    assert_illegal(g, 1, Action("pass"))
    events = g.apply(1, Action("draw"))
    assert hand(g, 1) == ["Y7", "Y8", "RS", "G1", "G2"]
    assert any(e.kind == "skip" and e.player == 1 for e in events)
    assert g.current == 2 and g.phase == "play" and g.pending is None
    assert_conserved(g)


def test_coloured_draw_four():
    g = make(3, [["B+4", "B1"], PAD, PAD2], ["B5"], ["G1", "G2", "G3", "G4", "G5"])
    play(g, 0, "B+4")
    assert g.color == "blue" and g.pending["total"] == 4
    g.apply(1, Action("draw"))
    assert hand(g, 1) == PAD + ["G1", "G2", "G3", "G4"]
    assert g.current == 2


def test_discard_all_discards_every_card_of_its_colour_under_it():
    g = make(3, [["RDA", "R1", "B2", "R7", "G3"], PAD, PAD2], ["R5"])
    events = play(g, 0, "RDA")
    assert hand(g, 0) == ["B2", "G3"]
    assert notes(g.discard) == ["R5", "R1", "R7", "RDA"]
    assert g.color == "red" and g.current == 1
    da = [e for e in events if e.kind == "discard_all"]
    assert len(da) == 1 and notes(da[0].cards) == ["R1", "R7"] and da[0].visible_to is None
    assert_conserved(g)


def test_discard_all_of_another_colour_played_by_symbol():
    g = make(3, [["BDA", "B1", "BS", "R2"], PAD, PAD2], ["RDA"])
    play(g, 0, "BDA")
    assert hand(g, 0) == ["R2"] and g.color == "blue"
    assert notes(g.discard) == ["RDA", "B1", "BS", "BDA"]


def test_discard_all_that_empties_the_hand_wins():
    g = make(3, [["RDA", "R1", "R2"], ["Y7", "GS"], ["W+6"]], ["R5"])
    play(g, 0, "RDA")
    assert g.over and g.winner == 0
    assert g.scores == [7 + 20 + 50, 0, 0]


def test_discard_all_down_to_one_card_without_uno_can_be_caught():
    g = make(3, [["RDA", "R1", "B2"], PAD, PAD2], ["R5"], ["G1", "G2"])
    play(g, 0, "RDA")
    assert hand(g, 0) == ["B2"]
    assert g.to_act() == [0, 1, 2]
    g.apply(2, Action("catch", target=0))
    assert hand(g, 0) == ["B2", "G1", "G2"]


# -- stacking -----------------------------------------------------------------------------------


def test_stacking_equal_or_higher_any_colour_total_passes_on():
    g = make(4, [["R+2", "B1", "B2"], ["G+4", "Y5", "Y6"], ["W+6", "Y7", "Y8"], ["W+10", "G1", "G2"]],
             ["R5"])
    play(g, 0, "R+2")
    assert plays(g, 1) == {("G+4", None, None)}
    play(g, 1, "G+4")
    assert (g.current, g.color, g.pending["total"], g.pending["last"]) == (2, "green", 6, 4)
    assert plays(g, 2) == {("W+6", c, None) for c in core.COLORS}
    play(g, 2, "W+6", "blue")
    assert (g.current, g.color, g.pending["total"], g.pending["last"]) == (3, "blue", 12, 6)
    play(g, 3, "W+10", "yellow")
    assert (g.current, g.color, g.pending["total"], g.pending["last"]) == (0, "yellow", 22, 10)
    assert g.legal_actions(0) == [Action("draw")]
    g.apply(0, Action("draw"))
    assert len(g.hand(0)) == 24 and not g.out[0]
    assert [len(g.hand(p)) for p in range(4)] == [24, 2, 2, 2]
    assert g.current == 1 and g.phase == "play" and g.color == "yellow"
    assert_conserved(g)


def test_stacking_a_lower_draw_card_is_illegal():
    g = make(3, [["R+4", "B1", "B2"], ["R+2", "B+2", "Y3"], PAD], ["R5"])
    play(g, 0, "R+4")
    assert g.legal_actions(1) == [Action("draw")]
    assert_illegal(g, 1, Action("play", cid(g, 1, "R+2")), "coming", "as big")


def test_stacking_equal_values_draw_four_and_wild_reverse_draw_four():
    g = make(4, [["R+4", "B1", "B2"], ["WR+4", "Y3", "Y5"], ["G+4", "Y4"], PAD3], ["R5"])
    play(g, 0, "R+4")
    assert plays(g, 1) == {("WR+4", c, None) for c in core.COLORS}
    play(g, 1, "WR+4", "blue")  # reverses: the next player is now player 0
    assert (g.direction, g.current, g.pending["total"]) == (-1, 0, 8)
    assert g.legal_actions(0) == [Action("draw")]
    g.apply(0, Action("draw"))
    assert len(g.hand(0)) == 10 and g.current == 3


def test_stacking_draw_two_on_draw_two_any_colour():
    g = make(3, [["R+2", "B1"], ["B+2", "Y3"], PAD], ["R5"])
    play(g, 0, "R+2")
    play(g, 1, "B+2")
    assert (g.current, g.color, g.pending["total"]) == (2, "blue", 4)


def test_stacking_chain_around_the_table_back_to_the_first_player():
    g = make(3, [["R+2", "Y+2", "B1"], ["B+2", "Y3"], ["G+2", "Y4"]], ["R5"])
    play(g, 0, "R+2")
    play(g, 1, "B+2")
    play(g, 2, "G+2")
    assert g.current == 0 and g.pending["total"] == 6
    play(g, 0, "Y+2")
    assert g.current == 1 and g.pending["total"] == 8
    g.apply(1, Action("draw"))
    assert len(g.hand(1)) == 9 and g.current == 2


def test_uno_may_be_called_before_stacking_the_second_to_last_card():
    g = make(3, [["R+2", "B1", "B2"], ["B+2", "Y3"], PAD], ["R5"])
    play(g, 0, "R+2")
    assert set(g.legal_actions(1)) == {Action("play", cid(g, 1, "B+2")), Action("uno"), Action("draw")}
    g.apply(1, Action("uno"))
    play(g, 1, "B+2")
    assert g.exposed is None and g.to_act() == [2]


def test_wild_reverse_draw_four_reverses_then_the_next_player_faces_four():
    g = make(4, [["WR+4", "B1"], PAD, PAD2, PAD3], ["R5"], ["G1", "G2", "G3", "G4"])
    events = play(g, 0, "WR+4", "green")
    assert any(e.kind == "reverse" for e in events)
    assert (g.direction, g.current, g.color, g.phase) == (-1, 3, "green", "stack")
    assert g.pending["victim"] == 3 and g.pending["total"] == 4
    g.apply(3, Action("draw"))
    assert hand(g, 3) == PAD3 + ["G1", "G2", "G3", "G4"]
    assert g.current == 2


def test_wild_draw_six_and_ten_name_a_colour():
    for card, n in (("W+6", 6), ("W+10", 10)):
        g = make(3, [[card, "B1"], PAD, PAD2], ["R5"])
        assert_illegal(g, 0, Action("play", cid(g, 0, card)), "colour")
        play(g, 0, card, "yellow")
        assert g.color == "yellow" and g.pending["total"] == n and g.current == 1
        g.apply(1, Action("draw"))
        assert len(g.hand(1)) == 3 + n and g.current == 2


# -- Wild Reverse Draw Four with two players (a reading) ------------------------------------


def test_two_players_wild_reverse_draw_four_falls_on_the_player_who_played_it():
    g = make(2, [["WR+4", "B1", "B2"], PAD], ["R5"], ["G1", "G2", "G3", "G4"])
    play(g, 0, "WR+4", "green")
    assert (g.current, g.phase, g.pending["victim"], g.pending["total"]) == (0, "stack", 0, 4)
    assert g.direction == -1
    assert g.legal_actions(0) == [Action("draw")]
    assert g.legal_actions(1) == []
    g.apply(0, Action("draw"))
    assert hand(g, 0) == ["B1", "B2", "G1", "G2", "G3", "G4"]
    assert hand(g, 1) == PAD
    assert g.current == 1 and g.color == "green"


def test_two_players_wild_reverse_draw_four_stacked_back_to_the_other_player():
    g = make(2, [["WR+4", "R+4", "B2"], PAD], ["R5"])
    play(g, 0, "WR+4", "green")
    assert plays(g, 0) == {("R+4", None, None)}
    play(g, 0, "R+4")
    assert (g.current, g.pending["victim"], g.pending["total"], g.color) == (1, 1, 8, "red")
    g.apply(1, Action("draw"))
    assert len(g.hand(1)) == 11 and g.current == 0


def test_two_players_wild_reverse_draw_four_as_a_stack_comes_back_to_its_player():
    g = make(2, [["R+2", "B1", "B2"], ["WR+4", "Y3", "Y4"]], ["R5"])
    play(g, 0, "R+2")
    play(g, 1, "WR+4", "blue")
    assert (g.current, g.pending["victim"], g.pending["total"]) == (1, 1, 6)
    g.apply(1, Action("draw"))
    assert len(g.hand(1)) == 8 and g.current == 0


# -- Wild Color Roulette ------------------------------------------------------------------------


def test_color_roulette_next_player_names_a_colour_and_takes_the_turned_cards():
    g = make(3, [["WCR", "B1", "B2"], ["Y7", "Y8"], PAD2], ["R5"], ["R1", "W+6", "B2", "G7", "Y3"])
    assert plays(g, 0) == {("WCR", None, None)}  # no colour: the victim names it
    assert_illegal(g, 0, Action("play", cid(g, 0, "WCR"), "red"), "not a wild card that names")
    play(g, 0, "WCR")
    assert g.phase == "choose" and g.current == 1 and g.to_act() == [1]
    assert set(g.legal_actions(1)) == {Action("choose", color=c) for c in core.COLORS}
    assert g.observation(2)["pending"] == {"kind": "roulette", "by": 0, "victim": 1}
    assert_illegal(g, 1, Action("draw"), "color roulette")
    assert_illegal(g, 1, Action("play", cid(g, 1, "Y7")), "color roulette")
    assert_illegal(g, 1, Action("choose", color="purple"), "color roulette")
    assert_illegal(g, 2, Action("choose", color="red"), "turn")
    events = g.apply(1, Action("choose", color="green"))
    # Turned one by one until green: the Wild Draw Six does not count.
    assert hand(g, 1) == ["Y7", "Y8", "R1", "W+6", "B2", "G7"]
    assert g.color == "green" and g.current == 2 and g.phase == "play" and g.pending is None
    assert str(g.top) == "WCR"
    turned = [e for e in events if e.kind == "draw"]
    assert len(turned) == 1 and turned[0].reason == "roulette" and turned[0].count == 4
    assert turned[0].visible_to is None  # the turned cards are public
    for q in (0, 2, None):
        assert notes(turned[0].view(q).cards) == ["R1", "W+6", "B2", "G7"]
    assert any(e.kind == "skip" and e.player == 1 for e in events)
    assert [e.kind for e in events][0] == "choose"
    assert "names green" in core.describe(events[0], g.names, g.variant)
    assert_conserved(g)


def test_color_roulette_first_card_of_the_colour_stops_at_once():
    g = make(2, [["WCR", "B1", "B2"], PAD], ["R5"], ["B9", "R1"])
    play(g, 0, "WCR")
    g.apply(1, Action("choose", color="blue"))
    assert hand(g, 1) == PAD + ["B9"]
    assert g.current == 0 and g.color == "blue"


def test_choose_is_illegal_outside_a_roulette():
    g = make(2, [["R1", "B2"], PAD], ["R5"])
    assert_illegal(g, 0, Action("choose", color="red"), "only when a color roulette")


def test_color_roulette_can_knock_the_victim_out():
    g = make(3, [["WCR", "B1", "B2"], nums("G", 20) + ["B9", "B9"], PAD2], ["R5"],
             ["R1", "R2", "B3", "B4"])
    play(g, 0, "WCR")
    events = g.apply(1, Action("choose", color="blue"))
    assert g.out[1] and g.hand(1) == [] and len(g.set_aside) == 25
    assert any(e.kind == "knockout" and e.player == 1 for e in events)
    assert g.current == 2 and g.phase == "play"
    assert_conserved(g)


# -- 7 swaps, 0 passes the hands ---------------------------------------------------------------


def test_seven_must_swap_with_a_chosen_player():
    g = make(3, [["R7", "R1", "B2"], ["Y1"], ["G1", "G2", "G3"]], ["R5"])
    assert plays(g, 0) == {("R7", None, 1), ("R7", None, 2), ("R1", None, None)}
    assert_illegal(g, 0, Action("play", cid(g, 0, "R7")), "choose the player")
    assert_illegal(g, 0, Action("play", cid(g, 0, "R7"), None, 0), "another player")
    assert_illegal(g, 0, Action("play", cid(g, 0, "R7"), None, 3), "another player")
    assert_illegal(g, 0, Action("play", cid(g, 0, "R1"), None, 2), "target")
    events = play(g, 0, "R7", target=2)
    assert hand(g, 0) == ["G1", "G2", "G3"] and hand(g, 2) == ["R1", "B2"] and hand(g, 1) == ["Y1"]
    assert g.current == 1 and g.direction == 1
    sw = [e for e in events if e.kind == "swap"]
    assert len(sw) == 1 and sw[0].player == 0 and sw[0].target == 2
    assert "swaps hands" in core.describe(sw[0], g.names, g.variant)


def test_seven_cannot_swap_with_a_knocked_out_player():
    g = make(3, [["R+2", "R7", "B2"], BIG23, ["R4", "Y4", "Y5"]], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))
    assert g.out[1] and g.current == 2
    play(g, 2, "R4")
    assert plays(g, 0) == {("R7", None, 2)}
    assert_illegal(g, 0, Action("play", cid(g, 0, "R7"), None, 1), "still in the round")


def test_zero_passes_every_hand_to_the_next_player():
    g = make(4, [["R0", "B1", "B2"], ["Y1"], ["G1", "G2"], ["Y5", "Y6", "Y7", "Y8"]], ["R5"])
    events = play(g, 0, "R0")
    assert hand(g, 1) == ["B1", "B2"] and hand(g, 2) == ["Y1"]
    assert hand(g, 3) == ["G1", "G2"] and hand(g, 0) == ["Y5", "Y6", "Y7", "Y8"]
    assert g.current == 1
    assert any(e.kind == "rotate" for e in events)


def test_zero_passes_the_hands_in_the_direction_of_play():
    g = make(4, [["R0", "B1", "B2"], ["Y1"], ["G1", "G2"], ["Y5", "Y6", "Y7", "Y8"]], ["R5"], direction=-1)
    play(g, 0, "R0")
    assert hand(g, 3) == ["B1", "B2"] and hand(g, 0) == ["Y1"]
    assert hand(g, 1) == ["G1", "G2"] and hand(g, 2) == ["Y5", "Y6", "Y7", "Y8"]
    assert g.current == 3


def test_zero_passes_knocked_out_players_by():
    g = make(4, [["R+2", "B1"], BIG23, ["R0", "Y4", "Y5"], ["B7", "Y8"]], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))
    assert g.out[1] and g.current == 2
    play(g, 2, "R0")
    assert hand(g, 3) == ["Y4", "Y5"] and hand(g, 0) == ["B7", "Y8"] and hand(g, 2) == ["B1"]
    assert g.hand(1) == [] and g.current == 3


def test_after_a_swap_nobody_can_be_caught_and_a_single_card_received_counts_as_called():
    g = make(3, [["R7", "R1"], ["Y1", "Y2"], PAD2], ["R5"])
    play(g, 0, "R7", target=1)  # down to one card without calling, then the hands change owners
    assert hand(g, 1) == ["R1"] and hand(g, 0) == ["Y1", "Y2"]
    assert g.exposed is None and g.to_act() == [1]
    assert g.observation(2)["players"][1]["uno"] is True
    assert_illegal(g, 2, Action("catch", target=1), "nobody")
    assert_illegal(g, 2, Action("catch", target=0), "nobody")
    play(g, 1, "R1")
    assert g.over and g.winner == 1


def test_after_a_rotation_a_single_card_received_counts_as_called():
    g = make(3, [["R0", "B1"], ["Y1", "Y2"], ["G5", "G6"]], ["R5"])
    play(g, 0, "R0")
    assert hand(g, 1) == ["B1"] and g.exposed is None
    assert g.observation(0)["players"][1]["uno"] is True
    assert all(a.kind != "catch" for q in range(3) for a in g.legal_actions(q))


@pytest.mark.parametrize("card", ["R7", "R0"])
def test_seven_or_zero_as_the_last_card_just_wins(card):
    g = make(3, [[card], ["Y1", "Y2"], ["G5"]], ["R5"])
    assert plays(g, 0) == {(card, None, None)}  # no target with the last card
    events = play(g, 0, card)
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["Y1", "Y2"] and hand(g, 2) == ["G5"]
    assert not any(e.kind in ("swap", "rotate") for e in events)
    assert g.scores == [1 + 2 + 5, 0, 0]


def test_mercy_applies_after_a_swap_or_a_rotation():
    # Only a scripted position can hand someone 25 cards this way; the rule still holds.
    big = BIG23 + ["B8", "B8"]
    g = make(3, [["R7", "B1", "B2"], big, ["Y6", "Y7"]], ["R5"])
    events = play(g, 0, "R7", target=1)
    assert g.out == [True, False, False] and g.hand(0) == [] and len(g.set_aside) == 25
    assert hand(g, 1) == ["B1", "B2"] and g.current == 1
    assert any(e.kind == "knockout" and e.player == 0 for e in events)
    g = make(3, [["R0", "B1", "B2"], ["Y6", "Y7"], big], ["R5"])
    play(g, 0, "R0")  # player 2's 25 cards go to player 0, who is out; player 1 plays next
    assert g.out == [True, False, False] and g.current == 1
    assert hand(g, 1) == ["B1", "B2"] and hand(g, 2) == ["Y6", "Y7"]
    assert_conserved(g)


# -- the Mercy rule ----------------------------------------------------------------------------


def test_twenty_four_cards_stay_in():
    g = make(3, [["R+2", "B1", "B2"], nums("G", 20) + ["B9", "B9"], PAD2], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))
    assert len(g.hand(1)) == 24 and g.out == [False] * 3 and g.current == 2


def test_twenty_five_cards_knock_you_out_and_the_hand_is_set_aside():
    big = BIG23
    g = make(4, [["R+2", "B1", "B2"], big, PAD2, PAD3], ["R5"])
    play(g, 0, "R+2")
    events = g.apply(1, Action("draw"))
    assert g.out == [False, True, False, False]
    assert g.hand(1) == [] and len(g.set_aside) == 25
    assert set(notes(g.set_aside)) >= set(big)
    ko = [e for e in events if e.kind == "knockout"]
    assert len(ko) == 1 and ko[0].player == 1 and ko[0].count == 25 and ko[0].cards == ()
    assert "knocked out" in core.describe(ko[0], g.names, g.variant)
    assert g.current == 2 and g.phase == "play" and not g.over
    assert g.legal_actions(1) == [] and 1 not in g.to_act()
    obs = g.observation(0)
    assert obs["players"][1]["out"] is True and obs["set_aside_count"] == 25
    assert_conserved(g)


def test_turn_order_passes_a_knocked_out_seat_by():
    g = make(4, [["R+2", "R8", "B1"], BIG23, ["R4", "Y4", "Y6"],
                 ["R6", "Y8", "Y9"]], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))
    play(g, 2, "R4")
    play(g, 3, "R6")
    play(g, 0, "R8")
    assert g.current == 2


def test_drawing_for_a_playable_card_can_knock_you_out():
    g = make(3, [PAD, nums("B", 20) + ["G1", "G2"], PAD2], ["R5"], ["G3", "G4", "R9"], current=1)
    g.apply(1, Action("draw"))
    assert g.out[1] and g.current == 2 and g.phase == "play" and g.drawn is None


def test_the_mercy_rule_stops_a_draw_at_the_25th_card():
    """"Si un jugador tiene 25 cartas o más, queda fuera del juego", at once: the cards after the
    25th stay in the draw pile, whether the player draws until playable or takes a penalty."""
    after = ["G7", "G8", "R9"]
    g = make(3, [PAD, nums("B", 20) + ["G1", "G2"], PAD2], ["R5"], ["G3", "G4", "G6"] + after, current=1)
    events = g.apply(1, Action("draw"))
    drawn = [e for e in events if e.kind == "draw"]
    assert len(drawn) == 1 and drawn[0].count == 3  # 22 + 3 = 25: out, and no more drawn
    assert g.out[1] and len(g.set_aside) == 25 and notes(g.draw_pile[-3:]) == after[::-1]
    assert g.current == 2 and g.phase == "play"
    assert_conserved(g)
    rest = ["Y3", "Y5", "Y8", "Y9"]
    g = make(3, [["W+6", "B1", "B2"], BIG23, PAD2], ["R5"], ["Y1", "Y2"] + rest)
    play(g, 0, "W+6", "red")
    events = g.apply(1, Action("draw"))
    assert [e.count for e in events if e.kind == "draw"] == [2] and g.out[1] and len(g.set_aside) == 25
    assert notes(g.draw_pile[-4:]) == rest[::-1]
    assert_conserved(g)


def test_set_aside_hands_come_back_with_the_next_reshuffle():
    h0, h1, h2 = ["R+2", "B1"], nums("Y", 20) + ["G1", "G2", "G3"], ["G4", "G5"]
    discard = rest_of_deck(h0, h1, h2, ["B9", "B9", "R5"]) + ["R5"]
    g = make(3, [h0, h1, h2], discard, ["B9", "B9"])
    assert g.draw_count == 2
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))
    assert g.out[1] and len(g.set_aside) == 25 and g.draw_count == 0
    below = len(g.discard) - 1
    events = g.apply(2, Action("draw"))
    rs = [e for e in events if e.kind == "reshuffle"]
    assert len(rs) == 1 and rs[0].count == below + 25
    assert g.set_aside == [] and notes(g.discard) == ["R+2"]
    assert_conserved(g)


def test_last_player_left_wins_with_the_knockout_bonus():
    g = make(2, [["W+10", "B1"], nums("Y", 15)], ["R5"])
    play(g, 0, "W+10", "red")
    events = g.apply(1, Action("draw"))
    assert g.over and g.winner == 0 and g.out == [False, True]
    assert g.scores == [250, 0]  # the knocked-out hand is not counted (nor the winner's own B1)
    assert [e.kind for e in events].count("round_over") == 1
    assert g.to_act() == []


def test_knockout_bonus_for_each_player_out_when_someone_goes_out():
    g = make(3, [["R+2", "R4"], nums("Y", 20) + ["G1", "G2", "G3"], ["R3", "G9", "W+6"]], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))  # out
    play(g, 2, "R3")
    assert g.current == 0  # the knocked-out seat is passed by
    events = play(g, 0, "R4")
    assert g.over and g.winner == 0
    assert g.scores == [250 + 9 + 50, 0, 0]
    assert [e.points for e in events if e.kind == "round_over"] == [309]
    assert g.observation(None)["points"] == 309


# -- the end of a round --------------------------------------------------------------------


def test_going_out_scores_every_kind_of_card():
    others = ["R3", "RS", "RSA", "RR", "R+2", "R+4", "RDA", "WR+4", "W+6", "W+10", "WCR"]
    g = make(3, [["R5"], others, ["G9", "B0"]], ["R1"], scores=[10, 0, 0])
    events = play(g, 0, "R5")
    expected = 3 + 6 * 20 + 4 * 50 + 9 + 0
    assert g.over and g.winner == 0 and g.scores == [10 + expected, 0, 0]
    assert [e.points for e in events if e.kind == "round_over"] == [expected]


def test_last_draw_card_makes_the_next_player_draw_the_whole_stack_which_counts():
    g = make(3, [["R+4"], ["Y1"], ["R+2", "B9"]], ["R5"], ["G1", "G2", "G3", "G4", "G5", "G6", "G7"],
             current=2)
    play(g, 2, "R+2")
    assert g.current == 0 and g.pending["total"] == 2
    play(g, 0, "R+4")  # stacks the last card: wins; player 1 takes 6
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["Y1", "G1", "G2", "G3", "G4", "G5", "G6"]
    assert g.scores == [1 + 21 + 9, 0, 0]


def test_last_draw_card_that_knocks_out_the_last_opponent_ends_the_round_once():
    g = make(2, [["W+10"], nums("Y", 15)], ["R5"])
    events = play(g, 0, "W+10", "red")
    assert g.over and g.winner == 0 and g.out == [False, True]
    assert [e.kind for e in events] == ["play", "draw", "knockout", "round_over"]
    assert g.scores == [250, 0]
    assert g.last_points == 250


def test_last_draw_card_that_knocks_out_one_of_three():
    g = make(3, [["W+10"], nums("Y", 15), ["G9", "B0"]], ["R5"])
    events = play(g, 0, "W+10", "red")
    assert g.over and g.winner == 0 and g.out == [False, True, False]
    assert [e.kind for e in events].count("round_over") == 1
    assert g.scores == [250 + 9, 0, 0]


def test_last_color_roulette_is_not_carried_out():
    g = make(3, [["WCR"], ["Y1"], ["G5"]], ["R5"])
    events = play(g, 0, "WCR")
    assert g.over and g.winner == 0 and g.phase == "over"
    assert hand(g, 1) == ["Y1"] and g.to_act() == []
    assert not any(e.kind == "draw" for e in events)
    assert g.scores == [6, 0, 0]


def test_two_players_last_wild_reverse_draw_four_the_opponent_draws():
    g = make(2, [["WR+4"], ["Y1"]], ["R5"], ["G1", "G2", "G3", "G4"])
    play(g, 0, "WR+4", "blue")
    assert g.over and g.winner == 0
    assert hand(g, 1) == ["Y1", "G1", "G2", "G3", "G4"]
    assert hand(g, 0) == []
    assert g.scores == [1 + 1 + 2 + 3 + 4, 0]


def test_match_is_played_to_1000():
    g = make(2, [["R5"], ["W+6", "W+10"]], ["R1"], scores=[899, 950])
    play(g, 0, "R5")
    assert g.scores == [999, 950] and not g.match_over
    g.next_round()
    assert g.round == 1 and not g.over and sum(len(g.hand(p)) for p in range(2)) == 14
    assert_conserved(g)
    g = make(2, [["R5"], ["W+6", "W+10"]], ["R1"], scores=[900, 950])
    events = play(g, 0, "R5")
    assert g.scores == [1000, 950] and g.match_over and g.match_winner == 0
    assert [e.kind for e in events][-1] == "match_over"


def test_next_round_after_a_knockout_deals_everyone_in():
    g = make(2, [["W+10"], nums("Y", 15)], ["R5"], seed=4)
    play(g, 0, "W+10", "red")
    g.next_round()
    assert g.out == [False, False] and g.set_aside == []
    assert [len(g.hand(p)) for p in range(2)] == [7, 7]
    assert_conserved(g)


# -- UNO --------------------------------------------------------------------------------------------


def test_missed_uno_is_caught_as_in_classic():
    g = make(3, [["R3", "G7"], PAD, PAD2], ["R5"], ["B1", "B2"])
    play(g, 0, "R3")
    assert g.to_act() == [0, 1, 2]
    g.apply(2, Action("catch", target=0))
    assert hand(g, 0) == ["G7", "B1", "B2"] and g.current == 1


def test_uno_penalty_option():
    g = make(3, [["R3", "G7"], PAD, PAD2], ["R5"], ["B1", "B2", "B3", "B4"], options={"uno_penalty": 3})
    play(g, 0, "R3")
    g.apply(1, Action("catch", target=0))
    assert len(g.hand(0)) == 4


def test_knocked_out_player_cannot_catch():
    g = make(3, [["R+2", "B1", "R3"], nums("Y", 20) + ["G1", "G2", "G3"], ["R4", "G4"]], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))
    play(g, 2, "R4")  # down to one card, no call
    assert g.to_act() == [0, 2]
    assert g.legal_actions(1) == []
    assert_illegal(g, 1, Action("catch", target=2), "out of this round")
    assert_illegal(g, 1, Action("draw"), "out of this round")


# -- illegal actions -----------------------------------------------------------------------------


def test_illegal_actions_leave_the_state_unchanged():
    g = make(3, [["R3", "G7", "WR+4"], ["R4", "B1"], PAD2], ["R5"])
    assert_illegal(g, 1, Action("play", cid(g, 1, "R4")), "turn")
    assert_illegal(g, 0, Action("play", cid(g, 0, "G7")), "does not match")
    assert_illegal(g, 0, Action("play", cid(g, 0, "WR+4")), "colour")
    assert_illegal(g, 0, Action("challenge"), "challenge")
    assert_illegal(g, 0, Action("pass"), "pass")
    assert_illegal(g, 0, Action("play", 9999), "hold")
    assert_illegal(g, 0, {"kind": "choose", "color": 3})
    assert_illegal(g, 5, Action("draw"), "player")


def test_no_challenge_in_no_mercy():
    g = make(3, [["W+10", "R1", "R2"], PAD, PAD2], ["R5"])
    play(g, 0, "W+10", "green")
    assert kinds(g, 1) == {"draw"}
    assert_illegal(g, 1, Action("challenge"))


# -- observation and serialisation -------------------------------------------------------------


def test_pending_stack_and_roulette_survive_save_and_restore():
    g = make(3, [["R+2", "WCR", "B1"], ["B+2", "Y3"], PAD2], ["R5"])
    play(g, 0, "R+2")
    for game in (g, core.Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict())))):
        assert game.to_dict() == g.to_dict()
        assert set(game.legal_actions(1)) == set(g.legal_actions(1))
    g = make(3, [["WCR", "B1"], ["Y3"], PAD2], ["R5"], ["R1", "G1"])
    play(g, 0, "WCR")
    h = core.Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict())))
    assert type(h).__name__ == "NoMercyGame" and h.phase == "choose"
    assert g.apply(1, Action("choose", color="green")) == h.apply(1, Action("choose", color="green"))
    assert h.to_dict() == g.to_dict()


def test_knockout_survives_save_and_restore():
    g = make(3, [["R+2", "B1", "B2"], BIG23, PAD2], ["R5"])
    play(g, 0, "R+2")
    g.apply(1, Action("draw"))
    h = core.Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict())))
    assert h.to_dict() == g.to_dict() and h.out == [False, True, False]
    assert [c.id for c in h.set_aside] == [c.id for c in g.set_aside]
    for q in (None, 0, 1, 2):
        assert h.observation(q) == g.observation(q)


# -- random self-play ------------------------------------------------------------------------


def check_state(g) -> dict:
    d = g.to_dict()
    ids = [i for h in d["hands"] for i in h] + d["draw_pile"] + d["discard"] + d["set_aside"]
    assert len(ids) == DECK_SIZE and set(ids) == set(range(DECK_SIZE)), "cards not conserved"
    assert_sound(g)
    for q in range(g.num_players):
        if g.out[q]:
            assert d["hands"][q] == [] and q not in g.to_act() and g.legal_actions(q) == []
        elif not g.over:
            assert len(d["hands"][q]) < 25, "Mercy: 25 cards and you are out"
    if not g.over:
        assert not g.out[g.current], "the turn is with a knocked-out player"
        assert len(g.active) >= 2
    return d


def check_observation(g, p, d):
    obs, seen = seen_cards(g, p, d)
    assert not seen & set(d["draw_pile"]) and not seen & set(d["set_aside"])
    assert [q["out"] for q in obs["players"]] == g.out
    assert obs["set_aside_count"] == len(d["set_aside"])


def check_events(events, n):
    for e in events:
        if e.kind == "draw" and e.reason == "roulette":
            assert e.visible_to is None
            for q in [None, *range(n)]:
                assert e.view(q).cards == e.cards
        elif e.kind == "draw":
            assert e.visible_to == (e.player,)
            for q in [None, *range(n)]:
                if q != e.player:
                    assert e.view(q).cards == ()


@pytest.mark.parametrize("n", range(2, 7))
def test_random_selfplay(n):
    rng = random.Random(4200 + n)
    g = core.new_game("nomercy", n, seed=rng.getrandbits(32))
    stats = Counter()
    moves = 0
    while stats["rounds"] < 40:
        in_round = 0
        bias = rng.choice((0.0, 0.6, 0.9))
        while not g.over:
            assert in_round < 3000, "a round did not end"
            d = check_state(g)
            if moves % 3 == 0:
                check_observation(g, g.current, d)
                check_observation(g, rng.randrange(n), d)
                check_observation(g, None, d)
                p, a = random_unlisted(g, rng, DECK_SIZE, ("choose",))
                with pytest.raises(IllegalAction):
                    g.apply(p, a)
                assert g.to_dict() == d
            if moves % 97 == 50:
                batches = round_trip_continue(g, rng)
            else:
                p = rng.choice(g.to_act())
                legal = g.legal_actions(p)
                plays_ = [a for a in legal if a.kind == "play"]
                a = rng.choice(plays_) if plays_ and rng.random() < bias else rng.choice(legal)
                batches = [g.apply(p, a)]
            for events in batches:
                check_events(events, n)
                for e in events:
                    stats[e.kind] += 1
                moves += 1
                in_round += 1
        d = check_state(g)
        assert [e for e in range(n) if not g.out[e]]
        assert g.winner is not None and not g.out[g.winner]
        assert g.hand(g.winner) == [] or len(g.active) == 1
        for q in [None, *range(n)]:
            check_observation(g, q, d)
        stats["rounds"] += 1
        if g.match_over:
            assert g.scores[g.match_winner] >= 1000
            g = core.new_game("nomercy", n, seed=rng.getrandbits(32))
        else:
            g.next_round()
            assert g.out == [False] * n and g.top.is_number
    assert stats["knockout"] > 0 and stats["choose"] > 0 and stats["skip_all"] > 0
    assert stats["discard_all"] > 0 and stats["swap"] + stats["rotate"] > 0
    assert stats["match_over"] > 0
    if n >= 4:  # with fewer players the Mercy rule ends rounds before the pile runs out
        assert stats["reshuffle"] > 0
