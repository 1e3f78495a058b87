"""Seats and scripted positions. ``core.new_game(..., setup={...})`` lays out a round in
progress instead of dealing one (every scenario test is built this way); the keys are public
API, and each variant's page under ``docs/rules/`` lists the ones it takes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .cards import COLORS, Card
from .events import Event

if TYPE_CHECKING:
    from .game import Game

Pool = dict[tuple[str | None, str], list[Card]]


def seat_names(players: Any, variant: str, lo: int, hi: int) -> list[str]:
    """The seats' names from a count or a list of names (blank names become "Player n")."""
    if isinstance(players, bool):
        raise ValueError("players must be a count or a list of names")
    if isinstance(players, int):
        count, names = players, None
    elif isinstance(players, (list, tuple)) and all(isinstance(n, str) for n in players):
        count, names = len(players), [n.strip() for n in players]
    else:
        raise ValueError("players must be a count or a list of names")
    if not lo <= count <= hi:
        raise ValueError(f"{variant} is for {lo} to {hi} players, not {count}")
    return [(names[i] if names else "") or f"Player {i + 1}" for i in range(count)]


def card_pool(g: Game) -> Pool:
    """The deck's cards by face, for a setup to take from (what is left stays in it)."""
    pool: Pool = {}
    for card in g.cards:
        pool.setdefault(card.face, []).append(card)
    return pool


def take_card(g: Game, pool: Pool, text: str) -> Card:
    """Take a card named by notation out of ``pool``; each copy can be taken once."""
    face = g.parse(text)
    if not pool.get(face):
        raise ValueError(f"setup names more copies of {text} than the deck holds")
    return pool[face].pop(0)


def begin(g: Game, setup: dict[str, Any], known: set[str]) -> tuple[Pool, Callable[[str], Card]]:
    """Check ``setup``'s keys against ``known``, deal its ``hands`` out of a fresh card pool, and
    return the pool (what is left) and a function that takes a named card out of it."""
    unknown = set(setup) - known
    if unknown:
        raise ValueError(f"unknown setup key(s): {', '.join(sorted(unknown))}")
    pool = card_pool(g)

    def take(text: str) -> Card:
        return take_card(g, pool, text)

    n = g.num_players
    hands = setup.get("hands", [[] for _ in range(n)])
    if len(hands) != n:
        raise ValueError(f"setup 'hands' needs {n} lists, one per player")
    g.hands = [[take(t) for t in hand] for hand in hands]
    return pool, take


def lay_out(g: Game, setup: dict[str, Any]) -> None:
    """Lay out a scripted mid-round position (see :func:`core.new_game`)."""
    pool, take = begin(g, setup, {"hands", "discard", "draw", "current", "direction", "color", "scores",
                                  "dealer"})
    n = g.num_players
    g.discard = [take(t) for t in setup.get("discard", [])]
    named_draw = [take(t) for t in setup.get("draw", [])]
    rest = g._shuffled([c for cards in pool.values() for c in cards])
    if not g.discard:
        # Turn a starting card the way a real deal would accept one.
        starters = [i for i, c in enumerate(rest) if g.accepts_start_card(c)]
        if not starters:
            raise ValueError("setup leaves no card to start the discard pile")
        g.discard.append(rest.pop(starters[-1]))
    # draw_pile pops from the end: named draws last so the first is drawn first.
    g.draw_pile = rest + named_draw[::-1]
    g.dealer = setup.get("dealer", n - 1)
    g.current = setup.get("current", g._next(g.dealer))
    if not (isinstance(g.current, int) and 0 <= g.current < n):
        raise ValueError(f"setup 'current' must be a player from 0 to {n - 1}")
    g.direction = setup.get("direction", 1)
    if g.direction not in (1, -1):
        raise ValueError("setup 'direction' must be 1 or -1")
    top = g.discard[-1]
    g.color = setup.get("color", top.color)
    if top.is_wild and g.color not in COLORS:
        raise ValueError("setup needs a 'color' (red, yellow, green or blue) when the top card is a wild")
    if not top.is_wild and g.color != top.color:
        raise ValueError(f"setup 'color' {g.color!r} does not match the top card {top}")
    if "scores" in setup:
        g.scores = [int(s) for s in setup["scores"]]
    g._deal_events: list[Event] = []
