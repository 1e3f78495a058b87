"""Helpers shared by the Textual pilot tests (written once here, not copied into each test file)."""

from __future__ import annotations

import asyncio
import html
import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

from rich.console import Console
from textual.app import App
from textual.message import Message
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

import core
from core import Event
from uno_tui.screens.round_over import RoundOverScreen
from uno_tui.screens.table import TableScreen
from uno_tui.widgets import GameLog, HandView

ROOT = Path(__file__).resolve().parents[1]


def text_of(widget: Widget) -> str:
    """What a widget shows, as plain text."""
    if isinstance(widget, Static) and isinstance(widget.content, str):
        return widget.content
    console = Console(width=max(widget.content_size.width, 20), file=io.StringIO(), record=True,
                      color_system=None)
    console.print(widget.content if isinstance(widget, Static) else widget.render())
    return console.export_text()


def screen_text(app: App[Any]) -> str:
    """Everything the terminal shows now (the screen on top, over the others), as text."""
    svg = app.export_screenshot()
    return html.unescape("".join(re.findall(r"<text[^>]*>(.*?)</text>", svg, re.S))).replace("\xa0", " ")


def table_of(app: App[Any]) -> Any:
    """The table screen (under whatever picker or page is on top of it)."""
    return next(s for s in app.screen_stack if isinstance(s, TableScreen))


def log_text(app: App[Any]) -> str:
    """The table's log as it shows: its lines, wrapped at the log's width."""
    return "\n".join(strip.text for strip in table_of(app).query_one(GameLog).lines)


def log_entries(app: App[Any]) -> str:
    """Every line written to the table's log, one a line (not wrapped)."""
    return "\n".join(t.plain for t in table_of(app).query_one(GameLog).entries)


def notifications(app: App[Any]) -> list[str]:
    """The messages of the notifications shown so far."""
    return [n.message for n in app._notifications]


def card_id(obs: dict[str, Any], notation: str) -> int:
    """The id of the first card in the hand with this notation ("R7", "WGREN", ...)."""
    return next(c["id"] for c in obs["hand"] if core.notation(c["color"], c["rank"]) == notation)


async def wait_for(pilot: Pilot, app: App[Any], screen_type: type, timeout: float = 30.0) -> Screen[Any]:
    """Let the app run until a ``screen_type`` is on top, mounted (its widgets composed: a busy machine can
    show a pushed screen before them); return it (``timeout`` only bounds a failing test)."""
    await until(pilot, lambda: isinstance(app.screen, screen_type) and app.screen.is_mounted, timeout,
                f"the {screen_type.__name__}")
    return app.screen


async def select(pilot: Pilot, app: App[Any], card: int, view: str = "#hand") -> None:
    """Choose ``card`` in the hand (or the view with that id, the draft's ``#row``) with the → key."""
    hand = table_of(app).query_one(view, HandView)
    ids = [c["id"] for c in hand.cards]
    for _ in range((ids.index(card) - hand.selected) % len(ids)):
        await pilot.press("right")
    assert hand.selected_card is not None and hand.selected_card["id"] == card


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``uno-tui ARGS`` in a process of its own (this checkout's code)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "uno_tui.cli", *args], capture_output=True, text=True,
                          env=env, timeout=60, cwd=ROOT)


def at_table(app: Any) -> bool:
    """A network app shows its table, drawn (pushing it is not enough: it mounts a moment later)."""
    from uno_tui.netplay.table import NetTableScreen

    table = app.table
    return isinstance(app.screen, NetTableScreen) and table is app.screen and table.obs is not None \
        and bool(table.query("#hand-panel"))


def summary_up(app: Any) -> bool:
    """The round's summary is on top and mounted: pushed is not enough, as its widgets and its
    title come as it mounts (a test that read them at once now and then found none)."""
    screen = app.screen
    return isinstance(screen, RoundOverScreen) and screen.is_mounted


async def until(pilot: Pilot, cond: Callable[[], Any], timeout: float = 30.0, what: str | Callable[[], str] = "",
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
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what or cond}")


async def settle_when(pilot: Pilot, app: Any, ready: Callable[[dict[str, Any]], bool], timeout: float = 30.0,
                      grace: float = 0.02) -> dict[str, Any]:
    """Let the bots play until ``ready(observation)``; then a moment for a picker the table opens
    by itself to show, and return the observation."""
    await until(pilot, lambda: ready(app.session.observation()), timeout, "the bots to hand the turn back",
                step=0.01)
    if grace:
        await pilot.pause(grace)
    return app.session.observation()


class Recorder:
    """A session's watcher with no screen and no clock: it keeps every event it is told of."""

    watching = False
    """The bots never move on their own here: the test moves them (``LocalSession.bot_step``)."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def post_message(self, message: Message) -> bool:
        self.events.extend(getattr(message, "events", ()))
        return True

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> "_NoTimer":
        return _NoTimer()


class _NoTimer:
    def stop(self) -> None:
        pass
