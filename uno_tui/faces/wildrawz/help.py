"""The help page of the Wild Rawz table: its keys and the game in brief."""

from __future__ import annotations

from ..face import HelpPage, HelpSection

WILDRAWZ_KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card (in the draft: a face-up card of the row)"),
    ("enter space", "take the chosen card from the row (draft), or play it to the trick"),
    ("v", "leave the trick with the chosen card (once per trick, not the leader)"),
    ("n", "deal the next round (a rematch once the match is over)"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("?", "this help"),
    ("ctrl+q", "quit (a round under way asks first; the game is saved for `uno-tui play --resume`)"),
]

WILDRAWZ_RULES: list[tuple[str, str]] = [
    ("Idea", "A trick-taking game with UNO cards: no discarding to match, no UNO calls. Score tricks, "
             "score the cards you leave with, and aim to hit your target exactly."),
    ("Draft", "Number cards lie face up in a row. In turn, each player takes one into their hand until "
              "one is left: its colour and number are the trump for the round."),
    ("Tricks", "The leader plays any card; the others follow the led colour if they can, otherwise play "
               "anything. The strongest card wins the trick and its winner leads next."),
    ("Strength", "The trump card itself; then the trump number in other colours; then the trump colour "
                 "9 to 0, then its Skip; then the led colour 9 to 0, then its Skip. Anything else never "
                 "wins. Between equal cards the later one wins."),
    ("Leave", "Once per trick, one player other than the leader may leave instead of playing (v): they "
              "lay any card beside their marker. It scores 1 point, lowers their target by its number "
              "(a Skip counts 0), and the leaver leads the next trick."),
    ("Target", "Your marker (8 with 3 players, 7 with 4) minus the numbers of your leaving cards. "
               "Win exactly that many tricks for a 5-point bonus."),
    ("Score", "1 per trick won, 1 per leaving card, plus the bonus. The match lasts two turns of the "
              "start marker round the table (6 rounds with 3 players, 8 with 4); the highest total wins."),
]

PAGE = HelpPage((HelpSection("help-keys", "Keys", WILDRAWZ_KEYS),
                 HelpSection("help-rules", "Wild Rawz in brief", WILDRAWZ_RULES)))
