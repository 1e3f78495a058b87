"""The one place the screen reads a variant's own words and card tables from the engine.

The screen talks to the engine through ``core``'s public API (observations, events, ``describe``,
``Card.name``). A few things the extended rules' screen needs are, for now, only in the variant's
own modules: the card table (Chinese and English names, glosses) and the words of its cards and
effects. Reading them here, and nowhere else, keeps the rest of ``uno_tui`` off ``core.variants``:
when ``core`` exports them through a public function, this module is the only one to change.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from core.variants.extended import words as _ext_words
from core.variants.extended.cards import TABLE as _EXT_TABLE


class CardFace(NamedTuple):
    """One face of a variant's card table, as the screen uses it."""

    rank: str
    """The rank as the engine names it (``"CLIP"``, ``"WGREN"``)."""
    zh: str
    """The card's Chinese name, safe for a terminal (no ambiguous-width characters)."""
    en: str
    """The card's English name ("Clip", "Grenade")."""
    where: str
    """``"each"`` (that many per colour), ``"black"``, or the one colour it comes in."""
    copies: int
    """Copies per colour (``"each"``), or in all."""
    gloss: str
    """What it does, in a line."""


EXTENDED_CARDS: tuple[CardFace, ...] = tuple(
    CardFace(f.rank, _ext_words.zh(f.rank), f.en, f.where, f.copies, f.gloss) for f in _EXT_TABLE)
"""The extended rules' action cards, in the order of the source's table."""

EXTENDED_BY_RANK: dict[str, CardFace] = {f.rank: f for f in EXTENDED_CARDS}

_EXT_SOURCE_ZH: dict[str, str] = {f.zh: f.en for f in _EXT_TABLE}
"""The source's own Chinese names (with ≤ and ≥) to English, for log lines that carry them."""


def extended_zh(rank: str) -> str:
    """An extended card's Chinese name, safe for a terminal ("转移(0-4)"); a number stays itself."""
    return _ext_words.zh(rank)


def extended_card_words(card: dict[str, Any]) -> str:
    """An extended card in the log's words: "red 夹子 Clip", "手榴弹 Grenade", "green 7"."""
    return _ext_words.card_words(card)


def extended_effect_words(kind: str | None) -> str:
    """An extended effect kind in words: "缴械 Disarm", "draw effect"."""
    return _ext_words.effect_words(kind)


def extended_english_names() -> dict[str, str]:
    """Every Chinese card name the extended log may write, to its English name."""
    return {f.zh: f.en for f in EXTENDED_CARDS} | _EXT_SOURCE_ZH
