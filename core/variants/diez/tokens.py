"""Diez's token rules: who may be given a token, drawing one from the bag, losing one, and the
token effects other rules ask about (a Mirror turning a card back, the White token).

Tokens are public: a player's tokens are in :attr:`DiezGame.tokens`, the bag in
:attr:`DiezGame.bag`. A token drawn from the bag is a chance node over the bag's names
(public tokens, see :mod:`core.source`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...events import Event
from .cards import TOKEN_LIMIT, WHITE, token_order

if TYPE_CHECKING:
    from .game import DiezGame


def in_play(g: DiezGame) -> set[str]:
    """The token kinds anyone holds (a Proc may use any of them)."""
    return {k for toks in g.tokens for k in toks}


def kinds(g: DiezGame, q: int) -> list[str]:
    """The kinds ``q`` holds, each once, in the bag's order."""
    return sorted(set(g.tokens[q]), key=token_order)


def recipients(g: DiezGame, giver: int) -> list[int]:
    """Who may be given a token: anyone else with room and no Block; only if nobody can, the giver."""
    others = [q for q in g.active if q != giver and len(g.tokens[q]) < TOKEN_LIMIT
              and "block" not in g.tokens[q]]
    if others:
        return others
    return [giver] if len(g.tokens[giver]) < TOKEN_LIMIT else []


def draw_token(g: DiezGame) -> str:
    """A token from the bag, at random (a chance node over the bag's names)."""
    bag = sorted(g.bag, key=token_order)
    kind = g._chance(bag)[-1]
    g.bag.remove(kind)
    return kind


def give(g: DiezGame, p: int, q: int, kind: str, events: list[Event]) -> None:
    g.tokens[q].append(kind)
    events.append(Event("token_give", player=p, target=q, reason=kind))


def lose(g: DiezGame, q: int, kind: str, events: list[Event], why: str = "remove", by: int | None = None) -> None:
    g.tokens[q].remove(kind)
    g.bag.append(kind)
    if why == "trigger":
        events.append(Event("token_trigger", player=q, target=by, reason=kind))
    else:
        events.append(Event("token_remove", player=by, target=q, reason=kind))


def mirror(g: DiezGame, victim: int, p: int, events: list[Event]) -> bool:
    """A Mirror on ``victim`` turns an effect of ``p``'s card back on ``p``.

    A Mirror armed by a Proc goes first (it cannot be taken away, the token can). The
    card turned back is ``p``'s own, so the draws it causes are not "forced" ones.
    """
    if victim == p:
        return False
    if g.armed[victim]:
        g.armed[victim] = False
        events.append(Event("mirror_used", player=victim, target=p))
        return True
    if "mirror" in g.tokens[victim]:
        lose(g, victim, "mirror", events, "trigger", by=p)
        return True
    return False


def white(g: DiezGame, q: int, events: list[Event]) -> bool:
    """The topmost White card of the draw pile goes to ``q``; False if there is none."""
    for j in range(len(g.draw_pile) - 1, -1, -1):
        if g.draw_pile[j].color == WHITE:
            card = g.draw_pile.pop(j)
            g._give(q, [card], "white", events)
            return True
    return False
