"""The UNO table in words: the status line and the house rules in force (classic UNO and No Mercy).

Pure functions of the observation (no terminal), so the wording can be tested alone.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...narration import between_rounds, forgot_uno, who


def rules_summary(options: dict[str, Any]) -> str:
    """The house rules in force, briefly ("stacking: progressive · 7-0 · jump-in"); "" when none."""
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


def status_line(obs: dict[str, Any], names: Sequence[str], deals: bool = True) -> str:
    """One line saying what is going on and which keys matter now (``deals``: this seat deals the next round)."""
    me = obs["me"]
    legal = {a["kind"] for a in obs.get("legal", ())}
    players = obs["players"]
    exposed = [i for i, p in enumerate(players) if p["exposed"]]
    pending = obs.get("pending") or {}
    if obs["over"]:
        if obs["match_over"]:
            return f"{who(obs['match_winner'], names, me)} won the match. {between_rounds(obs, deals)}"
        return f"{who(obs['winner'], names, me)} won the round (+{obs['points']}). {between_rounds(obs, deals)}"
    if me is not None and players[me].get("out"):
        return "You are knocked out of this round (Mercy): the others play on."
    if me in exposed:
        return "You have one card and did not call UNO: press u before someone catches you!"
    if exposed and "catch" in legal:
        return forgot_uno(names[exposed[0]], obs["current"] == me and obs["phase"] == "play")
    if obs["current"] != me:
        if "play" in legal:
            return "Jump in! You hold the very card on top: enter plays it out of turn."
        them = names[obs["current"]]
        if obs["phase"] == "stack":
            return f"{them} must answer +{pending.get('total', 0)}: stack a draw card or take them…"
        if obs["phase"] == "choose":
            return f"{them} names a colour for the Color Roulette…"
        return f"{them} is playing…"
    if obs["phase"] == "challenge":
        by = pending.get("by")
        them = names[by] if by is not None else "Someone"
        return f"{them} played a Wild Draw Four on you: c challenges it, d draws the 4 cards."
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


def status_flags(obs: dict[str, Any]) -> tuple[bool, bool]:
    """(urgent, your turn): a forgotten UNO, a stack, a challenge or a roulette on you, a chance to jump in."""
    exposed = any(p["exposed"] for p in obs["players"])
    on_me = obs["current"] == obs["me"] and obs["phase"] in ("challenge", "stack", "choose")
    jump = obs["current"] != obs["me"] and any(a["kind"] == "play" for a in obs.get("legal", ()))
    return exposed or on_me or jump, obs["current"] == obs["me"] and not obs["over"]
