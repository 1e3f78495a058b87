"""The hard bot's playouts in Diez and the extended rules: its simulated players play by the
variant's ``normal`` bots' habits.

Each position is built with ``core.new_game(..., setup=...)``, copied to the fast path
(:mod:`core.rollout`), and the playout policy is asked for its move there; the noise that
makes one choice in ten at random is turned off, so each test sees the habit alone.
"""

from __future__ import annotations

import random

import pytest

import core
from core import Action, rollout
from core.bots.hard.bot import policy_for
from core.variants.diez import hard as diez_hard
from core.variants.diez.hard import fast_diez_policy
from core.variants.extended import hard as extended_hard
from core.variants.extended.hard import fast_extended_policy


@pytest.fixture(autouse=True)
def _no_noise(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(diez_hard, "NOISE", 0.0)
    monkeypatch.setattr(extended_hard, "NOISE", 0.0)


def make(hands: list[list[str]], discard: str = "R5", current: int = 0) -> core.Game:
    setup = {"hands": hands, "draw": ["G7", "B8", "Y9", "R1"], "current": current, "direction": 1,
             "discard": [discard]}
    return core.new_game("diez", len(hands), seed=0, setup=setup, options={"uno_calls": False})


def card_id(g: core.Game, p: int, text: str) -> int:
    face = core.parse_card(text)
    return next(c.id for c in g.hand(p) if c.face == face)


def chosen(g: core.Game) -> Action:
    """The move the variant's playout policy makes in ``g``'s position, as the engine's action."""
    r = rollout.from_game(g, seed=1)
    ms = r.moves()
    return r.action(policy_for(g.variant)(r, ms, random.Random(3)))


def test_diez_and_the_extended_rules_play_out_with_their_own_habits() -> None:
    assert policy_for("diez") is fast_diez_policy
    assert policy_for("extended") is fast_extended_policy


# -- Diez --------------------------------------------------------------------------------------


def test_it_sheds_the_card_worth_most_in_the_colour_it_holds_most() -> None:
    g = make([["R9", "R2", "R3", "G5", "W", "B1"], ["B1", "B2"], ["Y3", "Y4"]])
    a = chosen(g)
    assert a.kind == "play" and a.card == card_id(g, 0, "R9")


def test_it_keeps_a_black_card_for_the_end_and_draws_instead() -> None:
    g = make([["W", "G1", "G2", "B3", "B4"], ["B1", "B2"], ["Y3", "Y4"]])
    assert chosen(g).kind == "draw"
    small = make([["W", "G1", "B3"], ["B1", "B2"], ["Y3", "Y4"]])  # a small hand plays it
    a = chosen(small)
    assert a.kind == "play" and a.card == card_id(small, 0, "W")


def test_it_never_goes_out_on_a_black_card() -> None:
    g = make([["W"], ["B1", "B2"], ["Y3", "Y4"]])
    assert [a.kind for a in g.legal_actions(0)].count("play") == 1  # the rules allow it (it draws 2)
    assert chosen(g).kind == "draw"


def test_it_names_the_colour_it_holds_most() -> None:
    g = make([["W", "G1", "B3", "B4", "Y2", "B9"], ["B1", "B2"], ["Y3", "Y4"]], discard="R5")
    g.apply(0, Action("play", card_id(g, 0, "W")))
    a = chosen(g)
    assert a.kind == "color" and a.color == "blue"


def test_a_player_who_may_jump_in_does() -> None:
    g = make([["Y6", "G1", "G2"], ["B1", "B2"], ["Y6", "R6", "G6", "B2"], ["G2", "G3"]], discard="Y5")
    g.apply(0, Action("play", card_id(g, 0, "Y6")))
    a = chosen(g)
    assert a.kind == "play" and a.card == card_id(g, 2, "Y6")


# -- the extended rules ------------------------------------------------------------------------
def ext(hands: list[list[str]], discard: str = "R5") -> core.Game:
    setup = {"hands": hands, "discard": [discard], "draw": ["G7", "B8", "Y9", "R1"], "current": 0}
    return core.new_game("extended", len(hands), seed=1, setup=setup)


def ext_id(g: core.Game, p: int, text: str) -> int:
    return next(c.id for c in g.hand(p) if str(c) == text)


def test_extended_sheds_the_highest_number_and_keeps_its_counters() -> None:
    g = ext([["R9", "R2", "RWIDOW", "G1", "B4"], ["B1", "B2"], ["Y3", "Y4"]])
    a = chosen(g)
    assert a.kind == "play" and a.card == ext_id(g, 0, "R9")
    only = ext([["RWIDOW", "G1", "B4"], ["B1", "B2"], ["Y3", "Y4"]])  # a counter alone: draw instead
    assert chosen(only).kind == "draw"


def test_extended_names_the_colour_it_holds_most_with_a_wild() -> None:
    g = ext([["W", "G1", "B4", "B6", "B7"], ["B1", "B2"], ["Y3", "Y4"]])
    a = chosen(g)
    assert a.kind == "play" and a.card == ext_id(g, 0, "W") and a.color == "blue"


def test_extended_passes_a_draw_on_when_it_can() -> None:
    g = ext([["R+2", "R1", "G3"], ["G+2", "B5", "G1"], ["Y1", "Y2"]])
    g.apply(0, Action("play", ext_id(g, 0, "R+2")))
    g.apply(0, Action("pass")) if Action("pass") in g.legal_actions(0) else None
    a = chosen(g)
    assert a.kind == "play" and a.card == ext_id(g, 1, "G+2"), a


@pytest.mark.parametrize("variant", ["diez", "extended"])
def test_whole_playouts_end_and_every_move_is_legal(variant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # With the noise (without it, two Diez players who both hoard black cards may draw for a long
    # while: the search's playouts in these variants stop after 60 moves anyway).
    monkeypatch.setattr(diez_hard, "NOISE", 0.1)
    monkeypatch.setattr(extended_hard, "NOISE", 0.1)
    policy = policy_for(variant)
    rng = random.Random(5)
    for seed in range(40):
        g = core.new_game(variant, 2 + seed % 5, seed=seed)
        r = rollout.from_game(g, seed=seed)
        for _ in range(20000):
            if r.over:
                break
            ms = r.moves()
            i = policy(r, ms, rng)
            assert 0 <= i < len(ms)
            r.step(i)
        assert r.over
