"""The application: a thin shell that holds a session and shows its table."""

from __future__ import annotations

from textual.app import App
from textual.binding import Binding
from textual.screen import Screen

from .screens import TableScreen
from .session import Session


class UnoApp(App[None]):
    """UNO in the terminal. All game flow lives in :class:`TableScreen`."""

    CSS_PATH = "app.tcss"
    TITLE = "uno-tui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(self, session: Session, *, pacing: tuple[float, float] = (0.6, 0.9)) -> None:
        super().__init__()
        self.session = session
        self.pacing = pacing

    def get_default_screen(self) -> Screen:
        return TableScreen(self.session, pacing=self.pacing)
