"""The screens every game shares: the table's base, the new-game screen, the pickers and the modals.

Each game's own table screen is with its face (``uno_tui/faces/<variant>/table.py``);
:func:`table_screen_for` finds the one for a session.
"""

from __future__ import annotations

from ..faces import table_screen_for
from .help import HelpScreen
from .new_game import NewGameChoice, NewGameScreen
from .pickers import ActionMenu, ChoicePicker, ColorPicker, ListPicker, TargetPicker
from .round_over import RoundOverChoice, RoundOverScreen
from .table import TableScreen

__all__ = [
    "ActionMenu", "ChoicePicker", "ColorPicker", "HelpScreen", "ListPicker", "NewGameChoice", "NewGameScreen",
    "RoundOverChoice", "RoundOverScreen", "TableScreen", "TargetPicker", "table_screen_for",
]
