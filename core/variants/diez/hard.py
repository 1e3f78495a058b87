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
from .cards import token_bag


RESTING = frozenset({"play", "drawn", "stack"})
"""Phases in which the engine's step queue is empty."""


@layout("diez")
class DiezLayout(Layout):
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
