"""UNO 扩展规则 5.2.3 (``extended``): a scenario for every card and effect class, the
priority order where effects meet, the win condition, and random self-play."""

from __future__ import annotations

import random
from collections import Counter

import msgpack
import pytest
from support import assert_sound

import core
from core import Action, IllegalAction
from core.bots import make_bot
from core.variants.extended import effects as fx
from core.variants.extended import plays
from core.variants.extended.cards import TABLE

ACCEPT, REFUSE, SEND, EXPLODE, PASS, DRAW = (Action("accept"), Action("refuse"), Action("send"),
                                               Action("explode"), Action("pass"), Action("draw"))


def game(hands, discard=("R5",), draw=(), current=0, **extra) -> core.Game:
    opts = extra.pop("options", {})
    return core.new_game("extended", len(hands), seed=1, options=opts,
                         setup={"hands": [list(h) for h in hands], "discard": list(discard), "draw": list(draw),
                                "current": current, **extra})


def cid(g, p, text) -> int:
    for c in g.hand(p):
        if str(c) == text:
            return c.id
    raise AssertionError(f"player {p} holds no {text}: {[str(c) for c in g.hand(p)]}")


def play(g, p, text, color=None, target=None):
    return g.apply(p, Action("play", cid(g, p, text), color, target))


def hand(g, p) -> list[str]:
    return sorted(str(c) for c in g.hand(p))


def kinds(g, p) -> set[str]:
    return {a.kind for a in g.legal_actions(p)}


def plays_of(g, p) -> set[str]:
    return {str(g.card(a.card)) for a in g.legal_actions(p) if a.kind == "play"}


# -- the deck and the deal ---------------------------------------------------------------------

def test_deck_has_153_cards_by_the_table():
    deck = core.deck("extended")
    assert len(deck) == 153
    ranks = Counter(c.rank for c in deck)
    assert sum(ranks[str(n)] for n in range(10)) == 76 and ranks["0"] == 4 and ranks["7"] == 8
    for f in TABLE:
        want = f.copies * (4 if f.where == "each" else 1)
        assert ranks[f.rank] == want, f.rank
    black = {c.rank for c in deck if c.color is None}
    assert black == {"W+4", "W", "WRB", "WPASS", "WGREN", "WC4", "WARG", "WCAMO"}
    assert {c.color for c in deck if c.rank in ("DUELC", "DUELN", "BOMB")} == {"red"}
    assert {c.color for c in deck if c.rank in ("CHOSEN", "CURSE")} == {"yellow"}
    assert {c.color for c in deck if c.rank in ("DISARM", "REGRET")} == {"green"}


@pytest.mark.parametrize("n, size", [(2, 9), (3, 9), (4, 7), (6, 7), (7, 5), (10, 5)])
def test_hand_size_by_player_count_and_cap(n, size):
    g = core.new_game("extended", n, seed=n)
    assert all(len(g.hand(p)) == size for p in range(n))
    assert g.hand_cap == 3 * size
    assert g.top.color is not None  # a non-black starting card
    g = core.new_game("extended", n, seed=n, options={"hand_size": 5})
    assert len(g.hand(0)) == 5 and g.hand_cap == 15
    with pytest.raises(ValueError):
        core.new_game("extended", n, options={"hand_size": 6})


def test_first_player_chooses_the_direction():
    g = core.new_game("extended", 4, seed=3)
    first = g.current
    assert g.phase == "direction" and g.to_act() == [first]
    assert set(g.legal_actions(first)) == {Action("direction", target=(first + 1) % 4),
                                           Action("direction", target=(first - 1) % 4)}
    g.apply(first, Action("direction", target=(first - 1) % 4))
    assert g.direction == -1 and g.current == first and g.phase == "main"
    two = core.new_game("extended", 2, seed=3)
    assert len(two.legal_actions(two.current)) == 1


# -- phases -------------------------------------------------------------------------------------

def test_draw_and_or_play_but_not_neither():
    g = game([["R7", "B1"], ["G1"]])
    assert kinds(g, 0) == {"play", "draw"}  # no pass before drawing or playing
    g.apply(0, DRAW)
    assert g.current == 0 and PASS in g.legal_actions(0) and DRAW not in g.legal_actions(0)
    play(g, 0, "R7")  # any playable card after drawing, not only the drawn one
    assert g.current == 1


def test_black_cards_other_than_wild_and_plus4_keep_last():
    g = game([["WRB", "W", "R1"], ["G1", "G2"]])
    play(g, 0, "WRB")
    assert str(g.top) == "R5" and g.color == "red" and str(g.discard[-1]) == "WRB"
    g = game([["W", "R1"], ["G1", "G2"]])
    play(g, 0, "W", color="blue")
    assert str(g.top) == "W" and g.color == "blue"
    assert plays_of(g, 1) == set()  # nothing blue, and a wild's rank matches nothing


def test_stuck_table_turns_a_new_last():
    g = game([["B1"] + ["B2"] * 2 + ["B3"] * 2 + ["B4"] * 2 + ["B6"] * 2 + ["B7"] * 2 + ["B8"] * 2 + ["B9"] * 2,
              ["G1"] * 2 + ["G2"] * 2 + ["G3"] * 2 + ["G4"] * 2 + ["G6"] * 2 + ["G7"] * 2 + ["G8"] * 2 + ["G9"]],
             discard=("Y5",), draw=("R8",), options={"hand_size": 5})
    assert kinds(g, 0) == {"pass"}  # at the cap, nothing to play
    g.apply(0, PASS)
    g.apply(1, PASS)
    assert str(g.top) == "R8" and g.color == "red"


# -- draw effects ------------------------------------------------------------------------------

def test_draw_effect_stacks_total_and_largest_value():
    g = game([["R+2", "R1"], ["G+2", "W+4", "G1"], ["Y1", "Y2"], ["B1", "B2"]], draw=["R9"] * 0)
    play(g, 0, "R+2")
    assert g.phase == "judge" and g.current == 1
    e = g.observation(None)["pending"]
    assert (e["kind"], e["total"], e["max"], e["tier"]) == ("draw", 2, 2, 6)
    play(g, 1, "G+2")
    e = g.effects[2][0]
    assert (e["total"], e["max"], e["on"]) == (4, 2, 2) and g.current == 2
    g.apply(2, ACCEPT)
    assert len(g.hand(2)) == 6 and g.current == 3  # drew 4, turn skipped


def test_plus2_cannot_go_on_plus4():
    g = game([["W+4", "R1", "R2"], ["G+2", "R+2", "G1"], ["Y1"]])
    play(g, 0, "W+4", color="green")
    assert g.color == "green" and str(g.top) == "W+4"
    assert plays_of(g, 1) == set() and g.legal_actions(1) == [ACCEPT]
    g.apply(1, ACCEPT)
    assert len(g.hand(1)) == 7 and g.current == 2


def test_hand_cap_limits_penalty_draws():
    g = game([["R+2", "R1", "R2"], ["G1", "G1", "G2", "G2", "G3", "G3", "G4", "G4", "G6", "G6", "G7", "G7",
                                   "G8", "G8"]], options={"hand_size": 5})
    play(g, 0, "R+2")
    g.apply(1, ACCEPT)
    assert len(g.hand(1)) == 15  # 14 + 1: the cap is 3 x 5


# -- transfer -----------------------------------------------------------------------------------

def test_transfer_play_condition():
    g = game([["RT4", "RT5", "BT4", "GT5"], ["G1"]], discard=("R3",))
    assert plays_of(g, 0) == {"RT4"}  # same colour and a number 0-4
    g = game([["RT4", "RT5", "BT4", "GT5"], ["G1"]], discard=("R7",))
    assert plays_of(g, 0) == {"RT5"}
    g = game([["RT4", "RT5", "BT4", "GT5"], ["G1"]], discard=("YT5",))
    assert plays_of(g, 0) == {"RT5", "GT5"}  # on a transfer of the same kind


def test_transfer_rides_face_down_and_accepting_locks():
    g = game([["RT4", "B9", "G8", "R1"], ["YT4", "R2", "Y1"], ["B1"]], discard=("R3",))
    play(g, 0, "RT4")
    assert g.phase == "attach" and g.to_act() == [0]
    riders = {cid(g, 0, "B9"), cid(g, 0, "G8")}
    g.apply(0, Action("attach", cid(g, 0, "B9")))
    g.apply(0, Action("attach", cid(g, 0, "G8")))
    assert g.current == 1 and g.phase == "judge" and hand(g, 0) == ["R1"]
    for q in (None, 1, 2):
        seen = _card_ids(g.observation(q))
        assert not seen & riders, "a face-down transfer card was shown"
    assert g.observation(None)["pending"]["attached"] == 2
    g.apply(1, ACCEPT)
    assert {"B9", "G8"} <= set(hand(g, 1)) and g.phase == "main" and g.current == 1
    assert any(e["kind"] == "lock" for e in g.effects[1])
    assert "YT4" not in plays_of(g, 1)  # locked this turn (last is RT4: same kind)
    g.apply(1, DRAW)
    g.apply(1, PASS)
    assert not g.effects[1]  # the lock ends with the turn


def test_transfer_stacks_and_passes_on_unseen():
    g = game([["RT4", "B9", "R1"], ["YT4", "G2", "Y1"], ["B1", "B2"]], discard=("R3",))
    play(g, 0, "RT4")
    g.apply(0, Action("attach", cid(g, 0, "B9")))
    g.apply(0, SEND)
    play(g, 1, "YT4")  # not accepting: a transfer of the same kind
    g.apply(1, Action("attach", cid(g, 1, "G2")))
    g.apply(1, SEND)
    assert g.current == 2 and hand(g, 1) == ["Y1"]
    assert g.observation(2)["pending"]["attached"] == 2
    g.apply(2, ACCEPT)
    assert hand(g, 2) == ["B1", "B2", "B9", "G2"]


# -- priority: stun, weakness, counters --------------------------------------------------------

def test_skip_stuns_and_nothing_answers_it():
    g = game([["RS", "R1"], ["WRB", "GWIDOW", "GREGRET", "G1"], ["B1"]])
    play(g, 0, "RS")
    assert g.current == 2  # player 1 was stunned at once: no counter outranks 禁


def test_judgement_order_and_weakness():
    # Player 1 has a draw effect waiting; a Skip lands too: the stun resolves first and
    # leaves them weak, so the draw effect can only be accepted.
    g = game([["R+2", "RS", "R1"], ["G+2", "WRB", "G1"], ["B1", "B2"]])
    play(g, 0, "R+2")
    e = g.effects[1][0]
    g2 = g.copy()
    assert {str(g2.card(a.card)) for a in g2.legal_actions(1) if a.kind == "play"} == {"G+2", "WRB"}
    # Build the meeting directly: the stun arrives before player 1's judgement.
    g = game([["RS", "R1", "R2"], ["G+2", "WRB", "G1"], ["B1", "B2"]], current=2)
    g.effects[1].append(dict(e, on=1, id=99))
    g.apply(2, DRAW)
    g.apply(2, PASS)
    assert g.current == 0
    play(g, 0, "RS")
    assert g.current == 1 and g.phase == "judge"
    assert g.legal_actions(1) == [ACCEPT]
    assert any(x["kind"] == "weak" for x in g.effects[1])
    g.apply(1, ACCEPT)
    assert g.current == 2 and not g.effects[1]


def test_rebound_sends_a_draw_back_and_pass_sends_it_on():
    g = game([["R+2", "R1"], ["WRB", "G1"], ["B1"]])
    play(g, 0, "R+2")
    play(g, 1, "WRB")
    assert g.effects[0] and g.effects[0][0]["total"] == 2
    assert g.current == 1 and g.phase == "main"  # removed before judgement: the turn goes on
    g = game([["R+2", "R1"], ["WPASS", "G1"], ["B1"]])
    play(g, 0, "R+2")
    play(g, 1, "WPASS")
    assert g.effects[2] and g.current == 2 and g.phase == "judge"  # the turn went with it


def test_defence_cards_do_not_outrank_advanced_effects():
    g = game([["GDISARM", "G1"], ["WRB", "WPASS", "RWIDOW", "Y1"], ["B1"]], discard=("G5",))
    play(g, 0, "GDISARM")
    offered = {str(g.card(a.card)) for a in g.legal_actions(1) if a.kind == "play"}
    assert offered == {"RWIDOW"}
    assert fx.can_counter("WRB", {"kind": "draw", "tier": 6, "trail": [1]})
    assert not fx.can_counter("WIDOW", {"kind": "stun", "tier": 0, "trail": [1]})
    assert fx.can_counter("REGRET", {"kind": "swap", "tier": 3, "trail": [1]})
    assert not fx.can_counter("WIDOW", {"kind": "regret", "tier": 1, "trail": [1]})


def test_widow_cancels_a_clip():
    g = game([["RCLIP", "R1", "R2"], ["RWIDOW", "G1", "G2"], ["B1"]])
    play(g, 0, "RCLIP")
    assert g.phase == "react" and g.to_act() == [1] and g.current == 0
    play(g, 1, "RWIDOW")
    assert hand(g, 1) == ["G1", "G2"] and hand(g, 0) == ["R1", "R2"] and g.current == 1


def test_regret_pill_withdraws_a_draw_card_and_its_player_plays_again():
    g = game([["R+2", "R6", "B1"], ["GREGRET", "G1"], ["B2"]])
    play(g, 0, "R+2")
    play(g, 1, "GREGRET")
    assert g.current == 0 and not any(g.effects) and "R+2" in hand(g, 0)
    assert str(g.top) == "R5" and g.color == "red"
    assert "R+2" not in plays_of(g, 0)  # another card this time
    play(g, 0, "R6")
    assert g.current == 1


def test_regret_pill_undoes_a_draw_upstream():
    g = game([["B1", "B2"], ["GREGRET", "G1"], ["B3"]], discard=("G5",), draw=["Y9", "Y8"])
    g.apply(0, DRAW)
    g.apply(0, PASS)
    assert "Y9" in hand(g, 0)
    play(g, 1, "GREGRET")
    assert "Y9" not in hand(g, 0) and "Y8" in hand(g, 0) and str(g.draw_pile[0]) == "Y9"
    # 非黑牌打出后将会替换last: the pill was played in the play phase, so it is last now.
    assert str(g.top) == "GREGRET" and g.color == "green" and str(g.discard[-1]) == "GREGRET"
    assert g.current == 2 and g.observation(None)["last"]["rank"] == "REGRET"


def test_regret_pill_undoes_a_play_upstream_and_becomes_last():
    g = game([["G7", "G2", "B2"], ["GREGRET", "Y1"], ["B3"]], discard=("G5",))
    play(g, 0, "G7")
    assert str(g.top) == "G7"
    play(g, 1, "GREGRET")
    assert hand(g, 0) == ["B2", "G2", "G7"] and g.current == 0
    assert str(g.top) == "GREGRET" and g.color == "green"
    assert plays_of(g, 0) == {"G2"}  # a different card (not the G7), on the pill


def rest_of_deck(*named) -> list[str]:
    """Every card of the deck not named, so a setup leaves the draw pile empty."""
    left = Counter(str(c) for c in core.deck("extended"))
    left.subtract(t for cards in named for t in cards)
    return sorted(left.elements())


def test_regret_pill_against_an_effect_when_the_old_last_is_gone():
    """The card the undone move covered was shuffled away: the pill, a green card played, is last."""
    hands = [["R+2", "R1"], ["GREGRET", "G1"]]
    g = game(hands + [rest_of_deck(*hands, ["B9", "R5"])], discard=("B9", "R5"))
    assert not g.draw_pile
    play(g, 0, "R+2")  # R+2 covers R5; 0 is left with one card and did not call
    g.apply(2, Action("catch", target=0))  # the catch reshuffles B9 and R5: 0 draws them
    assert {"B9", "R5"} <= set(hand(g, 0)) and not g.draw_pile
    play(g, 1, "GREGRET")
    assert "R+2" in hand(g, 0) and g.current == 0
    assert str(g.top) == "GREGRET" and g.color == "green" and g.top in g.discard
    assert not g.inconsistencies()


def test_regret_pill_takes_back_a_covered_card_and_last_stays():
    """紧箍咒 waits for its victim's judgement; cards played meanwhile stay on top."""
    g = game([["YCURSE", "B1"], ["Y7", "G2"], ["GREGRET", "G1", "B4"]], discard=("Y5",))
    play(g, 0, "YCURSE", target=2)
    play(g, 1, "Y7")
    assert g.current == 2 and g.phase == "judge" and str(g.top) == "Y7"
    play(g, 2, "GREGRET")
    assert "YCURSE" in hand(g, 0) and g.current == 0
    assert str(g.top) == "Y7" and g.color == "yellow"  # not Y5, which YCURSE covered long ago
    assert not g.inconsistencies()


# -- the other cards -----------------------------------------------------------------------------

def test_hand_of_god_swaps_and_recasts_one_on_one():
    g = game([["RHAND", "R1"], ["G1", "G2", "G3"], ["B1"]])
    play(g, 0, "RHAND")
    g.apply(1, ACCEPT)
    assert hand(g, 0) == ["G1", "G2", "G3"] and hand(g, 1) == ["R1"]
    g = game([["RHAND", "R1"], ["G1", "G2", "G3"]], draw=["Y7"])
    play(g, 0, "RHAND")
    assert hand(g, 0) == ["R1", "Y7"] and g.current == 1


def test_clip_takes_two_unseen_by_others():
    g = game([["RCLIP", "R1"], ["G1", "G2", "G3"], ["B1"]])
    play(g, 0, "RCLIP")
    events = g.apply(1, ACCEPT)
    assert len(g.hand(0)) == 3 and len(g.hand(1)) == 1
    clip = next(e for e in events if e.kind == "clip")
    assert clip.view(2).cards == () and clip.view(1).cards and clip.view(0).cards


def test_colour_duel():
    g = game([["RDUELC", "R1", "R2", "R3"], ["G1"], ["B1", "B2"]], draw=["Y9"])
    play(g, 0, "RDUELC", target=2)
    g.apply(2, ACCEPT)
    assert g.phase == "duel" and g.to_act() == [0]
    for p, col in ((0, "yellow"), (2, "red"), (0, "green"), (2, "black")):
        assert g.to_act() == [p]
        g.apply(p, Action("choose", color=col))
    assert g.phase == "discard" and g.to_act() == [0]  # yellow turned: player 0 sheds two
    assert len(g.hand(2)) == 6
    g.apply(0, Action("discard", cid(g, 0, "R3")))
    g.apply(0, Action("discard", cid(g, 0, "R2")))
    assert hand(g, 0) == ["R1"] and g.current == 1


def test_number_duel_tie_both_lose():
    g = game([["RDUELN", "R1"], ["G1"], ["B1"]], draw=["YS", "Y4", "G4"])
    play(g, 0, "RDUELN", target=1)
    g.apply(1, ACCEPT)
    assert len(g.hand(0)) == 5 and len(g.hand(1)) == 5  # 4 and 4 (the Skip was turned again)


def test_number_duel_ends_when_no_number_can_come_up():
    """Every number card is in a hand: the initiator turns the pile through (and the cards shuffled
    back once) without a number, the other cannot find one either, and it is a draw."""
    numbers = Counter(str(c) for c in core.deck("extended") if c.is_number)
    numbers.subtract(["R1", "G1"])
    g = game([["RDUELN", "R1"], ["G1"], sorted(numbers.elements())], discard=("RS",))
    pile = len(g.draw_pile)
    play(g, 0, "RDUELN", target=1)
    events = g.apply(1, ACCEPT)
    flips = [e for e in events if e.kind == "flip"]
    assert all(e.player == 0 for e in flips)  # the other does not turn: no number can come for them
    assert flips[-1].cards == () and flips[-1].reason == "number"
    assert all(not c.is_number for e in flips for c in e.cards)
    assert pile <= len(flips) - 1 <= 2 * pile + 1  # once through, then at most once more
    over = next(e for e in events if e.kind == "duel_over")
    assert over.reason == "draw" and len(g.hand(0)) == 5 and len(g.hand(1)) == 5
    assert core.describe(flips[-1], g.names) and not g.inconsistencies()


def test_stuck_table_keeps_last_when_no_coloured_card_can_come_up():
    """The turn-up for a stuck table stops after one pass when the pile holds only black cards."""
    coloured = Counter(str(c) for c in core.deck("extended") if c.color is not None)
    coloured.subtract(["Y5"])
    g = game([sorted(coloured.elements()), ["WRB"]], discard=("Y5",))
    black = len(g.draw_pile)
    events: list = []
    plays.unstick(g, events)
    assert str(g.top) == "Y5" and g.color == "yellow" and g.stuck == 0
    assert [len(e.cards) for e in events] == [1] * black + [0]  # each black card once, no reshuffle
    assert events[-1].reason == "unstick" and not g.draw_pile and not g.inconsistencies()


def test_chosen_one_keeps_one_number_or_wins_outright():
    g = game([["YCHOSEN", "R1", "R7", "WRB"], ["G1"]], discard=("Y5",))
    play(g, 0, "YCHOSEN")
    g.apply(0, Action("keep", cid(g, 0, "R1")))
    assert hand(g, 0) == ["R1"] and g.exposed == 0
    g = game([["YCHOSEN", "WRB", "GCLIP"], ["G1"], ["B1"]], discard=("Y5",))
    events = play(g, 0, "YCHOSEN")
    assert g.finished == [0] and g.exposed is None  # no UNO needed
    assert any(e.kind == "win" for e in events)


@pytest.mark.parametrize("n, draws", [(2, [2, 1]), (3, [3, 2, 2]), (5, [5, 4, 4, 3, 3]), (6, [6, 5, 5, 4, 4, 3])])
def test_bomb_by_distance(n, draws):
    hands = [["RBOMB", "R1"]] + [[f"G{q}"] for q in range(1, n)]
    g = game(hands)
    plan = g.bomb_draws(0)
    assert [k for _, k in plan] == draws and plan[0][0] == 0
    play(g, 0, "RBOMB")
    assert len(g.hand(0)) == 1 + draws[0]


def test_disarm_accept_or_refuse():
    g = game([["GDISARM", "G1"], ["RS", "RCLIP", "WRB", "Y1"], ["B1"]], discard=("G5",))
    play(g, 0, "GDISARM")
    g.apply(1, ACCEPT)
    assert g.phase == "discard" and g.to_act() == [1]
    g.apply(1, Action("discard", cid(g, 1, "RS")))
    g.apply(1, Action("discard", cid(g, 1, "RCLIP")))
    assert hand(g, 1) == ["WRB", "Y1"] and g.current == 2  # and the turn was lost
    g = game([["GDISARM", "G1"], ["Y1"], ["B1"]], discard=("G5",))
    play(g, 0, "GDISARM")
    g.apply(1, REFUSE)
    assert len(g.hand(1)) == 5 and g.current == 2


def test_grenade_chain_and_blast():
    g = game([["WGREN", "R1", "R2"], ["B1", "B2", "G3"], ["Y1", "Y2"]], options={"hand_size": 5})
    play(g, 0, "WGREN", color="blue")
    assert g.phase == "grenade" and g.to_act() == [1] and str(g.top) == "R5"
    assert EXPLODE not in g.legal_actions(1)  # must answer when able
    g.apply(1, Action("play", cid(g, 1, "B1"), "green"))
    assert str(g.top) == "B1" and g.to_act() == [2]
    assert g.legal_actions(2) == [EXPLODE]
    g.apply(2, EXPLODE)
    assert len(g.hand(2)) == 5 and g.current == 0 and g.phase == "main"
    assert g.observation(None)["interaction"] is None  # reset; the victim's next starts


def test_c4_counts_seats_and_explodes():
    g = game([["WC4", "R2", "R1", "R3"], ["G1"], ["BS"], ["Y0", "Y5"]], options={"hand_size": 5})
    play(g, 0, "WC4")
    assert g.phase == "c4" and g.to_act() == [0]
    play(g, 0, "R2")
    assert g.to_act() == [2]  # two seats on
    assert g.legal_actions(2) == [EXPLODE]
    # player 2 cannot play a number: it blows up on them; the originator's next starts
    g.apply(2, EXPLODE)
    assert len(g.hand(2)) == 5 and g.current == 1


def test_c4_zero_keeps_it():
    g = game([["WC4", "R0", "R1", "R2"], ["G1"], ["B1"]])
    play(g, 0, "WC4")
    play(g, 0, "R0")
    assert g.to_act() == [0]


def test_argue_needs_no_lower_number():
    g = game([["WARG", "R3", "R1", "R2"], ["G2", "G4", "G6"], ["B1"]])
    play(g, 0, "WARG")
    assert plays_of(g, 0) == {"R3", "R1", "R2"}
    play(g, 0, "R3")
    assert plays_of(g, 1) == {"G4", "G6"}
    play(g, 1, "G4")
    assert g.legal_actions(2) == [REFUSE]
    g.apply(2, REFUSE)
    assert len(g.hand(2)) == 5 and g.current == 1 and str(g.top) == "G4"


def test_headband_curse():
    g = game([["YCURSE", "R1", "R2"], ["G1"], ["Y1", "B2", "B3", "B4", "B5"]], discard=("Y5",))
    play(g, 0, "YCURSE", target=2)
    assert g.effects[2][0]["kind"] == "curse"
    g.apply(1, DRAW)
    g.apply(1, PASS)
    g.apply(2, ACCEPT)
    bound = g.effects[2][0]
    assert bound["kind"] == "bound" and bound["eff"] == 3
    assert DRAW not in g.legal_actions(2) and g.observation(None)["players"][2]["room"] == 0
    play(g, 2, "Y1")  # 4 cards left, still bound
    assert g.effects[2]


def test_curse_blocks_penalty_draws_and_releases():
    g = game([["R+2", "R1"], ["G1", "G2", "G3"], ["B1"]])
    g.effects[1].append(fx.new_effect(99, "bound", 1, eff=2))
    play(g, 0, "R+2")
    g.apply(1, ACCEPT)
    assert len(g.hand(1)) == 3 and g.current == 2  # no card from the pile
    g.effects[1][0]["eff"] = 3
    g.apply(2, DRAW)
    g.apply(2, PASS)
    play(g, 0, "R1")
    assert g.current == 1 and DRAW not in g.legal_actions(1)
    play(g, 1, "G1")  # down to 2 <= 3: released
    assert not any(e["kind"] == "bound" for e in g.effects[1])


def test_camouflage_plays_two_cards_and_needs_no_uno():
    g = game([["WCAMO", "G7"], ["B1"], ["Y1"]])
    acts = [a for a in g.legal_actions(0) if a.kind == "camo"]
    assert {a.color for a in acts} == {"red"}  # G7 counts as red on a red 5
    events = g.apply(0, acts[0])
    assert g.color == "red" and str(g.top) == "G7" and g.finished == [0]
    assert not any(e.kind == "catch" for e in events)


def test_infinity_plays_again_and_reward_sheds():
    g = game([["RINF", "R7", "B7", "G1"], ["Y1"]])
    play(g, 0, "RINF")
    assert g.current == 0 and g.phase == "main"
    play(g, 0, "R7")
    assert g.current == 1  # one extra play only
    g = game([["RGIFT", "B9", "G1"], ["Y1"]])
    play(g, 0, "RGIFT")
    assert g.phase == "discard"
    g.apply(0, Action("discard", cid(g, 0, "B9")))
    assert hand(g, 0) == ["G1"] and g.current == 1


def test_reverse():
    g = game([["RR", "R1"], ["G1"], ["B1"]])
    play(g, 0, "RR")
    assert g.direction == -1 and g.current == 2


# -- UNO and winning -----------------------------------------------------------------------------

def test_uno_call_and_two_card_penalty():
    g = game([["R1", "R2"], ["G1"], ["B1"]])
    play(g, 0, "R1")
    assert g.exposed == 0 and Action("catch", target=0) in g.legal_actions(2)
    g.apply(2, Action("catch", target=0))
    assert len(g.hand(0)) == 3
    g = game([["R1", "R2"], ["G1"], ["B1"]])
    play(g, 0, "R1")
    g.apply(0, Action("uno"))
    assert g.exposed is None


def test_a_swap_that_leaves_one_card_needs_an_uno_call():
    """你需要在你的手牌从多于一张变为只剩一张后喊"UNO!": a 神手 swap is such a change too (3 -> 1)."""
    g = game([["RHAND", "R1", "R2"], ["G1"], ["B1", "B2"]])
    play(g, 0, "RHAND")
    g.apply(1, ACCEPT)
    assert hand(g, 0) == ["G1"] and hand(g, 1) == ["R1", "R2"]
    assert g.exposed == 0 and not g.observation(None)["players"][0]["uno"]
    assert Action("catch", target=0) in g.legal_actions(2) and Action("uno") in g.legal_actions(0)
    g.apply(2, Action("catch", target=0))
    assert len(g.hand(0)) == 3
    # The victim's side: 3 cards -> 1 (and the player of the 神手, 1 -> 3, has nothing to call).
    g = game([["RHAND", "R1"], ["G1", "G2", "G3"], ["B1"]])
    play(g, 0, "RHAND")
    g.apply(0, Action("uno"))
    g.apply(1, ACCEPT)
    assert hand(g, 1) == ["R1"] and g.exposed == 1 and not g.declared[0]
    g.apply(1, Action("uno"))
    assert g.exposed is None and g.observation(None)["players"][1]["uno"]
    # One card for one card: no new call is due, and a call made stands.
    g = game([["RHAND", "R1"], ["G1"], ["B1"]])
    play(g, 0, "RHAND")
    g.apply(0, Action("uno"))
    g.apply(1, ACCEPT)
    assert hand(g, 0) == ["G1"] and hand(g, 1) == ["R1"]
    assert g.exposed is None and g.declared[0] and not g.declared[1]


def test_no_catch_once_the_single_card_is_gone():
    """The call is for the hand of one card: played out (here inside a C4 chain, so not yet a
    win), there is nothing left to catch."""
    g = game([["WC4", "R0", "R1"], ["G1", "G2"], ["B1", "B2"]])
    play(g, 0, "WC4")
    play(g, 0, "R0")  # one card left, no call; the C4 stays with 0
    assert g.exposed == 0
    play(g, 0, "R1")  # none left
    assert g.exposed is None and all(a.kind != "catch" for a in g.legal_actions(1))
    assert not g.inconsistencies()


def test_last_plus4_does_not_win_while_it_can_come_back():
    g = game([["W+4"], ["WRB", "G1"], ["B1"]])
    play(g, 0, "W+4", color="green")
    assert not g.hand(0) and g.finished == []  # the +4 may still come back
    play(g, 1, "WRB")
    assert g.current == 1 and g.effects[0]
    g.apply(1, DRAW)
    g.apply(1, PASS)
    g.apply(2, DRAW)
    g.apply(2, PASS)
    g.apply(0, ACCEPT)
    assert len(g.hand(0)) == 4 and g.finished == []


def test_last_plus2_wins_once_accepted():
    g = game([["R+2"], ["G1"], ["B1"]])
    play(g, 0, "R+2")
    assert g.finished == []
    events = g.apply(1, ACCEPT)
    assert g.finished == [0] and g.scores[0] == 2
    assert any(e.kind == "win" and e.points == 2 for e in events)
    assert g.current == 2 and not g.over  # play goes on among the others


def test_every_winner_scores_the_players_left_and_round_ends_with_one():
    g = game([["R1"], ["R2"], ["R3", "B1", "B2"]], options={"target_score": 50})
    play(g, 0, "R1")
    assert g.finished == [0] and g.scores == [2, 0, 0]
    play(g, 1, "R2")
    assert g.over and g.finished == [0, 1] and g.scores == [2, 1, 0]
    assert g.round_winners == [0, 1] and g.winner == 0
    g.next_round()
    assert g.current == 0 and g.phase == "direction"  # the fastest winner leads the next round


# -- self-play -----------------------------------------------------------------------------------

def _card_ids(obs) -> set[int]:
    out: set[int] = set()
    stack = [obs]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            if "id" in o and "rank" in o:
                out.add(o["id"])
            stack.extend(v for v in o.values() if isinstance(v, (dict, list)))
        elif isinstance(o, list):
            stack.extend(v for v in o if isinstance(v, (dict, list)))
    return out


def _check(g):
    ids = [c.id for c in g.all_cards()]
    assert len(ids) == 153 and len(set(ids)) == 153
    assert_sound(g)  # last on the discard pile, among others
    riders = {i for e in g._all_effects() for i in fx.attached(e)}
    for q in (None, *range(g.num_players)):
        obs = g.observation(q)
        assert msgpack.unpackb(msgpack.packb(obs)) == obs
        seen = _card_ids(obs)
        assert not seen & riders
        assert not seen & {c.id for c in g.draw_pile}
        if not g.over:
            others = {c.id for p in range(g.num_players) if p != q for c in g.hand(p)}
            assert not seen & others


def _round_trip(g, rng, steps=8):
    h = core.Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict())))
    assert h.to_dict() == g.to_dict()
    for _ in range(steps):
        if g.over:
            break
        p = rng.choice(g.to_act())
        a = rng.choice(g.legal_actions(p))
        assert g.apply(p, a) == h.apply(p, a)
        assert h.to_dict() == g.to_dict()


@pytest.mark.parametrize("n", range(2, 11))
def test_random_selfplay(n):
    rng = random.Random(n)
    for r in range(2):
        g = core.new_game("extended", n, seed=rng.getrandbits(32))
        moves = 0
        while not g.over:
            assert moves < 6000, "a round did not end"
            if moves % 25 == 0:
                _check(g)
            if moves % 97 == 50:
                _round_trip(g, rng)
                if g.over:  # the round trip's moves may end the round
                    break
            p = rng.choice(g.to_act())
            legal = g.legal_actions(p)
            assert legal
            plays = [a for a in legal if a.kind in ("play", "camo")]
            a = rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(legal)
            g.apply(p, a)
            moves += 1
            if moves % 50 == 0:
                bad = Action("play", rng.randrange(153), None)
                if bad not in g.legal_actions(p):
                    d = g.to_dict()
                    with pytest.raises(IllegalAction):
                        g.apply(p, bad)
                    assert g.to_dict() == d
        _check(g)
        assert len(g.active) == 1 and len(g.finished) == n - 1
        assert sum(g.scores) == sum(range(1, n))


@pytest.mark.parametrize("n", [2, 4, 7, 10])
def test_bot_selfplay_ends(n):
    from core.bots.simulate import play_round
    bots = [make_bot("normal" if i % 2 else "easy", seed=i) for i in range(n)]
    for s in range(2):
        g = core.new_game("extended", n, seed=f"b{s}")
        assert play_round(g, bots, max_moves=6000) < 6000
        assert g.over


def test_normal_bot_beats_easy():
    from core.bots.simulate import play_round
    totals = [0, 0]
    for s in range(60):
        bots = [make_bot("normal", seed=s), make_bot("easy", seed=s)]
        if s % 2:
            bots.reverse()
        g = core.new_game("extended", 2, seed=f"n{s}")
        play_round(g, bots)
        w = g.round_winners[0]
        totals[(w + s) % 2] += 1
    assert totals[0] > totals[1] * 2
