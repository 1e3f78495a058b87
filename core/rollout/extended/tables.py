"""The extended rules' rollout vocabulary and card tables: move kinds and string arguments, and
per-card facts and moves built once per table size and options."""

from __future__ import annotations

from typing import Any

from ...cards import COLORS
from ...variants.extended import effects as fx
from ...variants.extended.decisions import DUEL_COLORS
from ...variants.extended.plays import NAMES_COLOR, TARGETED, TRANSFER
from ..base import CardTables, encode

KINDS = ("direction", "accept", "refuse", "play", "camo", "draw", "pass", "attach", "send", "choose",
         "discard", "keep", "explode", "uno", "catch")
(K_DIRECTION, K_ACCEPT, K_REFUSE, K_PLAY, K_CAMO, K_DRAW, K_PASS, K_ATTACH, K_SEND, K_CHOOSE,
 K_DISCARD, K_KEEP, K_EXPLODE, K_UNO, K_CATCH) = range(len(KINDS))
STRS = DUEL_COLORS
ARG = {s: i + 1 for i, s in enumerate(STRS)}
"""The ``arg`` field of a move naming each colour (a duel's pick may be black)."""
NONE = 4
"""The colour code of no colour in play (in :attr:`Tables.match`)."""


class Tables(CardTables):
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        n = game.num_players
        cards = game.cards
        nr = self.nr
        self.cstr = tuple(c.color for c in cards)
        self.rank = tuple(c.rank for c in cards)
        self.is_number = bytes(c.is_number for c in cards)
        self.colored = bytes(c.color is not None for c in cards)
        self.any_card = bytes([1]) * len(cards)
        self.num = tuple(int(c.rank) if c.is_number else -1 for c in cards)
        self.transfer = bytes(c.rank in TRANSFER for c in cards)
        self.camo = bytes(c.rank == "WCAMO" for c in cards)
        (self.camo_id,) = (c.id for c in cards if c.rank == "WCAMO")
        self.code = {None: NONE, **{k: i for i, k in enumerate(COLORS)}}
        """Colour in play -> its code in :attr:`match`."""
        self.plain = bytes(c.rank.isdigit() or c.rank == "W" for c in cards)
        """Cards whose play has no effect beyond ``last`` and the colour."""
        self.targeted = bytes(c.rank in TARGETED for c in cards)
        self.counter = bytes(c.rank in fx.COUNTER_TIER for c in cards)
        self.draw_value = tuple(fx.DRAW_VALUE.get(c.rank, 0) for c in cards)
        # match[colour in play * nr + rank of last][card]: the play rule, as ``_can_play`` without
        # a Camouflage colour and without the transfer lock.
        self.match = tuple(bytes(self._can_play(cards[i], k, r) for i in range(len(cards)))
                           for k in range(NONE + 1) for r in range(nr))
        self.play = tuple(tuple(
            tuple(encode(K_PLAY, p, c.id, ARG[k]) for k in COLORS) if c.rank in NAMES_COLOR
            else () if c.rank in TARGETED else (encode(K_PLAY, p, c.id),) for c in cards) for p in range(n))
        self.draw = self.per_seat(K_DRAW)
        self.pass_ = self.per_seat(K_PASS)
        self.accept = self.per_seat(K_ACCEPT)
        self.calls(K_UNO, K_CATCH)
        self.hand_size = game.hand_size
        self.hand_cap = game.hand_cap
        self.reset_size = game.reset_size
        self.names = len(game.names)

    def _can_play(self, card: Any, color_code: int, last_rank: int) -> bool:
        last = self.ranks[last_rank]
        color = None if color_code == NONE else COLORS[color_code]
        if card.rank in TRANSFER:
            return last == card.rank or (card.color == color and last.isdigit() and int(last) in TRANSFER[card.rank])
        if card.color is None:
            return True
        return card.color == color or card.rank == last
