"""The Diez rollout's card effects (mirrors ``core/variants/diez/effects.py``): what each card
does once played, the draw stacks, challenges on a stack, and moving cards between hands and
piles. An effect runs as an ``effect`` step; :data:`EFFECTS` maps each rank to its function,
which receives the rollout and the step (``who`` played it on pile ``pile``; ``stack``: on a
draw stack; ``via``: ``"WC"`` when a Choice lends the effect).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...variants.diez.cards import TOKEN_LIMIT
from . import tokens
from .steps import DOUBLE, MIRROR, STACKABLE, draw_step, searchable

if TYPE_CHECKING:
    from .game import DiezRollout


def hands_moved(r: DiezRollout) -> None:
    r.exposed = None
    r.declared = [len(h) == 1 for h in r.hands]


def start_effect(r: DiezRollout, s: dict) -> bool:
    r.queue.pop(0)
    EFFECTS[s["rank"]](r, s)
    return False


def start_stack(r: DiezRollout, s: dict, total: int, *, challengeable: bool = False) -> None:
    p = s["who"]
    v = r._next(p)
    if tokens.mirror(r, v, p):
        r._insert_before_end(draw_step(p, total, forced=False))
        return
    r.pending = {"kind": "stack", "pile": s["pile"], "total": total, "victim": v, "by": p,
                 "challengeable": challengeable, "bluff": s["bluff"] and challengeable, "before": 0}
    end = r._end()
    end["to"], end["phase"] = v, "stack"


def move_stack(r: DiezRollout, s: dict, v: int, *, add: int = 0, challengeable: bool = False) -> None:
    p = s["who"]
    pend = r.pending
    before = pend["total"]
    total = before + add
    if tokens.mirror(r, v, p):
        r.pending = None
        r._insert_before_end(draw_step(p, total, forced=False))
        return
    pend.update(total=total, victim=v, by=p, challengeable=challengeable,
                bluff=s["bluff"] and challengeable, before=before, pile=s["pile"])
    end = r._end()
    end["to"], end["phase"] = v, "stack"


def skip(r: DiezRollout, s: dict) -> None:
    p = s["who"]
    v = r._next(p)
    if s["stack"]:
        if s["via"] is None:
            r.skipped[s["pile"]] = v
        move_stack(r, s, v)
        return
    if tokens.mirror(r, v, p):
        return
    if s["via"] is None:
        r.skipped[s["pile"]] = v
    r._end()["to"] = r._next(v)


def reverse(r: DiezRollout, s: dict) -> None:
    p = s["who"]
    r.direction = -r.direction
    if s["via"] is None:
        r.reversed[s["pile"]] = True
    if s["stack"]:
        move_stack(r, s, r._next(p))
    elif r._active_count() == 2:
        r._end()["to"] = p


def draw2(r: DiezRollout, s: dict) -> None:
    if s["stack"]:
        move_stack(r, s, r._next(s["who"]), add=2)
    else:
        start_stack(r, s, 2)


def draw4(r: DiezRollout, s: dict) -> None:
    if s["stack"]:
        move_stack(r, s, r._next(s["who"]), add=4, challengeable=True)
    else:
        start_stack(r, s, 4, challengeable=True)


def stop(r: DiezRollout, s: dict) -> None:
    if s["stack"]:
        r.pending = None


def tag(r: DiezRollout, s: dict) -> None:
    r.queue.insert(0, {"op": "target", "who": s["who"], "stack": s["stack"], "pile": s["pile"],
                       "bluff": False})


def dagger(r: DiezRollout, s: dict) -> None:
    p = s["who"]
    v = r._next(p)
    if tokens.mirror(r, v, p):
        r._insert_before_end(draw_step(p, 1, forced=False, reason="dagger"))
        return
    r._end()["to"] = v
    if s["via"] is not None:
        r._insert_before_end(draw_step(v, 1, forced=True, reason="dagger"))
    else:
        r.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "DG", "bluff": s["bluff"],
                           "pile": s["pile"]})


def token_card(r: DiezRollout, s: dict) -> None:
    r.queue.insert(0, {"op": "token", "who": s["who"]})


def trade(r: DiezRollout, s: dict) -> None:
    p = s["who"]
    v = r._next(p)
    if tokens.mirror(r, v, p):
        return
    r.hands[p], r.hands[v] = r.hands[v], r.hands[p]
    hands_moved(r)


def share_card(r: DiezRollout, s: dict) -> None:
    p = s["who"]
    v = r._next(p)
    if tokens.mirror(r, v, p):
        v = p
    hands = r.hands
    others = [q for q in range(r.n) if not r.out[q] and q != v]
    most = max((len(hands[q]) for q in others), default=0)
    mine = len(hands[v])
    if mine >= most:
        return
    order = [r._next(v, k) for k in range(1, r._active_count())]
    donor = next(q for q in order if len(hands[q]) == most)
    k = (most - mine + 1) // 2
    taken = r._sample(hands[donor], k)
    for c in taken:
        hands[donor].remove(c)
    hands[v] += taken
    hands_moved(r)


def proc_card(r: DiezRollout, s: dict) -> None:
    held = {k for t in r.tokens for k in t}
    if s["stack"]:
        ok = any(k in held for k in STACKABLE)
    else:
        ok = any(k != DOUBLE and not (k == MIRROR and r.armed[s["who"]]) for k in held)
    if ok:
        r.queue.insert(0, {"op": "proc", "who": s["who"], "pile": s["pile"], "stack": s["stack"],
                           "via": s["via"], "bluff": False})


def cut(r: DiezRollout, s: dict) -> None:
    pass  # a new pile was all it did (an event in the engine)


def steal(r: DiezRollout, s: dict) -> None:
    p = s["who"]
    if len(r.tokens[p]) >= TOKEN_LIMIT:
        return
    if any(r.tokens[q] for q in range(r.n) if not r.out[q] and q != p):
        r.queue.insert(0, {"op": "steal", "who": p})
    elif r.bag:
        r.tokens[p].append(tokens.draw_token(r))


def revive(r: DiezRollout, s: dict) -> None:
    step = {"op": "search", "who": s["who"], "where": s["pile"], "ace": False}
    if searchable(r, step):
        r.queue.insert(0, step)


def stitch_card(r: DiezRollout, s: dict) -> None:
    if len(r.piles) == 2:
        stitch(r, s["pile"], 1 - s["pile"])
    elif len(r.piles) > 2:
        r.queue.insert(0, {"op": "stitch", "who": s["who"], "pile": s["pile"]})


def mulligan(r: DiezRollout, s: dict) -> None:
    r.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "mulligan", "pile": s["pile"],
                       "color": None, "count": 0})


def flush(r: DiezRollout, s: dict) -> None:
    r.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "flush", "pile": s["pile"],
                       "color": r.T.cname[r.colors[s["pile"]]], "count": 0})


def drawcolor(r: DiezRollout, s: dict) -> None:
    p = s["who"]
    v = r._next(p)
    color = r.T.cname[r.colors[s["pile"]]]
    if tokens.mirror(r, v, p):
        r._insert_before_end(draw_step(p, until=color, forced=False, reason="draw_color"))
        return
    r._end()["to"] = r._next(v)
    r.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "WDC", "bluff": s["bluff"],
                       "pile": s["pile"], "color": color})


def choice(r: DiezRollout, s: dict) -> None:
    step = {"op": "choice", "who": s["who"], "pile": s["pile"], "stack": s["stack"], "bluff": s["bluff"],
            "t0": s["t0"], "new": s.get("new", False)}
    if s.get("new"):
        choice_chosen(r, step, "CD")
    else:
        r.queue.insert(0, step)


def choice_chosen(r: DiezRollout, s: dict, rank: str | None) -> None:
    p = s["who"]
    steps: list[dict[str, Any]] = [{"op": "challenge", "who": r._next(p), "by": p, "card": "WC",
                                    "bluff": s["bluff"], "pile": s["pile"], "t0": s["t0"],
                                    "stack": s["stack"], "effect": rank}]
    if rank is not None:
        steps.append({"op": "effect", "who": p, "pile": s["pile"], "rank": rank, "stack": s["stack"],
                      "bluff": False, "t0": s["t0"], "via": "WC", "new": s.get("new", False)})
    r.queue[0:0] = steps


def take_stack(r: DiezRollout, v: int) -> None:
    total = r.pending["total"]
    r.pending = None
    r.queue = [draw_step(v, total, forced=True), {"op": "end", "who": v, "to": r._next(v), "phase": "play"}]
    r._run()


def challenge_stack(r: DiezRollout, v: int) -> None:
    pend = r.pending
    r.pending = None
    p, total, guilty = pend["by"], pend["total"], pend["bluff"]
    if guilty:
        r.queue = [draw_step(p, total, reason="guilty"), {"op": "end", "who": v, "to": v, "phase": "play"}]
    else:
        r.queue = [draw_step(v, total + 2, forced=True, reason="innocent"),
                   {"op": "end", "who": v, "to": r._next(v), "phase": "play"}]
    r._run()


def stitch(r: DiezRollout, i: int, j: int) -> None:
    r.piles[i] += r.piles[j]
    r.colors[i], r.jump_ok[i] = r.colors[j], r.jump_ok[j]
    r.skipped[i], r.reversed[i] = r.skipped[j], r.reversed[j]
    for lst in (r.piles, r.colors, r.jump_ok, r.skipped, r.reversed):
        del lst[j]
    r.focus = i - 1 if j < i else i


def hand_over(r: DiezRollout, p: int, q: int, card: int) -> None:
    r.hands[p].remove(card)
    r.hands[q].append(card)
    r.declared[q] = False
    r._expose(p)


EFFECTS: dict[str, Callable[[DiezRollout, dict], None]] = {
    "S": skip, "R": reverse, "+2": draw2, "ST": stop, "TG": tag, "DG": dagger, "TK": token_card,
    "TR": trade, "SH": share_card, "PR": proc_card, "CD": cut, "SL": steal, "RV": revive, "SD": stitch_card,
    "W+4": draw4, "WM": mulligan, "WF": flush, "WDC": drawcolor, "WC": choice,
}
"""Rank -> effect, for every card that has one (the engine's ``EFFECTS``)."""
START = {"effect": start_effect}
