"""The help page of a No Mercy table: its keys and the game in brief (it is played on the UNO table)."""

from __future__ import annotations

from ..face import HelpPage, HelpSection

NOMERCY_KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card in your hand"),
    ("enter space", "play it; a wild asks for a colour, a 7 asks whom to swap hands with"),
    ("d", "draw (until a playable card turns up); when a stack is on you, take all its cards"),
    ("u", "call UNO as you play your second-to-last card"),
    ("x", "catch a player who has one card and did not call UNO"),
    ("n", "deal the next round"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("?", "this help"),
    ("ctrl+q", "quit (a round under way asks first; the game is saved for `uno-tui play --resume`)"),
]

NOMERCY_RULES: list[tuple[str, str]] = [
    ("Play", "As in UNO: match the colour or the symbol. Cannot play? Draw until you can, then you must "
             "play the card you drew. A 7 swaps hands with a player you choose; a 0 passes every hand on."),
    ("Stacking", "Every draw card (+2 +4 W+6 W+10 WR+4) can answer one played on you if it is as big or "
                 "bigger: the total grows and moves on. The table shows the total and who must answer; "
                 "d takes them all and you miss your turn."),
    ("+4", "Draw Four in a colour: the next player draws 4 (stackable)."),
    ("SA", "Skip Everyone: everyone else misses a turn; you play again."),
    ("DA", "Discard All: every card of its colour in your hand goes down with it."),
    ("WR+4", "Wild Reverse Draw Four: name a colour, play reverses, and the new next player draws 4."),
    ("W+6 W+10", "Wild Draw Six / Ten: name a colour; the next player draws 6 or 10."),
    ("WCR", "Wild Color Roulette: the next player names a colour, then turns up cards until one of that "
            "colour shows, keeps them all and misses a turn."),
    ("Mercy", "Hold 25 cards or more and you are out of the round. The winner scores the cards left in "
              "the other hands plus 250 per player knocked out; first to the target wins the match."),
    ("Cards", "New cards show their notation on their chip: +4 SA DA WR+4 W+6 W+10 WCR. Cards you just "
              "drew are marked new."),
]

PAGE = HelpPage((HelpSection("help-keys", "Keys", NOMERCY_KEYS),
                 HelpSection("help-rules", "No Mercy in brief", NOMERCY_RULES)))
