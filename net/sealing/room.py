"""What a sealed table's links carry beside the signed log: the waiting room, chat, and the client's
check of the host's ``start``.

None of it decides a card. The waiting room (``lobby``) tells everyone who holds which seat before
the deal; a chat line (``chat``) goes from one person to everyone, cleaned by the host and again by
every client before a terminal shows it; both are the host's word, like the open table's lobby.
The ``start`` message is where the host names the table (the roster of identity keys, who holds
each seat, the seats' names): a client checks it whole before it builds its replica, so a host
that sends lists of the wrong length or a seat held by nobody is refused in words, not followed
into an ``IndexError`` later.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import core

from ..errors import NetError
from ..messages import MAX_CHAT, MAX_NAME, clean_text

MAX_SEATS = 32
"""Seats a ``lobby`` frame may list (more than any variant has): the rest is not shown."""
CHAT_BURST = 5
"""Chat lines a person may send at once."""
CHAT_EVERY = 1.0
"""Seconds after which one more line is allowed (up to :data:`CHAT_BURST`). A line over the limit is
dropped and counted against the link as a refused message (:data:`net.sealing.relay.MAX_REFUSED`
of them close it): a flood costs the host a clean-up of each line, never the others' screens."""


class StartRefused(NetError):
    """The host's ``start`` does not describe a table this client can play (code ``start``)."""

    def __init__(self, reason: str) -> None:
        super().__init__("start", reason, message=f"the host's start is refused: {reason}")


class ChatBrake:
    """One link's allowance of chat lines (a token bucket: :data:`CHAT_BURST`, one more each
    :data:`CHAT_EVERY` seconds)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.tokens = float(CHAT_BURST)
        self.stamp = clock()

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(float(CHAT_BURST), self.tokens + (now - self.stamp) / CHAT_EVERY)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def chat_line(sender: str, text: Any) -> dict[str, Any] | None:
    """The chat frame the host relays for ``text`` from ``sender`` (None: nothing left to say)."""
    cleaned = clean_text(text, MAX_CHAT) if isinstance(text, str) else ""
    if not cleaned:
        return None
    return {"k": "chat", "from": clean_text(sender, MAX_NAME), "text": cleaned}


def heard(msg: dict[str, Any]) -> tuple[str, str]:
    """A chat frame as a client shows it: ``(who, what)``, both cleaned again (the host's word is
    not trusted to have done it)."""
    return clean_text(msg.get("from") or "?", MAX_NAME), clean_text(msg.get("text") or "", MAX_CHAT)


def clean_lobby(msg: dict[str, Any]) -> dict[str, Any] | None:
    """A ``lobby`` frame as a client may show it: every field of the shape the lobby screen reads,
    typed and cleaned (the host's word is not trusted to have done it); None for one too broken to show."""
    seats = msg.get("seats")
    if not isinstance(seats, list) or not seats:
        return None

    def number(v: Any) -> float | None:
        return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0 else None

    out_seats = []
    for q, s in enumerate(seats[:MAX_SEATS]):
        if not isinstance(s, dict):
            return None
        kind = s.get("kind") if s.get("kind") in ("human", "bot", "open") else "open"
        out_seats.append({"seat": q, "kind": kind, "name": clean_text(s.get("name") or "", MAX_NAME),
                          "ready": True, "away": False, "bot_plays": False})
    options = msg.get("options") if isinstance(msg.get("options"), dict) else {}
    rounds = msg.get("rounds")
    return {"phase": "lobby", "host": clean_text(msg.get("host") or "the host", MAX_NAME),
            "variant": clean_text(msg.get("variant") or "?", 20), "password": bool(msg.get("password")),
            "options": {clean_text(k, 40): v if isinstance(v, (bool, int)) else clean_text(v, 40)
                        for k, v in list(options.items())[:40]},
            "rounds": rounds if isinstance(rounds, int) and not isinstance(rounds, bool) and rounds > 0 else None,
            "turn_timer": number(msg.get("turn_timer")), "grace": number(msg.get("grace")) or 0.0,
            "spectators": int(number(msg.get("spectators")) or 0), "seats": out_seats, "sealed": True}


def lobby_text(msg: dict[str, Any]) -> str:
    """A ``lobby`` frame in one line: ``1: Ann | 2: open | 3: Bot 3 (bot)``."""
    lobby = clean_lobby(msg)
    if lobby is None:
        return "waiting room: (the host sent a room this client cannot show)"
    parts = [f"{s['seat'] + 1}: " + ("open" if s["kind"] == "open" else s["name"] + (" (bot)" if s["kind"] == "bot"
                                                                                    else ""))
             for s in lobby["seats"]]
    return "waiting room: " + " | ".join(parts)


def check_start(start: dict[str, Any], identity: bytes | None) -> None:
    """Refuse (:class:`StartRefused`) a ``start`` this client cannot play: every list as long as the
    table has seats, every seat held by a participant of the roster, the client's own identity in the
    roster under the number the host gave it (``identity`` None: a spectator, given none)."""
    variant = start.get("variant")
    if not isinstance(variant, str) or variant not in core.VARIANTS:
        raise StartRefused(f"the variant {clean_text(variant, 40)!r} is not one this client knows")
    cls = core.variant_class(variant)
    if not cls.sealable:
        raise StartRefused(f"{variant} cannot be played sealed")
    names, owners, roster = start.get("names"), start.get("owners"), start.get("roster")
    if not isinstance(names, list) or not isinstance(owners, list) or not isinstance(roster, list):
        raise StartRefused("it lacks the seats' names, their holders or the roster")
    if not cls.min_players <= len(names) <= cls.max_players:
        raise StartRefused(f"{len(names)} seats, but {variant} is for {cls.min_players} to {cls.max_players}")
    if len(owners) != len(names):
        raise StartRefused(f"it names {len(names)} seats but gives holders for {len(owners)}")
    if not all(isinstance(n, str) for n in names):
        raise StartRefused("a seat's name is not text")
    pids: dict[int, bytes] = {}
    for entry in roster:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], int)
                and isinstance(entry[1], bytes) and len(entry[1]) == 32) or entry[0] in pids:
            raise StartRefused("a roster entry is not a participant number and a 32-byte key, or is repeated")
        pids[entry[0]] = entry[1]
    if 0 not in pids:
        raise StartRefused("the host (participant 0) is not in the roster")
    if not all(isinstance(o, int) and not isinstance(o, bool) and o in pids for o in owners):
        raise StartRefused("a seat is held by no participant of the roster")
    if len(set(pids.values())) != len(pids):
        raise StartRefused("two participants share one identity key")
    if not isinstance(start.get("game"), bytes) or len(start["game"]) != 16:
        raise StartRefused("the game's id is not 16 bytes")
    rounds = start.get("rounds")
    if rounds is not None and not (isinstance(rounds, int) and not isinstance(rounds, bool) and rounds >= 1):
        raise StartRefused("the number of rounds is not a whole number from 1")
    timer = start.get("timer")
    if timer is not None and not (isinstance(timer, (int, float)) and not isinstance(timer, bool) and timer > 0):
        raise StartRefused("the turn timer is not a number of seconds above 0")
    if start.get("options") is not None and not isinstance(start["options"], dict):
        raise StartRefused("the variant's options are not a map")
    from core.bots import LEVELS

    if start.get("level") not in LEVELS:
        raise StartRefused(f"the bot level {clean_text(start.get('level'), 20)!r} is not one this client knows")
    pid = start.get("pid")
    if identity is None:
        if pid is not None:
            raise StartRefused("a spectator was given a participant number")
        return
    if not isinstance(pid, int) or pids.get(pid) != identity:
        raise StartRefused("this client's identity key is not in the roster under the number it was given")
    if pid not in owners:
        raise StartRefused("this client was given no seat")


__all__ = ["CHAT_BURST", "CHAT_EVERY", "ChatBrake", "StartRefused", "chat_line", "check_start", "clean_lobby",
           "heard", "lobby_text"]
