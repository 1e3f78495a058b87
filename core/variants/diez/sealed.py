"""Diez with sealed cards (issue 16): the steps a sealed game takes where the full-information
game decides from cards only one player sees, and the claims they make.

Only the drawer sees what it holds and draws, so whether a draw is natural, whether a card drawn
is playable, a Bomb or a Needle are the drawer's decisions (claims where only its cards say so):
the turn's draw (:class:`Drawing`) and a forced draw (:func:`forced_draw`) go one card at a time.
A challenger rules on the hand it was shown (:class:`Rule`). The White token's holder turns the
draw pile's cards up one at a time, seen by it alone, until a white one (:class:`White`); a
Revive's pile is mixed face down and shown to the searcher alone (:func:`open_revive`). The
full-information steps are untouched: none of these is queued in a full-information game.
See ``docs/sealed-design.md`` section 6 ("Diez") and ``docs/rules/diez.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...actions import DRAW, GUILTY, INNOCENT, PASS, Action
from ...cards import Card
from ...decisions import StepState
from ...events import Event
from . import effects, tokens
from .cards import WHITE
from .steps import STEPS, STOP, DiezStep

if TYPE_CHECKING:
    from .game import DiezGame

BOMB = Action("bomb")
"""The card just drawn naturally is a Bomb (the drawer's claim): three more follow."""
FOUND = Action("found")
"""Drawing until a colour: the card just drawn is of that colour (the drawer's claim)."""
FORCED_HINT = "draw on (d), say the colour came, or stop at a Needle"


# -- the turn's draw ------------------------------------------------------------------------------

def turn_draw(g: DiezGame, p: int, events: list[Event]) -> None:
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


# -- a forced or uncategorized draw, one card at a time --------------------------------------------

def forced_draw(g: DiezGame, s: StepState, events: list[Event]) -> bool:
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


def forced_legal(g: DiezGame, p: int, s: StepState) -> list[Action]:
    """What the drawer may answer after a card of a forced draw: draw on, the colour came, or a Needle."""
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


def forced_resolve(g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
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


# -- a challenge's ruling ------------------------------------------------------------------------

@STEPS.register
class Rule(DiezStep):
    """A sealed game: the challenger was shown the challenged hand and rules on it: guilty if it
    held a card of the colour in play (the challenger's claim: only the two saw the hand)."""

    op = "rule"
    hint = "rule on the hand you were shown: guilty if it held a card of the colour in play, innocent if not"

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        shown = [g.cards[i] for i in s["hand"]]
        color = s["color"]

        def of_color(c: Card) -> bool:
            return c.color == color

        acts = [GUILTY] if g._may_have(shown, of_color) else []
        if not g._has_card(shown, of_color):
            acts.append(INNOCENT)
        return acts

    def resolve(self, g: DiezGame, v: int, a: Action, s: StepState, events: list[Event]) -> None:
        g.queue.pop(0)
        guilty = a.kind == "guilty"
        if s["of"] == "stack":
            effects.stack_ruled(g, v, s["ctx"], guilty, events, shown=False)
        else:
            effects.challenged(g, v, s["ctx"], guilty, events, shown=False)


# -- the White token and its Proc -------------------------------------------------------------------

def _white(c: Card) -> bool:
    return c.color == WHITE


def start_white(g: DiezGame, q: int, *, token: bool) -> bool:
    """``q`` searches the draw pile for its topmost white card (the White token on a forced draw,
    ``token``; or a White Proc): a ``white`` step in front, or False with no draw pile to search."""
    if not g.draw_pile:
        return False
    g.queue.insert(0, {"op": "white", "who": q, "seen": [], "card": None, "token": token})
    return True


@STEPS.register
class White(DiezStep):
    """The White token's search, from the top of the draw pile down: each card is shown to the
    searcher alone, who takes it (it is white: its claim) or looks on (it is not: its claim).
    Cards looked at and left are shuffled again (fresh slots), since the searcher knows them."""

    op = "white"
    hint = "take the card you turned up if it is white, or look on (p)"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        pile = g.draw_pile
        if s["card"] is not None and not any(c.id == s["card"] for c in pile):
            s["card"] = None  # a UNO catch's draw took it meanwhile: the search goes on below it
        if s["card"] is None:
            seen = set(s["seen"])
            c = next((c for c in reversed(pile) if c.id not in seen), None)
            if c is None:  # no white card: the whole pile was seen, and the token stays
                g.queue.pop(0)
                _shuffle_seen(g, s, events)
                return False
            s["card"] = c.id
            events.append(Event("search", player=s["who"], cards=(c,), count=1, reason="white",
                                visible_to=(s["who"],)))
        return g._wait(s)

    def legal(self, g: DiezGame, p: int, s: StepState) -> list[Action]:
        c = g.cards[s["card"]]
        acts = [Action("take", card=c.id)] if g._may_have([c], _white) else []
        if not g._has_card([c], _white):
            acts.append(PASS)
        return acts

    def resolve(self, g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
        if a.kind == "pass":
            s["seen"].append(s["card"])
            s["card"] = None
            return
        g.queue.pop(0)
        card = g.cards[a.card]
        g.draw_pile.remove(card)
        _shuffle_seen(g, s, events)
        g._give(p, [card], "white", events)
        if s["token"]:  # as the full-information draw does (draws.Draw, stage "white")
            draw = g.queue[0]
            draw["got"].append(card.id)
            tokens.lose(g, p, "white", events, "trigger")
            draw["n"] -= 1


def _shuffle_seen(g: DiezGame, s: StepState, events: list[Event]) -> None:
    """The draw pile is shuffled again when the searcher looked at cards it left there."""
    seen = set(s["seen"])
    if any(c.id in seen for c in g.draw_pile):
        g.draw_pile = g._shuffled(g.draw_pile)
        events.append(Event("reshuffle", count=len(g.draw_pile), reason="white"))


# -- searches: the Ace, Revive --------------------------------------------------------------------------

def open_search(g: DiezGame, s: StepState, events: list[Event]) -> None:
    """A search's pile is shown to the searcher alone (see :func:`core.Game.deliveries`): an Ace's
    draw pile as it lies; a Revive's discard pile mixed face down first (:func:`open_revive`)."""
    if s["where"] != "draw":
        open_revive(g, s, events)
        return
    s["shown"] = True
    events.append(Event("search", player=s["who"], cards=tuple(g.draw_pile), count=len(g.draw_pile),
                        visible_to=(s["who"],)))


def ace_taken(g: DiezGame, p: int, a: Action, s: StepState, events: list[Event]) -> None:
    """The Ace's searcher took a card (or none): it saw the draw pile's order, so whatever it
    leaves there is shuffled again."""
    if a.kind == "take":
        g.draw_pile.remove(g.cards[a.card])
    g.draw_pile = g._shuffled(g.draw_pile)
    events.append(Event("reshuffle", count=len(g.draw_pile), reason="search"))
    if a.kind == "take":
        if s["ace"]:
            tokens.lose(g, p, "ace", events, "trigger")
            g.queue[0]["n"] -= 1  # the draw this Ace served
        g._give(p, [g.cards[a.card]], "ace", events)


def open_revive(g: DiezGame, s: StepState, events: list[Event]) -> None:
    """A Revive's search in a sealed game: the pile's cards under its top that may be taken (all
    but the wild cards, which everyone has seen) are mixed face down into fresh slots and shown to
    the searcher alone, so that nobody else learns which one it takes. They stay face down in the
    pile (its order below the top means nothing) until a reshuffle takes them."""
    pile = g.piles[s["where"]]
    public = g._slots.public  # type: ignore[union-attr]
    # A slot no one else saw came from an earlier Revive's mix: never a wild card.
    wild = [c for c in pile[:-1] if c.id in public and c.color is None]
    fresh = g._shuffled([c for c in pile[:-1] if not (c.id in public and c.color is None)])
    pile[:-1] = wild + fresh
    s["shown"], s["slots"] = True, [c.id for c in fresh]
    events.append(Event("search", player=s["who"], cards=tuple(fresh), count=len(fresh), reason="revive",
                        target=s["where"], visible_to=(s["who"],)))


def revivable(g: DiezGame, s: StepState) -> list[Card]:
    """What a sealed Revive may take: before the mix, every card under the top but the wild cards
    everyone saw; after it, one per face of the slots still in the pile (any slot, to a game that
    cannot see them)."""
    pile = g.piles[s["where"]][:-1]
    public = g._slots.public  # type: ignore[union-attr]
    if not s.get("shown"):
        return [c for c in pile if not (c.id in public and c.color is None)]
    here = {c.id for c in pile}
    return g._distinct([g.cards[h] for h in s["slots"] if h in here][::-1])


# -- the claims' cards and words, and what a Reveal token opens ---------------------------------------

def claim_cards(g: DiezGame, p: int) -> list[Card] | None:
    """The hidden cards a claim now speaks of, when not ``p``'s hand: a hand ``p`` was shown, a
    card the White's search turned up."""
    if g.queue and g.phase == "rule":
        return [g.cards[i] for i in g.queue[0]["hand"]]
    if g.queue and g.phase == "white":
        return [g.cards[g.queue[0]["card"]]]
    return None


def claim_words(g: DiezGame, p: int, action: Action) -> str | None:
    """What ``p`` claims by ``action`` in a sealed step, in words (None: the engine's words)."""
    kind = action.kind
    if g.phase == "rule" and g.queue:
        s = g.queue[0]
        held = "held" if kind == "guilty" else "held no"
        return f"{g.names[s['by']]}'s hand {held} {s['color']} card"
    if g.phase == "drawing":
        return {"draw": "holds nothing playable", "pass": "holds a playable card, and drew no Bomb naturally",
                "bomb": "drew a Bomb naturally, holding nothing playable", "stop": "drew a Needle",
                "play": "held a playable card, so the Bomb drawn is not a natural one"}.get(kind)
    if g.phase == "forced_draw" and g.queue:
        until = g.queue[0]["until"]
        return {"draw": f"the card drawn is not {until}", "found": f"the card drawn is {until}",
                "stop": "drew a Needle"}.get(kind)
    if g.phase == "white":
        return {"take": "the card turned up is the first white one", "pass": "the card turned up is not white"}.get(kind)
    return None


def open_revealed(g: DiezGame) -> None:
    """A Reveal token's holder plays with its hand open: every card it holds is shown to everyone
    (asked first, as a need, when this game cannot see them)."""
    for q, toks in enumerate(g.tokens):
        if "reveal" in toks and g.hands[q]:
            g._open(g.hands[q])
