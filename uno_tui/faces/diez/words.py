"""Diez in words for the screen: tokens, cards, every legal action, the status line.

Pure functions of observations (no Textual), so the wording can be tested alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from core import Card as CoreCard
from core import notation

from ...narration import between_rounds, forgot_uno

Obs = dict[str, Any]

# kind: (short label, trap?, what it does, its Proc)
TOKENS: dict[str, tuple[str, bool, str, str]] = {
    "hex": ("Hex", False, "Forced draws cost you one more card per Hex you hold.",
            "The next player draws one card per token they hold."),
    "magnet": ("Mag", False, "When another player is forced to draw, they may give you one of the cards drawn.",
               "Give any one card of yours to the next player."),
    "silence": ("Sil", False, "You cannot stack or jump in.", "On a stack: works as a Stop (cancels it)."),
    "block": ("Blk", False, "Nobody may give you tokens.",
              "A Block goes back to the bag; you may replace it with a token from the bag."),
    "reveal": ("Rev", False, "Your hand lies open: everyone sees it.", "The next player's hand is shown to all, once."),
    "link": ("Lnk", False, "A 6 or 9 may go on a 6 or 9 of any colour.",
             "Play a 6 or 9 from your hand on any pile, whatever its colour."),
    "snare": ("Snr", True, "Cancels the effect of the next power or effect card you play (a wild still names "
                           "its colour; on a stack you draw it). Then it is spent.",
              "On a stack: works as a Stop."),
    "mirror": ("Mir", True, "The next card used on you (Skip, Draw 2, Draw 4, Draw Color, Dagger, Tag, Trade, "
                            "Share, a Choice's effect, a Hex, Magnet, Reveal or White Proc, a stack moved at you) "
                            "turns back on its player. Then it is spent.",
               "On a stack: the stack goes back to whoever sent it. Otherwise you hold a Mirror's effect "
               "([Mir]) for the next card used on you."),
    "ace": ("Ace", True, "On a forced draw you may first search the draw pile for any card. Then it is spent.",
            "Search the draw pile for any card."),
    "double": ("Dbl", True, "Your next forced draw is doubled. Then it is spent.",
               "On a stack: doubles it and moves it to the next player."),
    "sub": ("Sub", True, "When another player plays a wild, you may name the colour instead. Then it is spent.",
            "A Wild on the Proc's pile: you name its colour."),
    "white": ("Wht", True, "On a forced draw the topmost White card of the draw pile comes first. Then it is spent.",
              "The next player gets the topmost White card of the draw pile."),
}
TRAPS = frozenset(k for k, v in TOKENS.items() if v[1])

# rank: (what it is, what it does) for the help page.
CARDS: list[tuple[str, str]] = [
    ("R7 RX RE", "Numbers 0-9, Dek (X, 10) and El (E, 11) in four colours: match colour or number."),
    ("WH0-WH4", "White numbers: match white or their number. White is never named by a wild."),
    ("BLANK", "Blank: goes on anything, and anything goes on it."),
    ("BN", "Needle (blue): when you draw it you may stop drawing (s), whatever made you draw."),
    ("RS", "Skip: the next player misses a turn."),
    ("RR", "Reverse: play changes direction (with two players: a Skip)."),
    ("R+2", "Draw 2: the next player draws 2 and misses the turn, or stacks on it."),
    ("RST", "Stop: no effect when played; cancels a stack; jumps in on a power card of its colour."),
    ("RTG", "Tag: the turn goes to any player you choose, you included."),
    ("RDG", "Dagger [C]: the next player draws 1 and keeps the turn; they may challenge (c)."),
    ("RTK", "Token: draw a token from the bag and give it to a player, or remove any player's token."),
    ("RTR", "Trade (red): swap hands with the next player."),
    ("RSH", "Share (red): the next player takes cards from whoever holds most until level."),
    ("YPR", "Proc (yellow): use the special effect of any token in play (traps are not spent)."),
    ("YCD", "Cut Deck (yellow): play it beside the piles to open a new discard pile."),
    ("GSL", "Steal (green): take a token from another player."),
    ("GRV", "Revive (green): search this pile for any non-wild card and take it (only you see the pile)."),
    ("BSD", "Stitch Deck (blue): lay another discard pile on top of this one."),
    ("W", "Wild: name a colour."),
    ("W+4", "Draw 4 [C]: name a colour; the next player draws 4 (stackable) or challenges."),
    ("WM", "Mulligan: name a colour, discard cards face down one at a time (p ends), draw as many."),
    ("WF", "Flush: name a colour, discard cards of that colour one at a time (p ends)."),
    ("WB", "Bomb: a Wild; drawn in a natural draw it makes you draw 3 more."),
    ("WDC", "Draw Color [C]: name a colour; the next player draws until it comes."),
    ("WDA", "Drop All: remove all tokens of a player, then name a colour."),
    ("WC", "Choice [C]: name a colour, then choose the effect of a power card."),
]

SCORING_WORDS = {"points": "points: the winner scores the cards left in other hands",
                 "rounds": "rounds: one point per round won"}


def token_label(kind: str) -> str:
    return TOKENS.get(kind, (kind.title(),))[0]


def token_name(kind: str) -> str:
    return kind.title()


def card_name(card: dict[str, Any]) -> str:
    return CoreCard.from_dict(dict(card)).name


def card_text(card: dict[str, Any]) -> str:
    return notation(card["color"], card["rank"])


def rank_name(rank: str) -> str:
    return CoreCard(0, None, rank).name


def step_op(obs: Obs) -> str | None:
    """The decision being made: the step's name (a Sub holder's colour is ``"sub"``, the phase's name)."""
    step = obs.get("step") or {}
    if obs.get("phase") == "sub":
        return "sub"
    return step.get("op")


def known_cards(obs: Obs) -> dict[int, dict[str, Any]]:
    """Every card this player can see, by id (hand, searched pile, pile tops, open hands)."""
    cards: dict[int, dict[str, Any]] = {}
    groups: list[Iterable[dict[str, Any]]] = [obs.get("hand") or (), obs.get("search") or (),
                                              [p["top"] for p in obs.get("piles") or () if p.get("top")]]
    groups += [p.get("hand") or () for p in obs["players"]]
    for group in groups:
        for c in group:
            cards[c["id"]] = c
    return cards


def pile_word(obs: Obs, i: int | None) -> str:
    piles = obs.get("piles") or []
    if i is None:
        return ""
    if i >= len(piles):
        return "on a new pile"
    return f"on pile {i + 1}" if len(piles) > 1 else ""


def _who(q: int | None, names: Sequence[str], me: int | None) -> str:
    if q is None:
        return "someone"
    return "you" if q == me else names[q]


def action_words(a: dict[str, Any], obs: Obs, names: Sequence[str]) -> str:
    """A legal action in words, for the action lists."""
    me = obs.get("me")
    kind = a["kind"]
    step = obs.get("step") or {}
    op = step_op(obs) or obs["phase"]
    cards = known_cards(obs)
    card = cards.get(a.get("card")) if a.get("card") is not None else None
    cname = card_name(card) if card else "a card"
    tgt = a.get("target")
    if kind == "play":
        where = pile_word(obs, tgt)
        verb = "Jump in with" if obs["current"] != me else "Play"
        return f"{verb} {cname}" + (f" {where}" if where else "")
    if kind == "draw":
        if obs["phase"] == "stack":
            return f"Take the stack: draw {(obs.get('pending') or {}).get('total', 0)}"
        if op == "challenge":
            return "Accept it (draw)"
        if op == "needle":
            return "Go on drawing"
        return "Draw"
    if kind == "pass":
        return {
            "drawn": "Keep the card you drew", "sub": "Let them name the colour", "search": "Take nothing",
            "discard": "Stop discarding", "proc": "Use no token", "replace": "Do not replace it",
            "link": "Play no 6 or 9", "give_card": "Give no card", "magnet": "Give no card",
            "choice": "No effect", "challenge": "Accept the Choice",
        }.get(op, "Pass")
    if kind == "stop":
        return "Stop drawing (the Needle)"
    if kind == "color":
        return f"Name {a['color']}"
    if kind == "effect":
        return f"Effect: {rank_name(a['color'])}"
    if kind == "target":
        return f"Tag {_who(tgt, names, me)}"
    if kind == "draw_token":
        return "Draw a token from the bag and give it to someone"
    if kind == "give" and card is None and a.get("card") is None:
        return f"Give the {token_name(step.get('token') or '?')} token to {_who(tgt, names, me)}"
    if kind == "give":
        to = tgt if tgt is not None else step.get("to")
        return f"Give {cname} to {_who(to, names, me)}"
    if kind == "remove":
        return f"Remove {_who(tgt, names, me)}'s {token_name(a['color'])} token"
    if kind == "take" and a.get("card") is not None:
        return f"Take {cname}"
    if kind == "take":
        return f"Take {_who(tgt, names, me)}'s {token_name(a['color'])} token"
    if kind == "drop":
        toks = obs["players"][tgt].get("tokens") or []
        return f"Drop all of {_who(tgt, names, me)}'s tokens ({', '.join(map(token_name, toks))})"
    if kind == "stitch":
        return f"Stitch pile {tgt + 1} onto yours"
    if kind == "discard":
        return f"Discard {cname}"
    if kind == "proc":
        k = a["color"]
        extra = f" (take {_who(tgt, names, me)}'s Block)" if tgt is not None else ""
        return f"Proc {token_name(k)}{extra}: {TOKENS.get(k, ('', False, '', ''))[3]}"
    if kind == "replace":
        return "Replace it with a token from the bag"
    if kind == "challenge":
        return "Challenge"
    if kind == "uno":
        return "Call UNO"
    if kind == "catch":
        return f"Catch {_who(tgt, names, me)} (no UNO)"
    return kind + "".join(f" {k}={v}" for k, v in a.items() if k != "kind")


CHALLENGED = {"DG": "Dagger", "W+4": "Draw 4", "WDC": "Draw Color", "WC": "Choice"}

PROMPTS = {
    "color": "Name a colour for your {card}",
    "sub": "Your Sub token: name the colour of {by}'s wild instead?",
    "choice": "Your Choice: which effect?",
    "target": "Your Tag: who plays next?",
    "token": "Your Token card: draw one to give, or remove one",
    "give": "Give the {token} token to whom?",
    "steal": "Your Steal: take whose token?",
    "drop": "Your Drop All: whose tokens go?",
    "search": "Search: take a card (only you see it)",
    "stitch": "Your Stitch Deck: which pile goes on top of yours?",
    "proc": "Your Proc: which token's effect?",
    "replace": "Replace the Block with a token from the bag?",
}


def prompt_title(obs: Obs, names: Sequence[str]) -> str:
    step = obs.get("step") or {}
    op = step_op(obs) or obs["phase"]
    me = obs.get("me")
    piles, i = obs.get("piles") or [], step.get("pile")
    top = piles[i]["top"] if isinstance(i, int) and i < len(piles) else obs.get("top")
    text = PROMPTS.get(op, "Choose")
    return text.format(card=card_name(top) if top else "card", by=_who(step.get("who"), names, me).title(),
                       token=token_name(token if isinstance(token := step.get("token"), str) else "?"))


def prompt_note(obs: Obs) -> str:
    """A line under a list's title that helps choose: what the token being given does."""
    step = obs.get("step") or {}
    kind = step.get("token") if step_op(obs) == "give" else None
    if kind in TOKENS:
        return f"{token_name(kind)}: {TOKENS[kind][2]}"
    return ""


def status_line(obs: Obs, names: Sequence[str], deals: bool = True) -> str:
    """What is going on at a Diez table and which keys matter now."""
    me = obs.get("me")
    legal = obs.get("legal") or []
    kinds = {a["kind"] for a in legal}
    players = obs["players"]
    pending = obs.get("pending") or {}
    step = obs.get("step") or {}
    op = step_op(obs)
    if obs["over"]:
        if obs["match_over"]:
            return f"{_who(obs['match_winner'], names, me).title()} won the match. {between_rounds(obs, deals)}"
        return f"{_who(obs['winner'], names, me).title()} won the round (+{obs['points']}). {between_rounds(obs, deals)}"
    exposed = [i for i, p in enumerate(players) if p["exposed"]]
    if me is not None and me in exposed:
        return "You have one card and did not call UNO: press u before someone catches you!"
    if exposed and "catch" in kinds:
        return forgot_uno(names[exposed[0]], me is not None and obs["current"] == me and obs["phase"] == "play"
                          and not op)
    if me is None or obs["current"] != me:
        if "play" in kinds:
            return "Jump in! j (or enter) plays your identical card out of turn · a: all actions"
        who = names[obs["current"]]
        if obs["phase"] == "stack":
            return f"{who} must answer +{pending.get('total', 0)} on pile {pending.get('pile', 0) + 1}…"
        if op == "challenge":
            return f"{who} may challenge the {CHALLENGED.get(step.get('card'), 'card')}…"
        if op:
            return f"{who} is deciding ({op.replace('_', ' ')})…"
        return f"{who} is playing…"
    if obs["phase"] == "stack":
        total = pending.get("total", 0)
        ans = "enter stacks the chosen card" if "play" in kinds else "nothing to stack"
        extra = " · c challenges the Draw 4" if "challenge" in kinds else ""
        return f"+{total} on you (pile {pending.get('pile', 0) + 1})! {ans}{extra} · d draws {total}"
    if op == "challenge":
        what = CHALLENGED.get(step.get("card"), "card")
        by = _who(step.get("by"), names, me)
        accept = "p accepts" if "pass" in kinds else "d accepts (draws)"
        return f"{by.title()}'s {what} is on you: c challenges · {accept} · a: all actions"
    if op == "needle":
        return "The Needle! s stops drawing · d goes on drawing"
    if op == "discard":
        mode = "face down (Mulligan)" if step.get("mode") == "mulligan" else f"of {step.get('color')} (Flush)"
        return f"Discard {mode}: enter discards the chosen card · p stops"
    if op == "link":
        return "Link Proc: enter plays the chosen 6 or 9 on any pile · p plays none"
    if op in ("give_card", "magnet"):
        return "Give a card: enter gives the chosen card · p gives none"
    if op:
        title = prompt_title(obs, names)
        return f"{title}{'' if title.endswith('?') else ':'} enter opens the choices · a: all actions"
    if obs["phase"] == "drawn":
        return "You drew a playable card: enter plays it, p keeps it."
    hint = "←/→ choose · enter play · d draw · a: all actions"
    if "uno" in kinds:
        hint += " · u call UNO first!"
    if "pass" in kinds and "draw" not in kinds:
        hint = "Nothing left to draw: play a card or p to pass."
    return f"Your turn. {hint}"


def status_flags(obs: Obs) -> tuple[bool, bool]:
    """(urgent, your turn): a stack, a challenge or the Needle on you, a chance to jump in, a forgotten UNO."""
    me = obs["me"]
    step = obs.get("step") or {}
    kinds = {a["kind"] for a in obs.get("legal") or ()}
    mine = obs["current"] == me and not obs["over"]
    urgent = mine and (obs["phase"] == "stack" or step.get("op") in ("challenge", "needle"))
    jump = not mine and "play" in kinds
    exposed = any(p["exposed"] for p in obs["players"])
    return urgent or jump or exposed, mine
