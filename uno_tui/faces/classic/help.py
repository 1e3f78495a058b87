"""The help page of the UNO table: the keys, classic UNO in brief, and the house rules at this table."""

from __future__ import annotations

from typing import Any

from ..face import HelpPage, HelpSection

KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card in your hand (or click it; click again to play)"),
    ("enter space", "play the chosen card; a wild then asks for a colour (r y g b)"),
    ("d", "draw a card; also takes the 4 cards of a Wild Draw Four played on you"),
    ("p", "keep the card you just drew and pass (or pass when nothing is left to draw)"),
    ("u", "call UNO: as you play your second-to-last card, or right after"),
    ("c", "challenge a Wild Draw Four played on you"),
    ("x", "catch a player who has one card and did not call UNO"),
    ("n", "deal the next round (a rematch once the match is over)"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("?", "this help"),
    ("ctrl+q", "quit (a round under way asks first; the game is saved for `uno-tui play --resume`)"),
]

RULES: list[tuple[str, str]] = [
    ("Play", "Match the top card by colour or by rank (number or symbol). Wilds go on anything "
             "and name the colour in play. Cannot or will not play? Draw a card; if it fits you "
             "may play it at once (enter) or keep it (p)."),
    ("S", "Skip: the next player misses a turn."),
    ("R", "Reverse: play changes direction (with two players it works as a Skip)."),
    ("+2", "Draw Two: the next player draws 2 and misses a turn."),
    ("W", "Wild: name the colour in play."),
    ("W+4", "Wild Draw Four: name a colour; the next player draws 4 and misses a turn. Play it "
            "only when you hold no card of the colour in play: the victim may challenge (c). "
            "A bluffer then draws the 4 instead; a wrong challenge costs the challenger 6."),
    ("UNO", "Call it (u) when you play your second-to-last card. Anyone who catches you with "
            "one card before you call (x) makes you draw 2."),
    ("Score", "Empty your hand to win the round and score the cards left in the other hands: "
              "numbers at face value, S R +2 20 each, wilds 50. First to the target wins the match."),
    ("Cards", "A card shows its colour and notation: R7 red 7, GS green Skip, BR blue Reverse, "
              "Y+2 yellow Draw Two. Filled cards with a dot can be played now; outlined ones "
              "cannot; ▲ marks the chosen card."),
]


HOUSE_RULES: dict[str, tuple[str, str]] = {
    "stacking": ("Stacking", "Answer a draw card played on you with another one (same: the same kind; "
                             "progressive: one as big or bigger) and the total passes on; d takes them all."),
    "seven_o": ("7-0", "A 7 swaps hands with a player you choose (a list opens); a 0 passes every hand "
                       "to the next player in the direction of play."),
    "jump_in": ("Jump-in", "Hold the very card on top (same colour and number)? Play it out of turn with "
                           "enter; play continues from you."),
    "force_play": ("Force play", "A card you draw that can be played must be played: no keeping it (p)."),
    "no_bluff": ("No bluffing", "A Wild Draw Four may be played only without a card of the colour in play; "
                                "there is nothing to challenge."),
    "draw_until_playable": ("Draw until", "Drawing keeps going until a playable card turns up."),
    "uno_penalty": ("UNO penalty", "Caught without calling UNO: draw this many cards."),
}


def house_rules(options: dict[str, Any]) -> list[tuple[str, str]]:
    """The house rules switched on at this table, each with what it does."""
    rows = []
    for key, (term, text) in HOUSE_RULES.items():
        value = options.get(key)
        if key == "stacking" and value not in (None, "none"):
            rows.append((f"{term}: {value}", text))
        elif key == "uno_penalty" and value not in (None, 2):
            rows.append((term, text.replace("this many", str(value))))
        elif key not in ("stacking", "uno_penalty") and value:
            rows.append((term, text))
    return rows


def page(options: dict[str, Any]) -> HelpPage:
    keys = [k for k in KEYS if k[0] != "c"] if options.get("no_bluff") else KEYS
    sections = [HelpSection("help-keys", "Keys", keys), HelpSection("help-rules", "Classic UNO in brief", RULES)]
    house = house_rules(options)
    if house:
        sections.append(HelpSection("help-house", "House rules at this table", house))
    return HelpPage(tuple(sections))
