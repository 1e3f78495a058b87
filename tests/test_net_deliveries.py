"""The dealer learns who received which card from the events (``visible_to``), not by diffing hands:
in self-play of every variant, each card that reaches a hand is delivered to that hand's seat."""

from __future__ import annotations

from typing import Any

import pytest

import core
from core.bots import make_bot
from net.dealer import Dealer


class _At:
    """A deck position every card is dealt from (one epoch, one attempt)."""

    e = 0
    a = 0


def _dealer(game: core.Game) -> Dealer:
    dealer = Dealer.__new__(Dealer)  # only its bookkeeping of deliveries is exercised here
    dealer.pos = {c.id: _At() for c in game.cards}  # type: ignore[misc]
    dealer.known = {}
    return dealer


def _undelivered(variant: str, seed: int, players: int) -> list[Any]:
    game = core.new_game(variant, [f"P{i}" for i in range(players)], seed=seed)
    dealer = _dealer(game)
    held = [set() for _ in range(players)]
    missed: list[Any] = []

    def step(events: list[core.Event]) -> None:
        got: dict[int, set[int]] = {}
        for cid, p in dealer.received(game, events):
            got.setdefault(p, set()).add(cid)
        for p, hand in enumerate(game.hands):
            now = {c.id for c in hand}
            # New in the hand: delivered now, or delivered before at this same place in the deck.
            lost = {cid for cid in now - held[p] if cid not in got.get(p, set())
                    and (cid, 0, 0) not in dealer.known.get(p, set())}
            if lost:
                missed.append((p, sorted(lost), [e.kind for e in events]))
            held[p] = now

    step(game.deal_events)
    bots = [make_bot("normal", seed=f"{seed}:{i}") for i in range(players)]
    for _ in range(2000):
        if game.over:
            break
        for p in game.acting_order():
            action = bots[p].choose(game.observation(p))
            if action is not None:
                step(game.apply(p, action))
                break
        else:
            break
    return missed


@pytest.mark.parametrize("variant", sorted(core.VARIANTS))
def test_every_card_that_reaches_a_hand_is_delivered_to_its_seat(variant: str) -> None:
    cls = core.variant_class(variant)
    for seed in range(4):
        players = cls.min_players + seed % (min(cls.max_players, 6) - cls.min_players + 1)
        assert not _undelivered(variant, seed, players), (variant, seed)
