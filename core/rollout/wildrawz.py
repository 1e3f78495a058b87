"""Wild Rawz as a rollout: the trump draft and must-follow tricks on small ints
(mirrors ``core/variants/wildrawz/game.py``)."""

from __future__ import annotations

from typing import Any

from ..cards import COLORS
from ..variants.wildrawz.game import BONUS, MARKER
from .base import CARD_SHIFT, KIND_SHIFT, CardTables, Rollout, encode

DRAFT, TRICK, OVER = range(3)
PHASES = ("draft", "trick", "over")
K_TAKE, K_PLAY, K_LEAVE = range(3)
NONE = 4


class Tables(CardTables):
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        n = game.num_players
        cards = game.cards
        self.num = bytes(int(c.rank) if c.rank.isdigit() else 0 for c in cards)
        """The number a leaving card takes off the target (a Skip counts 0)."""
        self.value = tuple(int(c.rank) if c.rank.isdigit() else -1 for c in cards)
        self.take = tuple(tuple(encode(K_TAKE, p, c.id) for c in cards) for p in range(n))
        self.play = tuple(tuple(encode(K_PLAY, p, c.id) for c in cards) for p in range(n))
        self.leave = tuple(tuple(encode(K_LEAVE, p, c.id) for c in cards) for p in range(n))
        self.marker = MARKER[n]
        self._strengths: dict[int, tuple[bytes, ...]] = {}

    def strengths(self, trump: int) -> tuple[bytes, ...]:
        """For this trump, each card's strength in a trick led in each colour, as one comparable
        byte (the engine's ``strength`` pair, class * 16 + number + 1); built once per trump."""
        table = self._strengths.get(trump)
        if table is None:
            col, rk, value = self.col, self.rk, self.value
            def strength(c: int, lead: int) -> int:
                if rk[c] == rk[trump]:
                    return 5 * 16 if col[c] == col[trump] else 4 * 16
                klass = 3 if col[c] == col[trump] else 2 if col[c] == lead else 0
                return klass * 16 + value[c] + 1
            table = self._strengths[trump] = tuple(
                bytes(strength(c, lead) for c in range(len(self.cards))) for lead in range(4))
        return table


class WildRawzRollout(Rollout):
    variant = "wildrawz"
    KINDS = ("take", "play", "leave")
    STRS = COLORS
    LISTS = ("row", "trick", "won", "round_scores")
    TABLES = Tables

    @classmethod
    def from_game(cls, game: Any, seed: Any = 0, source: Any = None) -> "WildRawzRollout":
        r = object.__new__(cls)
        r._init(game, seed, source)
        r.T = cls.tables(game)
        r._load(game)  # the piles, the direction and the UNO state stay as they are all round
        r.row = [c.id for c in game.row]
        r.aside = [c.id for c in game.aside]
        r.trump = -1 if game.trump is None else game.trump.id
        r.trick = [(p, c.id) for p, c in game.trick]
        r.leaver = None if game.leaver is None else (game.leaver[0], game.leaver[1].id)
        r.leader = game.leader
        r.won = list(game.won)
        r.taken = [[c.id for c in cards] for cards in game.taken]
        r.left = [[c.id for c in cards] for cards in game.left]
        r.round_scores = list(game.round_scores)
        lt = game.last_trick
        r.last_trick = None if lt is None else (
            tuple((p, c["id"]) for p, c in lt["plays"]), lt["winner"],
            None if lt["leaver"] is None else (lt["leaver"][0], lt["leaver"][1]["id"]))
        r.color = NONE if game.color is None else COLORS.index(game.color)
        r.phase = PHASES.index(game.phase)
        r.over = r.phase == OVER
        r.start = game.start_player
        r.fixed = {"pending": game.pending, "drawn": game.drawn}  # no effects, no drawing
        r._loaded()
        return r

    def _copy_more(self, d: dict[str, Any]) -> None:
        d["taken"] = [t[:] for t in self.taken]
        d["left"] = [t[:] for t in self.left]

    def to_state(self) -> dict[str, Any]:
        card = self.T.cards
        lt = self.last_trick
        return self._state(
            **self.fixed,
            discard=[c for _, c in self.trick],
            color=None if self.color == NONE else COLORS[self.color],
            phase=PHASES[self.phase],
            extra={
                "row": list(self.row),
                "aside": list(self.aside),
                "trump": None if self.trump < 0 else self.trump,
                "trick": [[p, c] for p, c in self.trick],
                "leaver": None if self.leaver is None else list(self.leaver),
                "leader": self.leader,
                "won": list(self.won),
                "taken": [list(t) for t in self.taken],
                "left": [list(t) for t in self.left],
                "round_scores": list(self.round_scores),
                "last_trick": None if lt is None else {
                    "plays": [[p, card[c].to_dict()] for p, c in lt[0]], "winner": lt[1],
                    "leaver": None if lt[2] is None else [lt[2][0], card[lt[2][1]].to_dict()]},
            },
        )

    def points(self) -> list[int]:
        return list(self.round_scores) if self.over else [0] * self.n

    # -- legal moves ---------------------------------------------------------------------------
    def moves(self) -> list[int]:
        ms = self._ms
        if ms is not None:
            return ms
        T = self.T
        p = self.current
        ph = self.phase
        if ph == TRICK:
            hand = self.hands[p]
            trick = self.trick
            play = T.play[p]
            if trick:
                col = T.col
                lead = col[trick[0][1]]
                ms = [play[c] for c in hand if col[c] == lead] or [play[c] for c in hand]
                if trick[0][0] != p and self.leaver is None:
                    leave = T.leave[p]
                    ms += [leave[c] for c in hand]
            else:
                ms = [play[c] for c in hand]
        elif ph == DRAFT:
            take = T.take[p]
            ms = [take[c] for c in self.row]
        else:
            ms = []
        self._ms = ms
        return ms

    # -- carrying out moves -------------------------------------------------------------------------
    def _apply(self, m: int) -> None:
        p = m & 15
        kind = m >> KIND_SHIFT
        c = (m >> CARD_SHIFT) & 255
        n = self.n
        if kind == K_TAKE:
            row = self.row
            row.remove(c)
            self.hands[p].append(c)
            if len(row) == 1:
                self.trump = row.pop()
                self.color = self.T.col[self.trump]
                self.phase = TRICK
                self.current = self.leader = self.start
            else:
                self.current = (p + 1) % n
            return
        self.hands[p].remove(c)
        if kind == K_LEAVE:
            self.leaver = (p, c)
            self.left[p].append(c)
        else:
            self.trick.append((p, c))
            self.color = self.T.col[self.trick[0][1]]
        self.current = (p + 1) % n
        if len(self.trick) + (self.leaver is not None) == n:
            self._close_trick()

    def _close_trick(self) -> None:
        trick = self.trick
        strength = self.T.strengths(self.trump)[self.T.col[trick[0][1]]]
        winner, best = -1, -1
        for p, c in trick:
            s = strength[c]
            if s >= best:  # equal strength: the later card wins
                winner, best = p, s
        self.won[winner] += 1
        self.taken[winner] += [c for _, c in trick]
        self.last_trick = (tuple(trick), winner, self.leaver)
        self.leader = self.leaver[0] if self.leaver is not None else winner
        self.trick = []
        self.leaver = None
        self.color = NONE
        self.current = self.leader
        if not any(self.hands):
            self._score_round()

    def _score_round(self) -> None:
        self.phase = OVER
        self.over = True
        num = self.T.num
        scores = []
        for p in range(self.n):
            target = self.T.marker - sum(num[c] for c in self.left[p])
            scores.append(self.won[p] + len(self.left[p]) + (BONUS if target == self.won[p] else 0))
        self.round_scores = scores
        best = max(scores)
        top = [p for p, s in enumerate(scores) if s == best]
        self.winner = top[0] if len(top) == 1 else None
        self.last_points = best
