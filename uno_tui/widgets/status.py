"""One-line bars: the match at the top, what to do now at the bottom."""

from __future__ import annotations

from typing import Any, Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from ..narration import rules_summary, status_line, variant_title


class MatchBar(Widget):
    """Variant, round, target score and the human's total."""

    COMPONENT_CLASSES = {"matchbar--brand", "matchbar--score", "matchbar--rules"}

    obs: reactive[dict[str, Any] | None] = reactive(None)

    def render(self) -> Text:
        obs = self.obs
        text = Text()
        text.append(" UNO ", self.get_component_rich_style("matchbar--brand"))
        if obs is None:
            return text
        if obs.get("rounds_in_match"):  # a match of a fixed number of rounds (Wild Rawz)
            text.append(f" {variant_title(obs['variant'])} · round {obs['round'] + 1} of {obs['rounds_in_match']}")
        else:
            text.append(f" {variant_title(obs['variant'])} · round {obs['round'] + 1}"
                        f" · first to {obs['target_score']} points")
        mine = "watching " if obs["me"] is None else f"You: {obs['scores'][obs['me']]} pts "  # None: a spectator
        rules = rules_summary(obs["variant"], obs.get("options") or {})
        room = self.content_size.width - text.cell_len - len(mine) - 4
        if rules and room > 10:
            if len(rules) > room:
                rules = rules[: room - 1] + "…"
            text.append(f" · {rules}", self.get_component_rich_style("matchbar--rules"))
        gap = self.content_size.width - text.cell_len - len(mine)
        text.append(" " * max(1, gap))
        text.append(mine, self.get_component_rich_style("matchbar--score"))
        return text


class StatusLine(Widget):
    """What is going on and the keys that matter now; styled by urgency."""

    obs: reactive[dict[str, Any] | None] = reactive(None)
    deals = True
    """Whether this seat deals the next round (a network joiner waits for the host)."""

    def __init__(self, names: Sequence[str], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.names = list(names)

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is None:
            return
        exposed = any(p["exposed"] for p in obs["players"])
        on_me = obs["current"] == obs["me"] and obs["phase"] in ("challenge", "stack", "choose")
        jump = obs["current"] != obs["me"] and any(a["kind"] == "play" for a in obs.get("legal", ()))
        self.set_class(exposed or on_me or jump, "-alert")
        self.set_class(obs["current"] == obs["me"] and not obs["over"], "-your-turn")

    def render(self) -> Text:
        return Text(status_line(self.obs, self.names, self.deals) if self.obs else "")
