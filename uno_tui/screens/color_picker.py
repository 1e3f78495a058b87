"""The colour picker shown after choosing a wild card; dismisses with the colour or None."""

from __future__ import annotations

from typing import Any, Sequence

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static

from core import COLORS


class Swatch(Static):
    """One colour to pick; a click picks it."""

    def __init__(self, color: str, held: int) -> None:
        cards = f"{held} card" + ("" if held == 1 else "s")
        super().__init__(f"[b]{color[0].upper()}[/b]{color[1:]}\n{cards}", classes=f"swatch -{color}")
        self.color = color

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.screen.dismiss(self.color)


class ColorPicker(ModalScreen[str | None]):
    """Name the colour for a wild: r/y/g/b, or arrows and enter; escape cancels."""

    BINDINGS = [
        Binding("r", "pick('red')", "red", show=False),
        Binding("y", "pick('yellow')", "yellow", show=False),
        Binding("g", "pick('green')", "green", show=False),
        Binding("b", "pick('blue')", "blue", show=False),
        Binding("left,h", "move(-1)", "previous", show=False),
        Binding("right,l", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "choose"),
        Binding("escape", "dismiss_none", "cancel"),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, card_name: str, hand: Sequence[dict[str, Any]] = (), *, title: str | None = None) -> None:
        super().__init__()
        self.card_name = card_name
        self.title_text = title or f"Name a colour for your {card_name}"
        # How many of each colour you hold: the usual reason to name one.
        self.held = {c: sum(1 for card in hand if card["color"] == c) for c in COLORS}
        self.set_reactive(ColorPicker.index, COLORS.index(max(COLORS, key=lambda c: self.held[c])))

    def compose(self) -> ComposeResult:
        with Vertical(id="picker"):
            yield Static(self.title_text, id="picker-title")
            with Horizontal(id="swatches"):
                for color in COLORS:
                    yield Swatch(color, self.held[color])
            yield Static("r y g b · or ←/→ and enter · esc cancels", id="picker-keys")

    def on_mount(self) -> None:
        self.watch_index(self.index)

    def watch_index(self, index: int) -> None:
        for i, swatch in enumerate(self.query(Swatch)):
            swatch.set_class(i == index, "-chosen")

    def action_move(self, step: int) -> None:
        self.index = (self.index + step) % len(COLORS)

    def action_pick(self, color: str) -> None:
        self.dismiss(color)

    def action_choose(self) -> None:
        self.dismiss(COLORS[self.index])

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
