"""Wild Rawz in words: the status line of the trick table.

A pure function of the observation (no terminal), so the wording can be tested alone.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...narration import between_rounds, who


def status_line(obs: dict[str, Any], names: Sequence[str], deals: bool = True) -> str:
    """The status line of a Wild Rawz table."""
    me = obs["me"]
    legal = {a["kind"] for a in obs.get("legal", ())}
    if obs["over"]:
        if obs["match_over"]:
            winners = obs.get("match_winners") or []
            champs = " and ".join(who(p, names, me) for p in winners) or "Nobody"
            verb = "share" if len(winners) > 1 else ("win" if winners == [me] else "wins")
            return f"{champs} {verb} the match. {between_rounds(obs, deals)}"
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
