"""The game log: what happened, in words, with colour names coloured."""

from __future__ import annotations

import re
from typing import Any, Iterable, Sequence

from rich.text import Text
from textual import events
from textual.widgets import RichLog

from core import COLORS, Event

from ..faces.face import Face
from ..narration import log_line, logged

_COLOR_WORDS = re.compile(r"\b(" + "|".join(COLORS) + r")\b", re.IGNORECASE)

REWRAP_LAST = 2000
"""Lines written again at a new width (the oldest beyond this stay in the whole log's screen only)."""


class WrappingLog(RichLog):
    """A RichLog that keeps what it was given, so a new width wraps it again, and stays at its latest line.

    RichLog renders a line once, at the width it had then (and at least ``min_width``); after a resize
    old lines were cut, or the view jumped to the oldest line. This one writes its lines again.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, min_width=1, **kwargs)
        self.entries: list[Text] = []
        """Every line written, oldest first (the whole log's screen shows them all)."""
        self._wrapped_at = 0
        self._shown_rows: int | None = None  # the height the log had at its last resize

    def add(self, text: Text) -> None:
        self.entries.append(text)
        self.write(text)

    def on_resize(self, event: events.Resize) -> None:
        # (RichLog's own handler runs too: it writes what waited for the first size.)
        region = self.scrollable_content_region
        width = region.width
        # At its latest line before (the height it had then, not the new one): stay there.
        shown = self._shown_rows
        at_end = shown is None or self.scroll_y >= self.virtual_size.height - shown - 1
        if self._wrapped_at and width != self._wrapped_at and self.entries:
            self.clear()
            for text in self.entries[-REWRAP_LAST:]:
                self.write(text, scroll_end=False)
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)
        elif shown is not None and region.height != shown and at_end:
            # Another height (shorter: a hand that grew a row, say): its latest lines would be hidden below.
            self.call_after_refresh(self.scroll_end, animate=False, immediate=True)
        self._wrapped_at = width
        self._shown_rows = region.height

    def write(self, content: Any, *args: Any, **kwargs: Any) -> "WrappingLog":  # type: ignore[override]
        if not self._wrapped_at and self._size_known:
            self._wrapped_at = self.scrollable_content_region.width
        super().write(content, *args, **kwargs)
        return self


class GameLog(WrappingLog):
    COMPONENT_CLASSES = {f"log--{c}" for c in COLORS} | {"log--you", "log--round"}

    face: Face | None = None
    """The game on the table, whose own events and wording the log uses (set by the table)."""
    english = False
    """The cards named in English rather than in their own language (set by the table)."""

    def add_events(self, events: Iterable[Event], names: Sequence[str], me: int | None) -> None:
        for event in logged(list(events)):
            self.add(self._line(event, names, me))

    def add_heading(self, text: str) -> None:
        self.add(Text(f"── {text} ──", self.get_component_rich_style("log--round")))

    def _line(self, event: Event, names: Sequence[str], me: int | None) -> Text:
        face = self.face
        plain = log_line(event, names, me, face.variant if face else None,
                         rewrite=None if face is None else lambda text: face.log_text(text, english=self.english))
        text = Text(plain)
        if me is not None and (event.player == me or event.target == me):  # None: a spectator
            text.stylize(self.get_component_rich_style("log--you"))
        for m in _COLOR_WORDS.finditer(plain):
            text.stylize(self.get_component_rich_style(f"log--{m.group(1).lower()}"), m.start(), m.end())
        return text
