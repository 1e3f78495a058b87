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
