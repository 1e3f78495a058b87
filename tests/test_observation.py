"""Observations in every variant: one seat's view is the shared public part plus that seat's own,
and a view taken is a snapshot that later moves do not change."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
import support

import core
from core import Action


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
        for _ in random_moves(g, random.Random(100 + n), 250):
            for obs in [g.observation(p) for p in range(n)] + [g.observation(None)]:
                kept.append((obs, copy.deepcopy(obs)))
            for obs, was in kept[-3 * (n + 1):-(n + 1)]:  # the views taken two states ago
                assert obs == was, f"a view of version {was['version']} changed under its holder"


# -- events: hiding happens in Event.view, and every kind of every variant is checked ------------

EVENT_KINDS: dict[str, set[str]] = {
    "classic": {"deal", "start", "return", "draw", "play", "pass", "skip", "reverse", "uno", "catch",
                "challenge", "show_hand", "jump_in", "swap", "rotate", "reshuffle", "round_over",
                "match_over"},
    "nomercy": {"deal", "start", "return", "draw", "play", "pass", "skip", "reverse", "uno", "catch",
                "swap", "rotate", "reshuffle", "skip_all", "discard_all", "knockout", "choose",
                "round_over", "match_over"},
    "diez": {"deal", "start", "return", "draw", "play", "pass", "skip", "reverse", "uno", "catch",
             "challenge", "show_hand", "jump_in", "swap", "reshuffle", "empty", "round_over", "match_over",
             "color", "stack", "stop", "tag", "share", "cut", "stitch", "discard", "proc", "reveal",
             "give_card", "needle", "bomb", "last_black", "choice", "mirror_armed", "mirror_used",
             "token_draw", "token_give", "token_remove", "token_steal", "token_trigger", "token_effect",
             "token_drop"},
    "extended": {"deal", "start", "return", "draw", "play", "pass", "skip", "reverse", "uno", "catch",
                 "swap", "reshuffle", "round_over", "match_over", "direction", "accept", "refuse",
                 "stack", "effect", "rebound", "pass_on", "cancel", "reveal", "regret", "withdraw",
                 "recast", "aim", "clip", "duel", "flip", "pick", "duel_over", "discard", "keep", "bomb",
                 "grenade", "c4", "argue", "handover", "explode", "reset", "attach", "bound", "released",
                 "capped", "win"},
    "wildrawz": {"deal", "row", "draw", "aside", "take", "trump", "play", "leave", "trick", "round_over",
                 "match_over"},
}
"""Every event kind each variant can produce (the classic family's ``empty`` cannot happen:
``draw`` is offered only when a card can be drawn)."""

RANDOM_TABLES: dict[str, list[tuple[int, dict]]] = {
    "classic": [(3, {"seven_o": True, "jump_in": True, "stacking": "progressive", "target_score": 100}),
                (6, {"draw_until_playable": True, "target_score": 100})],
    "nomercy": [(2, {"target_score": 300}), (6, {"target_score": 300})],
    "diez": [(3, {"target_score": 100}), (8, {"target_score": 100})],
    "extended": [(2, {"target_score": 3}), (6, {"target_score": 5})],
    "wildrawz": [(3, {}), (4, {})],
}


def _deal_checked(variant: str, n: int, seed: str, options: dict, kinds: set) -> core.Game:
    g = core.new_game(variant, n, seed=seed, options=options)
    support.check_event_hiding(g, g.deal_events, {q: set() for q in support.viewers(g)})
    kinds.update(e.kind for e in g.deal_events)
    return g


def _everything_but(variant: str, *named: list[str]) -> list[str]:
    """The notations of the deck's cards not already named (so a setup leaves nothing to draw)."""
    left = Counter(str(c) for c in core.deck(variant))
    left.subtract(t for cards in named for t in cards)
    return sorted(left.elements())


def _scripted(variant: str, kinds: set) -> None:
    """Positions random play reaches too rarely to count on, played through the same check."""
    A = Action

    def run(g: core.Game, *moves: tuple[int, Action | str]) -> None:
        for p, a in moves:
            if isinstance(a, str):  # a card notation: play it
                a = A("play", support.cid(g, p, a))
            support.apply_checked(g, p, a, kinds)

    if variant in ("classic", "nomercy"):
        g = support.make(variant, 2, [["R1", "R2"], ["G4", "G6"]], ["R5"])
        run(g, (0, A("uno")), (0, "R1"), (1, A("draw")))
        g = support.make(variant, 2, [["R1", "R2"], ["G4", "G6"]], ["R5"])
        run(g, (0, "R1"), (1, A("catch", target=0)))
    if variant == "nomercy":  # nothing to draw and nothing to play: pass
        p0 = [str(c) for c in core.deck("nomercy") if c.color in ("yellow", "green", "blue") and c.rank != "5"]
        g = support.make(variant, 2, [p0, _everything_but(variant, p0, ["R5"])], ["R5"])
        run(g, (0, A("pass")))
    if variant == "diez":
        def diez(hands, discard=("R5",), draw=(), **extra):
            return support.make("diez", len(hands), hands, list(discard), draw, options={"uno_calls": False},
                                **extra)
        g = diez([["W"], ["G1"]])  # a black last card: draw two
        run(g, (0, "W"), (0, A("color", color="red")))
        g = core.new_game("diez", 2, seed=0, options={"uno_calls": False},
                          setup={"hands": [["BSD", "R1"], ["G1"]], "piles": [["R5"], ["B7"]]})
        run(g, (0, A("play", support.cid(g, 0, "BSD"), None, 1)))  # two piles: stitched at once
        g = diez([["R+2", "R1"], ["G1"]], tokens=[[], ["hex"]])
        run(g, (0, "R+2"), (1, A("draw")))  # Hex adds to a forced draw
        g = diez([["YPR", "Y1"], ["YS", "G1"]], discard=("Y5",), tokens=[[], ["mirror", "reveal"]])
        run(g, (0, "YPR"), (0, A("proc", color="mirror")), (1, "YS"))  # a held Mirror turns the Skip
        g = diez([["YPR", "Y1"], ["G1", "G2"]], discard=("Y5",), tokens=[[], ["reveal"]])
        run(g, (0, "YPR"), (0, A("proc", color="reveal")))
        g = diez([["R+2", "R1"], ["RST", "G2"]])
        run(g, (0, "R+2"), (1, "RST"))  # a Stop cancels the stack
        g = diez([["RS", "R1"], ["G1", "G2"]], tokens=[[], ["mirror"]])
        run(g, (0, "RS"))  # a Mirror token acts and is spent
        # A natural draw that runs the piles dry: nothing left, the turn passes.
        p0 = [str(c) for c in core.deck("diez") if c.color in ("yellow", "green") and c.rank not in ("5", "N")]
        rest = _everything_but("diez", p0, ["R5", "B1", "B2"])
        g = diez([p0, rest], draw=["B1", "B2"])
        run(g, (0, A("draw")))
    if variant == "extended":
        g = core.new_game("extended", 3, seed=1, setup={
            "hands": [["RT4", "B7", "G8"], ["RWIDOW", "Y1"], ["B1"]], "discard": ["R3"]})
        run(g, (0, "RT4"), (0, A("attach", support.cid(g, 0, "B7"))), (0, A("send")),
            (1, "RWIDOW"))  # a cancelled transfer turns its rider face up
    if variant != "wildrawz":  # a starting card that may not start goes back (a deal in ten or so)
        for seed in range(300):
            returned: set[str] = set()
            _deal_checked(variant, 3, f"return-{seed}", {}, returned)
            kinds |= returned
            if "return" in returned:
                break


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_no_event_shows_a_card_its_viewer_may_not_see(variant):
    """Each event as every seat and a spectator get it (``Event.view``) shows a card only if the
    viewer saw it before the move or may see it after, or the rules show it on purpose; random
    play and a few scripted positions produce every event kind the variant has."""
    kinds: set[str] = set()
    for n, options in RANDOM_TABLES[variant]:
        g = _deal_checked(variant, n, f"hide-{variant}-{n}", options, kinds)
        rng = random.Random(n)
        for _ in range(600):
            if g.over:
                if g.match_over:
                    break
                support.next_round_checked(g, kinds)
                continue
            p = rng.choice(g.to_act())
            legal = g.legal_actions(p)
            plays = [a for a in legal if a.kind in ("play", "camo")]
            a = rng.choice(plays) if plays and rng.random() < 0.6 else rng.choice(legal)
            support.apply_checked(g, p, a, kinds)
    _scripted(variant, kinds)
    assert kinds <= EVENT_KINDS[variant], f"kinds missing from the list: {kinds - EVENT_KINDS[variant]}"
    assert kinds == EVENT_KINDS[variant], f"kinds never checked: {EVENT_KINDS[variant] - kinds}"


def test_the_chosen_ones_kept_card_is_its_owners_alone():
    """天选之子: the card kept stays in the hand, so only its owner learns which it is."""
    g = core.new_game("extended", 3, seed=1, setup={
        "hands": [["YCHOSEN", "R1", "B7", "G8"], ["Y1"], ["B1"]], "discard": ["Y3"]})
    g.apply(0, Action("play", support.cid(g, 0, "YCHOSEN")))
    assert g.phase == "keep"
    kept = support.cid(g, 0, "B7")
    before = support.seen_by_all(g)
    events = g.apply(0, Action("keep", kept))
    support.check_event_hiding(g, events, before)
    keep = next(e for e in events if e.kind == "keep")
    assert [c.id for c in keep.view(0).cards] == [kept]
    for q in (None, 1, 2):
        assert keep.view(q).cards == () and keep.view(q).count == 2


VIEW_TYPES = {"classic": core.Observation, "nomercy": core.Observation, "diez": core.DiezObservation,
              "extended": core.ExtendedObservation, "wildrawz": core.WildRawzObservation}


@pytest.mark.parametrize("variant", core.VARIANTS)
def test_the_view_has_the_keys_its_type_names(variant):
    """The TypedDicts in core.observation say exactly which keys a view holds."""
    typ = VIEW_TYPES[variant]
    player = core.PlayerView
    for n in seat_counts(variant)[:2]:
        g = core.new_game(variant, n, seed=f"keys-{variant}-{n}")
        for _ in random_moves(g, random.Random(n), 120):
            for p in [None, *range(n)]:
                obs = g.observation(p)
                assert typ.__required_keys__ <= set(obs), typ.__required_keys__ - set(obs)
                assert set(obs) <= typ.__required_keys__ | typ.__optional_keys__, \
                    set(obs) - typ.__required_keys__ - typ.__optional_keys__
                for seat in obs["players"]:
                    assert player.__required_keys__ <= set(seat) <= player.__required_keys__ | player.__optional_keys__
