"""The Diez rollout's vocabulary and the turn's plain steps (mirrors ``core/variants/diez/steps.py``).

Token kinds are their index in ``TOKEN_KINDS``, pile colours small codes, moves ints whose
kinds and string arguments are :data:`KINDS` and :data:`STRS`. A turn is a queue of *steps*,
plain dicts in the engine's own shape (so the state compares directly): here the draw step's
shape, the end of a turn, the return to a turn a catch interrupted, and helpers the decisions
and effects share.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...cards import COLORS
from ...variants.diez.cards import CHOICE_EFFECTS, STACKABLE_PROCS, TOKEN_KINDS
from ...variants.diez.decisions import AIMED_PROCS

if TYPE_CHECKING:
    from .game import DiezRollout

HEX, MAGNET, SILENCE, BLOCK, REVEAL, LINK, SNARE, MIRROR, ACE, DOUBLE, SUB, WHITE_TOKEN = range(12)
assert TOKEN_KINDS[WHITE_TOKEN] == "white" and TOKEN_KINDS[HEX] == "hex"
TOKEN_INDEX = {k: i for i, k in enumerate(TOKEN_KINDS)}
STACKABLE = frozenset(TOKEN_INDEX[k] for k in STACKABLE_PROCS)
STACKABLE_ORDER = tuple(TOKEN_INDEX[k] for k in STACKABLE_PROCS)
AIMED = frozenset(TOKEN_INDEX[k] for k in AIMED_PROCS)

NOCOL = 7
"""The pile colour code of "no colour" (after a Blank, or a black card before it names one)."""

KINDS = ("play", "draw", "pass", "uno", "catch", "challenge", "stop", "draw_token", "replace", "color",
         "effect", "target", "remove", "give", "take", "drop", "stitch", "discard", "proc")
(K_PLAY, K_DRAW, K_PASS, K_UNO, K_CATCH, K_CHALLENGE, K_STOP, K_DRAW_TOKEN, K_REPLACE, K_COLOR,
 K_EFFECT, K_TARGET, K_REMOVE, K_GIVE, K_TAKE, K_DROP, K_STITCH, K_DISCARD, K_PROC) = range(len(KINDS))
STRS = COLORS + CHOICE_EFFECTS + TOKEN_KINDS
ARG = {s: i + 1 for i, s in enumerate(STRS)}
"""The ``arg`` field of a move naming each string (a colour, a Choice's effect, a token kind)."""
TOKEN_ARG = 1 + len(COLORS) + len(CHOICE_EFFECTS)


def draw_step(who: int, n: int = 0, *, until: str | None = None, forced: bool = False,
              reason: str = "penalty") -> dict[str, Any]:
    """A draw step: ``n`` cards, or with ``until`` cards until that colour comes and then ``n`` more."""
    return {"op": "draw", "who": who, "n": n, "until": until, "forced": forced, "reason": reason,
            "stage": "start", "got": [], "stopped": False, "counted": 0, "double": False, "hex": 0}


def copy_step(s: dict[str, Any]) -> dict[str, Any]:
    """A step's copy (its only nested values are flat lists of ints)."""
    return {k: (v[:] if type(v) is list else v) for k, v in s.items()}


def distinct(r: DiezRollout, cards: list[int]) -> list[int]:
    face = r.T.face
    seen: set[int] = set()
    out = []
    for c in cards:
        f = face[c]
        if f not in seen:
            seen.add(f)
            out.append(c)
    return out


def start_end(r: DiezRollout, s: dict) -> bool:
    p = s["who"]
    if s.get("play") and not r.hands[p] and not s.get("drew"):
        s["drew"] = True
        r.queue.insert(0, draw_step(p, 2, reason="last"))
        return False
    r.queue.pop(0)
    if len(r.hands[p]) != 1:
        r.declared[p] = False
    r.current = r._next(p) if s["to"] is None else s["to"]
    r.phase = s["phase"]
    r.drawn = None
    if r.phase != "stack":
        r.pending = None
    return False


def start_resume(r: DiezRollout, s: dict) -> bool:
    r.queue.pop(0)
    r.current, r.phase, r.drawn = s["who"], s["phase"], s["drawn"]
    return False


def start_wait(r: DiezRollout, s: dict) -> bool:
    """A decision step comes up: wait for its player."""
    return r._wait(s)


def searchable(r: DiezRollout, s: dict) -> list[int]:
    if s["where"] == "draw":
        return distinct(r, r.draw[::-1])
    black = r.T.is_black
    return distinct(r, [c for c in r.piles[s["where"]][:-1][::-1] if not black[c]])


START = {"end": start_end, "resume": start_resume}
"""What the plain steps do when they come up (True: wait for a decision)."""
