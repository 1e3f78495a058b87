"""The extended rules (UNO 扩展规则 5.2.3) as a rollout: the table (mirrors
``core/variants/extended/game.py``).

Cards are their engine ids. The rule state that only function cards create (effects and
their trails, the interaction context, the turn record) keeps the engine's own dict shapes
and the engine's helpers in ``effects.py``, so it compares directly; the hot path (a turn
with no effect pending, a plain card, a draw, a pass) runs on lists of ints and skips the
work the engine does for every turn (sorting effects, building records, settling winners).
This module holds the state, the turn and its judgement, effects on players, hands, the pile
and winning; what may be done and its carrying out are ``decisions.py``, the cards in play
``plays.py``, the move vocabulary and card tables ``tables.py``.
"""

from __future__ import annotations

from typing import Any

from ...variants.extended import effects as fx
from ...variants.extended.plays import CHANGES_LAST_BLACK, TRANSFER
from ..base import CARD_SHIFT, KIND_SHIFT, NO_CARD, NO_TARGET, Rollout, clone
from . import decisions
from .tables import K_CATCH, K_UNO, KINDS, STRS, Tables


def fresh_turn(forbid: int | None) -> dict[str, Any]:
    """The turn record at its start (the engine's ``_fresh_turn``)."""
    return {"stage": "judge", "drew": None, "played": 0, "extra": 0, "forbid": forbid, "skip": False,
            "plays": []}


class ExtendedRollout(Rollout):
    """One round of the extended rules on small ints (see :mod:`core.rollout`)."""

    variant = "extended"
    KINDS = KINDS
    STRS = STRS
    LISTS = ("draw", "discard", "declared", "out", "set_aside", "finished", "round_points")
    TABLES = Tables
    K_UNO, K_CATCH = K_UNO, K_CATCH

    # -- loading and showing -------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Any, seed: Any = 0, source: Any = None) -> "ExtendedRollout":
        r = object.__new__(cls)
        r._init(game, seed, source)
        r.T = cls.tables(game)
        r._load(game)
        r.discard = [c.id for c in game.discard]
        r.color = game.color
        r.phase = game.phase
        r.over = game.phase == "over"
        r.fixed = {"pending": game.pending, "drawn": game.drawn}
        r.last = game.last
        r.effects, r.ctx = clone((game.effects, game.ctx))
        r.turn = clone(game.turn)
        r.finished = list(game.finished)
        r.last_turn = clone(game.last_turn)
        r.seq = game.seq
        r.lead = game.lead
        r.stuck = game.stuck
        n = r.n
        r.round_points = [0] * n
        for k, q in enumerate(r.finished):
            r.round_points[q] = n - k - 1  # players left in when q went out
        r._loaded()
        return r

    def _copy_more(self, d: dict[str, Any]) -> None:
        if self.ctx is not None or any(self.effects):
            d["effects"], d["ctx"] = clone((self.effects, self.ctx))
        else:
            d["effects"] = [[] for _ in self.effects]
        t = dict(self.turn)
        t["plays"] = t["plays"][:]
        d["turn"] = t

    def to_state(self) -> dict[str, Any]:
        return self._state(
            discard=list(self.discard), color=self.color, phase=self.phase, **self.fixed,
            extra=clone({
                "last": self.last, "effects": self.effects, "ctx": self.ctx, "turn": self.turn,
                "finished": self.finished, "last_turn": self.last_turn, "seq": self.seq, "lead": self.lead,
                "stuck": self.stuck,
            }),
        )

    def points(self) -> list[int]:
        """Points scored this round so far: each player who went out scored the players left in."""
        return list(self.round_points)

    # -- helpers -------------------------------------------------------------------------------
    def _active(self) -> list[int]:
        return [p for p in range(self.n) if not self.out[p]]

    def _actor(self) -> int:
        """Who must act now: the turn's player, or the one an interaction waits for."""
        return self.ctx["who"] if self.ctx is not None else self.current

    def _top(self) -> int:
        return self.last if self.last is not None else self.discard[-1]

    def _has(self, p: int, kind: str) -> bool:
        for e in self.effects[p]:
            if e["kind"] == kind:
                return True
        return False

    def _room(self, p: int) -> int:
        if self.effects[p] and self._has(p, "bound"):
            return 0
        room = self.T.hand_cap - len(self.hands[p])
        return room if room > 0 else 0

    def _locked(self, p: int, c: int) -> bool:
        rank = self.T.rank[c]
        return any(e["kind"] == "lock" and e["rank"] == rank for e in self.effects[p])

    def _can_play(self, p: int, c: int, as_color: str | None = None) -> bool:
        T = self.T
        last = self._top()
        if as_color is None:
            ok = T.match[T.code[self.color] * T.nr + T.rk[last]][c]
            return bool(ok) and not (T.transfer[c] and self.effects[p] and self._locked(p, c))
        # a Camouflage colour: the card counts as that colour
        if T.transfer[c]:
            if self.effects[p] and self._locked(p, c):
                return False
            return T.rank[last] == T.rank[c] or (
                as_color == self.color and T.is_number[last] and T.num[last] in TRANSFER[T.rank[c]])
        return as_color == self.color or T.rank[c] == T.rank[last]

    # -- legal moves ---------------------------------------------------------------------------
    def moves(self) -> list[int]:
        ms = self._ms
        if ms is not None:
            return ms
        if self.phase == "main" and self.exposed is None and self.ctx is None:
            ms = decisions.main_actions(self, self.current)
        elif self.over:
            ms = []
        elif self.exposed is not None:
            ms = []
            for p in self._act_order(self._active(), self._actor()):
                ms += self._legal(p)
        else:
            ms = decisions.actions(self, self._actor())
        self._ms = ms
        return ms

    def _legal(self, p: int) -> list[int]:
        return self._exposure(p, decisions.actions(self, p) if p == self._actor() else [])

    # -- carrying out moves --------------------------------------------------------------------
    def _apply(self, m: int) -> None:
        p = m & 15
        kind = m >> KIND_SHIFT
        if self._call_or_catch(p, kind, m):
            return
        target = (m >> 4) & 15
        ph = self.phase
        if ph == "main":
            decisions.resolve_main(self, p, kind, m)
            if self.hands.count([]) != self.knocked:
                self._settle()
            return
        card = (m >> CARD_SHIFT) & 255
        arg = (m >> 8) & 63
        a = (KINDS[kind], None if card == NO_CARD else card, STRS[arg - 1] if arg else None,
             None if target == NO_TARGET else target)
        decisions.RESOLVE[ph](self, p, a)
        self._settle()

    # -- turns and the judgement phase ---------------------------------------------------------
    def _begin_turn(self, p: int, forbid: int | None = None) -> None:
        self.ctx = None
        self.current = p
        if not self.effects[p]:
            # Nothing to judge: straight to the main phase (what _judge comes to).
            self.turn = {"stage": "main", "drew": None, "played": 0, "extra": 0, "forbid": forbid, "skip": False,
                         "plays": []}
            self.phase = "main"
            return
        self.turn = fresh_turn(forbid)
        self._judge()

    def _judge(self) -> None:
        p = self.current
        t = self.turn
        t["stage"] = "judge"
        while self.effects[p]:
            pending = fx.judge_order(self.effects[p])
            if not pending:
                break
            e = pending[0]
            if e["kind"] == "stun":
                self._remove(e)
                t["skip"] = True
                self._add(p, "weak")
                continue
            self.phase = "judge"
            return
        self._drop(p, "weak")
        if t["skip"]:
            self._end_turn(p)
            return
        t["stage"] = "main"
        self.phase = "main"

    def _end_turn(self, p: int) -> None:
        t = self.turn
        if self.effects[p]:
            self._drop(p, "lock")
            self._drop(p, "weak")
        rec = None
        if t["stage"] == "main":
            played = t["plays"]
            if len(played) == 1 and played[0]["plain"]:
                rec = {"kind": "play", "player": p, **played[0]}
            elif not played and t["drew"] is not None:
                rec = {"kind": "draw", "player": p, "card": t["drew"]}
        self.last_turn = rec
        self._begin_turn((p + self.direction) % self.n if not self.knocked else self._next(p))

    # -- playing onto the pile -----------------------------------------------------------------
    def _lay(self, p: int, cards: list[int], *, color: str | None = None, as_color: str | None = None) -> None:
        hand = self.hands[p]
        for c in cards:
            hand.remove(c)
            self.discard.append(c)
        c = cards[-1]
        cs = self.T.cstr[c]
        if cs is not None:
            self.last, self.color = c, as_color or cs
        elif self.T.rank[c] in CHANGES_LAST_BLACK:
            self.last, self.color = c, color
        if self.effects[p]:
            self._check_bound(p)

    def _after_play(self) -> None:
        p = self.current
        self.ctx = None
        if self.hands[p] and self.turn["extra"] > 0:
            self.phase = "main"
            return
        self._end_turn(p)

    def _resume(self) -> None:
        self.ctx = None
        if self.turn["stage"] == "judge":
            self._judge()
        else:
            self._after_play()

    # -- effects on players --------------------------------------------------------------------
    def _add(self, p: int, kind: str, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        e = fx.new_effect(self.seq, kind, p, **fields)
        self.effects[p].append(e)
        return e

    def _drop(self, p: int, kind: str) -> None:
        es = self.effects[p]
        if es:
            self.effects[p] = [e for e in es if e["kind"] != kind]

    def _remove(self, e: dict[str, Any]) -> None:
        self.effects[e["on"]] = [x for x in self.effects[e["on"]] if x["id"] != e["id"]]

    def _bind(self, p: int) -> None:
        cur = next((e for e in self.effects[p] if e["kind"] == "bound"), None)
        base = cur["eff"] if cur else len(self.hands[p])
        eff = -(-base // 2)
        if cur:
            cur["eff"] = eff
        else:
            self._add(p, "bound", eff=eff)
        self._check_bound(p)

    def _check_bound(self, p: int) -> None:
        for e in self.effects[p]:
            if e["kind"] == "bound" and len(self.hands[p]) <= e["eff"]:
                self._drop(p, "bound")
                return

    # -- hands and the pile --------------------------------------------------------------------
    def _take(self, p: int, cards: list[int], hand_before: int | None = None) -> None:
        before = len(self.hands[p]) if hand_before is None else hand_before
        hand = self.hands[p]
        for c in cards:
            hand.remove(c)
        self._hand_shrunk(p, before)

    def _hand_grew(self, q: int) -> None:
        """Cards came to ``q`` from another hand: no UNO call stands, nor can be caught."""
        self.declared[q] = False
        if self.exposed == q:
            self.exposed = None

    def _hand_shrunk(self, p: int, before: int) -> None:
        if before > 1 and len(self.hands[p]) == 1 and not self.declared[p]:
            self.exposed = p
        elif self.exposed == p and len(self.hands[p]) != 1:
            self.exposed = None  # the single card is gone: nothing is left to catch
        if self.effects[p]:
            self._check_bound(p)

    def _draw(self, p: int, k: int) -> list[int]:
        room = self._room(p)
        return super()._draw(p, k if k <= room else room)

    def _protected(self) -> set[int]:
        keep = {self.last} if self.last is not None else set()
        for es in self.effects:
            for e in es:
                keep.update(fx.trail_cards(e))
        if self.ctx is not None and "effect" in self.ctx:
            keep.update(fx.trail_cards(self.ctx["effect"]))
        return keep

    def _reshuffle_pool(self) -> list[int]:
        keep = self._protected()
        return [c for c in self.discard if c not in keep] + self.set_aside

    def _can_draw(self) -> bool:
        if self.draw or self.set_aside:
            return True
        keep = self._protected()
        return any(c not in keep for c in self.discard)

    def _draw_one(self) -> int:
        if not self.draw:
            keep = self._protected()
            pool = [c for c in self.discard if c not in keep] + self.set_aside
            if not pool:
                return -1
            self.discard = [c for c in self.discard if c in keep]
            self.draw = self._shuffled(pool)
            self.set_aside = []
        return self.draw.pop()

    # -- winning -------------------------------------------------------------------------------
    def _blocked(self) -> set[int]:
        out: set[int] = set()
        for es in self.effects:
            for e in es:
                out.add(e["on"])
                out |= fx.sources(e)
        if self.ctx is not None:
            out |= set(self._active())
        return out

    def _settle(self) -> None:
        hands, out, n = self.hands, self.out, self.n
        if hands.count([]) == self.knocked:
            return  # nobody still in has run out of cards (those out have none)
        while not self.over and self.ctx is None:
            empty = [q for q in range(n) if not hands[q] and not out[q]]
            if not empty:
                return
            blocked = self._blocked()
            cur = self.current
            ready = [q for q in sorted(empty, key=lambda q: (q - cur) % n) if q not in blocked]
            if not ready:
                return
            self._win(ready[0])

    def _win(self, p: int) -> None:
        self.out[p] = True
        self.knocked += 1
        self.finished.append(p)
        if self.exposed == p:
            self.exposed = None
        pts = self.n - self.knocked
        self.round_points[p] += pts
        if pts <= 1:
            self.phase = "over"
            self.over = True
            self.ctx = None
            self.exposed = None
            self.winner = self.finished[0]
            self.lead = self.finished[0]
            self.last_points = self.T.names - 1
            self._ms = None
        elif p == self.current:
            self._begin_turn(self._next(p))
