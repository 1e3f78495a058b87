"""Scripted Diez positions (``core.new_game("diez", ..., setup=...)``): Diez's own keys on top
of the UNO family's (``core/setup.py``): ``piles`` (every discard pile, the first being
``discard``), ``colors`` (each pile's colour in play) and ``tokens`` (each player's)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import BLANK

if TYPE_CHECKING:
    from .game import DiezGame


def split(setup: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The keys the UNO family's setup reads, and Diez's own."""
    setup = dict(setup)
    extra = {k: setup.pop(k, None) for k in ("tokens", "piles", "colors")}
    if extra["piles"] is not None:
        setup["discard"] = extra["piles"][0]
    if extra["colors"] is not None:
        setup.setdefault("color", extra["colors"][0])
    return setup, extra


def lay_out(g: DiezGame, extra: dict[str, Any]) -> None:
    """Lay out the extra piles and the tokens, once the family's setup has dealt the rest."""
    tokens, piles, colors = extra["tokens"], extra["piles"], extra["colors"]
    g.piles = [g.discard]
    g.colors = [g.color]
    g.jump_ok, g.skipped, g.reversed = [False], [None], [False]
    for k, texts in enumerate(piles[1:] if piles else [], start=1):
        pile = []
        for text in texts:
            face = g.parse(text)
            for j, c in enumerate(g.draw_pile):
                if c.face == face:
                    pile.append(g.draw_pile.pop(j))
                    break
            else:
                raise ValueError(f"setup names more copies of {text} than the deck holds")
        g.piles.append(pile)
        g.colors.append(colors[k] if colors else pile[-1].color)
        g.jump_ok.append(False)
        g.skipped.append(None)
        g.reversed.append(False)
    g.colors = [None if p[-1].color == BLANK else c for p, c in zip(g.piles, g.colors)]
    g._focus(0)
    if tokens is not None:
        for q, kinds in enumerate(tokens):
            for kind in kinds:
                if kind not in g.bag:
                    raise ValueError(f"setup names more {kind} tokens than the bag holds")
                g.bag.remove(kind)
                g.tokens[q].append(kind)
