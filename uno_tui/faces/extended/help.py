"""The help page of the extended rules: the keys, the game in brief, and every card with its names."""

from __future__ import annotations

from ..core_words import EXTENDED_CARDS
from ..face import HelpPage, HelpSection
from .cards import english, label, pad
from .english import english_names

EXT_KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card in your hand (its name and what it does show beneath)"),
    ("enter space", "use the chosen card now: play it, pass an effect on with it, counter with it, attach "
                    "it to a transfer, discard or keep it (a colour or a player is asked for when needed)"),
    ("a", "accept the effect on you (draw the total, take a transfer's cards, accept 缴械 or 紧箍咒, "
          "accept a swap, clip or duel)"),
    ("f", "refuse 缴械 Disarm (draw four), or give up in 抬杠 Argue (draw four)"),
    ("e", "let the C4 or the grenade explode on you (reset your hand)"),
    ("s", "send your transfer on (after attaching up to two cards)"),
    ("c", "play 迷彩 Camouflage with the chosen card, as a colour you name"),
    ("d / p", "draw a card / pass or end the turn (after drawing or playing)"),
    ("u / x", "call UNO / catch a player who did not"),
    ("m", "every legal move, in words: the way on from any phase"),
    ("n", "deal the next round (a rematch once the match is over)"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("? / ctrl+q", "this help / quit"),
]

EXT_RULES: list[tuple[str, str]] = [
    ("Turn", "Judgement (the effects on you are answered, highest priority first), then draw (one card) "
             "and/or play (one card): one or both, never neither."),
    ("Play", "A black card, or the colour in play, or the number/function of last. Black cards other "
             "than 改色 and +4 do not change last."),
    ("Effects", "Draw effects stack (total, largest value: no +2 on a +4); a counter answers only an effect "
                "of lower priority: 禁,炸弹 > 后悔药 > 寡妇 > 神手,夹子 > 决斗,缴械,抬杠,C4 > 反弹,pass > 转移,+2/+4."),
    ("Badges", "禁stun · +N draw · 移▮▮ a transfer with cards face down · 缴械 · 紧箍咒 · 箍N bound to N "
               "cards · 锢 transfer lock · 虚弱 weak · ◀ must act now."),
    ("Cap", "No card comes from the pile beyond three times the deal (the hand cap, shown as 7/21)."),
    ("Winning", "No cards, no effect on you, and nothing that could come back to you. Each winner scores "
                "the players still in; the rest play on."),
]


EN_BADGES = ("stun · +N draw · T▮▮ a transfer with cards face down · Disarm · Curse · boundN bound to N "
             "cards · lock transfer lock · weak · ◀ must act now.")
"""The badges' line as a player who asked for English sees them (``widgets.effect_badge``)."""


def card_rows(in_english: bool = False) -> list[tuple[str, str]]:
    """Every card of the deck: its label, Chinese name (unless ``in_english``), English name, count and
    what it does."""
    rows = [("R7" if in_english else "R7 数字牌", "Number cards 0-9: 0 once, 1-9 twice per colour (76).")]
    for f in EXTENDED_CARDS:
        where = {"each": "per colour", "black": "black"}.get(f.where, f.where)
        count = f.copies * 4 if f.where == "each" else f.copies
        chip = label({"color": None if f.where == "black" else "red", "rank": f.rank})
        if f.where not in ("black", "each"):
            chip = label({"color": f.where, "rank": f.rank})
        rows.append((pad(chip, 7, "left") if in_english else f"{pad(chip, 7, 'left')} {f.zh}",
                     f"{f.en} ({count}, {f.copies} {where}): {f.gloss}." if f.where == "each"
                     else f"{f.en} ({count}, {where}): {f.gloss}."))
    return rows


def page() -> HelpPage:
    """The page (the cards' labels as the table shows them now: in Chinese, or in English alone)."""
    if not english():
        return HelpPage((HelpSection("help-keys", "Keys", EXT_KEYS),
                         HelpSection("help-rules", "UNO 扩展规则 in brief", EXT_RULES),
                         HelpSection("help-cards", "Every card (中文 · English · count · what it does)",
                                     card_rows())),
                        close="esc, ? or q closes this help · ↑/↓ scroll")
    rules = [(term, EN_BADGES if term == "Badges" else english_names(text)) for term, text in EXT_RULES]
    return HelpPage((HelpSection("help-keys", "Keys", [(k, english_names(t)) for k, t in EXT_KEYS]),
                     HelpSection("help-rules", "UNO Extended rules in brief", rules),
                     HelpSection("help-cards", "Every card (name · count · what it does)", card_rows(True))),
                    close="esc, ? or q closes this help · ↑/↓ scroll")
