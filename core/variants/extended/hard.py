"""The extended rules for the ``hard`` bot: their state, laid out for determinization.

The observation shows every effect's public side (its kind, where it sits,
who played it, how many cards ride on a transfer) but not its *trail* (each
move's cards and what it replaced, which a Regret Pill undoes), nor the last
turn a Regret Pill could take back. The layout rebuilds each effect with a
trail of the players it shows and cards dealt face down for the riders; the
simulated games are then close to the real one without being exact there.
An interaction in progress (a duel, a chain, a swap to answer) is not laid
out: :func:`~core.bots.hard.determinize.check` finds the difference and the
bot plays its ``normal`` move.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.hard.determinize import Layout, Obs, layout
from ...cards import COLORS
from ...game import Game
from ...rollout.base import CARD_SHIFT, KIND_SHIFT
from ...rollout.extended.tables import K_ACCEPT, K_CAMO, K_CATCH, K_DRAW, K_PASS, K_PLAY, K_SEND, K_UNO, STRS
from .effects import CARD_EFFECT

_PUBLIC_ONLY = ("effect_id", "by", "sources", "attached", "layers")


def _effect(pub: dict[str, Any], pile: list[dict[str, Any]], used: set[int]) -> dict[str, Any]:
    """An effect rebuilt from its public side; each move of its trail takes a card of the
    discard pile that makes such an effect (the latest such card for the latest move)."""
    e = {k: v for k, v in pub.items() if k not in _PUBLIC_ONLY}
    e["id"] = pub["effect_id"]
    order = [s for s in pub.get("sources", ()) if s != pub.get("by")]
    if pub.get("by") is not None:
        order.append(pub["by"])
    state = {k: e[k] for k in ("on", "total", "max") if k in e}
    makers = [c["id"] for c in reversed(pile) if CARD_EFFECT.get(c["rank"]) == e["kind"] and c["id"] not in used]
    makers += [c["id"] for c in reversed(pile) if c["id"] not in used and c["id"] not in makers]
    cards = makers[:len(order)][::-1]
    used.update(cards)
    e["trail"] = [{"cards": cards[i:i + 1], "by": b, "prev": None if i == 0 else dict(state), "last": None,
                   "color": None} for i, b in enumerate(order)]
    if "layers" in pub:
        e["layers"] = [{"by": layer["by"], "cards": [-1] * layer["count"]} for layer in pub["layers"]]
    return e


NOISE = 0.1
"""How often the playout policy makes a random choice instead of its favourite."""
_COUNTERS = frozenset({"WIDOW", "REGRET", "WRB", "WPASS"})
"""Cards ``normal`` keeps to answer an effect with."""
_BONUS = {"T4": 12.0, "T5": 12.0, "INF": 15.0, "BOMB": -25.0}
_HITS = frozenset({"+2", "W+4", "S", "DISARM"})
_NAMED = frozenset({"W", "W+4", "WGREN"})


def fast_extended_policy(r: Any, ms: list[int], rng: random.Random) -> int:
    """The extended rules' ``normal`` habits (:meth:`~core.variants.extended.bots.ExtendedNormalBot._main`)
    on the fast path's move ints, for the search's playouts. On a turn: shed high numbers first,
    keep the counters (寡妇, 后悔药, 反弹, pass) and wilds, hit a next player close to out, name the
    colour held most, draw rather than give up a card worth keeping. Answering an effect: pass a
    draw on with a card when one may, else accept it (counters are kept). Any other choice at
    random; one choice in ten at random."""
    n = len(ms)
    if n == 1:
        return 0
    choices: list[int] = []
    draw = pass_ = -1
    for i, m in enumerate(ms):
        k = m >> KIND_SHIFT
        if k == K_UNO or k == K_CATCH:
            return i
        if k == K_DRAW:
            draw = i
        elif k == K_PASS:
            pass_ = i
        else:
            choices.append(i)
    if not choices:
        return draw if draw >= 0 else (pass_ if pass_ >= 0 else int(rng.random() * n))
    if rng.random() < NOISE:
        return choices[int(rng.random() * len(choices))]
    T = r.T
    rank, color = T.rank, T.cstr
    main = r.phase == "main" and r.ctx is None
    best, best_s = choices[0], -1e9
    if not main:  # an effect to answer, a pick to make
        for i in choices:
            m = ms[i]
            k = m >> KIND_SHIFT
            if k == K_ACCEPT or k == K_SEND:
                s = 0.0
            elif k == K_PLAY:
                s = -10.0 if rank[(m >> CARD_SHIFT) & 255] in _COUNTERS else 5.0
            else:
                s = -5.0 + rng.random()
            if s > best_s:
                best, best_s = i, s
        return best
    p = r.current
    hand = r.hands[p]
    held = len(hand)
    nxt = len(r.hands[r._next(p)])
    favourite: dict[int, str] = {}
    for i in choices:
        m = ms[i]
        k = m >> KIND_SHIFT
        if k != K_PLAY and k != K_CAMO:
            s = -5.0 + rng.random()
        else:
            c = (m >> CARD_SHIFT) & 255
            rk = rank[c]
            if rk in _COUNTERS:
                s = -10.0 - (40.0 if held > 2 else 0.0)
            elif color[c] is None:
                s = 0.0
            elif T.is_number[c]:
                s = 10.0 + T.num[c]
            else:
                s = 15.0
            if k == K_CAMO:
                s -= 8.0 if held > 2 else -30.0
            if rk in _HITS:
                s += 6.0 + (10.0 if nxt <= 3 else 0.0)
            s += _BONUS.get(rk, 0.0)
            if rk == "CLIP":
                s += -20.0 if held <= 3 else 2.0
            elif rk == "CHOSEN":
                s += 3.0 * held
            arg = (m >> 8) & 63  # bits 8-13: 1 + the named colour's index
            if arg and (rk in _NAMED or k == K_CAMO):
                fav = favourite.get(c)
                if fav is None:
                    fav = favourite[c] = _most_held(hand, c, color)
                if STRS[arg - 1] != fav:
                    s -= 50.0 if rk in _NAMED else 5.0
        if s > best_s:
            best, best_s = i, s
    if best_s > -20 or draw < 0:
        return best
    return draw


def _most_held(hand: list[int], skip: int, color: Any) -> str:
    counts = {c: 0 for c in COLORS}
    for h in hand:
        col = color[h]
        if h != skip and col in counts:
            counts[col] += 1
    return max(COLORS, key=lambda col: (counts[col], -COLORS.index(col)))


@layout("extended")
class ExtendedLayout(Layout):
    playout_policy = staticmethod(fast_extended_policy)

    def supports(self, obs: Obs) -> bool:
        return obs["interaction"] is None

    def extra(self, obs: Obs) -> dict[str, Any]:
        used: set[int] = set()
        effects = [[_effect(pub, obs["discard"], used) for pub in es] for es in obs["effects"]]
        ids = [e["id"] for es in effects for e in es]
        turn = dict(obs["turn"])
        me = obs["me"]
        hand = obs["hand"]
        drew = turn.pop("drew")
        # Which card was drawn is not shown (the engine appends it, so the seat's is its last).
        turn["drew"] = (hand[-1]["id"] if obs["current"] == me and hand else -1) if drew else None
        turn["plays"] = [{"card": obs["last"]["id"] if obs["last"] else -1, "last": None, "color": None,
                          "plain": False}] * turn["played"]
        return {
            "last": obs["last"]["id"] if obs["last"] else None,
            "effects": effects,
            "ctx": None,
            "turn": turn,
            "finished": list(obs["finished"]),
            "last_turn": None,
            "seq": max(ids, default=0) + 1000,
            "lead": None,
            "stuck": 0,
        }

    def align(self, game: Game, obs: Obs) -> None:
        # An effect made since the laid-out position took its number from the layout's counter
        # (the engine's is not shown): it takes the one the table gave it.
        for es, shown in zip(game.effects, obs["effects"]):  # type: ignore[attr-defined]
            for e, pub in zip(es, shown):
                e["id"] = pub["effect_id"]
        ctx, seen = game.ctx, obs["interaction"]  # type: ignore[attr-defined]
        if ctx is not None and "effect" in ctx and seen is not None and "effect" in seen:
            ctx["effect"]["id"] = seen["effect"]["effect_id"]

    def place(self, game: Game, obs: Obs, hands: dict[int, list[int]], rest: list[int],
              rng: random.Random, reserved: list[int] = ()) -> None:
        card = game.cards.__getitem__
        for q, ids in hands.items():
            game.hands[q] = [card(i) for i in ids]
        at = 0
        for es in game.effects:  # type: ignore[attr-defined]
            for e in es:
                for layer in e.get("layers", ()):
                    k = len(layer["cards"])
                    layer["cards"] = rest[at:at + k]
                    at += k
        left = rest[at:]
        aside = obs.get("set_aside_count", 0)
        game.set_aside = [card(i) for i in left[:aside]]
        game.draw_pile = [card(i) for i in left[aside:]]
