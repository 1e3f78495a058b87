"""Playing over the network in the terminal: ``uno-tui host`` and ``uno-tui join``.

* :mod:`.session` - :class:`NetSession`, the :class:`uno_tui.session.Session`
  of a seat at a remote table (a :class:`net.Client` underneath).
* :mod:`.app` - :class:`NetApp`: the connect screen (LAN browsing or an
  address), the lobby, then the table; :func:`run_join` and
  :func:`run_interactive_host` are what ``uno-tui join`` / ``uno-tui host`` run.

Textual is imported only by the screens, never by this package's ``__init__``,
so ``uno-tui --help`` stays fast.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    # ``from uno_tui.netplay import NetApp`` works, and loads Textual only then.
    if name == "NetApp":
        from .app import NetApp

        return NetApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
