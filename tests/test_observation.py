"""Observations in every variant: one seat's view is the shared public part plus that seat's own,
and a view taken is a snapshot that later moves do not change."""

from __future__ import annotations

import copy
import random

import pytest

import core


def seat_counts(variant: str) -> list[int]:
    cls = core.variant_class(variant)
    return sorted({cls.min_players, (cls.min_players + cls.max_players) // 2, cls.max_players})


def random_moves(g: core.Game, rng: random.Random, steps: int):
    """Yield before each of up to ``steps`` random legal moves, across rounds."""
    for _ in range(steps):
        if g.over:
            if g.match_over:
                return
            yield
            g.next_round()
            continue
        yield
        actors = [p for p in g.to_act() if g.legal_actions(p)]
        p = rng.choice(actors)
        g.apply(p, rng.choice(g.legal_actions(p)))


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_a_view_is_the_public_part_and_the_seats_own(variant):
    for n in seat_counts(variant):
        g = core.new_game(variant, n, seed=f"obs-{variant}-{n}")
        for _ in random_moves(g, random.Random(n), 300):
            public = g.public_observation()
            for p in [*range(n), None]:
                private = g.private_observation(p)
                assert not set(private) & set(public), "a key is both public and private"
                assert g.observation(p) == {**public, **private}
            assert g.private_observation(None) == {"me": None}, "a spectator has nothing of its own"


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_a_view_does_not_change_after_it_was_taken(variant):
    """Nothing in a view is the game's own list or map: a screen or a host may keep it."""
    for n in seat_counts(variant):
        g = core.new_game(variant, n, seed=f"snap-{variant}-{n}")
        kept: list[tuple[dict, dict]] = []
        for _ in random_moves(g, random.Random(100 + n), 400):
            for obs in [g.observation(p) for p in range(n)] + [g.observation(None)]:
                kept.append((obs, copy.deepcopy(obs)))
            for obs, was in kept[-3 * (n + 1):-(n + 1)]:  # the views taken two states ago
                assert obs == was, f"a view of version {was['version']} changed under its holder"
