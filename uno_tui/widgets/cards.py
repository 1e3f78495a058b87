"""Drawing cards as text: small chips for the hand, a big face for the pile.

Cards are plain dicts from the observation (``{"id", "color", "rank"}``).
The colours come from component classes (``card--red`` ... in app.tcss), so
the widgets that paint cards inherit :class:`CardPainter` and pass their
palette in. Every card also carries its notation, so it reads without colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from core import COLORS, Card as CoreCard, notation

Card = Mapping[str, Any]

SUITS: tuple[str, ...] = (*COLORS, "wild")
"""The suits of the UNO deck, in hand order."""
PALETTE: tuple[str, ...] = (*COLORS, "white", "blank", "wild")
"""Every colour a card is painted in (Diez adds White and Blank cards), each a ``card--`` class in app.tcss."""

# Words for the big face; notation stays in the corners.
BIG_LABELS = {
    "S": "SKIP", "R": "REVERSE", "+2": "DRAW 2", "W": "WILD", "W+4": "WILD +4",
    # No Mercy
    "+4": "DRAW 4", "SA": "SKIP ALL", "DA": "DISCARD ALL", "WR+4": "REVERSE +4",
    "W+6": "WILD +6", "W+10": "WILD +10", "WCR": "ROULETTE",
}

RANK_ORDER: tuple[str, ...] = (*(str(n) for n in range(10)), "S", "SA", "R", "+2", "+4", "DA",
                               "W", "W+4", "WR+4", "W+6", "W+10", "WCR")
"""Hand order within a colour: numbers, then actions, then wilds (every variant's ranks)."""

CHIP_WIDTH = 6
CHIP_HEIGHT = 3


def suit(card: Card) -> str:
    return card["color"] or "wild"


def card_text(card: Card) -> str:
    """The card's notation: R7, B+2, W+4."""
    return notation(card["color"], card["rank"])


def card_name(card: Card) -> str:
    """The card in words: "red 7", "green Skip Everyone", "Wild Draw Six"."""
    return CoreCard.from_dict(dict(card)).name


def sort_key(card: Card) -> tuple[int, int, int]:
    """Hand order for display: by colour, then rank (numbers, actions, wilds)."""
    rank = RANK_ORDER.index(card["rank"]) if card["rank"] in RANK_ORDER else len(RANK_ORDER)
    return (SUITS.index(suit(card)), rank, card["id"])


class CardPainter(Widget):
    """Base for widgets that paint cards: the palette lives in app.tcss."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {f"card--{s}" for s in PALETTE} | {"card--rim"}

    def palette(self) -> dict[str, Style]:
        return {s: self.get_component_rich_style(f"card--{s}") for s in (*PALETTE, "rim")}


def _rim(style: Style, palette: dict[str, Style], wild: bool, i: int) -> Style:
    """Border colour; wild cards get a rainbow rim (the four suits in turn)."""
    if not wild:
        return style
    return style + Style(color=palette[COLORS[i % 4]].bgcolor)


def chip(card: Card, palette: dict[str, Style], *, playable: bool, selected: bool,
         label: str | None = None, rimmed: tuple[str, ...] = ("wild",)) -> list[Text]:
    """A 3x6 card: filled when playable, an outline when not; heavy rim when selected.

    ``label`` replaces the card's notation; an outlined card of a suit in ``rimmed`` (a
    suit with no colour of its own) is drawn in the rim's colour. A suit the palette
    lacks is painted as a wild.

    ::

        ╭────╮   ┏━━━━┓
        │ R7 │   ┃ R7 ┃
        ╰────╯   ┗━━━━┛
    """
    s = suit(card)
    face = palette.get(s, palette["wild"])
    if not playable:
        # Outline: the suit colour on the table's background.
        fill = Style(color=face.bgcolor if s not in rimmed else palette["rim"].color)
    else:
        fill = face
    if selected:
        fill = fill + Style(bold=True)
    wild = s == "wild"
    tl, tr, bl, br, h, v = ("┏", "┓", "┗", "┛", "━", "┃") if selected else ("╭", "╮", "╰", "╯", "─", "│")
    inner = CHIP_WIDTH - 2
    label = (card_text(card) if label is None else label).center(inner)
    top, mid, bot = Text(), Text(), Text()
    for i, ch in enumerate(tl + h * inner + tr):
        top.append(ch, _rim(fill, palette, wild, i))
    mid.append(v, _rim(fill, palette, wild, 3))
    mid.append(label, fill + Style(bold=True))
    mid.append(v, _rim(fill, palette, wild, 1))
    for i, ch in enumerate(bl + h * inner + br):
        bot.append(ch, _rim(fill, palette, wild, i + 2))
    return [top, mid, bot]


def big_card(card: Card | None, palette: dict[str, Style], width: int = 13,
             named: str | None = None) -> list[Text]:
    """The top of the discard pile, 7 rows tall, with its notation in two corners.

    ``named`` is the colour called with a wild, shown on its face.
    """
    if card is None:
        return [Text(" " * width) for _ in range(7)]
    s = suit(card)
    fill = palette[s]
    wild = s == "wild"
    inner = width - 2
    note = card_text(card)
    word = BIG_LABELS.get(card["rank"], card["rank"])
    rows = [
        f" {note}".ljust(inner),
        "",
        word.center(inner),
        (card["color"] or (f"→ {named}" if named else "")).center(inner),
        f"{note} ".rjust(inner),
    ]
    top, bottom = Text(), Text()
    for i, ch in enumerate("╭" + "─" * inner + "╮"):
        top.append(ch, _rim(fill, palette, wild, i))
    for i, ch in enumerate("╰" + "─" * inner + "╯"):
        bottom.append(ch, _rim(fill, palette, wild, i + 1))
    lines = [top]
    for r, body in enumerate(rows):
        line = Text()
        line.append("│", _rim(fill, palette, wild, r))
        line.append(body.ljust(inner), fill + Style(bold=r in (0, 2, 4)))
        line.append("│", _rim(fill, palette, wild, r + 2))
        lines.append(line)
    lines.append(bottom)
    return lines


def card_back(count: int, palette: dict[str, Style], width: int = 13) -> list[Text]:
    """The draw pile: a face-down card with the number of cards left."""
    inner = width - 2
    back = palette["wild"]
    red = Style(color=palette["red"].bgcolor, bold=True)
    rows = [
        "░" * inner,
        "░" * inner,
        None,
        "░" * inner,
        f"{count} left".center(inner),
    ]
    lines = [Text("╭" + "─" * inner + "╮", back)]
    for body in rows:
        line = Text("│", back)
        if body is None:
            pad = inner - 5
            line.append("░" * (pad // 2), back)
            line.append(" UNO ", back + red)
            line.append("░" * (pad - pad // 2), back)
        else:
            line.append(body, back + Style(bold=True) if "░" not in body else back)
        line.append("│", back)
        lines.append(line)
    lines.append(Text("╰" + "─" * inner + "╯", back))
    return lines


def inline_card(card: Card, palette: dict[str, Style]) -> Text:
    """A one-line card for lists (the round-over hands): `` R7 `` on its colour."""
    return Text(f" {card_text(card)} ", palette[suit(card)] + Style(bold=True))


@dataclass(frozen=True)
class CardPainting:
    """How a game's cards are drawn as text: the face's card painter (see ``Face.card_painting``)."""

    chip: Callable[..., list[Text]]
    """``chip(card, palette, *, playable, selected)``: the card as a few rows, for the hand."""
    inline: Callable[[Card, dict[str, Style]], Text]
    """``inline(card, palette)``: the card on one line, for lists."""
    order: Callable[[Card], Any]
    """The sort key of a hand: by colour, then rank."""


UNO_CARDS = CardPainting(chip=chip, inline=inline_card, order=sort_key)
"""The UNO deck's cards (classic, No Mercy and Wild Rawz), as every table but Diez's and the extended rules' draws them."""
