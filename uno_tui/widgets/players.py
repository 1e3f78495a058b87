"""What every players panel shares: one row per seat, the names, whose turn it is.

Each game's panel (``faces/<variant>/``) subclasses :class:`SeatRows` and draws its own columns.
"""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from .bound import ObsWidget

MAX_BACKS = 8  # card backs drawn per player before "+"


class SeatRows(ObsWidget):
    """What every players panel shares: seat names, the observation, name cells, row styles.

    A panel names its component classes ``PREFIX--current``, ``PREFIX--me`` and
    ``PREFIX--dim``, and says what its border shows in :meth:`title`.
    """

    PREFIX: ClassVar[str] = "players"
    RELAYOUT = True

    def __init__(self, names: Sequence[str], labels: Sequence[str], **kwargs: Any) -> None:
        super().__init__(names, **kwargs)
        self.labels = list(labels)
        """Each seat's kind (a bot's level, "human", ...), shown beside the name when there is room."""

    def title(self, obs: dict[str, Any]) -> str:
        # The arrows come first so they survive when a narrow border cuts the title short.
        return "Players ↓ ↻" if obs["direction"] == 1 else "Players ↑ ↺"

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is not None:
            self._fit_title(obs)

    def on_resize(self) -> None:
        if self.obs is not None:
            self._fit_title(self.obs)

    def _fit_title(self, obs: dict[str, Any]) -> None:
        """The whole title when the rim has room for it, else the arrows alone (never a word cut short)."""
        title = self.title(obs)
        room = self.size.width - 6  # the corners and the spaces around the title
        if self.size.width and cell_len(title) > room:
            title = SeatRows.title(self, obs)
        self.border_title = title

    def name_cell(self, seat: int, obs: dict[str, Any], *, label: bool = False) -> Text:
        """The seat's name, "(you)" after the viewer's own, and its kind when ``label``."""
        name = Text(self.names[seat])
        dim = self.fg(f"{self.PREFIX}--dim")
        mine = seat == obs["me"]
        if mine and self.names[seat] != "You":
            name.append(" (you)", dim)
        if label and not mine:
            name.append(f" ({self.labels[seat]})", dim)
        return name

    def row_style(self, seat: int, obs: dict[str, Any]) -> Style | None:
        """The highlight of the row: the player to act, else the viewer's own seat."""
        if seat == obs["current"] and not obs["over"]:
            return self.get_component_rich_style(f"{self.PREFIX}--current")
        if seat == obs["me"]:
            return self.get_component_rich_style(f"{self.PREFIX}--me")
        return None
