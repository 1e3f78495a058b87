"""Drawing in Diez: a turn's draw (one card, or a natural draw until a playable card), and a
forced or uncategorized draw with what tokens do to it (Double, Hex, Ace, White, Magnet) and
the Needle that may stop it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import Action
from ...cards import Card
from ...decisions import StepState
from ...events import Event
from . import sealed, tokens
from .steps import STEPS, DiezStep

if TYPE_CHECKING:
    from .game import DiezGame


def turn_draw(g: DiezGame, p: int, events: list[Event]) -> None:
    """``p`` draws on their turn: one card if they hold a playable one, else until one comes."""
    if g._slots is not None:
        sealed.turn_draw(g, p, events)
        return
    if g._plays(p, g.hands[p]):
        # Holding a playable card: one card, played or kept if it can be, else kept.
        c = g._draw_one(events)
        if c is None:
            events.append(Event("empty", player=p))
            g._pass_turn(p)
            return
        g._give(p, [c], "turn", events)
        if g._plays(p, [c]):
            g.phase, g.drawn = "drawn", c.id
        else:
            g._pass_turn(p)
        return
    g.queue = [{"op": "natural", "who": p, "extra": 0, "bomb": None, "stopped": False}]
    g._run(events)


@STEPS.register
class Natural(DiezStep):
    """A natural draw: until a playable card comes (a Bomb draws 3 more; a Needle may stop it)."""

    op = "natural"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        p = s["who"]
        while True:
            if s["stopped"]:
                s["extra"] = 0
                if s["bomb"] is None:
                    g.queue.pop(0)
                    g._pass_turn(p)
                    return False
            if s["extra"] > 0:
                c = g._draw_one(events)
                if c is None:
                    s["extra"] = 0
                    continue
                s["extra"] -= 1
                g._give(p, [c], "bomb", events)
                if c.rank == "N" and s["extra"] > 0:
                    g.queue.insert(0, {"op": "needle", "who": p})
                    return False
                continue
            if s["bomb"] is not None:
                g.queue.pop(0)
                g.phase, g.drawn, g.current = "drawn", s["bomb"], p
                return False
            c = g._draw_one(events)
            if c is None:
                g.queue.pop(0)
                events.append(Event("empty", player=p))
                g._pass_turn(p)
                return False
            g._give(p, [c], "turn", events)
            if c.rank == "WB":
                events.append(Event("bomb", player=p))
                s["bomb"], s["extra"] = c.id, 3
                continue
            if g._plays(p, [c]):
                g.queue.pop(0)
                g.phase, g.drawn, g.current = "drawn", c.id, p
                return False
            if c.rank == "N":
                g.queue.insert(0, {"op": "needle", "who": p})
                return False


@STEPS.register
class Draw(DiezStep):
    """A draw of ``n`` cards (or until a colour, then ``n``); forced draws meet the tokens."""

    op = "draw"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        q = s["who"]
        toks = g.tokens[q]
        if s["stage"] == "start":
            s["stage"] = "ace"
            if s["forced"]:
                if "double" in toks:
                    tokens.lose(g, q, "double", events, "trigger")
                    if s["until"] is None:
                        s["n"] *= 2
                    else:
                        s["double"] = True
                hexes = toks.count("hex")
                if hexes:
                    events.append(Event("token_effect", player=q, reason="hex", count=hexes))
                    if s["until"] is None:
                        s["n"] += hexes
                    else:
                        s["hex"] = hexes
        if s["stage"] == "ace":
            s["stage"] = "white"
            if s["forced"] and s["until"] is None and s["n"] >= 1 and "ace" in toks and g.draw_pile:
                g.queue.insert(0, {"op": "search", "who": q, "where": "draw", "ace": True})
                return False
        if s["stage"] == "white":
            s["stage"] = "draw"
            if s["forced"] and s["until"] is None and s["n"] >= 1 and "white" in toks:
                if g._slots is not None:  # nobody sees the pile: its cards are shown to q one by one
                    if sealed.start_white(g, q, token=True):
                        return False
                elif tokens.white(g, q, events):
                    s["got"].append(g.hands[q][-1].id)
                    tokens.lose(g, q, "white", events, "trigger")
                    s["n"] -= 1
        if s["stage"] == "draw" and g._slots is not None:
            if sealed.forced_draw(g, s, events):
                return g._wait(s, "forced_draw")
            s["stage"] = "magnet"
        if s["stage"] == "draw":
            batch: list[Card] = []
            needle = False
            while not s["stopped"]:
                if s["until"] is None and s["n"] <= 0:
                    break
                c = g._draw_one(events)
                if c is None:
                    s["until"], s["n"] = None, 0
                    break
                batch.append(c)
                if s["until"] is not None:
                    s["counted"] += 1
                    if c.color == s["until"]:
                        # The colour came: what is still due is the extra cards (n), a Double's
                        # second helping of all of it, and the Hex cards.
                        s["until"] = None
                        s["n"] = s["n"] * (2 if s["double"] else 1) + (s["counted"] if s["double"] else 0) + s["hex"]
                else:
                    s["n"] -= 1
                if c.rank == "N" and (s["n"] > 0 or s["until"] is not None):
                    needle = True
                    break
            if batch:
                s["got"] += [c.id for c in batch]
                g._give(q, batch, s["reason"], events)
            if needle:
                g.queue.insert(0, {"op": "needle", "who": q})
                return False
            s["stage"] = "magnet"
        if s["stage"] == "magnet":
            g.queue.pop(0)
            holders = [h for h in g.active if h != q and "magnet" in g.tokens[h]]
            mine = {c.id for c in g.hands[q]}
            got = [i for i in s["got"] if i in mine]
            if s["forced"] and holders and got and len(g.hands[q]) >= 2:
                g.queue.insert(0, {"op": "magnet", "who": q, "cards": got, "holders": holders})
        return False

    # A sealed game waits after each card while more is due (see sealed.forced_draw).
    hint = sealed.FORCED_HINT

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return sealed.forced_legal(g, p, s)

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        sealed.forced_resolve(g, p, a, s, events)
