"""Diez's event words for the log (registered with :func:`core.events.register_words`)."""

from __future__ import annotations

from typing import Any

from ...events import Event, register_words

CHALLENGED = {"DG": "Dagger", "W+4": "Draw 4", "WDC": "Draw Color", "WC": "Choice"}
WORDS: dict[str, Any] = {
    "color": "{who} names {color}{pile}.",
    "stack": "{who} passes the stack ({n} cards) to {tgt}.",
    "stop": "{who} stops the stack.",
    "tag": "{who} tags {tgt}.",
    "token_draw": "{who} draws a {kind} token.",
    "token_give": "{who} gives a {kind} token to {tgt}.",
    "token_remove": "A {kind} token of {tgt}'s goes back to the bag.",
    "token_steal": "{who} steals {tgt}'s {kind} token.",
    "token_drop": "{who} drops all of {tgt}'s tokens.",
    "token_trigger": "{who}'s {kind} token acts and is spent.",
    "token_effect": "{who}'s {kind} tokens add {n} cards.",
    "share": "{who} shares {n} cards from {tgt}.",
    "cut": "{who} cuts the deck: a new pile{pile}.",
    "stitch": "{who} stitches another pile onto theirs (piles now: {n}).",
    "discard": "{who} discards {cards}{pile}.",
    "proc": "{who} procs {kind}.",
    "reveal": "{who}'s hand is shown: {cards}.",
    "give_card": "{who} gives {tgt} {cards}.",
    "needle": "{who} stops drawing (the Needle).",
    "bomb": "{who} drew a Bomb: 3 more cards.",
    "last_black": "{who} played a black card last and must draw 2.",
    "choice": "{who} chooses the Choice's effect: {kind}.",
}


def _challenge(e: Event, who: str, tgt: str) -> str:
    verdict = "guilty" if e.reason == "guilty" else "innocent"
    return f"{who} challenges {tgt}'s {CHALLENGED.get(e.color or '', 'card')}: {verdict}."


WORDS["challenge"] = _challenge

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
