"""The piles of the UNO family: drawing (and reshuffling through the deck source), giving
cards, discarding, ending a round and knocking a player out. :class:`core.Game` has them;
variants call them and override a few (``_draw_one`` and ``_can_draw`` for more piles,
``_after_draw`` for a knock-out rule)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import Card
from .events import Event

if TYPE_CHECKING:
    from .source import DeckSource


class Piles:
    """Drawing and discarding, shared by the UNO family (a base of :class:`core.Game`)."""

    hands: list[list[Card]]
    draw_pile: list[Card]
    discard: list[Card]
    set_aside: list[Card]
    declared: list[bool]
    exposed: int | None
    out: list[bool]
    source: DeckSource
    epoch: int
    _settled: dict[int, tuple[tuple[Any, ...], list[Any]]] = {}
    """Orders a caller settled ahead (:meth:`core.Game.settle`), by epoch; never changed in place."""

    def _shuffled(self, cards: list[Card]) -> list[Card]:
        cards.sort(key=lambda c: c.id)  # the source sees a canonical order
        return self._chance(cards)

    def _chance(self, items: list[Any]) -> list[Any]:
        """The one place chance enters: the next epoch's order of ``items`` (in canonical order).

        An order settled for this epoch and these items (:meth:`settle`) is used as given;
        otherwise the deck source is asked.
        """
        epoch = self.epoch
        got = None
        if self._settled:
            got = self._settled.get(epoch)
            self._settled = {k: v for k, v in self._settled.items() if k > epoch}
        if got is not None and got[0] == tuple(items):
            out = list(got[1])
        else:
            out = self.source.shuffle(items, epoch)
        self.epoch = epoch + 1
        return out

    def _hand_card(self, p: int, card_id: int | None) -> Card | None:
        for c in self.hands[p]:
            if c.id == card_id:
                return c
        return None

    def _can_draw(self) -> bool:
        return bool(self.draw_pile) or len(self.discard) > 1 or bool(self.set_aside)

    def _draw_one(self, events: list[Event]) -> Card | None:
        if not self.draw_pile:
            if len(self.discard) <= 1 and not self.set_aside:
                return None
            top = self.discard.pop()
            self.draw_pile = self._shuffled(self.discard + self.set_aside)
            self.discard = [top]
            self.set_aside = []
            events.append(Event("reshuffle", count=len(self.draw_pile)))
        return self.draw_pile.pop()

    def _draw(self, p: int, n: int, reason: str, events: list[Event]) -> list[Card]:
        """``p`` draws ``n`` cards (fewer if the piles run dry)."""
        got: list[Card] = []
        for _ in range(n):
            c = self._draw_one(events)
            if c is None:
                break
            got.append(c)
        self._give(p, got, reason, events)
        return got

    def _give(self, p: int, cards: list[Card], reason: str, events: list[Event]) -> None:
        if cards:
            self.hands[p].extend(cards)
            self.declared[p] = False
            if self.exposed == p:
                self.exposed = None
        events.append(Event("draw", player=p, cards=tuple(cards), count=len(cards), reason=reason,
                            visible_to=(p,)))
        self._after_draw(p, events)

    def _after_draw(self, p: int, events: list[Event]) -> None:
        """Called after every draw (a variant's knock-out rule hooks in here)."""

    def _discard_from_hand(self, p: int, card: Card) -> None:
        """Move ``card`` from ``p``'s hand to the pile and track UNO calls."""
        hand = self.hands[p]
        hand.remove(card)
        self.discard.append(card)
        if len(hand) == 1 and not self.declared[p]:
            self.exposed = p

    def _end_round(self, winner: int, events: list[Event]) -> None:
        self.phase = "over"
        self.winner = winner
        self.exposed = None
        self.pending = None
        points = sum(self.card_points(c) for q, h in enumerate(self.hands) if q != winner for c in h)
        points += self._round_bonus(winner)
        self.last_points = points
        self.scores[winner] += points
        events.append(Event("round_over", player=winner, points=points))
        if self.match_winner is not None:
            events.append(Event("match_over", player=self.match_winner, points=self.scores[self.match_winner]))

    def _round_bonus(self, winner: int) -> int:
        """Points the winner scores beyond the cards in other hands."""
        return 0

    def _knock_out(self, p: int, events: list[Event]) -> None:
        """Take ``p`` out of the round; their hand is set aside until the next reshuffle."""
        self.out[p] = True
        self.set_aside.extend(self.hands[p])
        events.append(Event("knockout", player=p, count=len(self.hands[p])))
        self.hands[p] = []
        self.declared[p] = False
        if self.exposed == p:
            self.exposed = None
        left = self.active
        if len(left) == 1:
            self._end_round(left[0], events)
