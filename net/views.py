"""What each peer is sent of the game: its view (whole, or a patch to the one it holds) and the events.

Pure functions of the table's views and of what a peer was sent before: the
gateway (:mod:`net.gateway`) calls them for every peer after every change.
Hidden cards enter a view only through :meth:`core.Game.private_observation`
and :meth:`core.Event.view` (the engine's one place for it); here the table's
public part is shared by every peer and its patch made once.
"""

from __future__ import annotations

from typing import Any, Iterator

import msgpack

from core import Event

from . import patch
from .messages import MAX_HISTORY_CHUNK

HISTORY_BYTES = 24 * 1024
"""About the packed size of one ``history`` message: one frame from the host holds it with room to spare."""

View = dict[str, Any]
Sent = tuple[View, View]
"""A view as last sent on a link: (its public part, its peer's own part)."""


def shared_patch(last: View | None, public: View) -> tuple[View, View] | None:
    """The previous public part and the patch from it to ``public``: made once for every peer holding it."""
    if last is None:
        return None
    return last, patch.diff(last, public, last["version"])


def view_for(sent: Sent | None, public: View, private: View,
             shared: tuple[View, View] | None = None) -> tuple[str, View]:
    """A peer's view now: ``("obs", whole view)``, or ``("patch", what changed)`` since ``sent``.

    ``public``/``private``: :meth:`core.Game.public_observation` and the peer's
    :meth:`core.Game.private_observation` of this state; ``shared``: :func:`shared_patch`.
    The peer then holds ``(public, private)``.
    """
    if sent is None:
        return "obs", {**public, **private}
    old_public, old_private = sent
    base = old_public["version"]
    if shared is not None and shared[0] is old_public:
        public_patch = shared[1]
    else:
        public_patch = patch.diff(old_public, public, base)
    return "patch", patch.merge(public_patch, patch.diff(old_private, private, base))


def events_for(seat: int | None, events: list[Event], public: list[dict[str, Any]] | None = None
               ) -> list[dict[str, Any]]:
    """``events`` as ``seat`` may see them (``public``: as everyone sees them, when built already:
    only events with hidden cards differ from one peer to the next)."""
    if public is None:
        return [e.view(seat).to_dict() for e in events]
    return [d if e.visible_to is None else e.view(seat).to_dict() for e, d in zip(events, public)]


def history_messages(events: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The round so far (``events``, as the joining peer may see them) in ``history`` messages, each
    well under a frame: a whole round, however long, reaches a peer that joins mid-round."""
    chunk: list[dict[str, Any]] = []
    size = 0
    for ev in events:
        n = len(msgpack.packb(ev, use_bin_type=True))
        if chunk and (size + n > HISTORY_BYTES or len(chunk) >= MAX_HISTORY_CHUNK):
            yield {"type": "history", "events": chunk}
            chunk, size = [], 0
        chunk.append(ev)
        size += n
    if chunk:
        yield {"type": "history", "events": chunk}


def update_message(version: int, key: str, view: View, events: list[dict[str, Any]], *, actor: int | None,
                   auto: bool, seq: int | None = None) -> dict[str, Any]:
    """The ``update`` message (see ``docs/protocol.md``): ``key`` is ``obs`` or ``patch``."""
    msg: dict[str, Any] = {"type": "update", "version": version, key: view, "events": events,
                           "actor": actor, "auto": auto}
    if seq is not None:
        msg["seq"] = seq
    return msg
