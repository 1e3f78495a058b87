"""The Diez table: the UNO table's machinery with every pile, every token and every decision.

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

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from core import Action

from ..widgets import GameLog, HandView, StatusLine
from ..widgets.diez_cards import DiezCardPainter, inline_card, sort_key
from ..widgets.diez_hand import DiezHandView
from ..widgets.diez_table import DiezPilesView, DiezPlayersView
from ..widgets.diez_words import (
    action_words,
    card_name,
    prompt_note,
    prompt_title,
    status_line,
    step_op,
)
from .color_picker import ColorPicker
from .diez_help import DiezHelpScreen
from .diez_pickers import ChoicePicker, SearchPicker
from .round_over import HandsTable, RoundOverScreen
from .table import LOG_BINDING, TableScreen

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


class DiezStatusLine(StatusLine):
    def watch_obs(self, obs: dict[str, Any] | None) -> None:
        if obs is None:
            return
        me = obs["me"]
        step = obs.get("step") or {}
        kinds = {a["kind"] for a in obs.get("legal") or ()}
        mine = obs["current"] == me and not obs["over"]
        urgent = mine and (obs["phase"] == "stack" or step.get("op") in ("challenge", "needle"))
        jump = not mine and "play" in kinds
        exposed = any(p["exposed"] for p in obs["players"])
        self.set_class(urgent or jump or exposed, "-alert")
        self.set_class(mine, "-your-turn")

    def render(self) -> Text:
        return Text(status_line(self.obs, self.names, self.deals) if self.obs else "")


class DiezHandsTable(HandsTable, DiezCardPainter):
    COMPONENT_CLASSES = HandsTable.COMPONENT_CLASSES | DiezCardPainter.COMPONENT_CLASSES

    def render(self) -> Any:
        from rich.table import Table

        obs = self.obs
        palette = self.palette()
        dim = self.get_component_rich_style("hands--dim")
        win = self.get_component_rich_style("hands--winner")
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        table.add_column(justify="right", no_wrap=True)
        for p in sorted(range(len(self.names)), key=lambda p: (p != obs["winner"], p)):
            name = "You" if p == obs["me"] else self.names[p]
            hand = sorted(obs["hands"][p], key=sort_key)
            if hand:
                cards = Text(" ").join(inline_card(c, palette) for c in hand)
                cards.append(f"  ({obs['hand_points'][p]})", dim)
            else:
                cards = Text(f"out! +{obs['points']} points", win)
            total = Text(f"{obs['scores'][p]}", style="bold")
            total.append(f" / {obs['target_score']}", dim)
            table.add_row(Text(name, style=win if p == obs["winner"] else ""), cards, total)
        return table


class DiezRoundOverScreen(RoundOverScreen):
    def compose(self) -> ComposeResult:
        obs = self.obs
        winner = obs["winner"]
        rounds = (obs.get("options") or {}).get("scoring") == "rounds"
        verb = "win" if winner == obs["me"] else "wins"
        gain = "a round point" if rounds else f"{obs['points']} points"
        unit = "rounds won" if rounds else "points"
        with Vertical(id="round-over"):
            yield Static(f"{self._who(winner)} {verb} the round and score{'' if verb == 'win' else 's'} {gain}.",
                         id="round-headline")
            with VerticalScroll(id="round-hands"):
                yield DiezHandsTable(obs, self.names)
            yield from self._compose_match_end(unit)


class DiezTableScreen(TableScreen, inherit_bindings=False):
    DEFAULT_CSS = DIEZ_CSS
    BINDINGS = [
        Binding("left,h", "select(-1)", "pick", key_display="←→"),
        Binding("right,l", "select(1)", "pick", show=False),
        Binding("enter,space", "play", "play", key_display="⏎"),
        Binding("j", "jump", "jump in", show=False),  # the status line and the pile's J say when
        Binding("d", "intent('draw')", "draw"),
        Binding("p", "intent('pass')", "pass"),
        Binding("c", "intent('challenge')", "challenge", show=False),
        Binding("s", "intent('stop')", "stop", show=False),
        Binding("a", "actions", "all actions"),
        Binding("u", "intent('uno')", "UNO"),
        Binding("x", "catch", "catch", show=False),
        Binding("n", "next_round", "next", show=False),
        LOG_BINDING,
        Binding("question_mark", "help", "help", key_display="?"),
    ]

    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        yield DiezPlayersView(names, labels, id="players").data_bind(TableScreen.obs)
        yield DiezPilesView(names, id="pile").data_bind(TableScreen.obs)

    def _compose_below_hand(self, names: list[str]) -> ComposeResult:
        yield from ()

    def _hand_view(self) -> HandView:
        return DiezHandView(id="hand")

    def _status_line(self, names: list[str]) -> Widget:
        return DiezStatusLine(names, id="status")

    def _set_titles(self) -> None:
        self.query_one("#log").border_title = "Log"
        self.query_one(GameLog).variant = "diez"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not self._too_small

    def _refresh(self) -> None:
        super()._refresh()
        obs = self.obs
        assert obs is not None
        if obs.get("me") is not None:
            toks = obs["players"][obs["me"]].get("tokens") or []
            if toks:
                self.query_one("#hand-panel").border_title += " · tokens " + " ".join(t.title() for t in toks)
            if obs["players"][obs["me"]].get("revealed"):
                self.query_one("#hand-panel").border_title += " · open to all (Reveal)"

    # -- what is asked of you ------------------------------------------------------------------
    def _step_op(self) -> str | None:
        obs = self.obs
        if obs is None or obs["over"] or obs["current"] != obs["me"]:
            return None
        return step_op(obs)

    def _legal_all(self) -> list[Action]:
        assert self.obs is not None
        return [Action.from_dict(a) for a in self.obs.get("legal", ())]

    def _prompt_if_asked(self) -> None:
        """Open the list (or colour picker, or searched pile) for a decision that is yours."""
        obs = self.obs
        if obs is None or self.app.screen is not self or self._prompted == obs["version"]:
            return
        op = self._step_op()
        if op is None or op in HAND_STEPS or op in KEY_STEPS or not obs.get("legal"):
            return
        self._prompted = obs["version"]
        self._ask(op)

    def _ask(self, op: str) -> None:
        assert self.obs is not None
        obs, names = self.obs, self.session.names
        legal = self._legal_all()
        if op == "color" and all(a.kind == "color" for a in legal if a.kind not in ("uno", "catch")):
            def named(color: str | None) -> None:
                if color is not None:
                    self._send(Action("color", color=color))

            self.app.push_screen(ColorPicker("card", obs.get("hand", ()), title=prompt_title(obs, names)), named)
            return
        if op == "search":
            self.app.push_screen(SearchPicker(prompt_title(obs, names), obs.get("search") or [], legal),
                                 self._chosen)
            return
        if op in LIST_STEPS:
            options = [(action_words(a.to_dict(), obs, names), a) for a in legal if a.kind not in ("uno", "catch")]
            self.app.push_screen(ChoicePicker(prompt_title(obs, names), options, kind=op, note=prompt_note(obs)),
                                 self._chosen)
            return
        self.action_actions()  # a step this table has no list for: every legal action, in words

    def _chosen(self, action: Action | None) -> None:
        if action is not None:
            self._send(action)

    def action_actions(self) -> None:
        """Every legal action, in words: the way out of any situation."""
        assert self.obs is not None
        obs = self.obs
        legal = self._legal_all()
        if not legal:
            self._explain("there is nothing for you to do right now")
            return
        options = [(action_words(a.to_dict(), obs, self.session.names), a) for a in legal]
        self.app.push_screen(ChoicePicker("Everything you can do now", options, kind="actions"), self._chosen)

    # -- playing -------------------------------------------------------------------------------
    def _for_card(self, card: dict[str, Any], kinds: tuple[str, ...]) -> list[Action]:
        """Legal actions naming this card, or (lists hold one card per face) an identical one."""
        assert self.obs is not None
        legal = [a for a in self._legal_all() if a.kind in kinds and a.card is not None]
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
        self.app.push_screen(ChoicePicker(title, options, kind=kind), self._chosen)

    def action_intent(self, kind: str) -> None:
        legal = self._legal(kind)
        if kind == "pass" and not legal and self._step_op() in LIST_STEPS:
            self._ask(self._step_op() or "")  # no "pass" here: show what can be chosen
            return
        self._send(legal[0] if legal else Action(kind))

    def action_help(self) -> None:
        assert self.obs is not None
        self.app.push_screen(DiezHelpScreen(self.obs.get("options") or {}))

    def _round_over_screen(self) -> RoundOverScreen:
        assert self.obs is not None
        return DiezRoundOverScreen(self.obs, self.session.names)
