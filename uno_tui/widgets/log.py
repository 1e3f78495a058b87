"""The game log: what happened, in words, with colour names coloured."""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from rich.text import Text
from textual.widgets import RichLog

from core import COLORS, Event

from ..narration import log_line

_COLOR_WORDS = re.compile(r"\b(" + "|".join(COLORS) + r")\b", re.IGNORECASE)


class GameLog(RichLog):
    COMPONENT_CLASSES = {f"log--{c}" for c in COLORS} | {"log--you", "log--round"}

    variant: str | None = None
    """The variant on the table, where its wording differs (set by the table)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, highlight=False, **kwargs)

    def add_events(self, events: Iterable[Event], names: Sequence[str], me: int | None) -> None:
        for event in events:
            if event.kind == "draw" and event.reason == "deal":
                continue  # one line per hand dealt would drown the log
            self.write(self._line(event, names, me))

    def add_heading(self, text: str) -> None:
        self.write(Text(f"── {text} ──", self.get_component_rich_style("log--round")))

    def _line(self, event: Event, names: Sequence[str], me: int | None) -> Text:
        plain = log_line(event, names, me, self.variant)
        text = Text(plain)
        if me is not None and (event.player == me or event.target == me):  # None: a spectator
            text.stylize(self.get_component_rich_style("log--you"))
        for m in _COLOR_WORDS.finditer(plain):
            text.stylize(self.get_component_rich_style(f"log--{m.group(1).lower()}"), m.start(), m.end())
        return text
