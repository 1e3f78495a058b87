"""One-line bars: the match at the top, what to do now at the bottom."""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..narration import status_line


class MatchBar(Widget):
    """Variant, round, target score and the human's total."""

    COMPONENT_CLASSES = {"matchbar--brand", "matchbar--score"}

    obs: reactive[dict[str, Any] | None] = reactive(None)

    def render(self) -> Text:
        obs = self.obs
        text = Text()
        text.append(" UNO ", self.get_component_rich_style("matchbar--brand"))
        if obs is None:
            return text
        text.append(f" {obs['variant']} · round {obs['round'] + 1} · first to {obs['target_score']} points")
        mine = f"You: {obs['scores'][obs['me']]} pts "
        gap = self.content_size.width - text.cell_len - len(mine)
        text.append(" " * max(1, gap))
        text.append(mine, self.get_component_rich_style("matchbar--score"))
        return text


class StatusLine(Widget):
    """What is going on and the keys that matter now; styled by urgency."""

    obs: reactive[dict[str, Any] | None] = reactive(None)

    def __init__(self, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names = list(names)

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is None:
            return
        exposed = any(p["exposed"] for p in obs["players"])
        self.set_class(exposed or obs["phase"] == "challenge" and obs["current"] == obs["me"], "-alert")
        self.set_class(obs["current"] == obs["me"] and not obs["over"], "-your-turn")

    def render(self) -> Text:
        return Text(status_line(self.obs, self.names) if self.obs else "", overflow="ellipsis", no_wrap=True)
