"""Words for the extended table: what is going on, which keys answer it, every legal move.

Pure functions of the observation (no terminal), so the wording can be tested alone.
The keys are the extended table's (see ``faces/extended/table.py``).
"""

from __future__ import annotations

from typing import Any, Sequence

from ...narration import between_rounds
from ..core_words import extended_card_words as card_words
from ..core_words import extended_effect_words as effect_words
from ..core_words import extended_zh as zh
from .cards import english
from .english import english_names

YOU = "You"

PHASE_WORDS = {
    "direction": "choosing the direction", "judge": "judgement", "main": "draw / play",
    "react": "answering", "attach": "attaching", "duel": "colour duel", "discard": "discarding",
    "keep": "天选之子", "grenade": "手榴弹 chain", "c4": "C4 chain", "argue": "抬杠 chain", "over": "round over",
}
"""Each engine phase in a word or two (the table panel's title)."""


def _who(p: int | None, obs: dict[str, Any], names: Sequence[str]) -> str:
    if p is None:
        return "Someone"
    return YOU if p == obs["me"] else names[p]


def _kinds(obs: dict[str, Any]) -> set[str]:
    return {a["kind"] for a in obs.get("legal", ())}


def _hand(obs: dict[str, Any]) -> dict[int, dict[str, Any]]:
    return {c["id"]: c for c in obs.get("hand", ())}


def counters_held(obs: dict[str, Any]) -> list[str]:
    """The counter cards among your legal plays now (寡妇, 后悔药, 反弹, pass)."""
    hand = _hand(obs)
    out = []
    for a in obs.get("legal", ()):
        c = hand.get(a.get("card", -1))
        if a["kind"] == "play" and c is not None and c["rank"] in ("WIDOW", "REGRET", "WRB", "WPASS"):
            out.append(zh(c["rank"]))
    return list(dict.fromkeys(out))


EN_EFFECTS = {"stun": "Skip", "disarm": "Disarm", "curse": "Headband Curse", "grenade": "Grenade",
              "argue": "Argue"}
"""The effects the engine names in Chinese, by their cards' English names (for a player who asked for English)."""


def effect_name(kind: str | None) -> str:
    """An effect kind in words: "缴械 Disarm" ("Disarm" in English), "draw effect"."""
    if english() and kind in EN_EFFECTS:
        return EN_EFFECTS[kind]
    return effect_words(kind)


def effect_phrase(e: dict[str, Any]) -> str:
    """An effect in words: "+6 (largest +4)", "a transfer with 2 cards face down", "缴械 Disarm"."""
    kind = e.get("kind")
    if kind == "draw":
        return f"+{e.get('total', 0)} (largest +{e.get('max', 0)})"
    if kind == "transfer":
        n = e.get("attached", 0)
        return f"a {zh(e.get('rank', 'T4'))} transfer with {n} card{'s' if n != 1 else ''} face down"
    return effect_name(kind)


def situation(obs: dict[str, Any], names: Sequence[str]) -> str:
    """What is going on now, addressed to you."""
    me, phase = obs["me"], obs["phase"]
    actor = obs.get("actor")
    pend = obs.get("pending") or {}
    inter = obs.get("interaction") or {}
    mine = actor == me and me is not None
    actor_name = _who(actor, obs, names)
    if obs["over"]:
        first = (obs.get("round_winners") or [obs.get("winner")])[0]
        return f"The round is over: {_who(first, obs, names)} went out first."
    if phase == "direction":
        if mine:
            return "You play first: choose who plays after you."
        return f"{actor_name} plays first and chooses the direction…"
    if phase == "judge":
        what = effect_phrase(pend)
        by = pend.get("by")
        src = f" from {_who(by, obs, names)}" if by is not None else ""
        if not mine:
            return f"Judgement: {actor_name} answers {what}{src}…"
        weak = any(e["kind"] == "weak" for e in obs["effects"][me])
        text = f"Judgement: {what}{src} is on you."
        if weak:
            text += " You are weak (禁): you may only accept."
        return text
    if phase == "main":
        turn = obs.get("turn") or {}
        if not mine:
            return f"{actor_name} draws and/or plays…"
        if turn.get("played") and turn.get("extra"):
            return "无限 Infinity: you may play one more card, or end the turn."
        if turn.get("drew"):
            return "You drew: play a card too, or end the turn."
        if turn.get("forbid") is not None:
            return "后悔药: your card came back; play another (not that one) or draw."
        return "Your turn: draw, play, or both (not neither)."
    if phase == "react":
        e = inter.get("effect") or {}
        by = _who(e.get("by"), obs, names)
        if not mine:
            return f"{actor_name} answers {by}'s {effect_name(e.get('kind'))}…"
        return f"{by} aims {effect_name(e.get('kind'))} at you: accept it, or counter it first."
    if phase == "attach":
        left = inter.get("left", 0)
        if not mine:
            return f"{actor_name} attaches cards face down to a transfer…"
        return f"Your transfer: attach up to {left} more card{'s' if left != 1 else ''} face down, then send it."
    if phase == "duel":
        picks = inter.get("picks", [])
        a, b = inter.get("by"), inter.get("on")
        done = ", ".join(f"{_who(a if i % 2 == 0 else b, obs, names)} {c}" for i, c in enumerate(picks))
        rival = _who(b if actor == a else a, obs, names)
        head = "Colour duel: you pick a colour" if mine else f"Colour duel: {actor_name} picks a colour"
        return head + (f" against {rival}" if mine else "") + (f" (picked: {done})." if done else ".")
    if phase == "discard":
        left = inter.get("left", 0)
        kind = " action" if inter.get("filter") == "function" else ""
        if not mine:
            return f"{actor_name} chooses{kind} cards to discard…"
        return f"Discard {left} more{kind} card{'s' if left != 1 else ''} of your choice."
    if phase == "keep":
        if not mine:
            return f"{actor_name} keeps one number card (天选之子)…"
        return "天选之子: keep one number card; every other card is discarded."
    if phase == "grenade":
        by = _who(inter.get("by"), obs, names)
        color = inter.get("color")
        if not mine:
            return f"手榴弹: {actor_name} must play {color} or blow up…"
        return f"{by}'s 手榴弹 Grenade is on you: play a {color} card and name the next colour, or blow up."
    if phase == "c4":
        if not mine:
            return f"The C4 is with {actor_name}…"
        return "The C4 is with you: play a number card (it moves that many seats), or let it explode."
    if phase == "argue":
        x = inter.get("x", 0)
        if not mine:
            return f"抬杠: {actor_name} must play a number of {x} or more…"
        return f"抬杠 Argue: play a number of {x} or more, or give up and draw four."
    return f"{actor_name} is playing…"


def key_hints(obs: dict[str, Any], deals: bool = True) -> str:
    """The keys that do something now, from the legal moves (``deals``: this seat deals the next round)."""
    if obs["over"]:
        return between_rounds(obs, deals)
    kinds = _kinds(obs)
    phase = obs["phase"]
    hints: list[str] = []
    if "uno" in kinds:
        hints.append("u UNO!")
    if "catch" in kinds:
        hints.append("x catch")
    if obs.get("actor") != obs["me"]:
        return " · ".join(hints) if hints else "m moves · ? help"
    if phase == "direction":
        hints.append("enter: choose who plays next")
    elif phase == "duel":
        hints.append("r y g b k pick a colour")
    if "accept" in kinds:
        hints.append("a accept")
    verbs = {"attach": "attach", "discard": "discard", "keep": "keep"}
    card_kinds = kinds & {"play", "attach", "discard", "keep"}
    if card_kinds:
        kind = next(iter(card_kinds))
        verb = verbs.get(kind, "play")
        if phase == "judge":
            verb = "pass on / counter"
        elif phase == "react":
            verb = "counter"
        elif phase in ("grenade", "c4", "argue"):
            verb = "answer"
        hints.insert(0, f"←→ ⏎ {verb}")
    if "camo" in kinds:
        hints.append("c 迷彩")
    if "draw" in kinds:
        hints.append("d draw")
    if "send" in kinds:
        hints.append("s send")
    if "refuse" in kinds:
        hints.append("f " + ("give up" if phase == "argue" else "refuse: draw 4"))
    if "explode" in kinds:
        hints.append("e explode")
    if "pass" in kinds:
        hints.append("p end turn" if (obs.get("turn") or {}).get("drew") or (obs.get("turn") or {}).get("played")
                     else "p pass")
    hints.append("m moves")
    return " · ".join(hints)


def action_words(a: dict[str, Any], obs: dict[str, Any], names: Sequence[str]) -> str:
    """One legal move in words, for the list of moves."""
    kind = a["kind"]
    hand = _hand(obs)
    card = hand.get(a.get("card", -1))
    cw = card_words(card) if card is not None else "a card"
    color, target = a.get("color"), a.get("target")
    phase = obs["phase"]
    pend = obs.get("pending") or {}
    if kind == "play":
        if phase == "grenade":
            return f"play {cw}, the next colour {color}" if color else f"play {cw}"
        text = f"play {cw}"
        if phase in ("judge", "react") and card is not None and card["rank"] in ("WIDOW", "REGRET", "WRB", "WPASS"):
            text = f"counter with {cw}"
        elif phase == "judge":
            text = f"pass it on with {cw}"
        if color:
            text += f", naming {color}"
        if target is not None:
            text += f" at {_who(target, obs, names)}"
        return text
    if kind == "camo":
        return f"play 迷彩 with {cw}, as {color}"
    if kind == "attach":
        return f"attach {cw} face down"
    if kind == "discard":
        return f"discard {cw}"
    if kind == "keep":
        return f"keep {cw}, discard the rest"
    if kind == "draw":
        return "draw a card"
    if kind == "pass":
        return "end the turn" if (obs.get("turn") or {}).get("drew") or (obs.get("turn") or {}).get("played") \
            else "pass"
    if kind == "accept":
        if phase == "judge":
            if pend.get("kind") == "draw":
                return f"accept: draw {pend.get('total', 0)}"
            if pend.get("kind") == "transfer":
                return "accept: take the cards riding on the transfer"
            if pend.get("kind") == "disarm":
                return "accept: discard two action cards"
            return f"accept the {effect_name(pend.get('kind'))}"
        return "accept"
    if kind == "refuse":
        return "give up and draw four" if phase == "argue" else "refuse: draw four"
    if kind == "explode":
        return "let it explode (reset your hand)"
    if kind == "send":
        return "send the transfer"
    if kind == "choose":
        return f"pick {color}"
    if kind == "direction":
        return f"{_who(target, obs, names)} plays after you"
    if kind == "uno":
        return "call UNO"
    if kind == "catch":
        return f"catch {_who(target, obs, names)} without UNO"
    return " ".join(str(v) for v in a.values())


def shown(text: str) -> str:
    """``text`` as the table shows it: with the names in English alone when the player asked for English."""
    return english_names(text) if english() else text


def status_flags(obs: dict[str, Any]) -> tuple[bool, bool]:
    """(urgent, your turn): a forgotten UNO; whoever must answer now, not only whose turn it is."""
    return any(p["exposed"] for p in obs["players"]), obs.get("actor") == obs["me"] and not obs["over"]
