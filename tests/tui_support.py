"""Helpers shared by the Textual pilot tests and the screenshot script."""

from __future__ import annotations

import io

from rich.console import Console
from textual.widget import Widget
from textual.widgets import Static


def text_of(widget: Widget) -> str:
    """What a widget shows, as plain text."""
    if isinstance(widget, Static) and isinstance(widget.content, str):
        return widget.content
    console = Console(width=max(widget.content_size.width, 20), file=io.StringIO(), record=True,
                      color_system=None)
    console.print(widget.content if isinstance(widget, Static) else widget.render())
    return console.export_text()
