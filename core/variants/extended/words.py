"""The extended rules' event words for the log (registered with :func:`core.events.register_words`).

Cards are named in English with their Chinese name where the card has one of its own
("red 夹子 Clip", "手榴弹 Grenade"); number cards stay "red 7". Nothing here uses
ambiguous-width characters (≤, ≥, ∞), so a log line measures the same in every terminal.
"""

from __future__ import annotations

from typing import Any, Iterable

from ...cards import Card
from ...events import Event, counted, register_words
from .cards import FACES

SHORT_EN = {"T4": "Transfer", "T5": "Transfer"}
ZH_PLAIN = {"T4": "转移(0-4)", "T5": "转移(5-9)"}
"""Chinese names as the screen writes them (the seed's ≤/≥ are ambiguous-width characters)."""


def zh(rank: str) -> str:
    """The card's Chinese name, safe for a terminal ("转移(0-4)" for the ≤4 Transfer)."""
    if rank in ZH_PLAIN:
        return ZH_PLAIN[rank]
    face = FACES.get(rank)
    return face.zh if face is not None else rank


def rank_words(rank: str) -> str:
    """A rank in words: "夹子 Clip", "+2", "pass", "7"."""
    face = FACES.get(rank)
    if face is None:
        return rank
    name = zh(rank)
    if name.isascii():  # +2, +4, pass, C4: the name is the gloss
        return name
    return f"{name} {SHORT_EN.get(rank, face.en)}"


def card_words(card: Card | dict[str, Any]) -> str:
    """A card in words for the log: "red 7", "yellow 夹子 Clip", "手榴弹 Grenade"."""
    if isinstance(card, dict):
        card = Card.from_dict(card)
    words = rank_words(card.rank)
    return words if card.color is None else f"{card.color} {words}"


def cards_words(e: Event) -> str:
    if e.cards:
        return ", ".join(card_words(c) for c in e.cards)
    return counted(e.count, "card")


EFFECT_WORDS = {
    "stun": "禁 stun", "draw": "draw effect", "transfer": "transfer", "disarm": "缴械 Disarm",
    "curse": "紧箍咒 curse", "swap": "神手 swap", "clip": "夹子 Clip", "duel": "duel",
    "grenade": "手榴弹 Grenade", "c4": "C4", "argue": "抬杠 Argue", "bomb": "炸弹 Bomb",
    "play": "play", "chosen": "天选之子",
}
"""Effect kinds (an event's ``reason``) in words."""


def effect_words(kind: str | None) -> str:
    return EFFECT_WORDS.get(kind or "", kind or "effect")


def _accept(e: Event, who: str, tgt: str) -> str:
    return {
        "draw": f"{who} accepts the +{e.count}.",
        "transfer": f"{who} accepts the transfer and takes the cards riding on it.",
        "disarm": f"{who} accepts the 缴械 Disarm: two action cards must go.",
        "curse": f"{who} accepts the 紧箍咒 curse.",
    }.get(e.reason or "", f"{who} accepts the {effect_words(e.reason)}.")


def _aoe_start(verb: str) -> Any:
    def words(e: Event, who: str, tgt: str) -> str:
        if e.kind == "grenade":
            return f"{who} throws the 手榴弹 Grenade to {tgt}: play {e.color} or blow up."
        if e.kind == "c4":
            return f"{who} lights the C4: play a number card to pass it that many seats, or let it explode."
        return f"{who} starts 抬杠 Argue: play a number at least as high as the last, or draw four."
    return words


def _effect(e: Event, who: str, tgt: str) -> str:
    r = e.reason
    if r == "stun":
        return f"禁: {tgt} will be stunned and lose the next turn."
    if r == "draw":
        return f"+{e.count} is now on {tgt}."
    if r == "transfer":
        return f"A transfer carrying {counted(e.count, 'card')} face down goes to {tgt}."
    if r == "disarm":
        return f"缴械 Disarm is on {tgt}."
    if r == "curse":
        return f"紧箍咒 is on {tgt}."
    return f"The {effect_words(r)} is now on {tgt}."


def _play(e: Event, who: str, tgt: str) -> str:
    if e.reason == "camo" and len(e.cards) == 2:
        return f"{who} plays 迷彩 Camouflage with {card_words(e.cards[1])}, as {e.color}."
    if e.reason in ("grenade", "c4", "argue"):
        if len(e.cards) == 2:  # 迷彩 with a coloured card, counted as the colour wanted
            return (f"{who} answers the {effect_words(e.reason)} with 迷彩 and {card_words(e.cards[1])}, "
                    f"as {e.color}.")
        return f"{who} answers the {effect_words(e.reason)} with {cards_words(e)}."
    if not e.cards:
        return f"{who} plays a card."
    card = e.cards[0]
    text = f"{who} plays {card_words(card)}"
    if card.rank in ("W", "W+4") and e.color:  # the grenade's colour is told by its own event
        text += f" and names {e.color}"
    if e.target is not None:
        text += f" at {tgt}"
    return text + "."


def _flip(e: Event, who: str, tgt: str) -> str:
    if not e.cards:  # the pile holds nothing that could come up (a reshuffle would repeat it)
        if e.reason == "unstick":
            return "Nobody could move, and no coloured card can come up from the pile: the last card stays."
        if e.reason == "number":
            return f"No number card can come up from the pile for {who}."
        return f"No card is left to turn up for {who}."
    card = cards_words(e)
    if e.reason == "unstick":
        if e.color is None:
            return f"Nobody could move: {card} is turned up (black: it cannot be the last card)."
        return f"Nobody could move: {card} is turned up as the new last card."
    return f"{who} turns up {card}."


def _handover(e: Event, who: str, tgt: str) -> str:
    if e.reason == "grenade":
        return f"The 手榴弹 Grenade goes to {tgt}: {e.color} next."
    if e.reason == "c4":
        return f"The C4 moves to {tgt}." if e.target != e.player else f"The C4 stays with {tgt}."
    return f"抬杠 goes to {tgt}: at least {e.count}."


def _keep(e: Event, who: str, tgt: str) -> str:
    if e.cards:
        return f"{who} keeps {card_words(e.cards[0])} (天选之子) and discards {counted(e.count, 'card')}."
    return f"{who} holds no number card (天选之子) and discards all {counted(e.count, 'card')}."


def _refuse(e: Event, who: str, tgt: str) -> str:
    if e.reason == "argue":
        return f"{who} cannot go on with 抬杠 Argue and draws four."
    return f"{who} refuses the 缴械 Disarm and draws four."


def _regret(e: Event, who: str, tgt: str) -> str:
    what = {"draw": "their draw", "play": "their play"}.get(e.reason or "", f"their {effect_words(e.reason)}")
    return f"{who} takes 后悔药 Regret Pill: {tgt} takes back {what}."


def _withdraw(e: Event, who: str, tgt: str) -> str:
    if e.reason == "draw":
        return f"{who}'s drawn card goes to the bottom of the pile; they draw another."
    if e.cards:
        extra = e.count - len(e.cards)
        tail = f" (and {counted(extra, 'card')} that rode on it)" if extra > 0 else ""
        return f"{who} takes back {cards_words(e)}{tail} and plays again without it."
    return f"{who} takes back {counted(e.count, 'card')} and plays again."


def _draw(e: Event, who: str, tgt: str) -> str:
    why = DRAW_REASONS.get(e.reason or "", "")
    return f"{who} draws {cards_words(e)}{why}."


def _duel_over(e: Event, who: str, tgt: str) -> str:
    if e.reason == "draw":
        return "The duel is a draw: both lose and draw four."
    return f"{who} wins the duel; {tgt} draws four."


def _pass(e: Event, who: str, tgt: str) -> str:
    if e.reason == "stuck":
        return f"{who} can neither draw nor play, and passes."
    return f"{who} ends the turn."


def _round_over(e: Event, who: str, tgt: str) -> str:
    return f"The round is over: {who} went out first."


WORDS: dict[str, Any] = {
    "accept": _accept,
    "aim": lambda e, who, tgt: f"{who} aims {effect_words(e.reason)} at {tgt}; {tgt} may answer first.",
    "argue": _aoe_start("argue"),
    "c4": _aoe_start("c4"),
    "grenade": _aoe_start("grenade"),
    "attach": lambda e, who, tgt: f"{who} attaches {cards_words(e)} face down.",
    "bomb": lambda e, who, tgt: (f"{who}'s 炸弹 Bomb goes off: {counted(e.count, 'card')} for them, "
                                 "one fewer a seat away."),
    "bound": lambda e, who, tgt: (f"{who} is bound by 紧箍咒: no cards from the pile until the hand is down "
                                  f"to {e.count}."),
    "cancel": lambda e, who, tgt: f"{who} plays 寡妇 Widow: the {effect_words(e.reason)} is cancelled.",
    "capped": lambda e, who, tgt: (f"{who} may take no more from the pile (hand cap or 紧箍咒): "
                                   f"{counted(e.count, 'card')} fewer."),
    "clip": lambda e, who, tgt: f"{who} clips {cards_words(e)} from {tgt}.",
    "direction": lambda e, who, tgt: f"{who} chooses the direction: {tgt} plays next.",
    "discard": lambda e, who, tgt: f"{who} discards {cards_words(e)}.",
    "draw": _draw,
    "duel": lambda e, who, tgt: (f"{who} and {tgt} duel: "
                                 + ("颜色决斗, colours picked in turn." if e.reason == "DUELC"
                                    else "点数决斗, a number card each.")),
    "duel_over": _duel_over,
    "effect": _effect,
    "explode": lambda e, who, tgt: f"The {effect_words(e.reason)} blows up on {who}: reset!",
    "flip": _flip,
    "handover": _handover,
    "keep": _keep,
    "pass": _pass,
    "pass_on": lambda e, who, tgt: f"{who} plays pass: the {effect_words(e.reason)} and the turn go on to {tgt}.",
    "pick": lambda e, who, tgt: f"{who} picks {e.color} for the colour duel.",
    "play": _play,
    "rebound": lambda e, who, tgt: f"{who} plays 反弹 Rebound: the {effect_words(e.reason)} goes back to {tgt}.",
    "recast": lambda e, who, tgt: f"{who} recasts 神手 (one on one) and draws a card.",
    "refuse": _refuse,
    "regret": _regret,
    "released": lambda e, who, tgt: f"{who} is released from 紧箍咒.",
    "reset": lambda e, who, tgt: f"{who} is reset: {counted(e.count, 'card')} discarded, a fresh hand drawn.",
    "reveal": lambda e, who, tgt: f"The cards riding on it turn face up: {cards_words(e)}.",
    "skip": lambda e, who, tgt: f"{who} is stunned by 禁: no draw, no play this turn.",
    "swap": "{who} swaps hands with {tgt}.",
    "stack": lambda e, who, tgt: (f"{who} passes the {'transfer' if e.reason == 'transfer' else 'draw effect'} "
                                  f"on with {cards_words(e)}."),
    "win": lambda e, who, tgt: f"{who} goes out and scores {counted(e.points or 0, 'point')}!",
    "withdraw": _withdraw,
    "round_over": _round_over,
}

DRAW_REASONS = {
    "turn": "",
    "penalty": " as a penalty",
    "argue": " (抬杠 Argue)",
    "bomb": " (炸弹 Bomb)",
    "duel": " (the duel)",
    "recast": " (神手 recast)",
    "regret": " instead (后悔药)",
    "reset": " for a fresh hand (reset)",
    "transfer": " that rode on the transfer",
    "uno": " for not calling UNO",
}


def every_kind() -> Iterable[str]:
    return WORDS.keys()


register_words("extended", WORDS, DRAW_REASONS)
