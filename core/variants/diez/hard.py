"""Diez for the ``hard`` bot: its state, laid out for determinization.

The observation shows each discard pile's top, count and colour, the
tokens, and hands revealed by a Reveal token. The cards under the tops were
played face up, so the seat's events name most of them (a reshuffle sends
them back into the draw pile, and the belief forgets them then); any the
seat cannot account for are dealt there from the unseen cards. Only resting
positions (``play``, ``drawn``, ``stack``) are laid out: in the middle of a
card's steps the engine's step queue holds more than the observation shows,
and :func:`~core.bots.hard.determinize.check` sends the bot to its ``normal``
move there.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from ...bots.belief import Belief
from ...bots.hard.determinize import Layout, Obs, layout
from ...game import Game
from ...rollout.base import CARD_SHIFT, KIND_SHIFT
from ...rollout.diez.steps import K_CATCH, K_COLOR, K_DRAW, K_PASS, K_PLAY, K_UNO, STRS
from .cards import token_bag


RESTING = frozenset({"play", "drawn", "stack"})
"""Phases in which the engine's step queue is empty."""


NOISE = 0.1
"""How often the playout policy makes a random choice instead of its favourite."""


def fast_diez_policy(r: Any, ms: list[int], rng: random.Random) -> int:
    """The Diez ``normal`` bots' habits (:meth:`~core.variants.diez.bots.DiezNormalBot._play`) on
    the fast path's move ints, for the search's playouts: shed the card worth most, from the
    colour held most; keep black cards for a small hand, never go out on one, and bluff with
    none; hit a next player close to out with an attack; draw rather than play a black card
    early; jump in whenever a card allows; name the colour held most. Any other choice is made
    at random; drawing or passing only when nothing else is legal; one choice in ten at random."""
    n = len(ms)
    if n == 1:
        return 0
    T = r.T
    hands = r.hands
    decider = r._decider()  # the player the game waits on (others may jump in)
    choices: list[int] = []
    draw = -1
    fallback = -1
    for i, m in enumerate(ms):
        k = m >> KIND_SHIFT
        if k == K_UNO or k == K_CATCH:
            return i
        if k == K_DRAW or k == K_PASS:
            if fallback < 0 or k == K_DRAW:
                fallback = i
            if k == K_DRAW and m & 15 == decider:
                draw = i
        else:
            choices.append(i)
    if not choices:
        return fallback if fallback >= 0 else int(rng.random() * n)
    if len(choices) == 1 and draw < 0 or rng.random() < NOISE:
        return choices[int(rng.random() * len(choices))]
    col, black, rk, ranks = T.col, T.is_black, T.rk, T.ranks
    in_play = r.colors[r.focus]
    best, best_s = choices[0], -1e9
    for i in choices:
        m = ms[i]
        k = m >> KIND_SHIFT
        p = m & 15
        if k == K_PLAY:
            c = (m >> CARD_SHIFT) & 255
            hand = hands[p]
            if p != decider:  # a jump-in: normal takes every one it can
                s = -1e6 if black[c] and len(hand) == 1 else 1000.0
            elif black[c]:
                if len(hand) == 1:
                    continue  # a black last card only draws 2
                s = 5.0 if len(hand) <= 3 else -20.0
                if ranks[rk[c]] in _BLUFFABLE and any(col[h] == in_play for h in hand if h != c):
                    s -= 40.0
            else:
                s = float(_points(ranks[rk[c]]) + 2 * sum(1 for h in hand if col[h] == col[c]))
                if ranks[rk[c]] in _ATTACKS and len(hands[r._next(p)]) <= 3:
                    s += 15.0
        elif k == K_COLOR:
            code = T.ccode[STRS[((m >> 8) & 63) - 1]]  # bits 8-13: 1 + the named string's index
            s = float(sum(1 for h in hands[p] if col[h] == code))
        else:
            s = -5.0 + rng.random()  # any other choice: at random, below a good play
        if s > best_s:
            best, best_s = i, s
    if best_s < -10 and draw >= 0:
        return draw  # keep the black cards for the end
    return best


_BLUFFABLE = frozenset({"W+4", "WDC", "WC"})
"""Black cards a challenge may question (played while holding the colour in play: a bluff)."""
_ATTACKS = frozenset({"+2", "S", "TG", "DG"})
"""Coloured cards ``normal`` saves for a next player close to going out."""


def _points(rank: str) -> int:
    """A coloured card's points by its rank, as ``normal`` counts them."""
    return _LETTERS.get(rank) or (int(rank) if rank.isdigit() else 20)


_LETTERS = {"X": 10, "E": 11}


@layout("diez")
class DiezLayout(Layout):
    playout_policy = staticmethod(fast_diez_policy)

    def supports(self, obs: Obs) -> bool:
        return obs["phase"] in RESTING

    def visible(self, obs: Obs, belief: Belief) -> set[int]:
        ids = {c["id"] for c in obs["hand"]}
        ids.update(pile["top"]["id"] for pile in obs["piles"] if pile["top"] is not None)
        for info in obs["players"]:
            ids.update(c["id"] for c in info.get("hand", ()))
        return ids

    def split(self, obs: Obs, belief: Belief, unseen: list[int]) -> tuple[list[int], list[int]]:
        under = sum(max(0, pile["count"] - 1) for pile in obs["piles"])
        played = [c for c in unseen if c in belief.played]
        if len(played) > under:
            return unseen, []  # more than the piles hold: the seat lost track
        return [c for c in unseen if c not in belief.played], played

    def extra(self, obs: Obs) -> dict[str, Any]:
        piles = obs["piles"]
        bag = Counter(token_bag())
        bag.subtract(t for tokens in obs["tokens"] for t in tokens)
        return {
            "piles": [[] if p["top"] is None else [p["top"]["id"]] for p in piles],
            "colors": [p["color"] for p in piles],
            "focus": obs["focus"],
            "jump_ok": [p["jump"] for p in piles],
            "skipped": [None] * len(piles),
            "reversed": [False] * len(piles),
            "tokens": [list(t) for t in obs["tokens"]],
            "bag": sorted(bag.elements()),
            "queue": [],
            "armed": [bool(info.get("mirror_armed")) for info in obs["players"]],
        }

    def state(self, obs: Obs) -> dict[str, Any]:
        d = super().state(obs)
        d["discard"] = d["extra"]["piles"][obs["focus"]]
        return d

    def clone(self, game: Game) -> Game:
        new = super().clone(game)
        new.discard = new.piles[new.focus]  # type: ignore[attr-defined]  # the focused pile, shared
        return new

    def place(self, game: Game, obs: Obs, hands: dict[int, list[int]], rest: list[int],
              rng: random.Random, reserved: list[int] = ()) -> None:
        card = game.cards.__getitem__
        for q, ids in hands.items():
            game.hands[q] = [card(i) for i in ids]
        under = [*reserved, *rest]
        at = 0
        for pile, seen in zip(game.piles, obs["piles"]):  # type: ignore[attr-defined]
            k = max(0, seen["count"] - 1)
            pile[:0] = [card(i) for i in under[at:at + k]]
            at += k
        left = under[at:]
        aside = obs.get("set_aside_count", 0)
        game.set_aside = [card(i) for i in left[:aside]]
        game.draw_pile = [card(i) for i in left[aside:]]
        pending = game.pending
        if pending is not None and pending.get("challengeable") and pending.get("by") is not None:
            # Whether the challengeable card was a bluff: as likely as its player holding one
            # card of a given suit (the colour it was judged against is not shown).
            k = len(game.hands[pending["by"]])
            pending["bluff"] = rng.random() < 1.0 - 0.8 ** k
        elif pending is not None and "bluff" not in pending and pending.get("kind") == "stack":
            pending["bluff"] = False
        if game.phase == "drawn" and game.drawn is None:
            hand = game.hands[game.current]
            game.drawn = rng.choice(hand).id if hand else None
