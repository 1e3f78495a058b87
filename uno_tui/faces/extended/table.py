"""The table of UNO 扩展规则 (``extended``): phases, effects and chains on the machinery every table shares.

Seats with their effects and the hand cap at the top left; the table (``last``, the colour,
the pending draw, transfers in flight face down, the chain under way) at the top right; what
is asked of you in a sentence; your hand with Chinese labels and the chosen card's gloss; the
log; the keys that answer now.

Every move comes from ``obs["legal"]``; the engine's ``actor`` says who must act, so an answer
out of turn (a 夹子 aimed at you, a duel pick, a grenade passed to you) is asked the same way.
The keys: ←/→ choose a card, enter uses it (play, pass on, counter, attach, discard, keep),
``a`` accept, ``f`` refuse / give up, ``e`` explode, ``s`` send, ``c`` 迷彩 with the chosen card,
``d`` draw, ``p`` pass / end the turn, ``u`` UNO, ``x`` catch. ``m`` lists every legal move in
words, so no phase can leave you without a way on.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding

from core import Action

from ...screens.pickers import ActionMenu, ColorPicker, TargetPicker
from ...screens.table import TableScreen, table_bindings
from ...widgets import HandView
from ..core_words import EXTENDED_BY_RANK
from .cards import card_name, label, use_english
from .widgets import CARD_KINDS, ExtHandView, ExtPlayersView, ExtPromptView, ExtTableView
from .words import action_words

COMPACT_HEIGHT = 30
"""Below this many rows the hand is drawn one line per row of cards."""

DUEL_KEYS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}


class ExtendedTableScreen(TableScreen, inherit_bindings=False):
    BINDINGS = table_bindings(
        "use card",
        # a and u show in the footer only through the status line, which names them when they apply:
        # the footer stays on one line at 80 columns, a network table's chat key included.
        Binding("a", "intent('accept')", "accept", show=False),
        Binding("f", "intent('refuse')", "refuse", show=False),
        Binding("e", "intent('explode')", "explode", show=False),
        Binding("s", "intent('send')", "send", show=False),
        Binding("c", "camo", "迷彩", show=False),
        Binding("d", "intent('draw')", "draw"),
        Binding("p", "intent('pass')", "pass"),
        Binding("u", "intent('uno')", "UNO", show=False),
        Binding("x", "catch", "catch", show=False),
        Binding("m", "moves", "moves"),
        Binding("n", "next_round", "next", show=False),
    )

    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        yield ExtPlayersView(names, labels, id="players").data_bind(TableScreen.obs)
        yield ExtTableView(names, id="ext-table").data_bind(TableScreen.obs)

    def _compose_above_hand(self, names: list[str]) -> ComposeResult:
        yield ExtPromptView(names, id="prompt").data_bind(TableScreen.obs)

    def _hand_view(self) -> HandView:
        return ExtHandView(self.face.card_painting(), id="hand")

    def on_mount(self) -> None:
        # Card names in English for players who do not read Chinese (play --english, the new-game screen's e);
        # the chips read the setting as they are drawn. (TableScreen.on_mount runs next.)
        use_english(bool(getattr(self.app, "english_cards", False)))

    def on_unmount(self) -> None:
        use_english(False)

    def _fit(self, width: int, height: int) -> None:
        super()._fit(width, height)
        self.query_one(ExtHandView).compact = height < COMPACT_HEIGHT

    def _hand_title(self, obs: dict[str, Any]) -> str:
        me = obs["me"]
        count = len(obs.get("hand", ()))
        title = f"Your hand · {count}/{obs.get('hand_cap', '?')} cards · {obs['scores'][me]} pts"
        bound = next((e for e in obs["effects"][me] if e["kind"] == "bound"), None)
        if bound:
            title += f" · 紧箍咒: down to {bound.get('eff')}"
        return self.shown(title)

    # -- what you are asked, and the pickers that open by themselves ----------------------------------
    def _mine(self) -> bool:
        obs = self.obs
        return obs is not None and not obs["over"] and obs.get("actor") == obs["me"]

    def _open_prompt(self, obs: dict[str, Any]) -> bool:
        if self._mine() and obs["phase"] in ("direction", "duel"):
            self._ask_phase()
            return True
        return False

    def _ask_phase(self) -> None:
        assert self.obs is not None
        if self.obs["phase"] == "direction":
            self._ask_direction()
        elif self.obs["phase"] == "duel":
            self._ask_duel()

    def _ask_direction(self) -> None:
        obs = self.obs
        assert obs is not None
        seats = [a.target for a in self._legal("direction")]
        self.app.push_screen(TargetPicker("You play first: who plays after you?", seats, self._seat_names(),
                                          [p["cards"] for p in obs["players"]]),
                             lambda seat: seat is not None and self._send(Action("direction", target=seat)))

    def _ask_duel(self) -> None:
        obs = self.obs
        assert obs is not None
        inter = obs.get("interaction") or {}
        rival = inter.get("on") if inter.get("by") == obs["me"] else inter.get("by")
        rows = [(f"{a['color']}", a, DUEL_KEYS.get(a["color"])) for a in obs["legal"] if a["kind"] == "choose"]
        picked = ", ".join(inter.get("picks", [])) or "none yet"
        title = (f"Colour duel with {self.session.names[rival] if rival is not None else '?'}: pick a colour "
                 f"(picked: {picked}); the card turned decides")
        self.app.push_screen(ActionMenu(title, rows), self._chosen_move)

    def _chosen_move(self, action: dict[str, Any] | None) -> None:
        if action is not None:
            self._send(Action.from_dict(action))

    # -- keys ----------------------------------------------------------------------------------------------
    def action_moves(self) -> None:
        """Every legal move in words: the way on from any phase."""
        obs = self.obs
        assert obs is not None
        legal = obs.get("legal") or []
        if not legal:
            who = obs.get("actor")
            self._explain("nothing to do now" + (f": it is {self.session.names[who]}'s move"
                                                 if who is not None and who != obs["me"] else ""))
            return
        rows = [(self.shown(action_words(a, obs, self.session.names)), a, None) for a in legal]
        self.app.push_screen(ActionMenu("Your moves now", rows), self._chosen_move)

    def action_play(self) -> None:
        obs = self.obs
        assert obs is not None
        if self._mine() and obs["phase"] in ("direction", "duel"):
            self._ask_phase()  # the picker was closed: enter opens it again
            return
        card = self.query_one(ExtHandView).selected_card
        if card is None:
            self._explain("you have no card to use")
            return
        self._play(card)

    def _play(self, card: dict[str, Any]) -> None:
        obs = self.obs
        assert obs is not None
        legal = [Action.from_dict(a) for a in obs.get("legal", ())]
        acts = [a for a in legal if a.card == card["id"] and a.kind in CARD_KINDS - {"camo"}]
        if not acts:
            # Not legal: send the phase's own kind of move, so the engine says why in words.
            kinds = [a.kind for a in legal if a.kind in CARD_KINDS - {"camo"}]
            self._send(Action(kinds[0] if kinds else "play", card["id"]))
            return
        if acts[0].kind != "play" or len(acts) == 1:
            self._send(acts[0])
            return
        self._pick_then_send(card, acts)

    def _pick_then_send(self, card: dict[str, Any], acts: list[Action]) -> None:
        obs = self.obs
        assert obs is not None
        name = card_name(card["rank"]) if card["rank"] in EXTENDED_BY_RANK else label(card)
        targets = [a.target for a in acts if a.target is not None]
        if targets:
            verb = {"DUELC": "duel whom", "DUELN": "duel whom", "CURSE": "curse whom"}.get(card["rank"], "aim at whom")

            def aimed(seat: int | None) -> None:
                if seat is not None:
                    self._send(next(a for a in acts if a.target == seat))

            self.app.push_screen(TargetPicker(f"Your {name}: {verb}?", list(dict.fromkeys(targets)),
                                              self._seat_names(), [p["cards"] for p in obs["players"]],
                                              hand=len(obs.get("hand", ()))), aimed)
            return
        kind = acts[0].kind
        title = ("Name the next colour for the grenade" if obs["phase"] == "grenade"
                 else f"Name a colour for your {name}")

        def named(color: str | None) -> None:
            if color is not None:
                match = [a for a in acts if a.color == color]
                self._send(match[0] if match else Action(kind, card["id"], color))

        self.app.push_screen(ColorPicker(name, obs.get("hand", ()), title=title), named)

    def action_camo(self) -> None:
        """迷彩: play it together with the chosen coloured card, as a colour you name."""
        obs = self.obs
        assert obs is not None
        card = self.query_one(ExtHandView).selected_card
        camo = [a for a in self._legal("camo") if card is not None and a.card == card["id"]]
        if card is None or not camo:
            held = any(c["rank"] == "WCAMO" for c in obs.get("hand", ()))
            self._explain("choose the coloured card to play with 迷彩 first" if held and self._legal("camo")
                          else "you cannot play 迷彩 now" if held else "you hold no 迷彩 Camouflage")
            return
        if len(camo) == 1:
            self._send(camo[0])
            return
        ok = {a.color for a in camo}

        def named(color: str | None) -> None:
            if color is not None:
                self._send(next((a for a in camo if a.color == color), Action("camo", card["id"], color)))

        self.app.push_screen(ColorPicker(card_name("WCAMO"), obs.get("hand", ()),
                                         title=self.shown(f"迷彩 with {label(card)}: which colour does it count as? "
                                                          f"({', '.join(c for c in ('red', 'yellow', 'green', 'blue') if c in ok)})")),
                             named)
