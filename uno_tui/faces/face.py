"""A variant's face: everything the screen shows or says differently for one variant.

The engine plays five games; the screen draws each with a :class:`Face`. A face names the game
and describes it on the new-game screen, says which table screen draws it, what its help page
holds, how its round ends on screen and how its status line reads. The table screens, widgets
and modals shared by every game are given the face of the game they show; they never ask which
game it is.

Faces are cheap to import (no Textual): the command line lists them, and a face's screens load
only when its table opens. This module is the bottom of :mod:`uno_tui.faces`: it imports nothing
of the registry nor of any screen, so everything may depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Protocol, Sequence

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.widget import Widget

    from ..widgets.cards import CardPainting

Observation = dict[str, Any]
"""An observation as the engine gives it (``core.Game.observation``)."""

TARGET_SCORES: tuple[int, ...] = (100, 200, 250, 300, 500, 750, 1000, 1500, 2000)
"""The target scores the new-game screen offers (a face may offer others)."""


@dataclass(frozen=True)
class HelpSection:
    """One block of a help page: a heading over two columns (a term, then what it means)."""

    id: str
    """The block's widget id (``"help-keys"``, ``"help-rules"``, ...): its style in ``app.tcss``."""
    heading: str
    rows: Sequence[tuple[str, str]]


@dataclass(frozen=True)
class HelpPage:
    """What ``?`` shows at a table: the keys, the game in brief, and whatever else the game needs."""

    sections: tuple[HelpSection, ...]
    title: str = "Help"
    """The page's border title."""
    close: str = "esc, ? or q closes this help"
    """The last line: how to leave (and scroll) the page."""


class RoundSummary(Protocol):
    """What a round-over screen shows of the round; the screen adds the match's standing and the keys."""

    unit: str
    """What the match is counted in ("points", "rounds won")."""

    def headline(self) -> str:
        """The first line: who won the round and what it earned."""

    def compose_body(self) -> Iterable[Widget]:
        """The widgets under the headline: every hand, the breakdown of the round, ..."""

    def who(self, seat: int) -> str:
        """A seat as the viewer says it ("You" for their own)."""

    def together(self, seats: Sequence[int]) -> str:
        """Several seats in words ("Ada, Ben and You")."""


class Face:
    """How one variant looks and reads on the screen.

    A variant's face subclasses this and sets the class attributes; the hooks say where its
    screens are (imported when called) and put its observations into words. Hooks with a body
    here are optional; the others must be given.
    """

    variant: ClassVar[str] = ""
    """The engine's name of the variant (one of ``core.VARIANTS``)."""
    title: ClassVar[str] = ""
    """How the screen names the game ("Classic UNO", "Diez", "UNO 扩展规则")."""
    blurb: ClassVar[str] = ""
    """The game in a line, on the new-game screen."""
    english_names: ClassVar[bool] = False
    """The cards have names in another language, which ``--english`` shows in English instead."""
    english_title: ClassVar[str] = ""
    """How the table names the game for a player who asked for English ("" : as :attr:`title`)."""
    target_scores: ClassVar[tuple[int, ...]] = TARGET_SCORES
    """The target scores the new-game screen offers."""

    # -- screens (imported when asked for: they load Textual) -----------------------------------
    def table_screen(self) -> Callable[..., Screen[None]]:
        """The table screen class that draws this game (``cls(session, face=..., pacing=...)``)."""
        raise NotImplementedError

    def help_page(self, options: dict[str, Any]) -> HelpPage:
        """The help page for a table with these rule options."""
        raise NotImplementedError

    def round_summary(self, obs: Observation, names: Sequence[str]) -> RoundSummary:
        """What the round-over screen shows of the round just ended (``obs`` is the viewer's)."""
        raise NotImplementedError

    def card_painting(self) -> CardPainting:
        """How the game's cards are drawn: chips for the hand, one-line cards, the hand's order
        (the UNO deck's unless the game has cards of its own)."""
        from ..widgets.cards import UNO_CARDS

        return UNO_CARDS

    # -- words (pure functions of the observation) ----------------------------------------------
    def status_line(self, obs: Observation, names: Sequence[str], deals: bool = True) -> str:
        """What is going on and which keys matter now (``deals``: this seat deals the next round)."""
        raise NotImplementedError

    def status_flags(self, obs: Observation) -> tuple[bool, bool]:
        """How the status line is styled: (something is urgent, it is the viewer's turn)."""
        raise NotImplementedError

    def unused_intents(self, options: dict[str, Any]) -> frozenset[str]:
        """Intents the table has a key for that this game, with these options, never uses (the key
        leaves the footer): a Wild Draw Four nobody may challenge, say."""
        return frozenset()

    def rules_summary(self, options: dict[str, Any]) -> str:
        """The rule options in force, briefly, for the match bar ("" when none is worth a word)."""
        return ""

    def in_english(self, text: str) -> str:
        """``text`` with this game's names in its cards' own language (see :attr:`english_names`) in
        English alone: what its table shows a player who asked for English. Most games have none."""
        return text

    def log_text(self, text: str, *, english: bool = False) -> str:
        """A log line as this game's table writes it (``english``: the cards' English names only)."""
        return self.in_english(text) if english else text
