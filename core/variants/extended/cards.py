"""The cards of UNO 扩展规则 5.2.3: the deck table, Chinese names and English glosses.

Each row is one face of the seed's table. ``where`` is ``"each"`` (that many
copies in each of the four colours), ``"black"`` (that many black cards) or a
colour (that many cards of that colour). Black ranks start with ``W`` so the
shared notation reads them as black (``WC4``); coloured ones take the colour
letter in front (``RDUELC`` is the red colour duel).
"""

from __future__ import annotations

from typing import NamedTuple

from ...cards import COLORS, RANK_NAMES


class Face(NamedTuple):
    rank: str
    zh: str
    en: str
    where: str
    copies: int
    cls: str
    """The effect class: ``number``, ``instant``, ``lasting``, ``activating``, ``aoe``, ``self``,
    ``counter`` (an instant effect played in answer to another effect)."""
    gloss: str


NUMBERS = tuple(str(n) for n in range(10))

TABLE: tuple[Face, ...] = (
    Face("S", "禁", "Skip", "each", 2, "activating", "the next player is stunned (loses a turn) and weak"),
    Face("R", "转", "Reverse", "each", 2, "instant", "reverses the order of play"),
    Face("+2", "+2", "Draw Two", "each", 2, "activating", "draw effect of 2 on the next player (stackable)"),
    Face("W+4", "+4", "Draw Four", "black", 4, "activating",
         "names the colour; draw effect of 4 on the next player (stackable)"),
    Face("W", "改色", "Change Colour", "black", 4, "instant", "names the colour of last"),
    Face("INF", "无限", "Infinity", "each", 1, "self", "you may play one more card this play phase"),
    Face("T4", "转移(≤4)", "Transfer ≤4", "each", 1, "activating",
         "on a same-colour 0-4 or another ≤4 Transfer: pass up to 2 cards face down to the next player"),
    Face("T5", "转移(≥5)", "Transfer ≥5", "each", 1, "activating",
         "on a same-colour 5-9 or another ≥5 Transfer: pass up to 2 cards face down to the next player"),
    Face("HAND", "神手", "Hand of God", "each", 1, "instant",
         "swap hands with the next player (one on one: recast, draw a card)"),
    Face("CLIP", "夹子", "Clip", "each", 1, "instant", "take two cards at random from the next player"),
    Face("GIFT", "奖励", "Reward", "each", 1, "self", "discard one more card of your choice"),
    Face("WRB", "反弹", "Rebound", "black", 2, "counter", "sends a draw or transfer effect back where it came from"),
    Face("WPASS", "pass", "Pass", "black", 2, "counter",
         "passes a draw or transfer effect, with your turn, to the next player"),
    Face("DUELC", "颜色决斗", "Colour Duel", "red", 1, "instant",
         "duel anyone: pick colours in turn (4 of 5), turn a card; winner sheds 2, loser draws 4"),
    Face("DUELN", "点数决斗", "Number Duel", "red", 1, "instant",
         "duel anyone: each turns a number card, higher wins; winner sheds 2, loser draws 4"),
    Face("CHOSEN", "天选之子", "The Chosen One", "yellow", 1, "instant",
         "keep one number card and discard every other card"),
    Face("BOMB", "炸弹", "Bomb", "red", 1, "instant",
         "you draw one card per player in, each player further away one fewer"),
    Face("DISARM", "缴械", "Disarm", "green", 2, "activating",
         "the next player discards two action cards or draws four, and loses the turn"),
    Face("WGREN", "手榴弹", "Grenade", "black", 1, "aoe",
         "name a colour and pass it on: answer in that colour or blow up (reset)"),
    Face("CURSE", "紧箍咒", "Headband Curse", "yellow", 2, "activating",
         "a player may not draw from the pile until their hand is down to half"),
    Face("WC4", "C4", "C4", "black", 1, "aoe",
         "play a number to pass it that many seats; whoever cannot blows up (reset)"),
    Face("WARG", "抬杠", "Argue", "black", 1, "aoe",
         "play numbers that never go down, round the table; whoever cannot draws four"),
    Face("WIDOW", "寡妇", "Widow", "each", 1, "counter",
         "cancels an effect of lower priority aimed at you (a swap, a clip, a duel, ...)"),
    Face("REGRET", "后悔药", "Regret Pill", "green", 1, "counter",
         "the player upstream takes back the card they played (or drew) and plays (or draws) another"),
    Face("WCAMO", "迷彩", "Camouflage", "black", 1, "self",
         "play it with another coloured card, which counts as any colour you name"),
)

FACES: dict[str, Face] = {f.rank: f for f in TABLE}

NUMBER_ZH = "数字牌"


def build_faces() -> list[tuple[str | None, str]]:
    """The 153 faces of the deck in a fixed order (numbers first, then the table)."""
    faces: list[tuple[str | None, str]] = []
    for color in COLORS:
        faces.append((color, "0"))
        for n in NUMBERS[1:]:
            faces += [(color, n), (color, n)]
    for f in TABLE:
        if f.where == "each":
            for color in COLORS:
                faces += [(color, f.rank)] * f.copies
        elif f.where == "black":
            faces += [(None, f.rank)] * f.copies
        else:
            faces += [(f.where, f.rank)] * f.copies
    return faces


DECK_SIZE = 153


def zh_name(rank: str) -> str:
    return FACES[rank].zh if rank in FACES else rank


# The shared card names (used by Card.name and the log) learn the new ranks; no existing
# rank is changed.
for _f in TABLE:
    RANK_NAMES.setdefault(_f.rank, _f.en)
