"""Words every table uses: log lines in the second person, the engine's refusals, between rounds.

Everything here is a pure function of events and observations, so the wording can be tested
without a terminal. What one game says of its own (its status line, its moves in words) is in
that game's face: ``uno_tui/faces/<variant>/words.py``.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Sequence

from core import Event, describe

YOU = "You"

# core.describe writes the third person ("Ada plays red 7."); for the human's
# own seat we substitute "You" and mend the verb that follows.
_VERBS = {
    "plays": "play", "draws": "draw", "keeps": "keep", "passes": "pass", "is": "are",
    "calls": "call", "catches": "catch", "challenges": "challenge", "shows": "show",
    "wins": "win", "deals": "deal", "names": "name", "scores": "score",
    # house rules, No Mercy and Wild Rawz
    "swaps": "swap", "skips": "skip", "discards": "discard", "holds": "hold", "jumps": "jump",
    "takes": "take", "leaves": "leave", "leads": "lead", "claims": "claim",
    # the extended rules
    "accepts": "accept", "aims": "aim", "attaches": "attach", "throws": "throw", "lights": "light",
    "starts": "start", "chooses": "choose", "clips": "clip", "picks": "pick", "recasts": "recast",
    "refuses": "refuse", "ends": "end", "answers": "answer", "turns": "turn", "goes": "go",
    # Diez
    "stops": "stop", "tags": "tag", "gives": "give", "steals": "steal", "drops": "drop", "shares": "share",
    "cuts": "cut", "stitches": "stitch", "procs": "proc",
}
_YOU_VERB = re.compile(r"\bYou (" + "|".join(_VERBS) + r")\b")
_AND_VERB = re.compile(r" and (" + "|".join(_VERBS) + r")\b")
_YOURS = re.compile(r"\bYou's\b")
_OF_YOURS = re.compile(r"\bof You's\b")  # "a token of Ada's" -> "a token of yours", not "of your"
_THEIR = re.compile(r"\bYou show their\b")
_TAKE_BACK = re.compile(r"\b[Yy]ou take back their\b")  # the extended rules' Regret Pill on you
# When you act, the words' third person for the actor ("they draw another", "cards for them") is you.
_ACTOR_THEM = re.compile(r"(?<=; )they (?=draw\b)|(?<= for )them\b|(?<= on )them\b")


def log_line(event: Event, names: Sequence[str], me: int | None, variant: str | None = None, *,
             rewrite: Callable[[str], str] | None = None) -> str:
    """The event as a log line, with the human addressed as "you" (``variant``: its own event words;
    ``rewrite``: the table's own change to the line, such as card names in English only)."""
    seats = list(names)
    if me is not None:
        seats[me] = YOU
    text = describe(event, seats, variant)
    if rewrite is not None:
        text = rewrite(text)
    if me is None:
        return text[:1].upper() + text[1:]
    if event.kind == "claim":  # a sealed table's claim speaks of its player by name ("the cards Ann holds")
        mine = r"(?<!\w)" + re.escape(names[me])
        text = re.sub(mine + r"'s hand held\b", "your hand held", re.sub(r"\bthe cards " + mine + r" holds\b",
                                                                         "the cards you hold", text))
    text = _YOU_VERB.sub(lambda m: f"You {_VERBS[m.group(1)]}", text)
    text = _THEIR.sub("You show your", text)
    if text.startswith("You "):  # the second verb: "You play Wild and names green."
        # (Only before a "; ": what follows has a subject of its own, "; Ben left it and leads next.")
        head, sep, tail = text.partition("; ")
        text = _AND_VERB.sub(lambda m: f" and {_VERBS[m.group(1)]}", head) + sep + tail
    text = _YOURS.sub("your", _OF_YOURS.sub("of yours", text))
    text = _TAKE_BACK.sub("you take back your", text)
    if event.player == me and re.match(r"(?i)your? ", text):
        text = _ACTOR_THEM.sub(lambda m: "you " if m.group(0).startswith("they") else "you", text)
    if event.kind == "trick" and event.target == me:  # "Ada wins the trick; You left it and leads next."
        text = text.replace("You left it and leads", "you left it and lead")
    # "You" in mid-sentence reads better lower-case ("Ada catches you").
    text = re.sub(r"(?<=[a-z,;:] )You\b", "you", text)
    return text[:1].upper() + text[1:]  # "Blue Reverse cannot start the round"


def logged(events: Sequence[Event]) -> list[Event]:
    """The events of one deal or move that the log tells, one line each. Left out: each hand dealt
    (a line per hand would drown the log), and a sealed table's claim that the same player's draw
    on their turn, next, says already: drawing is the claim that nothing (or the card drawn) could
    be played, and drawing until a card can be played makes one such claim a card. The claim
    stays in the signed log, and the round's audit checks it all the same."""
    out = []
    for i, event in enumerate(events):
        if event.kind == "draw" and event.reason == "deal":
            continue
        nxt = events[i + 1] if i + 1 < len(events) else None
        if event.kind == "claim" and nxt is not None and nxt.kind == "draw" and nxt.reason == "turn" \
                and nxt.player == event.player:
            continue
        out.append(event)
    return out


def humanize_error(message: str, names: Sequence[str], me: int | None) -> str:
    """An engine explanation, addressed to the human ("not yours" for "not Sam's"); a spectator has no "you"."""
    text = message if me is None else message.replace(f"not {names[me]}'s", "not yours")
    return text[:1].upper() + text[1:]


def match_decided(obs: dict[str, Any]) -> bool:
    """Whether no next round comes: the match is over, or this was the last round of a match of a fixed
    number of rounds that the rules do not end (a host's ``--rounds``), whatever the scores."""
    limit = obs.get("rounds_in_match")
    return bool(obs.get("match_over")) or bool(limit) and obs.get("round", 0) + 1 >= limit


def between_rounds(obs: dict[str, Any], deals: bool | None = True) -> str:
    """The keys once a round is over: ``n`` deals when this seat deals; a network joiner waits for the
    host, or (``deals`` None) for the table, which deals the next round by itself."""
    if match_decided(obs):
        return "n: rematch · ctrl+q: quit" if deals else "the host decides on a rematch · ctrl+q: leave"
    return "n: next round" if deals else next_round_by(deals)


def next_round_by(deals: bool | None) -> str:
    """Who deals the next round when this seat does not: the host, or (None) the table by itself."""
    if deals is None:
        return "the table deals the next round once every audit is in"
    return "the host deals the next round"


def forgot_uno(name: str, your_turn: bool) -> str:
    """The status line when ``name`` may be caught without UNO; the catch must not hide that it is your turn."""
    return f"{name} forgot to call UNO: press x to catch them!" + (" And it is your turn." if your_turn else "")


def who(p: int | None, names: Sequence[str], me: int | None) -> str:
    """A seat's name as the viewer says it ("You" for their own; "Nobody" for none)."""
    if p is None:
        return "Nobody"
    return YOU if p == me else names[p]


def __getattr__(name: str) -> Any:
    # ``variant_title`` lives with the faces now (``uno_tui.faces.variant_title``); the old name is kept
    # for code written against it. Looked up by name, so this bottom module imports no face.
    if name == "variant_title":
        import importlib

        return importlib.import_module("uno_tui.faces").variant_title
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
