"""Notifications that take as few rows as they can: the title joins the message on its line.

They show at the top right, over the match bar (see ``app.tcss``); a toast with its title on a
line of its own would reach down over the table's cards.
"""

from __future__ import annotations

from typing import Any

from textual.app import App


class OneLineNotices(App[Any]):
    """An App whose notifications put their title in front of the message ("Not now: ...")."""

    def notify(self, message: str, *, title: str = "", **kwargs: Any) -> None:  # type: ignore[override]
        if title:
            message = f"{title}: {message}"
        super().notify(message, **kwargs)
