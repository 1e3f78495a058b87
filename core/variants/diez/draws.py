"""Drawing in Diez: a turn's draw (one card, or a natural draw until a playable card), and a
forced or uncategorized draw with what tokens do to it (Double, Hex, Ace, White, Magnet) and
the Needle that may stop it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import DRAW, PASS, Action
from ...cards import Card
from ...decisions import StepState
from ...events import Event
from . import tokens
from .steps import STEPS, STOP, DiezStep

BOMB = Action("bomb")
"""A sealed game: the card just drawn naturally is a Bomb (the drawer's claim): three more follow."""
FOUND = Action("found")
"""A sealed game, drawing until a colour: the card just drawn is of that colour (the drawer's claim)."""

if TYPE_CHECKING:
    from .game import DiezGame


def turn_draw(g: DiezGame, p: int, events: list[Event]) -> None:
    """``p`` draws on their turn: one card if they hold a playable one, else until one comes."""
    if g._slots is not None:
        sealed_draw(g, p, events)
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
                if tokens.white(g, q, events):
                    s["got"].append(g.hands[q][-1].id)
                    tokens.lose(g, q, "white", events, "trigger")
                    s["n"] -= 1
        if s["stage"] == "draw" and g._slots is not None:
            if sealed_forced_draw(g, s, events):
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

    # A sealed game waits after each card while more is due (see sealed_forced_draw).
    hint = "draw on (d), say the colour came, or stop at a Needle"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        c = g.cards[s["card"]]
        needle = g._may_have([c], lambda x: x.rank == "N")
        if s["ask"] == "more":
            return [DRAW, STOP] if needle else [DRAW]
        until = s["until"]

        def of_color(x: Card) -> bool:
            return x.color == until

        acts: list[Action] = []
        if not g._has_card([c], of_color):
            acts.append(DRAW)
            if needle:
                acts.append(STOP)
        if g._may_have([c], of_color):
            acts.append(FOUND)
        return acts

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        if a.kind == "stop":
            events.append(Event("needle", player=p))
            s["stopped"] = True
        elif a.kind == "found":
            # The colour came: what is still due is the extra cards (n), a Double's second
            # helping of all of it, and the Hex cards (as the full-information loop counts).
            s["until"] = None
            s["n"] = s["n"] * (2 if s["double"] else 1) + (s["counted"] if s["double"] else 0) + s["hex"]
            s["ask"] = "more"
            s["hold"] = s["n"] > 0  # a Needle of the colour may still stop what follows


# -- a sealed game: the drawer decides, one card at a time ---------------------------------------
# Only the drawer sees what it holds and draws, so whether a draw is natural, whether a card
# drawn is playable, a Bomb or a Needle are the drawer's decisions (claims where only its cards
# say so). The full-information loop above is untouched: Natural is never queued in a sealed game.

def sealed_draw(g: DiezGame, p: int, events: list[Event]) -> None:
    """A sealed game: ``p`` draws one card and then decides (phase ``drawing``)."""
    c = g._draw_one(events)
    if c is None:
        events.append(Event("empty", player=p))
        g._pass_turn(p)
        return
    g._give(p, [c], "turn", events)
    g.queue = [{"op": "drawing", "who": p, "card": c.id, "bomb": None, "extra": 0}]
    g._run(events)


def _playable(g: DiezGame, p: int):
    return lambda c: bool(g._plays(p, [c]))


def _bomb_due(g: DiezGame, p: int, s: StepState) -> bool:
    """Whether the card drawn is a Bomb drawn naturally (the rest of the hand holds nothing
    playable): three more cards are due before anything else. False gives the benefit of the
    doubt (a hidden card might be playable, or not a Bomb)."""
    c = g.cards[s["card"]]
    rest = [x for x in g.hands[p] if x.id != c.id]
    return g._has_card([c], lambda x: x.rank == "WB") and not g._may_have(rest, _playable(g, p))


@STEPS.register
class Drawing(DiezStep):
    """A sealed game's turn draw, after each card: play the card, keep it, draw on (nothing
    playable held), call a Bomb (three more cards) or stop at a Needle; during a Bomb's three,
    draw on or stop at a Needle."""

    op = "drawing"
    hint = "play the card you drew, keep it (p), or draw on (d) if you hold nothing playable"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        c = g.cards[s["card"]]
        hand = g.hands[p]
        needle = g._may_have([c], lambda x: x.rank == "N")
        if s["bomb"] is not None:
            return [DRAW, STOP] if needle else [DRAW]
        playable = _playable(g, p)
        due = _bomb_due(g, p, s)
        acts: list[Action] = [] if due else g._plays(p, [c])
        g._uno(p, acts)
        more = bool(g.draw_pile) or g._can_draw()
        holds = g._may_have(hand, playable)
        if not due and (holds or not more):
            acts.append(PASS)
        if more and not g._has_card(hand, playable):
            acts.append(DRAW)
            if needle:
                acts.append(STOP)
        if g._may_have([c], lambda x: x.rank == "WB") and not g._has_card([x for x in hand if x.id != c.id], playable):
            acts.append(BOMB)
        return acts

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        kind = a.kind
        if kind == "play":
            g.queue.pop(0)
            g.phase, g.drawn = "drawn", s["card"]
            g._play(p, g.cards[a.card], a.target or 0, events)
            return
        if kind == "pass":
            g.queue.pop(0)
            events.append(Event("pass", player=p, reason="keep"))
            g._pass_turn(p)
            return
        if kind == "stop":
            events.append(Event("needle", player=p))
            g.queue.pop(0)
            if s["bomb"] is None:
                g._pass_turn(p)
            else:
                g.phase, g.drawn, g.current = "drawn", s["bomb"], p
            return
        if kind == "bomb":
            events.append(Event("bomb", player=p))
            s["bomb"], s["extra"] = s["card"], 3
        elif s["bomb"] is None:  # draw on: nothing playable held
            c = g._draw_one(events)
            if c is None:
                g.queue.pop(0)
                events.append(Event("empty", player=p))
                g._pass_turn(p)
                return
            g._give(p, [c], "turn", events)
            s["card"] = c.id
            g.phase = "drawing"
            return
        # A Bomb's three cards, one at a time (a Needle among them may stop them).
        while s["extra"] > 0:
            c = g._draw_one(events)
            if c is None:
                break
            s["extra"] -= 1
            g._give(p, [c], "bomb", events)
            s["card"] = c.id
            if s["extra"] > 0:
                g.phase = "drawing"
                return
        g.queue.pop(0)
        g.phase, g.drawn, g.current = "drawn", s["bomb"], p


def sealed_forced_draw(g: DiezGame, s: StepState, events: list[Event]) -> bool:
    """A sealed game's forced (or uncategorized) draw, one card at a time: True while the drawer
    is to decide on the card just drawn (whether it is the colour drawn for, a Needle that stops
    the rest); False when the draw is done. Nobody else sees the cards, so the engine cannot."""
    if s.pop("hold", False):
        return True
    if s["stopped"] or (s["until"] is None and s["n"] <= 0):
        return False
    c = g._draw_one(events)
    if c is None:
        s["until"], s["n"] = None, 0
        return False
    s["got"].append(c.id)
    g._give(s["who"], [c], s["reason"], events)
    s["card"] = c.id
    if s["until"] is not None:
        s["counted"] += 1
        s["ask"] = "color"
        return True
    s["n"] -= 1
    s["ask"] = "more"
    return s["n"] > 0  # a Needle on the last card due stops nothing
