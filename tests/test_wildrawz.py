"""Wild Rawz: scenario tests for every rule, and random self-play."""

from __future__ import annotations

import random

import msgpack
import pytest
from support import assert_sound

import core
from core import Action, IllegalAction


def game(setup: dict, players: int = 3) -> core.Game:
    return core.new_game("wildrawz", players, seed=1, setup=setup)


def card_id(g: core.Game, p: int, notation: str) -> int:
    for c in g.hand(p):
        if str(c) == notation:
            return c.id
    raise AssertionError(f"player {p} has no {notation}")


def play(g: core.Game, p: int, notation: str, kind: str = "play") -> list[core.Event]:
    return g.apply(p, Action(kind, card_id(g, p, notation)))


def trick(trump: str, hands: list[list[str]], leader: int = 0, **extra) -> core.Game:
    return game({"trump": trump, "hands": hands, "leader": leader, **extra}, players=len(hands))


# -- the deck ------------------------------------------------------------------------------

def test_decks_by_player_count():
    three = core.deck("wildrawz", num_players=3)
    four = core.deck("wildrawz", num_players=4)
    assert len(three) == 44 and len(four) == 60
    assert sorted(str(c) for c in three if c.color == "red") == sorted(
        ["R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R7", "R8", "RS"])
    assert sorted(str(c) for c in four if c.color == "blue") == sorted(
        ["B0", "B7", "BS"] + [f"B{n}" for n in range(1, 7) for _ in range(2)])
    assert not any(c.is_wild for c in three + four)


@pytest.mark.parametrize("players, row, hand, aside, held", [(3, 7, 11, 4, 13), (4, 9, 12, 3, 14)])
def test_deal_and_draft_sizes(players, row, hand, aside, held):
    g = core.new_game("wildrawz", players, seed=5)
    obs = g.observation(None)
    assert g.phase == "draft" and len(obs["row"]) == row and len(obs["aside"]) == aside
    assert all(len(g.hand(p)) == hand for p in range(players))
    assert all(c["rank"].isdigit() for c in obs["row"])  # only number cards are turned up
    order = []
    while g.phase == "draft":
        p = g.current
        order.append(p)
        g.apply(p, g.legal_actions(p)[0])
    assert order == [i % players for i in range(row - 1)]  # clockwise from the start player
    assert g.trump is not None and g.trump.is_number
    assert g.color == g.trump.color
    assert all(len(g.hand(p)) == held for p in range(players))
    assert g.current == g.leader == 0


def test_players_out_of_range():
    with pytest.raises(ValueError, match="3 to 4"):
        core.new_game("wildrawz", 5)
    with pytest.raises(ValueError, match="3 to 4"):
        core.new_game("wildrawz", 2)


# -- strength ------------------------------------------------------------------------------

def test_trump_card_beats_trump_number_even_when_played_first():
    g = trick("R7", [["B8", "B1"], ["R7", "Y1"], ["G7", "Y2"]])
    play(g, 0, "B8"); play(g, 1, "R7"); play(g, 2, "G7")
    assert g.won == [0, 1, 0] and g.leader == 1 and g.current == 1


def test_trump_number_beats_trump_colour_nine():
    g = trick("R5", [["B2", "B1"], ["R8", "Y1"], ["Y5", "Y2"]])
    play(g, 0, "B2"); play(g, 1, "R8"); play(g, 2, "Y5")
    assert g.won == [0, 0, 1]


def test_trump_colour_beats_led_colour_and_skip_is_weakest_trump():
    g = trick("R5", [["B8", "B1"], ["RS", "Y1"], ["G8", "Y2"]])
    play(g, 0, "B8"); play(g, 1, "RS"); play(g, 2, "G8")
    assert g.won == [0, 1, 0]
    g = trick("R5", [["B8", "B1"], ["R0", "Y1"], ["R1", "Y2"]])
    play(g, 0, "B8"); play(g, 1, "R0"); play(g, 2, "R1")
    assert g.won == [0, 0, 1]


def test_led_colour_order_nine_down_to_skip():
    g = trick("R5", [["BS", "G1"], ["B0", "Y1"], ["G8", "Y2"]])
    play(g, 0, "BS"); play(g, 1, "B0"); play(g, 2, "G8")
    assert g.won == [0, 1, 0]


def test_off_colour_never_wins():
    g = trick("R5", [["B1", "G1"], ["G8", "Y1"], ["Y8", "Y2"]])
    play(g, 0, "B1"); play(g, 1, "G8"); play(g, 2, "Y8")
    assert g.won == [1, 0, 0] and g.current == 0


def test_equal_strength_later_card_wins():
    g = trick("R7", [["B1", "G1"], ["G7", "Y1"], ["Y7", "Y2"]])
    play(g, 0, "B1"); play(g, 1, "G7"); play(g, 2, "Y7")
    assert g.won == [0, 0, 1]


def test_equal_strength_identical_cards_later_wins():
    g = core.new_game("wildrawz", 4, seed=1, setup={
        "trump": "R5", "hands": [["B3", "G1"], ["B2", "Y1"], ["B3", "Y2"], ["B1", "Y3"]]})
    play(g, 0, "B3"); play(g, 1, "B2"); play(g, 2, "B3"); play(g, 3, "B1")
    assert g.won == [0, 0, 1, 0]


# -- following suit ------------------------------------------------------------------------

def test_must_follow_led_colour():
    g = trick("R5", [["B8", "G1"], ["B1", "G8"], ["Y3", "Y2"]])
    play(g, 0, "B8")
    plays = {g.card(a.card).notation for a in g.legal_actions(1) if a.kind == "play"}
    assert plays == {"B1"}
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="follow blue"):
        play(g, 1, "G8")
    assert g.to_dict() == before


def test_void_player_may_play_anything():
    g = trick("R5", [["B8", "G1"], ["G8", "Y1"], ["Y3", "Y2"]])
    play(g, 0, "B8")
    plays = {g.card(a.card).notation for a in g.legal_actions(1) if a.kind == "play"}
    assert plays == {"G8", "Y1"}


# -- leaving -------------------------------------------------------------------------------

def test_leave_with_any_colour_and_leaver_leads_next():
    g = trick("R5", [["B8", "G1"], ["B1", "G8"], ["B3", "Y2"]])
    play(g, 0, "B8")
    events = play(g, 1, "G8", kind="leave")  # holds blue, still may leave with green
    assert [e.kind for e in events] == ["leave"]
    assert [str(c) for c in g.left[1]] == ["G8"]
    play(g, 2, "B3")
    assert g.won == [1, 0, 0]
    assert g.leader == 1 and g.current == 1  # the leaver leads, not the winner


def test_leader_cannot_leave():
    g = trick("R5", [["B8", "G1"], ["B1", "G8"], ["B3", "Y2"]])
    assert not any(a.kind == "leave" for a in g.legal_actions(0))
    before = g.to_dict()
    with pytest.raises(IllegalAction, match="leader cannot leave"):
        play(g, 0, "B8", kind="leave")
    assert g.to_dict() == before


def test_only_one_player_leaves_each_trick():
    g = trick("R5", [["B8", "G1"], ["B1", "G8"], ["B3", "Y2"]])
    play(g, 0, "B8")
    play(g, 1, "G8", kind="leave")
    assert not any(a.kind == "leave" for a in g.legal_actions(2))
    with pytest.raises(IllegalAction, match="already left"):
        play(g, 2, "Y2", kind="leave")
    play(g, 2, "B3")
    # A new trick: leaving is open again.
    play(g, 1, "B1")
    assert any(a.kind == "leave" for a in g.legal_actions(2))


# -- scoring -------------------------------------------------------------------------------

def test_round_scoring_with_bonus():
    # Last trick. Player 0 has won 7 and needs one more to hit 8; player 1 left with 5 and 3
    # (target 0) and has won none; player 2 has 4 tricks and no leaves (target 8).
    g = trick("R5", [["B8"], ["G1"], ["Y1"]], won=[7, 0, 4], left=[[], ["Y5", "Y3"], []])
    play(g, 0, "B8"); play(g, 1, "G1"); events = play(g, 2, "Y1")
    assert g.over and g.won == [8, 0, 4]
    assert g.round_scores == [8 + 5, 2 + 5, 4]
    assert g.scores == [13, 7, 4]
    assert g.winner == 0
    assert [e.points for e in events if e.kind == "round_over"] == [13, 7, 4]
    obs = g.observation(1)
    assert [r["bonus"] for r in obs["breakdown"]] == [5, 5, 0]


def test_skip_counts_zero_for_the_target():
    g = trick("R5", [["B8"], ["G1"], ["Y1"]], won=[0, 8, 0], left=[[], ["YS"], []])
    play(g, 0, "B8"); play(g, 1, "G1"); play(g, 2, "Y1")
    assert g.round_scores[1] == 8 + 1 + 5


def test_round_tie_has_no_single_winner():
    g = trick("R5", [["B8"], ["G1"], ["Y1"]], won=[2, 3, 0], left=[[], [], ["Y2"]])
    play(g, 0, "B8"); play(g, 1, "G1"); play(g, 2, "Y1")
    assert g.round_scores[0] == g.round_scores[1] == 3
    assert g.winner is None and g.round_winners == [0, 1]


# -- the match -----------------------------------------------------------------------------

@pytest.mark.parametrize("players", [3, 4])
def test_match_lasts_two_turns_of_the_marker(players):
    rng = random.Random(players)
    g = core.new_game("wildrawz", players, seed=9)
    starts = []
    while True:
        starts.append(g.observation(None)["start_player"])
        while not g.over:
            p = g.to_act()[0]
            g.apply(p, rng.choice(g.legal_actions(p)))
        if g.match_over:
            break
        g.next_round()
    assert starts == [r % players for r in range(2 * players)]
    best = max(g.scores)
    assert g.match_winners == [p for p, s in enumerate(g.scores) if s == best]
    with pytest.raises(IllegalAction, match="match is over"):
        g.next_round()


# -- random self-play ----------------------------------------------------------------------

def _ids(obj) -> set[int]:
    """Every card id anywhere in an observation."""
    found: set[int] = set()
    if isinstance(obj, dict):
        if {"id", "color", "rank"} <= obj.keys():
            found.add(obj["id"])
        for v in obj.values():
            found |= _ids(v)
    elif isinstance(obj, list):
        for v in obj:
            found |= _ids(v)
    return found


@pytest.mark.parametrize("players", [3, 4])
def test_random_selfplay(players):
    rng = random.Random(100 + players)
    moves = 0
    for seed in range(12):
        g = core.new_game("wildrawz", players, seed=seed)
        size = len(g.cards)
        while not g.over:
            p = rng.choice(g.to_act())
            legal = g.legal_actions(p)
            g.apply(p, rng.choice(legal))
            moves += 1
            assert sorted(c.id for c in g.all_cards()) == list(range(size))
            assert_sound(g)
            for q in range(players):
                others = {c.id for r in range(players) if r != q for c in g.hands[r]}
                assert not (_ids(g.observation(q)) & others)
            assert not (_ids(g.observation(None)) & {c.id for h in g.hands for c in h})
            if moves % 7 == 0:
                d = msgpack.unpackb(msgpack.packb(g.to_dict()))
                twin = core.Game.from_dict(d)
                assert twin.to_dict() == g.to_dict()
                assert twin.observation(p) == g.observation(p)
        assert sum(g.won) == {3: 13, 4: 14}[players]  # one trick per card in a drafted hand
    assert moves > 500


def test_bots_only_choose_legal_actions_and_normal_beats_easy():
    from core.bots import make_bot, simulate

    for players in (3, 4):
        bots = [make_bot("normal", seed=i) for i in range(players)]
        g = core.new_game("wildrawz", players, seed=3)
        while not g.over:
            p = g.current
            a = bots[p].choose(g.observation(p))
            assert a in g.legal_actions(p)
            g.apply(p, a)
    r = simulate("wildrawz", ["normal", "easy", "easy"], 200, seed=1)
    assert r.shares[0] > 0.45  # chance is a third


def test_normal_bot_ducks_when_on_target_and_takes_a_free_point():
    from core.bots import make_bot

    bot = make_bot("normal", seed=0)
    # Player 1 has won 8 (its target): it leaves with its 0 for a free point.
    g = trick("R5", [["B8", "B6"], ["B1", "G0"], ["B3", "Y2"]], won=[0, 8, 0])
    play(g, 0, "B8")
    a = bot.choose(g.observation(1))
    assert a.kind == "leave" and g.card(a.card).notation == "G0"
    # Without a 0 it plays a card that loses.
    g = trick("R5", [["B4", "B6"], ["B1", "B8"], ["B3", "Y2"]], won=[0, 8, 0])
    play(g, 0, "B6")
    a = bot.choose(g.observation(1))
    assert a.kind == "play" and g.card(a.card).notation == "B1"
