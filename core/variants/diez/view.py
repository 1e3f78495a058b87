"""What a Diez table shows: its keys in the public view and in a player's own (see
``core/observation.py`` for the shared part and :class:`core.observation.DiezObservation` for the keys)."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from .cards import token_order
from .steps import RESTING

if TYPE_CHECKING:
    from .game import DiezGame


def public_pending(g: DiezGame) -> dict[str, Any] | None:
    """The pending draw stack as everyone sees it (whether it was a bluff is the engine's alone)."""
    if g.pending is None:
        return None
    return {k: v for k, v in g.pending.items() if k != "bluff"}


def observe_public(g: DiezGame, obs: dict[str, Any]) -> None:
    """Diez's keys in the view everyone sees: the piles' tops, the tokens, an open hand, the step."""
    if not g.over:
        # "current" keeps naming the player a step waits on, as the screens read it; "whose_turn"
        # is whose turn it is (Game.current) and "decision" says who decides what.
        obs["whose_turn"] = g.current
        obs["current"] = g._decider()
    obs["discard"] = [g.discard[-1].to_dict()] if g.discard else []
    obs["piles"] = [{"top": pile[-1].to_dict() if pile else None, "count": len(pile), "color": g.colors[i],
                     "jump": g.jump_ok[i]} for i, pile in enumerate(g.piles)]
    obs["focus"] = g.focus
    obs["tokens"] = [sorted(t, key=token_order) for t in g.tokens]
    obs["bag_count"] = len(g.bag)
    for q, pl in enumerate(obs["players"]):
        pl["tokens"] = obs["tokens"][q]
        pl["revealed"] = "reveal" in g.tokens[q]
        pl["mirror_armed"] = g.armed[q]
        if pl["revealed"]:
            pl["hand"] = [c.to_dict() for c in g.hands[q]]
    step = step_now(g)
    obs["step"] = None if step is None else copy.deepcopy({  # a snapshot: the queue's steps change in place
        k: v for k, v in step.items()
        if k in ("op", "who", "asks", "pile", "token", "card", "by", "mode", "color", "holder", "to", "stack",
                 "effect", "holders", "where")})


def step_now(g: DiezGame) -> dict[str, Any] | None:
    """The step the game waits on, if any."""
    return g.queue[0] if g.queue and g.phase not in RESTING else None


def observe_private(g: DiezGame, obs: dict[str, Any], me: int | None) -> None:
    """A searcher's own view of the pile it searches (sorted by id: not even it learns the order)."""
    step = step_now(g)
    if step is not None and step["op"] == "search" and me == step["who"]:
        where = step["where"]
        cards = g.draw_pile if where == "draw" else g.piles[where][:-1]
        obs["search"] = [c.to_dict() for c in sorted(cards, key=lambda c: c.id)]
