"""Classic UNO: the official 108-card rules and the common house rules.

See ``docs/rules/classic.md`` and ``docs/rules/house-rules.md``. The
machinery here (7-0 swaps, jump-ins, forced plays, and from ``penalties.py`` draw
penalties that can be stacked and challenges) is shared: No Mercy subclasses this
game and only turns it on and adds cards.
"""

from __future__ import annotations

from typing import Any, Callable

from ...actions import CHALLENGE, DRAW, PASS, UNO, Action
from ...cards import COLORS, Card
from ...events import Event, register_words
from ...game import Game, Option
from ...registry import register
from .penalties import Penalties

STACKING = ("none", "same", "progressive")


@register
class ClassicGame(Penalties, Game):
    """Classic UNO for 2 to 10 players, 7 cards each, first to ``target_score``."""

    variant = "classic"
    sealable = True
    min_players = 2
    max_players = 10
    hand_size = 7
    OPTIONS = {
        "draw_until_playable": Option(False, "keep drawing until a playable card turns up"),
        "target_score": Option(500, "points that win the match (1 or more)", lambda v: v >= 1),
        "uno_penalty": Option(2, "cards drawn when caught without UNO (0 to 10)", lambda v: 0 <= v <= 10),
        "stacking": Option("none", "answer a draw card with one: none, same or progressive",
                           lambda v: v in STACKING),
        "seven_o": Option(False, "a 7 swaps hands with a chosen player; a 0 passes every hand on"),
        "jump_in": Option(False, "play a card identical to the top card out of turn"),
        "force_play": Option(False, "a drawn card that can be played must be played"),
        "no_bluff": Option(False, "Wild Draw Four only without the colour in play; no challenges"),
    }

    DRAW_VALUES: dict[str, int] = {"+2": 2, "W+4": 4}
    """What each draw card makes the next player draw."""
    CHALLENGEABLE: frozenset[str] = frozenset({"W+4"})
    """Draw cards whose legality depends on the hand, so they can be challenged."""
    AUTOMATIC = frozenset({"drawn", "rule"})

    @classmethod
    def build_deck(cls, num_players: int, options: dict[str, Any]) -> list[tuple[str | None, str]]:
        faces: list[tuple[str | None, str]] = []
        for color in COLORS:
            faces.append((color, "0"))
            for rank in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"):
                faces += [(color, rank), (color, rank)]
        faces += [(None, "W")] * 4 + [(None, "W+4")] * 4
        return faces

    # -- rule switches (options here; No Mercy fixes them) ---------------------------
    @property
    def stacking(self) -> str:
        return self.options["stacking"]

    @property
    def swaps(self) -> bool:
        """7 swaps hands, 0 rotates them."""
        return self.options["seven_o"]

    @property
    def jump_ins(self) -> bool:
        return self.options["jump_in"]

    @property
    def forced_play(self) -> bool:
        return self.options["force_play"]

    @property
    def draws_until_playable(self) -> bool:
        return self.options["draw_until_playable"]

    @property
    def challenges(self) -> bool:
        return not self.options["no_bluff"]

    # -- matching and scoring ----------------------------------------------------
    def is_playable(self, card: Card) -> bool:
        return card.color is None or card.color == self.color or card.rank == self.discard[-1].rank

    def card_points(self, card: Card) -> int:
        if card.color is None:
            return 50
        return int(card.rank) if card.rank.isdigit() else 20

    def accepts_start_card(self, card: Card) -> bool:
        # The seed returns every wild to the pile; the official rules say so of Wild Draw Four.
        return card.color is not None

    def _start_effect(self, card: Card, events: list[Event]) -> None:
        first = self._next(self.dealer)
        if card.rank == "S":
            events.append(Event("skip", player=first))
            self.current = self._next(first)
        elif card.rank == "R":
            events.append(Event("reverse"))
            if self.num_players == 2:  # Reverse works like Skip: the dealer starts.
                events.append(Event("skip", player=first))
            self.direction = -1
            self.current = self.dealer
        elif card.rank == "+2":
            self._draw(first, 2, "penalty", events)
            events.append(Event("skip", player=first))
            self.current = self._next(first)
        else:
            self.current = first

    # -- legal actions ---------------------------------------------------------------
    def _plays(self, p: int, cards: list[Card], on_stack: bool = False) -> list[Action]:
        """Legal plays of ``cards`` from ``p``'s hand on the current top (only cards whose faces
        are known: a card is shown as it is played)."""
        if self._slots is not None:
            cards = self._slots.seen(cards)
        out: list[Action] = []
        color, rank, acts = self.color, self.discard[-1].rank, self._play_acts
        # Rule switches read once: this loop is the engine's hottest.
        honest_only = not self.challenges and self.CHALLENGEABLE
        swaps = self.swaps and len(self.hands[p]) > 1
        for c in cards:
            if on_stack:
                if not self._stacks(c):
                    continue
            elif not (c.color is None or c.color == color or c.rank == rank):
                continue
            if honest_only and c.rank in honest_only and self._is_bluff(p, c):
                continue  # no_bluff: only the honest Wild Draw Four is legal
            if swaps and c.rank == "7":
                out += [Action("play", c.id, None, t) for t in self.active if t != p]
            else:
                out += acts[c.id]
        return out

    def _turn_actions(self, p: int) -> list[Action]:
        phase = self.phase
        hand = self.hands[p]
        if phase == "play":
            acts = self._plays(p, hand)
            if len(hand) == 2 and not self.declared[p] and (acts or self._could_hide(hand)):
                acts.append(UNO)
            acts.append(DRAW if self.draw_pile or self._can_draw() else PASS)  # the pile first: no call
            return acts
        if phase == "drawn":
            if self._slots is not None:
                return self._drawn_actions(p, hand)
            acts = self._plays(p, [c for c in hand if c.id == self.drawn])
            if len(hand) == 2 and not self.declared[p]:
                acts.append(UNO)
            if not (self.forced_play and acts):
                acts.append(PASS)
            return acts
        if phase == "stack":
            acts = self._plays(p, hand, on_stack=True)
            if len(hand) == 2 and not self.declared[p] and (acts or self._could_hide(hand)):
                acts.append(UNO)  # call before stacking your second-to-last card, as in "play"
            if self.pending.get("challengeable"):
                acts.append(CHALLENGE)
            acts.append(DRAW)
            return acts
        if phase == "challenge":
            return [CHALLENGE, DRAW]
        if phase == "rule":
            return self._rulings()
        return []

    def _drawn_actions(self, p: int, hand: list[Card]) -> list[Action]:
        """A sealed game, after drawing a card: play it, keep it (``pass``) or, drawing until a
        playable card comes, draw on. Only the drawer sees the card, so keeping or drawing on is
        its claim. (A full-information game draws on and keeps an unplayable card by itself.)"""
        card = self.cards[self.drawn]  # type: ignore[index]
        acts = self._plays(p, [card])
        if len(hand) == 2 and not self.declared[p] and (acts or self._could_hide([card])):
            acts.append(UNO)

        def playable(c: Card) -> bool:
            return self._may_play_drawn(p, c)

        unplayable = not self._has_card([card], playable)
        until = self.draws_until_playable
        more = until and bool(self.draw_pile or self._can_draw())
        if more and unplayable:
            acts.append(DRAW)  # not playable: draw on
        # Keeping it: with force play, only a card that cannot be played (and, drawing until one
        # can, only once the piles are out); drawing until playable, only a playable card.
        if self.forced_play:
            keep = unplayable and not more
        else:
            keep = not more or self._may_have([card], playable)
        if keep:
            acts.append(PASS)
        return acts

    def _has_out_of_turn(self) -> bool:
        return self.jump_ins and self.phase in ("play", "drawn", "stack") and self.discard[-1].color is not None

    def _out_of_turn_actions(self, p: int) -> list[Action]:
        """Jump-ins: a card identical to the top card, played out of turn."""
        if self.out[p]:
            return []
        top = self.discard[-1]
        same = [c for c in self._seen(self.hands[p]) if c.color == top.color and c.rank == top.rank]
        if not same:
            return []
        return self._plays(p, same[:1], on_stack=self.phase == "stack") if self.phase == "stack" \
            else self._plays(p, same[:1])

    def _explain_turn(self, p: int, action: Action) -> str:
        kind = action.kind
        pending = self.pending or {}
        if self.phase == "challenge":
            by = self.names[pending["by"]] if "by" in pending else "the last player"
            return f"answer {by}'s Wild Draw Four first: challenge it (c) or draw the 4 cards (d)"
        if self.phase == "rule":
            return (f"rule on the hand {self.names[pending['by']]} showed you: guilty if it held a "
                    f"{pending['color_before']} card, innocent if not")
        if self.phase == "stack" and kind == "play":
            card = self._hand_card(p, action.card)
            if card is None:
                return "you do not hold that card"
            return (f"{pending.get('total', 0)} cards are coming to you: answer with a draw card "
                    f"{'like the last one' if self.stacking == 'same' else 'as big as the last one'}, "
                    "or draw them (d)")
        if kind == "play":
            card = self._hand_card(p, action.card)
            if card is None:
                return "you do not hold that card"
            if self.phase == "drawn" and card.id != self.drawn:
                return "after drawing you may play only the card you drew, or keep it"
            if not self.is_playable(card):
                return f"{card} does not match {self.top} (colour in play: {self.color})"
            if self.names_color(card) and action.color not in COLORS:
                return f"name a colour for the {card.name}: red, yellow, green or blue"
            if not self.names_color(card) and action.color is not None:
                return f"{card.name} is not a wild card that names a colour; play it without one"
            if card.rank == "7" and self.swaps and len(self.hands[p]) > 1 and action.target is None:
                return "a 7 swaps hands: choose the player to swap with"
            if action.target is not None and not (card.rank == "7" and self.swaps):
                return f"{card.name} does not take a target player"
            if action.target is not None and (action.target == p or action.target not in self.active):
                return "swap with another player who is still in the round"
            if card.rank in self.CHALLENGEABLE and not self.challenges and self._is_bluff(p, card):
                return f"with no bluffing you may play {card.name} only without a {self.color} card"
            return f"{card} does not match {self.top} (colour in play: {self.color})"
        if kind == "draw" and self.phase == "drawn":
            if self.draws_until_playable and self._slots is not None:
                return "the card you drew can be played: play it or keep it (p)"
            return "you have already drawn this turn: play the drawn card or keep it (p)"
        if kind == "draw":
            return "there is nothing left to draw; pass instead"
        if kind == "pass" and self.phase == "drawn":
            if self._slots is not None and self.forced_play and not self._has_card([self.cards[self.drawn]], lambda c: self._may_play_drawn(p, c)):
                return "the card you drew cannot be played: draw on until one can (d)"
            if self.forced_play or self._slots is None:
                return "the card you drew can be played, and it must be (force play)"
            return "the card you drew cannot be played: draw on until one can (d)"
        if kind == "pass":
            return "you can pass only after drawing a playable card, or when nothing is left to draw"
        if kind == "challenge":
            return "you can challenge only a Wild Draw Four played on you, right away"
        if kind in ("guilty", "innocent"):
            return "only a challenger who has seen the challenged hand rules on it"
        return f"{kind!r} is not a move in {self.variant}"

    def _explain(self, p: int, action: Action) -> str:
        if action.kind == "play" and p != self.current and self.jump_ins and not self.out[p]:
            card = self._hand_card(p, action.card)
            if card is not None and self.discard and card.face != self.discard[-1].face:
                return f"only a card identical to {self.top} can jump in out of turn"
        return super()._explain(p, action)

    # -- carrying out actions ----------------------------------------------------------
    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        kind = action.kind
        if kind == "play":
            if p != self.current:
                events.append(Event("jump_in", player=p))
                if len(self.hands[self.current]) != 1:
                    # The interrupted player's UNO call announced a play they no longer make.
                    self.declared[self.current] = False
            self._play(p, self.cards[action.card], action, events)
        elif kind == "draw" and self.phase in ("challenge", "stack"):
            self._take_penalty(p, events)
        elif kind == "draw":
            self._turn_draw(p, events)
        elif kind == "pass":
            events.append(Event("pass", player=p, reason="keep" if self.phase == "drawn" else "empty"))
            self._end_turn(p)
        elif kind == "challenge":
            self._challenge(p, events)
        elif kind in ("guilty", "innocent"):
            self._rule(p, kind == "guilty", events)
        else:
            self._do_more(p, action, events)

    def _do_more(self, p: int, action: Action, events: list[Event]) -> None:
        """Action kinds of variants built on this one."""
        raise AssertionError(f"unhandled legal action {action}")

    def _end_turn(self, p: int, skip: int = 0) -> None:
        if self.phase == "over":
            return
        if len(self.hands[p]) != 1:
            self.declared[p] = False  # a call is for the play it announces, not a later one
        self.phase = "play"
        self.drawn = None
        self.pending = None
        self.current = self._next(p, 1 + skip)

    def _turn_draw(self, p: int, events: list[Event]) -> None:
        if self._slots is not None:
            self._sealed_turn_draw(p, events)
            return
        got: list[Card] = []
        while True:
            c = self._draw_one(events)
            if c is None:
                break
            got.append(c)
            if not self.draws_until_playable or self._may_play_drawn(p, c) or self._draw_stops(p, len(got)):
                break
        self._give(p, got, "turn", events)
        if self.phase == "over" or self.out[p]:
            self._end_turn(p)
            return
        if got and self.is_playable(got[-1]) and self._plays(p, got[-1:]):
            self.phase = "drawn"
            self.drawn = got[-1].id
        else:
            if not got:
                events.append(Event("empty", player=p))
            self._end_turn(p)

    def _draw_stops(self, p: int, drawn: int) -> bool:
        """Whether ``p``, having drawn ``drawn`` cards this time, draws no more (No Mercy's Mercy rule)."""
        return False

    def _sealed_turn_draw(self, p: int, events: list[Event]) -> None:
        """A sealed game: ``p`` draws one card on their turn (or draws on, drawing until a playable
        card comes); then they decide what to do with it, seeing it (phase ``drawn``). Nobody else
        can tell whether it is playable, so the engine cannot decide for them."""
        c = self._draw_one(events)
        if c is None:
            events.append(Event("empty", player=p))
            self._end_turn(p)
            return
        self._give(p, [c], "turn", events)
        if self.phase == "over" or self.out[p]:
            self._end_turn(p)
            return
        self.phase = "drawn"
        self.drawn = c.id

    def _may_play_drawn(self, p: int, card: Card) -> bool:
        """Whether ``card``, just drawn by ``p`` (not yet in the hand), may be played: it matches,
        and with ``no_bluff`` a Wild Draw Four must be honest (draw-until-playable goes past it)."""
        if not self.is_playable(card):
            return False
        return self.challenges or card.rank not in self.CHALLENGEABLE or not self._is_bluff(p, card)

    def _play(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        on_stack = self.phase == "stack"
        before = self.color
        bluff = self._is_bluff(p, card) if self._slots is None else False
        self._discard_from_hand(p, card)
        self.color = action.color if self.names_color(card) else card.color
        self.drawn = None
        events.append(Event("play", player=p, cards=(card,), color=self.color, target=action.target))
        self._before_effect(p, card, events)
        if not self.hands[p]:
            self._going_out(p, card, on_stack, events)
            return
        if not on_stack:
            self.pending = None
        self.phase = "play"
        self._effect(p, card, action, events, on_stack=on_stack, before=before, bluff=bluff)

    def _before_effect(self, p: int, card: Card, events: list[Event]) -> None:
        """What a card does to its player's hand before its effect (No Mercy's Discard All)."""

    def _going_out(self, p: int, card: Card, on_stack: bool, events: list[Event]) -> None:
        # The last card's draw still hits the next player, and those cards count.
        value = self.draw_value(card)
        if value:
            total = value + (self.pending["total"] if on_stack and self.pending else 0)
            self._draw(self._penalty_victim(p, card), total, "last", events)
        if self.phase != "over":  # that draw may have knocked out the last opponent (Mercy)
            self._end_round(p, events)

    def _penalty_victim(self, p: int, card: Card) -> int:
        return self._next(p)

    def _effect(self, p: int, card: Card, action: Action, events: list[Event], *,
                on_stack: bool, before: str | None, bluff: bool = False) -> None:
        """Carry out ``card``'s effect after ``p`` played it (and still holds cards)."""
        rank = card.rank
        if self.draw_value(card):
            self._draw_card(p, card, events, on_stack=on_stack, before=before, bluff=bluff)
            return
        handler = self.EFFECTS.get(rank)
        if handler is not None:
            handler(self, p, card, action, events)
        else:
            self._end_turn(p)

    # -- card effects -----------------------------------------------------------------
    def _skip(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        events.append(Event("skip", player=self._next(p)))
        self._end_turn(p, skip=1)

    def _reverse(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        events.append(Event("reverse"))
        self.direction = -self.direction
        if len(self.active) == 2:  # Reverse works like Skip: play again.
            events.append(Event("skip", player=self._next(p)))
            self._end_turn(p, skip=1)
        else:
            self._end_turn(p)

    def _seven(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        if self.swaps and action.target is not None:
            t = action.target
            self.hands[p], self.hands[t] = self.hands[t], self.hands[p]
            events.append(Event("swap", player=p, target=t))
            self._hands_moved()
        self._end_turn(p)

    def _zero(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        if self.swaps:
            moved = [list(h) for h in self.hands]
            for q in self.active:
                self.hands[self._next(q)] = moved[q]
            events.append(Event("rotate", player=p))
            self._hands_moved()
        self._end_turn(p)

    def _hands_moved(self) -> None:
        # Hands changed owners: nobody is caught for a single card they were handed,
        # and a single card received counts as called.
        self.exposed = None
        self.declared = [len(h) == 1 for h in self.hands]

    EFFECTS: dict[str, Callable[..., None]] = {"S": _skip, "R": _reverse, "7": _seven, "0": _zero}
    """Rank -> effect of the cards that are not draw cards."""

    def _inconsistencies(self) -> list[str]:
        out = []
        if not self.discard:
            out.append("the discard pile is empty")
        if not self.over and self.color not in COLORS and self.phase != "choose":  # a Roulette names it
            out.append(f"the colour in play {self.color!r} is not a suit")
        if self.phase in ("stack", "challenge", "choose", "rule", "discard") and (self.pending is None
                                                                       or self.pending.get("victim") != self.current):
            out.append(f"phase {self.phase} waits for an answer that is not pending on the current player")
        return out

    # -- claims (a sealed table) -----------------------------------------------------------
    def _claim_cards(self, p: int) -> list[Card]:
        if self.phase == "rule" and self.pending is not None:
            return [self.cards[i] for i in self.pending["hand"]]
        return super()._claim_cards(p)

    def _claim_words(self, p: int, action: Action) -> str:
        kind = action.kind
        pending = self.pending or {}
        if kind in ("guilty", "innocent"):
            held = "held" if kind == "guilty" else "held no"
            return f"{self.names[pending['by']]}'s hand {held} {pending['color_before']} card"
        if self.phase == "drawn" and kind == "draw":
            return "the card drawn cannot be played"
        if self.phase == "drawn" and kind == "pass":
            if self.forced_play:
                return "the card drawn cannot be played"
            return "the card drawn can be played"
        if kind == "uno":
            return "holds a card to play"
        if kind == "play" and self.cards[action.card].rank in self.CHALLENGEABLE:
            return f"holds no {self.color} card"
        return super()._claim_words(p, action)


register_words("classic", {
    "jump_in": "{who} jumps in!",
    "swap": "{who} swaps hands with {tgt}.",
    "rotate": "Every hand passes to the next player.",
}, plain=True)
