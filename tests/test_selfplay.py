"""Random self-play with invariant checks after every move: every variant in ``core.VARIANTS``
(each variant's own invariants, ``Game.inconsistencies``), and classic in depth.

Every variant (:func:`every_variant_selfplay`): every card in exactly one place and the
variant's own invariants, ``to_act``/``decision``/``legal_actions`` agreeing, views and events
hiding what they must, an unlisted action raising ``IllegalAction`` with the state untouched,
every listed action applying, and a saved game (through msgpack) continuing identically and
dealing the same next round.

Classic, across 2..10 players:

A seeded ``random.Random`` picks a player from ``to_act()`` and one of their
legal actions. Some rounds are played uniformly at random (long rounds: big
hands, reshuffles, out-of-turn catches), others prefer plays (short rounds, so
many rounds end and ``next_round`` is exercised); every round is played to its
end. Checked along the way:

* 108 distinct card ids across hands, draw pile and discard, always;
* ``legal_actions`` matches an independent statement of the rules, and every
  listed action applies; a random unlisted action raises ``IllegalAction`` and
  leaves ``to_dict()`` exactly as it was;
* observations are msgpack-able and show no card of another hand nor of the
  draw pile (all hands become public once the round is over); a spectator
  sees no hand card at all;
* ``to_dict`` survives msgpack, ``Game.from_dict`` restores an identical state
  and both copies continue identically.
"""

from __future__ import annotations

import random

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import support
from support import assert_sound, card_ids_in

import core
from core import Action, IllegalAction

COLORS = core.COLORS
KINDS = ("play", "draw", "pass", "uno", "catch", "challenge")


# -- checks ---------------------------------------------------------------------------


def check_conservation(g) -> dict:
    d = g.to_dict()
    ids = [i for h in d["hands"] for i in h] + d["draw_pile"] + d["discard"]
    assert len(ids) == 108, f"{len(ids)} cards in play"
    assert len(set(ids)) == 108, "a card is in two places"
    assert set(ids) == set(range(108))
    assert g.draw_count == len(d["draw_pile"])
    assert [c.id for c in g.discard] == d["discard"]
    assert g.top.id == d["discard"][-1]
    for p in range(g.num_players):
        assert [c.id for c in g.hand(p)] == d["hands"][p]
    assert_sound(g)
    return d


def expected_legal(g, p, d) -> set:
    """The classic rules' legal actions for p, stated independently of the engine."""
    if g.over:
        return set()
    acts: set = set()
    if p == g.current:
        hand = g.hand(p)
        declared = d["declared"][p]
        can_draw = g.draw_count > 0 or len(g.discard) > 1
        if g.phase == "play":
            playable = [c for c in hand if c.color is None or c.color == g.color or c.rank == g.top.rank]
            for c in playable:
                if c.color is None:
                    acts |= {Action("play", c.id, col) for col in COLORS}
                else:
                    acts.add(Action("play", c.id))
            if playable and len(hand) == 2 and not declared:
                acts.add(Action("uno"))
            acts.add(Action("draw") if can_draw else Action("pass"))
        elif g.phase == "drawn":
            drawn = d["drawn"]
            assert drawn in [c.id for c in hand]
            c = g.card(drawn)
            assert c.color is None or c.color == g.color or c.rank == g.top.rank, "drawn card not playable"
            if c.color is None:
                acts |= {Action("play", c.id, col) for col in COLORS}
            else:
                acts.add(Action("play", c.id))
            if len(hand) == 2 and not declared:
                acts.add(Action("uno"))
            acts.add(Action("pass"))
        elif g.phase == "challenge":
            assert str(g.top) == "W+4"
            acts |= {Action("challenge"), Action("draw")}
        else:
            raise AssertionError(f"unknown phase {g.phase!r}")
    x = d["exposed"]
    if x is not None:
        assert len(g.hand(x)) == 1, "an exposed player must hold exactly one card"
        if p == x:
            acts.add(Action("uno"))
        else:
            acts.add(Action("catch", target=x))
    return acts


def check_legal(g, d):
    n = g.num_players
    to_act = g.to_act()
    assert to_act == sorted(to_act)
    for p in range(n):
        legal = g.legal_actions(p)
        assert len(legal) == len(set(legal)), f"duplicate legal actions for {p}: {legal}"
        assert set(legal) == expected_legal(g, p, d), f"player {p}, phase {g.phase}"
        assert (p in to_act) == bool(legal)


def check_observation(g, p, d):
    obs = g.observation(p)
    packed = msgpack.unpackb(msgpack.packb(obs))
    assert packed == obs, "observation does not survive msgpack"
    seen = card_ids_in(obs, set())
    discard = set(d["discard"])
    pile = set(d["draw_pile"])
    assert not seen & pile, f"draw pile cards visible to {p}: {seen & pile}"
    if g.over:
        allowed = discard | {i for h in d["hands"] for i in h}
    elif p is None:
        allowed = discard
    else:
        allowed = discard | set(d["hands"][p])
    assert seen <= allowed, f"player {p} sees cards {seen - allowed}"
    # what a player is told is true
    assert obs["draw_count"] == g.draw_count
    assert [q["cards"] for q in obs["players"]] == [len(g.hand(q)) for q in range(g.num_players)]
    assert [c["id"] for c in obs["discard"]] == d["discard"]
    assert obs["current"] == g.current and obs["color"] == g.color and obs["to_act"] == g.to_act()
    if p is None:
        assert "hand" not in obs and "legal" not in obs
        if not g.over:
            assert not seen & {i for h in d["hands"] for i in h}
    else:
        assert [c["id"] for c in obs["hand"]] == d["hands"][p]
        assert {Action.from_dict(a) for a in obs["legal"]} == set(g.legal_actions(p))


def random_unlisted_action(g, rng) -> tuple[int, Action]:
    """A (player, action) that legal_actions does not list."""
    n = g.num_players
    while True:
        p = rng.randrange(n)
        kind = rng.choice(KINDS)
        if kind == "play":
            a = Action("play", rng.randrange(108), rng.choice((None,) + COLORS))
        elif kind == "catch":
            a = Action("catch", target=rng.randrange(n))
        else:
            a = Action(kind)
        if a not in g.legal_actions(p):
            return p, a


def check_illegal(g, rng, d):
    p, a = random_unlisted_action(g, rng)
    with pytest.raises(IllegalAction) as ei:
        g.apply(p, a)
    assert len(str(ei.value)) > 10
    assert g.to_dict() == d, f"illegal {a} by {p} changed the state"


def check_every_legal_action_applies(g, rng):
    p = rng.choice(g.to_act())
    for a in g.legal_actions(p):
        h = g.copy()
        events = h.apply(p, a)
        assert events, f"{a} produced no events"
        assert h.version == g.version + 1
        check_conservation(h)


def choose(g, rng, bias: float) -> tuple[int, Action]:
    p = rng.choice(g.to_act())
    legal = g.legal_actions(p)
    if bias and rng.random() < bias:
        plays = [a for a in legal if a.kind == "play"]
        if plays:
            return p, rng.choice(plays)
    return p, rng.choice(legal)


def check_round_trip_and_continue(g, rng, bias, steps=15) -> int:
    """Save, restore and continue both copies; return the number of moves made."""
    d = g.to_dict()
    wire = msgpack.packb(d)
    d2 = msgpack.unpackb(wire)
    assert d2 == d
    h = core.Game.from_dict(d2)
    assert h.to_dict() == d
    assert type(h) is type(g)
    for q in [None, *range(g.num_players)]:
        assert h.observation(q) == g.observation(q)
    moves = 0
    for _ in range(steps):
        if g.over:
            break
        assert h.to_act() == g.to_act()
        p, a = choose(g, rng, bias)
        assert a in h.legal_actions(p)
        assert g.apply(p, a) == h.apply(p, a)
        moves += 1
        assert h.to_dict() == g.to_dict()
    assert h.over == g.over and h.winner == g.winner and h.scores == g.scores
    for q in [None, *range(g.num_players)]:
        assert h.observation(q) == g.observation(q)
    return moves


# -- the driver ----------------------------------------------------------------------------


def selfplay(n: int, budget: int, seed: int, *, options=None, full_every: int = 1):
    """Play rounds to the end until ``budget`` moves are spent; return a summary."""
    rng = random.Random(seed)
    g = core.new_game("classic", n, seed=rng.getrandbits(64), options=options)
    stats = {"moves": 0, "rounds": 0, "matches": 0, "reshuffles": 0, "catches": 0, "challenges": 0,
             "kinds": set()}
    while stats["moves"] < budget:
        bias = rng.choice((0.0, 0.5, 0.9))
        in_round = 0
        while not g.over:
            assert in_round < 20000, "a round did not end"
            if in_round == 400:
                bias = 0.9  # long enough: steer the round to its end
            d = check_conservation(g)
            if stats["moves"] % full_every == 0:
                check_legal(g, d)
                check_observation(g, None, d)
                check_observation(g, g.current, d)
                check_observation(g, rng.randrange(n), d)
                check_illegal(g, rng, d)
            if stats["moves"] % 40 == 7:
                check_every_legal_action_applies(g, rng)
            if stats["moves"] % 150 == 75:
                done = check_round_trip_and_continue(g, rng, bias)
                stats["moves"] += done
                in_round += done
                continue
            p, a = choose(g, rng, bias)
            version = g.version
            events = g.apply(p, a)
            assert g.version == version + 1
            stats["moves"] += 1
            in_round += 1
            stats["kinds"].add(a.kind)
            for e in events:
                stats["reshuffles"] += e.kind == "reshuffle"
                stats["catches"] += e.kind == "catch"
                stats["challenges"] += e.kind == "challenge"
        # the round is over
        d = check_conservation(g)
        assert g.winner is not None and len(g.hand(g.winner)) == 0
        assert all(len(g.hand(q)) > 0 for q in range(n) if q != g.winner)
        assert g.to_act() == [] and all(g.legal_actions(q) == [] for q in range(n))
        for q in [None, *range(n)]:
            check_observation(g, q, d)
        check_round_trip_and_continue(g, rng, 0)
        stats["rounds"] += 1
        if g.match_over:
            assert g.scores[g.match_winner] >= g.target_score
            with pytest.raises(ValueError):
                g.next_round()
            stats["matches"] += 1
            g = core.new_game("classic", n, seed=rng.getrandbits(64), options=options)
        else:
            assert max(g.scores) < g.target_score
            dealer = g.dealer
            h = core.Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict())))
            events = g.next_round()
            assert h.next_round() == events  # a restored game deals the same next round
            assert h.to_dict() == g.to_dict()
            assert g.dealer == (dealer + 1) % n
            assert events[0].kind == "deal" and events[0].player == g.dealer
            assert not g.over and g.round == h.round
    return stats


@pytest.mark.parametrize("n", (2, 3, 4, 7, 10))
def test_random_selfplay(n):
    # Two players (Reverse skips), three and four, a middle and the largest table (the reshuffles
    # come soonest); the soak run below plays every count from 2 to 10, five times as long.
    # A low target score so that matches end and new ones start within the budget.
    stats = selfplay(n, budget=2200, seed=1000 + n, options={"target_score": 200})
    assert stats["rounds"] >= 3
    assert stats["kinds"] >= {"play", "draw", "pass", "catch"}
    assert stats["reshuffles"] > 0


def test_random_selfplay_draw_until_playable_and_penalties():
    stats = selfplay(4, budget=1500, seed=77, options={"draw_until_playable": True, "uno_penalty": 4,
                                                        "target_score": 150})
    assert stats["rounds"] >= 2
    assert stats["matches"] >= 1


def test_selfplay_reaches_every_kind_of_action():
    """The checks above ran on positions where every action kind was taken."""
    kinds: set = set()
    challenges = 0
    for n in (2, 3, 4):
        s = selfplay(n, budget=600, seed=n, full_every=5)
        kinds |= s["kinds"]
        challenges += s["challenges"]
    assert kinds == set(KINDS)
    assert challenges > 0


# -- property-based ------------------------------------------------------------------------


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(min_value=2, max_value=10),
    seed=st.one_of(st.integers(min_value=0, max_value=2**63), st.text(max_size=8), st.binary(max_size=8)),
    choices=st.lists(st.tuples(st.integers(0, 1000), st.integers(0, 1000)), min_size=1, max_size=120),
    draw_until_playable=st.booleans(),
)
def test_property_any_line_of_play_keeps_the_invariants(n, seed, choices, draw_until_playable):
    g = core.new_game("classic", n, seed=seed, options={"draw_until_playable": draw_until_playable})
    rng = random.Random(0)
    for i, j in choices:
        if g.over:
            break
        d = check_conservation(g)
        check_legal(g, d)
        to_act = g.to_act()
        p = to_act[i % len(to_act)]
        check_observation(g, p, d)
        check_observation(g, None, d)
        check_illegal(g, rng, d)
        legal = g.legal_actions(p)
        g.apply(p, legal[j % len(legal)])
    d = check_conservation(g)
    h = core.Game.from_dict(msgpack.unpackb(msgpack.packb(d)))
    assert h.to_dict() == d
    for q in [None, *range(n)]:
        assert h.observation(q) == g.observation(q)


@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 10), seed=st.integers(0, 2**32))
def test_property_fresh_deal(n, seed):
    g = core.new_game("classic", n, seed=seed)
    check_conservation(g)
    assert not g.top.is_wild and len(g.discard) == 1
    sizes = [len(g.hand(p)) for p in range(n)]
    rank = g.top.rank
    if rank == "+2":
        assert sizes == [9] + [7] * (n - 1) and g.current == 1 % n
    else:
        assert sizes == [7] * n
        assert g.current == {"S": 1 % n, "R": n - 1}.get(rank, 0)
    assert g.direction == (-1 if rank == "R" else 1)
    assert g.color == g.top.color
    assert core.new_game("classic", n, seed=seed).to_dict() == g.to_dict()


# -- soak -----------------------------------------------------------------------------------


@pytest.mark.soak
@pytest.mark.parametrize("n", range(2, 11))
def test_soak_selfplay(n):
    """About 100k moves in all (run with ``pytest -m soak``)."""
    stats = selfplay(n, budget=11200, seed=90000 + n, options={"target_score": 300}, full_every=2)
    assert stats["rounds"] >= 10


# -- every variant ---------------------------------------------------------------------------------


def check_view_hides(g, p) -> None:
    """``p``'s view is msgpack-able and shows no card in a hidden place that ``p`` may not see."""
    obs = g.observation(p)
    assert msgpack.unpackb(msgpack.packb(obs)) == obs, "observation does not survive msgpack"
    shown = card_ids_in(obs, set()) & support.hidden_cards(g)
    allowed: set = set()
    if g.over:
        allowed = {c.id for h in g.hands for c in h}
    elif p is not None:
        allowed = {c.id for c in g.hands[p]}
        allowed |= {c["id"] for c in obs.get("search", ())}  # a searcher sees the searched pile
    for q, seat in enumerate(obs["players"]):
        if "hand" in seat:  # laid open by the rules (Diez's Reveal)
            assert seat.get("revealed"), f"seat {q}'s hand is in the view without being revealed"
            allowed |= {c["id"] for c in seat["hand"]}
    assert shown <= allowed, f"{g.variant}: {p} sees hidden cards {shown - allowed}"


def check_acting(g) -> None:
    """to_act, the decision and legal_actions agree."""
    to_act = g.to_act()
    assert to_act == sorted(set(to_act))
    for p in range(g.num_players):
        legal = g.legal_actions(p)
        assert len(legal) == len(set(legal)), f"duplicate legal actions for {p}"
        assert (p in to_act) == bool(legal), f"{g.variant}: player {p}, phase {g.phase}"
    d = g.decision
    if g.over:
        assert d is None and to_act == []
    else:
        assert d.player in to_act and d.legal == tuple(g.legal_actions(d.player))
        assert sorted(g.acting_order()) == to_act and g.acting_order()[-1] == d.player


def every_variant_selfplay(variant: str, n: int, budget: int, seed: int) -> dict:
    rng = random.Random(seed)
    g = core.new_game(variant, n, seed=rng.getrandbits(64))
    deck = len(g.cards)
    stats = {"moves": 0, "rounds": 0}
    in_round = 0
    while stats["moves"] < budget:
        if g.over:
            assert not g.inconsistencies() and g.to_act() == []
            stats["rounds"] += 1
            in_round = 0
            if g.match_over:
                with pytest.raises(ValueError):
                    g.next_round()
                g = core.new_game(variant, n, seed=rng.getrandbits(64))
                continue
            twin = core.Game.from_dict(msgpack.unpackb(msgpack.packb(g.to_dict())))
            assert g.next_round() == twin.next_round()  # a restored game deals the same round
            assert twin.to_dict() == g.to_dict()
            continue
        assert in_round < 8000, "a round did not end"
        problems = g.inconsistencies()
        assert not problems, f"{variant}: {problems}"
        check_acting(g)
        if stats["moves"] % 3 == 0:
            for q in (None, rng.randrange(n)):
                check_view_hides(g, q)
            before = g.to_dict()
            p, a = support.random_unlisted(g, rng, deck, ("choose", "take", "give", "accept", "color"))
            with pytest.raises(IllegalAction):
                g.apply(p, a)
            assert g.to_dict() == before, f"illegal {a} by {p} changed the state"
        if stats["moves"] % 50 == 17:
            p = rng.choice(g.to_act())
            for a in g.legal_actions(p):
                h = g.copy()
                h.apply(p, a)
                assert h.version == g.version + 1 and not h.inconsistencies()
        if stats["moves"] % 120 == 60:
            made = len(support.round_trip_continue(g, rng, steps=10))
            stats["moves"] += made
            in_round += made
            continue
        p = rng.choice(g.to_act())
        legal = g.legal_actions(p)
        plays = [a for a in legal if a.kind in ("play", "camo")]
        a = rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(legal)
        before = support.seen_by_all(g) if stats["moves"] % 7 == 0 else None
        events = g.apply(p, a)
        if before is not None:
            support.check_event_hiding(g, events, before)
        stats["moves"] += 1
        in_round += 1
    return stats


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_every_variant_selfplay_keeps_its_invariants(variant):
    """For each variant: every card in one place and the variant's own invariants after every move,
    to_act/decision/legal_actions agreeing, views hiding what they must, illegal moves changing
    nothing, every listed action applying, and saved games continuing identically."""
    cls = core.variant_class(variant)
    rounds = 0
    for n in sorted({cls.min_players, cls.max_players}):
        rounds += every_variant_selfplay(variant, n, budget=700, seed=sum(map(ord, variant)) + n)["rounds"]
    assert rounds >= 2


# -- the invariants themselves -------------------------------------------------------------------


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_inconsistencies_name_a_card_in_two_places(variant):
    g = core.new_game(variant, core.variant_class(variant).min_players + 1, seed=5)
    assert g.inconsistencies() == []
    d = g.to_dict()
    d["hands"][0].append(d["hands"][1][0])  # one card in two hands
    assert any("exactly one place" in p for p in core.Game.from_dict(d).inconsistencies())


def test_inconsistencies_of_the_variants_own_invariants():
    g = core.new_game("extended", 3, seed=5)
    d = g.to_dict()
    d["extra"]["last"] = d["draw_pile"][-1]
    assert any("last" in p for p in core.Game.from_dict(d).inconsistencies())
    g = core.new_game("nomercy", 2, seed=5)
    d = g.to_dict()
    d["hands"][1] += d["draw_pile"][:20]
    d["draw_pile"] = d["draw_pile"][20:]
    assert any("Mercy" in p for p in core.Game.from_dict(d).inconsistencies())
    g = core.new_game("diez", 2, seed=5)
    d = g.to_dict()
    d["extra"]["bag"].pop()
    assert any("tokens" in p for p in core.Game.from_dict(d).inconsistencies())
