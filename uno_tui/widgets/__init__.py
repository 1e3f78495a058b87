"""The widgets every table shares, each fed by the observation through a reactive.

A game's own panels (its pile, its players, its trick) live with its face: ``uno_tui/faces/<variant>/``.
"""

from .bound import ObsWidget
from .cards import CardPainter
from .hand import HandView
from .log import GameLog, WrappingLog
from .players import SeatRows
from .status import MatchBar, StatusLine

__all__ = ["CardPainter", "GameLog", "HandView", "MatchBar", "ObsWidget", "SeatRows", "StatusLine", "WrappingLog"]
