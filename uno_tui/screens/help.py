"""The help screen: a game's help page (its keys, the game in brief, ...) in a scrolling modal.

What the page holds is the game's (see ``Face.help_page``); this screen only lays it out.
"""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from ..faces.face import HelpPage, HelpSection


def grid(section: HelpSection) -> Table:
    """Two columns with a hanging indent: the term, then text that wraps beside it."""
    table = Table.grid(padding=(0, 2), expand=True)
    table.title = section.heading
    table.title_justify = "left"
    table.title_style = "bold"
    table.add_column(no_wrap=True, style="bold", min_width=11)
    table.add_column(ratio=1)
    for term, text in section.rows:
        table.add_row(term, Text(text))
    return table


class HelpScreen(ModalScreen[None]):
    """A help page; esc, ? or q closes it (↑/↓ and the mouse wheel scroll a long one)."""

    BINDINGS = [
        Binding("escape,question_mark,q,enter", "close", "close"),
    ]

    def __init__(self, page: HelpPage) -> None:
        super().__init__()
        self.page = page

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            for section in self.page.sections:
                yield Static(grid(section), id=section.id)
            yield Static(self.page.close, id="help-close")

    def on_mount(self) -> None:
        self.query_one("#help").border_title = self.page.title

    def action_close(self) -> None:
        self.dismiss(None)
