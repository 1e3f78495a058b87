"""Everyone at the table: cards held, UNO state, score, and whose turn it is."""

from __future__ import annotations

from typing import Any, ClassVar, Sequence

from rich.cells import cell_len
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

MAX_BACKS = 8  # card backs drawn per player before "+"


class SeatRows(Widget):
    """What every players panel shares: seat names, the observation, name cells, row styles.

    A panel names its component classes ``PREFIX--current``, ``PREFIX--me`` and
    ``PREFIX--dim``, and says what its border shows in :meth:`title`.
    """

    PREFIX: ClassVar[str] = "players"

    obs: reactive[dict[str, Any] | None] = reactive(None, layout=True)
    """The observation drawn (None before the first)."""

    def __init__(self, names: Sequence[str], labels: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names = list(names)
        """Each seat's name as this viewer says it ("You" for their own)."""
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

    def fg(self, name: str) -> Style:
        """A component style's foreground only, so text keeps the row's (highlighted) background."""
        full = self.get_component_rich_style(name)
        return Style(color=full.color, bold=full.bold, italic=full.italic)

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


class PlayersView(SeatRows):
    """One row per seat, in seat order; play moves down (or up) the list."""

    COMPONENT_CLASSES = {
        "players--current", "players--me", "players--uno", "players--exposed",
        "players--backs", "players--dim",
    }

    def title(self, obs: dict[str, Any]) -> str:
        # Play moves down the list (seat order) when clockwise, up when not.
        return super().title(obs) + (" clockwise" if obs["direction"] == 1 else " anticlockwise")

    def render(self) -> Table | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        style = self.fg
        can_catch = any(a["kind"] == "catch" for a in obs.get("legal", ()))
        pending = obs.get("pending") or {}
        wide = self.content_size.width >= 44
        roomy = self.content_size.width >= 30
        table = Table.grid(expand=True, padding=(0, 1))
        table.add_column(width=1, no_wrap=True)  # turn marker
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")  # name
        table.add_column(justify="right", no_wrap=True)  # count
        table.add_column(no_wrap=True, min_width=MAX_BACKS + 1 if wide else 0)  # backs
        table.add_column(no_wrap=True)  # UNO badge
        table.add_column(justify="right", no_wrap=True)  # score
        for seat, p in enumerate(obs["players"]):
            current = seat == obs["current"] and not obs["over"]
            name = self.name_cell(seat, obs, label=wide)
            backs = "▮" * min(p["cards"], MAX_BACKS) + ("+" if p["cards"] > MAX_BACKS else "")
            out = p.get("out", False)
            if out:
                backs = ""
                name.stylize(Style(strike=True, dim=True))
                badge = Text("OUT", self.get_component_rich_style("players--exposed"))
            elif obs["phase"] in ("stack", "challenge", "choose") and seat == pending.get("victim") \
                    and not obs["over"]:
                what = "roulette" if obs["phase"] == "choose" else f"+{pending.get('total', 0)}?"
                badge = Text(what, self.get_component_rich_style("players--exposed"))
            elif p["exposed"]:
                badge = Text("no UNO! x" if can_catch else "no UNO!", self.get_component_rich_style("players--exposed"))
            elif p["uno"]:
                badge = Text("UNO!", style("players--uno"))
            elif obs["over"] and seat == obs["winner"]:
                badge = Text("won", style("players--uno"))
            else:
                badge = Text("")
            table.add_row(
                "▶" if current else " ",
                name,
                "–" if out else str(p["cards"]),
                Text(backs if wide else "", style("players--backs")),
                badge,
                f"{p['score']} pts" if roomy else str(p["score"]),
                style=self.row_style(seat, obs),
            )
        return table
