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
    # house rules, No Mercy and Wild Rawz
    "swaps": "swap", "skips": "skip", "discards": "discard", "holds": "hold", "jumps": "jump",
    "takes": "take", "leaves": "leave", "leads": "lead",
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
_THEIR = re.compile(r"\bYou show their\b")


_CJK_BEFORE_WORD = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]+(?:\([0-9-]+\))?\s+(?=[A-Za-z+])")
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff]+(?:\([0-9-]+\))?")


def english_names(text: str) -> str:
    """The extended rules' card names in English only: "red 夹子 Clip" -> "red Clip", "天选之子" -> "The Chosen One".

    The log names a card in Chinese and English; a player who does not read Chinese asks for the English alone.
    """
    from core.variants.extended.cards import FACES
    from core.variants.extended.words import zh

    english = {zh(rank): face.en for rank, face in FACES.items()} | {f.zh: f.en for f in FACES.values()}
    text = _CJK_BEFORE_WORD.sub("", text)
    return _CJK.sub(lambda m: english.get(m.group(0), m.group(0)), text)


def log_line(event: Event, names: Sequence[str], me: int | None, variant: str | None = None, *,
             english: bool = False) -> str:
    """The event as a log line, with the human addressed as "you" (``english``: the extended rules'
    card names in English only)."""
    seats = list(names)
    if me is not None:
        seats[me] = YOU
    text = describe(event, seats, variant)
    if english and variant == "extended":
        text = english_names(text)
    if me is None:
        return text[:1].upper() + text[1:]
    text = _YOU_VERB.sub(lambda m: f"You {_VERBS[m.group(1)]}", text)
    text = _THEIR.sub("You show your", text)
    if text.startswith("You "):  # the second verb: "You play Wild and names green."
        text = _AND_VERB.sub(lambda m: f" and {_VERBS[m.group(1)]}", text)
    text = _YOURS.sub("your", text)
    if event.kind == "trick" and event.target == me:  # "Ada wins the trick; You left it and leads next."
        text = text.replace("You left it and leads", "you left it and lead")
    # "You" in mid-sentence reads better lower-case ("Ada catches you").
    text = re.sub(r"(?<=[a-z,;:] )You\b", "you", text)
    return text[:1].upper() + text[1:]  # "Blue Reverse cannot start the round"


def humanize_error(message: str, names: Sequence[str], me: int) -> str:
    """An engine explanation, addressed to the human ("not yours" for "not Sam's")."""
    text = message.replace(f"not {names[me]}'s", "not yours")
    return text[:1].upper() + text[1:]


VARIANT_TITLES = {"classic": "Classic UNO", "nomercy": "No Mercy", "wildrawz": "Wild Rawz",
                  "extended": "UNO 扩展规则", "diez": "Diez"}
"""How the screen names each variant."""


def variant_title(variant: str) -> str:
    return VARIANT_TITLES.get(variant, variant)


def rules_summary(variant: str, options: dict[str, Any]) -> str:
    """The house rules in force, briefly ("stacking: progressive · 7-0 · jump-in"); "" when none."""
    if variant != "classic":
        return ""
    parts = []
    if options.get("stacking", "none") != "none":
        parts.append(f"stacking: {options['stacking']}")
    for key, label in (("seven_o", "7-0"), ("jump_in", "jump-in"), ("force_play", "force play"),
                       ("no_bluff", "no bluffing"), ("draw_until_playable", "draw until playable")):
        if options.get(key):
            parts.append(label)
    if options.get("uno_penalty", 2) != 2:
        parts.append(f"UNO penalty {options['uno_penalty']}")
    return " · ".join(parts)


def between_rounds(obs: dict[str, Any], deals: bool = True) -> str:
    """The keys once a round is over: ``n`` deals when this seat deals; a network joiner waits for the host."""
    if obs.get("match_over"):
        return "n: rematch · ctrl+q: quit" if deals else "the host decides on a rematch · ctrl+q: leave"
    return "n: next round" if deals else "the host deals the next round"


def status_line(obs: dict[str, Any], names: Sequence[str], deals: bool = True) -> str:
    """One line saying what is going on and which keys matter now (``deals``: this seat deals the next round)."""
    if obs.get("variant") == "wildrawz":
        return trick_status_line(obs, names, deals)
    me = obs["me"]
    legal = {a["kind"] for a in obs.get("legal", ())}
    players = obs["players"]
    exposed = [i for i, p in enumerate(players) if p["exposed"]]
    pending = obs.get("pending") or {}
    if obs["over"]:
        if obs["match_over"]:
            return f"{_who(obs['match_winner'], names, me)} won the match. {between_rounds(obs, deals)}"
        return f"{_who(obs['winner'], names, me)} won the round (+{obs['points']}). {between_rounds(obs, deals)}"
    if me is not None and players[me].get("out"):
        return "You are knocked out of this round (Mercy): the others play on."
    if me in exposed:
        return "You have one card and did not call UNO: press u before someone catches you!"
    if exposed and "catch" in legal:
        return f"{names[exposed[0]]} forgot to call UNO: press x to catch them!"
    if obs["current"] != me:
        if "play" in legal:
            return "Jump in! You hold the very card on top: enter plays it out of turn."
        who = names[obs["current"]]
        if obs["phase"] == "stack":
            return f"{who} must answer +{pending.get('total', 0)}: stack a draw card or take them…"
        if obs["phase"] == "choose":
            return f"{who} names a colour for the Color Roulette…"
        return f"{who} is playing…"
    if obs["phase"] == "challenge":
        by = pending.get("by")
        who = names[by] if by is not None else "Someone"
        return f"{who} played a Wild Draw Four on you: c challenges it, d draws the 4 cards."
    if obs["phase"] == "stack":
        total = pending.get("total", 0)
        answer = "enter stacks the chosen draw card" if "play" in legal else "you hold no card to stack"
        extra = " · c challenges" if "challenge" in legal else ""
        return f"+{total} is coming to you! {answer}{extra} · d takes all {total}."
    if obs["phase"] == "choose":
        return "Color Roulette on you: name a colour (enter opens the picker); cards turn up until it shows."
    if obs["phase"] == "drawn":
        if "pass" not in legal:
            return "You drew a playable card and must play it (force play): enter."
        return "You drew a playable card: enter plays it, p keeps it."
    hint = "←/→ choose · enter play · d draw"
    if "uno" in legal:
        hint += " · u call UNO first!"
    if "pass" in legal and "draw" not in legal:
        hint = "Nothing left to draw: play a card or p to pass."
    return f"Your turn. {hint}"


def trick_status_line(obs: dict[str, Any], names: Sequence[str], deals: bool = True) -> str:
    """The status line of a Wild Rawz table."""
    me = obs["me"]
    legal = {a["kind"] for a in obs.get("legal", ())}
    if obs["over"]:
        if obs["match_over"]:
            winners = obs.get("match_winners") or []
            who = " and ".join(_who(p, names, me) for p in winners) or "Nobody"
            verb = "share" if len(winners) > 1 else ("win" if winners == [me] else "wins")
            return f"{who} {verb} the match. {between_rounds(obs, deals)}"
        return f"Round {obs['round'] + 1} of {obs['rounds_in_match']} is over. {between_rounds(obs, deals)}"
    if obs["current"] != me:
        verb = "drafting" if obs["phase"] == "draft" else "playing"
        return f"{names[obs['current']]} is {verb}…"
    if obs["phase"] == "draft":
        return "Your draft: ←/→ choose a face-up card · enter takes it (the last one left is the trump)."
    if not obs.get("trick"):
        return "Your lead: ←/→ choose · enter play any card."
    lead = obs.get("lead_color")
    follow = f"Follow {lead} if you can" if lead else "Your turn"
    hint = f"{follow}: ←/→ choose · enter play"
    if "leave" in legal:
        hint += " · v leave the trick with the chosen card"
    return hint + "."


def _who(p: int | None, names: Sequence[str], me: int) -> str:
    if p is None:
        return "Nobody"
    return YOU if p == me else names[p]
