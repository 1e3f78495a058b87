"""A window too small to play in gets a sentence, not a squashed menu.

The tables already say so themselves (``TableScreen``: below
:data:`MIN_SIZE` they show a request to enlarge the window and pause the
bots). :class:`WindowGuard` does the same for every other screen of a
served app (the menu, the new-game form, the lobby): while the terminal is
smaller than that, a :class:`TooSmallScreen` stays on top, saying how big
it needs to be, and goes away by itself once the window is large enough.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from uno_tui.app import UnoApp
from uno_tui.screens.table import MIN_SIZE, TableScreen, tiny_window, tiny_window_text

from .styles import SharedStyles

APP_CSS = str(Path(__file__).resolve().parents[1] / "app.tcss")
"""The tables' styles (a relative ``CSS_PATH`` would be looked for beside this module)."""


def too_small(size: Size) -> bool:
    return size.width < MIN_SIZE[0] or size.height < MIN_SIZE[1]


def too_small_text(width: int, height: int) -> str:
    if tiny_window(width, height):
        return tiny_window_text(width, height, "^q leaves")
    return (f"This window is {width}×{height}. uno-tui needs at least {MIN_SIZE[0]}×{MIN_SIZE[1]} "
            "(80×24 is best): make it larger and the game comes back. ctrl+q leaves.")


def _guarded(screen: Screen | None) -> bool:
    """Screens the notice covers (a table has its own)."""
    return screen is not None and not isinstance(screen, (TableScreen, TooSmallScreen))


class TooSmallScreen(ModalScreen[None]):
    """Covers the app while the window is too small."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; overflow: hidden hidden; }
    #window-too-small { width: 100%; height: auto; text-align: center; color: $warning; text-style: bold;
                        padding: 0 1; }
    #window-too-small.-tiny { padding: 0; }
    """

    def compose(self) -> ComposeResult:
        size = self.app.size
        yield Static(too_small_text(size.width, size.height), id="window-too-small",
                     classes="-tiny" if tiny_window(size.width, size.height) else "")

    def show_size(self, size: Size) -> None:
        notice = self.query_one("#window-too-small", Static)
        notice.update(too_small_text(size.width, size.height))
        notice.set_class(tiny_window(size.width, size.height), "-tiny")


class WindowGuard:
    """Mixin for an :class:`textual.app.App`: the too-small notice while the window is too small."""

    def on_resize(self, event: events.Resize) -> None:
        app: Any = self
        top = app.screen_stack[-1] if app.screen_stack else None
        if isinstance(top, TooSmallScreen):
            if too_small(event.size):
                top.show_size(event.size)
            else:
                app.pop_screen()
        elif too_small(event.size) and _guarded(top):
            super().push_screen(TooSmallScreen())  # type: ignore[misc]

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        app: Any = self
        top = app.screen_stack[-1] if app.screen_stack else None
        if not isinstance(top, TooSmallScreen) or isinstance(screen, TooSmallScreen):
            return super().push_screen(screen, *args, **kwargs)  # type: ignore[misc]
        app.pop_screen()  # the new screen goes under the notice, which comes back on top (unless it is a table)
        result = super().push_screen(screen, *args, **kwargs)  # type: ignore[misc]
        if _guarded(screen if isinstance(screen, Screen) else None):
            super().push_screen(TooSmallScreen())  # type: ignore[misc]
        return result


class ServedUnoApp(SharedStyles, WindowGuard, UnoApp):
    """A game against bots, in a session of ``uno-tui serve``."""

    CSS_PATH = APP_CSS
