"""No Mercy as a rollout: classic's rollout with the Mercy rule and No Mercy's cards
(mirrors ``core/variants/nomercy.py``)."""

from __future__ import annotations

from typing import Any

from ..variants.nomercy import KNOCKOUT_BONUS, MERCY_LIMIT
from .classic import CHOOSE, FX_ROULETTE, FX_SKIP_ALL, PLAY, ClassicRollout, Tables

FX_DISCARD_ALL = FX_ROULETTE + 1


class NoMercyTables(Tables):
    BEFORE = frozenset({"DA", "WR+4"})

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.wr4 = bytes(c.rank == "WR+4" for c in game.cards)

    @staticmethod
    def effect(rank: str) -> int:
        return {"SA": FX_SKIP_ALL, "WCR": FX_ROULETTE, "DA": FX_DISCARD_ALL}.get(rank) or Tables.effect(rank)


class NoMercyRollout(ClassicRollout):
    variant = "nomercy"
    TABLES = NoMercyTables
    mercy = MERCY_LIMIT

    def _after_draw(self, p: int) -> None:
        self._mercy(p)

    def _draw(self, p: int, k: int) -> list[int]:
        # A penalty stops at the 25th card too: the player is out, the rest stays in the pile.
        return super()._draw(p, min(k, max(0, MERCY_LIMIT - len(self.hands[p]))))

    def _mercy(self, p: int) -> None:
        if not self.out[p] and len(self.hands[p]) >= MERCY_LIMIT and not self.over:
            was_current = self.current == p
            self._knock_out(p)
            if was_current and not self.over:
                self.phase, self.drawn, self.pending = PLAY, -1, None
                self.current = self._next(p)

    def _knock_out(self, p: int) -> None:
        self.out[p] = True
        self.knocked += 1
        self.set_aside += self.hands[p]
        self.hands[p] = []
        self.declared[p] = False
        if self.exposed == p:
            self.exposed = None
        if self._active() == 1:
            self._end_round(self.out.index(False))

    def _round_bonus(self, winner: int) -> int:
        return KNOCKOUT_BONUS * sum(self.out)

    def _before_effect(self, p: int, c: int) -> None:
        T = self.T
        fx = T.fx[c]
        if fx == FX_DISCARD_ALL:
            col = T.col[c]
            hand = self.hands[p]
            gone = [d for d in hand if T.col[d] == col]
            if gone:
                self.hands[p] = [d for d in hand if T.col[d] != col]
                self.discard[-1:-1] = gone
                if len(self.hands[p]) == 1 and not self.declared[p]:
                    self.exposed = p
        elif T.wr4[c]:
            self.direction = -self.direction

    def _penalty_victim(self, p: int, c: int) -> int:
        if self.T.wr4[c] and self._active() == 2 and self.hands[p]:
            return p
        return self._next(p)

    def _effect_more(self, p: int, c: int, fx: int) -> None:
        if fx == FX_SKIP_ALL:
            self._end_turn(p, self._active() - 1)
        elif fx == FX_ROULETTE:
            victim = self._next(p)
            self.pending = ("roulette", 0, 0, 0, p, victim, False, None, False)
            self.phase = CHOOSE
            self.current = victim
        else:  # Discard All: its work was done before the effect
            self._end_turn(p)

    def _do_more(self, p: int, m: int) -> None:
        # choose: the Color Roulette's victim names a colour and turns cards until it shows
        color = ((m >> 8) & 63) - 1
        self.color = color
        self.m = self.T.match[color * self.T.nr + self.T.rk[self.discard[-1]]]
        self.pending = None
        col = self.T.col
        turned = []
        while True:
            c = self._draw_one()
            if c < 0:
                break
            turned.append(c)
            if col[c] == color:
                break
        self.hands[p] += turned
        self.declared[p] = False
        if self.exposed == p:
            self.exposed = None
        self._mercy(p)
        self._end_turn_to(p)

    def _seven(self, p: int, t: int) -> None:
        super()._seven(p, t)
        self._mercy_all()

    def _zero(self, p: int) -> None:
        super()._zero(p)
        self._mercy_all()

    def _mercy_all(self) -> None:
        for q in range(self.n):
            self._mercy(q)

