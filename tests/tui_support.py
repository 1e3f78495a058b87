"""Helpers shared by the Textual pilot tests."""

from __future__ import annotations

import asyncio
import io
from typing import Any, Callable

from rich.console import Console
from textual.pilot import Pilot
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


async def until(pilot: Pilot, cond: Callable[[], Any], timeout: float = 30.0, what: str = "",
                step: float = 0.02) -> Any:
    """Let the app run until ``cond()`` is true, and return its value; fail after ``timeout`` s.

    The timeout only bounds a test that has gone wrong: a passing test waits for ``cond``, never
    for the clock, so the bound is generous enough for a machine whose other core is busy."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while loop.time() < end:
        value = cond()
        if value:
            return value
        await pilot.pause(step)
    raise AssertionError(f"timed out waiting for {what or cond}")


async def settle_when(pilot: Pilot, app: Any, ready: Callable[[dict[str, Any]], bool], timeout: float = 30.0,
                      grace: float = 0.02) -> dict[str, Any]:
    """Let the bots play until ``ready(observation)``; then a moment for a picker the table opens
    by itself to show, and return the observation."""
    await until(pilot, lambda: ready(app.session.observation()), timeout, "the bots to hand the turn back",
                step=0.01)
    if grace:
        await pilot.pause(grace)
    return app.session.observation()
