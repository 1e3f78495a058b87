"""The Diez help page: the keys, the turn in brief, every card and every token."""

from __future__ import annotations

from ..face import HelpPage, HelpSection
from .words import CARDS, TOKENS

DIEZ_KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card in your hand"),
    ("enter space", "play it (with several piles, a list asks which; Cut Deck and Choice may open a new one); "
                    "during a Mulligan or Flush discard it; for a Magnet give it; in a decision, open its choices"),
    ("j", "jump in: play your card identical to a top card, out of turn (a Stop jumps on a power card of its colour)"),
    ("d", "draw; on a stack take it all; accept a Dagger or Draw Color; go on drawing past the Needle"),
    ("p", "keep the card you drew; stop discarding; decline (no Sub colour, no search, no Proc, ...)"),
    ("c", "challenge a Dagger, Draw 4, Draw Color or Choice played on you"),
    ("s", "stop drawing when you draw the Needle"),
    ("a", "every action you can take now, in words (nothing can leave you stuck)"),
    ("u x", "call UNO with your second-to-last card; catch a player who did not"),
    ("n ?", "next round; this help"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
]

DIEZ_RULES: list[tuple[str, str]] = [
    ("Turn", "You must play and/or draw. With no playable card you draw until one comes, then play or keep "
             "it; holding one you may draw just 1. A black card played last: draw 2 (it does not win)."),
    ("Piles", "Each pile has its own top and colour; play on any (the table shows which is which: pile "
              "number · cards, colour below, heavy rim = last played on)."),
    ("Stacking", "On a Draw 2 or Draw 4 the victim may stack on the same pile: Skip, Reverse, Draw 2, "
                 "Draw 4, Stop (cancels), Tag, Proc (a stackable token), Choice; or d draws the total."),
    ("[C]", "Dagger, Draw 4, Draw Color and Choice may be challenged (c) if the player held the colour "
            "played on: guilty, they take the effect; innocent, you take it plus a penalty."),
    ("Jump-in", "Hold the exact top card? Play it out of turn (j): it cancels the card's effect and the "
                "stack. Marked J on the pile when you can, j when anyone could."),
    ("Tokens", "At most 3 each, public. Green: lasting effects; yellow italic: traps, spent when they act. "
               "[Mir]: a Mirror's effect held from a Proc (not a token)."),
    ("Score", "Empty your hand to win the round (option scoring: card points, or rounds won)."),
]


TOKEN_ROWS: list[tuple[str, str]] = [(f"{name.title()} ({abbr}{', trap' if trap else ''})", f"{what} Proc: {proc}")
                                     for name, (abbr, trap, what, proc) in TOKENS.items()]

PAGE = HelpPage((HelpSection("help-keys", "Keys", DIEZ_KEYS),
                 HelpSection("help-rules", "Diez in brief", DIEZ_RULES),
                 HelpSection("help-cards", "Cards", CARDS),
                 HelpSection("help-tokens", "Tokens", TOKEN_ROWS)),
                close="esc, ? or q closes this help · ↑/↓ or the mouse wheel scrolls")
