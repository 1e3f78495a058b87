"""Diez's card effects: what each card does once played (after its colour is named), the draw
stacks, challenges' common part, and moving cards between hands and piles.

An effect runs as an ``effect`` step (so a Mirror, a Choice or a challenge can come between a
card and its effect); :data:`EFFECTS` maps each rank to its function. A function receives the
game and the step (``who`` played it on pile ``pile``; ``stack``: it was played on a draw stack;
``via``: ``"WC"`` when a Choice lends the effect).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...cards import Card
from ...decisions import StepState
from ...events import Event
from . import tokens
from .cards import TOKEN_LIMIT
from .steps import STEPS, DiezStep, draw_step, searchable

if TYPE_CHECKING:
    from .game import DiezGame


@STEPS.register
class Effect(DiezStep):
    """A card's effect, carried out (see :data:`EFFECTS`)."""

    op = "effect"

    def start(self, g: DiezGame, s: StepState, events: list[Event]) -> bool:
        g.queue.pop(0)
        EFFECTS[s["rank"]](g, s, events)
        return False


def start_stack(g: DiezGame, s: StepState, total: int, events: list[Event], *, challengeable: bool = False) -> None:
    p, v = s["who"], g._next(s["who"])
    if tokens.mirror(g, v, p, events):
        g._insert_before_end(draw_step(p, total, forced=False))
        return
    g.pending = {"kind": "stack", "pile": s["pile"], "total": total, "victim": v, "by": p,
                 "challengeable": challengeable, "bluff": (s["bluff"] if challengeable else False), "before": 0}
    end = g._end()
    end["to"], end["phase"] = v, "stack"


def move_stack(g: DiezGame, s: StepState, v: int, events: list[Event], *, add: int = 0,
               challengeable: bool = False) -> None:
    p = s["who"]
    pend = g.pending
    before = pend["total"]
    total = before + add
    if tokens.mirror(g, v, p, events):
        g.pending = None
        g._insert_before_end(draw_step(p, total, forced=False))
        return
    pend.update(total=total, victim=v, by=p, challengeable=challengeable,
                bluff=(s["bluff"] if challengeable else False), before=before, pile=s["pile"])
    events.append(Event("stack", player=p, target=v, count=total))
    end = g._end()
    end["to"], end["phase"] = v, "stack"


def take_stack(g: DiezGame, v: int, events: list[Event]) -> None:
    total = g.pending["total"]
    g.pending = None
    events.append(Event("skip", player=v))
    g.queue = [draw_step(v, total, forced=True), {"op": "end", "who": v, "to": g._next(v),
                                                  "phase": "play"}]
    g._run(events)


def challenge_stack(g: DiezGame, v: int, events: list[Event]) -> None:
    pend = g.pending
    g.pending = None
    if not ask_ruling(g, v, pend, "stack", events):
        stack_ruled(g, v, pend, bool(pend["bluff"]), events)
    g._run(events)


def ask_ruling(g: DiezGame, v: int, s: dict[str, Any], of: str, events: list[Event]) -> bool:
    """A sealed game: the challenged hand (as it was when the card was played) is shown to the
    challenger ``v`` alone, who rules on it (a ``rule`` step in front; its ruling is the
    challenger's claim). False when there is nothing to rule on (a full-information game, which
    knows; a card that could not be a bluff)."""
    bluff = s["bluff"]
    if not isinstance(bluff, dict):
        return False
    p = s["by"]
    shown = tuple(g.cards[i] for i in bluff["hand"])
    events.append(Event("show_hand", player=p, target=v, cards=shown, count=len(shown), visible_to=(v, p)))
    g.queue.insert(0, {"op": "rule", "who": v, "by": p, "of": of, "ctx": s, "hand": bluff["hand"],
                       "color": bluff["color"]})
    return True


def stack_ruled(g: DiezGame, v: int, pend: dict[str, Any], guilty: bool, events: list[Event],
                shown: bool = True) -> None:
    """A Draw 4 stack's challenge is ruled: the queue that carries it out (run by the caller)."""
    p, total = pend["by"], pend["total"]
    challenge_events(g, v, p, "W+4", guilty, events, shown)
    if guilty:
        g.queue = [draw_step(p, total, reason="guilty"), {"op": "end", "who": v, "to": v, "phase": "play"}]
    else:
        events.append(Event("skip", player=v))
        g.queue = [draw_step(v, total + 2, forced=True, reason="innocent"),
                   {"op": "end", "who": v, "to": g._next(v), "phase": "play"}]


def challenged(g: DiezGame, v: int, s: StepState, guilty: bool, events: list[Event], shown: bool = True) -> None:
    """A Dagger, Draw Color or Choice challenged by ``v`` is ruled ``guilty`` or not: the steps
    that carry it out go in front of the queue."""
    card, p = s["card"], s["by"]
    challenge_events(g, v, p, card, guilty, events, shown)
    end = g._end()
    if card == "DG":
        g.queue.insert(0, draw_step(p, 8, reason="guilty") if guilty
                       else draw_step(v, 9, forced=True, reason="innocent"))
    elif card == "WDC":
        if guilty:
            end["to"] = v
            g.queue.insert(0, draw_step(p, until=s["color"], reason="guilty"))
        else:
            events.append(Event("skip", player=v))
            # "affected then must draw 2 extra": one forced draw (until the colour, then 2), so
            # Hex adds once, Double doubles all of it and a Magnet is offered once.
            g.queue.insert(0, draw_step(v, 2, until=s["color"], forced=True, reason="innocent"))
    else:  # Choice
        if guilty:
            if g.queue and g.queue[0]["op"] == "effect":
                g.queue.pop(0)  # the card loses its effect
            if s["stack"]:
                g.pending = None
            end["to"], end["phase"] = v, "play"
            g.queue.insert(0, draw_step(p, 2 + (s["t0"] if s["stack"] else 0), reason="guilty"))
        else:
            g.queue.insert(0, draw_step(v, 3, forced=True, reason="innocent"))


def challenge_events(g: DiezGame, v: int, p: int, card: str, guilty: bool, events: list[Event],
                     shown: bool = True) -> None:
    """The ruling, and (``shown``: a full-information game, which rules at once) the hand shown."""
    events.append(Event("challenge", player=v, target=p, reason="guilty" if guilty else "innocent",
                        cards=(), count=0, color=card))
    if shown:
        events.append(Event("show_hand", player=p, target=v, cards=tuple(g.hands[p]),
                            count=len(g.hands[p]), visible_to=(v, p)))


def hands_moved(g: DiezGame) -> None:
    g.exposed = None
    g.declared = [len(h) == 1 for h in g.hands]


def share(g: DiezGame, v: int, events: list[Event]) -> None:
    others = [q for q in g.active if q != v]
    most = max((len(g.hands[q]) for q in others), default=0)
    mine = len(g.hands[v])
    if mine >= most:
        events.append(Event("share", player=v, count=0))
        return
    order = [g._next(v, k) for k in range(1, len(g.active))]
    donor = next(q for q in order if len(g.hands[q]) == most)
    k = (most - mine + 1) // 2
    pool = sorted(g.hands[donor], key=lambda c: c.id)
    if g._slots is None:
        taken = g._chance(pool)[:k]
    else:  # a public shuffle of the handles (nobody, the host included, picks the cards); then handed over
        ids = g._chance([c.id for c in pool])[:k]
        taken = [next(c for c in pool if c.id == i) for i in ids]
    for c in taken:
        g.hands[donor].remove(c)
    g.hands[v].extend(taken)
    events.append(Event("share", player=v, target=donor, cards=tuple(taken), count=k,
                        visible_to=(v, donor)))
    hands_moved(g)


def stitch(g: DiezGame, p: int, i: int, j: int, events: list[Event]) -> None:
    g.piles[i].extend(g.piles[j])
    g.colors[i], g.jump_ok[i] = g.colors[j], g.jump_ok[j]
    g.skipped[i], g.reversed[i] = g.skipped[j], g.reversed[j]
    for lst in (g.piles, g.colors, g.jump_ok, g.skipped, g.reversed):
        del lst[j]
    events.append(Event("stitch", player=p, target=j, count=len(g.piles)))
    g._focus(i - 1 if j < i else i)


def hand_over(g: DiezGame, p: int, q: int, card: Card, events: list[Event]) -> None:
    g.hands[p].remove(card)
    g.hands[q].append(card)
    g.declared[q] = False
    events.append(Event("give_card", player=p, target=q, cards=(card,), count=1, visible_to=(p, q)))
    g._expose(p)


def choice_chosen(g: DiezGame, s: StepState, rank: str | None) -> None:
    p = s["who"]
    steps: list[dict[str, Any]] = [{"op": "challenge", "who": g._next(p), "by": p, "card": "WC",
                                    "bluff": s["bluff"], "pile": s["pile"], "t0": s["t0"],
                                    "stack": s["stack"], "effect": rank}]
    if rank is not None:
        steps.append({"op": "effect", "who": p, "pile": s["pile"], "rank": rank, "stack": s["stack"],
                      "bluff": False, "t0": s["t0"], "via": "WC", "new": s.get("new", False)})
    g.queue[0:0] = steps


def skip(g: DiezGame, s: StepState, events: list[Event]) -> None:
    p = s["who"]
    v = g._next(p)
    if s["stack"]:
        if s["via"] is None:
            g.skipped[s["pile"]] = v
        move_stack(g, s, v, events)
        return
    if tokens.mirror(g, v, p, events):
        return  # not played on v after all: v may jump in on it
    if s["via"] is None:
        g.skipped[s["pile"]] = v
    events.append(Event("skip", player=v))
    g._end()["to"] = g._next(v)


def reverse(g: DiezGame, s: StepState, events: list[Event]) -> None:
    p = s["who"]
    g.direction = -g.direction
    if s["via"] is None:
        g.reversed[s["pile"]] = True
    events.append(Event("reverse"))
    if s["stack"]:
        move_stack(g, s, g._next(p), events)
    elif len(g.active) == 2:
        events.append(Event("skip", player=g._next(p)))
        g._end()["to"] = p


def draw2(g: DiezGame, s: StepState, events: list[Event]) -> None:
    if s["stack"]:
        move_stack(g, s, g._next(s["who"]), events, add=2)
    else:
        start_stack(g, s, 2, events)


def draw4(g: DiezGame, s: StepState, events: list[Event]) -> None:
    if s["stack"]:
        move_stack(g, s, g._next(s["who"]), events, add=4, challengeable=True)
    else:
        start_stack(g, s, 4, events, challengeable=True)


def stop(g: DiezGame, s: StepState, events: list[Event]) -> None:
    if s["stack"]:
        g.pending = None
        events.append(Event("stop", player=s["who"]))


def tag(g: DiezGame, s: StepState, events: list[Event]) -> None:
    g.queue.insert(0, {"op": "target", "who": s["who"], "stack": s["stack"], "pile": s["pile"],
                       "bluff": False})


def dagger(g: DiezGame, s: StepState, events: list[Event]) -> None:
    p = s["who"]
    v = g._next(p)
    if tokens.mirror(g, v, p, events):
        g._insert_before_end(draw_step(p, 1, forced=False, reason="dagger"))
        return
    g._end()["to"] = v
    if s["via"] is not None:  # a Choice's Dagger: its challenge has been had
        g._insert_before_end(draw_step(v, 1, forced=True, reason="dagger"))
    else:
        g.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "DG", "bluff": s["bluff"],
                           "pile": s["pile"]})


def token_card(g: DiezGame, s: StepState, events: list[Event]) -> None:
    g.queue.insert(0, {"op": "token", "who": s["who"]})


def trade(g: DiezGame, s: StepState, events: list[Event]) -> None:
    p = s["who"]
    v = g._next(p)
    if tokens.mirror(g, v, p, events):
        return
    g.hands[p], g.hands[v] = g.hands[v], g.hands[p]
    events.append(Event("swap", player=p, target=v))
    hands_moved(g)


def share_card(g: DiezGame, s: StepState, events: list[Event]) -> None:
    p = s["who"]
    v = g._next(p)
    if tokens.mirror(g, v, p, events):
        v = p
    share(g, v, events)


def proc_card(g: DiezGame, s: StepState, events: list[Event]) -> None:
    if any(a.kind == "proc" for a in STEPS["proc"].legal(g, s["who"], s)):
        g.queue.insert(0, {"op": "proc", "who": s["who"], "pile": s["pile"], "stack": s["stack"],
                           "via": s["via"], "bluff": False})


def cut(g: DiezGame, s: StepState, events: list[Event]) -> None:
    if s.get("new"):
        events.append(Event("cut", player=s["who"], target=s["pile"]))


def steal(g: DiezGame, s: StepState, events: list[Event]) -> None:
    p = s["who"]
    if len(g.tokens[p]) >= TOKEN_LIMIT:
        return
    if any(g.tokens[q] for q in g.active if q != p):
        g.queue.insert(0, {"op": "steal", "who": p})
    elif g.bag:
        kind = tokens.draw_token(g)
        g.tokens[p].append(kind)
        events.append(Event("token_give", player=p, target=p, reason=kind))


def revive(g: DiezGame, s: StepState, events: list[Event]) -> None:
    step = {"op": "search", "who": s["who"], "where": s["pile"], "ace": False}
    if searchable(g, step):
        g.queue.insert(0, step)


def stitch_card(g: DiezGame, s: StepState, events: list[Event]) -> None:
    if len(g.piles) == 2:
        stitch(g, s["who"], s["pile"], 1 - s["pile"], events)
    elif len(g.piles) > 2:
        g.queue.insert(0, {"op": "stitch", "who": s["who"], "pile": s["pile"]})


def mulligan(g: DiezGame, s: StepState, events: list[Event]) -> None:
    g.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "mulligan", "pile": s["pile"],
                       "color": None, "count": 0})


def flush(g: DiezGame, s: StepState, events: list[Event]) -> None:
    g.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "flush", "pile": s["pile"],
                       "color": g.colors[s["pile"]], "count": 0})


def drawcolor(g: DiezGame, s: StepState, events: list[Event]) -> None:
    p = s["who"]
    v = g._next(p)
    if tokens.mirror(g, v, p, events):
        g._insert_before_end(draw_step(p, until=g.colors[s["pile"]], forced=False, reason="draw_color"))
        return
    g._end()["to"] = g._next(v)
    g.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "WDC", "bluff": s["bluff"],
                       "pile": s["pile"], "color": g.colors[s["pile"]]})


def choice(g: DiezGame, s: StepState, events: list[Event]) -> None:
    step = {"op": "choice", "who": s["who"], "pile": s["pile"], "stack": s["stack"], "bluff": s["bluff"],
            "t0": s["t0"], "new": s.get("new", False)}
    if s.get("new"):
        choice_chosen(g, step, "CD")
    else:
        g.queue.insert(0, step)


EFFECTS: dict[str, Callable[[DiezGame, StepState, list[Event]], None]] = {
    "S": skip, "R": reverse, "+2": draw2, "ST": stop, "TG": tag, "DG": dagger, "TK": token_card,
    "TR": trade, "SH": share_card, "PR": proc_card, "CD": cut, "SL": steal, "RV": revive, "SD": stitch_card,
    "W+4": draw4, "WM": mulligan, "WF": flush, "WDC": drawcolor, "WC": choice,
}
"""Rank -> effect, for every card that has one."""
