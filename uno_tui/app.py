"""The application: a thin shell that holds a session and shows its table.

Given a session it opens the table at once. Without one it first shows the
new-game screen and makes a local session from the choice.
"""

from __future__ import annotations

from dataclasses import replace

from textual.binding import Binding
from textual.screen import Screen

from .notices import OneLineNotices
from .screens import NewGameChoice, NewGameScreen, table_screen_for
from .screens.confirm import ConfirmScreen
from .session import LocalSession, Session, TableConfig


class UnoApp(OneLineNotices):
    """UNO in the terminal. All game flow lives in the table screens."""

    CSS_PATH = "app.tcss"
    TITLE = "uno-tui"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS = [Binding("ctrl+q", "quit", "quit", priority=True)]

    def __init__(self, session: Session | None = None, *, pacing: tuple[float, float] = (0.6, 0.9),
                 config: TableConfig | None = None) -> None:
        """``session``: the table to open. Without one, the new-game screen opens first, starting
        from ``config`` (its seed and name are kept; the screen chooses the rest)."""
        super().__init__()
        self.session = session  # type: ignore[assignment]  # set once a new game is chosen
        self.pacing = pacing
        self.config = config or TableConfig()

    @property
    def english_cards(self) -> bool:
        """The extended rules' cards named in English (``play --english``, the new-game screen's e key)."""
        config = getattr(self.session, "config", None) or self.config
        return bool(getattr(config, "english", False))

    def get_default_screen(self) -> Screen:
        if self.session is None:
            return Screen()  # blank until the new-game screen dismisses
        return table_screen_for(self.session, pacing=self.pacing)

    def on_mount(self) -> None:
        if self.session is None:
            cfg = self.config
            initial = NewGameChoice(variant=cfg.variant, players=cfg.players, bots=cfg.bots,
                                    options=dict(cfg.options), english=cfg.english)
            self.push_screen(NewGameScreen(initial), self._new_game)

    async def action_quit(self) -> None:
        """Leave; a round under way asks first (ctrl+q again, or y, says yes)."""
        session = self.session
        asking = isinstance(self.screen, ConfirmScreen)
        if session is None or asking or not getattr(session, "in_progress", False):
            self.exit()
            return
        saved = getattr(getattr(session, "config", None), "save_path", None)
        detail = ("The game is saved as it stands: `uno-tui play --resume` goes on from this move."
                  if saved else "This round is not saved: it ends here.")
        self.push_screen(ConfirmScreen("Leave the game?", detail, yes="leave", no="play on"),
                         lambda yes: self.exit() if yes else None)

    def _new_game(self, choice: NewGameChoice | None) -> None:
        if choice is None:
            self.exit()
            return
        self.config = replace(self.config, variant=choice.variant, players=choice.players, bots=choice.bots,
                              options=dict(choice.options), english=choice.english)
        self.session = LocalSession(self.config)
        self.push_screen(table_screen_for(self.session, pacing=self.pacing))  # over the blank first screen
