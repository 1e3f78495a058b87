"""Diez's turn machinery: the step registry, the steps that need no decision, and helpers.

A turn is a queue of *steps* (name a colour, carry out an effect, draw, end the turn), each a
plain dict saved with the game (``op`` names its class, ``who`` the player it belongs to). The
game runs the queue (:meth:`DiezGame._run`); a step that needs a decision waits in a *phase*
named for it. Every kind of step is one class registered in :data:`STEPS`: the decisions in
``decisions.py``, the draws in ``draws.py``, a card's effect in ``effects.py``, and here the
end of a turn and the return to a turn a UNO catch interrupted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...actions import Action
from ...cards import COLORS, Card
from ...decisions import Step, StepState, Steps
from ...events import Event

if TYPE_CHECKING:
    from .game import DiezGame

JUMP_PHASES = frozenset({"play", "drawn", "stack", "color", "sub", "challenge"})
"""Phases in which a jump-in may interrupt (see the rules page)."""
RESTING = frozenset({"play", "drawn", "stack"})
"""Phases with no step waiting: the turn's own (a play or draw, a drawn card, a stack to answer)."""
STOP = Action("stop")
DRAW_TOKEN = Action("draw_token")
REPLACE = Action("replace")
COLOR_ACTS = tuple(Action("color", color=c) for c in COLORS)


class DiezStep(Step["DiezGame"]):
    """A Diez step: by default it waits, in the phase named for it, for its player's decision."""

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        return g._wait(s)


STEPS: Steps[DiezGame] = Steps()
"""Every kind of Diez step, by name."""


def draw_step(who: int, n: int = 0, *, until: str | None = None, forced: bool = False,
              reason: str = "penalty") -> dict[str, Any]:
    """A draw step: ``n`` cards, or with ``until`` cards until that colour comes and then ``n`` more."""
    return {"op": "draw", "who": who, "n": n, "until": until, "forced": forced, "reason": reason,
            "stage": "start", "got": [], "stopped": False, "counted": 0, "double": False, "hex": 0}


def distinct(cards: list[Card]) -> list[Card]:
    """One card per face, the first of each (a choice among identical cards is one choice)."""
    seen: set = set()
    out = []
    for c in cards:
        if c.face not in seen:
            seen.add(c.face)
            out.append(c)
    return out


@STEPS.register
class End(DiezStep):
    """The turn ends: the next player (or the one a card named) takes it; a black last card draws 2."""

    op = "end"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        p = s["who"]
        if s.get("play") and not g.hands[p] and not s.get("drew"):
            # A black card played as the last card (or a Flush that emptied the hand): draw 2.
            s["drew"] = True
            events.append(Event("last_black", player=p))
            g.queue.insert(0, draw_step(p, 2, reason="last"))
            return False
        g.queue.pop(0)
        if len(g.hands[p]) != 1:
            g.declared[p] = False
        g.current = g._next(p) if s["to"] is None else s["to"]
        g.phase = s["phase"]
        g.drawn = None
        if g.phase != "stack":
            g.pending = None
        return False


@STEPS.register
class Resume(DiezStep):
    """Back to the turn a UNO catch's draw interrupted."""

    op = "resume"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        g.queue.pop(0)
        g.current, g.phase, g.drawn = s["who"], s["phase"], s["drawn"]
        return False


def searchable(g: DiezGame, s: StepState) -> list[Card]:
    """What a search (Revive, Ace) may take: one card per face, the draw pile's or a pile's."""
    if s["where"] == "draw":
        return g._distinct(g.draw_pile[::-1])  # sealed: shown to the searcher alone (Search)
    if g._slots is not None:
        from .sealed import revivable  # (sealed imports this module)

        return revivable(g, s)
    pile = g.piles[s["where"]]
    return distinct([c for c in pile[:-1][::-1] if c.color is not None])
