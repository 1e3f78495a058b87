"""Jumping in (Diez): a card identical to a pile's top, or a Stop on a power card of its colour,
played out of turn; play then goes on from the jumper (see ``docs/rules/diez.md``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import Action
from ...cards import COLORS
from ...events import Event
from .steps import JUMP_PHASES

if TYPE_CHECKING:
    from .game import DiezGame

POWER = frozenset({"S", "R", "+2", "ST", "TG", "DG", "TK", "TR", "SH", "PR", "CD", "SL", "RV", "SD"})
"""The coloured power cards (a Stop may jump in on one of its colour)."""


def jump_ins(g: DiezGame, p: int) -> list[Action]:
    """The jump-ins ``p`` may make now (``p`` is not the player the game waits on)."""
    if p == g._decider() or g.out[p] or "silence" in g.tokens[p] or g.phase not in JUMP_PHASES:
        return []
    acts = []
    hand = g._seen(g.hands[p])  # a sealed game: the cards it can see (a jump-in shows its card)
    for i, pile in enumerate(g.piles):
        if not g.jump_ok[i] or g.skipped[i] == p:
            continue
        top = pile[-1]
        same = next((c for c in hand if c.face == top.face), None)
        if same is not None:
            acts.append(Action("play", same.id, None, g._pt(i)))
        if top.rank != "ST" and top.color in COLORS and top.rank in POWER:
            stop = next((c for c in hand if c.rank == "ST" and c.color == top.color), None)
            if stop is not None:
                acts.append(Action("play", stop.id, None, g._pt(i)))
    return acts


def jump_in(g: DiezGame, p: int, action: Action, events: list[Event]) -> None:
    """``p`` jumps in: what was pending of the card jumped on is dropped, and ``p`` plays."""
    i = 0 if action.target is None else action.target
    events.append(Event("jump_in", player=p, target=i))
    if g.reversed[i]:
        g.direction = -g.direction  # the Reverse jumped on is cancelled
    d = g._decider()  # the interrupted player: their call announced a play they no longer make
    if len(g.hands[d]) != 1:
        g.declared[d] = False
    g.queue = []
    g.pending = None
    g.drawn = None
    g.current = p
    g.phase = "play"
    g._play(p, g.cards[action.card], i, events, jump=True)
