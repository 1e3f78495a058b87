"""Bots: legal choices only, always an answer on their turn, strength, and the
normal bot's UNO, catch and challenge decisions in constructed positions."""

from __future__ import annotations

import random

import pytest

import core
from core import Action
from core.bots import make_bot, simulate

LEVELS = ("easy", "normal")


def make(n, hands, discard, draw=(), *, seed=0, **extra):
    return core.new_game("classic", n, seed=seed, setup={"hands": hands, "discard": discard, "draw": list(draw),
                                                         **extra})


def cid(g, p, text) -> int:
    for c in g.hand(p):
        if str(c) == text:
            return c.id
    raise AssertionError(f"player {p} holds no {text}")


def legal_of(obs) -> list[Action]:
    return [Action.from_dict(a) for a in obs["legal"]]


# -- legality over many games ---------------------------------------------------------------


def play_checked_round(g, bots, rng, max_moves=20000) -> dict:
    """Like ``core.bots.simulate``'s loop, checking every choice."""
    n = g.num_players
    stats = {"moves": 0, "out_of_turn": 0, "none": 0, "catch": 0, "uno": 0}
    while not g.over:
        assert stats["moves"] < max_moves, "round did not end"
        cur = g.current
        # The player whose turn it is must always have an answer.
        obs = g.observation(cur)
        a = bots[cur].choose(obs)
        assert a is not None, f"{bots[cur].level} bot gave no action on its turn: {obs['legal']}"
        assert a in legal_of(obs), f"{bots[cur].level} chose {a}, not in {obs['legal']}"
        assert a in g.legal_actions(cur)
        order = sorted(g.to_act(), key=lambda p: (p - cur) % n)
        others = order[1:]
        rng.shuffle(others)
        order = others + order[:1]  # out-of-turn players first, as in simulate
        for p in order:
            obs = g.observation(p)
            a = bots[p].choose(obs)
            if a is None:
                assert p != cur
                stats["none"] += 1
                continue
            assert isinstance(a, Action)
            assert a in legal_of(obs), f"{bots[p].level} bot (seat {p}) chose {a}, not in {obs['legal']}"
            assert a in g.legal_actions(p)
            g.apply(p, a)
            stats["moves"] += 1
            stats["out_of_turn"] += p != cur
            if a.kind in ("catch", "uno"):
                stats[a.kind] += 1
            break
        else:
            raise AssertionError("nobody acted")
    return stats


@pytest.mark.parametrize("n", range(2, 11))
def test_bots_choose_only_legal_actions(n):
    rng = random.Random(n)
    games = 12 if n <= 4 else 6
    total = {"moves": 0, "out_of_turn": 0, "none": 0, "catch": 0, "uno": 0}
    wins = [0] * n
    for i in range(games):
        levels = [rng.choice(LEVELS) for _ in range(n)]
        if i == 0:
            levels = ["easy"] * n  # long rounds: big hands, reshuffles
        elif i % 3 == 1:
            levels = ["normal"] * n
        elif "normal" not in levels:
            levels[0] = "normal"
        bots = [make_bot(lv, seed=f"{n}:{i}:{p}") for p, lv in enumerate(levels)]
        options = {"draw_until_playable": bool(i % 2)}
        g = core.new_game("classic", n, seed=f"bots-{n}-{i}", options=options)
        s = play_checked_round(g, bots, rng)
        for k in total:
            total[k] += s[k]
        wins[g.winner] += 1
        assert len(g.hand(g.winner)) == 0
    assert total["moves"] > games * 10
    assert total["catch"] + total["uno"] > 0


def test_bots_out_of_turn_choices_are_legal():
    """Easy bots forget UNO; normal bots catch them; easy bots sometimes let a chance go."""
    rng = random.Random(99)
    total = {"moves": 0, "out_of_turn": 0, "none": 0, "catch": 0, "uno": 0}
    for i in range(40):
        levels = ["easy", "easy", "normal", "easy"] if i % 2 else ["easy", "easy", "easy"]
        bots = [make_bot(lv, seed=f"oot:{i}:{p}") for p, lv in enumerate(levels)]
        g = core.new_game("classic", len(levels), seed=f"oot-{i}")
        s = play_checked_round(g, bots, rng)
        for k in total:
            total[k] += s[k]
    assert total["catch"] > 0
    assert total["out_of_turn"] > 0
    assert total["none"] > 0


def test_bots_return_none_when_they_have_nothing_to_do():
    g = make(3, [["R3", "G7", "B1"], ["Y1", "Y2"], ["Y3", "Y4"]], ["R5"])
    for level in LEVELS:
        bot = make_bot(level, seed=1)
        for p in (1, 2):
            obs = g.observation(p)
            assert obs["legal"] == []
            assert bot.choose(obs) is None


def test_bots_see_only_their_observation():
    """A bot's decision depends on the observation alone: equal observations, equal choices."""
    for level in LEVELS:
        for seed in range(20):
            g = core.new_game("classic", 4, seed=seed)
            obs = g.observation(g.current)
            a = make_bot(level, seed=5).choose(obs)
            b = make_bot(level, seed=5).choose(g.observation(g.current))
            assert a == b and a is not None


def test_make_bot_unknown_level():
    with pytest.raises(ValueError, match="grandmaster"):
        make_bot("grandmaster")
    assert make_bot("easy").level == "easy"
    assert make_bot("normal").level == "normal"


# -- strength --------------------------------------------------------------------------------


def test_normal_beats_three_easy_bots():
    # (It wins about 98%: 150 games put the bar far inside any reasonable interval; the
    # figures with their intervals are benchmarks/bots.py's.)
    result = simulate("classic", ["normal", "easy", "easy", "easy"], 150)
    assert result.games == 150
    assert sum(result.wins) == 150
    assert result.moves > 150 * 10
    assert result.shares[0] >= 0.80, f"normal won only {result.shares[0]:.1%}"
    assert abs(sum(result.shares) - 1.0) < 1e-9


def test_simulate_is_deterministic_per_seed():
    a = simulate("classic", ["easy", "normal", "easy"], 30, seed=4)
    b = simulate("classic", ["easy", "normal", "easy"], 30, seed=4)
    assert (a.wins, a.moves) == (b.wins, b.moves)


# -- the normal bot's decisions ------------------------------------------------------------


def test_normal_calls_uno_when_playing_its_second_to_last_card():
    g = make(3, [["R3", "G7"], ["Y1", "Y2", "Y3"], ["Y4", "Y6", "Y7"]], ["R5"])
    bot = make_bot("normal", seed=1)
    a = bot.choose(g.observation(0))
    assert a == Action("uno")
    g.apply(0, a)
    a = bot.choose(g.observation(0))
    assert a == Action("play", cid(g, 0, "R3"))
    g.apply(0, a)
    assert len(g.hand(0)) == 1
    assert g.to_act() == [1]  # called in time: nobody can catch
    assert g.observation(1)["players"][0]["uno"] is True


def test_normal_calls_uno_after_drawing_a_playable_card():
    g = make(3, [["G7"], ["Y1", "Y2", "Y3"], ["Y4", "Y6", "Y7"]], ["R5"], ["R9"])
    g.apply(0, Action("draw"))
    bot = make_bot("normal", seed=1)
    assert bot.choose(g.observation(0)) == Action("uno")


def test_normal_calls_uno_late_when_exposed():
    g = make(3, [["R3", "G7"], ["Y1", "Y2", "Y3"], ["Y4", "Y6", "Y7"]], ["R5"])
    g.apply(0, Action("play", cid(g, 0, "R3")))  # forgot to call
    assert make_bot("normal", seed=1).choose(g.observation(0)) == Action("uno")


@pytest.mark.parametrize("catcher", [1, 2])
def test_normal_catches_an_exposed_player(catcher):
    g = make(3, [["R3", "G7"], ["R1", "Y2", "Y3"], ["Y4", "Y6", "Y7"]], ["R5"], ["B1", "B2"])
    g.apply(0, Action("play", cid(g, 0, "R3")))  # down to one card, no UNO
    bot = make_bot("normal", seed=3)
    a = bot.choose(g.observation(catcher))
    assert a == Action("catch", target=0)
    g.apply(catcher, a)
    assert len(g.hand(0)) == 3


def test_normal_does_not_try_to_catch_a_player_who_called():
    g = make(3, [["R3", "G7"], ["R1", "Y2", "Y3"], ["Y4", "Y6", "Y7"]], ["R5"])
    g.apply(0, Action("uno"))
    g.apply(0, Action("play", cid(g, 0, "R3")))
    assert make_bot("normal", seed=3).choose(g.observation(2)) is None
    a = make_bot("normal", seed=3).choose(g.observation(1))
    assert a is not None and a.kind != "catch"


RED_FREE_PAD = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "B3"]


def test_normal_challenges_a_likely_bluff():
    # Player 0 holds many cards including red (red in play): a bluff, and a likely one.
    big = ["W+4", "R1", "R2", "B1", "B2", "B4", "G3", "G4", "G5", "Y5", "Y6", "Y7", "Y8"]
    g = make(3, [big, RED_FREE_PAD, ["G6", "G7"]], ["R5"], ["B5", "B6", "B7", "B8"])
    g.apply(0, Action("play", cid(g, 0, "W+4"), "green"))
    bot = make_bot("normal", seed=2)
    a = bot.choose(g.observation(1))
    assert a == Action("challenge")
    g.apply(1, a)
    assert len(g.hand(0)) == 12 + 4  # the bluff was caught
    assert g.current == 1


def test_normal_accepts_an_unlikely_bluff():
    # Player 0 goes down to one card (calling UNO): one unseen card can hardly be red.
    g = make(3, [["W+4", "B9"], RED_FREE_PAD, ["G6", "G7"]], ["R5"],
             ["B5", "B6", "B7", "B8", "G8", "G9"])
    g.apply(0, Action("uno"))
    g.apply(0, Action("play", cid(g, 0, "W+4"), "green"))
    a = make_bot("normal", seed=2).choose(g.observation(1))
    assert a == Action("draw")
    g.apply(1, a)
    assert len(g.hand(1)) == 7 + 4
    assert g.current == 2


def test_normal_challenge_depends_on_the_colour_it_can_see():
    """Same opponent hand size; the bot challenges when red cards are mostly unseen and
    accepts when it sees most red cards itself (in its hand and on the discard pile)."""
    opp = ["W+4", "B1", "B2", "G3", "G4", "Y5"]  # 5 cards left after the W+4, no red: legal
    # Red mostly unseen: challenge.
    g = make(3, [opp, RED_FREE_PAD, ["G6", "G7"]], ["R5"])
    g.apply(0, Action("play", cid(g, 0, "W+4"), "blue"))
    assert make_bot("normal", seed=2).choose(g.observation(1)) == Action("challenge")
    # The bot holds ten red cards and nine more lie in the discard pile: accept.
    reds_hand = ["R1", "R1", "R2", "R2", "R3", "R3", "R4", "R4", "R6", "R6"]
    reds_discard = ["R7", "R7", "R8", "R8", "R9", "R9", "RS", "RS", "R5"]
    g = make(3, [opp, reds_hand, ["G6", "G7"]], reds_discard)
    g.apply(0, Action("play", cid(g, 0, "W+4"), "blue"))
    assert make_bot("normal", seed=2).choose(g.observation(1)) == Action("draw")
