"""Cards of the extended rules as text: Chinese labels that fit a chip, measured in cells.

A Chinese character takes two terminal cells, so every width here is counted with
:func:`rich.cells.cell_len`, never ``len``. Labels avoid ambiguous-width characters
(≤ ≥ ∞), which terminals draw one or two cells wide as they please.
"""

from __future__ import annotations

from typing import Any, Mapping

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from core import notation

from ...widgets.cards import SUITS, CardPainting, _rim, suit
from ..core_words import EXTENDED_BY_RANK, EXTENDED_CARDS, extended_card_words, extended_zh as zh
from .english import english_names

Card = Mapping[str, Any]

LABELS: dict[str, str] = {
    "S": "禁", "R": "转", "+2": "+2", "W+4": "+4", "W": "改色", "INF": "无限",
    "T4": "移0-4", "T5": "移5-9", "HAND": "神手", "CLIP": "夹子", "GIFT": "奖励",
    "WRB": "反弹", "WPASS": "pass", "DUELC": "色决斗", "DUELN": "点决斗", "CHOSEN": "天选",
    "BOMB": "炸弹", "DISARM": "缴械", "WGREN": "手榴弹", "CURSE": "紧箍咒", "WC4": "C4",
    "WARG": "抬杠", "WIDOW": "寡妇", "REGRET": "后悔药", "WCAMO": "迷彩",
}
"""The short Chinese label of each rank, at most 6 cells (numbers show as themselves)."""

EN_LABELS: dict[str, str] = {
    "S": "Skip", "R": "Rev", "+2": "+2", "W+4": "+4", "W": "Wild", "INF": "Inf",
    "T4": "T0-4", "T5": "T5-9", "HAND": "Hand", "CLIP": "Clip", "GIFT": "Gift",
    "WRB": "Rebound", "WPASS": "pass", "DUELC": "DuelC", "DUELN": "DuelN", "CHOSEN": "Chosen",
    "BOMB": "Bomb", "DISARM": "Disarm", "WGREN": "Grenade", "CURSE": "Curse", "WC4": "C4",
    "WARG": "Argue", "WIDOW": "Widow", "REGRET": "Regret", "WCAMO": "Camo",
}
"""The English label of each rank, for players who do not read Chinese (as wide as the Chinese ones)."""

_english = False


def use_english(on: bool) -> None:
    """Label the cards in English (``on``) or in Chinese; the extended table sets it as it opens
    (one table at a time in a process, so one setting)."""
    global _english
    _english = on


def english() -> bool:
    """Whether the cards are labelled in English."""
    return _english


def card_name(rank: str) -> str:
    """A rank's name as the player reads it: Chinese ("转移(0-4)"), or English ("Transfer ≤4")."""
    if _english:
        face = EXTENDED_BY_RANK.get(rank)
        return face.en if face is not None else rank
    return zh(rank)


LABEL_CELLS = 7
"""Cells of the widest label with its colour letter ("Y紧箍咒")."""

RANK_ORDER: tuple[str, ...] = (*(str(n) for n in range(10)), *(f.rank for f in EXTENDED_CARDS))


def label(card: Card) -> str:
    """The card on a chip: its colour letter and short label ("R7", "Y紧箍咒", "手榴弹")."""
    return notation(card["color"], (EN_LABELS if _english else LABELS).get(card["rank"], card["rank"]))


def pad(text: str, width: int, how: str = "center") -> str:
    """``text`` padded to ``width`` terminal cells (CJK characters count two)."""
    gap = max(0, width - cell_len(text))
    if how == "left":
        return text + " " * gap
    if how == "right":
        return " " * gap + text
    return " " * (gap // 2) + text + " " * (gap - gap // 2)


def sort_key(card: Card) -> tuple[int, int, int]:
    rank = RANK_ORDER.index(card["rank"]) if card["rank"] in RANK_ORDER else len(RANK_ORDER)
    return (SUITS.index(suit(card)), rank, card["id"])


def gloss(card: Card) -> str:
    """What a card does, in a line: "red 夹子 Clip: take two cards at random from the next player"."""
    face = EXTENDED_BY_RANK.get(card["rank"])
    words = extended_card_words(dict(card))
    if _english:
        words = english_names(words)
    if face is None:
        return f"{words}: a number card"
    return f"{words}: {face.gloss}"


CHIP_WIDTH = LABEL_CELLS + 2
CHIP_HEIGHT = 3


def ext_chip(card: Card, palette: dict[str, Style], *, playable: bool, selected: bool) -> list[Text]:
    """A 3-row chip wide enough for a Chinese label: filled when playable, an outline when not."""
    s = suit(card)
    face = palette[s]
    fill = face if playable else Style(color=face.bgcolor if s != "wild" else palette["rim"].color)
    if selected:
        fill = fill + Style(bold=True)
    wild = s == "wild"
    tl, tr, bl, br, h, v = ("┏", "┓", "┗", "┛", "━", "┃") if selected else ("╭", "╮", "╰", "╯", "─", "│")
    inner = CHIP_WIDTH - 2
    top, mid, bot = Text(no_wrap=True), Text(no_wrap=True), Text(no_wrap=True)
    for i, ch in enumerate(tl + h * inner + tr):
        top.append(ch, _rim(fill, palette, wild, i))
    mid.append(v, _rim(fill, palette, wild, 3))
    mid.append(pad(label(card), inner), fill + Style(bold=True))
    mid.append(v, _rim(fill, palette, wild, 1))
    for i, ch in enumerate(bl + h * inner + br):
        bot.append(ch, _rim(fill, palette, wild, i + 2))
    return [top, mid, bot]


def ext_inline(card: Card, palette: dict[str, Style], *, width: int = LABEL_CELLS + 1,
               playable: bool = True) -> Text:
    """A one-line card: its label on its colour, ``width`` cells."""
    s = suit(card)
    style = palette[s] + Style(bold=True)
    if not playable:
        style = Style(color=palette[s].bgcolor if s != "wild" else palette["rim"].color, bold=True)
    return Text(pad(label(card), width), style, no_wrap=True)


def card_back_text(count: int, style: Style) -> Text:
    """Face-down cards riding on a transfer: one ▮ each."""
    return Text("▮" * count if count else "·", style)


EXTENDED_PAINTING = CardPainting(chip=ext_chip, inline=ext_inline, order=sort_key)
"""The extended rules' cards: chips wide enough for a Chinese label (``ExtendedFace.card_painting``)."""


__all__ = ["EXTENDED_PAINTING", "CHIP_HEIGHT", "CHIP_WIDTH", "EN_LABELS", "LABELS", "card_name", "english", "use_english", "ext_chip", "ext_inline",
           "gloss", "label", "pad", "sort_key", "zh"]
