"""The Diez table: the shared table's machinery with every pile, every token and every decision.

Layout: the match bar; the players (cards, tokens, open hands) beside the
discard piles (each pile's top, count and colour, the pile last played on
heavy-rimmed, ``J`` where you can jump in, the stack and any challenge);
your hand; the log; the status line with the keys that matter now.

Keys (the table's habits, plus Diez's): ←/→ choose, enter plays (a list
asks for the pile when there are several), ``j`` jumps in, ``d`` draws or
takes a stack, ``p`` keeps or declines, ``c`` challenges, ``s`` stops at
the Needle, ``a`` lists every legal action in words. A decision step
(colour, targets, tokens, searches, Procs, ...) opens its own list by
itself; enter opens it again after escape. Discards to a Mulligan or Flush,
a Magnet's gift and a Link play are made from the hand with enter, and p
ends them. Nothing here decides a rule: every choice offered comes from
``obs["legal"]``.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding

from core import Action

from ...screens.pickers import ChoicePicker, ColorPicker
from ...screens.table import TableScreen, table_bindings
from ...widgets import HandView
from .hand import DiezHandView
from .pickers import SearchPicker
from .widgets import DiezPilesView, DiezPlayersView
from .words import action_words, card_name, prompt_note, prompt_title, step_op

LIST_STEPS = frozenset({"sub", "choice", "target", "token", "give", "steal", "drop", "stitch", "proc", "replace"})
"""Decision steps answered from a list that opens by itself."""
HAND_STEPS = frozenset({"discard", "link", "give_card", "magnet"})
"""Decision steps answered from the hand (enter on a card; p ends)."""
KEY_STEPS = frozenset({"needle", "challenge"})
"""Decision steps answered by keys (s/d, c/d/p), as the status line says."""

DIEZ_CSS = """
DiezTableScreen DiezPilesView {
    width: 40; height: auto; border: round $primary 60%; border-title-color: $text; padding: 0 1;
}
DiezTableScreen.-narrow DiezPilesView { width: 34; }
DiezTableScreen DiezPlayersView {
    width: 1fr; height: auto; min-height: 7; border: round $primary 60%; border-title-color: $text; padding: 0 1;
}
DiezPilesView > .pile--label { color: $text-muted; }
DiezPilesView > .pile--alert { color: $error; text-style: bold; }
DiezPlayersView > .players--current { background: $accent 25%; text-style: bold; }
DiezPlayersView > .players--me { color: $text; }
DiezPlayersView > .players--uno { color: $success; text-style: bold; }
DiezPlayersView > .players--exposed { background: $error; color: $text; text-style: bold; }
DiezPlayersView > .players--backs { color: $primary-lighten-2; }
DiezPlayersView > .players--dim { color: $text-muted; }
"""


class DiezTableScreen(TableScreen, inherit_bindings=False):
    DEFAULT_CSS = DIEZ_CSS
    BINDINGS = table_bindings(
        "play",
        Binding("j", "jump", "jump in", show=False),  # the status line and the pile's J say when
        Binding("d", "intent('draw')", "draw"),
        Binding("p", "intent('pass')", "pass"),
        Binding("c", "intent('challenge')", "challenge", show=False),
        Binding("s", "intent('stop')", "stop", show=False),
        Binding("a", "actions", "all actions"),
        Binding("u", "intent('uno')", "UNO"),
        Binding("x", "catch", "catch", show=False),
        Binding("n", "next_round", "next", show=False),
    )

    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        yield DiezPlayersView(names, labels, id="players").data_bind(TableScreen.obs)
        yield DiezPilesView(names, id="pile").data_bind(TableScreen.obs)

    def _hand_view(self) -> HandView:
        return DiezHandView(self.face.card_painting(), id="hand")

    def _hand_title(self, obs: dict[str, Any]) -> str:
        title = super()._hand_title(obs)
        toks = obs["players"][obs["me"]].get("tokens") or []
        if toks:
            title += " · tokens " + " ".join(t.title() for t in toks)
        if obs["players"][obs["me"]].get("revealed"):
            title += " · open to all (Reveal)"
        return title

    # -- what is asked of you ------------------------------------------------------------------
    def _step_op(self) -> str | None:
        obs = self.obs
        if obs is None or obs["over"] or obs["current"] != obs["me"]:
            return None
        return step_op(obs)

    def _open_prompt(self, obs: dict[str, Any]) -> bool:
        """Open the list (or colour picker, or searched pile) for a decision that is yours."""
        op = self._step_op()
        if op is None or op in HAND_STEPS or op in KEY_STEPS or not obs.get("legal"):
            return False
        self._ask(op)
        return True

    def _ask(self, op: str) -> None:
        assert self.obs is not None
        obs, names = self.obs, self.session.names
        legal = self._legal()
        if op == "color" and all(a.kind == "color" for a in legal if a.kind not in ("uno", "catch")):
            def named(color: str | None) -> None:
                if color is not None:
                    self._send(Action("color", color=color))

            self.app.push_screen(ColorPicker("card", obs.get("hand", ()), title=prompt_title(obs, names)), named)
            return
        if op == "search":
            self.app.push_screen(SearchPicker(prompt_title(obs, names), obs.get("search") or [], legal),
                                 self._sent)
            return
        if op in LIST_STEPS:
            options = [(action_words(a.to_dict(), obs, names), a) for a in legal if a.kind not in ("uno", "catch")]
            self.app.push_screen(ChoicePicker(prompt_title(obs, names), options, kind=op, note=prompt_note(obs)),
                                 self._sent)
            return
        self.action_actions()  # a step this table has no list for: every legal action, in words

    def action_actions(self) -> None:
        """Every legal action, in words: the way out of any situation."""
        assert self.obs is not None
        obs = self.obs
        legal = self._legal()
        if not legal:
            self._explain("there is nothing for you to do right now")
            return
        options = [(action_words(a.to_dict(), obs, self.session.names), a) for a in legal]
        self.app.push_screen(ChoicePicker("Everything you can do now", options, kind="actions"), self._sent)

    # -- playing -------------------------------------------------------------------------------
    def _for_card(self, card: dict[str, Any], kinds: tuple[str, ...]) -> list[Action]:
        """Legal actions naming this card, or (lists hold one card per face) an identical one."""
        assert self.obs is not None
        legal = [a for a in self._legal() if a.kind in kinds and a.card is not None]
        exact = [a for a in legal if a.card == card["id"]]
        if exact:
            return exact
        face = (card["color"], card["rank"])
        hand = {c["id"]: (c["color"], c["rank"]) for c in self.obs.get("hand") or ()}
        return [a for a in legal if hand.get(a.card) == face]

    def action_play(self) -> None:
        assert self.obs is not None
        op = self._step_op()
        if op is not None and op not in HAND_STEPS:
            if op in KEY_STEPS:
                self.action_actions()
            else:
                self._ask(op)
            return
        hand = self.query_one(DiezHandView)
        card = hand.selected_card
        if card is None:
            self._explain("you have no card to play")
            return
        if op in ("discard", "give_card", "magnet"):
            acts = self._for_card(card, ("discard", "give"))
            if not acts:
                self._explain(f"{card_name(card)} cannot be {'discarded' if op == 'discard' else 'given'} now")
            elif len(acts) == 1:
                self._send(acts[0])
            else:
                self._pick("Give it to whom?", acts, "give")
            return
        me, cur = self.obs["me"], self.obs["current"]
        if cur != me and not self._for_card(card, ("play",)):
            jumps = self._legal("play")
            if jumps:  # enter plays the card that can jump in
                card = next((c for c in hand.cards if c["id"] == jumps[0].card), card)
        self._play(card)

    def action_jump(self) -> None:
        assert self.obs is not None
        jumps = self._legal("play") if self.obs["current"] != self.obs["me"] else []
        if not jumps:
            self._explain("you hold no card identical to a top card (or a Stop for a power card of its colour)")
            return
        hand = self.query_one(DiezHandView)
        card = next((c for c in hand.cards if c["id"] == jumps[0].card), None)
        if card is not None:
            self._play(card)

    def _play(self, card: dict[str, Any]) -> None:
        assert self.obs is not None
        plays = self._for_card(card, ("play",))
        if not plays:
            self._send(Action("play", card["id"]))  # not legal: the engine says why
            return
        if self.obs["current"] != self.obs["me"]:
            self.notify("Jump in!", timeout=2)
        if len(plays) == 1:
            self._send(plays[0])
            return
        self._pick(f"Your {card_name(card)}: on which pile?", plays, "pile")

    def _pick(self, title: str, acts: list[Action], kind: str) -> None:
        assert self.obs is not None
        options = []
        piles = self.obs.get("piles") or []
        for a in acts:
            if kind == "pile":
                i = a.target or 0
                if i >= len(piles):
                    label = "A new pile beside the others"
                else:
                    p = piles[i]
                    top = card_name(p["top"]) if p["top"] else "empty"
                    count = f"{p['count']} card{'' if p['count'] == 1 else 's'}"
                    label = f"Pile {i + 1}: {top} · {p['color'] or 'any colour'} · {count}"
            else:
                label = action_words(a.to_dict(), self.obs, self.session.names)
            options.append((label, a))
        self.app.push_screen(ChoicePicker(title, options, kind=kind), self._sent)

    def action_intent(self, kind: str) -> None:
        legal = self._legal(kind)
        if kind == "pass" and not legal and self._step_op() in LIST_STEPS:
            self._ask(self._step_op() or "")  # no "pass" here: show what can be chosen
            return
        self._send(legal[0] if legal else Action(kind))
