"""The table of UNO 扩展规则 (``extended``): phases, effects and chains on the UNO table's machinery.

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

from typing import Any, Sequence

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.reactive import reactive
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from core import Action
from core.variants.extended.cards import TABLE

from ..widgets import GameLog, HandView
from ..widgets.cards import CardPainter
from ..widgets.extended_cards import ext_inline, label, pad, sort_key, use_english, zh
from ..widgets.extended_prompt import action_words
from ..widgets.extended_views import CARD_KINDS, ExtHandView, ExtPlayersView, ExtPromptView, ExtStatusLine, \
    ExtTableView
from .color_picker import ColorPicker
from .help import HelpScreen, _grid
from .round_over import RoundOverScreen
from .table import LOG_BINDING, TableScreen
from .target_picker import TargetPicker

COMPACT_HEIGHT = 30
"""Below this many rows the hand is drawn one line per row of cards."""

DUEL_KEYS = {"red": "r", "yellow": "y", "green": "g", "blue": "b", "black": "k"}


# -- the list of moves: the fallback for any phase, and the duel's colour picks ------------------
class MoveRow(Static):
    def __init__(self, index: int, text: Text) -> None:
        super().__init__(text, classes="move")
        self.index = index

    def on_click(self, event: events.Click) -> None:
        event.stop()
        screen = self.screen
        assert isinstance(screen, ActionMenu)
        screen.dismiss(screen.rows[self.index][1])


class ActionMenu(ModalScreen[dict[str, Any] | None]):
    """Choose one of the moves listed (in words): ↑/↓ and enter, a number, or the row's own key."""

    BINDINGS = [
        Binding("up,k", "move(-1)", "previous", show=False),
        Binding("down,j", "move(1)", "next", show=False),
        Binding("enter,space", "choose", "choose"),
        Binding("escape", "dismiss_none", "cancel"),
    ]

    index: reactive[int] = reactive(0)

    def __init__(self, title: str, rows: Sequence[tuple[str, dict[str, Any], str | None]]) -> None:
        """``rows``: (words, the legal action, a key of its own or None)."""
        super().__init__()
        self.title_text = title
        self.rows = list(rows)

    def compose(self) -> ComposeResult:
        with Vertical(id="moves"):
            yield Static(self.title_text, id="moves-title")
            with VerticalScroll(id="moves-list"):
                for i, (words, _, key) in enumerate(self.rows):
                    tag = key if key else (str(i + 1) if i < 9 else " ")
                    yield MoveRow(i, Text.assemble((f" {tag} ", "bold"), f" {words}"))
            yield Static("↑/↓ enter, or the key shown · esc closes", id="moves-keys")

    def on_mount(self) -> None:
        self.watch_index(self.index)

    def watch_index(self, index: int) -> None:
        for i, row in enumerate(self.query(MoveRow)):
            row.set_class(i == index, "-chosen")
            if i == index:
                row.scroll_visible(animate=False)

    def on_key(self, event: events.Key) -> None:
        for i, (_, action, key) in enumerate(self.rows):
            if key is not None and event.character == key or key is None and event.character == str(i + 1):
                event.stop()
                self.dismiss(action)
                return

    def action_move(self, step: int) -> None:
        if self.rows:
            self.index = (self.index + step) % len(self.rows)

    def action_choose(self) -> None:
        if self.rows:
            self.dismiss(self.rows[self.index][1])

    def action_dismiss_none(self) -> None:
        self.dismiss(None)


# -- help: the keys, the turn, and every card with its Chinese name and gloss -----------------------
EXT_KEYS: list[tuple[str, str]] = [
    ("← → h l", "choose a card in your hand (its name and what it does show beneath)"),
    ("enter space", "use the chosen card now: play it, pass an effect on with it, counter with it, attach "
                    "it to a transfer, discard or keep it (a colour or a player is asked for when needed)"),
    ("a", "accept the effect on you (draw the total, take a transfer's cards, accept 缴械 or 紧箍咒, "
          "accept a swap, clip or duel)"),
    ("f", "refuse 缴械 Disarm (draw four), or give up in 抬杠 Argue (draw four)"),
    ("e", "let the C4 or the grenade explode on you (reset your hand)"),
    ("s", "send your transfer on (after attaching up to two cards)"),
    ("c", "play 迷彩 Camouflage with the chosen card, as a colour you name"),
    ("d / p", "draw a card / pass or end the turn (after drawing or playing)"),
    ("u / x", "call UNO / catch a player who did not"),
    ("m", "every legal move, in words: the way on from any phase"),
    ("n", "deal the next round (a rematch once the match is over)"),
    ("L", "the whole log: every line of the game so far, to scroll and search"),
    ("? / ctrl+q", "this help / quit"),
]

EXT_RULES: list[tuple[str, str]] = [
    ("Turn", "Judgement (the effects on you are answered, highest priority first), then draw (one card) "
             "and/or play (one card): one or both, never neither."),
    ("Play", "A black card, or the colour in play, or the number/function of last. Black cards other "
             "than 改色 and +4 do not change last."),
    ("Effects", "Draw effects stack (total, largest value: no +2 on a +4); a counter answers only an effect "
                "of lower priority: 禁,炸弹 > 后悔药 > 寡妇 > 神手,夹子 > 决斗,缴械,抬杠,C4 > 反弹,pass > 转移,+2/+4."),
    ("Badges", "禁stun · +N draw · 移▮▮ a transfer with cards face down · 缴械 · 紧箍咒 · 箍N bound to N "
               "cards · 锢 transfer lock · 虚弱 weak · ◀ must act now."),
    ("Cap", "No card comes from the pile beyond three times the deal (the hand cap, shown as 7/21)."),
    ("Winning", "No cards, no effect on you, and nothing that could come back to you. Each winner scores "
                "the players still in; the rest play on."),
]


def card_rows() -> list[tuple[str, str]]:
    """Every card of the deck: its label, Chinese name, English name, count and what it does."""
    rows = [("R7 数字牌", "Number cards 0-9: 0 once, 1-9 twice per colour (76).")]
    for f in TABLE:
        where = {"each": "per colour", "black": "black"}.get(f.where, f.where)
        count = f.copies * 4 if f.where == "each" else f.copies
        chip = label({"color": None if f.where == "black" else "red", "rank": f.rank})
        if f.where not in ("black", "each"):
            chip = label({"color": f.where, "rank": f.rank})
        rows.append((f"{pad(chip, 7, 'left')} {zh(f.rank)}",
                     f"{f.en} ({count}, {f.copies} {where}): {f.gloss}." if f.where == "each"
                     else f"{f.en} ({count}, {where}): {f.gloss}."))
    return rows


class ExtendedHelpScreen(HelpScreen):
    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(_grid("Keys", EXT_KEYS), id="help-keys")
            yield Static(_grid("UNO 扩展规则 in brief", EXT_RULES), id="help-rules")
            yield Static(_grid("Every card (中文 · English · count · what it does)", card_rows()), id="help-cards")
            yield Static("esc, ? or q closes this help · ↑/↓ scroll", id="help-close")


# -- the round's end -------------------------------------------------------------------------------
class ExtHandsTable(CardPainter):
    """Who went out, in order, with the points each scored; the hand left over."""

    COMPONENT_CLASSES = CardPainter.COMPONENT_CLASSES | {"hands--winner", "hands--dim"}

    def __init__(self, obs: dict[str, Any], names: Sequence[str]) -> None:
        super().__init__()
        self.obs, self.names = obs, list(names)

    def render(self) -> Any:
        from rich.table import Table

        obs = self.obs
        palette = self.palette()
        win = self.get_component_rich_style("hands--winner")
        dim = self.get_component_rich_style("hands--dim")
        finished = obs.get("round_winners") or obs.get("finished") or []
        n = len(self.names)
        table = Table.grid(padding=(0, 2), expand=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        table.add_column(justify="right", no_wrap=True)
        order = list(finished) + [p for p in range(n) if p not in finished]
        for p in order:
            name = "You" if p == obs["me"] else self.names[p]
            if p in finished:
                place = finished.index(p)
                cards = Text(f"out #{place + 1}: +{n - 1 - place} points", win)
            else:
                hand = sorted(obs["hands"][p], key=sort_key)
                cards = Text(" ").join(ext_inline(c, palette) for c in hand) if hand else Text("–", dim)
            total = Text(f"{obs['scores'][p]}", style="bold")
            total.append(f" / {obs['target_score']}", dim)
            table.add_row(Text(name, style=win if p in finished[:1] else ""), cards, total)
        return table


class ExtRoundOverScreen(RoundOverScreen):
    def compose(self) -> ComposeResult:
        obs = self.obs
        finished = obs.get("round_winners") or []
        first = finished[0] if finished else obs["winner"]
        with Vertical(id="round-over"):
            yield Static(f"{self._who(first)} went out first; every winner scores the players still in.",
                         id="round-headline")
            with VerticalScroll(id="round-hands"):
                yield ExtHandsTable(obs, self.names)
            yield from self._compose_match_end()


# -- the table -------------------------------------------------------------------------------------
class ExtendedTableScreen(TableScreen, inherit_bindings=False):
    BINDINGS = [
        Binding("left,h", "select(-1)", "pick", key_display="←→"),
        Binding("right,l", "select(1)", "pick", show=False),
        Binding("enter,space", "play", "use card", key_display="⏎"),
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
        LOG_BINDING,
        Binding("question_mark", "help", "help", key_display="?"),
    ]

    def _compose_top(self, names: list[str], labels: list[str]) -> ComposeResult:
        yield ExtPlayersView(names, labels, id="players").data_bind(TableScreen.obs)
        yield ExtTableView(names, id="ext-table").data_bind(TableScreen.obs)

    def _compose_above_hand(self, names: list[str]) -> ComposeResult:
        yield ExtPromptView(names, id="prompt").data_bind(TableScreen.obs)

    def _compose_below_hand(self, names: list[str]) -> ComposeResult:
        yield from ()

    def _hand_view(self) -> HandView:
        return ExtHandView(id="hand")

    def _status_line(self, names: list[str]) -> Widget:
        return ExtStatusLine(id="status")

    def _set_titles(self) -> None:
        self.query_one("#log").border_title = "Log"
        log = self.query_one(GameLog)
        log.variant = "extended"
        # Card names in English for players who do not read Chinese (play --english, the new-game screen's e).
        log.english = bool(getattr(self.app, "english_cards", False))
        use_english(log.english)

    def on_unmount(self) -> None:
        use_english(False)

    def _fit(self, width: int, height: int) -> None:
        super()._fit(width, height)
        self.query_one(ExtHandView).compact = height < COMPACT_HEIGHT

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not self._too_small

    def _refresh(self) -> None:
        super()._refresh()
        obs = self.obs
        assert obs is not None
        me = obs["me"]
        count = len(obs.get("hand", ()))
        title = f"Your hand · {count}/{obs.get('hand_cap', '?')} cards · {obs['scores'][me]} pts"
        bound = next((e for e in obs["effects"][me] if e["kind"] == "bound"), None)
        if bound:
            title += f" · 紧箍咒: down to {bound.get('eff')}"
        self.query_one("#hand-panel").border_title = title

    # -- what you are asked, and the pickers that open by themselves ----------------------------------
    def _mine(self) -> bool:
        obs = self.obs
        return obs is not None and not obs["over"] and obs.get("actor") == obs["me"]

    def _prompt_if_asked(self) -> None:
        obs = self.obs
        if obs is None or self.app.screen is not self or self._prompted == obs["version"] or not self._mine():
            return
        if obs["phase"] in ("direction", "duel"):
            self._prompted = obs["version"]
            self._ask_phase()

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
        names = ["You" if i == obs["me"] else n for i, n in enumerate(self.session.names)]
        self.app.push_screen(TargetPicker("You play first: who plays after you?", seats, names,
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
        rows = [(action_words(a, obs, self.session.names), a, None) for a in legal]
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
        self._use(card)

    @on(ExtHandView.PlayRequested)
    def _clicked(self, message: ExtHandView.PlayRequested) -> None:
        card = self.query_one(ExtHandView).selected_card
        if card is not None and card["id"] == message.card_id:
            self._use(card)

    def _use(self, card: dict[str, Any]) -> None:
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
        name = f"{zh(card['rank'])}" if card["rank"] in {f.rank for f in TABLE} else label(card)
        targets = [a.target for a in acts if a.target is not None]
        if targets:
            verb = {"DUELC": "duel whom", "DUELN": "duel whom", "CURSE": "curse whom"}.get(card["rank"], "aim at whom")
            names = ["You" if i == obs["me"] else n for i, n in enumerate(self.session.names)]

            def aimed(seat: int | None) -> None:
                if seat is not None:
                    self._send(next(a for a in acts if a.target == seat))

            self.app.push_screen(TargetPicker(f"Your {name}: {verb}?", list(dict.fromkeys(targets)), names,
                                              [p["cards"] for p in obs["players"]], hand=len(obs.get("hand", ()))),
                                 aimed)
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

        self.app.push_screen(ColorPicker("迷彩", obs.get("hand", ()),
                                         title=f"迷彩 with {label(card)}: which colour does it count as? "
                                               f"({', '.join(c for c in ('red', 'yellow', 'green', 'blue') if c in ok)})"),
                             named)

    def action_help(self) -> None:
        assert self.obs is not None
        self.app.push_screen(ExtendedHelpScreen("extended", self.obs.get("options") or {}))

    def _round_over_screen(self) -> RoundOverScreen:
        assert self.obs is not None
        return ExtRoundOverScreen(self.obs, self.session.names)
