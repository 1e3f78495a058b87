"""The extended rules for the ``hard`` bot: their state, laid out for determinization.

The observation shows every effect's public side (its kind, where it sits,
who played it, how many cards ride on a transfer) but not its *trail* (each
move's cards and what it replaced, which a Regret Pill undoes), nor the last
turn a Regret Pill could take back. The layout rebuilds each effect with a
trail of the players it shows and cards dealt face down for the riders; the
simulated games are then close to the real one without being exact there.
An interaction in progress (a duel, a chain, a swap to answer) is not laid
out: :func:`~core.bots.hard.determinize.check` finds the difference and the
bot plays its ``normal`` move.
"""

from __future__ import annotations

import random
from typing import Any

from ...bots.belief import Belief
from ...bots.hard.determinize import Layout, Obs, layout
from ...game import Game
from .effects import CARD_EFFECT

_PUBLIC_ONLY = ("effect_id", "by", "sources", "attached", "layers")


def _effect(pub: dict[str, Any], pile: list[dict[str, Any]], used: set[int]) -> dict[str, Any]:
    """An effect rebuilt from its public side; each move of its trail takes a card of the
    discard pile that makes such an effect (the latest such card for the latest move)."""
    e = {k: v for k, v in pub.items() if k not in _PUBLIC_ONLY}
    e["id"] = pub["effect_id"]
    order = [s for s in pub.get("sources", ()) if s != pub.get("by")]
    if pub.get("by") is not None:
        order.append(pub["by"])
    state = {k: e[k] for k in ("on", "total", "max") if k in e}
    makers = [c["id"] for c in reversed(pile) if CARD_EFFECT.get(c["rank"]) == e["kind"] and c["id"] not in used]
    makers += [c["id"] for c in reversed(pile) if c["id"] not in used and c["id"] not in makers]
    cards = makers[:len(order)][::-1]
    used.update(cards)
    e["trail"] = [{"cards": cards[i:i + 1], "by": b, "prev": None if i == 0 else dict(state), "last": None,
                   "color": None} for i, b in enumerate(order)]
    if "layers" in pub:
        e["layers"] = [{"by": layer["by"], "cards": [-1] * layer["count"]} for layer in pub["layers"]]
    return e


@layout("extended")
class ExtendedLayout(Layout):
    def supports(self, obs: Obs) -> bool:
        return obs["interaction"] is None

    def extra(self, obs: Obs) -> dict[str, Any]:
        used: set[int] = set()
        effects = [[_effect(pub, obs["discard"], used) for pub in es] for es in obs["effects"]]
        ids = [e["id"] for es in effects for e in es]
        turn = dict(obs["turn"])
        me = obs["me"]
        hand = obs["hand"]
        drew = turn.pop("drew")
        # Which card was drawn is not shown (the engine appends it, so the seat's is its last).
        turn["drew"] = (hand[-1]["id"] if obs["current"] == me and hand else -1) if drew else None
        turn["plays"] = [{"card": obs["last"]["id"] if obs["last"] else -1, "last": None, "color": None,
                          "plain": False}] * turn["played"]
        return {
            "last": obs["last"]["id"] if obs["last"] else None,
            "effects": effects,
            "ctx": None,
            "turn": turn,
            "finished": list(obs["finished"]),
            "last_turn": None,
            "seq": max(ids, default=0) + 1000,
            "lead": None,
            "stuck": 0,
        }

    def place(self, game: Game, obs: Obs, hands: dict[int, list[int]], rest: list[int],
              rng: random.Random, reserved: list[int] = ()) -> None:
        card = game.cards.__getitem__
        for q, ids in hands.items():
            game.hands[q] = [card(i) for i in ids]
        at = 0
        for es in game.effects:  # type: ignore[attr-defined]
            for e in es:
                for layer in e.get("layers", ()):
                    k = len(layer["cards"])
                    layer["cards"] = rest[at:at + k]
                    at += k
        left = rest[at:]
        aside = obs.get("set_aside_count", 0)
        game.set_aside = [card(i) for i in left[:aside]]
        game.draw_pile = [card(i) for i in left[aside:]]
