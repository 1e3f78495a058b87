"""The rollout path (``core.rollout``) against the full engine, move by move.

Random games are played on both at once: the rollout follows the game's deck source
(``from_game(game, source=game.source)``), so the two meet the same shuffles all the way
through every reshuffle, token draw and random pick, and the whole round can be compared,
not only its start. Before every move the rollout's moves must be the engine's legal
actions of every player who may act, in the engine's act order (index for index, actor
and ``Action``); the same random index is applied to both; after every move the
rollout's ``to_state()`` must equal the engine's ``to_dict()`` on every key the round
uses. At the end the round's points must agree. Copies are checked for independence
along the way.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import core
import core.rollout as rollout
from core.rollout.diez import KINDS as DIEZ_KINDS
from core.rollout.extended import KINDS as EXTENDED_KINDS
from core.variants.diez.cards import TOKEN_COUNTS as DIEZ_TOKENS

ROUND_KEYS = {"hands", "draw_pile", "discard", "set_aside", "current", "direction", "color", "phase",
              "pending", "drawn", "declared", "exposed", "out", "winner", "last_points", "epoch",
              "version", "scores"}
"""The keys of ``Game.to_dict()`` a round changes; the rest (names, options, seed, round,
dealer, the deal's events) are the match's and stay as they were."""


def engine_moves(g: core.Game) -> list[tuple[int, core.Action]]:
    """Every (player, action) now, in ``Game.acting_order()`` (the order ``core.bots.simulate``
    asks them)."""
    return [(p, a) for p in g.acting_order() for a in g.legal_actions(p)]


def compare(g: core.Game, r: rollout.Rollout, where: Any) -> None:
    s = r.to_state()
    d = g.to_dict()
    assert ROUND_KEYS <= set(s), f"to_state misses {ROUND_KEYS - set(s)}"
    extra = s.pop("extra", {})
    assert set(extra) == set(d["extra"]), f"to_state's extra keys {set(extra) ^ set(d['extra'])}"
    for k, v in s.items():
        assert v == d[k], f"{where}: {k} is {v!r} in the rollout, {d[k]!r} in the engine"
    for k, v in extra.items():
        assert v == d["extra"][k], f"{where}: extra {k} is {v!r} in the rollout, {d['extra'][k]!r} in the engine"


def rich_setup(variant: str, n: int, options: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A start with hands full of function cards (and Diez tokens in play), so that a short
    random game meets the rare rules (chains of effects, tokens, several piles) often."""
    if variant not in ("diez", "extended"):
        return None
    cards = core.deck(variant, num_players=n, options=options)
    rng.shuffle(cards)
    plain = [c for c in cards if c.color is not None and c.rank.isdigit()]
    special = [c for c in cards if c not in plain]
    size = 7 if variant == "diez" else (options.get("hand_size") or (9 if n <= 3 else 7 if n <= 6 else 5))
    start = plain.pop()
    hands = []
    for _ in range(n):
        hand = []
        for _ in range(size):
            pool = special if special and rng.random() < 0.6 else plain
            hand.append(str(pool.pop()))
        hands.append(hand)
    setup: dict[str, Any] = {"hands": hands, "discard": [str(start)]}
    if variant == "diez":
        bag = [k for k, count in DIEZ_TOKENS.items() for _ in range(count)]
        rng.shuffle(bag)
        setup["tokens"] = [[bag.pop() for _ in range(rng.randint(0, 2))] for _ in range(n)]
    return setup


def play_both(variant: str, n: int, seed: int, options: dict[str, Any], bias: float,
              setup: dict[str, Any] | None = None, script: Any = ()) -> dict[str, int]:
    """One random round on the engine and a rollout of it; return counts of what happened.
    ``script`` picks the first moves: each a function from the game to the (player, action)."""
    rng = random.Random(seed)
    g = core.new_game(variant, n, seed=seed, options=options, setup=setup)
    r = rollout.from_game(g, source=g.source)
    compare(g, r, "deal")
    kinds: dict[str, int] = {}
    moves = 0
    while not g.over:
        assert moves < 20000, "a round did not end"
        ms = r.moves()
        legal = engine_moves(g)
        assert len(ms) == len(legal), f"move {moves}: {[r.action(i) for i in range(len(ms))]} vs {legal}"
        for i, (p, a) in enumerate(legal):
            assert (r.actor(i), r.action(i)) == (p, a), f"move {moves}, index {i}"
        plays = [i for i, (_, a) in enumerate(legal) if a.kind == "play"]
        if moves < len(script):
            i = legal.index(script[moves](g))
        else:
            i = rng.choice(plays) if plays and rng.random() < bias else rng.randrange(len(legal))
        p, a = legal[i]
        if moves % 37 == 5:
            # A copy is independent: playing it on leaves the original as it was.
            before = r.to_state()
            c = r.copy(seed=moves)
            for _ in range(5):
                if c.over:
                    break
                c.step(rng.randrange(len(c.moves())))
            assert r.to_state() == before
        r.step(i)
        g.apply(p, a)
        moves += 1
        if moves % 11 == 3:
            # A rollout taken mid-round is the same as one that played there: go on with it.
            compare(g, r, f"move {moves} ({p}: {a})")
            r = rollout.from_game(g, source=g.source)
        kinds[a.kind] = kinds.get(a.kind, 0) + 1
        compare(g, r, f"move {moves} ({p}: {a})")
    assert r.over and r.moves() == [] and r.winner == g.winner
    assert [s + q for s, q in zip(g.to_dict()["scores"], [0] * n)] == g.scores
    start = core.new_game(variant, n, seed=seed, options=options, setup=setup).scores
    assert r.points() == [after - b for after, b in zip(g.scores, start)]
    kinds["moves"] = moves
    return kinds


# -- what each variant plays with -----------------------------------------------------------


def classic_options(rng: random.Random) -> dict[str, Any]:
    return {"stacking": rng.choice(["none", "same", "progressive"]), "seven_o": rng.random() < 0.5,
            "jump_in": rng.random() < 0.5, "force_play": rng.random() < 0.5, "no_bluff": rng.random() < 0.3,
            "draw_until_playable": rng.random() < 0.3, "uno_penalty": rng.choice([0, 2, 4])}


OPTIONS = {
    "classic": classic_options,
    "nomercy": lambda rng: {"uno_penalty": rng.choice([0, 2, 4])},
    "wildrawz": lambda rng: {},
    "diez": lambda rng: {"scoring": rng.choice(["points", "rounds"]), "uno_calls": rng.random() < 0.8,
                         "uno_penalty": rng.choice([0, 2, 4])},
    "extended": lambda rng: {"hand_size": rng.choice([0, 5, 7, 9]), "uno_penalty": rng.choice([0, 2, 4])},
}
BIAS = {"classic": (0.8, 0.95, 1.0), "nomercy": (0.0, 0.5, 0.9), "wildrawz": (0.0,), "diez": (0.9, 1.0),
        "extended": (0.9, 1.0)}
SOAK_BIAS = {**BIAS, "classic": (0.7, 0.9, 1.0), "diez": (0.0, 0.5, 0.9, 1.0), "extended": (0.0, 0.5, 0.9, 1.0)}
"""How often a play is preferred: uniformly random rounds of classic, Diez and the extended
rules are very long (drawing is always allowed), and the engine's side of the check costs."""


def many(variant: str, games: int, base: int, bias: dict[str, tuple[float, ...]] = BIAS) -> dict[str, int]:
    cls = core.variant_class(variant)
    total: dict[str, int] = {}
    for s in range(base, base + games):
        rng = random.Random(s)
        n = rng.randint(cls.min_players, cls.max_players)
        options = OPTIONS[variant](rng)
        setup = rich_setup(variant, n, options, rng) if s % 2 else None
        kinds = play_both(variant, n, s, options, rng.choice(bias[variant]), setup)
        for k, v in kinds.items():
            total[k] = total.get(k, 0) + v
    return total


DEFAULT_GAMES = {"classic": 100, "nomercy": 125, "wildrawz": 125, "diez": 80, "extended": 40}
"""Games compared per variant by default. Twice these for classic, No Mercy and Wild Rawz met no
branch of their rollout or engine modules (coverage's arcs) that these do not; Diez and the
extended rules still meet new branches up to these counts, so they keep them. The soak run plays
ten times as many."""
DIEZ_SCENARIOS = [
    # a Proc answering a stack, with every stackable token in play
    {"hands": [["Y+2", "R1", "G2"], ["YPR", "Y+2", "B3"], ["R4", "G5", "B6"]], "discard": ["Y5"],
     "tokens": [["mirror"], ["snare"], ["double", "silence"]]},
    # Procs off a stack: Hex, Link (underlined cards about), Sub, White, Block, Ace, Magnet
    {"hands": [["YPR", "R6", "G9"], ["B9", "Y6", "R2"], ["G1", "B2", "Y3"]], "discard": ["Y5"],
     "tokens": [["hex", "link"], ["sub", "white", "hex"], ["block", "ace", "magnet"]]},
    # three piles and a Stitch Deck
    {"hands": [["BSD", "R1", "B7"], ["B2", "G2", "R3"], ["G4", "Y4", "B5"]], "piles": [["B3"], ["R5"], ["G7"]]},
    # a natural draw meets a Bomb, then the Needle
    {"hands": [["G1", "B2"], ["Y3", "G3"], ["B4", "Y4"]], "discard": ["R5"], "draw": ["WB", "BN", "G6", "Y7", "B8"]},
]
"""Scripted Diez starts for rules a random round seldom reaches (the default run plays each a
few times; the soak run's long random rounds meet them too)."""


@pytest.mark.parametrize("scenario", range(len(DIEZ_SCENARIOS)))
def test_rollout_matches_the_engine_in_rare_diez_positions(scenario: int) -> None:
    for seed in range(30):
        play_both("diez", 3, seed, {}, 0.8, DIEZ_SCENARIOS[scenario])


def number_duel_with_no_number_to_come() -> dict[str, Any]:
    """Every number card in a hand: a Number Duel's flips turn the pile through and stop."""
    numbers = [str(c) for c in core.deck("extended") if c.is_number]
    for t in ("R1", "G1"):
        numbers.remove(t)
    return {"hands": [["RDUELN", "R1"], ["G1"], numbers], "discard": ["RS"], "current": 0}


def play_card(p: int, text: str, target: int | None = None) -> Any:
    return lambda g: (p, core.Action("play", next(c.id for c in g.hand(p) if str(c) == text), None, target))


def test_rollout_matches_the_engine_when_no_number_can_come_up() -> None:
    for seed in range(5):
        play_both("extended", 3, seed, {}, 0.9, number_duel_with_no_number_to_come(),
                  script=[play_card(0, "RDUELN", 1), lambda g: (1, core.Action("accept"))])


EXPECTED_KINDS = {
    "classic": {"play", "draw", "pass", "uno", "catch", "challenge"},
    "nomercy": {"play", "draw", "uno", "catch", "choose"},
    "wildrawz": {"take", "play", "leave"},
    "diez": set(DIEZ_KINDS) - {"stitch"},  # three piles at once are rare: see DIEZ_SCENARIOS
    "extended": set(EXTENDED_KINDS),
}


@pytest.mark.parametrize("variant", sorted(DEFAULT_GAMES))
def test_rollout_matches_the_engine(variant: str) -> None:
    kinds = many(variant, DEFAULT_GAMES[variant], 0)
    assert EXPECTED_KINDS[variant] <= set(kinds), f"never played: {EXPECTED_KINDS[variant] - set(kinds)}"


@pytest.mark.soak
@pytest.mark.parametrize("variant", sorted(DEFAULT_GAMES))
def test_soak_rollout_matches_the_engine(variant: str) -> None:
    many(variant, 10 * DEFAULT_GAMES[variant], 100_000, SOAK_BIAS)


def test_interface() -> None:
    assert all(rollout.supports(v) for v in DEFAULT_GAMES)
    assert not rollout.supports("nonesuch")
    g = core.new_game("classic", 3, seed=1)
    r = rollout.from_game(g, seed=5)
    assert r.moves() and not r.over and r.winner is None and r.points() == [0, 0, 0]
    # Its own generator: the same seed gives the same rollout; a copy is independent.
    a, b = rollout.from_game(g, seed=9), rollout.from_game(g, seed=9)
    rng = random.Random(3)
    while not a.over:
        ms = a.moves()
        plays = [i for i in range(len(ms)) if a.action(i).kind == "play"]
        i = rng.choice(plays or range(len(ms)))
        a.step(i)
        b.step(i)
    assert a.to_state() == b.to_state() and a.over and b.over
    assert sum(a.points()) > 0 and a.points()[a.winner] == sum(a.points())
    assert g.to_dict()["version"] == 0, "the game is not touched"


@pytest.mark.parametrize("variant", sorted(DEFAULT_GAMES))
def test_a_rollout_never_touches_its_game(variant: str) -> None:
    cls = core.variant_class(variant)
    g = core.new_game(variant, cls.min_players + 1, seed=5)
    rng = random.Random(5)
    for _ in range(30):  # somewhere mid-round
        legal = engine_moves(g)
        if g.over or not legal:
            break
        g.apply(*rng.choice(legal))
    before = g.to_dict()
    for seed in range(3):
        r = rollout.from_game(g, seed=seed)
        while not r.over:
            r.step(rng.randrange(len(r.moves())))
        assert len(r.points()) == g.num_players
    assert g.to_dict() == before


def test_unknown_variant_is_refused() -> None:
    class Fake:
        variant = "nonesuch"

    with pytest.raises(ValueError, match="nonesuch"):
        rollout.from_game(Fake())
