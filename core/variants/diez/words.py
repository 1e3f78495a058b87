"""Diez's event words for the log (registered with :func:`core.events.register_words`)."""

from __future__ import annotations

from typing import Any

from ...cards import RANK_NAMES
from ...events import Event, counted, register_words

CHALLENGED = {"DG": "Dagger", "W+4": "Draw 4", "WDC": "Draw Color", "WC": "Choice"}
WORDS: dict[str, Any] = {
    "jump_in": "{who} jumps in!",
    "swap": "{who} swaps hands with {tgt}.",
    "color": "{who} names {color}{pile}.",
    "stack": "{who} passes the stack ({n_cards}) to {tgt}.",
    "stop": "{who} stops the stack.",
    "tag": "{who} tags {tgt}.",
    "token_drop": "{who} drops all of {tgt}'s tokens.",
    "share": "{who} shares {n_cards} from {tgt}.",
    "cut": "{who} cuts the deck: a new pile{pile}.",
    "stitch": "{who} stitches another pile onto theirs (piles now: {n}).",
    "discard": "{who} discards {cards}{pile}.",
    "reveal": "{who}'s hand is shown: {cards}.",
    "give_card": "{who} gives {tgt} {cards}.",
    "needle": "{who} stops drawing (the Needle).",
    "bomb": "{who} drew a Bomb: 3 more cards.",
    "last_black": "{who} played a black card last and must draw 2.",
    "mirror_armed": "{who} holds a Mirror's effect: the next power card used on them turns back.",
    "mirror_used": "{who}'s Mirror effect turns {tgt}'s card back on {tgt}.",
}


def _challenge(e: Event, who: str, tgt: str) -> str:
    verdict = "guilty" if e.reason == "guilty" else "innocent"
    return f"{who} challenges {tgt}'s {CHALLENGED.get(e.color or '', 'card')}: {verdict}."


WORDS["challenge"] = _challenge
# The effect by its card's name ("Tag"), not its code ("TG"); none at all is a pass.
WORDS["choice"] = lambda e, who, tgt: (f"{who} chooses the Choice's effect: {RANK_NAMES.get(e.reason, e.reason)}."
                                       if e.reason else f"{who} chooses no effect for the Choice.")


def _search(e: Event, who: str, tgt: str) -> str:
    if e.reason == "white":  # a sealed game: the White's search, one card at a time
        return f"{who} turns up the draw pile's next card, looking for a White one."
    if e.reason == "revive":  # a sealed game: the pile mixed face down, shown to the searcher
        return f"{who} looks through the discard pile (face down to everyone else)."
    return f"{who} looks through the draw pile."


WORDS["search"] = _search


def token_word(kind: str) -> str:
    """A token's name as a word: ``ace`` -> ``Ace``."""
    return kind.title()


def a_token(kind: str, capital: bool = False) -> str:
    """``a Hex token``, ``an Ace token``: the article goes by the word that follows it."""
    word = token_word(kind)
    article = "an" if word[:1].lower() in "aeiou" else "a"
    return f"{article.capitalize() if capital else article} {word} token"


WORDS["proc"] = lambda e, who, tgt: f"{who} procs {token_word(e.reason or '')}."  # "procs Mirror", not "mirror"
WORDS["token_draw"] = lambda e, who, tgt: f"{who} draws {a_token(e.reason or '')}."
WORDS["token_give"] = lambda e, who, tgt: f"{who} gives {a_token(e.reason or '')} to {tgt}."
WORDS["token_remove"] = lambda e, who, tgt: f"{a_token(e.reason or '', capital=True)} of {tgt}'s goes back to the bag."
WORDS["token_steal"] = lambda e, who, tgt: f"{who} steals {tgt}'s {token_word(e.reason or '')} token."
WORDS["token_trigger"] = lambda e, who, tgt: f"{who}'s {token_word(e.reason or '')} token acts and is spent."
WORDS["token_effect"] = lambda e, who, tgt: (f"{who}'s {token_word(e.reason or '')} tokens add "
                                             f"{counted(e.count, 'card')}.")

DRAW_REASONS = {
    "dagger": " (Dagger)",
    "draw_color": " until the colour comes (Draw Color)",
    "hex": " (Hex)",
    "ace": " searched out with the Ace",
    "revive": " revived from the pile",
    "white": " (the White token)",
    "mulligan": " after the Mulligan",
    "bomb": " (the Bomb)",
}

register_words("diez", WORDS, DRAW_REASONS)
