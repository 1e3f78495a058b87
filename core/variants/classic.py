"""Classic UNO: the official 108-card rules (see ``docs/rules/classic.md``)."""

from __future__ import annotations

from typing import Any

from ..actions import CHALLENGE, DRAW, PASS, UNO, Action
from ..cards import COLORS, Card
from ..events import Event
from ..game import Game, Option
from ..registry import register


@register
class ClassicGame(Game):
    """Classic UNO for 2 to 10 players, 7 cards each, first to ``target_score``."""

    variant = "classic"
    min_players = 2
    max_players = 10
    hand_size = 7
    OPTIONS = {
        "draw_until_playable": Option(False, "keep drawing until a playable card turns up"),
        "target_score": Option(500, "points that win the match (1 or more)", lambda v: v >= 1),
        "uno_penalty": Option(2, "cards drawn when caught without UNO (0 to 10)", lambda v: 0 <= v <= 10),
    }

    @classmethod
    def build_deck(cls, num_players: int, options: dict[str, Any]) -> list[tuple[str | None, str]]:
        faces: list[tuple[str | None, str]] = []
        for color in COLORS:
            faces.append((color, "0"))
            for rank in ("1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2"):
                faces += [(color, rank), (color, rank)]
        faces += [(None, "W")] * 4 + [(None, "W+4")] * 4
        return faces

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
    def _plays(self, cards: list[Card]) -> list[Action]:
        out: list[Action] = []
        color, rank, acts = self.color, self.discard[-1].rank, self._play_acts
        for c in cards:
            if c.color is None or c.color == color or c.rank == rank:
                out += acts[c.id]
        return out

    def _turn_actions(self, p: int) -> list[Action]:
        phase = self.phase
        hand = self.hands[p]
        if phase == "play":
            acts = self._plays(hand)
            if acts and len(hand) == 2 and not self.declared[p]:
                acts.append(UNO)
            acts.append(DRAW if self._can_draw() else PASS)
            return acts
        if phase == "drawn":
            acts = self._plays([c for c in hand if c.id == self.drawn])
            if len(hand) == 2 and not self.declared[p]:
                acts.append(UNO)
            acts.append(PASS)
            return acts
        if phase == "challenge":
            return [CHALLENGE, DRAW]
        return []

    def _explain_turn(self, p: int, action: Action) -> str:
        kind = action.kind
        if self.phase == "challenge":
            by = self.names[self.pending["by"]] if self.pending else "the last player"
            return f"answer {by}'s Wild Draw Four first: challenge it (c) or draw the 4 cards (d)"
        if kind == "play":
            card = self._hand_card(p, action.card)
            if card is None:
                return "you do not hold that card"
            if self.phase == "drawn" and card.id != self.drawn:
                return "after drawing you may play only the card you drew, or keep it"
            if card.is_wild and action.color not in COLORS:
                return f"name a colour for the {card.name}: red, yellow, green or blue"
            if not card.is_wild and action.color is not None:
                return f"{card.name} is not a wild card; it cannot name a colour"
            return f"{card} does not match {self.top} (colour in play: {self.color})"
        if kind == "draw" and self.phase == "drawn":
            return "you have already drawn this turn: play the drawn card or keep it (p)"
        if kind == "draw":
            return "there is nothing left to draw; pass instead"
        if kind == "pass":
            return "you can pass only after drawing a playable card, or when nothing is left to draw"
        if kind == "challenge":
            return "you can challenge only a Wild Draw Four played on you, right away"
        return f"{kind!r} is not a move in classic UNO"

    # -- carrying out actions ----------------------------------------------------------
    def _do(self, p: int, action: Action, events: list[Event]) -> None:
        kind = action.kind
        if kind == "play":
            self._play(p, self.cards[action.card], action.color, events)
        elif kind == "draw" and self.phase == "challenge":
            self._accept_draw_four(p, events)
        elif kind == "draw":
            self._turn_draw(p, events)
        elif kind == "pass":
            events.append(Event("pass", player=p, reason="keep" if self.phase == "drawn" else "empty"))
            self._end_turn(p)
        elif kind == "challenge":
            self._challenge(p, events)

    def _end_turn(self, p: int, skip: int = 0) -> None:
        if len(self.hands[p]) != 1:
            self.declared[p] = False  # a call is for the play it announces, not a later one
        self.phase = "play"
        self.drawn = None
        self.current = self._next(p, 1 + skip)

    def _turn_draw(self, p: int, events: list[Event]) -> None:
        got: list[Card] = []
        while True:
            c = self._draw_one(events)
            if c is None:
                break
            got.append(c)
            if self.is_playable(c) or not self.options["draw_until_playable"]:
                break
        self._give(p, got, "turn", events)
        if got and self.is_playable(got[-1]):
            self.phase = "drawn"
            self.drawn = got[-1].id
        else:
            if not got:
                events.append(Event("empty", player=p))
            self._end_turn(p)

    def _play(self, p: int, card: Card, color: str | None, events: list[Event]) -> None:
        hand = self.hands[p]
        # A Wild Draw Four is a bluff when its player held a card of the colour in play.
        before = self.color
        bluff = card.rank == "W+4" and any(c.color == before for c in hand if c is not card)
        self._discard_from_hand(p, card)
        self.color = color if card.color is None else card.color
        self.phase = "play"
        self.drawn = None
        events.append(Event("play", player=p, cards=(card,), color=self.color))
        rank = card.rank
        nxt = self._next(p)
        if not hand:
            # The last card's draw still hits the next player, and those cards count.
            if rank in ("+2", "W+4"):
                self._draw(nxt, 2 if rank == "+2" else 4, "last", events)
            self._end_round(p, events)
            return
        if rank == "S":
            events.append(Event("skip", player=nxt))
            self._end_turn(p, skip=1)
        elif rank == "R":
            events.append(Event("reverse"))
            self.direction = -self.direction
            if self.num_players == 2:  # Reverse works like Skip: play again.
                events.append(Event("skip", player=nxt))
                self._end_turn(p, skip=1)
            else:
                self._end_turn(p)
        elif rank == "+2":
            self._draw(nxt, 2, "penalty", events)
            events.append(Event("skip", player=nxt))
            self._end_turn(p, skip=1)
        elif rank == "W+4":
            self.phase = "challenge"
            self.pending = {"kind": "draw_four", "by": p, "victim": nxt, "color_before": before,
                            "bluff": bluff}
            self.current = nxt
        else:
            self._end_turn(p)

    def _accept_draw_four(self, p: int, events: list[Event]) -> None:
        self.pending = None
        self._draw(p, 4, "penalty", events)
        events.append(Event("skip", player=p))
        self._end_turn(p)

    def _challenge(self, p: int, events: list[Event]) -> None:
        pending = self.pending
        assert pending is not None
        by = pending["by"]
        self.pending = None
        guilty = pending["bluff"]
        events.append(Event("challenge", player=p, target=by, reason="guilty" if guilty else "innocent"))
        # The challenged player shows their hand to the challenger alone.
        events.append(Event("show_hand", player=by, target=p, cards=tuple(self.hands[by]),
                            count=len(self.hands[by]), visible_to=(p, by)))
        if guilty:
            self._draw(by, 4, "guilty", events)
            self.phase = "play"  # the challenger takes their turn as usual
            self.current = p
        else:
            self._draw(p, 6, "innocent", events)
            events.append(Event("skip", player=p))
            self._end_turn(p)

    def _public_pending(self) -> dict[str, Any] | None:
        if self.pending is None:
            return None
        # Whether it was a bluff is the hidden part.
        return {k: v for k, v in self.pending.items() if k != "bluff"}
