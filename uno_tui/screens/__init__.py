"""The screens: the table and the modals that stack on it."""

from .color_picker import ColorPicker
from .help import HelpScreen
from .round_over import RoundOverChoice, RoundOverScreen
from .table import TableScreen

__all__ = ["ColorPicker", "HelpScreen", "RoundOverChoice", "RoundOverScreen", "TableScreen"]
