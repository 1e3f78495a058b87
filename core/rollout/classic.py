"""Classic UNO as a rollout: the engine's ``ClassicGame`` (every house rule) on small ints.

Mirrors ``core/variants/classic/`` step for step (stacking, challenges, 7-0, jump-ins,
forced play, draw until playable, no bluffing), without ``Action`` or ``Event`` objects.
No Mercy (``nomercy.py``) subclasses it and fills in the hooks marked for it.
"""

from __future__ import annotations

from typing import Any

from ..cards import COLORS
from .base import CARD_SHIFT, KIND_SHIFT, NO_TARGET, CardTables, Rollout, encode, with_target

# phases
PLAY, DRAWN, STACK, CHALLENGE, OVER, CHOOSE = range(6)
PHASES = ("play", "drawn", "stack", "challenge", "over", "choose")
# move kinds
K_PLAY, K_DRAW, K_PASS, K_UNO, K_CATCH, K_CHALLENGE, K_CHOOSE = range(7)
# card effects
FX_NONE, FX_SKIP, FX_REVERSE, FX_SEVEN, FX_ZERO, FX_DRAW, FX_SKIP_ALL, FX_ROULETTE = range(8)
_EFFECTS = {"S": FX_SKIP, "R": FX_REVERSE, "7": FX_SEVEN, "0": FX_ZERO}
NONE = 4
"""The colour code of "no colour" (a black card, an unnamed colour)."""


class Tables(CardTables):
    """What a table of ``n`` players of one variant and options needs, built once and shared."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        n = game.num_players
        cards = game.cards
        self.pts = tuple(game.card_points(c) for c in cards)
        self.dv = tuple(game.draw_value(c) for c in cards)
        self.names_color = tuple(game.names_color(c) for c in cards)
        self.challengeable = bytes(c.rank in game.CHALLENGEABLE for c in cards)
        assert all(c.color is None for c in cards if self.challengeable[c.id]) and len(cards) <= 256
        self.col256 = self.col + bytes(256 - len(cards))
        """:attr:`col` as a ``bytes.translate`` table."""
        self.seven = bytes(c.rank == "7" for c in cards)
        self.sevens = self.seven if game.swaps else bytes(len(cards))
        """The 7s that swap hands (none without the 7-0 rule)."""
        self.fx = bytes(FX_DRAW if game.draw_value(c) else self.effect(c.rank) for c in cards)
        self.before = bytes(c.rank in self.BEFORE for c in cards)
        """Cards that act on their player's hand or the direction before their effect."""
        # match[color * nr + rank of top][card]: 0 the card does not match; 1 it does; 2 it does and
        # is a 7 that swaps hands (its moves depend on the players left in).
        swap7 = [2 if c.rank == "7" and game.swaps else 1 for c in cards]
        self.match = tuple(
            bytes(swap7[i] if cards[i].color is None or self.col[i] == col or self.rk[i] == r else 0
                  for i in range(len(cards)))
            for col in range(NONE + 1) for r in range(self.nr))
        self.play = tuple(tuple(
            tuple(encode(K_PLAY, p, c.id, k + 1) for k in range(4)) if self.names_color[c.id]
            else (encode(K_PLAY, p, c.id),) for c in cards) for p in range(n))
        self.draw = self.per_seat(K_DRAW)
        self.pass_ = self.per_seat(K_PASS)
        self.challenge = self.per_seat(K_CHALLENGE)
        self.calls(K_UNO, K_CATCH)
        self.choose = tuple([encode(K_CHOOSE, p, arg=k + 1) for k in range(4)] for p in range(n))
        # the rule switches
        self.stacking: str = game.stacking
        self.swaps: bool = game.swaps
        self.jump_ins: bool = game.jump_ins
        self.forced_play: bool = game.forced_play
        self.draws_until_playable: bool = game.draws_until_playable
        self.challenges: bool = game.challenges
        self.honest_only = bool(not game.challenges and game.CHALLENGEABLE)
        self.plain = not (self.jump_ins or self.honest_only)
        """No rule that needs more than matching (and 7s) in phase "play"."""

    BEFORE: frozenset[str] = frozenset()
    """Ranks with work for :meth:`ClassicRollout._before_effect` (none in classic)."""

    @staticmethod
    def effect(rank: str) -> int:
        return _EFFECTS.get(rank, FX_NONE)


class ClassicRollout(Rollout):
    """Classic UNO (and the base of No Mercy)."""

    variant = "classic"
    KINDS = ("play", "draw", "pass", "uno", "catch", "challenge", "choose")
    STRS = COLORS
    LISTS = ("draw", "discard", "declared", "out", "set_aside")
    K_UNO, K_CATCH = K_UNO, K_CATCH
    m: bytes
    """The match table's row for the top card and the colour in play (kept as they change)."""
    TABLES = Tables

    # -- loading -------------------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: Any, seed: Any = 0, source: Any = None) -> "ClassicRollout":
        r = object.__new__(cls)
        r._init(game, seed, source)
        r.T = T = cls.tables(game)
        r.plain = T.plain
        r._load(game)
        r.discard = [c.id for c in game.discard]
        r.color = NONE if game.color is None else COLORS.index(game.color)
        r.phase = PHASES.index(game.phase)
        r.m = T.match[r.color * T.nr + T.rk[r.discard[-1]]] if r.discard else T.match[0]
        r.over = r.phase == OVER
        r.pending = None if game.pending is None else r._load_pending(game.pending)
        r.drawn = -1 if game.drawn is None else game.drawn
        r._loaded()
        return r

    def _load_pending(self, p: dict[str, Any]) -> tuple:
        # (kind, total, last, rank code, by, victim, challengeable, colour before, bluff)
        if p["kind"] == "roulette":
            return ("roulette", 0, 0, 0, p["by"], p["victim"], False, None, False)
        before = p.get("color_before")
        return ("draw", p["total"], p["last"], self.T.ranks.index(p["rank"]), p["by"], p["victim"],
                p["challengeable"], None if before is None else COLORS.index(before), p.get("bluff", False))

    # -- the state as the engine shows it -------------------------------------------------------
    def to_state(self) -> dict[str, Any]:
        pend = self.pending
        if pend is None:
            pending = None
        elif pend[0] == "roulette":
            pending = {"kind": "roulette", "by": pend[4], "victim": pend[5]}
        else:
            pending = {"kind": "draw", "total": pend[1], "last": pend[2], "rank": self.T.ranks[pend[3]],
                       "by": pend[4], "victim": pend[5], "challengeable": pend[6]}
            if pend[6]:
                pending.update(color_before=None if pend[7] is None else COLORS[pend[7]], bluff=pend[8])
        return self._state(discard=list(self.discard), color=None if self.color == NONE else COLORS[self.color],
                           phase=PHASES[self.phase], pending=pending, drawn=None if self.drawn < 0 else self.drawn)

    def points(self) -> list[int]:
        out = [0] * self.n
        if self.over and self.winner is not None:
            out[self.winner] = self.last_points
        return out

    # -- legal moves ------------------------------------------------------------------------------
    def moves(self) -> list[int]:
        ms = self._ms
        if ms is not None:
            return ms
        if self.phase == PLAY and self.exposed is None and self.plain:
            # The hot path: a turn in phase "play" without house rules in the way.
            T = self.T
            p = self.current
            hand = self.hands[p]
            m = self.m
            play = T.play[p]
            ms = []
            for c in hand:
                x = m[c]
                if x:
                    if x == 2 and len(hand) > 1:
                        ms += self._plays(p, [c])
                    else:
                        ms += play[c]
            if ms and len(hand) == 2 and not self.declared[p]:
                ms.append(T.uno[p])
            ms.append(T.draw[p] if self.draw or len(self.discard) > 1 or self.set_aside else T.pass_[p])
        elif self.over:
            ms = []
        elif self.exposed is None and (not self.T.jump_ins or not self._has_out_of_turn()):
            ms = self._turn_moves(self.current)
        else:
            ms = self._all_moves()
        self._ms = ms
        return ms

    def _has_out_of_turn(self) -> bool:
        return self.T.jump_ins and self.phase <= STACK and self.T.col[self.discard[-1]] != NONE

    def _all_moves(self) -> list[int]:
        n, x, out = self.n, self.exposed, self.out
        cur = self.current
        if x is not None:
            actors = [p for p in range(n) if not out[p]]
        else:
            actors = [p for p in range(n) if p == cur or self._out_of_turn(p)]
        ms: list[int] = []
        for p in self._act_order(actors, cur):
            ms += self._legal(p)
        return ms

    def _legal(self, p: int) -> list[int]:
        """The engine's ``legal_actions(p)``."""
        if self.over:
            return []
        if p == self.current:
            acts = self._turn_moves(p)
        else:
            acts = self._out_of_turn(p) if self._has_out_of_turn() else []
        return self._exposure(p, acts)

    def _turn_moves(self, p: int) -> list[int]:
        T = self.T
        ph = self.phase
        hand = self.hands[p]
        if ph == PLAY:
            m = self.m
            if T.swaps or T.honest_only:
                acts = self._plays(p, [c for c in hand if m[c]])
            else:
                play = T.play[p]
                acts = []
                for c in hand:
                    if m[c]:
                        acts += play[c]
            if acts and len(hand) == 2 and not self.declared[p]:
                acts.append(T.uno[p])
            acts.append(T.draw[p] if self.draw or len(self.discard) > 1 or self.set_aside else T.pass_[p])
            return acts
        if ph == DRAWN:
            m = self.m
            c = self.drawn
            acts = self._plays(p, [c]) if c in hand and m[c] else []
            if len(hand) == 2 and not self.declared[p]:
                acts.append(T.uno[p])
            if not (T.forced_play and acts):
                acts.append(T.pass_[p])
            return acts
        if ph == STACK:
            pend, dv = self.pending, T.dv
            if T.stacking == "same":
                r, rk = pend[3], T.rk
                acts = self._plays(p, [c for c in hand if dv[c] and rk[c] == r])
            else:
                last = pend[2]  # at least 2, so only draw cards pass
                if T.honest_only:
                    acts = self._plays(p, [c for c in hand if dv[c] >= last])
                else:
                    play = T.play[p]
                    acts = []
                    for c in hand:
                        if dv[c] >= last:
                            acts += play[c]  # a draw card is never a 7
            if acts and len(hand) == 2 and not self.declared[p]:
                acts.append(T.uno[p])
            if self.pending[6]:
                acts.append(T.challenge[p])
            acts.append(T.draw[p])
            return acts
        if ph == CHALLENGE:
            return [T.challenge[p], T.draw[p]]
        if ph == CHOOSE:
            return T.choose[p][:]
        return []

    def _plays(self, p: int, cards: list[int]) -> list[int]:
        """The moves playing ``cards`` (already matching) from ``p``'s hand."""
        T = self.T
        play = T.play[p]
        honest = T.honest_only
        swaps = T.swaps and len(self.hands[p]) > 1
        out: list[int] = []
        for c in cards:
            if honest and T.challengeable[c] and self._is_bluff(p, c):
                continue
            if swaps and T.seven[c]:
                m = play[c][0]
                out += [with_target(m, t) for t in range(self.n) if t != p and not self.out[t]]
            else:
                out += play[c]
        return out

    def _stacks(self, c: int) -> bool:
        value = self.T.dv[c]
        pend = self.pending
        if not value or pend is None:
            return False
        if self.T.stacking == "same":
            return self.T.rk[c] == pend[3]
        return value >= pend[2]

    def _out_of_turn(self, p: int) -> list[int]:
        """Jump-ins: a card identical to the top card, played out of turn."""
        if self.out[p]:
            return []
        T = self.T
        top = self.discard[-1]
        col, rk = T.col[top], T.rk[top]
        for c in self.hands[p]:
            if T.col[c] == col and T.rk[c] == rk:
                if self.phase == STACK:
                    return self._plays(p, [c]) if self._stacks(c) else []
                return self._plays(p, [c])
        return []

    def _is_bluff(self, p: int, card: int) -> bool:
        """``card`` is a challengeable draw card played while holding the colour in play."""
        if not self.T.challengeable[card]:
            return False
        # The hand's colours, read in C; the card itself is black, never the colour in play.
        return self.color in bytes(self.hands[p]).translate(self.T.col256)

    # -- carrying out moves ------------------------------------------------------------------------
    def step(self, index: int) -> None:
        # The base's step with _apply inlined: this is the hottest loop of all (the yardstick's game).
        ms = self._ms
        if ms is None:
            ms = self.moves()
        m = ms[index]
        self._ms = None
        self.version += 1
        p = m & 15
        kind = m >> KIND_SHIFT
        if kind == K_PLAY:
            if p != self.exposed:
                self.exposed = None
            cur = self.current
            if p != cur and len(self.hands[cur]) != 1:
                self.declared[cur] = False  # the interrupted call announced a play not made
            self._play(p, (m >> CARD_SHIFT) & 255, m)
        elif kind == K_DRAW:
            if p != self.exposed:
                self.exposed = None
            if self.phase == PLAY:
                self._turn_draw(p)
            else:
                self._take_penalty(p)
        elif self._call_or_catch(p, kind, m):
            pass
        elif kind == K_PASS:
            self._end_turn(p)
        elif kind == K_CHALLENGE:
            self._challenge(p)
        else:
            self._do_more(p, m)

    def _do_more(self, p: int, m: int) -> None:
        raise AssertionError(f"unhandled move {self.decode(m)}")

    def _active(self) -> int:
        return self.n - self.knocked

    def _end_turn(self, p: int, skip: int = 0) -> None:
        if self.over:
            return
        if len(self.hands[p]) != 1:
            self.declared[p] = False
        self.phase = PLAY
        self.drawn = -1
        self.pending = None
        self.current = (p + self.direction * (1 + skip)) % self.n if not self.knocked else self._next(p, 1 + skip)

    def _end_turn_to(self, victim: int) -> None:
        if self.over:
            return
        self.phase = PLAY
        self.drawn = -1
        self.current = self._next(victim)

    def _draw_one(self) -> int:
        draw = self.draw
        if not draw:
            discard = self.discard
            if len(discard) <= 1 and not self.set_aside:
                return -1
            top = discard.pop()
            self.draw = draw = self._shuffled(discard + self.set_aside)
            self.discard = [top]
            self.set_aside = []
        return draw.pop()

    def _turn_draw(self, p: int) -> None:
        T = self.T
        if T.draws_until_playable or self.mercy:
            got = []
            # No Mercy's Mercy rule: no more drawing at the 25th card (the player is out).
            limit = self.mercy - len(self.hands[p]) if self.mercy else 1 << 30
            if T.draws_until_playable and not T.honest_only:
                # Until a card matches (a bluff is no bar): the pile read directly.
                m = self.m
                while True:
                    c = self.draw.pop() if self.draw else self._draw_one()
                    if c < 0:
                        break
                    got.append(c)
                    if m[c] or len(got) >= limit:
                        break
            else:
                while True:
                    c = self._draw_one()
                    if c < 0:
                        break
                    got.append(c)
                    if not T.draws_until_playable or self._may_play_drawn(p, c) or len(got) >= limit:
                        break
            self._give(p, got)
            if self.over or self.out[p]:
                self._end_turn(p)
                return
            c = got[-1] if got else -1
        else:
            c = self.draw.pop() if self.draw else self._draw_one()
            if c >= 0:
                self.hands[p].append(c)
                self.declared[p] = False
                if self.exposed == p:
                    self.exposed = None
        if c >= 0 and self.m[c] and (
                self.plain and not T.sevens[c] or self._plays(p, [c])):
            self.phase = DRAWN
            self.drawn = c
            return
        self._end_turn(p)

    def _may_play_drawn(self, p: int, c: int) -> bool:
        T = self.T
        if not self.m[c]:
            return False
        return T.challenges or not T.challengeable[c] or not self._is_bluff(p, c)

    def _play(self, p: int, c: int, m: int) -> None:
        T = self.T
        on_stack = self.phase == STACK
        before = self.color
        bluff = T.challengeable[c] and self._is_bluff(p, c)
        hand = self.hands[p]
        hand.remove(c)
        self.discard.append(c)
        if len(hand) == 1 and not self.declared[p]:
            self.exposed = p
        self.color = color = ((m >> 8) & 63) - 1 if T.names_color[c] else T.col[c]
        self.m = T.match[color * T.nr + T.rk[c]]
        self.drawn = -1
        fx = T.fx[c]
        if fx == FX_NONE:
            if hand:
                # _end_turn, inlined: most plays are plain cards
                if len(hand) != 1:
                    self.declared[p] = False
                self.phase = PLAY
                self.pending = None
                self.current = (p + self.direction) % self.n if not self.knocked else self._next(p)
                return
        elif T.before[c]:
            self._before_effect(p, c)
            hand = self.hands[p]
        if not hand:
            self._going_out(p, c, on_stack)
            return
        if not on_stack:
            self.pending = None
        self.phase = PLAY
        if fx == FX_DRAW:
            self._draw_card(p, c, on_stack, before, bluff)
        elif fx == FX_SKIP:
            self._end_turn(p, 1)
        elif fx == FX_REVERSE:
            self.direction = -self.direction
            self._end_turn(p, 1 if self._active() == 2 else 0)
        elif fx == FX_SEVEN:
            self._seven(p, (m >> 4) & 15)
        elif fx == FX_ZERO:
            self._zero(p)
        else:
            self._effect_more(p, c, fx)

    def _before_effect(self, p: int, c: int) -> None:
        """What a card does before its effect (No Mercy's Discard All and Wild Reverse Draw Four);
        called only for the ranks in ``Tables.BEFORE``."""

    def _effect_more(self, p: int, c: int, fx: int) -> None:
        raise AssertionError(f"no effect {fx}")

    def _seven(self, p: int, t: int) -> None:
        if self.T.swaps and t != NO_TARGET:
            hands = self.hands
            hands[p], hands[t] = hands[t], hands[p]
            self._hands_moved()
        self._end_turn(p)

    def _zero(self, p: int) -> None:
        if self.T.swaps:
            moved = self.hands[:]
            hands = self.hands
            for q in range(self.n):
                if not self.out[q]:
                    hands[self._next(q)] = moved[q]
            self._hands_moved()
        self._end_turn(p)

    def _hands_moved(self) -> None:
        self.exposed = None
        self.declared = [len(h) == 1 for h in self.hands]

    def _penalty_victim(self, p: int, c: int) -> int:
        return self._next(p)

    def _going_out(self, p: int, c: int, on_stack: bool) -> None:
        value = self.T.dv[c]
        if value:
            total = value + (self.pending[1] if on_stack and self.pending else 0)
            self._draw(self._penalty_victim(p, c), total)
        if not self.over:
            self._end_round(p)

    def _draw_card(self, p: int, c: int, on_stack: bool, before: int, bluff: bool) -> None:
        T = self.T
        value = T.dv[c]
        total = value + (self.pending[1] if on_stack and self.pending else 0)
        victim = self._penalty_victim(p, c)
        challengeable = bool(T.challengeable[c]) and T.challenges
        can_stack = T.stacking != "none"
        if not (can_stack or challengeable):
            self._draw(victim, total)
            self.pending = None
            self._end_turn_to(victim)
            return
        self.pending = ("draw", total, value, T.rk[c], p, victim, challengeable,
                        (None if before == NONE else before) if challengeable else None,
                        bluff if challengeable else False)
        self.phase = STACK if can_stack else CHALLENGE
        self.current = victim

    def _take_penalty(self, p: int) -> None:
        total = self.pending[1]
        self.pending = None
        self._draw(p, total)
        self._end_turn_to(p)

    def _challenge(self, p: int) -> None:
        pend = self.pending
        by, total = pend[4], pend[1]
        self.pending = None
        if pend[8]:
            self._draw(by, total)
            if not self.over:
                self.phase = PLAY
                self.current = p if not self.out[p] else self._next(p)
        else:
            self._draw(p, total + 2)
            self._end_turn_to(p)

    def _end_round(self, winner: int) -> None:
        self.phase = OVER
        self.over = True
        self.winner = winner
        self.exposed = None
        self.pending = None
        pts = self.T.pts
        self.last_points = sum(pts[c] for q, h in enumerate(self.hands) if q != winner for c in h) \
            + self._round_bonus(winner)
        self._ms = None

    def _round_bonus(self, winner: int) -> int:
        return 0
