"""Everyone at the table: cards held, UNO state, score, and whose turn it is."""

from __future__ import annotations

from typing import Any, Sequence

from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

MAX_BACKS = 8  # card backs drawn per player before "+"


class PlayersView(Widget):
    """One row per seat, in seat order; play moves down (or up) the list."""

    COMPONENT_CLASSES = {
        "players--current", "players--me", "players--uno", "players--exposed",
        "players--backs", "players--dim",
    }

    obs: reactive[dict[str, Any] | None] = reactive(None, layout=True)

    def __init__(self, names: Sequence[str], labels: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names = list(names)
        self.labels = list(labels)

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is None:
            return
        # Play moves down the list (seat order) when clockwise, up when not. The
        # arrows come first so they survive when a narrow border cuts the title short.
        if obs["direction"] == 1:
            self.border_title = "Players ↓ ↻ clockwise"
        else:
            self.border_title = "Players ↑ ↺ anticlockwise"

    def render(self) -> Table | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        def style(name: str) -> Style:
            # Foreground only, so text keeps the row's background (the current player's highlight).
            full = self.get_component_rich_style(name)
            return Style(color=full.color, bold=full.bold)
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
            mine = seat == obs["me"]
            current = seat == obs["current"] and not obs["over"]
            name = Text(self.names[seat])
            if mine and self.names[seat] != "You":
                name.append(" (you)", style("players--dim"))
            if wide and not mine:
                name.append(f" ({self.labels[seat]})", style("players--dim"))
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
            row = self.get_component_rich_style
            row_style = row("players--current") if current else row("players--me") if mine else None
            table.add_row(
                "▶" if current else " ",
                name,
                "–" if out else str(p["cards"]),
                Text(backs if wide else "", style("players--backs")),
                badge,
                f"{p['score']} pts" if roomy else str(p["score"]),
                style=row_style,
            )
        return table
