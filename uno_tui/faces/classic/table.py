"""The UNO table: classic UNO and No Mercy (the house rules and No Mercy's cards included).

The players beside the pile at the top, your hand, the discard pile spread out (on a wide
terminal), the log, and the status line. ←/→ choose a card and enter plays it: a wild opens the
colour picker, a 7 of the 7-0 rule the player picker, and a Color Roulette aimed at you opens
the colour picker by itself.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding

from core import Action

from ...screens.pickers import ColorPicker, TargetPicker
from ...screens.table import TableScreen, table_bindings
from ...widgets import HandView
from ...widgets.cards import card_name
from .pile import DiscardTrail, PileView
from .players import PlayersView


class ClassicTableScreen(TableScreen, inherit_bindings=False):
    BINDINGS = table_bindings(
        "play",
        Binding("d", "intent('draw')", "draw"),
        Binding("p", "intent('pass')", "pass"),
        Binding("u", "intent('uno')", "UNO"),
        Binding("c", "intent('challenge')", "challenge"),
        # The status line names x and n when they matter: the footer keeps its room for the log's key.
        Binding("x", "catch", "catch", show=False),
        Binding("n", "next_round", "next", show=False),
    )
    PANEL_TITLES = {"#pile": "Table"}

    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        yield PlayersView(names, labels, id="players").data_bind(TableScreen.obs)
        yield PileView(names, id="pile").data_bind(TableScreen.obs)

    def _compose_below_hand(self, names: list[str]) -> ComposeResult:
        yield DiscardTrail(id="trail").data_bind(TableScreen.obs)


    # -- what is asked of you -----------------------------------------------------------
    def _open_prompt(self, obs: dict[str, Any]) -> bool:
        """Open the colour picker by itself when a Color Roulette makes you name a colour."""
        if obs["phase"] == "choose" and obs["current"] == obs["me"] and self._legal("choose"):
            self._ask_roulette()
            return True
        return False

    def _ask_roulette(self) -> None:
        assert self.obs is not None
        by = (self.obs.get("pending") or {}).get("by")
        who = self.session.names[by] if by is not None else "Someone"

        def named(color: str | None) -> None:
            if color is not None:
                self._send(Action("choose", color=color))

        self.app.push_screen(ColorPicker("Color Roulette", self.obs.get("hand", ()),
                                         title=f"{who}'s Color Roulette: name a colour; "
                                               "cards turn up for you until it shows"), named)

    # -- playing ----------------------------------------------------------------------------
    def action_play(self) -> None:
        assert self.obs is not None
        if self.obs["phase"] == "choose" and self._legal("choose"):
            self._ask_roulette()  # the picker was closed: enter opens it again
            return
        hand = self.query_one("#hand", HandView)
        card = hand.selected_card
        if card is None:
            self._explain("you have no card to play")
            return
        plays = self._legal("play")
        drawn = self.obs["phase"] == "drawn" and len({a.card for a in plays}) == 1
        if (self.obs["current"] != self.obs["me"] or drawn) and plays and all(a.card != card["id"] for a in plays):
            # A jump-in is on offer, or the card just drawn may be played ("enter plays it"): enter
            # plays that card wherever the cursor is.
            card = next(c for c in hand.cards if c["id"] == plays[0].card)
        self._play(card)

    def _play(self, card: dict[str, Any]) -> None:
        assert self.obs is not None
        plays = [a for a in self._legal("play") if a.card == card["id"]]
        if plays and self.obs["current"] != self.obs["me"]:
            self.notify("Jump in!", timeout=2)
        targets = [a.target for a in plays if a.target is not None]
        if not plays:
            self._send(Action("play", card["id"]))  # not legal: the engine says why
        elif targets:
            def chosen(seat: int | None) -> None:
                if seat is not None:
                    self._send(Action("play", card["id"], None, seat))

            self.app.push_screen(TargetPicker(f"Your {card_name(card)}: swap hands with whom?", targets,
                                              self._seat_names(), [p["cards"] for p in self.obs["players"]],
                                              hand=len(self.obs.get("hand", ()))), chosen)
        elif all(a.color is None for a in plays):
            self._send(plays[0])
        else:
            def named(color: str | None) -> None:
                if color is not None:
                    self._send(Action("play", card["id"], color))

            self.app.push_screen(ColorPicker(card_name(card), self.obs.get("hand", ())), named)
