"""The engine with sealed cards (issue 16, the engine's side): every peer's replica, the host's
and a spectator's kept in lockstep with a game that sees everything, each fed only what it may
learn (see ``sealed_table.py``); claims, the doubles that make false ones, and the round's audit.

The cryptography that opens the slots is ``net/sealed/`` (``test_sealed_round.py``); here the
faces come from the truth game, exactly where the network would open them.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import core
from core import Action
from sealed_table import Liar, Table

CLASSIC_OPTIONS: list[dict[str, Any]] = [
    {}, {"draw_until_playable": True}, {"force_play": True}, {"draw_until_playable": True, "force_play": True},
    {"no_bluff": True}, {"stacking": "progressive"}, {"stacking": "same"}, {"seven_o": True}, {"jump_in": True},
    {"seven_o": True, "jump_in": True, "stacking": "progressive", "draw_until_playable": True, "force_play": True},
]

# (variant, options, seeds): a few seeded rounds each in the default run; the soak runs more.
SELFPLAY = [("classic", o, range(2 if not o else 1)) for o in CLASSIC_OPTIONS] + [
    ("nomercy", None, range(3)), ("wildrawz", None, range(3)), ("extended", None, range(2)),
    ("diez", None, (0, 2, 5)),
]


def _round(variant: str, options: dict[str, Any] | None, seed: int, setup: dict[str, Any] | None = None) -> Table:
    klass = core.variant_class(variant)
    n = klass.min_players + seed % (min(klass.max_players, 4) - klass.min_players + 1)
    if callable(setup):
        setup = setup(n, random.Random(seed))
    table = Table(variant, n, seed, options, bots=(n - 1,), setup=setup)  # the host seats a bot in the last seat
    table.play_round()
    audit = table.audit()
    assert audit.false_claims == [], audit.false_claims
    assert table.truth.false_claims == []
    assert audit.game.public_observation() == table.truth.public_observation()
    assert audit.game.to_dict()["slots"]["claims"] == table.truth.to_dict()["slots"]["claims"]
    return table


@pytest.mark.parametrize("variant,options,seeds", SELFPLAY, ids=lambda x: str(x) if not isinstance(x, range) else "")
def test_sealed_self_play_keeps_every_replica_with_the_truth(variant, options, seeds):
    for seed in seeds:
        table = _round(variant, options, seed)
        if not table.truth.match_over and not options:  # the next deal, each replica settling its own
            table.next_round()
            table.play_round()
            assert table.audit().false_claims == []


@pytest.mark.soak
@pytest.mark.parametrize("variant,options", [(v, o) for v, o, _ in SELFPLAY])
def test_sealed_self_play_soak(variant, options):
    for seed in range(10, 60):
        _round(variant, options, seed)


def _diez_searches(n: int, rng: random.Random) -> dict[str, Any]:
    """A Diez start that meets the White token, its Proc and Revive often: hands full of function
    cards with the Proc, the Choice and the Revive among them, and the White token in play."""
    deck = [str(c) for c in core.deck("diez", num_players=n)]
    wanted = ["YPR", "WC", "GRV"]
    rest = [t for t in deck if t not in wanted]
    rng.shuffle(rest)
    special = [t for t in rest if not t[1:].isdigit() or t[0] not in "RYGB"]
    plain = [t for t in rest if t not in special]
    hands = [[] for _ in range(n)]
    for k, t in enumerate(wanted):
        hands[k % n].append(t)
    for hand in hands:
        while len(hand) < 7:
            hand.append((special if rng.random() < 0.6 else plain).pop())
    tokens: list[list[str]] = [[] for _ in range(n)]
    tokens[1].append("white")
    return {"hands": hands, "discard": [plain.pop()], "tokens": tokens}


# Seeds of quick rounds that, between them, meet everything a sealed Diez searches with (a
# Revive's card taken; the White token; the White Proc); the soak plays many more.
DIEZ_SEARCH_SEEDS = (0, 4, 10)


def test_sealed_diez_meets_the_white_token_its_proc_and_revive_and_every_replica_keeps_up():
    met: Counter = Counter()
    for seed in DIEZ_SEARCH_SEEDS:
        met += _round("diez", None, seed, _diez_searches).met
    assert met["proc", "white"] and met["search", "white"] and met["reshuffle", "white"], met
    assert met["token_trigger", "white"] and met["draw", "white"] >= 2, met  # the token's and the Proc's
    assert met["search", "revive"] and met["draw", "revive"], met


@pytest.mark.soak
def test_sealed_diez_searches_soak():
    for seed in range(12, 60):
        _round("diez", None, seed, _diez_searches)


# -- the deal ---------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["classic", "nomercy", "wildrawz", "extended", "diez"])
def test_a_replica_deals_itself_from_needs_and_learns_only_its_hand(variant):
    truth = core.new_game(variant, 3, seed=7, sealed=True)
    settled: list = []
    while (need := core.need_for_new_game(variant, 3, sealed=True, settled=settled)) is not None:
        if isinstance(need, core.Reveal):  # a card turned up (the starting card, the row), shown to all
            settled.append((need, [truth.cards[h].face for h in need.handles]))
        else:  # the deck: sealed, nobody here sees the order
            assert all(isinstance(c, core.Card) for c in need.items)
            settled.append((need, None))
    replica = core.new_game(variant, 3, sealed=True, settled=settled, source=core.BlindSource())
    assert replica.public_observation() == truth.public_observation()
    assert all(core.is_sealed(c) for h in replica.hands for c in h)
    assert all(core.is_sealed(c) for c in replica.draw_pile)
    assert replica.to_dict()["slots"]["public"] == truth.to_dict()["slots"]["public"]
    for h in truth.deliveries(truth._deal_events)[1]:
        replica.learn(h, truth.cards[h].face)
    assert replica.private_observation(1) == truth.private_observation(1)
    assert all(core.is_sealed(c) for c in replica.hands[0] + replica.hands[2])
    with pytest.raises(ValueError):  # a face the deck does not have
        replica.learn(replica.hands[0][0].id, ("red", "99"))


@pytest.mark.parametrize("variant", ["classic", "nomercy", "wildrawz", "extended", "diez"])
def test_a_card_in_a_hand_when_the_deal_stops_to_show_a_card_stays_in_that_hand(variant):
    # A sealed table sends each hand's keys while the turned card is shown (net/sealing/lockstep.py):
    # a card dealt then that went back into the pile would have been seen by a player it is not with.
    klass = core.variant_class(variant)
    turned_back = 0
    for seed in range(120):
        n = klass.min_players + seed % (min(klass.max_players, 6) - klass.min_players + 1)
        truth = core.new_game(variant, n, seed=seed, sealed=True)
        settled: list = []
        held: list[tuple[tuple[int, ...], ...]] = []
        while True:
            need, hands = core.new_game_stop(variant, n, sealed=True, settled=settled)
            if need is None:
                break
            if isinstance(need, core.Reveal):
                held.append(hands)
                settled.append((need, [truth.cards[h].face for h in need.handles]))
            else:
                assert hands == ()
                settled.append((need, None))
        assert core.need_for_new_game(variant, n, sealed=True, settled=settled) is None
        turned_back += sum(1 for e in truth._deal_events if e.kind == "return")
        dealt = truth.deliveries(truth._deal_events)
        for hands in held:
            assert len(hands) in (0, n)
            for q, hand in enumerate(hands):
                assert set(hand) <= {c.id for c in truth.hands[q]} and set(hand) <= set(dealt.get(q, ()))
        assert held and all(held[-1])  # every hand is dealt by the last card the deal shows
    if variant != "wildrawz":
        assert turned_back  # the seeds met a starting card sent back (or put under the pile)


def _classic_replica() -> core.Game:
    """A sealed classic game of three as a peer holds it: every hand and the pile sealed."""
    settled: list = []
    truth = core.new_game("classic", 3, seed=7, sealed=True)
    while (need := core.need_for_new_game("classic", 3, sealed=True, settled=settled)) is not None:
        settled.append((need, [truth.cards[h].face for h in need.handles] if isinstance(need, core.Reveal) else None))
    return core.new_game("classic", 3, sealed=True, settled=settled, source=core.BlindSource())


def test_the_deliveries_of_a_move_are_worked_out_on_a_copy_and_the_game_is_left_alone():
    """A sealed peer asks what a likely draw would deal before it comes (to seal its keys ahead)."""
    replica = _classic_replica()
    p, draw = replica.current, core.Action("draw")
    before = replica.to_dict()
    got = replica.deliveries_if(p, draw)
    assert replica.to_dict() == before
    assert replica.deliveries_if((p + 1) % 3, draw) is None  # not that seat's turn: illegal
    events = replica.follow(p, draw)
    assert got is not None and got == replica.deliveries(events)
    assert got[p][-1] == events[0].cards[0].id  # the card drawn, sealed still, is the one to open


def test_a_copy_made_ahead_answers_a_moves_needs_and_one_made_before_the_last_move_is_not_used():
    """A sealed peer makes, while idle, the copy the next move's needs are asked on."""
    replica = _classic_replica()
    p, draw = replica.current, core.Action("draw")
    ahead, stale = replica.probe(), replica.probe()
    assert replica.need_for(p, draw, follow=True, probe=ahead) is None
    replica.follow(p, draw)
    if core.Action("pass") in replica.legal_actions(p):  # the card drawn may be played: kept instead
        replica.follow(p, core.Action("pass"))
    q = replica.current
    assert q != p
    # Made before the move, the copy would still wait on p (q's draw illegal there): it is not used.
    assert replica.need_for(q, draw, follow=True, probe=stale) is None


def test_a_face_learnt_takes_the_sealed_cards_place_in_the_hand_and_in_the_deal_as_read():
    """Every peer learns the card each move shows, in two or three games: in place, wherever it is."""
    truth = core.new_game("classic", 3, seed=7, sealed=True)
    replica = _classic_replica()
    card = truth.hands[1][3]
    replica.learn(card.id, card.face)
    assert replica.hands[1][3] == card and replica.hands[1].count(card) == 1
    assert all(core.is_sealed(c) for i, c in enumerate(replica.hands[1]) if i != 3)
    dealt = next(e for e in replica.deal_events if e.kind == "draw" and e.player == 1)
    assert dealt.cards[3] == card and sum(core.is_sealed(c) for c in dealt.cards) == 6
    again = core.Game.from_dict(replica.to_dict(), source=core.BlindSource())
    assert again.deal_events == replica.deal_events and again.hands == replica.hands


def test_a_move_asked_about_at_this_moment_is_taken_from_the_copy_that_made_it(monkeypatch):
    """Every peer of a sealed table asks each move's needs (making it on a copy), then follows it:
    a move the copy made needing nothing is not made again, the game takes the copy's state over.
    Another move, or the same after the game changed, is made (with its snapshot: it may stop,
    and the game must be left as it was)."""
    made: list[core.Game] = []
    copies: list[core.Game] = []
    act, copy = core.Game._act, core.Game.copy
    monkeypatch.setattr(core.Game, "_act", lambda g, *a: made.append(g) or act(g, *a))
    monkeypatch.setattr(core.Game, "copy", lambda g, *a, **k: copies.append(g) or copy(g, *a, **k))
    truth = core.new_game("classic", 3, seed=7, sealed=True)
    asked, twin, stale = _classic_replica(), _classic_replica(), _classic_replica()
    p, draw = asked.current, core.Action("draw")
    for g in (asked, stale):
        assert g.need_for(p, draw, follow=True) is None
    shown = truth.hands[1][0]
    stale.reveal(shown.id, shown.face)  # a card shown to all since it asked
    made.clear()
    assert asked.follow(p, draw) == twin.follow(p, draw)
    stale.follow(p, draw)
    assert made == [twin, stale] and copies == [twin, stale]  # asked at this moment: neither
    assert {**asked.to_dict(), "seed": None} == {**twin.to_dict(), "seed": None}
    assert isinstance(asked.source, core.BlindSource)  # its own source kept, not the copy's
    made.clear()
    again = core.Action("pass" if asked.current == p else "draw")
    assert asked.follow(asked.current, again) == twin.follow(twin.current, again)  # not asked about: made
    assert made == [asked, twin] and copies[-2:] == [asked, twin]
    assert {**asked.to_dict(), "seed": None} == {**twin.to_dict(), "seed": None}


def test_handles_are_fresh_per_shuffle_and_say_nothing_of_the_deck_order():
    a = core.new_game("classic", 2, seed=1, sealed=True)
    b = core.new_game("classic", 2, seed=2, sealed=True)
    # The same handles, dealt the same way, whatever the order: a handle is a slot, not a card.
    assert [c.id for c in a.hands[0]] == [c.id for c in b.hands[0]]
    assert [c.face for c in a.hands[0]] != [c.face for c in b.hands[0]]
    assert min(c.id for c in a.all_cards()) >= a.deck_size


def test_a_sealed_game_round_trips_through_to_dict():
    table = Table("classic", 3, 4, {"draw_until_playable": True})
    for _ in range(30):
        table.step(*table.pick())
    for g in (table.truth, *table.games().values()):
        again = type(g).from_dict(g.to_dict(), source=core.BlindSource())
        assert again.to_dict() == g.to_dict()
        assert again.public_observation() == g.public_observation()


def test_a_replica_restarted_from_its_save_mid_round_carries_on_in_lockstep():
    """A crash is ordinary: seat 1's client and the host reload their saved games and play on."""
    table = Table("classic", 3, 9, {"draw_until_playable": True}, bots=(2,))
    for _ in range(25):
        table.step(*table.pick())
    table.replicas[1] = type(table.truth).from_dict(table.replicas[1].to_dict(), source=core.BlindSource())
    table.host = type(table.truth).from_dict(table.host.to_dict(), source=core.BlindSource())
    table.check()
    table.play_round()
    assert table.audit().false_claims == []


def test_an_ordinary_game_knows_nothing_of_sealing():
    g = core.new_game("classic", 3, seed=3)
    assert not g.sealed and g.claims == [] and "slots" not in g.to_dict()
    with pytest.raises(ValueError):
        g.learn(0, ("red", "1"))


# -- Wild Draw Four: the hand shown to the challenger alone -------------------------------------

def _scripted(options: dict[str, Any] | None = None, **kw: Any) -> Table:
    setup = {"hands": [["W+4", "R1", "B2"], ["G7", "G8", "G9"], ["Y1", "Y2", "Y3"]], "discard": ["R5"],
             "draw": ["G1", "G2", "G3", "G4", "G5", "G6"]}
    return Table("classic", 3, 0, options, setup=setup, **kw)


def test_a_challenge_shows_the_hand_to_the_challenger_alone_who_rules_on_it():
    table = _scripted()
    t = table.truth
    w4 = next(c for c in t.hands[0] if c.rank == "W+4")
    table.step(0, Action("play", w4.id, "blue"))
    table.step(1, Action("challenge"))
    assert t.phase == "rule" and t.decision.player == 1
    shown = {c.id for c in t.hands[0]}
    assert all(not core.is_sealed(table.replicas[1].cards[h]) for h in shown)  # the challenger saw it
    assert all(core.is_sealed(table.replicas[2].cards[h]) for h in shown)  # nobody else did
    assert all(core.is_sealed(table.spectator.cards[h]) for h in shown)
    # The challenger's own game offers the honest ruling only: R1 was red, the colour in play.
    assert [a.kind for a in table.legal(1)] == ["guilty"]
    table.step(1, Action("guilty"))
    claim = t.claims[-1]
    assert (claim.seat, claim.decision, claim.action) == (1, "rule", Action("guilty"))
    assert "held red" in claim.words and set(claim.handles) == shown
    assert len(t.hands[0]) == 6 and t.current == 1
    assert table.audit().false_claims == []


def test_a_false_ruling_is_seen_at_once_by_the_challenged_and_named_by_the_audit():
    table = _scripted(seats={1: Liar(random.Random(0), "rule:innocent")})
    t = table.truth
    w4 = next(c for c in t.hands[0] if c.rank == "W+4")
    table.step(0, Action("play", w4.id, "blue"))
    table.step(1, Action("challenge"))
    table.step(1, Action("innocent"))  # a lie: the hand held R1
    assert [f.seat for f in table.replicas[0].false_claims] == [1]  # the challenged knows its hand
    assert table.replicas[2].false_claims == [] and table.spectator.false_claims == []
    assert len(t.hands[1]) == 3 + 6  # carried out as the table took it
    audit = table.audit()
    assert audit.culprits == [1] and audit.false_claims[0].action == Action("innocent")


# -- claims: each kind, and a double for each ---------------------------------------------------

LIES = [
    ("classic", "drawn:draw", {"draw_until_playable": True}),  # "the card drawn cannot be played": draws on
    ("classic", "drawn:pass", {"draw_until_playable": True}),  # "the card drawn can be played": keeps it
    ("classic", "drawn:pass", {"force_play": True}),  # "the card drawn cannot be played": keeps it
    ("classic", "rule:guilty", None),  # a Wild Draw Four challenge ruled falsely
    ("classic", "rule:innocent", None),
    ("classic", "play:play", {"no_bluff": True}),  # "I hold no card of the colour in play"
    ("classic", "play:uno", None),  # UNO called with two cards and nothing to play
    ("nomercy", "drawn:draw", None),  # drawing on past a playable card
    ("nomercy", "discard:pass", None),  # Discard All: "that was the last of its colour"
    ("wildrawz", "trick:play", None),  # "I hold none of the led colour"
    ("extended", "main:pass", None),  # "I can neither draw nor play"
    ("extended", "argue:refuse", None),  # 抬杠: "no number high enough", drawing four
    ("extended", "keep:keep", None),  # 天选之子: "the card I keep is a number"
    ("extended", "discard:pass", None),  # 缴械: "I hold no more function cards"
    ("diez", "drawing:draw", None),  # "I hold nothing playable": a natural draw goes on
    ("diez", "drawing:pass", None),  # "I hold a playable card": the card drawn kept
    ("diez", "drawing:bomb", None),  # "a Bomb drawn naturally": three more cards
    ("diez", "drawing:stop", None),  # "a Needle": the draw stops
    ("diez", "forced_draw:stop", None),  # "a Needle" in a forced draw
    ("diez", "rule:guilty", None),  # a challenge ruled falsely by the challenger
]


@pytest.mark.parametrize("variant,kind,options", LIES, ids=[f"{v}-{k}-{o}" for v, k, o in LIES])
def test_a_false_claim_is_caught_and_its_author_named(variant, kind, options):
    for seed in range(20):
        liar = Liar(random.Random(seed), kind)
        table = Table(variant, 3, seed, options, seats={0: liar})  # (every variant seats 3)
        table.play_round(until=lambda: len(liar.lied) >= 3)  # the audit reads a round so far as well
        if liar.lied:
            break
    else:
        pytest.fail(f"no chance to lie ({kind}) in 20 rounds")
    t = table.truth
    assert {f.seat for f in t.false_claims} == {0}
    assert len(t.false_claims) == len(liar.lied)
    assert {f.version for f in t.false_claims} == {v for v, _ in liar.lied}
    audit = table.audit()
    assert audit.culprits == [0]
    assert [f.version for f in audit.false_claims] == [f.version for f in t.false_claims]
    assert all(f.words for f in audit.false_claims)
    # The liar's own game knew at once; the public could not.
    assert len(table.replicas[0].false_claims) == len(liar.lied)
    assert table.spectator.false_claims == []


def test_a_false_colour_claimed_in_a_sealed_draw_color_is_caught_and_named():
    """Diez's Draw Color, accepted: "the colour came" on a card that is not green (the ``found``
    claim; the random rounds meet a Draw Color too seldom for the generic double above)."""
    setup = {"hands": [["WDC", "R1"], ["Y1", "Y2"], ["B1"]], "discard": ["R5"], "current": 0,
             "draw": ["B3", "Y4", "G7", "B8"]}
    liar = Liar(random.Random(0), "forced_draw:found")
    table = Table("diez", 3, 0, {"uno_calls": False}, setup=setup, seats={1: liar})
    t = table.truth
    table.step(0, Action("play", next(c.id for c in t.hands[0] if c.rank == "WDC")))
    table.step(0, Action("color", color="green"))
    table.step(1, Action("draw"))  # accepted: seat 1 draws until green, B3 first
    assert t.phase == "forced_draw" and table.legal(1) == [Action("draw")]  # its own game: not green
    table.step(1, liar.choose(table, 1, table.legal(1)))  # "found": the colour came, it says
    assert liar.lied and t.claims[-1].words == "the card drawn is green"
    assert [f.seat for f in table.replicas[1].false_claims] == [1]
    assert table.replicas[0].false_claims == [] and table.spectator.false_claims == []
    assert len(t.hands[1]) == 3 and t.current == 2  # carried out as the table took it
    audit = table.audit()
    assert audit.culprits == [1] and audit.false_claims[0].action == Action("found")


def test_an_honest_client_is_never_offered_a_false_claim():
    table = Table("classic", 4, 11, {"draw_until_playable": True, "force_play": True, "no_bluff": True})
    from sealed_table import accepted_lies

    for _ in range(200):
        if table.truth.over:
            break
        p, action = table.pick()
        assert action not in accepted_lies(table.replicas[p], p)
        table.step(p, action)
    assert table.truth.false_claims == []


def test_a_move_the_public_cannot_accept_is_refused_and_changes_nothing():
    table = _scripted()
    g = table.replicas[2]
    before = g.to_dict()
    with pytest.raises(core.IllegalAction):
        g.follow(2, Action("guilty"))
    assert g.to_dict() == before


# -- No Mercy ------------------------------------------------------------------------------------

def test_discard_all_in_a_sealed_game_goes_card_by_card_each_shown_and_its_end_claimed():
    setup = {"hands": [["RDA", "R1", "B2", "R7", "G3"], ["G7", "G8", "G9"], ["Y1", "Y2", "Y3"]],
             "discard": ["R5"], "draw": ["G1", "G2", "G3"]}
    table = Table("nomercy", 3, 0, None, setup=setup)
    t = table.truth
    hand = {c.face: c.id for c in t.hands[0]}
    table.step(0, Action("play", hand[("red", "DA")]))
    assert t.phase == "discard" and t.decision.player == 0
    # Its own game offers the red cards, and no stop while it holds one.
    assert {a.card for a in table.legal(0)} == {hand[("red", "1")], hand[("red", "7")]}
    table.step(0, Action("discard", hand[("red", "7")]))
    table.step(0, Action("discard", hand[("red", "1")]))
    assert table.spectator.cards[hand[("red", "1")]].face == ("red", "1")  # shown as it went
    table.step(0, Action("pass"))
    assert [c.face for c in t.hands[0]] == [("blue", "2"), ("green", "3")]
    assert t.claims[-1].words == "holds no other red card" and t.current == 1
    assert table.audit().false_claims == []
    # The full-information engine does it all at once, as before.
    g = core.new_game("nomercy", 3, setup=setup)
    g.apply(0, Action("play", next(c.id for c in g.hands[0] if c.rank == "DA")))
    assert [str(c) for c in g.hands[0]] == ["B2", "G3"] and g.current == 1


# -- Wild Rawz -------------------------------------------------------------------------------------

def test_wild_rawz_following_the_led_colour_and_the_claim_of_holding_none():
    setup = {"trump": "R7", "hands": [["B8", "B1"], ["Y1", "G2"], ["B3", "Y2"]]}
    table = Table("wildrawz", 3, 1, None, setup=setup, seats={2: Liar(random.Random(0), "trick:play")})
    t = table.truth
    ids = {str(c): c.id for h in t.hands for c in h}
    table.step(0, Action("play", ids["B8"]))
    # Seat 1 holds no blue: its own game lets it play either card, as its word; seat 2 must follow.
    assert {a.card for a in table.legal(1) if a.kind == "play"} == {ids["Y1"], ids["G2"]}
    table.step(1, Action("play", ids["Y1"]))
    assert t.claims[-1].seat == 1 and t.claims[-1].words == "holds no blue card"
    assert {a.card for a in table.legal(2) if a.kind == "play"} == {ids["B3"]}
    table.step(2, Action("play", ids["Y2"]))  # the double: it held B3
    assert [f.seat for f in table.replicas[2].false_claims] == [2]  # its own game knew
    assert table.replicas[0].false_claims == table.replicas[1].false_claims == []
    assert table.audit().culprits == [2]


def test_a_variant_not_sealable_is_refused_sealed_and_plays_as_ever():
    class Unsealable(core.variant_class("classic")):  # type: ignore[misc,valid-type]
        sealable = False

    with pytest.raises(ValueError, match="cannot be played sealed yet"):
        Unsealable(3, seed=1, sealed=True)
    assert Unsealable(3, seed=1).to_dict()
    assert all(core.variant_class(v).sealable for v in core.VARIANTS)


# -- the extended rules ------------------------------------------------------------------------------

def test_transfer_cards_ride_face_down_and_only_the_acceptor_learns_them():
    setup = {"hands": [["RT4", "B9", "G8", "R1"], ["YT4", "R2", "Y1"], ["B1", "B2"]], "discard": ["R3"],
             "draw": [], "current": 0}
    table = Table("extended", 3, 1, None, setup=setup)
    t = table.truth
    ids = {str(c): c.id for h in t.hands for c in h}
    table.step(0, Action("play", ids["RT4"]))
    table.step(0, Action("attach", ids["B9"]))
    table.step(0, Action("attach", ids["G8"]))
    riders = {ids["B9"], ids["G8"]}
    for name in ("1", "2", "host", "spectator"):  # nobody else saw them
        g = table.games()[name]
        assert all(core.is_sealed(g.cards[h]) for h in riders), name
    table.step(1, Action("accept"))
    assert all(not core.is_sealed(table.replicas[1].cards[h]) for h in riders)  # the acceptor's now
    assert all(core.is_sealed(table.replicas[2].cards[h]) for h in riders)
    assert all(core.is_sealed(table.spectator.cards[h]) for h in riders)
    assert table.audit().false_claims == []


def test_blowing_up_a_grenade_while_holding_its_colour_is_refused_at_once_by_everyone():
    """The hand goes face up with the explosion, so "none of that colour" is no claim: it is seen."""
    setup = {"hands": [["R1", "Y5", "B2"], ["G1", "G2"], ["B1", "B3"]], "discard": ["R3"], "draw": [],
             "current": 0}
    t = core.new_game("extended", 3, seed=1, setup=setup, sealed=True)
    lie = Action("explode")
    t.ctx = {"op": "grenade", "who": 0, "by": 2, "color": "yellow"}  # a Grenade reaches seat 0: yellow
    t.phase = "grenade"
    assert lie not in t.legal_actions(0)
    from sealed_table import accepted_lies

    mine = type(t).from_dict(t.to_dict(), source=core.BlindSource())
    assert lie not in accepted_lies(mine, 0)  # it shows the hand: the public sees Y5
    shown = core.sealed.shows(mine, 0, lie, claimed=True)
    assert {c.face for c in shown} == {("red", "1"), ("yellow", "5"), ("blue", "2")}
    for c in shown:
        t.reveal(c.id, c.face)
    with pytest.raises(core.IllegalAction) as e:
        t.follow(0, lie)
    assert not isinstance(e.value, core.FalseClaim)


def test_drawing_until_playable_sealed_is_one_card_at_a_time_each_kept_or_passed_by_a_claim():
    setup = {"hands": [["B1", "B2"], ["G7", "G8"], ["Y1", "Y2"]], "discard": ["R5"],
             "draw": ["G2", "B4", "R3", "G1"]}
    table = Table("classic", 3, 0, {"draw_until_playable": True}, setup=setup)
    t = table.truth
    table.step(0, Action("draw"))
    for face in ("G2", "B4"):  # not playable: the drawer's own game offers only drawing on
        assert str(t.cards[t.drawn]) == face and table.legal(0) == [Action("draw")]
        table.step(0, Action("draw"))
        assert t.claims[-1].words == "the card drawn cannot be played"
        assert table.spectator.claims[-1] == t.claims[-1]
    r3 = t.drawn
    assert str(t.cards[r3]) == "R3" and set(table.legal(0)) == {Action("play", r3), Action("pass")}
    assert core.is_sealed(table.replicas[1].cards[r3])  # nobody else knows it
    table.step(0, Action("pass"))  # kept: "it can be played", the player's word
    assert t.claims[-1].words == "the card drawn can be played" and t.current == 1
    assert [c.decision for c in t.claims] == ["drawn", "drawn", "drawn"]
    assert table.audit().false_claims == []
    # The full-information engine still draws them all in one move, as before.
    g = core.new_game("classic", 3, setup=setup, options={"draw_until_playable": True})
    g.apply(0, Action("draw"))
    assert [str(c) for c in g.hands[0]] == ["B1", "B2", "G2", "B4", "R3"] and g.phase == "drawn"


def test_a_decision_left_with_one_answer_is_named_for_a_local_table_to_make():
    setup = {"hands": [["B1", "B2"], ["G7", "G8"], ["Y1", "Y2"]], "discard": ["R5"], "draw": ["G2", "R3"]}
    g = core.new_game("classic", 3, setup=setup, sealed=True)  # sees every card: a local sealed table
    g.apply(0, Action("draw"))  # G2: it cannot be played, so keeping it is all that is left
    assert g.phase == "drawn" and g.forced_move() == (0, Action("pass"))
    g.apply(*g.forced_move())
    assert g.current == 1 and g.forced_move() is None  # a turn's choice is never made for anyone
    assert core.new_game("classic", 3, setup=setup).forced_move() is None


@pytest.mark.parametrize("hand, kept", [(["YCHOSEN", "WRB", "GCLIP"], None), (["YCHOSEN", "R1", "WRB"], "R1"),
                                        (["YCHOSEN", "R1", "R7"], "a choice")])
def test_the_chosen_one_with_one_answer_is_made_for_its_player(hand: list[str], kept: str | None) -> None:
    """天选之子 sealed: the table asks which number card is kept; with one number card or none
    there is nothing to choose, and the player's own client makes the move (a person's screen
    once showed "keep one number card" to a hand with none, and no card to pick)."""
    g = core.new_game("extended", 3, setup={"hands": [hand, ["G1", "G2"], ["B1", "B2"]], "discard": ["Y5"]},
                      sealed=True)
    g.apply(0, Action("play", next(c.id for c in g.hands[0] if str(c) == "YCHOSEN")))
    assert g.phase == "keep"
    forced = g.forced_move()
    if kept == "a choice":
        assert forced is None
        return
    card = None if kept is None else next(c.id for c in g.hands[0] if str(c) == kept)
    assert forced == (0, Action("keep", card))
    g.apply(*forced)
    assert [str(c) for c in g.hands[0]] == ([] if kept is None else [kept])


def test_cards_a_move_turns_up_do_not_change_what_its_claim_was():
    """Found by the soak (extended, seed 112): a claim that ends the round opens every hand; a
    replica that is shown them while the move goes must still read the claim as the table did,
    before they were turned, or its record of the claim (and its events) would differ."""
    table = Table("extended", 2, 112, None, bots=(1,))
    table.play_round()  # the harness holds every replica's claims and events to the truth's
    assert table.truth.claims and table.audit().false_claims == []


def test_a_sealed_discard_all_is_made_for_its_player_card_by_card_then_its_stop():
    """The order of the discards is the only freedom, and it changes nothing: the player's own
    client makes them (a person at a screen had no key for them)."""
    setup = {"hands": [["RDA", "R1", "B2", "R7", "G3"], ["G7", "G8", "G9"], ["Y1", "Y2", "Y3"]],
             "discard": ["R5"], "draw": ["G1", "G2", "G3"]}
    table = Table("nomercy", 3, 0, None, setup=setup)
    t, mine = table.truth, table.replicas[0]
    hand = {c.face: c.id for c in t.hands[0]}
    assert mine.forced_move() is None  # a turn's choice is the player's own
    table.step(0, Action("play", hand[("red", "DA")]))
    made = []
    while (move := mine.forced_move()) is not None:
        assert move[0] == 0
        made.append(move[1])
        table.step(*move)
    assert sorted(a.card for a in made[:-1]) == sorted([hand[("red", "1")], hand[("red", "7")]])
    assert made[-1] == Action("pass") and t.current == 1
    assert [c.face for c in t.hands[0]] == [("blue", "2"), ("green", "3")]
    assert table.audit().false_claims == []
