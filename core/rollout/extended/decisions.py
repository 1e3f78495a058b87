"""The extended rules' rollout decisions (mirrors ``core/variants/extended/decisions.py``): what
the player the game waits on may do in each phase (:func:`actions`), and carrying out their
move (``resolve_<phase>``, gathered in :data:`RESOLVE`). A resolver gets the move as a tuple
(kind's name, card id, colour, target), None where the move has none; the play phase's own
resolver takes the move int, the hot path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...cards import COLORS
from ...variants.extended import effects as fx
from ...variants.extended.plays import NAMES_COLOR
from ..base import CARD_SHIFT, NO_TARGET, encode
from . import plays
from .tables import (
    ARG, DUEL_COLORS, K_ATTACH, K_CAMO, K_CHOOSE, K_DIRECTION, K_DISCARD, K_DRAW, K_EXPLODE, K_KEEP, K_PASS,
    K_PLAY, K_REFUSE, K_SEND, STRS,
)

if TYPE_CHECKING:
    from .game import ExtendedRollout


def actions(r: ExtendedRollout, p: int) -> list[int]:
    ph = r.phase
    if ph == "main":
        return main_actions(r, p)
    if ph == "judge":
        return judge_actions(r, p)
    if ph == "direction":
        n = r.n
        return [encode(K_DIRECTION, p, target=t) for t in dict.fromkeys(((p + 1) % n, (p - 1) % n))]
    ctx = r.ctx
    hand = r.hands[p]
    if ph == "react":
        return [r.T.accept[p]] + counters(r, p, ctx["effect"])
    if ph == "attach":
        acts = [encode(K_ATTACH, p, c) for c in hand] if ctx["left"] else []
        return acts + [encode(K_SEND, p)]
    if ph == "duel":
        return [encode(K_CHOOSE, p, arg=ARG[c]) for c in DUEL_COLORS if c not in ctx["picks"]]
    if ph == "discard":
        return [encode(K_DISCARD, p, c) for c in discardable(r, p)]
    if ph == "keep":
        num = r.T.is_number
        return [encode(K_KEEP, p, c) for c in hand if num[c]]
    if ph in ("grenade", "c4", "argue"):
        return aoe_actions(r, p)
    return []


def card_acts(r: ExtendedRollout, p: int, c: int, kind: int = K_PLAY, color: str | None = None) -> list[int]:
    T = r.T
    rank = T.rank[c]
    if rank in NAMES_COLOR:
        return [encode(kind, p, c, ARG[k]) for k in COLORS]
    if T.targeted[c]:
        arg = 0 if color is None else ARG[color]
        return [encode(kind, p, c, arg, t) for t in range(r.n) if not r.out[t] and t != p]
    if kind == K_PLAY:
        return [T.play[p][c][0]]
    return [encode(kind, p, c, 0 if color is None else ARG[color])]


def main_actions(r: ExtendedRollout, p: int) -> list[int]:
    T = r.T
    t = r.turn
    hand = r.hands[p]
    acts: list[int] = []
    if not t["played"] or t["extra"] > 0:
        forbid = t["forbid"]
        camo_card = T.camo
        camo = T.camo_id in hand
        es = r.effects[p]
        if not camo and forbid is None and not (es and any(e["kind"] == "lock" for e in es)):
            # The hot path: the match table says it all.
            last = r.last if r.last is not None else r.discard[-1]
            m = T.match[T.code[r.color] * T.nr + T.rk[last]]
            play = T.play[p]
            for c in hand:
                if m[c]:
                    acts += play[c] or card_acts(r, p, c)
        else:
            for c in hand:
                if c == forbid or camo_card[c]:
                    continue
                if r._can_play(p, c):
                    acts += card_acts(r, p, c)
                if camo and T.cstr[c] is not None:
                    for col in COLORS:
                        if r._can_play(p, c, col):
                            acts += card_acts(r, p, c, K_CAMO, col)
    if t["drew"] is None and not t["played"] and r._room(p) and r._can_draw():
        acts.append(T.draw[p])
    if t["drew"] is not None or t["played"] or not acts:
        acts.append(T.pass_[p])
    return acts


def counters(r: ExtendedRollout, p: int, e: dict[str, Any], *, aoe: bool = False) -> list[int]:
    if r.effects[p] and r._has(p, "weak"):
        return []
    T = r.T
    forbid = r.turn["forbid"]
    return [T.play[p][c][0] for c in r.hands[p]
            if T.counter[c] and c != forbid and fx.can_counter(T.rank[c], e, aoe=aoe)]


def judge_actions(r: ExtendedRollout, p: int) -> list[int]:
    T = r.T
    e = fx.judge_order(r.effects[p])[0]
    acts = [T.accept[p]]
    if e["kind"] == "disarm":
        acts.append(encode(K_REFUSE, p))
    if not r._has(p, "weak"):
        forbid = r.turn["forbid"]
        for c in r.hands[p]:
            if c == forbid:
                continue
            if e["kind"] == "draw" and T.draw_value[c] >= e["max"]:
                acts += card_acts(r, p, c)
            elif e["kind"] == "transfer" and T.rank[c] == e["rank"] and not r._locked(p, c):
                acts.append(T.play[p][c][0])
        acts += counters(r, p, e)
    return acts


def discardable(r: ExtendedRollout, p: int) -> list[int]:
    if r.ctx and r.ctx.get("filter") == "function":
        num = r.T.is_number
        return [c for c in r.hands[p] if not num[c]]
    return list(r.hands[p])


def aoe_actions(r: ExtendedRollout, p: int) -> list[int]:
    T = r.T
    ctx = r.ctx
    hand = r.hands[p]
    acts: list[int] = []
    ph = r.phase
    if ph == "grenade":
        want = ctx["color"]
        camo = any(T.camo[c] for c in hand)
        for c in hand:
            if T.cstr[c] == want:
                acts += [encode(K_PLAY, p, c, ARG[col]) for col in COLORS]
            elif camo and T.cstr[c] is not None:
                acts += [encode(K_CAMO, p, c, ARG[col]) for col in COLORS]
        if not acts:
            acts.append(encode(K_EXPLODE, p))
    elif ph == "c4":
        acts = [T.play[p][c][0] for c in hand if T.is_number[c]] + [encode(K_EXPLODE, p)]
    else:  # argue
        acts = [T.play[p][c][0] for c in hand if T.is_number[c] and T.num[c] >= ctx["x"]]
        if not acts:
            acts.append(encode(K_REFUSE, p))
    if p != ctx["by"]:
        acts += counters(r, p, {"kind": ph, "tier": fx.TIER[ph], "trail": []}, aoe=True)
    return acts


def resolve_judge(r: ExtendedRollout, p: int, a: tuple) -> None:
    kind_a, card, color, target = a
    e = fx.judge_order(r.effects[p])[0]
    kind = e["kind"]
    t = r.turn
    if kind_a == "accept":
        r._remove(e)
        if kind == "draw":
            r._draw(p, e["total"])
            t["skip"] = True
        elif kind == "transfer":
            got = fx.attached(e)
            r._give(p, got)
            r._add(p, "lock", rank=e["rank"])
        elif kind == "disarm":
            t["skip"] = True
            if plays.shed_choice(r, p, 2, "function"):
                return
        elif kind == "curse":
            r._bind(p)
        r._judge()
        return
    if kind_a == "refuse":
        r._remove(e)
        r._draw(p, 4)
        t["skip"] = True
        r._judge()
        return
    T = r.T
    if T.counter[card]:
        plays.counter(r, p, card, e)
        return
    t["skip"] = True
    r._remove(e)
    before = len(r.hands[p])
    lb, cb = r.last, r.color
    r._lay(p, [card], color=color)
    fx.push_move(e, [card], p, lb, cb)
    if kind == "draw":
        v = T.draw_value[card]
        e["total"] += v
        e["max"] = max(e["max"], v)
        r._hand_shrunk(p, before)
        plays.send(r, e, r._next(p))
        r._judge()
    else:
        e["layers"].append({"by": p, "cards": []})
        r.ctx = {"op": "attach", "who": p, "effect": e, "left": 2, "before": before}
        r.phase = "attach"


def resolve_main(r: ExtendedRollout, p: int, kind: int, m: int) -> None:
    t = r.turn
    if kind == K_DRAW:
        r.stuck = 0
        hand = r.hands[p]
        if r.draw and not r.effects[p] and len(hand) < r.T.hand_cap:
            c = r.draw.pop()  # _draw(p, 1) when nothing is in the way
            hand.append(c)
            r.declared[p] = False
            if r.exposed == p:
                r.exposed = None
            t["drew"] = c
            return
        got = r._draw(p, 1)
        t["drew"] = got[0] if got else -1
        return
    if kind == K_PASS:
        stuck = not t["played"] and t["drew"] is None
        r.stuck = r.stuck + 1 if stuck else 0
        if stuck and r.stuck >= r.n - r.knocked:
            plays.unstick(r)
        r._end_turn(p)
        return
    r.stuck = 0
    card = (m >> CARD_SHIFT) & 255
    arg = (m >> 8) & 63
    target = (m >> 4) & 15
    color = STRS[arg - 1] if arg else None
    plays.play(r, p, card, color, None if target == NO_TARGET else target,
               r.T.camo_id if kind == K_CAMO else None)


def resolve_react(r: ExtendedRollout, p: int, a: tuple) -> None:
    e = r.ctx["effect"]
    if a[0] != "accept":
        plays.counter(r, p, a[1], e)
        return
    by, kind = e["trail"][-1]["by"], e["kind"]
    r.ctx = None
    if kind == "swap":
        sizes = ((by, len(r.hands[by])), (p, len(r.hands[p])))
        r.hands[by], r.hands[p] = r.hands[p], r.hands[by]
        for q, before in sizes:
            # A hand that goes from more than one card to one must call UNO, as after a play.
            if len(r.hands[q]) != 1:
                r.declared[q] = False
                if r.exposed == q:
                    r.exposed = None
            elif before > 1:
                r.declared[q] = False
            r._hand_shrunk(q, before)
    elif kind == "clip":
        mine = r.hands[p][:]
        taken = r._shuffled(mine)[:2] if len(mine) > 2 else sorted(mine)
        before = len(r.hands[p])
        for c in taken:
            r.hands[p].remove(c)
        r.hands[by] += taken
        r._hand_grew(by)
        r._hand_shrunk(p, before)
    else:
        plays.duel(r, e)
        return
    r._resume()


def resolve_duel(r: ExtendedRollout, p: int, a: tuple) -> None:
    ctx = r.ctx
    ctx["picks"].append(a[2])
    x, y = ctx["by"], ctx["on"]
    if len(ctx["picks"]) < 4:
        ctx["who"] = y if p == x else x
        return
    c = plays.flip(r, False)
    col = None if c < 0 else (r.T.cstr[c] or "black")
    picks = ctx["picks"]
    winner = None
    if col in picks:
        winner = x if picks.index(col) % 2 == 0 else y
    r.ctx = None
    plays.duel_result(r, x, y, winner)


def resolve_discard(r: ExtendedRollout, p: int, a: tuple) -> None:
    c = a[1]
    r._take(p, [c])
    r.discard.append(c)
    r.ctx["left"] -= 1
    if r.ctx["left"] == 0 or not discardable(r, p):
        r._resume()


def resolve_chain(r: ExtendedRollout, p: int, a: tuple) -> None:
    kind_a, card, color, target = a
    T = r.T
    ctx = r.ctx
    kind = r.phase
    by = ctx["by"]
    if kind_a == "play" and color is None and T.rank[card] == "WIDOW":
        before = len(r.hands[p])
        r._lay(p, [card])
        r._hand_shrunk(p, before)
        plays.aoe_end(r, r._next(p) if kind == "grenade" else r._next(by))
        return
    if kind_a in ("explode", "refuse"):
        if kind == "argue":
            r._draw(p, 4)
            plays.aoe_end(r, r._next(by))
            return
        plays.reset(r, p)
        plays.aoe_end(r, r._next(p) if kind == "grenade" else r._next(by))
        return
    before = len(r.hands[p])
    if kind_a == "camo":
        camo = next(c for c in r.hands[p] if T.camo[c])
        r._lay(p, [camo, card], as_color=ctx["color"])
    else:
        r._lay(p, [card])
    r._hand_shrunk(p, before)
    if kind == "grenade":
        ctx["color"] = color
        ctx["who"] = r._next(p)
    elif kind == "c4":
        k = T.num[card]
        ctx["who"] = r._next(p, k) if k else p
    else:
        ctx["x"] = T.num[card]
        ctx["who"] = r._next(p)


def resolve_attach(r: ExtendedRollout, p: int, a: tuple) -> None:
    ctx = r.ctx
    e = ctx["effect"]
    if a[0] == "attach":
        c = a[1]
        r.hands[p].remove(c)
        r._check_bound(p)
        e["layers"][-1]["cards"].append(c)
        ctx["left"] -= 1
        if ctx["left"] and r.hands[p]:
            return
    plays.send_transfer(r, p)


def resolve_direction(r: ExtendedRollout, p: int, a: tuple) -> None:
    r.direction = 1 if a[3] == (p + 1) % r.n else -1
    r._begin_turn(p)


def resolve_keep(r: ExtendedRollout, p: int, a: tuple) -> None:
    plays.keep_only(r, p, a[1])
    r._resume()


RESOLVE: dict[str, Callable[[ExtendedRollout, int, tuple], None]] = {
    "judge": resolve_judge, "direction": resolve_direction, "react": resolve_react, "attach": resolve_attach,
    "duel": resolve_duel, "discard": resolve_discard, "keep": resolve_keep,
    "grenade": resolve_chain, "c4": resolve_chain, "argue": resolve_chain,
}
"""Each phase but the play phase's (:func:`resolve_main`): carry out a move answering it."""
