"""Wild Rawz bots: follow suit, use the trump, and aim at the bonus target.

The ``normal`` strategy keeps count of what it still needs: its target
(marker minus the numbers of its leaving cards) less the tricks it has won.
Short of the target it tries to win tricks as cheaply as it can; on the
target it ducks, or leaves a trick with a 0 or a Skip for a free point; past
the target it takes whatever points it can.
"""

from __future__ import annotations

from collections import Counter

from ...actions import Action
from ...bots.base import Bot, level
from ...observation import CardDict, WildRawzObservation

_CLASSES = {"trump": 5, "trump_number": 4}


def _num(card: CardDict) -> int:
    return int(card["rank"]) if card["rank"].isdigit() else 0


def _strength(card: CardDict, trump: CardDict, lead: str | None) -> tuple[int, int]:
    value = int(card["rank"]) if card["rank"].isdigit() else -1
    if card["rank"] == trump["rank"]:
        return (5, 0) if card["color"] == trump["color"] else (4, 0)
    if card["color"] == trump["color"]:
        return (3, value)
    if card["color"] == lead:
        return (2, value)
    return (0, value)


@level("normal", variant="wildrawz")
class WildRawzNormalBot(Bot):
    def choose(self, obs: WildRawzObservation) -> Action | None:  # type: ignore[override]
        legal = self.legal(obs)
        if not legal or obs["current"] != obs["me"]:
            return None
        if obs["phase"] == "draft":
            return self._draft(obs, legal)
        return self._trick(obs, legal)

    # -- the trump draft ---------------------------------------------------------------
    def _draft(self, obs: WildRawzObservation, legal: list[Action]) -> Action:
        hand = obs["hand"]
        row = {c["id"]: c for c in obs["row"]}
        colors = Counter(c["color"] for c in hand)
        ranks = Counter(c["rank"] for c in hand)

        def as_trump(card: CardDict, mine: list[CardDict]) -> float:
            # How good would this card be for us as the round's trump?
            return sum(1 for c in mine if c["color"] == card["color"]) + 2 * sum(
                1 for c in mine if c["rank"] == card["rank"])

        if len(row) == 2:
            # The card we leave becomes the trump: leave the one that suits our hand.
            a, b = list(row.values())
            keep_a = as_trump(b, hand + [a])
            keep_b = as_trump(a, hand + [b])
            take = a if keep_a >= keep_b else b
            return Action("take", take["id"])
        best = max(row.values(), key=lambda c: (colors[c["color"]] + ranks[c["rank"]], _num(c)))
        return Action("take", best["id"])

    # -- tricks ---------------------------------------------------------------------------
    def _trick(self, obs: WildRawzObservation, legal: list[Action]) -> Action:
        me = obs["me"]
        trump = obs["trump"]
        lead = obs["lead_color"]
        hand = {c["id"]: c for c in obs["hand"]}
        need = obs["targets"][me] - obs["won"][me]
        plays = [a for a in legal if a.kind == "play"]
        leaves = [a for a in legal if a.kind == "leave"]
        trick = obs["trick"]
        best_on_table = max((_strength(c, trump, lead) for _, c in trick), default=None)

        def power(a: Action) -> tuple[int, int]:
            return _strength(hand[a.card], trump, lead if trick else hand[a.card]["color"])

        def wins(a: Action) -> bool:
            return best_on_table is None or power(a) >= best_on_table

        winners = sorted((a for a in plays if wins(a)), key=power)
        losers = sorted((a for a in plays if not wins(a)), key=power)

        if need > 0:
            if not trick:  # leading: lead our strongest card
                return max(plays, key=power)
            if winners:
                return winners[0]  # win as cheaply as we can
            # Cannot win: leaving is a point, and its number brings the target down to us.
            fits = [a for a in leaves if _num(hand[a.card]) <= need - 1] or \
                   [a for a in leaves if _num(hand[a.card]) <= need]
            if fits:
                return max(fits, key=lambda a: _num(hand[a.card]))
            return losers[0] if losers else plays[0]
        if need == 0:
            zero = [a for a in leaves if _num(hand[a.card]) == 0]
            if zero:
                return zero[0]  # a free point that keeps the bonus
            if not trick:
                return min(plays, key=power)
            if losers:
                return losers[-1]  # shed the strongest card that still loses
            return winners[0] if winners else plays[0]
        # Past the target the bonus is gone: take every point on offer.
        if trick and winners:
            return winners[0]
        if leaves:
            return min(leaves, key=lambda a: power(Action("play", a.card)))
        return max(plays, key=power) if not trick else (losers[0] if losers else plays[0])
