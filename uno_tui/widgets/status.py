"""One-line bars: the match at the top, what to do now at the bottom.

Both are given the face of the game on the table: it names the game and words the status line.
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text

from ..faces.face import Face
from .bound import ObsWidget


class MatchBar(ObsWidget):
    """Variant, round, target score and the human's total."""

    COMPONENT_CLASSES = {"matchbar--brand", "matchbar--score", "matchbar--rules"}
    english = False
    """The game named in English (``play --english``), when it has an English name."""

    def __init__(self, face: Face, **kwargs: Any) -> None:
        super().__init__((), **kwargs)
        self.face = face

    def render(self) -> Text:
        obs = self.obs
        text = Text()
        text.append(" UNO ", self.get_component_rich_style("matchbar--brand"))
        if obs is None:
            return text
        title = self.face.english_title if self.english and self.face.english_title else self.face.title
        if obs.get("rounds_in_match"):  # a match of a fixed number of rounds (Wild Rawz)
            text.append(f" {title} · round {obs['round'] + 1} of {obs['rounds_in_match']}")
        else:
            text.append(f" {title} · round {obs['round'] + 1} · first to {obs['target_score']} points")
        mine = "watching " if obs["me"] is None else f"You: {obs['scores'][obs['me']]} pts "  # None: a spectator
        rules = self.face.rules_summary(obs.get("options") or {})
        room = self.content_size.width - text.cell_len - len(mine) - 4
        if rules and room > 10:
            if len(rules) > room:
                rules = rules[: room - 1] + "…"
            text.append(f" · {rules}", self.get_component_rich_style("matchbar--rules"))
        gap = self.content_size.width - text.cell_len - len(mine)
        text.append(" " * max(1, gap))
        text.append(mine, self.get_component_rich_style("matchbar--score"))
        return text


class StatusLine(ObsWidget):
    """What is going on and the keys that matter now, in the game's words; styled by urgency."""

    deals: bool | None = True
    """Whether this seat deals the next round (a network joiner waits for the host; None: the table
    deals it by itself)."""

    def __init__(self, names: Sequence[str], face: Face, **kwargs: Any) -> None:
        super().__init__(names, **kwargs)
        self.face = face

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is None:
            return
        alert, your_turn = self.face.status_flags(obs)
        self.set_class(alert, "-alert")
        self.set_class(your_turn, "-your-turn")

    def render(self) -> Text:
        return Text(self.face.status_line(self.obs, self.names, self.deals) if self.obs else "")
