"""The deck a sealed table deals, as values of the group: its tag, and its table made ahead."""

from __future__ import annotations

import threading

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
    return make_ahead(n, deck_tag(variant))
