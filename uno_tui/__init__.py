"""uno-tui: the terminal table (Textual) on top of the :mod:`core` rules engine.

Importing this package stays cheap: Textual is imported only by the modules
that draw (``uno_tui.app`` and below), so ``uno-tui simulate`` never loads it.
"""

__version__ = "0.1.0"
