"""The extended rules' cards in play: what each card does when played, how effects are put
on players and passed on, the counters (寡妇, 后悔药, 反弹, pass), duels, shedding and keeping
cards, the bomb, and the AOE chains' start and end. The effects themselves (their classes,
priorities and trails) are ``effects.py``; the phases that wait for a player are
``decisions.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ...actions import Action
from ...cards import Card
from ...events import Event
from . import effects as fx
from .cards import NUMBERS

if TYPE_CHECKING:
    from .game import ExtendedGame

ACCEPT = Action("accept")
REFUSE = Action("refuse")
SEND = Action("send")
EXPLODE = Action("explode")
TRANSFER = {"T4": range(0, 5), "T5": range(5, 10)}
TARGETED = frozenset({"DUELC", "DUELN", "CURSE"})
NAMES_COLOR = frozenset({"W", "W+4", "WGREN"})
CHANGES_LAST_BLACK = frozenset({"W", "W+4"})
PLAIN = frozenset(NUMBERS) | {"W"}
"""Plays that leave nothing behind but ``last`` and the colour (a Regret Pill can undo them)."""


def send(g: ExtendedGame, e: dict[str, Any], to: int, events: list[Event]) -> None:
    e["on"] = to
    g.effects[to].append(e)
    events.append(Event("effect", player=e["trail"][-1]["by"] if e["trail"] else None, target=to,
                        reason=e["kind"], count=e.get("total", len(fx.attached(e)))))


def new(g: ExtendedGame, kind: str, on: int, move: tuple, **fields: Any) -> dict[str, Any]:
    g.seq += 1
    e = fx.new_effect(g.seq, kind, on, **fields)
    cards, by, lb, cb = move
    fx.push_move(e, cards, by, lb, cb)
    return e


def counter(g: ExtendedGame, p: int, card: Card, e: dict[str, Any], events: list[Event]) -> None:
    """``p`` answers effect ``e`` (on them, or aimed at them) with a higher-priority card."""
    rank = card.rank
    if rank == "REGRET":
        withdraw(g, p, card, e, events)
        return
    before = len(g.hands[p])
    g._lay(p, [card], events)
    g._hand_shrunk(p, before, events)
    in_window = g.ctx is not None
    if rank == "WIDOW":
        events.append(Event("cancel", player=p, cards=(card,), reason=e["kind"]))
        if not in_window:
            g._remove(e)
        cancel(g, e, events)
        if in_window:
            g._resume(events)
        else:
            g._judge(events)
        return
    g._remove(e)
    src = e["trail"][-1]["by"]
    fx.push_move(e, [card.id], p, None, None)  # black: last stays
    if rank == "WRB":
        events.append(Event("rebound", player=p, cards=(card,), target=src, reason=e["kind"]))
        send(g, e, src, events)
    else:  # pass: the effect and your turn go on to the next player
        events.append(Event("pass_on", player=p, cards=(card,), target=g._next(p), reason=e["kind"]))
        send(g, e, g._next(p), events)
        g.turn["skip"] = True
    g._judge(events)


def cancel(g: ExtendedGame, e: dict[str, Any], events: list[Event]) -> None:
    """An effect ends unresolved: cards riding on it were played with it, face up now."""
    gone = [g.cards[i] for i in fx.attached(e)]
    if gone:
        g.discard.extend(gone)
        events.append(Event("reveal", cards=tuple(gone), count=len(gone)))


def withdraw(g: ExtendedGame, p: int, card: Card, e: dict[str, Any], events: list[Event]) -> None:
    """后悔药 as a counter: the latest move of ``e`` is taken back and its player plays again."""
    g._take(p, [card], events)
    g.discard.append(card)  # it becomes last only if the undone move cannot restore last
    in_window = g.ctx is not None
    if not in_window:
        g._remove(e)
    had = set(fx.attached(e))
    move, alive = fx.pop_move(e)
    q = move["by"]
    back = [g.cards[i] for i in move["cards"]]
    for c in back:
        g.discard.remove(c)
    riders = had - set(fx.attached(e)) if alive else had
    if move["last"] is not None and g.last in move["cards"]:
        # The card taken back was last: last goes back to the card it covered, if that is
        # still on the pile; shuffled away (or in a hand), the pill, a played green card, is.
        if any(c.id == move["last"] for c in g.discard):
            g.last, g.color = move["last"], move["color"]
        else:
            g.last, g.color = card.id, card.color
    events.append(Event("regret", player=p, cards=(card,), target=q, reason=e["kind"]))
    g.hands[q].extend(back + [g.cards[i] for i in sorted(riders)])
    g._hand_grew(q)
    events.append(Event("withdraw", player=q, cards=tuple(back), count=len(back) + len(riders)))
    if alive:
        g.effects[e["on"]].append(e)
    g.last_turn = None
    g._begin_turn(q, events, forbid=move["cards"][0])


def regret_turn(g: ExtendedGame, p: int, card: Card, events: list[Event]) -> bool:
    """后悔药 in the play phase: undo the player upstream's draw or plain play."""
    rec = g.last_turn
    q = upstream(g, p)
    if rec is None or rec["player"] != q or g.out[q]:
        return False
    if rec["kind"] == "draw":
        drawn = g.cards[rec["card"]] if rec["card"] >= 0 else None
        if drawn is None or drawn not in g.hands[q]:
            return False
    elif g.last != rec["card"]:
        return False
    before = len(g.hands[p])
    lb, cb = g.last, g.color
    # Played in the play phase, the pill is a green card that was played: it becomes last
    # (非黑牌打出后将会替换last), whether it undoes a draw or a play.
    g._lay(p, [card], events)
    g._hand_shrunk(p, before, events)
    events.append(Event("regret", player=p, cards=(card,), target=q, reason=rec["kind"]))
    g.turn["played"] += 1
    g.turn["plays"].append({"card": card.id, "last": lb, "color": cb, "plain": False})
    g.last_turn = None
    if rec["kind"] == "draw":
        # The drawn card goes to the bottom of the pile, so the new one is different.
        g.hands[q].remove(drawn)
        g.draw_pile.insert(0, drawn)
        events.append(Event("withdraw", player=q, count=1, reason="draw"))
        g._draw(q, 1, "regret", events)
        g._after_play(events)
        return True
    back = g.cards[rec["card"]]
    g.discard.remove(back)
    g.hands[q].append(back)
    g._hand_grew(q)
    events.append(Event("withdraw", player=q, cards=(back,), count=1, reason="play"))
    g._begin_turn(q, events, forbid=back.id)
    return True


def upstream(g: ExtendedGame, p: int) -> int:
    """上家: the player before ``p`` in the order of play."""
    n = g.num_players
    q = (p - g.direction) % n
    while g.out[q] and q != p:
        q = (q - g.direction) % n
    return q


def play(g: ExtendedGame, p: int, card: Card, action: Action, events: list[Event], camo: Card | None = None) -> None:
    t = g.turn
    before = len(g.hands[p])
    lb, cb = g.last, g.color
    if card.rank == "REGRET" and camo is None and regret_turn(g, p, card, events):
        return
    laid = [camo, card] if camo is not None else [card]
    g._lay(p, laid, events, color=action.color, as_color=action.color if camo is not None else None)
    events.append(Event("play", player=p, cards=tuple(laid), color=g.color, target=action.target,
                        reason="camo" if camo is not None else None))
    if t["played"]:
        t["extra"] -= 1
    t["played"] += 1
    t["plays"].append({"card": card.id, "last": lb, "color": cb,
                       "plain": camo is None and card.rank in PLAIN})
    if card.rank not in TRANSFER:  # a transfer and its riders leave the hand together
        g._hand_shrunk(p, before, events)
    move = ([c.id for c in reversed(laid)], p, lb, cb)
    effect(g, p, card, action, move, events, before)


def effect(g: ExtendedGame, p: int, card: Card, action: Action, move: tuple, events: list[Event],
           before: int) -> None:
    """The effect of a card played in the play phase."""
    rank = card.rank
    nxt = g._next(p)
    if rank == "S":
        send(g, new(g, "stun", nxt, move), nxt, events)
    elif rank == "R":
        g.direction = -g.direction
        events.append(Event("reverse"))
    elif rank in fx.DRAW_VALUE:
        v = fx.DRAW_VALUE[rank]
        send(g, new(g, "draw", nxt, move, total=v, max=v), nxt, events)
    elif rank == "INF":
        g.turn["extra"] += 1
    elif rank in TRANSFER:
        e = new(g, "transfer", nxt, move, rank=rank, layers=[{"by": p, "cards": []}])
        g.ctx = {"op": "attach", "who": p, "effect": e, "left": 2, "before": before}
        g.phase = "attach"
        if not g.hands[p]:
            send_transfer(g, p, events)
        return
    elif rank == "HAND" and len(g.active) == 2:
        events.append(Event("recast", player=p))  # 单挑时神手变为重铸
        g._draw(p, 1, "recast", events)
    elif rank in ("HAND", "CLIP", "DUELC", "DUELN"):
        target = action.target if rank in TARGETED else nxt
        e = new(g, fx.CARD_EFFECT[rank], target, move, rank=rank)
        events.append(Event("aim", player=p, target=target, reason=e["kind"]))
        g.ctx = {"op": "react", "who": target, "effect": e}
        g.phase = "react"
        return
    elif rank == "GIFT":
        if shed_choice(g, p, 1, "any", events):
            return
    elif rank == "CHOSEN":
        if chosen(g, p, events):
            return
    elif rank == "BOMB":
        bomb(g, p, events)
    elif rank in ("DISARM", "CURSE"):
        target = action.target if rank == "CURSE" else nxt
        send(g, new(g, fx.CARD_EFFECT[rank], target, move), target, events)
    elif rank == "WGREN":
        start_aoe(g, "grenade", p, nxt, events, color=action.color)
        return
    elif rank == "WC4":
        start_aoe(g, "c4", p, p, events)
        return
    elif rank == "WARG":
        start_aoe(g, "argue", p, p, events, x=0)
        return
    g._after_play(events)


def duel(g: ExtendedGame, e: dict[str, Any], events: list[Event]) -> None:
    a, b = e["trail"][-1]["by"], e["on"]
    events.append(Event("duel", player=a, target=b, reason=e["rank"]))
    if e["rank"] == "DUELC":
        g.ctx = {"op": "duel", "who": a, "by": a, "on": b, "picks": []}
        g.phase = "duel"
        return
    # 点数决斗: each turns cards until a number shows; the higher wins. When no number can come
    # up for the initiator, none can for the other: the duel is a draw (see turn_up).
    va = flip(g, a, True, events)
    vb = flip(g, b, True, events) if va is not None else None
    na = int(va.rank) if va is not None else -1
    nb = int(vb.rank) if vb is not None else -1
    winner = a if na > nb else b if nb > na else None
    duel_result(g, a, b, winner, events)


def flip(g: ExtendedGame, who: int, numbers: bool, events: list[Event]) -> Card | None:
    """A duel's flip: ``who`` turns the top card of the pile (for a number duel, cards until a
    number shows); None when none can come up."""
    return turn_up(g, (lambda c: c.is_number) if numbers else (lambda c: True), who,
                   "number" if numbers else None, events)


def turn_up(g: ExtendedGame, wanted: Callable[[Card], bool], who: int | None, why: str | None,
            events: list[Event]) -> Card | None:
    """Turn cards from the pile face up onto the discards until a ``wanted`` one shows; return it,
    or None when none can come up.

    Cards turned that are not wanted stay on the discards, so when the pile runs out they are
    shuffled back in with the rest and turned again. Once the pile is empty and a reshuffle could
    bring back only cards this turn-up has already shown (every wanted card is in a hand, is
    ``last`` or rides on an effect), no wanted card can come: the turn-up stops, after at most
    one more pass through the pile, with nothing (see ``docs/rules/extended.md``).
    """
    shown: set[int] = set()
    while True:
        if not g.draw_pile and all(c.id in shown for c in g._reshuffle_pool()):
            events.append(Event("flip", player=who, reason=why))  # no card: nothing can come up
            return None
        c = g._draw_one(events)
        assert c is not None  # the pile or the reshuffle pool holds a card
        g.discard.append(c)
        shown.add(c.id)
        events.append(Event("flip", player=who, cards=(c,), color=c.color, reason=why))
        if wanted(c):
            return c


def duel_result(g: ExtendedGame, a: int, b: int, winner: int | None, events: list[Event]) -> None:
    losers = [a, b] if winner is None else [b if winner == a else a]
    events.append(Event("duel_over", player=winner, target=losers[0] if winner is not None else None,
                        reason="draw" if winner is None else "won"))
    for q in losers:
        g._draw(q, 4, "duel", events)
    if winner is not None and shed_choice(g, winner, 2, "any", events):
        return
    g._resume(events)


def shed_choice(g: ExtendedGame, p: int, n: int, filt: str, events: list[Event]) -> bool:
    """``p`` discards ``n`` cards (of any kind, or function cards); True if they must choose."""
    pool = [c for c in g.hands[p] if filt == "any" or not c.is_number]
    if len(pool) <= n:
        if pool:
            before = len(g.hands[p])
            g._take(p, pool, events, hand_before=before)
            g.discard.extend(pool)
            events.append(Event("discard", player=p, cards=tuple(pool), count=len(pool)))
        return False
    g.ctx = {"op": "discard", "who": p, "left": n, "filter": filt}
    g.phase = "discard"
    return True


def chosen(g: ExtendedGame, p: int, events: list[Event]) -> bool:
    numbers = [c for c in g.hands[p] if c.is_number]
    if len(numbers) > 1:
        g.ctx = {"op": "keep", "who": p}
        g.phase = "keep"
        return True
    keep_only(g, p, numbers[0] if numbers else None, events)
    return False


def keep_only(g: ExtendedGame, p: int, keep: Card | None, events: list[Event]) -> None:
    gone = [c for c in g.hands[p] if keep is None or c.id != keep.id]
    if gone:
        g._take(p, gone, events)
        g.discard.extend(gone)
    # The kept card stays in the hand: only its owner sees which one (the rest are on the pile).
    events.append(Event("keep", player=p, cards=(keep,) if keep else (), count=len(gone), visible_to=(p,)))


def bomb(g: ExtendedGame, p: int, events: list[Event]) -> None:
    plan = g.bomb_draws(p)
    events.append(Event("bomb", player=p, count=plan[0][1]))
    for q, k in plan:
        g._draw(q, k, "bomb", events)


def start_aoe(g: ExtendedGame, kind: str, p: int, first: int, events: list[Event], **fields: Any) -> None:
    g.ctx = {"op": kind, "who": first, "by": p, **fields}
    g.phase = kind
    events.append(Event(kind, player=p, target=first, color=fields.get("color"), count=fields.get("x", 0)))


def aoe_end(g: ExtendedGame, start: int, events: list[Event]) -> None:
    by = g.ctx["by"]
    g.ctx = None
    g._drop(by, "lock")
    g.last_turn = None
    g._begin_turn(start, events)


def reset(g: ExtendedGame, p: int, events: list[Event]) -> None:
    """重置: discard the whole hand, draw min{6, starting hand}."""
    gone = list(g.hands[p])
    g.hands[p] = []
    g.discard.extend(gone)
    events.append(Event("reset", player=p, cards=tuple(gone), count=len(gone)))
    g._check_bound(p, events)
    g._draw(p, g.reset_size, "reset", events)


def unstick(g: ExtendedGame, events: list[Event]) -> None:
    """Everyone still in passed without drawing or playing (hand caps, curses): the
    table is stuck, so a new last is turned from the pile (a non-black card); if none can
    come up, last stays."""
    g.stuck = 0
    c = turn_up(g, lambda c: c.color is not None, None, "unstick", events)
    if c is not None:
        g.last, g.color = c.id, c.color


def send_transfer(g: ExtendedGame, p: int, events: list[Event]) -> None:
    """The transfer's cards are attached: it goes to the next player, and the turn goes on."""
    ctx = g.ctx
    assert ctx is not None
    g._hand_shrunk(p, ctx["before"], events)
    g.ctx = None
    send(g, ctx["effect"], g._next(p), events)
    g._resume(events)
