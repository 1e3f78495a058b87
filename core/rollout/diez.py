"""Diez as a rollout (mirrors ``core/variants/diez/game.py`` step for step).

Cards are their engine ids, token kinds their index in ``TOKEN_KINDS``, pile colours small
codes. The engine's turn interpreter is kept as it is: a power card queues *steps* (plain
dicts in the engine's own shape, so the state compares directly), and a step that needs a
decision waits in a phase of its name. Plain plays (numbers, the Blank, the Needle), the
bulk of a game, skip the interpreter: their only step ends the turn.
"""

from __future__ import annotations

from typing import Any, Callable

from ..cards import COLORS
from ..variants.diez.cards import (
    CHALLENGEABLE, CHOICE_EFFECTS, CHOICE_STACK_EFFECTS, NUMBERS, POWER_RANKS, STACKABLE_PROCS, STACKERS,
    TOKEN_KINDS, TOKEN_LIMIT, UNDERLINED, has_effect,
)
from ..variants.diez.decisions import AIMED_PROCS
from ..variants.diez.steps import JUMP_PHASES, RESTING
from .base import CARD_SHIFT, KIND_SHIFT, NO_CARD, NO_TARGET, CardTables, Rollout, encode, with_target

HEX, MAGNET, SILENCE, BLOCK, REVEAL, LINK, SNARE, MIRROR, ACE, DOUBLE, SUB, WHITE_TOKEN = range(12)
assert TOKEN_KINDS[WHITE_TOKEN] == "white" and TOKEN_KINDS[HEX] == "hex"
TOKEN_INDEX = {k: i for i, k in enumerate(TOKEN_KINDS)}
STACKABLE = frozenset(TOKEN_INDEX[k] for k in STACKABLE_PROCS)
AIMED = frozenset(TOKEN_INDEX[k] for k in AIMED_PROCS)

NOCOL = 7
"""The pile colour code of "no colour" (after a Blank, or a black card before it names one)."""

KINDS = ("play", "draw", "pass", "uno", "catch", "challenge", "stop", "draw_token", "replace", "color",
         "effect", "target", "remove", "give", "take", "drop", "stitch", "discard", "proc")
(K_PLAY, K_DRAW, K_PASS, K_UNO, K_CATCH, K_CHALLENGE, K_STOP, K_DRAW_TOKEN, K_REPLACE, K_COLOR,
 K_EFFECT, K_TARGET, K_REMOVE, K_GIVE, K_TAKE, K_DROP, K_STITCH, K_DISCARD, K_PROC) = range(len(KINDS))
STRS = COLORS + CHOICE_EFFECTS + TOKEN_KINDS
ARG = {s: i + 1 for i, s in enumerate(STRS)}
"""The ``arg`` field of a move naming each string (a colour, a Choice's effect, a token kind)."""
TOKEN_ARG = 1 + len(COLORS) + len(CHOICE_EFFECTS)


def _step_draw(who: int, n: int = 0, *, until: str | None = None, forced: bool = False,
               reason: str = "penalty") -> dict[str, Any]:
    return {"op": "draw", "who": who, "n": n, "until": until, "forced": forced, "reason": reason,
            "stage": "start", "got": [], "stopped": False, "counted": 0, "double": False, "hex": 0}


def _copy_step(s: dict[str, Any]) -> dict[str, Any]:
    return {k: (v[:] if type(v) is list else v) for k, v in s.items()}


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
        r.queue = [_copy_step(s) for s in game.queue]
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
        d["queue"] = [_copy_step(s) for s in self.queue]
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
                "queue": [_copy_step(s) for s in self.queue],
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

    def _in_play(self, k: int) -> bool:
        for t in self.tokens:
            if k in t:
                return True
        return False

    def _stack_plays(self, v: int) -> list[int]:
        if SILENCE in self.tokens[v]:
            return []
        T = self.T
        i = self.pending["pile"]
        procs = any(self._in_play(k) for k in STACKABLE)
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
            jumps = self._jumps(d) if self.phase in JUMP_PHASES and True in self.jump_ok else {}
            if self.exposed is not None:
                ms = self._all_moves([p for p in range(self.n) if not self.out[p]], jumps, d)
            elif jumps:
                ms = self._all_moves(sorted([*jumps, d]), jumps, d)
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

    def _jumps(self, cur: int) -> dict[int, list[int]]:
        """Every player's jump-ins (the engine's out-of-turn actions) while the game waits on
        ``cur``, by player; players with none are left out. Per player: piles in order, the
        identical card before the Stop."""
        T = self.T
        hands, n = self.hands, self.n
        out: dict[int, list[int]] = {}
        single = len(self.piles) == 1
        for i, pile in enumerate(self.piles):
            if not self.jump_ok[i]:
                continue
            top = pile[-1]
            skipped = self.skipped[i]
            found: dict[int, int] = {}
            for c in T.same[top]:
                for q in range(n):
                    h = hands[q]
                    if c in h:
                        if q != cur and q != skipped:
                            prev = found.get(q)
                            if prev is None or h.index(c) < h.index(prev):
                                found[q] = c
                        break
            stop = -1
            if T.power[top] and T.rk[top] != T.st_rank:
                for c in T.stops[T.col[top]]:
                    for q in range(n):
                        if c in hands[q]:
                            if q != cur and q != skipped:
                                stop, holder = c, q
                            break
            if not found and stop < 0:
                continue
            for q in range(n):
                c = found.get(q, -1)
                if (c >= 0 or (stop >= 0 and holder == q)) and not self.out[q] and SILENCE not in self.tokens[q]:
                    acts = out.setdefault(q, [])
                    play = T.play[q]
                    if c >= 0:
                        acts.append(play[c] if single else with_target(play[c], i))
                    if stop >= 0 and holder == q:
                        acts.append(play[stop] if single else with_target(play[stop], i))
        return out

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
        return _ACTS[s["op"]](self, p, s)

    def _distinct(self, cards: list[int]) -> list[int]:
        face = self.T.face
        seen: set[int] = set()
        out = []
        for c in cards:
            f = face[c]
            if f not in seen:
                seen.add(f)
                out.append(c)
        return out

    # decision steps' moves
    def _acts_color(self, p: int, s: dict) -> list[int]:
        return list(self.T.color_moves[p]) + ([self.T.pass_[p]] if self.phase == "sub" else [])

    def _acts_choice(self, p: int, s: dict) -> list[int]:
        if s["stack"]:
            ranks = [r for r in CHOICE_STACK_EFFECTS
                     if r != "PR" or any(self._in_play(k) for k in STACKABLE)]
            return [encode(K_EFFECT, p, arg=ARG[r]) for r in ranks]
        return [encode(K_EFFECT, p, arg=ARG[r]) for r in CHOICE_EFFECTS if r != "CD"] + [self.T.pass_[p]]

    def _acts_target(self, p: int, s: dict) -> list[int]:
        return [encode(K_TARGET, p, target=q) for q in range(self.n) if not self.out[q]]

    def _kinds(self, q: int) -> list[int]:
        return sorted(set(self.tokens[q]))

    def _acts_token(self, p: int, s: dict) -> list[int]:
        acts = [encode(K_DRAW_TOKEN, p)] if self.bag and self._recipients(p) else []
        for q in range(self.n):
            if not self.out[q]:
                acts += [encode(K_REMOVE, p, arg=TOKEN_ARG + k, target=q) for k in self._kinds(q)]
        return acts

    def _acts_give(self, p: int, s: dict) -> list[int]:
        return [encode(K_GIVE, p, target=q) for q in self._recipients(p)]

    def _acts_steal(self, p: int, s: dict) -> list[int]:
        return [encode(K_TAKE, p, arg=TOKEN_ARG + k, target=q) for q in range(self.n)
                if not self.out[q] and q != p for k in self._kinds(q)]

    def _acts_drop(self, p: int, s: dict) -> list[int]:
        return [encode(K_DROP, p, target=q) for q in range(self.n) if not self.out[q] and self.tokens[q]]

    def _acts_search(self, p: int, s: dict) -> list[int]:
        return [encode(K_TAKE, p, card=c) for c in self._searchable(s)] + [self.T.pass_[p]]

    def _acts_stitch(self, p: int, s: dict) -> list[int]:
        return [encode(K_STITCH, p, target=j) for j in range(len(self.piles)) if j != s["pile"]]

    def _acts_discard(self, p: int, s: dict) -> list[int]:
        hand = self.hands[p]
        if s["mode"] == "mulligan":
            cards = hand
        else:
            want, col, cname = s["color"], self.T.col, self.T.cname
            cards = [c for c in hand if cname[col[c]] == want]
        return [encode(K_DISCARD, p, card=c) for c in self._distinct(cards)] + [self.T.pass_[p]]

    def _acts_proc(self, p: int, s: dict) -> list[int]:
        held = {k for t in self.tokens for k in t}
        if s["stack"]:
            return [encode(K_PROC, p, arg=TOKEN_ARG + k) for k in STACKABLE_ORDER if k in held]
        acts = []
        for k in range(len(TOKEN_KINDS)):
            if k not in held or k == DOUBLE or (k == MIRROR and self.armed[p]):
                continue
            if k == BLOCK:
                acts += [encode(K_PROC, p, arg=TOKEN_ARG + k, target=q) for q in range(self.n)
                         if not self.out[q] and BLOCK in self.tokens[q]]
            else:
                acts.append(encode(K_PROC, p, arg=TOKEN_ARG + k))
        return acts + [self.T.pass_[p]]

    def _acts_replace(self, p: int, s: dict) -> list[int]:
        return ([encode(K_REPLACE, p)] if self.bag else []) + [self.T.pass_[p]]

    def _acts_link(self, p: int, s: dict) -> list[int]:
        play = self.T.play[p]
        return [play[c] if self._pt(i) is None else with_target(play[c], i)
                for c in self._distinct(self._underlined(p)) for i in range(len(self.piles))] + [self.T.pass_[p]]

    def _acts_give_card(self, p: int, s: dict) -> list[int]:
        hand = self.hands[p]
        if len(hand) < 2:
            return [self.T.pass_[p]]
        return [encode(K_GIVE, p, card=c) for c in self._distinct(hand)] + [self.T.pass_[p]]

    def _acts_magnet(self, p: int, s: dict) -> list[int]:
        hand = self.hands[p]
        if len(hand) < 2:
            return [self.T.pass_[p]]
        cards = self._distinct([c for c in s["cards"] if c in hand])
        return [encode(K_GIVE, p, card=c, target=h) for c in cards for h in s["holders"]] + [self.T.pass_[p]]

    def _acts_needle(self, p: int, s: dict) -> list[int]:
        return [encode(K_STOP, p), self.T.draw[p]]

    def _acts_challenge(self, p: int, s: dict) -> list[int]:
        return [self.T.challenge[p], self.T.pass_[p] if s["card"] == "WC" else self.T.draw[p]]

    # -- tokens -----------------------------------------------------------------------------------
    def _recipients(self, giver: int) -> list[int]:
        tokens = self.tokens
        others = [q for q in range(self.n) if not self.out[q] and q != giver and len(tokens[q]) < TOKEN_LIMIT
                  and BLOCK not in tokens[q]]
        if others:
            return others
        return [giver] if len(tokens[giver]) < TOKEN_LIMIT else []

    def _draw_token(self) -> int:
        kind = self._pick_last(self.bag)
        self.bag.remove(kind)
        return kind

    def _lose_token(self, q: int, kind: int) -> None:
        self.tokens[q].remove(kind)
        self.bag.append(kind)

    def _mirror(self, victim: int, p: int) -> bool:
        if victim == p:
            return False
        if self.armed[victim]:
            self.armed[victim] = False
            return True
        if MIRROR in self.tokens[victim]:
            self._lose_token(victim, MIRROR)
            return True
        return False

    # -- carrying out moves ------------------------------------------------------------------------
    def _apply(self, m: int) -> None:
        p = m & 15
        kind = m >> KIND_SHIFT
        if self._call_or_catch(p, kind, m):
            return
        target = (m >> 4) & 15
        card = (m >> CARD_SHIFT) & 255
        if kind == K_PLAY and p != self._decider():
            self._jump_in(p, card, 0 if target == NO_TARGET else target)
            return
        ph = self.phase
        if ph == "play" or ph == "drawn":
            if kind == K_PLAY:
                self._play(p, card, 0 if target == NO_TARGET else target)
            elif kind == K_DRAW:
                self._turn_draw(p)
            else:
                self._pass_turn(p)
        elif ph == "stack":
            if kind == K_PLAY:
                self._play(p, card, 0 if target == NO_TARGET else target)
            elif kind == K_DRAW:
                self._take_stack(p)
            else:
                self._challenge_stack(p)
        else:
            arg = (m >> 8) & 63
            s = self.queue[0]
            _DECIDE[s["op"]](self, p, KINDS[kind], None if card == NO_CARD else card,
                             STRS[arg - 1] if arg else None, None if target == NO_TARGET else target, s)
            self._run()

    def _active_count(self) -> int:
        return self.n - sum(self.out)

    def _hands_moved(self) -> None:
        self.exposed = None
        self.declared = [len(h) == 1 for h in self.hands]

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

    def _focus(self, i: int) -> None:
        self.focus = i

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
        step = _step_draw(q, n, reason="uno")
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
    def _jump_in(self, p: int, card: int, i: int) -> None:
        if self.reversed[i]:
            self.direction = -self.direction
        d = self._decider()  # the interrupted player: their call announced a play they no longer make
        if len(self.hands[d]) != 1:
            self.declared[d] = False
        self.queue = []
        self.pending = None
        self.drawn = None
        self.current = p
        self.phase = "play"
        self._play(p, card, i, jump=True)

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
            self._lose_token(p, SNARE)
        rank = T.ranks[T.rk[card]]
        end = {"op": "end", "who": p, "to": None, "phase": "play", "play": True}
        steps: list[dict[str, Any]] = []
        if rank == "WDA" and not snared:
            steps.append({"op": "drop", "who": p})
        if T.is_black[card]:
            steps.append({"op": "color", "who": p, "pile": i, "sub": True})
        if snared and on_stack:
            self.pending = None
            steps.append(_step_draw(p, t0, forced=True))
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
            if _STEPS[s["op"]](self, s):
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

    def _step_end(self, s: dict) -> bool:
        p = s["who"]
        if s.get("play") and not self.hands[p] and not s.get("drew"):
            s["drew"] = True
            self.queue.insert(0, _step_draw(p, 2, reason="last"))
            return False
        self.queue.pop(0)
        if len(self.hands[p]) != 1:
            self.declared[p] = False
        self.current = self._next(p) if s["to"] is None else s["to"]
        self.phase = s["phase"]
        self.drawn = None
        if self.phase != "stack":
            self.pending = None
        return False

    def _step_resume(self, s: dict) -> bool:
        self.queue.pop(0)
        self.current, self.phase, self.drawn = s["who"], s["phase"], s["drawn"]
        return False

    def _step_wait(self, s: dict) -> bool:
        return self._wait(s)

    # colour
    def _step_color(self, s: dict) -> bool:
        if s["sub"]:
            holders = [q for q in range(self.n) if not self.out[q] and q != s["who"] and SUB in self.tokens[q]]
            if holders:
                return self._wait(s, "sub", holders[0])
            s["sub"] = False
        return self._wait(s, "color")

    def _decide_color(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                      s: dict) -> None:
        if kind == "pass":
            s["sub"] = False
            return
        if self.phase == "sub":
            self._lose_token(p, SUB)
        self.queue.pop(0)
        self.colors[s["pile"]] = self.T.ccode[arg]

    # effects
    def _step_effect(self, s: dict) -> bool:
        self.queue.pop(0)
        _FX[s["rank"]](self, s)
        return False

    def _start_stack(self, s: dict, total: int, *, challengeable: bool = False) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p):
            self._insert_before_end(_step_draw(p, total, forced=False))
            return
        self.pending = {"kind": "stack", "pile": s["pile"], "total": total, "victim": v, "by": p,
                        "challengeable": challengeable, "bluff": s["bluff"] and challengeable, "before": 0}
        end = self._end()
        end["to"], end["phase"] = v, "stack"

    def _move_stack(self, s: dict, v: int, *, add: int = 0, challengeable: bool = False) -> None:
        p = s["who"]
        pend = self.pending
        before = pend["total"]
        total = before + add
        if self._mirror(v, p):
            self.pending = None
            self._insert_before_end(_step_draw(p, total, forced=False))
            return
        pend.update(total=total, victim=v, by=p, challengeable=challengeable,
                    bluff=s["bluff"] and challengeable, before=before, pile=s["pile"])
        end = self._end()
        end["to"], end["phase"] = v, "stack"

    def _fx_skip(self, s: dict) -> None:
        p = s["who"]
        v = self._next(p)
        if s["stack"]:
            if s["via"] is None:
                self.skipped[s["pile"]] = v
            self._move_stack(s, v)
            return
        if self._mirror(v, p):
            return
        if s["via"] is None:
            self.skipped[s["pile"]] = v
        self._end()["to"] = self._next(v)

    def _fx_reverse(self, s: dict) -> None:
        p = s["who"]
        self.direction = -self.direction
        if s["via"] is None:
            self.reversed[s["pile"]] = True
        if s["stack"]:
            self._move_stack(s, self._next(p))
        elif self._active_count() == 2:
            self._end()["to"] = p

    def _fx_draw2(self, s: dict) -> None:
        if s["stack"]:
            self._move_stack(s, self._next(s["who"]), add=2)
        else:
            self._start_stack(s, 2)

    def _fx_draw4(self, s: dict) -> None:
        if s["stack"]:
            self._move_stack(s, self._next(s["who"]), add=4, challengeable=True)
        else:
            self._start_stack(s, 4, challengeable=True)

    def _fx_stop(self, s: dict) -> None:
        if s["stack"]:
            self.pending = None

    def _fx_tag(self, s: dict) -> None:
        self.queue.insert(0, {"op": "target", "who": s["who"], "stack": s["stack"], "pile": s["pile"],
                              "bluff": False})

    def _decide_target(self, p: int, kind: str, card: int | None, arg: str | None, q: int, s: dict) -> None:
        self.queue.pop(0)
        if s["stack"]:
            self._move_stack(s, q)
        elif self._mirror(q, p):
            self._end()["to"] = p
        else:
            self._end()["to"] = q

    def _fx_dagger(self, s: dict) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p):
            self._insert_before_end(_step_draw(p, 1, forced=False, reason="dagger"))
            return
        self._end()["to"] = v
        if s["via"] is not None:
            self._insert_before_end(_step_draw(v, 1, forced=True, reason="dagger"))
        else:
            self.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "DG", "bluff": s["bluff"],
                                  "pile": s["pile"]})

    def _fx_token(self, s: dict) -> None:
        self.queue.insert(0, {"op": "token", "who": s["who"]})

    def _fx_trade(self, s: dict) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p):
            return
        self.hands[p], self.hands[v] = self.hands[v], self.hands[p]
        self._hands_moved()

    def _fx_share(self, s: dict) -> None:
        p = s["who"]
        v = self._next(p)
        if self._mirror(v, p):
            v = p
        hands = self.hands
        others = [q for q in range(self.n) if not self.out[q] and q != v]
        most = max((len(hands[q]) for q in others), default=0)
        mine = len(hands[v])
        if mine >= most:
            return
        order = [self._next(v, k) for k in range(1, self._active_count())]
        donor = next(q for q in order if len(hands[q]) == most)
        k = (most - mine + 1) // 2
        taken = self._sample(hands[donor], k)
        for c in taken:
            hands[donor].remove(c)
        hands[v] += taken
        self._hands_moved()

    def _fx_proc(self, s: dict) -> None:
        held = {k for t in self.tokens for k in t}
        if s["stack"]:
            ok = any(k in held for k in STACKABLE)
        else:
            ok = any(k != DOUBLE and not (k == MIRROR and self.armed[s["who"]]) for k in held)
        if ok:
            self.queue.insert(0, {"op": "proc", "who": s["who"], "pile": s["pile"], "stack": s["stack"],
                                  "via": s["via"], "bluff": False})

    def _fx_cut(self, s: dict) -> None:
        pass  # a new pile was all it did (an event in the engine)

    def _fx_steal(self, s: dict) -> None:
        p = s["who"]
        if len(self.tokens[p]) >= TOKEN_LIMIT:
            return
        if any(self.tokens[q] for q in range(self.n) if not self.out[q] and q != p):
            self.queue.insert(0, {"op": "steal", "who": p})
        elif self.bag:
            self.tokens[p].append(self._draw_token())

    def _fx_revive(self, s: dict) -> None:
        step = {"op": "search", "who": s["who"], "where": s["pile"], "ace": False}
        if self._searchable(step):
            self.queue.insert(0, step)

    def _fx_stitch(self, s: dict) -> None:
        if len(self.piles) == 2:
            self._stitch(s["pile"], 1 - s["pile"])
        elif len(self.piles) > 2:
            self.queue.insert(0, {"op": "stitch", "who": s["who"], "pile": s["pile"]})

    def _fx_mulligan(self, s: dict) -> None:
        self.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "mulligan", "pile": s["pile"],
                              "color": None, "count": 0})

    def _fx_flush(self, s: dict) -> None:
        self.queue.insert(0, {"op": "discard", "who": s["who"], "mode": "flush", "pile": s["pile"],
                              "color": self.T.cname[self.colors[s["pile"]]], "count": 0})

    def _fx_drawcolor(self, s: dict) -> None:
        p = s["who"]
        v = self._next(p)
        color = self.T.cname[self.colors[s["pile"]]]
        if self._mirror(v, p):
            self._insert_before_end(_step_draw(p, until=color, forced=False, reason="draw_color"))
            return
        self._end()["to"] = self._next(v)
        self.queue.insert(0, {"op": "challenge", "who": v, "by": p, "card": "WDC", "bluff": s["bluff"],
                              "pile": s["pile"], "color": color})

    def _fx_choice(self, s: dict) -> None:
        step = {"op": "choice", "who": s["who"], "pile": s["pile"], "stack": s["stack"], "bluff": s["bluff"],
                "t0": s["t0"], "new": s.get("new", False)}
        if s.get("new"):
            self._choice_chosen(step, "CD")
        else:
            self.queue.insert(0, step)

    def _decide_choice(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                       s: dict) -> None:
        self.queue.pop(0)
        self._choice_chosen(s, None if kind == "pass" else arg)

    def _choice_chosen(self, s: dict, rank: str | None) -> None:
        p = s["who"]
        steps: list[dict[str, Any]] = [{"op": "challenge", "who": self._next(p), "by": p, "card": "WC",
                                        "bluff": s["bluff"], "pile": s["pile"], "t0": s["t0"],
                                        "stack": s["stack"], "effect": rank}]
        if rank is not None:
            steps.append({"op": "effect", "who": p, "pile": s["pile"], "rank": rank, "stack": s["stack"],
                          "bluff": False, "t0": s["t0"], "via": "WC", "new": s.get("new", False)})
        self.queue[0:0] = steps

    # challenges
    def _decide_challenge(self, v: int, kind: str, card: int | None, arg: str | None, target: int | None,
                          s: dict) -> None:
        self.queue.pop(0)
        what, p = s["card"], s["by"]
        if kind != "challenge":
            if what == "DG":
                self.queue.insert(0, _step_draw(v, 1, forced=True, reason="dagger"))
            elif what == "WDC":
                self.queue.insert(0, _step_draw(v, until=s["color"], forced=True, reason="draw_color"))
            return
        guilty = s["bluff"]
        end = self._end()
        if what == "DG":
            self.queue.insert(0, _step_draw(p, 8, reason="guilty") if guilty
                              else _step_draw(v, 9, forced=True, reason="innocent"))
        elif what == "WDC":
            if guilty:
                end["to"] = v
                self.queue.insert(0, _step_draw(p, until=s["color"], reason="guilty"))
            else:
                # one forced draw: until the colour, then 2 (Hex once, Double all of it, one Magnet)
                self.queue.insert(0, _step_draw(v, 2, until=s["color"], forced=True, reason="innocent"))
        else:  # Choice
            if guilty:
                if self.queue and self.queue[0]["op"] == "effect":
                    self.queue.pop(0)
                if s["stack"]:
                    self.pending = None
                end["to"], end["phase"] = v, "play"
                self.queue.insert(0, _step_draw(p, 2 + (s["t0"] if s["stack"] else 0), reason="guilty"))
            else:
                self.queue.insert(0, _step_draw(v, 3, forced=True, reason="innocent"))

    def _take_stack(self, v: int) -> None:
        total = self.pending["total"]
        self.pending = None
        self.queue = [_step_draw(v, total, forced=True), {"op": "end", "who": v, "to": self._next(v),
                                                          "phase": "play"}]
        self._run()

    def _challenge_stack(self, v: int) -> None:
        pend = self.pending
        self.pending = None
        p, total, guilty = pend["by"], pend["total"], pend["bluff"]
        if guilty:
            self.queue = [_step_draw(p, total, reason="guilty"), {"op": "end", "who": v, "to": v, "phase": "play"}]
        else:
            self.queue = [_step_draw(v, total + 2, forced=True, reason="innocent"),
                          {"op": "end", "who": v, "to": self._next(v), "phase": "play"}]
        self._run()

    # tokens
    def _step_token(self, s: dict) -> bool:
        if not self._acts_token(s["who"], s):
            self.queue.pop(0)
            return False
        return self._wait(s)

    def _decide_token(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                      s: dict) -> None:
        self.queue.pop(0)
        if kind == "remove":
            self._lose_token(target, TOKEN_INDEX[arg])
            return
        k = self._draw_token()
        self.queue.insert(0, {"op": "give", "who": p, "token": TOKEN_KINDS[k]})

    def _step_give(self, s: dict) -> bool:
        rec = self._recipients(s["who"])
        if len(rec) == 1:
            self.queue.pop(0)
            self.tokens[rec[0]].append(TOKEN_INDEX[s["token"]])
            return False
        return self._wait(s)

    def _decide_give(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                     s: dict) -> None:
        self.queue.pop(0)
        self.tokens[target].append(TOKEN_INDEX[s["token"]])

    def _decide_steal(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                      s: dict) -> None:
        self.queue.pop(0)
        k = TOKEN_INDEX[arg]
        self.tokens[target].remove(k)
        self.tokens[p].append(k)

    def _step_drop(self, s: dict) -> bool:
        if not any(self.tokens[q] for q in range(self.n) if not self.out[q]):
            self.queue.pop(0)
            return False
        return self._wait(s)

    def _decide_drop(self, p: int, kind: str, card: int | None, arg: str | None, q: int, s: dict) -> None:
        self.queue.pop(0)
        self.bag += self.tokens[q]
        self.tokens[q] = []

    # search (Revive, Ace)
    def _searchable(self, s: dict) -> list[int]:
        if s["where"] == "draw":
            return self._distinct(self.draw[::-1])
        black = self.T.is_black
        return self._distinct([c for c in self.piles[s["where"]][:-1][::-1] if not black[c]])

    def _step_search(self, s: dict) -> bool:
        if not self._searchable(s):
            self.queue.pop(0)
            return False
        return self._wait(s)

    def _decide_search(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                       s: dict) -> None:
        self.queue.pop(0)
        if kind == "pass":
            return
        if s["where"] == "draw":
            self.draw.remove(card)
        else:
            self.piles[s["where"]].remove(card)
        if s["ace"]:
            self._lose_token(p, ACE)
            self.queue[0]["n"] -= 1
        self._give(p, [card])

    # stitch
    def _decide_stitch(self, p: int, kind: str, card: int | None, arg: str | None, j: int, s: dict) -> None:
        self.queue.pop(0)
        self._stitch(s["pile"], j)

    def _stitch(self, i: int, j: int) -> None:
        self.piles[i] += self.piles[j]
        self.colors[i], self.jump_ok[i] = self.colors[j], self.jump_ok[j]
        self.skipped[i], self.reversed[i] = self.skipped[j], self.reversed[j]
        for lst in (self.piles, self.colors, self.jump_ok, self.skipped, self.reversed):
            del lst[j]
        self.focus = i - 1 if j < i else i

    # Mulligan and Flush
    def _decide_discard(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                        s: dict) -> None:
        if kind == "pass":
            self.queue.pop(0)
            if s["mode"] == "mulligan" and s["count"]:
                self.draw = self._shuffled(self.draw)
                self.queue.insert(0, _step_draw(p, s["count"], reason="mulligan"))
            return
        self.hands[p].remove(card)
        s["count"] += 1
        if s["mode"] == "mulligan":
            self.draw.append(card)
        else:
            i = s["pile"]
            self.piles[i].append(card)
            self.jump_ok[i], self.skipped[i], self.reversed[i] = False, None, False
            self._expose(p)

    # Proc
    def _decide_proc(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                     s: dict) -> None:
        self.queue.pop(0)
        if kind == "pass":
            return
        k = TOKEN_INDEX[arg]
        v = self._next(p)
        if s["stack"]:
            if k == SILENCE or k == SNARE:
                self.pending = None
            elif k == DOUBLE:
                self._move_stack({**s, "who": p, "bluff": False}, v, add=self.pending["total"])
            else:  # mirror
                by, total = self.pending["by"], self.pending["total"]
                self.pending = None
                self._insert_before_end(_step_draw(by, total, forced=True))
                end = self._end()
                end["to"] = self._next(by) if v == by else v
            return
        who, on = (v, p) if k in AIMED and self._mirror(v, p) else (p, v)
        if k == HEX:
            n = len(self.tokens[on])
            if n:
                self._insert_before_end(_step_draw(on, n, forced=on != p, reason="hex"))
        elif k == MAGNET:
            self.queue.insert(0, {"op": "give_card", "who": who, "to": on})
        elif k == MIRROR:
            self.armed[p] = True
        elif k == BLOCK:
            self.tokens[target].remove(BLOCK)
            self.queue.insert(0, {"op": "replace", "who": p, "holder": target})
        elif k == LINK:
            if self._underlined(p):
                self.queue.insert(0, {"op": "link", "who": p})
        elif k == ACE:
            self.queue.insert(0, {"op": "search", "who": p, "where": "draw", "ace": False})
        elif k == SUB:
            self.queue.insert(0, {"op": "color", "who": p, "pile": s["pile"], "sub": False})
        elif k == WHITE_TOKEN:
            self._white(on)

    def _white(self, q: int) -> bool:
        draw, col, white = self.draw, self.T.col, self.T.white_code
        for j in range(len(draw) - 1, -1, -1):
            if col[draw[j]] == white:
                self._give(q, [draw.pop(j)])
                return True
        return False

    def _decide_replace(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                        s: dict) -> None:
        self.queue.pop(0)
        if kind == "replace":
            self.tokens[s["holder"]].append(self._draw_token())
        self.bag.append(BLOCK)

    def _underlined(self, p: int) -> list[int]:
        und = self.T.underlined
        return [c for c in self.hands[p] if und[c]]

    def _decide_link(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                     s: dict) -> None:
        self.queue.pop(0)
        if kind == "pass":
            return
        i = target or 0
        self.hands[p].remove(card)
        self.piles[i].append(card)
        self.jump_ok[i], self.skipped[i], self.reversed[i] = True, None, False
        self.colors[i] = self.T.col[card]
        self.focus = i
        self._expose(p)
        if not self.hands[p]:
            self.queue = []
            self._end_round(p)

    def _decide_give_card(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                          s: dict) -> None:
        self.queue.pop(0)
        if kind == "give":
            self._hand_over(p, s["to"], card)

    def _hand_over(self, p: int, q: int, card: int) -> None:
        self.hands[p].remove(card)
        self.hands[q].append(card)
        self.declared[q] = False
        self._expose(p)

    def _decide_magnet(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                       s: dict) -> None:
        self.queue.pop(0)
        if kind == "give":
            self._hand_over(p, target, card)

    def _decide_needle(self, p: int, kind: str, card: int | None, arg: str | None, target: int | None,
                       s: dict) -> None:
        self.queue.pop(0)
        if kind == "stop":
            self.queue[0]["stopped"] = True

    # drawing
    def _turn_draw(self, p: int) -> None:
        if self._can_play_any(p):
            c = self._draw_one()
            if c < 0:
                self._pass_turn(p)
                return
            self._give(p, [c])
            if self._plays(p, [c]):
                self.phase, self.drawn = "drawn", c
            else:
                self._pass_turn(p)
            return
        self.queue = [{"op": "natural", "who": p, "extra": 0, "bomb": None, "stopped": False}]
        self._run()

    def _step_natural(self, s: dict) -> bool:
        p = s["who"]
        T = self.T
        needle = T.ranks.index("N")
        bomb = T.ranks.index("WB")
        while True:
            if s["stopped"]:
                s["extra"] = 0
                if s["bomb"] is None:
                    self.queue.pop(0)
                    self._pass_turn(p)
                    return False
            if s["extra"] > 0:
                c = self._draw_one()
                if c < 0:
                    s["extra"] = 0
                    continue
                s["extra"] -= 1
                self._give(p, [c])
                if T.rk[c] == needle and s["extra"] > 0:
                    self.queue.insert(0, {"op": "needle", "who": p})
                    return False
                continue
            if s["bomb"] is not None:
                self.queue.pop(0)
                self.phase, self.drawn, self.current = "drawn", s["bomb"], p
                return False
            c = self._draw_one()
            if c < 0:
                self.queue.pop(0)
                self._pass_turn(p)
                return False
            self._give(p, [c])
            if T.rk[c] == bomb:
                s["bomb"], s["extra"] = c, 3
                continue
            if self._plays(p, [c]):
                self.queue.pop(0)
                self.phase, self.drawn, self.current = "drawn", c, p
                return False
            if T.rk[c] == needle:
                self.queue.insert(0, {"op": "needle", "who": p})
                return False

    def _step_draw(self, s: dict) -> bool:
        q = s["who"]
        toks = self.tokens[q]
        T = self.T
        if s["stage"] == "start":
            s["stage"] = "ace"
            if s["forced"]:
                if DOUBLE in toks:
                    self._lose_token(q, DOUBLE)
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
            if s["forced"] and s["until"] is None and s["n"] >= 1 and ACE in toks and self.draw:
                self.queue.insert(0, {"op": "search", "who": q, "where": "draw", "ace": True})
                return False
        if s["stage"] == "white":
            s["stage"] = "draw"
            if s["forced"] and s["until"] is None and s["n"] >= 1 and WHITE_TOKEN in toks:
                if self._white(q):
                    s["got"].append(self.hands[q][-1])
                    self._lose_token(q, WHITE_TOKEN)
                    s["n"] -= 1
        if s["stage"] == "draw":
            batch: list[int] = []
            needle = False
            needle_rank = T.ranks.index("N")
            cname, col = T.cname, T.col
            while not s["stopped"]:
                if s["until"] is None and s["n"] <= 0:
                    break
                c = self._draw_one()
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
                self._give(q, batch)
            if needle:
                self.queue.insert(0, {"op": "needle", "who": q})
                return False
            s["stage"] = "magnet"
        if s["stage"] == "magnet":
            self.queue.pop(0)
            holders = [h for h in range(self.n) if not self.out[h] and h != q and MAGNET in self.tokens[h]]
            hand = self.hands[q]
            got = [i for i in s["got"] if i in hand]
            if s["forced"] and holders and got and len(hand) >= 2:
                self.queue.insert(0, {"op": "magnet", "who": q, "cards": got, "holders": holders})
        return False


STACKABLE_ORDER = tuple(TOKEN_INDEX[k] for k in STACKABLE_PROCS)

_W = DiezRollout._step_wait
_STEPS: dict[str, Callable[[DiezRollout, dict], bool]] = {
    "end": DiezRollout._step_end, "resume": DiezRollout._step_resume, "color": DiezRollout._step_color,
    "effect": DiezRollout._step_effect, "target": _W, "choice": _W, "challenge": _W,
    "token": DiezRollout._step_token, "give": DiezRollout._step_give, "steal": _W,
    "drop": DiezRollout._step_drop, "search": DiezRollout._step_search, "stitch": _W, "discard": _W,
    "proc": _W, "replace": _W, "link": _W, "give_card": _W, "magnet": _W, "needle": _W,
    "natural": DiezRollout._step_natural, "draw": DiezRollout._step_draw,
}
_DECIDE: dict[str, Callable[..., None]] = {
    op: getattr(DiezRollout, "_decide_" + op)
    for op in ("color", "target", "choice", "challenge", "token", "give", "steal", "drop", "search", "stitch",
               "discard", "proc", "replace", "link", "give_card", "magnet", "needle")
}
_ACTS: dict[str, Callable[[DiezRollout, int, dict], list[int]]] = {
    op: getattr(DiezRollout, "_acts_" + op)
    for op in ("color", "choice", "target", "token", "give", "steal", "drop", "search", "stitch", "discard",
               "proc", "replace", "link", "give_card", "magnet", "needle", "challenge")
}
_FX: dict[str, Callable[[DiezRollout, dict], None]] = {
    rank: getattr(DiezRollout, "_fx_" + name) for rank, name in {
        "S": "skip", "R": "reverse", "+2": "draw2", "ST": "stop", "TG": "tag", "DG": "dagger", "TK": "token",
        "TR": "trade", "SH": "share", "PR": "proc", "CD": "cut", "SL": "steal", "RV": "revive", "SD": "stitch",
        "W+4": "draw4", "WM": "mulligan", "WF": "flush", "WDC": "drawcolor", "WC": "choice"}.items()
}
"""Each card's effect (the engine's ``_FX_NAMES``)."""
