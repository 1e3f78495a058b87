"""Words for the screen: log lines in the second person and the status line.

Everything here is a pure function of events and observations, so the
wording can be tested without a terminal.
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from core import Event, describe

YOU = "You"

# core.describe writes the third person ("Ada plays red 7."); for the human's
# own seat we substitute "You" and mend the verb that follows.
_VERBS = {
    "plays": "play", "draws": "draw", "keeps": "keep", "passes": "pass", "is": "are",
    "calls": "call", "catches": "catch", "challenges": "challenge", "shows": "show",
    "wins": "win", "deals": "deal", "names": "name", "scores": "score",
}
_YOU_VERB = re.compile(r"\bYou (" + "|".join(_VERBS) + r")\b")
_AND_VERB = re.compile(r" and (" + "|".join(_VERBS) + r")\b")
_YOURS = re.compile(r"\bYou's\b")
_THEIR = re.compile(r"\bYou show their\b")


def log_line(event: Event, names: Sequence[str], me: int | None) -> str:
    """The event as a log line, with the human addressed as "you"."""
    seats = list(names)
    if me is not None:
        seats[me] = YOU
    text = describe(event, seats)
    if me is None:
        return text
    text = _YOU_VERB.sub(lambda m: f"You {_VERBS[m.group(1)]}", text)
    text = _THEIR.sub("You show your", text)
    if text.startswith("You "):  # the second verb: "You play Wild and names green."
        text = _AND_VERB.sub(lambda m: f" and {_VERBS[m.group(1)]}", text)
    text = _YOURS.sub("your", text)
    # "You" in mid-sentence reads better lower-case ("Ada catches you").
    return re.sub(r"(?<=[a-z,;:] )You\b", "you", text)


def humanize_error(message: str, names: Sequence[str], me: int) -> str:
    """An engine explanation, addressed to the human ("not yours" for "not Sam's")."""
    text = message.replace(f"not {names[me]}'s", "not yours")
    return text[:1].upper() + text[1:]


def status_line(obs: dict[str, Any], names: Sequence[str]) -> str:
    """One line saying what is going on and which keys matter now."""
    me = obs["me"]
    legal = {a["kind"] for a in obs.get("legal", ())}
    players = obs["players"]
    exposed = [i for i, p in enumerate(players) if p["exposed"]]
    if obs["over"]:
        if obs["match_over"]:
            return f"{_who(obs['match_winner'], names, me)} won the match. n: rematch · ctrl+q: quit"
        return f"{_who(obs['winner'], names, me)} won the round (+{obs['points']}). n: next round"
    if me in exposed:
        return "You have one card and did not call UNO: press u before someone catches you!"
    if exposed and "catch" in legal:
        return f"{names[exposed[0]]} forgot to call UNO: press x to catch them!"
    if obs["current"] != me:
        return f"{names[obs['current']]} is playing…"
    if obs["phase"] == "challenge":
        by = (obs.get("pending") or {}).get("by")
        who = names[by] if by is not None else "Someone"
        return f"{who} played a Wild Draw Four on you: c challenges it, d draws the 4 cards."
    if obs["phase"] == "drawn":
        return "You drew a playable card: enter plays it, p keeps it."
    hint = "←/→ choose · enter play · d draw"
    if "uno" in legal:
        hint += " · u call UNO first!"
    if "pass" in legal and "draw" not in legal:
        hint = "Nothing left to draw: play a card or p to pass."
    return f"Your turn. {hint}"


def _who(p: int | None, names: Sequence[str], me: int) -> str:
    if p is None:
        return "Nobody"
    return YOU if p == me else names[p]
