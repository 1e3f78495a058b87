"""The middle of the UNO table: the draw pile, the top card, the colour in play; and the discard pile spread out."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive

from core.events import counted

from ...widgets.bound import ObsWidget
from ...widgets.cards import CHIP_HEIGHT, CHIP_WIDTH, CardPainter, big_card, card_back, chip, inline_card

BACK_WIDTH = 10
TOP_WIDTH = 13
INFO_WIDTH = 17  # "Direction ↺", "↺ anticlockwise", "+10 → Cleo!"
FULL_WIDTH = BACK_WIDTH + 1 + TOP_WIDTH + 2 + INFO_WIDTH


class PileView(CardPainter, ObsWidget):
    """Draw pile and discard side by side, with what matters about them."""

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"pile--label", "pile--alert"}

    short: reactive[bool] = reactive(False, layout=True)
    """A short terminal: the cards are drawn as chips, the facts beside them in four lines."""

    def render(self) -> Group | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        palette = self.palette()
        if self.short:
            return self._render_short(obs, palette)
        # Narrow terminals drop the face-down pile; its count moves to the info column.
        compact = self.content_size.width < FULL_WIDTH
        back = card_back(obs["draw_count"], palette, width=BACK_WIDTH)
        top = big_card(obs["top"], palette, width=TOP_WIDTH, named=obs["color"])
        info = self._info(obs, palette)
        if compact:
            info[6] = Text(f"Draw pile: {obs['draw_count']}", self.get_component_rich_style("pile--label"))
        lines = []
        for i in range(len(top)):
            line = Text(no_wrap=True, overflow="crop")
            if not compact:
                line.append_text(back[i])
                line.append(" ")
            line.append_text(top[i])
            line.append("  ")
            line.append_text(info[i] if i < len(info) else Text(""))
            lines.append(line)
        return Group(*lines)

    def _render_short(self, obs: dict[str, Any], palette: dict[str, Style]) -> Group:
        """Three rows of cards (the draw pile's count on its back, the top card) and the facts beside them."""
        label = self.get_component_rich_style("pile--label")
        info = self._info(obs, palette)
        back = [Text("╭────╮", palette["rim"]), Text(f"│{obs['draw_count']:^4}│", palette["rim"]),
                Text("╰────╯", palette["rim"])]
        top = chip(obs["top"], palette, playable=True, selected=False) if obs.get("top") else [Text(" " * 6)] * 3
        facts = [info[1], info[4], Text(f"{obs['draw_count']} to draw · {len(obs['discard'])} discarded", label)]
        lines = []
        for i in range(3):
            line = Text(no_wrap=True, overflow="crop")
            line.append_text(back[i])
            line.append(" ")
            line.append_text(top[i])
            line.append("  ")
            line.append_text(facts[i])
            lines.append(line)
        if info[5].plain:  # a stack, a challenge or a roulette on someone
            lines.append(Text(" " * 15) + info[5])
        return Group(*lines)

    def _info(self, obs: dict[str, Any], palette: dict[str, Style]) -> list[Text]:
        label = self.get_component_rich_style("pile--label")
        alert = self.get_component_rich_style("pile--alert")
        color = obs["color"]
        swatch = Text()
        if color:
            swatch.append("    ", palette[color])
            swatch.append(f" {color.upper()}", Style(color=palette[color].bgcolor, bold=True))
        # One line (it fits the column at any width): the arrow, then the word.
        arrow, words = ("↻", "clockwise") if obs["direction"] == 1 else ("↺", "anticlockwise")
        direction = Text(arrow, Style(bold=True))
        direction.append(f" {words}")
        lines = [
            Text("Colour in play", label),
            swatch,
            Text(""),
            Text("Direction", label),
            direction,
            Text(""),
            Text(f"Discards: {len(obs['discard'])}", label),
        ]
        pending = obs.get("pending") or {}
        victim = pending.get("victim")
        who = "you" if victim == obs["me"] else self.names[victim] if victim is not None else ""
        if obs["phase"] == "challenge" and victim is not None:
            lines[5] = Text(f"+4 on {who}!", alert)
        elif obs["phase"] == "stack" and victim is not None:
            lines[5] = Text(f"Stack +{pending.get('total', 0)} → {who}", alert)
        elif obs["phase"] == "choose" and victim is not None:
            lines[5] = Text(f"Roulette → {who}", alert)
        return lines


class DiscardTrail(CardPainter, ObsWidget):
    """The discard pile spread out, newest first: what has gone by, at a glance."""

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is not None:
            self.border_title = f"Discard pile · {counted(len(obs['discard']), 'card')} · newest first"

    def render(self) -> Group | Text:
        if self.obs is None:
            return Text("")
        palette = self.palette()
        width, height = self.content_size.width, self.content_size.height
        cols = (width + 1) // (CHIP_WIDTH + 1)
        rows = (height - 1) // CHIP_HEIGHT  # a line kept for the count of older cards
        if cols and rows:  # a tall wide terminal: the cards as chips, as many as fit, newest first
            return self._chips(list(reversed(self.obs["discard"])), palette, cols, rows)
        text = Text()
        for i, card in enumerate(reversed(self.obs["discard"])):
            if i:
                text.append(" ")
            text.append_text(inline_card(card, palette))
        return text

    def _chips(self, cards: list[dict[str, Any]], palette: dict[str, Style], cols: int, rows: int) -> Group:
        shown = cards[:cols * rows]
        lines: list[Text] = []
        for start in range(0, len(shown), cols):
            row = [chip(c, palette, playable=True, selected=False) for c in shown[start:start + cols]]
            for y in range(CHIP_HEIGHT):
                lines.append(Text(" ").join(ch[y] for ch in row))
        if len(cards) > len(shown):
            older = len(cards) - len(shown)
            lines.append(Text(f"… and {older} older card{'s' if older != 1 else ''}", palette["rim"]))
        return Group(*lines)
