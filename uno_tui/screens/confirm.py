"""A yes/no question in a modal; dismisses with True (yes) or False (no)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmScreen(ModalScreen[bool]):
    """Ask before something that cannot be undone: y or enter says yes, n or escape no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, question: str, detail: str = "", *, yes: str = "yes", no: str = "no") -> None:
        super().__init__()
        self.question = question
        self.detail = detail
        self.keys = f"y / enter: {yes} · n / esc: {no}"

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="confirm-question")
            if self.detail:
                yield Static(self.detail, id="confirm-detail")
            yield Static(self.keys, id="confirm-keys")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
