"""Helpers shared by the rules tests: scripted positions, card lookups, and the
checks every illegal move and every position must pass."""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

import core
from core import Action, IllegalAction


def make(variant: str, n: int, hands: list[list[str]], discard: list[str], draw: Any = (), *,
         seed: int = 0, options: dict[str, Any] | None = None, **extra: Any) -> core.Game:
    """A scripted mid-round position of ``variant`` (see ``core.new_game``'s ``setup``)."""
    setup = {"hands": hands, "discard": discard, "draw": list(draw), **extra}
    return core.new_game(variant, n, seed=seed, options=options, setup=setup)


def notes(cards: Any) -> list[str]:
    return [str(c) for c in cards]


def hand(g: core.Game, p: int) -> list[str]:
    return notes(g.hand(p))


def cid(g: core.Game, p: int, text: str) -> int:
    """The id of the first card ``text`` in p's hand."""
    for c in g.hand(p):
        if str(c) == text:
            return c.id
    raise AssertionError(f"player {p} holds no {text}: {hand(g, p)}")


def play(g: core.Game, p: int, text: str, color: str | None = None, target: int | None = None):
    return g.apply(p, Action("play", cid(g, p, text), color, target))


def all_ids(g: core.Game) -> list[int]:
    """Every card id in a shedding game, wherever it lies (set-aside hands included)."""
    d = g.to_dict()
    return [i for h in d["hands"] for i in h] + d["draw_pile"] + d["discard"] + d["set_aside"]


def assert_conserved(g: core.Game) -> None:
    ids, size = all_ids(g), len(g.cards)
    assert len(ids) == size and set(ids) == set(range(size))
    assert_sound(g)


def assert_sound(g: core.Game) -> None:
    """The variant's own invariants hold (every card in one place, and what the variant adds)."""
    problems = g.inconsistencies()
    assert not problems, f"{g.variant}: {problems}"


def assert_illegal(g: core.Game, p: int, action: Any, *words: str) -> str:
    """``action`` raises IllegalAction (a ValueError) naming ``words``; nothing changes."""
    before = g.to_dict()
    obs_before = [g.observation(q) for q in range(g.num_players)]
    with pytest.raises(IllegalAction) as ei:
        g.apply(p, action)
    msg = str(ei.value)
    assert isinstance(ei.value, ValueError)
    assert len(msg) > 10, msg
    for w in words:
        assert w.lower() in msg.lower(), f"{w!r} not in message {msg!r}"
    assert g.to_dict() == before
    assert [g.observation(q) for q in range(g.num_players)] == obs_before
    return msg


def round_trip_continue(g, rng, steps=12) -> list:
    """Save, restore through msgpack, continue both copies identically; return the events."""
    d = g.to_dict()
    h = core.Game.from_dict(msgpack.unpackb(msgpack.packb(d)))
    assert h.to_dict() == d
    out = []
    for _ in range(steps):
        if g.over:
            break
        assert h.to_act() == g.to_act()
        p = rng.choice(g.to_act())
        a = rng.choice(g.legal_actions(p))
        events = g.apply(p, a)
        assert h.apply(p, a) == events
        assert h.to_dict() == g.to_dict()
        out.append(events)
    for q in [None, *range(g.num_players)]:
        assert h.observation(q) == g.observation(q)
    return out


def card_ids_in(obj: Any, out: set) -> set:
    """Every card id anywhere in an observation: card dicts, and ``card``/``drawn`` fields."""
    stack = [obj]
    containers = (dict, list, tuple)
    while stack:
        o = stack.pop()
        if type(o) is dict:
            if "id" in o and "rank" in o:
                out.add(o["id"])
            for k, v in o.items():
                if type(v) in containers:
                    stack.append(v)
                elif k in ("card", "drawn") and type(v) is int:
                    out.add(v)
        else:
            stack.extend(v for v in o if type(v) in containers)
    return out


def seen_cards(g: core.Game, p: int | None, d: dict[str, Any]) -> tuple[dict[str, Any], set]:
    """``p``'s observation, checked to survive msgpack and to show no card ``p`` may not see.

    ``d`` is ``g.to_dict()``. Returns the observation and the card ids it shows.
    """
    obs = g.observation(p)
    assert msgpack.unpackb(msgpack.packb(obs)) == obs, "observation does not survive msgpack"
    seen = card_ids_in(obs, set())
    allowed = set(d["discard"])
    if g.over:
        allowed |= {i for h in d["hands"] for i in h}
    elif p is not None:
        allowed |= set(d["hands"][p])
    assert seen <= allowed, f"player {p} sees cards {seen - allowed}"
    return obs, seen


def random_unlisted(g: core.Game, rng: Any, deck_size: int = 108, extra: tuple[str, ...] = ()) -> tuple[int, Action]:
    """A (player, action) that legal_actions does not list: plays, draws, calls, and ``extra`` kinds."""
    n = g.num_players
    while True:
        p = rng.randrange(n)
        kind = rng.choice(("play", "draw", "pass", "uno", "catch", "challenge") + extra)
        if kind == "play":
            a = Action("play", rng.randrange(deck_size), rng.choice((None,) + core.COLORS),
                       rng.choice((None, None, rng.randrange(n))))
        elif kind == "catch":
            a = Action("catch", target=rng.randrange(n))
        elif kind == "choose":
            a = Action("choose", color=rng.choice(core.COLORS))
        else:
            a = Action(kind)
        if a not in g.legal_actions(p):
            return p, a


# -- hiding: no event shows a card its viewer may not see --------------------------------------

SHOWINGS: dict[str, set[tuple[str, str | None]]] = {
    # A starting card that may not start is turned face up before it goes back ("return").
    "*": {("return", None), ("return", "aside")},
    # A challenged Wild Draw Four: the hand is shown to the challenger (and only to them).
    "classic": {("show_hand", None)},
    # Color Roulette: "debe dar vuelta cartas del mazo de una en una" (turned face up as they come).
    "nomercy": {("draw", "roulette")},
    # The challenged hand (to the challenger) and Reveal's Proc ("showing the whole table").
    "diez": {("show_hand", None), ("reveal", None)},
}
"""Events whose purpose is to show cards to the players in their ``visible_to`` (everyone when
``None``), by the rules; every other event may show a player only what the table lets them see."""


def viewers(g: core.Game) -> list[int | None]:
    return [None, *range(g.num_players)]


def hidden_cards(g: core.Game) -> set[int]:
    """Cards in hidden places: hands, the draw pile, set aside, riding face down (extended)."""
    out = {c.id for h in g.hands for c in h} | {c.id for c in g.draw_pile} | {c.id for c in g.set_aside}
    riders = getattr(g, "riders", None)
    if riders is not None:
        out |= {c.id for c in riders()}
    return out


def seen_by_all(g: core.Game) -> dict[int | None, set]:
    """The card ids each viewer's observation shows."""
    return {q: card_ids_in(g.observation(q), set()) for q in viewers(g)}


def check_event_hiding(g: core.Game, events: list, before: dict[int | None, set]) -> None:
    """Every event of one move, as each viewer gets it (``Event.view``), shows only cards that
    viewer saw before the move, or may see after it, or that the rules show on purpose.

    ``before`` is :func:`seen_by_all` taken before the move. Two things legitimately hide a
    card again within one move: a reshuffle (a card shown face up on the pile goes into the
    draw pile, and may be drawn at once) and a knock-out (the player's own drawn cards are set
    aside); they are allowed for the cards they concern.
    """
    after = seen_by_all(g)
    hidden = hidden_cards(g)
    pile = {c.id for c in g.draw_pile}
    aside = {c.id for c in g.set_aside}
    showings = SHOWINGS["*"] | SHOWINGS.get(g.variant, set())
    for i, e in enumerate(events):
        who = g.names[e.player] if e.player is not None else ""
        assert core.describe(e.view(None), g.names, g.variant) != f"{e.kind} {who}".strip() + ".", \
            f"{g.variant} has no words for its {e.kind} events"
        rest = events[i + 1:]
        excused: set = set()
        if e.visible_to is None:
            k = next((j for j, x in enumerate(rest) if x.kind == "reshuffle"), None)
            if k is not None:
                excused = pile | {c.id for x in rest[k:] if x.kind == "draw" for c in x.cards}
        for q in viewers(g):
            shown = {c.id for c in e.view(q).cards}
            if not shown:
                continue
            if (e.kind, e.reason) in showings and (e.visible_to is None or q in e.visible_to):
                continue
            ok = before[q] | excused
            if q is not None and any(x.kind == "knockout" and x.player == q for x in rest):
                ok |= aside
            leaked = (shown & (hidden - after[q])) - ok
            assert not leaked, (f"{g.variant}: event {e.kind} ({e.reason}) shows "
                                f"{[str(g.card(i)) for i in leaked]} to {'a spectator' if q is None else q}")


def apply_checked(g: core.Game, p: int, action: Action, kinds: set | None = None) -> list:
    """``g.apply`` with :func:`check_event_hiding` on its events; their kinds go into ``kinds``."""
    before = seen_by_all(g)
    events = g.apply(p, action)
    check_event_hiding(g, events, before)
    if kinds is not None:
        kinds.update(e.kind for e in events)
    return events


def next_round_checked(g: core.Game, kinds: set | None = None) -> list:
    before = seen_by_all(g)
    events = g.next_round()
    check_event_hiding(g, events, before)
    if kinds is not None:
        kinds.update(e.kind for e in events)
    return events
