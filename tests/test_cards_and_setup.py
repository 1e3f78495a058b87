"""The deck, card notation, and the arguments of ``core.new_game``.

Covers: deck composition and ids, notation round-trip and parse errors,
player/option/setup validation (messages name the culprit), scripted setups
(hands, discard, draw order, current, direction, colour) and seed determinism.
"""

from __future__ import annotations

from collections import Counter

import msgpack
import pytest

import core
from core import Action

COLOR_LETTER = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
SUIT_RANKS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"]


def notations(cards) -> list[str]:
    return [str(c) for c in cards]


def all_ids(g) -> list[int]:
    d = g.to_dict()
    return [i for h in d["hands"] for i in h] + d["draw_pile"] + d["discard"]


# -- the deck -----------------------------------------------------------------------


def test_classic_is_a_registered_variant():
    assert "classic" in core.VARIANTS
    assert isinstance(core.VARIANTS, tuple)


def test_classic_deck_has_108_cards_with_unique_ids():
    deck = core.deck("classic")
    assert len(deck) == 108
    ids = [c.id for c in deck]
    assert len(set(ids)) == 108
    assert all(isinstance(c, core.Card) for c in deck)


def test_classic_deck_composition():
    deck = core.deck("classic")
    faces = Counter((c.color, c.rank) for c in deck)
    expected: Counter = Counter()
    for color in core.COLORS:
        expected[(color, "0")] = 1
        for rank in SUIT_RANKS[1:]:
            expected[(color, rank)] = 2
    expected[(None, "W")] = 4
    expected[(None, "W+4")] = 4
    assert faces == expected
    # 25 of each colour, 8 black cards.
    by_color = Counter(c.color for c in deck)
    assert by_color == {"red": 25, "yellow": 25, "green": 25, "blue": 25, None: 8}
    assert set(core.COLORS) == {"red", "yellow", "green", "blue"}


def test_deck_is_the_games_deck():
    """A game holds exactly the cards of ``core.deck`` (same ids, same faces)."""
    deck = {c.id: (c.color, c.rank) for c in core.deck("classic")}
    g = core.new_game("classic", 4, seed=3)
    seen = {}
    for p in range(4):
        for c in g.hand(p):
            seen[c.id] = (c.color, c.rank)
    for c in g.discard:
        seen[c.id] = (c.color, c.rank)
    assert len(seen) == 4 * 7 + len(g.discard)
    for i, face in seen.items():
        assert deck[i] == face
    assert sorted(all_ids(g)) == sorted(deck)


def test_deck_rejects_unknown_arguments_and_variants():
    with pytest.raises(ValueError):
        core.deck("classic", colour="red")
    with pytest.raises(ValueError, match="nosuchvariant"):
        core.deck("nosuchvariant")


# -- notation -----------------------------------------------------------------------


def test_card_notation_for_every_face():
    deck = core.deck("classic")
    got = Counter(str(c) for c in deck)
    expected: Counter = Counter()
    for color in core.COLORS:
        for rank in SUIT_RANKS:
            expected[COLOR_LETTER[color] + rank] = 1 if rank == "0" else 2
    expected["W"] = 4
    expected["W+4"] = 4
    assert got == expected
    # spot checks of the exact spelling
    spelled = set(got)
    for text in ("R0", "Y9", "GS", "BR", "R+2", "B+2", "W", "W+4"):
        assert text in spelled
    for c in deck:
        assert c.notation == str(c)


@pytest.mark.parametrize("card", core.deck("classic"), ids=lambda c: f"{c.id}-{c}")
def test_notation_round_trips(card):
    assert core.parse_card(str(card)) == (card.color, card.rank)


@pytest.mark.parametrize(
    "text, face",
    [
        ("R7", ("red", "7")),
        ("r7", ("red", "7")),
        (" y0 ", ("yellow", "0")),
        ("gs", ("green", "S")),
        ("BR", ("blue", "R")),
        ("b+2", ("blue", "+2")),
        ("W", (None, "W")),
        ("w", (None, "W")),
        ("W+4", (None, "W+4")),
        ("w+4", (None, "W+4")),
    ],
)
def test_parse_card_accepts_notation(text, face):
    assert core.parse_card(text) == face


@pytest.mark.parametrize("text", ["", "   ", "7", "X7", "R", "+2", "S", "Q+4", "P1"])
def test_parse_card_rejects_junk(text):
    with pytest.raises(core.InvalidCard) as ei:
        core.parse_card(text)
    assert isinstance(ei.value, ValueError)
    assert str(ei.value)  # a readable message


def test_card_dict_round_trip_and_names():
    for c in core.deck("classic"):
        d = c.to_dict()
        assert d == {"id": c.id, "color": c.color, "rank": c.rank}
        assert core.Card.from_dict(msgpack.unpackb(msgpack.packb(d))) == c
    deck = core.deck("classic")
    by_note = {str(c): c for c in deck}
    assert by_note["R7"].name == "red 7"
    assert by_note["B+2"].name == "blue Draw Two"
    assert by_note["W+4"].name == "Wild Draw Four"
    assert by_note["W"].is_wild and not by_note["R7"].is_wild


# -- new_game arguments -------------------------------------------------------------


@pytest.mark.parametrize("n", range(2, 11))
def test_player_counts_two_to_ten(n):
    g = core.new_game("classic", n, seed=1)
    assert g.num_players == n
    assert all(len(g.hand(p)) >= 7 for p in range(n))


def test_players_as_names():
    g = core.new_game("classic", ["Ann", "Bob", "Cid"], seed=1)
    assert g.num_players == 3
    assert g.names == ["Ann", "Bob", "Cid"]
    g2 = core.new_game("classic", ("Ann", "Bob"), seed=1)
    assert g2.num_players == 2


@pytest.mark.parametrize(
    "players",
    [0, 1, 11, 100, -2, True, False, 2.0, "4", "Ann", None, ["Ann"], ["p"] * 11, [1, 2], ["Ann", 2],
     {"Ann": 1, "Bob": 2}],
    ids=repr,
)
def test_bad_players_raise_value_error(players):
    with pytest.raises(ValueError):
        core.new_game("classic", players, seed=1)


def test_unknown_variant_raises():
    with pytest.raises(ValueError, match="nope"):
        core.new_game("nope", 4, seed=1)


def test_option_defaults():
    house = {"stacking": "none", "seven_o": False, "jump_in": False, "force_play": False, "no_bluff": False}
    g = core.new_game("classic", 4, seed=1)
    assert g.options == {"draw_until_playable": False, "target_score": 500, "uno_penalty": 2, **house}
    g = core.new_game("classic", 4, seed=1, options={"draw_until_playable": True, "target_score": 100,
                                                      "uno_penalty": 4})
    assert g.options == {"draw_until_playable": True, "target_score": 100, "uno_penalty": 4, **house}


@pytest.mark.parametrize(
    "options, name",
    [
        ({"stacking": True}, "stacking"),
        ({"draw_until_playable": False, "jump_ins": True}, "jump_ins"),
        ({"draw_until_playable": "yes"}, "draw_until_playable"),
        ({"draw_until_playable": 1}, "draw_until_playable"),
        ({"draw_until_playable": None}, "draw_until_playable"),
        ({"target_score": "500"}, "target_score"),
        ({"target_score": 500.0}, "target_score"),
        ({"target_score": True}, "target_score"),
        ({"target_score": 0}, "target_score"),
        ({"target_score": -100}, "target_score"),
        ({"uno_penalty": -1}, "uno_penalty"),
        ({"uno_penalty": 2.5}, "uno_penalty"),
        ({"uno_penalty": "2"}, "uno_penalty"),
        ({"uno_penalty": False}, "uno_penalty"),
    ],
    ids=repr,
)
def test_bad_options_raise_naming_the_option(options, name):
    with pytest.raises(ValueError) as ei:
        core.new_game("classic", 4, seed=1, options=options)
    assert name in str(ei.value)


def test_options_must_be_a_mapping():
    with pytest.raises(ValueError):
        core.new_game("classic", 4, seed=1, options=[("target_score", 100)])


# -- setup -------------------------------------------------------------------------


def test_setup_lays_out_the_named_position():
    g = core.new_game(
        "classic", 3, seed=5,
        setup={
            "hands": [["R1", "R2"], ["B3"], ["G4", "W", "W+4"]],
            "discard": ["Y5", "R7"],
            "draw": ["G9", "B0", "Y1"],
            "current": 1,
            "direction": -1,
        },
    )
    assert notations(g.hand(0)) == ["R1", "R2"]
    assert notations(g.hand(1)) == ["B3"]
    assert notations(g.hand(2)) == ["G4", "W", "W+4"]
    assert notations(g.discard) == ["Y5", "R7"]
    assert str(g.top) == "R7"
    assert g.color == "red"
    assert g.current == 1
    assert g.direction == -1
    assert g.draw_count == 108 - 6 - 2
    assert sorted(all_ids(g)) == list(range(108))
    assert g.to_act() == [1]
    # The named draw cards come first, in order: player 1 draws G9 (no match) ...
    g.apply(1, Action("draw"))
    assert notations(g.hand(1)) == ["B3", "G9"]
    assert g.current == 0  # direction -1
    # ... then player 0 draws B0, then player 2 draws Y1.
    g.apply(0, Action("draw"))
    assert notations(g.hand(0)) == ["R1", "R2", "B0"]
    assert g.current == 2
    g.apply(2, Action("draw"))
    assert notations(g.hand(2)) == ["G4", "W", "W+4", "Y1"]


def test_setup_defaults_player_zero_direction_one():
    g = core.new_game("classic", 4, seed=2, setup={"hands": [["R1"], ["R2"], ["R3"], ["R4"]], "discard": ["R5"]})
    assert g.current == 0
    assert g.direction == 1
    assert g.color == "red"
    assert g.draw_count == 108 - 5
    assert g.deal_events == []


def test_setup_takes_the_named_cards_out_of_the_deck():
    """Only one R0 exists: naming it leaves none elsewhere; the 4 wilds named leave none to draw."""
    g = core.new_game("classic", 2, seed=9, setup={"hands": [["R0", "W", "W"], ["W", "W"]], "discard": ["G5"]})
    d = g.to_dict()
    faces = Counter(str(g.card(i)) for i in d["draw_pile"])
    assert faces["R0"] == 0
    assert faces["W"] == 0
    assert faces["G5"] == 1
    assert faces["W+4"] == 4
    assert sum(faces.values()) == 108 - 6
    assert len(set(all_ids(g))) == 108


@pytest.mark.parametrize(
    "setup",
    [
        {"hands": [["R0", "R0"], []], "discard": ["G1"]},
        {"hands": [["W", "W", "W"], ["W", "W"]], "discard": ["G1"]},
        {"hands": [["W+4", "W+4"], ["W+4"]], "discard": ["W+4", "W+4"], "color": "red"},
        {"hands": [["R5"], ["R5"]], "discard": ["R5"]},
        {"hands": [["B+2"], []], "discard": ["B+2"], "draw": ["B+2"]},
    ],
    ids=["R0 twice", "5 wilds", "5 W+4 in hands and discard", "3 R5", "3 B+2 across hand, discard, draw"],
)
def test_setup_more_copies_than_the_deck_holds(setup):
    with pytest.raises(ValueError):
        core.new_game("classic", 2, seed=1, setup=setup)


@pytest.mark.parametrize("top", ["W", "W+4"])
def test_setup_wild_top_needs_a_colour(top):
    with pytest.raises(ValueError) as ei:
        core.new_game("classic", 2, seed=1, setup={"hands": [["R1"], ["B2"]], "discard": ["G3", top]})
    assert "color" in str(ei.value).lower() or "colour" in str(ei.value).lower()
    with pytest.raises(ValueError):
        core.new_game("classic", 2, seed=1,
                      setup={"hands": [["R1"], ["B2"]], "discard": ["G3", top], "color": "purple"})
    g = core.new_game("classic", 2, seed=1,
                      setup={"hands": [["R1"], ["B2"]], "discard": ["G3", top], "color": "blue"})
    assert g.color == "blue"
    assert str(g.top) == top


@pytest.mark.parametrize(
    "setup",
    [
        {"hands": [["R1"], ["X9"]], "discard": ["G3"]},
        {"hands": [["R1"], ["R10"]], "discard": ["G3"]},
        {"hands": [["R1"], ["B2"]], "discard": ["Q"]},
        {"hands": [["R1"], ["B2"]], "discard": ["G3"], "draw": ["W+2"]},
        {"hands": [["R1"], ["B2"], ["G2"]], "discard": ["G3"]},  # three hands for two players
        {"hands": [["R1"]], "discard": ["G3"]},
        {"hands": [["R1"], ["B2"]], "discard": ["G3"], "current": 2},
        {"hands": [["R1"], ["B2"]], "discard": ["G3"], "current": -1},
        {"hands": [["R1"], ["B2"]], "discard": ["G3"], "direction": 0},
        {"hands": [["R1"], ["B2"]], "discard": ["G3"], "direction": 2},
        {"hands": [["R1"], ["B2"]], "discard": ["G3"], "banana": 1},
        {"hands": [["R1"], ["B2"]], "discard": ["G3"], "color": "purple"},
    ],
    ids=["bad colour letter", "bad rank", "bad discard", "bad draw", "3 hands", "1 hand", "current 2",
         "current -1", "direction 0", "direction 2", "unknown key", "colour purple on a G3"],
)
def test_setup_errors(setup):
    with pytest.raises(ValueError):
        core.new_game("classic", 2, seed=1, setup=setup)


@pytest.mark.parametrize("top", ["RS", "RR", "R+2", "R5"])
def test_setup_applies_no_starting_card_effect(top):
    g = core.new_game("classic", 3, seed=4, setup={"hands": [["B1", "B2"], ["B3", "B4"], ["B5", "B6"]],
                                                  "discard": [top]})
    assert g.current == 0
    assert g.direction == 1
    assert [len(g.hand(p)) for p in range(3)] == [2, 2, 2]
    assert g.draw_count == 108 - 7
    assert g.color == "red"
    assert g.phase == "play"


def test_setup_unnamed_cards_follow_the_seed():
    setup = {"hands": [["R1", "R2"], ["B3"]], "discard": ["G4"], "draw": ["Y7", "Y8"]}
    a = core.new_game("classic", 2, seed=11, setup=setup)
    b = core.new_game("classic", 2, seed=11, setup=setup)
    c = core.new_game("classic", 2, seed=12, setup=setup)
    assert a.to_dict() == b.to_dict()
    da, dc = a.to_dict()["draw_pile"], c.to_dict()["draw_pile"]
    assert sorted(da) == sorted(dc)
    # The named cards are on top either way (drawn first) ...
    assert [str(a.card(i)) for i in da[-2:]] == ["Y8", "Y7"]
    assert [str(c.card(i)) for i in dc[-2:]] == ["Y8", "Y7"]
    # ... and the rest below them in an order that depends on the seed.
    assert da[:-2] != dc[:-2]


def test_setup_without_discard_never_starts_on_a_wild():
    """Leaving out 'discard' turns a top card from the rest; like a real start it is never a
    wild (a wild top would need a colour nobody named)."""
    failures = []
    for seed in range(60):
        try:
            g = core.new_game("classic", 2, seed=seed, setup={"hands": [["R1"], ["B2"]]})
        except ValueError as e:
            failures.append((seed, str(e)))
            continue
        assert not g.top.is_wild
        assert g.color in core.COLORS
    assert failures == [], f"setup without 'discard' failed for seeds {failures[:5]}"


# -- seeds -------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 12345, "table-7", b"\x00\x01bytes"], ids=repr)
@pytest.mark.parametrize("n", [2, 4, 10])
def test_same_seed_same_game(seed, n):
    a = core.new_game("classic", n, seed=seed)
    b = core.new_game("classic", n, seed=seed)
    assert a.to_dict() == b.to_dict()
    assert [notations(a.hand(p)) for p in range(n)] == [notations(b.hand(p)) for p in range(n)]
    assert a.deal_events == b.deal_events


def test_same_seed_same_game_after_the_same_moves():
    a = core.new_game("classic", 4, seed=77)
    b = core.new_game("classic", 4, seed=77)
    for _ in range(60):
        if a.over:
            break
        p = a.to_act()[0]
        act = a.legal_actions(p)[-1]  # draws often, so the pile and reshuffles are exercised
        assert act in b.legal_actions(p)
        assert a.apply(p, act) == b.apply(p, act)
        assert a.to_dict() == b.to_dict()


def test_different_seeds_different_games():
    dicts = [core.new_game("classic", 4, seed=s).to_dict() for s in range(20)]
    piles = {tuple(d["draw_pile"]) for d in dicts}
    assert len(piles) == 20
    hands = {tuple(map(tuple, d["hands"])) for d in dicts}
    assert len(hands) == 20
    assert core.new_game("classic", 4, seed="a").to_dict()["hands"] != \
        core.new_game("classic", 4, seed="b").to_dict()["hands"]


def test_no_seed_gives_fresh_games_that_record_their_seed():
    a = core.new_game("classic", 4)
    b = core.new_game("classic", 4)
    assert a.to_dict()["hands"] != b.to_dict()["hands"]
    # The recorded seed replays the game.
    again = core.new_game("classic", 4, seed=a.seed)
    assert again.to_dict()["hands"] == a.to_dict()["hands"]
    assert again.to_dict()["draw_pile"] == a.to_dict()["draw_pile"]
