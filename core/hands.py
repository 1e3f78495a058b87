"""Hand queries: the one way the rules look at cards that may be hidden.

In a full-information game every query is the plain question. In a sealed game (see
:mod:`core.sealed`) a card this game cannot see answers nothing by itself; each query says
explicitly what it makes of such a card, so the same legality code serves every mode:

* :meth:`HandQueries._seen` lists the cards whose faces are known. A move that names a card and
  shows it (a play, a card laid face up) is legal only for a seen card: the player shows it with
  the move, and it is known by the time the move is checked.
* :meth:`HandQueries._has_card` ("some card satisfies this") counts a hidden card as a *blank* that
  satisfies nothing. Use it where holding such a card *forbids* a move: "I hold no card of the
  colour in play" then becomes the player's claim.
* :meth:`HandQueries._may_have` counts a hidden card as one that might satisfy it. Use it where
  holding such a card *allows* a move ("the drawn card is playable, and I keep it").
* :meth:`HandQueries._could_hide` says whether any of the cards is hidden.

To tell which moves are claims, a sealed game reads the rules twice more with only the public
cards known: giving hidden cards the benefit of the doubt (as above), and giving them none (the
*strict* reading, in which ``_has_card`` answers yes and ``_may_have`` no for any hidden card). A
move legal in the first reading and not in the second rests on hidden cards: a claim.

Reading the face (``color``, ``rank``) of a card this game cannot see anywhere else raises
:class:`~core.SealedFace`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from .cards import Card

if TYPE_CHECKING:
    from .sealed import SlotState


class HandQueries:
    """The hand queries every variant uses for cards that may be hidden (a base of :class:`core.Game`)."""

    _slots: SlotState | None = None
    """What a sealed game knows beyond the rules (:class:`core.sealed.SlotState`); ``None`` in a
    full-information game (a class default: such a game keeps no attribute for it)."""

    def _seen(self, cards: Sequence[Card]) -> Sequence[Card]:
        """The cards among ``cards`` whose faces are known (all of them in a full-information game)."""
        s = self._slots
        return cards if s is None else s.seen(cards)

    def _has_card(self, cards: Iterable[Card], pred: Callable[[Card], bool]) -> bool:
        """Whether one of ``cards`` satisfies ``pred``; a hidden card is a blank that satisfies
        nothing (so "none does" is a claim). For conditions that forbid a move."""
        s = self._slots
        return any(map(pred, cards)) if s is None else s.has(cards, pred)

    def _may_have(self, cards: Iterable[Card], pred: Callable[[Card], bool]) -> bool:
        """Whether one of ``cards`` satisfies ``pred`` or might (a hidden card might; so "one
        does" is a claim). For conditions that allow a move."""
        s = self._slots
        return any(map(pred, cards)) if s is None else s.may_have(cards, pred)

    def _could_hide(self, cards: Iterable[Card]) -> bool:
        """Whether some of ``cards`` are hidden here, so that they could be anything."""
        s = self._slots
        return s is not None and s.could_hide(cards)

    def _strict_hidden(self, cards: Iterable[Card]) -> bool:
        """In the strict reading only (when the engine tests whether a move is a claim): whether
        any of ``cards`` is hidden. A move allowed only when the player holds nothing of some kind
        ("none of that colour: I blow up") checks this, so that it becomes the player's claim."""
        s = self._slots
        return s is not None and s.reading == 2 and any(s.hidden(c) for c in cards)

    def _distinct(self, cards: Iterable[Card]) -> list[Card]:
        """One card per face, the first of each (a choice among identical cards is one choice);
        every hidden card counts as a face of its own."""
        s = self._slots
        seen: set = set()
        out = []
        for c in cards:
            if s is not None and s.hidden(c):
                out.append(c)
                continue
            face = (c.color, c.rank)
            if face not in seen:
                seen.add(face)
                out.append(c)
        return out
