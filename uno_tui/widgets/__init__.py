"""Small widgets of the table, each fed by the observation through a reactive."""

from .hand import HandView
from .log import GameLog
from .pile import DiscardTrail, PileView
from .players import PlayersView
from .status import MatchBar, StatusLine

__all__ = ["DiscardTrail", "GameLog", "HandView", "MatchBar", "PileView", "PlayersView", "StatusLine"]
