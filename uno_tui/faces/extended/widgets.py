"""The extended table's widgets: seats with their effects, the table (last, pending, transfers in
flight), what is asked of you, and your hand with Chinese labels.

Every widget reads the observation only (``effects``, ``pending``, ``interaction``, ``actor``,
``hand_cap``, ``turn``: see ``ExtendedGame._observe``); nothing here knows a rule.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive

from ...widgets.bound import ObsWidget
from ...widgets.cards import CardPainter
from ...widgets.hand import HandView
from ...widgets.players import SeatRows
from .cards import CHIP_HEIGHT, CHIP_WIDTH, LABEL_CELLS, card_back_text, card_name, english, ext_chip, ext_inline, gloss
from .words import PHASE_WORDS, effect_phrase, shown, situation

CARD_KINDS = frozenset({"play", "camo", "attach", "discard", "keep"})
"""Legal moves that name a card of your hand (the card is then drawn filled, with a dot)."""

GAP = 1
INLINE = LABEL_CELLS + 1  # a compact card's cells


def effect_badge(e: dict[str, Any]) -> tuple[str, str]:
    """A player's effect as a short badge and its style name (``ext--bad`` ...): in Chinese, or in
    English when the player asked for English."""
    kind = e["kind"]
    en = english()
    if kind == "stun":
        return ("stun" if en else "禁stun"), "ext--bad"
    if kind == "draw":
        return f"+{e.get('total', 0)}", "ext--bad"
    if kind == "transfer":
        return ("T" if en else "移") + ("▮" * e.get("attached", 0) if e.get("attached") else "·"), "ext--bad"
    if kind == "disarm":
        return ("Disarm" if en else "缴械"), "ext--bad"
    if kind == "curse":
        return ("Curse" if en else "紧箍咒"), "ext--bad"
    if kind == "bound":
        return f"{'bound' if en else '箍'}{e.get('eff', '?')}", "ext--lasting"
    if kind == "lock":
        return ("lock" if en else "锢") + ("0-4" if e.get("rank") == "T4" else "5-9"), "ext--lasting"
    if kind == "weak":
        return ("weak" if en else "虚弱"), "ext--lasting"
    return kind, "ext--lasting"


CHAIN_BADGE = {"react": "◀answer", "attach": "◀attach", "duel": "◀duel", "discard": "◀discard",
               "keep": "◀keep", "grenade": "◀手榴弹", "c4": "◀C4", "argue": "◀抬杠", "direction": "◀start",
               "judge": "◀judge"}
"""Who must act now, by phase (a chain's name in Chinese: see :func:`chain_badge`)."""


def chain_badge(phase: str) -> str:
    return shown(CHAIN_BADGE.get(phase, "◀"))


class ExtPlayersView(SeatRows):
    """One row per seat: cards against the hand cap, active effects, who must act, score."""

    COMPONENT_CLASSES = {"ext--current", "ext--me", "ext--bad", "ext--lasting", "ext--dim", "ext--good",
                         "ext--alert"}

    PREFIX = "ext"

    def title(self, obs: dict[str, Any]) -> str:
        return super().title(obs) + f" · cap {obs.get('hand_cap', '?')}"

    def render(self) -> Table | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        wide = self.content_size.width >= 48
        table = Table.grid(expand=True, padding=(0, 1))
        table.add_column(width=1, no_wrap=True)
        table.add_column(ratio=2, no_wrap=True, overflow="ellipsis", min_width=4)
        table.add_column(justify="right", no_wrap=True)  # cards/cap
        table.add_column(ratio=3, no_wrap=True, overflow="ellipsis")  # effects and badges
        table.add_column(justify="right", no_wrap=True)  # score
        actor = obs.get("actor")
        effects = obs.get("effects") or [[] for _ in obs["players"]]
        finished = obs.get("finished") or []
        for seat, p in enumerate(obs["players"]):
            current = seat == obs["current"] and not obs["over"]
            name = self.name_cell(seat, obs, label=wide)
            badges = Text()
            if seat in finished:
                place = finished.index(seat) + 1
                badges.append(f"out #{place}", self.fg("ext--good"))
            for e in effects[seat]:
                text, style = effect_badge(e)
                if badges:
                    badges.append(" ")
                badges.append(text, self.fg(style))
            if actor == seat and not obs["over"] and (actor != obs["current"] or obs["phase"] not in ("main",)):
                if badges:
                    badges.append(" ")
                badges.append(chain_badge(obs["phase"]), self.fg("ext--alert"))
            if p.get("exposed"):
                badges.append(" no UNO!", self.fg("ext--alert"))
            elif p.get("uno"):
                badges.append(" UNO!", self.fg("ext--good"))
            cards = "–" if seat in finished else f"{p['cards']}/{obs.get('hand_cap', '?')}" if wide \
                else str(p["cards"])
            table.add_row("▶" if current else " ", name, cards, badges, str(p["score"]),
                          style=self.row_style(seat, obs))
        return table


class ExtTableView(CardPainter, ObsWidget):
    """``last`` (and the pile's top when a black card left ``last`` alone), the colour, the
    direction, the pending effect, and the transfers in flight with their cards face down."""

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"ext--label", "ext--alert", "ext--dim", "ext--back"}
    RELAYOUT = True

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is not None:
            self.border_title = f"Table · {shown(PHASE_WORDS.get(obs['phase'], obs['phase']))}"

    def in_flight(self) -> list[Text]:
        """Transfers under way: on a player (until judged) or being loaded."""
        obs = self.obs or {}
        out = []
        back = self.fg("ext--back")
        seen: set[int] = set()
        inter = obs.get("interaction") or {}
        loading = inter.get("effect") if inter.get("type") == "attach" else None
        items = [(e["on"], e) for es in obs.get("effects") or [] for e in es if e["kind"] == "transfer"]
        if loading:
            items.append((None, loading))
        for on, e in items:
            if e.get("effect_id") in seen:
                continue
            seen.add(e.get("effect_id"))
            line = Text(f"{card_name(e.get('rank', 'T4'))} ")
            line.append_text(card_back_text(e.get("attached", 0), back))
            line.append(f" → {self.seat_name(on)}" if on is not None else " (loading)")
            out.append(line)
        return out

    def render(self) -> Group | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        palette = self.palette()
        label, alert, dim = self.fg("ext--label"), self.fg("ext--alert"), self.fg("ext--dim")
        last = obs.get("last") or obs.get("top")
        chip = ext_chip(last, palette, playable=True, selected=False) if last else [Text(" " * CHIP_WIDTH)] * 3
        color = obs.get("color")
        swatch = Text("colour ", label)
        if color:
            swatch.append("   ", palette[color])
            swatch.append(f" {color}", Style(color=palette[color].bgcolor, bold=True))
        arrow = "↻ clockwise" if obs["direction"] == 1 else "↺ anticlockwise"
        side = [swatch, Text(arrow), Text(f"pile {obs['draw_count']} · discards {len(obs['discard'])}", label)]
        lines = []
        for i in range(3):
            line = Text("last " if i == 0 else "     ", label, no_wrap=True, overflow="ellipsis")
            line.append_text(chip[i])
            line.append("  ")
            line.append_text(side[i])
            lines.append(line)
        top = obs.get("top")
        if top and last and top["id"] != last["id"]:
            line = Text("pile top ", label)
            line.append_text(ext_inline(top, palette, width=LABEL_CELLS))
            line.append(" (black: last stays)", dim)
            lines.append(line)
        pend = obs.get("pending") or {}
        if obs["phase"] == "judge" and pend:
            line = Text("judging ", label)
            line.append(f"{shown(effect_phrase(pend))} → {self.seat_name(pend.get('on'))}", alert)
            lines.append(line)
        draws = [e for es in obs.get("effects") or [] for e in es if e["kind"] == "draw"]
        for e in draws:
            if obs["phase"] == "judge" and e.get("effect_id") == pend.get("effect_id"):
                continue
            line = Text("pending ", label)
            line.append(f"+{e.get('total', 0)} (largest +{e.get('max', 0)}) → {self.seat_name(e['on'])}", alert)
            lines.append(line)
        flights = self.in_flight()
        for i, f in enumerate(flights):
            line = Text("in flight " if i == 0 else "          ", label)
            line.append_text(f)
            lines.append(line)
        inter = obs.get("interaction") or {}
        if inter.get("type") in ("grenade", "c4", "argue"):
            what = {"grenade": f"手榴弹 wants {inter.get('color')}", "c4": "C4 ticking",
                    "argue": f"抬杠 at {inter.get('x', 0)}"}[inter["type"]]
            lines.append(Text.assemble(("chain ", label),
                                       (f"{shown(what)} → {self.seat_name(inter.get('actor'))}", alert)))
        if len(lines) < 5:
            lines.append(Text(f"deal {obs.get('hand_size', '?')} · hand cap {obs.get('hand_cap', '?')}", dim))
        for line in lines:
            line.no_wrap, line.overflow = True, "ellipsis"
        return Group(*lines)


class ExtPromptView(ObsWidget):
    """What is going on, in a sentence; urgent (highlighted) when it asks something of you."""

    RELAYOUT = True

    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is not None:
            self.set_class(obs.get("actor") == obs["me"] and not obs["over"], "-mine")

    def render(self) -> Text:
        return Text(shown(situation(self.obs, self.names)) if self.obs else "")


class ExtHandView(HandView):
    """Your hand as chips wide enough for a Chinese label (or, when the terminal is short, one line of
    compact cards), with the chosen card's name and what it does beneath."""

    COMPONENT_CLASSES = HandView.COMPONENT_CLASSES | {"hand--gloss"}

    REVEAL_EXTRA = 1  # the gloss line
    compact: reactive[bool] = reactive(False, layout=True)

    def playable_ids(self) -> set[int]:
        if self.obs is None:
            return set()
        return {a["card"] for a in self.obs.get("legal", ()) if a["kind"] in CARD_KINDS and "card" in a}

    def _my_turn(self, obs: dict[str, Any] | None) -> bool:
        return bool(obs) and obs.get("actor") == obs["me"] and not obs["over"]

    def _drawn_id(self, obs: dict[str, Any] | None) -> int | None:
        return None

    def watch_compact(self, compact: bool) -> None:
        self.refresh(layout=True)

    def _slot(self) -> int:
        return (INLINE if self.compact else CHIP_WIDTH) + GAP

    def _row_height(self) -> int:
        return 2 if self.compact else CHIP_HEIGHT + 1

    def render(self) -> Group | Text:
        if not self.cards:
            return Text(self.EMPTY, self.get_component_rich_style("hand--empty"))
        palette = self.palette()
        marker = self.get_component_rich_style("hand--marker")
        fresh_style = self.get_component_rich_style("hand--fresh")
        playable = self.playable_ids()
        my_turn = self._my_turn(self.obs or {})
        cols = self._columns(self.content_size.width or 80)
        slot = self._slot() - GAP
        lines: list[Text] = []
        for start in range(0, len(self.cards), cols):
            row = self.cards[start:start + cols]
            if self.compact:
                line = Text(no_wrap=True)
                for i, c in enumerate(row):
                    if i:
                        line.append(" " * GAP)
                    line.append_text(ext_inline(c, palette, width=slot, playable=c["id"] in playable or not my_turn))
                lines.append(line)
            else:
                chips = [ext_chip(c, palette, playable=c["id"] in playable or not my_turn,
                                  selected=start + i == self.selected) for i, c in enumerate(row)]
                for y in range(CHIP_HEIGHT):
                    lines.append(Text(" " * GAP, no_wrap=True).join(ch[y] for ch in chips))
            marks = Text(no_wrap=True)
            for i, c in enumerate(row):
                style = marker
                if start + i == self.selected:
                    mark = "▲" * (slot - 2)
                    mark = " " + mark + " "
                elif c["id"] in self.fresh:
                    mark, style = ("•new•" if c["id"] in playable else " new"), fresh_style
                elif c["id"] in playable:
                    mark = "••"
                else:
                    mark = ""
                marks.append(mark.center(slot)[:slot] + " " * GAP, style)
            lines.append(marks)
        card = self.selected_card
        if card is not None:
            lines.append(Text(f"▲ {gloss(card)}", self.get_component_rich_style("hand--gloss"),
                              no_wrap=True, overflow="ellipsis"))
        return Group(*lines)
