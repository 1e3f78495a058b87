"""Diez bots.

``normal`` sheds cards and keeps black cards for the end (but never plays a
black card as its last one, which only draws 2); it stacks on draw stacks with
the cheapest card that moves the stack on, challenges when the challenged
player's hand makes holding the colour likely, jumps in whenever it can, gives
harmful tokens to the player closest to going out and helpful ones to the
player furthest from it, removes harmful tokens from itself, tags itself, aims
no card at a player whose Mirror would turn it back, and stops drawing at the
Needle. ``easy`` (random legal moves) needs nothing here.
"""

from __future__ import annotations

from collections import Counter

from ...actions import Action
from ...bots.base import Bot, level
from ...cards import COLORS
from ...observation import CardDict, DiezObservation

GOOD = {"magnet": 3, "block": 2, "link": 1, "mirror": 3, "ace": 3, "sub": 1, "white": 1}
"""Tokens that help their holder (value to the holder)."""
BAD = {"hex": 3, "silence": 2, "reveal": 1, "snare": 2, "double": 3}
"""Tokens that hurt their holder."""
_PRIORITY = {"+2": 6, "W+4": 5, "S": 8, "R": 8, "TG": 9, "ST": 7, "PR": 4, "WC": 3}
"""Stack answers by preference (higher first)."""
_AIMED = frozenset({"+2", "S", "DG", "W+4", "WDC", "TR", "SH"})
"""Cards whose effect falls on the next player, and so turns back at a Mirror."""


def _points(card: CardDict) -> int:
    if card["color"] is None:
        return 50
    value = {"X": 10, "E": 11}.get(card["rank"])
    if value is not None:
        return value
    return int(card["rank"]) if card["rank"].isdigit() else 20


def _holds_color_chance(cards: int) -> float:
    """Chance that a hand of ``cards`` holds at least one card of a given suit (about 1 in 5)."""
    return 1.0 - 0.8 ** max(0, cards)


@level("normal", variant="diez")
class DiezNormalBot(Bot):
    def choose(self, obs: DiezObservation) -> Action | None:  # type: ignore[override]
        legal = self.legal(obs)
        if not legal:
            return None
        me = obs["me"]
        call = self.call_or_catch(legal)
        if call is not None:
            return call
        hand = {c["id"]: c for c in obs["hand"]}
        if obs["current"] != me:
            jumps = [a for a in legal if a.kind == "play" and not (len(hand) == 1 and hand[a.card]["color"] is None)]
            return jumps[0] if jumps else None
        phase = obs["phase"]
        handler = getattr(self, "_" + phase, None)
        if handler is not None:
            choice = handler(obs, legal, hand)
            if choice is not None and choice in legal:
                return choice
        return self._fallback(legal)

    @staticmethod
    def _fallback(legal: list[Action]) -> Action:
        for kind in ("pass", "draw", "stop"):
            for a in legal:
                if a.kind == kind:
                    return a
        return legal[0]

    # -- helpers -------------------------------------------------------------------------------
    @staticmethod
    def _best_color(hand: dict[int, CardDict], skip: int | None = None) -> str:
        counts = Counter(c["color"] for i, c in hand.items() if i != skip and c["color"] in COLORS)
        return max(COLORS, key=lambda col: (counts.get(col, 0), -COLORS.index(col)))

    @staticmethod
    def _leader(obs: DiezObservation, exclude: int | None = None) -> int:
        players = obs["players"]
        return min((q for q in range(len(players)) if q != exclude), key=lambda q: players[q]["cards"])

    @staticmethod
    def _trailer(obs: DiezObservation, exclude: int | None = None) -> int:
        players = obs["players"]
        return max((q for q in range(len(players)) if q != exclude), key=lambda q: players[q]["cards"])

    def _next(self, obs: DiezObservation, p: int | None = None) -> int:
        n = len(obs["players"])
        return ((obs["me"] if p is None else p) + obs["direction"]) % n

    @staticmethod
    def _mirrored(obs: DiezObservation, q: int) -> bool:
        """Whether ``q`` would turn a card aimed at them back (a Mirror token or an armed Mirror)."""
        return "mirror" in obs["tokens"][q] or bool(obs["players"][q].get("mirror_armed"))

    # -- resting phases ---------------------------------------------------------------------------
    def _play(self, obs, legal, hand) -> Action | None:
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            return None
        nxt = obs["players"][self._next(obs)]["cards"]
        mirrored = self._mirrored(obs, self._next(obs))
        color = obs["color"]
        mine = obs["tokens"][obs["me"]]
        best = None
        for a in plays:
            c = hand[a.card]
            rank = c["rank"]
            if c["color"] is None:
                if len(hand) == 1:
                    continue  # a black last card only draws 2
                score = 5.0 if len(hand) <= 3 else -20.0
                if rank in ("W+4", "WDC", "WC") and color is not None and any(
                        h["color"] == color for i, h in hand.items() if i != a.card):
                    score -= 40  # a bluff invites a challenge
                if rank == "WF":
                    score += 8 * sum(1 for h in hand.values() if h["color"] == self._best_color(hand, a.card))
                if rank == "W+4":
                    score += 10 if nxt <= 2 else 0
            else:
                score = _points(c) + 2 * sum(1 for h in hand.values() if h["color"] == c["color"])
                if rank in ("+2", "S", "TG", "DG") and nxt <= 3:
                    score += 15
                if rank == "DG" and color is not None and any(
                        h["color"] == color for i, h in hand.items() if i != a.card):
                    score -= 40
                if rank == "RV":
                    score -= 10
            if mirrored and rank in _AIMED:
                score -= 50  # it would come back on us
            if "snare" in mine and rank not in ("W", "WB") and (c["color"] is None or not rank[0].isdigit()):
                score -= 10  # the effect would be lost
            if a.target is not None and a.target == len(obs["piles"]):
                score -= 1  # a new pile is no better than the old one
            if best is None or score > best[0]:
                best = (score, a)
        if best is None:
            return None
        if best[0] < -10 and Action("draw") in legal:
            return Action("draw")  # keep the black cards for the end
        return best[1]

    def _drawn(self, obs, legal, hand) -> Action | None:
        plays = [a for a in legal if a.kind == "play"
                 and not (len(hand) == 1 and hand[a.card]["color"] is None)]
        return plays[0] if plays else Action("pass")

    def _drawing(self, obs, legal, hand) -> Action | None:
        """A sealed table's turn draw, card by card: play the card drawn when it may be played, as
        in ``drawn`` (left to the fallback, a bot kept every card it drew, and its hand grew
        round after round: thousands of moves a round); else the fallback keeps it or draws on."""
        return self._drawn(obs, legal, hand) if any(a.kind == "play" for a in legal) else None

    def _stack(self, obs, legal, hand) -> Action | None:
        pend = obs.get("pending") or {}
        if "challenge" in {a.kind for a in legal}:
            by = pend.get("by")
            if by is not None and _holds_color_chance(obs["players"][by]["cards"]) > 0.75:
                return Action("challenge")
        plays = [a for a in legal if a.kind == "play"
                 and not (len(hand) == 1 and hand[a.card]["color"] is None)]
        if self._mirrored(obs, self._next(obs)):
            plays = [a for a in plays if hand[a.card]["rank"] not in _AIMED]  # would bounce back
        if plays:
            return max(plays, key=lambda a: _PRIORITY.get(hand[a.card]["rank"], 0))
        return Action("draw")

    # -- decisions -------------------------------------------------------------------------------------
    def _color(self, obs, legal, hand) -> Action | None:
        return Action("color", color=self._best_color(hand))

    def _sub(self, obs, legal, hand) -> Action | None:
        return Action("color", color=self._best_color(hand))

    def _choice(self, obs, legal, hand) -> Action | None:
        for rank in ("TG", "+2", "S", "ST"):
            a = Action("effect", color=rank)
            if a in legal:
                return a
        return None

    def _target(self, obs, legal, hand) -> Action | None:
        step = obs.get("step") or {}
        if step.get("stack"):
            return Action("target", target=self._trailer(obs, exclude=obs["me"]))
        return Action("target", target=obs["me"])  # tag yourself: play again

    def _token(self, obs, legal, hand) -> Action | None:
        me = obs["me"]
        removes = [a for a in legal if a.kind == "remove"]
        for a in removes:
            if a.target == me and a.color in BAD:
                return a
        leader = self._leader(obs, exclude=me)
        for a in removes:
            if a.target == leader and a.color in GOOD:
                return a
        if Action("draw_token") in legal:
            return Action("draw_token")
        return removes[0] if removes else None

    def _give(self, obs, legal, hand) -> Action | None:
        token = (obs.get("step") or {}).get("token")
        targets = [a.target for a in legal if a.kind == "give"]
        players = obs["players"]
        if token in GOOD:
            if obs["me"] in targets:
                return Action("give", target=obs["me"])
            q = max(targets, key=lambda t: players[t]["cards"])
        else:
            q = min(targets, key=lambda t: (t == obs["me"], players[t]["cards"]))
        return Action("give", target=q)

    def _steal(self, obs, legal, hand) -> Action | None:
        return max((a for a in legal if a.kind == "take"), key=lambda a: GOOD.get(a.color, -BAD.get(a.color, 0)))

    def _drop(self, obs, legal, hand) -> Action | None:
        me = obs["me"]
        tokens = obs["tokens"]

        def value(a: Action) -> int:
            v = sum(GOOD.get(k, 0) - BAD.get(k, 0) for k in tokens[a.target])
            return -v if a.target == me else v
        return max((a for a in legal if a.kind == "drop"), key=value)

    def _search(self, obs, legal, hand) -> Action | None:
        step = obs.get("step") or {}
        cards = {c["id"]: c for c in obs.get("search", [])}
        takes = [a for a in legal if a.kind == "take" and a.card in cards]
        if step.get("where") != "draw" and len(hand) > 2:
            return Action("pass")  # a Revive only adds a card to hold
        if not takes:
            return Action("pass")
        want = self._best_color(hand)
        return max(takes, key=lambda a: (cards[a.card]["color"] is None and cards[a.card]["rank"] == "W",
                                         cards[a.card]["color"] == want, _points(cards[a.card])))

    def _stitch(self, obs, legal, hand) -> Action | None:
        return legal[0]

    def _discard(self, obs, legal, hand) -> Action | None:
        step = obs.get("step") or {}
        if step.get("mode") == "flush":
            ds = [a for a in legal if a.kind == "discard"]
            if ds and len(hand) > 1:
                return max(ds, key=lambda a: _points(hand[a.card]))
            return Action("pass")
        # Mulligan: swap out the black cards' opposite, the high cards of colours we lack.
        want = self._best_color(hand)
        ds = [a for a in legal if a.kind == "discard" and hand[a.card]["color"] not in (None, want)
              and _points(hand[a.card]) >= 8]
        return ds[0] if ds else Action("pass")

    def _proc(self, obs, legal, hand) -> Action | None:
        procs = [a for a in legal if a.kind == "proc"]
        order = ["silence", "snare", "double", "mirror", "hex", "ace", "link", "sub", "magnet", "white"]
        nxt = self._next(obs)
        aimed_ok = not self._mirrored(obs, nxt)
        for kind in order:
            for a in procs:
                if a.color == kind:
                    if kind in ("hex", "magnet") and not aimed_ok:
                        continue
                    if kind == "hex" and not obs["tokens"][nxt]:
                        continue
                    if kind == "magnet" and len(hand) < 2:
                        continue
                    if kind == "white":
                        continue
                    return a
        return procs[0] if procs and (obs.get("step") or {}).get("stack") else Action("pass")

    def _replace(self, obs, legal, hand) -> Action | None:
        return Action("pass")

    def _link(self, obs, legal, hand) -> Action | None:
        plays = [a for a in legal if a.kind == "play"]
        return plays[0] if plays else Action("pass")

    def _give_card(self, obs, legal, hand) -> Action | None:
        gives = [a for a in legal if a.kind == "give"]
        return max(gives, key=lambda a: _points(hand[a.card])) if gives else Action("pass")

    def _magnet(self, obs, legal, hand) -> Action | None:
        return self._give_card(obs, legal, hand)

    def _needle(self, obs, legal, hand) -> Action | None:
        return Action("stop")

    def _challenge(self, obs, legal, hand) -> Action | None:
        step = obs.get("step") or {}
        by = step.get("by")
        card = step.get("card")
        if by is None:
            return None
        chance = _holds_color_chance(obs["players"][by]["cards"])
        # Stakes: a Dagger risks 9 to save 1, so only near-certain bluffs are worth it.
        threshold = {"DG": 0.97, "WDC": 0.7, "WC": 0.6}.get(card, 0.7)
        accept = Action("pass") if card == "WC" else Action("draw")
        return Action("challenge") if chance > threshold else accept
