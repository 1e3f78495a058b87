"""Diez as a rollout: the table (mirrors ``core/variants/diez/game.py`` step for step).

Cards are their engine ids, token kinds their index in ``TOKEN_KINDS``, pile colours small
codes. The engine's turn interpreter is kept as it is: a power card queues *steps* (plain
dicts in the engine's own shape, so the state compares directly), and a step that needs a
decision waits in a phase of its name, for its player (``asks`` when someone else). Plain
plays (numbers, the Blank, the Needle), the bulk of a game, skip the interpreter: their only
step ends the turn. This module holds the state, matching, the legal moves, playing a card and
the interpreter; the steps are in ``steps.py``, ``decisions.py``, ``effects.py`` and
``draws.py``, jumping in is ``jumps.py`` and the token rules ``tokens.py``.
"""

from __future__ import annotations

from typing import Any, Callable

from ...cards import COLORS
from ...variants.diez.cards import (
    CHALLENGEABLE, NUMBERS, POWER_RANKS, STACKERS, TOKEN_KINDS, UNDERLINED, has_effect,
)
from ...variants.diez.steps import JUMP_PHASES, RESTING
from ..base import CARD_SHIFT, KIND_SHIFT, NO_CARD, NO_TARGET, CardTables, Rollout, encode, with_target
from . import decisions, draws, effects, jumps, steps, tokens
from .steps import (
    ARG, K_CATCH, K_CHALLENGE, K_COLOR, K_DRAW, K_PASS, K_PLAY, K_UNO, KINDS, LINK, NOCOL, SILENCE, SNARE,
    STACKABLE, STRS, TOKEN_INDEX, copy_step, draw_step,
)


class Tables(CardTables):
    """Diez's card facts and move tables for ``n`` players, built once and shared."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        n = game.num_players
        cards = game.cards
        self.cname: list[str | None] = self.colors + [None] * (NOCOL + 1 - len(self.colors))
        """Colour names by code; black and :data:`NOCOL` are ``None``."""
        self.cname[self.black] = None
        self.ccode = {c: i for i, c in enumerate(self.colors)}
        self.blank_code = self.ccode["blank"]
        self.white_code = self.ccode["white"]
        nr = self.nr
        self.face = tuple(c * nr + r for c, r in zip(self.col, self.rk))
        self.is_black = bytes(c.color is None for c in cards)
        self.blank = bytes(c.color == "blank" for c in cards)
        self.mundane_play = bytes(c.color is not None and not has_effect(c) for c in cards)
        """Cards whose play only ends the turn (no colour to name, no effect)."""
        self.effect = bytes(has_effect(c) for c in cards)
        self.underlined = bytes(c.rank in UNDERLINED for c in cards)
        self.stacker = bytes(c.rank in STACKERS for c in cards)
        self.challengeable = bytes(c.rank in CHALLENGEABLE for c in cards)
        self.is_number = bytes(c.rank in NUMBERS for c in cards)
        self.new_pile = bytes(c.rank in ("CD", "WC") for c in cards)
        self.new_pile_cards = tuple(c.id for c in cards if self.new_pile[c.id])
        assert len(self.new_pile_cards) == 2
        self.power = bytes(c.color in COLORS and c.rank in POWER_RANKS for c in cards)
        self.st_rank = self.ranks.index("ST")
        self.pts = tuple(game.card_points(c) for c in cards)
        by_face: dict[int, list[int]] = {}
        for c in cards:
            by_face.setdefault(self.face[c.id], []).append(c.id)
        self.same = tuple(tuple(i for i in by_face[self.face[c.id]] if i != c.id) for c in cards)
        """The other cards of each card's face."""
        self.stops = tuple(tuple(c.id for c in cards if c.rank == "ST" and self.col[c.id] == k)
                           for k in range(NOCOL + 1))
        assert all(len(s) <= 1 for s in self.stops), "one Stop per colour"
        # match[pile colour code * nr + rank of its top][card], without the Link token's extra
        self.match = tuple(
            bytes(self._matches(cards[i], k, r) for i in range(len(cards)))
            for k in range(NOCOL + 1) for r in range(nr))
        self.play = tuple(tuple(encode(K_PLAY, p, c.id) for c in cards) for p in range(n))
        self.draw = self.per_seat(K_DRAW)
        self.pass_ = self.per_seat(K_PASS)
        self.challenge = self.per_seat(K_CHALLENGE)
        self.calls(K_UNO, K_CATCH)
        self.color_moves = tuple(tuple(encode(K_COLOR, p, arg=ARG[c]) for c in COLORS) for p in range(n))
        self.uno_calls = bool(game.options["uno_calls"])
        self.bonus = game._round_bonus(0)

    def _matches(self, card: Any, pile_color: int, top_rank: int) -> bool:
        if card.color is None or card.color == "blank":
            return True
        top = self.ranks[top_rank]
        if pile_color == NOCOL or top == "BLANK":
            return True
        return self.ccode[card.color] == pile_color or card.rank == top


class DiezRollout(Rollout):
    """One Diez round on small ints (see :mod:`core.rollout`)."""

    variant = "diez"
    KINDS = KINDS
    STRS = STRS
    LISTS = ("draw", "declared", "out", "set_aside", "colors", "jump_ok", "skipped", "reversed", "bag",
             "armed")
    TABLES = Tables
    K_UNO, K_CATCH = K_UNO, K_CATCH

    # -- loading and showing --------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Any, seed: Any = 0, source: Any = None) -> "DiezRollout":
        r = object.__new__(cls)
        r._init(game, seed, source)
        r.T = T = cls.tables(game)
        r._load(game)
        r.piles = [[c.id for c in pile] for pile in game.piles]
        r.colors = [NOCOL if c is None else T.ccode[c] for c in game.colors]
        r.focus = game.focus
        r.jump_ok = list(game.jump_ok)
        r.skipped = list(game.skipped)
        r.reversed = list(game.reversed)
        r.tokens = [[TOKEN_INDEX[k] for k in t] for t in game.tokens]
        r.bag = [TOKEN_INDEX[k] for k in game.bag]
        r.queue = [copy_step(s) for s in game.queue]
        r.armed = list(game.armed)
        r.pending = None if game.pending is None else dict(game.pending)
        r.phase = game.phase
        r.over = game.phase == "over"
        r.drawn = game.drawn
        r._loaded()
        return r

    def _copy_more(self, d: dict[str, Any]) -> None:
        d["piles"] = [p[:] for p in self.piles]
        d["tokens"] = [t[:] for t in self.tokens]
        d["queue"] = [copy_step(s) for s in self.queue]
        if self.pending is not None:
            d["pending"] = dict(self.pending)

    def to_state(self) -> dict[str, Any]:
        cname = self.T.cname
        return self._state(
            discard=list(self.piles[self.focus]),
            color=cname[self.colors[self.focus]],
            phase=self.phase,
            pending=None if self.pending is None else dict(self.pending),
            drawn=self.drawn,
            extra={
                "piles": [list(p) for p in self.piles],
                "colors": [cname[c] for c in self.colors],
                "focus": self.focus,
                "jump_ok": list(self.jump_ok),
                "skipped": list(self.skipped),
                "reversed": list(self.reversed),
                "tokens": [[TOKEN_KINDS[k] for k in t] for t in self.tokens],
                "bag": [TOKEN_KINDS[k] for k in self.bag],
                "queue": [copy_step(s) for s in self.queue],
                "armed": list(self.armed),
            },
        )

    def points(self) -> list[int]:
        out = [0] * self.n
        if self.over and self.winner is not None:
            out[self.winner] = self.last_points
        return out

    # -- matching ---------------------------------------------------------------------------------
    def _matches(self, p: int, c: int, i: int) -> bool:
        T = self.T
        top = self.piles[i][-1]
        if T.match[self.colors[i] * T.nr + T.rk[top]][c]:
            return True
        return T.underlined[c] and T.underlined[top] and LINK in self.tokens[p]

    def _pt(self, i: int) -> int | None:
        return None if i == 0 and len(self.piles) == 1 else i

    def _plays(self, p: int, cards: list[int]) -> list[int]:
        T = self.T
        play = T.play[p]
        piles = self.piles
        n = len(piles)
        out: list[int] = []
        if n == 1:
            top = piles[0][-1]
            m = T.match[self.colors[0] * T.nr + T.rk[top]]
            if not (T.underlined[top] and LINK in self.tokens[p]):
                out = [play[c] for c in cards if m[c]]
                cd, wc = T.new_pile_cards
                if not (cd in cards or wc in cards):
                    return out
                out = []
            link = T.underlined[top] and LINK in self.tokens[p]
            und = T.underlined
            for c in cards:
                if m[c] or (link and und[c]):
                    out.append(play[c])
                    if T.new_pile[c]:
                        out.append(with_target(play[c], 1))
            return out
        und = T.underlined
        linked = LINK in self.tokens[p]
        tests = [(i, T.match[self.colors[i] * T.nr + T.rk[pile[-1]]], linked and und[pile[-1]])
                 for i, pile in enumerate(piles)]
        for c in cards:
            first = len(out)
            for i, m, link in tests:
                if m[c] or (link and und[c]):
                    out.append(with_target(play[c], i))
            if len(out) > first and T.new_pile[c]:
                out.append(with_target(play[c], n))
        return out

    def _can_play_any(self, p: int) -> bool:
        T = self.T
        hand = self.hands[p]
        for i, pile in enumerate(self.piles):
            top = pile[-1]
            m = T.match[self.colors[i] * T.nr + T.rk[top]]
            link = T.underlined[top] and LINK in self.tokens[p]
            und = T.underlined
            for c in hand:
                if m[c] or (link and und[c]):
                    return True
        return False

    def _stack_plays(self, v: int) -> list[int]:
        if SILENCE in self.tokens[v]:
            return []
        T = self.T
        i = self.pending["pile"]
        procs = any(tokens.held(self, k) for k in STACKABLE)
        pr = T.ranks.index("PR")
        t = self._pt(i)
        play = T.play[v]
        return [play[c] if t is None else with_target(play[c], t) for c in self.hands[v]
                if T.stacker[c] and self._matches(v, c, i) and (T.rk[c] != pr or procs)]

    # -- legal moves -------------------------------------------------------------------------------
    def moves(self) -> list[int]:
        ms = self._ms
        if ms is not None:
            return ms
        if self.over:
            ms = []
        else:
            d = self._decider()
            jumpers = jumps.jump_ins(self, d) if self.phase in JUMP_PHASES and True in self.jump_ok else {}
            if self.exposed is not None:
                ms = self._all_moves([p for p in range(self.n) if not self.out[p]], jumpers, d)
            elif jumpers:
                ms = self._all_moves(sorted([*jumpers, d]), jumpers, d)
            else:
                ms = self._turn_moves(d)
        self._ms = ms
        return ms

    def _decider(self) -> int:
        """The player the game waits on: the turn's, or the one a waiting step asks."""
        if self.phase in RESTING or not self.queue:
            return self.current
        s = self.queue[0]
        return s.get("asks", s["who"])

    def _all_moves(self, actors: list[int], jumps: dict[int, list[int]], d: int) -> list[int]:
        ms: list[int] = []
        for p in self._act_order(actors, d):
            ms += self._exposure(p, self._turn_moves(p) if p == d else jumps.get(p, []))
        return ms

    def _uno(self, p: int, acts: list[int]) -> None:
        if acts and self.T.uno_calls and len(self.hands[p]) == 2 and not self.declared[p]:
            acts.append(self.T.uno[p])

    def _turn_moves(self, p: int) -> list[int]:
        ph = self.phase
        T = self.T
        if ph == "play":
            acts = self._plays(p, self.hands[p])
            self._uno(p, acts)
            if self.draw or self.set_aside or any(len(pile) > 1 for pile in self.piles):
                acts.append(T.draw[p])
            elif not acts:
                acts.append(T.pass_[p])
            return acts
        if ph == "drawn":
            acts = self._plays(p, [c for c in self.hands[p] if c == self.drawn])
            self._uno(p, acts)
            acts.append(T.pass_[p])
            return acts
        if ph == "stack":
            acts = self._stack_plays(p)
            self._uno(p, acts)
            if self.pending.get("challengeable"):
                acts.append(T.challenge[p])
            acts.append(T.draw[p])
            return acts
        if not self.queue:
            return []
        s = self.queue[0]
        return decisions.LEGAL[s["op"]](self, p, s)

    # -- carrying out moves ------------------------------------------------------------------------
    def _apply(self, m: int) -> None:
        p = m & 15
        kind = m >> KIND_SHIFT
        if self._call_or_catch(p, kind, m):
            return
        target = (m >> 4) & 15
        card = (m >> CARD_SHIFT) & 255
        if kind == K_PLAY and p != self._decider():
            jumps.jump_in(self, p, card, 0 if target == NO_TARGET else target)
            return
        ph = self.phase
        if ph == "play" or ph == "drawn":
            if kind == K_PLAY:
                self._play(p, card, 0 if target == NO_TARGET else target)
            elif kind == K_DRAW:
                draws.turn_draw(self, p)
            else:
                self._pass_turn(p)
        elif ph == "stack":
            if kind == K_PLAY:
                self._play(p, card, 0 if target == NO_TARGET else target)
            elif kind == K_DRAW:
                effects.take_stack(self, p)
            else:
                effects.challenge_stack(self, p)
        else:
            arg = (m >> 8) & 63
            s = self.queue[0]
            decisions.RESOLVE[s["op"]](self, p, KINDS[kind], None if card == NO_CARD else card,
                                       STRS[arg - 1] if arg else None, None if target == NO_TARGET else target, s)
            self._run()

    def _active_count(self) -> int:
        return self.n - sum(self.out)

    def _expose(self, p: int) -> None:
        if self.T.uno_calls and len(self.hands[p]) == 1 and not self.declared[p]:
            self.exposed = p

    def _pass_turn(self, p: int) -> None:
        if self.over:
            return
        if len(self.hands[p]) != 1:
            self.declared[p] = False
        self.phase = "play"
        self.drawn = None
        self.pending = None
        self.current = (p + self.direction) % self.n

    def _new_pile(self) -> int:
        self.piles.append([])
        self.colors.append(NOCOL)
        self.jump_ok.append(False)
        self.skipped.append(None)
        self.reversed.append(False)
        return len(self.piles) - 1

    def _draw_one(self) -> int:
        draw = self.draw
        if not draw:
            rest: list[int] = []
            for pile in self.piles:
                rest += pile[:-1]
                del pile[:-1]
            rest += self.set_aside
            self.set_aside = []
            if not rest:
                return -1
            self.draw = draw = self._shuffled(rest)
        return draw.pop()

    def _catch_draw(self, q: int, n: int) -> None:
        step = draw_step(q, n, reason="uno")
        if self.phase in RESTING:
            self.queue = [step, {"op": "resume", "who": self.current, "phase": self.phase, "drawn": self.drawn}]
        else:
            self.queue.insert(0, step)
        self._run()

    def _end(self) -> dict[str, Any]:
        for s in reversed(self.queue):
            if s["op"] == "end":
                return s
        raise AssertionError("no end step queued")

    def _insert_before_end(self, *steps: dict[str, Any]) -> None:
        q = self.queue
        k = next(j for j in range(len(q) - 1, -1, -1) if q[j]["op"] == "end")
        q[k:k] = list(steps)

    def _end_round(self, winner: int) -> None:
        self.phase = "over"
        self.over = True
        self.winner = winner
        self.exposed = None
        self.pending = None
        pts = self.T.pts
        self.last_points = sum(pts[c] for q, h in enumerate(self.hands) if q != winner for c in h) + self.T.bonus
        self._ms = None

    # -- playing a card ----------------------------------------------------------------------------
    def _play(self, p: int, card: int, t: int, jump: bool = False) -> None:
        T = self.T
        piles = self.piles
        n = len(piles)
        on_stack = self.phase == "stack" and not jump
        t0 = self.pending["total"] if on_stack else 0
        hand = self.hands[p]
        if t == n:
            i = self._new_pile()
            before = NOCOL
        else:
            i = t
            before = self.colors[i]
        col = T.col
        bluff = bool(T.challengeable[card]) and before != NOCOL and any(
            col[c] == before for c in hand if c != card)
        hand.remove(card)
        piles[i].append(card)
        self.jump_ok[i] = True
        self.skipped[i] = None
        self.reversed[i] = False
        k = col[card]
        if k != T.black:
            self.colors[i] = NOCOL if k == T.blank_code else k
        self.focus = i
        self.drawn = None
        if T.uno_calls and len(hand) == 1 and not self.declared[p]:
            self.exposed = p
        if T.mundane_play[card]:
            if not hand:
                self.queue = []
                self._end_round(p)
                return
            # The only step is "end": end the turn at once.
            if not on_stack:
                self.pending = None
            if len(hand) != 1:
                self.declared[p] = False
            self.queue = []
            self.current = (p + self.direction) % self.n
            self.phase = "play"
            self.pending = None
            return
        if not hand and not T.is_black[card]:
            self.queue = []
            self._end_round(p)
            return
        snared = bool(T.effect[card]) and SNARE in self.tokens[p]
        if snared:
            tokens.lose(self, p, SNARE)
        rank = T.ranks[T.rk[card]]
        end = {"op": "end", "who": p, "to": None, "phase": "play", "play": True}
        steps: list[dict[str, Any]] = []
        if rank == "WDA" and not snared:
            steps.append({"op": "drop", "who": p})
        if T.is_black[card]:
            steps.append({"op": "color", "who": p, "pile": i, "sub": True})
        if snared and on_stack:
            self.pending = None
            steps.append(draw_step(p, t0, forced=True))
        elif not snared and T.effect[card] and rank != "WDA":
            steps.append({"op": "effect", "who": p, "pile": i, "rank": rank, "stack": on_stack,
                          "bluff": bluff, "t0": t0, "via": None, "new": t == n})
        if not on_stack or snared:
            self.pending = None
        steps.append(end)
        self.queue = steps
        self._run()

    # -- the step interpreter ------------------------------------------------------------------------
    def _run(self) -> None:
        while self.queue and not self.over:
            s = self.queue[0]
            if START[s["op"]](self, s):
                return

    def _wait(self, s: dict, phase: str | None = None, who: int | None = None) -> bool:
        """Wait on ``s`` in its phase (or ``phase``) for its player (or ``who``, kept as ``asks``);
        the turn stays :attr:`current`'s."""
        self.phase = phase or s["op"]
        if who is None or who == s["who"]:
            s.pop("asks", None)
        else:
            s["asks"] = who
        return True


START: dict[str, Callable[[DiezRollout, dict], bool]] = {
    **steps.START, **decisions.START, **effects.START, **draws.START}
"""What each kind of step does when it comes up (True: it waits for a decision)."""
