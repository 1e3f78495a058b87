"""The deck a sealed table deals, as values of the group: its tag, and its table made ahead."""

from __future__ import annotations

import contextlib
import threading
from typing import Any

import core

from ..sealed.codec import make_ahead


def deck_tag(variant: str) -> bytes:
    """What separates one variant's card values from another's (:class:`~net.sealed.CardCodec`)."""
    return f"uno-tui/{variant}".encode()


def deck_ahead(variant: object, players: object, options: object) -> threading.Thread | None:
    """Make the card values of the deck a table of ``players`` will deal, in a thread, while it waits
    for them (what a lobby frame says: the host's word, so anything it cannot be is ignored). The
    thread, or None if there is nothing to make."""
    if not isinstance(variant, str) or not isinstance(players, int) or not 2 <= players <= 16 \
            or not isinstance(options, (dict, type(None))):
        return None
    try:
        n = len(core.deck(variant, num_players=players, options=options or {}))
    except (ValueError, TypeError, KeyError):  # not a variant, or options it does not have
        return None
    made = make_ahead(n, deck_tag(variant))
    if made is not None:  # the first ask in this process: the engine's deck and deal too
        threading.Thread(target=_deal_ahead, args=(variant, players, options), name="sealed-engine",
                         daemon=True).start()
    return made


def _deal_ahead(variant: str, players: int, options: dict[str, Any] | None) -> None:
    """Make a sealed deal of ``variant`` once, for nothing but what it leaves made: the deck's cards
    and their plays (built once a process), and the code a deal runs through, which every peer would
    otherwise first run at the table's first deal, all at once on the same cores."""
    with contextlib.suppress(ValueError, TypeError, KeyError):  # the host's word: anything it cannot be
        need, _ = core.new_game_stop(variant, players, options=options, sealed=True)
        if need is not None:
            core.new_game_stop(variant, players, options=options, settled=[(need, None)], sealed=True)
