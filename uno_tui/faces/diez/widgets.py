"""The Diez table's own panels: every discard pile, and every player with their tokens.

:class:`DiezPilesView` draws each pile's top card as a chip with its number,
card count, colour in play and whether it can be jumped on (``J``), the pile
last played on heavy-rimmed; beneath, the draw pile and the bag, then what is
open now (a stack and its total, a challenge, a decision being made).
:class:`DiezPlayersView` is one row per seat with cards, tokens, score and
badges; a hand laid open by a Reveal token is shown face up under its row.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive

from ...widgets.bound import ObsWidget
from ...widgets.cards import CHIP_HEIGHT, CHIP_WIDTH, CardPainter
from ...widgets.players import MAX_BACKS, SeatRows
from .cards import chip, color_swatch, inline_card
from .words import CHALLENGED, TRAPS, token_label

PILE_GAP = 1


class DiezPilesView(CardPainter, ObsWidget):
    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"pile--label", "pile--alert"}

    RELAYOUT = True
    short: reactive[bool] = reactive(False, layout=True)
    """A short terminal: no empty line for what is open when nothing is."""

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is not None:
            n = len(obs.get("piles") or ())
            self.border_title = f"Discard piles · {n}" if n > 1 else "Discard pile"

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        if self.obs is None:
            return 1
        per_row = max(1, (width + PILE_GAP) // (CHIP_WIDTH + PILE_GAP))
        rows = -(-len(self.obs.get("piles") or [1]) // per_row)
        opened = not self.short or bool(self._open_line(self.obs, Style(), Style()).plain)
        return rows * (CHIP_HEIGHT + 2) + 1 + opened

    def render(self) -> Group | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        palette = self.palette()
        label = self.get_component_rich_style("pile--label")
        alert = self.get_component_rich_style("pile--alert")
        piles = obs.get("piles") or []
        focus = obs.get("focus", 0)
        legal = obs.get("legal") or []
        jumps = {a.get("target") or 0 for a in legal if a["kind"] == "play" and obs["current"] != obs["me"]}
        width = self.content_size.width or 40
        per_row = max(1, (width + PILE_GAP) // (CHIP_WIDTH + PILE_GAP))
        lines: list[Text] = []
        gap = Text(" " * PILE_GAP)
        for start in range(0, len(piles), per_row):
            row = list(enumerate(piles))[start:start + per_row]
            chips = [chip(p["top"], palette, playable=True, selected=i == focus) if p["top"]
                     else [Text(" " * CHIP_WIDTH)] * CHIP_HEIGHT for i, p in row]
            for y in range(CHIP_HEIGHT):
                lines.append(gap.join(c[y] for c in chips))
            info = Text()
            cols = Text()
            for k, (i, p) in enumerate(row):
                if k:
                    info.append(" " * PILE_GAP)
                    cols.append(" " * PILE_GAP)
                mark = "J" if i in jumps else ("j" if p.get("jump") else " ")
                info.append(f"{i + 1}·{p['count']}".ljust(CHIP_WIDTH - 1)[:CHIP_WIDTH - 1], label)
                info.append(mark, alert if i in jumps else label)
                cols.append_text(color_swatch(p["color"], palette, CHIP_WIDTH))
            lines.append(info)
            lines.append(cols)
        lines.append(Text(f"Draw pile {obs['draw_count']} · bag {obs.get('bag_count', 0)} tokens", label))
        opened = self._open_line(obs, alert, label)
        if opened.plain or not self.short:  # a short terminal keeps no empty line
            lines.append(opened)
        return Group(*lines)

    def _open_line(self, obs: dict[str, Any], alert: Style, label: Style) -> Text:
        """What is open right now: a stack, a challenge, a jump-in, a decision."""
        pending = obs.get("pending") or {}
        step = obs.get("step") or {}
        if obs["over"]:
            return Text("Round over", label)
        if obs["phase"] == "stack":
            text = f"Stack +{pending.get('total', 0)} → {self.seat_name(pending.get('victim'))} (pile {pending.get('pile', 0) + 1})"
            if pending.get("challengeable"):
                text += " · c challenge"
            return Text(text, alert)
        if step.get("op") == "challenge":
            what = CHALLENGED.get(step.get("card"), "card")
            return Text(f"{self.seat_name(step.get('who'))} may challenge the {what} (c)", alert)
        if any(a["kind"] == "play" for a in obs.get("legal") or ()) and obs["current"] != obs["me"]:
            return Text("You can jump in! (j)", alert)
        return Text("j: can be jumped on", label) if any(p.get("jump") for p in obs.get("piles") or ()) \
            else Text("")


class DiezPlayersView(CardPainter, SeatRows):
    """Seats with cards, tokens, score and badges; open hands face up beneath."""

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {
        "players--current", "players--me", "players--uno", "players--exposed", "players--backs",
        "players--dim", "players--token", "players--trap",
    }
    DEFAULT_CSS = """
    DiezPlayersView > .players--token { color: $success; text-style: bold; }
    DiezPlayersView > .players--trap { color: $warning; text-style: bold italic; }
    """

    def title(self, obs: dict[str, Any]) -> str:
        return super().title(obs) + " · tokens"

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        if self.obs is None:
            return 1
        players = self.obs["players"]
        me = self.obs["me"]
        return len(players) + sum(1 for q, p in enumerate(players)
                                  if p.get("revealed") and p.get("hand") is not None and q != me)

    def render(self) -> Group | Text:
        obs = self.obs
        if obs is None:
            return Text("")

        fg = self.fg
        palette = self.palette()
        pending = obs.get("pending") or {}
        step = obs.get("step") or {}
        can_catch = any(a["kind"] == "catch" for a in obs.get("legal", ()))
        wide = self.content_size.width >= 52
        table = Table.grid(expand=True, padding=(0, 1))
        table.add_column(width=1, no_wrap=True)
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)  # backs
        table.add_column(no_wrap=True, min_width=11)  # tokens
        table.add_column(no_wrap=True)  # badge
        table.add_column(justify="right", no_wrap=True)
        rows: list[Any] = []
        for seat, p in enumerate(obs["players"]):
            mine = seat == obs["me"]
            current = seat == obs["current"] and not obs["over"]
            name = self.name_cell(seat, obs)
            tokens = Text()
            for k, kind in enumerate(p.get("tokens") or ()):
                if k:
                    tokens.append(" ")
                tokens.append(token_label(kind), fg("players--trap" if kind in TRAPS else "players--token"))
            if p.get("mirror_armed"):  # a Proc'd Mirror: no token, but it acts like one
                tokens.append(" [Mir]" if tokens else "[Mir]", fg("players--trap"))
            badge = Text("")
            if obs["phase"] == "stack" and seat == pending.get("victim") and not obs["over"]:
                badge = Text(f"+{pending.get('total', 0)}?", self.get_component_rich_style("players--exposed"))
            elif step.get("op") == "challenge" and seat == step.get("who"):
                badge = Text("c?", self.get_component_rich_style("players--exposed"))
            elif p["exposed"]:
                badge = Text("no UNO! x" if can_catch else "no UNO!",
                             self.get_component_rich_style("players--exposed"))
            elif p["uno"]:
                badge = Text("UNO!", fg("players--uno"))
            elif obs["over"] and seat == obs["winner"]:
                badge = Text("won", fg("players--uno"))
            elif p.get("revealed"):
                badge = Text("open", fg("players--dim"))
            backs = "▮" * min(p["cards"], MAX_BACKS) + ("+" if p["cards"] > MAX_BACKS else "") if wide else ""
            table.add_row("▶" if current else " ", name, str(p["cards"]), Text(backs, fg("players--backs")),
                          tokens, badge, f"{p['score']}", style=self.row_style(seat, obs))
            if p.get("revealed") and p.get("hand") is not None and not mine:
                shown = Text("   ")
                for c in p["hand"][:14]:
                    shown.append_text(inline_card(c, palette))
                    shown.append(" ")
                if len(p["hand"]) > 14:
                    shown.append("…")
                rows.append((seat, shown))
        if not rows:
            return table
        # Open hands (Reveal) under the table: one line each.
        extra = [Text(f"{self.names[s]}'s open hand:", fg("players--dim")) + t for s, t in rows]
        return Group(table, *extra)
