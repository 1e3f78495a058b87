"""The faces: how each game the engine plays looks and reads on the screen, one package a game.

=============  ================================  =============================================
variant        its face                          drawn on
=============  ================================  =============================================
``classic``    ``uno_tui/faces/classic/``        the UNO table (``faces/classic/table.py``)
``nomercy``    ``uno_tui/faces/nomercy/``        the UNO table (classic's)
``wildrawz``   ``uno_tui/faces/wildrawz/``       the trick table (``faces/wildrawz/table.py``)
``diez``       ``uno_tui/faces/diez/``           the Diez table (``faces/diez/table.py``)
``extended``   ``uno_tui/faces/extended/``       the extended table (``faces/extended/table.py``)
=============  ================================  =============================================

:data:`FACES` is the registry, in the order the new-game screen offers the games; a face's
hooks are in :class:`~uno_tui.faces.face.Face`. Importing this package loads no Textual: a
face's screens are imported when its table opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .classic import ClassicFace, StrangerFace
from .diez import DiezFace
from .extended import ExtendedFace
from .face import Face, HelpPage, HelpSection, RoundSummary
from .nomercy import NoMercyFace
from .wildrawz import WildRawzFace

if TYPE_CHECKING:
    from ..screens.table import TableScreen
    from ..session import Session

FACES: dict[str, Face] = {face.variant: face for face in (
    ClassicFace(), NoMercyFace(), WildRawzFace(), DiezFace(), ExtendedFace())}
"""Every game the screen can draw, by variant name, in the order they are offered."""

TABLE_VARIANTS: tuple[str, ...] = tuple(FACES)
"""The variants the tables can draw and drive, in the order offered."""


def face_for(variant: str) -> Face:
    """The face of ``variant``; a game with no face of its own is drawn on the UNO table, by its name."""
    return FACES.get(variant) or StrangerFace(variant)


def variant_title(variant: str) -> str:
    """How the screen names ``variant`` ("Classic UNO", "UNO 扩展规则")."""
    return face_for(variant).title


def table_screen_for(session: Session, *, pacing: tuple[float, float] = (0.6, 0.9)) -> TableScreen:
    """The table that draws the session's game (local or over the network)."""
    face = face_for(session.observation()["variant"])
    return face.table_screen()(session, face=face, pacing=pacing)  # type: ignore[return-value]


__all__ = ["FACES", "TABLE_VARIANTS", "Face", "HelpPage", "HelpSection", "RoundSummary", "face_for",
           "table_screen_for", "variant_title"]
