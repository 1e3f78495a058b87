"""The face of UNO 扩展规则 (``extended``): its table of phases, effects and chains, its words, help
and round summary, and its cards' Chinese (or English) names.

Where it lives: ``table.py`` (the table screen, its keys and pickers), ``widgets.py`` (the seats with
their effects, the table, what is asked of you, the hand with the gloss), ``cards.py`` (labels that fit
a chip, in Chinese or English), ``words.py`` (what is going on, the keys, every move in words),
``english.py`` (the Chinese names in English), ``help.py``, ``round_over.py``. What it reads of the engine's card table is in ``faces/core_words.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ..face import Face, HelpPage, Observation

if TYPE_CHECKING:
    from ...widgets.cards import CardPainting
    from .round_over import ExtendedSummary
    from .table import ExtendedTableScreen


class ExtendedFace(Face):
    """UNO 扩展规则 5.2.3: judgement, draw and play phases, effect priorities, duels, chains."""

    variant = "extended"
    title = "UNO 扩展规则"
    blurb = "UNO 扩展规则 5.2.3: 153 cards, judgement/draw/play phases, effects, duels, grenades, C4."
    english_names = True
    english_title = "UNO Extended rules"
    target_scores = (5, 10, 15, 20, 30, 50)  # a winner scores the players still in: small numbers

    def table_screen(self) -> type[ExtendedTableScreen]:
        from .table import ExtendedTableScreen

        return ExtendedTableScreen

    def help_page(self, options: dict[str, Any]) -> HelpPage:
        from .help import page

        return page()

    def round_summary(self, obs: Observation, names: Sequence[str]) -> ExtendedSummary:
        from .round_over import ExtendedSummary

        return ExtendedSummary(obs, names)

    def card_painting(self) -> CardPainting:
        from .cards import EXTENDED_PAINTING

        return EXTENDED_PAINTING

    def status_line(self, obs: Observation, names: Sequence[str], deals: bool = True) -> str:
        from .words import key_hints, shown

        return shown(key_hints(obs, deals))

    def status_flags(self, obs: Observation) -> tuple[bool, bool]:
        from .words import status_flags

        return status_flags(obs)

    def in_english(self, text: str) -> str:
        from .english import english_names

        return english_names(text)
