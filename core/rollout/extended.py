"""The extended rules (UNO 扩展规则 5.2.3) as a rollout (mirrors
``core/variants/extended/game.py``).

Cards are their engine ids. The rule state that only function cards create (effects and
their trails, the interaction context, the turn record) keeps the engine's own dict shapes
and the engine's helpers in ``effects.py``, so it compares directly; the hot path (a turn
with no effect pending, a plain card, a draw, a pass) runs on lists of ints and skips the
work the engine does for every turn (sorting effects, building records, settling winners).
"""

from __future__ import annotations

from typing import Any

from ..cards import COLORS
from ..variants.extended import effects as fx
from ..variants.extended.decisions import DUEL_COLORS
from ..variants.extended.plays import CHANGES_LAST_BLACK, NAMES_COLOR, PLAIN, TARGETED, TRANSFER
from .base import CARD_SHIFT, KIND_SHIFT, NO_CARD, NO_TARGET, CardTables, Rollout, clone, encode

KINDS = ("direction", "accept", "refuse", "play", "camo", "draw", "pass", "attach", "send", "choose",
         "discard", "keep", "explode", "uno", "catch")
(K_DIRECTION, K_ACCEPT, K_REFUSE, K_PLAY, K_CAMO, K_DRAW, K_PASS, K_ATTACH, K_SEND, K_CHOOSE,
 K_DISCARD, K_KEEP, K_EXPLODE, K_UNO, K_CATCH) = range(len(KINDS))
STRS = DUEL_COLORS
ARG = {s: i + 1 for i, s in enumerate(STRS)}
NONE = 4


def _fresh_turn(forbid: int | None) -> dict[str, Any]:
    return {"stage": "judge", "drew": None, "played": 0, "extra": 0, "forbid": forbid, "skip": False,
            "plays": []}


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


class ExtendedRollout(Rollout):
    variant = "extended"
    KINDS = KINDS
    STRS = STRS
    LISTS = ("draw", "discard", "declared", "out", "set_aside", "finished", "round_points")
    TABLES = Tables
    K_UNO, K_CATCH = K_UNO, K_CATCH

    # -- loading and showing --------------------------------------------------------------------
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

    # -- helpers ------------------------------------------------------------------------------------
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

    # -- legal moves -------------------------------------------------------------------------------
    def moves(self) -> list[int]:
        ms = self._ms
        if ms is not None:
            return ms
        if self.phase == "main" and self.exposed is None and self.ctx is None:
            ms = self._main_actions(self.current)
        elif self.over:
            ms = []
        elif self.exposed is not None:
            ms = []
            for p in self._act_order(self._active(), self._actor()):
                ms += self._legal(p)
        else:
            ms = self._actions(self._actor())
        self._ms = ms
        return ms

    def _legal(self, p: int) -> list[int]:
        return self._exposure(p, self._actions(p) if p == self._actor() else [])

    def _actions(self, p: int) -> list[int]:
        ph = self.phase
        if ph == "main":
            return self._main_actions(p)
        if ph == "judge":
            return self._judge_actions(p)
        if ph == "direction":
            n = self.n
            return [encode(K_DIRECTION, p, target=t) for t in dict.fromkeys(((p + 1) % n, (p - 1) % n))]
        ctx = self.ctx
        hand = self.hands[p]
        if ph == "react":
            return [self.T.accept[p]] + self._counters(p, ctx["effect"])
        if ph == "attach":
            acts = [encode(K_ATTACH, p, c) for c in hand] if ctx["left"] else []
            return acts + [encode(K_SEND, p)]
        if ph == "duel":
            return [encode(K_CHOOSE, p, arg=ARG[c]) for c in DUEL_COLORS if c not in ctx["picks"]]
        if ph == "discard":
            return [encode(K_DISCARD, p, c) for c in self._discardable(p)]
        if ph == "keep":
            num = self.T.is_number
            return [encode(K_KEEP, p, c) for c in hand if num[c]]
        if ph in ("grenade", "c4", "argue"):
            return self._aoe_actions(p)
        return []

    def _card_acts(self, p: int, c: int, kind: int = K_PLAY, color: str | None = None) -> list[int]:
        T = self.T
        rank = T.rank[c]
        if rank in NAMES_COLOR:
            return [encode(kind, p, c, ARG[k]) for k in COLORS]
        if T.targeted[c]:
            arg = 0 if color is None else ARG[color]
            return [encode(kind, p, c, arg, t) for t in range(self.n) if not self.out[t] and t != p]
        if kind == K_PLAY:
            return [T.play[p][c][0]]
        return [encode(kind, p, c, 0 if color is None else ARG[color])]

    def _main_actions(self, p: int) -> list[int]:
        T = self.T
        t = self.turn
        hand = self.hands[p]
        acts: list[int] = []
        if not t["played"] or t["extra"] > 0:
            forbid = t["forbid"]
            camo_card = T.camo
            camo = T.camo_id in hand
            es = self.effects[p]
            if not camo and forbid is None and not (es and any(e["kind"] == "lock" for e in es)):
                # The hot path: the match table says it all.
                last = self.last if self.last is not None else self.discard[-1]
                m = T.match[T.code[self.color] * T.nr + T.rk[last]]
                play = T.play[p]
                for c in hand:
                    if m[c]:
                        acts += play[c] or self._card_acts(p, c)
            else:
                for c in hand:
                    if c == forbid or camo_card[c]:
                        continue
                    if self._can_play(p, c):
                        acts += self._card_acts(p, c)
                    if camo and T.cstr[c] is not None:
                        for col in COLORS:
                            if self._can_play(p, c, col):
                                acts += self._card_acts(p, c, K_CAMO, col)
        if t["drew"] is None and not t["played"] and self._room(p) and self._can_draw():
            acts.append(T.draw[p])
        if t["drew"] is not None or t["played"] or not acts:
            acts.append(T.pass_[p])
        return acts

    def _counters(self, p: int, e: dict[str, Any], *, aoe: bool = False) -> list[int]:
        if self.effects[p] and self._has(p, "weak"):
            return []
        T = self.T
        forbid = self.turn["forbid"]
        return [T.play[p][c][0] for c in self.hands[p]
                if T.counter[c] and c != forbid and fx.can_counter(T.rank[c], e, aoe=aoe)]

    def _judge_actions(self, p: int) -> list[int]:
        T = self.T
        e = fx.judge_order(self.effects[p])[0]
        acts = [T.accept[p]]
        if e["kind"] == "disarm":
            acts.append(encode(K_REFUSE, p))
        if not self._has(p, "weak"):
            forbid = self.turn["forbid"]
            for c in self.hands[p]:
                if c == forbid:
                    continue
                if e["kind"] == "draw" and T.draw_value[c] >= e["max"]:
                    acts += self._card_acts(p, c)
                elif e["kind"] == "transfer" and T.rank[c] == e["rank"] and not self._locked(p, c):
                    acts.append(T.play[p][c][0])
            acts += self._counters(p, e)
        return acts

    def _discardable(self, p: int) -> list[int]:
        if self.ctx and self.ctx.get("filter") == "function":
            num = self.T.is_number
            return [c for c in self.hands[p] if not num[c]]
        return list(self.hands[p])

    def _aoe_actions(self, p: int) -> list[int]:
        T = self.T
        ctx = self.ctx
        hand = self.hands[p]
        acts: list[int] = []
        ph = self.phase
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
            acts += self._counters(p, {"kind": ph, "tier": fx.TIER[ph], "trail": []}, aoe=True)
        return acts

    # -- carrying out moves ------------------------------------------------------------------------
    def _apply(self, m: int) -> None:
        p = m & 15
        kind = m >> KIND_SHIFT
        if self._call_or_catch(p, kind, m):
            return
        target = (m >> 4) & 15
        ph = self.phase
        if ph == "main":
            self._do_main(p, kind, m)
            if self.hands.count([]) != self.knocked:
                self._settle()
            return
        card = (m >> CARD_SHIFT) & 255
        arg = (m >> 8) & 63
        a = (KINDS[kind], None if card == NO_CARD else card, STRS[arg - 1] if arg else None,
             None if target == NO_TARGET else target)
        if ph == "judge":
            self._do_judge(p, a)
        elif ph == "direction":
            self.direction = 1 if target == (p + 1) % self.n else -1
            self._begin_turn(p)
        elif ph == "react":
            self._do_react(p, a)
        elif ph == "attach":
            self._do_attach(p, a)
        elif ph == "duel":
            self._do_pick(p, a)
        elif ph == "discard":
            self._do_discard(p, a)
        elif ph == "keep":
            self._keep_only(p, a[1])
            self._resume()
        else:
            self._do_aoe(p, a)
        self._settle()

    # turns and the judgement phase
    def _begin_turn(self, p: int, forbid: int | None = None) -> None:
        self.ctx = None
        self.current = p
        if not self.effects[p]:
            # Nothing to judge: straight to the main phase (what _judge comes to).
            self.turn = {"stage": "main", "drew": None, "played": 0, "extra": 0, "forbid": forbid, "skip": False,
                         "plays": []}
            self.phase = "main"
            return
        self.turn = _fresh_turn(forbid)
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
            plays = t["plays"]
            if len(plays) == 1 and plays[0]["plain"]:
                rec = {"kind": "play", "player": p, **plays[0]}
            elif not plays and t["drew"] is not None:
                rec = {"kind": "draw", "player": p, "card": t["drew"]}
        self.last_turn = rec
        self._begin_turn((p + self.direction) % self.n if not self.knocked else self._next(p))

    def _do_judge(self, p: int, a: tuple) -> None:
        kind_a, card, color, target = a
        e = fx.judge_order(self.effects[p])[0]
        kind = e["kind"]
        t = self.turn
        if kind_a == "accept":
            self._remove(e)
            if kind == "draw":
                self._draw(p, e["total"])
                t["skip"] = True
            elif kind == "transfer":
                got = fx.attached(e)
                self._give(p, got)
                self._add(p, "lock", rank=e["rank"])
            elif kind == "disarm":
                t["skip"] = True
                if self._shed_choice(p, 2, "function"):
                    return
            elif kind == "curse":
                self._bind(p)
            self._judge()
            return
        if kind_a == "refuse":
            self._remove(e)
            self._draw(p, 4)
            t["skip"] = True
            self._judge()
            return
        T = self.T
        if T.counter[card]:
            self._counter(p, card, e)
            return
        t["skip"] = True
        self._remove(e)
        before = len(self.hands[p])
        lb, cb = self.last, self.color
        self._lay(p, [card], color=color)
        fx.push_move(e, [card], p, lb, cb)
        if kind == "draw":
            v = T.draw_value[card]
            e["total"] += v
            e["max"] = max(e["max"], v)
            self._hand_shrunk(p, before)
            self._send(e, self._next(p))
            self._judge()
        else:
            e["layers"].append({"by": p, "cards": []})
            self.ctx = {"op": "attach", "who": p, "effect": e, "left": 2, "before": before}
            self.phase = "attach"

    def _send(self, e: dict[str, Any], to: int) -> None:
        e["on"] = to
        self.effects[to].append(e)

    def _counter(self, p: int, card: int, e: dict[str, Any]) -> None:
        rank = self.T.rank[card]
        if rank == "REGRET":
            self._withdraw(p, card, e)
            return
        before = len(self.hands[p])
        self._lay(p, [card])
        self._hand_shrunk(p, before)
        in_window = self.ctx is not None
        if rank == "WIDOW":
            if not in_window:
                self._remove(e)
            self._cancel(e)
            if in_window:
                self._resume()
            else:
                self._judge()
            return
        self._remove(e)
        src = e["trail"][-1]["by"]
        fx.push_move(e, [card], p, None, None)
        if rank == "WRB":
            self._send(e, src)
        else:
            self._send(e, self._next(p))
            self.turn["skip"] = True
        self._judge()

    def _cancel(self, e: dict[str, Any]) -> None:
        gone = fx.attached(e)
        if gone:
            self.discard += gone

    def _withdraw(self, p: int, card: int, e: dict[str, Any]) -> None:
        self._take(p, [card])
        self.discard.append(card)
        in_window = self.ctx is not None
        if not in_window:
            self._remove(e)
        had = set(fx.attached(e))
        move, alive = fx.pop_move(e)
        q = move["by"]
        back = move["cards"]
        for c in back:
            self.discard.remove(c)
        riders = had - set(fx.attached(e)) if alive else had
        if move["last"] is not None and self.last in back:
            # last goes back to the card it covered, if that is still on the pile; else the pill is last
            if move["last"] in self.discard:
                self.last, self.color = move["last"], move["color"]
            else:
                self.last, self.color = card, self.T.cstr[card]
        self.hands[q] += list(back) + sorted(riders)
        self._hand_grew(q)
        if alive:
            self.effects[e["on"]].append(e)
        self.last_turn = None
        self._begin_turn(q, forbid=move["cards"][0])

    # the main phase
    def _do_main(self, p: int, kind: int, m: int) -> None:
        t = self.turn
        if kind == K_DRAW:
            self.stuck = 0
            hand = self.hands[p]
            if self.draw and not self.effects[p] and len(hand) < self.T.hand_cap:
                c = self.draw.pop()  # _draw(p, 1) when nothing is in the way
                hand.append(c)
                self.declared[p] = False
                if self.exposed == p:
                    self.exposed = None
                t["drew"] = c
                return
            got = self._draw(p, 1)
            t["drew"] = got[0] if got else -1
            return
        if kind == K_PASS:
            stuck = not t["played"] and t["drew"] is None
            self.stuck = self.stuck + 1 if stuck else 0
            if stuck and self.stuck >= self.n - self.knocked:
                self._unstick()
            self._end_turn(p)
            return
        self.stuck = 0
        card = (m >> CARD_SHIFT) & 255
        arg = (m >> 8) & 63
        target = (m >> 4) & 15
        color = STRS[arg - 1] if arg else None
        self._play(p, card, color, None if target == NO_TARGET else target,
                   self.T.camo_id if kind == K_CAMO else None)

    def _unstick(self) -> None:
        self.stuck = 0
        c = self._turn_up(self.T.colored)
        if c >= 0:
            self.last, self.color = c, self.T.cstr[c]

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

    def _play(self, p: int, card: int, color: str | None, target: int | None, camo: int | None = None) -> None:
        T = self.T
        t = self.turn
        hand = self.hands[p]
        before = len(hand)
        lb, cb = self.last, self.color
        if camo is None and T.plain[card] and not self.effects[p]:
            # A number or a Change Colour: _lay, _hand_shrunk and _after_play, inlined.
            hand.remove(card)
            self.discard.append(card)
            self.last, self.color = card, T.cstr[card] or color
            if t["played"]:
                t["extra"] -= 1
            t["played"] += 1
            t["plays"].append({"card": card, "last": lb, "color": cb, "plain": True})
            if before > 1 and len(hand) == 1 and not self.declared[p]:
                self.exposed = p
            elif self.exposed == p and len(hand) != 1:
                self.exposed = None
            self.ctx = None
            if hand and t["extra"] > 0:
                self.phase = "main"
                return
            self._end_turn(p)
            return
        rank = T.rank[card]
        if rank == "REGRET" and camo is None and self._regret_turn(p, card):
            return
        laid = [camo, card] if camo is not None else [card]
        self._lay(p, laid, color=color, as_color=color if camo is not None else None)
        if t["played"]:
            t["extra"] -= 1
        t["played"] += 1
        t["plays"].append({"card": card, "last": lb, "color": cb, "plain": camo is None and rank in PLAIN})
        if not T.transfer[card]:
            self._hand_shrunk(p, before)
        move = (laid[::-1], p, lb, cb)
        self._effect(p, card, rank, color, target, move, before)

    def _new(self, kind: str, on: int, move: tuple, **fields: Any) -> dict[str, Any]:
        self.seq += 1
        e = fx.new_effect(self.seq, kind, on, **fields)
        cards, by, lb, cb = move
        fx.push_move(e, cards, by, lb, cb)
        return e

    def _effect(self, p: int, card: int, rank: str, color: str | None, target: int | None, move: tuple,
                before: int) -> None:
        if self.T.plain[card]:
            self._after_play()
            return
        nxt = self._next(p)
        if rank == "S":
            self._send(self._new("stun", nxt, move), nxt)
        elif rank == "R":
            self.direction = -self.direction
        elif rank in fx.DRAW_VALUE:
            v = fx.DRAW_VALUE[rank]
            self._send(self._new("draw", nxt, move, total=v, max=v), nxt)
        elif rank == "INF":
            self.turn["extra"] += 1
        elif rank in TRANSFER:
            e = self._new("transfer", nxt, move, rank=rank, layers=[{"by": p, "cards": []}])
            self.ctx = {"op": "attach", "who": p, "effect": e, "left": 2, "before": before}
            self.phase = "attach"
            if not self.hands[p]:
                self._do_attach(p, ("send", None, None, None))
            return
        elif rank == "HAND" and self.n - self.knocked == 2:
            self._draw(p, 1)
        elif rank in ("HAND", "CLIP", "DUELC", "DUELN"):
            tgt = target if rank in TARGETED else nxt
            e = self._new(fx.CARD_EFFECT[rank], tgt, move, rank=rank)
            self.ctx = {"op": "react", "who": tgt, "effect": e}
            self.phase = "react"
            return
        elif rank == "GIFT":
            if self._shed_choice(p, 1, "any"):
                return
        elif rank == "CHOSEN":
            if self._chosen(p):
                return
        elif rank == "BOMB":
            for q, k in self._bomb_draws(p):
                self._draw(q, k)
        elif rank in ("DISARM", "CURSE"):
            tgt = target if rank == "CURSE" else nxt
            self._send(self._new(fx.CARD_EFFECT[rank], tgt, move), tgt)
        elif rank == "WGREN":
            self._start_aoe("grenade", p, nxt, color=color)
            return
        elif rank == "WC4":
            self._start_aoe("c4", p, p)
            return
        elif rank == "WARG":
            self._start_aoe("argue", p, p, x=0)
            return
        self._after_play()

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

    def _regret_turn(self, p: int, card: int) -> bool:
        rec = self.last_turn
        q = self._upstream(p)
        if rec is None or rec["player"] != q or self.out[q]:
            return False
        if rec["kind"] == "draw":
            drawn = rec["card"] if rec["card"] >= 0 else None
            if drawn is None or drawn not in self.hands[q]:
                return False
        elif self.last != rec["card"]:
            return False
        before = len(self.hands[p])
        lb, cb = self.last, self.color
        self._lay(p, [card])  # a green card played: it becomes last
        self._hand_shrunk(p, before)
        self.turn["played"] += 1
        self.turn["plays"].append({"card": card, "last": lb, "color": cb, "plain": False})
        self.last_turn = None
        if rec["kind"] == "draw":
            self.hands[q].remove(drawn)
            self.draw.insert(0, drawn)
            self._draw(q, 1)
            self._after_play()
            return True
        back = rec["card"]
        self.discard.remove(back)
        self.hands[q].append(back)
        self._hand_grew(q)
        self._begin_turn(q, forbid=back)
        return True

    def _upstream(self, p: int) -> int:
        n = self.n
        q = (p - self.direction) % n
        while self.out[q] and q != p:
            q = (q - self.direction) % n
        return q

    # instant effects aimed at a player
    def _do_react(self, p: int, a: tuple) -> None:
        e = self.ctx["effect"]
        if a[0] != "accept":
            self._counter(p, a[1], e)
            return
        by, kind = e["trail"][-1]["by"], e["kind"]
        self.ctx = None
        if kind == "swap":
            sizes = ((by, len(self.hands[by])), (p, len(self.hands[p])))
            self.hands[by], self.hands[p] = self.hands[p], self.hands[by]
            for q, before in sizes:
                # A hand that goes from more than one card to one must call UNO, as after a play.
                if len(self.hands[q]) != 1:
                    self.declared[q] = False
                    if self.exposed == q:
                        self.exposed = None
                elif before > 1:
                    self.declared[q] = False
                self._hand_shrunk(q, before)
        elif kind == "clip":
            mine = self.hands[p][:]
            taken = self._shuffled(mine)[:2] if len(mine) > 2 else sorted(mine)
            before = len(self.hands[p])
            for c in taken:
                self.hands[p].remove(c)
            self.hands[by] += taken
            self._hand_grew(by)
            self._hand_shrunk(p, before)
        else:
            self._duel(e)
            return
        self._resume()

    # duels
    def _duel(self, e: dict[str, Any]) -> None:
        a, b = e["trail"][-1]["by"], e["on"]
        if e["rank"] == "DUELC":
            self.ctx = {"op": "duel", "who": a, "by": a, "on": b, "picks": []}
            self.phase = "duel"
            return
        va = self._flip(True)
        vb = self._flip(True) if va >= 0 else -1  # no number for a: none for b either
        num = self.T.num
        na = num[va] if va >= 0 else -1
        nb = num[vb] if vb >= 0 else -1
        winner = a if na > nb else b if nb > na else None
        self._duel_result(a, b, winner)

    def _turn_up(self, wanted: Any) -> int:
        """Turn cards from the pile onto the discards until one is ``wanted`` (a card test); -1
        when none can come up: the pile is empty and a reshuffle could bring back only cards
        this turn-up has shown (the engine's ``plays.turn_up``)."""
        shown: set[int] = set()
        while True:
            if not self.draw and shown.issuperset(self._reshuffle_pool()):
                return -1
            c = self._draw_one()
            self.discard.append(c)
            shown.add(c)
            if wanted[c]:
                return c

    def _flip(self, numbers: bool) -> int:
        return self._turn_up(self.T.is_number if numbers else self.T.any_card)

    def _do_pick(self, p: int, a: tuple) -> None:
        ctx = self.ctx
        ctx["picks"].append(a[2])
        x, y = ctx["by"], ctx["on"]
        if len(ctx["picks"]) < 4:
            ctx["who"] = y if p == x else x
            return
        c = self._flip(False)
        col = None if c < 0 else (self.T.cstr[c] or "black")
        picks = ctx["picks"]
        winner = None
        if col in picks:
            winner = x if picks.index(col) % 2 == 0 else y
        self.ctx = None
        self._duel_result(x, y, winner)

    def _duel_result(self, a: int, b: int, winner: int | None) -> None:
        losers = [a, b] if winner is None else [b if winner == a else a]
        for q in losers:
            self._draw(q, 4)
        if winner is not None and self._shed_choice(winner, 2, "any"):
            return
        self._resume()

    # shedding chosen cards
    def _shed_choice(self, p: int, n: int, filt: str) -> bool:
        num = self.T.is_number
        pool = [c for c in self.hands[p] if filt == "any" or not num[c]]
        if len(pool) <= n:
            if pool:
                before = len(self.hands[p])
                self._take(p, pool, hand_before=before)
                self.discard += pool
            return False
        self.ctx = {"op": "discard", "who": p, "left": n, "filter": filt}
        self.phase = "discard"
        return True

    def _do_discard(self, p: int, a: tuple) -> None:
        c = a[1]
        self._take(p, [c])
        self.discard.append(c)
        self.ctx["left"] -= 1
        if self.ctx["left"] == 0 or not self._discardable(p):
            self._resume()

    def _chosen(self, p: int) -> bool:
        num = self.T.is_number
        numbers = [c for c in self.hands[p] if num[c]]
        if len(numbers) > 1:
            self.ctx = {"op": "keep", "who": p}
            self.phase = "keep"
            return True
        self._keep_only(p, numbers[0] if numbers else None)
        return False

    def _keep_only(self, p: int, keep: int | None) -> None:
        gone = [c for c in self.hands[p] if c != keep]
        if gone:
            self._take(p, gone)
            self.discard += gone

    def _bomb_draws(self, p: int) -> list[tuple[int, int]]:
        act = self._active()
        x = len(act)
        i = act.index(p)
        out = [(p, x)]
        dist = []
        for j, q in enumerate(act):
            if q == p:
                continue
            fwd = (j - i) % x if self.direction == 1 else (i - j) % x
            d = min(fwd, x - fwd)
            dist.append((d, 0 if fwd <= x - fwd else 1, q))
        for d, side, q in sorted(dist):
            out.append((q, x - d))
        return out

    # AOE chains
    def _start_aoe(self, kind: str, p: int, first: int, **fields: Any) -> None:
        self.ctx = {"op": kind, "who": first, "by": p, **fields}
        self.phase = kind

    def _do_aoe(self, p: int, a: tuple) -> None:
        kind_a, card, color, target = a
        T = self.T
        ctx = self.ctx
        kind = self.phase
        by = ctx["by"]
        if kind_a == "play" and color is None and T.rank[card] == "WIDOW":
            before = len(self.hands[p])
            self._lay(p, [card])
            self._hand_shrunk(p, before)
            self._aoe_end(self._next(p) if kind == "grenade" else self._next(by))
            return
        if kind_a in ("explode", "refuse"):
            if kind == "argue":
                self._draw(p, 4)
                self._aoe_end(self._next(by))
                return
            self._reset(p)
            self._aoe_end(self._next(p) if kind == "grenade" else self._next(by))
            return
        before = len(self.hands[p])
        if kind_a == "camo":
            camo = next(c for c in self.hands[p] if T.camo[c])
            self._lay(p, [camo, card], as_color=ctx["color"])
        else:
            self._lay(p, [card])
        self._hand_shrunk(p, before)
        if kind == "grenade":
            ctx["color"] = color
            ctx["who"] = self._next(p)
        elif kind == "c4":
            k = T.num[card]
            ctx["who"] = self._next(p, k) if k else p
        else:
            ctx["x"] = T.num[card]
            ctx["who"] = self._next(p)

    def _aoe_end(self, start: int) -> None:
        by = self.ctx["by"]
        self.ctx = None
        self._drop(by, "lock")
        self.last_turn = None
        self._begin_turn(start)

    def _reset(self, p: int) -> None:
        gone = self.hands[p]
        self.hands[p] = []
        self.discard += gone
        self._check_bound(p)
        self._draw(p, self.T.reset_size)

    # transfer attachments
    def _do_attach(self, p: int, a: tuple) -> None:
        ctx = self.ctx
        e = ctx["effect"]
        if a[0] == "attach":
            c = a[1]
            self.hands[p].remove(c)
            self._check_bound(p)
            e["layers"][-1]["cards"].append(c)
            ctx["left"] -= 1
            if ctx["left"] and self.hands[p]:
                return
        self._hand_shrunk(p, ctx["before"])
        self.ctx = None
        self._send(e, self._next(p))
        self._resume()

    # effects on players
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

    # hands and the pile
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
            pool = self._reshuffle_pool()
            if not pool:
                return -1
            keep = self._protected()
            self.discard = [c for c in self.discard if c in keep]
            self.draw = self._shuffled(pool)
            self.set_aside = []
        return self.draw.pop()

    # winning
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
