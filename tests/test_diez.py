"""Diez: scenario tests for every card, token, Proc, exception and edge case; random self-play."""

from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest
from support import assert_sound

import core
from core import Action, IllegalAction
from core.bots import make_bot
from core.variants.diez.cards import TOKEN_COUNTS

COLORS = core.COLORS


def make(hands, discard=("R5",), draw=(), *, tokens=None, piles=None, colors=None, current=0,
         color=None, direction=1, seed=0, options=None):
    setup = {"hands": [list(h) for h in hands], "draw": list(draw), "current": current, "direction": direction}
    if piles is not None:
        setup["piles"] = [list(p) for p in piles]
        if colors is not None:
            setup["colors"] = list(colors)
    else:
        setup["discard"] = list(discard)
    if color is not None:
        setup["color"] = color
    if tokens is not None:
        setup["tokens"] = tokens
    options = {"uno_calls": False, **(options or {})}  # UNO calls are tested by the shared machinery
    return core.new_game("diez", len(hands), seed=seed, setup=setup, options=options)


def cid(g, p, text) -> int:
    face = core.parse_card(text)
    for c in g.hand(p):
        if c.face == face:
            return c.id
    raise AssertionError(f"player {p} holds no {text}: {hand(g, p)}")


def hand(g, p) -> list[str]:
    return sorted(str(c) for c in g.hand(p))


def play(g, p, text, pile=None):
    return g.apply(p, Action("play", cid(g, p, text), None, pile))


def act(g, p, kind, **kw):
    return g.apply(p, Action(kind, **kw))


def decider(g) -> int:
    """Who the game waits on: the player whose turn it is, or the one a step asks."""
    return g.decision.player if g.decision is not None else g.current


def kinds(g, p) -> set[str]:
    return {a.kind for a in g.legal_actions(p)}


def tops(g) -> list[str]:
    return [str(pile[-1]) for pile in g.piles]


def event_kinds(events) -> list[str]:
    return [e.kind for e in events]


def all_card_ids(g) -> list[int]:
    ids = [c.id for h in g.hands for c in h] + [c.id for c in g.draw_pile] + [c.id for c in g.set_aside]
    return ids + [c.id for pile in g.piles for c in pile]


def token_count(g) -> Counter:
    held = Counter(g.bag) + sum((Counter(t) for t in g.tokens), Counter())
    for s in g.queue:
        if s["op"] == "give":
            held[s["token"]] += 1
        if s["op"] == "replace":
            held["block"] += 1
    return held


def assert_conserved(g):
    ids = all_card_ids(g)
    assert sorted(ids) == list(range(170))
    assert token_count(g) == Counter(TOKEN_COUNTS)
    assert all(len(t) <= 3 for t in g.tokens)
    assert_sound(g)


# -- the deck, notation and the start -------------------------------------------------------------

def test_deck_counts_match_the_seed():
    deck = core.deck("diez")
    assert len(deck) == 170
    faces = Counter((c.color, c.rank) for c in deck)
    for color in COLORS:
        assert faces[(color, "0")] == 1
        assert all(faces[(color, str(n))] == 2 for n in range(1, 10))  # 19 numbers per colour
        assert faces[(color, "X")] == faces[(color, "E")] == 2  # dek and el
        for rank, copies in (("S", 2), ("R", 2), ("+2", 2), ("ST", 1), ("TG", 1), ("DG", 1), ("TK", 2)):
            assert faces[(color, rank)] == copies
    assert [faces[("white", str(n))] for n in range(5)] == [1] * 5
    assert faces[("blank", "BLANK")] == 4 and faces[("blue", "N")] == 1
    for color, rank in (("red", "TR"), ("red", "SH"), ("yellow", "PR"), ("yellow", "CD"), ("green", "SL"),
                        ("green", "RV"), ("blue", "SD")):
        assert faces[(color, rank)] == 1
    for rank, copies in (("W", 4), ("W+4", 4), ("WM", 2), ("WF", 1), ("WB", 2), ("WDC", 2), ("WDA", 1),
                         ("WC", 1)):
        assert faces[(None, rank)] == copies
    assert sum(TOKEN_COUNTS.values()) == 24


def test_notation_round_trips_and_classic_is_unchanged():
    for c in core.deck("diez"):
        assert core.parse_card(str(c)) == c.face, str(c)
    assert core.parse_card("wh3") == ("white", "3") and core.parse_card("blank") == ("blank", "BLANK")
    assert core.parse_card("W+4") == (None, "W+4") and core.parse_card("R7") == ("red", "7")
    assert str(core.Card(0, "white", "2")) == "WH2" and core.Card(0, "blank", "BLANK").name == "Blank"
    assert core.Card(0, "green", "X").name == "green Dek"


def test_starting_card_is_a_non_white_number():
    for seed in range(40):
        g = core.new_game("diez", 3, seed=seed)
        top = g.piles[0][-1]
        assert top.color in COLORS and top.rank.isdigit()
        assert g.color == top.color and decider(g) == 0
        assert g.jump_ok == [False]  # nobody jumps in on a turned card
        assert_conserved(g)


def test_cards_turned_before_the_starting_number_lie_under_it_and_come_back_at_a_reshuffle():
    found = 0
    for seed in range(200):
        g = core.new_game("diez", 3, seed=seed)
        returned = [e for e in g.deal_events if e.kind == "return"]
        assert len(returned) == len(g.piles[0]) - 1
        if not returned:
            continue
        found += 1
        assert all(e.reason == "aside" for e in returned)
        under = g.piles[0][:-1]
        assert [e.cards[0] for e in returned] == under  # in the order turned, under the top
        assert not any(c.color in COLORS and c.rank.isdigit() for c in under)
        ks = event_kinds(g.deal_events)
        assert ks.index("return") < ks.index("start") and "reshuffle" not in ks
        assert_conserved(g)
        if found == 1:
            # The pile runs out: the cards under the top are shuffled back into play.
            g.hands[1].extend(g.draw_pile)
            g.draw_pile = []
            events = g.apply(decider(g), Action("draw"))
            assert "reshuffle" in event_kinds(events) and g.piles[0] == g.piles[0][-1:]
            assert {c.id for c in under} <= {c.id for c in g.draw_pile} | {c.id for c in g.hands[0]}
            assert_conserved(g)
        if found >= 5:
            break
    assert found >= 5


# -- matching and the turn ------------------------------------------------------------------------

def test_match_by_colour_symbol_wild_blank_white():
    g = make([["R7", "G5", "G7", "W", "BLANK", "WH3", "B2"], ["Y1"]], discard=["R5"])
    ok = {str(g.card(a.card)) for a in g.legal_actions(0) if a.kind == "play"}
    assert ok == {"R7", "G5", "W", "BLANK"}
    g = make([["R7", "WH3", "G7"], ["Y1"]], discard=["BLANK"], color=None)
    assert {str(g.card(a.card)) for a in g.legal_actions(0) if a.kind == "play"} == {"R7", "WH3", "G7"}
    g = make([["WH3", "WH1", "G1"], ["Y1"]], discard=["R3"])
    assert {str(g.card(a.card)) for a in g.legal_actions(0) if a.kind == "play"} == {"WH3"}
    play(g, 0, "WH3")
    assert g.color == "white"
    assert {str(g.card(a.card)) for a in g.legal_actions(1) if a.kind == "play"} == set()


def test_wild_names_a_colour_in_a_step_of_its_own_and_never_white():
    g = make([["W", "R1"], ["Y1"]])
    play(g, 0, "W")
    assert g.phase == "color" and decider(g) == 0
    assert {a.color for a in g.legal_actions(0) if a.kind == "color"} == set(COLORS)
    with pytest.raises(IllegalAction):
        act(g, 0, "color", color="white")
    act(g, 0, "color", color="green")
    assert g.color == "green" and decider(g) == 1 and g.phase == "play"


def test_must_play_or_draw_no_passing():
    g = make([["R7", "G1"], ["Y1"]])
    assert "pass" not in kinds(g, 0) and "draw" in kinds(g, 0)
    with pytest.raises(IllegalAction):
        act(g, 0, "pass")


def test_optional_draw_holding_a_playable_card_only_one():
    g = make([["R7", "G1"], ["Y1"]], draw=["B3", "R1"])
    act(g, 0, "draw")  # B3 is not playable: kept, and the turn is over
    assert "B3" in hand(g, 0) and decider(g) == 1 and g.phase == "play"
    g = make([["R7", "G1"], ["Y1"]], draw=["R2", "R1"])
    act(g, 0, "draw")
    assert g.phase == "drawn" and g.drawn == cid(g, 0, "R2")
    assert {g.card(a.card).rank for a in g.legal_actions(0) if a.kind == "play"} == {"2"}  # not the R7
    act(g, 0, "pass")
    assert "R2" in hand(g, 0) and decider(g) == 1


def test_natural_draw_until_playable_then_play_or_keep():
    g = make([["G1"], ["Y1"]], draw=["B3", "Y8", "R9", "G2"])
    act(g, 0, "draw")
    assert hand(g, 0) == ["B3", "G1", "R9", "Y8"] and g.phase == "drawn"
    assert [a.kind for a in g.legal_actions(0)] == ["play", "pass"]
    play(g, 0, "R9")
    assert decider(g) == 1 and g.top.rank == "9"


def test_bomb_drawn_naturally_draws_three_more_but_not_when_drawn_by_choice():
    g = make([["G1"], ["Y1"]], draw=["B3", "WB", "G4", "G5", "G6", "G7"])
    events = act(g, 0, "draw")
    assert "bomb" in event_kinds(events)
    assert hand(g, 0) == ["B3", "G1", "G4", "G5", "G6", "WB"]
    assert g.phase == "drawn" and g.drawn == cid(g, 0, "WB")
    act(g, 0, "pass")
    g = make([["R1"], ["Y1"]], draw=["WB", "G4"])
    act(g, 0, "draw")
    assert hand(g, 0) == ["R1", "WB"] and g.phase == "drawn"


def test_needle_lets_a_natural_draw_stop():
    g = make([["G1"], ["Y1"]], draw=["BN", "B3", "R2"])
    act(g, 0, "draw")
    assert g.phase == "needle" and kinds(g, 0) == {"stop", "draw"}
    act(g, 0, "stop")
    assert hand(g, 0) == ["BN", "G1"] and decider(g) == 1
    g = make([["G1"], ["Y1"]], draw=["BN", "B3", "R2"])
    act(g, 0, "draw")
    act(g, 0, "draw")  # go on drawing
    assert hand(g, 0) == ["B3", "BN", "G1", "R2"] and g.phase == "drawn"


def test_needle_stops_a_forced_draw():
    g = make([["R+2", "R1"], ["G1", "G2"], ["Y1"]], draw=["BN", "G3", "G4"])
    play(g, 0, "R+2")
    act(g, 1, "draw")
    assert g.phase == "needle" and decider(g) == 1
    act(g, 1, "stop")
    assert hand(g, 1) == ["BN", "G1", "G2"] and decider(g) == 2


def test_black_last_card_draws_two_and_ends_the_turn():
    g = make([["W"], ["Y1"], ["G1"]], draw=["B1", "B2"])
    play(g, 0, "W")
    assert not g.over
    act(g, 0, "color", color="red")
    assert hand(g, 0) == ["B1", "B2"] and decider(g) == 1 and not g.over


def test_non_black_last_card_wins_with_points():
    g = make([["R1"], ["Y1", "W"], ["GX", "BE"]])
    play(g, 0, "R1")
    assert g.over and g.winner == 0 and g.scores[0] == 1 + 50 + 10 + 11
    g = make([["R1"], ["Y1", "W"]], options={"scoring": "rounds"})
    play(g, 0, "R1")
    assert g.scores == [1, 0] and g.target_score == 5


# -- power cards ----------------------------------------------------------------------------------

def test_skip_and_two_player_skip():
    g = make([["RS", "R1"], ["Y1"], ["G1"]])
    play(g, 0, "RS")
    assert decider(g) == 2
    g = make([["RS", "R1"], ["Y1"]])
    play(g, 0, "RS")
    assert decider(g) == 0


def test_reverse_and_two_player_reverse():
    g = make([["RR", "R1"], ["Y1"], ["G1"]])
    play(g, 0, "RR")
    assert g.direction == -1 and decider(g) == 2
    g = make([["RR", "R1"], ["Y1"]])
    play(g, 0, "RR")
    assert decider(g) == 0


def test_draw_two_victim_draws_and_loses_the_turn():
    g = make([["R+2", "R1"], ["G1"], ["Y1"]], draw=["B1", "B2"])
    play(g, 0, "R+2")
    assert g.phase == "stack" and decider(g) == 1 and g.pending["total"] == 2
    act(g, 1, "draw")
    assert hand(g, 1) == ["B1", "B2", "G1"] and decider(g) == 2


def test_stop_played_normally_does_nothing():
    g = make([["RST", "R1"], ["G1"], ["Y1"]])
    play(g, 0, "RST")
    assert decider(g) == 1 and g.phase == "play"


def test_tag_moves_the_turn_to_anyone_even_yourself():
    g = make([["RTG", "R1", "R2"], ["G1"], ["Y1"], ["B1"]])
    play(g, 0, "RTG")
    assert g.phase == "target" and {a.target for a in g.legal_actions(0)} == {0, 1, 2, 3}
    act(g, 0, "target", target=0)
    assert decider(g) == 0 and g.phase == "play"
    play(g, 0, "R1")
    assert decider(g) == 1


def test_dagger_accepted_draws_one_and_keeps_the_turn():
    g = make([["RDG", "G1"], ["Y1"], ["B1"]], draw=["B4"])
    play(g, 0, "RDG")
    assert g.phase == "challenge" and decider(g) == 1
    act(g, 1, "draw")
    assert hand(g, 1) == ["B4", "Y1"] and decider(g) == 1 and g.phase == "play"


def test_dagger_challenge_guilty_player_draws_eight():
    g = make([["RDG", "R1"], ["Y1"], ["B1"]])
    play(g, 0, "RDG")
    events = act(g, 1, "challenge")
    assert [e.reason for e in events if e.kind == "challenge"] == ["guilty"]
    assert len(g.hand(0)) == 9 and len(g.hand(1)) == 1 and decider(g) == 1


def test_dagger_challenge_innocent_challenger_draws_nine():
    g = make([["RDG", "G1"], ["Y1"], ["B1"]])
    play(g, 0, "RDG")
    act(g, 1, "challenge")
    assert len(g.hand(0)) == 1 and len(g.hand(1)) == 10 and decider(g) == 1


def test_token_card_draws_and_gives_or_removes():
    g = make([["RTK", "R1"], ["Y1"], ["B1"]], tokens=[[], ["hex"], []])
    play(g, 0, "RTK")
    assert g.phase == "token"
    assert set(g.legal_actions(0)) == {Action("draw_token"), Action("remove", target=1, color="hex")}
    act(g, 0, "draw_token")
    assert g.phase == "give" and {a.target for a in g.legal_actions(0)} == {1, 2}  # not yourself
    act(g, 0, "give", target=2)
    assert len(g.tokens[2]) == 1 and decider(g) == 1
    assert_conserved(g)
    g = make([["RTK", "R1"], ["Y1"]], tokens=[[], ["hex"]])
    play(g, 0, "RTK")
    act(g, 0, "remove", target=1, color="hex")
    assert g.tokens == [[], []] and "hex" in g.bag


def test_token_goes_to_yourself_only_when_everyone_else_is_full_or_blocked():
    g = make([["RTK", "R1"], ["Y1"], ["B1"]], tokens=[[], ["block"], ["hex", "hex", "hex"]])
    play(g, 0, "RTK")
    act(g, 0, "draw_token")  # the only recipient is the player: given at once
    assert len(g.tokens[0]) == 1 and decider(g) == 1
    g = make([["RTK", "R1"], ["Y1"]], tokens=[["hex", "hex", "hex"], ["mirror", "mirror", "mirror"]])
    play(g, 0, "RTK")
    assert {a.kind for a in g.legal_actions(0)} == {"remove"}  # everyone has 3: remove only
    g = make([["RTK", "R1"], ["Y1"]])
    play(g, 0, "RTK")
    assert [a.kind for a in g.legal_actions(0)] == ["draw_token"]  # nobody has tokens: add only


def test_trade_swaps_hands_and_wins_as_last_card():
    g = make([["RTR", "R1", "R2"], ["Y1"], ["B1"]])
    play(g, 0, "RTR")
    assert hand(g, 0) == ["Y1"] and hand(g, 1) == ["R1", "R2"] and decider(g) == 1
    g = make([["RTR"], ["Y1", "Y2"]])
    play(g, 0, "RTR")
    assert g.over and g.winner == 0


def test_share_next_player_draws_from_the_richest_until_equal():
    g = make([["RSH", "R1"], ["Y1"], ["B1", "B2", "B3", "B4", "B5", "B6"]])
    events = play(g, 0, "RSH")
    assert len(g.hand(1)) == 4 and len(g.hand(2)) == 3 and decider(g) == 1
    share = [e for e in events if e.kind == "share"][0]
    assert share.view(0).cards == () and share.view(1).cards  # only the two players see the cards
    g = make([["RSH", "R1"], ["Y1", "Y2", "Y3"], ["B1"]])
    play(g, 0, "RSH")
    assert len(g.hand(1)) == 3  # already the most: nothing


def test_cut_deck_opens_a_pile_and_plays_go_on_either():
    g = make([["YCD", "G1", "R2"], ["Y1", "R3"]], discard=["Y5"])
    targets = {a.target for a in g.legal_actions(0) if a.kind == "play" and g.card(a.card).rank == "CD"}
    assert targets == {None, 1}
    play(g, 0, "YCD", pile=1)
    assert tops(g) == ["Y5", "YCD"] and g.colors == ["yellow", "yellow"]
    assert {a.target for a in g.legal_actions(1) if a.kind == "play"} == {0, 1}
    play(g, 1, "Y1", pile=0)
    g2 = make([["YCD", "G1"], ["Y1"]], discard=["Y5"])
    play(g2, 0, "YCD")  # on the existing pile: nothing happens
    assert len(g2.piles) == 1 and g2.current == 1


def test_steal_takes_a_token_or_draws_one():
    g = make([["GSL", "G1"], ["Y1"], ["B1"]], discard=["G5"], tokens=[[], ["ace"], ["hex"]])
    play(g, 0, "GSL")
    assert set(g.legal_actions(0)) == {Action("take", target=1, color="ace"), Action("take", target=2, color="hex")}
    act(g, 0, "take", target=1, color="ace")
    assert g.tokens == [["ace"], [], ["hex"]]
    g = make([["GSL", "G1"], ["Y1"]], discard=["G5"])
    play(g, 0, "GSL")
    assert len(g.tokens[0]) == 1 and len(g.bag) == 23 and decider(g) == 1
    g = make([["GSL", "G1"], ["Y1"]], discard=["G5"], tokens=[["hex", "hex", "hex"], ["ace"]])
    play(g, 0, "GSL")
    assert g.tokens == [["hex", "hex", "hex"], ["ace"]] and decider(g) == 1  # cannot receive: nothing


def test_revive_searches_the_pile_only_the_searcher_sees_it():
    g = make([["GRV", "G1"], ["Y1"]], discard=["R3", "W", "G4", "G5"], color="green")
    play(g, 0, "GRV")
    assert g.phase == "search"
    offered = {str(g.card(a.card)) for a in g.legal_actions(0) if a.kind == "take"}
    assert offered == {"R3", "G4", "G5"}  # no wild, not the Revive itself
    assert {c["rank"] for c in g.observation(0)["search"]} == {"3", "W", "4", "5"}
    assert "search" not in g.observation(1) and "search" not in g.observation(None)
    events = act(g, 0, "take", card=cid_in_pile(g, "R3"))
    assert "R3" in hand(g, 0) and decider(g) == 1
    drawn = [e for e in events if e.kind == "draw"][0]
    assert drawn.view(1).cards == ()


def offered(g, p, text, kind="take") -> int:
    """The card id of the ``kind`` action offering a card like ``text``."""
    face = core.parse_card(text)
    return next(a.card for a in g.legal_actions(p) if a.kind == kind and g.card(a.card).face == face)


def cid_in_pile(g, text, pile=0):
    face = core.parse_card(text)
    return next(c.id for c in g.piles[pile] if c.face == face)


def test_stitch_deck_places_another_pile_on_it():
    g = make([["BSD", "B1"], ["Y1"]], piles=[["B5"], ["R2", "R3"]], colors=["blue", "red"])
    play(g, 0, "BSD", pile=0)
    assert len(g.piles) == 1 and tops(g) == ["R3"] and g.color == "red" and len(g.piles[0]) == 4
    g = make([["BSD", "B1"], ["Y1"]], piles=[["B5"], ["R2"], ["G2"]], colors=["blue", "red", "green"])
    play(g, 0, "BSD", pile=0)
    assert g.phase == "stitch" and {a.target for a in g.legal_actions(0)} == {1, 2}
    act(g, 0, "stitch", target=2)
    assert tops(g) == ["G2", "R2"] and g.colors == ["green", "red"]
    g = make([["BSD", "B1"], ["Y1"]], discard=["B5"])
    play(g, 0, "BSD")
    assert len(g.piles) == 1 and decider(g) == 1


# -- wild cards -----------------------------------------------------------------------------------

def test_draw_four_stack_and_challenges():
    g = make([["W+4", "G1"], ["Y1", "Y2"], ["B1"]], discard=["R5"])
    play(g, 0, "W+4")
    act(g, 0, "color", color="blue")
    assert g.phase == "stack" and decider(g) == 1 and "challenge" in kinds(g, 1)
    act(g, 1, "challenge")  # innocent: no red in hand -> 4 + 2
    assert len(g.hand(1)) == 8 and decider(g) == 2
    g = make([["W+4", "R1"], ["Y1", "Y2"], ["B1"]], discard=["R5"])
    play(g, 0, "W+4")
    act(g, 0, "color", color="blue")
    act(g, 1, "challenge")  # guilty: the player draws 4, the challenger plays
    assert len(g.hand(0)) == 5 and len(g.hand(1)) == 2 and decider(g) == 1 and g.phase == "play"


def test_mulligan_discards_onto_the_draw_pile_and_draws_as_many():
    g = make([["WM", "R1", "R2", "G3"], ["Y1"]])
    play(g, 0, "WM")
    act(g, 0, "color", color="red")
    assert g.phase == "discard"
    events = act(g, 0, "discard", card=cid(g, 0, "R2"))
    assert events[0].view(1).cards == ()  # face down
    act(g, 0, "discard", card=cid(g, 0, "G3"))
    act(g, 0, "pass")
    assert len(g.hand(0)) == 3 and decider(g) == 1
    assert_conserved(g)
    g = make([["WM", "R1"], ["Y1"]])
    play(g, 0, "WM")
    act(g, 0, "color", color="red")
    act(g, 0, "discard", card=cid(g, 0, "R1"))
    act(g, 0, "pass")
    assert not g.over and len(g.hand(0)) == 1  # discarding the whole hand does not win


def test_mulligan_discards_down_to_one_card_cannot_be_caught():
    # The hand is refilled to its size, so no UNO window opens mid-Mulligan (a catch would
    # otherwise redraw the very cards just laid on the draw pile, and round it could go).
    g = make([["WM", "R1", "R2", "G3"], ["Y1"]], options={"uno_calls": True})
    play(g, 0, "WM")
    act(g, 0, "color", color="red")
    act(g, 0, "discard", card=cid(g, 0, "R2"))
    act(g, 0, "discard", card=cid(g, 0, "G3"))
    assert len(g.hand(0)) == 1
    assert g.exposed is None and "catch" not in {a.kind for a in g.legal_actions(1)}
    act(g, 0, "pass")
    assert len(g.hand(0)) == 3 and g.exposed is None


def test_a_mulligan_played_down_to_one_card_uncalled_then_discarding_it_ends_the_catch():
    # Exposed by the Mulligan's play (one card left, UNO not called), the player discards that
    # card: holding none, it can no longer be caught (found by the sealed table's random rounds).
    g = make([["WM", "R1"], ["Y1", "Y2"]], options={"uno_calls": True})
    play(g, 0, "WM")
    act(g, 0, "color", color="red")
    assert g.exposed == 0
    act(g, 0, "discard", card=cid(g, 0, "R1"))
    assert g.exposed is None and not g.inconsistencies()
    act(g, 0, "pass")
    assert len(g.hand(0)) == 1 and g.current == 1


def test_flush_discards_the_chosen_colour_and_cannot_be_jumped():
    g = make([["WF", "R1", "R2", "G3"], ["Y1", "R2"]])
    play(g, 0, "WF")
    act(g, 0, "color", color="red")
    assert {g.card(a.card).color for a in g.legal_actions(0) if a.kind == "discard"} == {"red"}
    act(g, 0, "discard", card=cid(g, 0, "R2"))
    act(g, 0, "pass")
    assert tops(g) == ["R2"] and hand(g, 0) == ["G3", "R1"]
    assert "play" not in {a.kind for a in g.legal_actions(1) if decider(g) != 1}
    assert g.jump_ok == [False]


def test_flush_emptying_the_hand_draws_two():
    g = make([["WF", "R1"], ["Y1"]], draw=["B7", "B8"])
    play(g, 0, "WF")
    act(g, 0, "color", color="red")
    act(g, 0, "discard", card=cid(g, 0, "R1"))
    act(g, 0, "pass")
    assert not g.over and hand(g, 0) == ["B7", "B8"] and decider(g) == 1


def test_bomb_played_is_a_plain_wild():
    g = make([["WB", "R1"], ["Y1"]])
    play(g, 0, "WB")
    act(g, 0, "color", color="yellow")
    assert decider(g) == 1 and g.color == "yellow"


def test_draw_color_accepted_draws_until_the_colour_and_loses_the_turn():
    g = make([["WDC", "G1"], ["Y1"], ["B1"]], draw=["R1", "Y2", "G7", "B9"])
    play(g, 0, "WDC")
    act(g, 0, "color", color="green")
    assert g.phase == "challenge" and decider(g) == 1
    act(g, 1, "draw")
    assert hand(g, 1) == ["G7", "R1", "Y1", "Y2"] and decider(g) == 2


def test_ace_and_white_never_act_on_a_draw_color_draw():
    """Reading: a draw until a colour has no count for an Ace or a White to serve part of."""
    g = make([["WDC", "G1"], ["Y1"], ["B1"]], draw=["R1", "WH2", "G7", "B9"], tokens=[[], ["ace", "white"], []])
    play(g, 0, "WDC")
    act(g, 0, "color", color="green")
    act(g, 1, "draw")
    assert hand(g, 1) == ["G7", "R1", "WH2", "Y1"] and g.tokens[1] == ["ace", "white"] and decider(g) == 2
    g, _ = _lost_draw_color_challenge([[], ["ace", "white"], []], ["G7", "B2", "B3", "WH2"])
    assert hand(g, 1) == ["B2", "B3", "G7", "Y1"] and g.tokens[1] == ["ace", "white"]


def test_draw_color_challenges():
    g = make([["WDC", "R1"], ["Y1"], ["B1"]], draw=["G7"])
    play(g, 0, "WDC")
    act(g, 0, "color", color="green")
    act(g, 1, "challenge")  # guilty: the player draws until green, the challenger plays
    assert hand(g, 0) == ["G7", "R1"] and decider(g) == 1
    g = make([["WDC", "G1"], ["Y1"], ["B1"]], draw=["G7", "B2", "B3"])
    play(g, 0, "WDC")
    act(g, 0, "color", color="green")
    act(g, 1, "challenge")  # innocent: until green, then 2 more, and the turn is lost
    assert hand(g, 1) == ["B2", "B3", "G7", "Y1"] and decider(g) == 2


def _lost_draw_color_challenge(tokens, draw):
    g = make([["WDC", "G1"], ["Y1"], ["B1"]], draw=draw, tokens=tokens)
    play(g, 0, "WDC")
    act(g, 0, "color", color="green")
    return g, act(g, 1, "challenge")  # innocent: 1 draws until green, then 2 more


def test_a_lost_draw_color_challenge_is_one_forced_draw():
    """"the challenger then takes the effect regardless, with an extra penalty on top. Conversely,
    this IS a 'forced' draw": until the colour and the 2 extra are one draw for the tokens."""
    draw = ["G7", "B2", "B3", "B4", "B5", "B6", "B7", "B8"]
    g, events = _lost_draw_color_challenge([[], ["hex"], []], draw)
    assert hand(g, 1) == ["B2", "B3", "B4", "G7", "Y1"]  # G7, 2 extra, 1 Hex (once)
    assert event_kinds(events).count("token_effect") == 1
    g, events = _lost_draw_color_challenge([[], ["double"], []], draw)
    assert len(g.hand(1)) == 1 + 2 * (1 + 2)  # Double: twice the whole draw (G7 and the 2)
    g, events = _lost_draw_color_challenge([[], [], ["magnet"]], draw)
    assert g.phase == "magnet" and decider(g) == 1
    offered_cards = {a.card for a in g.legal_actions(1) if a.kind == "give"}
    assert offered_cards == {cid(g, 1, t) for t in ("G7", "B2", "B3")}  # one offer, all three cards
    act(g, 1, "pass")
    assert g.phase == "play" and decider(g) == 2 and hand(g, 1) == ["B2", "B3", "G7", "Y1"]


def test_drop_all_removes_every_token_of_one_player():
    g = make([["WDA", "R1"], ["Y1"], ["B1"]], tokens=[[], ["hex", "ace"], ["snare"]])
    play(g, 0, "WDA")
    assert g.phase == "drop" and {a.target for a in g.legal_actions(0)} == {1, 2}
    act(g, 0, "drop", target=1)
    assert g.phase == "color" and g.tokens == [[], [], ["snare"]]
    act(g, 0, "color", color="red")
    assert_conserved(g)
    g = make([["WDA", "R1"], ["Y1"]])
    play(g, 0, "WDA")
    assert g.phase == "color"  # nobody has tokens: only a wild


def test_choice_effect_and_challenges():
    g = make([["WC", "G1"], ["Y1"], ["B1"]], discard=["R5"])
    play(g, 0, "WC")
    act(g, 0, "color", color="green")
    assert g.phase == "choice" and Action("effect", color="S") in g.legal_actions(0)
    assert Action("effect", color="SL") not in g.legal_actions(0)  # Steal is not in the list
    act(g, 0, "effect", color="S")
    assert g.phase == "challenge" and decider(g) == 1
    act(g, 1, "pass")
    assert decider(g) == 2  # the Skip
    g = make([["WC", "R1"], ["Y1"], ["B1"]], discard=["R5"])
    play(g, 0, "WC")
    act(g, 0, "color", color="green")
    act(g, 0, "effect", color="S")
    act(g, 1, "challenge")  # guilty: draw 2, the effect is lost
    assert len(g.hand(0)) == 3 and decider(g) == 1
    g = make([["WC", "G1"], ["Y1"], ["B1"]], discard=["R5"])
    play(g, 0, "WC")
    act(g, 0, "color", color="green")
    act(g, 0, "effect", color="S")
    act(g, 1, "challenge")  # innocent: draw 3 and the effect still applies
    assert len(g.hand(1)) == 4 and decider(g) == 2


def test_choice_on_a_new_pile_is_a_cut_deck():
    g = make([["WC", "G1"], ["Y1"], ["B1"]], discard=["R5"])
    play(g, 0, "WC", pile=1)
    act(g, 0, "color", color="blue")
    assert g.phase == "challenge" and len(g.piles) == 2 and g.colors == ["red", "blue"]
    act(g, 1, "pass")
    assert decider(g) == 1


# -- stacking ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("card, victim, total, direction", [
    ("RS", 2, 2, 1), ("RR", 0, 2, -1), ("R+2", 2, 4, 1)])
def test_stack_with_skip_reverse_draw_two(card, victim, total, direction):
    g = make([["R+2", "G1"], [card, "G2"], ["Y1"]], discard=["R5"])
    play(g, 0, "R+2")
    play(g, 1, card)
    assert g.phase == "stack" and decider(g) == victim and g.pending["total"] == total
    assert g.direction == direction


def test_stack_with_draw_four_stop_tag_and_choice():
    g = make([["R+2", "G1"], ["W+4", "G2"], ["Y1"]], discard=["R5"])
    play(g, 0, "R+2")
    play(g, 1, "W+4")
    act(g, 1, "color", color="blue")
    assert decider(g) == 2 and g.pending["total"] == 6 and g.pending["challengeable"]
    g = make([["R+2", "G1"], ["RST", "G2"], ["Y1"]], discard=["R5"])
    play(g, 0, "R+2")
    play(g, 1, "RST")
    assert g.pending is None and decider(g) == 2 and g.phase == "play"
    g = make([["R+2", "G1"], ["RTG", "G2"], ["Y1"], ["B1"]], discard=["R5"])
    play(g, 0, "R+2")
    play(g, 1, "RTG")
    act(g, 1, "target", target=3)
    assert decider(g) == 3 and g.pending["total"] == 2
    g = make([["R+2", "G1"], ["WC", "G2"], ["Y1"], ["B1"]], discard=["R5"])
    play(g, 0, "R+2")
    play(g, 1, "WC")
    act(g, 1, "color", color="red")
    assert {a.color for a in g.legal_actions(1)} <= {"S", "R", "+2", "ST", "TG", "PR"}
    act(g, 1, "effect", color="+2")
    act(g, 2, "pass")  # no challenge
    assert decider(g) == 2 and g.pending["total"] == 4


def test_stacking_follows_playing_rules_and_stays_on_its_pile():
    g = make([["R+2", "G1"], ["GS", "B+2", "G2"], ["Y1"]], piles=[["R5"], ["G9"]], colors=["red", "green"])
    play(g, 0, "R+2", pile=0)
    plays = [a for a in g.legal_actions(1) if a.kind == "play"]
    assert [(str(g.card(a.card)), a.target) for a in plays] == [("B+2", 0)]  # not GS, not on pile 1


def test_silence_prevents_stacking_and_jumping_in():
    g = make([["R+2", "G1"], ["R+2", "G2"], ["Y1"]], tokens=[[], ["silence"], []])
    play(g, 0, "R+2")
    assert kinds(g, 1) == {"draw"}
    g = make([["R7", "G1"], ["Y1"], ["R7", "B1"]], tokens=[[], [], ["silence"]])
    play(g, 0, "R7")
    assert g.legal_actions(2) == []


def test_proc_on_a_stack_with_stackable_tokens():
    def setup(kind):
        g = make([["Y+2", "G1"], ["YPR", "G2"], ["Y1"]], discard=["Y5"], tokens=[[], [], [kind]])
        play(g, 0, "Y+2")
        play(g, 1, "YPR")
        return g
    g = setup("silence")
    assert set(g.legal_actions(1)) == {Action("proc", color="silence")}
    act(g, 1, "proc", color="silence")
    assert g.pending is None and decider(g) == 2
    g = setup("double")
    act(g, 1, "proc", color="double")
    assert decider(g) == 2 and g.pending["total"] == 4
    g = setup("mirror")
    act(g, 1, "proc", color="mirror")  # back to the player who sent it, who cannot counter
    assert len(g.hand(0)) == 3 and decider(g) == 2 and g.pending is None
    assert g.tokens[2] == ["mirror"]  # a Proc does not spend the token
    g = make([["Y+2", "G1"], ["YPR", "G2"], ["Y1"]], discard=["Y5"], tokens=[[], [], ["hex"]])
    play(g, 0, "Y+2")
    assert "play" not in kinds(g, 1)  # no stackable token in play: a Proc cannot stack


def test_jump_in_resets_a_stack_and_challenge_still_applies():
    g = make([["R+2", "G1"], ["G2"], ["R+2", "B1"], ["Y1"]], discard=["R5"])
    play(g, 0, "R+2")
    assert decider(g) == 1
    play(g, 2, "R+2")  # jump in: the stack starts again from player 2
    assert g.pending["total"] == 2 and decider(g) == 3 and g.pending["by"] == 2
    g = make([["W+4", "G1"], ["G2"], ["W+4", "R1"], ["Y1"]], discard=["R5"])
    play(g, 0, "W+4")
    play(g, 2, "W+4")  # jumps in before the colour is named: player 0 never names it
    assert g.phase == "color" and decider(g) == 2
    act(g, 2, "color", color="green")
    act(g, 3, "challenge")  # a jumped-in card can be challenged: player 2 held red
    assert len(g.hand(2)) == 5 and decider(g) == 3


def test_challenge_on_a_stack_moves_the_whole_stack():
    g = make([["R+2", "G1"], ["W+4", "R1", "G2"], ["Y1"]], discard=["R5"])
    play(g, 0, "R+2")
    play(g, 1, "W+4")
    act(g, 1, "color", color="blue")
    act(g, 2, "challenge")  # guilty: player 1 held red
    assert len(g.hand(1)) == 2 + 6 and decider(g) == 2 and g.phase == "play"


# -- jumping in ---------------------------------------------------------------------------------------

def test_jump_in_needs_the_identical_card_and_continues_from_the_jumper():
    g = make([["Y6", "G1"], ["B1"], ["Y6", "R6", "G6", "B2"], ["G2"]], discard=["Y5"])
    play(g, 0, "Y6")
    jumps = [a for a in g.legal_actions(2) if a.kind == "play"]
    assert [str(g.card(a.card)) for a in jumps] == ["Y6"]
    events = play(g, 2, "Y6")
    assert "jump_in" in event_kinds(events) and decider(g) == 3
    with pytest.raises(IllegalAction, match="identical"):
        play(g, 1, "B1")


def test_jump_in_on_yourself():
    g = make([["Y6", "Y6", "G1"], ["B1"], ["G2"]], discard=["Y5"])
    play(g, 0, "Y6")
    assert decider(g) == 1
    play(g, 0, "Y6")
    assert decider(g) == 1 and hand(g, 0) == ["G1"]


def test_no_jump_in_on_a_skip_played_on_you():
    g = make([["YS", "G1"], ["YS", "B1"], ["G2"], ["B3"]], discard=["Y5"])
    play(g, 0, "YS")
    assert decider(g) == 2
    assert [a for a in g.legal_actions(1) if a.kind == "play"] == []
    g = make([["YS", "G1"], ["B1"], ["G2"], ["YS", "B3"]], discard=["Y5"])
    play(g, 0, "YS")
    play(g, 3, "YS")  # another player may: 3 skips 0, so 1 plays
    assert decider(g) == 1


def test_jump_in_on_a_reverse_cancels_it():
    g = make([["YR", "G1"], ["YR", "B1"], ["B2"], ["B3"]], discard=["Y5"])
    play(g, 0, "YR")
    assert g.direction == -1 and decider(g) == 3
    play(g, 1, "YR")  # the first Reverse is cancelled, the second applies
    assert g.direction == -1 and decider(g) == 0


def test_stop_jumps_in_on_a_power_card_of_its_colour():
    g = make([["R+2", "G1"], ["G2"], ["RST", "GST", "B1"]], discard=["R5"])
    play(g, 0, "R+2")
    jumps = [str(g.card(a.card)) for a in g.legal_actions(2) if a.kind == "play"]
    assert jumps == ["RST"]
    play(g, 2, "RST")
    assert g.pending is None and decider(g) == 0 and hand(g, 1) == ["G2"]
    g = make([["RST", "G1"], ["G2"], ["GST", "B1"]], discard=["R5"], piles=[["R5"], ["G5"]],
             colors=["red", "green"])
    play(g, 0, "RST", pile=0)
    assert g.legal_actions(2) == []  # not on another Stop
    g = make([["R7", "G1"], ["G2"], ["RST", "B1"]], discard=["R5"])
    play(g, 0, "R7")
    assert g.legal_actions(2) == []  # not on a mundane card


def test_current_players_identical_card_is_a_stack_not_a_jump_in():
    g = make([["R+2", "G1"], ["R+2", "G2"], ["Y1"]], discard=["R5"])
    play(g, 0, "R+2")
    events = play(g, 1, "R+2")
    assert "jump_in" not in event_kinds(events) and g.pending["total"] == 4


# -- tokens ---------------------------------------------------------------------------------------------

def test_hex_adds_one_card_per_hex_to_forced_draws():
    g = make([["R+2", "G1"], ["G2"], ["Y1"]], tokens=[[], ["hex", "hex"], []])
    play(g, 0, "R+2")
    act(g, 1, "draw")
    assert len(g.hand(1)) == 5 and g.tokens[1] == ["hex", "hex"]


def test_hex_proc_next_draws_one_per_token():
    g = make([["YPR", "G1"], ["G2"], ["Y1"]], discard=["Y5"], tokens=[[], ["ace", "snare"], ["hex"]])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="hex")
    assert g.phase == "search"  # player 1's Ace serves their forced draw
    act(g, 1, "pass")
    assert len(g.hand(1)) == 3 and decider(g) == 1 and g.tokens[1] == ["ace", "snare"]


def test_magnet_holder_may_receive_a_drawn_card():
    g = make([["R+2", "G1"], ["G2"], ["Y1"]], draw=["B7", "B8"], tokens=[[], [], ["magnet"]])
    play(g, 0, "R+2")
    act(g, 1, "draw")
    assert g.phase == "magnet" and decider(g) == 1
    act(g, 1, "give", card=cid(g, 1, "B7"), target=2)
    assert hand(g, 1) == ["B8", "G2"] and "B7" in hand(g, 2) and decider(g) == 2


def test_magnet_proc_gives_a_card_to_the_next_player():
    g = make([["YPR", "G1", "G9"], ["G2"], ["Y1"]], discard=["Y5"], tokens=[[], [], ["magnet"]])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="magnet")
    act(g, 0, "give", card=cid(g, 0, "G9"))
    assert hand(g, 1) == ["G2", "G9"] and decider(g) == 1


def test_block_keeps_others_from_giving_and_its_proc():
    g = make([["RTK", "R1"], ["Y1"], ["B1"]], tokens=[[], ["block"], []])
    play(g, 0, "RTK")
    act(g, 0, "draw_token")  # only player 2 can take it
    assert len(g.tokens[2]) == 1
    g = make([["YPR", "G1"], ["G2"], ["Y1"]], discard=["Y5"], tokens=[[], ["block"], []])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="block", target=1)
    assert g.phase == "replace"
    act(g, 0, "replace")
    assert len(g.tokens[1]) == 1 and decider(g) == 1
    assert_conserved(g)


def test_reveal_lays_the_hand_open_in_every_observation():
    g = make([["R1", "G1"], ["Y1", "B2"], ["G3"]], tokens=[[], ["reveal"], []])
    for p in (0, 2, None):
        pl = g.observation(p)["players"]
        assert sorted(c["rank"] for c in pl[1]["hand"]) == ["1", "2"]
        assert "hand" not in pl[2] and "hand" not in pl[0] or p == 0
    g = make([["YPR", "G1"], ["Y1", "B2"], ["G3"]], discard=["Y5"], tokens=[[], [], ["reveal"]])
    play(g, 0, "YPR")
    events = act(g, 0, "proc", color="reveal")
    shown = [e for e in events if e.kind == "reveal"][0]
    assert shown.view(2).cards and shown.view(None).cards and "hand" not in g.observation(0)["players"][1]


def test_link_plays_underlined_numbers_on_each_other_and_its_proc():
    g = make([["B9", "G1"], ["Y1"]], discard=["R6"], tokens=[["link"], []])
    assert any(g.card(a.card).rank == "9" for a in g.legal_actions(0) if a.kind == "play")
    g = make([["B9", "G1"], ["Y1"]], discard=["R6"])
    assert not any(a.kind == "play" for a in g.legal_actions(0))
    g = make([["YPR", "B6", "G1"], ["Y1"]], discard=["Y5"], tokens=[[], ["link"]])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="link")
    assert g.phase == "link"
    play(g, 0, "B6")
    assert tops(g) == ["B6"] and g.color == "blue" and decider(g) == 1


def test_snare_cancels_the_next_power_card_but_a_wild_still_names_colour():
    g = make([["RS", "R1"], ["G1"], ["Y1"]], tokens=[["snare"], [], []])
    play(g, 0, "RS")
    assert decider(g) == 1 and g.tokens[0] == []
    g = make([["W+4", "R1"], ["G1"], ["Y1"]], tokens=[["snare"], [], []])
    play(g, 0, "W+4")
    act(g, 0, "color", color="blue")
    assert g.color == "blue" and g.pending is None and decider(g) == 1
    g = make([["R7", "R1"], ["G1"]], tokens=[["snare"], []])
    play(g, 0, "R7")
    assert g.tokens[0] == ["snare"]  # a number does not spend it


def test_mirror_turns_a_power_card_back():
    g = make([["R+2", "R1"], ["G1"], ["Y1"]], tokens=[[], ["mirror"], []])
    play(g, 0, "R+2")
    assert len(g.hand(0)) == 3 and g.tokens[1] == [] and decider(g) == 1 and g.pending is None
    g = make([["RS", "R1"], ["G1"], ["Y1"]], tokens=[[], ["mirror"], []])
    play(g, 0, "RS")
    assert decider(g) == 1  # the Skip lands on its own player, whose turn is over


def test_ace_searches_the_draw_pile_on_a_forced_draw():
    g = make([["R+2", "R1"], ["G1"], ["Y1"]], draw=["B1", "B2"], tokens=[[], ["ace"], []])
    play(g, 0, "R+2")
    act(g, 1, "draw")
    assert g.phase == "search" and "search" in g.observation(1) and "search" not in g.observation(0)
    act(g, 1, "take", card=offered(g, 1, "W"))
    assert "W" in hand(g, 1) and len(g.hand(1)) == 3 and g.tokens[1] == [] and decider(g) == 2


def test_ace_proc_searches_for_the_player():
    g = make([["YPR", "G1"], ["G2"], ["Y1"]], discard=["Y5"], tokens=[[], [], ["ace"]])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="ace")
    act(g, 0, "take", card=offered(g, 0, "W+4"))
    assert "W+4" in hand(g, 0) and g.tokens[2] == ["ace"]


def test_double_doubles_forced_draws_before_hex():
    g = make([["R+2", "R1"], ["G1"], ["Y1"]], tokens=[[], ["double", "double", "hex"], []])
    play(g, 0, "R+2")
    act(g, 1, "draw")
    assert len(g.hand(1)) == 1 + 2 * 2 + 1 and g.tokens[1] == ["double", "hex"]


def test_sub_chooses_the_colour_instead():
    g = make([["W", "R1"], ["G1"], ["Y1"]], tokens=[[], [], ["sub"]])
    play(g, 0, "W")
    assert g.phase == "sub" and decider(g) == 2
    act(g, 2, "color", color="yellow")
    assert g.color == "yellow" and g.tokens[2] == [] and decider(g) == 1
    g = make([["W", "R1"], ["G1"], ["Y1"]], tokens=[[], [], ["sub"]])
    play(g, 0, "W")
    act(g, 2, "pass")
    assert g.phase == "color" and decider(g) == 0
    act(g, 0, "color", color="red")
    assert g.tokens[2] == ["sub"]


def test_sub_proc_is_a_wild_the_owner_cannot_override():
    g = make([["YPR", "G1"], ["G2"], ["Y1"]], discard=["Y5"], tokens=[[], ["sub"], []])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="sub")
    assert g.phase == "color" and decider(g) == 0
    act(g, 0, "color", color="blue")
    assert g.color == "blue" and g.tokens[1] == ["sub"]


def test_white_token_takes_the_topmost_white_card_or_waits():
    g = make([["R+2", "R1"], ["G1"], ["Y1"]], draw=["B1", "WH2", "B3", "WH4"], tokens=[[], ["white"], []])
    play(g, 0, "R+2")
    act(g, 1, "draw")
    assert hand(g, 1) == ["B1", "G1", "WH2"] and g.tokens[1] == []
    g = make([["R+2", "R1"], ["G1"], ["Y1"]], draw=["B1", "B2"], tokens=[[], ["white"], []])
    for c in [c for c in g.draw_pile if c.color == "white"]:
        g.draw_pile.remove(c)
        g.set_aside.append(c)
    play(g, 0, "R+2")
    act(g, 1, "draw")
    assert hand(g, 1) == ["B1", "B2", "G1"] and g.tokens[1] == ["white"]


def test_white_proc_gives_the_next_player_a_white_card():
    g = make([["YPR", "G1"], ["G2"], ["Y1"]], discard=["Y5"], draw=["WH3"], tokens=[[], [], ["white"]])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="white")
    assert hand(g, 1) == ["G2", "WH3"]


def test_silence_and_snare_procs_act_as_stop():
    g = make([["YPR", "G1"], ["G2"], ["Y1"]], discard=["Y5"], tokens=[[], ["snare"], []])
    play(g, 0, "YPR")
    assert Action("proc", color="snare") in g.legal_actions(0)
    act(g, 0, "proc", color="snare")
    assert decider(g) == 1 and g.tokens[1] == ["snare"]


def test_three_token_limit():
    g = make([["RTK", "R1"], ["Y1"], ["B1"]], tokens=[[], ["hex", "hex", "hex"], []])
    play(g, 0, "RTK")
    act(g, 0, "draw_token")
    assert len(g.tokens[1]) == 3 and len(g.tokens[2]) == 1


# -- the two edge cases -----------------------------------------------------------------------------

def test_edge_forced_draw_one_with_ace_and_white_ace_first():
    g = make([["RDG", "G1"], ["Y1"], ["B1"]], draw=["WH1"], tokens=[[], ["ace", "white"], []])
    play(g, 0, "RDG")
    act(g, 1, "draw")
    assert g.phase == "search"
    act(g, 1, "take", card=offered(g, 1, "W"))
    assert hand(g, 1) == ["W", "Y1"] and g.tokens[1] == ["white"]  # White not activated


def test_edge_sub_removed_by_drop_all_cannot_change_the_colour():
    g = make([["WDA", "R1"], ["Y1"], ["B1"]], tokens=[[], [], ["sub"]])
    play(g, 0, "WDA")
    act(g, 0, "drop", target=2)
    assert g.phase == "color" and decider(g) == 0  # no Sub step
    act(g, 0, "color", color="green")
    assert g.color == "green"


# -- observation, hiding and saving ---------------------------------------------------------------

def _card_dicts(x):
    if isinstance(x, dict):
        if set(x) == {"id", "color", "rank"}:
            yield x["id"]
        else:
            for v in x.values():
                yield from _card_dicts(v)
    elif isinstance(x, list):
        for v in x:
            yield from _card_dicts(v)


def check_observation(g, p):
    obs = g.observation(p)
    msgpack.packb(obs)
    seen = set(_card_dicts(obs))
    allowed = {pile[-1].id for pile in g.piles}
    if p is not None:
        allowed |= {c.id for c in g.hands[p]}
    for q in range(g.num_players):
        if "reveal" in g.tokens[q] or g.over:
            allowed |= {c.id for c in g.hands[q]}
    if p is not None and g.queue and g.queue[0]["op"] == "search" and g.queue[0]["who"] == p \
            and g.phase == "search":
        w = g.queue[0]["where"]
        allowed |= {c.id for c in (g.draw_pile if w == "draw" else g.piles[w])}
    assert seen <= allowed, f"player {p} sees {seen - allowed}"
    assert [pl["count"] for pl in obs["piles"]] == [len(x) for x in g.piles]


def test_random_self_play_invariants_round_trip_and_hiding():
    rng = random.Random(7)
    for n in range(2, 11):
        g = core.new_game("diez", n, seed=f"rand{n}")
        for step in range(260):
            if g.over:
                break
            p = rng.choice(g.to_act())
            legal = g.legal_actions(p)
            assert legal, (g.phase, p)
            if step % 40 == 0:
                state = msgpack.unpackb(msgpack.packb(g.to_dict()), raw=False)
                twin = core.Game.from_dict(state)
                assert twin.to_dict() == g.to_dict()
            a = rng.choice(legal)
            if step % 40 == 0:
                assert twin.apply(p, a) == g.apply(p, a)
                assert twin.to_dict() == g.to_dict()
            else:
                g.apply(p, a)
            assert_conserved(g)
            if step % 5 == 0:
                check_observation(g, rng.randrange(n))
                check_observation(g, None)
        before = g.to_dict()
        if not g.over:
            bad = Action("play", 10_000)
            with pytest.raises(IllegalAction):
                g.apply(decider(g), bad)
            assert g.to_dict() == before


@pytest.mark.parametrize("n", range(2, 11))
def test_bot_rounds_end_within_a_bound(n):
    from core.bots.simulate import play_round
    levels = (["normal", "easy"] * 5)[:n] if n % 2 else ["normal"] * n
    bots = [make_bot(lv, seed=f"{n}:{i}") for i, lv in enumerate(levels)]
    for r in range(2):
        g = core.new_game("diez", n, seed=f"bots{n}:{r}")
        moves = play_round(g, bots, max_moves=3000)
        assert g.over and moves < 3000
        assert_conserved(g)


def test_normal_bot_beats_easy_bots():
    from core.bots import simulate
    result = simulate("diez", ["normal", "easy", "easy"], 24, seed=3)
    assert result.shares[0] > 0.45


# -- more exceptions --------------------------------------------------------------------------------

def test_jump_in_races_are_settled_by_arrival_order():
    g = make([["YS", "G1"], ["B1"], ["YS", "B2"], ["YST", "B3"], ["G4"]], discard=["Y5"])
    play(g, 0, "YS")  # skips 1; both 2 (identical Skip) and 3 (a Stop) may jump in
    assert any(a.kind == "play" for a in g.legal_actions(3))
    play(g, 3, "YST")  # arrives first and cancels the Skip
    assert decider(g) == 4
    assert [a for a in g.legal_actions(2) if a.kind == "play"] == []  # the Skip is no longer on top


def test_mirror_turns_a_stack_back_on_the_stacker():
    g = make([["R+2", "G1"], ["R+2", "G2"], ["Y1"]], tokens=[[], [], ["mirror"]])
    play(g, 0, "R+2")
    play(g, 1, "R+2")  # would move 4 cards to player 2, who holds a Mirror
    assert len(g.hand(1)) == 1 + 4 and g.pending is None and decider(g) == 2 and g.tokens[2] == []


def test_snared_stack_answer_leaves_the_stack_on_its_player():
    g = make([["R+2", "G1"], ["RS", "G2"], ["Y1"]], tokens=[[], ["snare"], []])
    play(g, 0, "R+2")
    play(g, 1, "RS")
    assert len(g.hand(1)) == 1 + 2 and decider(g) == 2 and g.tokens[1] == []


def test_choice_on_a_stack_caught_bluffing_takes_the_whole_stack():
    g = make([["R+2", "G1"], ["WC", "R1"], ["Y1"], ["B1"]], discard=["R5"])
    play(g, 0, "R+2")
    play(g, 1, "WC")
    act(g, 1, "color", color="blue")
    act(g, 1, "effect", color="S")
    act(g, 2, "challenge")  # player 1 held red
    assert len(g.hand(1)) == 1 + 2 + 2 and g.pending is None and decider(g) == 2 and g.phase == "play"


def test_dagger_on_a_mirror_holder_hits_the_player_without_a_challenge():
    g = make([["RDG", "G1"], ["Y1"], ["B1"]], tokens=[[], ["mirror"], []])
    play(g, 0, "RDG")
    assert len(g.hand(0)) == 2 and decider(g) == 1 and g.phase == "play"


def test_tag_on_a_mirror_holder_comes_back():
    g = make([["RTG", "G1"], ["Y1"], ["B1"]], tokens=[[], [], ["mirror"]])
    play(g, 0, "RTG")
    act(g, 0, "target", target=2)
    assert decider(g) == 0


def test_to_dict_mid_decision_round_trips():
    g = make([["W+4", "G1", "G2"], ["Y1"], ["B1"]], tokens=[[], [], ["sub"]])
    play(g, 0, "W+4")
    state = msgpack.unpackb(msgpack.packb(g.to_dict()), raw=False)
    twin = core.Game.from_dict(state)
    assert twin.phase == "sub" and twin.queue == g.queue
    for x in (g, twin):
        act(x, 2, "pass")
        act(x, 0, "color", color="green")
    assert twin.to_dict() == g.to_dict() and g.phase == "stack"


# -- Mirror on wild cards and Procs, armed Mirrors, the Needle on UNO catches -------------------


def test_mirror_turns_a_draw_4_back_without_a_challenge():
    g = make([["W+4", "G1"], ["Y1"], ["B1"]], draw=["B2", "B3", "B4", "B5"], tokens=[[], ["mirror"], []])
    play(g, 0, "W+4")
    act(g, 0, "color", color="blue")
    assert hand(g, 0) == ["B2", "B3", "B4", "B5", "G1"] and g.tokens[1] == []
    assert g.pending is None and decider(g) == 1 and g.phase == "play"


def test_mirror_turns_a_draw_4_stacked_at_its_holder_back():
    g = make([["R+2", "G1"], ["W+4", "G2"], ["Y1"]], tokens=[[], [], ["mirror"]])
    play(g, 0, "R+2")
    play(g, 1, "W+4")
    act(g, 1, "color", color="yellow")  # 6 cards would move to player 2, who holds a Mirror
    assert len(g.hand(1)) == 1 + 6 and g.pending is None and decider(g) == 2 and g.tokens[2] == []


def test_mirror_turns_a_draw_color_back_and_its_holder_plays_on():
    g = make([["WDC", "R1"], ["Y1"], ["B1"]], draw=["Y2", "G7", "B9"], tokens=[[], ["mirror"], []])
    play(g, 0, "WDC")
    act(g, 0, "color", color="green")  # no challenge: the player draws until green
    assert hand(g, 0) == ["G7", "R1", "Y2"] and hand(g, 1) == ["Y1"]
    assert decider(g) == 1 and g.phase == "play" and g.tokens[1] == []


def test_mirror_turns_a_choice_effect_back():
    g = make([["WC", "G1"], ["Y1"], ["B1"]], discard=["R5"], tokens=[[], ["mirror"], []])
    play(g, 0, "WC")
    act(g, 0, "color", color="green")
    act(g, 0, "effect", color="+2")
    act(g, 1, "pass")  # the Choice is not challenged; its Draw 2 meets the Mirror
    assert len(g.hand(0)) == 1 + 2 and len(g.hand(1)) == 1 and g.tokens[1] == []
    assert g.pending is None and decider(g) == 1


def test_mirror_is_not_spent_on_cards_that_handle_tokens():
    # Drop All, Token and Steal act on tokens, and the Mirror is one: it can be taken away.
    g = make([["WDA", "R1"], ["Y1"], ["B1"]], tokens=[[], ["mirror", "hex"], []])
    play(g, 0, "WDA")
    act(g, 0, "drop", target=1)
    assert g.tokens[1] == []


def test_procs_aimed_at_a_mirror_holder_turn_back():
    g = make([["YPR", "G1"], ["Y1", "B1"], ["B2"]], discard=["Y5"], tokens=[["hex", "hex"], ["mirror"], []])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="hex")  # the next player would draw one per token; the player does
    assert len(g.hand(0)) == 1 + 2 and len(g.hand(1)) == 2 and g.tokens[1] == [] and decider(g) == 1
    g = make([["YPR", "G1", "G2"], ["Y1", "B1"], ["B2"]], discard=["Y5"], tokens=[["magnet"], ["mirror"], []])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="magnet")
    assert g.phase == "give_card" and decider(g) == 1  # the next player gives instead
    act(g, 1, "give", card=cid(g, 1, "B1"))
    assert hand(g, 0) == ["B1", "G1", "G2"] and hand(g, 1) == ["Y1"] and decider(g) == 1
    g = make([["YPR", "G1"], ["Y1"], ["B2"]], discard=["Y5"], tokens=[[], ["mirror"], ["reveal"]])
    play(g, 0, "YPR")
    events = act(g, 0, "proc", color="reveal")
    shown = [e for e in events if e.kind == "reveal"]
    assert [(e.player, [str(c) for c in e.cards]) for e in shown] == [(0, ["G1"])]
    g = make([["YPR", "G1"], ["Y1"], ["B2"]], discard=["Y5"], draw=["B3", "WH2"],
             tokens=[[], ["mirror"], ["white"]])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="white")
    assert hand(g, 0) == ["G1", "WH2"] and hand(g, 1) == ["Y1"]


def test_mirror_proc_off_a_stack_arms_the_player_once():
    g = make([["YPR", "G1", "G2"], ["Y+2", "Y3", "B1"]], discard=["Y5"], draw=["B2", "B3"],
             tokens=[[], ["mirror"]])
    play(g, 0, "YPR")
    assert Action("proc", color="mirror") in g.legal_actions(0)
    assert Action("proc", color="double") not in g.legal_actions(0)  # nothing to double
    act(g, 0, "proc", color="mirror")
    assert g.armed == [True, False] and g.observation(1)["players"][0]["mirror_armed"]
    assert g.tokens == [[], ["mirror"]]  # a Proc spends no token
    twin = core.Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict()), raw=False))
    assert twin.armed == [True, False]
    play(g, 1, "Y+2")  # used on the armed player: back on its player, who cannot counter it
    assert hand(g, 1) == ["B1", "B2", "B3", "Y3"] and len(g.hand(0)) == 2
    assert g.armed == [False, False] and decider(g) == 0 and g.pending is None


def test_armed_mirror_is_offered_once_and_ends_with_the_round():
    g = make([["YPR", "WC", "G1"], ["Y3", "B1", "Y4"]], discard=["Y5"], tokens=[[], ["mirror", "hex"]])
    play(g, 0, "YPR")
    act(g, 0, "proc", color="mirror")
    play(g, 1, "Y3")
    play(g, 0, "WC")
    act(g, 0, "color", color="blue")
    act(g, 0, "effect", color="PR")
    act(g, 1, "pass")
    assert g.phase == "proc" and Action("proc", color="hex") in g.legal_actions(0)
    assert Action("proc", color="mirror") not in g.legal_actions(0)  # token effects do not stack
    act(g, 0, "pass")
    play(g, 1, "B1")
    play(g, 0, "G1")  # out: the round is over
    assert g.over and g.armed == [True, False]
    g.next_round()
    assert g.armed == [False, False]


def test_needle_stops_a_uno_catch_draw_and_the_turn_carries_on():
    g = make([["R1", "R2"], ["Y1", "R3"], ["B1"]], draw=["BN", "G3", "G4"], options={"uno_calls": True})
    play(g, 0, "R1")  # one card left, UNO not called
    assert decider(g) == 1 and g.exposed == 0
    act(g, 2, "catch", target=0)
    assert g.phase == "needle" and decider(g) == 0 and g.legal_actions(1) == []
    act(g, 0, "stop")
    assert hand(g, 0) == ["BN", "R2"] and decider(g) == 1 and g.phase == "play"
    play(g, 1, "R3")
    assert tops(g) == ["R3"]


def test_uno_catch_during_a_colour_choice_returns_to_it():
    g = make([["W", "R2"], ["Y1"], ["B1"]], draw=["BN", "G3"], options={"uno_calls": True},
             tokens=[["hex", "double"], [], []])
    play(g, 0, "W")
    assert g.phase == "color" and g.exposed == 0
    act(g, 1, "catch", target=0)
    act(g, 0, "draw")  # past the Needle: the whole penalty, and no token adds to it
    assert hand(g, 0) == ["BN", "G3", "R2"] and g.tokens[0] == ["hex", "double"]
    assert g.phase == "color" and decider(g) == 0
    act(g, 0, "color", color="green")
    assert decider(g) == 1 and g.color == "green"


def test_normal_bot_aims_nothing_at_a_mirror():
    bot = make_bot("normal", seed=1)
    g = make([["R+2", "R1", "G4", "B5"], ["Y1"], ["B1"]], tokens=[[], ["mirror"], []])
    assert str(g.card(bot.choose(g.observation(0)).card)) != "R+2"
    g = make([["R+2", "R1", "G4", "B5"], ["Y1"], ["B1"]])
    assert str(g.card(bot.choose(g.observation(0)).card)) == "R+2"  # no Mirror: attack
    g = make([["R+2", "G1"], ["R+2", "G2", "G3"], ["Y1"]], tokens=[[], [], ["mirror"]])
    play(g, 0, "R+2")
    assert bot.choose(g.observation(1)) == Action("draw")  # a stacked Draw 2 would bounce back
