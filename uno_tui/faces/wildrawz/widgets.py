"""Wild Rawz widgets: the seats with their scores and targets, the trick, the draft row.

All are drawn from the observation alone (``obs["trick"]``, ``"winning"``,
``"won"``, ``"targets"``, ``"left"``, ``"row"``, ``"trump"``, ...).
"""

from __future__ import annotations

from typing import Any, Sequence

from rich.console import Group
from rich.style import Style
from rich.table import Table
from rich.text import Text
from ...widgets.bound import ObsWidget
from ...widgets.cards import CHIP_WIDTH, CardPainter, card_text, chip, inline_card, suit
from ...widgets.hand import HandView

SLOT = CHIP_WIDTH + 3
"""Width of one seat's place in front of the trick."""


class SeatsView(CardPainter, ObsWidget):
    """One row per seat: hand size, tricks won against the target, leaving cards, score."""

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {
        "seats--current", "seats--dim", "seats--hit", "seats--head",
    }
    RELAYOUT = True

    def __init__(self, names: Sequence[str], labels: Sequence[str], **kwargs: Any) -> None:
        super().__init__(names, **kwargs)
        self.labels = list(labels)

    def render(self) -> Table | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        palette = self.palette()
        fg = self.fg
        dim, hit = fg("seats--dim"), fg("seats--hit")
        wide = self.content_size.width >= 52
        table = Table.grid(expand=True, padding=(0, 1))
        table.add_column(width=1, no_wrap=True)  # turn marker
        table.add_column(ratio=1, no_wrap=True, overflow="ellipsis", min_width=6)  # name
        table.add_column(justify="right", no_wrap=True)  # hand
        table.add_column(justify="right", no_wrap=True)  # tricks / target
        table.add_column(no_wrap=True)  # leaving cards
        table.add_column(justify="right", no_wrap=True)  # score
        head = fg("seats--head")
        table.add_row("", Text("player", head), Text("hand", head), Text("tricks/target", head) if wide
                      else Text("won/aim", head), Text("left", head), Text("pts", head))
        for seat, p in enumerate(obs["players"]):
            current = seat == obs["current"] and not obs["over"]
            mine = seat == obs["me"]
            name = Text("You" if mine else self.names[seat])
            if seat == obs.get("start_player"):
                name.append(" ★", dim)  # the start marker
            if wide and not mine:
                name.append(f" ({self.labels[seat]})", dim)
            won, target = obs["won"][seat], obs["targets"][seat]
            aim = Text(f"{won}/{target}")
            if won == target:
                aim = Text(f"✓ {won}/{target}", hit)
            if not obs["left"][seat]:
                left = Text("–", dim)
            elif wide:
                left = Text(" ").join(inline_card(c, palette) for c in obs["left"][seat])
            else:  # narrow: the notations in their colours, without the card faces
                left = Text(" ").join(Text(card_text(c), Style(color=palette[suit(c)].bgcolor, bold=True))
                                      for c in obs["left"][seat])
            style = self.get_component_rich_style("seats--current") if current else None
            table.add_row("▶" if current else " ", name, str(p["cards"]), aim, left, str(p["score"]),
                          style=style)
        return table


class TrickView(CardPainter, ObsWidget):
    """The trump, and the card in front of each seat in the trick on the table.

    The card winning so far is marked; the leaver's card lies beside their
    seat, marked "left". Between tricks the last trick stays in view, dimmed.
    """

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {
        "trick--label", "trick--winning", "trick--dim", "trick--lead",
    }

    RELAYOUT = True

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        # Five rows of cards and tags, and the caption (the trump line), wrapped rather than cut.
        shown = self.render()
        if not isinstance(shown, Group) or width <= 0:
            return 6
        caption = shown.renderables[-1]
        assert isinstance(caption, Text)
        return 5 + max(1, len(caption.wrap(self.app.console, width)))

    def render(self) -> Group | Text:
        obs = self.obs
        if obs is None:
            return Text("")
        palette = self.palette()
        label = self.get_component_rich_style("trick--label")
        winning_style = self.get_component_rich_style("trick--winning")
        dim = self.get_component_rich_style("trick--dim")
        lead_style = self.get_component_rich_style("trick--lead")
        n = len(obs["players"])
        played: dict[int, dict[str, Any]] = {p: c for p, c in obs["trick"]}
        leaver = obs.get("leaver")
        winning, leader, old = obs.get("winning"), obs.get("leader"), False
        if not played and leaver is None and obs.get("last_trick"):
            # Between tricks: the last one stays in view until the next card lands.
            last = obs["last_trick"]
            played = {p: c for p, c in last["plays"]}
            leaver, winning, old = last["leaver"], last["winner"], True
            leader = last["plays"][0][0] if last["plays"] else None
        left_by = {leaver[0]: leaver[1]} if leaver else {}
        # Each seat's place narrows (down to the chip and one space) so every seat fits.
        width = self.content_size.width or (SLOT * (n + 1))
        slot = max(CHIP_WIDTH + 1, min(SLOT, width // (n + 1)))
        rows = [Text(no_wrap=True, overflow="crop") for _ in range(6)]
        # The trump first.
        rows[0].append("Trump".ljust(slot), label)
        trump = obs.get("trump")
        face = chip(trump, palette, playable=True, selected=False) if trump else _empty_chip(dim)
        for y in range(3):
            rows[1 + y].append_text(face[y])
            rows[1 + y].append(" " * (slot - CHIP_WIDTH))
        rows[4].append(" " * slot)
        for seat in range(n):
            name = "You" if seat == obs["me"] else self.names[seat]
            style = lead_style if seat == leader and not old else label
            rows[0].append(name[: slot - 1].ljust(slot), style)
            card = played.get(seat) or left_by.get(seat)
            if card is None:
                face = _empty_chip(dim)
            else:
                face = chip(card, palette, playable=seat in played and not old, selected=seat == winning and seat in played)
            for y in range(3):
                rows[1 + y].append_text(face[y])
                rows[1 + y].append(" " * (slot - CHIP_WIDTH))
            if seat in left_by:
                tag, tag_style = "left", dim
            elif seat == winning and seat in played:
                tag, tag_style = ("won" if old else "★ wins"), winning_style
            elif seat == leader and seat in played:
                tag, tag_style = "led", label
            elif seat == obs["current"] and not obs["over"] and not old:
                tag, tag_style = "to play", label
            else:
                tag, tag_style = "", label
            if len(tag) >= slot:
                tag = {"to play": "turn", "★ wins": "★win"}.get(tag, tag)
            rows[4].append(tag[: slot - 1].ljust(slot), tag_style)
        rows[5] = self._caption(obs, old, winning)
        return Group(*rows)

    def _caption(self, obs: dict[str, Any], old: bool, winning: int | None) -> Text:
        dim = self.get_component_rich_style("trick--dim")
        who = (lambda p: "You" if p == obs["me"] else self.names[p])
        if obs["phase"] == "draft":
            return Text("The trump is drafted first.", dim)
        if obs["over"]:
            return Text("The round is over.", dim)
        if old and winning is not None:
            leads = "lead" if obs["leader"] == obs["me"] else "leads"
            return Text(f"{who(winning)} won the last trick. {who(obs['leader'])} {leads}.", dim)
        if not obs["trick"]:
            verb = "lead" if obs["leader"] == obs["me"] else "leads"
            return Text(f"{who(obs['leader'])} {verb} the first trick.", dim)
        trump = obs.get("trump")
        lead = obs.get("lead_color")
        text = f"Led {lead}. " if lead else ""
        if trump:
            text += f"Trump: {trump['color']} and every {trump['rank']}."
        return Text(text, dim)


def _empty_chip(style: Style) -> list[Text]:
    inner = CHIP_WIDTH - 2
    return [Text("╭" + "┄" * inner + "╮", style), Text("┆" + " " * inner + "┆", style),
            Text("╰" + "┄" * inner + "╯", style)]


class RowView(HandView):
    """The face-up draft row: choose with ←/→, take with enter."""

    CARDS_KEY = "row"
    ACTION = "take"
    EMPTY = "The draft is over."
