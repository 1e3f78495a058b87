"""The whole log on one screen: every line of the game so far, scrollable and searchable."""

from __future__ import annotations

from typing import Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ..widgets.log import WrappingLog


class LogScreen(ModalScreen[None]):
    """Every log line; typing filters them (case does not matter), ↑/↓ PgUp/PgDn Home/End scroll."""

    BINDINGS = [
        Binding("escape", "close", "close"),
        Binding("up", "scroll('up')", "scroll", show=False),
        Binding("down", "scroll('down')", "scroll", show=False),
        Binding("pageup", "scroll('page_up')", "page", show=False),
        Binding("pagedown", "scroll('page_down')", "page", show=False),
        Binding("ctrl+home", "scroll('home')", "top", show=False),
        Binding("ctrl+end", "scroll('end')", "end", show=False),
    ]

    def __init__(self, lines: Sequence[Text]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        with Vertical(id="whole-log"):
            yield Input(placeholder="search the log: type a word (a name, a card, a colour)", id="log-search")
            yield WrappingLog(id="log-lines")
            yield Static("", id="log-count")

    def on_mount(self) -> None:
        self.query_one("#whole-log").border_title = "The whole log"
        self.query_one("#log-lines", WrappingLog).can_focus = False  # typing goes to the search
        self._show("")

    @on(Input.Changed, "#log-search")
    def _search(self, event: Input.Changed) -> None:
        self._show(event.value)

    def matching(self, query: str) -> list[Text]:
        """The lines that contain ``query`` (all of them for an empty one), the match highlighted."""
        needle = query.strip().lower()
        if not needle:
            return list(self.lines)
        found = []
        for line in self.lines:
            at = line.plain.lower().find(needle)
            if at < 0:
                continue
            shown = line.copy()
            while at >= 0:
                shown.stylize("reverse", at, at + len(needle))
                at = line.plain.lower().find(needle, at + len(needle))
            found.append(shown)
        return found

    def _show(self, query: str) -> None:
        log = self.query_one("#log-lines", WrappingLog)
        log.clear()
        log.entries = []
        found = self.matching(query)
        for line in found:
            log.add(line)
        log.scroll_end(animate=False, immediate=True)
        total = len(self.lines)
        count = (f"{total} line{'s' if total != 1 else ''}" if not query.strip()
                 else f"{len(found)} of {total} lines contain {query.strip()!r}")
        self.query_one("#log-count", Static).update(f"{count} · ↑/↓ PgUp/PgDn scroll · esc closes")

    def action_scroll(self, how: str) -> None:
        log = self.query_one("#log-lines", WrappingLog)
        {"up": log.scroll_up, "down": log.scroll_down, "page_up": log.scroll_page_up,
         "page_down": log.scroll_page_down, "home": log.scroll_home, "end": log.scroll_end}[how](animate=False)

    def action_close(self) -> None:
        self.dismiss(None)
