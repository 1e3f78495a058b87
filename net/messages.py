"""Message schemas of the uno-tui protocol, and their validation.

Every message is a map with a string ``type``. Each type has a schema naming
its fields, their types, ranges and whether they are required; a message
with an unknown type, an unknown field, a missing field or a value of the
wrong type or out of range is refused before anything acts on it. Every
message may also carry ``sig`` (bytes). Protocol version 2 runs every link
through the secure handshake (``hs1``/``hs2``/``auth``, see :mod:`net.secure`)
and signs what enters the table's transcript (``signed`` from a peer,
``log``/``deliver``/``ruling`` from the host, see :mod:`net.fair`).

The version is negotiated once, in ``hello``/``welcome``/``refuse``; those
three keep their ``v`` field in every future version so that a mismatch can
always be told to both sides in words. See ``docs/protocol.md``.
"""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

import msgpack

from core import Action

from .errors import NetError

PROTOCOL_VERSION = 7
"""Bumped whenever a message changes shape or meaning."""

MAX_NAME = 24
MAX_CHAT = 300
MAX_SIG = 512
MAX_SEQ = 2**53  # a JSON-safe integer: sequence numbers and state versions
MAX_SEATS = 10
MAX_SIGNED = 8 * 1024
"""A peer's signed message (intent, seed commitment, reveal, receipt, verdict) on the wire.
Each kind is bounded far tighter by :data:`SIGNED_SCHEMAS`."""
MAX_ENTRY = 60 * 1024
"""A host's log entry (the deck commitments of 168 cards are about 6 KiB)."""
MAX_WORD = 32
"""An action's kind or colour, a verdict's code."""
MAX_WHY = 200
"""A verdict's reason, as its player wrote it."""
MAX_TARGET = 64
"""An action's target: a seat, or a pile in the variants that have several."""
MAX_HISTORY_CHUNK = 200
"""Events in one ``history`` message (the round so far, told to a peer joining mid-round, in several)."""
MAX_HISTORY = 20_000
"""Events of history a client keeps for the update that follows them (a round has a few hundred)."""
MAX_RECEIPT = 200
"""Cards acknowledged by one receipt (no delivery holds more than a deck)."""


class MessageError(NetError, ValueError):
    """A message that does not fit its schema."""


@dataclass(frozen=True)
class F:
    """One field: accepted types, whether required, bounds and allowed values.

    ``lo``/``hi`` bound a number's value or a string's, bytes' or list's length.
    """

    types: tuple[type, ...]
    required: bool = True
    lo: float | None = None
    hi: float | None = None
    choices: tuple[Any, ...] | None = None
    nullable: bool = False


def _f(*types: type, **kw: Any) -> F:
    return F(types, **kw)


INT, NUM = (int,), (int, float)

_COMMON = {"type": _f(str), "sig": _f(bytes, required=False, hi=MAX_SIG)}

CLIENT_SCHEMAS: dict[str, dict[str, F]] = {
    "hs1": {
        "v": _f(int, lo=0, hi=65535),
        "id": _f(bytes, lo=32, hi=32),
        "eph": _f(bytes, lo=32, hi=32),
        "nonce": _f(bytes, lo=16, hi=64),
        "pake": _f(bytes, required=False, lo=33, hi=33),
    },
    "auth": {"sig": _f(bytes, lo=64, hi=64)},
    "signed": {"m": _f(bytes, lo=1, hi=MAX_SIGNED), "sig": _f(bytes, lo=64, hi=64)},
    "hello": {
        "v": _f(int, lo=0, hi=65535),
        "name": _f(str, lo=1, hi=64),
        "role": _f(str, required=False, choices=("player", "spectator")),
        "token": _f(str, required=False, lo=1, hi=128),
        "password": _f(str, required=False, hi=256),
        "client": _f(str, required=False, hi=64),
        "log_have": _f(int, required=False, lo=0, hi=MAX_SEQ),
    },
    "ready": {"ready": _f(bool)},
    "chat": {"text": _f(str, lo=1, hi=MAX_CHAT)},
    "ping": {"t": _f(int, float, required=False)},
    "pong": {"t": _f(int, float, required=False)},
    "bye": {"reason": _f(str, required=False, hi=200)},
}
"""What a client may send to the host."""

HOST_SCHEMAS: dict[str, dict[str, F]] = {
    "hs2": {"v": _f(int, lo=0, hi=65535), "body": _f(bytes, hi=512), "sig": _f(bytes, lo=64, hi=64)},
    "log": {"e": _f(bytes, lo=1, hi=MAX_ENTRY), "sig": _f(bytes, lo=64, hi=64)},
    "deliver": {"m": _f(bytes, lo=1, hi=MAX_ENTRY), "sig": _f(bytes, lo=64, hi=64)},
    "ruling": {"m": _f(bytes, lo=1, hi=MAX_ENTRY), "sig": _f(bytes, lo=64, hi=64)},
    "sync": {"len": _f(int, lo=0, hi=MAX_SEQ), "head": _f(bytes, hi=32)},
    "welcome": {
        "v": _f(int, lo=0, hi=65535),
        "seat": _f(int, lo=0, hi=MAX_SEATS - 1, nullable=True),
        "token": _f(str, hi=128, nullable=True),
        "role": _f(str, choices=("player", "spectator")),
        "name": _f(str, hi=64),
        "host": _f(str, hi=64),
        "heartbeat": _f(int, float, lo=0.01, hi=3600),
        "fp": _f(str, required=False, hi=64),
    },
    "refuse": {"v": _f(int, lo=0, hi=65535), "code": _f(str, hi=32), "reason": _f(str, hi=500)},
    "lobby": {
        "phase": _f(str, choices=("lobby", "playing", "round_over", "finished")),
        "host": _f(str, hi=64),
        "variant": _f(str, hi=32),
        "options": _f(dict),
        "seats": _f(list, hi=MAX_SEATS),
        "spectators": _f(int, lo=0),
        "rounds": _f(int, lo=1, nullable=True),
        "rounds_played": _f(int, lo=0),
        "turn_timer": _f(int, float, nullable=True),
        "grace": _f(int, float),
        "password": _f(bool),
        "fp": _f(str, required=False, hi=64),
    },
    "update": {
        "version": _f(int, lo=0, hi=MAX_SEQ),
        "obs": _f(dict, required=False),
        "patch": _f(dict, required=False),
        "events": _f(list),
        "actor": _f(int, lo=0, hi=MAX_SEATS - 1, nullable=True, required=False),
        "auto": _f(bool, required=False),
        "seq": _f(int, lo=0, hi=MAX_SEQ, required=False),
    },
    "history": {"events": _f(list, lo=1, hi=MAX_HISTORY_CHUNK)},
    "reject": {
        "seq": _f(int, lo=0, hi=MAX_SEQ),
        "version": _f(int, lo=0, hi=MAX_SEQ),
        "code": _f(str, hi=32),
        "reason": _f(str, hi=500),
    },
    "error": {"code": _f(str, hi=32), "reason": _f(str, hi=500), "fatal": _f(bool)},
    "chat": {
        "from": _f(str, hi=64),
        "seat": _f(int, lo=0, hi=MAX_SEATS - 1, nullable=True),
        "text": _f(str, hi=MAX_CHAT),
    },
    "end": {
        "reason": _f(str, hi=64),
        "scores": _f(list, hi=MAX_SEATS, nullable=True),
        "winner": _f(int, lo=0, hi=MAX_SEATS - 1, nullable=True),
    },
    "ping": {"t": _f(int, float, required=False)},
    "pong": {"t": _f(int, float, required=False)},
    "bye": {"reason": _f(str, required=False, hi=200), "closed": _f(bool, required=False)},
}
"""What the host may send to a client (clients check these too: a host can be hostile)."""


_SIGNED_COMMON = {
    "k": _f(str, hi=MAX_WORD), "g": _f(bytes, hi=32), "seat": _f(int, lo=0, hi=MAX_SEATS - 1),
    "n": _f(int, lo=0, hi=MAX_SEQ), "h": _f(bytes, lo=32, hi=32),
}
_EPOCH = {"e": _f(int, lo=0, hi=MAX_SEQ), "a": _f(int, lo=0, hi=MAX_SEQ)}
_HASH = _f(bytes, lo=32, hi=32)
SIGNED_SCHEMAS: dict[str, dict[str, F]] = {
    "intent": {"seq": _f(int, lo=0, hi=MAX_SEQ), "v": _f(int, lo=0, hi=MAX_SEQ), "act": _f(dict, hi=4)},
    "seed": {**_EPOCH, "root": _HASH, "d": _HASH},
    "ack": {**_EPOCH, "set": _HASH},
    "reveal": {**_EPOCH, "r": _HASH},
    "rcpt": {"cards": _f(list, lo=1, hi=MAX_RECEIPT), "x": _HASH},
    "verdict": {"r": _f(int, lo=0, hi=MAX_SEQ), "ok": _f(bool), "code": _f(str, hi=MAX_WORD),
                "why": _f(str, hi=MAX_WHY)},
}
"""What a seated player signs (``signed.m``, a msgpack map ``{k, g, seat, n, h, ...}``), kind by kind.

Every field is bounded, so no log entry the host builds from them can outgrow
a frame; a message with a field too many or too few is refused."""


def _check_value(name: str, spec: F, value: Any) -> None:
    if value is None:
        if spec.nullable:
            return
        raise MessageError("bad_field", f"field {name!r} may not be empty")
    # bool is an int in Python; on the wire they are different things.
    if isinstance(value, bool) and bool not in spec.types:
        raise MessageError("bad_field", f"field {name!r} has the wrong type (bool)")
    if not isinstance(value, spec.types):
        want = " or ".join(t.__name__ for t in spec.types)
        raise MessageError("bad_field", f"field {name!r} must be {want}, not {type(value).__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise MessageError("bad_field", f"field {name!r} must be a finite number")
    measure: float | None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        measure = value
    elif isinstance(value, (str, bytes, list, dict)):
        measure = len(value)
    else:
        measure = None
    if measure is not None:
        if spec.lo is not None and measure < spec.lo:
            raise MessageError("bad_field", f"field {name!r} is too small or short")
        if spec.hi is not None and measure > spec.hi:
            raise MessageError("bad_field", f"field {name!r} is too large or long")
    if spec.choices is not None and value not in spec.choices:
        raise MessageError("bad_field", f"field {name!r} must be one of {', '.join(map(str, spec.choices))}")


def validate(msg: Any, schemas: dict[str, dict[str, F]]) -> dict[str, Any]:
    """Check ``msg`` against ``schemas`` (:data:`CLIENT_SCHEMAS` or :data:`HOST_SCHEMAS`).

    Returns the message itself; raises :class:`MessageError` with a code
    (``bad_type``, ``unknown_type``, ``unknown_field``, ``missing_field``,
    ``bad_field``, ``bad_action``) and a reason fit to send back to the peer.
    """
    if not isinstance(msg, dict):
        raise MessageError("bad_type", "a message must be a map")
    kind = msg.get("type")
    if not isinstance(kind, str):
        raise MessageError("bad_type", "a message needs a string 'type'")
    schema = schemas.get(kind)
    if schema is None:
        shown = kind if len(kind) <= 32 else kind[:32] + "..."
        raise MessageError("unknown_type", f"unknown message type {shown!r}")
    for key in msg:
        if key not in schema and key not in _COMMON:
            shown = str(key)[:32]
            raise MessageError("unknown_field", f"{kind}: unknown field {shown!r}")
    for name, spec in _COMMON.items():
        if name in msg:
            _check_value(name, spec, msg[name])
    for name, spec in schema.items():
        if name not in msg:
            if spec.required:
                raise MessageError("missing_field", f"{kind}: missing field {name!r}")
            continue
        _check_value(name, spec, msg[name])
    if kind == "update" and ("obs" in msg) == ("patch" in msg):
        raise MessageError("bad_field", "update: needs either 'obs' or 'patch'")
    return msg


def validate_signed(d: Any) -> tuple[dict[str, Any], Action | None]:
    """Check a signed message's content against :data:`SIGNED_SCHEMAS`; raises :class:`MessageError`.

    Returns it, and for an intent its action, made and bounded here once (the
    table checks the card against its deck: :func:`check_action`).
    """
    if not isinstance(d, dict):
        raise MessageError("bad_payload", "the signed message is not a map")
    kind = d.get("k")
    schema = SIGNED_SCHEMAS.get(kind) if isinstance(kind, str) else None
    if schema is None:
        raise MessageError("unknown_type", f"unknown signed message kind {str(kind)[:MAX_WORD]!r}")
    for key in d:
        if key not in schema and key not in _SIGNED_COMMON:
            raise MessageError("unknown_field", f"signed {kind}: unknown field {str(key)[:MAX_WORD]!r}")
    for fields in (_SIGNED_COMMON, schema):
        for name, spec in fields.items():
            if name not in d:
                raise MessageError("missing_field", f"signed {kind}: missing field {name!r}")
            _check_value(name, spec, d[name])
    action = None
    if kind == "intent":
        try:
            action = check_action(Action.from_dict(d["act"]))
        except ValueError as e:
            raise MessageError("bad_action", f"intent: {e}") from None
        if action.to_dict() != d["act"]:
            # The log holds the action as the host read it, and every audit holds it to the signed
            # intent: another spelling of it (an empty field spelt out) would frame the host.
            raise MessageError("bad_action", "intent: the action is not in its written form "
                                             "(no empty fields: {'kind': ..., 'card': ..., ...})")
    elif kind == "rcpt":
        for item in d["cards"]:
            if not (isinstance(item, list) and len(item) == 3
                    and all(type(x) is int and 0 <= x <= MAX_SEQ for x in item)):
                raise MessageError("bad_field", "rcpt: each card is [epoch, attempt, draw]")
    return d, action


def parse_signed(m: bytes) -> tuple[dict[str, Any], Action | None]:
    """A signed message's content ``m`` (msgpack): decoded, checked (:func:`validate_signed`), an
    intent's action made: the one parse it gets. Raises :class:`MessageError`."""
    try:
        d = msgpack.unpackb(m, raw=False, strict_map_key=False)
    except Exception:
        raise MessageError("bad_payload", "the signed message is not msgpack") from None
    return validate_signed(d)


def check_action(action: Action) -> Action:
    """An action's fields within bounds before any rule sees it; raises :class:`ValueError`.

    A card id is below :data:`MAX_SEQ` here (the table checks it against its deck:
    :func:`check_card`); a target names a seat or a pile: below :data:`MAX_TARGET`.
    Whether the action is legal is the rules' to say; this keeps what is plainly
    out of range from reaching them.
    """
    if not action.kind or len(action.kind) > MAX_WORD:
        raise ValueError(f"an action's kind has 1 to {MAX_WORD} characters")
    if action.color is not None and not 0 < len(action.color) <= MAX_WORD:
        raise ValueError(f"an action's colour has 1 to {MAX_WORD} characters")
    if action.card is not None and not 0 <= action.card < MAX_SEQ:
        raise ValueError(f"there is no card {action.card} in this deck")
    if action.target is not None and not 0 <= action.target < MAX_TARGET:
        raise ValueError(f"there is no target {action.target} at this table")
    return action


def check_card(action: Action, cards: int) -> None:
    """The card an action names is in a deck of ``cards`` (its bounds were checked on arrival)."""
    if action.card is not None and action.card >= cards:
        raise ValueError(f"there is no card {action.card} in this deck")


_ESCAPES = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-~])")
"""Terminal escape sequences: CSI (colours, clearing), OSC (titles, links) and the two-character ones."""


def clean_text(text: Any, limit: int = 500) -> str:
    """``text`` without control or format characters, whitespace collapsed, cut to ``limit``.

    Names, chat lines, reasons and verdicts end up on other people's terminals
    and in logs: an escape sequence in them must not reach a screen. This is
    the one cleaner: the host, the clients, the headless printer and the
    screens all use it. Anything that is not a string is shown as its ``str``.
    """
    if not isinstance(text, str):
        text = str(text)
    text = _ESCAPES.sub(" ", text)  # a whole escape sequence goes, not only its ESC
    kept = "".join(ch if unicodedata.category(ch)[0] not in "CZ" or ch == " " else " " for ch in text)
    return " ".join(kept.split())[:limit]


# -- constructors: the one place message shapes are spelt out on the sending side --

def hello(name: str, *, token: str | None = None, password: str | None = None,
          spectate: bool = False, version: int = PROTOCOL_VERSION) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": "hello", "v": version, "name": name,
                           "role": "spectator" if spectate else "player", "client": "uno-tui"}
    if token is not None:
        msg["token"] = token
    if password is not None:
        msg["password"] = password
    return msg


def refuse(code: str, reason: str) -> dict[str, Any]:
    return {"type": "refuse", "v": PROTOCOL_VERSION, "code": code, "reason": reason}


def error(code: str, reason: str, fatal: bool = False) -> dict[str, Any]:
    return {"type": "error", "code": code, "reason": reason[:500], "fatal": fatal}
