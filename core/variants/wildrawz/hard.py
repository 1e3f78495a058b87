"""Wild Rawz for the ``hard`` bot: its state, laid out for determinization.

Everything in Wild Rawz is face up except the hands: the row, the cards set
aside, the trump, the trick, the leaving cards. The cards of tricks already
won were face up too (the seat's events name them); when the seat missed
them, the cards it cannot place fill the won tricks, where they no longer
matter.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.belief import Belief
from ...bots.hard.determinize import Layout, Obs, layout
from ...game import Game


@layout("wildrawz")
class WildRawzLayout(Layout):
    def visible(self, obs: Obs, belief: Belief) -> set[int]:
        ids = {c["id"] for c in obs["hand"]}
        ids.update(c["id"] for c in obs["row"] + obs["aside"])
        ids.update(c["id"] for _, c in obs["trick"])
        ids.update(c["id"] for cards in obs["left"] for c in cards)
        if obs["trump"] is not None:
            ids.add(obs["trump"]["id"])
        return ids

    def split(self, obs: Obs, belief: Belief, unseen: list[int]) -> tuple[list[int], list[int]]:
        # Cards played to finished tricks are in somebody's won tricks, not in a hand.
        done = [c for c in unseen if c in belief.played]
        hidden = sum(self.hidden_sizes(obs).values())
        if len(unseen) - len(done) < hidden:
            return unseen, []
        return [c for c in unseen if c not in belief.played], done

    def extra(self, obs: Obs) -> dict[str, Any]:
        return {
            "row": [c["id"] for c in obs["row"]],
            "aside": [c["id"] for c in obs["aside"]],
            "trump": None if obs["trump"] is None else obs["trump"]["id"],
            "trick": [[p, c["id"]] for p, c in obs["trick"]],
            "leaver": None if obs["leaver"] is None else [obs["leaver"][0], obs["leaver"][1]["id"]],
            "leader": obs["leader"],
            "won": list(obs["won"]),
            "taken": [[] for _ in obs["players"]],
            "left": [[c["id"] for c in cards] for cards in obs["left"]],
            "round_scores": list(obs["round_scores"]),
            "last_trick": obs["last_trick"],
        }

    def place(self, game: Game, obs: Obs, hands: dict[int, list[int]], rest: list[int],
              rng: random.Random, reserved: list[int] = ()) -> None:
        card = game.cards.__getitem__
        for q, ids in hands.items():
            game.hands[q] = [card(i) for i in ids]
        # Won tricks: whose they are does not change the round's play.
        game.taken[0] = [card(i) for i in [*reserved, *rest]]  # type: ignore[attr-defined]
