"""The extended rules' cards in play, as a rollout (mirrors ``core/variants/extended/plays.py``):
what each card does when played, effects put on players and passed on, the counters (寡妇,
后悔药, 反弹, pass), duels and the turn-up they flip, shedding and keeping cards, the bomb, the
AOE chains' start and end, a reset and a stuck table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...variants.extended import effects as fx
from ...variants.extended.plays import PLAIN, TARGETED, TRANSFER

if TYPE_CHECKING:
    from .game import ExtendedRollout


def send(r: ExtendedRollout, e: dict[str, Any], to: int) -> None:
    e["on"] = to
    r.effects[to].append(e)


def counter(r: ExtendedRollout, p: int, card: int, e: dict[str, Any]) -> None:
    rank = r.T.rank[card]
    if rank == "REGRET":
        withdraw(r, p, card, e)
        return
    before = len(r.hands[p])
    r._lay(p, [card])
    r._hand_shrunk(p, before)
    in_window = r.ctx is not None
    if rank == "WIDOW":
        if not in_window:
            r._remove(e)
        cancel(r, e)
        if in_window:
            r._resume()
        else:
            r._judge()
        return
    r._remove(e)
    src = e["trail"][-1]["by"]
    fx.push_move(e, [card], p, None, None)
    if rank == "WRB":
        send(r, e, src)
    else:
        send(r, e, r._next(p))
        r.turn["skip"] = True
    r._judge()


def cancel(r: ExtendedRollout, e: dict[str, Any]) -> None:
    gone = fx.attached(e)
    if gone:
        r.discard += gone


def withdraw(r: ExtendedRollout, p: int, card: int, e: dict[str, Any]) -> None:
    r._take(p, [card])
    r.discard.append(card)
    in_window = r.ctx is not None
    if not in_window:
        r._remove(e)
    had = set(fx.attached(e))
    move, alive = fx.pop_move(e)
    q = move["by"]
    back = move["cards"]
    for c in back:
        r.discard.remove(c)
    riders = had - set(fx.attached(e)) if alive else had
    if move["last"] is not None and r.last in back:
        # last goes back to the card it covered, if that is still on the pile; else the pill is last
        if move["last"] in r.discard:
            r.last, r.color = move["last"], move["color"]
        else:
            r.last, r.color = card, r.T.cstr[card]
    r.hands[q] += list(back) + sorted(riders)
    r._hand_grew(q)
    if alive:
        r.effects[e["on"]].append(e)
    r.last_turn = None
    r._begin_turn(q, forbid=move["cards"][0])


def unstick(r: ExtendedRollout) -> None:
    r.stuck = 0
    c = turn_up(r, r.T.colored)
    if c >= 0:
        r.last, r.color = c, r.T.cstr[c]


def play(r: ExtendedRollout, p: int, card: int, color: str | None, target: int | None, camo: int | None = None) -> None:
    T = r.T
    t = r.turn
    hand = r.hands[p]
    before = len(hand)
    lb, cb = r.last, r.color
    if camo is None and T.plain[card] and not r.effects[p]:
        # A number or a Change Colour: _lay, _hand_shrunk and _after_play, inlined.
        hand.remove(card)
        r.discard.append(card)
        r.last, r.color = card, T.cstr[card] or color
        if t["played"]:
            t["extra"] -= 1
        t["played"] += 1
        t["plays"].append({"card": card, "last": lb, "color": cb, "plain": True})
        if before > 1 and len(hand) == 1 and not r.declared[p]:
            r.exposed = p
        elif r.exposed == p and len(hand) != 1:
            r.exposed = None
        r.ctx = None
        if hand and t["extra"] > 0:
            r.phase = "main"
            return
        r._end_turn(p)
        return
    rank = T.rank[card]
    if rank == "REGRET" and camo is None and regret_turn(r, p, card):
        return
    laid = [camo, card] if camo is not None else [card]
    r._lay(p, laid, color=color, as_color=color if camo is not None else None)
    if t["played"]:
        t["extra"] -= 1
    t["played"] += 1
    t["plays"].append({"card": card, "last": lb, "color": cb, "plain": camo is None and rank in PLAIN})
    if not T.transfer[card]:
        r._hand_shrunk(p, before)
    move = (laid[::-1], p, lb, cb)
    effect(r, p, card, rank, color, target, move, before)


def new(r: ExtendedRollout, kind: str, on: int, move: tuple, **fields: Any) -> dict[str, Any]:
    r.seq += 1
    e = fx.new_effect(r.seq, kind, on, **fields)
    cards, by, lb, cb = move
    fx.push_move(e, cards, by, lb, cb)
    return e


def effect(r: ExtendedRollout, p: int, card: int, rank: str, color: str | None, target: int | None, move: tuple,
           before: int) -> None:
    if r.T.plain[card]:
        r._after_play()
        return
    nxt = r._next(p)
    if rank == "S":
        send(r, new(r, "stun", nxt, move), nxt)
    elif rank == "R":
        r.direction = -r.direction
    elif rank in fx.DRAW_VALUE:
        v = fx.DRAW_VALUE[rank]
        send(r, new(r, "draw", nxt, move, total=v, max=v), nxt)
    elif rank == "INF":
        r.turn["extra"] += 1
    elif rank in TRANSFER:
        e = new(r, "transfer", nxt, move, rank=rank, layers=[{"by": p, "cards": []}])
        r.ctx = {"op": "attach", "who": p, "effect": e, "left": 2, "before": before}
        r.phase = "attach"
        if not r.hands[p]:
            send_transfer(r, p)
        return
    elif rank == "HAND" and r.n - r.knocked == 2:
        r._draw(p, 1)
    elif rank in ("HAND", "CLIP", "DUELC", "DUELN"):
        tgt = target if rank in TARGETED else nxt
        e = new(r, fx.CARD_EFFECT[rank], tgt, move, rank=rank)
        r.ctx = {"op": "react", "who": tgt, "effect": e}
        r.phase = "react"
        return
    elif rank == "GIFT":
        if shed_choice(r, p, 1, "any"):
            return
    elif rank == "CHOSEN":
        if chosen(r, p):
            return
    elif rank == "BOMB":
        for q, k in bomb_draws(r, p):
            r._draw(q, k)
    elif rank in ("DISARM", "CURSE"):
        tgt = target if rank == "CURSE" else nxt
        send(r, new(r, fx.CARD_EFFECT[rank], tgt, move), tgt)
    elif rank == "WGREN":
        start_aoe(r, "grenade", p, nxt, color=color)
        return
    elif rank == "WC4":
        start_aoe(r, "c4", p, p)
        return
    elif rank == "WARG":
        start_aoe(r, "argue", p, p, x=0)
        return
    r._after_play()


def regret_turn(r: ExtendedRollout, p: int, card: int) -> bool:
    rec = r.last_turn
    q = upstream(r, p)
    if rec is None or rec["player"] != q or r.out[q]:
        return False
    if rec["kind"] == "draw":
        drawn = rec["card"] if rec["card"] >= 0 else None
        if drawn is None or drawn not in r.hands[q]:
            return False
    elif r.last != rec["card"]:
        return False
    before = len(r.hands[p])
    lb, cb = r.last, r.color
    r._lay(p, [card])  # a green card played: it becomes last
    r._hand_shrunk(p, before)
    r.turn["played"] += 1
    r.turn["plays"].append({"card": card, "last": lb, "color": cb, "plain": False})
    r.last_turn = None
    if rec["kind"] == "draw":
        r.hands[q].remove(drawn)
        r.draw.insert(0, drawn)
        r._draw(q, 1)
        r._after_play()
        return True
    back = rec["card"]
    r.discard.remove(back)
    r.hands[q].append(back)
    r._hand_grew(q)
    r._begin_turn(q, forbid=back)
    return True


def upstream(r: ExtendedRollout, p: int) -> int:
    n = r.n
    q = (p - r.direction) % n
    while r.out[q] and q != p:
        q = (q - r.direction) % n
    return q


def duel(r: ExtendedRollout, e: dict[str, Any]) -> None:
    a, b = e["trail"][-1]["by"], e["on"]
    if e["rank"] == "DUELC":
        r.ctx = {"op": "duel", "who": a, "by": a, "on": b, "picks": []}
        r.phase = "duel"
        return
    va = flip(r, True)
    vb = flip(r, True) if va >= 0 else -1  # no number for a: none for b either
    num = r.T.num
    na = num[va] if va >= 0 else -1
    nb = num[vb] if vb >= 0 else -1
    winner = a if na > nb else b if nb > na else None
    duel_result(r, a, b, winner)


def turn_up(r: ExtendedRollout, wanted: Any) -> int:
    """Turn cards from the pile onto the discards until one is ``wanted`` (a card test); -1
    when none can come up: the pile is empty and a reshuffle could bring back only cards
    this turn-up has shown (the engine's ``plays.turn_up``)."""
    shown: set[int] = set()
    while True:
        if not r.draw and shown.issuperset(r._reshuffle_pool()):
            return -1
        c = r._draw_one()
        r.discard.append(c)
        shown.add(c)
        if wanted[c]:
            return c


def flip(r: ExtendedRollout, numbers: bool) -> int:
    return turn_up(r, r.T.is_number if numbers else r.T.any_card)


def duel_result(r: ExtendedRollout, a: int, b: int, winner: int | None) -> None:
    losers = [a, b] if winner is None else [b if winner == a else a]
    for q in losers:
        r._draw(q, 4)
    if winner is not None and shed_choice(r, winner, 2, "any"):
        return
    r._resume()


def shed_choice(r: ExtendedRollout, p: int, n: int, filt: str) -> bool:
    num = r.T.is_number
    pool = [c for c in r.hands[p] if filt == "any" or not num[c]]
    if len(pool) <= n:
        if pool:
            before = len(r.hands[p])
            r._take(p, pool, hand_before=before)
            r.discard += pool
        return False
    r.ctx = {"op": "discard", "who": p, "left": n, "filter": filt}
    r.phase = "discard"
    return True


def chosen(r: ExtendedRollout, p: int) -> bool:
    num = r.T.is_number
    numbers = [c for c in r.hands[p] if num[c]]
    if len(numbers) > 1:
        r.ctx = {"op": "keep", "who": p}
        r.phase = "keep"
        return True
    keep_only(r, p, numbers[0] if numbers else None)
    return False


def keep_only(r: ExtendedRollout, p: int, keep: int | None) -> None:
    gone = [c for c in r.hands[p] if c != keep]
    if gone:
        r._take(p, gone)
        r.discard += gone


def bomb_draws(r: ExtendedRollout, p: int) -> list[tuple[int, int]]:
    act = r._active()
    x = len(act)
    i = act.index(p)
    out = [(p, x)]
    dist = []
    for j, q in enumerate(act):
        if q == p:
            continue
        fwd = (j - i) % x if r.direction == 1 else (i - j) % x
        d = min(fwd, x - fwd)
        dist.append((d, 0 if fwd <= x - fwd else 1, q))
    for d, side, q in sorted(dist):
        out.append((q, x - d))
    return out


def start_aoe(r: ExtendedRollout, kind: str, p: int, first: int, **fields: Any) -> None:
    r.ctx = {"op": kind, "who": first, "by": p, **fields}
    r.phase = kind


def aoe_end(r: ExtendedRollout, start: int) -> None:
    by = r.ctx["by"]
    r.ctx = None
    r._drop(by, "lock")
    r.last_turn = None
    r._begin_turn(start)


def reset(r: ExtendedRollout, p: int) -> None:
    gone = r.hands[p]
    r.hands[p] = []
    r.discard += gone
    r._check_bound(p)
    r._draw(p, r.T.reset_size)


def send_transfer(r: ExtendedRollout, p: int) -> None:
    """The transfer's cards are attached: it goes to the next player, and the turn goes on."""
    ctx = r.ctx
    r._hand_shrunk(p, ctx["before"])
    r.ctx = None
    send(r, ctx["effect"], r._next(p))
    r._resume()
