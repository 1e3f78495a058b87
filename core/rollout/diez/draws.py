"""Drawing in the Diez rollout (mirrors ``core/variants/diez/draws.py``): a turn's draw (one
card, or a natural draw until a playable card), and a forced or uncategorized draw with what
tokens do to it (Double, Hex, Ace, White, Magnet) and the Needle that may stop it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import tokens
from .steps import ACE, DOUBLE, HEX, MAGNET, WHITE_TOKEN

if TYPE_CHECKING:
    from .game import DiezRollout


def turn_draw(r: DiezRollout, p: int) -> None:
    if r._can_play_any(p):
        c = r._draw_one()
        if c < 0:
            r._pass_turn(p)
            return
        r._give(p, [c])
        if r._plays(p, [c]):
            r.phase, r.drawn = "drawn", c
        else:
            r._pass_turn(p)
        return
    r.queue = [{"op": "natural", "who": p, "extra": 0, "bomb": None, "stopped": False}]
    r._run()


def start_natural(r: DiezRollout, s: dict) -> bool:
    p = s["who"]
    T = r.T
    needle = T.ranks.index("N")
    bomb = T.ranks.index("WB")
    while True:
        if s["stopped"]:
            s["extra"] = 0
            if s["bomb"] is None:
                r.queue.pop(0)
                r._pass_turn(p)
                return False
        if s["extra"] > 0:
            c = r._draw_one()
            if c < 0:
                s["extra"] = 0
                continue
            s["extra"] -= 1
            r._give(p, [c])
            if T.rk[c] == needle and s["extra"] > 0:
                r.queue.insert(0, {"op": "needle", "who": p})
                return False
            continue
        if s["bomb"] is not None:
            r.queue.pop(0)
            r.phase, r.drawn, r.current = "drawn", s["bomb"], p
            return False
        c = r._draw_one()
        if c < 0:
            r.queue.pop(0)
            r._pass_turn(p)
            return False
        r._give(p, [c])
        if T.rk[c] == bomb:
            s["bomb"], s["extra"] = c, 3
            continue
        if r._plays(p, [c]):
            r.queue.pop(0)
            r.phase, r.drawn, r.current = "drawn", c, p
            return False
        if T.rk[c] == needle:
            r.queue.insert(0, {"op": "needle", "who": p})
            return False


def start_draw(r: DiezRollout, s: dict) -> bool:
    q = s["who"]
    toks = r.tokens[q]
    T = r.T
    if s["stage"] == "start":
        s["stage"] = "ace"
        if s["forced"]:
            if DOUBLE in toks:
                tokens.lose(r, q, DOUBLE)
                if s["until"] is None:
                    s["n"] *= 2
                else:
                    s["double"] = True
            hexes = toks.count(HEX)
            if hexes:
                if s["until"] is None:
                    s["n"] += hexes
                else:
                    s["hex"] = hexes
    if s["stage"] == "ace":
        s["stage"] = "white"
        if s["forced"] and s["until"] is None and s["n"] >= 1 and ACE in toks and r.draw:
            r.queue.insert(0, {"op": "search", "who": q, "where": "draw", "ace": True})
            return False
    if s["stage"] == "white":
        s["stage"] = "draw"
        if s["forced"] and s["until"] is None and s["n"] >= 1 and WHITE_TOKEN in toks:
            if tokens.white(r, q):
                s["got"].append(r.hands[q][-1])
                tokens.lose(r, q, WHITE_TOKEN)
                s["n"] -= 1
    if s["stage"] == "draw":
        batch: list[int] = []
        needle = False
        needle_rank = T.ranks.index("N")
        cname, col = T.cname, T.col
        while not s["stopped"]:
            if s["until"] is None and s["n"] <= 0:
                break
            c = r._draw_one()
            if c < 0:
                s["until"], s["n"] = None, 0
                break
            batch.append(c)
            if s["until"] is not None:
                s["counted"] += 1
                if cname[col[c]] == s["until"]:
                    s["until"] = None
                    s["n"] = s["n"] * (2 if s["double"] else 1) + (s["counted"] if s["double"] else 0) + s["hex"]
            else:
                s["n"] -= 1
            if T.rk[c] == needle_rank and (s["n"] > 0 or s["until"] is not None):
                needle = True
                break
        if batch:
            s["got"] += batch
            r._give(q, batch)
        if needle:
            r.queue.insert(0, {"op": "needle", "who": q})
            return False
        s["stage"] = "magnet"
    if s["stage"] == "magnet":
        r.queue.pop(0)
        holders = [h for h in range(r.n) if not r.out[h] and h != q and MAGNET in r.tokens[h]]
        hand = r.hands[q]
        got = [i for i in s["got"] if i in hand]
        if s["forced"] and holders and got and len(hand) >= 2:
            r.queue.insert(0, {"op": "magnet", "who": q, "cards": got, "holders": holders})
    return False


START = {"natural": start_natural, "draw": start_draw}
