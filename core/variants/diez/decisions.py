"""Diez's decisions: every step that waits for a player, one class each, in :data:`STEPS`.

A class says what the player may answer (``legal``) and how the answer resolves
(``resolve``); ``start`` runs when the step comes up and may skip it when there is nothing to
decide. The game waits in a phase named for the step (``sub`` for a Sub holder's colour) and on
the step's player (``asks`` when it is someone else), which :attr:`core.Game.decision` reports.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import CHALLENGE, DRAW, PASS, Action
from ...cards import Card
from ...decisions import StepState
from ...events import Event
from . import effects, sealed, tokens
from .cards import CHOICE_EFFECTS, CHOICE_STACK_EFFECTS, STACKABLE_PROCS, TOKEN_KINDS, UNDERLINED
from .steps import COLOR_ACTS, DRAW_TOKEN, REPLACE, STEPS, STOP, DiezStep, distinct, draw_step, searchable

if TYPE_CHECKING:
    from .game import DiezGame

AIMED_PROCS = frozenset({"hex", "magnet", "reveal", "white"})
"""Procs whose effect falls on the next player, so a Mirror can turn them back."""


@STEPS.register
class Color(DiezStep):
    """A black card's colour: named by its player, or first offered to a Sub holder (phase ``sub``)."""

    op = "color"
    hint = "name a colour: red, yellow, green or blue"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        if s["sub"]:
            holders = [q for q in g.active if q != s["who"] and "sub" in g.tokens[q]]
            if holders:
                return g._wait(s, "sub", holders[0])
            s["sub"] = False
        return g._wait(s, "color")

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return list(COLOR_ACTS) + ([PASS] if g.phase == "sub" else [])

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        if a.kind == "pass":  # the Sub holder lets the player choose
            s["sub"] = False
            return
        if g.phase == "sub":
            tokens.lose(g, p, "sub", events, "trigger", by=s["who"])
        g.queue.pop(0)
        g._set_color(s["pile"], a.color)
        events.append(Event("color", player=p, color=a.color, target=s["pile"]))


@STEPS.register
class Choice(DiezStep):
    """A Choice's effect: any listed card's (on a stack, a stacking one), or none."""

    op = "choice"
    hint = "choose the Choice's effect"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        if s["stack"]:
            ranks = [r for r in CHOICE_STACK_EFFECTS
                     if r != "PR" or any(k in tokens.in_play(g) for k in STACKABLE_PROCS)]
            return [Action("effect", color=r) for r in ranks]
        return [Action("effect", color=r) for r in CHOICE_EFFECTS if r != "CD"] + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        events.append(Event("choice", player=p, reason=None if a.kind == "pass" else a.color))
        effects.choice_chosen(g, s, None if a.kind == "pass" else a.color)


@STEPS.register
class Target(DiezStep):
    """A Tag's player: the turn (or the stack) goes to them."""

    op = "target"
    hint = "choose a player"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [Action("target", target=q) for q in g.active]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        q = a.target
        events.append(Event("tag", player=p, target=q))
        if s["stack"]:
            effects.move_stack(g, s, q, events)
        elif tokens.mirror(g, q, p, events):
            g._end()["to"] = p
        else:
            g._end()["to"] = q


@STEPS.register
class Token(DiezStep):
    """A Token card: draw a token from the bag to give, or remove one from anyone."""

    op = "token"
    hint = "draw a token to give, or remove one"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        if not self.legal(g, s["who"], s):
            g.queue.pop(0)
            return False
        return g._wait(s)

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        acts = [DRAW_TOKEN] if g.bag and tokens.recipients(g, p) else []
        for q in g.active:
            acts += [Action("remove", target=q, color=k) for k in tokens.kinds(g, q)]
        return acts

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        if a.kind == "remove":
            tokens.lose(g, a.target, a.color, events, by=p)
            return
        kind = tokens.draw_token(g)
        events.append(Event("token_draw", player=p, reason=kind))
        g.queue.insert(0, {"op": "give", "who": p, "token": kind})


@STEPS.register
class Give(DiezStep):
    """Who gets the token drawn (skipped when only one player may take it)."""

    op = "give"
    hint = "give the token to a player who may take it"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        rec = tokens.recipients(g, s["who"])
        if len(rec) == 1:
            g.queue.pop(0)
            tokens.give(g, s["who"], rec[0], s["token"], events)
            return False
        return g._wait(s)

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [Action("give", target=q) for q in tokens.recipients(g, p)]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        tokens.give(g, p, a.target, s["token"], events)


@STEPS.register
class Steal(DiezStep):
    """A Steal: the token taken from another player."""

    op = "steal"
    hint = "take a token from another player"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [Action("take", target=q, color=k) for q in g.active if q != p for k in tokens.kinds(g, q)]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        g.tokens[a.target].remove(a.color)
        g.tokens[p].append(a.color)
        events.append(Event("token_steal", player=p, target=a.target, reason=a.color))


@STEPS.register
class Drop(DiezStep):
    """A Drop All: the player whose tokens all go back to the bag."""

    op = "drop"
    hint = "choose a player whose tokens all go"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        if not any(g.tokens[q] for q in g.active):
            g.queue.pop(0)
            return False
        return g._wait(s)

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [Action("drop", target=q) for q in g.active if g.tokens[q]]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        q = a.target
        gone = g.tokens[q]
        g.bag += gone
        g.tokens[q] = []
        events.append(Event("token_drop", player=p, target=q, count=len(gone), reason=",".join(gone)))


@STEPS.register
class Search(DiezStep):
    """A search (Revive on its pile, an Ace in the draw pile): the card taken, or none."""

    op = "search"
    hint = "take a card from the searched pile, or none (p)"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        if not searchable(g, s):
            g.queue.pop(0)
            return False
        if g._slots is not None and not s.get("shown"):
            sealed.open_search(g, s, events)  # the pile shown to the searcher alone
        return g._wait(s)

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [Action("take", card=c.id) for c in searchable(g, s)] + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        if s.get("shown") and s["where"] == "draw":
            sealed.ace_taken(g, p, a, s, events)
            return
        if a.kind == "pass":
            return
        card = g.cards[a.card]
        if s["where"] == "draw":
            g.draw_pile.remove(card)
        else:
            g.piles[s["where"]].remove(card)
        if s["ace"]:
            tokens.lose(g, p, "ace", events, "trigger")
            g.queue[0]["n"] -= 1  # the draw this Ace served
        g._give(p, [card], "ace" if s["where"] == "draw" else "revive", events)


@STEPS.register
class Stitch(DiezStep):
    """A Stitch Deck with more than two piles: the pile placed on it."""

    op = "stitch"
    hint = "choose the pile to stitch on"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [Action("stitch", target=j) for j in range(len(g.piles)) if j != s["pile"]]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        effects.stitch(g, p, s["pile"], a.target, events)


@STEPS.register
class Discard(DiezStep):
    """A Mulligan's or a Flush's discards, one at a time, until the player stops."""

    op = "discard"
    hint = "discard a card, or stop discarding (p)"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        # A Mulligan's cards go face down (any card, seen or not); a Flush's are shown (seen ones).
        cards = g.hands[p] if s["mode"] == "mulligan" else [c for c in g._seen(g.hands[p]) if c.color == s["color"]]
        return [Action("discard", card=c.id) for c in g._distinct(cards)] + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        if a.kind == "pass":
            g.queue.pop(0)
            if s["mode"] == "mulligan" and s["count"]:
                g.draw_pile = g._shuffled(g.draw_pile)
                events.append(Event("reshuffle", count=len(g.draw_pile), reason="mulligan"))
                g.queue.insert(0, draw_step(p, s["count"], reason="mulligan"))
            return
        card = g.cards[a.card]
        g.hands[p].remove(card)
        s["count"] += 1
        if s["mode"] == "mulligan":
            g.draw_pile.append(card)
            if g.exposed == p:  # its last card gone (played down to one, not called): nothing to catch
                g.exposed = None
            events.append(Event("discard", player=p, cards=(card,), count=1, reason="mulligan",
                                visible_to=(p,)))
        else:
            i = s["pile"]
            card = g._open([card])[0]  # face up: shown (sent with the move)
            g.piles[i].append(card)
            g.jump_ok[i], g.skipped[i], g.reversed[i] = False, None, False
            events.append(Event("discard", player=p, cards=(card,), count=1, reason="flush", target=i))
            # Only a Flush shrinks the hand for good; a Mulligan draws as many back, so its
            # discards never leave a player on one card (and a catch would redraw the same cards).
            g._expose(p)


@STEPS.register
class Proc(DiezStep):
    """A Proc: the token effect used (on a stack, a stackable one), or none."""

    op = "proc"
    hint = "choose a token effect to activate"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        held = tokens.in_play(g)
        if s["stack"]:
            return [Action("proc", color=k) for k in STACKABLE_PROCS if k in held]
        acts = []
        for k in TOKEN_KINDS:
            # A Double's Proc has no stack to double; a Mirror's effect is armed only once.
            if k not in held or k == "double" or (k == "mirror" and g.armed[p]):
                continue
            if k == "block":
                acts += [Action("proc", color=k, target=q) for q in g.active if "block" in g.tokens[q]]
            else:
                acts.append(Action("proc", color=k))
        return acts + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        if a.kind == "pass":
            return
        kind = a.color
        events.append(Event("proc", player=p, reason=kind, target=a.target))
        v = g._next(p)
        if s["stack"]:
            if kind in ("silence", "snare"):
                g.pending = None
                events.append(Event("stop", player=p))
            elif kind == "double":
                effects.move_stack(g, {**s, "who": p, "bluff": False}, v, events, add=g.pending["total"])
            else:  # mirror: the stack goes back to whoever sent it, who cannot counter it
                by, total = g.pending["by"], g.pending["total"]
                g.pending = None
                g._insert_before_end(draw_step(by, total, forced=True))
                end = g._end()
                end["to"] = g._next(by) if v == by else v
            return
        # Procs aimed at the next player can meet a Mirror: then they act the other way round.
        who, on = (v, p) if kind in AIMED_PROCS and tokens.mirror(g, v, p, events) else (p, v)
        if kind == "hex":
            n = len(g.tokens[on])
            if n:
                g._insert_before_end(draw_step(on, n, forced=on != p, reason="hex"))
        elif kind == "magnet":
            g.queue.insert(0, {"op": "give_card", "who": who, "to": on})
        elif kind == "mirror":
            g.armed[p] = True
            events.append(Event("mirror_armed", player=p))
        elif kind == "block":
            g.tokens[a.target].remove("block")
            g.queue.insert(0, {"op": "replace", "who": p, "holder": a.target})
        elif kind == "reveal":
            shown = g._open(g.hands[on])  # shown to everyone (a need first, in a sealed game)
            events.append(Event("reveal", player=on, cards=tuple(shown), count=len(shown)))
        elif kind == "link":
            if g._slots is not None or underlined(g, p):  # sealed: only the player knows; it may pass
                g.queue.insert(0, {"op": "link", "who": p})
        elif kind == "ace":
            g.queue.insert(0, {"op": "search", "who": p, "where": "draw", "ace": False})
        elif kind == "sub":
            g.queue.insert(0, {"op": "color", "who": p, "pile": s["pile"], "sub": False})
        elif kind == "white":
            if g._slots is None:
                tokens.white(g, on, events)
            else:  # nobody sees the pile: its cards are shown to the next player one by one
                sealed.start_white(g, on, token=False)


@STEPS.register
class Replace(DiezStep):
    """A Block's Proc: replace the Block with a token from the bag, or not."""

    op = "replace"
    hint = "replace the Block with a token from the bag, or not (p)"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return ([REPLACE] if g.bag else []) + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        h = s["holder"]
        events.append(Event("token_remove", player=p, target=h, reason="block"))
        if a.kind == "replace":
            kind = tokens.draw_token(g)
            tokens.give(g, p, h, kind, events)
        g.bag.append("block")


@STEPS.register
class Link(DiezStep):
    """A Link's Proc: an underlined number played on any pile, or none."""

    op = "link"
    hint = "play an underlined number, or not (p)"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [Action("play", c.id, None, g._pt(i)) for c in distinct(underlined(g, p))
                for i in range(len(g.piles))] + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        if a.kind == "pass":
            return
        card = g.cards[a.card]
        i = a.target or 0
        g.hands[p].remove(card)
        card = g._open([card])[0]  # played face up: shown with the move
        g.piles[i].append(card)
        g.jump_ok[i], g.skipped[i], g.reversed[i] = True, None, False
        g.colors[i] = card.color
        g._focus(i)
        events.append(Event("play", player=p, cards=(card,), target=i, reason="link"))
        g._expose(p)
        if not g.hands[p]:
            g.queue = []
            g._end_round(p, events)


@STEPS.register
class GiveCard(DiezStep):
    """A Magnet's Proc: a card given to the next player, or none."""

    op = "give_card"
    hint = "give a card to the next player, or not (p)"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        if len(g.hands[p]) < 2:
            return [PASS]
        return [Action("give", card=c.id) for c in g._distinct(g.hands[p])] + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        if a.kind == "give":
            effects.hand_over(g, p, s["to"], g.cards[a.card], events)


@STEPS.register
class Magnet(DiezStep):
    """After a forced draw: one of the drawn cards given to a Magnet holder, or none."""

    op = "magnet"
    hint = "give a drawn card to a Magnet holder, or not (p)"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        if len(g.hands[p]) < 2:
            return [PASS]
        mine = {c.id for c in g.hands[p]}
        cards = g._distinct([g.cards[i] for i in s["cards"] if i in mine])
        return [Action("give", card=c.id, target=h) for c in cards for h in s["holders"]] + [PASS]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        if a.kind == "give":
            effects.hand_over(g, p, a.target, g.cards[a.card], events)


@STEPS.register
class Needle(DiezStep):
    """A Needle drawn while more cards are due: stop drawing, or go on."""

    op = "needle"
    hint = "stop drawing (the Needle) or go on drawing (d)"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [STOP, DRAW]

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        if a.kind == "stop":
            events.append(Event("needle", player=p))
            g.queue[0]["stopped"] = True


@STEPS.register
class Challenge(DiezStep):
    """A challengeable card's victim: challenge it, or accept it."""

    op = "challenge"
    hint = "challenge the card, or accept it"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        return [CHALLENGE, PASS if s["card"] == "WC" else DRAW]

    def resolve(self, g: DiezGame, v: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        card, p = s["card"], s["by"]
        if a.kind != "challenge":
            if card == "DG":
                g.queue.insert(0, draw_step(v, 1, forced=True, reason="dagger"))
            elif card == "WDC":
                events.append(Event("skip", player=v))
                g.queue.insert(0, draw_step(v, until=s["color"], forced=True, reason="draw_color"))
            return
        if not effects.ask_ruling(g, v, s, "step", events):
            effects.challenged(g, v, s, bool(s["bluff"]), events)


def underlined(g: DiezGame, p: int) -> list[Card]:
    """The underlined numbers (6 and 9) in ``p``'s hand."""
    return [c for c in g._seen(g.hands[p]) if c.rank in UNDERLINED]
