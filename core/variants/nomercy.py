"""UNO Show 'Em No Mercy (see ``docs/rules/nomercy.md``).

Classic's machinery with every house rule switched on the No Mercy way:
progressive stacking of any draw card, 7-0, draw until playable and then
play it, and the Mercy rule (25 cards and you are out). New cards: the
coloured Draw Four, Skip Everyone, Discard All, Wild Reverse Draw Four, Wild
Draw Six and Ten, and Wild Color Roulette.
"""

from __future__ import annotations

from typing import Any, Callable

from ..actions import PASS, Action
from ..cards import COLORS, Card
from ..events import Event, _cards, register_words
from ..game import Option
from ..registry import register
from .classic import ClassicGame

MERCY_LIMIT = 25
"""A player holding this many cards or more is out of the round."""
KNOCKOUT_BONUS = 250
"""Points the round's winner scores for each player knocked out."""

_CHOOSE = tuple(Action("choose", color=c) for c in COLORS)


@register
class NoMercyGame(ClassicGame):
    """No Mercy for 2 to 6 players, 7 cards each, first to ``target_score`` (1000)."""

    variant = "nomercy"
    start_aside = True  # an action card or a wild turned at the deal lies under the starting number
    min_players = 2
    max_players = 6
    OPTIONS = {
        "target_score": Option(1000, "points that win the match (1 or more)", lambda v: v >= 1),
        "uno_penalty": Option(2, "cards drawn when caught without UNO (0 to 10)", lambda v: 0 <= v <= 10),
    }
    DRAW_VALUES = {"+2": 2, "+4": 4, "WR+4": 4, "W+6": 6, "W+10": 10}
    CHALLENGEABLE = frozenset()
    AUTOMATIC = frozenset({"drawn", "discard"})

    @classmethod
    def build_deck(cls, num_players: int, options: dict[str, Any]) -> list[tuple[str | None, str]]:
        faces: list[tuple[str | None, str]] = []
        per_color = [(str(n), 2) for n in range(10)] + [
            ("S", 3), ("SA", 2), ("R", 3), ("+2", 3), ("+4", 2), ("DA", 3)]
        for color in COLORS:
            for rank, copies in per_color:
                faces += [(color, rank)] * copies
        faces += [(None, "WR+4")] * 8 + [(None, "W+6")] * 4 + [(None, "W+10")] * 4 + [(None, "WCR")] * 8
        return faces

    # -- the rule switches, fixed the No Mercy way ----------------------------------
    stacking = "progressive"  # type: ignore[assignment]
    swaps = True  # type: ignore[assignment]
    jump_ins = False  # type: ignore[assignment]
    forced_play = True  # type: ignore[assignment]
    draws_until_playable = True  # type: ignore[assignment]
    challenges = False  # type: ignore[assignment]

    def names_color(self, card: Card) -> bool:
        # Color Roulette: the *next* player names the colour.
        return card.color is None and card.rank != "WCR"

    def card_points(self, card: Card) -> int:
        if card.color is None:
            return 50
        return int(card.rank) if card.rank.isdigit() else 20

    def accepts_start_card(self, card: Card) -> bool:
        return card.is_number

    def _start_effect(self, card: Card, events: list[Event]) -> None:
        self.current = self._next(self.dealer)  # a number always starts

    def _round_bonus(self, winner: int) -> int:
        return KNOCKOUT_BONUS * sum(self.out)

    # -- the Mercy rule ---------------------------------------------------------------
    def _after_draw(self, p: int, events: list[Event]) -> None:
        self._mercy(p, events)

    def _draw_stops(self, p: int, drawn: int) -> bool:
        return len(self.hands[p]) + drawn >= MERCY_LIMIT  # out at the 25th card: no more drawing

    def _draw(self, p: int, n: int, reason: str, events: list[Event]) -> list[Card]:
        # A penalty stops at the 25th card too: the player is out, the rest stays in the pile.
        return super()._draw(p, min(n, max(0, MERCY_LIMIT - len(self.hands[p]))), reason, events)

    def _mercy(self, p: int, events: list[Event]) -> None:
        if not self.out[p] and len(self.hands[p]) >= MERCY_LIMIT and self.phase != "over":
            was_current = self.current == p
            self._knock_out(p, events)
            if was_current and self.phase != "over":
                self.phase, self.drawn, self.pending = "play", None, None
                self.current = self._next(p)

    def _inconsistencies(self) -> list[str]:
        out = super()._inconsistencies()
        for q in self.active:
            if len(self.hands[q]) >= MERCY_LIMIT:
                out.append(f"player {q} holds {len(self.hands[q])} cards and is still in (Mercy)")
        return out

    # -- turn actions -------------------------------------------------------------------
    def _turn_actions(self, p: int) -> list[Action]:
        if self.phase == "choose":
            return list(_CHOOSE)
        if self.phase == "discard":
            return self._discards(p)
        return super()._turn_actions(p)

    def _discards(self, p: int) -> list[Action]:
        """A sealed game's Discard All: the player's cards of its colour go under it, one at a
        time, each shown as it goes; it stops (``pass``) when it holds no more, which only it can
        see: "that was the last" is its claim."""
        color = self.pending["color"]  # type: ignore[index]

        def of_color(c: Card) -> bool:
            return c.color == color

        hand = self.hands[p]
        acts = [Action("discard", c.id) for c in self._distinct(self._seen(hand)) if c.color == color]
        if not self._has_card(hand, of_color):
            acts.append(PASS)
        return acts

    def forced_move(self) -> tuple[int, Action] | None:
        """A sealed Discard All's discards and its stop are made for the player: every card of the
        colour goes, so the order is the only freedom, and it changes nothing."""
        d = self.decision
        if self.phase == "discard" and d is not None:
            acts = [a for a in d.legal if a.kind in ("discard", "pass")]
            if acts:
                return d.player, acts[0]
        return super().forced_move()

    def _explain_turn(self, p: int, action: Action) -> str:
        if self.phase == "choose":
            return "name a colour for the Color Roulette first (r, y, g or b)"
        if self.phase == "discard":
            color = self.pending["color"]  # type: ignore[index]
            return f"Discard All: discard your {color} cards one by one, then stop (p) when you hold none"
        if action.kind == "choose":
            return "you name a colour only when a Color Roulette is played on you"
        return super()._explain_turn(p, action)

    def _claim_words(self, p: int, action: Action) -> str:
        if self.phase == "discard":
            color = self.pending["color"]  # type: ignore[index]
            return f"holds no other {color} card"
        return super()._claim_words(p, action)

    def _do_more(self, p: int, action: Action, events: list[Event]) -> None:
        if action.kind == "choose":
            self._roulette(p, action.color, events)
            return
        if self.phase == "discard":
            self._discard_one(p, action, events)
            return
        super()._do_more(p, action, events)

    def _discard_one(self, p: int, action: Action, events: list[Event]) -> None:
        hand = self.hands[p]
        if action.kind == "discard":
            card = self.cards[action.card]
            hand.remove(card)
            self._open([card])  # laid face up: its holder shows it with the move
            self.discard.insert(len(self.discard) - 1, card)  # under the Discard All
            events.append(Event("discard_all", player=p, cards=(card,), count=1, color=card.color, reason="one"))
            if hand:
                return
        self.pending = None
        if len(hand) == 1 and not self.declared[p]:
            self.exposed = p
        if not hand:
            self._going_out(p, self.top, False, events)
        else:
            self._end_turn(p)

    # -- cards --------------------------------------------------------------------------
    def _discard_all(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        if self._slots is None:  # a full-information game discarded them before the effect
            self._end_turn(p)
            return
        # A sealed game: every other card of its colour goes under it, one by one (phase
        # "discard"): only the player sees its hand, so "that was the last" is its claim.
        self.pending = {"kind": "discard_all", "color": card.color, "by": p, "victim": p}
        self.phase = "discard"
        if self.exposed == p:
            self.exposed = None  # a single card left is called for once the discards are done

    def _before_effect(self, p: int, card: Card, events: list[Event]) -> None:
        if card.rank == "DA" and self._slots is None:
            # Discard All: every card of its colour goes under it.
            hand = self.hands[p]
            gone = [c for c in hand if c.color == card.color]
            if gone:
                self.hands[p] = [c for c in hand if c.color != card.color]
                self.discard[-1:-1] = gone
                events.append(Event("discard_all", player=p, cards=tuple(gone), count=len(gone),
                                    color=card.color))
                if len(self.hands[p]) == 1 and not self.declared[p]:
                    self.exposed = p
        elif card.rank == "WR+4":
            self.direction = -self.direction
            events.append(Event("reverse"))

    def _penalty_victim(self, p: int, card: Card) -> int:
        if card.rank == "WR+4" and len(self.active) == 2 and self.hands[p]:
            # The seed: with two players it skips the other player and *you* draw 4,
            # unless you stack to send it back.
            return p
        return self._next(p)

    def _skip_everyone(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        events.append(Event("skip_all", player=p))
        self._end_turn(p, skip=len(self.active) - 1)  # all the way round: p plays again

    def _roulette_card(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        victim = self._next(p)
        self.pending = {"kind": "roulette", "by": p, "victim": victim}
        self.phase = "choose"
        self.current = victim

    def _roulette(self, p: int, color: str, events: list[Event]) -> None:
        self.color = color
        self.pending = None
        events.append(Event("choose", player=p, color=color))
        turned: list[Card] = []
        while True:
            c = self._draw_one(events)
            if c is None:
                break
            c = self._open([c])[0]  # turned face up, one at a time
            turned.append(c)
            if c.color == color:
                break
        # The turned cards are shown to everyone as they come up.
        self.hands[p].extend(turned)
        self.declared[p] = False
        if self.exposed == p:
            self.exposed = None
        events.append(Event("draw", player=p, cards=tuple(turned), count=len(turned), reason="roulette"))
        self._mercy(p, events)
        events.append(Event("skip", player=p))
        self._end_turn_to(p)

    def _seven(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        super()._seven(p, card, action, events)
        self._mercy_all(events)

    def _zero(self, p: int, card: Card, action: Action, events: list[Event]) -> None:
        super()._zero(p, card, action, events)
        self._mercy_all(events)

    def _mercy_all(self, events: list[Event]) -> None:
        for q in range(self.num_players):
            self._mercy(q, events)

    def _going_out(self, p: int, card: Card, on_stack: bool, events: list[Event]) -> None:
        # Emptying your hand wins at once; a last Color Roulette is not carried out.
        super()._going_out(p, card, on_stack, events)

    EFFECTS: dict[str, Callable[..., None]] = {
        # 7 and 0 too: the dict holds functions, so classic's entries would bypass the overrides above.
        **ClassicGame.EFFECTS, "SA": _skip_everyone, "WCR": _roulette_card, "7": _seven, "0": _zero,
        "DA": _discard_all,
    }


def _discard_all_words(e: Event, who: str, tgt: str) -> str:
    if e.reason == "one":  # a sealed game: one card at a time
        return f"{who} discards {_cards(e)} under the Discard All."
    return f"{who} discards every {e.color} card too: {_cards(e)}."


register_words("nomercy", {
    "skip_all": "{who} skips everyone and plays again.",
    "discard_all": _discard_all_words,
    "knockout": "{who} holds {n} cards and is knocked out (Mercy)!",
    "choose": "{who} names {color} for the Color Roulette.",
}, {"roulette": " turned up by the Color Roulette"}, like="classic", plain=True)
