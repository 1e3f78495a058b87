"""The players panel of the UNO table: cards held, UNO state, score, and whose turn it is."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.table import Table
from rich.text import Text

from ...widgets.players import MAX_BACKS, SeatRows


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
