"""``normal``: plays to win.

It sheds high cards and action cards first, keeps wilds for when they matter
(no other play, or an opponent close to going out), names the colour it holds
most of, calls UNO, catches others, and challenges a Wild Draw Four when its
own hand and the discards make a bluff likely.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from ..actions import Action
from ..cards import COLORS
from ..events import Event
from .base import Bot, level
from ..observation import CardDict, Observation

_ACTION_RANKS = {"S", "R", "+2", "+4", "SA", "DA"}
_DRAW_VALUE = {"+2": 2, "+4": 4, "W+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}


def _points(card: CardDict) -> int:
    if card["color"] is None:
        return 50
    return int(card["rank"]) if card["rank"].isdigit() else 20


@level("normal", variant="nomercy")
@level("normal", variant="classic")
class NormalBot(Bot):
    bluff_rate = 0.0
    """How often it plays an illegal Wild Draw Four when it has another play."""
    color_weight = 3.0
    """Worth of each card held of the colour a play leaves in play."""
    w4_bonus = 0.0
    """Worth of an honest Wild Draw Four when the next player is not close to out."""
    challenge_above = 0.6
    """The chance of a bluff above which it challenges a Wild Draw Four."""
    action_bonus = 0.0
    """Worth of a Skip, Reverse or draw card beyond its points when the next player is not close to out."""
    points_weight = 1.0
    """Worth of each point a card scores (shedding the cards that cost most if someone else goes out)."""
    wild_cost = 30.0
    """How much less than a coloured card a wild is worth playing while nobody is close to out."""
    save_wild_above = 4
    """Hand size above which it draws rather than play a wild it would rather keep."""
    lack_bonus = 10.0
    """Worth of leaving in play a colour the player who must follow it was seen to lack (it drew
    on that colour, and has taken few cards since)."""

    def __init__(self, seed: int | str | bytes | None = None) -> None:
        super().__init__(seed)
        self._color: str | None = None
        self._lacks: dict[int, dict[str, int]] = {}
        """player -> colour it drew on (held none of) -> cards it has taken since."""

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        # Only public facts: who drew on which colour, who played what.
        for e in events:
            e = e.view(seat)
            kind = e.kind
            if kind == "deal":
                self._lacks = {}
                self._color = None
            elif kind in ("start", "play"):
                self._color = e.color
                if kind == "play" and e.player is not None:
                    lacks = self._lacks.get(e.player)
                    if lacks and e.cards and e.cards[0].color is not None:
                        lacks.pop(e.cards[0].color, None)
            elif kind == "draw" and e.player is not None and e.player != seat:
                lacks = self._lacks.setdefault(e.player, {})
                for col in lacks:
                    lacks[col] += e.count
                if e.reason == "turn" and self._color is not None:
                    lacks[self._color] = 0
            elif kind == "pass" and e.reason == "keep" and e.player in self._lacks:
                # It kept the card it drew, which may be of a colour it had drawn on.
                lacks = self._lacks[e.player]
                for col in lacks:
                    lacks[col] += 1
            elif kind in ("swap", "rotate"):
                self._lacks = {}

    def _lack(self, player: int, color: str | None) -> float:
        """How likely ``player`` still holds no card of ``color``, from what it drew on."""
        since = self._lacks.get(player, {}).get(color) if color is not None else None
        return 0.0 if since is None else 0.75 ** since

    def choose(self, obs: Observation) -> Action | None:
        legal = self.legal(obs)
        if not legal:
            return None
        kinds = {a.kind for a in legal}
        call = self.call_or_catch(legal)
        if call is not None:
            return call
        if obs["current"] != obs["me"]:
            # Out of turn: a jump-in sheds a card and steals the turn.
            jumps = [a for a in legal if a.kind == "play"]
            return self._best_play(obs, jumps) if jumps else None
        if "choose" in kinds:
            return Action("choose", color=self._roulette_color(obs))
        if "challenge" in kinds and self._bluff_likely(obs):
            return Action("challenge")
        plays = [a for a in legal if a.kind == "play"]
        if plays:
            best = self._best_play(obs, plays)
            if best is not None:
                return best
        for kind in ("pass", "draw"):
            if kind in kinds:
                return Action(kind)
        return legal[0]

    # -- playing --------------------------------------------------------------------
    def _best_play(self, obs: Observation, plays: list[Action]) -> Action | None:
        me = obs["me"]
        hand = {c["id"]: c for c in obs["hand"]}
        players = obs["players"]
        n = len(players)
        nxt = (me + obs["direction"]) % n
        while players[nxt].get("out") and nxt != me:
            nxt = (nxt + obs["direction"]) % n
        rivals = [p["cards"] for i, p in enumerate(players) if i != me and not p.get("out")]
        danger = min(rivals, default=99) <= 2
        next_danger = players[nxt]["cards"] <= 2
        colors = Counter(c["color"] for c in hand.values() if c["color"] is not None)
        in_play = obs["color"]
        holds_in_play = colors.get(in_play, 0) > 0
        stacking = obs["phase"] == "stack"
        wild_color = None
        d = obs["direction"]

        def after(q: int, step: int) -> int:
            for _ in range(step):
                q = (q + d) % n
                while players[q].get("out") and q != me:
                    q = (q + d) % n
            return q

        def follower(rank: str) -> int:
            """Who must follow the colour this play leaves (the player after a skipped one)."""
            if rank in ("S", "+2", "W+4") or (rank == "R" and n == 2):
                return after(me, 2)
            if rank == "R":
                return after(me, n - 1)
            return nxt

        best: tuple[float, Action] | None = None
        for a in plays:
            card = hand[a.card]
            rank = card["rank"]
            if card["color"] is None:
                if wild_color is None:
                    wild_color = self._wild_color(hand, a.card)
                if a.color is not None and a.color != wild_color:
                    continue
                score = 5.0 - (0 if danger or len(hand) <= 2 or stacking else self.wild_cost)
                if rank == "W+4" and obs["variant"] == "classic":
                    score += 10 if next_danger else self.w4_bonus
                    if holds_in_play:  # an illegal Wild Draw Four invites a challenge
                        if self.rng.random() >= self.bluff_rate:
                            continue
                        score -= 20
                elif rank in _DRAW_VALUE:
                    score += _DRAW_VALUE[rank] * (3 if next_danger else 1)
                if self.lack_bonus:
                    score += self.lack_bonus * self._lack(follower(rank), wild_color)
            else:
                score = self.points_weight * _points(card)
                if rank in _ACTION_RANKS:
                    score += 15 if next_danger else self.action_bonus
                if rank == "DA":  # shed every card of the colour at once
                    score += sum(_points(c) + 10 for c in hand.values() if c["color"] == card["color"])
                # Stay in a colour we hold a lot of.
                score += self.color_weight * colors.get(card["color"], 0)
                if self.lack_bonus:
                    score += self.lack_bonus * self._lack(follower(rank), card["color"])
            if stacking:
                # Pass the penalty on with the smallest card that does it; keep the big ones.
                score = 100 - _DRAW_VALUE.get(rank, 0)
            if a.target is not None:
                # A 7: swap with the smallest hand (it must swap with someone).
                theirs = players[a.target]["cards"]
                score += 4 * (len(hand) - 1 - theirs)
            if best is None or score > best[0]:
                best = (score, a)
        if best is None:
            return None
        # A wild we would rather save is not worth playing while we hold many cards.
        if best[0] < -10 and obs["phase"] == "play" and len(hand) > self.save_wild_above and obs["current"] == me:
            return None
        return best[1]

    def _roulette_color(self, obs: Observation) -> str:
        # Name the colour most likely to turn up soon: the one we have seen least of.
        seen = Counter(c["color"] for c in obs["hand"] + obs["discard"] if c["color"] is not None)
        return min(COLORS, key=lambda col: (seen.get(col, 0), COLORS.index(col)))

    @staticmethod
    def _wild_color(hand: dict[int, CardDict], playing: int) -> str:
        """The colour to name: the one held most (then the one worth most)."""
        counts = Counter(c["color"] for i, c in hand.items() if i != playing and c["color"] is not None)
        if not counts:
            return COLORS[0]
        return max(COLORS, key=lambda col: (counts.get(col, 0),
                                            sum(_points(c) for c in hand.values() if c["color"] == col)))

    # -- challenging --------------------------------------------------------------
    def _bluff_likely(self, obs: Observation) -> bool:
        pending = obs.get("pending") or {}
        color = pending.get("color_before")
        by = pending.get("by")
        if color is None or by is None:
            return False
        # Cards of that colour we can see: ours and the discards (25 in the deck).
        seen = sum(1 for c in obs["hand"] if c["color"] == color)
        seen += sum(1 for c in obs["discard"] if c["color"] == color)
        unseen = obs["deck_size"] - len(obs["hand"]) - len(obs["discard"])
        k = obs["players"][by]["cards"] + 1  # their hand when they played it
        # Challenging pays when a bluff is more likely than not (6 cards vs 4 at stake).
        return bluff_chance(25 - seen, unseen, k) > self.challenge_above


def bluff_chance(unseen_color: int, unseen: int, k: int) -> float:
    """The chance, to a challenger, that a player who played a Wild Draw Four from a hand of ``k``
    cards held the colour in play: ``unseen_color`` of the ``unseen`` cards it cannot see are of
    that colour, and the hand's other ``k - 1`` cards are taken to be any of them."""
    unseen_color = max(0, unseen_color)
    if unseen <= 0:
        return 0.0
    p_none = 1.0
    for i in range(k - 1):  # the Wild Draw Four itself was one of the k
        p_none *= max(0.0, (unseen - unseen_color - i) / max(1, unseen - i))
    return 1.0 - p_none
