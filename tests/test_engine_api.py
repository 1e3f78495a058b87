"""The engine's API for its callers: who acts in which order, the decision the game waits on,
chance asked before it is used, and restoring a saved state in place."""

from __future__ import annotations

import random

import pytest
import support

import core
from core import Action


# -- the order in which players act ------------------------------------------------------------


def test_acting_order_puts_out_of_turn_players_first_from_the_current_seat():
    g = support.make("classic", 4, [["R1", "R2"], ["G1"], ["B1"], ["Y1"]], ["R5"], current=0)
    support.play(g, 0, "R1")  # 0 holds one card and did not call: anyone may catch
    assert g.current == 1 and g.to_act() == [0, 1, 2, 3]
    assert g.acting_order() == [2, 3, 0, 1]  # catchers from the current seat on, the turn's player last
    g.apply(2, Action("catch", target=0))
    assert g.acting_order() == [1]


# -- chance asked before it is used --------------------------------------------------------------


class NoSource:
    """A deck source that must never be asked: every order comes through ``settle``."""

    def shuffle(self, items, epoch):
        raise AssertionError(f"the engine asked its deck source for epoch {epoch}")


class Unsettled(Exception):
    pass


class RaisingSource:
    """A source that has settled nothing yet (as the network's fair deal, before its round trips)."""

    def shuffle(self, items, epoch):
        raise Unsettled(epoch)


def test_a_move_that_needs_no_shuffle_has_no_chance_node():
    g = support.make("classic", 2, [["R1", "R2"], ["G1"]], ["R5"])
    before = g.to_dict()
    assert g.chance_for(0, Action("play", support.cid(g, 0, "R1"))) is None
    assert g.to_dict() == before  # asking changes nothing


def test_a_reshuffle_is_asked_for_settled_and_used_exactly():
    everything = support.notes(core.deck("classic"))
    hands = [["B1", "B2"], ["G1"]]
    discard = ["R3", "R4", "R5"]
    rest = list(everything)
    for t in hands[0] + hands[1] + discard:
        rest.remove(t)
    setup = {"hands": [hands[0] + rest, hands[1]], "discard": discard}
    first = core.chance_for_new_game("classic", 2, setup=setup)
    assert first == core.Chance(0, ())  # the setup shuffles the cards it does not name: none here
    g = core.new_game("classic", 2, setup=setup, source=NoSource(), settled=[(first, [])])
    assert g.draw_count == 0
    chance = g.chance_for(0, Action("draw"))
    assert chance is not None and chance.epoch == g.epoch
    assert support.notes(chance.items) == ["R3", "R4"]  # the discards under the top, by id
    assert g.chance_for(0, Action("draw")) == chance  # asking again: the same, nothing changed
    g.settle(chance, [chance.items[1], chance.items[0]])
    assert g.chance_for(0, Action("draw")) is None
    events = g.apply(0, Action("draw"))  # NoSource: it would fail if the engine asked it
    assert [e.kind for e in events][:2] == ["reshuffle", "draw"]
    assert support.notes(events[1].cards) == ["R3"]  # the settled order's last card is drawn first


def test_a_settled_order_must_be_a_permutation_of_the_items():
    g = core.new_game("classic", 2, seed=1)
    chance = core.Chance(g.epoch, tuple(g.cards[:3]))
    with pytest.raises(ValueError):
        g.settle(chance, g.cards[:2])
    with pytest.raises(ValueError):
        g.settle(chance, g.cards[1:4])
    with pytest.raises(ValueError):
        g.settle(core.Chance(g.epoch - 1, tuple(g.cards[:3])), g.cards[:3])


def test_without_settling_the_source_is_asked_inside_apply_as_before():
    """The old contract stays: a source that cannot answer yet raises from inside ``apply``; the
    caller restores its snapshot in place (``Game.restore``) and nothing is left half-done."""
    g = core.new_game("classic", 3, seed=4)
    rng = random.Random(0)
    while True:  # play until a move needs a reshuffle
        p = g.acting_order()[0]
        a = rng.choice(g.legal_actions(p))
        if g.chance_for(p, a) is not None:
            break
        g.apply(p, a)
        assert not g.over
    held = g
    snap = g.to_dict()
    seeded = g.source
    g.restore(snap, source=RaisingSource())
    with pytest.raises(Unsettled):
        g.apply(p, a)
    g.restore(snap, source=seeded)
    assert held is g and g.to_dict() == snap
    twin = core.Game.from_dict(snap)
    assert g.apply(p, a) == twin.apply(p, a)


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_every_shuffle_settled_before_the_move_plays_the_same_game(variant):
    """A caller that settles each chance node first (with the orders a seeded source gives) plays
    exactly the game that seeded source plays, and its own source is never asked."""
    n = core.variant_class(variant).min_players + 1
    oracle = core.SeededSource(b"oracle")
    settled = []
    while (chance := core.chance_for_new_game(variant, n, settled=settled)) is not None:
        settled.append((chance, oracle.shuffle(list(chance.items), chance.epoch)))
    g = core.new_game(variant, n, source=NoSource(), settled=settled)
    ref = core.new_game(variant, n, source=oracle)
    assert g.deal_events == ref.deal_events
    rng = random.Random(variant)
    chances = 0
    for _ in range(400):
        if g.over:
            if g.match_over:
                break
            while (chance := g.chance_for_next_round()) is not None:
                g.settle(chance, oracle.shuffle(list(chance.items), chance.epoch))
                chances += 1
            assert g.next_round() == ref.next_round()
            continue
        p = rng.choice(g.acting_order())
        a = rng.choice(g.legal_actions(p))
        while (chance := g.chance_for(p, a)) is not None:
            g.settle(chance, oracle.shuffle(list(chance.items), chance.epoch))
            chances += 1
        assert g.apply(p, a) == ref.apply(p, a)
        assert g.to_dict() | {"seed": None} == ref.to_dict() | {"seed": None}
    assert chances > 0


def test_restore_refuses_another_variants_snapshot():
    g = core.new_game("classic", 2, seed=1)
    with pytest.raises(ValueError):
        g.restore(core.new_game("nomercy", 2, seed=1).to_dict())
    with pytest.raises(ValueError):
        g.restore(core.new_game("nomercy", 2, seed=1).copy())


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_a_copy_taken_before_moves_restores_the_game_in_place(variant):
    """A :meth:`copy` is a snapshot too (the sealed engine's, before each move): restoring it puts
    every part of the state back, whatever the moves changed in place."""
    n = core.variant_class(variant).min_players + 1
    g = core.new_game(variant, n, seed=7)
    rng = random.Random(variant)
    for _ in range(5):
        g.apply(g.acting_order()[0], rng.choice(g.legal_actions(g.acting_order()[0])))
    before, snap, source = g.to_dict(), g.copy(), g.source
    for _ in range(40):
        if g.over:
            break
        p = rng.choice(g.acting_order())
        g.apply(p, rng.choice(g.legal_actions(p)))
    assert g.to_dict() != before
    held = g
    g.restore(snap)
    assert held is g and g.to_dict() == before and g.source is source
    assert not g.inconsistencies()


# -- the decision the game waits on ------------------------------------------------------------


def test_the_turn_and_the_decision_are_different_things_in_diez():
    """A Dagger's victim answers its challenge while the turn stays its player's."""
    g = core.new_game("diez", 3, seed=0, options={"uno_calls": False},
                      setup={"hands": [["RDG", "G1"], ["Y1"], ["B1"]], "discard": ["R5"]})
    g.apply(0, Action("play", support.cid(g, 0, "RDG")))
    d = g.decision
    assert g.current == 0 and d.player == 1 and d.kind == "challenge"
    assert set(d.legal) == {Action("challenge"), Action("draw")} and d.legal == tuple(g.legal_actions(1))
    assert g.to_act() == [1] and g.acting_order() == [1]
    obs = g.observation(None)
    assert obs["decision"] == {"player": 1, "kind": "challenge"} and obs["whose_turn"] == 0
    assert obs["current"] == 1  # kept: the screens read the player asked from here
    support.assert_illegal(g, 0, Action("draw"), "turn")
    g.apply(1, Action("draw"))
    assert g.current == 1 and g.decision.player == 1 and g.decision.kind == "play"


def test_an_extended_interaction_is_a_decision_of_the_player_it_reaches():
    g = core.new_game("extended", 3, seed=1, setup={"hands": [["RCLIP", "R1", "R2"], ["G1", "G2"], ["B1"]],
                                                     "discard": ["R5"]})
    g.apply(0, Action("play", support.cid(g, 0, "RCLIP")))
    assert g.current == 0 and g.decision.player == 1 and g.decision.kind == "react"
    assert g.actor == 1 and g.observation(None)["actor"] == 1 and g.to_act() == [1]
    assert g.observation(None)["interaction"]["type"] == "react"


def test_classic_decision_is_the_turn():
    g = core.new_game("classic", 3, seed=2)
    assert g.decision.player == g.current and g.decision.kind == "play"
    assert g.decision.legal == tuple(g.legal_actions(g.current))
    while not g.over:
        g.apply(g.acting_order()[-1], g.legal_actions(g.acting_order()[-1])[0])
    assert g.decision is None and g.observation(None)["decision"] is None


# -- the documented hooks ------------------------------------------------------------------------


def test_every_member_a_variant_overrides_is_a_documented_hook():
    """docs/engine.md names every member of Game that a variant overrides (and so may override)."""
    from pathlib import Path

    text = Path(__file__).resolve().parent.parent.joinpath("docs", "engine.md").read_text()
    table = text[text.index("| hook |"):text.index("Shared machinery")]
    base = set(dir(core.Game))
    overridden = set()
    for variant in core.VARIANTS:
        for cls in core.variant_class(variant).__mro__:
            if cls is core.Game:
                break
            overridden |= {k for k in vars(cls) if k in base and not k.startswith("__") and k != "variant"}
    assert overridden, "no variant overrides anything?"
    missing = sorted(k for k in overridden if f"`{k}`" not in table and f"`{k}(" not in table)
    assert not missing, f"hooks variants override but docs/engine.md does not name: {missing}"


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_a_copy_is_the_same_game_and_plays_on_alone(variant):
    """``copy`` (what every ``chance_for`` tries a move on) shares the deck but no state: it saves
    as the original does, and playing it on leaves the original as it was."""
    g = core.new_game(variant, core.variant_class(variant).min_players + 1, seed=3)
    rng = random.Random(variant)
    for _ in range(60):
        if g.over:
            break
        twin = g.copy()
        assert twin.to_dict() == g.to_dict() and twin.deal_events == g.deal_events
        before = g.to_dict()
        for _ in range(5):
            if twin.over:
                break
            q = rng.choice(twin.acting_order())
            twin.apply(q, rng.choice(twin.legal_actions(q)))
        assert g.to_dict() == before
        p = rng.choice(g.acting_order())
        g.apply(p, rng.choice(g.legal_actions(p)))


def test_why_a_move_is_illegal_is_said_as_apply_refuses_it_and_a_legal_one_has_no_reason() -> None:
    g = core.new_game("classic", ["Sam", "Ada"], seed=1, setup={
        "hands": [["R1", "B+2"], ["G1"]], "discard": ["R3"], "current": 0})
    bad = core.Action("play", next(c.id for c in g.hands[0] if c.rank == "+2"))
    for p, action in ((0, bad), (1, core.Action("draw"))):
        why = g.why_illegal(p, action)
        with pytest.raises(core.IllegalAction) as refused:
            g.apply(p, action)
        assert why is not None and str(refused.value) == why
    assert g.why_illegal(0, core.Action("draw")) is None
    assert g.why_illegal(0, bad) == "B+2 does not match R3 (colour in play: red)"
