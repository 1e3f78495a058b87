"""Whom to aim at: the 7 of the 7-0 rule swaps hands with a chosen player.

Lists the players the legal actions allow (the engine decides who may be
chosen), with their card counts; dismisses with the seat or ``None``.
"""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static


class TargetRow(Static):
    """One player to choose; a click chooses them."""

    def __init__(self, seat: int, label: str) -> None:
        super().__init__(label, classes="target")
        self.seat = seat

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.screen.dismiss(self.seat)


class TargetPicker(ModalScreen[int | None]):
    """Choose a player: ↑/↓ (or ←/→) and enter, or the number shown; escape cancels."""

    BINDINGS = [
        Binding("up,left,k,h", "move(-1)", "previous", show=False),
        Binding("down,right,j,l", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "choose"),
        Binding("escape", "dismiss_none", "cancel"),
        *(Binding(str(n), f"number({n})", show=False) for n in range(1, 10)),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, title: str, seats: Sequence[int], names: Sequence[str], cards: Sequence[int],
                 *, hand: int | None = None) -> None:
        """``seats``: who may be chosen; ``cards``: every seat's card count; ``hand``: yours."""
        super().__init__()
        self.title_text = title
        self.seats = list(seats)
        self.names = list(names)
        self.cards = list(cards)
        self.hand = hand
        # Start on the smallest hand: the usual reason to swap.
        if self.seats:
            best = min(range(len(self.seats)), key=lambda i: (self.cards[self.seats[i]], i))
            self.set_reactive(TargetPicker.index, best)

    def compose(self) -> ComposeResult:
        width = max((len(self.names[s]) for s in self.seats), default=4)
        with Vertical(id="target-picker"):
            yield Static(self.title_text, id="target-title")
            for n, seat in enumerate(self.seats, start=1):
                count = self.cards[seat]
                label = Text(f" {n}  ")
                label.append(self.names[seat].ljust(width), "bold")
                label.append(f"  {count:>2} card{'' if count == 1 else 's'} ")
                label.append("▮" * min(count, 12) + ("+" if count > 12 else ""), "dim")
                yield TargetRow(seat, label)
            mine = "" if self.hand is None else f"You hold {self.hand} card{'' if self.hand == 1 else 's'}.\n"
            yield Static(f"{mine}↑/↓ enter, or 1-{len(self.seats)} · esc cancels", id="target-keys")

    def on_mount(self) -> None:
        self.watch_index(self.index)

    def watch_index(self, index: int) -> None:
        for i, row in enumerate(self.query(TargetRow)):
            row.set_class(i == index, "-chosen")

    def action_move(self, step: int) -> None:
        if self.seats:
            self.index = (self.index + step) % len(self.seats)

    def action_number(self, n: int) -> None:
        if 1 <= n <= len(self.seats):
            self.dismiss(self.seats[n - 1])

    def action_choose(self) -> None:
        if self.seats:
            self.dismiss(self.seats[self.index])

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
