"""The Diez rollout's decisions (mirrors ``core/variants/diez/decisions.py``): for every step
that waits for a player, ``start_<op>`` (the step comes up: skip it when there is nothing to
decide; True to wait), ``legal_<op>`` (the moves of the player it waits on) and
``resolve_<op>`` (carry out the move), gathered in :data:`START`, :data:`LEGAL` and
:data:`RESOLVE`. A resolver gets the move's fields: its kind's name, card id, string argument
and target (None where the move has none).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from ...variants.diez.cards import CHOICE_EFFECTS, CHOICE_STACK_EFFECTS, TOKEN_KINDS
from ..base import encode, with_target
from . import effects, tokens
from .steps import (
    ACE, AIMED, ARG, BLOCK, DOUBLE, HEX, K_DISCARD, K_DRAW_TOKEN, K_DROP, K_EFFECT, K_GIVE, K_PROC, K_REMOVE,
    K_REPLACE, K_STITCH, K_STOP, K_TAKE, K_TARGET, LINK, MAGNET, MIRROR, SILENCE, SNARE, STACKABLE,
    STACKABLE_ORDER, SUB, TOKEN_ARG, TOKEN_INDEX, WHITE_TOKEN, distinct, draw_step, searchable, start_wait,
)

if TYPE_CHECKING:
    from .game import DiezRollout


def start_color(r: DiezRollout, s: dict) -> bool:
    if s["sub"]:
        holders = [q for q in range(r.n) if not r.out[q] and q != s["who"] and SUB in r.tokens[q]]
        if holders:
            return r._wait(s, "sub", holders[0])
        s["sub"] = False
    return r._wait(s, "color")


def legal_color(r: DiezRollout, p: int, s: dict) -> list[int]:
    return list(r.T.color_moves[p]) + ([r.T.pass_[p]] if r.phase == "sub" else [])


def resolve_color(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                  s: dict) -> None:
    if kind == "pass":
        s["sub"] = False
        return
    if r.phase == "sub":
        tokens.lose(r, p, SUB)
    r.queue.pop(0)
    r.colors[s["pile"]] = r.T.ccode[arg]


def legal_choice(r: DiezRollout, p: int, s: dict) -> list[int]:
    if s["stack"]:
        ranks = [rank for rank in CHOICE_STACK_EFFECTS
                 if rank != "PR" or any(tokens.held(r, k) for k in STACKABLE)]
        return [encode(K_EFFECT, p, arg=ARG[rank]) for rank in ranks]
    return [encode(K_EFFECT, p, arg=ARG[rank]) for rank in CHOICE_EFFECTS if rank != "CD"] + [r.T.pass_[p]]


def resolve_choice(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                   s: dict) -> None:
    r.queue.pop(0)
    effects.choice_chosen(r, s, None if kind == "pass" else arg)


def legal_target(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [encode(K_TARGET, p, target=q) for q in range(r.n) if not r.out[q]]


def resolve_target(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, q: int, s: dict) -> None:
    r.queue.pop(0)
    if s["stack"]:
        effects.move_stack(r, s, q)
    elif tokens.mirror(r, q, p):
        r._end()["to"] = p
    else:
        r._end()["to"] = q


def start_token(r: DiezRollout, s: dict) -> bool:
    if not legal_token(r, s["who"], s):
        r.queue.pop(0)
        return False
    return r._wait(s)


def legal_token(r: DiezRollout, p: int, s: dict) -> list[int]:
    acts = [encode(K_DRAW_TOKEN, p)] if r.bag and tokens.recipients(r, p) else []
    for q in range(r.n):
        if not r.out[q]:
            acts += [encode(K_REMOVE, p, arg=TOKEN_ARG + k, target=q) for k in tokens.kinds(r, q)]
    return acts


def resolve_token(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                  s: dict) -> None:
    r.queue.pop(0)
    if kind == "remove":
        tokens.lose(r, target, TOKEN_INDEX[arg])
        return
    k = tokens.draw_token(r)
    r.queue.insert(0, {"op": "give", "who": p, "token": TOKEN_KINDS[k]})


def start_give(r: DiezRollout, s: dict) -> bool:
    rec = tokens.recipients(r, s["who"])
    if len(rec) == 1:
        r.queue.pop(0)
        r.tokens[rec[0]].append(TOKEN_INDEX[s["token"]])
        return False
    return r._wait(s)


def legal_give(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [encode(K_GIVE, p, target=q) for q in tokens.recipients(r, p)]


def resolve_give(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                 s: dict) -> None:
    r.queue.pop(0)
    r.tokens[target].append(TOKEN_INDEX[s["token"]])


def legal_steal(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [encode(K_TAKE, p, arg=TOKEN_ARG + k, target=q) for q in range(r.n)
            if not r.out[q] and q != p for k in tokens.kinds(r, q)]


def resolve_steal(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                  s: dict) -> None:
    r.queue.pop(0)
    k = TOKEN_INDEX[arg]
    r.tokens[target].remove(k)
    r.tokens[p].append(k)


def start_drop(r: DiezRollout, s: dict) -> bool:
    if not any(r.tokens[q] for q in range(r.n) if not r.out[q]):
        r.queue.pop(0)
        return False
    return r._wait(s)


def legal_drop(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [encode(K_DROP, p, target=q) for q in range(r.n) if not r.out[q] and r.tokens[q]]


def resolve_drop(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, q: int, s: dict) -> None:
    r.queue.pop(0)
    r.bag += r.tokens[q]
    r.tokens[q] = []


def start_search(r: DiezRollout, s: dict) -> bool:
    if not searchable(r, s):
        r.queue.pop(0)
        return False
    return r._wait(s)


def legal_search(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [encode(K_TAKE, p, card=c) for c in searchable(r, s)] + [r.T.pass_[p]]


def resolve_search(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                   s: dict) -> None:
    r.queue.pop(0)
    if kind == "pass":
        return
    if s["where"] == "draw":
        r.draw.remove(card)
    else:
        r.piles[s["where"]].remove(card)
    if s["ace"]:
        tokens.lose(r, p, ACE)
        r.queue[0]["n"] -= 1
    r._give(p, [card])


def legal_stitch(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [encode(K_STITCH, p, target=j) for j in range(len(r.piles)) if j != s["pile"]]


def resolve_stitch(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, j: int, s: dict) -> None:
    r.queue.pop(0)
    effects.stitch(r, s["pile"], j)


def legal_discard(r: DiezRollout, p: int, s: dict) -> list[int]:
    hand = r.hands[p]
    if s["mode"] == "mulligan":
        cards = hand
    else:
        want, col, cname = s["color"], r.T.col, r.T.cname
        cards = [c for c in hand if cname[col[c]] == want]
    return [encode(K_DISCARD, p, card=c) for c in distinct(r, cards)] + [r.T.pass_[p]]


def resolve_discard(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                    s: dict) -> None:
    if kind == "pass":
        r.queue.pop(0)
        if s["mode"] == "mulligan" and s["count"]:
            r.draw = r._shuffled(r.draw)
            r.queue.insert(0, draw_step(p, s["count"], reason="mulligan"))
        return
    r.hands[p].remove(card)
    s["count"] += 1
    if s["mode"] == "mulligan":
        r.draw.append(card)
        if r.exposed == p:  # its last card gone: nothing to catch (as the engine's Discard)
            r.exposed = None
    else:
        i = s["pile"]
        r.piles[i].append(card)
        r.jump_ok[i], r.skipped[i], r.reversed[i] = False, None, False
        r._expose(p)


def legal_proc(r: DiezRollout, p: int, s: dict) -> list[int]:
    held = {k for t in r.tokens for k in t}
    if s["stack"]:
        return [encode(K_PROC, p, arg=TOKEN_ARG + k) for k in STACKABLE_ORDER if k in held]
    acts = []
    for k in range(len(TOKEN_KINDS)):
        if k not in held or k == DOUBLE or (k == MIRROR and r.armed[p]):
            continue
        if k == BLOCK:
            acts += [encode(K_PROC, p, arg=TOKEN_ARG + k, target=q) for q in range(r.n)
                     if not r.out[q] and BLOCK in r.tokens[q]]
        else:
            acts.append(encode(K_PROC, p, arg=TOKEN_ARG + k))
    return acts + [r.T.pass_[p]]


def resolve_proc(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                 s: dict) -> None:
    r.queue.pop(0)
    if kind == "pass":
        return
    k = TOKEN_INDEX[arg]
    v = r._next(p)
    if s["stack"]:
        if k == SILENCE or k == SNARE:
            r.pending = None
        elif k == DOUBLE:
            effects.move_stack(r, {**s, "who": p, "bluff": False}, v, add=r.pending["total"])
        else:  # mirror
            by, total = r.pending["by"], r.pending["total"]
            r.pending = None
            r._insert_before_end(draw_step(by, total, forced=True))
            end = r._end()
            end["to"] = r._next(by) if v == by else v
        return
    who, on = (v, p) if k in AIMED and tokens.mirror(r, v, p) else (p, v)
    if k == HEX:
        n = len(r.tokens[on])
        if n:
            r._insert_before_end(draw_step(on, n, forced=on != p, reason="hex"))
    elif k == MAGNET:
        r.queue.insert(0, {"op": "give_card", "who": who, "to": on})
    elif k == MIRROR:
        r.armed[p] = True
    elif k == BLOCK:
        r.tokens[target].remove(BLOCK)
        r.queue.insert(0, {"op": "replace", "who": p, "holder": target})
    elif k == LINK:
        if underlined(r, p):
            r.queue.insert(0, {"op": "link", "who": p})
    elif k == ACE:
        r.queue.insert(0, {"op": "search", "who": p, "where": "draw", "ace": False})
    elif k == SUB:
        r.queue.insert(0, {"op": "color", "who": p, "pile": s["pile"], "sub": False})
    elif k == WHITE_TOKEN:
        tokens.white(r, on)


def legal_replace(r: DiezRollout, p: int, s: dict) -> list[int]:
    return ([encode(K_REPLACE, p)] if r.bag else []) + [r.T.pass_[p]]


def resolve_replace(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                    s: dict) -> None:
    r.queue.pop(0)
    if kind == "replace":
        r.tokens[s["holder"]].append(tokens.draw_token(r))
    r.bag.append(BLOCK)


def legal_link(r: DiezRollout, p: int, s: dict) -> list[int]:
    play = r.T.play[p]
    return [play[c] if r._pt(i) is None else with_target(play[c], i)
            for c in distinct(r, underlined(r, p)) for i in range(len(r.piles))] + [r.T.pass_[p]]


def resolve_link(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                 s: dict) -> None:
    r.queue.pop(0)
    if kind == "pass":
        return
    i = target or 0
    r.hands[p].remove(card)
    r.piles[i].append(card)
    r.jump_ok[i], r.skipped[i], r.reversed[i] = True, None, False
    r.colors[i] = r.T.col[card]
    r.focus = i
    r._expose(p)
    if not r.hands[p]:
        r.queue = []
        r._end_round(p)


def underlined(r: DiezRollout, p: int) -> list[int]:
    und = r.T.underlined
    return [c for c in r.hands[p] if und[c]]


def legal_give_card(r: DiezRollout, p: int, s: dict) -> list[int]:
    hand = r.hands[p]
    if len(hand) < 2:
        return [r.T.pass_[p]]
    return [encode(K_GIVE, p, card=c) for c in distinct(r, hand)] + [r.T.pass_[p]]


def resolve_give_card(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                      s: dict) -> None:
    r.queue.pop(0)
    if kind == "give":
        effects.hand_over(r, p, s["to"], card)


def legal_magnet(r: DiezRollout, p: int, s: dict) -> list[int]:
    hand = r.hands[p]
    if len(hand) < 2:
        return [r.T.pass_[p]]
    cards = distinct(r, [c for c in s["cards"] if c in hand])
    return [encode(K_GIVE, p, card=c, target=h) for c in cards for h in s["holders"]] + [r.T.pass_[p]]


def resolve_magnet(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                   s: dict) -> None:
    r.queue.pop(0)
    if kind == "give":
        effects.hand_over(r, p, target, card)


def legal_needle(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [encode(K_STOP, p), r.T.draw[p]]


def resolve_needle(r: DiezRollout, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                   s: dict) -> None:
    r.queue.pop(0)
    if kind == "stop":
        r.queue[0]["stopped"] = True


def legal_challenge(r: DiezRollout, p: int, s: dict) -> list[int]:
    return [r.T.challenge[p], r.T.pass_[p] if s["card"] == "WC" else r.T.draw[p]]


def resolve_challenge(r: DiezRollout, v: int, kind: str, card: int | None, arg: str | None, target: int | None,
                      s: dict) -> None:
    r.queue.pop(0)
    what, p = s["card"], s["by"]
    if kind != "challenge":
        if what == "DG":
            r.queue.insert(0, draw_step(v, 1, forced=True, reason="dagger"))
        elif what == "WDC":
            r.queue.insert(0, draw_step(v, until=s["color"], forced=True, reason="draw_color"))
        return
    guilty = s["bluff"]
    end = r._end()
    if what == "DG":
        r.queue.insert(0, draw_step(p, 8, reason="guilty") if guilty
                       else draw_step(v, 9, forced=True, reason="innocent"))
    elif what == "WDC":
        if guilty:
            end["to"] = v
            r.queue.insert(0, draw_step(p, until=s["color"], reason="guilty"))
        else:
            # one forced draw: until the colour, then 2 (Hex once, Double all of it, one Magnet)
            r.queue.insert(0, draw_step(v, 2, until=s["color"], forced=True, reason="innocent"))
    else:  # Choice
        if guilty:
            if r.queue and r.queue[0]["op"] == "effect":
                r.queue.pop(0)
            if s["stack"]:
                r.pending = None
            end["to"], end["phase"] = v, "play"
            r.queue.insert(0, draw_step(p, 2 + (s["t0"] if s["stack"] else 0), reason="guilty"))
        else:
            r.queue.insert(0, draw_step(v, 3, forced=True, reason="innocent"))


START: dict[str, Callable[[DiezRollout, dict], bool]] = {
    "color": start_color, "choice": start_wait, "target": start_wait, "token": start_token,
    "give": start_give, "steal": start_wait, "drop": start_drop, "search": start_search,
    "stitch": start_wait, "discard": start_wait, "proc": start_wait, "replace": start_wait,
    "link": start_wait, "give_card": start_wait, "magnet": start_wait, "needle": start_wait,
    "challenge": start_wait,
}
"""What each decision step does when it comes up (most just wait for their player)."""
LEGAL: dict[str, Callable[[DiezRollout, int, dict], list[int]]] = {
    "color": legal_color, "choice": legal_choice, "target": legal_target, "token": legal_token,
    "give": legal_give, "steal": legal_steal, "drop": legal_drop, "search": legal_search,
    "stitch": legal_stitch, "discard": legal_discard, "proc": legal_proc, "replace": legal_replace,
    "link": legal_link, "give_card": legal_give_card, "magnet": legal_magnet, "needle": legal_needle,
    "challenge": legal_challenge,
}
"""The moves of the player a decision step waits on."""
RESOLVE: dict[str, Callable[..., None]] = {
    "color": resolve_color, "choice": resolve_choice, "target": resolve_target, "token": resolve_token,
    "give": resolve_give, "steal": resolve_steal, "drop": resolve_drop, "search": resolve_search,
    "stitch": resolve_stitch, "discard": resolve_discard, "proc": resolve_proc, "replace": resolve_replace,
    "link": resolve_link, "give_card": resolve_give_card, "magnet": resolve_magnet, "needle": resolve_needle,
    "challenge": resolve_challenge,
}
"""Carry out a move answering a decision step: (rollout, player, kind's name, card, arg, target, step)."""
