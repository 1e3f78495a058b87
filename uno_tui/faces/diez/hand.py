"""Your Diez hand: the classic hand view with White and Blank cards.

A card is marked usable (filled, with dots) when any legal action names it:
a play, a jump-in, a discard to a Mulligan or Flush, a card to give away.
Those lists hold one card per face, so every copy of that face is marked.
"""

from __future__ import annotations

from typing import Any

from ...widgets.hand import HandView

CARD_KINDS = frozenset({"play", "discard", "give"})


class DiezHandView(HandView):
    def usable_faces(self) -> set[tuple[Any, Any]]:
        if self.obs is None:
            return set()
        ids = {a["card"] for a in self.obs.get("legal", ()) if a["kind"] in CARD_KINDS and a.get("card") is not None}
        return {(c["color"], c["rank"]) for c in self.obs.get("hand") or () if c["id"] in ids}

    def playable_ids(self) -> set[int]:
        faces = self.usable_faces()
        return {c["id"] for c in self.cards if (c["color"], c["rank"]) in faces}

    def _outlines(self, playable: set[int]) -> bool:
        # Out of turn too, when a card can be used (a jump-in, a card to give).
        return super()._outlines(playable) or bool(playable)
