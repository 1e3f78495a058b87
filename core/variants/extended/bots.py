"""Bots for the extended rules.

``easy`` plays a random legal move, and always answers when an interaction waits
for it (the generic easy bot only sometimes acts out of turn, which would stall a
duel or a chain). ``normal`` plays sensibly: it calls UNO and catches, passes a
draw effect on when it can, counters the effects that hurt with the cheapest card
of higher priority, keeps its counters (寡妇, 后悔药, 反弹, pass) for when they
matter, sheds its highest and most awkward cards, names the colour it holds most
of, and in the chains plays the card that keeps it safe.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ...actions import Action
from ...bots.base import Bot, level
from ...cards import COLORS
from ...observation import CardDict, ExtendedObservation

_COUNTERS = {"WIDOW", "REGRET", "WRB", "WPASS"}


@level("easy", variant="extended")
class ExtendedEasyBot(Bot):
    def choose(self, obs: ExtendedObservation) -> Action | None:  # type: ignore[override]
        legal = self.legal(obs)
        if not legal:
            return None
        if obs.get("actor") != obs["me"]:
            return self.rng.choice(legal) if self.rng.random() < 1 / 3 else None
        plays = [a for a in legal if a.kind in ("play", "camo")]
        if plays and self.rng.random() < 0.6:
            return self.rng.choice(plays)
        return self.rng.choice(legal)


def _value(card: CardDict) -> float:
    """How much a card is worth keeping (higher: keep)."""
    rank = card["rank"]
    if rank in _COUNTERS:
        return 30
    if card["color"] is None:
        return 20
    if rank.isdigit():
        return 10 - int(rank)  # shed high numbers first
    return 5


@level("normal", variant="extended")
class ExtendedNormalBot(Bot):
    def choose(self, obs: ExtendedObservation) -> Action | None:  # type: ignore[override]
        legal = self.legal(obs)
        if not legal:
            return None
        call = self.call_or_catch(legal)
        if call is not None:
            return call
        if obs.get("actor") != obs["me"]:
            return None
        self.hand = {c["id"]: c for c in obs["hand"]}
        phase = obs["phase"]
        handler = getattr(self, f"_{phase}", None)
        choice = handler(obs, legal) if handler is not None else None
        return choice if choice in legal else legal[0]

    # -- helpers ---------------------------------------------------------------------------
    def _card(self, a: Action) -> CardDict:
        return self.hand[a.card]

    def _best_color(self, exclude: int | None = None) -> str:
        counts = Counter(c["color"] for i, c in self.hand.items() if i != exclude and c["color"])
        return max(COLORS, key=lambda col: (counts.get(col, 0), -COLORS.index(col)))

    def _counter(self, legal: list[Action], effect: dict[str, Any]) -> Action | None:
        """The cheapest counter card offered (a Rebound/pass before a Widow before a Regret)."""
        order = {"WRB": 0, "WPASS": 1, "WIDOW": 2, "REGRET": 3}
        opts = [a for a in legal if a.kind == "play" and a.card in self.hand
                and self._card(a)["rank"] in order and a.color is None]
        return min(opts, key=lambda a: order[self._card(a)["rank"]]) if opts else None

    def _weakest_rival(self, obs: ExtendedObservation) -> int | None:
        me = obs["me"]
        rivals = [(p["cards"], i) for i, p in enumerate(obs["players"]) if i != me and not p["out"]]
        return min(rivals)[1] if rivals else None

    # -- phases ----------------------------------------------------------------------------
    def _direction(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        # Let the player with more cards go next (they are less of a threat).
        return max(legal, key=lambda a: obs["players"][a.target]["cards"])

    def _judge(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        e = obs["pending"]
        stacks = [a for a in legal if a.kind == "play" and self._card(a)["rank"] not in _COUNTERS]
        if e["kind"] == "draw":
            if stacks:
                return min(stacks, key=lambda a: (self._card(a)["rank"] == "W+4", a.color != self._best_color()))
            if e["total"] >= 3 or len(self.hand) <= 3:
                c = self._counter(legal, e)
                if c is not None:
                    return c
            return Action("accept")
        if e["kind"] == "transfer":
            if e.get("attached", 0) >= 2 and stacks:
                return stacks[0]
            if e.get("attached", 0) >= 3:
                c = self._counter(legal, e)
                if c is not None:
                    return c
            return Action("accept")
        if e["kind"] == "disarm":
            functions = sum(1 for c in self.hand.values() if not c["rank"].isdigit())
            if len(self.hand) <= 3:
                c = self._counter(legal, e)
                if c is not None:
                    return c
            return Action("accept") if functions >= 2 or len(self.hand) > 8 else Action("refuse")
        if e["kind"] == "curse" and len(self.hand) >= 6:
            c = self._counter(legal, e)
            if c is not None:
                return c
        return Action("accept")

    def _react(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        e = obs["interaction"]["effect"]
        mine = len(self.hand)
        theirs = obs["players"][e["by"]]["cards"]
        hurts = (e["kind"] == "swap" and theirs > mine) or (e["kind"] == "clip" and mine <= 4) \
            or (e["kind"] == "duel" and mine <= 3)
        if hurts:
            c = self._counter(legal, e)
            if c is not None:
                return c
        return Action("accept")

    def _attach(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        opts = [a for a in legal if a.kind == "attach"]
        if opts:
            worst = min(opts, key=lambda a: _value(self._card(a)))
            if _value(self._card(worst)) < 20:
                return worst
        return Action("send")

    def _duel(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        # Colours are drawn in proportion to the cards still unseen: avoid black, prefer ours least held.
        seen = Counter((c["color"] or "black") for c in list(self.hand.values()) + obs["discard"])
        total = {"black": 16}
        return max(legal, key=lambda a: total.get(a.color, 34) - seen.get(a.color, 0))

    def _discard(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: _value(self._card(a)))

    def _keep(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        return min(legal, key=lambda a: int(self._card(a)["rank"]))

    def _grenade(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind in ("play", "camo") and a.color is not None]
        if plays:
            # Name a colour we hold least of: the next player is the one who must answer it.
            counts = Counter(c["color"] for c in self.hand.values() if c["color"])
            return min(plays, key=lambda a: (a.kind == "camo", counts.get(a.color, 0), _value(self._card(a))))
        return self._counter(legal, {}) or legal[0]

    def _c4(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind == "play" and self._card(a)["rank"].isdigit()]
        if plays:
            return max(plays, key=lambda a: (int(self._card(a)["rank"]) > 0, -_value(self._card(a))))
        return self._counter(legal, {}) or Action("explode")

    def _argue(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind == "play" and self._card(a)["rank"].isdigit()]
        if plays:
            return min(plays, key=lambda a: int(self._card(a)["rank"]))
        return self._counter(legal, {}) or Action("refuse")

    def _main(self, obs: ExtendedObservation, legal: list[Action]) -> Action:
        plays = [a for a in legal if a.kind in ("play", "camo")]
        nxt_cards = self._next_cards(obs)
        best: tuple[float, Action] | None = None
        for a in plays:
            card = self._card(a)
            rank = card["rank"]
            score = 20 - _value(card)
            if a.kind == "camo":
                score -= 8 if len(self.hand) > 2 else -30  # the camo finish needs no UNO
            if rank in _COUNTERS and len(self.hand) > 2:
                score -= 40
            if rank in ("+2", "W+4", "S", "DISARM"):
                score += 6 + (10 if nxt_cards <= 3 else 0)
            if rank in ("T4", "T5"):
                score += 12
            if rank == "INF":
                score += 15
            if rank == "HAND":
                score += 4 * (len(self.hand) - 1 - nxt_cards) if len(obs["players"]) > 2 else 2
            if rank == "CLIP":
                score += -20 if len(self.hand) <= 3 else 2
            if rank == "BOMB":
                score -= 25
            if rank == "CHOSEN":
                score += 3 * len(self.hand)
            if rank in ("WC4", "WGREN", "WARG"):
                score += 1 if sum(1 for c in self.hand.values() if c["rank"].isdigit()) >= 3 else -15
            if rank in ("DUELC", "DUELN", "CURSE") and a.target is not None:
                rival = self._weakest_rival(obs)
                score += 5 if a.target == rival else -5
            if rank in ("W", "W+4", "WGREN") and a.color != self._best_color(a.card):
                score -= 50
            if a.kind == "camo" and a.color != self._best_color(a.card):
                score -= 5
            if best is None or score > best[0]:
                best = (score, a)
        if best is not None and (best[0] > -20 or "draw" not in {a.kind for a in legal}):
            return best[1]
        if Action("draw") in legal:
            return Action("draw")
        if best is not None and obs["turn"]["played"] == 0 and not obs["turn"]["drew"]:
            return best[1]
        return Action("pass")

    @staticmethod
    def _next_cards(obs: ExtendedObservation) -> int:
        players = obs["players"]
        n = len(players)
        me = obs["me"]
        q = (me + obs["direction"]) % n
        while players[q]["out"] and q != me:
            q = (q + obs["direction"]) % n
        return players[q]["cards"]
