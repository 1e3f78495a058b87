"""Classic's draw penalties: a draw card's penalty landing or waiting for an answer, stacking,
the Wild Draw Four's challenge and its ruling (by the engine, or in a sealed game by the
challenger, who was shown the hand).

:class:`Penalties` is a base of :class:`~core.variants.classic.ClassicGame` (and so of No
Mercy's game); the rule switches it reads (``stacking``, ``challenges``) and the tables
(``DRAW_VALUES``, ``CHALLENGEABLE``) are the game's.
"""

from __future__ import annotations

from typing import Any, Callable

from ...actions import GUILTY, INNOCENT, Action
from ...cards import Card
from ...events import Event


class Penalties:
    """Draw penalties, stacking and challenges: a base of the classic game."""

    # (The game's own attributes these read; see core.Game and ClassicGame for what each means.)
    DRAW_VALUES: dict[str, int]
    CHALLENGEABLE: frozenset[str]
    stacking: str
    challenges: bool
    pending: dict[str, Any] | None
    phase: str
    current: int
    color: str | None
    cards: list[Card]
    hands: list[list[Card]]
    out: list[bool]
    _slots: Any
    _draw: Callable[..., Any]
    _next: Callable[..., int]
    _has_card: Callable[..., bool]
    _may_have: Callable[..., bool]

    def draw_value(self, card: Card) -> int:
        return self.DRAW_VALUES.get(card.rank, 0)

    def judged_color(self, p: int, action: Action) -> str | None:
        if action.kind == "play" and self.challenges and self.cards[action.card].rank in self.CHALLENGEABLE:
            return self.color
        return None

    def _is_bluff(self, p: int, card: Card) -> bool:
        """Playing ``card`` now breaks its condition (a Wild Draw Four with the colour in play
        in the hand; a hidden card is a blank, so "I hold none" is a claim)."""
        if card.rank != "W+4":
            return False
        color, i = self.color, card.id
        if self._slots is None:
            return any(c.color == color for c in self.hands[p] if c is not card)
        return self._has_card([c for c in self.hands[p] if c.id != i], lambda c: c.color == color)

    def _stacks(self, card: Card) -> bool:
        """Whether ``card`` may answer the pending draw penalty."""
        value = self.draw_value(card)
        if not value or self.pending is None:
            return False
        if self.stacking == "same":
            return card.rank == self.pending["rank"]
        return value >= self.pending["last"]

    def _rulings(self) -> list[Action]:
        """The challenger saw the challenged hand: it rules the Wild Draw Four guilty (the hand
        held a card of the colour in play) or innocent. Only the two saw it, so the ruling is the
        challenger's claim (and the challenged may dispute it at the round's audit)."""
        pending = self.pending
        assert pending is not None
        shown = [self.cards[i] for i in pending["hand"]]
        color = pending["color_before"]

        def of_color(c: Card) -> bool:
            return c.color == color

        acts = [GUILTY] if self._may_have(shown, of_color) else []
        if not self._has_card(shown, of_color):
            acts.append(INNOCENT)
        return acts

    def _draw_card(self, p: int, card: Card, events: list[Event], *, on_stack: bool,
                   before: str | None, bluff: bool = False) -> None:
        """A draw card: the penalty waits for an answer (a stack, a challenge) or lands at once."""
        total = self.draw_value(card) + (self.pending["total"] if on_stack and self.pending else 0)
        victim = self._penalty_victim(p, card)
        challengeable = card.rank in self.CHALLENGEABLE and self.challenges
        can_stack = self.stacking != "none"
        if not (can_stack or challengeable):
            self._draw(victim, total, "penalty", events)
            events.append(Event("skip", player=victim))
            self.pending = None
            self._end_turn_to(victim)
            return
        self.pending = {"kind": "draw", "total": total, "last": self.draw_value(card), "rank": card.rank,
                        "by": p, "victim": victim, "challengeable": challengeable}
        if challengeable:
            if self._slots is None:
                self.pending.update(color_before=before, bluff=bluff)
            else:  # the hand it was played from: a challenger is shown it and rules on it
                self.pending.update(color_before=before, hand=[c.id for c in self.hands[p]])
        self.phase = "stack" if can_stack else "challenge"
        self.current = victim

    def _end_turn_to(self, victim: int) -> None:
        """The victim of a penalty loses their turn."""
        if self.phase == "over":
            return
        self.phase = "play"
        self.drawn = None
        self.current = self._next(victim) if not self.out[victim] else self._next_after_out(victim)

    def _next_after_out(self, p: int) -> int:
        # ``p`` was just knocked out: the turn goes to the next player still in.
        return self._next(p)

    def _take_penalty(self, p: int, events: list[Event]) -> None:
        total = self.pending["total"]
        self.pending = None
        self._draw(p, total, "penalty", events)
        events.append(Event("skip", player=p))
        self._end_turn_to(p)

    def _challenge(self, p: int, events: list[Event]) -> None:
        """``p`` challenges: the challenged player shows its hand to ``p`` alone. A full-information
        game rules at once; in a sealed game ``p`` rules on the hand it was shown (phase ``rule``)."""
        pending = self.pending
        assert pending is not None
        if self._slots is None:
            by = pending["by"]
            shown = Event("show_hand", player=by, target=p, cards=tuple(self.hands[by]),
                          count=len(self.hands[by]), visible_to=(p, by))
            self._rule(p, pending["bluff"], events, shown)
            return
        shown = tuple(self.cards[i] for i in pending["hand"])
        events.append(Event("show_hand", player=pending["by"], target=p, cards=shown, count=len(shown),
                            visible_to=(p, pending["by"])))
        self.phase = "rule"

    def _rule(self, p: int, guilty: bool, events: list[Event], shown: Event | None = None) -> None:
        """The challenge is ruled ``guilty`` or not (``shown``: the hand shown with the ruling, in a
        full-information game; a sealed game showed it before)."""
        pending = self.pending
        assert pending is not None
        by, total = pending["by"], pending["total"]
        self.pending = None
        events.append(Event("challenge", player=p, target=by, reason="guilty" if guilty else "innocent"))
        if shown is not None:
            events.append(shown)
        if guilty:
            # The bluffer takes the penalty they passed on; the challenger plays as usual.
            self._draw(by, total, "guilty", events)
            if self.phase != "over":
                self.phase = "play"
                self.current = p if not self.out[p] else self._next(p)
        else:
            self._draw(p, total + 2, "innocent", events)
            events.append(Event("skip", player=p))
            self._end_turn_to(p)

    def _public_pending(self) -> dict[str, Any] | None:
        if self.pending is None:
            return None
        # Whether it was a bluff (a sealed game: the hand it was played from) is the hidden part.
        return {k: v for k, v in self.pending.items() if k not in ("bluff", "hand")}
