"""Diez's own modal: the searched pile (Revive, Ace) shown as cards.

It dismisses with the chosen :class:`core.Action`, or ``None`` when closed with escape (the
table reopens it with enter, or ``a`` lists every action). Diez's lists of choices are the
shared :class:`uno_tui.screens.pickers.ChoicePicker`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widgets import Static

from core import Action

from ...widgets.cards import CHIP_HEIGHT, CHIP_WIDTH, CardPainter
from .cards import chip

SEARCH_CSS = """
SearchPicker { align: center middle; background: $background 60%; }
#search-picker {
    width: auto; min-width: 48; max-width: 96%; height: auto; max-height: 90%;
    border: thick $accent; background: $surface; padding: 1 2;
}
#search-title { text-style: bold; width: 100%; margin-bottom: 1; }
#search-keys { color: $text-muted; width: 100%; margin-top: 1; }
SearchGrid { height: auto; width: auto; min-width: 44; }
"""


class SearchGrid(CardPainter):
    """The searched pile as chips; the cards you may take are filled."""

    selected: reactive[int] = reactive(0)

    def __init__(self, cards: Sequence[dict[str, Any]], takeable: set[int]) -> None:
        super().__init__()
        self.cards = list(cards)
        self.takeable = takeable

    def _cols(self, width: int) -> int:
        return max(1, (width + 1) // (CHIP_WIDTH + 1))

    def get_content_width(self, container: Any, viewport: Any) -> int:
        return min(len(self.cards), 12) * (CHIP_WIDTH + 1)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        return max(1, -(-len(self.cards) // self._cols(width))) * (CHIP_HEIGHT + 1)

    def render(self) -> Any:
        from rich.console import Group

        palette = self.palette()
        cols = self._cols(self.content_size.width or 84)
        lines: list[Text] = []
        for start in range(0, len(self.cards), cols):
            row = self.cards[start:start + cols]
            chips = [chip(c, palette, playable=c["id"] in self.takeable, selected=start + i == self.selected)
                     for i, c in enumerate(row)]
            for y in range(CHIP_HEIGHT):
                lines.append(Text(" ").join(ch[y] for ch in chips))
            lines.append(Text("".join((" ▲▲▲▲  " if start + i == self.selected else " " * (CHIP_WIDTH + 1))
                                      for i in range(len(row)))))
        return Group(*lines)

    def watch_selected(self, value: int) -> None:
        self.refresh()


class SearchPicker(ModalScreen[Action | None]):
    """A searched pile: ←/→ choose a card, enter takes it, p takes nothing, escape closes."""

    ASKS_MOVE = True
    """Closed by the table when the moves it offers change under it (see ``ListPicker.ASKS_MOVE``)."""

    DEFAULT_CSS = SEARCH_CSS
    BINDINGS = [
        Binding("left,h,up,k", "move(-1)", "previous", show=False),
        Binding("right,l,down,j", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "take"),
        Binding("p", "none", "take nothing"),
        Binding("escape", "dismiss_none", "close"),
    ]

    def __init__(self, title: str, cards: Sequence[dict[str, Any]], legal: Sequence[Action]) -> None:
        super().__init__()
        self.title_text = title
        self.legal = list(legal)
        self.by_face = {(c["color"], c["rank"]): a for a in self.legal if a.kind == "take"
                        for c in cards if c["id"] == a.card}
        self.cards = list(cards)
        self.takeable = {c["id"] for c in cards if (c["color"], c["rank"]) in self.by_face}

    def compose(self) -> ComposeResult:
        with Vertical(id="search-picker"):
            yield Static(self.title_text, id="search-title")
            with VerticalScroll(id="search-list"):
                yield SearchGrid(self.cards, self.takeable)
            yield Static("←/→ choose · enter takes it · p takes nothing · esc closes", id="search-keys")

    def on_mount(self) -> None:
        grid = self.query_one(SearchGrid)
        first = next((i for i, c in enumerate(self.cards) if c["id"] in self.takeable), 0)
        grid.selected = first

    def action_move(self, step: int) -> None:
        grid = self.query_one(SearchGrid)
        if self.cards:
            grid.selected = (grid.selected + step) % len(self.cards)

    def action_choose(self) -> None:
        grid = self.query_one(SearchGrid)
        if not self.cards:
            return
        c = self.cards[grid.selected]
        action = self.by_face.get((c["color"], c["rank"]))
        if action is None:
            self.notify("That card cannot be taken (a wild card, or the top).", severity="warning", timeout=3)
            return
        self.dismiss(action)

    def action_none(self) -> None:
        if Action("pass") in self.legal:
            self.dismiss(Action("pass"))

    def action_dismiss_none(self) -> None:
        self.dismiss(None)
