"""The widget every table draws from: one observation, bound to the table's.

A table screen holds the viewer's observation in a reactive (``TableScreen.obs``); each widget on
it is bound to that with ``data_bind`` and redraws when it changes. What they share lives here:
the observation, the seats' names, and the small helpers every panel wrote for itself.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from rich.style import Style
from textual.reactive import reactive
from textual.widget import Widget


class ObsWidget(Widget):
    """A widget drawn from the table's observation (``None`` until the table has one)."""

    RELAYOUT: ClassVar[bool] = False
    """A new observation may change this widget's size: lay the screen out again when it comes."""

    obs: reactive[dict[str, Any] | None] = reactive(None)
    """The viewer's observation (``core.Game.observation``); bound to the table's."""

    def __init__(self, names: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names = list(names)
        """Each seat's name, in seat order."""

    def _watch_obs(self, obs: dict[str, Any] | None) -> None:
        if self.RELAYOUT:
            self.refresh(layout=True)

    def fg(self, name: str) -> Style:
        """A component style's foreground only, so text keeps its row's (highlighted) background."""
        full = self.get_component_rich_style(name)
        return Style(color=full.color, bold=full.bold, italic=full.italic)

    def seat_name(self, seat: int | None) -> str:
        """A seat as the viewer says it mid-sentence: "you" for their own, "?" for none."""
        if seat is None:
            return "?"
        return "you" if seat == (self.obs or {}).get("me") else self.names[seat]
