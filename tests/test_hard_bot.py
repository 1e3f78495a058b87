"""The ``random`` and ``hard`` levels: legal whole games in every variant, the hard bot's
information boundary, its belief about hidden hands, its determinizations and its budget.

Searches here run on a fixed iteration count with fixed seeds, so every test is
deterministic and quick; the strength figures live in ``benchmarks/bots.py``
(a small statistical check is marked ``soak``).
"""

from __future__ import annotations

import asyncio
import random

import pytest

import core
import core.rollout as rollout
from core import Action, Event
from core.bots import make_bot, simulate
from core.bots.belief import Belief, Memory, faces
from core.bots.hard import HardBot, SearchRoot, iterations, search
from core.bots.hard.adapter import GameRollout
from core.bots.hard.bot import replayed
from core.bots.hard.determinize import Dealer, check, layout_for
from core.bots.hard.policy import fast_shedding_policy, shedding_policy
from core.bots.hard.search import MoveStats, move_key
from core.bots.normal import NormalBot
from core.bots.simulate import play_round, tell

from support import cid, make

PLAYERS = {"classic": 4, "nomercy": 4, "wildrawz": 4, "diez": 4, "extended": 4}


def hard(seed: int | str = 0, n: int = 6):
    return make_bot("hard", seed=seed, think=iterations(n))


# -- the random level -------------------------------------------------------------------------


def test_random_plays_a_card_whenever_it_can():
    g = make("classic", 3, [["R3", "G7", "W", "B1"], ["Y1", "Y2"], ["Y3", "Y4"]], ["R5"])
    bot = make_bot("random", seed=1)
    seen = {bot.choose(g.observation(0)) for _ in range(60)}
    assert Action("draw") not in seen
    assert {a.kind for a in seen} == {"play"}
    assert {g.card(a.card).face for a in seen} == {("red", "3"), (None, "W")}


def test_random_draws_only_when_it_must_and_plays_what_it_drew():
    g = make("classic", 3, [["G7", "B1"], ["Y1", "Y2"], ["Y3", "Y4"]], ["R5"], ["R9"])
    bot = make_bot("random", seed=1)
    assert bot.choose(g.observation(0)) == Action("draw")
    g.apply(0, Action("draw"))
    assert bot.choose(g.observation(0)) == Action("play", cid(g, 0, "R9"))


def test_random_calls_uno_and_lets_other_chances_go():
    g = make("classic", 3, [["R3", "G7"], ["Y1", "Y2"], ["Y3", "Y4"]], ["R5"])
    bot = make_bot("random", seed=1)
    assert bot.choose(g.observation(0)) == Action("uno")
    g.apply(0, Action("play", cid(g, 0, "R3")))  # forgot to call: others may catch
    assert Action("catch", target=0) in g.legal_actions(2)
    assert bot.choose(g.observation(2)) is None


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_random_plays_whole_games(variant):
    n = PLAYERS[variant]
    bots = [make_bot("random", seed=q) for q in range(n)]
    for s in range(2):
        g = core.new_game(variant, n, seed=f"random-{s}")
        play_round(g, bots)
        assert g.over


# -- whole games --------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_hard_plays_whole_games_legally(variant):
    """Every variant: a round with ``hard`` at two seats against ``normal`` and ``easy``
    (``play_round`` applies each choice, so an illegal one raises), with searches run."""
    n = PLAYERS[variant]
    levels = ["hard", "normal", "hard", "easy"][:n]
    bots = [hard(q, 3) if lv == "hard" else make_bot(lv, seed=q) for q, lv in enumerate(levels)]
    g = core.new_game(variant, n, seed=f"whole-{variant}")
    play_round(g, bots)
    assert g.over
    hards = [b.strategy(variant) for b, lv in zip(bots, levels) if lv == "hard"]
    assert sum(h.searches for h in hards) > 5
    # Positions it cannot lay out are left to normal; they stay the exception.
    assert sum(h.fallbacks for h in hards) <= sum(h.searches for h in hards)


def test_hard_plays_heads_up_and_at_a_big_table():
    for n in (2, 6):
        bots = [hard(q, 2) if q % 2 == 0 else make_bot("normal", seed=q) for q in range(n)]
        g = core.new_game("classic", n, seed=f"table-{n}")
        play_round(g, bots)
        assert g.over


def test_hard_with_house_rules():
    options = {"stacking": "progressive", "seven_o": True, "jump_in": True, "draw_until_playable": True}
    bots = [hard(0, 3), make_bot("normal", seed=1), hard(2, 3)]
    g = core.new_game("classic", 3, seed="house", options=options)
    play_round(g, bots)
    assert g.over


def test_hard_returns_none_when_it_has_nothing_to_do():
    g = make("classic", 3, [["R3", "G7", "B1"], ["Y1", "Y2"], ["Y3", "Y4"]], ["R5"])
    assert hard().choose(g.observation(1)) is None


def test_hard_is_deterministic_per_seed():
    a = simulate("classic", ["hard", "normal", "normal"], 2, seed=3, think=iterations(5))
    b = simulate("classic", ["hard", "normal", "normal"], 2, seed=3, think=iterations(5))
    assert (a.wins, a.moves) == (b.wins, b.moves)


# -- the information boundary ---------------------------------------------------------------------


def _twins():
    """Two positions the same to seat 0 (hand, pile, counts, whose turn) with other hidden cards."""
    mine = ["R3", "G7", "W", "B1", "Y5", "G+2"]
    a = make("classic", 3, [mine, ["Y1", "Y2", "B9", "G3", "R8"], ["Y3", "Y4", "BS", "R1", "W+4"]], ["R5"],
             ["B2", "B3", "G1"], current=1, seed=1)
    b = make("classic", 3, [mine, ["G4", "RS", "B6", "Y9", "W"], ["R9", "G9", "B4", "B7", "Y7"]], ["R5"],
             ["Y6", "G2", "R2"], current=1, seed=2)
    return a, b


def _play_until_seat0(g, feed):
    """Seats 1 and 2 draw (the same public moves in both games); events go to ``feed``."""
    for p in (1, 2):
        feed(p, g.apply(p, Action("draw")))
        if g.current == p:
            feed(p, g.apply(p, Action("pass")))


def test_hard_decides_the_same_on_positions_that_look_the_same():
    """Hidden hands and draw piles differ; everything seat 0 sees is equal, events included:
    the same seed must give the same decision. A bot that read another hand would differ."""
    a, b = _twins()
    seen_a: list[Event] = []
    seen_b: list[Event] = []
    bot_a, bot_b = HardBot(seed=9, think=iterations(60)), HardBot(seed=9, think=iterations(60))
    _play_until_seat0(a, lambda p, ev: (seen_a.extend(ev), bot_a.observe(0, ev)))
    _play_until_seat0(b, lambda p, ev: (seen_b.extend(ev), bot_b.observe(0, ev)))
    assert [e.view(0) for e in seen_a] == [e.view(0) for e in seen_b]
    assert [e.view(1) for e in seen_a] != [e.view(1) for e in seen_b]  # they do differ
    obs_a, obs_b = a.observation(0), b.observation(0)
    assert obs_a == obs_b
    assert bot_a.choose(obs_a) == bot_b.choose(obs_b)
    assert bot_a.searches == bot_b.searches == 1


def test_hard_ignores_cards_a_careless_caller_shows_it():
    """``observe`` given raw events (the other players' drawn cards in them) still sees only
    what its seat was shown: the decision matches the one made from redacted events."""
    a, _ = _twins()
    raw: list[Event] = []
    _play_until_seat0(a, lambda p, ev: raw.extend(ev))
    assert any(e.visible_to is not None and 0 not in e.visible_to and e.cards for e in raw)
    shown, careless = HardBot(seed=4, think=iterations(40)), HardBot(seed=4, think=iterations(40))
    shown.observe(0, [e.view(0) for e in raw])
    careless.observe(0, raw)
    obs = a.observation(0)
    assert careless.choose(obs) == shown.choose(obs)


def test_hard_is_never_given_the_game():
    """The search's input is the observation, the belief and a seed: nothing holds a Game."""
    g = core.new_game("classic", 3, seed=5)
    bot = HardBot(seed=1, think=iterations(3))
    roots = []
    bot.searcher = lambda root, more: (roots.append(root), search(root, more))[1]
    bot.choose(g.observation(g.current))
    assert roots and set(vars(roots[0])) == {"obs", "belief", "seed", "algorithm", "keep", "only", "start", "replay",
                                             "start_seed"}
    assert roots[0].obs == g.observation(g.current)
    assert roots[0].start is None and roots[0].replay == ()  # a resting position: dealt as it is
    assert not any(isinstance(v, core.Game) for v in vars(roots[0].belief).values())


# -- the belief ------------------------------------------------------------------------------------


def _sample_hands(g, seat, memory, k=40, **rules):
    """``k`` determinizations of ``g`` as ``seat`` knows it: the hands dealt to the others."""
    obs = g.observation(seat)
    belief = memory.belief(obs, **rules)
    lay = layout_for(obs["variant"])
    belief.sync(obs, lay.visible(obs, belief))
    dealer = Dealer(obs, belief)
    rng = random.Random(7)
    out = []
    for _ in range(k):
        d = dealer.deal(rng)
        assert not check(d, obs)
        out.append([sorted(str(c) for c in d.hand(q)) for q in range(g.num_players)])
    return out


def _feed(memory, seat, events):
    memory.observe(seat, events)
    return events


def _memory(g, seat, **rules):
    """A memory that has seen the position once (as the bot does at its first decision)."""
    m = Memory()
    m.observe(seat, [])
    obs = g.observation(seat)
    belief = m.belief(obs, **rules)
    belief.sync(obs, layout_for(obs["variant"]).visible(obs, belief))
    return m


def test_a_draw_on_your_turn_says_what_you_lacked():
    g = make("classic", 3, [["R3", "G7", "B8"], ["Y1", "B2", "G4"], ["Y3", "Y4", "B5"]], ["R5"],
             ["G9", "G8"], current=1)
    m = _memory(g, 0, voids_on_draw=True)
    _feed(m, 0, g.apply(1, Action("draw")))  # G9: not playable, the turn passes
    assert g.current == 2
    samples = _sample_hands(g, 0, m, voids_on_draw=True)
    for hands in samples:
        assert len(hands[1]) == 4
        # Three of its four cards were held when it drew on a red 5: none red, none a 5.
        clean = [c for c in hands[1] if not c.startswith("R") and not c.endswith("5") or c.startswith("W")]
        assert len(clean) >= 3
    # Without the rule, red cards turn up in its sampled hands.
    loose = _sample_hands(g, 0, Memory(), voids_on_draw=False)
    assert any(sum(c.startswith("R") for c in h[1]) >= 2 for h in loose)



def _misses(card: str, color: str, rank: str) -> bool:
    """Whether a card (``"G9"``, ``"W+4"``) is of neither ``color`` (its initial) nor ``rank``, or is a
    wild (a draw's cohort leaves wilds open)."""
    return card.startswith("W") or not (card.startswith(color) or card[1:] == rank)


def test_a_card_drawn_and_not_played_did_not_fit_either():
    g = make("classic", 3, [["R3", "G7", "B8"], ["Y1", "B2", "G4"], ["Y3", "Y4", "B5"]], ["R5"],
             ["G9", "G8"], current=1)
    m = _memory(g, 0, voids_on_draw=True)
    _feed(m, 0, g.apply(1, Action("draw")))  # G9 does not fit: the turn passes with it
    # A card that fits would have been offered at once, so all four of its cards miss red and 5
    # (seat 0 reads that from seat 2 being to act, and again from seat 2's draw).
    for hands in _sample_hands(g, 0, m, voids_on_draw=True):
        assert all(_misses(c, "R", "5") for c in hands[1])
    _feed(m, 0, g.apply(2, Action("draw")))  # G8 does not fit either
    for hands in _sample_hands(g, 0, m, voids_on_draw=True):
        assert all(_misses(c, "R", "5") for c in hands[1])


def test_drawing_until_a_card_fits_says_the_others_did_not():
    g = make("nomercy", 3, [["R3", "G7", "B8"], ["Y1", "B2", "G4"], ["Y3", "Y4", "B5"]], ["R5"],
             ["G9", "B9", "R6", "G8"], current=1)
    m = _memory(g, 0, voids_on_draw=True)
    _feed(m, 0, g.apply(1, Action("draw")))  # G9 and B9 do not fit, R6 does
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "R6"))))
    for hands in _sample_hands(g, 0, m, voids_on_draw=True):
        assert len(hands[1]) == 5
        assert all(_misses(c, "R", "5") for c in hands[1])


def test_a_card_drawn_that_fitted_and_was_kept_says_nothing():
    g = make("classic", 3, [["R3", "G7", "B8"], ["Y1", "B2", "G4"], ["Y3", "Y4", "B5"]], ["R5"],
             ["R9", "G8"], current=1)
    m = _memory(g, 0, voids_on_draw=True)
    _feed(m, 0, g.apply(1, Action("draw")))  # R9 fits
    _feed(m, 0, g.apply(1, Action("pass")))  # and is kept
    samples = _sample_hands(g, 0, m, voids_on_draw=True)
    for hands in samples:  # the three cards held at the draw still miss red and 5
        assert sum(_misses(c, "R", "5") for c in hands[1]) >= 3
    assert any(any(c.startswith("R") for c in hands[1]) for hands in samples)


def test_a_turn_taken_by_a_jump_in_says_nothing_of_the_card_drawn():
    g = make("classic", 3, [["R3", "G7", "B8"], ["Y1", "B2", "G4"], ["R5", "Y4", "B5"]], ["R5"],
             ["R9", "G8"], current=1, options={"jump_in": True})
    m = _memory(g, 0, voids_on_draw=True)
    _feed(m, 0, g.apply(1, Action("draw")))  # R9 fits: seat 1 may play it...
    _feed(m, 0, g.apply(2, Action("play", cid(g, 2, "R5"))))  # ...but seat 2 jumps in first
    samples = _sample_hands(g, 0, m, voids_on_draw=True)
    assert any(any(c.startswith("R") for c in hands[1]) for hands in samples)


def test_following_suit_or_not_in_wild_rawz():
    g = core.new_game("wildrawz", 3, seed=1, setup={
        "trump": "B4", "leader": 0,
        "hands": [["R1", "R2", "G5"], ["Y1", "Y2", "G6"], ["R3", "R4", "G8"]]})
    m = _memory(g, 0, follow_suit=True)
    _feed(m, 0, g.apply(0, Action("play", cid(g, 0, "R1"))))
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "Y1"))))  # no red: it cannot follow
    _feed(m, 0, g.apply(2, Action("play", cid(g, 2, "R3"))))
    samples = _sample_hands(g, 0, m, follow_suit=True)
    assert all(not any(c.startswith("R") for c in h[1]) for h in samples)
    assert any(any(c.startswith("R") for c in h[2]) for h in samples)


def test_a_hand_given_away_in_a_swap_is_known():
    g = make("classic", 3, [["R7", "G7", "B8", "Y2"], ["Y1", "B2", "G4"], ["Y3", "Y4", "B5"]], ["R5"],
             options={"seven_o": True})
    m = _memory(g, 0)
    _feed(m, 0, g.apply(0, Action("play", cid(g, 0, "R7"), None, 2)))
    for hands in _sample_hands(g, 0, m):
        assert hands[2] == ["B8", "G7", "Y2"]


def test_a_hand_shown_after_a_challenge_is_known():
    pad = ["Y1", "Y2", "Y3", "Y4", "G1", "G2", "B3"]
    g = make("classic", 3, [["W+4", "B1", "G6", "Y9"], pad, ["G8", "G9"]], ["R5"], ["B5", "B6", "B7", "B8"])
    m = _memory(g, 1)
    _feed(m, 1, g.apply(0, Action("play", cid(g, 0, "W+4"), "green")))
    _feed(m, 1, g.apply(1, Action("challenge")))  # innocent: seat 1 sees the hand, then draws 6
    for hands in _sample_hands(g, 1, m):
        assert hands[0] == ["B1", "G6", "Y9"]


def test_cards_set_aside_at_the_deal_are_known_to_lie_under_the_start():
    g = next(g for g in (core.new_game("diez", 3, seed=s) for s in range(200))
             if any(e.kind == "return" for e in g.deal_events))
    aside = {c.id for c in g.piles[0][:-1]}
    m = Memory()
    m.observe(0, g.deal_events)
    obs = g.observation(0)
    belief = m.belief(obs)
    belief.sync(obs, layout_for("diez").visible(obs, belief))
    dealer = Dealer(obs, belief)
    rng = random.Random(7)
    for _ in range(20):
        d = dealer.deal(rng)
        assert {c.id for c in d.piles[0][:-1]} == aside  # under the starting card, not in a hand


def test_every_play_since_a_draw_is_read_against_the_sampled_hand():
    from core.bots.belief import Habit

    obs = core.new_game("classic", 2, seed=1).observation(0)
    fc = faces(obs)
    ids: dict[str, list[int]] = {}
    for i, (col, rank) in enumerate(fc):
        ids.setdefault(f"{col[0].upper() if col else 'W'}{rank}", []).append(i)
    b = Belief(0, fc, 2, habits=True)
    # Seat 1 played R9 on a red 5, then (no draw between) G8 on a green 4; it holds 3 cards now.
    b.habits[1] = [Habit(("red", "9"), None, "red", "5", False, False, 5),
                   Habit(("green", "8"), None, "green", "4", False, False, 4)]
    blues = {1: [ids["B1"][0], ids["B2"][0], ids["B3"][0]]}
    yellows = {1: [ids["Y5"][0], ids["Y6"][0], ids["Y7"][0]]}
    assert b.plausible(blues)
    # Only its G8 could go on the green 4 either way, but with three yellows it would have played
    # the Y5 on the red 5 rather than the R9 (it stays in the colour it holds most).
    assert not b.plausible(yellows)
    b.habits[1] = b.habits[1][1:]  # the last play alone says nothing against the yellows
    assert b.plausible(yellows)


def test_a_players_chain_of_plays_grows_until_it_draws():
    g = make("classic", 3, [["R3", "G7", "B8", "Y2"], ["R1", "R2", "G4", "Y5"], ["Y3", "Y4", "B5", "G9"]],
             ["R5"], ["G1", "G2", "G3"], current=1)
    m = _memory(g, 0, habits=True)
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "R1"))))
    _feed(m, 0, g.apply(2, Action("draw")))  # G1: it fits, and it keeps it
    _feed(m, 0, g.apply(2, Action("pass")))
    _feed(m, 0, g.apply(0, Action("play", cid(g, 0, "R3"))))
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "R2"))))
    obs = g.observation(0)
    b = m.belief(obs, habits=True)
    assert [h.face for h in b.habits[1]] == [("red", "1"), ("red", "2")]
    assert 2 not in b.habits  # it drew: what it held before is not its hand now
    _feed(m, 0, g.apply(2, Action("draw")))  # G2 fits the red 2: kept
    _feed(m, 0, g.apply(2, Action("pass")))
    _feed(m, 0, g.apply(0, Action("draw")))  # G3 does not fit: the turn passes
    _feed(m, 0, g.apply(1, Action("draw")))
    b = m.belief(g.observation(0), habits=True)
    assert 1 not in b.habits


def test_the_first_play_after_a_turn_that_ended_in_a_draw_is_read():
    """A card drawn and played at once was no choice, so that play is not read as a habit; but a
    drawer whose turn ended with the card (it did not fit) chooses from its hand on its next turn."""
    g = make("classic", 3, [["R3", "G7", "B8", "Y2"], ["Y1", "Y9", "G4", "R7"], ["Y3", "Y4", "B7", "G9"]],
             ["R5"], ["G1", "B1", "G2"], current=2)
    m = _memory(g, 0, habits=True, voids_on_draw=True)
    _feed(m, 0, g.apply(2, Action("draw")))  # G1 does not fit the red 5: the turn passes
    _feed(m, 0, g.apply(0, Action("play", cid(g, 0, "R3"))))
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "R7"))))
    _feed(m, 0, g.apply(2, Action("play", cid(g, 2, "B7"))))  # a choice from its hand
    _feed(m, 0, g.apply(0, Action("play", cid(g, 0, "B8"))))
    _feed(m, 0, g.apply(1, Action("draw")))  # B1 fits the blue 8...
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "B1"))))  # ...and is played at once: no choice
    b = m.belief(g.observation(0), habits=True, voids_on_draw=True)
    assert [(h.face, h.read) for h in b.habits[2]] == [(("blue", "7"), True)]
    assert [(h.face, h.read) for h in b.habits[1]] == [(("blue", "1"), False)]


def test_the_belief_forgets_what_it_cannot_reconcile():
    b = Belief(0, faces(core.new_game("classic", 3, seed=1).observation(0)), 3, voids_on_draw=True)
    b.counts[1] = 5
    b.hands[1].known = {1, 2, 3}
    obs = core.new_game("classic", 3, seed=1).observation(0)
    b.sync(obs, {c["id"] for c in obs["hand"]})
    assert b.hands[1].known == set() and b.counts[1] == 7  # a missed event: forget, do not trust
    b.read([Event("mystery", player=2)])  # an event kind it does not know
    assert b.counts[2] is None


# -- determinization -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_determinizations_reproduce_the_observation(variant):
    """Along a self-play round, every position the layout supports is rebuilt so that the seat's
    own observation of the rebuilt game equals the real one; every card is in one place."""
    n = PLAYERS[variant]
    bots = [make_bot("normal", seed=q) for q in range(n)]
    memories = [Memory() for _ in range(n)]
    g = core.new_game(variant, n, seed=f"det-{variant}")
    for q in range(n):
        memories[q].observe(q, g.deal_events)
    rng = random.Random(3)
    built = skipped = 0
    steps = 0
    while not g.over and steps < 400:
        steps += 1
        p = g.to_act()[0]
        obs = g.observation(p)
        lay = layout_for(variant)
        if lay.supports(obs):
            belief = memories[p].belief(obs)
            belief.sync(obs, lay.visible(obs, belief))
            d = Dealer(obs, belief).deal(rng)
            assert check(d, obs) == []
            ids = sorted(c.id for c in d.all_cards()) if hasattr(d, "all_cards") else None
            if ids is not None:
                assert ids == list(range(len(d.cards)))
            built += 1
        else:
            skipped += 1
        a = bots[p].choose(obs) or g.legal_actions(p)[0]
        events = g.apply(p, a)
        for q in range(n):
            memories[q].observe(q, events)
    assert built > 3 * skipped


def test_the_rollout_adapter_follows_the_engine():
    g = core.new_game("classic", 3, seed=11)
    r = GameRollout.from_game(g, seed=1)
    assert r.moves() == list(range(len(g.legal_actions(g.current))))
    assert [r.action(m) for m in r.moves()] == g.legal_actions(g.current)
    twin = r.copy()
    rng = random.Random(2)
    while not r.over:
        m = rng.choice(r.moves())
        r.step(m)
    assert r.winner is not None and r.points()[r.winner] > 0
    assert not twin.over and g.version == 0  # copies are independent


# -- the budget -------------------------------------------------------------------------------------


def test_an_iteration_budget_is_exact():
    g = core.new_game("classic", 4, seed=2)
    obs = g.observation(g.current)
    belief = Memory().belief(obs, voids_on_draw=True)
    stats = search(SearchRoot(obs, belief, 5), iterations(37)())
    assert sum(m.visits for m in stats.values()) == 37
    calls = []
    bot = HardBot(seed=1, think=lambda: (lambda done: calls.append(done) or done < 3))
    bot.choose(obs)
    assert calls[0] == 0 and calls[-1] == max(calls) == 3  # asked before each playout, stopped at 3


def test_make_bot_settings():
    with pytest.raises(ValueError, match="ponder"):
        make_bot("hard", ponder=3)
    with pytest.raises(ValueError):
        iterations(0)
    g = core.new_game("classic", 2, seed=1)
    assert make_bot("normal", think=iterations(3)).choose(g.observation(g.current))


# -- strength (statistical: soak only) ---------------------------------------------------------------


@pytest.mark.soak
def test_hard_beats_normal_heads_up():
    r = simulate("classic", ["hard", "normal"], 200, seed=1, think=iterations(200))
    r2 = simulate("classic", ["normal", "hard"], 200, seed=2, think=iterations(200))
    share = (r.wins[0] + r2.wins[1]) / 400
    assert share > 0.55, share


# -- at the table ------------------------------------------------------------------------------------


async def test_hard_bots_play_over_the_network():
    """A host's hard bot and a hard bot client play a round; both were told the events they saw."""
    from net import BotClient
    from net.testing import conserved, start_host

    host = await start_host(seats=3, bots=1, rounds=1, seed=4, bot_level="hard", bot_think=0.01)
    try:
        clients = [BotClient(("127.0.0.1", host.port), "H", level="hard", seed=1, think=0.01),
                   BotClient(("127.0.0.1", host.port), "N", seed=2)]
        rcs = await asyncio.wait_for(asyncio.gather(*(c.run() for c in clients)), 60)
        assert rcs == [0, 0]
        assert host.rounds_played == 1 and conserved(host.game)
        mine = clients[0].bot.strategy("classic")
        theirs = host.table.autoplay.bot(2).strategy("classic")
        assert mine.searches + mine.fallbacks > 0 and theirs.searches + theirs.fallbacks > 0
        assert mine._memory._events and theirs._memory._events
    finally:
        await host.close()


def test_a_local_table_tells_its_bots_what_they_saw():
    from uno_tui.session import LocalSession, TableConfig

    s = LocalSession(TableConfig(players=3, bots="hard", seed=3, think=0.01))
    for _ in range(6):
        if s.game.current == s.me:
            obs = s.observation()
            s.send(Action.from_dict(obs["legal"][-1]))
        elif s.bot_step() is None:
            break
    told = [b.strategy("classic")._memory._events for b in s.bots.values()]
    assert all(e[0].kind == "deal" for e in told)
    assert all(len(e) > 6 for e in told)


def test_think_on_the_command_line():
    from uno_tui.cli import main

    for bad in ("0", "-1", "soon", "100"):
        with pytest.raises(SystemExit) as e:
            main(["simulate", "--think", bad])
        assert e.value.code == 2
    assert main(["simulate", "--bots", "hard,random", "--players", "2", "--games", "1", "--think", "0.01"]) == 0


def test_bad_levels_and_thinking_times_exit_2_with_the_known_levels(capsys):
    """Every command that seats bots refuses an unknown level before anything starts."""
    from uno_tui.cli import main

    for argv in (["play", "--bots", "hrad"], ["simulate", "--bots", "hard,hrad"], ["host", "--bot-level", "hrad"],
                 ["bot", "127.0.0.1:1", "--level", "hrad"], ["play", "--bots", "hard", "--think", "0"],
                 ["host", "--think", "x"], ["bot", "127.0.0.1:1", "--think", "-2"]):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2, argv
        err = capsys.readouterr().err
        assert "Traceback" not in err
        assert ("hrad" in err and "hard" in err and "random" in err) or "--think" in err, (argv, err)


def test_a_search_in_worker_processes_adds_up_their_results():
    """Root parallelism: two processes search the same root until the same instant; their
    playouts are added up (more deals than either would play alone in the time)."""
    import time as clock

    from net.thinking import Deadline, ProcessSearcher, seconds

    g = core.new_game("classic", 3, seed=8)
    obs = g.observation(g.current)
    belief = Memory().belief(obs, voids_on_draw=True)
    searcher = ProcessSearcher(2)
    try:
        searcher.warm_up()
        stats = searcher(SearchRoot(obs, belief, 3), Deadline(clock.monotonic() + 0.3, minimum=4))
        seeds = {d for m in stats.values() for d in m.deals}
        assert sum(m.visits for m in stats.values()) >= 8 and len(seeds) >= 4
        bot = make_bot("hard", seed=1, think=seconds(0.05), searcher=searcher)
        assert bot.choose(obs) in [Action.from_dict(a) for a in obs["legal"]]
    finally:
        searcher.close()


def _hidden_twin(g: core.Game, seat: int, rng: random.Random) -> core.Game:
    """``g`` with the cards ``seat`` cannot see (other hands, the draw pile) dealt again among the
    same places, in the same numbers."""
    d = g.to_dict()
    others = [q for q in range(g.num_players) if q != seat]
    hidden = [c for q in others for c in d["hands"][q]] + list(d["draw_pile"])
    rng.shuffle(hidden)
    for q in others:
        k = len(d["hands"][q])
        d["hands"][q], hidden = hidden[:k], hidden[k:]
    d["draw_pile"] = hidden
    return type(g).from_dict(d)


@pytest.mark.parametrize("variant", sorted(PLAYERS))
def test_hard_decides_the_same_whatever_the_hidden_cards_in_every_variant(variant):
    """Every variant: a position and its twin with the other hands and the draw pile dealt again
    look the same to the seat to move; under the same seed the search's statistics and the
    decision are the same. A search that read another hand, or the table's pile, would differ."""
    n = PLAYERS[variant]
    g = core.new_game(variant, n, seed=f"twins-{variant}")
    normals = [make_bot("normal", seed=q) for q in range(n)]
    checked = 0
    for _ in range(60):
        if g.over or checked >= 2:
            break
        p = g.decision.player
        obs = g.observation(p)
        twin = _hidden_twin(g, p, random.Random(checked))
        if twin.observation(p) == obs and len(obs["legal"]) > 1 and \
                [twin.hands[q] for q in range(n) if q != p] != [g.hands[q] for q in range(n) if q != p]:
            decisions, found = [], []
            for game in (g, twin):
                bot = HardBot(seed=5, think=iterations(24))
                stats: list[dict] = []
                bot.searcher = lambda root, more, stats=stats: stats.append(search(root, more)) or stats[-1]
                decisions.append(bot.choose(game.observation(p)))
                found.append([{k: (m.visits, m.total) for k, m in st.items()} for st in stats])
            assert decisions[0] == decisions[1]
            assert found[0] == found[1]  # the same searches, playout for playout
            checked += bool(found[0])
        for q in g.acting_order():
            a = normals[q].choose(g.observation(q))
            if a is not None:
                g.apply(q, a)
                break
    assert checked >= 1


def test_hard_searches_a_wild_naming_only_normals_colour():
    """A wild is four moves (one per colour); the search plays it only naming the colour held
    most, as normal would, so the other branches do not split the playouts."""
    g = make("classic", 3, [["W", "B1", "B2", "G3", "Y9"], ["Y1", "Y2", "Y3"], ["G6", "G7", "G8"]], ["R5"],
             ["B5", "B6", "B7", "B8", "G1", "G2"])
    bot = HardBot(seed=1, think=iterations(40))
    roots, stats = [], []

    def searcher(root, more):
        roots.append(root)
        stats.append(search(root, more))
        return stats[-1]

    bot.searcher = searcher
    bot.choose(g.observation(0))
    wild = cid(g, 0, "W")
    named = {k[3] for k in stats[0] if k[1] == "play" and k[2] == (None, "W")}
    assert named == {"blue"}
    assert roots[0].only is not None and all(k[3] in (None, "blue") for k in roots[0].only)
    assert Action("play", wild, "blue") in [Action.from_dict(a) for a in g.observation(0)["legal"]]


def test_hard_searches_a_wild_draw_four_bluff():
    """Holding the colour in play, a Wild Draw Four is a bluff; it is a root move like an honest
    one (the playouts' players challenge a likely bluff, as the ``normal`` bots do)."""
    def searched(hand):
        g = make("classic", 3, [hand, ["Y1", "Y2", "Y3"], ["G6", "G7", "G8"]], ["R5"],
                 ["B5", "B6", "B7", "B8", "G1", "G2"])
        bot = HardBot(seed=1, think=iterations(40))
        stats = []
        bot.searcher = lambda root, more: stats.append(search(root, more)) or stats[-1]
        bot.choose(g.observation(0))
        return {k[2] for k in stats[0]}

    assert (None, "W+4") in searched(["W+4", "R1", "B2", "G3", "B9"])
    assert (None, "W+4") in searched(["W+4", "Y1", "B2", "G3", "B9"])


def test_simulated_players_challenge_a_wild_draw_four_as_normal_does():
    """In the playouts a Wild Draw Four is challenged when the ``normal`` bots would challenge it
    (a bluff likely from the challenger's hand, the discards and the player's hand size): on the
    fast path and on the engine alike, at positions reached by random play (bluffs included)."""
    seen = {True: 0, False: 0}
    for seed in range(150):
        n = 2 + seed % 3
        g = core.new_game("classic", n, seed=seed)
        rng = random.Random(seed)
        for _ in range(120):
            moves = [(p, a) for p in g.acting_order() for a in g.legal_actions(p)]
            if g.winner is not None or not moves:
                break
            p = g.current
            if Action("challenge") in g.legal_actions(p):
                obs = g.observation(p)
                likely = NormalBot()._bluff_likely(obs)
                seen[likely] += 1
                for policy, r in ((fast_shedding_policy, rollout.from_game(g, seed=1)),
                                  (shedding_policy, GameRollout(g))):
                    ms = r.moves()
                    chose = r.action(policy(r, ms, random.Random(0)))
                    assert (chose.kind == "challenge") == likely, (seed, policy.__name__, obs["pending"])
            p, a = moves[rng.randrange(len(moves))]
            g.apply(p, a)
    assert seen[True] >= 20 and seen[False] >= 20, seen


def test_the_search_leaves_the_prior_only_when_it_is_beaten_clearly():
    """``best`` keeps the heuristic's move unless another beats it on the same deals by ``z``
    standard errors; classic asks for fewer than the Bonferroni z of the other variants."""
    from core.bots.hard.search import SWITCH_Z, MoveStats, best, switch_z

    rng = random.Random(3)
    prior = {d: float(rng.random() < 0.5) for d in range(400)}
    # The other move wins every deal the prior wins, and a tenth of the others: 0.05 ahead.
    other = {d: 1.0 if v or d % 10 == 0 else 0.0 for d, v in prior.items()}
    stats = {"p": MoveStats(400, sum(prior.values()), prior), "o": MoveStats(400, sum(other.values()), other),
             "x": MoveStats(400, 0.0, {d: 0.0 for d in prior})}
    assert best(stats, "p", 1.0) == "o"
    assert best(stats, "p", 20.0) == "p"  # not by twenty standard errors
    assert SWITCH_Z["classic"] < switch_z(3)
    assert best({"p": stats["p"], "o": MoveStats(400, sum(prior.values()), dict(prior))}, "p", 0.0) == "p"  # a tie
    # In Wild Rawz any lead on the same deals will do; classic wants a standard error of it.
    ahead = dict(prior)  # better on six deals, worse on five: ahead, by well under a standard error
    for d in [d for d, v in prior.items() if not v][:6]:
        ahead[d] = 1.0
    for d in [d for d, v in prior.items() if v][:5]:
        ahead[d] = 0.0
    close = {"p": stats["p"], "o": MoveStats(400, sum(ahead.values()), ahead)}
    assert best(close, "p", SWITCH_Z["wildrawz"]) == "o"
    assert best(close, "p", SWITCH_Z["classic"]) == "p"


def test_a_wild_draw_four_says_its_player_lacked_the_colour():
    g = make("classic", 3, [["R3", "G7", "B8"], ["W+4", "Y1", "B2", "G4"], ["Y3", "Y4", "B5"]], ["R5"],
             ["G9", "G8", "R1", "R2", "R7", "R8"], current=1)
    m = _memory(g, 0, honest_draw_four=True)
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "W+4"), color="yellow")))
    samples = _sample_hands(g, 0, m, honest_draw_four=True)
    for hands in samples:
        assert len(hands[1]) == 3 and not any(c.startswith("R") for c in hands[1])
    # Without the rule, red cards turn up in its sampled hands.
    loose = _sample_hands(g, 0, _memory(g, 0))
    assert any(any(c.startswith("R") for c in h[1]) for h in loose)


def test_a_bluff_caught_by_another_player_undoes_what_the_wild_draw_four_said():
    g = make("classic", 3, [["R3", "G7", "B8"], ["W+4", "R1", "B2", "G4"], ["Y3", "Y4", "B5"]], ["R5"],
             ["G9", "G8", "R2", "R7", "R8", "Y9", "Y8"], current=1)
    m = _memory(g, 0, honest_draw_four=True)
    _feed(m, 0, g.apply(1, Action("play", cid(g, 1, "W+4"), color="yellow")))
    _feed(m, 0, g.apply(2, Action("challenge")))  # guilty: it held R1; seat 0 is not shown the hand
    belief = m.belief(g.observation(0), honest_draw_four=True)
    assert not belief.hands[1].cohorts


def test_habitual_play_breaks_ties_alike_in_every_process() -> None:
    """Two plays the habits score the same: which one is read as the habit must not follow the
    process's string hash seed (a seeded search must decide alike in every worker)."""
    import os
    import subprocess
    import sys

    code = ("from core.bots.hard.policy import habitual_play;"
            "print(habitual_play([('red', '5'), ('blue', '5'), ('green', '1'), ('yellow', '5')],"
            " 'red', '5', danger=False, close=False))")
    seen = set()
    for seed in range(6):
        env = dict(os.environ, PYTHONHASHSEED=str(seed))
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
        seen.add(out.stdout.strip())
    assert len(seen) == 1, seen


# -- a turn's steps: dealt from the turn's start ---------------------------------------------------


def _diez_wild() -> tuple[core.Game, Action]:
    g = make("diez", 4, [["W", "G1"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"], ["R1", "R2", "R3"]], ["R5"],
             options={"uno_calls": False}, current=0)
    return g, Action("play", card=cid(g, 0, "W"))


def test_hard_searches_the_colour_its_own_wild_names_dealing_from_the_turns_start():
    """Diez asks for a wild's colour in a step of its own, which the observation does not lay
    out (the engine's step queue): the bot deals the position its turn started from, which it
    could, and plays its wild again on each deal, instead of leaving the colour to ``normal``."""
    g, wild = _diez_wild()
    start = g.observation(0)
    roots: list[SearchRoot] = []

    def searcher(root: SearchRoot, more):
        roots.append(root)
        if root.start is None:  # a double at the turn's start: it plays the wild
            return {move_key(wild, 0, faces(root.obs)): MoveStats(1, 1.0, {0: 1.0})}
        return search(root, more)

    bot = HardBot(seed=0, think=iterations(30), searcher=searcher)
    bots = [bot] + [make_bot("normal", seed=q) for q in (1, 2, 3)]
    tell(bots, g.deal_events)
    assert bot.choose(start) == wild
    tell(bots, g.apply(0, wild))
    obs = g.observation(0)
    assert obs["phase"] == "color"
    named = bot.choose(obs)
    assert named is not None and named.kind == "color" and named in g.legal_actions(0)
    assert (bot.searches, bot.fallbacks) == (2, 0)
    root = roots[1]
    assert root.start == start and root.replay == (wild,) and root.obs == obs
    # The deals: the turn's start, the wild played again, as the seat sees the table now; the
    # hidden hands differ from deal to deal.
    dealer, rng = Dealer(root.start, root.belief), random.Random(3)
    deals = [replayed(dealer.deal(rng), obs, root.replay, rng.getrandbits(64)) for _ in range(20)]
    faithful = [d for d in deals if d is not None]
    assert len(faithful) >= 15 and all(not check(d, obs) for d in faithful)
    assert len({tuple(str(c) for c in d.hand(1)) for d in faithful}) > 1


def test_hard_leaves_a_step_to_normal_when_it_cannot_replay_the_turn():
    """Without the turn's start (a bot seated mid-turn), or when what it chose is not what the
    table took (a race with someone's call), the step is not dealt from a position that does
    not lead here: ``normal`` decides it."""
    g, wild = _diez_wild()
    g.apply(0, wild)
    bot = HardBot(seed=0, think=iterations(30))
    assert bot.choose(g.observation(0)).kind == "color"
    assert (bot.searches, bot.fallbacks) == (0, 1)

    g = make("diez", 4, [["W", "W", "G1"], ["Y1", "Y2", "Y3"], ["B1", "B2", "B3"], ["R1", "R2", "R3"]], ["R5"],
             options={"uno_calls": False}, current=0)
    first, second = (Action("play", card=c.id) for c in g.hand(0) if c.rank == "W")

    def plays_first(root: SearchRoot, more):
        return {move_key(first, 0, faces(root.obs)): MoveStats(1, 1.0, {0: 1.0})} if root.start is None else {}

    bot = HardBot(seed=0, think=iterations(30), searcher=plays_first)
    assert bot.choose(g.observation(0)) == first
    g.apply(0, second)  # the table took its other wild
    assert bot.choose(g.observation(0)).kind == "color"
    assert (bot.searches, bot.fallbacks) == (1, 1)


def test_hard_searches_the_cards_it_rides_on_its_own_transfer_in_the_extended_rules():
    """The extended rules' transfer (T4) asks its player, in an interaction of its own, which
    cards ride face down on it: dealt from the turn's start, the transfer played again on each
    deal; the effect it makes takes the number the table gave it (``Layout.align``)."""
    g = make("extended", 4, [["RT4", "B9", "G8", "R1"], ["YT4", "R2", "Y1"], ["B1", "B2"], ["G1", "G2"]], ["R3"])
    transfer = Action("play", card=cid(g, 0, "RT4"))

    def searcher(root: SearchRoot, more):
        if root.start is None:  # a double at the turn's start: it plays the transfer
            return {move_key(transfer, 0, faces(root.obs)): MoveStats(1, 1.0, {0: 1.0})}
        return search(root, more)

    bot = HardBot(seed=0, think=iterations(20), searcher=searcher)
    assert bot.choose(g.observation(0)) == transfer
    g.apply(0, transfer)
    assert g.phase == "attach"
    rider = bot.choose(g.observation(0))
    assert rider is not None and rider in g.legal_actions(0)
    assert (bot.searches, bot.fallbacks) == (2, 0)
